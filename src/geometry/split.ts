// Splitting a welded mesh into shapes within the u16 limits (../shared/spec/physics-resource.md, "Triangle-mesh
// shapes": a shape holds at most 65,535 vertices and 21,845 faces). A piece of at most 21,845 triangles uses at most
// 65,535 vertices, so the face limit is the only one to enforce. Each piece keeps its triangles in welded order and
// is encoded with the whole object's welded numbering (as the reference encodes a batch of a welded object).
//
// Two rules (docs/format-decisions.md, "Encoder"):
// - 'spatial' (default, decision): recursive bisection at the median centroid along the axis of largest centroid
//   extent, counts proportional to the pieces each side needs — deterministic, each piece compact, pieces balanced.
// - 'sequential': consecutive runs of at most maxFaces welded triangles (what a batch-by-count writer does).

import { faceRecords, selectFaces, type FaceRecords } from './bvh.ts';

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
  const rec = faceRecords(positions, tris, n);
  const out: Uint32Array[] = [];
  bisect(rec, all, 0, n, maxFaces, out);
  for (const p of out) p.sort();
  return out;
}

function bisect(rec: FaceRecords, perm: Uint32Array, lo: number, hi: number, maxFaces: number, out: Uint32Array[]): void {
  const n = hi - lo;
  if (n <= maxFaces) {
    out.push(perm.slice(lo, hi));
    return;
  }
  const pieces = Math.ceil(n / maxFaces);
  const leftPieces = Math.floor(pieces / 2);
  const m = lo + Math.floor((n * leftPieces) / pieces);
  selectFaces(rec, widestAxis(rec, perm, lo, hi), perm, lo, hi, m);
  bisect(rec, perm, lo, m, maxFaces, out);
  bisect(rec, perm, m, hi, maxFaces, out);
}

function widestAxis(rec: FaceRecords, perm: Uint32Array, lo: number, hi: number): number {
  const lo3 = [Infinity, Infinity, Infinity], hi3 = [-Infinity, -Infinity, -Infinity];
  for (let i = lo; i < hi; i++) {
    for (let a = 0; a < 3; a++) {
      const c = rec.centroid[3 * perm[i] + a];
      if (c < lo3[a]) lo3[a] = c;
      if (c > hi3[a]) hi3[a] = c;
    }
  }
  const e = [hi3[0] - lo3[0], hi3[1] - lo3[1], hi3[2] - lo3[2]];
  return e[0] >= e[1] && e[0] >= e[2] ? 0 : e[1] >= e[2] ? 1 : 2;
}
