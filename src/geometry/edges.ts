// Corner edge data of a kind-5 shape (../shared/spec/physics-resource.md, "Triangle-mesh shapes"): every face
// corner's edge runs from its vertex to the next corner's vertex; the face across it decides the corner's edge value
// and its concave and flat bits. Normals are Newell's in f64 over the stored (recentred f32) vertices.
//
// Design log (issue 3 performance; computeEdges on a 21,845-face terrain piece, A/B in one process, 100 interleaved
// runs, medians):
// - v1: per corner, the twin searched in the target vertex's CSR run through `to[list[k]]` (indirect reads), a
//   separate O(valence²) repeated-edge pass, a `done` array, normals and centroids in two arrays.
// - now: every edge touching a vertex is in that vertex's own run — the corner's edge a→next and the incoming
//   prev→a of the corner before it — packed as (next << 16 | prev) per CSR slot, so the twin and the repeat test
//   come from one scan of one short contiguous run, each undirected edge once (from its smaller vertex); normals
//   and centroids interleaved per face; open = corners not classified (no `done`): 0.65–0.67× of v1.
//   Classification branches once on the two above tests and divides by 3 with a multiply-shift: 0.97× more.
// - Tried, not kept: walking corners in face order (face data read in order, runs looked up per corner) instead of
//   vertex order: 1.15× slower; visiting each vertex's run at its first corner in leaf order: 1.23× slower.
// - Pairing (twin per corner) and classification (one loop in corner order, counts in locals, no 10-argument call
//   per pair) split into two functions: 0.96–0.99× (medians of 150–200 pairs at load 5 on 2 cores; minima equal).
// - Tried, not kept: the pairs' lower corners gathered branch-free before classifying (0.99–1.09×); the above /
//   concave / convex selection by arithmetic instead of branches (1.02–1.13×). With classification stubbed out the
//   function takes ~0.65× of its time, so pairing, face data and allocation are most of it.

/** cos(0.1°): at or above it the two faces across an edge are flat. */
export const FLAT_COS = Math.cos(0.1 * (Math.PI / 180));

/** Edge classes, as counted in the stats. */
export const EDGE_OPEN = 0;
export const EDGE_FLAT = 1;
export const EDGE_CONCAVE = 2;
export const EDGE_CONVEX = 3;
/** Neighbour on or above the plane with d ≤ 0 (a concave fold of 90° or sharper, or a face folded back). */
export const EDGE_CONCAVE_SHARP = 4;

/**
 * The classification predicate. `d` is n1·n2 clamped to [−1, 1]; `above` says the neighbour's centroid lies on or
 * above this face's plane (through the corner's vertex). Flat (flat bit, value 1.0) when d ≥ cos 0.1°; else, when
 * above: concave (concave bit, value 1.0) if d > 0, otherwise a sharp concave fold that stores value 1.0 and
 * neither bit (observed on the reference: 90° L channels, folded-back faces); else convex (value
 * f32 cos(acos(d)/2), no bit).
 */
export function classifyEdge(d: number, above: boolean): number {
  if (d >= FLAT_COS) return EDGE_FLAT;
  if (above) return d > 0 ? EDGE_CONCAVE : EDGE_CONCAVE_SHARP;
  return EDGE_CONVEX;
}

/** The value a convex edge stores: the cosine of half the angle between the normals, as f32. Others store 1.0. */
export const convexValue = (d: number): number => Math.fround(Math.cos(Math.acos(d) / 2));

/**
 * Half-angle margin of convexValueFast: sqrt((1 + d)/2) (the same cosine, by the half-angle identity) and the
 * library's cos(acos(d)/2) differ by a few 1e-16 for d in [−1, 1]; when every value within this distance of the
 * former rounds to the same f32, so does the latter.
 */
const HALF_ANGLE_MARGIN = 1e-12;

/** convexValue(d) without the two transcendental calls whenever the f32 rounding is settled (see the margin). */
export function convexValueFast(d: number): number {
  const s = Math.sqrt((1 + d) / 2);
  const f = Math.fround(s);
  return Math.fround(s - HALF_ANGLE_MARGIN) === f && Math.fround(s + HALF_ANGLE_MARGIN) === f ? f : convexValue(d);
}

