// Open edges split into borders and cracks (docs/validation.md, "Borders and cracks"). An edge used by one
// triangle is either the outline of an open surface (a border: expected) or a crack: it lies along another open
// edge or along a face, within CRACK_DEFAULTS.tolerance, without sharing its vertices (a gap between two pieces, a
// T-junction, a near miss). Cracks are where a board bumps; borders are not. Meshes are compared with each other
// too (a crack between two objects is as much a bump as one inside an object).
//
// Rule: three points of each open edge (at ¼, ½ and ¾ of its length) are tested. A point is on
// - another open edge when that edge runs within `maxAngle` of parallel, the point's projection falls strictly
//   inside it, and the distance is at most `tolerance`;
// - a face when its projection onto the face's plane is inside the triangle (barycentrics ≥ 0), the distance to
//   the plane is at most `tolerance`, and the face is not the edge's own (a face of the same mesh having both of
//   the edge's end points as corners: its own triangle, or a repeat of it the weld dropped).
// Strict projection inside and the three interior points keep a border's neighbours from counting: the next edge of
// a straight or bent outline projects the points outside itself, and a coplanar fan's faces at a border vertex
// lie beside the edge, not over it.
//
// Search: the points go into a hash of square columns on the ground plane (X/Z), whose size follows the faces' own
// size (the median extent of a sample, at least 4 × tolerance); every face and open edge then visits the columns
// under its box grown by the tolerance, or, when those columns are more than the points, tests every point
// (a face that would visit more columns than there are points). So the cost is about linear in faces + points.
// Pure functions over typed arrays; no per-face objects. The two loops run in WebAssembly (assembly/cracks.ts,
// the same arithmetic step for step); the JavaScript ones stay for inputs it does not take (classifyInWasm).

import { encoderWasm, WasmLayout, withEncoder } from './wasm.ts';

export interface CrackOptions {
  /** Distance (metres, > 0) within which an open edge counts as lying along another edge or a face. Default 0.001. */
  tolerance: number;
  /** Largest angle (degrees, 0–90) between two open edges for one to lie along the other. Default 10. */
  maxAngle: number;
  /**
   * Whether an open edge that another mesh runs exactly in reverse (same end positions) counts as joined, not as a
   * crack. True for the input's validation: the level-wide weld joins such seams (`--seams level`). False for
   * written files (report.html): there an open corner is open for the game, whatever lies across it.
   */
  joinExactAcrossMeshes: boolean;
}

export const CRACK_DEFAULTS: CrackOptions = { tolerance: 0.001, maxAngle: 10, joinExactAcrossMeshes: true };

/** One mesh's faces and open edges, world space. */
export interface CrackMesh {
  /** xyz per vertex. */
  positions: Float32Array;
  /** Triangle index lists (three vertex indices a triangle), numbered in order across the lists. */
  groups: Uint32Array[];
  /** Open edges: from xyz, to xyz (6 values an edge). */
  open: Float32Array;
  /** Triangle (index over `groups` in order) each open edge belongs to. */
  openTriangle: Uint32Array;
}

export interface CrackResult {
  /** Per mesh, per open edge: −1 a border, UNCHECKED (the pass was past its budget), else the mesh the first match belongs to (a crack). */
  with: Int32Array[];
  /** Set when the pass was not run: its estimated work and the budget it was past (CRACK_BUDGET). */
  unchecked?: { work: number; budget: number };
}

/** In a result: an edge the pass did not classify (its work was past the budget); neither a border nor a crack. */
export const UNCHECKED = -3;

/**
 * The crack pass's work budget, in point tests (a point of an open edge gathered under a face's or an edge's
 * X/Z box): `base` plus `perItem` for each face and point. A level of ordinary pieces tests a few to a few dozen
 * points per face; a soup of large overlapping faces over a spread of points tests nearly every point for every
 * face (100,000 faces of ~100 m over 900,000 points: ~10^11 tests, hours). Past the budget the pass is not run and
 * every edge it would have classified is UNCHECKED (a warning says how many): a bounded build over a complete one.
 * ~8 ns a test in WebAssembly (measured: 10,000 such faces, 2.2·10^9 tests, 17 s): the base is ~4 s of work, and
 * the bench levels test ~2 points a face (city-blocks: 268,000 tests for 120,000 faces), far under perItem.
 */
