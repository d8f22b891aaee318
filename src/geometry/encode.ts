// Mesh → kind-5 shapes (../shared/spec/physics-resource.md, "Triangle-mesh shapes"), byte for byte as the reference
// encoder (ReSkate Studio's writer) makes them: weld, split at the u16 limits, then per piece recentre on the bounds'
// middle, drop triangles with no area after recentring, renumber vertices by first use, build the tree (faces are
// stored in its leaf order), vertex→corner CSR, edge values and bits. Kind-5 shapes carry no face planes.
// Facts and decisions: docs/format-decisions.md, "Encoder".
//
// Design log (issue 3 performance; A/B in one process with the tree stubbed out — identity leaf order — so that
// only this file's phases and weld/split/edges are timed; 80k terrain, 60 interleaved runs, medians):
// - bounds kept in six locals instead of a Float64Array written per coordinate; the CSR fill also writes each
//   slot's (next << 16 | prev) vertices for computeEdges (cornerRuns), saving edges.ts a pass with a % 3 per
//   corner: 0.90× (41.8 → 37.5 ms).
// - encodePiece numbers the vertices by first use over all the piece's triangles first, then takes the bounds and
//   recentres each vertex once (not its every corner: three f32 reads and roundings per corner before), and
//   renumbers over the kept faces only when the area test dropped one (rare); the recentred array is the shape's
//   own (no slice): 0.92× at 80k (43.1 → 39.8 ms), 0.88–1.02× at 1M (load 4 on 2 cores: noisy).
// - The tree scratch (a few MB at 21,845 faces) kept between calls instead of made per call: whole encode 0.93× on
//   100 meshes of 200–1,500 triangles, 0.99× at 80k. Since 2026-12-01 the tree is built in WebAssembly
//   (tree-wasm.ts), whose linear memory is that scratch: it grows to the largest piece and stays.
// - Per-piece scratch (here: used ids, corner numbers, CSR counts and neighbours; edges.ts: face data, twins) kept
//   between pieces and calls, bounded by a shape's u16 counts: 0.98× at 80k, 0.97× on 100 meshes of 200–1,500
//   triangles (the level compile's case); at 1M within noise (medians 1.02–1.03×, minima 0.955–0.96×).

import type { ShapeRecord, Vec3 } from '../format/types.ts';
import { weld } from './weld.ts';
import { computeEdges } from './edges.ts';
import { buildTreeWasm } from './tree-wasm.ts';
import { splitTriangles, type SplitRule } from './split.ts';

export interface EncodeOptions {
  /** Most faces in one shape: 1 … 21,845 (u16 corner count / 3). Default 21,845. */
  maxFaces: number;
  /** How a mesh past maxFaces is cut into shapes: 'spatial' (default) or 'sequential' (see split.ts). */
  split: SplitRule;
}

/** A shape's u16 corner count holds 65,535 corners: 21,845 triangles. */
export const MAX_SHAPE_FACES = 21_845;
/** A shape's u16 vertex count. */
export const MAX_SHAPE_VERTICES = 65_535;

export const ENCODE_DEFAULTS: EncodeOptions = { maxFaces: MAX_SHAPE_FACES, split: 'spatial' };

export interface EncodeStats {
  inputTriangles: number;
  /** Vertices after welding the whole input (first-use order). */
  weldedVertices: number;
  /** Faces written over all shapes. */
  faces: number;
  /** Triangles dropped for a repeated welded vertex or no area (weld), plus those with no area after recentring. */
  degenerateDropped: number;
  /** Triangles dropped as repeats of an earlier one (same corners, same winding). */
  duplicatesDropped: number;
  /**
   * Corners by edge class over all shapes. `concaveSharp`: neighbour on or above the plane at 90° or sharper —
   * stored like an open edge (1.0, no bits), counted apart from `open`.
   */
  edges: { flat: number; concave: number; convex: number; open: number; concaveSharp: number };
  /** Corners whose edge has no single opposite corner (= edges.open). */
  openEdges: number;
  /** Deepest leaf over all shapes' trees (root = 0). */
  maxTreeDepth: number;
  shapes: number;
}