export interface EdgeData {
  values: Float32Array;
  concave: Uint8Array;
  flat: Uint8Array;
  /** Corners by class: [open, flat, concave, convex, sharp concave]. */
  counts: [number, number, number, number, number];
}

/** Bytes of a corner bitset: u32 words, 4·ceil(corners/32) bytes. */
export const bitsetBytes = (corners: number): number => 4 * Math.ceil(corners / 32);

/** Newell's unit normal of each triangle, f64; zero for a triangle with no area. */
export function faceNormals(v: Float32Array, corners: ArrayLike<number>, faces: number): Float64Array {
  const fd = faceData(v, corners, faces);
  const n = new Float64Array(faces * 3);
  for (let f = 0; f < faces; f++) {
    n[3 * f] = fd[FACE_STRIDE * f]; n[3 * f + 1] = fd[FACE_STRIDE * f + 1]; n[3 * f + 2] = fd[FACE_STRIDE * f + 2];
  }
  return n;
}

/**
 * computeEdges' scratch (face data, twins), kept between calls and grown on demand: a shape has at most 21,845
 * faces, so it stays ≤ 1.3 MB, and a fresh large typed array costs more than its contents (zeroed pages faulted in
 * on first touch: a fresh 640 KB array written once took 0.3–0.5 ms, a reused one 0.08–0.1 ms).
 */
const scratch = {
  fdArray: new Float64Array(0),
  twinArray: new Int32Array(0),
  fd(n: number): Float64Array {
    if (this.fdArray.length < n) this.fdArray = new Float64Array(n);
    return this.fdArray;
  },
  twin(n: number): Int32Array {
    if (this.twinArray.length < n) this.twinArray = new Int32Array(n);
    return this.twinArray;
  },
};

/** f64 per face in faceData: Newell's unit normal x, y, z (zero for no area), then the centroid x, y, z. */
const FACE_STRIDE = 6;

/**
 * Each face's unit normal (Newell's, f64; zero for a triangle with no area) and centroid (f64 mean of its three f32
 * vertices, in corner order), interleaved: the pairing loop reads both faces' six values from two cache lines.
 */
function faceData(v: Float32Array, corners: ArrayLike<number>, faces: number, out: Float64Array = new Float64Array(FACE_STRIDE * faces)): Float64Array {
  for (let f = 0, o = 0; f < faces; f++, o += FACE_STRIDE) {
    const p = 3 * corners[3 * f], q = 3 * corners[3 * f + 1], r = 3 * corners[3 * f + 2];
    const px = v[p], py = v[p + 1], pz = v[p + 2];
    const qx = v[q], qy = v[q + 1], qz = v[q + 2];
    const rx = v[r], ry = v[r + 1], rz = v[r + 2];
    // Newell's sums over the edges p→q, q→r, r→p, added in that order from 0 (as the reference does).
    let nx = 0, ny = 0, nz = 0;
    nx += (py - qy) * (pz + qz); ny += (pz - qz) * (px + qx); nz += (px - qx) * (py + qy);
    nx += (qy - ry) * (qz + rz); ny += (qz - rz) * (qx + rx); nz += (qx - rx) * (qy + ry);
    nx += (ry - py) * (rz + pz); ny += (rz - pz) * (rx + px); nz += (rx - px) * (ry + py);
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (len > 0) { out[o] = nx / len; out[o + 1] = ny / len; out[o + 2] = nz / len; }
    else { out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; }
    out[o + 3] = (px + qx + rx) / 3; out[o + 4] = (py + qy + ry) / 3; out[o + 5] = (pz + qz + rz) / 3;
  }
  return out;
}

/** Vertices with more corners than this get their corner list sorted by edge target (binary search, no O(v²)). */
export const HUB_VALENCE = 32;

/** The corner after c in its triangle, and the one before. */
const nextCorner = (c: number): number => (c % 3 === 2 ? c - 2 : c + 1);
const prevCorner = (c: number): number => (c % 3 === 0 ? c + 2 : c - 1);

/**
 * Per CSR slot (a corner c at vertex a): (next vertex << 16 | previous vertex), i.e. c's edge a→next and the edge
 * prev→a of the corner before c. Every edge touching a, outgoing and incoming, is in a's own run: the twin of a→b
 * is the incoming b→a found there, so pairing scans one short contiguous run (no read of b's run).
 */
