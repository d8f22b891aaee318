// Splitting a welded mesh into shapes within the u16 limits (../shared/spec/physics-resource.md, "Triangle-mesh
// shapes": a shape holds at most 65,535 vertices and 21,845 faces). A piece of at most 21,845 triangles uses at most
// 65,535 vertices, so the face limit is the only one to enforce. Each piece keeps its triangles in welded order and
// is encoded with the whole object's welded numbering (as the reference encodes a batch of a welded object).
//
// Two rules (docs/format-decisions.md, "Encoder"):
// - 'spatial' (default, decision): recursive bisection at the median centroid along the axis of largest centroid
//   extent, counts proportional to the pieces each side needs — deterministic, each piece compact, pieces balanced.
// - 'sequential': consecutive runs of at most maxFaces welded triangles (what a batch-by-count writer does).

import { selectFaces, spreadAxis } from './bvh.ts';

export type SplitRule = 'spatial' | 'sequential';

/** Welded triangle indices of each piece, ascending within a piece. One piece when no split is needed. */
export function splitTriangles(positions: Float32Array, tris: Uint32Array, maxFaces: number, rule: SplitRule): Uint32Array[] {
  const n = tris.length / 3;
  if (!(maxFaces >= 1)) throw new Error(`split: maxFaces ${maxFaces} must be ≥ 1`);
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  if (n <= maxFaces) return [all];
  if (rule === 'sequential') {
    const out: Uint32Array[] = [];
    for (let s = 0; s < n; s += maxFaces) out.push(all.slice(s, Math.min(n, s + maxFaces)));
    return out;
  }
  const centroid = centroids(positions, tris);
  const out: Uint32Array[] = [];
  bisect(centroid, all, new Float64Array(n), new Float64Array(n), 0, n, maxFaces, out);
  for (const p of out) p.sort();
  return out;
}

/** Triangle centroids, xyz f64 per triangle. */
function centroids(p: Float32Array, tris: Uint32Array): Float64Array {
  const n = tris.length / 3;
  const c = new Float64Array(3 * n);
  for (let t = 0; t < n; t++) {
    const a = 3 * tris[3 * t], b = 3 * tris[3 * t + 1], d = 3 * tris[3 * t + 2];
    c[3 * t] = (p[a] + p[b] + p[d]) / 3;
    c[3 * t + 1] = (p[a + 1] + p[b + 1] + p[d + 1]) / 3;
    c[3 * t + 2] = (p[a + 2] + p[b + 2] + p[d + 2]) / 3;
  }
  return c;
}

/** Cuts perm[lo, hi) at the median centroid of its widest axis (ties by index) until each piece fits. */
function bisect(c: Float64Array, perm: Uint32Array, key: Float64Array, zero: Float64Array, lo: number, hi: number, maxFaces: number, out: Uint32Array[]): void {
  const n = hi - lo;
  if (n <= maxFaces) {
    out.push(perm.slice(lo, hi));
    return;
  }
  const pieces = Math.ceil(n / maxFaces);
  const leftPieces = Math.floor(pieces / 2);
  const m = lo + Math.floor((n * leftPieces) / pieces);
  const axis = spreadAxis(c, perm, lo, hi);
  for (let i = lo; i < hi; i++) key[i] = c[3 * perm[i] + axis];
  zero.fill(0, lo, hi); // no secondary key: ties go by triangle index
  selectFaces(key, zero, perm, lo, hi, m);
  bisect(c, perm, key, zero, lo, m, maxFaces, out);
  bisect(c, perm, key, zero, m, hi, maxFaces, out);
}
