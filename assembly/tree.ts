// AssemblyScript source of the kind-5 tree builder (compiled to WebAssembly by scripts/build-wasm.mjs at
// `npm install`; loaded by src/geometry/tree-wasm.ts). It builds exactly the tree src/geometry/bvh.ts describes
// (../shared/spec/physics-resource.md, "Triangle-mesh shapes"; docs/format-decisions.md, "Encoder", Tree):
// face boxes and centroids, Studio's face order by per-axis lists sorted once and split stably down the tree, true
// boxes bottom-up, conservative quantisation in heap order (siblings two at a time in SIMD lanes). Why
// WebAssembly: the same loops as JavaScript run ~0.75× as long warm, and from the first call — a fresh worker no
// longer spends its first encodes in the interpreter while TurboFan compiles the tree (measured in bvh.ts's log).
// f64/f32 arithmetic is IEEE-754 as in JavaScript (f32 demotion = Math.fround), so the bytes are the same; the
// goldens hold it to that, and test/geometry/wasm.test.ts the whole tree to its rule.
//
// Memory: raw linear memory laid out by the caller (tree-wasm.ts), all offsets 8-byte aligned, after heapBase().

import { coordPair } from './lanes';

const STEP_MIN: f64 = 1.0 / 1024.0;

// The face order's scratch (orderScratchBytes(n) bytes at ord), n faces: centroid x, y, z and box min x (f64 each,
// 32n bytes); two banks of three u32 lists, the faces in (centroid, min x, face) order on x, y and z (a node's faces
// sit at [lo, hi) of each list of the bank its depth's parity picks; its children's go to the other bank), the
// second bank 16n bytes so that the sorts' scratch fits in it; one u8 per face (its side in the current split).
let N: usize = 0;
let CX: usize = 0;
let MX: usize = 0;
let BANK: usize = 0;
let SIDE: usize = 0;
/** Runs of one 32-bit centroid key out of order: insertion-sorted up to RUN_INSERT_MAX entries, merge-sorted up to
 *  RUN_MERGE_MAX (its scratch, keys and entries, is HIST), radix-sorted beyond (sortRun). */
const RUN_INSERT_MAX: i32 = 16;
const RUN_MERGE_MAX: i32 = 1024;
/** Shapes of at most this many faces sort each axis as one run (insertion sort), without the radix. */
const RADIX_MIN: i32 = 32;
/** Shapes of at most this many faces radix-sort by 8-bit digits (four passes, small histograms), larger by 11-bit. */
const RADIX8_MAX: i32 = 4096;
/** Radix histograms: three digits (11, 11 and 10 bits) of a 32-bit key, or four of 8 bits. */
const HIST: usize = memory.data(3 * 2048 * 4, 8);

/** Bytes of scratch build() needs at ord for n faces (see above: 32n + 12n + 16n + n, and alignment). */
export function orderScratchBytes(n: i32): usize {
  return <usize>(61 * n + 8);
}

/** Where the caller may start laying out its arrays. */
export function heapBase(): usize {
  return __heap_base;
}

@inline function fr(x: f64): f64 {
  return <f64><f32>x;
}

@inline function cen(a: i32, f: u32): f64 {
  return load<f64>(CX + (<usize>a * N << 3) + (<usize>f << 3));
}

@inline function minx(f: u32): f64 {
  return load<f64>(MX + (<usize>f << 3));
}

/** List k (by centroid x, y, z) of bank b. */
@inline function list(b: i32, k: i32): usize {
  return BANK + (<usize>(3 * b + k) * N << 2);
}

@inline function at(l: usize, j: i32): u32 {
  return load<u32>(l + (<usize>j << 2));
}

/** Counts the three radix digits of key w in HIST. */
@inline function countDigits(w: u32): void {
  const h0 = HIST + ((<usize>w & 0x7ff) << 2), h1 = HIST + 8192 + ((<usize>(w >> 11) & 0x7ff) << 2), h2 = HIST + 16384 + (<usize>(w >> 22) << 2);
  store<u32>(h0, load<u32>(h0) + 1); store<u32>(h1, load<u32>(h1) + 1); store<u32>(h2, load<u32>(h2) + 1);
}

/**
 * Stable LSD radix sort of n u64 at a by their high 32 bits, whose digits the caller counted in HIST (zeroed, then
 * countDigits of each); t: n u64 scratch. Returns where the result is.
 */
function radixHigh(a: usize, t: usize, n: i32): usize {
  let src = a, dst = t;
  for (let d = 0; d < 3; d++) {
    const h = HIST + (<usize>d << 13), shift = <u32>(32 + 11 * d);
    // A digit every key shares moves nothing.
    if (load<u32>(h + (<usize>((load<u64>(src) >> shift) & 0x7ff) << 2)) == <u32>n) continue;
    let sum: u32 = 0;
    for (let b = 0; b < 2048; b++) {
      const c = load<u32>(h + (<usize>b << 2));
      store<u32>(h + (<usize>b << 2), sum);
      sum += c;
    }
    for (let j = 0; j < n; j++) {
      const v = load<u64>(src + (<usize>j << 3));
      const hp = h + (<usize>((v >> shift) & 0x7ff) << 2), pos = load<u32>(hp);
      store<u32>(hp, pos + 1);
      store<u64>(dst + (<usize>pos << 3), v);
    }
    const s = src; src = dst; dst = s;
  }
  return src;
}