export function neighbours(corners: ArrayLike<number>, ids: ArrayLike<number>): Int32Array {
  const out = new Int32Array(ids.length);
  for (let k = 0; k < ids.length; k++) {
    const c = ids[k];
    out[k] = (corners[nextCorner(c)] << 16) | corners[prevCorner(c)];
  }
  return out;
}

/**
 * For runs over HUB_VALENCE only: the outgoing half-edges (next << 16 | corner) and the incoming ones
 * (prev << 16 | corner before), each run sorted, so a fan's hub is binary-searched: O(v log v), not O(v²).
 */
function hubLists(corners: ArrayLike<number>, offsets: ArrayLike<number>, ids: ArrayLike<number>, nb: Int32Array): [Uint32Array, Uint32Array] | null {
  const nv = offsets.length - 1;
  let out: Uint32Array | null = null, inc: Uint32Array | null = null;
  for (let a = 0; a < nv; a++) {
    const s = offsets[a], e = offsets[a + 1];
    if (e - s <= HUB_VALENCE) continue;
    if (!out || !inc) { out = new Uint32Array(ids.length); inc = new Uint32Array(ids.length); }
    for (let k = s; k < e; k++) {
      out[k] = (((nb[k] >>> 16) << 16) | ids[k]) >>> 0;
      inc[k] = (((nb[k] & 0xffff) << 16) | prevCorner(ids[k])) >>> 0;
    }
    out.subarray(s, e).sort();
    inc.subarray(s, e).sort();
  }
  return out && inc ? [out, inc] : null;
}

/** First index in sorted run [s, e) of `list` whose entry is ≥ b << 16. */
function lowerBound(list: Uint32Array, s: number, e: number, b: number): number {
  const key = b * 65536;
  while (s < e) {
    const m = (s + e) >> 1;
    if (list[m] < key) s = m + 1;
    else e = m;
  }
  return s;
}

/** Whether sorted run [s, e) holds vertex b exactly once (in the high half); its position or −1. */
function onceIn(list: Uint32Array, s: number, e: number, b: number): number {
  const i = lowerBound(list, s, e, b);
  if (i >= e || list[i] >>> 16 !== b) return -1;
  return i + 1 < e && list[i + 1] >>> 16 === b ? -1 : i;
}

/**
 * Every corner's edge value and bits (see the file header and classifyEdge). `nb`: neighbours() of the CSR, when
 * the caller built it along with the CSR. Each paired edge is resolved once for
 * both of its corners (d and the convex value are symmetric; the above test is taken from each side).
 */
export function computeEdges(
  v: Float32Array,
  corners: ArrayLike<number>,
  offsets: ArrayLike<number>,
  ids: ArrayLike<number>,
  nb: Int32Array = neighbours(corners, ids),
): EdgeData {
  const nc = corners.length;
  const twin = pairCorners(corners, offsets, ids, nb, scratch.twin(nc));
  const fd = faceData(v, corners, nc / 3, scratch.fd(FACE_STRIDE * (nc / 3)));
  const values = new Float32Array(nc).fill(1);
  const concave = new Uint8Array(bitsetBytes(nc));
  const flat = new Uint8Array(bitsetBytes(nc));
  const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  classifyAll(v, corners, fd, twin, values, concave, flat, counts);
  return { values, concave, flat, counts };
}

/**
 * twin[c]: 1 + the corner across corner c's edge (a→b): the single corner holding b→a when a→b and b→a are each
 * held by exactly one corner; 0 (open) otherwise. Each undirected edge a–b (a < b) is looked at once, in a's run.
 */
function pairCorners(corners: ArrayLike<number>, offsets: ArrayLike<number>, ids: ArrayLike<number>, nb: Int32Array, twin: Int32Array): Int32Array {
  const nv = offsets.length - 1;
  twin.fill(0, 0, corners.length);
  const hubs = hubLists(corners, offsets, ids, nb);
  for (let a = 0; a < nv; a++) {
    const s = offsets[a], e = offsets[a + 1];
    if (hubs && e - s > HUB_VALENCE) {
      pairHub(a, s, e, hubs[0], hubs[1], twin);
      continue;
    }
    for (let k = s; k < e; k++) {
      const b = nb[k] >>> 16;
      if (b <= a) continue;
      let outs = 0, ins = 0, j = 0;
      for (let q = s; q < e; q++) {
        const x = nb[q];
        if (x >>> 16 === b) outs++;
        if ((x & 0xffff) === b) { ins++; j = q; }
      }
      if (outs === 1 && ins === 1) {
        const c = ids[k], o = prevCorner(ids[j]);
        twin[c] = o + 1;
        twin[o] = c + 1;
      }
    }
  }
  return twin;
}

