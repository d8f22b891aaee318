// Test helpers for the shape layer: the analytic surfaces written out independently of src/shapes/tessellate.ts
// (distance from a point to each family's surface), and a topology census of a triangle mesh.
import { quatToMat3 } from '../../src/shapes/frame.ts';
import type { Primitive } from '../../src/shapes/types.ts';

/** Distance from p to the primitive's surface (unsigned), in the primitive's own frame. */
export function surfaceDistance(prim: Primitive, p: ArrayLike<number>): number {
  const m = quatToMat3(prim.rotation);
  const d = [p[0] - prim.centre[0], p[1] - prim.centre[1], p[2] - prim.centre[2]];
  // l = Rᵀ d
  const x = m[0] * d[0] + m[1] * d[1] + m[2] * d[2];
  const y = m[3] * d[0] + m[4] * d[1] + m[5] * d[2];
  const z = m[6] * d[0] + m[7] * d[1] + m[8] * d[2];
  switch (prim.family) {
    case 'sphere':
      return Math.abs(Math.hypot(x, y, z) - prim.radius);
    case 'box': {
      const q = [Math.abs(x) - prim.halfExtents[0], Math.abs(y) - prim.halfExtents[1], Math.abs(z) - prim.halfExtents[2]];
      const outside = Math.hypot(Math.max(q[0], 0), Math.max(q[1], 0), Math.max(q[2], 0));
      return Math.abs(outside + Math.min(Math.max(q[0], q[1], q[2]), 0));
    }
    case 'capsule': {
      const h = prim.length / 2;
      const cy = Math.max(-h, Math.min(h, y));
      return Math.abs(Math.hypot(x, y - cy, z) - prim.radius);
    }
    case 'cylinder': {
      const dx = Math.hypot(x, z) - prim.radius, dy = Math.abs(y) - prim.length / 2;
      return Math.abs(Math.min(Math.max(dx, dy), 0) + Math.hypot(Math.max(dx, 0), Math.max(dy, 0)));
    }
    case 'cone': {
      const h = prim.length / 2;
      const rho = Math.hypot(x, z);
      return Math.min(segDist(rho, y, 0, -h, prim.radius, -h), segDist(rho, y, prim.radius, -h, 0, h));
    }
  }
}

function segDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const vx = bx - ax, vy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * vx + (py - ay) * vy) / (vx * vx + vy * vy)));
  return Math.hypot(px - ax - t * vx, py - ay - t * vy);
}

/** Largest surface distance over a barycentric grid of `k` steps on every triangle (vertices, edges, interior). */
export function maxSurfaceDistance(prim: Primitive, pos: ArrayLike<number>, idx: ArrayLike<number>, k = 8): number {
  let worst = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t], b = idx[t + 1], c = idx[t + 2];
    for (let i = 0; i <= k; i++) {
      for (let j = 0; i + j <= k; j++) {
        const u = i / k, v = j / k, w = 1 - u - v;
        const p = [0, 1, 2].map((ax) => w * pos[3 * a + ax] + u * pos[3 * b + ax] + v * pos[3 * c + ax]);
        worst = Math.max(worst, surfaceDistance(prim, p));
      }
    }
  }
  return worst;
}

export interface Census {
  vertices: number;
  triangles: number;
  edges: number;
  /** Undirected edges with one use. */
  open: number;
  /** Undirected edges with more than two uses. */
  nonManifold: number;
  /** Edges used twice in the same direction. */
  inconsistent: number;
  /** Vertices sharing a position with an earlier one. */
  duplicatePositions: number;
  /** Vertices no triangle uses. */
  unused: number;
  signedVolume: number;
}

/** Topology of an indexed triangle mesh, on its indices as given (a welded mesh needs no position weld). */
export function census(pos: ArrayLike<number>, idx: ArrayLike<number>): Census {
  const nv = pos.length / 3;
  const uses = new Map<string, number[]>();
  let vol = 0;
  const used = new Uint8Array(nv);
  for (let t = 0; t < idx.length; t += 3) {
    const tri = [idx[t], idx[t + 1], idx[t + 2]];
    for (const v of tri) used[v] = 1;
    for (let e = 0; e < 3; e++) {
      const a = tri[e], b = tri[(e + 1) % 3];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      const list = uses.get(key) ?? [];
      list.push(a < b ? 1 : -1);
      uses.set(key, list);
    }
    const [a, b, c] = tri.map((v) => [pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]]);
    vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
  }
  let open = 0, nonManifold = 0, inconsistent = 0;
  for (const list of uses.values()) {
    if (list.length === 1) open++;
    else if (list.length > 2) nonManifold++;
    else if (list[0] === list[1]) inconsistent++;
  }
  const seen = new Set<string>();
  let duplicatePositions = 0;
  for (let v = 0; v < nv; v++) {
    const key = `${pos[3 * v]},${pos[3 * v + 1]},${pos[3 * v + 2]}`;
    if (seen.has(key)) duplicatePositions++;
    seen.add(key);
  }
  return { vertices: nv, triangles: idx.length / 3, edges: uses.size, open, nonManifold, inconsistent, duplicatePositions, unused: nv - used.reduce((s, u) => s + u, 0), signedVolume: vol };
}

/** Axis-aligned bounds of positions. */
export function boundsOf(pos: ArrayLike<number>): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < pos.length; i++) {
    min[i % 3] = Math.min(min[i % 3], pos[i]);
    max[i % 3] = Math.max(max[i % 3], pos[i]);
  }
  return { min, max };
}
