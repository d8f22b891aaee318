// Collision-grade simplification of parts too dense to grind (--simplify METRES): meshoptimizer's simplifier with an
// absolute error in metres, open borders and grind creases locked. Where the density cut cannot help (a 1 m statue of
// 10,000 triangles stays over the game's limit at any size worth a part, src/geometry/grind-cut.ts), fewer triangles
// is the only way its creases can grind. Rule and reasoning: docs/format-decisions.md, "Simplify".
//
// - Only a group (one material: one part) over GRIND_DENSITY_LIMIT that the density cut (at `cutTarget`; 0: the cut
//   is off) cannot bring under its target everywhere is touched; every other comes back unchanged.
// - The simplifier sees the group welded by exact position (vertices split at UV or normal seams are one vertex), so
//   a seam is not a border; its output indices name each welded vertex by its first copy in the object's own
//   positions, which are never changed or added to: every kept vertex is an input vertex, bit for bit.
// - Locked: the open border (LockBorder: the part keeps its outline, so it still meets its neighbours) and the grind
//   creases (convex, at or over the crease angle): their ends, bends and junctions are locked; a vertex in the middle
//   of a straight run may only collapse along it within the error, so each crease stays where it was.
// - Target: as few triangles as the error allows (target index count 0); the error reached is reported.
// The simplifier's own entry: the compiler bundle maps the package's root to its decoder alone (scripts/bundle-compiler.mjs).
import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import { GRIND_DENSITY_LIMIT } from '../format/grind-map.ts';
import { isGrindCrease } from './crease.ts';
import { densityCut, subsetDensity } from './grind-cut.ts';
import { MAX_SHAPE_FACES } from './encode.ts';

/** Most metres the simplifier may move the surface: 0.0001 … 1. */
export const SIMPLIFY_MAX_METRES = 1;

export interface SimplifiedGroup {
  indices: Uint32Array;
  /** Absolute error reached (metres) and the triangle counts before and after. */
  error: number;
  before: number;
  after: number;
  /** Half-edges per metre of the group before and after. */
  densityBefore: number;
  densityAfter: number;
}


/** Throws for a --simplify value outside 0.0001 … SIMPLIFY_MAX_METRES. */
export function checkSimplify(metres: number): void {
  if (!(Number.isFinite(metres) && metres >= 0.0001 && metres <= SIMPLIFY_MAX_METRES)) throw new Error(`simplify: ${metres} m is not in 0.0001…${SIMPLIFY_MAX_METRES}`);
}

/**
 * The group `indices` over `positions` simplified within `metres` (see the file header), or null when the group is
 * at or under the density limit, or the density cut at `cutTarget` brings it under (left as it is).
 */
export async function simplifyGroup(positions: Float32Array, indices: Uint32Array, metres: number, cutTarget = 0): Promise<SimplifiedGroup | null> {
  checkSimplify(metres);
  const n = indices.length / 3;
  const all = Uint32Array.from({ length: n }, (_, i) => i);
  const densityBefore = subsetDensity(positions, indices, all);
  if (densityBefore <= GRIND_DENSITY_LIMIT) return null;
  // What the density cut fixes is left to it (the same triangles, only in more parts).
  if (cutTarget > 0 && densityCut(positions, indices, all, cutTarget, MAX_SHAPE_FACES).dense === 0) return null;
  await MeshoptSimplifier.ready;
  const nv = positions.length / 3;
  // Weld by exact position: each vertex → the first vertex at its place.
  const first = new Map<string, number>();
  const welded = new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    const key = `${positions[3 * v]},${positions[3 * v + 1]},${positions[3 * v + 2]}`;
    let c = first.get(key);
    if (c === undefined) first.set(key, (c = v));
    welded[i] = c;
  }
  const lock = creaseLock(positions, welded, nv);
  const [out, error] = MeshoptSimplifier.simplifyWithAttributes(
    // Sparse: only the vertices the welded indices name take part; the unnamed copies at the same places would
    // otherwise read as attribute seams to the simplifier, and every vertex along them would stay.
    welded, positions, 3, new Float32Array(0), 0, [], lock, 0, metres, ['LockBorder', 'ErrorAbsolute', 'Sparse'],
  );
  const after = out.length / 3;
  return {
    indices: out, error, before: n, after,
    densityBefore, densityAfter: subsetDensity(positions, out, Uint32Array.from({ length: after }, (_, i) => i)),
  };
}

/**
 * The vertices that keep the grind creases in place, over welded triangles: every vertex on a convex crease ≥ the
 * crease angle except one in the middle of a straight run of it (exactly two crease edges, collinear), which may
 * collapse along the run (the crease stays the same straight line between its locked ends; a move across it costs
 * error, bounded by the --simplify value like any other).
 */
function creaseLock(pos: Float32Array, tris: Uint32Array, nv: number): Uint8Array {
  const lock = new Uint8Array(nv);
  const count = new Uint8Array(nv); // crease edges at the vertex (capped)
  const dir = new Float64Array(3 * nv); // the first crease edge's direction at the vertex
  const edges = new Map<number, number>(); // directed edge a·nv + b → its face (first seen)
  const n = tris.length / 3;
  for (let t = 0; t < n; t++) for (let k = 0; k < 3; k++) edges.set(tris[3 * t + k] * nv + tris[3 * t + ((k + 1) % 3)], t);
  const note = (v: number, dx: number, dy: number, dz: number): void => {
    const l = Math.hypot(dx, dy, dz) || 1;
    if (count[v] === 0) dir.set([dx / l, dy / l, dz / l], 3 * v);
    else if (count[v] === 1) {
      const c = Math.hypot(dir[3 * v + 1] * dz - dir[3 * v + 2] * dy, dir[3 * v + 2] * dx - dir[3 * v] * dz, dir[3 * v] * dy - dir[3 * v + 1] * dx) / l;
      if (c > 1e-6) lock[v] = 1; // a bend in the crease
    }
    if (count[v] < 3) count[v]++;
  };
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const a = tris[3 * t + k], b = tris[3 * t + ((k + 1) % 3)];
      const u = edges.get(b * nv + a);
      if (u === undefined || a > b) continue;
      if (!isGrindCrease(pos, tris, t, u, a, b)) continue;
      const dx = pos[3 * b] - pos[3 * a], dy = pos[3 * b + 1] - pos[3 * a + 1], dz = pos[3 * b + 2] - pos[3 * a + 2];
      note(a, dx, dy, dz);
      note(b, dx, dy, dz);
    }
  }
  for (let v = 0; v < nv; v++) if (count[v] === 1 || count[v] > 2) lock[v] = 1; // a crease's end, or where creases meet
  return lock;
}
