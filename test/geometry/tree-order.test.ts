// Studio's face order (src/geometry/bvh.ts header) as the WebAssembly builder makes it (assembly/tree.ts: lists
// sorted once, split down the tree) against the rule written out plainly here: at every node a full sort of its
// faces by (centroid on the axis of largest centroid extent, min x, face), the left child taking the first
// leaves[2i + 1] unless the rest start lower in x, then the last, then (never reached) a (min x, face) order.
// Fixtures lean on the ties: equal centroids (grids), −0.0 against 0.0, one min x for all, and slivers whose
// centroids differ only past the 20th mantissa bit (the builder's radix key), in long runs out of order.
import { describe, expect, it } from 'vitest';
import { subtreeLeaves } from '../../src/geometry/bvh.ts';
import { buildTreeWasm } from '../../src/geometry/tree-wasm.ts';

function plainOrder(v: Float32Array, fv: Uint32Array, n: number): { leafFaces: number[]; depth: number } {
  const c = [new Float64Array(n), new Float64Array(n), new Float64Array(n)], mx = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    for (let a = 0; a < 3; a++) {
      const x = v[3 * fv[3 * f] + a], y = v[3 * fv[3 * f + 1] + a], z = v[3 * fv[3 * f + 2] + a];
      c[a][f] = (x + y + z) / 3;
      if (a === 0) mx[f] = Math.min(x, y, z);
    }
  }
  const out = new Array<number>(n);
  let depth = 0;
  const minOf = (fs: number[]): number => fs.reduce((m, f) => (mx[f] < m ? mx[f] : m), Infinity);
  const visit = (i: number, fs: number[], d: number): void => {
    if (fs.length === 1) {
      out[i - (n - 1)] = fs[0];
      depth = Math.max(depth, d);
      return;
    }
    const ext = [0, 1, 2].map((a) => Math.max(...fs.map((f) => c[a][f])) - Math.min(...fs.map((f) => c[a][f])));
    const axis = ext[0] >= ext[1] && ext[0] >= ext[2] ? 0 : ext[1] >= ext[2] ? 1 : 2;
    const sorted = [...fs].sort((f, g) => c[axis][f] - c[axis][g] || mx[f] - mx[g] || f - g);
    const left = subtreeLeaves(2 * i + 1, n);
    let l = sorted.slice(0, left), r = sorted.slice(left);
    if (minOf(r) < minOf(l)) {
      l = sorted.slice(fs.length - left);
      r = sorted.slice(0, fs.length - left);
      if (minOf(r) < minOf(l)) {
        const byX = [...fs].sort((f, g) => mx[f] - mx[g] || f - g);
        l = byX.slice(0, left);
        r = byX.slice(left);
      }
    }
    visit(2 * i + 1, l, d + 1);
    visit(2 * i + 2, r, d + 1);
  };
  visit(0, Array.from({ length: n }, (_, f) => f), 0);
  return { leafFaces: out, depth };
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

interface Fixture { name: string; v: Float32Array; fv: Uint32Array }

function grid(w: number, h: number, height: (i: number, j: number) => number): Fixture {
  const v = new Float32Array((w + 1) * (h + 1) * 3);
  for (let j = 0, k = 0; j <= h; j++) for (let i = 0; i <= w; i++, k += 3) v.set([i * 0.5, height(i, j), j * 0.5], k);
  const fv = new Uint32Array(w * h * 6);
  for (let j = 0, k = 0; j < h; j++) {
    for (let i = 0; i < w; i++, k += 6) {
      const a = j * (w + 1) + i;
      fv.set([a, a + w + 1, a + 1, a + 1, a + w + 1, a + w + 2], k);
    }
  }
  return { name: `grid ${w}×${h}`, v, fv };
}

