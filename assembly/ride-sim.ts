// One ride's simulation (src/ride/simulate.ts rideWith with probes.ts's contacts and contact.ts's contact model: they
// stay the rule, and a test holds the two to the same results bit for bit) over the world and grid the ride's
// writer left in this memory (assembly/ride-world.ts, ride-grid.ts; src/ride/world-wasm.ts sets them with
// rideSimWorld): the substep loop, the grid walk (the same LEB128 cells, a face once a substep by the stamps the fold
// search shares), the cull, each probe's contact, the contact model, the velocity passes, the push out of
// penetration, the hits. The same f64 operations in the same order (IEEE-754 as in JavaScript; Math.max/min are
// f64.max/min, which treat NaN and ±0 as JavaScript's do; x ** 2 is x * x in V8, which the test checks); the one acos
// is JavaScript's own, imported. Why WebAssembly: a fresh process rides a few hundred probes over a 1M-face level,
// and V8 compiled the JavaScript loop six times as the probe kinds arrived, much of the ride running unoptimized.
//
// Memory: the ride's numbers at rideSimIO (RIDE_* below), its hits at rideSimHits (HIT_* a hit, HIT_CAP of them,
// handed to JavaScript by the imported rideHits when full and at the end), the contact pool in static data.

import { cellAt } from './ride-grid';
import { FACE_NX, FACE_NY, FACE_NZ, faceNormalAt } from './ride-world';
import { rideSeen, rideSeenStamp } from './ride-fold';

/** Math.acos as JavaScript gives it (contact.ts contactNormal). */
@external("env", "rideAcos")
declare function jsAcos(x: f64): f64;
/** The first `count` hits at rideSimHits are ready: JavaScript reads them before the ride writes more. */
@external("env", "rideHits")
declare function rideHits(count: i32): void;

const FEATURE_FACE: i32 = -1;
const BOX_TIE: f64 = 1e-9;
const CULL_MARGIN: f64 = 1e-6;
const SPHERE: i32 = 0, CAPSULE: i32 = 1;

/** Contacts a substep at most (simulate.ts's pool). */
const POOL: i32 = 1024;
const PS: usize = memory.data(8 * POOL, 8);
const PP: usize = memory.data(24 * POOL, 8);
const EFF: usize = memory.data(24 * POOL, 8);
const IMP: usize = memory.data(8 * POOL, 8);
const PF: usize = memory.data(4 * POOL, 8);
const FACE: usize = memory.data(4 * POOL, 8);
const KEPT: usize = memory.data(POOL, 8);

/** The ride's numbers (f64 each): in, then out. */
const IO: usize = memory.data(8 * 48, 8);
// In: the probe (kind 0 sphere, 1 capsule, 2 box; radius, half length, half extents ×3, reach, thickness), the
// options (gravity, 1 / hz, skin, iterations, hit impulse, contacts at most), the contact model (cos of its face
// angle, angle slack), the start (position ×3, velocity ×3, duration, distance).
// Out: position ×3, velocity ×3, distance, time, fell, work.
const HIT_WORDS: i32 = 13;
const HIT_CAP: i32 = 1024;
const HITS: usize = memory.data(8 * HIT_WORDS * HIT_CAP, 8);

/** Where JavaScript writes a ride's numbers and reads its results (f64 each: see IO). */
export function rideSimIO(): usize {
  return IO;
}
/** Where the hits are (HIT_WORDS f64 a hit: face, feature, point ×3, normal ×3, impulse, speed before, after, kick, time). */
export function rideSimHits(): usize {
  return HITS;
}

// The world.
let V: usize = 0, C: usize = 0, AL: usize = 0, START: usize = 0, ITEMS: usize = 0;
let FACES: i32 = 0, NX: i32 = 0, NZ: i32 = 0;
let X0: f64 = 0, Z0: f64 = 0, CELL: f64 = 1;

/** Sets the world rideSim reads: vertices (f64 × 3), corners (u32), allowances (f32), the grid (starts, bytes, min corner, cell, columns, rows). */
export function rideSimWorld(vert: usize, corner: usize, allow: usize, faces: i32, start: usize, items: usize, x0: f64, z0: f64, cell: f64, nx: i32, nz: i32): void {
  V = vert; C = corner; AL = allow; FACES = faces; START = start; ITEMS = items; X0 = x0; Z0 = z0; CELL = cell; NX = nx; NZ = nz;
  memory.fill(NORMAL_CACHE, 0, <usize>(NORMALS * NORMAL_BYTES));
  LIST_SET = false;
  LIST_N = -1;
}

@inline function vx(i: u32): f64 { return load<f64>(V + (<usize>i << 3)); }
@inline function cornerAt(e: i32): u32 { return load<u32>(C + (<usize>e << 2)); }
@inline function max3(a: f64, b: f64, c: f64): f64 { return a > b ? (a > c ? a : c) : b > c ? b : c; }
@inline function min3(a: f64, b: f64, c: f64): f64 { return a < b ? (a < c ? a : c) : b < c ? b : c; }
@inline function clamp01(x: f64): f64 { return x < 0 ? 0 : x > 1 ? 1 : x; }
/** JavaScript's `x || 1` for a number. */
@inline function orOne(x: f64): f64 { return x == 0 || x != x ? 1 : x; }

