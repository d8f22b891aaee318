// Splitting a welded mesh into shapes within the u16 limits (../shared/spec/physics-resource.md, "Triangle-mesh
// shapes": a shape holds at most 65,535 vertices and 21,845 faces). A piece of at most 21,845 triangles uses at most
// 65,535 vertices, so the face limit is the only one to enforce. Each piece keeps its triangles in welded order and
// is encoded with the whole object's welded numbering (as the reference encodes a batch of a welded object).
//
// Two rules (docs/format-decisions.md, "Encoder"):
// - 'spatial' (default, decision): recursive bisection at the median centroid along the axis of largest centroid
//   extent, counts proportional to the pieces each side needs — deterministic, each piece compact, pieces balanced.
// - 'sequential': consecutive runs of at most maxFaces welded triangles (what a batch-by-count writer does).
//
// Design log (issue 3 performance; 1M terrain, A/B of v1 and the candidate in one process): Floyd–Rivest sampling
// for ranges over 600 triangles (0.94×) plus each piece's ids put in order by one piece-of-id pass instead of
// sorting each piece (together 0.83×) are kept. Tried, no gain: one Float64Array of (centroid x, y, z, index)
// records with a one-pass widest axis (each level streams ~32 MB either way); bucket selection over 4,096 equal
// key buckets (slower: its 32 MB scatter buffer and copy-back cost more than quickselect's mispredictions).
// Tried 2026-11-29, not kept: ranges of ≥ 32k triangles split out of place into a second buffer set (two pivot keys
// from a sorted 4,096-key sample bracket the median; one branch-free pass writes below / above to the two ends,
// the middle few percent are selected in place; the buffers alternate by depth): split at 1M 249 vs 141 ms median —
// writing every record each level (8 stores a record, plus a fresh 28 MB buffer) costs more memory traffic than the
// in-place partition's mispredictions on this machine, whose random and streaming memory access is slow.
// Kept 2026-11-29: the ids, centroid and piece-of-id scratch reused between calls up to RETAIN_MAX triangles
// (≤ 8 MB retained): split 0.93–0.95× at 80k and 200k (80 and 40 interleaved pairs).

import { SAMPLE_SELECT_MIN, sampleWindow } from './sample-select.ts';

export type SplitRule = 'spatial' | 'sequential';

/** Welded triangle indices of each piece, ascending within a piece. One piece when no split is needed. */
export function splitTriangles(positions: Float32Array, tris: Uint32Array, maxFaces: number, rule: SplitRule): Uint32Array[] {
  const n = tris.length / 3;
  if (!(maxFaces >= 1)) throw new Error(`split: maxFaces ${maxFaces} must be ≥ 1`);
  if (n <= maxFaces || rule === 'sequential') return sequentialPieces(n, maxFaces);
  const all = retained32(0, n);
  for (let i = 0; i < n; i++) all[i] = i;
  // Centroids as three arrays kept in the same order as the ids (permuted together): every pass is sequential.
  const c = centroids(positions, tris);
  const ends: number[] = [];
  bisect(c, all, 0, n, maxFaces, ends);
  return ascendingPieces(all, ends);
}

/** Consecutive runs of at most maxFaces of the n triangles (one piece when n ≤ maxFaces). */
function sequentialPieces(n: number, maxFaces: number): Uint32Array[] {
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  if (n <= maxFaces) return [all];
  const out: Uint32Array[] = [];
  for (let s = 0; s < n; s += maxFaces) out.push(all.slice(s, Math.min(n, s + maxFaces)));
  return out;
}

/** Scratch of the spatial split kept between calls for meshes of up to RETAIN_MAX triangles (≤ 2 MB an array). */
const RETAIN_MAX = 1 << 18;
const RETAINED_64 = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
const RETAINED_32 = [new Uint32Array(0), new Uint32Array(0)];

/**
 * n values of scratch f64 array k (0–2): kept and reused up to RETAIN_MAX, where a fresh array's first-touch cost
 * exceeds its use (a fresh 640 KB array written once: 0.3–0.5 ms, a reused one 0.08–0.1 ms); fresh above.
 */
function retained64(k: number, n: number): Float64Array {
  if (n > RETAIN_MAX) return new Float64Array(n);
  if (RETAINED_64[k].length < n) RETAINED_64[k] = new Float64Array(Math.max(n, 1024));
  return RETAINED_64[k].subarray(0, n);
}

/** retained64 for u32 scratch k (0: ids, 1: piece of each id); contents undefined. */
function retained32(k: number, n: number): Uint32Array {
  if (n > RETAIN_MAX) return new Uint32Array(n);
  if (RETAINED_32[k].length < n) RETAINED_32[k] = new Uint32Array(Math.max(n, 1024));
  return RETAINED_32[k].subarray(0, n);
}

/**
 * The pieces ids[ends[p − 1], ends[p]), each in ascending id order: every id's piece noted, then one pass over the
 * ids in order (O(n), instead of sorting each piece).
 */
function ascendingPieces(ids: Uint32Array, ends: number[]): Uint32Array[] {
  const pieceOf = retained32(1, ids.length);
  const out: Uint32Array[] = [];
  for (let p = 0, lo = 0; p < ends.length; lo = ends[p++]) {
    for (let i = lo; i < ends[p]; i++) pieceOf[ids[i]] = p;
    out.push(new Uint32Array(ends[p] - lo));
  }
  const fill = new Uint32Array(ends.length);
  for (let t = 0; t < ids.length; t++) {
    const p = pieceOf[t];
    out[p][fill[p]++] = t;
  }
  return out;
}

