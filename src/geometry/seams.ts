// Level-wide edge data (../shared/spec/physics-resource.md, "Triangle-mesh shapes"; decision and reasoning
// in docs/format-decisions.md, "Seams"). The spec's edge rule is per corner: a corner's edge value and bits come
// from the single face across its edge. Shape by shape, every place where the compiler cuts the level — part per
// material, the u16 split, resource per object, collision_area cell — leaves corners with no opposite face in their
// shape, stored as open edges (ghost bumps). Each shape is encoded by the reference rule alone (its bytes are the
// reference encoder's) and lists the corners it leaves unpaired (encode.ts OpenCorners); matchSeams then runs the
// same rule over those corners of the whole level: exact-position keys (f32 bits, −0.0 = 0.0), a directed edge a→b
// paired when it and b→a are each held by exactly one of them, the classification on world positions. A corner
// paired inside its shape never takes part, so a shape's own pairs stay exactly the reference's; corners its shape
// leaves open because the edge has 3+ corners there are listed too, and keep their edge unpaired level-wide. Two
// faces that are each other's reverse (back to back) are never paired. The match runs in WebAssembly
// (assembly/seams.ts; FLAT_COS and the convex value's slow path come from JavaScript, as for the shapes).
//
// Why the open corners and not every triangle: the work is proportional to the cuts (the 1M bench level: ~47,000
// listed corners instead of 3 million), and no code depends on a neighbouring job, so a resource's bytes before
// the join depend on its own triangles only (the cache keys them so). The one difference from a weld of the whole
// level first: an edge paired inside one shape plus two more faces elsewhere that run it (4+ faces on one edge)
// joins those two; the whole-level rule would leave them open. The shape's own pair is kept either way.
// After the match, two passes join what it cannot (--seams level): edges covered by other open edges within a
// tolerance (T-junctions, near-flush joints: joinCovered) and edges lying on another object's face (a kicker's foot
// on the ground: joinOnFaces, given the level's triangles).

import { classifyEdge, convexValue, EDGE_CONCAVE, EDGE_CONCAVE_SHARP, EDGE_FLAT, FLAT_COS, SEAM_CONCAVE, SEAM_FLAT, SEAM_NONE, SEAM_SHARP } from './edge-rule.ts';
import type { OpenCorners } from './encode.ts';
import { encoderWasm, WasmLayout, withEncoder } from './wasm.ts';
import { keyOf } from './f32-keys.ts';

export interface SeamMatch {
  /** Per list, per listed corner: its level-wide code (edge-rule.ts SEAM_*, or the convex value; SEAM_NONE: open). */
  codes: Float32Array[];
  /** Listed corners with no single opposite corner in the level: the level's open edges as authored. */
  openCorners: number;
  /** Listed corners that took a code (joined across a cut; a pair counts two). */
  joined: number;
  /**
   * Set when the T-junction pass (joinCovered) was past its work budget and not run: the corners it would have
   * looked at (they stay open), its estimated work and the budget (COVER_BUDGET).
   */
  coverUnchecked?: { corners: number; work: number; budget: number };
  /** Set when the face pass (joinOnFaces) went past its work budget (FACE_BUDGET) and joined nothing. */
  faceUnchecked?: { corners: number; work: number; budget: number };
}

/** Corners per call into the match (assembly/seams.ts matchBegin says why it is called in chunks). */
const MATCH_CHUNK = 4096;

/**
 * Most corners matched in one call (bytes of wasm memory per corner ~96: points, keys, table, slot, code). Above
 * it the corners are matched in buckets of undirected edges (matchBuckets), so the match's memory stays ~25 MB
 * whatever the level: the 64M-triangle bench level lists ~3 million corners, which in one call grew the main
 * thread's wasm memory by ~280 MB, held until a collection.
 */
export const MATCH_BUCKET_CORNERS = 1 << 18;

/**
 * The level-wide codes of every listed corner (see the file header), computed in WebAssembly (assembly/seams.ts).
 * Lists are taken in order (a resource's shapes, resources in job order), which fixes each pair's classification
 * order: the result does not depend on how many threads encoded them. `faces`: the level's triangles, for the
 * pass that joins open edges lying on another object's face (joinOnFaces; none given: not run). `bucketCorners`
 * (tests): see MATCH_BUCKET_CORNERS; the codes do not depend on it.
 */
export function matchSeams(lists: OpenCorners[], faces?: LevelFaces[], bucketCorners = MATCH_BUCKET_CORNERS): SeamMatch {
  let n = 0;
  for (const l of lists) {
    if (l.points.length !== 9 * l.corner.length) throw new Error(`seams: ${l.points.length} point values for ${l.corner.length} corners`);
    n += l.corner.length;
  }
  const all = new Float32Array(n);
  const r = n <= bucketCorners
    ? matchRun(n, (into) => {
      let at = 0;
      for (const l of lists) {
        into.set(l.points, at);
        at += l.points.length;
      }
    }, (codes) => all.set(codes))
    : matchBuckets(lists, n, bucketCorners, all);
  const cover = joinCovered(lists, all);
  const onFaces = faces ? joinOnFaces(lists, all, faces) : { joined: 0 };
  const codes: Float32Array[] = [];
  let at = 0;
  for (const l of lists) codes.push(all.subarray(at, (at += l.corner.length)));
  return {
    codes, openCorners: r.openCorners, joined: r.joined + cover.joined + onFaces.joined,
    ...(cover.unchecked ? { coverUnchecked: cover.unchecked } : {}), ...(onFaces.unchecked ? { faceUnchecked: onFaces.unchecked } : {}),
  };
}

