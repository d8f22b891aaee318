// The ride's plan in WebAssembly over a world built here (src/ride/world-wasm.ts lays out the memory): the seam edges
// (src/ride/seam-edges.ts seamEdgesOf: the rule) and the lane plan's passes over the coverage grid (src/ride/lanes.ts
// Cover and laneCells: the rule), each the same answers as its JavaScript, the same f64 additions in the same order
// (test/ride/plan-wasm.test.ts). Why: the plan runs once a process, where JavaScript runs its loops unoptimized
// (docs/performance.md "Riding the collision").

const BORDER_BIT = 6;
const FACE_BORDERS: u32 = 7 << BORDER_BIT;
const FACE_WALKABLE: u32 = 1 << 9;

/**
 * keyOf: x rounded to 0.1 mm as JavaScript's Math.round does (up from the ceiling's half: V8's Float64Round, not
 * f64.nearest's ties to even), NaN as 0.5, −0 as 0.
 */
@inline function keyOf(x: f64): f64 {
  const v = x * 1e4;
  let r = Math.ceil(v);
  if (!(r - 0.5 <= v)) r -= 1.0;
  return r != r ? 0.5 : r + 0.0;
}

/** Corner ek's edge's ends (offsets of their x in f64s), a and b: ek's vertex and the next round its face. */
@inline function endA(corner: usize, ek: u32): usize {
  return <usize>(3 * load<u32>(corner + (<usize>ek << 2)));
}
@inline function endB(corner: usize, ek: u32): usize {
  const k = ek % 3;
  return <usize>(3 * load<u32>(corner + (<usize>(k < 2 ? ek + 1 : ek - 2) << 2)));
}

/**
 * A step of the keys' hash: the key's bits folded in and spread over the word (a key is a whole number as f64, its
 * low bits zero: a hash taking them 32 at a time, as the JavaScript's does, crowds them into few slots).
 */
@inline function mix(h: u64, x: f64): u64 {
  h = (h ^ reinterpret<u64>(x)) * 0x9e3779b97f4a7c15;
  return h ^ (h >>> 29);
}

/**
 * The border corners (3 · face + corner) of the walkable faces of [from, to), in order, written as u32 at `out` from
 * `count` on (borderCorners); the count after them, or −1 past `cap` of them.
 */
export function rideSeamCorners(bits: usize, from: i32, to: i32, out: usize, count: i32, cap: i32): i32 {
  for (let t = from; t < to; t++) {
    const b = <u32>load<u16>(bits + (<usize>t << 1));
    if ((b & FACE_WALKABLE) == 0 || (b & FACE_BORDERS) == 0) continue;
    if (count + 3 > cap) return -1;
    for (let k: u32 = 0; k < 3; k++) {
      if (((b >> (BORDER_BIT + k)) & 1) == 0) continue;
      store<u32>(out + (<usize>count << 2), 3 * <u32>t + k);
      count++;
    }
  }
  return count;
}

/**
 * Corners [from, to) of `corners`: each one's edge's keys (six f64 at keys, 48 bytes a corner: its ends' coordinates
 * keyed, the lesser end first) and length (f64 at lens; −1 for an edge without horizontal length, which is not kept).
 * A loop of its own, each corner's loads independent of the last's: the ends lie anywhere in the world, and the
 * processor waits for many of them at once here, not one at a time between the table's probes.
 */
export function rideSeamKeys(vert: usize, corner: usize, corners: usize, from: i32, to: i32, keys: usize, lens: usize): void {
  for (let n = from; n < to; n++) {
    const ek = load<u32>(corners + (<usize>n << 2));
    const i = vert + (endA(corner, ek) << 3), j = vert + (endB(corner, ek) << 3);
    const xi = load<f64>(i), yi = load<f64>(i, 8), zi = load<f64>(i, 16), xj = load<f64>(j), yj = load<f64>(j, 8), zj = load<f64>(j, 16);
    const ax = keyOf(xi), ay = keyOf(yi), az = keyOf(zi), bx = keyOf(xj), by = keyOf(yj), bz = keyOf(zj);
    // Either way round: the lesser end first.
    const swap = ax > bx || (ax == bx && (ay > by || (ay == by && az > bz)));
    const o = keys + <usize>n * 48;
    store<f64>(o, swap ? bx : ax); store<f64>(o, swap ? by : ay, 8); store<f64>(o, swap ? bz : az, 16);
    store<f64>(o, swap ? ax : bx, 24); store<f64>(o, swap ? ay : by, 32); store<f64>(o, swap ? az : bz, 40);
    const dx = xj - xi, dy = yj - yi, dz = zj - zi;
    // (P[j] − P[i]) ** 2 is the product in V8 (its pow's y = 2 case; a test holds them equal).
    store<f64>(lens + (<usize>n << 3), Math.abs(dx) + Math.abs(dz) < 1e-6 ? -1 : Math.sqrt(dx * dx + dy * dy + dz * dz));
  }
}

