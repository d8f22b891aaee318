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

import { SAMPLE_SELECT_MIN, sampleWindow } from './sample-select.ts';

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

// The encoder's own quantisers: the same planes with k / bins written k · (1 / bins) — exact for the power-of-two
// bins used (1,024 and 512) — and the extent passed in, so a node costs no per-plane division (~18 per node).
const STEP_MIN = 1 / 1024;
const stepMax = (a: number): number => (a === 1 ? 1 / 512 : 1 / 1024);

function qMin(lo: number, ext: number, v: number, bins: number, step: number): number {
  if (!(ext > 0)) return 0;
  let k = Math.min(bins - 1, Math.max(0, Math.floor(((v - lo) / ext) * bins)));
  while (k + 1 < bins && fr(lo + fr(ext * ((k + 1) * step))) <= v) k++;
  while (k > 0 && fr(lo + fr(ext * (k * step))) > v) k--;
  return k;
}

function qMax(hi: number, ext: number, v: number, bins: number, step: number): number {
  if (!(ext > 0)) return 0;
  let k = Math.min(bins - 1, Math.max(0, Math.floor(((hi - v) / ext) * bins)));
  while (k + 1 < bins && fr(hi - fr(ext * ((k + 1) * step))) >= v) k++;
  while (k > 0 && fr(hi - fr(ext * (k * step))) < v) k--;
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
    const ext = fr(ph - pl);
    const kMin = qMin(pl, ext, lmin > rmin ? lmin : rmin, 1024, STEP_MIN);
    const kMax = qMax(ph, ext, lmax < rmax ? lmax : rmax, a === 1 ? 512 : 1024, stepMax(a));
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
    const ext = fr(ph - pl);
    const inMin = fr(pl + fr(ext * (kMin * STEP_MIN))); // minPlane(pl, ph, kMin, 1024)
    const inMax = fr(ph - fr(ext * (kMax * stepMax(a)))); // maxPlane(pl, ph, kMax, bins)
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

/** Face boxes and centroids; `into` (at least `faces` records) is filled and returned instead of a new one. */
export function faceRecords(v: Float32Array, tris: ArrayLike<number>, faces: number, into?: FaceRecords): FaceRecords {
  const box = into ? into.box : new Float64Array(6 * faces);
  const centroid = into ? into.centroid : new Float64Array(3 * faces);
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

// Design log (tree builder, issue 3 performance):
// - v1 kept a face permutation plus key arrays filled per node and took each child's box as a union over the
//   permutation (indirect reads of 9 values per face per level): ~45 % of the encode time.
// - now (measured ~2× faster on the tree): the split phase moves compact records (ORDER_STRIDE f64 per face:
//   centroid x, y, z, box min x, face index) in place, so the ordering key of any axis, the tie-breaks, the swap
//   test (min x of each half) and the children's spread axes are all sequential reads of one array; the
//   children's true boxes are not needed to choose the split, so they are built afterwards bottom-up in O(n)
//   (leaf = face box, parent = union of its two children — the same set union as the range union; only the sign of
//   a zero can differ, which no quantised step sees), and the nodes are then quantised in heap order (parents
//   first), decoding boxes only for inner children.
// - Tried, not kept: bucket selection (bin the keys into ≤ 1,024 equal buckets over the node's key range, scatter
//   below / at / above the bucket holding the median with branch-free cursors, quickselect only that bucket):
//   no measurable gain over quickselect at 21,845 faces (half the levels are under 256 faces, where it cannot
//   pay off). Branch-free Math.min/max in the scan: slower (min/max of a range rarely changes, so branches predict).
// - The swap re-selection reuses the first partition: selecting hi − left only searches the half holding it.
// - Ranges over SAMPLE_SELECT_MIN records select Floyd–Rivest style (a sample's rank-k record as pivot): the tree
//   of a 21,840-face piece went from ~0.80 to ~0.76 of v1's time (min of 40; thresholds 150–2,400 were within
//   this box's noise, 600 is the customary one).
// - Ranges of ≤ SORT_MAX records are insertion-sorted (grid piece: tree 0.96× — the last levels are tiny).
// - Planes multiply by 1/bins instead of dividing by bins (exact for 1,024 and 512): tree 0.81–0.87×.
// - Tried, not kept (A/B in one process, 80 interleaved pairs): a tie key packing (min x, face) into one exact f64
//   integer, 4 slots a record (0.99×); reusing the planes found while quantising instead of decoding again, through a
//   module-level variable (1.07–1.08×, slower).
// - Tried, not kept (2026-11-29; a prototype outside the repo, same leaf order as orderFaces on 21,845-face terrain
//   and flat-grid pieces; 60 interleaved runs in one process): integer ranks per piece. Per axis the faces are
//   ranked by (centroid, min x, index) and once by (min x, index) via stable LSD radix sorts of the f64 keys'
//   bit patterns (11-bit digits, a digit that is the same for every key is skipped; −0.0 taken as 0.0). The records
//   become 4 Int32 ranks, so a comparison is one integer compare. The spread axis comes from the faces at the
//   lowest and highest rank, the swap test from the float min x of the face with the lowest (min x) rank. Medians (min):
//   the current split phase takes 15.5 ms (11.2) on terrain and 13.8 (11.6) on the grid. The ranks alone take 11.2 (9.1)
//   and 9.0 (7.6); selection on the ranks takes 16.7 (11.3) and 14.0 (12.7), no faster than on the f64 records, so
//   the phase is not limited by the multi-key compares. Together: 28.1 (20.5) and 22.8 (20.4), 1.6–1.8× slower.
//   Presorted lists (split stably at each node) need the same ranks first. Ranking alone costs 0.65–0.8× of the phase
//   it would replace, so they could save at most the rest; a presorted-lists variant (LSD radix + stable partitions)
//   was measured before and not kept (docs/format-decisions.md, Encoder).
// - Tried, not kept (2026-11-29 afternoon, prototypes outside the repo checked leaf for leaf against orderFaces on
//   terrain, flat-grid, soup and 1–1,000-face cases; A/B in one process on a 2-core box shared with two benchmarks):
//   presorted lists — face ids sorted once per order (x, y, z centroid, min x; stable LSD radix over a monotone
//   31-bit quantisation of each f64 key, equal quantised runs then ordered by the key), each node's split read off
//   its axis list, the other lists partitioned stably and branch-free (each id written to both sides, the cursors
//   moved by its side), extents and min x read from list ends in O(1): 22.0 vs 20.6 ms on 22,050-face terrain, the
//   four sorts alone 9.3; with (rank x|y, rank z|min x) u16 records instead of ids (no dependent side lookups):
//   43.0 vs 27.5 ms. A branch-free Lomuto partition (every record swapped, the cursor moved by the compare):
//   quickselect of 40 / 150 / 600 / 5,000 records 1.4× / 6.9× / 2.4× / 1.8× slower than the Hoare partition.
//   Whole small subtrees (≤ 8, 16 or 32 faces) sorted outright and recursed without the stack: 0.96–1.00×.
// - Known, left: scan's on-stack-replaced loop deoptimises at its exit on long ranges, ~110 times per 80k encode
//   ("insufficient type feedback" for whatever follows the loop: the store, or a call when the store was moved into
//   a helper; priming scan with a 3-record range first changed nothing). Node's --no-use-osr, which removes it,
//   measured no different (80k medians 88–106 against 89–125 ms, 3 alternating runs each), so the cost is small.

/** f64 per face in the split phase's records: centroid x, y, z, face-box min x, face index. */
const ORDER_STRIDE = 5;
/** Record slot of the face-box min x: also the "axis" of the min-x fallback order (min x, min x, index). */
const MIN_X = 3;
const FACE = 4;

/** Scratch of buildTree, for up to `cap` faces; reused over a mesh's pieces. */
export interface TreeScratch {
  cap: number;
  rec: FaceRecords;
  order: Float64Array; // ORDER_STRIDE per face
  trueBoxes: Float64Array; // 6 per node
  boxes: Float64Array; // 6 per node: the box each node decodes to
  stats: Float64Array; // scan(): min x of the range
  leaves: Int32Array; // leaves under each node
}

export function treeScratch(cap: number): TreeScratch {
  const nodes = Math.max(1, 2 * cap - 1);
  return {
    cap,
    rec: { box: new Float64Array(6 * cap), centroid: new Float64Array(3 * cap) },
    order: new Float64Array(ORDER_STRIDE * cap),
    trueBoxes: new Float64Array(6 * nodes),
    boxes: new Float64Array(6 * nodes),
    stats: new Float64Array(1),
    leaves: new Int32Array(nodes),
  };
}

/** Record i orders before record j on slot `ax` (then min x, then face index). */
function before(r: Float64Array, ax: number, i: number, j: number): boolean {
  const a = r[ORDER_STRIDE * i + ax], b = r[ORDER_STRIDE * j + ax];
  if (a !== b) return a < b;
  const ax2 = r[ORDER_STRIDE * i + MIN_X], bx = r[ORDER_STRIDE * j + MIN_X];
  if (ax2 !== bx) return ax2 < bx;
  return r[ORDER_STRIDE * i + FACE] < r[ORDER_STRIDE * j + FACE];
}

/** Swaps records i and j, written out (the 5-step loop measured 0.91–0.98× slower for the whole split phase). */
function swapRecords(r: Float64Array, i: number, j: number): void {
  const a = ORDER_STRIDE * i, b = ORDER_STRIDE * j;
  const a0 = r[a], a1 = r[a + 1], a2 = r[a + 2], a3 = r[a + 3], a4 = r[a + 4];
  r[a] = r[b]; r[a + 1] = r[b + 1]; r[a + 2] = r[b + 2]; r[a + 3] = r[b + 3]; r[a + 4] = r[b + 4];
  r[b] = a0; r[b + 1] = a1; r[b + 2] = a2; r[b + 3] = a3; r[b + 4] = a4;
}

/** Ranges of at most this many records are sorted outright (insertion sort): the tree's last levels are tiny. */
const SORT_MAX = 12;

/** Insertion sort of records [lo, hi) by (slot ax, min x, face index). */
function sortRecords(r: Float64Array, ax: number, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const o = ORDER_STRIDE * i;
    const c0 = r[o], c1 = r[o + 1], c2 = r[o + 2], mx = r[o + MIN_X], f = r[o + FACE], key = r[o + ax];
    // Shift the larger records up one place, then drop record i into the hole.
    let h = o;
    while (h > ORDER_STRIDE * lo) {
      const p = h - ORDER_STRIDE, v = r[p + ax];
      if (!(key < v || (key === v && (mx < r[p + MIN_X] || (mx === r[p + MIN_X] && f < r[p + FACE]))))) break;
      r[h] = r[p]; r[h + 1] = r[p + 1]; r[h + 2] = r[p + 2]; r[h + 3] = r[p + 3]; r[h + 4] = r[p + 4];
      h = p;
    }
    r[h] = c0; r[h + 1] = c1; r[h + 2] = c2; r[h + MIN_X] = mx; r[h + FACE] = f;
  }
}

/**
 * Rearranges records [lo, hi) so that the first k − lo hold the smallest by (slot ax, min x, face index)
 * (quickselect, median-of-three, Hoare partition; the order is total, so the split equals a full sort's).
 */
export function selectRecords(r: Float64Array, ax: number, lo: number, hi: number, k: number): void {
  while (hi - lo > 1 && k > lo && k < hi) {
    if (hi - lo <= SORT_MAX) {
      sortRecords(r, ax, lo, hi);
      return;
    }
    const mid = lo + ((hi - lo) >> 1);
    if (before(r, ax, mid, lo)) swapRecords(r, mid, lo);
    if (before(r, ax, hi - 1, lo)) swapRecords(r, hi - 1, lo);
    if (before(r, ax, hi - 1, mid)) swapRecords(r, hi - 1, mid);
    swapRecords(r, lo, mid); // median now at lo
    const pk = r[ORDER_STRIDE * lo + ax], px = r[ORDER_STRIDE * lo + MIN_X], pf = r[ORDER_STRIDE * lo + FACE];
    let i = lo - 1, j = hi;
    for (;;) {
      let o: number, v: number;
      do {
        i++;
        o = ORDER_STRIDE * i;
        v = r[o + ax];
      } while (v < pk || (v === pk && (r[o + MIN_X] < px || (r[o + MIN_X] === px && r[o + FACE] < pf))));
      do {
        j--;
        o = ORDER_STRIDE * j;
        v = r[o + ax];
      } while (v > pk || (v === pk && (r[o + MIN_X] > px || (r[o + MIN_X] === px && r[o + FACE] > pf))));
      if (i >= j) break;
      swapRecords(r, i, j);
    }
    if (k <= j) hi = j + 1;
    else lo = j + 1;
  }
}

const WINDOW = new Int32Array(2);

/**
 * selectRecords with Floyd–Rivest's sampling: for a large range, the rank-k record of a small sample around k
 * (selected the same way) is the pivot, so one partition leaves only a short range around k. ~1.5 n comparisons
 * instead of quickselect's ~3 n.
 */
export function selectRecordsSampled(r: Float64Array, ax: number, lo: number, hi: number, k: number): void {
  let left = lo, right = hi - 1;
  while (right - left + 1 > SAMPLE_SELECT_MIN && k > left && k <= right) {
    sampleWindow(left, right, k, WINDOW);
    const sl = WINDOW[0], sr = WINDOW[1];
    selectRecordsSampled(r, ax, sl, sr + 1, k);
    // The sample's rank-k record: the smallest of its upper part.
    let best = k;
    for (let q = k + 1; q <= sr; q++) if (before(r, ax, q, best)) best = q;
    swapRecords(r, best, k);
    const po = ORDER_STRIDE * k;
    const pk = r[po + ax], px = r[po + MIN_X], pf = r[po + FACE];
    let i = left, j = right;
    swapRecords(r, left, k);
    if (afterPivot(r, ax, right, pk, px, pf)) swapRecords(r, left, right);
    while (i < j) {
      swapRecords(r, i, j);
      i++;
      j--;
      while (beforePivot(r, ax, i, pk, px, pf)) i++;
      while (afterPivot(r, ax, j, pk, px, pf)) j--;
    }
    if (r[ORDER_STRIDE * left + FACE] === pf) swapRecords(r, left, j);
    else { j++; swapRecords(r, j, right); }
    // Now the pivot is at j, smaller records before it, larger after.
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
  if (right >= left) selectRecords(r, ax, left, right + 1, k);
}

function beforePivot(r: Float64Array, ax: number, i: number, pk: number, px: number, pf: number): boolean {
  const o = ORDER_STRIDE * i, v = r[o + ax];
  return v < pk || (v === pk && (r[o + MIN_X] < px || (r[o + MIN_X] === px && r[o + FACE] < pf)));
}

function afterPivot(r: Float64Array, ax: number, i: number, pk: number, px: number, pf: number): boolean {
  const o = ORDER_STRIDE * i, v = r[o + ax];
  return v > pk || (v === pk && (r[o + MIN_X] > px || (r[o + MIN_X] === px && r[o + FACE] > pf)));
}

/**
 * One pass over records [lo, hi): returns the axis along which their centroids spread most (ties: the lower axis);
 * leaves their smallest box min x in stats[0].
 */
function scan(r: Float64Array, lo: number, hi: number, stats: Float64Array): number {
  if (hi - lo <= 2) return scanSmall(r, lo, hi, stats);
  let o = ORDER_STRIDE * lo;
  let cx0 = r[o], cy0 = r[o + 1], cz0 = r[o + 2], cx1 = cx0, cy1 = cy0, cz1 = cz0, mx = r[o + MIN_X];
  for (let i = lo + 1; i < hi; i++) {
    o += ORDER_STRIDE;
    const cx = r[o], cy = r[o + 1], cz = r[o + 2], x = r[o + MIN_X];
    if (cx < cx0) cx0 = cx;
    if (cx > cx1) cx1 = cx;
    if (cy < cy0) cy0 = cy;
    if (cy > cy1) cy1 = cy;
    if (cz < cz0) cz0 = cz;
    if (cz > cz1) cz1 = cz;
    if (x < mx) mx = x;
  }
  stats[0] = mx;
  const ex = cx1 - cx0, ey = cy1 - cy0, ez = cz1 - cz0;
  return ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
}

/** scan() of one or two records (most calls: the tree's last levels), without the loop. */
function scanSmall(r: Float64Array, lo: number, hi: number, stats: Float64Array): number {
  const o = ORDER_STRIDE * lo;
  if (hi - lo === 1) {
    stats[0] = r[o + MIN_X];
    return 0;
  }
  const p = o + ORDER_STRIDE;
  const x0 = r[o + MIN_X], x1 = r[p + MIN_X];
  stats[0] = x1 < x0 ? x1 : x0;
  const ex = Math.abs(r[p] - r[o]), ey = Math.abs(r[p + 1] - r[o + 1]), ez = Math.abs(r[p + 2] - r[o + 2]);
  return ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
}

/** Smallest box min x over records [lo, hi). */
function minX(r: Float64Array, lo: number, hi: number): number {
  let mx = r[ORDER_STRIDE * lo + MIN_X];
  for (let o = ORDER_STRIDE * (lo + 1) + MIN_X, e = ORDER_STRIDE * hi; o < e; o += ORDER_STRIDE) if (r[o] < mx) mx = r[o];
  return mx;
}

export interface Tree {
  /** faces − 1 nodes as (lo, hi) u32 pairs, heap order. */
  nodes: Uint32Array;
  /** leafFaces[j]: the face index (into the records) held by leaf node n − 1 + j. */
  leafFaces: Uint32Array;
  /** Depth of the deepest leaf (root = 0). */
  depth: number;
}

/**
 * Builds Studio's tree over `faces` faces with records `rec`, root box `root` (the shape bounds, 6 values).
 * `scratch` (cap ≥ faces) may be shared between calls.
 */
export function buildTree(rec: FaceRecords, faces: number, root: ArrayLike<number>, scratch?: TreeScratch): Tree {
  const n = faces;
  const nodes = new Uint32Array(2 * Math.max(0, n - 1));
  const leafFaces = new Uint32Array(n);
  if (n === 0) return { nodes, leafFaces, depth: 0 };
  const s = scratch && scratch.cap >= n ? scratch : treeScratch(n);
  const depth = orderFaces(rec, n, s, leafFaces);
  trueBoxes(rec.box, leafFaces, n, s.trueBoxes);
  quantiseNodes(root, n, s.trueBoxes, s.boxes, nodes);
  return { nodes, leafFaces, depth };
}

/** Split phase: fills leafFaces with Studio's face order (see the file header); returns the deepest leaf's depth. */
function orderFaces(rec: FaceRecords, n: number, s: TreeScratch, leafFaces: Uint32Array): number {
  const r = s.order, box = rec.box, c = rec.centroid, st = s.stats;
  for (let f = 0, o = 0; f < n; f++, o += ORDER_STRIDE) {
    r[o] = c[3 * f]; r[o + 1] = c[3 * f + 1]; r[o + 2] = c[3 * f + 2]; r[o + MIN_X] = box[6 * f]; r[o + FACE] = f;
  }
  // Leaves under each node, bottom-up (subtreeLeaves for all nodes at once).
  const leaves = s.leaves;
  for (let i = 2 * n - 2; i >= 0; i--) leaves[i] = i >= n - 1 ? 1 : leaves[2 * i + 1] + leaves[2 * i + 2];
  let depth = 0;
  const stack = new Int32Array(5 * 80); // (node, lo, hi, depth, axis); ≤ log2(n) + 2 pending entries
  let sp = 0;
  stack[sp++] = 0; stack[sp++] = 0; stack[sp++] = n; stack[sp++] = 0; stack[sp++] = scan(r, 0, n, st);
  while (sp > 0) {
    const axis = stack[--sp], d = stack[--sp], hi = stack[--sp], lo = stack[--sp], i = stack[--sp];
    const size = hi - lo;
    if (size === 1) {
      leafFaces[i - (n - 1)] = r[ORDER_STRIDE * lo + FACE];
      if (d > depth) depth = d;
      continue;
    }
    if (size === 2) {
      // Two faces, two leaves: order them directly (same rule; the min-x fallback cannot arise with one face a side).
      let first = lo, second = lo + 1;
      if (before(r, axis, second, first)) { first = lo + 1; second = lo; }
      if (r[ORDER_STRIDE * second + MIN_X] < r[ORDER_STRIDE * first + MIN_X]) { const t = first; first = second; second = t; }
      leafFaces[2 * i + 1 - (n - 1)] = r[ORDER_STRIDE * first + FACE];
      leafFaces[2 * i + 2 - (n - 1)] = r[ORDER_STRIDE * second + FACE];
      if (d + 1 > depth) depth = d + 1;
      continue;
    }
    const left = leaves[2 * i + 1];
    const m = lo + left;
    selectRecordsSampled(r, axis, lo, hi, m);
    let leftLo = lo, leftAxis = scan(r, lo, m, st);
    const leftMin = st[0];
    let rightAxis = scan(r, m, hi, st);
    if (st[0] < leftMin) {
      // The right half starts lower in x: the last `left` faces (in the same order) become the left.
      const cut = hi - left;
      if (cut > m) selectRecords(r, axis, m, hi, cut);
      else if (cut < m) selectRecords(r, axis, lo, m, cut);
      leftLo = cut;
      if (minX(r, lo, cut) < minX(r, cut, hi)) {
        // Still: order by min x, then index.
        selectRecords(r, MIN_X, lo, hi, m);
        leftLo = lo;
      }
      const rightLo = leftLo === lo ? m : lo;
      rightAxis = scan(r, rightLo, rightLo + size - left, st);
      leftAxis = scan(r, leftLo, leftLo + left, st);
    }
    const rightLo = leftLo === lo ? m : lo;
    stack[sp++] = 2 * i + 2; stack[sp++] = rightLo; stack[sp++] = rightLo + (size - left); stack[sp++] = d + 1; stack[sp++] = rightAxis;
    stack[sp++] = 2 * i + 1; stack[sp++] = leftLo; stack[sp++] = leftLo + left; stack[sp++] = d + 1; stack[sp++] = leftAxis;
  }
  return depth;
}

/** Every node's true box (6 per node, heap order): a leaf's face box, a parent the union of its children's. */
function trueBoxes(box: Float64Array, leafFaces: Uint32Array, n: number, tb: Float64Array): void {
  for (let j = 0; j < n; j++) {
    const o = 6 * (n - 1 + j), f = 6 * leafFaces[j];
    tb[o] = box[f]; tb[o + 1] = box[f + 1]; tb[o + 2] = box[f + 2];
    tb[o + 3] = box[f + 3]; tb[o + 4] = box[f + 4]; tb[o + 5] = box[f + 5];
  }
  for (let i = n - 2; i >= 0; i--) {
    const o = 6 * i, l = 12 * i + 6, r = 12 * i + 12;
    // A tie keeps the left child's value.
    tb[o] = tb[r] < tb[l] ? tb[r] : tb[l];
    tb[o + 1] = tb[r + 1] < tb[l + 1] ? tb[r + 1] : tb[l + 1];
    tb[o + 2] = tb[r + 2] < tb[l + 2] ? tb[r + 2] : tb[l + 2];
    tb[o + 3] = tb[r + 3] > tb[l + 3] ? tb[r + 3] : tb[l + 3];
    tb[o + 4] = tb[r + 4] > tb[l + 4] ? tb[r + 4] : tb[l + 4];
    tb[o + 5] = tb[r + 5] > tb[l + 5] ? tb[r + 5] : tb[l + 5];
  }
}

/**
 * Quantises every inner node in heap order (parents first) inside the box its parent's word decodes to. The same
 * words as encodeNode, and the same child boxes as decodeNode, in one pass: the quantiser starts from a guess
 * (one reciprocal per axis instead of two divisions) and walks to the largest conservative step, and the plane it
 * settles on is the decoded plane (the f32 formula of minPlane/maxPlane), so nothing is decoded again.
 */
function quantiseNodes(root: ArrayLike<number>, n: number, tb: Float64Array, boxes: Float64Array, nodes: Uint32Array): void {
  for (let k = 0; k < 6; k++) boxes[k] = root[k];
  for (let i = 0; i < n - 1; i++) {
    const po = 6 * i, lo6 = 12 * i + 6, ro6 = lo6 + 6;
    const inner = 2 * i + 1 < n - 1; // leaves' decoded boxes are never read
    let wlo = 0, whi = 0;
    for (let a = 0; a < 3; a++) {
      const pl = boxes[po + a], ph = boxes[po + a + 3];
      const ext = fr(ph - pl);
      const lmin = tb[lo6 + a], rmin = tb[ro6 + a], lmax = tb[lo6 + a + 3], rmax = tb[ro6 + a + 3];
      const leftMin = lmin > rmin, leftMax = lmax < rmax;
      const vmin = leftMin ? lmin : rmin, vmax = leftMax ? lmax : rmax; // the inner planes
      const binsMax = a === 1 ? 512 : 1024, stepMax = a === 1 ? 1 / 512 : STEP_MIN;
      let kMin = 0, kMax = 0, inMin = fr(pl + fr(ext * 0)), inMax = fr(ph - fr(ext * 0));
      if (ext > 0) {
        const inv = 1 / ext;
        kMin = clampStep(Math.floor((vmin - pl) * inv * 1024), 1024);
        inMin = fr(pl + fr(ext * (kMin * STEP_MIN)));
        if (inMin > vmin) {
          while (kMin > 0) { kMin--; inMin = fr(pl + fr(ext * (kMin * STEP_MIN))); if (inMin <= vmin) break; }
        } else {
          for (let p = 0; kMin < 1023 && (p = fr(pl + fr(ext * ((kMin + 1) * STEP_MIN)))) <= vmin; kMin++) inMin = p;
        }
        kMax = clampStep(Math.floor((ph - vmax) * inv * binsMax), binsMax);
        inMax = fr(ph - fr(ext * (kMax * stepMax)));
        if (inMax < vmax) {
          while (kMax > 0) { kMax--; inMax = fr(ph - fr(ext * (kMax * stepMax))); if (inMax >= vmax) break; }
        } else {
          for (let p = 0; kMax < binsMax - 1 && (p = fr(ph - fr(ext * ((kMax + 1) * stepMax)))) >= vmax; kMax++) inMax = p;
        }
      }
      if (a === 0) {
        wlo += kMin;
        whi += kMax + (leftMax ? 0x20000000 : 0);
      } else if (a === 1) {
        wlo += kMin * 0x400 + (leftMin ? 0x40000000 : 0);
        whi += kMax * 0x400 + (leftMax ? 0x40000000 : 0);
      } else {
        wlo += kMin * 0x100000 + (leftMin ? 0x80000000 : 0);
        whi += kMax * 0x80000 + (leftMax ? 0x80000000 : 0);
      }
      if (inner) {
        const lTakesMin = a > 0 && leftMin; // min x has no owner bit: the left starts lowest
        boxes[lo6 + a] = lTakesMin ? inMin : pl;
        boxes[ro6 + a] = lTakesMin ? pl : inMin;
        boxes[lo6 + a + 3] = leftMax ? inMax : ph;
        boxes[ro6 + a + 3] = leftMax ? ph : inMax;
      }
    }
    nodes[2 * i] = wlo;
    nodes[2 * i + 1] = whi;
  }
}

/** A guessed step clamped into 0 … bins − 1. */
const clampStep = (k: number, bins: number): number => (k < 0 ? 0 : k > bins - 1 ? bins - 1 : k);
