// Convex hull of an object's collision vertices (`hull` / `convex_hull`). Our own Quickhull (Barber,
// Dobkin & Huhdanpaa 1996) over the f32 game-space positions with exact orientation predicates (predicates.ts):
// a point is outside a face only when it is strictly above its plane, decided exactly, so coplanar, duplicate and
// near-degenerate points can neither break the horizon nor leave a reflex edge — every edge of the result is
// convex or between coplanar faces (flat). Every choice (extreme points, eye point, face order) is by index, so the
// result is deterministic. Degenerate input is refused by name: no points, all points at one position, all on one
// line. A point set whose thickness is within FLAT_TOLERANCE of its extent is flat: its hull is one convex polygon
// (the 2-D hull in its plane), wound to face `facing` (the authored mesh's normal), an open single-sided plate —
// the convex contract's open coplanar case.
//
// Why not quickhull3d: its 3.1.2 ESM build imports its own modules without file extensions, which Node's
// resolver refuses (ERR_MODULE_NOT_FOUND), and its tolerance-based visibility leaves hull faces slightly
// non-convex on coplanar input, which the hull's edges must not be.
import { orient2d, orient3d } from './predicates.ts';
import type { Vec3 } from './types.ts';

/** Thickness, relative to the bounding-box diagonal, at or below which a point set counts as flat (or a line). */
export const FLAT_TOLERANCE = 1e-6;

export interface Hull {
  /** Triangles (indices into the input points), wound outward. */
  triangles: Uint32Array;
  /** Polygon faces (exactly coplanar triangles merged), as CSR: face f is vertices[offsets[f] .. offsets[f + 1]]. */
  polygonOffsets: Uint32Array;
  polygonVertices: Uint32Array;
  /** 3 for a solid hull, 2 for a flat one (one polygon). */
  dimension: 2 | 3;
  /** Distinct input positions. */
  distinctPoints: number;
}

class Faces {
  cap = 0;
  count = 0;
  v = new Int32Array(0);
  nb = new Int32Array(0);
  alive = new Uint8Array(0);
  head = new Int32Array(0);
  plane = new Float64Array(0);
  mark = new Int32Array(0);
  grow(): void {
    const cap = Math.max(64, this.cap * 2);
    const g = <T extends Int32Array | Uint8Array | Float64Array>(a: T, per: number, C: new (n: number) => T): T => {
      const b = new C(cap * per);
      b.set(a);
      return b;
    };
    this.v = g(this.v, 3, Int32Array);
    this.nb = g(this.nb, 3, Int32Array);
    this.alive = g(this.alive, 1, Uint8Array);
    this.head = g(this.head, 1, Int32Array);
    this.plane = g(this.plane, 4, Float64Array);
    this.mark = g(this.mark, 1, Int32Array);
    this.cap = cap;
  }
}

/** The convex hull of `points` (xyz f32). `where` names the object in errors; `facing` orients a flat hull. */
export function convexHull(points: Float32Array, where: string, facing: Vec3 = [0, 1, 0]): Hull {
  const n = points.length / 3;
  if (n === 0) throw new Error(`hull: ${where}: no collision vertices to take the hull of`);
  // Distinct positions (exact, −0 = 0), in first-use order.
  const seen = new Map<string, number>();
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = `${points[3 * i] + 0},${points[3 * i + 1] + 0},${points[3 * i + 2] + 0}`;
    if (!seen.has(key)) {
      seen.set(key, i);
      ids.push(i);
    }
  }
  const P = (i: number, a: number): number => points[3 * i + a];
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  const ext = [0, 0, 0, 0, 0, 0];
  for (const i of ids) {
    for (let a = 0; a < 3; a++) {
      if (P(i, a) < min[a]) (min[a] = P(i, a)), (ext[2 * a] = i);
      if (P(i, a) > max[a]) (max[a] = P(i, a)), (ext[2 * a + 1] = i);
    }
  }
  const diag = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const at = (i: number): string => `(${P(i, 0)}, ${P(i, 1)}, ${P(i, 2)})`;
  if (!(diag > 0)) throw new Error(`hull: ${where}: all ${n} collision vertices are at one position ${at(ids[0])}: a hull needs volume (or at least area)`);
  const tol = FLAT_TOLERANCE * diag;
  const d2 = (i: number, j: number): number => (P(i, 0) - P(j, 0)) ** 2 + (P(i, 1) - P(j, 1)) ** 2 + (P(i, 2) - P(j, 2)) ** 2;
  let p0 = ext[0], p1 = ext[1], best = -1;
  for (let a = 0; a < 6; a++) {
    for (let b = a + 1; b < 6; b++) {
      const d = d2(ext[a], ext[b]);
      if (d > best) (best = d), (p0 = ext[a]), (p1 = ext[b]);
    }
  }
  // Farthest from the line p0 p1.
  const ux = P(p1, 0) - P(p0, 0), uy = P(p1, 1) - P(p0, 1), uz = P(p1, 2) - P(p0, 2);
  const ul = Math.hypot(ux, uy, uz);
  let p2 = -1, dl = -1;
  for (const i of ids) {
    const wx = P(i, 0) - P(p0, 0), wy = P(i, 1) - P(p0, 1), wz = P(i, 2) - P(p0, 2);
    const d = Math.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx) / ul;
    if (d > dl) (dl = d), (p2 = i);
  }
  if (dl <= tol) {
    throw new Error(`hull: ${where}: all ${ids.length} distinct collision vertices lie on one line, ${at(p0)} to ${at(p1)}: a hull needs volume (or at least area)`);
  }
  // Farthest from the plane p0 p1 p2.
  const vx = P(p2, 0) - P(p0, 0), vy = P(p2, 1) - P(p0, 1), vz = P(p2, 2) - P(p0, 2);
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const nl = Math.hypot(nx, ny, nz);
  (nx /= nl), (ny /= nl), (nz /= nl);
  let p3 = -1, dp = -1;
  for (const i of ids) {
    const d = Math.abs(nx * (P(i, 0) - P(p0, 0)) + ny * (P(i, 1) - P(p0, 1)) + nz * (P(i, 2) - P(p0, 2)));
    if (d > dp) (dp = d), (p3 = i);
  }
  if (dp <= tol) return flatHull(points, ids, [nx, ny, nz], facing, where);
  return solidHull(points, ids, [p0, p1, p2, p3]);
}

