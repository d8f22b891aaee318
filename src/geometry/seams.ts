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
 * order: the result does not depend on how many threads encoded them. `bucketCorners` (tests): see
 * MATCH_BUCKET_CORNERS; the codes do not depend on it.
 */
export function matchSeams(lists: OpenCorners[], bucketCorners = MATCH_BUCKET_CORNERS): SeamMatch {
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
  const codes: Float32Array[] = [];
  let at = 0;
  for (const l of lists) codes.push(all.subarray(at, (at += l.corner.length)));
  return { codes, openCorners: r.openCorners, joined: r.joined + cover.joined, ...(cover.unchecked ? { coverUnchecked: cover.unchecked } : {}) };
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

function joinCovered(lists: OpenCorners[], all: Float32Array): { joined: number; unchecked?: { corners: number; work: number; budget: number } } {
  const open: number[] = [];
  const pts: number[] = [];
  let g = 0;
  for (const l of lists) {
    for (let c = 0; c < l.corner.length; c++, g++) {
      if (all[g] !== SEAM_NONE) continue;
      open.push(g);
      for (let k = 0; k < 9; k++) pts.push(l.points[9 * c + k]);
    }
  }
  const n = open.length;
  if (n < 2) return { joined: 0 };
  const P = Float64Array.from(pts);
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
