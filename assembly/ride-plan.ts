// The ride's plan in WebAssembly over a world built here (src/ride/world-wasm.ts lays out the memory): the seam edges
// (src/ride/seam-edges.ts seamEdgesOf: the rule) and the lane plan's passes over the coverage grid (src/ride/lanes.ts
// Cover and laneCells: the rule), each the same answers as its JavaScript, the same f64 additions in the same order
// (test/ride/plan-wasm.test.ts). Why: the plan runs once a process, where JavaScript runs its loops unoptimized
// (docs/performance.md "Riding the collision").

import { heightOnFace, rideSurface } from './ride-fold';

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

/** Cover.sampled's sum: `s` (the sum so far) plus the area (f64) of each of the n cells whose hit byte is set, in order. */
export function rideSampled(area: usize, hit: usize, n: i32, s: f64): f64 {
  for (let k = 0; k < n; k++) if (load<u8>(hit + <usize>k) != 0) s += load<f64>(area + (<usize>k << 3));
  return s;
}

// The seam edges' measuring (src/ride/index.ts plan: the rule), over the world and grid rideFoldWorld set: its
// vertices, corners, face bits, cells' starts and bytes, and here the grid's box and the surface look-up's IO.
let MV: usize = 0, MC: usize = 0, MFB: usize = 0, MSTART: usize = 0, MITEMS: usize = 0, MIO: usize = 0;
let MX0: f64 = 0, MZ0: f64 = 0, MCELL: f64 = 1;
let MNX: i32 = 0, MNZ: i32 = 0;

/** The world and grid the measuring reads (as rideFoldWorld's), and where rideSurface writes its height and visits. */
export function ridePlanWorld(vert: usize, corner: usize, bits: usize, start: usize, items: usize, x0: f64, z0: f64, cell: f64, nx: i32, nz: i32, io: usize): void {
  MV = vert; MC = corner; MFB = bits; MSTART = start; MITEMS = items; MX0 = x0; MZ0 = z0; MCELL = cell; MNX = nx; MNZ = nz; MIO = io;
}

/** grid.ts cellOf: the column (or row) of x, clamped to [0, n); NaN stays NaN. */
@inline function cellOfM(x: f64, o: f64, n: i32): f64 {
  const i = Math.floor((x - o) / MCELL);
  return i < 0 ? 0 : i >= <f64>n ? <f64>(n - 1) : i;
}

let mHeight: f64 = 0;
let mVisits: f64 = 0;

/** surface.ts surfaceUnder at (x, z, y, reach): the face or −1, its height in mHeight (0 where no cell), visits in mVisits. */
function surfaceUnderM(x: f64, z: f64, y: f64, reach: f64, top: i32): f64 {
  mVisits = 0;
  // Outside the grid's box: −1, and the height left as it was (surfaceUnder's early return; unread then).
  if (x < MX0 || z < MZ0 || x > MX0 + <f64>MNX * MCELL || z > MZ0 + <f64>MNZ * MCELL) return -1;
  const c = cellOfM(z, MZ0, MNZ) * <f64>MNX + cellOfM(x, MX0, MNX);
  if (c != c) {
    mHeight = 0;
    return -1;
  }
  const best = rideSurface(<i32>c, x, z, y, reach, top);
  mHeight = load<f64>(MIO);
  mVisits = load<f64>(MIO, 8);
  return <f64>best;
}

/**
 * surface.ts surfaceAlong: the first d = step, step + step, … (added up so) while d ≤ to at whose point (x + dx · d,
 * z + dz · d) a walkable face's plane lies within ±reach of y, or NaN; the faces listed in each point's cell, added
 * up, in mVisits (its q.work).
 */