/**
 * Distance, metres, within which a listed corner's edge is covered by other listed edges lying along it the other
 * way (T_JUNCTION_TOLERANCE; docs/format-decisions.md "Seams across T-junctions and near-flush joints").
 */
export const T_JUNCTION_TOLERANCE = 1e-4;

/**
 * The corners the exact match left open whose edge a → b is covered, end to end, by other such corners' edges
 * running along it the other way (within T_JUNCTION_TOLERANCE of its line): a T-junction (a long edge against two
 * short ones: the long one is covered by the short ones, each short one by the long one), or two faces meeting
 * near-flush, not bit for bit. Each takes the code the edge rule gives it against
 * the faces across (one code when they all agree; else it stays open). Edges the exact match refused because more
 * than two faces hold them (an exact reverse exists) are left as they are. Writes into `all`; returns how many
 * corners it joined. Work: the open corners, by a grid of their boxes.
 */
/**
 * The T-junction pass's work budget, in edge pairs considered (each edge against the edges of its grid cells):
 * `base` plus `perCorner` for each corner it looks at. Edges of ordinary size meet a few neighbours each; a soup of
 * large overlapping triangles puts every edge in a few huge cells (10,000 triangles: ~30,000 open edges, ~9·10^8
 * pairs, 78 s). Past it the pass is not run (those corners stay open, as before it existed) and the build warns.
 */
export const COVER_BUDGET = { base: 5e7, perCorner: 200 };

/**
 * The listed corners the passes before left open (code SEAM_NONE in `all`) whose edge is at least `minLength` long:
 * their global indices and their 9 point values each (the corner's face, from the corner round).
 */
function stillOpen(lists: OpenCorners[], all: Float32Array, minLength: number): { open: number[]; P: Float64Array } {
  const open: number[] = [];
  const pts: number[] = [];
  let g = 0;
  for (const l of lists) {
    for (let c = 0; c < l.corner.length; c++, g++) {
      if (all[g] !== SEAM_NONE) continue;
      const o = 9 * c;
      if (minLength > 0 && Math.hypot(l.points[o + 3] - l.points[o], l.points[o + 4] - l.points[o + 1], l.points[o + 5] - l.points[o + 2]) < minLength) continue;
      open.push(g);
      for (let k = 0; k < 9; k++) pts.push(l.points[o + k]);
    }
  }
  return { open, P: Float64Array.from(pts) };
}

function joinCovered(lists: OpenCorners[], all: Float32Array): { joined: number; unchecked?: { corners: number; work: number; budget: number } } {
  const { open, P } = stillOpen(lists, all, 0);
  const n = open.length;
  if (n < 2) return { joined: 0 };
  // A grid over x/z of the edges' boxes, cells of twice the median edge length (at least 0.25 m).
  const lens = new Float64Array(n);
  for (let i = 0; i < n; i++) lens[i] = Math.hypot(P[9 * i + 3] - P[9 * i], P[9 * i + 4] - P[9 * i + 1], P[9 * i + 5] - P[9 * i + 2]);
  const cell = Math.max(0.25, 2 * [...lens].sort((a, b) => a - b)[n >> 1]);
  const grid = new Map<string, number[]>();
  const cellsOf = (i: number, visit: (key: string) => void): void => {
    const o = 9 * i, tol = T_JUNCTION_TOLERANCE;
    const x0 = Math.floor((Math.min(P[o], P[o + 3]) - tol) / cell), x1 = Math.floor((Math.max(P[o], P[o + 3]) + tol) / cell);
    const z0 = Math.floor((Math.min(P[o + 2], P[o + 5]) - tol) / cell), z1 = Math.floor((Math.max(P[o + 2], P[o + 5]) + tol) / cell);
    if ((x1 - x0 + 1) * (z1 - z0 + 1) > 4096) return visit('big');
    for (let z = z0; z <= z1; z++) for (let x = x0; x <= x1; x++) visit(`${x},${z}`);
  };
  for (let i = 0; i < n; i++) cellsOf(i, (k) => (grid.get(k) ?? grid.set(k, []).get(k)!).push(i));
  const big = grid.get('big') ?? [];
  // The pairs the loop below would consider, counted first (each edge's cells' lists, and the big ones), up to the budget.
  const budget = COVER_BUDGET.base + COVER_BUDGET.perCorner * n;
  let work = big.length * n;
  for (let e = 0; e < n && work <= budget; e++) {
    if (lens[e] < 10 * T_JUNCTION_TOLERANCE) continue;
    cellsOf(e, (k) => void (work += k === 'big' ? 0 : (grid.get(k)?.length ?? 0)));
  }
  if (work > budget) return { joined: 0, unchecked: { corners: n, work, budget } };
  let joined = 0;
  const seen = new Int32Array(n).fill(-1);
  for (let e = 0; e < n; e++) {
    const o = 9 * e, len = lens[e];
    if (len < 10 * T_JUNCTION_TOLERANCE) continue;
    const dx = (P[o + 3] - P[o]) / len, dy = (P[o + 4] - P[o + 1]) / len, dz = (P[o + 5] - P[o + 2]) / len;
    const spans: [number, number, number][] = [];
    let exactTwin = false;
    const consider = (f: number): void => {
      if (f === e || seen[f] === e) return;
      seen[f] = e;
      const q = 9 * f;
      if (P[q] === P[o + 3] && P[q + 1] === P[o + 4] && P[q + 2] === P[o + 5] && P[q + 3] === P[o] && P[q + 4] === P[o + 1] && P[q + 5] === P[o + 2]) {
        exactTwin = true;
        return;
      }
      // Both ends of f on e's line, f running the other way and overlapping e (a shorter edge within it, or a
      // longer one round it: its part along e counts).
      let t0 = 0, t1 = 0;
      for (let k = 0; k < 2; k++) {
        const rx = P[q + 3 * k] - P[o], ry = P[q + 3 * k + 1] - P[o + 1], rz = P[q + 3 * k + 2] - P[o + 2];
        const t = rx * dx + ry * dy + rz * dz;
        const off = Math.hypot(rx - t * dx, ry - t * dy, rz - t * dz);
        if (off > T_JUNCTION_TOLERANCE) return;
        if (k === 0) t0 = t;
        else t1 = t;
      }
      const lo = Math.max(0, t1), hi = Math.min(len, t0);
      if (!(t1 < t0) || hi - lo < T_JUNCTION_TOLERANCE) return;
      spans.push([lo, hi, f]);
    };
    cellsOf(e, (k) => {
      for (const f of grid.get(k) ?? []) consider(f);
    });
    for (const f of big) consider(f);
    if (exactTwin || spans.length === 0) continue;
    spans.sort((a, b) => a[0] - b[0]);
    let reach = 0;
    for (const [lo, hi] of spans) {
      if (lo > reach + T_JUNCTION_TOLERANCE) break;
      reach = Math.max(reach, hi);
    }
    if (reach < len - T_JUNCTION_TOLERANCE) continue;
    let code = NaN;
    for (const [, , f] of spans) {
      const c = coveredCode(P, o, 9 * f);
      if (Number.isNaN(code)) code = c;
      else if (!Object.is(code, c)) {
        code = SEAM_NONE;
        break;
      }
    }
    if (code === SEAM_NONE || Number.isNaN(code)) continue;
    all[open[e]] = code;
    joined++;
  }
  return { joined };
}