/** Counts the four 8-bit radix digits of key w in HIST (radix8High's layout). */
@inline function countDigits8(w: u32): void {
  const h0 = HIST + ((<usize>w & 0xff) << 2), h1 = HIST + 1024 + ((<usize>(w >> 8) & 0xff) << 2);
  const h2 = HIST + 2048 + ((<usize>(w >> 16) & 0xff) << 2), h3 = HIST + 3072 + (<usize>(w >> 24) << 2);
  store<u32>(h0, load<u32>(h0) + 1); store<u32>(h1, load<u32>(h1) + 1); store<u32>(h2, load<u32>(h2) + 1); store<u32>(h3, load<u32>(h3) + 1);
}

/**
 * radixHigh with four 8-bit digits, counted by countDigits8: for small n, whose cost the histograms would be. Two
 * copies with their digits written out: one function over a digit-width parameter measured 4–8 % slower (the
 * digit loops stay loops).
 */
function radix8High(a: usize, t: usize, n: i32): usize {
  let src = a, dst = t;
  for (let d = 0; d < 4; d++) {
    const h = HIST + (<usize>d << 10), shift = <u32>(32 + 8 * d);
    if (load<u32>(h + (<usize>((load<u64>(src) >> shift) & 0xff) << 2)) == <u32>n) continue;
    let sum: u32 = 0;
    for (let b = 0; b < 256; b++) {
      const c = load<u32>(h + (<usize>b << 2));
      store<u32>(h + (<usize>b << 2), sum);
      sum += c;
    }
    for (let j = 0; j < n; j++) {
      const v = load<u64>(src + (<usize>j << 3));
      const hp = h + (<usize>((v >> shift) & 0xff) << 2), pos = load<u32>(hp);
      store<u32>(hp, pos + 1);
      store<u64>(dst + (<usize>pos << 3), v);
    }
    const s = src; src = dst; dst = s;
  }
  return src;
}

/** An order-preserving u64 of x (−0 as +0). */
@inline function keyF64(x: f64): u64 {
  const b = x == 0 ? <u64>0 : reinterpret<u64>(x);
  return (b >> 63) != 0 ? ~b : b | 0x8000000000000000;
}

@inline function keyF64High(x: f64): u64 {
  return keyF64(x) >> 32;
}

/** An order-preserving u32 of the f32 value x (−0 as +0). */
@inline function keyF32(x: f64): u64 {
  const b = x == 0 ? <u32>0 : reinterpret<u32>(<f32>x);
  return <u64>((b >> 31) != 0 ? ~b : b | 0x80000000);
}

/** Sort entry p (face: its low 32 bits) before q in (centroid a, min x, face) order. */
@inline function runBefore(a: i32, p: u64, q: u64): bool {
  const f = <u32>p, g = <u32>q;
  const cp = cen(a, f), cq = cen(a, g);
  if (cp != cq) return cp < cq;
  const xp = minx(f), xq = minx(g);
  return xp < xq || (xp == xq && f < g);
}

/**
 * Entries [0, n) of s (faces, any centroids) into runBefore order by insertion: a shape of at most RADIX_MIN faces.
 */
function sortSmall(a: i32, s: usize, n: i32): void {
  for (let j = 1; j < n; j++) {
    const v = load<u64>(s + (<usize>j << 3));
    let k = j;
    while (k > 0 && runBefore(a, v, load<u64>(s + (<usize>(k - 1) << 3)))) {
      store<u64>(s + (<usize>k << 3), load<u64>(s + (<usize>(k - 1) << 3)));
      k--;
    }
    store<u64>(s + (<usize>k << 3), v);
  }
}

/**
 * Face f's order inside a run on axis a (its centroid key's high 32 bits shared by the run): the centroid key's low
 * 32 bits, then min x's f32 key. Equal keys mean an equal centroid and min x (−0 as +0, as runBefore compares).
 */
@inline function runKey(a: i32, f: u32): u64 {
  return (keyF64(cen(a, f)) << 32) | keyF32(minx(f));
}

/**
 * Entries [lo, hi) of s (equal in their high 32 bits, in face order as the stable radix leaves them) into runBefore
 * order: each entry's runKey into t at the same offsets, then a stable sort by it (ties stay in face order, the
 * rule's last key) moving keys and entries together: insertion up to RUN_INSERT_MAX entries, a merge sort through
 * HIST up to RUN_MERGE_MAX, radix beyond (a flat floor's whole piece is one run on its flat axis).
 */
