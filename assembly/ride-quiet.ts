// The quiet map's judging (src/ride/quiet.ts QuietMap: it stays the rule, and a test holds the two to the same
// answers in the same call orders) over the world, grid and marks the ride's writer left in this memory
// (src/ride/world-wasm.ts lays them out and sets them with rideQuietWorld): whether a ride's box lists a loud face
// (rideQuietBox: the cells' pending and loud bits, a cell judged face by face when first covered), whether a face is
// loud (2 bits a face), and the fold of a true crest (rideCrestFold: the fold search of ride-fold.ts, its acos
// JavaScript's own Math.acos, imported, and the folds found from the corner across kept until asked once); and a
// ride's start up to that box (rideStart, below: a quiet ride is one call). Why
// WebAssembly: the ride asks ~35,000 boxes a level, and in JavaScript each ask and each edge was a call V8 compiled,
// threw away and compiled again in the background of a 2-core machine.

import { cellAt } from './ride-grid';
import { rideFold, rideFoldCorner, rideFoldDot, rideSurface } from './ride-fold';
import { FACE_NX, FACE_NY, FACE_NZ, faceNormalAt, hypot3 } from './ride-world';

/** Math.acos as JavaScript computes it (src/ride/world-wasm.ts passes Math.acos itself; ride-sim.ts's too). */
@external("env", "rideAcos")
declare function acosJS(x: f64): f64;

const EDGE_CONVEX: u32 = 2;
/** FaceBits of a face that may be loud: walkable, with an edge whose allowance is above 0. */
const MAY_BE_LOUD: u32 = (1 << 9) | (1 << 10);

// The world (rideQuietWorld): corners (u32), allowances (f32), face bits (u16), the grid (starts u32, bytes u8, min
// corner, cell, columns, rows); the quiet map's box (4 f64), pending and loud bits (i32 words, 32 cells a word), face
// states (2 bits a face), and the region the folds across are kept in.
let V: usize = 0, C: usize = 0, A: usize = 0, FB: usize = 0, START: usize = 0, ITEMS: usize = 0, SURFACE_IO: usize = 0;
let FACES: i32 = 0, NX: i32 = 0, NZ: i32 = 0;
let X0: f64 = 0, Z0: f64 = 0, CELL: f64 = 1;
let BOX: usize = 0, PENDING: usize = 0, LOUD: usize = 0, STATE: usize = 0;
let CANDIDATES: i32 = 0;
/** GHOST_SLACK less the contact model's slack (quiet.ts QuietMap.slack). */
let SLACK: f64 = 0;

/**
 * Sets the world the quiet map and the rides' starts read (every address 8-aligned; the bits, states and table region
 * zero; `io` where rideSurface leaves its answers).
 */
export function rideQuietWorld(vert: usize, corner: usize, allow: usize, bits: usize, faces: i32, start: usize, items: usize, x0: f64, z0: f64, cell: f64, nx: i32, nz: i32, quiet: usize, table: usize, tableEnd: usize, io: usize): void {
  V = vert; SURFACE_IO = io; C = corner; A = allow; FB = bits; FACES = faces; START = start; ITEMS = items; X0 = x0; Z0 = z0; CELL = cell; NX = nx; NZ = nz;
  BOX = quiet;
  TABLE_AT = table; TABLE_END = tableEnd;
}

/** The quiet map's start: its marks (a bit a cell), its cells' loud bits and face states (words and bytes after them), its count and slack. */
export function rideQuietBegin(pending: usize, loud: usize, state: usize, candidates: i32, slack: f64): void {
  PENDING = pending; LOUD = loud; STATE = state; CANDIDATES = candidates; SLACK = slack;
  tableAt(TABLE_AT, 16);
}

/**
 * The corners in the world whose edge is stored convex: at most that many folds are kept at once (a fold is kept for
 * the corner across the one asked, a convex one; the same corner asked again finds the same corner across).
 */
export function rideQuietConvex(bits: usize, faces: i32): i32 {
  let n = 0;
  for (let t = 0; t < faces; t++) {
    const b = <u32>load<u16>(bits + (<usize>t << 1));
    n += <i32>((b & 3) == EDGE_CONVEX) + <i32>(((b >> 2) & 3) == EDGE_CONVEX) + <i32>(((b >> 4) & 3) == EDGE_CONVEX);
  }
  return n;
}