export interface EncodedPiece {
  shape: ShapeRecord;
  /** Bounds' middle in input space: the part's position. */
  centre: Vec3;
}

/** Encodes a triangle mesh into one or more kind-5 shapes (see the file header). */
export function encodeMeshShapes(
  positions: Float32Array | Float64Array,
  indices: Uint32Array,
  options: Partial<EncodeOptions> = {},
): { pieces: EncodedPiece[]; stats: EncodeStats } {
  const opt = { ...ENCODE_DEFAULTS, ...options };
  if (!Number.isInteger(opt.maxFaces) || opt.maxFaces < 1 || opt.maxFaces > MAX_SHAPE_FACES) {
    throw new Error(`encode: maxFaces ${opt.maxFaces} outside 1…${MAX_SHAPE_FACES}`);
  }
  if (opt.split !== 'spatial' && opt.split !== 'sequential') throw new Error(`encode: split "${opt.split}" is not 'spatial' or 'sequential'`);
  const w = weld(positions, indices);
  const stats: EncodeStats = {
    inputTriangles: indices.length / 3,
    weldedVertices: w.positions.length / 3,
    faces: 0,
    degenerateDropped: w.degenerate,
    duplicatesDropped: w.repeated,
    edges: { flat: 0, concave: 0, convex: 0, open: 0, concaveSharp: 0 },
    openEdges: 0,
    maxTreeDepth: 0,
    shapes: 0,
  };
  const pieces: EncodedPiece[] = [];
  const local = new Int32Array(w.positions.length / 3).fill(-1); // welded → shape vertex, reset after each piece
  const subsets = splitTriangles(w.positions, w.triangles, opt.maxFaces, opt.split);
  for (const subset of subsets) {
    const piece = encodePiece(w.positions, w.triangles, subset, stats, local);
    if (piece) pieces.push(piece);
  }
  stats.shapes = pieces.length;
  stats.openEdges = stats.edges.open;
  return { pieces, stats };
}

/**
 * Numbers the vertices of the triangles `subset` by first use (all of them, kept or not): `used` gets each one's
 * welded id, faceVerts the numbers by corner, local (welded → number) is set for them. Returns how many.
 */
function firstUseNumbers(tris: Uint32Array, subset: Uint32Array, local: Int32Array, used: Uint32Array, faceVerts: Uint32Array): number {
  let count = 0;
  for (let i = 0, c = 0; i < subset.length; i++) {
    const t = 3 * subset[i];
    for (let k = 0; k < 3; k++, c++) {
      const v = tris[t + k];
      let id = local[v];
      if (id < 0) { id = local[v] = count; used[count++] = v; }
      faceVerts[c] = id;
    }
  }
  return count;
}

/**
 * min x, y, z, max x, y, z over the vertices `used` (in first-use order; a tie keeps the earlier value). The same
 * as over the corners in order: a repeated vertex repeats its value, which a strict compare never takes.
 */
