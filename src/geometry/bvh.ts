// The bounding-volume tree of a kind-5 shape (../shared/spec/physics-resource.md, "Triangle-mesh shapes"): a
// complete binary tree in heap layout over the faces (node i's children are 2i+1 and 2i+2; the n leaves are nodes
// n−1 … 2n−2), faces − 1 u64 inner nodes. Each inner node stores its two children's boxes quantised in its own box:
//   bits  0–29  the inner min planes (the larger of the children's mins), 10 bits each of x, y, z, rounded down;
//   bits 30, 31 set when the LEFT child takes the inner min of y, z (the right starts lower); x: the left starts lowest;
//   bits 32–60  the inner max planes (the smaller of the children's maxes), 10, 9 and 10 bits of x, y, z;
//   bits 61–63  set when the LEFT child takes the inner max of x, y, z (the right reaches higher).
// By default the left child keeps its parent's planes and the right takes the inner ones. A child's box is what
// its parent's node decodes to (f32: lo + ext·k/bins for a min, hi − ext·k/bins for a max), so quantisation is
// conservative all the way down: every face lies inside the box of the leaf it reaches.
//
// Studio's face order (observed on the reference encoder): at each node the faces are ordered by centroid on the
// axis of largest centroid extent, then face-box minimum x, then face index, and the left child takes as many as
// its subtree has leaves. When the right half then starts lower in x than the left, the halves swap places (the
// last faces become the left); if that still holds, the faces are ordered by minimum x, then index. Only the
// split matters (children re-order their own faces under a total order), so selection replaces sorting: O(n) per
// level, O(n log n) overall, the same tree as a full sort would give.

/** Quantisation steps of the min planes (x, y, z) and the max planes (x, y, z). */
export const MIN_BINS = [1024, 1024, 1024] as const;
export const MAX_BINS = [1024, 512, 1024] as const;

const fr = Math.fround;

/** The plane a min step k gives in [lo, hi] (f32, as the game decodes it). */
export const minPlane = (lo: number, hi: number, k: number, bins: number): number => fr(lo + fr(fr(hi - lo) * (k / bins)));
/** The plane a max step k gives in [lo, hi] (f32). */
export const maxPlane = (lo: number, hi: number, k: number, bins: number): number => fr(hi - fr(fr(hi - lo) * (k / bins)));

/** The largest min step whose plane does not cut into a box starting at v (0 for an empty extent). */
export function quantiseMin(lo: number, hi: number, v: number, bins: number): number {
  const ext = fr(hi - lo);
  if (!(ext > 0)) return 0;
  let k = Math.min(bins - 1, Math.max(0, Math.floor(((v - lo) / ext) * bins)));
  while (k + 1 < bins && minPlane(lo, hi, k + 1, bins) <= v) k++;
  while (k > 0 && minPlane(lo, hi, k, bins) > v) k--;
  return k;
}

/** The largest max step whose plane does not cut into a box ending at v (0 for an empty extent). */
export function quantiseMax(lo: number, hi: number, v: number, bins: number): number {
  const ext = fr(hi - lo);
  if (!(ext > 0)) return 0;
  let k = Math.min(bins - 1, Math.max(0, Math.floor(((hi - v) / ext) * bins)));
  while (k + 1 < bins && maxPlane(lo, hi, k + 1, bins) >= v) k++;
  while (k > 0 && maxPlane(lo, hi, k, bins) < v) k--;
  return k;
}

/** Boxes are 6 numbers: min x, y, z, max x, y, z. */
export type Box = Float64Array | Float32Array | number[];

/**
 * A node's (lo, hi) u32 words for children boxes `l`, `r` inside `p`. Writes into `out[at]`, `out[at+1]`.
 */
export function encodeNode(p: Box, l: Box, r: Box, out: Uint32Array, at: number): void {
  let lo = 0, hi = 0;
  for (let a = 0; a < 3; a++) {
    const inMin = l[a] > r[a] ? l[a] : r[a];
    lo += quantiseMin(p[a], p[a + 3], inMin, MIN_BINS[a]) * 2 ** (10 * a);
    if (a > 0 && l[a] > r[a]) lo += 2 ** (29 + a);
    const inMax = l[a + 3] < r[a + 3] ? l[a + 3] : r[a + 3];
    const shift = a === 0 ? 0 : a === 1 ? 10 : 19;
    hi += quantiseMax(p[a], p[a + 3], inMax, MAX_BINS[a]) * 2 ** shift;
    if (l[a + 3] < r[a + 3]) hi += 2 ** (29 + a);
  }
  out[at] = lo;
  out[at + 1] = hi;
}