/** Unshared triangles: corner coordinates from `coord` (seeded), one vertex each. */
function soup(name: string, n: number, coord: (r: () => number, t: number, corner: number, axis: number) => number, seed: number): Fixture {
  const r = rng(seed), v = new Float32Array(9 * n), fv = new Uint32Array(3 * n);
  for (let t = 0; t < n; t++) for (let k = 0; k < 3; k++) {
    for (let a = 0; a < 3; a++) v[9 * t + 3 * k + a] = coord(r, t, k, a);
    fv[3 * t + k] = 3 * t + k;
  }
  return { name, v, fv };
}

const fixtures: Fixture[] = [
  grid(40, 30, () => 0),
  grid(25, 25, (i, j) => Math.round(Math.sin(i * 0.3) * Math.cos(j * 0.2) * 8) / 4),
  // A wall at x = ±0: every min x ties, the sign of zero must not split them.
  (() => {
    const g = grid(30, 20, (i) => i * 0.25);
    for (let k = 0; k < g.v.length; k += 3) { const x = g.v[k]; g.v[k] = (k / 3) % 2 ? -0 : 0; g.v[k + 2] += x * 0; }
    return { ...g, name: 'wall at ±0' };
  })(),
  // Quarter-metre lattice soup: exact ties in centroid and in min x, faces stacked on each other.
  soup('lattice soup', 1500, (r, _t, _k, a) => Math.floor(r() * (a === 1 ? 3 : 12)) / 4, 7),
  // Slivers near x = 1, 2, 4, 8 (x = 2^c · (1 + k · 2^-23), exact in f32): centroids equal in the top 32 bits of
  // their f64 (the builder's radix key) in runs of ~150, out of centroid order in face order.
  soup('slivers', 1200, (r, t, k, a) => (a === 0 ? 2 ** (t % 4) * (1 + Math.floor(r() * 16) * 2 ** -23) : a === 1 ? 0 : k * 1e-6), 11),
  // Flat triangles at y = −0.0, 0.0, 1, 2 (x, z spread less): the y order must take −0.0 and 0.0 as one centroid.
  soup('±0 floors', 900, (r, t, _k, a) => (a === 1 ? (t % 3 === 0 ? (t % 2 ? -0 : 0) : (t % 3)) : Math.floor(r() * 3) / 4), 5),
  soup('random soup', 2000, (r, _t, _k, a) => (r() - 0.5) * (a === 1 ? 4 : 60), 3),
];
for (let n = 1; n <= 40; n++) fixtures.push(soup(`soup of ${n}`, n, (r) => Math.floor(r() * 6) / 2 - 1, 100 + n));

describe('tree face order', () => {
  it.each(fixtures)('$name: leaf for leaf the plain rule', ({ v, fv }) => {
    const n = fv.length / 3;
    const root = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let k = 0; k < v.length; k++) { root[k % 3] = Math.min(root[k % 3], v[k]); root[3 + (k % 3)] = Math.max(root[3 + (k % 3)], v[k]); }
    const tree = buildTreeWasm(v, fv, n, root);
    const plain = plainOrder(v, fv, n);
    expect(Array.from(tree.leafFaces)).toEqual(plain.leafFaces);
    expect(tree.depth).toBe(plain.depth);
  });

  it('the slivers fixture does hold long runs of one 32-bit centroid key, out of order by face', () => {
    const { v, fv } = fixtures[4];
    const top = new Uint32Array(2), f64 = new Float64Array(top.buffer);
    const runs = new Map<number, number[]>();
    for (let f = 0; f < fv.length / 3; f++) {
      f64[0] = (v[3 * fv[3 * f]] + v[3 * fv[3 * f + 1]] + v[3 * fv[3 * f + 2]]) / 3;
      runs.set(top[1], [...(runs.get(top[1]) ?? []), f64[0]]);
    }
    const long = [...runs.values()].filter((r) => r.length > 32);
    expect(long.length).toBeGreaterThan(1);
    expect(long.some((r) => r.some((x, i) => i > 0 && x < r[i - 1]))).toBe(true);
  });
});
