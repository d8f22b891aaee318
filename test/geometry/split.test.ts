// The spatial split (src/geometry/split.ts, assembly/split.ts) against its rule written out in JavaScript with plain
// sorts: recursive bisection at the median of the widest centroid axis (f64 mean of the f32 corners, summed in
// corner order; ties between axes go to the lower, between triangles to the lower index), left share
// ⌊n·⌊p/2⌋/p⌋ for p = ⌈n/maxFaces⌉ pieces, pieces left to right, each ascending. The WebAssembly selects with
// Floyd–Rivest, finds extents two lanes at a time and computes centroids two triangles at a time (an odd count
// runs its last triangle in both lanes): this holds all of that to the rule.
import { describe, expect, it } from 'vitest';
import { splitTriangles } from '../../src/geometry/split.ts';
import { bumpyGrid, prng } from '../fixtures/meshes.ts';

function referenceSplit(pos: Float32Array, tris: Uint32Array, maxFaces: number): number[][] {
  const n = tris.length / 3;
  const cen = (t: number, a: number): number => (pos[3 * tris[3 * t] + a] + pos[3 * tris[3 * t + 1] + a] + pos[3 * tris[3 * t + 2] + a]) / 3;
  const out: number[][] = [];
  const bisect = (ids: number[]): void => {
    if (ids.length <= maxFaces) { out.push([...ids].sort((x, y) => x - y)); return; }
    let axis = 0, best = -1;
    for (let a = 0; a < 3; a++) {
      const cs = ids.map((t) => cen(t, a));
      const e = Math.max(...cs) - Math.min(...cs);
      if (e > best) { best = e; axis = a; }
    }
    const sorted = [...ids].sort((x, y) => cen(x, axis) - cen(y, axis) || x - y);
    const p = Math.ceil(ids.length / maxFaces), m = Math.floor((ids.length * Math.floor(p / 2)) / p);
    bisect(sorted.slice(0, m));
    bisect(sorted.slice(m));
  };
  bisect(Array.from({ length: n }, (_, t) => t));
  return out;
}

function soup(n: number, seed: number, grid: number): { positions: Float32Array; indices: Uint32Array } {
  const rnd = prng(seed);
  const positions = new Float32Array(9 * n);
  // Coordinates on a coarse grid: many equal centroids, so the index tie-break and equal extents are exercised.
  for (let i = 0; i < positions.length; i++) positions[i] = Math.round((rnd() - 0.5) * grid) * (i % 3 === 1 ? 0.5 : 1);
  return { positions, indices: Uint32Array.from({ length: 3 * n }, (_, i) => i) };
}

describe('spatial split against its rule', () => {
  const cases: [string, { positions: Float32Array; indices: Uint32Array }, number][] = [
    ['bumpy grid, odd count, pieces of 1,000', bumpyGrid(12_345, 2), 1_000],
    ['bumpy grid, pieces of 3', bumpyGrid(101, 4), 3],
    ['coarse soup (equal centroids), odd count', soup(4_999, 5, 6), 777],
    ['coarse soup, pieces of 1', soup(33, 6, 2), 1],
    ['flat soup (one axis of no extent)', (() => { const s = soup(2_001, 7, 40); for (let i = 1; i < s.positions.length; i += 3) s.positions[i] = 2; return s; })(), 250],
    ['one triangle', soup(1, 8, 4), 1],
  ];
  for (const [name, m, maxFaces] of cases) {
    it(name, () => {
      const got = splitTriangles(m.positions, m.indices, maxFaces, 'spatial').map((p) => Array.from(p));
      expect(got).toEqual(referenceSplit(m.positions, m.indices, maxFaces));
    });
  }
});