/** The two child boxes node (lo, hi) gives inside parent box `p` (f32, as the game decodes). */
export function decodeNode(p: Box, lo: number, hi: number, left: Box, right: Box): void {
  for (let a = 0; a < 3; a++) {
    const kMin = a === 0 ? lo & 0x3ff : a === 1 ? (lo >>> 10) & 0x3ff : (lo >>> 20) & 0x3ff;
    const kMax = a === 0 ? hi & 0x3ff : a === 1 ? (hi >>> 10) & 0x1ff : (hi >>> 19) & 0x3ff;
    const inMin = minPlane(p[a], p[a + 3], kMin, MIN_BINS[a]);
    const inMax = maxPlane(p[a], p[a + 3], kMax, MAX_BINS[a]);
    const leftTakesMin = a > 0 && ((lo >>> (29 + a)) & 1) === 1;
    const leftTakesMax = ((hi >>> (29 + a)) & 1) === 1;
    left[a] = leftTakesMin ? inMin : p[a];
    right[a] = leftTakesMin ? p[a] : inMin;
    left[a + 3] = leftTakesMax ? inMax : p[a + 3];
    right[a + 3] = leftTakesMax ? p[a + 3] : inMax;
  }
}

/** How many leaves the subtree of heap node `c` holds in a complete tree whose n leaves are nodes n−1 … 2n−2. */
export function subtreeLeaves(c: number, n: number): number {
  let count = 0;
  for (let first = c, width = 1; first <= 2 * n - 2; first = 2 * first + 1, width *= 2) {
    const last = Math.min(first + width - 1, 2 * n - 2);
    count += last - Math.max(first, n - 1) + 1 > 0 ? last - Math.max(first, n - 1) + 1 : 0;
  }
  return count;
}

/** Per-face data the tree is built from: f32 boxes (min xyz, max xyz) and f64 centroids. */
export interface FaceRecords {
  box: Float32Array; // 6 per face
  centroid: Float64Array; // 3 per face
}

export function faceRecords(v: Float32Array, tris: ArrayLike<number>, faces: number): FaceRecords {
  const box = new Float32Array(6 * faces);
  const centroid = new Float64Array(3 * faces);
  for (let f = 0; f < faces; f++) {
    const a = 3 * tris[3 * f], b = 3 * tris[3 * f + 1], c = 3 * tris[3 * f + 2];
    for (let k = 0; k < 3; k++) {
      const x = v[a + k], y = v[b + k], z = v[c + k];
      // A tie keeps the earlier value (only -0.0 against 0.0 can tell).
      let lo = x, hi = x;
      if (y < lo) lo = y;
      if (z < lo) lo = z;
      if (y > hi) hi = y;
      if (z > hi) hi = z;
      box[6 * f + k] = lo;
      box[6 * f + 3 + k] = hi;
      centroid[3 * f + k] = (x + y + z) / 3;
    }
  }
  return { box, centroid };
}

/** Ordering keys at one node: by centroid on `axis` (0–2), then min x, then index; axis −1: by min x, then index. */
function less(rec: FaceRecords, axis: number, f: number, g: number): boolean {
  if (axis >= 0) {
    const a = rec.centroid[3 * f + axis], b = rec.centroid[3 * g + axis];
    if (a !== b) return a < b;
  }
  const a = rec.box[6 * f], b = rec.box[6 * g];
  if (a !== b) return a < b;
  return f < g;
}

/**
 * Rearranges perm[lo, hi) so that perm[lo, k) holds the k − lo smallest faces under `less` (in no particular order).
 * Quickselect with a median-of-three pivot; the order is total, so the split is the one a full sort gives.
 */
