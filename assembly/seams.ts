// AssemblyScript source of the level-wide seams' match (src/geometry/seams.ts gives the rule and keeps the entry
// point; docs/format-decisions.md, "Seams"): over the corners every shape of the level left unpaired, a directed
// edge a→b pairs when it and b→a are each held by exactly one of them (exact f32 keys, −0.0 = 0.0), unless the two
// faces are each other's reverse; each pair is classified by the shape rule on world positions. Every corner is
// inserted before any is paired; pairs are found from their lower corner, which classifies both.

import { alloc, allocZeroed, resetArena } from './arena';
import { convexValueFast } from './edges';
import { nextPow2 } from './weld';

/** Codes (src/geometry/edge-rule.ts SEAM_*): convex values are ≥ 0. */
const SEAM_NONE: f32 = -1;
const SEAM_FLAT: f32 = -2;
const SEAM_CONCAVE: f32 = -3;
const SEAM_SHARP: f32 = -4;

let R_OPEN: i32 = 0;
let R_JOINED: i32 = 0;

export function matchResult(k: i32): i32 {
  return k == 0 ? R_OPEN : R_JOINED;
}

let FLAT_COS: f64 = 0;

@inline function keyAt(k: usize, i: i32): u32 {
  return load<u32>(k + (<usize>i << 2));
}

/** Bucket hash of six keys at p (edge a → b) or, swapped, b → a (picks the slot only; equality is exact). */
@inline function hash6(k: usize, p: i32, q: i32): u32 {
  let h: u32 = (keyAt(k, p) ^ 0x9e3779b9) * 0x85ebca6b;
  h = (h ^ keyAt(k, p + 1) ^ (h >> 13)) * 0xc2b2ae35;
  h = (h ^ keyAt(k, p + 2) ^ (h >> 16)) * 0x85ebca6b;
  h = (h ^ keyAt(k, q) ^ (h >> 13)) * 0xc2b2ae35;
  h = (h ^ keyAt(k, q + 1) ^ (h >> 16)) * 0x85ebca6b;
  h = (h ^ keyAt(k, q + 2) ^ (h >> 13)) * 0xc2b2ae35;
  return h ^ (h >> 16);
}

@inline function same3(k: usize, p: i32, q: i32): bool {
  return keyAt(k, p) == keyAt(k, q) && keyAt(k, p + 1) == keyAt(k, q + 1) && keyAt(k, p + 2) == keyAt(k, q + 2);
}

/** The match's tables between calls (matchBegin, then matchInsert and matchPair over chunks of corners). */
let K: usize = 0, TABLE: usize = 0, SLOT: usize = 0, MASK: u32 = 0;

/**
 * n listed corners: points (9 f32 each: the corner's vertex a, the next vertex b, the third vertex), codes (n f32
 * out, set to SEAM_NONE here). arena: free memory for the keys and table. Then matchInsert over every corner, then
 * matchPair over every corner, in order, each in calls of a few thousand corners (V8 runs a wasm function's first
 * calls in its baseline compiler; later calls take the optimised code), counts through matchResult.
 */
export function matchBegin(n: i32, points: usize, codes: usize, arena: usize, flatCos: f64): void {
  resetArena(arena);
  FLAT_COS = flatCos;
  R_OPEN = 0;
  R_JOINED = 0;
  K = alloc(<usize>(36 * n));
  for (let i = 0; i < 9 * n; i++) {
    const b = load<u32>(points + (<usize>i << 2));
    store<u32>(K + (<usize>i << 2), b == 0x80000000 ? 0 : b);
  }
  const cap = nextPow2(2 * n);
  MASK = <u32>(cap - 1);
  // Slots: first corner + 1, how many corners hold the edge.
  TABLE = allocZeroed(<usize>cap << 3);
  SLOT = alloc(<usize>n << 2);
  for (let i = 0; i < n; i++) store<f32>(codes + (<usize>i << 2), SEAM_NONE);
}

/** Corners [from, to) into the table of directed edges. */
export function matchInsert(from: i32, to: i32): void {
  const k = K, table = TABLE, mask = MASK;
  for (let i = from; i < to; i++) {
    const p = 9 * i;
    let h = hash6(k, p, p + 3) & mask;
    for (;;) {
      const sp = table + (<usize>h << 3);
      const f = load<i32>(sp);
      if (f == 0) { store<i32>(sp, i + 1); store<i32>(sp, 1, 4); break; }
      const q = 9 * (f - 1);
      if (same3(k, p, q) && same3(k, p + 3, q + 3)) { store<i32>(sp, load<i32>(sp, 4) + 1, 4); break; }
      h = (h + 1) & mask;
    }
    store<u32>(SLOT + (<usize>i << 2), h);
  }
}

