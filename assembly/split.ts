// AssemblyScript source of the split of a welded mesh into pieces within the u16 limits (src/geometry/split.ts
// gives the rules and keeps the JavaScript entry point). 'spatial': recursive bisection at the median centroid
// (f64 mean) of the widest centroid axis, ties by welded triangle index, left share ⌊n·⌊p/2⌋/p⌋ for p = ⌈n/maxFaces⌉
// pieces; 'sequential': consecutive runs of maxFaces. Pieces come out left to right, each piece's triangles in
// ascending index order. Selection only fixes which triangles fall on each side (the order is total), so the
// pieces do not depend on pivots or on the sample window's rounding.

import { alloc, resetArena } from './arena';
import { SAMPLE_SELECT_MIN, WINDOW_HI, WINDOW_LO, sampleWindow } from './sample';
import { coordPair } from './lanes';


// Centroid arrays (x, y, z: f64 per entry) and ids (u32), permuted together.
let CX: usize = 0;
let CY: usize = 0;
let CZ: usize = 0;
let IDS: usize = 0;
/** The selection key: CX, CY or CZ. */
let KEY: usize = 0;
/** Piece ends written so far (into ENDS). */
let PIECES: i32 = 0;
let ENDS: usize = 0;

@inline function key(i: i32): f64 {
  return load<f64>(KEY + (<usize>i << 3));
}

@inline function id(i: i32): u32 {
  return load<u32>(IDS + (<usize>i << 2));
}

@inline function less(i: i32, j: i32): bool {
  const a = key(i), b = key(j);
  return a < b || (a == b && id(i) < id(j));
}

@inline function swap(i: i32, j: i32): void {
  const oi = <usize>i << 3, oj = <usize>j << 3;
  let t = load<f64>(CX + oi); store<f64>(CX + oi, load<f64>(CX + oj)); store<f64>(CX + oj, t);
  t = load<f64>(CY + oi); store<f64>(CY + oi, load<f64>(CY + oj)); store<f64>(CY + oj, t);
  t = load<f64>(CZ + oi); store<f64>(CZ + oi, load<f64>(CZ + oj)); store<f64>(CZ + oj, t);
  const u = id(i);
  store<u32>(IDS + (<usize>i << 2), id(j));
  store<u32>(IDS + (<usize>j << 2), u);
}

/** Quickselect of [lo, hi) by (key, id): the first k − lo positions hold the smallest. */
function select(lo: i32, hi: i32, k: i32): void {
  while (hi - lo > 1 && k > lo && k < hi) {
    const mid = lo + ((hi - lo) >> 1);
    if (less(mid, lo)) swap(mid, lo);
    if (less(hi - 1, lo)) swap(hi - 1, lo);
    if (less(hi - 1, mid)) swap(hi - 1, mid);
    swap(lo, mid);
    const pk = key(lo), pf = id(lo);
    let i = lo - 1, j = hi;
    for (;;) {
      do i++; while (key(i) < pk || (key(i) == pk && id(i) < pf));
      do j--; while (key(j) > pk || (key(j) == pk && id(j) > pf));
      if (i >= j) break;
      swap(i, j);
    }
    if (k <= j) hi = j + 1;
    else lo = j + 1;
  }
}