export function selectFaces(rec: FaceRecords, axis: number, perm: Uint32Array, lo: number, hi: number, k: number): void {
  while (hi - lo > 1 && k > lo && k < hi) {
    // Median of three moved to perm[lo]; classic Hoare partition around it (returns lo ≤ j ≤ hi − 2).
    const mid = lo + ((hi - lo) >> 1);
    const x = perm[lo], y = perm[mid], z = perm[hi - 1];
    let med = mid;
    if (less(rec, axis, x, y)) {
      if (less(rec, axis, y, z)) med = mid;
      else med = less(rec, axis, x, z) ? hi - 1 : lo;
    } else if (less(rec, axis, x, z)) med = lo;
    else med = less(rec, axis, y, z) ? hi - 1 : mid;
    const pivot = perm[med];
    perm[med] = perm[lo];
    perm[lo] = pivot;
    let i = lo - 1, j = hi;
    for (;;) {
      do i++; while (less(rec, axis, perm[i], pivot));
      do j--; while (less(rec, axis, pivot, perm[j]));
      if (i >= j) break;
      const t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    if (k <= j) hi = j + 1;
    else lo = j + 1;
  }
}

/** Union of the face boxes perm[lo, hi) into out (tie keeps the earlier value). */
function unionBoxes(rec: FaceRecords, perm: Uint32Array, lo: number, hi: number, out: Float64Array): void {
  const b = rec.box;
  let f = 6 * perm[lo];
  for (let k = 0; k < 6; k++) out[k] = b[f + k];
  for (let i = lo + 1; i < hi; i++) {
    f = 6 * perm[i];
    for (let k = 0; k < 3; k++) {
      if (b[f + k] < out[k]) out[k] = b[f + k];
      if (b[f + 3 + k] > out[k + 3]) out[k + 3] = b[f + 3 + k];
    }
  }
}

/** The axis along which the centroids of perm[lo, hi) spread most (ties: the lower axis). */
function spreadAxis(rec: FaceRecords, perm: Uint32Array, lo: number, hi: number): number {
  const c = rec.centroid;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = lo; i < hi; i++) {
    const f = 3 * perm[i];
    const x = c[f], y = c[f + 1], z = c[f + 2];
    if (x < x0) x0 = x; if (x > x1) x1 = x;
    if (y < y0) y0 = y; if (y > y1) y1 = y;
    if (z < z0) z0 = z; if (z > z1) z1 = z;
  }
  const ex = x1 - x0, ey = y1 - y0, ez = z1 - z0;
  if (ex >= ey && ex >= ez) return 0;
  return ey >= ez ? 1 : 2;
}

export interface Tree {
  /** faces − 1 nodes as (lo, hi) u32 pairs, heap order. */
  nodes: Uint32Array;
  /** leafFaces[j]: the face index (into the records) held by leaf node n − 1 + j. */
  leafFaces: Uint32Array;
  /** Depth of the deepest leaf (root = 0). */
  depth: number;
}

/** Builds Studio's tree over `faces` faces with records `rec`, root box `root` (the shape bounds). */
export function buildTree(rec: FaceRecords, faces: number, root: Box): Tree {
  const n = faces;
  const nodes = new Uint32Array(2 * Math.max(0, n - 1));
  const leafFaces = new Uint32Array(n);
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const boxes = new Float32Array(6 * Math.max(1, 2 * n - 1));
  for (let k = 0; k < 6; k++) boxes[k] = root[k];
  const lb = new Float64Array(6), rb = new Float64Array(6);
  let depth = 0;
  // Explicit stack of (node, lo, hi, depth).
  const stack: number[] = [0, 0, n, 0];
  while (stack.length > 0) {
    const d = stack.pop()!, hi = stack.pop()!, lo = stack.pop()!, i = stack.pop()!;
    if (hi - lo === 1) {
      leafFaces[i - (n - 1)] = perm[lo];
      if (d > depth) depth = d;
      continue;
    }
    splitNode(rec, perm, lo, hi, subtreeLeaves(2 * i + 1, n), lb, rb);
    const parent = boxes.subarray(6 * i, 6 * i + 6);
    encodeNode(parent, lb, rb, nodes, 2 * i);
    decodeNode(parent, nodes[2 * i], nodes[2 * i + 1], boxes.subarray(6 * (2 * i + 1), 6 * (2 * i + 2)), boxes.subarray(6 * (2 * i + 2), 6 * (2 * i + 3)));
    const m = lo + subtreeLeaves(2 * i + 1, n);
    stack.push(2 * i + 2, m, hi, d + 1, 2 * i + 1, lo, m, d + 1);
  }
  return { nodes, leafFaces, depth };
}

/** Splits perm[lo, hi) into the left child's `left` faces and the right's, by Studio's rule; fills both boxes. */
function splitNode(rec: FaceRecords, perm: Uint32Array, lo: number, hi: number, left: number, lb: Float64Array, rb: Float64Array): void {
  const axis = spreadAxis(rec, perm, lo, hi);
  const m = lo + left;
  selectFaces(rec, axis, perm, lo, hi, m);
  unionBoxes(rec, perm, lo, m, lb);
  unionBoxes(rec, perm, m, hi, rb);
  if (!(rb[0] < lb[0])) return;
  // The right half starts lower in x: the last `left` faces become the left.
  selectFaces(rec, axis, perm, lo, hi, hi - left);
  const tail = perm.slice(hi - left, hi);
  perm.copyWithin(lo + left, lo, hi - left);
  perm.set(tail, lo);
  unionBoxes(rec, perm, lo, m, lb);
  unionBoxes(rec, perm, m, hi, rb);
  if (!(rb[0] < lb[0])) return;
  selectFaces(rec, -1, perm, lo, hi, m);
  unionBoxes(rec, perm, lo, m, lb);
  unionBoxes(rec, perm, m, hi, rb);
}
