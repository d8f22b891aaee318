// The ride's world writer (src/ride/world-wasm.ts lays out the memory and calls it): one kind-5 part's faces in
// world space, exactly as src/ride/world.ts writeFaces writes them (it stays the rule, and a test holds the two to the
// same bytes): the part's vertices turned by its quaternion and moved, each corner's vertex, stored edge kind,
// allowance and shape-border flag, each face's bits (walkable by its normal's y), the bounds widened a corner at a
// time. The same f64 arithmetic in the same order (IEEE-754 as in JavaScript; f32 stores round as a Float32Array's
// do); the convex allowance (an acos) is JavaScript's own, imported, so no libm can drift from it. Why WebAssembly: the
// ride runs this once over a million faces in a fresh process, where JavaScript spends its first files unoptimized.
//
// Memory: raw linear memory laid out by the caller, every array at its natural alignment.

/** edgeAllowance(EDGE_CONVEX, value) (src/ride/contact.ts), by JavaScript's Math.acos. */
@external("env", "convexAllowance")
declare function convexAllowance(value: f64): f64;

const EDGE_FLAT: u32 = 0;
const EDGE_CONCAVE: u32 = 1;
const EDGE_CONVEX: u32 = 2;
const EDGE_OPEN: u32 = 3;
const BORDER_BIT: u32 = 6;
const FACE_WALKABLE: u32 = 1 << 9;
const FACE_ALLOWS: u32 = 1 << 10;
/** f32(π): edgeAllowance of an open edge as a Float32Array stores it. */
const OPEN_ALLOWANCE: f32 = <f32>Math.PI;

// The bounds (min x y z, max x y z) and the last convex value's allowance, kept across calls: rideBegin resets them.
let LX: f64 = Infinity, LY: f64 = Infinity, LZ: f64 = Infinity, HX: f64 = -Infinity, HY: f64 = -Infinity, HZ: f64 = -Infinity;
let CONVEX_VALUE: f64 = NaN, CONVEX_ALLOWANCE: f64 = 0;
// What the last rideWritePart wrote: the face and vertex after its last, and the runs it began.
let FACES: i32 = 0, VERTICES: i32 = 0, RUNS: i32 = 0;
// The part's transform (rideTransform), so rideWritePart's arguments stay few.
let QX: f64 = 0, QY: f64 = 0, QZ: f64 = 0, QW: f64 = 1, PX: f64 = 0, PY: f64 = 0, PZ: f64 = 0;

/** Starts a world: empty bounds. */
export function rideBegin(): void {
  LX = Infinity; LY = Infinity; LZ = Infinity; HX = -Infinity; HY = -Infinity; HZ = -Infinity;
  CONVEX_VALUE = NaN; CONVEX_ALLOWANCE = 0;
}

/** Bound k (0–2 min x y z, 3–5 max x y z). */
export function rideBound(k: i32): f64 {
  return k == 0 ? LX : k == 1 ? LY : k == 2 ? LZ : k == 3 ? HX : k == 4 ? HY : HZ;
}

/** Sets bound k (as rideBound numbers them): a part written elsewhere widened them. */
export function rideSetBound(k: i32, v: f64): void {
  if (k == 0) LX = v; else if (k == 1) LY = v; else if (k == 2) LZ = v; else if (k == 3) HX = v; else if (k == 4) HY = v; else HZ = v;
}

/** After rideWritePart: 0 the face after its last, 1 the vertex after its last, 2 the runs it wrote. */
export function rideResult(k: i32): i32 {
  return k == 0 ? FACES : k == 1 ? VERTICES : RUNS;
}

/** The next part's rotation (x y z w) and position. */
export function rideTransform(qx: f64, qy: f64, qz: f64, qw: f64, px: f64, py: f64, pz: f64): void {
  QX = qx; QY = qy; QZ = qz; QW = qw; PX = px; PY = py; PZ = pz;
}

@inline function f3(p: usize): f64 {
  return <f64>load<f32>(p);
}

// faceNormalAt's answer.
export let FACE_NX: f64 = 0, FACE_NY: f64 = 0, FACE_NZ: f64 = 0;

/**
 * Face t's unit normal into FACE_NX FACE_NY FACE_NZ (src/ride/world.ts faceNormal, the same steps: the cross product
 * of its edges from corner 0, over hypot3; zero when degenerate), over a world's vertices (f64 x y z) and corners (u32).
 * The one copy the ride's searches, simulation and quiet rides use.
 */
