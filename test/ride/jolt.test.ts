// Jolt (jolt-physics, Jolt compiled to WebAssembly) as an independent second opinion: the level's written triangles
// as ONE static mesh body, so Jolt computes its own active edges across everything we cut, and the same slides.
// Where Jolt's one body rides clean, our ride over our cut files and their edge data finds nothing; where Jolt meets
// a real step or gap, so do we.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildWorld, rideResources, type RideWorld } from '../../src/ride/index.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-jolt-');
afterAll(() => tmp.cleanup());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any;
let J: J;
beforeAll(async () => {
  J = await ((await import('jolt-physics')).default as unknown as () => Promise<J>)();
});

interface Slide { x: number; y: number; speed: number }

/** A Jolt world holding the written faces as one static mesh body. */
function joltLevel(w: RideWorld): J {
  const s = new J.JoltSettings();
  const pairs = new J.ObjectLayerPairFilterTable(2);
  pairs.EnableCollision(0, 1);
  pairs.EnableCollision(1, 1);
  const bp = new J.BroadPhaseLayerInterfaceTable(2, 2);
  bp.MapObjectToBroadPhaseLayer(0, new J.BroadPhaseLayer(0));
  bp.MapObjectToBroadPhaseLayer(1, new J.BroadPhaseLayer(1));
  s.mObjectLayerPairFilter = pairs;
  s.mBroadPhaseLayerInterface = bp;
  s.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bp, 2, pairs, 2);
  const jolt = new J.JoltInterface(s);
  J.destroy(s);
  const verts = new J.VertexList();
  const tris = new J.IndexedTriangleList();
  // One vertex per world position (Jolt finds its edges' neighbours by shared vertex index, not by position).
  const index = new Map<string, number>();
  const at = (t: number, k: number): number => {
    const o = 9 * t + 3 * k, key = `${w.pos[o]},${w.pos[o + 1]},${w.pos[o + 2]}`;
    let i = index.get(key);
    if (i === undefined) {
      i = index.size;
      index.set(key, i);
      verts.push_back(new J.Float3(w.pos[o], w.pos[o + 1], w.pos[o + 2]));
    }
    return i;
  };
  for (let t = 0; t < w.faces; t++) tris.push_back(new J.IndexedTriangle(at(t, 0), at(t, 1), at(t, 2), 0, 0));
  // MeshShapeSettings builds its active edges over the whole mesh: across every cut we made.
  const shape = new J.MeshShapeSettings(verts, tris, new J.PhysicsMaterialList()).Create().Get();
  const body = new J.BodyCreationSettings(shape, new J.RVec3(0, 0, 0), new J.Quat(0, 0, 0, 1), J.EMotionType_Static, 0);
  body.mFriction = 0;
  const bi = jolt.GetPhysicsSystem().GetBodyInterface();
  bi.AddBody(bi.CreateBody(body).GetID(), J.EActivation_DontActivate);
  return jolt;
}

/** Jolt's slide: a frictionless undamped probe resting at `from`, `speed` m/s along +x, `seconds` at 60 Hz. */
function joltSlide(jolt: J, shape: J, lift: number, from: [number, number, number], speed: number, seconds: number): Slide {
  const bi = jolt.GetPhysicsSystem().GetBodyInterface();
  const s = new J.BodyCreationSettings(shape, new J.RVec3(from[0], from[1] + lift, from[2]), new J.Quat(0, 0, 0, 1), J.EMotionType_Dynamic, 1);
  s.mFriction = 0;
  s.mLinearDamping = 0;
  s.mAngularDamping = 0;
  const b = bi.CreateBody(s);
  bi.AddBody(b.GetID(), J.EActivation_Activate);
  bi.SetLinearVelocity(b.GetID(), new J.Vec3(speed, 0, 0));
  for (let i = 0; i < Math.round(seconds * 60); i++) jolt.Step(1 / 60, 1);
  const p = b.GetPosition(), v = b.GetLinearVelocity();
  const out = { x: p.GetX(), y: p.GetY() - lift, speed: Math.hypot(v.GetX(), v.GetY(), v.GetZ()) };
  bi.RemoveBody(b.GetID());
  bi.DestroyBody(b.GetID());
  return out;
}

describe('Jolt as the oracle', () => {
  test("our ride agrees with Jolt's one body: clean where it is clean, a step or gap where it meets one", async () => {
    // Along x, each lane crosses the 100 m cell border at x = 0: a flat floor cut by the border (clean), two
    // objects meeting with a 5 mm step up, two objects 0.1 m apart (a gap), two objects meeting flush (clean).
    const out = await compileMeshes(tmp.dir, 'oracle', [
      { name: 'floor', ...grid(8, 3, 1, -4, 0, 0) },
      { name: 'low', ...grid(4, 3, 1, -4, 0, 5) }, { name: 'high', ...grid(4, 3, 1, 0, 0.005, 5) },
      { name: 'near', ...grid(4, 3, 1, -4, 0, 10) }, { name: 'far', ...grid(39, 3, 0.1, 0.1, 0, 10) },
      { name: 'left', ...grid(4, 3, 1, -4, 0, 15) }, { name: 'right', ...grid(4, 3, 1, 0, 0, 15) },
    ], { tiling: 'cells', seams: 'level' });
    const written = readOutput(out);
    const w = buildWorld(written);
    const jolt = joltLevel(w);
    const box = new J.BoxShape(new J.Vec3(0.1, 0.1, 0.1), 0);
    const wheel = new J.SphereShape(0.028);
    const report = rideResources(written, { laneSpacing: 0 });
    const lanes = [{ z: 1.5, real: false }, { z: 6.5, real: true }, { z: 11.5, real: true }, { z: 16.5, real: false }];
    for (const lane of lanes) {
      const runs = [joltSlide(jolt, box, 0.1, [-2.5, 0, lane.z], 3, 1.5), joltSlide(jolt, wheel, 0.028, [-2.5, 0, lane.z], 3, 1.5)];
      const clean = runs.every((r) => Math.abs(r.x - 2) < 0.01 && Math.abs(r.speed - 3) < 0.01 && Math.abs(r.y) < 0.002);
      expect(clean, `Jolt on lane z = ${lane.z}: ${JSON.stringify(runs)}`).toBe(!lane.real);
      const ours = report.findings.filter((f) => Math.abs(f.position[2] - lane.z) <= 1.5 && Math.abs(f.position[0]) < 0.5);
      if (clean) expect(ours, `lane z = ${lane.z}`).toEqual([]);
      else expect(ours.some((f) => f.kind === 'step' || f.kind === 'gap'), `lane z = ${lane.z}: ${JSON.stringify(ours)}`).toBe(true);
    }
    expect(report.counts.step).toBeGreaterThan(0);
    expect(report.counts.gap).toBeGreaterThan(0);
    expect(report.counts.bump + report.counts.snag).toBe(0);
  }, 60_000);
});
