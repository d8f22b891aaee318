// Open edges lying on another object's face, fixed at the compiler (--seams level; src/geometry/seams.ts
// joinOnFaces): a kicker modelled as a Blender export would be — the ground a grid of 1 m quads, the kicker a
// separate object open at the bottom, its foot crossing the interior of the ground's quads (no ground edge along
// it). On Studio's bytes (--seams shape) the foot is an open edge and the probes bump and snag on it; with
// --seams level its corners carry the concave crease's edge data and the ride finds nothing there. A foot sunk
// 1 mm (past T_JUNCTION_TOLERANCE) is not joined. A floor patch lying coplanar on a floor: its border joined flat.
import { afterAll, describe, expect, test } from 'vitest';
import { buildWorld, rideResources } from '../../src/ride/index.ts';
import { EDGE_CONCAVE, EDGE_OPEN } from '../../src/ride/contact.ts';
import { edgeKindAt } from '../../src/ride/world.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-flush-');
afterAll(() => tmp.cleanup());

/** A 3 m wide kicker rising along +x from its foot at x = 0.37 (height `foot`) to 0.3 m at x = 2.37; sides and back closed, bottom open. */
const kicker = (foot: number) => ({
  name: 'kicker',
  positions: [0.37, foot, -1.5, 0.37, foot, 1.5, 2.37, 0.3, -1.5, 2.37, 0.3, 1.5, 2.37, foot, -1.5, 2.37, foot, 1.5],
  indices: [0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4, 0, 2, 4, 1, 5, 3],
});

/** The stored edge kind of every corner of the written faces whose edge runs along the foot line (x = 0.37, y = foot). */
function footKinds(out: string, foot: number): number[] {
  const w = buildWorld(readOutput(out));
  const kinds: number[] = [];
  for (let f = 0; f < w.faces; f++) {
    for (let k = 0; k < 3; k++) {
      const a = 3 * w.corner[3 * f + k], b = 3 * w.corner[3 * f + ((k + 1) % 3)];
      const on = (o: number) => Math.abs(w.vert[o] - 0.37) < 1e-5 && Math.abs(w.vert[o + 1] - foot) < 1e-5;
      if (on(a) && on(b)) kinds.push(edgeKindAt(w, 3 * f + k));
    }
  }
  return kinds;
}

const atFoot = (findings: { kind: string; position: number[] }[]) =>
  findings.filter((f) => (f.kind === 'bump' || f.kind === 'snag') && Math.abs(f.position[0] - 0.37) < 0.05);

describe("a kicker's foot lying on the ground (--seams level joins it; Studio's bytes leave it open)", () => {
  for (const [name, foot] of [['on the ground plane', 0], ['sunk 0.05 mm', -0.00005], ['0.05 mm above', 0.00005]] as const) {
    test(name, async () => {
      const meshes = () => [{ name: 'ground', ...grid(8, 6, 1, -4, 0, -3) }, kicker(foot)];
      const level = await compileMeshes(tmp.dir, `level${foot}`, meshes(), { seams: 'level' });
      expect(footKinds(level, foot)).toEqual([EDGE_CONCAVE]);
      const ours = rideResources(readOutput(level), { laneSpacing: 0, seamSpacing: 0.5 });
      expect(ours.coverage.crossings).toBeGreaterThan(0);
      expect(atFoot(ours.findings), JSON.stringify(ours.findings)).toEqual([]);
      const shape = await compileMeshes(tmp.dir, `shape${foot}`, meshes(), { seams: 'shape' });
      expect(footKinds(shape, foot)).toEqual([EDGE_OPEN]);
      const studio = rideResources(readOutput(shape), { laneSpacing: 0, seamSpacing: 0.5 });
      expect(atFoot(studio.findings).length).toBeGreaterThan(0);
    }, 60_000);
  }

  test('sunk 1 mm: past the tolerance, written open', async () => {
    const level = await compileMeshes(tmp.dir, 'level-1mm', [{ name: 'ground', ...grid(8, 6, 1, -4, 0, -3) }, kicker(-0.001)], { seams: 'level' });
    expect(footKinds(level, -0.001)).toEqual([EDGE_OPEN]);
  }, 60_000);
});

describe('a floor patch lying coplanar on a bigger floor', () => {
  test('its border is joined flat with --seams level and rides clean; Studio\'s bytes bump at it', async () => {
    const meshes = () => [{ name: 'floor', ...grid(6, 6, 1, -3, 0, -3) }, { name: 'patch', ...grid(2, 2, 0.75, -0.6, 0, -0.35) }];
    const ours = rideResources(readOutput(await compileMeshes(tmp.dir, 'patch-level', meshes(), { seams: 'level' })), { laneSpacing: 0, seamSpacing: 0.5 });
    expect(ours.coverage.crossings).toBeGreaterThan(0);
    expect(ours.counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
    const studio = rideResources(readOutput(await compileMeshes(tmp.dir, 'patch-shape', meshes(), { seams: 'shape' })), { laneSpacing: 0, seamSpacing: 0.5 });
    expect(studio.counts.bump + studio.counts.snag).toBeGreaterThan(0);
  }, 60_000);
});