@inline export function faceNormalAt(vert: usize, corner: usize, t: i32): void {
  const c = corner + (<usize>(3 * t) << 2);
  const pa = vert + (<usize>(3 * load<u32>(c)) << 3), pb = vert + (<usize>(3 * load<u32>(c, 4)) << 3), pd = vert + (<usize>(3 * load<u32>(c, 8)) << 3);
  const ux = load<f64>(pb) - load<f64>(pa), uy = load<f64>(pb, 8) - load<f64>(pa, 8), uz = load<f64>(pb, 16) - load<f64>(pa, 16);
  const wx = load<f64>(pd) - load<f64>(pa), wy = load<f64>(pd, 8) - load<f64>(pa, 8), wz = load<f64>(pd, 16) - load<f64>(pa, 16);
  const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
  const len = hypot3(nx, ny, nz);
  if (len > 1e-12) {
    FACE_NX = nx / len; FACE_NY = ny / len; FACE_NZ = nz / len;
  } else {
    FACE_NX = 0; FACE_NY = 0; FACE_NZ = 0;
  }
}

/** Math.hypot(x, y, z) as V8 computes it (src/ride/world.ts hypot3, the same steps). */
export function hypot3(x: f64, y: f64, z: f64): f64 {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  let max: f64 = 0;
  if (ax > max) max = ax;
  if (ay > max) max = ay;
  if (az > max) max = az;
  if (max == Infinity) return Infinity;
  if (x != x || y != y || z != z) return NaN;
  if (max == 0) return 0;
  let sum: f64 = 0, compensation: f64 = 0, n = ax / max, summand = n * n - compensation, preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  n = ay / max; summand = n * n - compensation; preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  n = az / max; summand = n * n - compensation; preliminary = sum + summand;
  return Math.sqrt(preliminary) * max;
}

/**
 * Writes one part (writeFaces' loop body for one kind-5 part): its shape's `nv` vertices (f32 x y z at sv) from world
 * vertex `nw` on, then its faces from world face `t` on. The shape's arrays: `corners` u16 corner vertices at cv,
 * `nf` + 1 u16 face offsets at offsets, flat and concave bits (u8, at flat and concave; hasBits 0 when either is
 * empty), `corners` f32 edge values at values (hasValues 0 when their count is not `corners`), the vertex → corner
 * index (nv + 1 u16 offsets at cornerOffsets, `listed` u16 corner ids at cornerIds; indexed 0 when the offsets are not
 * nv + 1). The world's arrays: vert (f64 × 3 a vertex), corner (u32 a corner), allow (f32 a corner), bits (u16 a
 * face). Scratch: next (u16 a corner), after (i32 a listed id). runs: where a run of faces that follow on from one
 * another begins, two u32 a run (world face, face in the shape). Results by rideResult.
 */