let seamKept: i32 = 0;
let seamTotal: f64 = 0;

/** Starts the seam edges' pass: none kept, total 0 (the table, zeroed, is the caller's). */
export function rideSeamBegin(): void {
  seamKept = 0;
  seamTotal = 0;
}

/** The seam edges' total length so far. */
export function rideSeamTotal(): f64 {
  return seamTotal;
}

/**
 * seamEdgesOf's table over corners [from, to) (a chunk a call, in order; their keys and lengths as rideSeamKeys
 * left them): each corner whose keys are not in the table (`size` slots, a power of two: the corner's place + 1, 0
 * empty) goes in it; those with horizontal length are kept (u32 at edges) and their lengths added to the total.
 * Returns the edges kept so far.
 */
export function rideSeamEdges(corners: usize, from: i32, to: i32, keys: usize, lens: usize, table: usize, size: u32, edges: usize): i32 {
  const mask = size - 1;
  for (let n = from; n < to; n++) {
    const q = keys + <usize>n * 48;
    const k0 = load<f64>(q), k1 = load<f64>(q, 8), k2 = load<f64>(q, 16), k3 = load<f64>(q, 24), k4 = load<f64>(q, 32), k5 = load<f64>(q, 40);
    let h: u64 = 0;
    h = mix(h, k0); h = mix(h, k1); h = mix(h, k2); h = mix(h, k3); h = mix(h, k4); h = mix(h, k5);
    let slot = <u32>(h >>> 32) & mask, found = false;
    for (let e = load<u32>(table + (<usize>slot << 2)); e != 0; e = load<u32>(table + (<usize>slot << 2))) {
      const o = keys + <usize>(e - 1) * 48;
      if (load<f64>(o) == k0 && load<f64>(o, 8) == k1 && load<f64>(o, 16) == k2 && load<f64>(o, 24) == k3 && load<f64>(o, 32) == k4 && load<f64>(o, 40) == k5) {
        found = true;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (found) continue;
    store<u32>(table + (<usize>slot << 2), <u32>n + 1);
    const len = load<f64>(lens + (<usize>n << 3));
    if (len == -1) continue;
    store<u32>(edges + (<usize>seamKept << 2), load<u32>(corners + (<usize>n << 2)));
    seamKept++;
    seamTotal += len;
  }
  return seamKept;
}

/** The cells of `area` (n f64) above 0: the occupied coverage cells (Cover.occupied). */
export function ridePositive(area: usize, n: i32): i32 {
  let count = 0;
  for (let k = 0; k < n; k++) if (load<f64>(area + (<usize>k << 3)) > 0) count++;
  return count;
}

/** spans (lanes.ts): for each of n coverage cells of c m, the first and last lane cell of `spacing` m it overlaps (two i32). */
export function rideLaneSpans(n: i32, c: f64, spacing: f64, out: usize): void {
  for (let k = 0; k < n; k++) {
    const lo = Math.floor((<f64>k * c) / spacing);
    const hi = Math.floor((<f64>(k + 1) * c) / spacing);
    store<i32>(out + (<usize>k << 3), <i32>lo);
    store<i32>(out + (<usize>k << 3), <i32>(hi > lo ? hi : lo), 4);
  }
}

/**
 * laneCells' sums (lanes.ts, dense) over coverage rows [from, to): each occupied coverage cell's area (f64 at area,
 * cnx a row) spread evenly over the lane cells it overlaps (cols, rows: rideLaneSpans'), added into `lanes` (f64, nx
 * a row, zeroed by the caller), row by row, a row's cells in order: laneCells' additions in its order.
 */
export function rideLaneCells(area: usize, cnx: i32, from: i32, to: i32, cols: usize, rows: usize, lanes: usize, nx: i32): void {
  for (let cj = from; cj < to; cj++) {
    const j0 = load<i32>(rows + (<usize>cj << 3)), j1 = load<i32>(rows + (<usize>cj << 3), 4);
    const dj = <f64>(j1 - j0 + 1);
    for (let ci = 0, k = cj * cnx; ci < cnx; ci++, k++) {
      const a = load<f64>(area + (<usize>k << 3));
      if (!(a > 0)) continue;
      const i0 = load<i32>(cols + (<usize>ci << 3)), i1 = load<i32>(cols + (<usize>ci << 3), 4);
      const share = a / (<f64>(i1 - i0 + 1) * dj);
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          const m = lanes + (<usize>(j * nx + i) << 3);
          store<f64>(m, load<f64>(m) + share);
        }
      }
    }
  }
}

/** Cover.sampled's sum: the area (f64) of the cells whose hit byte is set, in order. */
export function rideSampled(area: usize, hit: usize, n: i32): f64 {
  let s: f64 = 0;
  for (let k = 0; k < n; k++) if (load<u8>(hit + <usize>k) != 0) s += load<f64>(area + (<usize>k << 3));
  return s;
}