export const CRACK_BUDGET = { base: 5e8, perItem: 200 };

/** The classification of a mesh without open edges: shared, and with nothing in it nothing is ever written to it. */
const NO_EDGES = new Int32Array(0);

/** Points tested on each open edge, as fractions of its length. */
export const SAMPLES = [0.25, 0.5, 0.75];

/** In a `known` classification: an edge to classify (every other value is kept as it is). */
export const UNKNOWN = -2;

/**
 * Classifies every open edge of every mesh (see the file header). With `known` (per mesh, per open edge, a value
 * or UNKNOWN), only the UNKNOWN edges are classified and the others keep their value: a rebuild's edges far from
 * every changed mesh (src/import/validate-memo.ts). An edge's value depends only on the meshes within tolerance
 * of its points — the first in mesh order whose open edge it lies along, else the first whose face — so a kept
 * value is the value a full pass would give when those meshes and their order are the same.
 */
export function classifyOpenEdges(meshes: CrackMesh[], options: Partial<CrackOptions> = {}, known?: Int32Array[]): CrackResult {
  return classify(meshes, options, known, true);
}

/** classifyOpenEdges all in JavaScript: what the WebAssembly path is held to (test/geometry/cracks.test.ts). */
export function classifyOpenEdgesJs(meshes: CrackMesh[], options: Partial<CrackOptions> = {}, known?: Int32Array[]): CrackResult {
  return classify(meshes, options, known, false);
}

/** The pass's settings and points, as both paths read them. */
interface Pass {
  meshes: CrackMesh[];
  tol: number;
  cosMax: number;
  join: boolean;
  px: Float64Array;
  py: Float64Array;
  pz: Float64Array;
  pMesh: Int32Array;
  pEdge: Int32Array;
  /** Per mesh, per open edge: −1 or the mesh it lies along (the result's lists, or views of the wasm's copy). */
  with: Int32Array[];
}

function classify(meshes: CrackMesh[], options: Partial<CrackOptions>, known: Int32Array[] | undefined, wasm: boolean): CrackResult {
  const opt = { ...CRACK_DEFAULTS, ...options };
  const tol = opt.tolerance;
  const cosMax = Math.cos((opt.maxAngle * Math.PI) / 180);
  const join = opt.joinExactAcrossMeshes;
  // A closed mesh (most of a level's) gets the one shared empty list: 262,464 objects' own took ~50 MB at 64M.
  const result: CrackResult = {
    with: meshes.map((m, mi) => (m.open.length === 0 ? NO_EDGES : known ? Int32Array.from(known[mi], (v) => (v === UNKNOWN ? -1 : v)) : new Int32Array(m.open.length / 6).fill(-1))),
  };
  const todo = (mi: number, i: number): boolean => !known || known[mi][i] === UNKNOWN;
  let totalEdges = 0;
  meshes.forEach((m, mi) => {
    for (let i = 0; i < m.open.length / 6; i++) if (todo(mi, i)) totalEdges++;
  });
  if (totalEdges === 0) return result;
  const np = totalEdges * SAMPLES.length;
  const budget = crackBudget(meshes, np);
  const work = crackWork(meshes, todo, np, tol, budget);
  if (work > budget) {
    meshes.forEach((m, mi) => {
      for (let i = 0; i < m.open.length / 6; i++) if (todo(mi, i)) result.with[mi][i] = UNCHECKED;
    });
    result.unchecked = { work, budget };
    return result;
  }
  if (wasm) return withEncoder(`cracks: ${np} points`, () => classifyInWasm(meshes, result, np, todo, tol, cosMax, join));

  // Points: xyz, and the (mesh, edge) they belong to.
  const pass: Pass = { meshes, tol, cosMax, join, px: new Float64Array(np), py: new Float64Array(np), pz: new Float64Array(np), pMesh: new Int32Array(np), pEdge: new Int32Array(np), with: result.with };
  samplePoints(pass, todo);
  loopsJs(pass, columnSize(meshes, tol, pass.px, pass.pz));
  return result;
}

/** Both loops in JavaScript over the pass's points, in columns of `size`. */
function loopsJs(pass: Pass, size: number): void {
  const grid = new ColumnHash(pass.px, pass.pz, size);
  pass.meshes.forEach((_, mi) => edgesJs(pass, grid, mi));
  pass.meshes.forEach((m, mi) => {
    if (nearAnyPoint(grid, m.positions, pass.tol)) facesJs(pass, grid, mi);
  });
}

