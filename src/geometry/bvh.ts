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
// level, O(n log n) overall, the same tree as a full sort would give. Hot loops run over flat Float64Arrays (face
// boxes, centroids, node boxes) with offsets, never per-node objects.

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

/**
 * Writes node (lo, hi) words into out[at], out[at + 1] for children boxes l[lo6..] and r[ro6..] inside the parent box
 * p[po..] (each 6 values: min x, y, z, max x, y, z).
 */
export function encodeNode(p: Float64Array, po: number, l: Float64Array, lo6: number, r: Float64Array, ro6: number, out: Uint32Array, at: number): void {
  let lo = 0, hi = 0;
  for (let a = 0; a < 3; a++) {
    const pl = p[po + a], ph = p[po + a + 3];
    const lmin = l[lo6 + a], rmin = r[ro6 + a], lmax = l[lo6 + a + 3], rmax = r[ro6 + a + 3];
    const kMin = quantiseMin(pl, ph, lmin > rmin ? lmin : rmin, 1024);
    const kMax = quantiseMax(pl, ph, lmax < rmax ? lmax : rmax, a === 1 ? 512 : 1024);
    if (a === 0) {
      lo += kMin;
      hi += kMax + (lmax < rmax ? 0x20000000 : 0);
    } else if (a === 1) {
      lo += kMin * 0x400 + (lmin > rmin ? 0x40000000 : 0);
      hi += kMax * 0x400 + (lmax < rmax ? 0x40000000 : 0);
    } else {
      lo += kMin * 0x100000 + (lmin > rmin ? 0x80000000 : 0);
      hi += kMax * 0x80000 + (lmax < rmax ? 0x80000000 : 0);
    }
  }
  out[at] = lo;
  out[at + 1] = hi;
}

/** The two child boxes node (lo, hi) gives inside the parent box p[po..], written to out[lo6..] and out[ro6..]. */
export function decodeNode(p: Float64Array, po: number, lo: number, hi: number, out: Float64Array, lo6: number, ro6: number): void {
  for (let a = 0; a < 3; a++) {
    const kMin = a === 0 ? lo & 0x3ff : a === 1 ? (lo >>> 10) & 0x3ff : (lo >>> 20) & 0x3ff;
    const kMax = a === 0 ? hi & 0x3ff : a === 1 ? (hi >>> 10) & 0x1ff : (hi >>> 19) & 0x3ff;
    const pl = p[po + a], ph = p[po + a + 3];
    const inMin = minPlane(pl, ph, kMin, 1024);
    const inMax = maxPlane(pl, ph, kMax, a === 1 ? 512 : 1024);
    const leftTakesMin = a > 0 && ((lo >>> (29 + a)) & 1) === 1;
    const leftTakesMax = ((hi >>> (29 + a)) & 1) === 1;
    out[lo6 + a] = leftTakesMin ? inMin : pl;
    out[ro6 + a] = leftTakesMin ? pl : inMin;
    out[lo6 + a + 3] = leftTakesMax ? inMax : ph;
    out[ro6 + a + 3] = leftTakesMax ? ph : inMax;
  }
}

/** How many leaves the subtree of heap node `c` holds in a complete tree whose n leaves are nodes n−1 … 2n−2. */
export function subtreeLeaves(c: number, n: number): number {
  let count = 0;
  for (let first = c, width = 1; first <= 2 * n - 2; first = 2 * first + 1, width *= 2) {
    const last = Math.min(first + width - 1, 2 * n - 2);
    const from = Math.max(first, n - 1);
    if (last >= from) count += last - from + 1;
  }
  return count;
}

/** Per-face data the tree is built from: boxes (min xyz, max xyz; f32 values) and f64 centroids. */
export interface FaceRecords {
  box: Float64Array; // 6 per face
  centroid: Float64Array; // 3 per face
}