function solidHull(p: Float32Array, ids: number[], simplex: number[]): Hull {
  const F = new Faces();
  const nPts = p.length / 3;
  const next = new Int32Array(nPts).fill(-1);
  let [a, b, c, d] = simplex;
  if (orient3d(p, a, b, c, d) < 0) [b, c] = [c, b];
  // d above (a, b, c): outward faces.
  const add = (x: number, y: number, z: number): number => {
    if (F.count === F.cap) F.grow();
    const f = F.count++;
    F.v[3 * f] = x;
    F.v[3 * f + 1] = y;
    F.v[3 * f + 2] = z;
    F.alive[f] = 1;
    F.head[f] = -1;
    F.mark[f] = 0;
    // Approximate plane, only to rank points by distance (never to decide a side).
    const ax = p[3 * x], ay = p[3 * x + 1], az = p[3 * x + 2];
    const ux = p[3 * y] - ax, uy = p[3 * y + 1] - ay, uz = p[3 * y + 2] - az, vx = p[3 * z] - ax, vy = p[3 * z + 1] - ay, vz = p[3 * z + 2] - az;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = Math.hypot(nx, ny, nz) || 1;
    (nx /= l), (ny /= l), (nz /= l);
    F.plane[4 * f] = nx;
    F.plane[4 * f + 1] = ny;
    F.plane[4 * f + 2] = nz;
    F.plane[4 * f + 3] = nx * ax + ny * ay + nz * az;
    return f;
  };
  const faces = [add(a, c, b), add(a, b, d), add(b, c, d), add(c, a, d)];
  // Neighbours of the simplex by edge lookup.
  const edgeFace = new Map<string, [number, number]>();
  for (const f of faces) for (let e = 0; e < 3; e++) edgeFace.set(`${F.v[3 * f + e]},${F.v[3 * f + ((e + 1) % 3)]}`, [f, e]);
  for (const f of faces) {
    for (let e = 0; e < 3; e++) F.nb[3 * f + e] = edgeFace.get(`${F.v[3 * f + ((e + 1) % 3)]},${F.v[3 * f + e]}`)![0];
  }
  const dist = (f: number, q: number): number => F.plane[4 * f] * p[3 * q] + F.plane[4 * f + 1] * p[3 * q + 1] + F.plane[4 * f + 2] * p[3 * q + 2] - F.plane[4 * f + 3];
  const above = (f: number, q: number): boolean => orient3d(p, F.v[3 * f], F.v[3 * f + 1], F.v[3 * f + 2], q) > 0;
  const queue: number[] = [];
  /** Puts q in the outside set of the candidate face it is farthest above; false when above none. */
  const assign = (q: number, candidates: ArrayLike<number>): void => {
    let bestF = -1, bestD = -Infinity;
    for (let k = 0; k < candidates.length; k++) {
      const f = candidates[k];
      const dq = dist(f, q);
      if (dq > bestD && above(f, q)) (bestD = dq), (bestF = f);
    }
    if (bestF < 0) return;
    if (F.head[bestF] < 0) queue.push(bestF);
    next[q] = F.head[bestF];
    F.head[bestF] = q;
  };
  const inSimplex = new Set(simplex);
  for (const q of ids) if (!inSimplex.has(q)) assign(q, faces);

  let stamp = 0;
  const visible: number[] = [];
  const horizon: number[] = []; // (a, b, outside face) triples
  const newFaces: number[] = [];
  const moved: number[] = [];
  const startAt = new Map<number, number>();
  for (let qi = 0; qi < queue.length; qi++) {
    const f0 = queue[qi];
    if (!F.alive[f0] || F.head[f0] < 0) continue;
    // Eye: the farthest point of the outside set (first of equals in list order).
    let eye = -1, eyeD = -Infinity;
    for (let q = F.head[f0]; q >= 0; q = next[q]) {
      const dq = dist(f0, q);
      if (dq > eyeD) (eyeD = dq), (eye = q);
    }
    // Visible faces: flood from f0 across faces the eye is strictly above.
    stamp += 2;
    visible.length = 0;
    horizon.length = 0;
    visible.push(f0);
    F.mark[f0] = stamp;
    for (let k = 0; k < visible.length; k++) {
      const g = visible[k];
      for (let e = 0; e < 3; e++) {
        const h = F.nb[3 * g + e];
        if (F.mark[h] === stamp) continue;
        if (F.mark[h] === stamp + 1 || !above(h, eye)) {
          // Tested once: a face is visible or not, whichever neighbour reaches it first.
          F.mark[h] = stamp + 1;
          horizon.push(F.v[3 * g + e], F.v[3 * g + ((e + 1) % 3)], h);
        } else {
          F.mark[h] = stamp;
          visible.push(h);
        }
      }
    }
    const hn = horizon.length;
    // Order the horizon into its loop (exact predicates: the visible region is a disc, its boundary one cycle).
    startAt.clear();
    for (let k = 0; k < hn; k += 3) startAt.set(horizon[k], k);
    const edges = hn / 3;
    newFaces.length = 0;
    let k = 0;
    for (let m = 0; m < edges; m++) {
      const ea = horizon[k], eb = horizon[k + 1], out = horizon[k + 2];
      const nf = add(ea, eb, eye);
      newFaces.push(nf);
      F.nb[3 * nf] = out;
      for (let e = 0; e < 3; e++) {
        if (F.v[3 * out + e] === eb && F.v[3 * out + ((e + 1) % 3)] === ea) F.nb[3 * out + e] = nf;
      }
      const nk = startAt.get(eb);
      if (nk === undefined) throw new Error('hull: internal error: the horizon is not a closed loop');
      k = nk;
    }
    if (k !== 0) throw new Error('hull: internal error: the horizon is not one loop');
    for (let m = 0; m < edges; m++) {
      const nf = newFaces[m], nextF = newFaces[(m + 1) % edges], prevF = newFaces[(m + edges - 1) % edges];
      F.nb[3 * nf + 1] = nextF;
      F.nb[3 * nf + 2] = prevF;
    }
    // The visible faces' points go to the new faces (or are inside now).
    moved.length = 0;
    for (const g of visible) {
      for (let q = F.head[g]; q >= 0; ) {
        const nq = next[q];
        if (q !== eye) moved.push(q);
        next[q] = -1;
        q = nq;
      }
      F.head[g] = -1;
      F.alive[g] = 0;
    }
    for (const q of moved) assign(q, newFaces);
  }

  const alive: number[] = [];
  for (let f = 0; f < F.count; f++) if (F.alive[f]) alive.push(f);
  const triangles = new Uint32Array(alive.length * 3);
  alive.forEach((f, i) => triangles.set(F.v.subarray(3 * f, 3 * f + 3), 3 * i));
  const { offsets, vertices } = mergeCoplanar(p, F, alive);
  return { triangles, polygonOffsets: offsets, polygonVertices: vertices, dimension: 3, distinctPoints: ids.length };
}