/** Table slots for `keys` folds kept at most: a power of two (at least 16) of which `keys` fill at most 3/4. */
export function rideQuietTableSlots(keys: i32): i32 {
  let cap = 16;
  while (<i64>cap * 3 < <i64>keys * 4) cap <<= 1;
  return cap;
}

// The folds found from the corner across (quiet.ts QuietMap.across: a Map), an open-addressing table: 16 bytes a slot
// (the corner + 1, 0 when empty; the fold), linear probing, deletion by shifting the run back (no tombstones). It
// doubles when 3/4 full, into the region after the table it leaves (world-wasm.ts reserves 2 × 16 bytes × the slots
// rideQuietTableSlots gives for the world's convex corners: the tables all fit, and the last never fills).
let TABLE_AT: usize = 0, TABLE_END: usize = 0, TABLE: usize = 0, CAP: i32 = 0, COUNT: i32 = 0, SHIFT: i32 = 28;

/** An empty table of `cap` slots at `at`. */
function tableAt(at: usize, cap: i32): void {
  if (at + (<usize>cap << 4) > TABLE_END) unreachable();
  memory.fill(at, 0, <usize>cap << 4);
  TABLE = at; CAP = cap; COUNT = 0; SHIFT = 32 - (31 - <i32>clz<u32>(<u32>cap));
}

@inline function home(key: i32): i32 {
  return <i32>((<u32>key * 0x9e3779b1) >>> <u32>SHIFT);
}

/** The slot holding `key`, or −1. */
function tableFind(key: i32): i32 {
  const mask = CAP - 1, k = key + 1;
  let s = home(key), at = load<i32>(TABLE + (<usize>s << 4));
  while (at != k && at != 0) {
    s = (s + 1) & mask;
    at = load<i32>(TABLE + (<usize>s << 4));
  }
  return at == k ? s : -1;
}

/** Sets `key` to `fold` (Map.set). */
function tableSet(key: i32, fold: f64): void {
  const mask = CAP - 1, k = key + 1;
  let s = home(key);
  for (; ; s = (s + 1) & mask) {
    const at = load<i32>(TABLE + (<usize>s << 4));
    if (at == k) { store<f64>(TABLE + (<usize>s << 4), fold, 8); return; }
    if (at == 0) break;
  }
  if ((COUNT + 1) * 4 > CAP * 3) {
    // Double into the region after this table, the kept folds moved over.
    const old = TABLE, cap = CAP;
    tableAt(old + (<usize>cap << 4), cap << 1);
    for (let o: i32 = 0; o < cap; o++) {
      const p = old + (<usize>o << 4), ok = load<i32>(p);
      if (ok != 0) place(ok, load<f64>(p, 8));
    }
    place(k, fold);
    return;
  }
  store<i32>(TABLE + (<usize>s << 4), k);
  store<f64>(TABLE + (<usize>s << 4), fold, 8);
  COUNT++;
}

/** Puts stored key `k` (a corner + 1, not in the table) with its fold into its first empty slot. */
function place(k: i32, fold: f64): void {
  const mask = CAP - 1;
  let s = home(k - 1);
  while (load<i32>(TABLE + (<usize>s << 4)) != 0) s = (s + 1) & mask;
  store<i32>(TABLE + (<usize>s << 4), k);
  store<f64>(TABLE + (<usize>s << 4), fold, 8);
  COUNT++;
}

/** Empties slot s (Map.delete), moving back the entries after it in its run that may then be found sooner. */
function tableDelete(s: i32): void {
  const mask = CAP - 1;
  let hole = s;
  for (let n = (s + 1) & mask; ; n = (n + 1) & mask) {
    const p = TABLE + (<usize>n << 4), k = load<i32>(p);
    if (k == 0) break;
    const h = home(k - 1);
    // Entry n may move to the hole when its home is not in (hole, n] (cyclically).
    if (hole <= n ? h <= hole || h > n : h <= hole && h > n) {
      const q = TABLE + (<usize>hole << 4);
      store<i32>(q, k);
      store<f64>(q, load<f64>(p, 8), 8);
      hole = n;
    }
  }
  store<i32>(TABLE + (<usize>hole << 4), 0);
  COUNT--;
}

