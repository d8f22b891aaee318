// AssemblyScript source of the kind-5 tree builder (compiled to WebAssembly by scripts/build-wasm.mjs at
// `npm install`; loaded by src/geometry/tree-wasm.ts). It builds exactly the tree src/geometry/bvh.ts describes
// (../shared/spec/physics-resource.md, "Triangle-mesh shapes"; docs/format-decisions.md, "Encoder", Tree):
// face boxes and centroids, Studio's face order by selection, true boxes bottom-up, conservative quantisation in
// heap order. Why WebAssembly: the same loops as JavaScript run ~0.75× as long warm, and from the first call —
// a fresh worker no longer spends its first encodes in the interpreter while TurboFan compiles the tree (measured
// in bvh.ts's design log). f64/f32 arithmetic is IEEE-754 as in JavaScript (f32 demotion = Math.fround), so the
// bytes are the same; test/geometry/tree-wasm.test.ts holds it to that.
//
// Memory: raw linear memory laid out by the caller (tree-wasm.ts), all offsets 8-byte aligned, after heapBase().

import { SAMPLE_SELECT_MIN, WINDOW_HI, WINDOW_LO, sampleWindow } from './sample';

/** f64 per face record in the split phase: centroid x, y, z, face-box min x, face index. */
const STRIDE: i32 = 5;
/** Record slot of the face-box min x, also the "axis" of the min-x fallback order. */
const MIN_X: i32 = 3;
const FACE: i32 = 4;
/** Ranges of at most this many records are insertion-sorted. */
const SORT_MAX: i32 = 12;
const STEP_MIN: f64 = 1.0 / 1024.0;

/** Base of the split phase's records. */
let R: usize = 0;
/** scan()'s second result: the smallest box min x of its range. */
let SCAN_MIN: f64 = 0;

/** Where the caller may start laying out its arrays. */
export function heapBase(): usize {
  return __heap_base;
}

@inline function rd(i: i32): f64 {
  return load<f64>(R + (<usize>i << 3));
}

@inline function fr(x: f64): f64 {
  return <f64><f32>x;
}

/** Record i orders before record j on slot ax (then min x, then face index). */
@inline function before(ax: i32, i: i32, j: i32): bool {
  const a = rd(STRIDE * i + ax), b = rd(STRIDE * j + ax);
  if (a != b) return a < b;
  const ix = rd(STRIDE * i + MIN_X), jx = rd(STRIDE * j + MIN_X);
  if (ix != jx) return ix < jx;
  return rd(STRIDE * i + FACE) < rd(STRIDE * j + FACE);
}

@inline function beforePivot(ax: i32, i: i32, pk: f64, px: f64, pf: f64): bool {
  const o = STRIDE * i, v = rd(o + ax);
  return v < pk || (v == pk && (rd(o + MIN_X) < px || (rd(o + MIN_X) == px && rd(o + FACE) < pf)));
}

@inline function afterPivot(ax: i32, i: i32, pk: f64, px: f64, pf: f64): bool {
  const o = STRIDE * i, v = rd(o + ax);
  return v > pk || (v == pk && (rd(o + MIN_X) > px || (rd(o + MIN_X) == px && rd(o + FACE) > pf)));
}

/** Swaps records i and j (bit patterns moved as i64: a −0.0 stays −0.0). */
@inline function swap(i: i32, j: i32): void {
  const a = R + (<usize>(STRIDE * i) << 3), b = R + (<usize>(STRIDE * j) << 3);
  const a0 = load<i64>(a), a1 = load<i64>(a, 8), a2 = load<i64>(a, 16), a3 = load<i64>(a, 24), a4 = load<i64>(a, 32);
  store<i64>(a, load<i64>(b)); store<i64>(a, load<i64>(b, 8), 8); store<i64>(a, load<i64>(b, 16), 16);
  store<i64>(a, load<i64>(b, 24), 24); store<i64>(a, load<i64>(b, 32), 32);
  store<i64>(b, a0); store<i64>(b, a1, 8); store<i64>(b, a2, 16); store<i64>(b, a3, 24); store<i64>(b, a4, 32);
}