// The probe and its pose (centre, direction of travel).
let KIND: i32 = 0;
let RADIUS: f64 = 0, HALFLEN: f64 = 0, H0: f64 = 0, H1: f64 = 0, H2: f64 = 0;
let CX: f64 = 0, CY: f64 = 0, CZ: f64 = 0, FX: f64 = 1, FZ: f64 = 0;
// The contact model.
let FACE_COS: f64 = 1, ANGLE_SLACK: f64 = 0;

// faceNormal's answer; for the box, the normal over its own length (boxContact's first axis) and whether that
// length is below the box's 1e-9 (the axis skipped).
let FNX: f64 = 0, FNY: f64 = 0, FNZ: f64 = 0, BNX: f64 = 0, BNY: f64 = 0, BNZ: f64 = 0, BN_SKIP = false;
/**
 * The normals of the faces met lately, a slot a face (t mod NORMALS): the face + 1 (0: empty), then FN* and BN*
 * (f64 each). A ride meets the same faces substep after substep; each is worked out once, the same bits as ever.
 */
const NORMALS: i32 = 8192;
const NORMAL_BYTES: i32 = 64;
const NORMAL_CACHE: usize = memory.data(NORMALS * NORMAL_BYTES, 8);

/** Face t's unit normal into FN*, its box axis into BN* (faceNormalOf's, kept in NORMAL_CACHE). */
function faceNormal(t: i32): void {
  const o = NORMAL_CACHE + <usize>((t & (NORMALS - 1)) * NORMAL_BYTES);
  if (load<i32>(o) == t + 1) {
    FNX = load<f64>(o, 8); FNY = load<f64>(o, 16); FNZ = load<f64>(o, 24);
    BNX = load<f64>(o, 32); BNY = load<f64>(o, 40); BNZ = load<f64>(o, 48); BN_SKIP = load<i32>(o, 4) != 0;
    return;
  }
  faceNormalOf(t);
  // boxContact's first axis: the face normal over its length (skipped there when that is below 1e-9).
  const len = Math.sqrt(FNX * FNX + FNY * FNY + FNZ * FNZ);
  BN_SKIP = len < 1e-9;
  BNX = FNX / len; BNY = FNY / len; BNZ = FNZ / len;
  store<i32>(o, t + 1);
  store<i32>(o, BN_SKIP ? 1 : 0, 4);
  store<f64>(o, FNX, 8); store<f64>(o, FNY, 16); store<f64>(o, FNZ, 24);
  store<f64>(o, BNX, 32); store<f64>(o, BNY, 40); store<f64>(o, BNZ, 48);
}

/** Face t's unit normal into FNX FNY FNZ (faceNormalAt's, over this world). */
@inline function faceNormalOf(t: i32): void {
  faceNormalAt(V, C, t);
  FNX = FACE_NX; FNY = FACE_NY; FNZ = FACE_NZ;
}

// The contact routines' face (probes.ts TRI: its three vertices, x y z each), face normal and reach (NR).
const TRI: usize = memory.data(72, 8);
@inline function P(i: i32): f64 { return load<f64>(TRI + (<usize>i << 3)); }
let NRX: f64 = 0, NRY: f64 = 0, NRZ: f64 = 0, NRR: f64 = 0;
// closestOnFace's point; segSeg's parameters and squared distance.
let QX: f64 = 0, QY: f64 = 0, QZ: f64 = 0;
let S0: f64 = 0, S1: f64 = 0, S2: f64 = 0;
// The contact (probes.ts Contact): separation, own normal, feature, point on the face, the face's normal.
let KS: f64 = 0, KNX: f64 = 0, KNY: f64 = 0, KNZ: f64 = 0, KF: i32 = FEATURE_FACE, KPX: f64 = 0, KPY: f64 = 0, KPZ: f64 = 0;
let KFX: f64 = 0, KFY: f64 = 0, KFZ: f64 = 0;

/** probes.ts closestOnFace: the face's closest point to (px, py, pz) into Q; the feature. */
function closestOnFace(px: f64, py: f64, pz: f64): i32 {
  const ax = P(0), ay = P(1), az = P(2), bx = P(3), by = P(4), bz = P(5), cx = P(6), cy = P(7), cz = P(8);
  const abx = bx - ax, aby = by - ay, abz = bz - az, acx = cx - ax, acy = cy - ay, acz = cz - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) {
    QX = ax; QY = ay; QZ = az;
    return 3;
  }
  const bpx = px - bx, bpy = py - by, bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) {
    QX = bx; QY = by; QZ = bz;
    return 4;
  }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    QX = ax + v * abx; QY = ay + v * aby; QZ = az + v * abz;
    return 0;
  }
  const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) {
    QX = cx; QY = cy; QZ = cz;
    return 5;
  }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const u = d2 / (d2 - d6);
    QX = ax + u * acx; QY = ay + u * acy; QZ = az + u * acz;
    return 2;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const u = (d4 - d3) / (d4 - d3 + (d5 - d6));
    QX = bx + u * (cx - bx); QY = by + u * (cy - by); QZ = bz + u * (cz - bz);
    return 1;
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom, u = vc * denom;
  QX = ax + abx * v + acx * u; QY = ay + aby * v + acy * u; QZ = az + abz * v + acz * u;
  return FEATURE_FACE;
}