/** QuietMap.crestFold: the fold at corner 3 · t + k (its edge) when that edge is a true crest, radians; else −1. */
export function rideCrestFold(corner: i32): f64 {
  // edgeKindAt of a corner past the faces (a face bit undefined: 0) or before them (a shift past the edge kinds): flat.
  if (corner < 0 || corner >= 3 * FACES) return -1;
  const t = corner / 3, k = corner - 3 * t;
  if (((<u32>load<u16>(FB + (<usize>t << 1)) >> <u32>(2 * k)) & 3) != EDGE_CONVEX) return -1;
  let fold: f64;
  const s = tableFind(corner);
  if (s < 0) {
    fold = rideFold(t, k) == 0 ? -1 : acosJS(Math.max(-1, Math.min(1, rideFoldDot())));
    if (fold >= 0) tableSet(rideFoldCorner(), fold);
  } else {
    fold = load<f64>(TABLE + (<usize>s << 4), 8);
    tableDelete(s);
  }
  return fold >= 0 && <f64>load<f32>(A + (<usize>corner << 2)) <= fold + SLACK ? fold : -1;
}

/** QuietMap.isLoud: whether face t is loud (1) or not (0). */
export function rideIsLoud(t: i32): i32 {
  if (CANDIDATES == 0 || t < 0 || t >= FACES) return 0;
  if ((<u32>load<u16>(FB + (<usize>t << 1)) & MAY_BE_LOUD) != MAY_BE_LOUD) return 0;
  const sp = STATE + (<usize>t >>> 2), shift = <u32>(2 * (t & 3));
  const state = (<u32>load<u8>(sp) >>> shift) & 3;
  if (state != 0) return <i32>(state == 2);
  let loud = false;
  for (let k = 0; k < 3 && !loud; k++) {
    if (load<f32>(A + (<usize>(3 * t + k) << 2)) > 0 && rideCrestFold(3 * t + k) < 0) loud = true;
  }
  store<u8>(sp, <u8>(<u32>load<u8>(sp) | ((loud ? 2 : 1) << shift)));
  return <i32>loud;
}

/** QuietMap.judgeCell: judges the faces that may be loud in cell c (in face order, to the first loud one). */
function judgeCell(c: i32): bool {
  let loud = false, t: i32 = -1;
  for (let e = load<u32>(START + (<usize>c << 2)), end = load<u32>(START + (<usize>(c + 1) << 2)); e < end && !loud; ) {
    let byte = <u32>load<u8>(ITEMS + <usize>e); e++;
    let gap = byte & 0x7f;
    for (let m: u32 = 7; byte > 0x7f; m += 7) { byte = <u32>load<u8>(ITEMS + <usize>e); e++; gap += (byte & 0x7f) << m; }
    t += <i32>gap + 1;
    if ((<u32>load<u16>(FB + (<usize>t << 1)) & MAY_BE_LOUD) == MAY_BE_LOUD && rideIsLoud(t) != 0) loud = true;
  }
  const w = <usize>(c >>> 5) << 2, bit = 1 << (c & 31);
  store<i32>(PENDING + w, load<i32>(PENDING + w) & ~bit);
  if (loud) store<i32>(LOUD + w, load<i32>(LOUD + w) | bit);
  return loud;
}

/** QuietMap.quietInBox of the box (x0, z0, x1, z1) at BOX: 1 when quiet, else 0. */
export function rideQuietBox(): i32 {
  if (CANDIDATES == 0) return 1;
  const x0 = load<f64>(BOX), z0 = load<f64>(BOX, 8), x1 = load<f64>(BOX, 16), z1 = load<f64>(BOX, 24);
  if (!(x0 <= x1 && z0 <= z1)) return 0;
  const fi0 = cellAt(x0, X0, CELL, NX), fi1 = cellAt(x1, X0, CELL, NX), fj0 = cellAt(z0, Z0, CELL, NZ), fj1 = cellAt(z1, Z0, CELL, NZ);
  // A NaN cell (not from these bounds, but as JavaScript's loops would take one): no cell looked at.
  if (!(fi0 == fi0 && fi1 == fi1 && fj0 == fj0 && fj1 == fj1)) return 1;
  const i0 = <i32>fi0, i1 = <i32>fi1, j0 = <i32>fj0, j1 = <i32>fj1;
  for (let j = j0; j <= j1; j++) {
    for (let c = j * NX + i0, end = j * NX + i1; c <= end; c++) {
      // The next cell from c on that is pending or loud: the lowest bit set in its word from c's on.
      const w = <usize>(c >>> 5) << 2, bits = <u32>(load<i32>(PENDING + w) | load<i32>(LOUD + w)) >>> <u32>(c & 31);
      if (bits == 0) {
        c = (((c >>> 5) + 1) << 5) - 1;
        continue;
      }
      c += <i32>ctz<u32>(bits);
      if (c > end) break;
      if (((<u32>load<i32>(LOUD + (<usize>(c >>> 5) << 2)) >>> <u32>(c & 31)) & 1) != 0 || judgeCell(c)) return 0;
    }
  }
  return 1;
}

