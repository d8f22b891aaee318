// The grind crease test over source triangles, shared by the density cut (src/geometry/grind-cut.ts: a crease's two
// faces stay in one piece) and --simplify (src/geometry/simplify.ts: a crease's vertices are locked). The written
// parts' grind map (src/format/grind-map.ts) reads the same rule from the stored edge values instead: a convex edge
// whose faces fold by GRIND_CREASE_DEGREES or more (physics-resource.md, "Triangle-mesh shapes": convex when the
// neighbour lies below this face's plane).
import { GRIND_CREASE_DEGREES } from '../format/grind-map.ts';

/** cos of the crease angle: two faces whose unit normals' dot is at most this fold by the crease angle or more. */
const CREASE_COS = Math.cos((GRIND_CREASE_DEGREES * Math.PI) / 180);

/**
 * Whether the edge a→b of triangle t, run b→a by triangle u, is a grind crease: t and u fold by the crease angle or
 * more, and u's third vertex lies below t's plane (convex). Triangles are vertex triples in `tris`, positions xyz in
 * `pos`; no allocation (it runs once per shared edge of a dense part).
 */
export function isGrindCrease(pos: ArrayLike<number>, tris: ArrayLike<number>, t: number, u: number, a: number, b: number): boolean {
  const t0 = 3 * tris[3 * t], t1 = 3 * tris[3 * t + 1], t2 = 3 * tris[3 * t + 2];
  const u0 = 3 * tris[3 * u], u1 = 3 * tris[3 * u + 1], u2 = 3 * tris[3 * u + 2];
  let ux = pos[t1] - pos[t0], uy = pos[t1 + 1] - pos[t0 + 1], uz = pos[t1 + 2] - pos[t0 + 2];
  let vx = pos[t2] - pos[t0], vy = pos[t2 + 1] - pos[t0 + 1], vz = pos[t2 + 2] - pos[t0 + 2];
  const ax = uy * vz - uz * vy, ay = uz * vx - ux * vz, az = ux * vy - uy * vx;
  ux = pos[u1] - pos[u0]; uy = pos[u1 + 1] - pos[u0 + 1]; uz = pos[u1 + 2] - pos[u0 + 2];
  vx = pos[u2] - pos[u0]; vy = pos[u2 + 1] - pos[u0 + 1]; vz = pos[u2 + 2] - pos[u0 + 2];
  const bx = uy * vz - uz * vy, by = uz * vx - ux * vz, bz = ux * vy - uy * vx;
  const la = Math.hypot(ax, ay, az) || 1, lb = Math.hypot(bx, by, bz) || 1;
  if ((ax * bx + ay * by + az * bz) / (la * lb) > CREASE_COS) return false;
  let o = tris[3 * u];
  if (o === a || o === b) o = tris[3 * u + 1];
  if (o === a || o === b) o = tris[3 * u + 2];
  return (pos[3 * o] - pos[3 * a]) * ax + (pos[3 * o + 1] - pos[3 * a + 1]) * ay + (pos[3 * o + 2] - pos[3 * a + 2]) * az < 0;
}