/** probes.ts segSeg: closest points of segments p1 + s·d1 and p2 + t·d2 (S0, S1), their squared distance (S2). */
function segSeg(p1x: f64, p1y: f64, p1z: f64, d1x: f64, d1y: f64, d1z: f64, p2x: f64, p2y: f64, p2z: f64, d2x: f64, d2y: f64, d2z: f64): void {
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z, e = d2x * d2x + d2y * d2y + d2z * d2z, f = d2x * rx + d2y * ry + d2z * rz;
  let s: f64, t: f64;
  if (a <= 1e-18 && e <= 1e-18) { s = 0; t = 0; }
  else if (a <= 1e-18) { s = 0; t = clamp01(f / e); }
  else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= 1e-18) { t = 0; s = clamp01(-c / a); }
    else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z, denom = a * e - b * b;
      s = denom > 1e-18 ? clamp01((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) { t = 0; s = clamp01(-c / a); }
      else if (t > 1) { t = 1; s = clamp01((b - c) / a); }
    }
  }
  S0 = s; S1 = t;
  const x = p1x + d1x * s - (p2x + d2x * t), y = p1y + d1y * s - (p2y + d2y * t), z = p1z + d1z * s - (p2z + d2z * t);
  S2 = x * x + y * y + z * z;
}

/** probes.ts contactWithin: the probe's contact with face t within `reach` into K*, or false. */
function contactWithin(t: i32, reach: f64): bool {
  faceNormal(t);
  const nx = FNX, ny = FNY, nz = FNZ;
  KFX = nx; KFY = ny; KFZ = nz;
  if (nx == 0 && ny == 0 && nz == 0) return false;
  const A = 3 * cornerAt(3 * t), B = 3 * cornerAt(3 * t + 1), D = 3 * cornerAt(3 * t + 2);
  const plane = (CX - vx(A)) * nx + (CY - vx(A + 1)) * ny + (CZ - vx(A + 2)) * nz;
  if (plane < 0) return false;
  let reachOut: f64;
  if (KIND == SPHERE) reachOut = RADIUS;
  else {
    const along = Math.abs(nx * FX + nz * FZ);
    if (KIND == CAPSULE) reachOut = RADIUS + HALFLEN * along;
    else reachOut = H0 * along + H1 * Math.abs(ny) + H2 * Math.abs(-nx * FZ + nz * FX);
  }
  if (plane - reachOut > reach) return false;
  NRX = nx; NRY = ny; NRZ = nz; NRR = reach;
  store<f64>(TRI, vx(A)); store<f64>(TRI, vx(A + 1), 8); store<f64>(TRI, vx(A + 2), 16);
  store<f64>(TRI, vx(B), 24); store<f64>(TRI, vx(B + 1), 32); store<f64>(TRI, vx(B + 2), 40);
  store<f64>(TRI, vx(D), 48); store<f64>(TRI, vx(D + 1), 56); store<f64>(TRI, vx(D + 2), 64);
  if (KIND == SPHERE) return pointContact();
  if (KIND == CAPSULE) return capsuleContact();
  return boxContact();
}

function pointContact(): bool {
  const r = RADIUS;
  const x = CX, y = CY, z = CZ, nx = NRX, ny = NRY, nz = NRZ, reach = NRR;
  const f = closestOnFace(x, y, z);
  const dx = x - QX, dy = y - QY, dz = z - QZ;
  const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (d - r > reach) return false;
  KPX = QX; KPY = QY; KPZ = QZ;
  if (d < 1e-12 || f == FEATURE_FACE) {
    KNX = nx; KNY = ny; KNZ = nz;
    KS = (f == FEATURE_FACE ? d : 0) - r;
    KF = FEATURE_FACE;
    return true;
  }
  KNX = dx / d; KNY = dy / d; KNZ = dz / d;
  KS = d - r;
  KF = f;
  return true;
}

function capsuleContact(): bool {
  const nx = NRX, ny = NRY, nz = NRZ, reach = NRR;
  const h = HALFLEN;
  const ax = CX - FX * h, ay = CY, az = CZ - FZ * h;
  const dx = 2 * FX * h, dy: f64 = 0, dz = 2 * FZ * h;
  const sa = (ax - P(0)) * nx + (ay - P(1)) * ny + (az - P(2)) * nz;
  const sb = sa + dx * nx + dy * ny + dz * nz;
  if ((sa < 0) != (sb < 0)) {
    const k = sa / (sa - sb);
    const f = closestOnFace(ax + k * dx, ay + k * dy, az + k * dz);
    if (f == FEATURE_FACE) {
      KNX = nx; KNY = ny; KNZ = nz;
      KS = Math.min(sa, sb) - RADIUS;
      KF = FEATURE_FACE;
      KPX = QX; KPY = QY; KPZ = QZ;
      return true;
    }
  }
  let best: f64 = Infinity, bx: f64 = 0, by: f64 = 0, bz: f64 = 0, qx: f64 = 0, qy: f64 = 0, qz: f64 = 0, feature: i32 = FEATURE_FACE;
  for (let e = 0; e < 2; e++) {
    const fe = <f64>e;
    const px = ax + fe * dx, py = ay + fe * dy, pz = az + fe * dz;
    const f = closestOnFace(px, py, pz);
    // (px − Q) ** 2 in probes.ts: V8's x ** 2 is x * x (the test checks it).
    const ex = px - QX, ey = py - QY, ez = pz - QZ;
    const d2 = ex * ex + ey * ey + ez * ez;
    if (d2 < best) { best = d2; bx = px; by = py; bz = pz; qx = QX; qy = QY; qz = QZ; feature = f; }
  }
  for (let k = 0; k < 3; k++) {
    const i = 3 * k, j = 3 * ((k + 1) % 3);
    const ex = P(j) - P(i), ey = P(j + 1) - P(i + 1), ez = P(j + 2) - P(i + 2);
    segSeg(ax, ay, az, dx, dy, dz, P(i), P(i + 1), P(i + 2), ex, ey, ez);
    const d2 = S2;
    if (d2 < best - 1e-15) {
      best = d2;
      bx = ax + dx * S0; by = ay + dy * S0; bz = az + dz * S0;
      qx = P(i) + ex * S1; qy = P(i + 1) + ey * S1; qz = P(i + 2) + ez * S1;
      feature = S1 <= 0 ? 3 + k : S1 >= 1 ? 3 + ((k + 1) % 3) : k;
    }
  }
  const d = Math.sqrt(best);
  if (d - RADIUS > reach) return false;
  KPX = qx; KPY = qy; KPZ = qz;
  if (d < 1e-12) {
    KNX = nx; KNY = ny; KNZ = nz;
    KS = -RADIUS;
    KF = FEATURE_FACE;
    return true;
  }
  KNX = (bx - qx) / d; KNY = (by - qy) / d; KNZ = (bz - qz) / d;
  KS = d - RADIUS;
  KF = KNX * nx + KNY * ny + KNZ * nz > 1 - 1e-12 ? FEATURE_FACE : feature;
  return true;
}