/** Insertion sort of records [lo, hi) by (slot ax, min x, face index). */
function sortRecords(ax: i32, lo: i32, hi: i32): void {
  for (let i = lo + 1; i < hi; i++) {
    const o = R + (<usize>(STRIDE * i) << 3);
    const c0 = load<i64>(o), c1 = load<i64>(o, 8), c2 = load<i64>(o, 16);
    const mx = load<f64>(o, 24), f = load<f64>(o, 32), key = load<f64>(o + (<usize>ax << 3));
    let h = o;
    const first = R + (<usize>(STRIDE * lo) << 3);
    while (h > first) {
      const p = h - (<usize>STRIDE << 3), v = load<f64>(p + (<usize>ax << 3));
      const pmx = load<f64>(p, 24);
      if (!(key < v || (key == v && (mx < pmx || (mx == pmx && f < load<f64>(p, 32)))))) break;
      store<i64>(h, load<i64>(p)); store<i64>(h, load<i64>(p, 8), 8); store<i64>(h, load<i64>(p, 16), 16);
      store<i64>(h, load<i64>(p, 24), 24); store<i64>(h, load<i64>(p, 32), 32);
      h = p;
    }
    store<i64>(h, c0); store<i64>(h, c1, 8); store<i64>(h, c2, 16); store<f64>(h, mx, 24); store<f64>(h, f, 32);
  }
}

/** The first k − lo of records [lo, hi) become the smallest (quickselect, median of three, Hoare partition). */
function selectRecords(ax: i32, lo: i32, hi: i32, k: i32): void {
  while (hi - lo > 1 && k > lo && k < hi) {
    if (hi - lo <= SORT_MAX) {
      sortRecords(ax, lo, hi);
      return;
    }
    const mid = lo + ((hi - lo) >> 1);
    if (before(ax, mid, lo)) swap(mid, lo);
    if (before(ax, hi - 1, lo)) swap(hi - 1, lo);
    if (before(ax, hi - 1, mid)) swap(hi - 1, mid);
    swap(lo, mid);
    const pk = rd(STRIDE * lo + ax), px = rd(STRIDE * lo + MIN_X), pf = rd(STRIDE * lo + FACE);
    let i = lo - 1, j = hi;
    for (;;) {
      do i++; while (beforePivot(ax, i, pk, px, pf));
      do j--; while (afterPivot(ax, j, pk, px, pf));
      if (i >= j) break;
      swap(i, j);
    }
    if (k <= j) hi = j + 1;
    else lo = j + 1;
  }
}

