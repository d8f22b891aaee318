// Jolt (jolt-physics, Jolt compiled to WebAssembly, MIT) as the ride's oracle: the level's written triangles as ONE
// static mesh body, so Jolt computes its own active edges across everything we cut, and a frictionless probe slid
// over it. Shared by the tests that check the ride against it.
import type { RideWorld } from '../../src/ride/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any;
let J: J;

/** Loads Jolt once; the functions below use it. */
export async function loadJolt(): Promise<J> {
  J ??= await ((await import('jolt-physics')).default as unknown as () => Promise<J>)();
  return J;
}

export interface Slide { x: number; y: number; speed: number }

/** A Jolt world holding the written faces as one static mesh body. */
export function joltLevel(w: RideWorld): J {
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
    const o = 3 * w.corner[3 * t + k], key = `${w.vert[o]},${w.vert[o + 1]},${w.vert[o + 2]}`;
    let i = index.get(key);
    if (i === undefined) {
      i = index.size;
      index.set(key, i);
      verts.push_back(new J.Float3(w.vert[o], w.vert[o + 1], w.vert[o + 2]));
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
export function joltSlide(jolt: J, shape: J, lift: number, from: [number, number, number], speed: number, seconds: number): Slide {
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

/**
 * The largest horizontal speed a probe loses in one 1/60 s step over Jolt's level, m/s, taken over `phases` starts
 * `speed / 60 / phases` apart (where the discrete steps fall against an edge decides whether Jolt's speculative
 * contact meets it: one start alone can step over a ghost another start hits). The probe slides frictionless along
 * `dir` (x, z) from `from` + lift, without rotating, for `seconds`; only losses within `window` m (x/z) of `at` count.
 */
export function joltWorstLoss(jolt: J, shape: J, lift: number, from: [number, number, number], dir: [number, number], speed: number, seconds: number, at: [number, number], window: number, phases = 10): number {
  const bi = jolt.GetPhysicsSystem().GetBodyInterface();
  let worst = 0;
  for (let k = 0; k < phases; k++) {
    const d = (k * speed) / 60 / phases;
    const s = new J.BodyCreationSettings(shape, new J.RVec3(from[0] + dir[0] * d, from[1] + lift, from[2] + dir[1] * d), new J.Quat(0, 0, 0, 1), J.EMotionType_Dynamic, 1);
    s.mFriction = 0;
    s.mLinearDamping = 0;
    s.mAngularDamping = 0;
    s.mAllowedDOFs = J.EAllowedDOFs_TranslationX | J.EAllowedDOFs_TranslationY | J.EAllowedDOFs_TranslationZ;
    const b = bi.CreateBody(s);
    bi.AddBody(b.GetID(), J.EActivation_Activate);
    bi.SetLinearVelocity(b.GetID(), new J.Vec3(speed * dir[0], 0, speed * dir[1]));
    let before = speed;
    for (let i = 0; i < Math.round(seconds * 60); i++) {
      jolt.Step(1 / 60, 1);
      const p = b.GetPosition(), v = b.GetLinearVelocity();
      const h = Math.hypot(v.GetX(), v.GetZ());
      if (Math.abs(p.GetX() - at[0]) <= window && Math.abs(p.GetZ() - at[1]) <= window) worst = Math.max(worst, before - h);
      before = h;
    }
    bi.RemoveBody(b.GetID());
    bi.DestroyBody(b.GetID());
  }
  return worst;
}