// The box's own axes (boxContact's axes 1-3: travel, up, across), which depend on the pose alone: over their lengths,
// the centre's projection and the box's extent on each (boxAxes, once a substep); a length below 1e-9 skips one.
let BA_SKIP1 = false, BA_SKIP2 = false, BA_SKIP3 = false;
let BA1X: f64 = 0, BA1Y: f64 = 0, BA1Z: f64 = 0, BA1C: f64 = 0, BA1R: f64 = 0;
let BA2X: f64 = 0, BA2Y: f64 = 0, BA2Z: f64 = 0, BA2C: f64 = 0, BA2R: f64 = 0;
let BA3X: f64 = 0, BA3Y: f64 = 0, BA3Z: f64 = 0, BA3C: f64 = 0, BA3R: f64 = 0;

/** boxContact's steps for its axes 1-3 at the current pose (the same operations, in the same order). */
function boxAxes(): void {
  const e0 = FX, e2 = FZ, e6 = -FZ, e8 = FX;
  const h0 = H0, h1 = H1, h2 = H2, c0 = CX, c1 = CY, c2 = CZ;
  for (let m = 1; m < 4; m++) {
    let ax: f64, ay: f64, az: f64;
    if (m == 1) { ax = e0; ay = 0; az = e2; }
    else if (m == 2) { ax = 0; ay = 1; az = 0; }
    else { ax = e6; ay = 0; az = e8; }
    const len = Math.sqrt(ax * ax + ay * ay + az * az);
    const skip = len < 1e-9;
    ax /= len; ay /= len; az /= len;
    const cc = c0 * ax + c1 * ay + c2 * az;
    const r = h0 * Math.abs(e0 * ax + e2 * az) + h1 * Math.abs(ay) + h2 * Math.abs(e6 * ax + e8 * az);
    if (m == 1) { BA_SKIP1 = skip; BA1X = ax; BA1Y = ay; BA1Z = az; BA1C = cc; BA1R = r; }
    else if (m == 2) { BA_SKIP2 = skip; BA2X = ax; BA2Y = ay; BA2Z = az; BA2C = cc; BA2R = r; }
    else { BA_SKIP3 = skip; BA3X = ax; BA3Y = ay; BA3Z = az; BA3C = cc; BA3R = r; }
  }
}

/**
 * probes.ts boxContact: separating axes, the same 13 in the same order (the box's own three from boxAxes, the face
 * normal's over its length from faceNormal). It returns false as soon as the answer is sure to be false: the largest
 * separation never falls after an axis (an axis replaces it only when larger, but for one tied with the face normal,
 * which may be less by BOX_TIE), so one past the reach by more than that stays past it.
 */