// A ride's start, to the quiet box (src/ride/index.ts rider: startAt, boundOf and the box rideFrom asks the quiet map
// about; they stay the rule for any other world, and a test holds the two to the same rides and numbers): the surface
// under the start (surfaceUnder, its last two look-ups kept), the face's normal, the probe's support along it, the
// start's centre and velocity, the ride's bound (rideBound, computed by the caller when not kept) and the quiet box.

/**
 * In (written by the caller): speed, x, y, z, dx, dz, length, start reach, then the probe (kind: 0 sphere, 1 capsule, 2
 * box; then radius, half length; or the box's three half extents). Out: the start's centre (3) and velocity (3), and
 * the work the look-up counted.
 */
const START_IO: usize = memory.data(8 * 19, 8);
const OUT: usize = START_IO + 8 * 12;

/** Where rideStart's input and output lie. */
export function rideStartIO(): usize {
  return START_IO;
}

/** Object.is on two doubles: the same bits, or both NaN. */
@inline function same(a: f64, b: f64): bool {
  return reinterpret<i64>(a) == reinterpret<i64>(b) || (a != a && b != b);
}

// The last two surface look-ups (startAt's lastAt, lastFace, lastH, lastVisits), by the rider that asked.
const LAST_AT: usize = memory.data(8 * 8, 8);
let LAST_FACE0: i32 = 0, LAST_FACE1: i32 = 0, LAST_H0: f64 = 0, LAST_H1: f64 = 0, LAST_VISITS0: f64 = 0, LAST_VISITS1: f64 = 0;
let LAST_NEXT: i32 = 0, LAST_KEPT: i32 = 0;
// The rideBound answers kept (probe index, speed, length, bound: BOUNDS_KEPT of them), by the rider that asked.
const BOUNDS_KEPT: i32 = 8;
const BOUNDS: usize = memory.data(8 * 4 * BOUNDS_KEPT, 8);
let BOUND_COUNT: i32 = 0, BOUND_NEXT: i32 = 0;
/** The rider whose look-ups and bounds are kept (a rider's probe index names its own probe, and its options give the bound). */
let RIDER: i32 = 0;

@inline function forget(rider: i32): void {
  if (rider == RIDER) return;
  RIDER = rider;
  LAST_NEXT = 0; LAST_KEPT = 0; BOUND_COUNT = 0; BOUND_NEXT = 0;
}

/** Keeps rideBound's answer for probe p at this speed and length (boundOf's ring of BOUNDS_KEPT). */
export function rideStartBound(rider: i32, p: i32, speed: f64, length: f64, bound: f64): void {
  forget(rider);
  const k = BOUND_NEXT, at = BOUNDS + (<usize>k << 5);
  BOUND_NEXT = (BOUND_NEXT + 1) % BOUNDS_KEPT;
  BOUND_COUNT = min(BOUNDS_KEPT, BOUND_COUNT + 1);
  store<f64>(at, <f64>p); store<f64>(at, speed, 8); store<f64>(at, length, 16); store<f64>(at, bound, 24);
}

/** surfaceUnder (src/ride/surface.ts) of (x, z) at height y within ±reach, the nearest: the face or −1; its height and visits in SURFACE_IO. */
function surfaceUnder(x: f64, z: f64, y: f64, reach: f64): i32 {
  store<f64>(SURFACE_IO, 0, 8);
  if (FACES == 0 || x < X0 || z < Z0 || x > X0 + <f64>NX * CELL || z > Z0 + <f64>NZ * CELL) return -1;
  const c = cellAt(z, Z0, CELL, NZ) * <f64>NX + cellAt(x, X0, CELL, NX);
  if (c != c) {
    store<f64>(SURFACE_IO, 0);
    return -1;
  }
  return rideSurface(<i32>c, x, z, y, reach, 0);
}

/**
 * rideFrom of the start at START_IO up to its simulation, for rider `rider`: 0 no walkable surface under it (not
 * ridden), 1 quiet (`skip` ≠ 0: nothing loud within its bound), 2 to be simulated (its centre and velocity at OUT),
 * 3 the bound is not kept (nothing done: rideStartBound, then ask again). The look-up's work at OUT + 48.
 */