/** select() with Floyd–Rivest sampling for long ranges. */
function selectSampled(lo: i32, hi: i32, k: i32): void {
  let left = lo, right = hi - 1;
  while (right - left + 1 > SAMPLE_SELECT_MIN && k > left && k <= right) {
    sampleWindow(left, right, k);
    const sl = WINDOW_LO, sr = WINDOW_HI;
    selectSampled(sl, sr + 1, k);
    let best = k;
    for (let q = k + 1; q <= sr; q++) if (less(q, best)) best = q;
    swap(best, k);
    const pk = key(k), pf = id(k);
    let i = left, j = right;
    swap(left, k);
    if (key(right) > pk || (key(right) == pk && id(right) > pf)) swap(left, right);
    while (i < j) {
      swap(i, j);
      i++;
      j--;
      while (key(i) < pk || (key(i) == pk && id(i) < pf)) i++;
      while (key(j) > pk || (key(j) == pk && id(j) > pf)) j--;
    }
    if (id(left) == pf) swap(left, j);
    else { j++; swap(j, right); }
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
  if (right >= left) select(left, right + 1, k);
}

/** The axis whose centroids spread most over [lo, hi) (ties: the lower axis). */
function widest(lo: i32, hi: i32): usize {
  let best = CX, bestExtent: f64 = -1;
  for (let a = 0; a < 3; a++) {
    const k = a == 0 ? CX : a == 1 ? CY : CZ;
    const e = extent(k, lo, hi);
    if (e > bestExtent) { best = k; bestExtent = e; }
  }
  return best;
}

/**
 * max − min of the f64 at k over [lo, hi), two lanes at a time (pmin/pmax: the scalar compare-and-keep rule).
 */
@inline function extent(k: usize, lo: i32, hi: i32): f64 {
  let mn = f64x2.splat(Infinity), mx = f64x2.splat(-Infinity);
  let p = k + (<usize>lo << 3);
  const e = k + (<usize>hi << 3), e2 = e - 8;
  for (; p < e2; p += 16) {
    const x = v128.load(p);
    mn = f64x2.pmin(mn, x);
    mx = f64x2.pmax(mx, x);
  }
  let lo_ = Math.min(f64x2.extract_lane(mn, 0), f64x2.extract_lane(mn, 1));
  let hi_ = Math.max(f64x2.extract_lane(mx, 0), f64x2.extract_lane(mx, 1));
  if (p < e) {
    const x = load<f64>(p);
    lo_ = Math.min(lo_, x);
    hi_ = Math.max(hi_, x);
  }
  return hi_ - lo_;
}

/** Triangles t0 (lane 0) and t1 (lane 1): their centroids (f64 mean of the f32 corners, in corner order) and ids. */
@inline function centroidPair(pos: usize, tris: usize, t0: i32, t1: i32, three: v128): void {
  const o = tris + <usize>(12 * t0), q = tris + <usize>(12 * t1);
  const a0 = pos + <usize>(12 * load<u32>(o)), a1 = pos + <usize>(12 * load<u32>(o, 4)), a2 = pos + <usize>(12 * load<u32>(o, 8));
  const b0 = pos + <usize>(12 * load<u32>(q)), b1 = pos + <usize>(12 * load<u32>(q, 4)), b2 = pos + <usize>(12 * load<u32>(q, 8));
  const o0 = <usize>t0 << 3, o1 = <usize>t1 << 3;
  const cx = f64x2.div(f64x2.add(f64x2.add(coordPair(a0, b0, 0), coordPair(a1, b1, 0)), coordPair(a2, b2, 0)), three);
  const cy = f64x2.div(f64x2.add(f64x2.add(coordPair(a0, b0, 1), coordPair(a1, b1, 1)), coordPair(a2, b2, 1)), three);
  const cz = f64x2.div(f64x2.add(f64x2.add(coordPair(a0, b0, 2), coordPair(a1, b1, 2)), coordPair(a2, b2, 2)), three);
  v128.store64_lane(CX + o0, cx, 0); v128.store64_lane(CY + o0, cy, 0); v128.store64_lane(CZ + o0, cz, 0);
  v128.store64_lane(CX + o1, cx, 1); v128.store64_lane(CY + o1, cy, 1); v128.store64_lane(CZ + o1, cz, 1);
  store<u32>(IDS + (<usize>t0 << 2), <u32>t0);
  store<u32>(IDS + (<usize>t1 << 2), <u32>t1);
}

/** Every triangle's centroid into CX, CY, CZ; IDS = 0 … n − 1. */
function centroids(n: i32, pos: usize, tris: usize): void {
  const three = f64x2.splat(3);
  for (let t = 0; t < n; t += 2) centroidPair(pos, tris, t, min(t + 1, n - 1), three);
}

/** Cuts [lo, hi) until each piece fits; each piece's end goes to ENDS, left to right. */
function bisect(lo: i32, hi: i32, maxFaces: i32): void {
  const n = hi - lo;
  if (n <= maxFaces) {
    store<u32>(ENDS + (<usize>PIECES << 2), <u32>hi);
    PIECES++;
    return;
  }
  const pieces = Math.ceil(<f64>n / <f64>maxFaces);
  const m = lo + <i32>Math.floor((<f64>n * Math.floor(pieces / 2)) / pieces);
  KEY = widest(lo, hi);
  selectSampled(lo, hi, m);
  bisect(lo, m, maxFaces);
  bisect(m, hi, maxFaces);
}

/**
 * Splits n welded triangles (tris: 3 u32 each over pos: f32 ×3 per vertex) into pieces of at most maxFaces.
 * Out: ids (n u32: the pieces' triangles, piece after piece, ascending within each) and ends (u32 per piece: its
 * end in ids). spatial: 1 for 'spatial', 0 for 'sequential'. Returns the number of pieces.
 */
export function split(n: i32, pos: usize, tris: usize, maxFaces: i32, spatial: i32, ids: usize, ends: usize, arena: usize): i32 {
  if (n <= maxFaces || spatial == 0) {
    for (let i = 0; i < n; i++) store<u32>(ids + (<usize>i << 2), <u32>i);
    let p = 0;
    for (let s = 0; s < n || (n == 0 && p == 0); s += maxFaces) {
      store<u32>(ends + (<usize>p << 2), <u32>min(n, s + maxFaces));
      p++;
    }
    return p;
  }
  resetArena(arena);
  CX = alloc(<usize>n << 3); CY = alloc(<usize>n << 3); CZ = alloc(<usize>n << 3);
  IDS = alloc(<usize>n << 2);
  ENDS = ends;
  PIECES = 0;
  centroids(n, pos, tris);
  bisect(0, n, maxFaces);
  // Each piece's ids in ascending order: every id's piece noted, then one pass over the ids in order.
  const pieceOf = alloc(<usize>n << 2), fill = alloc(<usize>PIECES << 2);
  for (let p = 0, lo = 0; p < PIECES; p++) {
    const hi = <i32>load<u32>(ENDS + (<usize>p << 2));
    for (let i = lo; i < hi; i++) store<u32>(pieceOf + (<usize>id(i) << 2), <u32>p);
    store<u32>(fill + (<usize>p << 2), <u32>lo);
    lo = hi;
  }
  for (let t = 0; t < n; t++) {
    const fp = fill + (<usize>load<u32>(pieceOf + (<usize>t << 2)) << 2);
    const at = load<u32>(fp);
    store<u32>(ids + (<usize>at << 2), <u32>t);
    store<u32>(fp, at + 1);
  }
  return PIECES;
}
