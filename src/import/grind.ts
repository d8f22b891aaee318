// Grind curves → Studio's eight-sided open collision prisms.
// Spec: ../shared/spec/authoring-notes.md "Grind curves: Studio's eight-sided prisms (the add-on's rule,
// restated)", steps 2–8, in glTF's Y-up frame (up (0,1,0), fallback (0,0,−1)). Step 1 (spline sampling) has no
// glTF counterpart: Blender exports curves as loose edges (line primitives), which chainRuns turns into polylines
// the way the add-on chains mesh edges (open chains end at loose ends and junctions; loops close).

export interface GrindSettings {
  /** Prism radius in metres; default 0.03, clamped to [0.005, 0.25] like the add-on. */
  radius: number;
}

export const GRIND_DEFAULTS: GrindSettings = { radius: 0.03 };
export const GRIND_RADIUS_MIN = 0.005;
export const GRIND_RADIUS_MAX = 0.25;
/** Douglas–Peucker tolerance (m). */
export const GRIND_SIMPLIFY_TOLERANCE = 0.003;
/** Interior points closer than this (m) to the last kept one are dropped. */
export const GRIND_MIN_SPACING = 0.02;
/** A point is sharp when the dot of the unit directions around it is below cos 75°. */
export const GRIND_SHARP_COS = Math.cos((75 * Math.PI) / 180);
export const GRIND_SIDES = 8;
/** Studio warns when index count / bbox diagonal exceeds this ("too detailed to grind"). */
export const DENSITY_WARN_HALF_EDGES_PER_METRE = 900;

/** A polyline: points xyz, closed or open. */
export interface Run {
  points: Float64Array;
  closed: boolean;
}

export interface Prism {
  positions: Float64Array;
  indices: Uint32Array;
}

export const clampGrindRadius = (r: number): number => Math.min(GRIND_RADIUS_MAX, Math.max(GRIND_RADIUS_MIN, r));

/**
 * Chains line segments (vertex pairs over welded points) into polylines. Open chains run between vertices whose
 * degree is not 2 (loose ends and junctions); what remains are loops, which close. Deterministic: starts are taken
 * in vertex order, edges in the order given. Repeated edges and zero-length edges are ignored.
 */
export function chainRuns(points: Float64Array, edges: Uint32Array): Run[] {
  const n = points.length / 3;
  const uniq = uniqueEdges(edges);
  const m = uniq.length / 2;
  // CSR adjacency: vertex → incident edge ids (count → prefix-sum → fill).
  const start = new Uint32Array(n + 1);
  for (let e = 0; e < 2 * m; e++) start[uniq[e] + 1]++;
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const adj = new Uint32Array(2 * m);
  const fill = start.slice(0, n);
  for (let e = 0; e < m; e++) {
    adj[fill[uniq[2 * e]]++] = e;
    adj[fill[uniq[2 * e + 1]]++] = e;
  }
  const degree = (v: number): number => start[v + 1] - start[v];
  const used = new Uint8Array(m);
  const other = (e: number, v: number): number => (uniq[2 * e] === v ? uniq[2 * e + 1] : uniq[2 * e]);
  const walk = (v0: number, e0: number): number[] => {
    const chain = [v0];
    let v = v0;
    let e = e0;
    for (;;) {
      used[e] = 1;
      v = other(e, v);
      chain.push(v);
      if (degree(v) !== 2) return chain;
      let next = -1;
      for (let k = start[v]; k < start[v + 1]; k++) if (!used[adj[k]]) next = adj[k];
      if (next < 0) return chain; // back at the loop's start
      e = next;
    }
  };
  const runs: Run[] = [];
  const toRun = (chain: number[], closed: boolean): Run => {
    const pts = new Float64Array((closed ? chain.length - 1 : chain.length) * 3);
    for (let i = 0; i < pts.length / 3; i++) pts.set(points.subarray(3 * chain[i], 3 * chain[i] + 3), 3 * i);
    return { points: pts, closed };
  };
  for (let v = 0; v < n; v++) {
    if (degree(v) === 2) continue;
    for (let k = start[v]; k < start[v + 1]; k++) if (!used[adj[k]]) runs.push(toRun(walk(v, adj[k]), false));
  }
  for (let v = 0; v < n; v++) {
    for (let k = start[v]; k < start[v + 1]; k++) if (!used[adj[k]]) runs.push(toRun(walk(v, adj[k]), true));
  }
  return runs;
}

function uniqueEdges(edges: Uint32Array): Uint32Array {
  const seen = new Set<string>();
  const out: number[] = [];
  for (let i = 0; i + 1 < edges.length; i += 2) {
    const a = edges[i];
    const b = edges[i + 1];
    if (a === b) continue;
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a, b);
  }
  return Uint32Array.from(out);
}

const dist = (p: Float64Array, i: number, q: Float64Array, j: number): number =>
  Math.hypot(p[3 * i] - q[3 * j], p[3 * i + 1] - q[3 * j + 1], p[3 * i + 2] - q[3 * j + 2]);

