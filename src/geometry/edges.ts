// Corner edge data of a kind-5 shape (../shared/spec/physics-resource.md, "Triangle-mesh shapes"): every face
// corner's edge runs from its vertex to the next corner's vertex; the face across it decides the corner's edge value
// and its concave and flat bits. Normals are Newell's in f64 over the stored (recentred f32) vertices.

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
  const n = new Float64Array(faces * 3);
  for (let f = 0; f < faces; f++) {
    let nx = 0, ny = 0, nz = 0;
    for (let k = 0; k < 3; k++) {
      const a = 3 * corners[3 * f + k], b = 3 * corners[3 * f + (k === 2 ? 0 : k + 1)];
      nx += (v[a + 1] - v[b + 1]) * (v[a + 2] + v[b + 2]);
      ny += (v[a + 2] - v[b + 2]) * (v[a] + v[b]);
      nz += (v[a] - v[b]) * (v[a + 1] + v[b + 1]);
    }
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (len > 0) {
      n[3 * f] = nx / len; n[3 * f + 1] = ny / len; n[3 * f + 2] = nz / len;
    }
  }
  return n;
}

/** The vertex each corner's edge runs to: the next corner's vertex in its triangle. */
function nextVertices(corners: ArrayLike<number>): Uint32Array {
  const nc = corners.length;
  const to = new Uint32Array(nc);
  for (let c = 0; c < nc; c += 3) {
    to[c] = corners[c + 1];
    to[c + 1] = corners[c + 2];
    to[c + 2] = corners[c];
  }
  return to;
}

/** Vertices with more corners than this get their corner list sorted by edge target (binary search, no O(v²)). */
export const HUB_VALENCE = 32;

/**
 * The outgoing corners of every vertex for pairing: the CSR's ids, except that the list of a vertex with more than
 * HUB_VALENCE corners is sorted by target vertex (then corner) — a fan's hub stays O(v log v), not O(v²).
 */
function pairingLists(nv: number, to: Uint32Array, offsets: ArrayLike<number>, ids: ArrayLike<number>): Uint32Array {
  const out = new Uint32Array(ids.length);
  for (let k = 0; k < ids.length; k++) out[k] = ids[k];
  for (let a = 0; a < nv; a++) {
    const s = offsets[a], e = offsets[a + 1];
    if (e - s > HUB_VALENCE) out.subarray(s, e).sort((x, y) => to[x] - to[y] || x - y);
  }
  return out;
}

/** Corners whose directed edge another corner of the same vertex repeats (a non-manifold edge: never paired). */
function repeatedEdges(nv: number, to: Uint32Array, offsets: ArrayLike<number>, list: Uint32Array): Uint8Array {
  const repeated = new Uint8Array(to.length);
  for (let a = 0; a < nv; a++) {
    const s = offsets[a], e = offsets[a + 1];
    if (e - s > HUB_VALENCE) {
      for (let k = s + 1; k < e; k++) if (to[list[k]] === to[list[k - 1]]) repeated[list[k]] = repeated[list[k - 1]] = 1;
      continue;
    }
    for (let k = s; k < e; k++) {
      for (let j = k + 1; j < e; j++) if (to[list[k]] === to[list[j]]) repeated[list[k]] = repeated[list[j]] = 1;
    }
  }
  return repeated;
}

/**
 * The corner across corner `c` (edge a→b): the single corner holding b→a, or −1 when a→b or b→a is held by more than
 * one corner.
 */
function acrossCorner(c: number, corners: ArrayLike<number>, to: Uint32Array, offsets: ArrayLike<number>, list: Uint32Array, repeated: Uint8Array): number {
  if (repeated[c]) return -1;
  const a = corners[c], b = to[c];
  let s = offsets[b], e = offsets[b + 1];
  if (e - s > HUB_VALENCE) {
    while (s < e) {
      const m = (s + e) >> 1;
      if (to[list[m]] < a) s = m + 1;
      else e = m;
    }
    e = Math.min(s + 1, offsets[b + 1]);
  }
  for (let k = s; k < e; k++) {
    const o = list[k];
    if (to[o] === a) return repeated[o] ? -1 : o;
  }
  return -1;
}

