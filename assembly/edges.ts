// AssemblyScript source of a kind-5 shape's corner edge data (compiled with assembly/tree.ts by
// scripts/build-wasm.mjs; called through src/geometry/edges.ts's computeEdges, whose header gives the rule:
// ../shared/spec/physics-resource.md, "Triangle-mesh shapes"). Same loops as the JavaScript it replaced: pairing
// within each vertex's own CSR run (hubs on sorted lists), Newell normals and centroids in f64, classification per
// paired edge. Two values come from JavaScript so the bytes cannot drift: FLAT_COS (Math.cos of 0.1°, passed in)
// and the convex value's rare slow path, f32(cos(acos(d)/2)) with the JavaScript engine's own cos and acos.

import { coordPair } from './lanes';
import { f32At, f64At, i32At, u32At } from './at';

@external("env", "convexValue")
declare function convexValueJs(d: f64): f64;

/** Vertices with more corners than this pair on sorted lists (edges.ts HUB_VALENCE). */
const HUB_VALENCE: i32 = 32;
/** See edges.ts convexValueFast: the f32 rounding of √((1 + d)/2) is settled when both ends of ±this agree. */
const HALF_ANGLE_MARGIN: f64 = 1e-12;
/** f64 per face: unit normal x, y, z (zero for no area), centroid x, y, z. */
const FACE_STRIDE: i32 = 6;

@inline function prevCorner(c: i32): i32 {
  return c % 3 == 0 ? c + 2 : c - 1;
}

@inline function u16At(p: usize, i: i32): i32 {
  return <i32>load<u16>(p + (<usize>i << 1));
}

/** The paired edges found by pairCorners, (c << 16 | o) per edge (each once), and their count. */
let PAIRS: usize = 0;
let NPAIRS: i32 = 0;

/** Corners c and o are each other's opposite: noted in twin and on the pair list. */
@inline function pairUp(twin: usize, c: i32, o: i32): void {
  store<i32>(twin + (<usize>c << 2), o + 1);
  store<i32>(twin + (<usize>o << 2), c + 1);
  store<u32>(PAIRS + (<usize>NPAIRS << 2), (<u32>c << 16) | <u32>o);
  NPAIRS++;
}

/** In-place heapsort of u32 run [s, e) (hub lists: distinct values, so any correct sort gives the same order). */
function sortRun(p: usize, s: i32, e: i32): void {
  const n = e - s;
  const base = p + (<usize>s << 2);
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(base, i, n);
  for (let end = n - 1; end > 0; end--) {
    const t = load<u32>(base);
    store<u32>(base, load<u32>(base + (<usize>end << 2)));
    store<u32>(base + (<usize>end << 2), t);
    siftDown(base, 0, end);
  }
}

function siftDown(base: usize, i: i32, n: i32): void {
  const x = load<u32>(base + (<usize>i << 2));
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && load<u32>(base + (<usize>(c + 1) << 2)) > load<u32>(base + (<usize>c << 2))) c++;
    const y = load<u32>(base + (<usize>c << 2));
    if (y <= x) break;
    store<u32>(base + (<usize>i << 2), y);
    i = c;
  }
  store<u32>(base + (<usize>i << 2), x);
}

/** First index in sorted run [s, e) whose entry is ≥ b << 16. */
function lowerBound(list: usize, s: i32, e: i32, b: i32): i32 {
  const key = <u32>b << 16;
  while (s < e) {
    const m = (s + e) >> 1;
    if (u32At(list, m) < key) s = m + 1;
    else e = m;
  }
  return s;
}

/** Whether sorted run [s, e) holds vertex b exactly once (in the high half): its position, or −1. */
function onceIn(list: usize, s: i32, e: i32, b: i32): i32 {
  const i = lowerBound(list, s, e, b);
  if (i >= e || <i32>(u32At(list, i) >> 16) != b) return -1;
  return i + 1 < e && <i32>(u32At(list, i + 1) >> 16) == b ? -1 : i;
}