/** Merges exactly coplanar neighbouring triangles into polygons (boundary loops, outward), in face order. */
function mergeCoplanar(p: Float32Array, F: Faces, alive: number[]): { offsets: Uint32Array; vertices: Uint32Array } {
  // Union-find over face ids (typed arrays: a 100,000-point hull has 200,000 faces, nearly all alone).
  const parent = new Int32Array(F.count);
  for (const f of alive) parent[f] = f;
  const find = (f: number): number => {
    while (parent[f] !== f) f = parent[f] = parent[parent[f]];
    return f;
  };
  const opposite = (h: number, a: number, b: number): number => {
    for (let e = 0; e < 3; e++) {
      const v = F.v[3 * h + e];
      if (v !== a && v !== b) return v;
    }
    return -1;
  };
  let merged = false;
  for (const f of alive) {
    for (let e = 0; e < 3; e++) {
      const h = F.nb[3 * f + e];
      if (h < f) continue; // each edge once
      const a = F.v[3 * f + e], b = F.v[3 * f + ((e + 1) % 3)];
      if (orient3d(p, F.v[3 * f], F.v[3 * f + 1], F.v[3 * f + 2], opposite(h, a, b)) !== 0) continue;
      const ra = find(f), rb = find(h);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      merged = true;
    }
  }
  const offsets: number[] = [0];
  const vertices: number[] = [];
  if (!merged) {
    for (const f of alive) {
      vertices.push(F.v[3 * f], F.v[3 * f + 1], F.v[3 * f + 2]);
      offsets.push(vertices.length);
    }
    return { offsets: Uint32Array.from(offsets), vertices: Uint32Array.from(vertices) };
  }
  // Groups in order of their smallest face (the root).
  const groups = new Map<number, number[]>();
  for (const f of alive) {
    const r = find(f);
    const g = groups.get(r);
    if (g) g.push(f);
    else groups.set(r, [f]);
  }
  for (const g of groups.values()) {
    if (g.length === 1) {
      const f = g[0];
      vertices.push(F.v[3 * f], F.v[3 * f + 1], F.v[3 * f + 2]);
      offsets.push(vertices.length);
      continue;
    }
    // Boundary edges of the group: those whose neighbour is in another group; chained a → b from the smallest vertex.
    const nextOf = new Map<number, number>();
    let first = -1;
    const root = find(g[0]);
    for (const f of g) {
      for (let e = 0; e < 3; e++) {
        if (find(F.nb[3 * f + e]) === root) continue;
        const a = F.v[3 * f + e], b = F.v[3 * f + ((e + 1) % 3)];
        nextOf.set(a, b);
        if (first < 0 || a < first) first = a;
      }
    }
    let v = first;
    for (let k = 0; k < nextOf.size; k++) {
      vertices.push(v);
      v = nextOf.get(v)!;
      if (v === first) break;
    }
    offsets.push(vertices.length);
  }
  return { offsets: Uint32Array.from(offsets), vertices: Uint32Array.from(vertices) };
}

