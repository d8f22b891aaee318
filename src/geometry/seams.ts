// Level-wide edge data (issue 12; ../shared/spec/physics-resource.md, "Triangle-mesh shapes"; decision and reasoning
// in docs/format-decisions.md, "Seams"). The spec's edge rule is per corner: a corner's edge value and bits come
// from the single face across its edge. Shape by shape, every place where the compiler cuts the level — part per
// material, the u16 split, resource per object, collision_area cell — leaves corners with no opposite face in their
// shape, stored as open edges (ghost bumps). Each shape is encoded by the reference rule alone (its bytes are the
// reference encoder's) and lists the corners it leaves unpaired (encode.ts OpenCorners); matchSeams then runs the
// same rule over those corners of the whole level: exact-position keys (f32 bits, −0.0 = 0.0), a directed edge a→b
// paired when it and b→a are each held by exactly one of them, the classification on world positions. A corner
// paired inside its shape never takes part, so a shape's own pairs stay exactly the reference's; corners its shape
// leaves open because the edge has 3+ corners there are listed too, and keep their edge unpaired level-wide. Two
// faces that are each other's reverse (back to back) are never paired.
//
// Why the open corners and not every triangle: the work is proportional to the cuts (the 1M bench level: ~47,000
// listed corners instead of 3 million), and no code depends on a neighbouring job, so a resource's bytes before
// the join depend on its own triangles only (the cache keys them so). The one difference from a weld of the whole
// level first: an edge paired inside one shape plus two more faces elsewhere that run it (4+ faces on one edge)
// joins those two; the whole-level rule would leave them open. The shape's own pair is kept either way.

import { convexValue, FLAT_COS, SEAM_CONCAVE, SEAM_FLAT, SEAM_NONE, SEAM_SHARP } from './edge-rule.ts';
import type { OpenCorners } from './encode.ts';

export interface SeamMatch {
  /** Per list, per listed corner: its level-wide code (edge-rule.ts SEAM_*, or the convex value; SEAM_NONE: open). */
  codes: Float32Array[];
  /** Listed corners with no single opposite corner in the level: the level's open edges as authored. */
  openCorners: number;
  /** Listed corners that took a code (joined across a cut; a pair counts two). */
  joined: number;
}