/** Corners [from, to): each pair classified once (at its lower corner), counted. */
export function matchPair(from: i32, to: i32, points: usize, codes: usize): void {
  const k = K;
  let open = 0, joined = 0;
  for (let i = from; i < to; i++) {
    const held = load<i32>(TABLE + (<usize>load<u32>(SLOT + (<usize>i << 2)) << 3), 4);
    const o = held == 1 ? reverseOf(k, TABLE, MASK, i) : -1;
    if (o < 0 || same3(k, 9 * i + 6, 9 * o + 6)) { open++; continue; }
    if (o > i) classify(points, i, o, codes);
    if (load<f32>(codes + (<usize>i << 2)) != SEAM_NONE) joined++;
    else open++;
  }
  R_OPEN += open;
  R_JOINED += joined;
}

/** The single corner holding b → a for corner i's a → b, or −1 (none, or more than one). */
function reverseOf(k: usize, table: usize, mask: u32, i: i32): i32 {
  const p = 9 * i;
  let h = hash6(k, p + 3, p) & mask;
  for (;;) {
    const sp = table + (<usize>h << 3);
    const f = load<i32>(sp);
    if (f == 0) return -1;
    const q = 9 * (f - 1);
    if (same3(k, p + 3, q) && same3(k, p, q + 3)) return load<i32>(sp, 4) == 1 ? f - 1 : -1;
    h = (h + 1) & mask;
  }
  return -1; // not reached: the table always has an empty slot
}

// faceOf's results.
let NX: f64 = 0, NY: f64 = 0, NZ: f64 = 0, CX: f64 = 0, CY: f64 = 0, CZ: f64 = 0;

/** Newell's unit normal (zero for no length) and centroid of corner i's face, relative to (ox, oy, oz). */
function faceOf(points: usize, i: i32, ox: f64, oy: f64, oz: f64): void {
  const p = points + <usize>(36 * i);
  const px = <f64>load<f32>(p) - ox, py = <f64>load<f32>(p, 4) - oy, pz = <f64>load<f32>(p, 8) - oz;
  const qx = <f64>load<f32>(p, 12) - ox, qy = <f64>load<f32>(p, 16) - oy, qz = <f64>load<f32>(p, 20) - oz;
  const rx = <f64>load<f32>(p, 24) - ox, ry = <f64>load<f32>(p, 28) - oy, rz = <f64>load<f32>(p, 32) - oz;
  let nx: f64 = 0, ny: f64 = 0, nz: f64 = 0;
  nx += (py - qy) * (pz + qz); ny += (pz - qz) * (px + qx); nz += (px - qx) * (py + qy);
  nx += (qy - ry) * (qz + rz); ny += (qz - rz) * (qx + rx); nz += (qx - rx) * (qy + ry);
  nx += (ry - py) * (rz + pz); ny += (rz - pz) * (rx + px); nz += (rx - px) * (ry + py);
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (len > 0) { NX = nx / len; NY = ny / len; NZ = nz / len; }
  else { NX = 0; NY = 0; NZ = 0; }
  CX = (px + qx + rx) / 3; CY = (py + qy + ry) / 3; CZ = (pz + qz + rz) / 3;
}

/** The shape rule (edges.ts classifyAll) for the pair (c: a → b, o: b → a), origin a; both codes written. */
function classify(points: usize, c: i32, o: i32, codes: usize): void {
  const a = points + <usize>(36 * c), b = points + <usize>(36 * o);
  const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8);
  faceOf(points, c, ax, ay, az);
  const fx = NX, fy = NY, fz = NZ, fcx = CX, fcy = CY, fcz = CZ;
  faceOf(points, o, ax, ay, az);
  const gx = NX, gy = NY, gz = NZ, gcx = CX, gcy = CY, gcz = CZ;
  if ((fx == 0 && fy == 0 && fz == 0) || (gx == 0 && gy == 0 && gz == 0)) return;
  const cp = codes + (<usize>c << 2), op = codes + (<usize>o << 2);
  const dot = fx * gx + fy * gy + fz * gz;
  if (dot >= FLAT_COS) { store<f32>(cp, SEAM_FLAT); store<f32>(op, SEAM_FLAT); return; }
  const d = dot < -1 ? -1 : dot;
  // o's own vertex is b.
  const bx = <f64>load<f32>(b) - ax, by = <f64>load<f32>(b, 4) - ay, bz = <f64>load<f32>(b, 8) - az;
  const aboveC = gcx * fx + gcy * fy + gcz * fz >= 0;
  const aboveO = (fcx - bx) * gx + (fcy - by) * gy + (fcz - bz) * gz >= 0;
  const value = !aboveC || !aboveO ? <f32>convexValueFast(d) : <f32>1;
  store<f32>(cp, aboveC ? (d > 0 ? SEAM_CONCAVE : SEAM_SHARP) : value);
  store<f32>(op, aboveO ? (d > 0 ? SEAM_CONCAVE : SEAM_SHARP) : value);
}