function boxContact(): bool {
  const nx = NRX, ny = NRY, nz = NRZ, reach = NRR;
  // The box's axes (probes.ts E): travel (fx, 0, fz), up (0, 1, 0), across (−fz, 0, fx).
  const e0 = FX, e1: f64 = 0, e2 = FZ, e3: f64 = 0, e4: f64 = 1, e5: f64 = 0, e6 = -FZ, e7: f64 = 0, e8 = FX;
  const h0 = H0, h1 = H1, h2 = H2;
  const c0 = CX, c1 = CY, c2 = CZ;
  let bestS: f64 = -Infinity, bnx: f64 = 0, bny: f64 = 0, bnz: f64 = 0, face = false;
  for (let m = 0; m < 13; m++) {
    let ax: f64, ay: f64, az: f64, cc: f64, r: f64;
    if (m == 0) {
      if (BN_SKIP) continue;
      ax = BNX; ay = BNY; az = BNZ;
      cc = c0 * ax + c1 * ay + c2 * az;
      r = h0 * Math.abs(e0 * ax + e2 * az) + h1 * Math.abs(ay) + h2 * Math.abs(e6 * ax + e8 * az);
    } else if (m < 4) {
      if (m == 1) { if (BA_SKIP1) continue; ax = BA1X; ay = BA1Y; az = BA1Z; cc = BA1C; r = BA1R; }
      else if (m == 2) { if (BA_SKIP2) continue; ax = BA2X; ay = BA2Y; az = BA2Z; cc = BA2C; r = BA2R; }
      else { if (BA_SKIP3) continue; ax = BA3X; ay = BA3Y; az = BA3Z; cc = BA3C; r = BA3R; }
    } else {
      if (m == 4 && bestS > reach) return false;
      const j = (m - 4) / 3, k = (m - 4) % 3;
      const i = 3 * j, n = 3 * ((j + 1) % 3);
      const ex = P(n) - P(i), ey = P(n + 1) - P(i + 1), ez = P(n + 2) - P(i + 2);
      let ux: f64, uy: f64, uz: f64;
      if (k == 0) { ux = e0; uy = e1; uz = e2; }
      else if (k == 1) { ux = e3; uy = e4; uz = e5; }
      else { ux = e6; uy = e7; uz = e8; }
      ax = uy * ez - uz * ey; ay = uz * ex - ux * ez; az = ux * ey - uy * ex;
      const len = Math.sqrt(ax * ax + ay * ay + az * az);
      if (len < 1e-9) continue;
      ax /= len; ay /= len; az /= len;
      cc = c0 * ax + c1 * ay + c2 * az;
      r = h0 * Math.abs(e0 * ax + e2 * az) + h1 * Math.abs(ay) + h2 * Math.abs(e6 * ax + e8 * az);
    }
    const oneSided = m == 0;
    const t0 = P(0) * ax + P(1) * ay + P(2) * az, t1 = P(3) * ax + P(4) * ay + P(5) * az, t2 = P(6) * ax + P(7) * ay + P(8) * az;
    const lo = t0 < t1 ? (t0 < t2 ? t0 : t2) : t1 < t2 ? t1 : t2, hi = t0 > t1 ? (t0 > t2 ? t0 : t2) : t1 > t2 ? t1 : t2;
    const above = cc - r - hi;
    const below = lo - (cc + r);
    let sep: f64, sign: f64;
    if (oneSided || above >= below) { sep = above; sign = 1; }
    else { sep = below; sign = -1; }
    if (sep > bestS + (face ? -BOX_TIE : 1e-12)) {
      bestS = sep; bnx = sign * ax; bny = sign * ay; bnz = sign * az; face = oneSided;
    }
    // Sure to end past the reach (see above; the face normal's tie allowed for, with its rounding).
    if ((face ? bestS - 4e-9 - 1e-15 * Math.abs(bestS) : bestS) > reach) return false;
  }
  if (bestS > reach) return false;
  KS = bestS;
  KNX = bnx; KNY = bny; KNZ = bnz;
  const d0 = P(0) * bnx + P(1) * bny + P(2) * bnz, d1 = P(3) * bnx + P(4) * bny + P(5) * bnz, d2 = P(6) * bnx + P(7) * bny + P(8) * bnz;
  const top = Math.max(Math.max(d0, d1), d2), eps = 1e-7 * (1 + Math.abs(top));
  const on0 = top - d0 <= eps, on1 = top - d1 <= eps, on2 = top - d2 <= eps;
  const count = <i32>on0 + <i32>on1 + <i32>on2;
  if (face || count == 3 || bnx * nx + bny * ny + bnz * nz > 1 - 1e-12) KF = FEATURE_FACE;
  else if (count == 2) KF = on0 && on1 ? 0 : on1 && on2 ? 1 : 2;
  else KF = 3 + (on0 ? 0 : on1 ? 1 : 2);
  if (KF >= 0 && KF < 3) {
    const i = 3 * KF, j = 3 * ((KF + 1) % 3);
    const ex = P(j) - P(i), ey = P(j + 1) - P(i + 1), ez = P(j + 2) - P(i + 2);
    const k = clamp01(((CX - P(i)) * ex + (CY - P(i + 1)) * ey + (CZ - P(i + 2)) * ez) / orOne(ex * ex + ey * ey + ez * ez));
    KPX = P(i) + k * ex; KPY = P(i + 1) + k * ey; KPZ = P(i + 2) + k * ez;
  } else {
    closestOnFace(CX, CY, CZ);
    KPX = QX; KPY = QY; KPZ = QZ;
    if (KF >= 3) {
      const v = 3 * (KF - 3);
      KPX = P(v); KPY = P(v + 1); KPZ = P(v + 2);
    }
  }
  return true;
}

/** simulate.ts outwardDot: n · the outward direction of face t's edge e in the face's plane. */
function outwardDot(t: i32, e: i32, n0: f64, n1: f64, n2: f64): f64 {
  const i = 3 * cornerAt(3 * t + e), j = 3 * cornerAt(3 * t + ((e + 1) % 3));
  const ex = vx(j) - vx(i), ey = vx(j + 1) - vx(i + 1), ez = vx(j + 2) - vx(i + 2);
  faceNormal(t);
  const fx = FNX, fy = FNY, fz = FNZ;
  const ox = ey * fz - ez * fy, oy = ez * fx - ex * fz, oz = ex * fy - ey * fx;
  return (ox * n0 + oy * n1 + oz * n2) / orOne(Math.sqrt(ox * ox + oy * oy + oz * oz));
}

/** simulate.ts allowanceEdge. */
function allowanceEdge(t: i32, feature: i32, n0: f64, n1: f64, n2: f64): i32 {
  if (feature < 3) return feature;
  const k = feature - 3, before = (k + 2) % 3;
  return outwardDot(t, k, n0, n1, n2) >= outwardDot(t, before, n0, n1, n2) ? k : before;
}

