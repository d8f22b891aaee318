// Joints the exact seam match does not pair, fixed at the compiler (--seams level): a T-junction (a 2 m edge
// against two 1 m edges of another object) and two objects meeting near-flush (0.05 mm apart, within the join's
// T_JUNCTION_TOLERANCE). The ride finds bumps there on Studio's bytes (--seams shape) and none with --seams level.
import { afterAll, describe, expect, test } from 'vitest';
import { buildWorld, rideResources } from '../../src/ride/index.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';
import { ledgeTerrain } from '../fixtures/grind.ts';

const tmp = lazyTempDir('sk8-ride-joints-');
afterAll(() => tmp.cleanup());

const cases: [string, () => { name: string; positions: number[]; indices: number[] }[]][] = [
  ['a T-junction: a 2 m edge against two 1 m edges', () => [{ name: 'coarse', ...grid(2, 2, 2, -2, 0, -4) }, { name: 'fine', ...grid(4, 4, 1, -2, 0, 0) }]],
  ['two objects meeting near-flush (0.05 mm apart)', () => [{ name: 'near', ...grid(4, 4, 1, -4, 0, -2) }, { name: 'flush', ...grid(4, 4, 1, 0.00005, 0, -2) }]],
];

describe('joints the compiler joins under --seams level', () => {
  for (const [name, meshes] of cases) {
    test(name, async () => {
      const key = name.split(':')[0].replace(/\W+/g, '-');
      const shape = readOutput(await compileMeshes(tmp.dir, `${key}-shape`, meshes(), { seams: 'shape' }));
      const level = readOutput(await compileMeshes(tmp.dir, `${key}-level`, meshes(), { seams: 'level' }));
      const studio = rideResources(shape, { laneSpacing: 0, seamSpacing: 0.5 });
      expect(studio.counts.bump + studio.counts.snag).toBeGreaterThan(0);
      const ours = rideResources(level, { laneSpacing: 0, seamSpacing: 0.5 });
      expect(ours.counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
      expect(ours.coverage.crossings).toBeGreaterThan(0);
    }, 60_000);
  }
});

describe('a grind prism', () => {
  test("riding along a grind prism lying on the ground and past its open end: no findings with --seams level", async () => {
    // The curve is the prism's top line (authoring-notes.md: corner 0 of each ring on the curve): radius 0.03 m at
    // 0.06 m lies on the ground; it ends at x = 1, inside the ground.
    const out = await compileMeshes(tmp.dir, 'prism', [
      { name: 'ground', ...grid(6, 4, 1, -3, 0, -2) },
      { name: 'rail', positions: [-2, 0.06, 0, 0, 0.06, 0, 1, 0.06, 0], indices: undefined as never, material: 'metal', mode: 3, nodeExtras: { sk8_grind_curve: true } } as never,
    ], { seams: 'level' });
    const written = readOutput(out);
    // The prism is there: faces up to its top line at 0.06 m, in a resource of its own.
    const w = buildWorld(written);
    expect(w.max[1]).toBeCloseTo(0.06, 4);
    expect(written.length).toBe(2);
    const report = rideResources(written, { laneSpacing: 0.5, seamSpacing: 0.25 });
    expect(report.counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
    expect(report.coverage.lanesRidden).toBeGreaterThan(0);
  }, 60_000);
});

describe('the density cut', () => {
  test("a dense terrain cut into parts so its creases grind rides clean across the new cuts with --seams level", async () => {
    // 20 × 20 m of 0.25 m quads with a 0.4 m ledge: ~1,358 half-edges per metre, over the game's limit, so the build
    // cuts it (src/geometry/grind-cut.ts). The cuts are seams like any other: Studio's bytes (--seams shape) leave
    // them open and the probes bump there; --seams level gives them the edge data across and nothing is found.
    const terrain = [{ name: 'terrain', ...ledgeTerrain([-40, 0, -40]) }];
    const level = readOutput(await compileMeshes(tmp.dir, 'dense-level', terrain, { seams: 'level' }));
    expect(level.reduce((n, r) => n + r.resource.parts.length, 0)).toBeGreaterThan(1);
    const ours = rideResources(level, { laneSpacing: 0 });
    expect(ours.coverage.crossings).toBeGreaterThan(0);
    expect(ours.counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
    const shape = readOutput(await compileMeshes(tmp.dir, 'dense-shape', terrain, { seams: 'shape' }));
    const studio = rideResources(shape, { laneSpacing: 0 });
    expect(studio.counts.bump + studio.counts.snag).toBeGreaterThan(0);
  }, 60_000);
});