/** The pairing of pairCorners over a hub's run [s, e), on its sorted outgoing and incoming lists. */
function pairHub(a: number, s: number, e: number, out: Uint32Array, inc: Uint32Array, twin: Int32Array): void {
  for (let k = s; k < e; k++) {
    const b = out[k] >>> 16;
    if (b <= a) continue;
    if ((k > s && out[k - 1] >>> 16 === b) || (k + 1 < e && out[k + 1] >>> 16 === b)) continue;
    const j = onceIn(inc, s, e, b);
    if (j < 0) continue;
    const c = out[k] & 0xffff, o = inc[j] & 0xffff;
    twin[c] = o + 1;
    twin[o] = c + 1;
  }
}

/**
 * Classifies every paired edge once, in corner order (the face data read in order; the face across is usually
 * near): both corners open when either face has a zero normal; else flat, or per side concave (bit), sharp
 * concave (no bit) or convex (value) — classifyEdge, inlined; d and the convex value are symmetric, the above test
 * is taken from each side. Counts by class into `counts`; open = corners not classified.
 */
function classifyAll(
  v: Float32Array, corners: ArrayLike<number>, fd: Float64Array, twin: Int32Array,
  values: Float32Array, concave: Uint8Array, flat: Uint8Array, counts: number[],
): void {
  const nc = corners.length;
  let nFlat = 0, nConcave = 0, nConvex = 0, nSharp = 0;
  for (let c = 0; c < nc; c++) {
    const o = twin[c] - 1;
    if (o <= c) continue;
    const f = FACE_STRIDE * faceOf(c), g = FACE_STRIDE * faceOf(o);
    const fx = fd[f], fy = fd[f + 1], fz = fd[f + 2], gx = fd[g], gy = fd[g + 1], gz = fd[g + 2];
    if ((fx === 0 && fy === 0 && fz === 0) || (gx === 0 && gy === 0 && gz === 0)) continue;
    const dot = fx * gx + fy * gy + fz * gz;
    if (dot >= FLAT_COS) {
      flat[c >> 3] |= 1 << (c & 7);
      flat[o >> 3] |= 1 << (o & 7);
      nFlat += 2;
      continue;
    }
    const d = dot < -1 ? -1 : dot; // below FLAT_COS, so under 1: only the lower clamp can apply
    // Side c: g's centroid against f's plane through a; side o: f's centroid against g's plane through b.
    const a = 3 * corners[c], b = 3 * corners[o];
    const aboveC = (fd[g + 3] - v[a]) * fx + (fd[g + 4] - v[a + 1]) * fy + (fd[g + 5] - v[a + 2]) * fz >= 0;
    const aboveO = (fd[f + 3] - v[b]) * gx + (fd[f + 4] - v[b + 1]) * gy + (fd[f + 5] - v[b + 2]) * gz >= 0;
    if (!aboveC || !aboveO) {
      const value = convexValueFast(d);
      if (!aboveC) { values[c] = value; nConvex++; }
      if (!aboveO) { values[o] = value; nConvex++; }
    }
    if (aboveC || aboveO) {
      if (d > 0) {
        if (aboveC) { concave[c >> 3] |= 1 << (c & 7); nConcave++; }
        if (aboveO) { concave[o >> 3] |= 1 << (o & 7); nConcave++; }
      } else {
        nSharp += (aboveC ? 1 : 0) + (aboveO ? 1 : 0);
      }
    }
  }
  counts[EDGE_FLAT] = nFlat; counts[EDGE_CONCAVE] = nConcave; counts[EDGE_CONVEX] = nConvex; counts[EDGE_CONCAVE_SHARP] = nSharp;
  counts[EDGE_OPEN] = nc - nFlat - nConcave - nConvex - nSharp;
}

/** c / 3 for a corner (c < 2¹⁶, where the multiply-shift is exact): no f64 division. */
const faceOf = (c: number): number => (c * 0xaaab) >>> 17;
