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
// last faces become the left); if that still holds, the faces are ordered by minimum x, then index (never reached:
// the left child has at least half the faces, so the last ones then hold the least min x). Only the split matters
// (children re-order their own faces under a total order), so the builder sorts each axis once and splits those
// lists stably down the tree: O(n log n) overall, the same tree as a full sort at every node would give.
//
// The builder itself runs in WebAssembly: assembly/tree.ts (AssemblyScript; loaded by tree-wasm.ts). This file
// keeps the rule's reference pieces in JavaScript — the quantisers, one node's encode and decode (the codec's
// verify and the tests use them), the heap's leaf counts — and the builder's design log below.

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

// Design log (tree builder, encoder performance):
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
// - (JavaScript builder, before WebAssembly) scan's on-stack-replaced loop deoptimised at its exit on long ranges,
//   ~110 times per 80k encode; Node's --no-use-osr, which removes it, measured no different.
// - 2026-12-01: the builder (face records, order, true boxes, quantisation) moved to WebAssembly, the same loops
//   over the same flat f64 records written in AssemblyScript (assembly/tree.ts, -O3, stub runtime, raw memory laid
//   out by tree-wasm.ts). Checked tree for tree against the JavaScript builder on 14 fixtures (1–21,845 faces, soup,
//   −0.0, flat, stairs, rails) and by the 35 reference goldens. Measured on a 2-core Xeon VM, one process:
//   quantisation alone 0.74× warm (5.75 → 4.25 ms on a 21,840-face piece) and, in a fresh process, 53–66 ms for
//   its first JavaScript call (interpreter, then TurboFan) against 3–4 ms to compile the module plus 9–11 ms for
//   the first call; the whole builder 0.60× warm (27.3 → 16.5 ms on a 21,845-face piece); the whole encode
//   0.75–0.78× at 80k (179 → 135, 119 → 92 ms) and 0.81× at 1M (2,269 → 1,843 ms), its first call in a fresh
//   process 502–665 → 372–377 ms at 80k. Weld, split, edges and the rest of the piece followed the same day
//   (encode.ts's design log has the totals).
// - Tried in wasm, not kept (A/B of two builds in alternating processes, 80k terrain, medians of 35 after 5
//   warm-up calls, 3 pairs): a BlockQuicksort partition (side tests written branch-free to offset buffers, then
//   the misplaced pairs swapped) for ranges of 128+ records: 0.98×; blocks of 16: no better. 32-byte records
//   (the min x as an order-preserving u32 and the face index packed into one u64 tie key, moved with SIMD v128):
//   0.99×. So neither record traffic nor branch misses of the partition dominate; after the wasm move the tree is
//   ~60 % of an 80k encode (selection ~30 %, the children's scans ~13 %, quantisation ~13 %).
// - Kept: the children's scan with SIMD — lanes (cx, cy) and (cz, min x) through f64x2.pmin/pmax, which are
//   exactly "b < a ? b : a" / "a < b ? b : a" (the tie keeps the earlier value, as the scalar branches did): whole
//   80k encode 0.85–0.88× (medians 57.6–59.2 → 48.9–50.9 ms, alternating processes; same bytes). The scalar
//   min/max branches mispredicted on the short ranges of the lower levels.
// - 2026-12-04, kept: presorted lists in wasm, replacing selection and the SIMD scan below (docs/format-decisions.md, Tree, says how). Same
//   leaves on every fixture and golden. A/B of the two modules' build() in one process, 60 interleaved calls,
//   ns per face min/p25/median: 21,000-face terrain piece 352/358/366 → 263/270/275, 21,000-face soup 434/438/443 →
//   348/357/362, 2,000-face terrain 276/281/290 → 224/228/231, 120,000 faces 383/392/405 → 315/325/342. The
//   phases at 21k terrain (min): face records and the four sorts ~65 ns a face, the order ~90 (the selection's ~180, by difference), true
//   boxes ~25, quantisation ~90–100, now the largest part. The min-x list first went down the tree too (a third
//   partition); reading the least min x of each side while the side bytes are written instead: 0.89–0.98×.
//   memory.copy for the axis list's halves against a plain u32 loop: the same (the tiny nodes do not show it).
//   Tried, not kept: quantisation evaluating the estimate's neighbours k − 1 … k + 2 at once instead of stepping
//   from k (no faster: the steps were not mispredicting).
// - 2026-12-04, kept: quantiseNodes' loop over the three axes written as three inlined calls of quantiseAxis (the
//   loop kept each axis's bins and owner bits as variables and the axes in series): the whole build() 0.93×
//   (min of 60 interleaved calls: 21k terrain 276 → 257 ns a face, soup 364 → 337, 2k 220 → 205, 120k 335 → 320).
// - 2026-12-04, kept: the axis sorts start from face order instead of a fourth sort by (min x, face), the runs of
//   one 32-bit key ordered by the whole (centroid, min x, face): build() p25 0.95–0.97× (21k terrain 377 → 363,
//   soup 498 → 475, 120k 447 → 432 ns a face, on a busy machine). A run of k out of order costs O(k log k): 21,845
//   faces all within 64 f32 steps of x = y = z = 1 build in 23 ms against 8 for a random soup.
// - 2026-12-04, kept: siblings quantised two at a time in f64x2 lanes (assembly/tree.ts quantisePair), the floor
//   estimate taken as the step when its plane holds the bound and the next one's does not — 394 of 89,991 pairs of
//   a 180k terrain and 10 of 29,997 of a 60k soup fall back to the stepping search (quantiseNode), lane by lane.
//   build() 0.87–0.90× (min of 60 interleaved calls, ns a face: 21k terrain 232 → 207, soup 325 → 284, 2k 206 →
//   174, 120k 304 → 265; same words on every fixture, golden and digest).
// - 2026-12-04, kept: nodes of 3 or 4 faces place their children's one or two faces at once (placePair) instead of
//   partitioning lists for them and pushing them: build() p25 0.93–0.97× (21k terrain 321 → 312, soup 428 → 407,
//   2k 276 → 261, 120k 277 → 256 ns a face, on a busy machine).
// - 2026-12-04, kept: the split's loops walk pointers instead of indices (the index form kept the loop bound and
//   bases spilled), and each axis's keys are counted for the radix sort while they are made (one pass fewer):
//   build() p25 0.95–0.99× (21k terrain 308 → 292, soup 402 → 398, 2k 257 → 241, 120k 359 → 340 ns a face).
// - 2026-12-04, kept: true boxes in SIMD, f64x2.pmin/pmax being exactly the scalar tie rule (the left child's
//   value kept): build() p25 0.97–0.99× (21k terrain 325 → 314, soup 417 → 387, 2k 245 → 242, 120k 237 → 229).
// - 2026-12-04, kept: runs past RUN_HEAP_MAX radix-sorted (by min x, then the centroid key's low bits) instead of
//   heap-sorted. A flat piece is one run of all its faces on the flat axis (heap-sorted, it gave back the whole
//   gain of the lists there): 21k flat grid 438 (the selection) / 426 (heapsort) → 267 ns a face, min of 60.
// - 2026-12-04, kept: small shapes sort by 8-bit digits (RADIX8_MAX), the tiniest by insertion (RADIX_MIN). The
//   11-bit histograms (24 KB cleared, 3 × 2,048 prefix sums an axis) made a 112-face prop 1.38× slower than the
//   selection (221 against 160 ns a face, p25 of 2,000 calls); now 148, and 600 faces 245 → 149. The 1M bench
//   level (4,100 props of 108 faces) had shown it: its encode stage 844–1,042 ms before the lists, 867–1,148 with
//   them (alternating fresh processes); with this, 656–784 against 761–813 (wall 1,236–1,320 against 1,297–1,334).
// - Tried, not kept (2026-12-04): the two lists' partitions fused into one loop (one counter and bound): build()
//   p25 1.00–1.03×, slower. An f32 copy of min x for the split's side pass (half the bytes read at random): 1.00×.
// - 2026-12-04, kept: faceRecords' boxes and centroids two faces at a time in f64x2 lanes (pmin/pmax are the scalar
//   tie rule, the division IEEE's). The per-piece step on the 500k terrain, interleaved in one process: min
//   109.5 → 107.6 ms; by perf samples (encode loop, 25 calls) faceRecords 1,343 → 1,329 of ~15,500: the radix sorts
//   are most of it.
// - Tried, not kept (2026-12-04): lazy lists. A list whose axis extent was ≤ ¼ of the node's widest was not split
//   for the children (carried as stale with that extent as a bound); a node scanned a stale axis's exact extent
//   only when the bound could beat the exact ones, and sorted its faces by that axis only when it then won (same
//   trees: digests of 18 encodes equal). On the 21,840-face terrain piece it skipped nearly every height-list split
//   (6.2M list moves instead of ~12M for the 500k terrain), yet build() went 2.80–2.96 → 2.76–2.91 ms: all splits
//   are ~19 % of build() (measured by doing them twice), and the stale bookkeeping on ~10,000 small nodes and the
//   scans took most of the half saved. The side scans are ~9 %.
// - 2026-12-04 (evening), kept: a run of one 32-bit centroid key out of order is sorted by a precomputed 64-bit key
//   (the centroid key's low 32 bits, then min x's f32 key; ties stay in face order: a stable sort) instead of
//   comparing (centroid, min x, face) through the face arrays: insertion up to 16, then a merge sort through HIST up
//   to 1,024 (was a heap sort), radix beyond as before; an in-order run is checked with the same keys, unstored.
//   Such runs are common where a level is modular: the 1M bench level's props (boxes at one height, merged per cell
//   and material) leave 50,325 runs out of order in its cells, 4,487 of them past 32 faces; 10.7 % of its cells'
//   nodes also fall back to the stepping quantisation (0.4 % on terrain). Its 1,335 cell groups encoded in turn
//   (min of 20 passes, both modules in one process): 259.7 → 252.3 ms; terrain 80k 19.90 → 19.79, 500k 146.2 →
//   141.8 ms. Same bytes (digest of 12,004 shapes: the level's cells at 100 and 50 m, lattice soups, flat grids).
// - 2026-12-04 (evening), kept: where a pair's estimate misses, only the axes that missed are searched again
//   (quantisePair returns a bit per axis and lane; each axis's share of the words is kept beside the sums), not the
//   whole node. The bench level's cells (10.7 % of nodes miss, mostly on one axis): 243.1 → 241.5 and 245.0 →
//   240.4 ms in two orders; terrain unchanged within noise. Same digest.


export interface Tree {
  /** faces − 1 nodes as (lo, hi) u32 pairs, heap order. */
  nodes: Uint32Array;
  /** leafFaces[j]: the face index (into the records) held by leaf node n − 1 + j. */
  leafFaces: Uint32Array;
  /** Depth of the deepest leaf (root = 0). */
  depth: number;
}

