// The quiet map's judging (src/ride/quiet.ts QuietMap: it stays the rule, and a test holds the two to the same
// answers in the same call orders) over the world, grid and marks the ride's writer left in this memory
// (src/ride/world-wasm.ts lays them out and sets them with rideQuietWorld): whether a ride's box lists a loud face
// (rideQuietBox: the cells' pending and loud bits, a cell judged face by face when first covered), whether a face is
// loud (2 bits a face), and the fold of a true crest (rideCrestFold: the fold search of ride-fold.ts, its acos
// JavaScript's own Math.acos, imported, and the folds found from the corner across kept until asked once). Why
// WebAssembly: the ride asks ~35,000 boxes a level, and in JavaScript each ask and each edge was a call V8 compiled,
// threw away and compiled again in the background of a 2-core machine.

import { cellAt } from './ride-grid';
import { rideFold, rideFoldCorner, rideFoldDot } from './ride-fold';

/** Math.acos as JavaScript computes it (src/ride/world-wasm.ts passes Math.acos itself; ride-sim.ts's too). */
@external("env", "rideAcos")
declare function acosJS(x: f64): f64;

const EDGE_CONVEX: u32 = 2;
/** FaceBits of a face that may be loud: walkable, with an edge whose allowance is above 0. */
const MAY_BE_LOUD: u32 = (1 << 9) | (1 << 10);

// The world (rideQuietWorld): corners (u32), allowances (f32), face bits (u16), the grid (starts u32, bytes u8, min
// corner, cell, columns, rows); the quiet map's box (4 f64), pending and loud bits (i32 words, 32 cells a word), face
// states (2 bits a face), and the region the folds across are kept in.
let C: usize = 0, A: usize = 0, FB: usize = 0, START: usize = 0, ITEMS: usize = 0;
let FACES: i32 = 0, NX: i32 = 0, NZ: i32 = 0;
let X0: f64 = 0, Z0: f64 = 0, CELL: f64 = 1;
let BOX: usize = 0, PENDING: usize = 0, LOUD: usize = 0, STATE: usize = 0;
let CANDIDATES: i32 = 0;
/** GHOST_SLACK less the contact model's slack (quiet.ts QuietMap.slack). */
let SLACK: f64 = 0;

/** Sets the world the quiet map reads (every address 8-aligned; the bits, states and table region zero). */
export function rideQuietWorld(corner: usize, allow: usize, bits: usize, faces: i32, start: usize, items: usize, x0: f64, z0: f64, cell: f64, nx: i32, nz: i32, quiet: usize, table: usize, tableEnd: usize): void {
  C = corner; A = allow; FB = bits; FACES = faces; START = start; ITEMS = items; X0 = x0; Z0 = z0; CELL = cell; NX = nx; NZ = nz;
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