/** Distance from point i to the segment a–b (to point a when the segment has no length). */
function segmentDistance(p: Float64Array, i: number, a: number, b: number): number {
  const dx = p[3 * b] - p[3 * a], dy = p[3 * b + 1] - p[3 * a + 1], dz = p[3 * b + 2] - p[3 * a + 2];
  const px = p[3 * i] - p[3 * a], py = p[3 * i + 1] - p[3 * a + 1], pz = p[3 * i + 2] - p[3 * a + 2];
  const len2 = dx * dx + dy * dy + dz * dz;
  const t = len2 > 0 ? Math.min(1, Math.max(0, (px * dx + py * dy + pz * dz) / len2)) : 0;
  return Math.hypot(px - t * dx, py - t * dy, pz - t * dz);
}

/** Douglas–Peucker (iterative): indices of the points kept, first and last always kept. */
export function douglasPeucker(p: Float64Array, tolerance: number): number[] {
  const n = p.length / 3;
  if (n <= 2) return Array.from({ length: n }, (_, i) => i);
  const keep = new Uint8Array(n);
  keep[0] = keep[n - 1] = 1;
  const stack: [number, number][] = [[0, n - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    let worst = -1;
    let worstD = tolerance;
    for (let i = a + 1; i < b; i++) {
      const d = segmentDistance(p, i, a, b);
      if (d > worstD) {
        worstD = d;
        worst = i;
      }
    }
    if (worst < 0) continue;
    keep[worst] = 1;
    stack.push([a, worst], [worst, b]);
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out;
}

const pick = (p: Float64Array, idx: number[]): Float64Array => {
  const out = new Float64Array(idx.length * 3);
  idx.forEach((k, i) => out.set(p.subarray(3 * k, 3 * k + 3), 3 * i));
  return out;
};

/** Step 2: simplify and space a run; undefined when the add-on would drop it. */
export function cleanRun(run: Run): Run | undefined {
  let p = run.points;
  if (run.closed && p.length >= 3) {
    const q = new Float64Array(p.length + 3);
    q.set(p);
    q.set(p.subarray(0, 3), p.length);
    p = q;
  }
  p = pick(p, douglasPeucker(p, GRIND_SIMPLIFY_TOLERANCE));
  const n = p.length / 3;
  const kept: number[] = n ? [0] : [];
  for (let i = 1; i < n - 1; i++) if (dist(p, i, p, kept[kept.length - 1]) >= GRIND_MIN_SPACING) kept.push(i);
  if (n >= 2) {
    if (dist(p, n - 1, p, kept[kept.length - 1]) < GRIND_MIN_SPACING) kept[kept.length - 1] = n - 1;
    else kept.push(n - 1);
  }
  let pts = pick(p, kept);
  let closed = run.closed;
  if (closed) {
    pts = pts.subarray(0, pts.length - 3).slice();
    closed = pts.length / 3 >= 3; // too short to close: what remains is an open run
  }
  const m = pts.length / 3;
  if (m < 2) return undefined;
  if (!closed && dist(pts, 0, pts, m - 1) < 1e-6) return undefined;
  return { points: pts, closed };
}

/** Unit direction from point i to point j. */
function dir(p: Float64Array, i: number, j: number): [number, number, number] {
  const x = p[3 * j] - p[3 * i], y = p[3 * j + 1] - p[3 * i + 1], z = p[3 * j + 2] - p[3 * i + 2];
  const l = Math.hypot(x, y, z) || 1;
  return [x / l, y / l, z / l];
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * Step 3: a closed run with sharp corners is rotated to start at its first corner and opened (its first point
 * appended again so the closing segment stays); runs split at every sharp interior point, sharing the corner.
 */
export function splitAtCorners(run: Run): Run[] {
  const p = run.points;
  const n = p.length / 3;
  const sharp = (i: number, prev: number, next: number): boolean => dot(dir(p, prev, i), dir(p, i, next)) < GRIND_SHARP_COS;
  if (run.closed) {
    let first = -1;
    for (let i = 0; i < n && first < 0; i++) if (sharp(i, (i + n - 1) % n, (i + 1) % n)) first = i;
    if (first < 0) return [run];
    const idx = Array.from({ length: n + 1 }, (_, k) => (first + k) % n);
    return splitAtCorners({ points: pick(p, idx), closed: false });
  }
  const runs: Run[] = [];
  let from = 0;
  for (let i = 1; i < n - 1; i++) {
    if (!sharp(i, i - 1, i + 1)) continue;
    runs.push({ points: p.slice(3 * from, 3 * i + 3), closed: false });
    from = i;
  }
  runs.push({ points: p.slice(3 * from), closed: false });
  return runs;
}

/** Steps 4–7: the prism's rings (8 vertices a point, corner 0 on the curve) and its outward-wound faces. */
export function buildPrism(run: Run, radius: number): Prism {
  const p = run.points;
  const n = p.length / 3;
  const positions = new Float64Array(n * GRIND_SIDES * 3);
  let prevUp: number[] | undefined;
  for (let i = 0; i < n; i++) {
    const before = run.closed ? dir(p, (i + n - 1) % n, i) : i === 0 ? dir(p, 0, 1) : dir(p, i - 1, i);
    const after = run.closed ? dir(p, i, (i + 1) % n) : i === n - 1 ? dir(p, n - 2, n - 1) : dir(p, i, i + 1);
    const t = tangent(before, after);
    const up = frameUp(t, prevUp);
    prevUp = up;
    const side = [t[1] * up[2] - t[2] * up[1], t[2] * up[0] - t[0] * up[2], t[0] * up[1] - t[1] * up[0]];
    const raw = [after[0] - before[0], after[1] - before[1], after[2] - before[2]];
    const rt = dot(raw, t);
    let bend = [raw[0] - rt * t[0], raw[1] - rt * t[1], raw[2] - rt * t[2]];
    const bl = Math.hypot(bend[0], bend[1], bend[2]);
    let stretch = 0;
    if (bl > 1e-6) {
      bend = bend.map((c) => c / bl);
      stretch = 1 / Math.max(0.5, Math.min(1, dot(before, t))) - 1;
    }
    writeRing(positions, i, [p[3 * i], p[3 * i + 1], p[3 * i + 2]], up, side, bend, stretch, radius);
  }
  return { positions, indices: prismIndices(n, run.closed) };
}

/** Step 7's faces of a prism over n rings (GRIND_SIDES vertices each, ring by ring), wound outward. */
export function prismIndices(n: number, closed: boolean): Uint32Array {
  const segments = closed ? n : n - 1;
  const indices = new Uint32Array(Math.max(0, segments) * GRIND_SIDES * 6);
  let w = 0;
  for (let i = 0; i < segments; i++) {
    const here = GRIND_SIDES * i;
    const there = GRIND_SIDES * ((i + 1) % n);
    for (let c = 0; c < GRIND_SIDES; c++) {
      const c1 = (c + 1) % GRIND_SIDES;
      indices.set([here + c, here + c1, there + c1, here + c, there + c1, there + c], w);
      w += 6;
    }
  }
  return indices;
}

function tangent(before: number[], after: number[]): number[] {
  const s = [before[0] + after[0], before[1] + after[1], before[2] + after[2]];
  const l = Math.hypot(s[0], s[1], s[2]);
  return l < 1e-6 ? after : s.map((c) => c / l);
}

/** World up (0,1,0) off the tangent; near-vertical tangents use the previous up, or (0,0,−1) at the start. */
function frameUp(t: number[], prevUp: number[] | undefined): number[] {
  const project = (u: number[]): number[] => {
    const d = dot(u, t);
    return [u[0] - d * t[0], u[1] - d * t[1], u[2] - d * t[2]];
  };
  let up = project([0, 1, 0]);
  if (Math.hypot(up[0], up[1], up[2]) < 1e-3) up = project(prevUp ?? [0, 0, -1]);
  const l = Math.hypot(up[0], up[1], up[2]) || 1;
  return up.map((c) => c / l);
}

function writeRing(out: Float64Array, i: number, point: number[], up: number[], side: number[], bend: number[], stretch: number, radius: number): void {
  const offsets: number[][] = [];
  for (let k = 0; k < GRIND_SIDES; k++) {
    const a = (2 * Math.PI * k) / GRIND_SIDES;
    const c = Math.cos(a), s = Math.sin(a);
    const o = [0, 1, 2].map((j) => (up[j] * c + side[j] * s) * radius);
    const ob = dot(o, bend) * stretch;
    offsets.push(o.map((v, j) => v + bend[j] * ob));
  }
  const centre = point.map((v, j) => v - offsets[0][j]);
  for (let k = 0; k < GRIND_SIDES; k++) {
    for (let j = 0; j < 3; j++) out[3 * (GRIND_SIDES * i + k) + j] = centre[j] + offsets[k][j];
  }
}

/** Step 8's measure: triangle index count over the bounding-box diagonal (half-edges per metre). */
export function halfEdgesPerMetre(positions: ArrayLike<number>, indexCount: number): number {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let j = 0; j < 3; j++) {
      min[j] = Math.min(min[j], positions[i + j]);
      max[j] = Math.max(max[j], positions[i + j]);
    }
  }
  const diag = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return diag > 0 ? indexCount / diag : indexCount > 0 ? Infinity : 0;
}

/** Steps 2–7 over chained runs: the prisms of one grind curve, in run order. */
export function grindPrisms(runs: Run[], settings: GrindSettings = GRIND_DEFAULTS): Prism[] {
  const radius = clampGrindRadius(settings.radius);
  const prisms: Prism[] = [];
  for (const run of runs) {
    const clean = cleanRun(run);
    if (!clean) continue;
    for (const piece of splitAtCorners(clean)) prisms.push(buildPrism(piece, radius));
  }
  return prisms;
}