function usedBounds(pos: Float32Array, used: Uint32Array, count: number): Float64Array {
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = 0; i < count; i++) {
    const v = 3 * used[i];
    const x = pos[v], y = pos[v + 1], z = pos[v + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  return new Float64Array([x0, y0, z0, x1, y1, z1]);
}

/** The used vertices minus the centre, rounded to f32 (as stored). */
function recentre(pos: Float32Array, used: Uint32Array, count: number, centre: Vec3): Float32Array {
  const out = new Float32Array(3 * count);
  const cx = centre[0], cy = centre[1], cz = centre[2];
  for (let i = 0; i < count; i++) {
    const v = 3 * used[i];
    out[3 * i] = pos[v] - cx; out[3 * i + 1] = pos[v + 1] - cy; out[3 * i + 2] = pos[v + 2] - cz;
  }
  return out;
}

/**
 * Studio's area test on the recentred f32 values, in f64 (crossLength, squared: the length is 0 exactly when its
 * square is): the faces that keep an area move to the front of faceVerts, in order. Returns how many.
 */
function keepAreas(v: Float32Array, faceVerts: Uint32Array, faces: number): number {
  let kept = 0;
  for (let f = 0; f < faces; f++) {
    const a = 3 * faceVerts[3 * f], b = 3 * faceVerts[3 * f + 1], c = 3 * faceVerts[3 * f + 2];
    const ax = v[a], ay = v[a + 1], az = v[a + 2];
    const ux = v[b] - ax, uy = v[b + 1] - ay, uz = v[b + 2] - az, wx = v[c] - ax, wy = v[c + 1] - ay, wz = v[c + 2] - az;
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    if (nx * nx + ny * ny + nz * nz === 0) continue;
    if (kept !== f) { faceVerts[3 * kept] = a / 3; faceVerts[3 * kept + 1] = b / 3; faceVerts[3 * kept + 2] = c / 3; }
    kept++;
  }
  return kept;
}

/**
 * After faces were dropped: renumbers the vertices by first use over the kept faces (rewriting faceVerts) and
 * returns their recentred values in that order.
 */
function renumberKept(v: Float32Array, faceVerts: Uint32Array, faces: number, count: number): Float32Array {
  const map = new Int32Array(count).fill(-1);
  const out = new Float32Array(3 * count);
  let n = 0;
  for (let c = 0; c < 3 * faces; c++) {
    const old = faceVerts[c];
    if (map[old] < 0) {
      map[old] = n;
      out[3 * n] = v[3 * old]; out[3 * n + 1] = v[3 * old + 1]; out[3 * n + 2] = v[3 * old + 2];
      n++;
    }
    faceVerts[c] = map[old];
  }
  return out.slice(0, 3 * n);
}

/**
 * One shape from the welded triangles `subset` (indices into tris), or null when none has area after recentring.
 * Adds to `stats`. `local` (one entry per welded vertex, all −1) is scratch, left all −1 again.
 * Vertices are numbered by first use over all the triangles first (each welded vertex read and recentred once);
 * only when the area test drops a face are they renumbered over the kept ones.
 */
export function encodePiece(
  pos: Float32Array,
  tris: Uint32Array,
  subset: Uint32Array,
  stats: EncodeStats,
  local: Int32Array = new Int32Array(pos.length / 3).fill(-1),
): EncodedPiece | null {
  const used = scratch32(0, Math.min(pos.length / 3, subset.length * 3)); // welded id of each shape vertex
  const faceVerts = scratch32(1, subset.length * 3);
  const count = firstUseNumbers(tris, subset, local, used, faceVerts);
  for (let i = 0; i < count; i++) local[used[i]] = -1;
  const b = usedBounds(pos, used, count);
  const fr = Math.fround;
  const centre: Vec3 = [fr(fr(b[0] + b[3]) * 0.5), fr(fr(b[1] + b[4]) * 0.5), fr(fr(b[2] + b[5]) * 0.5)];
  let v = recentre(pos, used, count, centre);
  const faces = keepAreas(v, faceVerts, subset.length);
  stats.degenerateDropped += subset.length - faces;
  if (faces === 0) return null;
  if (faces < subset.length) v = renumberKept(v, faceVerts, faces, count);
  if (faces > 0xffff / 3 || v.length / 3 > 0xffff) throw new Error(`encode: shape of ${faces} faces, ${v.length / 3} vertices exceeds the u16 limits`);
  return buildShape(v, faceVerts.subarray(0, 3 * faces), faces, centre, stats);
}

/** Tree, leaf-ordered faces, CSR and edges of one recentred piece (`v` is kept as the shape's vertices). */
function buildShape(v: Float32Array, faceVerts: Uint32Array, faces: number, centre: Vec3, stats: EncodeStats): EncodedPiece {
  const nv = v.length / 3;
  const bounds = boundsOf(v);
  const tree = buildTreeWasm(v, faceVerts, faces, bounds);
  const corners = new Uint16Array(3 * faces);
  for (let j = 0; j < faces; j++) {
    const f = tree.leafFaces[j];
    corners[3 * j] = faceVerts[3 * f];
    corners[3 * j + 1] = faceVerts[3 * f + 1];
    corners[3 * j + 2] = faceVerts[3 * f + 2];
  }
  const { offsets, ids, nb } = cornerRuns(corners, nv);
  const e = computeEdges(v, corners, offsets, ids, nb);
  const faceOffsets = new Uint16Array(faces + 1);
  for (let f = 0; f <= faces; f++) faceOffsets[f] = 3 * f;
  stats.faces += faces;
  stats.edges.open += e.counts[0];
  stats.edges.flat += e.counts[1];
  stats.edges.concave += e.counts[2];
  stats.edges.convex += e.counts[3];
  stats.edges.concaveSharp += e.counts[4];
  if (tree.depth > stats.maxTreeDepth) stats.maxTreeDepth = tree.depth;
  const shape: ShapeRecord = {
    min: [bounds[0], bounds[1], bounds[2]],
    max: [bounds[3], bounds[4], bounds[5]],
    word20: 0,
    vertices: v,
    vertexCornerOffsets: offsets,
    cornerIdsByVertex: ids,
    cornerVertices: corners,
    edgeValues: e.values,
    concaveBits: e.concave,
    flatBits: e.flat,
    faceOffsets,
    planeNormals: new Int16Array(0),
    planeOffsets: new Float32Array(0),
    tree: tree.nodes,
  };
  return { shape, centre };
}

/** min x, y, z, max x, y, z of the vertices; a tie keeps the earlier value. */
function boundsOf(v: Float32Array): Float64Array {
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = 0; i < v.length; i += 3) {
    const x = v[i], y = v[i + 1], z = v[i + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  return new Float64Array([x0, y0, z0, x1, y1, z1]);
}

/**
 * Per-piece scratch arrays (slot 0: a piece's welded vertex ids, 1: its corners' vertex numbers, 2: CSR counts,
 * 3: CSR neighbours), kept between pieces and calls and grown on demand: bounded by a shape's u16 counts, and a
 * fresh large typed array costs more than writing it (see edges.ts's scratch). Callers use a slot's contents only
 * until the next piece.
 */
const SCRATCH: Uint32Array[] = [new Uint32Array(0), new Uint32Array(0), new Uint32Array(0), new Uint32Array(0)];

/** Scratch slot k with room for n values (contents undefined). */
function scratch32(k: number, n: number): Uint32Array {
  if (SCRATCH[k].length < n) SCRATCH[k] = new Uint32Array(n);
  return SCRATCH[k];
}

/** Vertex → corner CSR: count → prefix sum → fill; each vertex's corners in corner order. */
export function vertexCorners(corners: Uint16Array, nv: number): { offsets: Uint16Array; ids: Uint16Array } {
  const r = cornerRuns(corners, nv);
  return { offsets: r.offsets, ids: r.ids };
}

/**
 * vertexCorners plus, per CSR slot, (next vertex << 16 | previous vertex) of its corner: edges.ts's neighbours(),
 * filled in the same pass (the fill knows each corner's place in its triangle).
 */
function cornerRuns(corners: Uint16Array, nv: number): { offsets: Uint16Array; ids: Uint16Array; nb: Int32Array } {
  const nc = corners.length;
  const start = scratch32(2, nv + 1).fill(0, 0, nv + 1);
  for (let c = 0; c < nc; c++) start[corners[c] + 1]++;
  for (let i = 0; i < nv; i++) start[i + 1] += start[i];
  const offsets = new Uint16Array(start.subarray(0, nv + 1));
  const ids = new Uint16Array(nc);
  const nb = new Int32Array(scratch32(3, nc).buffer, 0, nc);
  for (let c = 0; c < nc; c += 3) {
    const p = corners[c], q = corners[c + 1], r = corners[c + 2];
    let k = start[p]++;
    ids[k] = c; nb[k] = (q << 16) | r;
    k = start[q]++;
    ids[k] = c + 1; nb[k] = (r << 16) | p;
    k = start[r]++;
    ids[k] = c + 2; nb[k] = (p << 16) | q;
  }
  return { offsets, ids, nb };
}