function sortRun(a: i32, s: usize, t: usize, lo: i32, hi: i32): void {
  // Most runs are in order already (a grid's equal centroids share their min x): checked first without storing.
  let j = lo + 1;
  for (let prev = runKey(a, <u32>load<u64>(s + (<usize>lo << 3))); j < hi; j++) {
    const k = runKey(a, <u32>load<u64>(s + (<usize>j << 3)));
    if (k < prev) break;
    prev = k;
  }
  if (j == hi) return;
  const n = hi - lo, ks = t + (<usize>lo << 3), es = s + (<usize>lo << 3);
  if (n > RUN_MERGE_MAX) {
    radixRun(a, es, ks, n);
    return;
  }
  for (let i = 0; i < n; i++) store<u64>(ks + (<usize>i << 3), runKey(a, <u32>load<u64>(es + (<usize>i << 3))));
  if (n <= RUN_INSERT_MAX) {
    insertKeyed(ks, es, 0, n);
    return;
  }
  // Blocks of RUN_INSERT_MAX insertion-sorted in place, then merged pairwise, ping-ponging with HIST (keys, then
  // entries at HIST + 8 · RUN_MERGE_MAX).
  for (let b = 0; b < n; b += RUN_INSERT_MAX) insertKeyed(ks, es, b, min(b + RUN_INSERT_MAX, n));
  let sk = ks, se = es, dk = HIST, de = HIST + (<usize>RUN_MERGE_MAX << 3);
  for (let w = RUN_INSERT_MAX; w < n; w <<= 1) {
    for (let l = 0; l < n; l += 2 * w) {
      const m = min(l + w, n), e = min(l + 2 * w, n);
      let i = l, j = m, o = l;
      while (i < m && j < e) {
        const ki = load<u64>(sk + (<usize>i << 3)), kj = load<u64>(sk + (<usize>j << 3));
        const right = kj < ki; // ties from the left: stable
        const src = right ? j : i;
        store<u64>(dk + (<usize>o << 3), right ? kj : ki);
        store<u64>(de + (<usize>o << 3), load<u64>(se + (<usize>src << 3)));
        i += right ? 0 : 1;
        j += right ? 1 : 0;
        o++;
      }
      if (i < m) {
        memory.copy(dk + (<usize>o << 3), sk + (<usize>i << 3), <usize>(m - i) << 3);
        memory.copy(de + (<usize>o << 3), se + (<usize>i << 3), <usize>(m - i) << 3);
      } else if (j < e) {
        memory.copy(dk + (<usize>o << 3), sk + (<usize>j << 3), <usize>(e - j) << 3);
        memory.copy(de + (<usize>o << 3), se + (<usize>j << 3), <usize>(e - j) << 3);
      }
    }
    let x = sk; sk = dk; dk = x;
    x = se; se = de; de = x;
  }
  if (se != es) memory.copy(es, se, <usize>n << 3);
}

/** Entries [lo, hi) of es by their keys at ks (same offsets), stable insertion, keys moved along. */
@inline function insertKeyed(ks: usize, es: usize, lo: i32, hi: i32): void {
  for (let j = lo + 1; j < hi; j++) {
    const kv = load<u64>(ks + (<usize>j << 3)), ev = load<u64>(es + (<usize>j << 3));
    let k = j;
    while (k > lo && kv < load<u64>(ks + (<usize>(k - 1) << 3))) {
      store<u64>(ks + (<usize>k << 3), load<u64>(ks + (<usize>(k - 1) << 3)));
      store<u64>(es + (<usize>k << 3), load<u64>(es + (<usize>(k - 1) << 3)));
      k--;
    }
    store<u64>(ks + (<usize>k << 3), kv);
    store<u64>(es + (<usize>k << 3), ev);
  }
}

/**
 * k entries at b (one 32-bit centroid key) into (centroid, min x, face) order: stable radix sorts from face order
 * by min x, then by the centroid key's low 32 bits (c: k u64 scratch). A digit all share is skipped, so a flat
 * axis (one centroid) costs the min-x passes only.
 */
function radixRun(a: i32, b: usize, c: usize, k: i32): void {
  memory.fill(HIST, 0, 3 * 2048 * 4);
  for (let j = 0; j < k; j++) {
    const p = b + (<usize>j << 3), f = <u32>load<u64>(p), key = keyF32(minx(f));
    store<u64>(p, key << 32 | <u64>f);
    countDigits(<u32>key);
  }
  let r = radixHigh(b, c, k);
  memory.fill(HIST, 0, 3 * 2048 * 4);
  for (let j = 0; j < k; j++) {
    const p = r + (<usize>j << 3), f = <u32>load<u64>(p), key = keyF64(cen(a, f)) & 0xffffffff;
    store<u64>(p, key << 32 | <u64>f);
    countDigits(<u32>key);
  }
  r = radixHigh(r, r == b ? c : b, k);
  if (r != b) memory.copy(b, r, <usize>k << 3);
}

/**
 * Face boxes (6 f64 per face at box), centroids and min x, and bank 0's lists: per axis a stable radix sort of the
 * faces by the high 32 bits of the centroid's order-preserving f64 key, then each run sharing those bits put in
 * (centroid, min x, face) order (most are: equal centroids of a grid share their min x too, and stay in face order).
 * O(n), but O(k log k) for a run of k ≤ RUN_MERGE_MAX out of order.
 */
function faceRecords(v: usize, fv: usize, n: i32, box: usize): void {
  // Two faces at a time in f64x2 lanes (pmin/pmax are the scalar compare-and-keep rule, the division is IEEE's).
  const three = f64x2.splat(3);
  for (let f = 0; f < n; f += 2) facePair(v, fv, box, f, min(f + 1, n - 1), three);
  // Bank 1 is free until the split starts: the radix sorts' two u64 arrays.
  const p = list(1, 0), q = p + (N << 3);
  for (let a = 0; a < 3; a++) {
    if (n <= RADIX_MIN) {
      // Few faces: one run insertion-sorted whole.
      for (let f = 0; f < n; f++) store<u64>(p + (<usize>f << 3), <u64>f);
      sortSmall(a, p, n);
      const l = list(0, a);
      for (let j = 0; j < n; j++) store<u32>(l + (<usize>j << 2), load<u32>(p + (<usize>j << 3)));
      continue;
    }
    const small = n <= RADIX8_MAX;
    memory.fill(HIST, 0, small ? 4 * 256 * 4 : 3 * 2048 * 4);
    for (let f = 0; f < n; f++) {
      const k = keyF64High(cen(a, f));
      store<u64>(p + (<usize>f << 3), k << 32 | <u64>f);
      if (small) countDigits8(<u32>k);
      else countDigits(<u32>k);
    }
    const s = small ? radix8High(p, q, n) : radixHigh(p, q, n), t = s == p ? q : p;
    for (let lo = 0; lo < n;) {
      const top = load<u32>(s + (<usize>lo << 3), 4);
      let hi = lo + 1;
      while (hi < n && load<u32>(s + (<usize>hi << 3), 4) == top) hi++;
      if (hi - lo > 1) sortRun(a, s, t, lo, hi);
      lo = hi;
    }
    const l = list(0, a);
    for (let j = 0; j < n; j++) store<u32>(l + (<usize>j << 2), load<u32>(s + (<usize>j << 3)));
  }
}