/** The hull of a flat point set: its 2-D hull in the dominant axis plane, one polygon wound towards `facing`. */
function flatHull(p: Float32Array, ids: number[], normal: Vec3, facing: Vec3, where: string): Hull {
  const k = [0, 1, 2].reduce((m, a) => (Math.abs(normal[a]) > Math.abs(normal[m]) ? a : m), 0);
  const [u, v] = k === 0 ? [1, 2] : k === 1 ? [2, 0] : [0, 1]; // (u, v, k) right-handed: CCW in (u, v) faces +k
  const sorted = [...ids].sort((a, b) => p[3 * a + u] - p[3 * b + u] || p[3 * a + v] - p[3 * b + v] || a - b);
  // Andrew's monotone chain; collinear points dropped (a turn must be strictly counter-clockwise).
  const chain = (list: number[]): number[] => {
    const out: number[] = [];
    for (const q of list) {
      if (out.length && p[3 * out[out.length - 1] + u] === p[3 * q + u] && p[3 * out[out.length - 1] + v] === p[3 * q + v]) continue;
      while (out.length >= 2 && orient2d(p, u, v, out[out.length - 2], out[out.length - 1], q) <= 0) out.pop();
      out.push(q);
    }
    return out;
  };
  const lower = chain(sorted), upper = chain([...sorted].reverse());
  let loop = [...lower.slice(0, -1), ...upper.slice(0, -1)];
  if (loop.length < 3) throw new Error(`hull: ${where}: the collision vertices are flat and collinear in their plane: no hull`);
  // The loop winds counter-clockwise in (u, v): it faces the plane normal taken with a positive k component.
  const s = normal[k] >= 0 ? 1 : -1;
  if (s * (facing[0] * normal[0] + facing[1] * normal[1] + facing[2] * normal[2]) < 0) loop = loop.reverse();
  const triangles = new Uint32Array(3 * (loop.length - 2));
  for (let i = 1; i + 1 < loop.length; i++) triangles.set([loop[0], loop[i], loop[i + 1]], 3 * (i - 1));
  return { triangles, polygonOffsets: Uint32Array.from([0, loop.length]), polygonVertices: Uint32Array.from(loop), dimension: 2, distinctPoints: ids.length };
}
