// Jolt's slide (UnitTests/Physics/ActiveEdgesTests.cpp, restated in ../shared/spec/public-facts.md "Ghost bumps"):
// a frictionless box of half extent 0.1 m at 3 m/s for 2 s at 60 Hz over compiled 7 × 7 one-metre quads ends at the
// frictionless answer with the written edge data and bumps without it; then the same slide across the seams the
// compiler writes (a 100 m cell border, a u16 split, two authored objects meeting flush), and the whole ride check
// over those outputs with --seams level (no findings) and --seams shape (the bumps Studio's bytes cost).
import { afterAll, describe, expect, test } from 'vitest';
import { buildWorld, faceSource, rideResources } from '../../src/ride/index.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, grid, readOutput, slide, stripEdges } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-');
afterAll(() => tmp.cleanup());

describe("Jolt's slide over compiled quads", () => {
  test('with the written edge data the box ends at the frictionless answer; stripped, it bumps', async () => {
    const out = await compileMeshes(tmp.dir, 'quads', [{ name: 'floor', ...grid(7, 7, 1, -3.5, 0, -3.5) }]);
    const written = readOutput(out);
    const r = slide(buildWorld(written), [-3, 0, 0]);
    expect(Math.abs(r.position[0] - 3)).toBeLessThan(1e-3);
    expect(Math.abs(Math.hypot(...r.velocity) - 3)).toBeLessThan(2e-3);
    expect(r.hits).toEqual([]);
    const stripped = slide(buildWorld(stripEdges(written)), [-3, 0, 0]);
    const stopsShort = stripped.position[0] < 3 - 1;
    expect(stopsShort || stripped.hits.length > 0).toBe(true);
    expect(stopsShort).toBe(true); // on our engine it snags at the first quad edge it meets
    // And the ride check: nothing on the written file, bumps or snags at the quad edges when stripped.
    expect(rideResources(written, { laneSpacing: 1 }).counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
    const bad = rideResources(stripEdges(written), { laneSpacing: 1 });
    expect(bad.counts.bump + bad.counts.snag).toBeGreaterThan(0);
    for (const f of bad.findings) expect(f.edge).toBe('open');
  });
});

describe('the slide across seams the compiler writes (--seams level: no findings)', () => {
  const cases: [string, () => Promise<[string, string]>, number][] = [
    ['a 100 m cell border', async () => {
      const meshes = [{ name: 'floor', ...grid(8, 4, 1, -4, 0, 48) }];
      return [
        await compileMeshes(tmp.dir, 'cells-level', meshes, { tiling: 'cells', seams: 'level' }),
        await compileMeshes(tmp.dir, 'cells-shape', meshes, { tiling: 'cells', seams: 'shape' }),
      ];
    }, 0],
    ['two authored objects meeting flush', async () => {
      const meshes = [{ name: 'left', ...grid(4, 4, 1, -4, 0, -2) }, { name: 'right', ...grid(4, 4, 1, 0, 0, -2) }];
      return [
        await compileMeshes(tmp.dir, 'flush-level', meshes, { seams: 'level' }),
        await compileMeshes(tmp.dir, 'flush-shape', meshes, { seams: 'shape' }),
      ];
    }, 0],
    ['a u16 split of one object', async () => {
      // 160 × 80 quads of 0.25 m: 25,600 triangles, more than one shape holds (21,845).
      const meshes = [{ name: 'big', ...grid(160, 80, 0.25, -20, 0, -10) }];
      return [
        await compileMeshes(tmp.dir, 'split-level', meshes, { seams: 'level' }),
        await compileMeshes(tmp.dir, 'split-shape', meshes, { seams: 'shape' }),
      ];
    }, 0],
  ];
  for (const [name, build] of cases) {
    test(name, async () => {
      const [level, shape] = await build();
      const written = readOutput(level);
      const w = buildWorld(written);
      // The compiler did cut here: more than one part or resource.
      expect(new Set(Array.from({ length: w.faces }, (_, t) => { const s = faceSource(w, t); return `${s.resource}:${s.part}`; })).size).toBeGreaterThan(1);
      const z = (w.min[2] + w.max[2]) / 2 + 0.3;
      const x0 = w.min[0] + 0.5;
      const r = slide(w, [x0, 0, z], 3, Math.min(2, (w.max[0] - w.min[0] - 1) / 3));
      expect(r.hits).toEqual([]);
      expect(Math.hypot(...r.velocity)).toBeCloseTo(3, 6);
      const report = rideResources(written, { laneSpacing: 4 });
      expect(report.counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
      expect(report.coverage.seamMetres).toBeGreaterThan(0);
      expect(report.coverage.seamMetresRidden).toBe(report.coverage.seamMetres);
      // Studio's bytes (--seams shape): the same cut is open and the probes bump or snag on it.
      const studio = rideResources(readOutput(shape), { laneSpacing: 0 });
      expect(studio.counts.bump + studio.counts.snag).toBeGreaterThan(0);
    }, 60_000);
  }
});
