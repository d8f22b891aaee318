// The quiet map's fold across an edge (src/ride/quiet.ts foldAcross: it stays the rule, and a test holds the two to
// the same answers on every convex corner of real and hostile worlds), over the world and grid the ride's writer left
// in this memory (assembly/ride-world.ts, ride-grid.ts; src/ride/world-wasm.ts sets them with rideFoldWorld). The
// same steps and arithmetic in the same order (a few tests worked out without a branch each: the same answers, ~20%
// less time); the last step (acos of the normals' dot) is left to the caller, so JavaScript's Math.acos gives it. Why WebAssembly: the ride judges tens of thousands of edges once in a fresh process.

import { cellAt } from './ride-grid';
import { FACE_NX, FACE_NY, FACE_NZ, faceNormalAt } from './ride-world';

const SAME_VERTEX: f64 = 1e-6;
const ACROSS: f64 = 0.002;
const JUDGE_REACH: f64 = 0.05;
const CROWD_MARGIN: f64 = 1e-5;
const FACE_WALKABLE: u32 = 1 << 9;

// The world (rideFoldWorld): vertices (f64 × 3), corners (u32), face bits (u16), the grid (its starts u32, bytes u8,
// min corner, cell, columns and rows) and a u16 stamp a face.
let V: usize = 0, C: usize = 0, FB: usize = 0, START: usize = 0, ITEMS: usize = 0, SEEN: usize = 0;
let FACES: i32 = 0, NX: i32 = 0, NZ: i32 = 0;
let X0: f64 = 0, Z0: f64 = 0, CELL: f64 = 1;
let STAMP: i32 = 0;
// rideFold's answers: the normals' dot and the corner across.
let DOT: f64 = 0;
let ACROSS_CORNER: i32 = -1;

/** Sets the world rideFold reads (its stamps zeroed by the caller). */
export function rideFoldWorld(vert: usize, corner: usize, bits: usize, faces: i32, start: usize, items: usize, x0: f64, z0: f64, cell: f64, nx: i32, nz: i32, seen: usize): void {
  V = vert; C = corner; FB = bits; FACES = faces; START = start; ITEMS = items; X0 = x0; Z0 = z0; CELL = cell; NX = nx; NZ = nz; SEEN = seen;
  STAMP = 0;
}

/**
 * The next stamp of the per-face marks (u16 a face at SEEN: a face whose mark is the stamp was visited since): the
 * fold search and the ride's simulation (ride-sim.ts) take turns with one counter, so neither mistakes a mark the
 * other left for its own.
 */
export function rideSeenStamp(): i32 {
  if (++STAMP == 0x10000) {
    memory.fill(SEEN, 0, <usize>FACES << 1);
    STAMP = 1;
  }
  return STAMP;
}
/** Where the marks are. */
export function rideSeen(): usize {
  return SEEN;
}

/** After a rideFold that found the face across: 0 the dot of the two normals; the corner across by rideFoldCorner. */
export function rideFoldDot(): f64 {
  return DOT;
}
export function rideFoldCorner(): i32 {
  return ACROSS_CORNER;
}

@inline function vx(i: u32): f64 { return load<f64>(V + (<usize>i << 3)); }


@inline function max3(a: f64, b: f64, c: f64): f64 { return a > b ? (a > c ? a : c) : b > c ? b : c; }
@inline function min3(a: f64, b: f64, c: f64): f64 { return a < b ? (a < c ? a : c) : b < c ? b : c; }

/**
 * foldAcross(t, k): 1 when face t's edge k has one face across (then rideFoldDot, rideFoldCorner), 0 when it has
 * none, more than one, one degenerate, or another walkable surface near it (quiet.ts says which and why).
 */