/**
 * Faces f0 (lane 0) and f1 (lane 1): their boxes (a tie keeps the earlier value: only −0.0 against 0.0 can tell),
 * centroids and min x.
 */
@inline function facePair(v: usize, fv: usize, box: usize, f0: i32, f1: i32, three: v128): void {
  const t = fv + (<usize>(3 * f0) << 2), u = fv + (<usize>(3 * f1) << 2);
  const a0 = v + (<usize>(3 * load<u32>(t)) << 2), b0 = v + (<usize>(3 * load<u32>(t, 4)) << 2), c0 = v + (<usize>(3 * load<u32>(t, 8)) << 2);
  const a1 = v + (<usize>(3 * load<u32>(u)) << 2), b1 = v + (<usize>(3 * load<u32>(u, 4)) << 2), c1 = v + (<usize>(3 * load<u32>(u, 8)) << 2);
  const bo0 = box + (<usize>(6 * f0) << 3), bo1 = box + (<usize>(6 * f1) << 3);
  const lx = faceAxisPair(0, a0, b0, c0, a1, b1, c1, bo0, bo1, f0, f1, three);
  faceAxisPair(1, a0, b0, c0, a1, b1, c1, bo0, bo1, f0, f1, three);
  faceAxisPair(2, a0, b0, c0, a1, b1, c1, bo0, bo1, f0, f1, three);
  v128.store64_lane(MX + (<usize>f0 << 3), lx, 0);
  v128.store64_lane(MX + (<usize>f1 << 3), lx, 1);
}

/** Axis k of facePair (written out per axis: a loop over k kept its offsets as variables); returns the min planes. */
@inline function faceAxisPair(k: usize, a0: usize, b0: usize, c0: usize, a1: usize, b1: usize, c1: usize, bo0: usize, bo1: usize, f0: i32, f1: i32, three: v128): v128 {
  const x = coordPair(a0, a1, k), y = coordPair(b0, b1, k), z = coordPair(c0, c1, k);
  const lo = f64x2.pmin(f64x2.pmin(x, y), z), hi = f64x2.pmax(f64x2.pmax(x, y), z);
  v128.store64_lane(bo0 + (k << 3), lo, 0); v128.store64_lane(bo0 + (k << 3), hi, 0, 24);
  v128.store64_lane(bo1 + (k << 3), lo, 1); v128.store64_lane(bo1 + (k << 3), hi, 1, 24);
  const c = f64x2.div(f64x2.add(f64x2.add(x, y), z), three), ck = CX + k * (N << 3);
  v128.store64_lane(ck + (<usize>f0 << 3), c, 0);
  v128.store64_lane(ck + (<usize>f1 << 3), c, 1);
  return lo;
}

/** List src's [lo, hi) into dst: faces whose side is 1 to [lo, lo + left), the rest after them, each in order. */
@inline function partition(src: usize, dst: usize, lo: i32, hi: i32, left: i32): void {
  let l = dst + (<usize>lo << 2), r = dst + (<usize>(lo + left) << 2);
  for (let p = src + (<usize>lo << 2), e = src + (<usize>hi << 2); p < e; p += 4) {
    const f = load<u32>(p);
    const g = <usize>load<u8>(SIDE + <usize>f);
    store<u32>(g != 0 ? l : r, f);
    l += g << 2;
    r += (g ^ 1) << 2;
  }
}

/** Node i of two faces f, g (in any order): its leaves in Studio's order, the rule of every two-face node. */
@inline function placePair(i: i32, f: u32, g: u32, leaf: usize, n: i32): void {
  const ex = Math.abs(cen(0, f) - cen(0, g)), ey = Math.abs(cen(1, f) - cen(1, g)), ez = Math.abs(cen(2, f) - cen(2, g));
  const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
  const cf = cen(axis, f), cg = cen(axis, g), xf = minx(f), xg = minx(g);
  // (centroid, min x, face) order, then the lower min x first.
  let first = f, second = g;
  if (cg < cf || (cg == cf && (xg < xf || (xg == xf && g < f)))) { first = g; second = f; }
  if (minx(second) < minx(first)) { const t = first; first = second; second = t; }
  store<u32>(leaf + (<usize>(2 * i + 1 - (n - 1)) << 2), first);
  store<u32>(leaf + (<usize>(2 * i + 2 - (n - 1)) << 2), second);
}

/**
 * Studio's face order into leaf (n u32); returns the deepest leaf's depth. leaves: 2n − 1 i32, stack: 400 i32.
 * A node of leaves[i] faces splits along the axis its centroids spread most (ties: the lower); its left child
 * takes the first leaves[2i + 1] in that axis's order unless they miss the node's least min x, and then the last
 * ones (which then hold it: the left child has at least half the faces, so the two sets cover the node).
 */