/** The points of every open edge to classify (SAMPLES along it) into the pass's arrays. */
function samplePoints(pass: Pass, todo: (mi: number, i: number) => boolean): void {
  const { px, py, pz, pMesh, pEdge } = pass;
  let k = 0;
  pass.meshes.forEach((m, mi) => {
    const e = m.open;
    for (let i = 0; i < e.length / 6; i++) {
      if (!todo(mi, i)) continue;
      for (const f of SAMPLES) {
        px[k] = e[6 * i] + f * (e[6 * i + 3] - e[6 * i]);
        py[k] = e[6 * i + 1] + f * (e[6 * i + 4] - e[6 * i + 1]);
        pz[k] = e[6 * i + 2] + f * (e[6 * i + 5] - e[6 * i + 2]);
        pMesh[k] = mi;
        pEdge[k] = i;
        k++;
      }
    }
  });
}

/** Mesh mi's open edges against the points of other open edges. */
function edgesJs(pass: Pass, grid: ColumnHash, mi: number): void {
  const { meshes, tol, cosMax, join, px, py, pz, pMesh, pEdge } = pass;
  const flag = (p: number): void => {
    const w = pass.with[pMesh[p]];
    if (w[pEdge[p]] < 0) w[pEdge[p]] = mi;
  };
  const e = meshes[mi].open;
  for (let i = 0; i < e.length / 6; i++) {
    const ax = e[6 * i], ay = e[6 * i + 1], az = e[6 * i + 2];
    const dx = e[6 * i + 3] - ax, dy = e[6 * i + 4] - ay, dz = e[6 * i + 5] - az;
    const len2 = dx * dx + dy * dy + dz * dz;
    if (len2 === 0) continue;
    const len = Math.sqrt(len2);
    const n = grid.gather(Math.min(ax, ax + dx) - tol, Math.min(az, az + dz) - tol, Math.max(ax, ax + dx) + tol, Math.max(az, az + dz) + tol);
    for (let q = 0; q < n; q++) {
      const p = grid.found[q];
      if (pMesh[p] === mi && pEdge[p] === i) continue;
      const w = pass.with[pMesh[p]];
      if (w[pEdge[p]] >= 0) continue;
      const t = ((px[p] - ax) * dx + (py[p] - ay) * dy + (pz[p] - az) * dz) / len2;
      if (!(t > 0 && t < 1)) continue;
      const qx = ax + t * dx - px[p], qy = ay + t * dy - py[p], qz = az + t * dz - pz[p];
      if (qx * qx + qy * qy + qz * qz > tol * tol) continue;
      // Parallel enough: the other edge's direction.
      const o = meshes[pMesh[p]].open, j = pEdge[p];
      const ex = o[6 * j + 3] - o[6 * j], ey = o[6 * j + 4] - o[6 * j + 1], ez = o[6 * j + 5] - o[6 * j + 2];
      const elen = Math.hypot(ex, ey, ez);
      if (elen === 0 || Math.abs(dx * ex + dy * ey + dz * ez) < cosMax * len * elen) continue;
      if (join && pMesh[p] !== mi && joinedEdge(e, i, o, j)) continue;
      flag(p);
    }
  }
}