export function rideFold(t: i32, k: i32): i32 {
  const va = load<u32>(C + (<usize>(3 * t + k) << 2)), vb = load<u32>(C + (<usize>(3 * t + ((k + 1) % 3)) << 2));
  const a = 3 * va, b = 3 * vb;
  const ax = vx(a), ay = vx(a + 1), az = vx(a + 2), bx = vx(b), by = vx(b + 1), bz = vx(b + 2);
  const tax = SAME_VERTEX * Math.max(1, Math.abs(ax)), tay = SAME_VERTEX * Math.max(1, Math.abs(ay)), taz = SAME_VERTEX * Math.max(1, Math.abs(az));
  const tbx = SAME_VERTEX * Math.max(1, Math.abs(bx)), tby = SAME_VERTEX * Math.max(1, Math.abs(by)), tbz = SAME_VERTEX * Math.max(1, Math.abs(bz));
  const r = ACROSS + CROWD_MARGIN;
  const xlo = Math.min(ax, bx) - r, xhi = Math.max(ax, bx) + r, zlo = Math.min(az, bz) - r, zhi = Math.max(az, bz) + r;
  const ylo = Math.min(ay, by) - JUDGE_REACH - CROWD_MARGIN, yhi = Math.max(ay, by) + 2 * JUDGE_REACH + CROWD_MARGIN;
  const fi0 = cellAt(xlo, X0, CELL, NX), fi1 = cellAt(xhi, X0, CELL, NX), fj0 = cellAt(zlo, Z0, CELL, NZ), fj1 = cellAt(zhi, Z0, CELL, NZ);
  let across: i32 = -1;
  const ex = bx - ax, ez = bz - az;
  const stamp = <u16>rideSeenStamp();
  if (!(fi0 == fi0 && fi1 == fi1 && fj0 == fj0 && fj1 == fj1)) return 0;
  const i0 = <i32>fi0, i1 = <i32>fi1, j0 = <i32>fj0, j1 = <i32>fj1;
  const hl = Math.sqrt(ex * ex + ez * ez), lx = hl > 0 ? ex / hl : 0, lz = hl > 0 ? ez / hl : 0;
  const off = hl > 0 ? 2 * (r + tax + taz + tbx + tbz) : Infinity, offBelow = -off;
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const cx0 = i == 0 ? -Infinity : X0 + <f64>i * CELL - r, cx1 = i == NX - 1 ? Infinity : X0 + <f64>(i + 1) * CELL + r;
      const cz0 = j == 0 ? -Infinity : Z0 + <f64>j * CELL - r, cz1 = j == NZ - 1 ? Infinity : Z0 + <f64>(j + 1) * CELL + r;
      if (!segmentMeetsBox(ax, az, ex, ez, cx0, cz0, cx1, cz1)) continue;
      const cell = j * NX + i;
      let u: i32 = -1;
      for (let e = load<u32>(START + (<usize>cell << 2)), end = load<u32>(START + (<usize>(cell + 1) << 2)); e < end; ) {
        let byte = <u32>load<u8>(ITEMS + <usize>e); e++;
        let gap = byte & 0x7f;
        for (let m: u32 = 7; byte > 0x7f; m += 7) { byte = <u32>load<u8>(ITEMS + <usize>e); e++; gap += (byte & 0x7f) << m; }
        u += <i32>gap + 1;
        const sp = SEEN + (<usize>u << 1);
        if (u == t || load<u16>(sp) == stamp) continue;
        store<u16>(sp, stamp);
        const cu = C + (<usize>(3 * u) << 2);
        const u0 = load<u32>(cu), u1 = load<u32>(cu, 4), u2 = load<u32>(cu, 8), p0 = 3 * u0, p1 = 3 * u1, p2 = 3 * u2;
        const x0 = vx(p0), x1 = vx(p1), x2 = vx(p2), z0 = vx(p0 + 2), z1 = vx(p1 + 2), z2 = vx(p2 + 2);
        // Clear of the edge's box. quiet.ts's test (max3(x0, x1, x2) < xlo, …) is the same as all three below
        // without a NaN, tested without a branch a corner (max3 and min3 take two each, mispredicted often); a face
        // with a NaN takes quiet.ts's test itself (which of its corners max3 picks decides).
        if ((<i32>(x0 != x0) | <i32>(x1 != x1) | <i32>(x2 != x2) | <i32>(z0 != z0) | <i32>(z1 != z1) | <i32>(z2 != z2)) != 0) {
          if (max3(x0, x1, x2) < xlo || min3(x0, x1, x2) > xhi || max3(z0, z1, z2) < zlo || min3(z0, z1, z2) > zhi) continue;
        } else if (((<i32>(x0 < xlo) & <i32>(x1 < xlo) & <i32>(x2 < xlo)) | (<i32>(x0 > xhi) & <i32>(x1 > xhi) & <i32>(x2 > xhi))
          | (<i32>(z0 < zlo) & <i32>(z1 < zlo) & <i32>(z2 < zlo)) | (<i32>(z0 > zhi) & <i32>(z1 > zhi) & <i32>(z2 > zhi))) != 0) continue;
        const s0 = (x0 - ax) * lz - (z0 - az) * lx, s1 = (x1 - ax) * lz - (z1 - az) * lx, s2 = (x2 - ax) * lz - (z2 - az) * lx;
        if ((s0 > off && s1 > off && s2 > off) || (s0 < offBelow && s1 < offBelow && s2 < offBelow)) continue;
        const y0 = vx(p0 + 1), y1 = vx(p1 + 1), y2 = vx(p2 + 1);
        // Which corners are the edge's start (bits of isA) and end (isB): quiet.ts's tests without a branch each.
        const isA = (<u32>(u0 == va) | (<u32>(Math.abs(x0 - ax) <= tax) & <u32>(Math.abs(y0 - ay) <= tay) & <u32>(Math.abs(z0 - az) <= taz)))
          | ((<u32>(u1 == va) | (<u32>(Math.abs(x1 - ax) <= tax) & <u32>(Math.abs(y1 - ay) <= tay) & <u32>(Math.abs(z1 - az) <= taz))) << 1)
          | ((<u32>(u2 == va) | (<u32>(Math.abs(x2 - ax) <= tax) & <u32>(Math.abs(y2 - ay) <= tay) & <u32>(Math.abs(z2 - az) <= taz))) << 2);
        const isB = (<u32>(u0 == vb) | (<u32>(Math.abs(x0 - bx) <= tbx) & <u32>(Math.abs(y0 - by) <= tby) & <u32>(Math.abs(z0 - bz) <= tbz)))
          | ((<u32>(u1 == vb) | (<u32>(Math.abs(x1 - bx) <= tbx) & <u32>(Math.abs(y1 - by) <= tby) & <u32>(Math.abs(z1 - bz) <= tbz))) << 1)
          | ((<u32>(u2 == vb) | (<u32>(Math.abs(x2 - bx) <= tbx) & <u32>(Math.abs(y2 - by) <= tby) & <u32>(Math.abs(z2 - bz) <= tbz))) << 2);
        // Across: a corner at the end whose next is at the start (bit c of isB and of isA turned back one corner),
        // the first such, as quiet.ts takes it; running the edge the same way: a corner at the start, the next at the end.
        const across3 = isB & ((isA >> 1) | ((isA & 1) << 2));
        if (across3 != 0) {
          if (across >= 0) return 0;
          across = u;
          ACROSS_CORNER = 3 * u + <i32>ctz(across3);
          continue;
        }
        if ((isA & ((isB >> 1) | ((isB & 1) << 2))) != 0) return 0;
        if ((isA | isB) != 0 || (<u32>load<u16>(FB + (<usize>u << 1)) & FACE_WALKABLE) == 0) continue;
        if (max3(y0, y1, y2) < ylo || min3(y0, y1, y2) > yhi) continue;
        if (segmentNearTriangle(ax, az, bx, bz, x0, z0, x1, z1, x2, z2, r * r)) return 0;
      }
    }
  }
  if (across < 0) return 0;
  // The two normals (faceNormal's arithmetic), the face across first: a degenerate one has no fold.
  normal(across);
  const n3 = NX_, n4 = NY_, n5 = NZ_;
  if (n3 == 0 && n4 == 0 && n5 == 0) return 0;
  normal(t);
  DOT = NX_ * n3 + NY_ * n4 + NZ_ * n5;
  return 1;
}