/** The level's triangles in world space, as the encoder takes them: positions (xyz) and a triangle list into them. */
export interface LevelFaces {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
}

/**
 * The face pass's work budget (joinOnFaces), in grid cells and edge–face pairs: the cells of the remaining open
 * edges, then for each face near one its cells and the edges they hold, all counted before any pair is looked at;
 * `base` plus `perCorner` for each corner it looks at. Ordinary faces meet a few edges each; a soup of large
 * overlapping triangles puts every edge under every face (10,000 triangles: ~30,000 open edges, ~3·10^8 pairs).
 * Past it the pass joins nothing (those corners stay open, as before it existed) and the build warns.
 */
export const FACE_BUDGET = { base: 3e7, perCorner: 200 };

/**
 * How far across an open edge, metres, a face must reach to continue the surface there (joinOnFaces): twice
 * T_JUNCTION_TOLERANCE, so that a face merely touching the edge from the edge's own side (the ground under a
 * kicker's ramp, ending at its foot line) is not taken for the surface beyond it.
 */
export const FACE_ACROSS = 2 * T_JUNCTION_TOLERANCE;

/** Most x/z cells of the face pass's grid (4 bytes each): the cell grows for a level spread wide with few open edges. */
const FACE_GRID_CELLS = 1 << 22;

/**
 * The corners still open after the match and the T-junction pass whose edge a → b lies on the faces of the level
 * (docs/format-decisions.md "Open edges lying on a face"): a kicker's foot on the ground, a box open at the bottom
 * on a floor, a floor patch lying on a bigger floor. A face qualifies for an edge when
 *  - it does not hold both a and b (an edge of a face elsewhere — the exact match's business: when any face but the
 *    corner's own holds it, by position, either way, the corner is left as it is), and it is not back to back with
 *    the corner's face (n1·n2 ≤ −FLAT_COS);
 *  - a and b lie within T_JUNCTION_TOLERANCE of its plane;
 *  - it continues the surface across the edge: the edge, moved FACE_ACROSS along the face's plane to the side the
 *    face's winding puts across it (r = e × n2, e the edge's direction: the side a neighbour holding b → a lies on),
 *    lies inside the face's footprint within T_JUNCTION_TOLERANCE over a stretch longer than the tolerance.
 * A corner covered end to end (gaps ≤ T_JUNCTION_TOLERANCE) by qualifying faces that each give the same code takes
 * it: the edge rule (classifyEdge) of its face against the face across, the neighbour above the corner's plane when
 * r leans above it (what the shape rule's centroid test gives a neighbour across the edge). Faces giving different
 * codes leave it open.
 *
 * Work: a grid over x/z of the remaining open edges (usually few), and every face streamed past it once.
 */
