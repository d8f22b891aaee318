// The enforced convex contract for `convex_parts` / `aggregate` (../shared/spec/collider-shape-contract.md, "Mesh
// Policy": MeshColliderMode.Convex "is an enforced geometry contract, not an optimization hint"). Each connected
// component of the object's mesh (triangles sharing an edge, on an exact-position weld: −0 = 0, the temporary
// topology view the contract allows) is one part, in declaration order (first triangle). A part must be one
// consistently wound, closed convex manifold shell, or one consistently wound open coplanar triangulation filling
// one convex polygon. Refused (an error naming the object, the part, the first offending triangle or edge and its
// position): unused vertices, degenerate triangles, duplicate faces, non-manifold edges, inconsistent winding,
// disconnected vertex links; for a closed part faces wound inward, a shell that is not a sphere (χ ≠ 2), reflex
// (non-convex) edges and saddle vertices; for an open part a surface that is not flat, folded triangles, holes or
// several boundaries, a boundary that is not convex, and overlapping triangles.
//
// A closed, consistently wound surface with χ = 2 whose every edge and vertex is locally convex is the boundary of
// a convex polyhedron (its Gauss map has degree 1), so these local tests are the whole contract.

/** Distances below this (relative to the part's bounding-box diagonal, plus 4 f32 ulps of its largest coordinate) count as 0. */
export const CONVEX_TOLERANCE = 1e-6;

export interface ConvexPartsResult {
  /** Per part: its triangles (numbers in the object's declaration order, ascending) and why it fails, if it does. */
  parts: { triangles: number[]; failure?: string }[];
}

const fmtP = (x: number, y: number, z: number): string => `(${[x, y, z].map((v) => Number(v.toPrecision(7))).join(', ')})`;

/**
 * Splits the mesh (positions, flat triangle list `tris` in declaration order) into parts and checks each. Object
 * level failures (unused vertices) throw; part failures are returned as messages (the caller refuses or, with
 * --hull-parts, takes the part's hull). `where` names the object.
 */