/** Mesh mi's faces against the points. */
function facesJs(pass: Pass, grid: ColumnHash, mi: number): void {
  const { meshes, tol, join, px, py, pz, pMesh, pEdge } = pass;
  const flag = (p: number): void => {
    const w = pass.with[pMesh[p]];
    if (w[pEdge[p]] < 0) w[pEdge[p]] = mi;
  };
  const m = meshes[mi];
  const pos = m.positions;
  let t = 0;
  for (const g of m.groups) {
    for (let c = 0; c < g.length; c += 3, t++) {
      const i0 = 3 * g[c], i1 = 3 * g[c + 1], i2 = 3 * g[c + 2];
      const ax = pos[i0], ay = pos[i0 + 1], az = pos[i0 + 2];
      const bx = pos[i1], by = pos[i1 + 1], bz = pos[i1 + 2];
      const cx = pos[i2], cy = pos[i2 + 1], cz = pos[i2 + 2];
      // The columns first: most faces have no point under them, and then no normal is needed.
      const x0 = Math.min(ax, bx, cx) - tol, z0 = Math.min(az, bz, cz) - tol;
      const x1 = Math.max(ax, bx, cx) + tol, z1 = Math.max(az, bz, cz) + tol;
      const n = grid.gather(x0, z0, x1, z1);
      if (n === 0) continue;
      const ux = bx - ax, uy = by - ay, uz = bz - az, vx = cx - ax, vy = cy - ay, vz = cz - az;
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      const n2 = nx * nx + ny * ny + nz * nz;
      if (n2 === 0) continue;
      const nlen = Math.sqrt(n2);
      const y0 = Math.min(ay, by, cy) - tol, y1 = Math.max(ay, by, cy) + tol;
      for (let q = 0; q < n; q++) {
        const p = grid.found[q];
        const w = pass.with[pMesh[p]];
        if (w[pEdge[p]] >= 0 || py[p] < y0 || py[p] > y1) continue;
        const qx = px[p] - ax, qy = py[p] - ay, qz = pz[p] - az;
        const dist = (qx * nx + qy * ny + qz * nz) / nlen;
        if (Math.abs(dist) > tol) continue;
        // Barycentrics of the projection (signed areas over n).
        const s1 = (uy * qz - uz * qy) * nx + (uz * qx - ux * qz) * ny + (ux * qy - uy * qx) * nz; // c's weight · n2
        const s2 = (qy * vz - qz * vy) * nx + (qz * vx - qx * vz) * ny + (qx * vy - qy * vx) * nz; // b's weight · n2
        if (s1 < 0 || s2 < 0 || s1 + s2 > n2) continue;
        if (pMesh[p] === mi && ownFace(meshes[mi], pEdge[p], t, ax, ay, az, bx, by, bz, cx, cy, cz)) continue;
        if (join && pMesh[p] !== mi && joinedFace(meshes[pMesh[p]].open, pEdge[p], ax, ay, az, bx, by, bz, cx, cy, cz)) continue;
        flag(p);
      }
    }
  }
}

/**
 * Column indices (coordinate / column size) stay within ±2^30 on the WebAssembly path, where they are i32; a
 * point, open edge or vertex beyond (or not finite) sends the pass, or that mesh's faces, to the JavaScript loops.
 */
const WASM_COLUMNS = 2 ** 30;

/** How many passes took which path, and how many meshes' faces went to JavaScript on the WebAssembly path (tests). */
export const CRACK_PATHS = { wasm: 0, js: 0, jsMeshes: 0 };

/**
 * The two loops in WebAssembly (assembly/cracks.ts; the points are sampled and the column size chosen here, as in
 * JavaScript): the points, open edges and values laid out in its memory, the meshes' faces copied in one mesh at
 * a time. Falls back to the JavaScript loops — for the whole pass when a point or an open edge is not finite or
 * beyond ±WASM_COLUMNS columns, for one mesh's faces when one of its vertices is or an index is past its vertices.
 */
