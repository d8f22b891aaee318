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
// faces that are each other's reverse (back to back) are never paired. The match runs in WebAssembly
// (assembly/seams.ts; FLAT_COS and the convex value's slow path come from JavaScript, as for the shapes).
//
// Why the open corners and not every triangle: the work is proportional to the cuts (the 1M bench level: ~47,000
// listed corners instead of 3 million), and no code depends on a neighbouring job, so a resource's bytes before
// the join depend on its own triangles only (the cache keys them so). The one difference from a weld of the whole
// level first: an edge paired inside one shape plus two more faces elsewhere that run it (4+ faces on one edge)
// joins those two; the whole-level rule would leave them open. The shape's own pair is kept either way.

import { FLAT_COS, SEAM_CONCAVE, SEAM_FLAT } from './edge-rule.ts';
import type { OpenCorners } from './encode.ts';
import { encoderWasm, WasmLayout, withEncoder } from './wasm.ts';
import { keyOf } from './f32-keys.ts';

export interface SeamMatch {
  /** Per list, per listed corner: its level-wide code (edge-rule.ts SEAM_*, or the convex value; SEAM_NONE: open). */
  codes: Float32Array[];
  /** Listed corners with no single opposite corner in the level: the level's open edges as authored. */
  openCorners: number;
  /** Listed corners that took a code (joined across a cut; a pair counts two). */
  joined: number;
}

/** Corners per call into the match (assembly/seams.ts matchBegin says why it is called in chunks). */
const MATCH_CHUNK = 4096;

/**
 * The level-wide codes of every listed corner (see the file header), computed in WebAssembly (assembly/seams.ts).
 * Lists are taken in order (a resource's shapes, resources in job order), which fixes each pair's classification
 * order: the result does not depend on how many threads encoded them.
 */
export function matchSeams(lists: OpenCorners[]): SeamMatch {
  let n = 0;
  for (const l of lists) {
    if (l.points.length !== 9 * l.corner.length) throw new Error(`seams: ${l.points.length} point values for ${l.corner.length} corners`);
    n += l.corner.length;
  }
  const all = new Float32Array(n);
  const r = withEncoder(`seams: ${n} open corners`, () => {
    const m = new WasmLayout(encoderWasm());
    const pPoints = m.take(36 * n), pCodes = m.take(4 * n);
    const buf = m.commit();
    let at = pPoints;
    for (const l of lists) {
      new Float32Array(buf, at, l.points.length).set(l.points);
      at += 4 * l.points.length;
    }
    const w = m.w;
    w.matchBegin(n, pPoints, pCodes, m.end(), FLAT_COS);
    for (let i = 0; i < n; i += MATCH_CHUNK) w.matchInsert(i, Math.min(n, i + MATCH_CHUNK));
    for (let i = 0; i < n; i += MATCH_CHUNK) w.matchPair(i, Math.min(n, i + MATCH_CHUNK), pPoints, pCodes);
    all.set(new Float32Array(m.w.memory.buffer, pCodes, n));
    return { openCorners: m.w.matchResult(0), joined: m.w.matchResult(1) };
  });
  const codes: Float32Array[] = [];
  let at = 0;
  for (const l of lists) codes.push(all.subarray(at, (at += l.corner.length)));
  return { codes, ...r };
}

/** A corner's stored edge data for a code: value (1.0 unless convex) and its two bits. */
export function seamEdge(code: number): { value: number; concave: boolean; flat: boolean } {
  return { value: code >= 0 ? code : 1, concave: code === SEAM_CONCAVE, flat: code === SEAM_FLAT };
}

/**
 * Steps, in f32 units in the last place, that a join's level-wide convex value may lie from the value carried for
 * its edge and take the carried one instead (carrySeamValues; docs/format-decisions.md, "Seams carried through a
 * round trip"). The joins a round trip misses differ by 1–92 steps (city-blocks, cells, --seams level); an edit
 * that moves a face by a millimetre changes them by thousands.
 */
export const SEAM_CARRY_ULPS = 256;

/** Numbers per carried join: the edge's two ends (a then b, world f32 values, x y z) and its stored convex value. */
export const SEAM_CARRY_STRIDE = 7;

const edgeKey = (p: ArrayLike<number>, at: number): string => {
  let k = '';
  for (let i = 0; i < 6; i++) k += `${keyOf(p[at + i])},`;
  return k;
};

/**
 * The convex values a round trip carries (to-gltf: the stored values of the joins its world values do not give
 * back) put in place of the codes matched for the same edges (a → b, f32 values equal, −0.0 = 0.0) where both are
 * convex values at most SEAM_CARRY_ULPS apart: the file's own value comes back, an edited join does not take it.
 * `carried` holds SEAM_CARRY_STRIDE numbers a join. Changes `codes` in place; returns how many it changed.
 */
export function carrySeamValues(lists: OpenCorners[], codes: Float32Array[], carried: ArrayLike<number>): number {
  if (carried.length === 0) return 0;
  const want = new Map<string, number>();
  for (let i = 0; i + SEAM_CARRY_STRIDE <= carried.length; i += SEAM_CARRY_STRIDE) want.set(edgeKey(carried, i), Math.fround(carried[i + 6]));
  let changed = 0;
  lists.forEach((l, s) => {
    const c = codes[s];
    for (let i = 0; i < l.corner.length; i++) {
      if (!(c[i] >= 0)) continue;
      const v = want.get(edgeKey(l.points, 9 * i));
      if (v === undefined || !(v >= 0) || Object.is(v, c[i]) || Math.abs(keyOf(v) - keyOf(c[i])) > SEAM_CARRY_ULPS) continue;
      c[i] = v;
      changed++;
    }
  });
  return changed;
}