export function convexParts(positions: Float32Array, tris: Uint32Array, where: string): ConvexPartsResult {
  const nv = positions.length / 3;
  const nt = tris.length / 3;
  const used = new Uint8Array(nv);
  for (let k = 0; k < tris.length; k++) used[tris[k]] = 1;
  for (let v = 0; v < nv; v++) {
    if (!used[v]) throw new Error(`convex_parts: ${where}: vertex ${v} at ${fmtP(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2])} is used by no triangle (the convex contract refuses unused vertices)`);
  }
  // Exact-position weld.
  const ids = new Map<string, number>();
  const wid = new Uint32Array(nv);
  const rep: number[] = [];
  for (let v = 0; v < nv; v++) {
    const key = `${positions[3 * v] + 0},${positions[3 * v + 1] + 0},${positions[3 * v + 2] + 0}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = rep.length;
      ids.set(key, id);
      rep.push(v);
    }
    wid[v] = id;
  }
  const W = rep.length;
  const T = (t: number, c: number): number => wid[tris[3 * t + c]];
  // Undirected edges → triangles using them.
  const edgeUses = new Map<number, number[]>();
  const ekey = (a: number, b: number): number => (a < b ? a * W + b : b * W + a);
  for (let t = 0; t < nt; t++) {
    for (let c = 0; c < 3; c++) {
      const a = T(t, c), b = T(t, (c + 1) % 3);
      if (a === b) continue;
      const k = ekey(a, b);
      const list = edgeUses.get(k);
      if (list) list.push(t);
      else edgeUses.set(k, [t]);
    }
  }
  // Components: triangles sharing an edge.
  const parent = Int32Array.from({ length: nt }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const list of edgeUses.values()) for (let i = 1; i < list.length; i++) {
    const a = find(list[0]), b = find(list[i]);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  const byRoot = new Map<number, number[]>();
  for (let t = 0; t < nt; t++) {
    const r = find(t);
    const g = byRoot.get(r);
    if (g) g.push(t);
    else byRoot.set(r, [t]);
  }
  const parts = [...byRoot.values()]; // roots are each part's smallest triangle: declaration order
  return {
    parts: parts.map((triangles) => {
      const failure = checkPart(positions, tris, wid, W, triangles, edgeUses, ekey);
      return failure ? { triangles, failure } : { triangles };
    }),
  };
}

/** The first way the part breaks the contract, or undefined. */
function checkPart(
  p: Float32Array, tris: Uint32Array, wid: Uint32Array, W: number, part: number[],
  edgeUses: Map<number, number[]>, ekey: (a: number, b: number) => number,
): string | undefined {
  const T = (t: number, c: number): number => wid[tris[3 * t + c]];
  const X = (t: number, c: number, a: number): number => p[3 * tris[3 * t + c] + a];
  const vpos = new Map<number, number>(); // welded id → an input vertex
  for (const t of part) for (let c = 0; c < 3; c++) vpos.set(T(t, c), tris[3 * t + c]);
  const at = (v: number): string => fmtP(p[3 * vpos.get(v)!], p[3 * vpos.get(v)! + 1], p[3 * vpos.get(v)! + 2]);
  const centroid = (t: number): string => fmtP(...([0, 1, 2].map((a) => (X(t, 0, a) + X(t, 1, a) + X(t, 2, a)) / 3) as [number, number, number]));
  // Size and tolerance.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  let maxAbs = 0;
  for (const v of vpos.values()) for (let a = 0; a < 3; a++) {
    const x = p[3 * v + a];
    lo[a] = Math.min(lo[a], x);
    hi[a] = Math.max(hi[a], x);
    maxAbs = Math.max(maxAbs, Math.abs(x));
  }
  const diag = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const tol = CONVEX_TOLERANCE * diag + 4 * maxAbs * 2 ** -23;
  const normal = (t: number): number[] => {
    const u = [0, 1, 2].map((a) => X(t, 1, a) - X(t, 0, a)), w = [0, 1, 2].map((a) => X(t, 2, a) - X(t, 0, a));
    return [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
  };
  // 1. Degenerate triangles.
  for (const t of part) {
    const n = normal(t);
    if (T(t, 0) === T(t, 1) || T(t, 1) === T(t, 2) || T(t, 0) === T(t, 2) || Math.hypot(n[0], n[1], n[2]) <= tol * tol) {
      return `triangle ${t} at ${centroid(t)} is degenerate (no area)`;
    }
  }
  // 2. Duplicate faces (same three vertices, either winding).
  const faces = new Map<string, number>();
  for (const t of part) {
    const key = [T(t, 0), T(t, 1), T(t, 2)].sort((a, b) => a - b).join(',');
    const first = faces.get(key);
    if (first !== undefined) return `triangle ${t} at ${centroid(t)} duplicates triangle ${first}`;
    faces.set(key, t);
  }
  // 3. Edges: non-manifold (3+ triangles), inconsistent winding (2, same direction), open (1).
  const open: [number, number, number][] = [];
  let edges = 0;
  for (const t of part) {
    for (let c = 0; c < 3; c++) {
      const a = T(t, c), b = T(t, (c + 1) % 3);
      const uses = edgeUses.get(ekey(a, b))!;
      if (uses[0] !== t) continue; // each edge once, at its first triangle
      edges++;
      if (uses.length > 2) return `edge ${a}–${b} at ${at(a)}–${at(b)} is shared by ${uses.length} triangles (${uses.join(', ')}; first extra: triangle ${uses[2]}): non-manifold`;
      if (uses.length === 1) {
        open.push([a, b, t]);
        continue;
      }
      const o = uses[1];
      let same = false;
      for (let k = 0; k < 3; k++) if (T(o, k) === a && T(o, (k + 1) % 3) === b) same = true;
      if (same) return `triangles ${t} and ${o} run edge ${a}–${b} at ${at(a)}–${at(b)} the same way: inconsistent winding`;
    }
  }
  // 4. Vertex links: the triangles around each vertex form one fan (connected through edges at that vertex).
  const around = new Map<number, number[]>();
  for (const t of part) for (let c = 0; c < 3; c++) {
    const list = around.get(T(t, c));
    if (list) list.push(t);
    else around.set(T(t, c), [t]);
  }
  for (const [v, list] of around) {
    const seen = new Set<number>([list[0]]);
    const stack = [list[0]];
    while (stack.length) {
      const t = stack.pop()!;
      for (let c = 0; c < 3; c++) {
        const a = T(t, c), b = T(t, (c + 1) % 3);
        if (a !== v && b !== v) continue;
        for (const o of edgeUses.get(ekey(a, b))!) if (!seen.has(o)) (seen.add(o), stack.push(o));
      }
    }
    if (seen.size !== list.length) return `vertex ${v} at ${at(v)} joins ${list.length} triangles that do not form one fan: a disconnected vertex link (non-manifold vertex)`;
  }
  const V = around.size, F = part.length;
  if (open.length === 0) return closedPart(part, normal, T, X, at, centroid, edgeUses, ekey, tol, V - edges + F, around);
  return openPart(p, part, normal, T, at, centroid, open, tol, V - edges + F, vpos);
}

function closedPart(
  part: number[], normal: (t: number) => number[], T: (t: number, c: number) => number, X: (t: number, c: number, a: number) => number,
  at: (v: number) => string, centroid: (t: number) => string, edgeUses: Map<number, number[]>, ekey: (a: number, b: number) => number,
  tol: number, euler: number, around: Map<number, number[]>,
): string | undefined {
  let vol = 0;
  for (const t of part) {
    const a = [0, 1, 2].map((k) => X(t, 0, k)), b = [0, 1, 2].map((k) => X(t, 1, k)), c = [0, 1, 2].map((k) => X(t, 2, k));
    vol += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  if (vol < 0) return `the closed shell's faces point inward (negative volume; first triangle ${part[0]} at ${centroid(part[0])}): flip its normals`;
  if (euler !== 2) return `the closed shell is not a sphere (Euler characteristic ${euler}, a convex shell has 2): it has a handle or is several shells`;
  // Reflex edges: the far vertex of the neighbour must be on or below this triangle's plane.
  for (const t of part) {
    const n = normal(t);
    const len = Math.hypot(n[0], n[1], n[2]);
    for (let c = 0; c < 3; c++) {
      const a = T(t, c), b = T(t, (c + 1) % 3);
      const [u, w] = edgeUses.get(ekey(a, b))!;
      const o = u === t ? w : u;
      let far = 0;
      for (let k = 0; k < 3; k++) if (T(o, k) !== a && T(o, k) !== b) far = k;
      const d = ((X(o, far, 0) - X(t, 0, 0)) * n[0] + (X(o, far, 1) - X(t, 0, 1)) * n[1] + (X(o, far, 2) - X(t, 0, 2)) * n[2]) / len;
      if (d > tol) return `edge ${a}–${b} at ${at(a)}–${at(b)} between triangles ${t} and ${o} is a reflex (non-convex) crease: triangle ${o}'s far corner is ${d.toPrecision(3)} m above triangle ${t}'s plane`;
    }
  }
  // Saddle vertices: the face angles around a vertex sum to at most 2π.
  for (const [v, list] of around) {
    let sum = 0;
    for (const t of list) {
      let c = 0;
      while (T(t, c) !== v) c++;
      const o = [0, 1, 2].map((k) => X(t, c, k));
      const e1 = [0, 1, 2].map((k) => X(t, (c + 1) % 3, k) - o[k]), e2 = [0, 1, 2].map((k) => X(t, (c + 2) % 3, k) - o[k]);
      const cos = (e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2]) / (Math.hypot(e1[0], e1[1], e1[2]) * Math.hypot(e2[0], e2[1], e2[2]));
      sum += Math.acos(Math.max(-1, Math.min(1, cos)));
    }
    if (sum > 2 * Math.PI + 1e-9) return `vertex ${v} at ${at(v)} is a saddle (its face angles sum to ${((sum * 180) / Math.PI).toFixed(3)}°, more than 360°): not convex`;
  }
  return undefined;
}