/** Pairing over a hub's run [s, e) on its sorted outgoing (next << 16 | corner) and incoming lists. */
function pairHub(a: i32, s: i32, e: i32, out: usize, inc: usize, twin: usize): void {
  for (let k = s; k < e; k++) {
    const b = <i32>(u32At(out, k) >> 16);
    if (b <= a) continue;
    if ((k > s && <i32>(u32At(out, k - 1) >> 16) == b) || (k + 1 < e && <i32>(u32At(out, k + 1) >> 16) == b)) continue;
    const j = onceIn(inc, s, e, b);
    if (j < 0) continue;
    pairUp(twin, <i32>(u32At(out, k) & 0xffff), <i32>(u32At(inc, j) & 0xffff));
  }
}

/**
 * twin[c] = 1 + the corner across corner c's edge a→b when a→b and b→a are each held by exactly one corner, else 0.
 * Each undirected edge (a < b) is looked at once, in a's run: nb per CSR slot is (next << 16 | previous vertex).
 */
function pairCorners(nv: i32, nc: i32, offsets: usize, ids: usize, nb: usize, twin: usize, out: usize, inc: usize): void {
  memory.fill(twin, 0, <usize>nc << 2);
  NPAIRS = 0;
  for (let a = 0; a < nv; a++) {
    const s = u16At(offsets, a), e = u16At(offsets, a + 1);
    if (e - s > HUB_VALENCE) {
      for (let k = s; k < e; k++) {
        const x = <u32>i32At(nb, k), c = u16At(ids, k);
        store<u32>(out + (<usize>k << 2), ((x >> 16) << 16) | <u32>c);
        store<u32>(inc + (<usize>k << 2), ((x & 0xffff) << 16) | <u32>prevCorner(c));
      }
      sortRun(out, s, e);
      sortRun(inc, s, e);
      pairHub(a, s, e, out, inc, twin);
      continue;
    }
    for (let k = s; k < e; k++) {
      const b = <i32>(<u32>i32At(nb, k) >> 16);
      if (b <= a) continue;
      let outs = 0, ins = 0, j = 0;
      for (let q = s; q < e; q++) {
        const x = <u32>i32At(nb, q);
        if (<i32>(x >> 16) == b) outs++;
        if (<i32>(x & 0xffff) == b) { ins++; j = q; }
      }
      if (outs == 1 && ins == 1) {
        pairUp(twin, u16At(ids, k), prevCorner(u16At(ids, j)));
      }
    }
  }
}

/** The address of corner c's vertex (3 f32). */
@inline function cornerVertex(v: usize, corners: usize, c: i32): usize {
  return v + <usize>(12 * u16At(corners, c));
}

/** Newell's unit normal (zero for no area) and the centroid of every face, interleaved (FACE_STRIDE f64). */
function faceData(v: usize, corners: usize, faces: i32, fd: usize): void {
  for (let f = 0; f < faces; f += 2) faceDataPair(v, corners, f, min(f + 1, faces - 1), fd);
}

