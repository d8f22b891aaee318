// verify's fast all-clear pass in WebAssembly (src/format/verify-wasm.ts lays a shape's arrays out and calls it):
// src/format/verify.ts shapeClean's loops after its record and bounds checks, the same checks in the same f32
// arithmetic, answering 1 ("all clear") or 0 ("not sure": verify then runs shapeClean and its checks in JavaScript,
// which decide and word every finding). It may only ever answer 1 where shapeClean does (a test holds it to that on
// real outputs and thousands of mutations). Why WebAssembly: verify runs this once a process over every face of a
// level, where JavaScript runs its first files unoptimized; the same loops compiled ahead run at full speed at once.
//
// The checks are shapeClean's, some in another order or form (the answer is all of them at once, so order does not
// change it): the element-wise ones a pass each, several elements a step (wasm's fixed-width SIMD), before the tree
// (its corners then name vertices); each leaf's box against its corners x y z at once; the index checked id by id.
//
// Arrays at the given addresses (any alignment), lengths in elements: vertices f32, corner vertices u16, face
// offsets u16, edge values f32 (read as their u32 bits), concave and flat bits u8, vertex corner offsets u16,
// corner ids u16, tree u32 pairs, plane offsets f32; `boxes`: scratch for 6 f32 a heap node (2 · faces − 1 nodes).
// 16 bytes past the boxes and past the arrays are readable (a box's max and a vertex are read four f32 at a time).

const STEP_10: f32 = 1.0 / 1024.0;
const STEP_9: f32 = 1.0 / 512.0;

@inline function finiteBits(b: u32): bool {
  return (b & 0x7f800000) != 0x7f800000;
}

/** An edge value's bits in [0, 1] (shapeClean's test: +0 up to 0x3f800000, or −0); NaN and negatives lie above. */
@inline function edgeOk(e: u32): bool {
  return e <= 0x3f800000 || e == 0x80000000;
}

export function verifyClean(
  v: usize, vLen: i32, cv: usize, corners: i32, fo: usize, foLen: i32, ev: usize, mesh: i32,
  cb: usize, cbLen: i32, fb: usize, fbLen: i32, vco: usize, vcoLen: i32, ids: usize, idsLen: i32,
  tree: usize, treeLen: i32, po: usize, poLen: i32,
  minX: f64, minY: f64, minZ: f64, maxX: f64, maxY: f64, maxZ: f64, boxes: usize,
): i32 {
  const vertices = vLen / 3;
  const faces = foLen > 0 ? foLen - 1 : 0;
  // Vertices: every coordinate finite (its exponent not all ones), four a step.
  if (!finiteAll(v, vLen)) return 0;
  // Face offsets: 0, strictly ascending, ending at the corner count (none at all only without corners).
  if (foLen == 0) {
    if (corners > 0) return 0;
  } else {
    if (load<u16>(fo) != 0 || <i32>load<u16>(fo + (<usize>(foLen - 1) << 1)) != corners) return 0;
    if (!ascending(fo, foLen, true)) return 0;
  }
  // Every corner names a vertex (eight a step), and in a mesh has an edge value in range (four a step).
  if (!below(cv, corners, vertices)) return 0;
  if (mesh) {
    // Triangles, an edge value a corner (the caller passes mesh only then), faces − 1 nodes, not both bits.
    if (corners != 3 * faces) return 0;
    if (faces > 1 && treeLen != 2 * (faces - 1)) return 0;
    if (!edgesInRange(ev, corners)) return 0;
    if (cbLen != 0 && fbLen != 0) {
      // Only the bits of corners 0 .. corners − 1.
      const whole = corners >> 3;
      let both: u32 = 0;
      for (let b = 0; b < whole; b++) both |= load<u8>(cb + b) & load<u8>(fb + b);
      if (both != 0) return 0;
      const rest = corners & 7;
      if (rest != 0 && (load<u8>(cb + whole) & load<u8>(fb + whole) & ((1 << rest) - 1)) != 0) return 0;
    }
  }
  if (treeLen > 0) {
    const inner = faces - 1;
    if (inner < 1 || treeLen != 2 * inner) return 0;
    decodeTree(tree, inner, boxes, minX, minY, minZ, maxX, maxY, maxZ);
    if (!contained(v, cv, fo, faces, boxes + <usize>(24 * inner))) return 0;
  }
  // The vertex → corner index: ascending offsets from 0 to the id count, each vertex its own corners, ascending.
  if (vcoLen != 0 || idsLen != 0) {
    if (vcoLen == 0 || (idsLen == 0 && corners > 0)) return 0;
    if (load<u16>(vco) != 0 || <i32>load<u16>(vco + (<usize>(vcoLen - 1) << 1)) != idsLen) return 0;
    if (!ascending(vco, vcoLen, false)) return 0;
    if (!indexed(vco, ids, idsLen, cv, corners)) return 0;
  }
  if (faces > 0 && poLen > 0 && poLen != faces) return 0;
  return finiteAll(po, poLen) ? 1 : 0;
}