function openPart(
  p: Float32Array, part: number[], normal: (t: number) => number[], T: (t: number, c: number) => number, at: (v: number) => string,
  centroid: (t: number) => string, open: [number, number, number][], tol: number, euler: number, vpos: Map<number, number>,
): string | undefined {
  // The plane: the largest triangle's.
  let big = part[0], bigA = 0;
  for (const t of part) {
    const n = normal(t);
    const a = Math.hypot(n[0], n[1], n[2]);
    if (a > bigA) (bigA = a), (big = t);
  }
  const n = normal(big).map((x) => x / bigA);
  const o = vpos.get(T(big, 0))!;
  const off = (v: number): number => (p[3 * v] - p[3 * o]) * n[0] + (p[3 * v + 1] - p[3 * o + 1]) * n[1] + (p[3 * v + 2] - p[3 * o + 2]) * n[2];
  for (const [w, v] of vpos) {
    if (Math.abs(off(v)) > tol) return `the part is open (edge ${open[0][0]}–${open[0][1]} at ${at(open[0][0])}–${at(open[0][1])} has one triangle) but not flat: vertex ${w} at ${at(w)} is ${off(v).toPrecision(3)} m off its plane; a convex part must be closed or one flat convex polygon`;
  }
  let area = 0;
  for (const t of part) {
    const m = normal(t);
    const d = m[0] * n[0] + m[1] * n[1] + m[2] * n[2];
    if (d <= 0) return `triangle ${t} at ${centroid(t)} is folded over (it faces away from the part's plane)`;
    area += d / 2;
  }
  // Boundary: one loop through every open edge.
  const nextOf = new Map<number, number>();
  for (const [a, b] of open) {
    if (nextOf.has(a)) return `the boundary passes vertex ${a} at ${at(a)} twice: the flat part is pinched or has a hole`;
    nextOf.set(a, b);
  }
  const loop: number[] = [];
  for (let v = open[0][0], k = 0; k < open.length; k++) {
    loop.push(v);
    v = nextOf.get(v)!;
    if (v === open[0][0]) break;
  }
  if (loop.length !== open.length || euler !== 1) return `the flat part has ${euler === 1 ? 'several boundaries' : 'a hole'} (boundary loop of ${loop.length} of ${open.length} open edges, Euler characteristic ${euler}): it must fill one convex polygon`;
  // Convex boundary: every turn to the same side (collinear allowed), and the polygon's area is the triangles'.
  let polyArea = 0, turning = 0;
  const P = (v: number): number[] => [0, 1, 2].map((a) => p[3 * vpos.get(v)! + a]);
  for (let k = 0; k < loop.length; k++) {
    const a = P(loop[k]), b = P(loop[(k + 1) % loop.length]), c = P(loop[(k + 2) % loop.length]);
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], w = [c[0] - b[0], c[1] - b[1], c[2] - b[2]];
    const turn = (u[1] * w[2] - u[2] * w[1]) * n[0] + (u[2] * w[0] - u[0] * w[2]) * n[1] + (u[0] * w[1] - u[1] * w[0]) * n[2];
    turning += Math.atan2(turn, u[0] * w[0] + u[1] * w[1] + u[2] * w[2]);
    if (turn < -tol * Math.hypot(...u)) return `the flat part's boundary turns inward at vertex ${loop[(k + 1) % loop.length]} at ${at(loop[(k + 1) % loop.length])}: not a convex polygon`;
    const q = P(loop[0]);
    const x = [a[0] - q[0], a[1] - q[1], a[2] - q[2]], y = [b[0] - q[0], b[1] - q[1], b[2] - q[2]];
    polyArea += ((x[1] * y[2] - x[2] * y[1]) * n[0] + (x[2] * y[0] - x[0] * y[2]) * n[1] + (x[0] * y[1] - x[1] * y[0]) * n[2]) / 2;
  }
  // One convex polygon's boundary turns once around (2π); triangles that wrap around it more often overlap.
  if (turning > 2 * Math.PI + 1e-6) return `the flat part's triangles overlap: its boundary winds ${(turning / (2 * Math.PI)).toFixed(2)} times around`;
  if (Math.abs(area - polyArea) > 1e-6 * polyArea + tol * tol) return `the flat part's triangles overlap (their area ${area.toPrecision(6)} m² is not the polygon's ${polyArea.toPrecision(6)} m²)`;
  return undefined;
}