// contactNormal's normal.
let ENX: f64 = 0, ENY: f64 = 0, ENZ: f64 = 0;
/** contact.ts contactNormal for the contact in K*: its normal into EN*, whether it kept its own. */
function contactNormal(allowed: f64): bool {
  const c = KNX * KFX + KNY * KFY + KNZ * KFZ;
  const inside = allowed == 0 || c >= FACE_COS;
  if (inside || jsAcos(Math.max(-1, Math.min(1, c))) > allowed + ANGLE_SLACK) {
    ENX = KFX; ENY = KFY; ENZ = KFZ;
    return false;
  }
  ENX = KNX; ENY = KNY; ENZ = KNZ;
  return true;
}

/** Face t's contact (contactWithin, the allowance, the contact model) into pool slot n; false for none. */
function addContact(t: i32, reach: f64, n: i32): bool {
  if (!contactWithin(t, reach)) return false;
  const allowed: f64 = KF == FEATURE_FACE ? 0 : <f64>load<f32>(AL + (<usize>(3 * t + allowanceEdge(t, KF, KNX, KNY, KNZ)) << 2));
  const kept = contactNormal(allowed);
  store<i32>(FACE + (<usize>n << 2), t);
  store<u8>(KEPT + <usize>n, kept && KF != FEATURE_FACE ? 1 : 0);
  store<f64>(IMP + (<usize>n << 3), 0);
  const en = EFF + <usize>(24 * n);
  store<f64>(en, ENX); store<f64>(en, ENY, 8); store<f64>(en, ENZ, 16);
  store<f64>(PS + (<usize>n << 3), KS);
  store<i32>(PF + (<usize>n << 2), KF);
  const pn = PP + <usize>(24 * n);
  store<f64>(pn, KPX); store<f64>(pn, KPY, 8); store<f64>(pn, KPZ, 16);
  return true;
}

/**
 * The faces of the last cells walked (columns LIST_I0 … LIST_I1, rows LIST_J0 … LIST_J1), each once, in the order
 * the walk meets them first, LIST_BYTES each: the face (i32), its y max and min, x max and min, z max and min (the
 * cull's, worked out as it works them out), and its corners' x, z (the box's cull projects them). A ride's substeps
 * mostly walk the cells the last one walked (on the 1M level's --seams shape output, 94 % of 1.2M): read in order,
 * not decoded and looked up in the world again. LIST_N −1: more faces than LIST_CAP (then the walk itself).
 */
const LIST_CAP: i32 = 4096;
const LIST_BYTES: i32 = 104;
const LIST: usize = memory.data(LIST_CAP * LIST_BYTES, 8);
let LIST_N: i32 = -1, LIST_I0: i32 = 0, LIST_I1: i32 = 0, LIST_J0: i32 = 0, LIST_J1: i32 = 0;
let LIST_SET = false;

/** Lists the faces of cells [i0, i1] × [j0, j1] (see LIST). */
function listCells(i0: i32, i1: i32, j0: i32, j1: i32): void {
  LIST_SET = true;
  LIST_I0 = i0; LIST_I1 = i1; LIST_J0 = j0; LIST_J1 = j1;
  const SEEN = rideSeen();
  const stamp = <u16>rideSeenStamp();
  let count: i32 = 0;
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const cell = j * NX + i;
      let t: i32 = -1;
      for (let e = load<u32>(START + (<usize>cell << 2)), end = load<u32>(START + (<usize>(cell + 1) << 2)); e < end; ) {
        let byte = <u32>load<u8>(ITEMS + <usize>e); e++;
        let gap = byte & 0x7f;
        for (let m: u32 = 7; byte > 0x7f; m += 7) { byte = <u32>load<u8>(ITEMS + <usize>e); e++; gap += (byte & 0x7f) << m; }
        t += <i32>gap + 1;
        const sp = SEEN + (<usize>t << 1);
        if (load<u16>(sp) == stamp) continue;
        store<u16>(sp, stamp);
        if (count == LIST_CAP) { LIST_N = -1; return; }
        const cc = C + (<usize>(3 * t) << 2);
        const o0 = 3 * load<u32>(cc), o1 = 3 * load<u32>(cc, 4), o2 = 3 * load<u32>(cc, 8);
        const a = vx(o0 + 1), b = vx(o1 + 1), d = vx(o2 + 1);
        const x0 = vx(o0), z0 = vx(o0 + 2), x1 = vx(o1), z1 = vx(o1 + 2), x2 = vx(o2), z2 = vx(o2 + 2);
        const o = LIST + <usize>(count * LIST_BYTES);
        store<i32>(o, t);
        store<f64>(o, max3(a, b, d), 8); store<f64>(o, min3(a, b, d), 16);
        store<f64>(o, max3(x0, x1, x2), 24); store<f64>(o, min3(x0, x1, x2), 32);
        store<f64>(o, max3(z0, z1, z2), 40); store<f64>(o, min3(z0, z1, z2), 48);
        store<f64>(o, x0, 56); store<f64>(o, z0, 64); store<f64>(o, x1, 72); store<f64>(o, z1, 80); store<f64>(o, x2, 88); store<f64>(o, z2, 96);
        count++;
      }
    }
  }
  LIST_N = count;
}

@inline function io(k: i32): f64 { return load<f64>(IO + (<usize>k << 3)); }
@inline function setIO(k: i32, x: f64): void { store<f64>(IO + (<usize>k << 3), x); }