/** Face t's unit normal into NX_ NY_ NZ_ (faceNormalAt's, over this world). */
let NX_: f64 = 0, NY_: f64 = 0, NZ_: f64 = 0;
@inline function normal(t: i32): void {
  faceNormalAt(V, C, t);
  NX_ = FACE_NX; NY_ = FACE_NY; NZ_ = FACE_NZ;
}

function segmentMeetsBox(ax: f64, az: f64, ex: f64, ez: f64, x0: f64, z0: f64, x1: f64, z1: f64): bool {
  let lo: f64 = 0, hi: f64 = 1;
  if (ex == 0) {
    if (ax < x0 || ax > x1) return false;
  } else {
    let s = (x0 - ax) / ex, t = (x1 - ax) / ex;
    if (s > t) { const u = s; s = t; t = u; }
    if (s > lo) lo = s;
    if (t < hi) hi = t;
  }
  if (ez == 0) {
    if (az < z0 || az > z1) return false;
  } else {
    let s = (z0 - az) / ez, t = (z1 - az) / ez;
    if (s > t) { const u = s; s = t; t = u; }
    if (s > lo) lo = s;
    if (t < hi) hi = t;
  }
  return lo <= hi;
}

function pointSegment2(px: f64, pz: f64, ax: f64, az: f64, bx: f64, bz: f64): f64 {
  const ex = bx - ax, ez = bz - az, l = ex * ex + ez * ez;
  const s = l > 0 ? Math.max(0, Math.min(1, ((px - ax) * ex + (pz - az) * ez) / l)) : 0;
  const dx = ax + s * ex - px, dz = az + s * ez - pz;
  return dx * dx + dz * dz;
}

