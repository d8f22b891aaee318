// Where the walkable surface is under a point (docs/ride.md "The world"): the faces of the one grid cell under it,
// taken by their x/z projection (barycentric, inclusive within 1e-9 relative) and their plane's height there. The
// plan's step and gap measuring, the ride starts, the judge and the footprints ask it.
import { cellOf, type Query } from './grid.ts';
import { FACE_WALKABLE, type RideWorld } from './world.ts';
import { wasmSurface } from './native.ts';

/**
 * The height of face t's plane at (x, z) when (x, z) lies on the face's x/z projection (barycentric, inclusive within
 * 1e-9 relative), else NaN (outside, or a face edge-on from above). heightAt's and surfaceAlong's one rule.
 */
function heightOnFace(V: Float64Array, C: Uint32Array, t: number, x: number, z: number): number {
  const A = 3 * C[3 * t], B = 3 * C[3 * t + 1], Cc = 3 * C[3 * t + 2];
  const ax = V[A], az = V[A + 2], bx = V[B], bz = V[B + 2], cx = V[Cc], cz = V[Cc + 2];
  const d = (bz - cz) * (ax - cx) + (cx - bx) * (az - cz);
  if (Math.abs(d) < 1e-14) return NaN;
  const l1 = ((bz - cz) * (x - cx) + (cx - bx) * (z - cz)) / d;
  const l2 = ((cz - az) * (x - cx) + (ax - cx) * (z - cz)) / d;
  const l3 = 1 - l1 - l2;
  const e = -1e-9;
  if (l1 < e || l2 < e || l3 < e) return NaN;
  return l1 * V[A + 1] + l2 * V[B + 1] + l3 * V[Cc + 1];
}

/**
 * The walkable surface under (x, z) nearest to height y within ±reach (`top`: the highest within ±reach, the one a
 * board meets where one surface runs over another's buried edge): its height and face, or null. Faces are taken by
 * their x/z projection (barycentric, inclusive within 1e-9 relative), the height on their plane.
 */
export function heightAt(w: RideWorld, x: number, z: number, y: number, reach: number, q: Query, top = false): { y: number; face: number } | null {
  const face = surfaceAt(w, x, z, y, reach, q, top);
  return face < 0 ? null : { y: q.height[0], face };
}

/**
 * heightAt without an object a call (the ride asks this some 150,000 times on the 1M bench level): the face, or −1
 * for none; its height in q.height[0], the faces the look-up visited (its work, added to q.work) in q.visits.
 */
export function surfaceAt(w: RideWorld, x: number, z: number, y: number, reach: number, q: Query, top = false): number {
  AT[0] = x; AT[1] = z; AT[2] = y; AT[3] = reach;
  return surfaceUnder(w, q, top);
}

/**
 * surfaceUnder's point: x, z, the height y and the reach (written by its caller). The hot callers pass the point so:
 * V8 boxes each double passed to a call it does not inline (a new number on the heap each), and the look-ups are too
 * large to inline.
 */
export const AT = new Float64Array(4);

/** surfaceAt at the point in AT. */
export function surfaceUnder(w: RideWorld, q: Query, top = false): number {
  const x = AT[0], z = AT[1], y = AT[2], reach = AT[3];
  let best = -1, bestY = 0, bestD = Infinity;
  // facesNear's walk inline (no closure a call), in the same order, over the one cell under the point: a cell lists
  // a face once (ascending), so no stamps are needed to visit each once.
  const g = w.grid, items = g.items;
  q.visits = 0;
  if (w.faces === 0 || x < g.x0 || z < g.z0 || x > g.x0 + g.nx * g.cell || z > g.z0 + g.nz * g.cell) return -1;
  const c = cellOf(g, z, 1) * g.nx + cellOf(g, x, 0);
  // The same walk in WebAssembly where the world was built there (assembly/ride-fold.ts rideSurface).
  if (q.native === undefined) q.native = wasmSurface(w) ?? null;
  const native = q.native;
  if (native !== null && c === c) {
    best = native.at(c, x, z, y, reach, top ? 1 : 0);
    const visits = native.io[1];
    q.work += visits;
    q.visits = visits;
    q.height[0] = native.io[0];
    return best;
  }
  const V = w.vert, C = w.corner, FB = w.faceBits;
  let visits = 0;
  let t = -1;
  for (let k = g.start[c], end = g.start[c + 1]; k < end; ) {
    // The cell's next face (Grid).
    let by = items[k++], gap = by & 0x7f;
    for (let m = 0x80; by > 0x7f; m *= 0x80) { by = items[k++]; gap += (by & 0x7f) * m; }
    t += gap + 1;
    visits++;
    if (!(FB[t] & FACE_WALKABLE)) continue; // isWalkable
    const h = heightOnFace(V, C, t, x, z);
    if (h !== h) continue;
    const dist = Math.abs(h - y);
    if (dist <= reach && (top ? best < 0 || h > bestY : dist < bestD)) {
      bestD = dist;
      bestY = h;
      best = t;
    }
  }
  q.work += visits;
  q.visits = visits;
  q.height[0] = bestY;
  return best;
}

/** surfaceAlong's scratch: the walkable faces of the grid cell last read (one a thread). */
let cellFaces = new Int32Array(256);

/**
 * The first of the points (x + dx · d, z + dz · d), d = step, step + step, … while d ≤ to (added up so), over which
 * a walkable surface lies within ±reach of height y: its d, or NaN where none does. The answer and the work
 * (q.work) heightAt gives asked point by point (its test, inline); a grid cell's faces are read once for all the
 * points in it.
 */
export function surfaceAlong(w: RideWorld, x: number, z: number, dx: number, dz: number, y: number, reach: number, step: number, to: number, q: Query): number {
  const g = w.grid, items = g.items, V = w.vert, C = w.corner, FB = w.faceBits;
  if (w.faces === 0) return NaN;
  let cell = -1, listed = 0, walkable = 0;
  for (let d = step; d <= to; d += step) {
    const px = x + dx * d, pz = z + dz * d;
    if (px < g.x0 || pz < g.z0 || px > g.x0 + g.nx * g.cell || pz > g.z0 + g.nz * g.cell) continue;
    const c = cellOf(g, pz, 1) * g.nx + cellOf(g, px, 0);
    if (c !== cell) {
      // The cell's faces (Grid), its walkable ones kept.
      cell = c;
      listed = 0;
      walkable = 0;
      let t = -1;
      for (let k = g.start[c], end = g.start[c + 1]; k < end; ) {
        let by = items[k++], gap = by & 0x7f;
        for (let m = 0x80; by > 0x7f; m *= 0x80) { by = items[k++]; gap += (by & 0x7f) * m; }
        t += gap + 1;
        listed++;
        if (!(FB[t] & FACE_WALKABLE)) continue;
        if (walkable === cellFaces.length) {
          const grown = new Int32Array(2 * walkable);
          grown.set(cellFaces);
          cellFaces = grown;
        }
        cellFaces[walkable++] = t;
      }
    }
    q.work += listed;
    for (let n = 0; n < walkable; n++) {
      const h = heightOnFace(V, C, cellFaces[n], px, pz);
      if (Math.abs(h - y) <= reach) return d; // NaN: not on the face
    }
  }
  return NaN;
}