export function faceRecords(v: Float32Array, tris: ArrayLike<number>, faces: number): FaceRecords {
  const box = new Float64Array(6 * faces);
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

/**
 * Orders faces by `key` then `kx` (both aligned with perm: key[i], kx[i] belong to perm[i]; kx is the face-box
 * min x), then index, and rearranges the three arrays over [lo, hi) together so that the first k − lo positions
 * hold the smallest (quickselect, median-of-three, Hoare partition; the order is total, so the split equals a full
 * sort's).
 */
export function selectFaces(key: Float64Array, kx: Float64Array, perm: Uint32Array, lo: number, hi: number, k: number): void {
  while (hi - lo > 1 && k > lo && k < hi) {
    const mid = lo + ((hi - lo) >> 1);
    // Median of three to position lo.
    if (before(key, kx, perm, mid, lo)) swap(key, kx, perm, mid, lo);
    if (before(key, kx, perm, hi - 1, lo)) swap(key, kx, perm, hi - 1, lo);
    if (before(key, kx, perm, hi - 1, mid)) swap(key, kx, perm, hi - 1, mid);
    swap(key, kx, perm, lo, mid); // median now at lo
    const pk = key[lo], px = kx[lo], pf = perm[lo];
    let i = lo - 1, j = hi;
    for (;;) {
      do i++; while (key[i] < pk || (key[i] === pk && (kx[i] < px || (kx[i] === px && perm[i] < pf))));
      do j--; while (key[j] > pk || (key[j] === pk && (kx[j] > px || (kx[j] === px && perm[j] > pf))));
      if (i >= j) break;
      swap(key, kx, perm, i, j);
    }
    if (k <= j) hi = j + 1;
    else lo = j + 1;
  }
}

function swap(key: Float64Array, kx: Float64Array, perm: Uint32Array, i: number, j: number): void {
  const t = key[i]; key[i] = key[j]; key[j] = t;
  const x = kx[i]; kx[i] = kx[j]; kx[j] = x;
  const u = perm[i]; perm[i] = perm[j]; perm[j] = u;
}

/** Position i orders before position j. */
function before(key: Float64Array, kx: Float64Array, perm: Uint32Array, i: number, j: number): boolean {
  if (key[i] !== key[j]) return key[i] < key[j];
  if (kx[i] !== kx[j]) return kx[i] < kx[j];
  return perm[i] < perm[j];
}

/**
 * Union of the face boxes perm[lo, hi) into out[o..o+6) (a tie keeps the earlier value). Returns the axis along
 * which the faces' centroids spread most (ties: the lower axis) — the order the child made of them will use.
 */
function unionBoxes(box: Float64Array, centroid: Float64Array, perm: Uint32Array, lo: number, hi: number, out: Float64Array, o: number): number {
  let f = 6 * perm[lo];
  let x0 = box[f], y0 = box[f + 1], z0 = box[f + 2], x1 = box[f + 3], y1 = box[f + 4], z1 = box[f + 5];
  let c = 3 * perm[lo];
  let cx0 = centroid[c], cy0 = centroid[c + 1], cz0 = centroid[c + 2], cx1 = cx0, cy1 = cy0, cz1 = cz0;
  for (let i = lo + 1; i < hi; i++) {
    const p = perm[i];
    f = 6 * p;
    c = 3 * p;
    const cx = centroid[c], cy = centroid[c + 1], cz = centroid[c + 2];
    if (cx < cx0) cx0 = cx;
    if (cx > cx1) cx1 = cx;
    if (cy < cy0) cy0 = cy;
    if (cy > cy1) cy1 = cy;
    if (cz < cz0) cz0 = cz;
    if (cz > cz1) cz1 = cz;
    if (box[f] < x0) x0 = box[f];
    if (box[f + 1] < y0) y0 = box[f + 1];
    if (box[f + 2] < z0) z0 = box[f + 2];
    if (box[f + 3] > x1) x1 = box[f + 3];
    if (box[f + 4] > y1) y1 = box[f + 4];
    if (box[f + 5] > z1) z1 = box[f + 5];
  }
  out[o] = x0; out[o + 1] = y0; out[o + 2] = z0; out[o + 3] = x1; out[o + 4] = y1; out[o + 5] = z1;
  const ex = cx1 - cx0, ey = cy1 - cy0, ez = cz1 - cz0;
  return ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
}

/**
 * key[i] = the ordering key of perm[i] on `axis` (0–2: centroid; −1: min x) and kx[i] its face-box min x, for i in
 * [lo, hi).
 */
export function fillKeys(rec: FaceRecords, axis: number, perm: Uint32Array, key: Float64Array, kx: Float64Array, lo: number, hi: number): void {
  const box = rec.box, c = rec.centroid;
  if (axis < 0) {
    for (let i = lo; i < hi; i++) key[i] = kx[i] = box[6 * perm[i]];
  } else {
    for (let i = lo; i < hi; i++) {
      const f = perm[i];
      key[i] = c[3 * f + axis];
      kx[i] = box[6 * f];
    }
  }
}

export interface Tree {
  /** faces − 1 nodes as (lo, hi) u32 pairs, heap order. */
  nodes: Uint32Array;
  /** leafFaces[j]: the face index (into the records) held by leaf node n − 1 + j. */
  leafFaces: Uint32Array;
  /** Depth of the deepest leaf (root = 0). */
  depth: number;
}

/** Builds Studio's tree over `faces` faces with records `rec`, root box `root` (the shape bounds, 6 values). */
export function buildTree(rec: FaceRecords, faces: number, root: ArrayLike<number>): Tree {
  const n = faces;
  const nodes = new Uint32Array(2 * Math.max(0, n - 1));
  const leafFaces = new Uint32Array(n);
  if (n === 0) return { nodes, leafFaces, depth: 0 };
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const key = new Float64Array(n);
  const kx = new Float64Array(n);
  const boxes = new Float64Array(6 * (2 * n - 1));
  for (let k = 0; k < 6; k++) boxes[k] = root[k];
  const lr = new Float64Array(12); // true boxes of the left (0..5) and right (6..11) child
  const out = new Int32Array(3); // splitNode: left range start, left axis, right axis
  let depth = 0;
  const stack = new Int32Array(5 * 80); // (node, lo, hi, depth, axis); ≤ log2(n) + 2 pending entries
  let sp = 0;
  stack[sp++] = 0; stack[sp++] = 0; stack[sp++] = n; stack[sp++] = 0;
  stack[sp++] = unionBoxes(rec.box, rec.centroid, perm, 0, n, lr, 0);
  while (sp > 0) {
    const axis = stack[--sp], d = stack[--sp], hi = stack[--sp], lo = stack[--sp], i = stack[--sp];
    if (hi - lo === 1) {
      leafFaces[i - (n - 1)] = perm[lo];
      if (d > depth) depth = d;
      continue;
    }
    if (hi - lo === 2) {
      // Two faces, two leaves: order them directly (same rule; the min-x fallback cannot arise with one face a side).
      pairNode(rec, perm[lo], perm[lo + 1], axis, boxes, 6 * i, nodes, 2 * i, leafFaces, i, n);
      if (d + 1 > depth) depth = d + 1;
      continue;
    }
    const left = subtreeLeaves(2 * i + 1, n);
    splitNode(rec, perm, key, kx, lo, hi, left, axis, lr, out);
    const l = 2 * i + 1, r = 2 * i + 2;
    encodeNode(boxes, 6 * i, lr, 0, lr, 6, nodes, 2 * i);
    decodeNode(boxes, 6 * i, nodes[2 * i], nodes[2 * i + 1], boxes, 6 * l, 6 * r);
    const leftLo = out[0];
    const rightLo = leftLo === lo ? lo + left : lo;
    stack[sp++] = r; stack[sp++] = rightLo; stack[sp++] = rightLo + (hi - lo - left); stack[sp++] = d + 1; stack[sp++] = out[2];
    stack[sp++] = l; stack[sp++] = leftLo; stack[sp++] = leftLo + left; stack[sp++] = d + 1; stack[sp++] = out[1];
  }
  return { nodes, leafFaces, depth };
}

/** A node over exactly faces f and g, whose children are the leaves 2i + 1 and 2i + 2. */
function pairNode(rec: FaceRecords, f: number, g: number, axis: number, boxes: Float64Array, po: number, nodes: Uint32Array, at: number, leafFaces: Uint32Array, i: number, n: number): void {
  const box = rec.box, c = rec.centroid;
  const kf = c[3 * f + axis], kg = c[3 * g + axis], xf = box[6 * f], xg = box[6 * g];
  let first = f, second = g;
  if (kg < kf || (kg === kf && (xg < xf || (xg === xf && g < f)))) { first = g; second = f; }
  // The right starts lower in x: swap (the last face becomes the left).
  if (box[6 * second] < box[6 * first]) { const t = first; first = second; second = t; }
  encodeNode(boxes, po, box, 6 * first, box, 6 * second, nodes, at);
  leafFaces[2 * i + 1 - (n - 1)] = first;
  leafFaces[2 * i + 2 - (n - 1)] = second;
}

/**
 * Splits perm[lo, hi) by Studio's rule into the left child's `left` faces and the right's; fills both true boxes
 * (lr[0..6) left, lr[6..12) right). out[0] = where the left child's range starts (lo, or hi − left after a swap);
 * out[1], out[2] = the children's centroid-spread axes.
 */
function splitNode(rec: FaceRecords, perm: Uint32Array, key: Float64Array, kx: Float64Array, lo: number, hi: number, left: number, axis: number, lr: Float64Array, out: Int32Array): void {
  const box = rec.box, c = rec.centroid;
  const m = lo + left;
  fillKeys(rec, axis, perm, key, kx, lo, hi);
  selectFaces(key, kx, perm, lo, hi, m);
  out[0] = lo;
  out[1] = unionBoxes(box, c, perm, lo, m, lr, 0);
  out[2] = unionBoxes(box, c, perm, m, hi, lr, 6);
  if (!(lr[6] < lr[0])) return;
  // The right half starts lower in x: the last `left` faces (in the same order) become the left.
  selectFaces(key, kx, perm, lo, hi, hi - left);
  out[0] = hi - left;
  out[1] = unionBoxes(box, c, perm, hi - left, hi, lr, 0);
  out[2] = unionBoxes(box, c, perm, lo, hi - left, lr, 6);
  if (!(lr[6] < lr[0])) return;
  // Still: order by min x, then index.
  fillKeys(rec, -1, perm, key, kx, lo, hi);
  selectFaces(key, kx, perm, lo, hi, m);
  out[0] = lo;
  out[1] = unionBoxes(box, c, perm, lo, m, lr, 0);
  out[2] = unionBoxes(box, c, perm, m, hi, lr, 6);
}