function orderFaces(n: i32, leaf: usize, leaves: usize, stack: usize): i32 {
  for (let i = 2 * n - 2; i >= 0; i--) {
    const c = i >= n - 1 ? 1 : load<i32>(leaves + (<usize>(2 * i + 1) << 2)) + load<i32>(leaves + (<usize>(2 * i + 2) << 2));
    store<i32>(leaves + (<usize>i << 2), c);
  }
  let depth = 0, sp = 0;
  store<i32>(stack, 0); store<i32>(stack, 0, 4); store<i32>(stack, n, 8); store<i32>(stack, 0, 12);
  sp = 4;
  while (sp > 0) {
    sp -= 4;
    const e = stack + (<usize>sp << 2);
    const i = load<i32>(e), lo = load<i32>(e, 4), hi = load<i32>(e, 8), d = load<i32>(e, 12);
    const size = hi - lo, b = d & 1;
    if (size == 1) {
      store<u32>(leaf + (<usize>(i - (n - 1)) << 2), at(list(b, 0), lo));
      if (d > depth) depth = d;
      continue;
    }
    const lx = list(b, 0);
    if (size == 2) {
      placePair(i, at(lx, lo), at(lx, lo + 1), leaf, n);
      if (d + 1 > depth) depth = d + 1;
      continue;
    }
    const ly = list(b, 1), lz = list(b, 2);
    const ex = cen(0, at(lx, hi - 1)) - cen(0, at(lx, lo));
    const ey = cen(1, at(ly, hi - 1)) - cen(1, at(ly, lo));
    const ez = cen(2, at(lz, hi - 1)) - cen(2, at(lz, lo));
    const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
    const la = list(b, axis);
    const left = load<i32>(leaves + (<usize>(2 * i + 1) << 2));
    if (size <= 4) {
      // Children of one or two faces: placed here, without lists (left = 2, right = size − 2).
      const f0 = at(la, lo), f1 = at(la, lo + 1), f2 = at(la, lo + 2), f3 = size == 4 ? at(la, lo + 3) : 0;
      const inA = Math.min(minx(f0), minx(f1)), rest = size == 4 ? Math.min(minx(f2), minx(f3)) : minx(f2);
      let l0 = f0, l1 = f1, r0 = f2, r1 = f3;
      if (rest < inA) {
        // The last two are the left child.
        if (size == 4) { l0 = f2; l1 = f3; r0 = f0; r1 = f1; } else { l0 = f1; l1 = f2; r0 = f0; }
      }
      placePair(2 * i + 1, l0, l1, leaf, n);
      if (size == 4) placePair(2 * i + 2, r0, r1, leaf, n);
      else store<u32>(leaf + (<usize>(2 * i + 2 - (n - 1)) << 2), r0);
      if (d + 2 > depth) depth = d + 2;
      continue;
    }
    // The first `left` faces are the left child unless the rest start lower in x; then the last `left` are. Sides
    // are written for the first case while the least min x of each part is found.
    const cutA = lo + left, cutB = hi - left;
    let inA = Infinity, rest = Infinity;
    const pa = la + (<usize>cutA << 2), pb = la + (<usize>cutB << 2), pl = la + (<usize>lo << 2), ph = la + (<usize>hi << 2);
    for (let p = pl; p < pa; p += 4) {
      const f = load<u32>(p), x = minx(f);
      inA = x < inA ? x : inA;
      store<u8>(SIDE + <usize>f, 1);
    }
    for (let p = pa; p < ph; p += 4) {
      const f = load<u32>(p), x = minx(f);
      rest = x < rest ? x : rest;
      store<u8>(SIDE + <usize>f, 0);
    }
    const first = !(rest < inA), cut = first ? cutA : cutB;
    if (!first) {
      for (let p = pl; p < pb; p += 4) store<u8>(SIDE + <usize>load<u32>(p), 0);
      for (let p = pa; p < ph; p += 4) store<u8>(SIDE + <usize>load<u32>(p), 1);
    }
    const nb = b ^ 1, da = list(nb, axis);
    if (first) memory.copy(da + (<usize>lo << 2), la + (<usize>lo << 2), <usize>size << 2);
    else {
      memory.copy(da + (<usize>lo << 2), la + (<usize>cut << 2), <usize>left << 2);
      memory.copy(da + (<usize>(lo + left) << 2), la + (<usize>lo << 2), <usize>(size - left) << 2);
    }
    for (let k = 0; k < 3; k++) if (k != axis) partition(list(b, k), list(nb, k), lo, hi, left);
    const p = stack + (<usize>sp << 2);
    store<i32>(p, 2 * i + 2); store<i32>(p, lo + left, 4); store<i32>(p, hi, 8); store<i32>(p, d + 1, 12);
    store<i32>(p, 2 * i + 1, 16); store<i32>(p, lo, 20); store<i32>(p, lo + left, 24); store<i32>(p, d + 1, 28);
    sp += 8;
  }
  return depth;
}