export function rideWritePart(
  sv: usize, nv: i32, cv: usize, corners: i32, offsets: usize, nf: i32, flat: usize, concave: usize, hasBits: i32,
  values: usize, hasValues: i32, cornerOffsets: usize, cornerIds: usize, listed: i32, indexed: i32,
  vert: usize, corner: usize, allow: usize, bits: usize, t: i32, nw: i32, next: usize, after: usize, runs: usize,
): void {
  const qx = QX, qy = QY, qz = QZ, qw = QW, px = PX, py = PY, pz = PZ;
  const base = nw;
  for (let v = 0; v < nv; v++) {
    const s = sv + <usize>(12 * v);
    const x = f3(s), y = f3(s + 4), z = f3(s + 8);
    const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
    const o = vert + (<usize>(3 * nw) << 3);
    store<f64>(o, x + qw * tx + (qy * tz - qz * ty) + px);
    store<f64>(o, y + qw * ty + (qz * tx - qx * tz) + py, 8);
    store<f64>(o, z + qw * tz + (qx * ty - qy * tx) + pz, 16);
    nw++;
  }
  let origin: i32 = -1;
  // Each corner's next vertex round its face (0xffff where the face offsets do not cover it).
  for (let c = 0; c < corners; c++) store<u16>(next + (<usize>c << 1), 0xffff);
  for (let f = 0; f < nf; f++) {
    const lo = <i32>load<u16>(offsets + (<usize>f << 1));
    let hi = <i32>load<u16>(offsets + (<usize>(f + 1) << 1));
    if (hi > corners) hi = corners;
    if (hi - lo == 3) {
      store<u16>(next + (<usize>lo << 1), load<u16>(cv + (<usize>(lo + 1) << 1)));
      store<u16>(next + (<usize>(lo + 1) << 1), load<u16>(cv + (<usize>(lo + 2) << 1)));
      store<u16>(next + (<usize>(lo + 2) << 1), load<u16>(cv + (<usize>lo << 1)));
    } else for (let c = lo; c < hi; c++) store<u16>(next + (<usize>c << 1), load<u16>(cv + (<usize>(c + 1 < hi ? c + 1 : lo) << 1)));
  }
  if (indexed) {
    for (let m = 0; m < listed; m++) {
      const id = <i32>load<u16>(cornerIds + (<usize>m << 1));
      store<i32>(after + (<usize>m << 2), id < corners ? <i32>load<u16>(next + (<usize>id << 1)) : -1);
    }
  }
  let lx = LX, ly = LY, lz = LZ, hx = HX, hy = HY, hz = HZ;
  let follows = false;
  let nruns: i32 = 0;
  for (let f = 0; f < nf; f++) {
    const c0 = <i32>load<u16>(offsets + (<usize>f << 1));
    if (<i32>load<u16>(offsets + (<usize>(f + 1) << 1)) - c0 != 3 || c0 + 3 > corners) { follows = false; continue; }
    if (!follows) {
      store<u32>(runs + (<usize>nruns << 3), t);
      store<u32>(runs + (<usize>nruns << 3), f, 4);
      nruns++;
    }
    follows = true;
    let b: u32 = 0;
    for (let k = 0; k < 3; k++) {
      const c = c0 + k, v = <i32>load<u16>(cv + (<usize>c << 1)), e = 3 * t + k;
      const ce = corner + (<usize>e << 2), ae = allow + (<usize>e << 2);
      if (v >= nv) {
        if (origin < 0) {
          origin = nw++;
          const o = vert + (<usize>(3 * origin) << 3);
          store<f64>(o, 0); store<f64>(o, 0, 8); store<f64>(o, 0, 16);
        }
        store<u32>(ce, origin);
        store<f32>(ae, 0); // EDGE_FLAT (0), no border
        continue;
      }
      store<u32>(ce, base + v);
      const o = vert + (<usize>(3 * (base + v)) << 3), x = load<f64>(o), y = load<f64>(o, 8), z = load<f64>(o, 16);
      if (x < lx) lx = x;
      if (x > hx) hx = x;
      if (y < ly) ly = y;
      if (y > hy) hy = y;
      if (z < lz) lz = z;
      if (z > hz) hz = z;
      let kind: u32;
      if (hasBits && (load<u8>(flat + (<usize>c >> 3)) >> (c & 7)) & 1) kind = EDGE_FLAT;
      else if (hasBits && (load<u8>(concave + (<usize>c >> 3)) >> (c & 7)) & 1) kind = EDGE_CONCAVE;
      else if (hasValues && <f64>load<f32>(values + (<usize>c << 2)) != 1) kind = EDGE_CONVEX;
      else kind = EDGE_OPEN;
      b |= kind << (2 * k);
      let a: f32;
      if (kind == EDGE_CONVEX) {
        const value = <f64>load<f32>(values + (<usize>c << 2));
        if (value != CONVEX_VALUE) {
          CONVEX_VALUE = value;
          CONVEX_ALLOWANCE = convexAllowance(value);
        }
        a = <f32>CONVEX_ALLOWANCE;
      } else a = kind == EDGE_OPEN ? OPEN_ALLOWANCE : 0;
      store<f32>(ae, a);
      if (a > 0) b |= FACE_ALLOWS;
      // A border unless exactly one corner of the shape runs the edge the other way (writeFaces).
      const to = <i32>load<u16>(cv + (<usize>(k < 2 ? c + 1 : c0) << 1));
      let twins = 0;
      if (indexed && to < nv) {
        let end = <i32>load<u16>(cornerOffsets + (<usize>(to + 1) << 1));
        if (end > listed) end = listed;
        for (let m = <i32>load<u16>(cornerOffsets + (<usize>to << 1)); m < end; m++) if (load<i32>(after + (<usize>m << 2)) == v) twins++;
      }
      if (twins != 1) b |= 1 << (BORDER_BIT + k);
    }
    // The face's normal's y (faceNormal): walkable at WALKABLE_MIN_NY and above.
    const A = vert + (<usize>(3 * load<u32>(corner + (<usize>(3 * t) << 2))) << 3);
    const B = vert + (<usize>(3 * load<u32>(corner + (<usize>(3 * t + 1) << 2))) << 3);
    const D = vert + (<usize>(3 * load<u32>(corner + (<usize>(3 * t + 2) << 2))) << 3);
    const ux = load<f64>(B) - load<f64>(A), uy = load<f64>(B, 8) - load<f64>(A, 8), uz = load<f64>(B, 16) - load<f64>(A, 16);
    const vx = load<f64>(D) - load<f64>(A), vy = load<f64>(D, 8) - load<f64>(A, 8), vz = load<f64>(D, 16) - load<f64>(A, 16);
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    if (walkable(nx, ny, nz)) b |= FACE_WALKABLE;
    store<u16>(bits + (<usize>t << 1), <u16>b);
    t++;
  }
  LX = lx; LY = ly; LZ = lz; HX = hx; HY = hy; HZ = hz;
  FACES = t;
  VERTICES = nw;
  RUNS = nruns;
}