/** rideWith: the ride whose numbers are at rideSimIO; its results there, its hits by rideHits. */
export function rideSim(): void {
  KIND = <i32>io(0); RADIUS = io(1); HALFLEN = io(2); H0 = io(3); H1 = io(4); H2 = io(5);
  const reachR = io(6), thick = io(7);
  const gravity = io(8), baseDt = io(9), skin = io(10), iterations = io(11), hitImpulse = io(12), max = io(13);
  FACE_COS = io(14); ANGLE_SLACK = io(15);
  CX = io(16); CY = io(17); CZ = io(18);
  let v0 = io(19), v1 = io(20), v2 = io(21);
  const duration = io(22), stopAt = io(23);
  const h0 = Math.sqrt(v0 * v0 + v2 * v2);
  FX = h0 > 1e-9 ? v0 / h0 : 1;
  FZ = h0 > 1e-9 ? v2 / h0 : 0;
  const box = KIND != SPHERE && KIND != CAPSULE;
  let hits: i32 = 0;
  let work: f64 = 0;
  let time: f64 = 0, dist: f64 = 0, air: f64 = 0;
  const SEEN = rideSeen();
  while (time < duration - 1e-12 && dist < stopAt) {
    const speed = Math.sqrt(v0 * v0 + v1 * v1 + v2 * v2);
    const subs = Math.max(1, Math.ceil((speed * baseDt) / thick));
    const dt = baseDt / subs;
    for (let s: f64 = 0; s < subs; s++) {
      v1 -= gravity * dt;
      const move = Math.sqrt(v0 * v0 + v1 * v1 + v2 * v2) * dt;
      const reach = move + skin;
      const r = reachR + reach;
      let n: i32 = 0;
      if (FACES > 0) {
        const fi0 = cellAt(CX - r, X0, CELL, NX), fi1 = cellAt(CX + r, X0, CELL, NX), fj0 = cellAt(CZ - r, Z0, CELL, NZ), fj1 = cellAt(CZ + r, Z0, CELL, NZ);
        // simulate.ts cullBounds.
        let ulo: f64, uhi: f64, ylo: f64, yhi: f64, vlo: f64, vhi: f64, ux: f64, uz: f64;
        const kind = box;
        if (box) {
          const fx = FX, fz = FZ;
          const cu = CX * fx + CZ * fz, cv = -CX * fz + CZ * fx;
          const ru = H0 + reach + CULL_MARGIN, ry = H1 + reach + CULL_MARGIN, rv = H2 + reach + CULL_MARGIN;
          ulo = cu - ru; uhi = cu + ru; ylo = CY - ry; yhi = CY + ry; vlo = cv - rv; vhi = cv + rv;
          ux = fx; uz = fz;
        } else {
          const R = RADIUS + reach + CULL_MARGIN;
          const ex = KIND == CAPSULE ? Math.abs(FX) * HALFLEN : 0, ez = KIND == CAPSULE ? Math.abs(FZ) * HALFLEN : 0;
          ulo = CX - ex - R; uhi = CX + ex + R; ylo = CY - R; yhi = CY + R; vlo = CZ - ez - R; vhi = CZ + ez + R;
          ux = 1; uz = 0;
        }
        const wx = -uz, wz = ux;
        if (box) boxAxes();
        // A NaN bound: cellOf's NaN, no cell (the JavaScript loops do not run).
        if (fi0 == fi0 && fi1 == fi1 && fj0 == fj0 && fj1 == fj1) {
          const i0 = <i32>fi0, i1 = <i32>fi1, j0 = <i32>fj0, j1 = <i32>fj1;
          if (!(LIST_SET && i0 == LIST_I0 && i1 == LIST_I1 && j0 == LIST_J0 && j1 == LIST_J1)) listCells(i0, i1, j0, j1);
          if (LIST_N >= 0) {
            // The cells' faces in the order the walk below meets them first, with their bounds: the walk's faces,
            // work and cull, read in order (the walk stops at max contacts: so does this, after as many faces).
            for (let k = 0; k < LIST_N && <f64>n < max; k++) {
              const o = LIST + <usize>(k * LIST_BYTES);
              work++;
              if (load<f64>(o, 8) < ylo || load<f64>(o, 16) > yhi) continue;
              if (kind) {
                const x0 = load<f64>(o, 56), z0 = load<f64>(o, 64), x1 = load<f64>(o, 72), z1 = load<f64>(o, 80), x2 = load<f64>(o, 88), z2 = load<f64>(o, 96);
                const u0 = x0 * ux + z0 * uz, u1 = x1 * ux + z1 * uz, u2 = x2 * ux + z2 * uz;
                if (max3(u0, u1, u2) < ulo || min3(u0, u1, u2) > uhi) continue;
                const w0 = x0 * wx + z0 * wz, w1 = x1 * wx + z1 * wz, w2 = x2 * wx + z2 * wz;
                if (max3(w0, w1, w2) < vlo || min3(w0, w1, w2) > vhi) continue;
              } else {
                if (load<f64>(o, 24) < ulo || load<f64>(o, 32) > uhi) continue;
                if (load<f64>(o, 40) < vlo || load<f64>(o, 48) > vhi) continue;
              }
              if (addContact(load<i32>(o), reach, n)) n++;
            }
          } else {
            // More faces than the list holds: the walk itself (simulate.ts's).
            const stamp = <u16>rideSeenStamp();
            for (let j = j0; j <= j1; j++) {
              for (let i = i0; i <= i1; i++) {
                const cell = j * NX + i;
                let t: i32 = -1;
                for (let e = load<u32>(START + (<usize>cell << 2)), end = load<u32>(START + (<usize>(cell + 1) << 2)); e < end && <f64>n < max; ) {
                  let byte = <u32>load<u8>(ITEMS + <usize>e); e++;
                  let gap = byte & 0x7f;
                  for (let m: u32 = 7; byte > 0x7f; m += 7) { byte = <u32>load<u8>(ITEMS + <usize>e); e++; gap += (byte & 0x7f) << m; }
                  t += <i32>gap + 1;
                  const sp = SEEN + (<usize>t << 1);
                  if (load<u16>(sp) == stamp) continue;
                  store<u16>(sp, stamp);
                  work++;
                  const cc = C + (<usize>(3 * t) << 2);
                  const o0 = 3 * load<u32>(cc), o1 = 3 * load<u32>(cc, 4), o2 = 3 * load<u32>(cc, 8);
                  const a = vx(o0 + 1), b = vx(o1 + 1), d = vx(o2 + 1);
                  if (max3(a, b, d) < ylo || min3(a, b, d) > yhi) continue;
                  const x0 = vx(o0), z0 = vx(o0 + 2), x1 = vx(o1), z1 = vx(o1 + 2), x2 = vx(o2), z2 = vx(o2 + 2);
                  const u0 = kind ? x0 * ux + z0 * uz : x0, u1 = kind ? x1 * ux + z1 * uz : x1, u2 = kind ? x2 * ux + z2 * uz : x2;
                  if (max3(u0, u1, u2) < ulo || min3(u0, u1, u2) > uhi) continue;
                  const w0 = kind ? x0 * wx + z0 * wz : z0, w1 = kind ? x1 * wx + z1 * wz : z1, w2 = kind ? x2 * wx + z2 * wz : z2;
                  if (max3(w0, w1, w2) < vlo || min3(w0, w1, w2) > vhi) continue;
                  if (addContact(t, reach, n)) n++;
                }
              }
            }
          }
        }
      }
      const hBefore = Math.sqrt(v0 * v0 + v2 * v2), vyBefore = v1;
      for (let it: f64 = 0; it < iterations; it++) {
        let changed = false;
        for (let i = 0; i < n; i++) {
          const en = EFF + <usize>(24 * i);
          const nx = load<f64>(en), ny = load<f64>(en, 8), nz = load<f64>(en, 16);
          const target = -Math.max(load<f64>(PS + (<usize>i << 3)), 0) / dt;
          const vn = v0 * nx + v1 * ny + v2 * nz;
          if (vn < target - 1e-12) {
            const dv = target - vn;
            v0 += dv * nx; v1 += dv * ny; v2 += dv * nz;
            const ip = IMP + (<usize>i << 3);
            store<f64>(ip, load<f64>(ip) + dv);
            changed = true;
          }
        }
        if (!changed) break;
      }
      // Penetration: the deepest contact's depth out along its normal.
      let deep: i32 = -1, depth: f64 = 0;
      for (let i = 0; i < n; i++) {
        const si = load<f64>(PS + (<usize>i << 3));
        if (si < depth) { depth = si; deep = i; }
      }
      if (deep >= 0) {
        const en = EFF + <usize>(24 * deep);
        CX -= depth * load<f64>(en); CY -= depth * load<f64>(en, 8); CZ -= depth * load<f64>(en, 16);
        dist -= depth;
      }
      const hAfter = Math.sqrt(v0 * v0 + v2 * v2);
      for (let i = 0; i < n; i++) {
        const imp = load<f64>(IMP + (<usize>i << 3));
        if (!load<u8>(KEPT + <usize>i) || imp < hitImpulse) continue;
        if (hits == HIT_CAP) { rideHits(hits); hits = 0; }
        const o = HITS + <usize>(8 * HIT_WORDS * hits);
        const en = EFF + <usize>(24 * i), pn = PP + <usize>(24 * i);
        store<f64>(o, <f64>load<i32>(FACE + (<usize>i << 2)));
        store<f64>(o, <f64>load<i32>(PF + (<usize>i << 2)), 8);
        store<f64>(o, load<f64>(pn), 16); store<f64>(o, load<f64>(pn, 8), 24); store<f64>(o, load<f64>(pn, 16), 32);
        store<f64>(o, load<f64>(en), 40); store<f64>(o, load<f64>(en, 8), 48); store<f64>(o, load<f64>(en, 16), 56);
        store<f64>(o, imp, 64);
        store<f64>(o, hBefore, 72);
        store<f64>(o, hAfter, 80);
        store<f64>(o, Math.max(0, v1 - Math.max(0, vyBefore)), 88);
        store<f64>(o, time, 96);
        hits++;
      }
      air = n == 0 ? air + dt : 0;
      CX += v0 * dt; CY += v1 * dt; CZ += v2 * dt;
      dist += Math.sqrt(v0 * v0 + v1 * v1 + v2 * v2) * dt;
      time += dt;
      const hv = Math.sqrt(v0 * v0 + v2 * v2);
      if (hv > 1e-9) { FX = v0 / hv; FZ = v2 / hv; }
    }
    if (air > 1) break;
  }
  if (hits > 0) rideHits(hits);
  setIO(24, CX); setIO(25, CY); setIO(26, CZ);
  setIO(27, v0); setIO(28, v1); setIO(29, v2);
  setIO(30, dist); setIO(31, time); setIO(32, air > 1 ? 1 : 0); setIO(33, work);
}