function surfaceAlongM(x: f64, z: f64, dx: f64, dz: f64, y: f64, reach: f64, step: f64, to: f64): f64 {
  let work: f64 = 0, cell: f64 = -1, listed = 0, from: u32 = 0, end: u32 = 0;
  for (let d = step; d <= to; d += step) {
    const px = x + dx * d, pz = z + dz * d;
    if (px < MX0 || pz < MZ0 || px > MX0 + <f64>MNX * MCELL || pz > MZ0 + <f64>MNZ * MCELL) continue;
    const c = cellOfM(pz, MZ0, MNZ) * <f64>MNX + cellOfM(px, MX0, MNX);
    if (c != cell) {
      // A NaN cell lists no faces (and is never the same cell again).
      cell = c;
      listed = 0;
      from = end = 0;
      if (c == c) {
        from = load<u32>(MSTART + (<usize><i32>c << 2));
        end = load<u32>(MSTART + (<usize>(<i32>c + 1) << 2));
        for (let e = from; e < end; ) {
          let byte = <u32>load<u8>(MITEMS + <usize>e); e++;
          for (; byte > 0x7f; ) { byte = <u32>load<u8>(MITEMS + <usize>e); e++; }
          listed++;
        }
      }
    }
    work += <f64>listed;
    // The cell's walkable faces in order (read again a point: few points share a cell's faces in a gap's 0.3 m).
    let t: i32 = -1;
    for (let e = from; e < end; ) {
      let byte = <u32>load<u8>(MITEMS + <usize>e); e++;
      let gap = byte & 0x7f;
      for (let m: u32 = 7; byte > 0x7f; m += 7) { byte = <u32>load<u8>(MITEMS + <usize>e); e++; gap += (byte & 0x7f) << m; }
      t += <i32>gap + 1;
      if ((<u32>load<u16>(MFB + (<usize>t << 1)) & FACE_WALKABLE) == 0) continue;
      const h = heightOnFace(t, px, pz);
      if (Math.abs(h - y) <= reach) {
        mVisits = work;
        return d;
      }
    }
  }
  mVisits = work;
  return NaN;
}

/** Numbers a measured edge (rideMeasure's out). */
const MEASURED = 12;

/**
 * plan's measuring of seam edges [from, to) of `edges` (u32 corners): each edge's (edgeOf) length, inward direction
 * and middle, the top walkable surface just inside (within `nearReach`) and just across (within `gapDrop`), and where
 * nothing is across, how far on surface resumes (surfaceAlong up to `gapMax`); and the faces the look-ups visited
 * (their work). MEASURED f64 an edge at out, from its first: len, ix, iz, px, py, pz, near, nearY, far, farY, d, work.
 */
export function rideMeasure(edges: usize, from: i32, to: i32, across: f64, nearReach: f64, gapDrop: f64, gapStep: f64, gapMax: f64, out: usize): void {
  for (let e = from; e < to; e++) {
    const ek = load<u32>(edges + (<usize>e << 2)), t = ek / 3, k = ek % 3;
    const c = MC + (<usize>(3 * t) << 2);
    const i = MV + (<usize>(3 * load<u32>(c + (<usize>k << 2))) << 3);
    const j = MV + (<usize>(3 * load<u32>(c + (<usize>((k + 1) % 3) << 2))) << 3);
    const o = MV + (<usize>(3 * load<u32>(c + (<usize>((k + 2) % 3) << 2))) << 3);
    const ex = load<f64>(j) - load<f64>(i), ey = load<f64>(j, 8) - load<f64>(i, 8), ez = load<f64>(j, 16) - load<f64>(i, 16);
    const len = Math.sqrt(ex * ex + ey * ey + ez * ez), hl = Math.sqrt(ex * ex + ez * ez);
    let ix = -ez / hl, iz = ex / hl;
    if ((load<f64>(o) - load<f64>(i)) * ix + (load<f64>(o, 16) - load<f64>(i, 16)) * iz < 0) { ix = -ix; iz = -iz; }
    const px = load<f64>(i) + 0.5 * ex, py = load<f64>(i, 8) + 0.5 * ey, pz = load<f64>(i, 16) + 0.5 * ez;
    const near = surfaceUnderM(px + ix * across, pz + iz * across, py, nearReach, 1), nearY = mHeight;
    let work = mVisits;
    const far = surfaceUnderM(px - ix * across, pz - iz * across, py, gapDrop, 1), farY = mHeight;
    work += mVisits;
    let d: f64 = NaN;
    if (far < 0) {
      d = surfaceAlongM(px, pz, -ix, -iz, py, gapDrop, gapStep, gapMax);
      work += mVisits;
    }
    const m = out + <usize>(e - from) * (MEASURED << 3);
    store<f64>(m, len); store<f64>(m, ix, 8); store<f64>(m, iz, 16); store<f64>(m, px, 24); store<f64>(m, py, 32); store<f64>(m, pz, 40);
    store<f64>(m, near, 48); store<f64>(m, nearY, 56); store<f64>(m, far, 64); store<f64>(m, farY, 72); store<f64>(m, d, 80); store<f64>(m, work, 88);
  }
}