/** faceData of faces f (lane 0) and g (lane 1): the divisions and square roots two for the price of one. */
@inline function faceDataPair(v: usize, corners: usize, f: i32, g: i32, fd: usize): void {
  const zero = f64x2.splat(0), three = f64x2.splat(3);
  const pf = cornerVertex(v, corners, 3 * f), qf = cornerVertex(v, corners, 3 * f + 1), rf = cornerVertex(v, corners, 3 * f + 2);
  const pg = cornerVertex(v, corners, 3 * g), qg = cornerVertex(v, corners, 3 * g + 1), rg = cornerVertex(v, corners, 3 * g + 2);
  const px = coordPair(pf, pg, 0), py = coordPair(pf, pg, 1), pz = coordPair(pf, pg, 2);
  const qx = coordPair(qf, qg, 0), qy = coordPair(qf, qg, 1), qz = coordPair(qf, qg, 2);
  const rx = coordPair(rf, rg, 0), ry = coordPair(rf, rg, 1), rz = coordPair(rf, rg, 2);
  // Newell's sums over the edges p→q, q→r, r→p, added in that order from 0 (as the reference does).
  let nx = f64x2.add(zero, f64x2.mul(f64x2.sub(py, qy), f64x2.add(pz, qz)));
  let ny = f64x2.add(zero, f64x2.mul(f64x2.sub(pz, qz), f64x2.add(px, qx)));
  let nz = f64x2.add(zero, f64x2.mul(f64x2.sub(px, qx), f64x2.add(py, qy)));
  nx = f64x2.add(nx, f64x2.mul(f64x2.sub(qy, ry), f64x2.add(qz, rz)));
  ny = f64x2.add(ny, f64x2.mul(f64x2.sub(qz, rz), f64x2.add(qx, rx)));
  nz = f64x2.add(nz, f64x2.mul(f64x2.sub(qx, rx), f64x2.add(qy, ry)));
  nx = f64x2.add(nx, f64x2.mul(f64x2.sub(ry, py), f64x2.add(rz, pz)));
  ny = f64x2.add(ny, f64x2.mul(f64x2.sub(rz, pz), f64x2.add(rx, px)));
  nz = f64x2.add(nz, f64x2.mul(f64x2.sub(rx, px), f64x2.add(ry, py)));
  const len = f64x2.sqrt(f64x2.add(f64x2.add(f64x2.mul(nx, nx), f64x2.mul(ny, ny)), f64x2.mul(nz, nz)));
  const has = f64x2.gt(len, zero); // no area: a zero normal
  const ux = v128.and(f64x2.div(nx, len), has), uy = v128.and(f64x2.div(ny, len), has), uz = v128.and(f64x2.div(nz, len), has);
  const cx = f64x2.div(f64x2.add(f64x2.add(px, qx), rx), three);
  const cy = f64x2.div(f64x2.add(f64x2.add(py, qy), ry), three);
  const cz = f64x2.div(f64x2.add(f64x2.add(pz, qz), rz), three);
  const o = fd + (<usize>(FACE_STRIDE * f) << 3), o2 = fd + (<usize>(FACE_STRIDE * g) << 3);
  v128.store64_lane(o, ux, 0); v128.store64_lane(o, uy, 0, 8); v128.store64_lane(o, uz, 0, 16);
  v128.store64_lane(o, cx, 0, 24); v128.store64_lane(o, cy, 0, 32); v128.store64_lane(o, cz, 0, 40);
  v128.store64_lane(o2, ux, 1); v128.store64_lane(o2, uy, 1, 8); v128.store64_lane(o2, uz, 1, 16);
  v128.store64_lane(o2, cx, 1, 24); v128.store64_lane(o2, cy, 1, 32); v128.store64_lane(o2, cz, 1, 40);
}

/** f32(cos(acos(d)/2)) as √((1 + d)/2) when its f32 rounding is settled, else through JavaScript's cos and acos. */
export function convexValueFast(d: f64): f64 {
  const s = Math.sqrt((1 + d) / 2);
  const f = <f64><f32>s;
  return <f64><f32>(s - HALF_ANGLE_MARGIN) == f && <f64><f32>(s + HALF_ANGLE_MARGIN) == f ? f : convexValueJs(d);
}

@inline function setBit(bits: usize, c: i32): void {
  const p = bits + (<usize>c >> 3);
  store<u8>(p, load<u8>(p) | <u8>(1 << <u8>(c & 7)));
}

/**
 * Every paired edge classified once (edges.ts classifyAll; each edge's result is its own, so the pair list's order
 * is as good as corner order): open when either face has no normal; flat (both flat bits) when d ≥ flatCos; else
 * per side, by the other face's centroid against this face's plane through the corner's vertex: concave bit
 * (d > 0) or sharp concave (no bit), or convex (value). counts: 5 i32 [open, flat, concave, convex, sharp concave].
 * Past the flat test the sides are chosen without branches (they follow the surface's bumps, which no predictor
 * can): the convex value is computed for every such edge, and stored or not by a select.
 */