export function joinOnFaces(lists: OpenCorners[], all: Float32Array, faces: LevelFaces[]): { joined: number; unchecked?: { corners: number; work: number; budget: number } } {
  const tol = T_JUNCTION_TOLERANCE;
  const { open, P } = stillOpen(lists, all, 10 * tol);
  const n = open.length;
  if (n === 0 || faces.length === 0) return { joined: 0 };
  // Per edge: its unit direction, its face's unit normal, its length and box (x/z and y, widened by the tolerance).
  const E = new Float64Array(7 * n);
  const box = new Float64Array(6 * n);
  let gx0 = Infinity, gz0 = Infinity, gx1 = -Infinity, gz1 = -Infinity;
  const lens = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const o = 9 * i;
    const len = Math.hypot(P[o + 3] - P[o], P[o + 4] - P[o + 1], P[o + 5] - P[o + 2]);
    lens[i] = len;
    const nf = faceNormal(P, o);
    E.set([(P[o + 3] - P[o]) / len, (P[o + 4] - P[o + 1]) / len, (P[o + 5] - P[o + 2]) / len, nf[0], nf[1], nf[2], len], 7 * i);
    for (let k = 0; k < 3; k++) {
      box[6 * i + k] = Math.min(P[o + k], P[o + 3 + k]) - tol;
      box[6 * i + 3 + k] = Math.max(P[o + k], P[o + 3 + k]) + tol;
    }
    gx0 = Math.min(gx0, box[6 * i]);
    gz0 = Math.min(gz0, box[6 * i + 2]);
    gx1 = Math.max(gx1, box[6 * i + 3]);
    gz1 = Math.max(gz1, box[6 * i + 5]);
  }
  // Cells of twice the median edge length (at least 0.25 m), grown until the grid has at most FACE_GRID_CELLS.
  let cell = Math.max(0.25, 2 * [...lens].sort((a, b) => a - b)[n >> 1]);
  while (Math.ceil((gx1 - gx0) / cell + 1) * Math.ceil((gz1 - gz0) / cell + 1) > FACE_GRID_CELLS) cell *= 2;
  const W = Math.floor((gx1 - gx0) / cell) + 1, H = Math.floor((gz1 - gz0) / cell) + 1;
  const budget = FACE_BUDGET.base + FACE_BUDGET.perCorner * n;
  let work = 0;
  // Each edge's cells (x0, x1, z0, z1), then the cells' edges (CSR).
  const span = new Int32Array(4 * n);
  for (let i = 0; i < n; i++) {
    span[4 * i] = Math.floor((box[6 * i] - gx0) / cell);
    span[4 * i + 1] = Math.floor((box[6 * i + 3] - gx0) / cell);
    span[4 * i + 2] = Math.floor((box[6 * i + 2] - gz0) / cell);
    span[4 * i + 3] = Math.floor((box[6 * i + 5] - gz0) / cell);
    work += (span[4 * i + 1] - span[4 * i] + 1) * (span[4 * i + 3] - span[4 * i + 2] + 1);
  }
  if (work > budget) return { joined: 0, unchecked: { corners: n, work, budget } };
  const start = new Int32Array(W * H + 1);
  for (let i = 0; i < n; i++) for (let z = span[4 * i + 2]; z <= span[4 * i + 3]; z++) for (let x = span[4 * i]; x <= span[4 * i + 1]; x++) start[z * W + x + 1]++;
  for (let c = 0; c < W * H; c++) start[c + 1] += start[c];
  const members = new Int32Array(start[W * H]);
  const fill = start.slice(0, W * H);
  for (let i = 0; i < n; i++) for (let z = span[4 * i + 2]; z <= span[4 * i + 3]; z++) for (let x = span[4 * i]; x <= span[4 * i + 1]; x++) members[fill[z * W + x]++] = i;
  const occupied: number[] = [];
  for (let c = 0; c < W * H; c++) if (start[c + 1] > start[c]) occupied.push(c);
  // The spans each edge's faces cover (edge, t0, t1, code), and the edges some other face holds by position.
  const spanEdge: number[] = [], spanLo: number[] = [], spanHi: number[] = [], spanCode: number[] = [];
  const refused = new Uint8Array(n);
  const stamp = new Float64Array(n).fill(-1);
  const tri = new Float64Array(9);
  let t = 0;
  const pair = (i: number): void => {
    const o = 9 * i, q = 7 * i;
    // Holds a and b: the corner's own face (or a repeat of it), else another face on the edge.
    let ia = -1, ib = -1;
    for (let k = 0; k < 3; k++) {
      if (tri[3 * k] === P[o] && tri[3 * k + 1] === P[o + 1] && tri[3 * k + 2] === P[o + 2]) ia = k;
      else if (tri[3 * k] === P[o + 3] && tri[3 * k + 1] === P[o + 4] && tri[3 * k + 2] === P[o + 5]) ib = k;
    }
    if (ia >= 0 && ib >= 0) {
      const c = 3 * ((ia + 2) % 3);
      const own = ib === (ia + 1) % 3 && tri[c] === P[o + 6] && tri[c + 1] === P[o + 7] && tri[c + 2] === P[o + 8];
      if (!own) refused[i] = 1;
      return;
    }
    const ux = tri[3] - tri[0], uy = tri[4] - tri[1], uz = tri[5] - tri[2];
    const vx = tri[6] - tri[0], vy = tri[7] - tri[1], vz = tri[8] - tri[2];
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const nl = Math.hypot(nx, ny, nz);
    if (!(nl > 0)) return;
    nx /= nl;
    ny /= nl;
    nz /= nl;
    const d = Math.max(-1, Math.min(1, E[q + 3] * nx + E[q + 4] * ny + E[q + 5] * nz));
    if (d <= -FLAT_COS) return;
    const da = (P[o] - tri[0]) * nx + (P[o + 1] - tri[1]) * ny + (P[o + 2] - tri[2]) * nz;
    const db = (P[o + 3] - tri[0]) * nx + (P[o + 4] - tri[1]) * ny + (P[o + 5] - tri[2]) * nz;
    if (Math.abs(da) > tol || Math.abs(db) > tol) return;
    // r = e × n2: across the edge in the face's plane, on the side a neighbour holding b → a would lie.
    const ex = E[q], ey = E[q + 1], ez = E[q + 2];
    let rx = ey * nz - ez * ny, ry = ez * nx - ex * nz, rz = ex * ny - ey * nx;
    const rl = Math.hypot(rx, ry, rz);
    if (!(rl > 0.5)) return;
    rx /= rl;
    ry /= rl;
    rz /= rl;
    // The edge moved across and onto the plane, clipped to the footprint widened by the tolerance.
    const ax = P[o] - da * nx + FACE_ACROSS * rx, ay = P[o + 1] - da * ny + FACE_ACROSS * ry, az = P[o + 2] - da * nz + FACE_ACROSS * rz;
    const bx = P[o + 3] - db * nx + FACE_ACROSS * rx, by = P[o + 4] - db * ny + FACE_ACROSS * ry, bz = P[o + 5] - db * nz + FACE_ACROSS * rz;
    const len = E[q + 6];
    let lo = 0, hi = len;
    for (let k = 0; k < 3; k++) {
      const s = 3 * k, f = 3 * ((k + 1) % 3);
      const sx = tri[f] - tri[s], sy = tri[f + 1] - tri[s + 1], sz = tri[f + 2] - tri[s + 2];
      // Inward normal of the side in the plane: n2 × side (the triangle winds counter-clockwise about n2).
      let mx = ny * sz - nz * sy, my = nz * sx - nx * sz, mz = nx * sy - ny * sx;
      const ml = Math.hypot(mx, my, mz);
      if (!(ml > 0)) return;
      mx /= ml;
      my /= ml;
      mz /= ml;
      const f0 = (ax - tri[s]) * mx + (ay - tri[s + 1]) * my + (az - tri[s + 2]) * mz + tol;
      const f1 = (bx - tri[s]) * mx + (by - tri[s + 1]) * my + (bz - tri[s + 2]) * mz + tol;
      if (f0 < 0 && f1 < 0) return;
      if (f0 < 0) lo = Math.max(lo, (len * f0) / (f0 - f1));
      else if (f1 < 0) hi = Math.min(hi, (len * f0) / (f0 - f1));
    }
    if (hi - lo <= tol) return;
    const above = rx * E[q + 3] + ry * E[q + 4] + rz * E[q + 5] >= 0;
    const cls = classifyEdge(d, above);
    spanEdge.push(i);
    spanLo.push(lo);
    spanHi.push(hi);
    spanCode.push(cls === EDGE_FLAT ? SEAM_FLAT : cls === EDGE_CONCAVE ? SEAM_CONCAVE : cls === EDGE_CONCAVE_SHARP ? SEAM_SHARP : convexValue(d));
  };
  const visitCell = (c: number, y0: number, y1: number, x0: number, x1: number, z0: number, z1: number): void => {
    for (let m = start[c], end = start[c + 1]; m < end; m++) {
      const i = members[m];
      if (stamp[i] === t) continue;
      stamp[i] = t;
      const b = 6 * i;
      if (box[b + 1] > y1 || box[b + 4] < y0 || box[b] > x1 || box[b + 3] < x0 || box[b + 2] > z1 || box[b + 5] < z0) continue;
      pair(i);
    }
  };
  // A summed-area table of the cells' edge counts: a face whose cells hold no edge is passed by in O(1), and the
  // edges a face may meet are counted before any is looked at.
  const SW = W + 1;
  const sat = new Int32Array(SW * (H + 1));
  for (let z = 0; z < H; z++) for (let x = 0; x < W; x++) sat[(z + 1) * SW + x + 1] = start[z * W + x + 1] - start[z * W + x] + sat[z * SW + x + 1] + sat[(z + 1) * SW + x] - sat[z * SW + x];
  const near: number[] = [];
  const frame = Float64Array.of(gx0, gx1, gz0, gz1, cell, W, H);
  let boxed: Float32Array | undefined, boxHit = false;
  // Both scans run on one triangle in the grid (at its middle) before the level's, more times than V8 calls a function
  // before it keeps type feedback for it (8): each then has feedback for every path when the optimiser takes over
  // its first long loop. Else the code compiled inside the terrain's loop deoptimises on the next small object,
  // object after object (200 deoptimisations, ~30 ms on the 1M bench level).
  const mx = (gx0 + gx1) / 2, mz = (gz0 + gz1) / 2;
  const probe = Float32Array.of(mx, 0, mz, mx, 0, mz, mx, 0, mz), probeTri = Uint32Array.of(0, 1, 2);
  for (let k = 0; k < 16; k++) {
    boxNear(probe, frame, sat);
    nearFaces(probe, probeTri, frame, sat, near);
  }
  near.length = 0;
  // First the faces near an open edge (face list, offset) and the work they bring (their cells, and the edges
  // in them), all counted before any pair is looked at: a soup stops here.
  const nearSet: number[] = [], nearK: number[] = [];
  const cellsOf = new Int32Array(4);
  const cellsOfTri = (pos: Float32Array, i0: number, i1: number, i2: number): void => {
    cellsOf[0] = Math.max(0, Math.floor((Math.min(pos[i0], pos[i1], pos[i2]) - gx0) / cell));
    cellsOf[1] = Math.min(W - 1, Math.floor((Math.max(pos[i0], pos[i1], pos[i2]) - gx0) / cell));
    cellsOf[2] = Math.max(0, Math.floor((Math.min(pos[i0 + 2], pos[i1 + 2], pos[i2 + 2]) - gz0) / cell));
    cellsOf[3] = Math.min(H - 1, Math.floor((Math.max(pos[i0 + 2], pos[i1 + 2], pos[i2 + 2]) - gz0) / cell));
  };
  faces.forEach((f, s) => {
    if (work > budget) return;
    const pos = f.positions as Float32Array, idx = f.indices as Uint32Array;
    near.length = 0;
    // An object's vertices are boxed first (a sequential pass, far cheaper than its triangles): most objects lie
    // nowhere near an open edge.
    if (pos !== boxed) {
      boxed = pos;
      boxHit = boxNear(pos, frame, sat);
    }
    if (!boxHit) return;
    nearFaces(pos, idx, frame, sat, near);
    for (const k of near) {
      cellsOfTri(pos, 3 * idx[k], 3 * idx[k + 1], 3 * idx[k + 2]);
      const [cx0, cx1, cz0, cz1] = cellsOf;
      work += Math.min((cx1 - cx0 + 1) * (cz1 - cz0 + 1), occupied.length) + sat[(cz1 + 1) * SW + cx1 + 1] - sat[cz0 * SW + cx1 + 1] - sat[(cz1 + 1) * SW + cx0] + sat[cz0 * SW + cx0];
      nearSet.push(s);
      nearK.push(k);
    }
  });
  if (work > budget) return { joined: 0, unchecked: { corners: n, work, budget } };
  for (let m = 0; m < nearSet.length; m++) {
    const pos = faces[nearSet[m]].positions as Float32Array, idx = faces[nearSet[m]].indices as Uint32Array, k = nearK[m];
    const i0 = 3 * idx[k], i1 = 3 * idx[k + 1], i2 = 3 * idx[k + 2];
    for (let j = 0; j < 3; j++) {
      tri[j] = pos[i0 + j];
      tri[3 + j] = pos[i1 + j];
      tri[6 + j] = pos[i2 + j];
    }
    t++;
    const x0 = Math.min(tri[0], tri[3], tri[6]), x1 = Math.max(tri[0], tri[3], tri[6]);
    const y0 = Math.min(tri[1], tri[4], tri[7]), y1 = Math.max(tri[1], tri[4], tri[7]);
    const z0 = Math.min(tri[2], tri[5], tri[8]), z1 = Math.max(tri[2], tri[5], tri[8]);
    cellsOfTri(pos, i0, i1, i2);
    const [cx0, cx1, cz0, cz1] = cellsOf;
    if ((cx1 - cx0 + 1) * (cz1 - cz0 + 1) <= occupied.length) {
      for (let z = cz0; z <= cz1; z++) for (let x = cx0, c = z * W + cx0; x <= cx1; x++, c++) if (start[c + 1] > start[c]) visitCell(c, y0, y1, x0, x1, z0, z1);
    } else {
      for (const c of occupied) {
        const x = c % W, z = (c - x) / W;
        if (x >= cx0 && x <= cx1 && z >= cz0 && z <= cz1) visitCell(c, y0, y1, x0, x1, z0, z1);
      }
    }
  }
  // Each edge: its spans in order, covering it end to end, all with one code.
  const order = spanEdge.map((_, k) => k).sort((a, b) => spanEdge[a] - spanEdge[b] || spanLo[a] - spanLo[b]);
  let joined = 0;
  for (let s = 0; s < order.length;) {
    const i = spanEdge[order[s]];
    let reach = 0, code = spanCode[order[s]], gap = false;
    for (; s < order.length && spanEdge[order[s]] === i; s++) {
      const k = order[s];
      if (spanLo[k] > reach + tol) gap = true;
      reach = Math.max(reach, spanHi[k]);
      if (!Object.is(code, spanCode[k])) code = SEAM_NONE;
    }
    if (refused[i] || gap || reach < lens[i] - tol || code === SEAM_NONE) continue;
    all[open[i]] = code;
    joined++;
  }
  return { joined };
}