/** selectRecords with Floyd–Rivest sampling for long ranges (the pivot: a sample window's rank-k record). */
function selectRecordsSampled(ax: i32, lo: i32, hi: i32, k: i32): void {
  let left = lo, right = hi - 1;
  while (right - left + 1 > SAMPLE_SELECT_MIN && k > left && k <= right) {
    sampleWindow(left, right, k);
    const sl = WINDOW_LO, sr = WINDOW_HI;
    selectRecordsSampled(ax, sl, sr + 1, k);
    let best = k;
    for (let q = k + 1; q <= sr; q++) if (before(ax, q, best)) best = q;
    swap(best, k);
    const po = STRIDE * k;
    const pk = rd(po + ax), px = rd(po + MIN_X), pf = rd(po + FACE);
    let i = left, j = right;
    swap(left, k);
    if (afterPivot(ax, right, pk, px, pf)) swap(left, right);
    while (i < j) {
      swap(i, j);
      i++;
      j--;
      while (beforePivot(ax, i, pk, px, pf)) i++;
      while (afterPivot(ax, j, pk, px, pf)) j--;
    }
    if (rd(STRIDE * left + FACE) == pf) swap(left, j);
    else { j++; swap(j, right); }
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
  if (right >= left) selectRecords(ax, left, right + 1, k);
}

/** The axis along which the centroids of records [lo, hi) spread most (ties: the lower); SCAN_MIN = least min x. */
function scan(lo: i32, hi: i32): i32 {
  let o = R + (<usize>(STRIDE * lo) << 3);
  if (hi - lo == 1) {
    SCAN_MIN = load<f64>(o, 24);
    return 0;
  }
  // Lanes (cx, cy) and (cz, min x); pmin/pmax are `b < a ? b : a` / `a < b ? b : a`: the same as keeping the
  // earlier value on a tie, one instruction each.
  let lo0 = v128.load(o), lo1 = v128.load(o, 16);
  let hi0 = lo0, hi1 = lo1;
  const e = R + (<usize>(STRIDE * hi) << 3);
  for (o += <usize>STRIDE << 3; o < e; o += <usize>STRIDE << 3) {
    const v0 = v128.load(o), v1 = v128.load(o, 16);
    lo0 = f64x2.pmin(lo0, v0);
    hi0 = f64x2.pmax(hi0, v0);
    lo1 = f64x2.pmin(lo1, v1);
    hi1 = f64x2.pmax(hi1, v1);
  }
  const cx0 = f64x2.extract_lane(lo0, 0), cy0 = f64x2.extract_lane(lo0, 1), cz0 = f64x2.extract_lane(lo1, 0);
  const cx1 = f64x2.extract_lane(hi0, 0), cy1 = f64x2.extract_lane(hi0, 1), cz1 = f64x2.extract_lane(hi1, 0);
  SCAN_MIN = f64x2.extract_lane(lo1, 1);
  const ex = cx1 - cx0, ey = cy1 - cy0, ez = cz1 - cz0;
  return ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
}

/** Smallest box min x over records [lo, hi). */
function minX(lo: i32, hi: i32): f64 {
  let mx = rd(STRIDE * lo + MIN_X);
  for (let i = lo + 1; i < hi; i++) {
    const x = rd(STRIDE * i + MIN_X);
    if (x < mx) mx = x;
  }
  return mx;
}

/** Face boxes (6 f64 per face at box) and split records (at R) of n faces over f32 vertices v, corners fv. */
function faceRecords(v: usize, fv: usize, n: i32, box: usize): void {
  for (let f = 0; f < n; f++) {
    const t = fv + (<usize>(3 * f) << 2);
    const a = v + (<usize>(3 * load<u32>(t)) << 2), b = v + (<usize>(3 * load<u32>(t, 4)) << 2), c = v + (<usize>(3 * load<u32>(t, 8)) << 2);
    const bo = box + (<usize>(6 * f) << 3), ro = R + (<usize>(STRIDE * f) << 3);
    for (let k: usize = 0; k < 12; k += 4) {
      const x = <f64>load<f32>(a + k), y = <f64>load<f32>(b + k), z = <f64>load<f32>(c + k);
      let lo = x, hi = x; // a tie keeps the earlier value (only −0.0 against 0.0 can tell)
      if (y < lo) lo = y;
      if (z < lo) lo = z;
      if (y > hi) hi = y;
      if (z > hi) hi = z;
      store<f64>(bo + (k << 1), lo);
      store<f64>(bo + (k << 1), hi, 24);
      store<f64>(ro + (k << 1), (x + y + z) / 3);
    }
    store<f64>(ro, load<f64>(bo), 24);
    store<f64>(ro, <f64>f, 32);
  }
}

/** Studio's face order into leaf (n u32); returns the deepest leaf's depth. leaves: 2n − 1 i32, stack: 400 i32. */
function orderFaces(n: i32, leaf: usize, leaves: usize, stack: usize): i32 {
  for (let i = 2 * n - 2; i >= 0; i--) {
    const c = i >= n - 1 ? 1 : load<i32>(leaves + (<usize>(2 * i + 1) << 2)) + load<i32>(leaves + (<usize>(2 * i + 2) << 2));
    store<i32>(leaves + (<usize>i << 2), c);
  }
  let depth = 0, sp = 0;
  store<i32>(stack, 0); store<i32>(stack, 0, 4); store<i32>(stack, n, 8); store<i32>(stack, 0, 12); store<i32>(stack, scan(0, n), 16);
  sp = 5;
  while (sp > 0) {
    sp -= 5;
    const e = stack + (<usize>sp << 2);
    const i = load<i32>(e), lo = load<i32>(e, 4), hi = load<i32>(e, 8), d = load<i32>(e, 12), axis = load<i32>(e, 16);
    const size = hi - lo;
    if (size == 1) {
      store<u32>(leaf + (<usize>(i - (n - 1)) << 2), <u32>rd(STRIDE * lo + FACE));
      if (d > depth) depth = d;
      continue;
    }
    if (size == 2) {
      let first = lo, second = lo + 1;
      if (before(axis, second, first)) { first = lo + 1; second = lo; }
      if (rd(STRIDE * second + MIN_X) < rd(STRIDE * first + MIN_X)) { const t = first; first = second; second = t; }
      store<u32>(leaf + (<usize>(2 * i + 1 - (n - 1)) << 2), <u32>rd(STRIDE * first + FACE));
      store<u32>(leaf + (<usize>(2 * i + 2 - (n - 1)) << 2), <u32>rd(STRIDE * second + FACE));
      if (d + 1 > depth) depth = d + 1;
      continue;
    }
    const left = load<i32>(leaves + (<usize>(2 * i + 1) << 2));
    const m = lo + left;
    selectRecordsSampled(axis, lo, hi, m);
    let leftLo = lo, leftAxis = scan(lo, m);
    const leftMin = SCAN_MIN;
    let rightAxis = scan(m, hi);
    if (SCAN_MIN < leftMin) {
      // The right half starts lower in x: the last `left` faces become the left.
      const cut = hi - left;
      if (cut > m) selectRecords(axis, m, hi, cut);
      else if (cut < m) selectRecords(axis, lo, m, cut);
      leftLo = cut;
      if (minX(lo, cut) < minX(cut, hi)) {
        // Still: order by min x, then index.
        selectRecords(MIN_X, lo, hi, m);
        leftLo = lo;
      }
      const rLo = leftLo == lo ? m : lo;
      rightAxis = scan(rLo, rLo + size - left);
      leftAxis = scan(leftLo, leftLo + left);
    }
    const rightLo = leftLo == lo ? m : lo;
    let p = stack + (<usize>sp << 2);
    store<i32>(p, 2 * i + 2); store<i32>(p, rightLo, 4); store<i32>(p, rightLo + (size - left), 8); store<i32>(p, d + 1, 12); store<i32>(p, rightAxis, 16);
    p += 20;
    store<i32>(p, 2 * i + 1); store<i32>(p, leftLo, 4); store<i32>(p, leftLo + left, 8); store<i32>(p, d + 1, 12); store<i32>(p, leftAxis, 16);
    sp += 10;
  }
  return depth;
}

/** Every node's true box (6 f64 per node at tb, heap order): a leaf's face box, a parent the union of its children. */
function trueBoxes(box: usize, leaf: usize, n: i32, tb: usize): void {
  for (let j = 0; j < n; j++) {
    const o = tb + (<usize>(6 * (n - 1 + j)) << 3), f = box + (<usize>(6 * load<u32>(leaf + (<usize>j << 2))) << 3);
    store<i64>(o, load<i64>(f)); store<i64>(o, load<i64>(f, 8), 8); store<i64>(o, load<i64>(f, 16), 16);
    store<i64>(o, load<i64>(f, 24), 24); store<i64>(o, load<i64>(f, 32), 32); store<i64>(o, load<i64>(f, 40), 40);
  }
  for (let i = n - 2; i >= 0; i--) {
    const o = tb + (<usize>(6 * i) << 3), l = tb + (<usize>(12 * i + 6) << 3), r = l + 48;
    // A tie keeps the left child's value.
    for (let k: usize = 0; k < 24; k += 8) {
      const a = load<f64>(l + k), b = load<f64>(r + k);
      store<f64>(o + k, b < a ? b : a);
      const c = load<f64>(l + k + 24), d = load<f64>(r + k + 24);
      store<f64>(o + k + 24, d > c ? d : c);
    }
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
  for (let i = 0; i < n - 1; i++) {
    const po = bx + (<usize>(6 * i) << 3), lt = tb + (<usize>(12 * i + 6) << 3), rt = lt + 48;
    const lb = bx + (<usize>(12 * i + 6) << 3), rb = lb + 48;
    const inner = 2 * i + 1 < n - 1; // leaves' decoded boxes are never read
    let wlo: u32 = 0, whi: u32 = 0;
    for (let a = 0; a < 3; a++) {
      const ka = <usize>a << 3;
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
      const km = <u32>kMin, kx = <u32>kMax;
      if (a == 0) {
        wlo += km;
        whi += kx + (leftMax ? 0x20000000 : 0);
      } else if (a == 1) {
        wlo += km * 0x400 + (leftMin ? 0x40000000 : 0);
        whi += kx * 0x400 + (leftMax ? 0x40000000 : 0);
      } else {
        wlo += km * 0x100000 + (leftMin ? 0x80000000 : 0);
        whi += kx * 0x80000 + (leftMax ? 0x80000000 : 0);
      }
      if (inner) {
        const lTakesMin = a > 0 && leftMin; // min x has no owner bit: the left starts lowest
        store<f64>(lb + ka, lTakesMin ? inMin : pl);
        store<f64>(rb + ka, lTakesMin ? pl : inMin);
        store<f64>(lb + ka, leftMax ? inMax : ph, 24);
        store<f64>(rb + ka, leftMax ? ph : inMax, 24);
      }
    }
    store<u32>(nodes + (<usize>(2 * i) << 2), wlo);
    store<u32>(nodes + (<usize>(2 * i + 1) << 2), whi);
  }
}

/**
 * The whole tree of n ≥ 1 faces: v (f32 ×3 per vertex), fv (u32 ×3 per face) in; box (6n f64), ord (5n f64), tb and
 * bx (6 f64 per node; bx[0..6) = the root box, set by the caller), leaves (2n − 1 i32), stack (400 i32) scratch;
 * nodes (2(n − 1) u32) and leaf (n u32: face per leaf) out. Returns the deepest leaf's depth.
 */
export function build(n: i32, v: usize, fv: usize, box: usize, ord: usize, tb: usize, bx: usize, leaves: usize, stack: usize, nodes: usize, leaf: usize): i32 {
  R = ord;
  faceRecords(v, fv, n, box);
  const depth = orderFaces(n, leaf, leaves, stack);
  trueBoxes(box, leaf, n, tb);
  quantiseNodes(n, tb, bx, nodes);
  return depth;
}