function classifyAll(v: usize, corners: usize, nc: i32, fd: usize, flatCos: f64, values: usize, concave: usize, flat: usize, counts: usize): void {
  let nFlat = 0, nConcave = 0, nConvex = 0, nSharp = 0;
  for (let e = 0; e < NPAIRS; e++) {
    const w = load<u32>(PAIRS + (<usize>e << 2));
    const c = <i32>(w >> 16), o = <i32>(w & 0xffff);
    const f = FACE_STRIDE * <i32>((<u32>c * 0xaaab) >> 17), g = FACE_STRIDE * <i32>((<u32>o * 0xaaab) >> 17);
    const fx = f64At(fd, f), fy = f64At(fd, f + 1), fz = f64At(fd, f + 2);
    const gx = f64At(fd, g), gy = f64At(fd, g + 1), gz = f64At(fd, g + 2);
    if ((fx == 0 && fy == 0 && fz == 0) || (gx == 0 && gy == 0 && gz == 0)) continue;
    const dot = fx * gx + fy * gy + fz * gz;
    if (dot >= flatCos) {
      setBit(flat, c);
      setBit(flat, o);
      nFlat += 2;
      continue;
    }
    const d = dot < -1 ? -1 : dot;
    const a = 3 * u16At(corners, c), b = 3 * u16At(corners, o);
    const aboveC = <i32>((f64At(fd, g + 3) - f32At(v, a)) * fx + (f64At(fd, g + 4) - f32At(v, a + 1)) * fy + (f64At(fd, g + 5) - f32At(v, a + 2)) * fz >= 0);
    const aboveO = <i32>((f64At(fd, f + 3) - f32At(v, b)) * gx + (f64At(fd, f + 4) - f32At(v, b + 1)) * gy + (f64At(fd, f + 5) - f32At(v, b + 2)) * gz >= 0);
    const value = reinterpret<u32>(<f32>convexValueFast(d));
    store<u32>(values + (<usize>c << 2), select<u32>(0x3f800000, value, aboveC != 0));
    store<u32>(values + (<usize>o << 2), select<u32>(0x3f800000, value, aboveO != 0));
    const bend = <i32>(d > 0);
    setBitIf(concave, c, aboveC & bend);
    setBitIf(concave, o, aboveO & bend);
    nConvex += 2 - aboveC - aboveO;
    nConcave += (aboveC + aboveO) & -bend;
    nSharp += (aboveC + aboveO) & (bend - 1);
  }
  store<i32>(counts, nc - nFlat - nConcave - nConvex - nSharp);
  store<i32>(counts, nFlat, 4); store<i32>(counts, nConcave, 8); store<i32>(counts, nConvex, 12); store<i32>(counts, nSharp, 16);
}

/** Bit c of bits set when on is 1 (0: left as it is), without a branch. */
@inline function setBitIf(bits: usize, c: i32, on: i32): void {
  const p = bits + (<usize>c >> 3);
  store<u8>(p, load<u8>(p) | <u8>(on << (c & 7)));
}

/**
 * The corner edge data of one shape. In: v (f32 ×3 per vertex), corners (nc u16), the vertex→corner CSR offsets
 * (nv + 1 u16) and ids (nc u16), nb (nc i32: next << 16 | previous vertex per CSR slot). Scratch: twin (nc i32:
 * the opposite corner + 1, 0 for none; piece.ts reads it after), fd (6 f64 per face), out and inc (nc u32 each),
 * pairs (nc / 2 u32: the paired edges).
 * Out: values (nc f32, filled with 1.0 here), concave and flat (bitset bytes, zeroed here), counts (5 i32).
 */
export function edges(
  nv: i32, nc: i32, flatCos: f64, v: usize, corners: usize, offsets: usize, ids: usize, nb: usize,
  twin: usize, fd: usize, out: usize, inc: usize, pairs: usize, values: usize, concave: usize, flat: usize, bitsetBytes: i32, counts: usize,
): void {
  PAIRS = pairs;
  for (let c = 0; c < nc; c++) store<f32>(values + (<usize>c << 2), 1.0);
  memory.fill(concave, 0, <usize>bitsetBytes);
  memory.fill(flat, 0, <usize>bitsetBytes);
  pairCorners(nv, nc, offsets, ids, nb, twin, out, inc);
  faceData(v, corners, nc / 3, fd);
  classifyAll(v, corners, nc, fd, flatCos, values, concave, flat, counts);
}