/** Triangle centroids as three f64 arrays (x, y, z), in triangle order. */
function centroids(p: Float32Array, tris: Uint32Array): [Float64Array, Float64Array, Float64Array] {
  const n = tris.length / 3;
  const cx = retained64(0, n), cy = retained64(1, n), cz = retained64(2, n);
  for (let t = 0; t < n; t++) {
    const a = 3 * tris[3 * t], b = 3 * tris[3 * t + 1], d = 3 * tris[3 * t + 2];
    cx[t] = (p[a] + p[b] + p[d]) / 3;
    cy[t] = (p[a + 1] + p[b + 1] + p[d + 1]) / 3;
    cz[t] = (p[a + 2] + p[b + 2] + p[d + 2]) / 3;
  }
  return [cx, cy, cz];
}

/** The axis whose centroids spread most over [lo, hi) (ties: the lower axis). */
function widest(c: Float64Array[], lo: number, hi: number): number {
  let best = 0, bestExtent = -1;
  for (let a = 0; a < 3; a++) {
    const k = c[a];
    let min = Infinity, max = -Infinity;
    for (let i = lo; i < hi; i++) {
      if (k[i] < min) min = k[i];
      if (k[i] > max) max = k[i];
    }
    if (max - min > bestExtent) { best = a; bestExtent = max - min; }
  }
  return best;
}

/**
 * Cuts [lo, hi) at the median centroid of its widest axis (ties by triangle index) until each piece fits; each
 * piece's end goes to `ends`, left to right.
 */
function bisect(c: Float64Array[], ids: Uint32Array, lo: number, hi: number, maxFaces: number, ends: number[]): void {
  const n = hi - lo;
  if (n <= maxFaces) {
    ends.push(hi);
    return;
  }
  const pieces = Math.ceil(n / maxFaces);
  const m = lo + Math.floor((n * Math.floor(pieces / 2)) / pieces);
  selectSampled(c, widest(c, lo, hi), ids, lo, hi, m);
  bisect(c, ids, lo, m, maxFaces, ends);
  bisect(c, ids, m, hi, maxFaces, ends);
}

const WINDOW = new Int32Array(2);

function swapAll(c: Float64Array[], ids: Uint32Array, i: number, j: number): void {
  const x = c[0], y = c[1], z = c[2];
  let t = x[i]; x[i] = x[j]; x[j] = t;
  t = y[i]; y[i] = y[j]; y[j] = t;
  t = z[i]; z[i] = z[j]; z[j] = t;
  const u = ids[i]; ids[i] = ids[j]; ids[j] = u;
}

/**
 * select() with Floyd–Rivest's sampling: the rank-k element of a small sample around k (selected the same way) is
 * the pivot, so one partition pass leaves only a short range around k (~1.5 passes a level instead of ~3).
 */
function selectSampled(c: Float64Array[], axis: number, ids: Uint32Array, lo: number, hi: number, k: number): void {
  const key = c[axis];
  let left = lo, right = hi - 1;
  while (right - left + 1 > SAMPLE_SELECT_MIN && k > left && k <= right) {
    sampleWindow(left, right, k, WINDOW);
    const sl = WINDOW[0], sr = WINDOW[1];
    selectSampled(c, axis, ids, sl, sr + 1, k);
    // The sample's rank-k element: the smallest of its upper part.
    let best = k;
    for (let q = k + 1; q <= sr; q++) if (key[q] < key[best] || (key[q] === key[best] && ids[q] < ids[best])) best = q;
    swapAll(c, ids, best, k);
    const pk = key[k], pf = ids[k];
    let i = left, j = right;
    swapAll(c, ids, left, k);
    if (key[right] > pk || (key[right] === pk && ids[right] > pf)) swapAll(c, ids, left, right);
    while (i < j) {
      swapAll(c, ids, i, j);
      i++;
      j--;
      while (key[i] < pk || (key[i] === pk && ids[i] < pf)) i++;
      while (key[j] > pk || (key[j] === pk && ids[j] > pf)) j--;
    }
    if (ids[left] === pf) swapAll(c, ids, left, j);
    else { j++; swapAll(c, ids, j, right); }
    // Now the pivot is at j, smaller elements before it, larger after.
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
  if (right >= left) select(c, axis, ids, left, right + 1, k);
}

/** Quickselect of [lo, hi) by (c[axis], id) so that the first k − lo positions hold the smallest; moves all four arrays. */
function select(c: Float64Array[], axis: number, ids: Uint32Array, lo: number, hi: number, k: number): void {
  const key = c[axis];
  const swap = (i: number, j: number): void => {
    for (let a = 0; a < 3; a++) { const t = c[a][i]; c[a][i] = c[a][j]; c[a][j] = t; }
    const u = ids[i]; ids[i] = ids[j]; ids[j] = u;
  };
  const less = (i: number, j: number): boolean => key[i] < key[j] || (key[i] === key[j] && ids[i] < ids[j]);
  while (hi - lo > 1 && k > lo && k < hi) {
    const mid = lo + ((hi - lo) >> 1);
    if (less(mid, lo)) swap(mid, lo);
    if (less(hi - 1, lo)) swap(hi - 1, lo);
    if (less(hi - 1, mid)) swap(hi - 1, mid);
    swap(lo, mid);
    const pk = key[lo], pf = ids[lo];
    let i = lo - 1, j = hi;
    for (;;) {
      do i++; while (key[i] < pk || (key[i] === pk && ids[i] < pf));
      do j--; while (key[j] > pk || (key[j] === pk && ids[j] > pf));
      if (i >= j) break;
      swap(i, j);
    }
    if (k <= j) hi = j + 1;
    else lo = j + 1;
  }
}