/** Every one of the n f32 at p finite. */
function finiteAll(p: usize, n: i32): bool {
  const exp = i32x4.splat(0x7f800000);
  let ok = i32x4.splat(-1);
  let k = 0;
  for (; k + 4 <= n; k += 4) ok = v128.and(ok, i32x4.ne(v128.and(v128.load(p + (<usize>k << 2)), exp), exp));
  if (!i32x4.all_true(ok)) return false;
  for (; k < n; k++) if (!finiteBits(load<u32>(p + (<usize>k << 2)))) return false;
  return true;
}

/** The n u16 at p ascending: strictly (`strict`), or never descending. */
function ascending(p: usize, n: i32, strict: bool): bool {
  let ok = i16x8.splat(-1);
  let k = 0;
  // Entries k .. k + 7 against k + 1 .. k + 8.
  if (strict) for (; k + 9 <= n; k += 8) ok = v128.and(ok, i16x8.lt_u(v128.load(p + (<usize>k << 1)), v128.load(p + (<usize>k << 1), 2)));
  else for (; k + 9 <= n; k += 8) ok = v128.and(ok, i16x8.le_u(v128.load(p + (<usize>k << 1)), v128.load(p + (<usize>k << 1), 2)));
  if (!i16x8.all_true(ok)) return false;
  for (; k + 1 < n; k++) {
    const a = load<u16>(p + (<usize>k << 1)), b = load<u16>(p + (<usize>k << 1), 2);
    if (strict ? b <= a : b < a) return false;
  }
  return true;
}

/** Every one of the n u16 at p below `limit` (at most 65,535). */
function below(p: usize, n: i32, limit: i32): bool {
  const lim = i16x8.splat(<i16>limit);
  let ok = i16x8.splat(-1);
  let k = 0;
  for (; k + 8 <= n; k += 8) ok = v128.and(ok, i16x8.lt_u(v128.load(p + (<usize>k << 1)), lim));
  if (!i16x8.all_true(ok)) return false;
  for (; k < n; k++) if (<i32>load<u16>(p + (<usize>k << 1)) >= limit) return false;
  return true;
}

/** Every one of the n edge values at p (their f32 bits) in range (edgeOk). */
function edgesInRange(p: usize, n: i32): bool {
  const one = i32x4.splat(0x3f800000), negZero = i32x4.splat(0x80000000);
  let ok = i32x4.splat(-1);
  let k = 0;
  for (; k + 4 <= n; k += 4) {
    const e = v128.load(p + (<usize>k << 2));
    ok = v128.and(ok, v128.or(i32x4.le_u(e, one), i32x4.eq(e, negZero)));
  }
  if (!i32x4.all_true(ok)) return false;
  for (; k < n; k++) if (!edgeOk(load<u32>(p + (<usize>k << 2)))) return false;
  return true;
}

/**
 * The heap's boxes from the root (6 f32 a node at boxes), decodeNode's arithmetic in f32 (src/format/tree.ts;
 * verify.ts shapeClean). Children 2i + 1 (left, at l) and 2i + 2 (right, at l + 24 bytes): the right child always
 * takes the inner min x; lo bits 30/31 give the inner min y/z to the left, hi bits 29/30/31 the inner max x/y/z;
 * the other child keeps the parent's bound.
 */