/** Bucket hash of a directed edge's six keys (picks the slot only; equality is exact). */
function hash6(k: Uint32Array, at: number, bt: number): number {
  let h = Math.imul(k[at] ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ k[at + 1] ^ (h >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ k[at + 2] ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ k[bt] ^ (h >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ k[bt + 1] ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ k[bt + 2] ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const sameKey = (k: Uint32Array, p: number, q: number): boolean => k[p] === k[q] && k[p + 1] === k[q + 1] && k[p + 2] === k[q + 2];

/**
 * The level-wide codes of every listed corner (see the file header). Lists are taken in order (a resource's
 * shapes, resources in job order), which fixes each pair's classification order: the result does not depend on
 * how many threads encoded them.
 */
export function matchSeams(lists: OpenCorners[]): SeamMatch {
  let n = 0;
  for (const l of lists) n += l.corner.length;
  const points = new Float32Array(9 * n);
  let at = 0;
  for (const l of lists) {
    if (l.points.length !== 9 * l.corner.length) throw new Error(`seams: ${l.points.length} point values for ${l.corner.length} corners`);
    points.set(l.points, at);
    at += l.points.length;
  }
  // The keys: f32 bits, −0.0 as 0.0 (the weld's rule, assembly/weld.ts keyOf).
  const k = new Uint32Array(points.buffer.slice(0));
  for (let i = 0; i < k.length; i++) if (k[i] === 0x80000000) k[i] = 0;
  // Directed edges a → b numbered in a table of (first corner + 1) slots, with how many corners hold each.
  let cap = 2;
  while (cap < 2 * n) cap *= 2;
  const mask = cap - 1;
  const first = new Int32Array(cap), held = new Int32Array(cap), slot = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = 9 * i;
    let h = hash6(k, p, p + 3) & mask;
    for (;;) {
      const f = first[h];
      if (f === 0) { first[h] = i + 1; held[h] = 1; break; }
      const q = 9 * (f - 1);
      if (sameKey(k, p, q) && sameKey(k, p + 3, q + 3)) { held[h]++; break; }
      h = (h + 1) & mask;
    }
    slot[i] = h;
  }
  const codes = new Float32Array(n).fill(SEAM_NONE);
  let open = 0, joined = 0;
  for (let i = 0; i < n; i++) {
    const o = held[slot[i]] === 1 ? reverseOf(k, first, held, mask, i) : -1;
    // Faces that are each other's reverse (the same three vertices: two objects or parts laid back to back) are not
    // paired: each keeps what its own shape writes.
    if (o < 0 || sameKey(k, 9 * i + 6, 9 * o + 6)) { open++; continue; }
    if (o > i) classify(points, i, o, codes);
    if (codes[i] !== SEAM_NONE) joined++;
    else open++;
  }
  const out: Float32Array[] = [];
  at = 0;
  for (const l of lists) out.push(codes.subarray(at, (at += l.corner.length)));
  return { codes: out, openCorners: open, joined };
}

/** The single corner holding b → a for corner i's a → b, or −1 (none, or more than one). */
function reverseOf(k: Uint32Array, first: Int32Array, held: Int32Array, mask: number, i: number): number {
  const p = 9 * i;
  let h = hash6(k, p + 3, p) & mask;
  for (;;) {
    const f = first[h];
    if (f === 0) return -1;
    const q = 9 * (f - 1);
    if (sameKey(k, p + 3, q) && sameKey(k, p, q + 3)) return held[h] === 1 ? f - 1 : -1;
    h = (h + 1) & mask;
  }
}

/** Unit Newell normal (zero for no area) and centroid of corner i's face, relative to (ox, oy, oz), f64. */
function faceOf(points: Float32Array, i: number, ox: number, oy: number, oz: number, out: Float64Array): void {
  const p = 9 * i;
  const px = points[p] - ox, py = points[p + 1] - oy, pz = points[p + 2] - oz;
  const qx = points[p + 3] - ox, qy = points[p + 4] - oy, qz = points[p + 5] - oz;
  const rx = points[p + 6] - ox, ry = points[p + 7] - oy, rz = points[p + 8] - oz;
  let nx = 0, ny = 0, nz = 0;
  nx += (py - qy) * (pz + qz); ny += (pz - qz) * (px + qx); nz += (px - qx) * (py + qy);
  nx += (qy - ry) * (qz + rz); ny += (qz - rz) * (qx + rx); nz += (qx - rx) * (qy + ry);
  nx += (ry - py) * (rz + pz); ny += (rz - pz) * (rx + px); nz += (rx - px) * (ry + py);
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (len > 0) { out[0] = nx / len; out[1] = ny / len; out[2] = nz / len; }
  else { out[0] = 0; out[1] = 0; out[2] = 0; }
  out[3] = (px + qx + rx) / 3; out[4] = (py + qy + ry) / 3; out[5] = (pz + qz + rz) / 3;
}

const F = new Float64Array(6), G = new Float64Array(6);

/**
 * The shape rule for the pair (c: a → b, o: b → a) on world positions, origin a: both codes, or none when a face
 * has no area. Flat within FLAT_COS; otherwise a corner whose neighbour's centroid is on or above its plane is
 * concave (d > 0) or sharp, else convex with f32 cos(acos(d)/2).
 */
function classify(points: Float32Array, c: number, o: number, codes: Float32Array): void {
  const ax = points[9 * c], ay = points[9 * c + 1], az = points[9 * c + 2];
  faceOf(points, c, ax, ay, az, F);
  faceOf(points, o, ax, ay, az, G);
  if ((F[0] === 0 && F[1] === 0 && F[2] === 0) || (G[0] === 0 && G[1] === 0 && G[2] === 0)) return;
  const dot = F[0] * G[0] + F[1] * G[1] + F[2] * G[2];
  if (dot >= FLAT_COS) { codes[c] = SEAM_FLAT; codes[o] = SEAM_FLAT; return; }
  const d = dot < -1 ? -1 : dot;
  // o's own vertex is b.
  const bx = points[9 * o] - ax, by = points[9 * o + 1] - ay, bz = points[9 * o + 2] - az;
  const aboveC = G[3] * F[0] + G[4] * F[1] + G[5] * F[2] >= 0;
  const aboveO = (F[3] - bx) * G[0] + (F[4] - by) * G[1] + (F[5] - bz) * G[2] >= 0;
  const value = !aboveC || !aboveO ? convexValue(d) : 1;
  codes[c] = aboveC ? (d > 0 ? SEAM_CONCAVE : SEAM_SHARP) : value;
  codes[o] = aboveO ? (d > 0 ? SEAM_CONCAVE : SEAM_SHARP) : value;
}

/** A corner's stored edge data for a code: value (1.0 unless convex) and its two bits. */
export function seamEdge(code: number): { value: number; concave: boolean; flat: boolean } {
  return { value: code >= 0 ? code : 1, concave: code === SEAM_CONCAVE, flat: code === SEAM_FLAT };
}
