// verify's fast all-clear pass in WebAssembly (src/format/verify-wasm.ts lays a shape's arrays out and calls it):
// src/format/verify.ts shapeClean's loops after its record and bounds checks, the same checks in the same f32
// arithmetic, answering 1 ("all clear") or 0 ("not sure": verify then runs shapeClean and its checks in JavaScript,
// which decide and word every finding). It may only ever answer 1 where shapeClean does (a test holds it to that on
// real outputs and thousands of mutations). Why WebAssembly: verify runs this once a process over every face of a
// level, where JavaScript runs its first files unoptimized; the same loops compiled ahead run at full speed at once.
//
// Arrays at the given addresses (any alignment), lengths in elements: vertices f32, corner vertices u16, face
// offsets u16, edge values f32 (read as their u32 bits), concave and flat bits u8, vertex corner offsets u16,
// corner ids u16, tree u32 pairs, plane offsets f32; `boxes`: scratch for 6 f32 a heap node (2 · faces − 1 nodes).

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
  // Vertices: every coordinate finite.
  for (let k = 0; k < vLen; k++) if (!finiteBits(load<u32>(v + (<usize>k << 2)))) return 0;
  // Face offsets: 0, strictly ascending, ending at the corner count (none at all only without corners).
  if (foLen == 0) {
    if (corners > 0) return 0;
  } else {
    if (load<u16>(fo) != 0 || <i32>load<u16>(fo + (<usize>(foLen - 1) << 1)) != corners) return 0;
    let prev = load<u16>(fo);
    for (let f = 1; f < foLen; f++) {
      const x = load<u16>(fo + (<usize>f << 1));
      if (x <= prev) return 0;
      prev = x;
    }
  }
  if (mesh) {
    // Triangles, an edge value a corner (evLen is the corner count: the caller passes mesh only then), faces − 1 nodes.
    if (corners != 3 * faces) return 0;
    if (faces > 1 && treeLen != 2 * (faces - 1)) return 0;
    if (cbLen != 0 && fbLen != 0) {
      // Only the bits of corners 0 .. corners − 1.
      const whole = corners >> 3;
      for (let b = 0; b < whole; b++) if ((load<u8>(cb + b) & load<u8>(fb + b)) != 0) return 0;
      const rest = corners & 7;
      if (rest != 0 && (load<u8>(cb + whole) & load<u8>(fb + whole) & ((1 << rest) - 1)) != 0) return 0;
    }
  }
  if (treeLen > 0) {
    const inner = faces - 1;
    if (inner < 1 || treeLen != 2 * inner) return 0;
    // The heap's boxes from the root, decodeNode's arithmetic in f32 (src/format/tree.ts; verify.ts shapeClean).
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
      // Children 2i + 1 (left, at l) and 2i + 2 (right, at l + 24 bytes): as shapeClean.
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
    // Face j's leaf is heap node inner + j: each of its corners names a vertex, has its edge value in range (a mesh)
    // and lies inside the leaf's box (a NaN fails a comparison).
    for (let j = 0; j < faces; j++) {
      const b = boxes + <usize>(24 * (inner + j));
      const x0 = load<f32>(b), y0 = load<f32>(b, 4), z0 = load<f32>(b, 8), x1 = load<f32>(b, 12), y1 = load<f32>(b, 16), z1 = load<f32>(b, 20);
      const end = <i32>load<u16>(fo + (<usize>(j + 1) << 1));
      for (let c = <i32>load<u16>(fo + (<usize>j << 1)); c < end; c++) {
        const vi = <i32>load<u16>(cv + (<usize>c << 1));
        if (vi >= vertices) return 0;
        if (mesh && !edgeOk(load<u32>(ev + (<usize>c << 2)))) return 0;
        const q = v + <usize>(12 * vi);
        const x = load<f32>(q), y = load<f32>(q, 4), z = load<f32>(q, 8);
        if (!(x >= x0 && x <= x1 && y >= y0 && y <= y1 && z >= z0 && z <= z1)) return 0;
      }
    }
  } else {
    for (let c = 0; c < corners; c++) {
      if (<i32>load<u16>(cv + (<usize>c << 1)) >= vertices) return 0;
      if (mesh && !edgeOk(load<u32>(ev + (<usize>c << 2)))) return 0;
    }
  }
  // The vertex → corner index: ascending offsets from 0 to the id count, each vertex its own corners, ascending.
  if (vcoLen != 0 || idsLen != 0) {
    if (vcoLen == 0 || (idsLen == 0 && corners > 0)) return 0;
    if (load<u16>(vco) != 0 || <i32>load<u16>(vco + (<usize>(vcoLen - 1) << 1)) != idsLen) return 0;
    for (let u = 0; u + 1 < vcoLen; u++) {
      const from = <i32>load<u16>(vco + (<usize>u << 1)), to = <i32>load<u16>(vco + (<usize>(u + 1) << 1));
      if (to < from || to > idsLen) return 0;
      let prev = -1;
      for (let k = from; k < to; k++) {
        const c = <i32>load<u16>(ids + (<usize>k << 1));
        if (c >= corners || <i32>load<u16>(cv + (<usize>c << 1)) != u || c <= prev) return 0;
        prev = c;
      }
    }
  }
  if (faces > 0 && poLen > 0 && poLen != faces) return 0;
  for (let f = 0; f < poLen; f++) if (!finiteBits(load<u32>(po + (<usize>f << 2)))) return 0;
  return 1;
}