function classifyInWasm(meshes: CrackMesh[], result: CrackResult, np: number, todo: (mi: number, i: number) => boolean, tol: number, cosMax: number, join: boolean): CrackResult {
  const m = new WasmLayout(encoderWasm());
  const nm = meshes.length;
  const table = m.take(16 * nm);
  const at = meshes.map((me) => {
    const ne = me.open.length / 6;
    return { open: m.take(24 * ne), tri: m.take(4 * ne), with: m.take(4 * ne), ne };
  });
  const ppx = m.take(8 * np), ppy = m.take(8 * np), ppz = m.take(8 * np), pm = m.take(4 * np), pe = m.take(4 * np);
  let buf = m.commit();
  const views = (b: ArrayBuffer) => ({ px: new Float64Array(b, ppx, np), py: new Float64Array(b, ppy, np), pz: new Float64Array(b, ppz, np), pMesh: new Int32Array(b, pm, np), pEdge: new Int32Array(b, pe, np), with: meshes.map((me, i) => (at[i].ne ? new Int32Array(b, at[i].with, at[i].ne) : NO_EDGES)) });
  const pass: Pass = { meshes, tol, cosMax, join, ...views(buf) };
  samplePoints(pass, todo);
  const size = columnSize(meshes, tol, pass.px, pass.pz);
  const limit = WASM_COLUMNS * size;
  const inRange = (x: number): boolean => Math.abs(x) <= limit; // false for NaN
  let ok = Number.isFinite(size) && size > 0;
  for (let p = 0; ok && p < np; p++) ok = inRange(pass.px[p]) && inRange(pass.pz[p]);
  for (const me of meshes) {
    const e = me.open;
    for (let k = 0; ok && k < e.length; k += 3) ok = inRange(e[k]) && inRange(e[k + 2]);
  }
  if (!ok) {
    CRACK_PATHS.js++;
    // The JavaScript loops on the points where they are (no wasm call follows to move the memory), into the result.
    loopsJs({ ...pass, with: result.with }, size);
    return result;
  }
  CRACK_PATHS.wasm++;
  const t32 = new Uint32Array(buf, table, 4 * nm);
  meshes.forEach((me, i) => {
    const a = at[i];
    t32[4 * i] = a.open; t32[4 * i + 1] = a.ne; t32[4 * i + 2] = a.tri; t32[4 * i + 3] = a.with;
    if (!a.ne) return;
    new Float32Array(buf, a.open, 6 * a.ne).set(me.open);
    new Uint32Array(buf, a.tri, a.ne).set(me.openTriangle);
    pass.with[i].set(result.with[i]);
  });
  const w = m.w;
  const end = w.cracksBegin(np, ppx, ppy, ppz, pm, pe, size, tol, cosMax, join ? 1 : 0, table, m.end());
  w.cracksEdges(0, nm);
  let jsGrid: ColumnHash | undefined;
  meshes.forEach((me, mi) => {
    const nv = me.positions.length / 3;
    let nt = 0;
    for (const g of me.groups) nt += g.length / 3;
    if (nt === 0) return;
    const pos = end, idx = pos + ((12 * nv + 7) & ~7);
    const need = idx + 12 * nt;
    if (need > w.memory.buffer.byteLength) w.memory.grow(Math.ceil((need - w.memory.buffer.byteLength) / 65_536));
    buf = w.memory.buffer;
    new Float32Array(buf, pos, 3 * nv).set(me.positions);
    let k = idx;
    for (const g of me.groups) {
      new Uint32Array(buf, k, g.length).set(g);
      k += 4 * g.length;
    }
    if (w.cracksFaces(mi, pos, nv, idx, nt, limit) >= 0) return;
    // A vertex beyond the columns or not finite, or a bad index: this mesh's faces in JavaScript, on the same values.
    CRACK_PATHS.jsMeshes++;
    const v = views(w.memory.buffer);
    jsGrid ??= new ColumnHash(v.px.slice(), v.pz.slice(), size);
    const js: Pass = { ...pass, ...v };
    if (nearAnyPoint(jsGrid, me.positions, tol)) facesJs(js, jsGrid, mi);
  });
  const out = views(w.memory.buffer).with;
  meshes.forEach((_, i) => {
    if (at[i].ne) result.with[i].set(out[i]);
  });
  return result;
}