/** Whether the x/z box of all of `pos`'s vertices meets a grid cell holding an open edge (nearFaces' frame and table). */
function boxNear(pos: Float32Array, frame: Float64Array, sat: Int32Array): boolean {
  let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  for (let i = 0, end = pos.length - 2; i < end; i += 3) {
    const x = pos[i], z = pos[i + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  const gx0 = frame[0], gx1 = frame[1], gz0 = frame[2], gz1 = frame[3], cell = frame[4], W = frame[5], H = frame[6], SW = W + 1;
  if (!(x1 >= gx0 && x0 <= gx1 && z1 >= gz0 && z0 <= gz1)) return false;
  const cx0 = x0 > gx0 ? Math.floor((x0 - gx0) / cell) : 0, cx1 = Math.min(W - 1, Math.floor((x1 - gx0) / cell));
  const cz0 = z0 > gz0 ? Math.floor((z0 - gz0) / cell) : 0, cz1 = Math.min(H - 1, Math.floor((z1 - gz0) / cell));
  return sat[(cz1 + 1) * SW + cx1 + 1] - sat[cz0 * SW + cx1 + 1] - sat[(cz1 + 1) * SW + cx0] + sat[cz0 * SW + cx0] !== 0;
}

/**
 * The triangles of one face list (offsets into `indices`) whose x/z box meets a grid cell holding an open edge:
 * frame = (x0, x1, z0, z1, cell, W, H) of the grid, `sat` its summed-area table of occupied cells. The one loop
 * over every triangle of the level, kept small and monomorphic (it runs once a build, mostly unoptimised).
 */
function nearFaces(pos: Float32Array, idx: Uint32Array, frame: Float64Array, sat: Int32Array, out: number[]): void {
  const gx0 = frame[0], gx1 = frame[1], gz0 = frame[2], gz1 = frame[3], cell = frame[4], W = frame[5], H = frame[6], SW = W + 1;
  for (let k = 0, end = idx.length - 2; k < end; k += 3) {
    const i0 = 3 * idx[k], i1 = 3 * idx[k + 1], i2 = 3 * idx[k + 2];
    const px = pos[i0], qx = pos[i1], sx = pos[i2];
    const x0 = px < qx ? (px < sx ? px : sx) : qx < sx ? qx : sx, x1 = px > qx ? (px > sx ? px : sx) : qx > sx ? qx : sx;
    if (x1 < gx0 || x0 > gx1) continue;
    const pz = pos[i0 + 2], qz = pos[i1 + 2], sz = pos[i2 + 2];
    const z0 = pz < qz ? (pz < sz ? pz : sz) : qz < sz ? qz : sz, z1 = pz > qz ? (pz > sz ? pz : sz) : qz > sz ? qz : sz;
    if (z1 < gz0 || z0 > gz1) continue;
    const cx0 = x0 > gx0 ? Math.floor((x0 - gx0) / cell) : 0, cx1 = Math.min(W - 1, Math.floor((x1 - gx0) / cell));
    const cz0 = z0 > gz0 ? Math.floor((z0 - gz0) / cell) : 0, cz1 = Math.min(H - 1, Math.floor((z1 - gz0) / cell));
    if (sat[(cz1 + 1) * SW + cx1 + 1] - sat[cz0 * SW + cx1 + 1] - sat[(cz1 + 1) * SW + cx0] + sat[cz0 * SW + cx0] !== 0) out.push(k);
  }
}

/** The edge rule (edge-rule.ts classifyEdge) for the face at o (a, b, third) against the face at q across its edge. */
function coveredCode(P: Float64Array, o: number, q: number): number {
  const n1 = faceNormal(P, o), n2 = faceNormal(P, q);
  const d = Math.max(-1, Math.min(1, n1[0] * n2[0] + n1[1] * n2[1] + n1[2] * n2[2]));
  const cx = (P[q] + P[q + 3] + P[q + 6]) / 3 - P[o], cy = (P[q + 1] + P[q + 4] + P[q + 7]) / 3 - P[o + 1], cz = (P[q + 2] + P[q + 5] + P[q + 8]) / 3 - P[o + 2];
  const above = cx * n1[0] + cy * n1[1] + cz * n1[2] >= 0;
  const cls = classifyEdge(d, above);
  return cls === EDGE_FLAT ? SEAM_FLAT : cls === EDGE_CONCAVE ? SEAM_CONCAVE : cls === EDGE_CONCAVE_SHARP ? SEAM_SHARP : convexValue(d);
}

function faceNormal(P: Float64Array, o: number): [number, number, number] {
  const ux = P[o + 3] - P[o], uy = P[o + 4] - P[o + 1], uz = P[o + 5] - P[o + 2];
  const vx = P[o + 6] - P[o], vy = P[o + 7] - P[o + 1], vz = P[o + 8] - P[o + 2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.hypot(nx, ny, nz) || 1;
  return [nx / l, ny / l, nz / l];
}

/** One call of the match over n corners: `fill` writes their points (9 f32 each) in order, `take` reads their codes. */
function matchRun(n: number, fill: (points: Float32Array) => void, take: (codes: Float32Array) => void): { openCorners: number; joined: number } {
  return withEncoder(`seams: ${n} open corners`, () => {
    const m = new WasmLayout(encoderWasm());
    const pPoints = m.take(36 * n), pCodes = m.take(4 * n);
    const buf = m.commit();
    fill(new Float32Array(buf, pPoints, 9 * n));
    const w = m.w;
    w.matchBegin(n, pPoints, pCodes, m.end(), FLAT_COS);
    for (let i = 0; i < n; i += MATCH_CHUNK) w.matchInsert(i, Math.min(n, i + MATCH_CHUNK));
    for (let i = 0; i < n; i += MATCH_CHUNK) w.matchPair(i, Math.min(n, i + MATCH_CHUNK), pPoints, pCodes);
    take(new Float32Array(w.memory.buffer, pCodes, n));
    return { openCorners: w.matchResult(0), joined: w.matchResult(1) };
  });
}

/** f32 bits as the match keys them: −0.0 as 0.0. */
const bitsKey = (b: number): number => (b === 0x80000000 ? 0 : b);

/** A corner's endpoint (three f32 bit patterns at `at`), keyed as the match keys it, mixed to 32 bits. */
function endHash(bits: Uint32Array, at: number): number {
  let h = Math.imul(bitsKey(bits[at]) ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ bitsKey(bits[at + 1]), 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ bitsKey(bits[at + 2]), 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}

/**
 * The match in buckets: each corner goes to the bucket of its undirected edge {a, b} (a hash symmetric in a and b),
 * so a → b and every b → a meet in one bucket, and each bucket is matched alone with its corners in their level
 * order. The rule looks at one edge's corners only (how many hold a → b and b → a, then the pair at its lower
 * corner), so the codes and counts are those of one call over all of them.
 */
function matchBuckets(lists: OpenCorners[], n: number, bucketCorners: number, all: Float32Array): { openCorners: number; joined: number } {
  const buckets = 2 ** Math.ceil(Math.log2(Math.ceil((2 * n) / bucketCorners)));
  const shift = 32 - Math.log2(buckets);
  const bucketOf = buckets <= 65_536 ? new Uint16Array(n) : new Uint32Array(n);
  const count = new Uint32Array(buckets + 1);
  let g = 0;
  // Points copied as bits (exact), nine words a corner, without a subarray a corner (~125 ms of the 16M level's).
  const listBits = lists.map((l) => new Uint32Array(l.points.buffer, l.points.byteOffset, l.points.length));
  for (const [k, l] of lists.entries()) {
    const bits = listBits[k];
    for (let c = 0; c < l.corner.length; c++, g++) {
      const s = (endHash(bits, 9 * c) + endHash(bits, 9 * c + 3)) >>> 0;
      const b = Math.imul(s ^ (s >>> 16), 0x2c1b3c6d) >>> shift;
      bucketOf[g] = b;
      count[b + 1]++;
    }
  }
  for (let b = 0; b < buckets; b++) count[b + 1] += count[b];
  const order = new Uint32Array(n);
  const next = count.slice(0, buckets);
  for (let i = 0; i < n; i++) order[next[bucketOf[i]]++] = i;
  const starts = new Uint32Array(lists.length + 1);
  lists.forEach((l, k) => (starts[k + 1] = starts[k] + l.corner.length));
  let openCorners = 0, joined = 0;
  for (let b = 0; b < buckets; b++) {
    const lo = count[b], hi = count[b + 1];
    if (hi === lo) continue;
    const r = matchRun(hi - lo, (into) => {
      const dst = new Uint32Array(into.buffer, into.byteOffset, into.length);
      // The bucket's corners ascend, so their lists are found by one pointer moving forward.
      for (let j = lo, k = 0; j < hi; j++) {
        const i = order[j];
        while (starts[k + 1] <= i) k++;
        const src = listBits[k];
        for (let q = 0, at = 9 * (i - starts[k]), d = 9 * (j - lo); q < 9; q++) dst[d + q] = src[at + q];
      }
    }, (codes) => {
      for (let j = lo; j < hi; j++) all[order[j]] = codes[j - lo];
    });
    openCorners += r.openCorners;
    joined += r.joined;
  }
  return { openCorners, joined };
}

/** A corner's stored edge data for a code: value (1.0 unless convex) and its two bits. */
export function seamEdge(code: number): { value: number; concave: boolean; flat: boolean } {
  return { value: code >= 0 ? code : 1, concave: code === SEAM_CONCAVE, flat: code === SEAM_FLAT };
}

/**
 * Steps, in f32 units in the last place, that a join's level-wide convex value may lie from the value carried for
 * its edge and take the carried one instead (carrySeamValues; docs/format-decisions.md, "Seams carried through a
 * round trip"). The joins a round trip misses differ by 1–92 steps (city-blocks, cells, --seams level); an edit
 * that moves a face by a millimetre changes them by thousands.
 */
export const SEAM_CARRY_ULPS = 256;

/** Numbers per carried join: the edge's two ends (a then b, world f32 values, x y z) and its stored convex value. */
export const SEAM_CARRY_STRIDE = 7;

const edgeKey = (p: ArrayLike<number>, at: number): string => {
  let k = '';
  for (let i = 0; i < 6; i++) k += `${keyOf(p[at + i])},`;
  return k;
};

/**
 * The convex values a round trip carries (to-gltf: the stored values of the joins its world values do not give
 * back) put in place of the codes matched for the same edges (a → b, f32 values equal, −0.0 = 0.0) where both are
 * convex values at most SEAM_CARRY_ULPS apart: the file's own value comes back, an edited join does not take it.
 * `carried` holds SEAM_CARRY_STRIDE numbers a join. Changes `codes` in place; returns how many it changed.
 */
export function carrySeamValues(lists: OpenCorners[], codes: Float32Array[], carried: ArrayLike<number>): number {
  if (carried.length === 0) return 0;
  const want = new Map<string, number>();
  for (let i = 0; i + SEAM_CARRY_STRIDE <= carried.length; i += SEAM_CARRY_STRIDE) want.set(edgeKey(carried, i), Math.fround(carried[i + 6]));
  let changed = 0;
  lists.forEach((l, s) => {
    const c = codes[s];
    for (let i = 0; i < l.corner.length; i++) {
      if (!(c[i] >= 0)) continue;
      const v = want.get(edgeKey(l.points, 9 * i));
      if (v === undefined || !(v >= 0) || Object.is(v, c[i]) || Math.abs(keyOf(v) - keyOf(c[i])) > SEAM_CARRY_ULPS) continue;
      c[i] = v;
      changed++;
    }
  });
  return changed;
}
