// SourceIndex (src/report/sources.ts): the source object of a written face by the nearest source centroid within
// FACE_MATCH_RADIUS, whichever grid cells the search ball meets (the cells are twice the radius, the table keeps
// blocks of cells together): centroids across cell and block edges, at negative coordinates, just inside and just
// outside the radius, the nearest of two, and only among the held objects.
import { describe, expect, it } from 'vitest';
import { FACE_MATCH_RADIUS, faceRuns, SourceIndex, type SourceMesh } from '../../src/report/sources.ts';

/** One object of tiny triangles, each centred on one of `centres`. */
const object = (name: string, centres: number[][]): SourceMesh => {
  const positions = new Float32Array(9 * centres.length);
  const indices = new Uint32Array(3 * centres.length);
  centres.forEach(([x, y, z], t) => {
    positions.set([x - 0.001, y, z - 0.001, x + 0.002, y, z - 0.001, x - 0.001, y, z + 0.002], 9 * t);
    indices.set([3 * t, 3 * t + 1, 3 * t + 2], 3 * t);
  });
  return { name, positions, groups: [{ indices }] };
};

describe('SourceIndex', () => {
  const r = FACE_MATCH_RADIUS;
  // Centroids on and beside the edges of cells (0.1 m) and blocks (0.4 m), on both sides of zero.
  const a = [[0, 0, 0], [0.4, 0, 0], [-0.4, 0.1, -0.8], [12.3, -4.1, 7.9], [-100.05, 3.2, 55.2]];
  const b = [[0.03, 0, 0], [1000.2, 0, -1000.2]];
  const index = new SourceIndex([object('a', a), object('b', b)]);

  it('finds each centroid from anywhere within the radius, in every direction, and nothing beyond it', () => {
    const dirs = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1], [0.577, 0.577, 0.577], [-0.577, 0.577, -0.577]];
    for (const [i, c] of a.slice(1).entries()) {
      for (const d of dirs) {
        const at = (k: number): number[] => c.map((v, j) => v + d[j] * k);
        expect(index.nearest(...(at(0.97 * r) as [number, number, number])), `a[${i + 1}] + ${d} · 0.97 r`).toBe(0);
        expect(index.nearest(...(at(1.03 * r) as [number, number, number])), `a[${i + 1}] + ${d} · 1.03 r`).toBe(-1);
      }
    }
    expect(index.nearest(1000.2 - 0.04, 0, -1000.2 + 0.02)).toBe(1);
  });

  it('takes the nearer of two objects within the radius, and only a held one', () => {
    expect(index.nearest(0.005, 0, 0)).toBe(0);
    expect(index.nearest(0.025, 0, 0)).toBe(1);
    expect(index.nearest(0.005, 0, 0, Uint8Array.of(0, 1))).toBe(1);
    expect(index.nearest(0.005, 0, 0, Uint8Array.of(1, 0))).toBe(0);
  });

  it('makes runs of faces by object', () => {
    const at = [[0, 0, 0], [0.4, 0, 0], [0.03, 0, 0], [5, 5, 5], [12.3, -4.1, 7.9]];
    const runs = faceRuns(at.length, (f, c) => c.set(at[f]), index);
    expect([...runs]).toEqual([0, 0, 2, 1, 3, -1, 4, 0]);
  });
});