/** Every node's true box (6 f64 per node at tb, heap order): a leaf's face box, a parent the union of its children. */
function trueBoxes(box: usize, leaf: usize, n: i32, tb: usize): void {
  for (let j = 0; j < n; j++) {
    const o = tb + (<usize>(6 * (n - 1 + j)) << 3), f = box + (<usize>(6 * load<u32>(leaf + (<usize>j << 2))) << 3);
    v128.store(o, v128.load(f)); v128.store(o, v128.load(f, 16), 16); v128.store(o, v128.load(f, 32), 32);
  }
  for (let i = n - 2; i >= 0; i--) {
    const o = tb + (<usize>(6 * i) << 3), l = tb + (<usize>(12 * i + 6) << 3), r = l + 48;
    // A tie keeps the left child's value: pmin(a, b) is b < a ? b : a, pmax(a, b) is a < b ? b : a. Lanes: min x,
    // y | min z, max x | max y, z.
    const l0 = v128.load(l), l1 = v128.load(l, 16), l2 = v128.load(l, 32);
    const r0 = v128.load(r), r1 = v128.load(r, 16), r2 = v128.load(r, 32);
    v128.store(o, f64x2.pmin(l0, r0));
    v128.store(o, v128.shuffle<i64>(f64x2.pmin(l1, r1), f64x2.pmax(l1, r1), 0, 3), 16);
    v128.store(o, f64x2.pmax(l2, r2), 32);
  }
}

@inline function clampStep(k: f64, bins: f64): f64 {
  return k < 0 ? 0 : k > bins - 1 ? bins - 1 : k;
}

/**
 * Quantises every inner node in heap order inside the box its parent's word decodes to (bx: 6 f64 per node, the
 * root's box written by the caller); words to nodes (2 u32 per inner node). As bvh.ts's quantiseNodes.
 */
function quantiseNodes(n: i32, tb: usize, bx: usize, nodes: usize): void {
  if (n < 2) return;
  quantiseNode(0, n, tb, bx, nodes);
  // Siblings 2j + 1 and 2j + 2 depend only on their parent: two at a time in f64x2 lanes.
  let i = 1;
  for (; i + 1 < n - 1; i += 2) {
    // An axis whose estimate was not its step (rounding: 0.4 % of a terrain's nodes, ~10 % of a modular level's,
    // whose planes line up with the steps) is searched again by stepping, that axis alone.
    const ok = quantisePair(i, tb, bx, nodes);
    if (ok != 63) redoAxes(i, n, tb, bx, nodes, ok);
  }
  if (i < n - 1) quantiseNode(i, n, tb, bx, nodes);
}

/**
 * Siblings i and i + 1: each axis whose bit in ok (2a + lane, quantisePair's) is clear searched again by stepping
 * (quantiseAxis, which also writes that axis's decoded planes), its bits put into the node's words in place of the
 * estimate's.
 */
function redoAxes(i: i32, n: i32, tb: usize, bx: usize, nodes: usize, ok: i32): void {
  for (let lane = 0; lane < 2; lane++) {
    const j = i + lane;
    const po = bx + (<usize>(6 * j) << 3), lt = tb + (<usize>(12 * j + 6) << 3), lb = bx + (<usize>(12 * j + 6) << 3);
    const inner = 2 * j + 1 < n - 1;
    const wp = nodes + (<usize>(2 * j) << 2);
    for (let a = 0; a < 3; a++) {
      if ((ok >> (2 * a + lane)) & 1) continue;
      const w = a == 0 ? quantiseAxis(0, po, lt, lb, inner) : a == 1 ? quantiseAxis(1, po, lt, lb, inner) : quantiseAxis(2, po, lt, lb, inner);
      // The words are sums of disjoint bit fields: the lane's estimate for this axis out, the search's in.
      const ax = AXW + (<usize>a << 5) + (<usize>lane << 3);
      store<u32>(wp, load<u32>(wp) - <u32>load<f64>(ax) + <u32>w);
      store<u32>(wp, load<u32>(wp, 4) - <u32>load<f64>(ax, 16) + <u32>(w >> 32), 4);
    }
  }
}

/** Node i's words (and, when its children are inner, their decoded boxes): quantiseAxis on each axis. */
function quantiseNode(i: i32, n: i32, tb: usize, bx: usize, nodes: usize): void {
  const po = bx + (<usize>(6 * i) << 3), lt = tb + (<usize>(12 * i + 6) << 3);
  const lb = bx + (<usize>(12 * i + 6) << 3);
  const inner = 2 * i + 1 < n - 1; // leaves' decoded boxes are never read
  // One axis at a time, each inlined with its constants (a loop over the axes kept them as variables).
  const x = quantiseAxis(0, po, lt, lb, inner), y = quantiseAxis(1, po, lt, lb, inner), z = quantiseAxis(2, po, lt, lb, inner);
  store<u32>(nodes + (<usize>(2 * i) << 2), <u32>x + <u32>y + <u32>z);
  store<u32>(nodes + (<usize>(2 * i + 1) << 2), <u32>(x >> 32) + <u32>(y >> 32) + <u32>(z >> 32));
}

@inline function fr2(x: v128): v128 {
  return f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(x));
}

/** f64 at p (lane 0) and at q (lane 1). */
@inline function load2(p: usize, q: usize): v128 {
  return v128.load64_lane(q, v128.load64_zero(p), 1);
}

@inline function clamp2(k: v128, top: f64): v128 {
  const t = f64x2.splat(top);
  return v128.bitselect(f64x2.splat(0), v128.bitselect(t, k, f64x2.gt(k, t)), f64x2.lt(k, f64x2.splat(0)));
}

/** The pair's words and the lane masks of the f64 word sums (low, high) of one axis: see quantisePair. */
let PAIR_LO: v128 = f64x2.splat(0);
let PAIR_HI: v128 = f64x2.splat(0);
/** Each axis's share of the pair's words (f64 lanes): at AXW + 32a its low words, at + 16 its high words. */
const AXW: usize = memory.data(96, 16);