export function rideStart(rider: i32, p: i32, skip: i32): i32 {
  forget(rider);
  const speed = load<f64>(START_IO), x = load<f64>(START_IO, 8), y = load<f64>(START_IO, 16), z = load<f64>(START_IO, 24);
  const dx = load<f64>(START_IO, 32), dz = load<f64>(START_IO, 40), length = load<f64>(START_IO, 48), reach = load<f64>(START_IO, 56);
  let bound: f64 = NaN, kept = false;
  for (let k = 0; k < BOUND_COUNT; k++) {
    const at = BOUNDS + (<usize>k << 5);
    if (load<f64>(at) == <f64>p && same(load<f64>(at, 8), speed) && same(load<f64>(at, 16), length)) { bound = load<f64>(at, 24); kept = true; break; }
  }
  if (!kept) return 3;
  // startAt: the surface under the start (a repeat of one of the last two look-ups takes its answer and work).
  let face: i32, hy: f64, work: f64;
  const m = LAST_KEPT > 0 && same(load<f64>(LAST_AT), x) && same(load<f64>(LAST_AT, 8), z) && same(load<f64>(LAST_AT, 16), y) && same(load<f64>(LAST_AT, 24), reach) ? 0
    : LAST_KEPT > 1 && same(load<f64>(LAST_AT, 32), x) && same(load<f64>(LAST_AT, 40), z) && same(load<f64>(LAST_AT, 48), y) && same(load<f64>(LAST_AT, 56), reach) ? 1 : -1;
  if (m >= 0) {
    face = m == 0 ? LAST_FACE0 : LAST_FACE1;
    hy = m == 0 ? LAST_H0 : LAST_H1;
    work = m == 0 ? LAST_VISITS0 : LAST_VISITS1;
  } else {
    face = surfaceUnder(x, z, y, reach);
    hy = load<f64>(SURFACE_IO);
    work = load<f64>(SURFACE_IO, 8);
    const o = LAST_NEXT, at = LAST_AT + (<usize>o << 5);
    LAST_NEXT = 1 - o;
    LAST_KEPT = min(2, LAST_KEPT + 1);
    store<f64>(at, x); store<f64>(at, z, 8); store<f64>(at, y, 16); store<f64>(at, reach, 24);
    if (o == 0) { LAST_FACE0 = face; LAST_H0 = hy; LAST_VISITS0 = work; } else { LAST_FACE1 = face; LAST_H1 = hy; LAST_VISITS1 = work; }
  }
  store<f64>(OUT, work, 48);
  if (face < 0) return 0;
  // faceNormal (src/ride/world.ts).
  faceNormalAt(V, C, face);
  const nx = FACE_NX, ny = FACE_NY, nz = FACE_NZ;
  // The probe's support along the normal (probes.ts support, its pose turned to (dx, dz)).
  const kind = load<f64>(START_IO, 64), p0 = load<f64>(START_IO, 72), p1 = load<f64>(START_IO, 80), p2 = load<f64>(START_IO, 88);
  let reachOut: f64;
  if (kind == 0) reachOut = p0;
  else {
    const along = Math.abs(nx * dx + nz * dz);
    if (kind == 1) reachOut = p0 + p1 * along;
    else reachOut = p0 * along + p1 * Math.abs(ny) + p2 * Math.abs(-nx * dz + nz * dx);
  }
  const lift = reachOut + 1e-5;
  const along = dx * nx + dz * nz;
  const vx = dx - along * nx, vy = -along * ny, vz = dz - along * nz;
  const len = hypot3(vx, vy, vz);
  const sx = x + nx * lift, sz = z + nz * lift;
  store<f64>(OUT, sx); store<f64>(OUT, hy + ny * lift, 8); store<f64>(OUT, sz, 16);
  store<f64>(OUT, vx * (speed / len), 24); store<f64>(OUT, vy * (speed / len), 32); store<f64>(OUT, vz * (speed / len), 40);
  if (skip == 0) return 2;
  // The quiet box: the start's centre ± the bound.
  store<f64>(BOX, sx - bound); store<f64>(BOX, sz - bound, 8); store<f64>(BOX, sx + bound, 16); store<f64>(BOX, sz + bound, 24);
  return rideQuietBox() != 0 ? 1 : 2;
}