function segmentsCross(ax: f64, az: f64, bx: f64, bz: f64, cx: f64, cz: f64, dx: f64, dz: f64): bool {
  const o1 = (bx - ax) * (cz - az) - (bz - az) * (cx - ax), o2 = (bx - ax) * (dz - az) - (bz - az) * (dx - ax);
  const o3 = (dx - cx) * (az - cz) - (dz - cz) * (ax - cx), o4 = (dx - cx) * (bz - cz) - (dz - cz) * (bx - cx);
  if (o1 == 0 && o2 == 0) {
    return Math.max(ax, bx) >= Math.min(cx, dx) && Math.max(cx, dx) >= Math.min(ax, bx) && Math.max(az, bz) >= Math.min(cz, dz) && Math.max(cz, dz) >= Math.min(az, bz);
  }
  return ((o1 <= 0 && o2 >= 0) || (o1 >= 0 && o2 <= 0)) && ((o3 <= 0 && o4 >= 0) || (o3 >= 0 && o4 <= 0));
}

function endInTriangle(x: f64, z: f64, px: f64, pz: f64, qx: f64, qz: f64, rx: f64, rz: f64): bool {
  const d1 = (qx - px) * (z - pz) - (qz - pz) * (x - px), d2 = (rx - qx) * (z - qz) - (rz - qz) * (x - qx), d3 = (px - rx) * (z - rz) - (pz - rz) * (x - rx);
  return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
}