/**
 * Axis a of siblings i (lane 0) and i + 1 (lane 1), quantiseAxis's arithmetic lane by lane but taking the floor
 * estimate as the step without searching: returns the lanes where that held (the estimate's plane holds the bound
 * and the next step's does not, or there is none). Adds the axis's bits to PAIR_LO/PAIR_HI as f64 (exact below
 * 2^32); writes both children's decoded planes of both nodes (a leaf's are never read).
 */
@inline function quantisePairAxis(a: i32, po: usize, lt: usize, lb: usize): v128 {
  const ka = <usize>a << 3;
  const binsMax: f64 = a == 1 ? 512 : 1024, stepMax: f64 = a == 1 ? 1.0 / 512 : STEP_MIN;
  const pl = load2(po + ka, po + 48 + ka), ph = load2(po + ka + 24, po + 72 + ka);
  const ext = fr2(f64x2.sub(ph, pl));
  const lmin = load2(lt + ka, lt + 96 + ka), rmin = load2(lt + 48 + ka, lt + 144 + ka);
  const lmax = load2(lt + 24 + ka, lt + 120 + ka), rmax = load2(lt + 72 + ka, lt + 168 + ka);
  const leftMin = f64x2.gt(lmin, rmin), leftMax = f64x2.lt(lmax, rmax);
  const vmin = v128.bitselect(lmin, rmin, leftMin), vmax = v128.bitselect(lmax, rmax, leftMax);
  const pos = f64x2.gt(ext, f64x2.splat(0));
  const inv = f64x2.div(f64x2.splat(1), ext);
  const zero = f64x2.splat(0), one = f64x2.splat(1);
  const sMin = f64x2.splat(STEP_MIN), sMax = f64x2.splat(stepMax);
  const kMin = clamp2(f64x2.floor(f64x2.mul(f64x2.mul(f64x2.sub(vmin, pl), inv), f64x2.splat(1024))), 1023);
  const pk = fr2(f64x2.add(pl, fr2(f64x2.mul(ext, f64x2.mul(kMin, sMin)))));
  const pk1 = fr2(f64x2.add(pl, fr2(f64x2.mul(ext, f64x2.mul(f64x2.add(kMin, one), sMin)))));
  const okMin = v128.and(f64x2.le(pk, vmin), v128.or(f64x2.gt(pk1, vmin), f64x2.eq(kMin, f64x2.splat(1023))));
  const kMax = clamp2(f64x2.floor(f64x2.mul(f64x2.mul(f64x2.sub(ph, vmax), inv), f64x2.splat(binsMax))), binsMax - 1);
  const qk = fr2(f64x2.sub(ph, fr2(f64x2.mul(ext, f64x2.mul(kMax, sMax)))));
  const qk1 = fr2(f64x2.sub(ph, fr2(f64x2.mul(ext, f64x2.mul(f64x2.add(kMax, one), sMax)))));
  const okMax = v128.and(f64x2.ge(qk, vmax), v128.or(f64x2.lt(qk1, vmax), f64x2.eq(kMax, f64x2.splat(binsMax - 1))));
  // An empty extent: steps 0, planes as quantiseAxis gives them then.
  const km = v128.and(kMin, pos), kx = v128.and(kMax, pos);
  const inMin = v128.bitselect(pk, fr2(f64x2.add(pl, fr2(f64x2.mul(ext, zero)))), pos);
  const inMax = v128.bitselect(qk, fr2(f64x2.sub(ph, fr2(f64x2.mul(ext, zero)))), pos);
  const lTakesMin = a > 0 ? leftMin : zero; // min x has no owner bit: the left starts lowest
  const lbMin = v128.bitselect(inMin, pl, lTakesMin), rbMin = v128.bitselect(pl, inMin, lTakesMin);
  const lbMax = v128.bitselect(inMax, ph, leftMax), rbMax = v128.bitselect(ph, inMax, leftMax);
  v128.store64_lane(lb + ka, lbMin, 0); v128.store64_lane(lb + 96 + ka, lbMin, 1);
  v128.store64_lane(lb + 48 + ka, rbMin, 0); v128.store64_lane(lb + 144 + ka, rbMin, 1);
  v128.store64_lane(lb + 24 + ka, lbMax, 0); v128.store64_lane(lb + 120 + ka, lbMax, 1);
  v128.store64_lane(lb + 72 + ka, rbMax, 0); v128.store64_lane(lb + 168 + ka, rbMax, 1);
  const minBit: f64 = a == 1 ? 1073741824 : 2147483648, maxBit: f64 = a == 0 ? 536870912 : a == 1 ? 1073741824 : 2147483648;
  const minMul: f64 = a == 0 ? 1 : a == 1 ? 1024 : 1048576, maxMul: f64 = a == 0 ? 1 : a == 1 ? 1024 : 524288;
  let lo = f64x2.mul(km, f64x2.splat(minMul));
  if (a > 0) lo = f64x2.add(lo, v128.and(leftMin, f64x2.splat(minBit)));
  const hi = f64x2.add(f64x2.mul(kx, f64x2.splat(maxMul)), v128.and(leftMax, f64x2.splat(maxBit)));
  PAIR_LO = f64x2.add(PAIR_LO, lo);
  PAIR_HI = f64x2.add(PAIR_HI, hi);
  v128.store(AXW + ka * 4, lo);
  v128.store(AXW + ka * 4, hi, 16);
  return v128.or(v128.and(okMin, okMax), v128.not(pos));
}