/** Whether any point lies under the X/Z box of the positions grown by tol (else none of the mesh's faces can match). */
function nearAnyPoint(grid: ColumnHash, pos: Float32Array, tol: number): boolean {
  let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  for (let i = 0; i < pos.length; i += 3) {
    const x = pos[i], z = pos[i + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  return x0 <= x1 && grid.any(x0 - tol, z0 - tol, x1 + tol, z1 + tol);
}

/**
 * Whether open edge j of o (another object's) runs exactly the reverse of open edge i of e: the two objects continue
 * each other along it. The level-wide weld joins such a pair (docs/format-decisions.md, "Seams"), so it is no crack.
 */
function joinedEdge(e: Float32Array, i: number, o: Float32Array, j: number): boolean {
  return o[6 * j] === e[6 * i + 3] && o[6 * j + 1] === e[6 * i + 4] && o[6 * j + 2] === e[6 * i + 5] &&
    o[6 * j + 3] === e[6 * i] && o[6 * j + 4] === e[6 * i + 1] && o[6 * j + 5] === e[6 * i + 2];
}

/**
 * Whether the face (corners a, b, c, in winding order) of another object runs open edge i of e in reverse: the
 * face across a seam the level-wide weld joins (a face running it the same way is mirrored: not joined, a crack).
 */
function joinedFace(e: Float32Array, i: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): boolean {
  const fx = e[6 * i], fy = e[6 * i + 1], fz = e[6 * i + 2], tx = e[6 * i + 3], ty = e[6 * i + 4], tz = e[6 * i + 5];
  const runs = (px: number, py: number, pz: number, qx: number, qy: number, qz: number): boolean =>
    px === tx && py === ty && pz === tz && qx === fx && qy === fy && qz === fz;
  return runs(ax, ay, az, bx, by, bz) || runs(bx, by, bz, cx, cy, cz) || runs(cx, cy, cz, ax, ay, az);
}

/** Whether the face (corners a, b, c) has both end points of open edge i of m among its corners. */
function ownFace(m: CrackMesh, i: number, t: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): boolean {
  if (m.openTriangle[i] === t) return true;
  const e = m.open;
  const isCorner = (x: number, y: number, z: number): boolean =>
    (x === ax && y === ay && z === az) || (x === bx && y === by && z === bz) || (x === cx && y === cy && z === cz);
  return isCorner(e[6 * i], e[6 * i + 1], e[6 * i + 2]) && isCorner(e[6 * i + 3], e[6 * i + 4], e[6 * i + 5]);
}

/**
 * Column edge: the median X/Z extent of up to 1,024 faces spread over the meshes, or the points' spacing if they
 * were spread evenly over their box (so large faces over few points visit few columns), at least 4 × tolerance.
 */
function columnSize(meshes: CrackMesh[], tol: number, px: Float64Array, pz: Float64Array): number {
  let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  for (let p = 0; p < px.length; p++) {
    x0 = Math.min(x0, px[p]); x1 = Math.max(x1, px[p]);
    z0 = Math.min(z0, pz[p]); z1 = Math.max(z1, pz[p]);
  }
  const spacing = Math.sqrt(((x1 - x0) * (z1 - z0)) / px.length);
  const total = meshes.reduce((s, m) => s + m.groups.reduce((t, g) => t + g.length / 3, 0), 0);
  const step = Math.max(1, Math.floor(total / 1024));
  const sizes: number[] = [];
  // Every step-th triangle in order over the meshes' lists (global index t ≡ 0 mod step), visited directly.
  let t = 0;
  for (const m of meshes) {
    const p = m.positions;
    for (const g of m.groups) {
      const count = g.length / 3;
      for (let j = (step - (t % step)) % step; j < count; j += step) {
        const a = 3 * g[3 * j], b = 3 * g[3 * j + 1], c = 3 * g[3 * j + 2];
        const dx = Math.max(p[a], p[b], p[c]) - Math.min(p[a], p[b], p[c]);
        const dz = Math.max(p[a + 2], p[b + 2], p[c + 2]) - Math.min(p[a + 2], p[b + 2], p[c + 2]);
        sizes.push(Math.max(dx, dz));
      }
      t += count;
    }
  }
  sizes.sort((a, b) => a - b);
  const median = sizes.length ? sizes[sizes.length >> 1] : 1;
  return Math.max(4 * tol, Number.isFinite(median) ? median : 1, Number.isFinite(spacing) ? spacing : 0);
}

/** The pass's budget (CRACK_BUDGET) for these meshes and np points. */
function crackBudget(meshes: CrackMesh[], np: number): number {
  let faces = 0;
  for (const m of meshes) for (const g of m.groups) faces += g.length / 3;
  return CRACK_BUDGET.base + CRACK_BUDGET.perItem * (faces + np);
}

/**
 * The point tests the two loops would make (an estimate from above, linear in faces + edges + points): the points
 * counted into a dense grid of the pass's columns (coarser when that grid would have more cells than 4 × points),
 * and for each face and open edge the points in the cells under its box grown by the tolerance (summed-area
 * table), or all of them when its columns outnumber the points (the loops then walk every point). Stops counting
 * past `stop`. Points not finite are left out (no box holds them); a box not finite counts every point.
 */
function crackWork(meshes: CrackMesh[], todo: (mi: number, i: number) => boolean, np: number, tol: number, stop: number): number {
  // The points as samplePoints makes them (only their X/Z): their box, then the grid.
  const px = new Float64Array(np), pz = new Float64Array(np);
  let k = 0;
  meshes.forEach((m, mi) => {
    const e = m.open;
    for (let i = 0; i < e.length / 6; i++) {
      if (!todo(mi, i)) continue;
      for (const f of SAMPLES) {
        px[k] = e[6 * i] + f * (e[6 * i + 3] - e[6 * i]);
        pz[k] = e[6 * i + 2] + f * (e[6 * i + 5] - e[6 * i + 2]);
        k++;
      }
    }
  });
  const size = columnSize(meshes, tol, px, pz);
  let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  for (let p = 0; p < np; p++) {
    if (!(Number.isFinite(px[p]) && Number.isFinite(pz[p]))) continue;
    x0 = Math.min(x0, px[p]); x1 = Math.max(x1, px[p]);
    z0 = Math.min(z0, pz[p]); z1 = Math.max(z1, pz[p]);
  }
  if (!(x0 <= x1) || !(size > 0)) return 0;
  // Cells of `cell` metres (a whole number of columns), at most ~4 × np of them.
  let cell = size;
  const cellsAt = (c: number): number => (Math.floor(x1 / c) - Math.floor(x0 / c) + 1) * (Math.floor(z1 / c) - Math.floor(z0 / c) + 1);
  while (!(cellsAt(cell) <= 4 * np + 1024)) cell *= 2;
  const gx0 = Math.floor(x0 / cell), gz0 = Math.floor(z0 / cell);
  const nx = Math.floor(x1 / cell) - gx0 + 1, nz = Math.floor(z1 / cell) - gz0 + 1;
  const sat = new Float64Array((nx + 1) * (nz + 1));
  for (let p = 0; p < np; p++) {
    if (!(Number.isFinite(px[p]) && Number.isFinite(pz[p]))) continue;
    sat[(Math.floor(px[p] / cell) - gx0 + 1) * (nz + 1) + Math.floor(pz[p] / cell) - gz0 + 1]++;
  }
  for (let i = 1; i <= nx; i++) for (let j = 1; j <= nz; j++) sat[i * (nz + 1) + j] += sat[(i - 1) * (nz + 1) + j] + sat[i * (nz + 1) + j - 1] - sat[(i - 1) * (nz + 1) + j - 1];
  const clampX = (v: number): number => Math.min(nx, Math.max(0, v));
  const clampZ = (v: number): number => Math.min(nz, Math.max(0, v));
  let work = 0;
  const box = (bx0: number, bz0: number, bx1: number, bz1: number): void => {
    const columns = (Math.floor(bx1 / size) - Math.floor(bx0 / size) + 1) * (Math.floor(bz1 / size) - Math.floor(bz0 / size) + 1);
    if (!(columns <= np)) {
      work += np;
      return;
    }
    const i0 = clampX(Math.floor(bx0 / cell) - gx0), i1 = clampX(Math.floor(bx1 / cell) - gx0 + 1);
    const j0 = clampZ(Math.floor(bz0 / cell) - gz0), j1 = clampZ(Math.floor(bz1 / cell) - gz0 + 1);
    work += columns + sat[i1 * (nz + 1) + j1] - sat[i0 * (nz + 1) + j1] - sat[i1 * (nz + 1) + j0] + sat[i0 * (nz + 1) + j0];
  };
  for (const m of meshes) {
    const e = m.open;
    for (let i = 0; i < e.length && work <= stop; i += 6) box(Math.min(e[i], e[i + 3]) - tol, Math.min(e[i + 2], e[i + 5]) - tol, Math.max(e[i], e[i + 3]) + tol, Math.max(e[i + 2], e[i + 5]) + tol);
    const pos = m.positions;
    for (const g of m.groups) {
      for (let c = 0; c < g.length && work <= stop; c += 3) {
        const a = 3 * g[c], b = 3 * g[c + 1], d = 3 * g[c + 2];
        box(Math.min(pos[a], pos[b], pos[d]) - tol, Math.min(pos[a + 2], pos[b + 2], pos[d + 2]) - tol, Math.max(pos[a], pos[b], pos[d]) + tol, Math.max(pos[a + 2], pos[b + 2], pos[d + 2]) + tol);
      }
    }
    if (work > stop) break;
  }
  return work;
}

/** Column indices from here on (or not numbers) are not looked up by key (ColumnHash.gather). */
const I32_COLUMNS = 2 ** 31;

/** Points bucketed by X/Z column (CSR over an open-addressed table of column keys). */
class ColumnHash {
  private keys: Int32Array;
  private start: Int32Array;
  private items: Int32Array;
  private mask: number;

  constructor(private px: Float64Array, private pz: Float64Array, private size: number) {
    const n = px.length;
    let cap = 2;
    while (cap < 2 * n) cap <<= 1;
    this.mask = cap - 1;
    this.keys = new Int32Array(2 * cap);
    const used = new Uint8Array(cap);
    const slotOf = new Int32Array(n);
    const count = new Int32Array(cap + 1);
    for (let p = 0; p < n; p++) {
      const ix = Math.floor(px[p] / size), iz = Math.floor(pz[p] / size);
      let h = this.hash(ix, iz);
      while (used[h] && (this.keys[2 * h] !== ix || this.keys[2 * h + 1] !== iz)) h = (h + 1) & this.mask;
      if (!used[h]) (used[h] = 1), (this.keys[2 * h] = ix), (this.keys[2 * h + 1] = iz);
      slotOf[p] = h;
      count[h + 1]++;
    }
    for (let h = 0; h < cap; h++) count[h + 1] += count[h];
    this.start = count;
    const fill = count.slice(0, cap);
    this.items = new Int32Array(n);
    for (let p = 0; p < n; p++) this.items[fill[slotOf[p]]++] = p;
    this.used = used;
    this.found = new Int32Array(n);
  }

  private used: Uint8Array;

  private hash(ix: number, iz: number): number {
    let h = Math.imul(ix ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13) ^ iz, 0xc2b2ae35);
    return (h ^ (h >>> 16)) & this.mask;
  }

  /**
   * Whether any point lies inside [x0, x1] × [z0, z1]: gather stopping at the first. (nearAnyPoint asks it for every
   * mesh's whole box: gathering every point under a mesh spread over the level, for each of 1,000 such meshes, made
   * the crack pass quadratic: 2.1 s for 100 objects of 300 scattered triangles, minutes for 1,000.)
   */
  any(x0: number, z0: number, x1: number, z1: number): boolean {
    return this.gather(x0, z0, x1, z1, 1) > 0;
  }

  /** The points found by the last gather (the first `gather()` entries). */
  readonly found: Int32Array;

  /**
   * Gathers into `found` the points inside [x0, x1] × [z0, z1] (through the columns under it, or through every
   * point when those columns are more than the points), at most `most` of them, and returns how many.
   */
  gather(x0: number, z0: number, x1: number, z1: number, most = this.px.length): number {
    const s = this.size, px = this.px, pz = this.pz, found = this.found;
    const ix0 = Math.floor(x0 / s), ix1 = Math.floor(x1 / s), iz0 = Math.floor(z0 / s), iz1 = Math.floor(z1 / s);
    let n = 0;
    // Columns past the i32 keys (or not numbers) are walked as the points themselves: stepping a column index past
    // 2^53 never ended, and a key past 2^31 never matched.
    if ((ix1 - ix0 + 1) * (iz1 - iz0 + 1) > px.length || !(Math.abs(ix0) < I32_COLUMNS && Math.abs(ix1) < I32_COLUMNS && Math.abs(iz0) < I32_COLUMNS && Math.abs(iz1) < I32_COLUMNS)) {
      for (let p = 0; p < px.length && n < most; p++) if (px[p] >= x0 && px[p] <= x1 && pz[p] >= z0 && pz[p] <= z1) found[n++] = p;
      return n;
    }
    for (let ix = ix0; ix <= ix1; ix++) {
      for (let iz = iz0; iz <= iz1; iz++) {
        let h = this.hash(ix, iz);
        while (this.used[h]) {
          if (this.keys[2 * h] === ix && this.keys[2 * h + 1] === iz) {
            for (let k = this.start[h]; k < this.start[h + 1]; k++) {
              const p = this.items[k];
              if (!(px[p] >= x0 && px[p] <= x1 && pz[p] >= z0 && pz[p] <= z1)) continue;
              found[n++] = p;
              if (n === most) return n;
            }
            break;
          }
          h = (h + 1) & this.mask;
        }
      }
    }
    return n;
  }
}
