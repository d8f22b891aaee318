// Splitting a welded mesh into shapes within the u16 limits (../shared/spec/physics-resource.md, "Triangle-mesh
// shapes": a shape holds at most 65,535 vertices and 21,845 faces). A piece of at most 21,845 triangles uses at most
// 65,535 vertices, so the face limit is the only one to enforce. Each piece keeps its triangles in welded order and
// is encoded with the whole object's welded numbering (as the reference encodes a batch of a welded object).
//
// Two rules (docs/format-decisions.md, "Encoder"):
// - 'spatial' (default, decision): recursive bisection at the median centroid along the axis of largest centroid
//   extent, counts proportional to the pieces each side needs — deterministic, each piece compact, pieces balanced.
// - 'sequential': consecutive runs of at most maxFaces welded triangles (what a batch-by-count writer does).

import { faceRecords, fillKeys, selectFaces, spreadAxis, type FaceRecords } from './bvh.ts';

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
  bisect(rec, all, new Float64Array(n), 0, n, maxFaces, out);
  for (const p of out) p.sort();
  return out;
}

function bisect(rec: FaceRecords, perm: Uint32Array, key: Float64Array, lo: number, hi: number, maxFaces: number, out: Uint32Array[]): void {
  const n = hi - lo;
  if (n <= maxFaces) {
    out.push(perm.slice(lo, hi));
    return;
  }
  const pieces = Math.ceil(n / maxFaces);
  const leftPieces = Math.floor(pieces / 2);
  const m = lo + Math.floor((n * leftPieces) / pieces);
  fillKeys(rec, spreadAxis(rec.centroid, perm, lo, hi), perm, key, lo, hi);
  selectFaces(key, perm, rec.box, lo, hi, m);
  bisect(rec, perm, key, lo, m, maxFaces, out);
  bisect(rec, perm, key, m, hi, maxFaces, out);
}