/** Each face's centroid (f64 mean of its three f32 vertices, in corner order). */
function faceCentroids(v: Float32Array, corners: ArrayLike<number>, faces: number): Float64Array {
  const c = new Float64Array(3 * faces);
  for (let g = 0; g < faces; g++) {
    const q0 = 3 * corners[3 * g], q1 = 3 * corners[3 * g + 1], q2 = 3 * corners[3 * g + 2];
    c[3 * g] = (v[q0] + v[q1] + v[q2]) / 3;
    c[3 * g + 1] = (v[q0 + 1] + v[q1 + 1] + v[q2 + 1]) / 3;
    c[3 * g + 2] = (v[q0 + 2] + v[q1 + 2] + v[q2 + 2]) / 3;
  }
  return c;
}

/** Whether face g's centroid lies on or above face f's plane through vertex p (f64). */
function centroidAbove(v: Float32Array, normals: Float64Array, f: number, p: number, centroids: Float64Array, g: number): boolean {
  const cx = centroids[3 * g], cy = centroids[3 * g + 1], cz = centroids[3 * g + 2];
  return (cx - v[3 * p]) * normals[3 * f] + (cy - v[3 * p + 1]) * normals[3 * f + 1] + (cz - v[3 * p + 2]) * normals[3 * f + 2] >= 0;
}

/**
 * Every corner's edge value and bits (see the file header and classifyEdge). Each paired edge is resolved once for
 * both of its corners (d and the convex value are symmetric; the above test is taken from each side).
 */
export function computeEdges(
  v: Float32Array,
  corners: ArrayLike<number>,
  offsets: ArrayLike<number>,
  ids: ArrayLike<number>,
): EdgeData {
  const nc = corners.length, faces = nc / 3;
  const normals = faceNormals(v, corners, faces);
  const centroids = faceCentroids(v, corners, faces);
  const to = nextVertices(corners);
  const list = pairingLists(offsets.length - 1, to, offsets, ids);
  const repeated = repeatedEdges(offsets.length - 1, to, offsets, list);
  const values = new Float32Array(nc).fill(1);
  const concave = new Uint8Array(bitsetBytes(nc));
  const flat = new Uint8Array(bitsetBytes(nc));
  const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  const done = new Uint8Array(nc);
  for (let c = 0; c < nc; c++) {
    if (done[c]) continue;
    const o = acrossCorner(c, corners, to, offsets, list, repeated);
    const f = (c / 3) | 0, g = (o / 3) | 0;
    if (o < 0 || !(normals[3 * f] !== 0 || normals[3 * f + 1] !== 0 || normals[3 * f + 2] !== 0) || !(normals[3 * g] !== 0 || normals[3 * g + 1] !== 0 || normals[3 * g + 2] !== 0)) {
      counts[EDGE_OPEN]++;
      continue;
    }
    // o's own across is c (the pairing is symmetric), so both are settled here.
    done[o] = 1;
    const d = Math.min(1, Math.max(-1, normals[3 * f] * normals[3 * g] + normals[3 * f + 1] * normals[3 * g + 1] + normals[3 * f + 2] * normals[3 * g + 2]));
    let value = -2;
    for (let side = 0; side < 2; side++) {
      const k = side === 0 ? c : o;
      const cls = d >= FLAT_COS ? EDGE_FLAT : classifyEdge(d, side === 0 ? centroidAbove(v, normals, f, corners[c], centroids, g) : centroidAbove(v, normals, g, corners[o], centroids, f));
      counts[cls]++;
      if (cls === EDGE_FLAT) flat[k >> 3] |= 1 << (k & 7);
      else if (cls === EDGE_CONCAVE) concave[k >> 3] |= 1 << (k & 7);
      else if (cls === EDGE_CONVEX) {
        if (value === -2) value = convexValueFast(d);
        values[k] = value;
      }
    }
  }
  return { values, concave, flat, counts };
}