function segmentNearTriangle(ax: f64, az: f64, bx: f64, bz: f64, px: f64, pz: f64, qx: f64, qz: f64, rx: f64, rz: f64, r2: f64): bool {
  if (endInTriangle(ax, az, px, pz, qx, qz, rx, rz) || endInTriangle(bx, bz, px, pz, qx, qz, rx, rz)) return true;
  if (segmentsCross(ax, az, bx, bz, px, pz, qx, qz) || segmentsCross(ax, az, bx, bz, qx, qz, rx, rz) || segmentsCross(ax, az, bx, bz, rx, rz, px, pz)) return true;
  return (
    pointSegment2(ax, az, px, pz, qx, qz) <= r2 || pointSegment2(ax, az, qx, qz, rx, rz) <= r2 || pointSegment2(ax, az, rx, rz, px, pz) <= r2 ||
    pointSegment2(bx, bz, px, pz, qx, qz) <= r2 || pointSegment2(bx, bz, qx, qz, rx, rz) <= r2 || pointSegment2(bx, bz, rx, rz, px, pz) <= r2 ||
    pointSegment2(px, pz, ax, az, bx, bz) <= r2 || pointSegment2(qx, qz, ax, az, bx, bz) <= r2 || pointSegment2(rx, rz, ax, az, bx, bz) <= r2
  );
}

// The walkable surface under a point (src/ride/surface.ts surfaceUnder: the rule), over grid cell c's faces: the
// same walk, the same barycentric test and plane height (heightOnFace), the same choice.

const FACE_WALKABLE_BIT: u32 = 1 << 9;
/** rideSurface's answers (rideSurfaceIO): the surface's height, then the faces the look-up visited (f64 each). */
let IO: usize = 0;

/** Where rideSurface writes its height and visits (16 bytes). */
export function rideSurfaceIO(io: usize): void {
  IO = io;
}

/** heightOnFace: the height of face t's plane at (x, z) when (x, z) lies on its x/z projection (within 1e-9), else NaN. */
export function heightOnFace(t: i32, x: f64, z: f64): f64 {
  const c = C + (<usize>(3 * t) << 2);
  const A = 3 * load<u32>(c), B = 3 * load<u32>(c, 4), D = 3 * load<u32>(c, 8);
  const ax = vx(A), az = vx(A + 2), bx = vx(B), bz = vx(B + 2), cx = vx(D), cz = vx(D + 2);
  const d = (bz - cz) * (ax - cx) + (cx - bx) * (az - cz);
  if (Math.abs(d) < 1e-14) return NaN;
  const l1 = ((bz - cz) * (x - cx) + (cx - bx) * (z - cz)) / d;
  const l2 = ((cz - az) * (x - cx) + (ax - cx) * (z - cz)) / d;
  const l3 = 1 - l1 - l2;
  const e: f64 = -1e-9;
  if (l1 < e || l2 < e || l3 < e) return NaN;
  return l1 * vx(A + 1) + l2 * vx(B + 1) + l3 * vx(D + 1);
}

/**
 * surfaceUnder's walk of grid cell c for the point (x, z) at height y: the walkable face whose plane there is nearest
 * to y within ±reach (`top` ≠ 0: the highest within ±reach), or −1; its height and the faces visited at IO.
 */
export function rideSurface(c: i32, x: f64, z: f64, y: f64, reach: f64, top: i32): i32 {
  let best: i32 = -1, bestY: f64 = 0, bestD: f64 = Infinity;
  let visits: i32 = 0, t: i32 = -1;
  for (let e = load<u32>(START + (<usize>c << 2)), end = load<u32>(START + (<usize>(c + 1) << 2)); e < end; ) {
    let byte = <u32>load<u8>(ITEMS + <usize>e); e++;
    let gap = byte & 0x7f;
    for (let m: u32 = 7; byte > 0x7f; m += 7) { byte = <u32>load<u8>(ITEMS + <usize>e); e++; gap += (byte & 0x7f) << m; }
    t += <i32>gap + 1;
    visits++;
    if ((<u32>load<u16>(FB + (<usize>t << 1)) & FACE_WALKABLE_BIT) == 0) continue;
    const h = heightOnFace(t, x, z);
    if (h != h) continue;
    const dist = Math.abs(h - y);
    if (dist <= reach && (top ? best < 0 || h > bestY : dist < bestD)) {
      bestD = dist;
      bestY = h;
      best = t;
    }
  }
  store<f64>(IO, bestY);
  store<f64>(IO, <f64>visits, 8);
  return best;
}