function decodeTree(tree: usize, inner: i32, boxes: usize, minX: f64, minY: f64, minZ: f64, maxX: f64, maxY: f64, maxZ: f64): void {
  store<f32>(boxes, <f32>minX);
  store<f32>(boxes, <f32>minY, 4);
  store<f32>(boxes, <f32>minZ, 8);
  store<f32>(boxes, <f32>maxX, 12);
  store<f32>(boxes, <f32>maxY, 16);
  store<f32>(boxes, <f32>maxZ, 20);
  for (let i = 0; i < inner; i++) {
    const t = tree + (<usize>i << 3);
    const lo = load<u32>(t), hi = load<u32>(t, 4);
    const p = boxes + <usize>(24 * i);
    const x0 = load<f32>(p), y0 = load<f32>(p, 4), z0 = load<f32>(p, 8), x1 = load<f32>(p, 12), y1 = load<f32>(p, 16), z1 = load<f32>(p, 20);
    const dx = x1 - x0, dy = y1 - y0, dz = z1 - z0;
    const l = boxes + <usize>(48 * i + 24);
    const ly = <usize>(24 * ((lo >>> 30) & 1)), lz = <usize>(24 * (lo >>> 31));
    const mx = <usize>(24 * ((hi >>> 29) & 1)), my = <usize>(24 * ((hi >>> 30) & 1)), mz = <usize>(24 * (hi >>> 31));
    store<f32>(l, x0);
    store<f32>(l + 24, x0 + (dx * <f32>(lo & 0x3ff)) * STEP_10);
    store<f32>(l + 4 + ly, y0);
    store<f32>(l + 28 - ly, y0 + (dy * <f32>((lo >>> 10) & 0x3ff)) * STEP_10);
    store<f32>(l + 8 + lz, z0);
    store<f32>(l + 32 - lz, z0 + (dz * <f32>((lo >>> 20) & 0x3ff)) * STEP_10);
    store<f32>(l + 12 + mx, x1);
    store<f32>(l + 36 - mx, x1 - (dx * <f32>(hi & 0x3ff)) * STEP_10);
    store<f32>(l + 16 + my, y1);
    store<f32>(l + 40 - my, y1 - (dy * <f32>((hi >>> 10) & 0x1ff)) * STEP_9);
    store<f32>(l + 20 + mz, z1);
    store<f32>(l + 44 - mz, z1 - (dz * <f32>((hi >>> 19) & 0x3ff)) * STEP_10);
  }
}

/**
 * Every corner of face j inside the box of its leaf (6 f32 a face at leaves), x y z at once: the leaf's min is the
 * four f32 from its start, its max the four from its fourth (the fourth lane of each, and of the vertex, is not
 * looked at; the caller leaves 16 bytes readable past the boxes and the vertices). A NaN fails a comparison. The
 * corners name vertices (checked before).
 */
function contained(v: usize, cv: usize, fo: usize, faces: i32, leaves: usize): bool {
  let ok = i32x4.splat(-1);
  let c = <i32>load<u16>(fo);
  for (let j = 0; j < faces; j++) {
    const b = leaves + <usize>(24 * j);
    const lo = v128.load(b), hi = v128.load(b, 12);
    const end = <i32>load<u16>(fo + (<usize>(j + 1) << 1));
    for (; c < end; c++) {
      const q = v128.load(v + <usize>(12 * <i32>load<u16>(cv + (<usize>c << 1))));
      ok = v128.and(ok, v128.and(f32x4.ge(q, lo), f32x4.le(q, hi)));
    }
  }
  return (i32x4.bitmask(ok) & 7) == 7;
}

/**
 * The vertex → corner lists (offsets at vco, ascending from 0 to n, checked before): each id k names a corner whose
 * vertex u's list holds k (off[u] ≤ k < off[u + 1]: the one list that does), and follows a smaller id in the same
 * list. The same as walking each vertex's list: the lists cover the ids once each, in order.
 */
function indexed(vco: usize, ids: usize, n: i32, cv: usize, corners: i32): bool {
  let prev = -1;
  for (let k = 0; k < n; k++) {
    const c = <i32>load<u16>(ids + (<usize>k << 1));
    if (c >= corners) return false;
    const u = <usize>load<u16>(cv + (<usize>c << 1));
    const from = <i32>load<u16>(vco + (u << 1)), to = <i32>load<u16>(vco + (u << 1), 2);
    if (k < from || k >= to || (k > from && c <= prev)) return false;
    prev = c;
  }
  return true;
}
