// The geometry budget and the pools it protects.
// Spec: ../shared/spec/physics-resource.md "Collision, physics pools and grinds" and
// ../shared/spec/authoring-notes.md "Budgets and pools". Studio writes per-object resources below roughly 4,003
// geometries and merges collision into collision_area tiles above; the game faults when a pool overflows.

/**
 * What counts as one geometry (**decision**, docs/format-decisions.md "Compiler"): one shape record, i.e. one
 * kind-5 triangle mesh of at most 21,845 faces. Each (object, material) part holds one shape unless it is split
 * at the u16 limits, so a 30,000-triangle concrete floor counts 2.
 */
export const GEOMETRY_BUDGET = 4003;
/** Stock PhysicsWorld geometry pool. */
export const STOCK_POOL = 5000;
/** ReSkate's raised geometry pool. */
export const RESKATE_POOL = 40000;
/** Faces a shape can hold (3 × 21,845 = 65,535 corners, the u16 limit). */
export const MAX_SHAPE_FACES = 21845;

/** Lower bound on a part's shapes before encoding (the encoder's split may make more; the exact count comes after). */
export const estimateShapes = (triangles: number): number => (triangles === 0 ? 0 : Math.ceil(triangles / MAX_SHAPE_FACES));

/** Warnings for a total geometry count against the pools (empty when it fits the stock pool). */
export function poolWarnings(geometries: number): string[] {
  const out: string[] = [];
  if (geometries > RESKATE_POOL) {
    out.push(`budget: ${geometries} geometries exceed ReSkate's geometry pool (${RESKATE_POOL}): the game faults when it overflows; stream collision by cell`);
  } else if (geometries > STOCK_POOL) {
    out.push(`budget: ${geometries} geometries exceed the stock geometry pool (${STOCK_POOL}); the level needs ReSkate's raised pool (${RESKATE_POOL})`);
  }
  return out;
}

/** Geometries over ReSkate's pool fault the game: an error (nothing is written) unless allowPoolOverflow. */
export function checkPool(geometries: number, allowPoolOverflow: boolean, what = ''): void {
  if (geometries <= RESKATE_POOL || allowPoolOverflow) return;
  throw new Error(
    `budget: ${what}${geometries} geometries exceed ReSkate's geometry pool (${RESKATE_POOL}): the game faults when it ` +
      'overflows; split the level or stream it by cell (allowPoolOverflow, --allow-pool-overflow, builds it anyway)',
  );
}
