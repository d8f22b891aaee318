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

/**
 * The corner across corner `c` (edge a→b): the single corner holding b→a, or −1 when that edge is not paired exactly
 * once each way. Uses the vertex→corner CSR.
 */
function acrossCorner(c: number, corners: ArrayLike<number>, offsets: ArrayLike<number>, ids: ArrayLike<number>): number {
  const a = corners[c], b = corners[c % 3 === 2 ? c - 2 : c + 1];
  let across = -1, same = 0;
  for (let k = offsets[b], e = offsets[b + 1]; k < e; k++) {
    const o = ids[k];
    if (corners[o % 3 === 2 ? o - 2 : o + 1] === a) {
      if (across >= 0) return -1;
      across = o;
    }
  }
  if (across < 0) return -1;
  for (let k = offsets[a], e = offsets[a + 1]; k < e; k++) {
    const o = ids[k];
    if (corners[o % 3 === 2 ? o - 2 : o + 1] === b && ++same > 1) return -1;
  }
  return across;
}

/** Every corner's edge value and bits (see the file header and classifyEdge). */
export function computeEdges(
  v: Float32Array,
  corners: ArrayLike<number>,
  offsets: ArrayLike<number>,
  ids: ArrayLike<number>,
): EdgeData {
  const nc = corners.length, faces = nc / 3;
  const normals = faceNormals(v, corners, faces);
  const values = new Float32Array(nc).fill(1);
  const concave = new Uint8Array(bitsetBytes(nc));
  const flat = new Uint8Array(bitsetBytes(nc));
  const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (let c = 0; c < nc; c++) {
    const o = acrossCorner(c, corners, offsets, ids);
    const f = (c / 3) | 0, g = (o / 3) | 0;
    const n1x = normals[3 * f], n1y = normals[3 * f + 1], n1z = normals[3 * f + 2];
    const n2x = normals[3 * g], n2y = normals[3 * g + 1], n2z = normals[3 * g + 2];
    if (o < 0 || (n1x === 0 && n1y === 0 && n1z === 0) || (n2x === 0 && n2y === 0 && n2z === 0)) {
      counts[EDGE_OPEN]++;
      continue;
    }
    const d = Math.min(1, Math.max(-1, n1x * n2x + n1y * n2y + n1z * n2z));
    const p = 3 * corners[c], q0 = 3 * corners[3 * g], q1 = 3 * corners[3 * g + 1], q2 = 3 * corners[3 * g + 2];
    const cx = (v[q0] + v[q1] + v[q2]) / 3, cy = (v[q0 + 1] + v[q1 + 1] + v[q2 + 1]) / 3, cz = (v[q0 + 2] + v[q1 + 2] + v[q2 + 2]) / 3;
    const above = (cx - v[p]) * n1x + (cy - v[p + 1]) * n1y + (cz - v[p + 2]) * n1z >= 0;
    const cls = classifyEdge(d, above);
    counts[cls]++;
    if (cls === EDGE_FLAT) flat[c >> 3] |= 1 << (c & 7);
    else if (cls === EDGE_CONCAVE) concave[c >> 3] |= 1 << (c & 7);
    else if (cls === EDGE_CONVEX) values[c] = convexValue(d);
  }
  return { values, concave, flat, counts };
}
