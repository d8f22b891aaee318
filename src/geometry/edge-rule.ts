// The edge rule of a kind-5 shape (../shared/spec/physics-resource.md, "Triangle-mesh shapes"): the classification
// predicate and the stored values, in JavaScript. edges.ts computes every corner's edge in WebAssembly
// (assembly/edges.ts) with the same rule; FLAT_COS and the convex value's slow path are passed from here, so
// both use JavaScript's own Math.cos and Math.acos.

/** cos(0.1°): at or above it the two faces across an edge are flat. */
export const FLAT_COS = Math.cos(0.1 * (Math.PI / 180));

/** Edge classes, as counted in the stats. */
export const EDGE_OPEN = 0;
export const EDGE_FLAT = 1;
export const EDGE_CONCAVE = 2;
export const EDGE_CONVEX = 3;
/** Neighbour on or above the plane with d ≤ 0 (a concave fold of 90° or sharper, or a face folded back). */
export const EDGE_CONCAVE_SHARP = 4;

/**
 * The classification predicate. `d` is n1·n2 clamped to [−1, 1]; `above` says the neighbour's centroid lies on or
 * above this face's plane (through the corner's vertex). Flat (flat bit, value 1.0) when d ≥ cos 0.1°; else, when
 * above: concave (concave bit, value 1.0) if d > 0, otherwise a sharp concave fold that stores value 1.0 and
 * neither bit (observed on the reference: 90° L channels, folded-back faces); else convex (value
 * f32 cos(acos(d)/2), no bit).
 */
export function classifyEdge(d: number, above: boolean): number {
  if (d >= FLAT_COS) return EDGE_FLAT;
  if (above) return d > 0 ? EDGE_CONCAVE : EDGE_CONCAVE_SHARP;
  return EDGE_CONVEX;
}

/** The value a convex edge stores: the cosine of half the angle between the normals, as f32. Others store 1.0. */
export const convexValue = (d: number): number => Math.fround(Math.cos(Math.acos(d) / 2));

/**
 * Half-angle margin of convexValueFast: sqrt((1 + d)/2) (the same cosine, by the half-angle identity) and the
 * library's cos(acos(d)/2) differ by a few 1e-16 for d in [−1, 1]; when every value within this distance of the
 * former rounds to the same f32, so does the latter.
 */
const HALF_ANGLE_MARGIN = 1e-12;

/** convexValue(d) without the two transcendental calls whenever the f32 rounding is settled (see the margin). */
export function convexValueFast(d: number): number {
  const s = Math.sqrt((1 + d) / 2);
  const f = Math.fround(s);
  return Math.fround(s - HALF_ANGLE_MARGIN) === f && Math.fround(s + HALF_ANGLE_MARGIN) === f ? f : convexValue(d);
}

/**
 * Level-wide corner codes (seams.ts matchSeams): what the shape rule gives a corner when its opposite corner
 * is looked for over the whole level. A convex edge's code is its value (≥ 0); the others are negative.
 */
export const SEAM_NONE = -1;
export const SEAM_FLAT = -2;
export const SEAM_CONCAVE = -3;
export const SEAM_SHARP = -4;