/**
 * Whether a face of cross product (nx, ny, nz) is walkable: faceNormal's test, hypot3(n) > 1e-12 and ny / hypot3(n) at
 * least WALKABLE_MIN_NY, the same answer. Most faces are told without the root and divisions: ny ≤ 0 never passes; for
 * a squared length well inside f64's range, ny² against WALKABLE_MIN_NY² of it decides where the two differ by more
 * than 1e-9 of it (the roundings of either way are ~1e-15); the rest (near 45°, degenerate, huge, NaN) by the test itself.
 */
@inline function walkable(nx: f64, ny: f64, nz: f64): bool {
  if (ny <= 0) return false;
  const s = nx * nx + ny * ny + nz * nz;
  if (s >= 1e-20 && s <= 1e200) {
    const d = ny * ny - WALKABLE_MIN_NY2 * s;
    if (d > 1e-9 * s) return true;
    if (d < -1e-9 * s) return false;
  }
  const len = hypot3(nx, ny, nz);
  return len > 1e-12 && ny / len >= WALKABLE_MIN_NY;
}

/** cos(π/4) as JavaScript's Math.cos gives it (src/ride/world.ts WALKABLE_MIN_NY), set by the caller. */
let WALKABLE_MIN_NY: f64 = 0.7071067811865476;
let WALKABLE_MIN_NY2: f64 = 0.5000000000000001;

/** Sets the walkable slope limit (the caller passes WALKABLE_MIN_NY, so the two cannot differ). */
export function rideWalkable(ny: f64): void {
  WALKABLE_MIN_NY = ny;
  WALKABLE_MIN_NY2 = ny * ny;
}

// What ridePartCount found besides the faces: whether the part adds the origin vertex.
let PART_ORIGIN: i32 = 0;

/**
 * What rideWritePart writes of a part, without writing it (its arguments of the same names): the faces it writes
 * (the three-corner faces within the corners); ridePartOrigin then says whether it adds the origin vertex (a corner
 * of those faces names a vertex past the part's nv). The vertices it writes are nv and that one.
 */
export function ridePartCount(cv: usize, corners: i32, offsets: usize, nf: i32, nv: i32): i32 {
  let faces = 0, origin = 0;
  for (let f = 0; f < nf; f++) {
    const c0 = <i32>load<u16>(offsets + (<usize>f << 1));
    if (<i32>load<u16>(offsets + (<usize>(f + 1) << 1)) - c0 != 3 || c0 + 3 > corners) continue;
    faces++;
    if (origin == 0) {
      const p = cv + (<usize>c0 << 1);
      if (<i32>load<u16>(p) >= nv || <i32>load<u16>(p, 2) >= nv || <i32>load<u16>(p, 4) >= nv) origin = 1;
    }
  }
  PART_ORIGIN = origin;
  return faces;
}

/** After ridePartCount: 1 when the part adds the origin vertex, else 0. */
export function ridePartOrigin(): i32 {
  return PART_ORIGIN;
}