/** Siblings i and i + 1 quantised together; returns bit 2a + lane set where axis a of node i + lane needed no search. */
function quantisePair(i: i32, tb: usize, bx: usize, nodes: usize): i32 {
  const po = bx + (<usize>(6 * i) << 3), lt = tb + (<usize>(12 * i + 6) << 3);
  const lb = bx + (<usize>(12 * i + 6) << 3);
  PAIR_LO = f64x2.splat(0);
  PAIR_HI = f64x2.splat(0);
  const ok = i64x2.bitmask(quantisePairAxis(0, po, lt, lb)) | i64x2.bitmask(quantisePairAxis(1, po, lt, lb)) << 2 | i64x2.bitmask(quantisePairAxis(2, po, lt, lb)) << 4;
  const lo = i32x4.trunc_sat_f64x2_u_zero(PAIR_LO), hi = i32x4.trunc_sat_f64x2_u_zero(PAIR_HI);
  v128.store(nodes + (<usize>(2 * i) << 2), i32x4.shuffle(lo, hi, 0, 4, 1, 5));
  return ok;
}

/**
 * Axis a of the node whose box is at po and children's true boxes at lt (right: lt + 48): its bits of the node's
 * low word (low 32 bits of the result) and high word (high 32); with inner, the children's decoded planes to lb
 * (right: lb + 48).
 */
@inline function quantiseAxis(a: i32, po: usize, lt: usize, lb: usize, inner: bool): u64 {
  const ka = <usize>a << 3, rt = lt + 48, rb = lb + 48;
  const pl = load<f64>(po + ka), ph = load<f64>(po + ka, 24);
  const ext = fr(ph - pl);
  const lmin = load<f64>(lt + ka), rmin = load<f64>(rt + ka), lmax = load<f64>(lt + ka, 24), rmax = load<f64>(rt + ka, 24);
  const leftMin = lmin > rmin, leftMax = lmax < rmax;
  const vmin = leftMin ? lmin : rmin, vmax = leftMax ? lmax : rmax; // the inner planes
  const binsMax: f64 = a == 1 ? 512 : 1024, stepMax: f64 = a == 1 ? 1.0 / 512 : STEP_MIN;
  let kMin: f64 = 0, kMax: f64 = 0, inMin = fr(pl + fr(ext * 0)), inMax = fr(ph - fr(ext * 0));
  if (ext > 0) {
    const inv = 1 / ext;
    kMin = clampStep(Math.floor((vmin - pl) * inv * 1024), 1024);
    inMin = fr(pl + fr(ext * (kMin * STEP_MIN)));
    if (inMin > vmin) {
      while (kMin > 0) { kMin--; inMin = fr(pl + fr(ext * (kMin * STEP_MIN))); if (inMin <= vmin) break; }
    } else {
      let p: f64 = 0;
      for (; kMin < 1023 && (p = fr(pl + fr(ext * ((kMin + 1) * STEP_MIN)))) <= vmin; kMin++) inMin = p;
    }
    kMax = clampStep(Math.floor((ph - vmax) * inv * binsMax), binsMax);
    inMax = fr(ph - fr(ext * (kMax * stepMax)));
    if (inMax < vmax) {
      while (kMax > 0) { kMax--; inMax = fr(ph - fr(ext * (kMax * stepMax))); if (inMax >= vmax) break; }
    } else {
      let p: f64 = 0;
      for (; kMax < binsMax - 1 && (p = fr(ph - fr(ext * ((kMax + 1) * stepMax)))) >= vmax; kMax++) inMax = p;
    }
  }
  if (inner) {
    const lTakesMin = a > 0 && leftMin; // min x has no owner bit: the left starts lowest
    store<f64>(lb + ka, lTakesMin ? inMin : pl);
    store<f64>(rb + ka, lTakesMin ? pl : inMin);
    store<f64>(lb + ka, leftMax ? inMax : ph, 24);
    store<f64>(rb + ka, leftMax ? ph : inMax, 24);
  }
  const km = <u32>kMin, kx = <u32>kMax;
  let wlo: u32, whi: u32;
  if (a == 0) {
    wlo = km;
    whi = kx + (leftMax ? 0x20000000 : 0);
  } else if (a == 1) {
    wlo = km * 0x400 + (leftMin ? 0x40000000 : 0);
    whi = kx * 0x400 + (leftMax ? 0x40000000 : 0);
  } else {
    wlo = km * 0x100000 + (leftMin ? 0x80000000 : 0);
    whi = kx * 0x80000 + (leftMax ? 0x80000000 : 0);
  }
  return <u64>wlo | (<u64>whi << 32);
}

/**
 * The whole tree of n ≥ 1 faces: v (f32 ×3 per vertex), fv (u32 ×3 per face) in; box (6n f64), ord (orderScratchBytes(n) bytes), tb and
 * bx (6 f64 per node; bx[0..6) = the root box, set by the caller), leaves (2n − 1 i32), stack (400 i32) scratch;
 * nodes (2(n − 1) u32) and leaf (n u32: face per leaf) out. Returns the deepest leaf's depth.
 */
export function build(n: i32, v: usize, fv: usize, box: usize, ord: usize, tb: usize, bx: usize, leaves: usize, stack: usize, nodes: usize, leaf: usize): i32 {
  N = <usize>n;
  CX = ord;
  MX = ord + (N * 24);
  BANK = ord + (N * 32);
  SIDE = ord + (N * 64);
  faceRecords(v, fv, n, box);
  const depth = orderFaces(n, leaf, leaves, stack);
  trueBoxes(box, leaf, n, tb);
  quantiseNodes(n, tb, bx, nodes);
  return depth;
}
