// Mesh → kind-5 shapes (../shared/spec/physics-resource.md, "Triangle-mesh shapes"), byte for byte as the reference
// encoder (ReSkate Studio's writer) makes them: weld, split at the u16 limits, then per piece recentre on the bounds'
// middle, drop triangles with no area after recentring, renumber vertices by first use, build the tree (faces are
// stored in its leaf order), vertex→corner CSR, edge values and bits. Kind-5 shapes carry no face planes.
// Facts and decisions: docs/format-decisions.md, "Encoder". Weld and split run here in JavaScript; the per-piece
// step runs in WebAssembly (assembly/piece.ts, tree.ts, edges.ts), the welded mesh copied in once per call.
//
// Design log (encoder performance):
// - (JavaScript, before WebAssembly; 80k terrain, tree stubbed out, 60 interleaved runs) bounds in six locals; the
//   CSR fill writing each slot's (next << 16 | prev) vertices for the edge pairing: 0.90×. Vertices numbered by
//   first use over all the piece's triangles first, then bounds and recentring once per vertex, renumbering only
//   when the area test dropped a face: 0.92×. Tree and per-piece scratch kept between calls: 0.93–0.98×. These
//   orders and passes are what assembly/piece.ts does.
// - 2026-12-01, WebAssembly in three steps (A/B in one process against the all-JavaScript encoder, 2-core Xeon VM,
//   80k terrain medians of 26 after 4 warm-up calls; 1M of 4): the tree (whole encode 0.75–0.78× at 80k, 0.81× at
//   1M), the edge data (0.96–0.98× more), the rest of the piece — numbering, bounds, recentring, area test, corner
//   order, CSR — with the welded mesh copied in once (0.95–0.96× more at 80k, 0.93× at 1M). Together 0.64–0.67×
//   at 80k (171–178 → 114–115 ms) and 0.63× at 1M (2,784 → 1,747 ms); a fresh process's first 80k encode 530–542 →
//   288–299 ms. Weld and split are the JavaScript left (~20 % of the time).
// - 2026-12-04: readPiece copies a shape's arrays and its open corners into one new buffer (views at aligned
//   offsets) instead of thirteen `.slice()`s: a 108-triangle prop (the 1M bench level has 4,100) 29.6–31.8 →
//   27.3–27.6 µs an encode (alternating processes, 30,000 encodes each); buffer allocation and sweeping had been
//   ~8 % of a small shape's encode. Same arrays; buffers shared, so a transfer list names each once (mesh-threads).

import type { ShapeRecord, Vec3 } from '../format/types.ts';
import { runWeld, takeWeldInputs } from './weld.ts';
import { FLAT_COS } from './edge-rule.ts';
import { encoderWasm, WasmLayout, withEncoder, type EncoderWasm } from './wasm.ts';
import { runSplit, takeSplitRegions, type SplitRule } from './split.ts';
import { densityCut, subsetDensity } from './grind-cut.ts';

export interface EncodeOptions {
  /** Most faces in one shape: 1 … 21,845 (u16 corner count / 3). Default 21,845. */
  maxFaces: number;
  /** How a mesh past maxFaces is cut into shapes: 'spatial' (default) or 'sequential' (see split.ts). */
  split: SplitRule;
  /**
   * The density cut (grind-cut.ts): a shape over this many half-edges per metre of its bbox diagonal is cut into
   * shapes at or under it, creases kept inside. 0 (default: Studio's writer) cuts nothing; the compiler passes
   * GRIND_DENSITY_TARGET. Range 0 or 1 … 1e9.
   */
  density?: number;
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
  /** Shapes the density cut added, and shapes it left over its target (too small to cut further). */
  densityCut?: { added: number; dense: number };
}

export interface EncodedPiece {
  shape: ShapeRecord;
  /** Bounds' middle in input space: the part's position. */
  centre: Vec3;
  /** The corners the shape leaves unpaired, for the level-wide seams (src/geometry/seams.ts). */
  open: OpenCorners;
}

/**
 * A shape's unpaired corners (no single opposite corner in the shape): what the level-wide seams pair across the
 * compiler's cuts (src/geometry/seams.ts). Positions are in input (world) space, as the weld kept them.
 */
export interface OpenCorners {
  /** The stored corner's index in its shape. */
  corner: Uint32Array;
  /** 9 per corner: its vertex a, the next corner's vertex b (the edge a → b), then the face's third vertex. */
  points: Float32Array;
}

/**
 * Encodes a triangle mesh into one or more kind-5 shapes (see the file header): the reference encoder's bytes. Each
 * piece lists the corners its shape leaves unpaired (`open`), which the level-wide seams may join later.
 */
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
  checkDensity(opt.density);
  // A big mesh's memory is kept a moment for the caller's next one (wasm.ts LARGE_IDLE_MS).
  return withEncoder(`encode: ${indices.length / 3} triangles`, () => encodeInWasm(positions, indices, opt), true);
}

/** encodeMeshShapes's work: weld, split and every piece in wasm memory, the shapes copied out. */
function encodeInWasm(positions: Float32Array | Float64Array, indices: Uint32Array, opt: EncodeOptions): { pieces: EncodedPiece[]; stats: EncodeStats } {
  const m = new WasmLayout(encoderWasm());
  const nv = positions.length / 3, nt = indices.length / 3, most = Math.min(nv, 3 * nt);
  // What the split and the pieces read first (the welded mesh, the split's output, the shape-vertex map), then
  // what only the weld reads (its input, remap, sources): the split's and pieces' tables start there, in memory the
  // weld has touched already. A big mesh's fresh wasm memory costs a page fault a 4 KB page (~2 µs on a VM):
  // 1M triangles then need 61 MB instead of 84 (now within RETAIN_BYTES), 4M ~290 instead of 336.
  const out = m.take(12 * most), tris = m.take(12 * nt);
  const sr = takeSplitRegions(m, nt);
  const local = m.take(4 * most); // welded → shape vertex, all −1 between pieces
  const spent = m.end();
  const wr = takeWeldInputs(m, nv, nt, out, tris);
  const c = runWeld(m, wr, positions, indices);
  const stats: EncodeStats = {
    inputTriangles: nt,
    weldedVertices: c.count,
    faces: 0,
    degenerateDropped: c.degenerate,
    duplicatesDropped: c.repeated,
    edges: { flat: 0, concave: 0, convex: 0, open: 0, concaveSharp: 0 },
    openEdges: 0,
    maxTreeDepth: 0,
    shapes: 0,
  };
  new Int32Array(m.w.memory.buffer, local, c.count).fill(-1);
  const count = runSplit(m, sr, wr.out, wr.tris, c.kept, opt.maxFaces, opt.split, spent);
  const ends = new Uint32Array(m.w.memory.buffer, sr.ends, count).slice();
  const pieces: EncodedPiece[] = [];
  const density = opt.density ?? 0;
  for (let p = 0, lo = 0; p < count; lo = ends[p++]) {
    // The density cut, where asked for and needed: the piece's ids rewritten in place, piece by piece of the cut.
    let runs = [ends[p] - lo];
    if (density > 0) {
      const buf = m.w.memory.buffer;
      const pos = new Float32Array(buf, wr.out, 3 * c.count), tris = new Uint32Array(buf, wr.tris, 3 * c.kept);
      const ids = new Uint32Array(buf, sr.ids + 4 * lo, ends[p] - lo);
      if (subsetDensity(pos, tris, ids) > density) {
        const cut = densityCut(pos, tris, ids.slice(), density, opt.maxFaces);
        let at = 0;
        for (const q of cut.pieces) { ids.set(q, at); at += q.length; }
        runs = cut.pieces.map((q) => q.length);
        noteCut(stats, cut.pieces.length - 1, cut.dense);
      }
    }
    for (let r = 0, from = lo; r < runs.length; from += runs[r++]) {
      const at = m.w.piece(wr.out, wr.tris, local, sr.ids + 4 * from, runs[r], spent, FLAT_COS, 1);
      const piece = readPiece(m.w, at, runs[r], stats, wr.out, wr.tris);
      if (piece) pieces.push(piece);
    }
  }
  stats.shapes = pieces.length;
  stats.openEdges = stats.edges.open;
  return { pieces, stats };
}

/** Throws for a density target outside 0 or 1 … 1e9. */
export function checkDensity(d: number | undefined): void {
  if (d !== undefined && d !== 0 && !(Number.isFinite(d) && d >= 1 && d <= 1e9)) throw new Error(`encode: density ${d} is not 0 (off) or 1…1e9 half-edges per metre`);
}

/** Adds a density cut's counts to the stats. */
export function noteCut(stats: EncodeStats, added: number, dense: number): void {
  const d = (stats.densityCut ??= { added: 0, dense: 0 });
  d.added += added;
  d.dense += dense;
}

/**
 * The shape whose result header assembly/piece.ts left at `at` (for a subset of n triangles), copied out of wasm
 * memory, or null when no face kept an area. pPos, pTris: the welded mesh piece() read (for the open corners'
 * positions). Adds to `stats`; throws past the u16 limits.
 */
function readPiece(w: EncoderWasm, at: number, n: number, stats: EncodeStats, pPos: number, pTris: number): EncodedPiece | null {
  const buf = w.memory.buffer; // after the call: the memory may have grown
  const h = new Int32Array(buf, at, HEADER_I32);
  const hf = new Float64Array(buf, at + 4 * HEADER_I32, 9);
  const faces = h[H.faces], nv = h[H.vertices];
  stats.degenerateDropped += h[H.dropped];
  if (faces === 0) return null;
  if (faces < 0) throw new Error(`encode: shape of ${n - h[H.dropped]} faces, ${nv} vertices exceeds the u16 limits`);
  const nc = 3 * faces, bytes = h[H.bitsetBytes];
  stats.faces += faces;
  stats.edges.open += h[H.counts];
  stats.edges.flat += h[H.counts + 1];
  stats.edges.concave += h[H.counts + 2];
  stats.edges.convex += h[H.counts + 3];
  stats.edges.concaveSharp += h[H.counts + 4];
  if (h[H.depth] > stats.maxTreeDepth) stats.maxTreeDepth = h[H.depth];
  // Every array of the shape and its open corners in one new buffer (one allocation a shape, not thirteen: a level
  // of thousands of small props spent more on allocating and sweeping buffers than on copying): 4-byte arrays first,
  // then 2-byte, then bytes, so each view is aligned.
  const nOpen = h[H.open];
  const out = new CopyOut(buf, 4 * (3 * nv + nc + 2 * (faces - 1) + 10 * nOpen) + 2 * (nv + 1 + 2 * nc + faces + 1) + 2 * bytes);
  const vertices = out.f32(h[H.v], 3 * nv), edgeValues = out.f32(h[H.values], nc), tree = out.u32(h[H.nodes], 2 * (faces - 1));
  const corner = out.u32(0, nOpen), points = out.f32(0, 9 * nOpen);
  const vertexCornerOffsets = out.u16(h[H.offsets], nv + 1), cornerIdsByVertex = out.u16(h[H.ids], nc), cornerVertices = out.u16(h[H.corners], nc);
  const faceOffsets = out.u16(0, faces + 1);
  for (let f = 0; f <= faces; f++) faceOffsets[f] = 3 * f;
  const concaveBits = out.u8(h[H.concave], bytes), flatBits = out.u8(h[H.flat], bytes);
  const shape: ShapeRecord = {
    min: [hf[3], hf[4], hf[5]],
    max: [hf[6], hf[7], hf[8]],
    word20: 0,
    vertices,
    vertexCornerOffsets,
    cornerIdsByVertex,
    cornerVertices,
    edgeValues,
    concaveBits,
    flatBits,
    faceOffsets,
    planeNormals: new Int16Array(0),
    planeOffsets: new Float32Array(0),
    tree,
  };
  const open = { corner, points };
  readOpen(buf, nOpen, h[H.openAt], pPos, pTris, open);
  return { shape, centre: [hf[0], hf[1], hf[2]], open };
}

/** Views laid out one after another in one new buffer, each filled from wasm memory (or left zero: from 0). */
class CopyOut {
  private readonly to: ArrayBuffer;
  private at = 0;
  constructor(private readonly from: ArrayBuffer, bytes: number) {
    this.to = new ArrayBuffer(bytes);
  }

  private take(src: number, n: number, size: number): number {
    const at = this.at;
    this.at += n * size;
    if (src !== 0 && n > 0) new Uint8Array(this.to, at, n * size).set(new Uint8Array(this.from, src, n * size));
    return at;
  }

  f32(src: number, n: number): Float32Array { return new Float32Array(this.to, this.take(src, n, 4), n); }
  u32(src: number, n: number): Uint32Array { return new Uint32Array(this.to, this.take(src, n, 4), n); }
  u16(src: number, n: number): Uint16Array { return new Uint16Array(this.to, this.take(src, n, 2), n); }
  u8(src: number, n: number): Uint8Array { return new Uint8Array(this.to, this.take(src, n, 1), n); }
}

/** The n open corners listed at `list` (piece.ts listOpen: stored corner, 3 × welded triangle + k) with their positions, into `open`. */
function readOpen(buf: ArrayBuffer, n: number, list: number, pPos: number, pTris: number, open: OpenCorners): void {
  if (n === 0) return;
  const { corner, points } = open;
  const l = new Uint32Array(buf, list, 2 * n), tris = new Uint32Array(buf, pTris), pos = new Float32Array(buf, pPos);
  for (let i = 0; i < n; i++) {
    corner[i] = l[2 * i];
    const wc = l[2 * i + 1], k = wc % 3, t = wc - k;
    for (let j = 0; j < 3; j++) {
      const v = 3 * tris[t + ((k + j) % 3)];
      points[9 * i + 3 * j] = pos[v];
      points[9 * i + 3 * j + 1] = pos[v + 1];
      points[9 * i + 3 * j + 2] = pos[v + 2];
    }
  }
}

/**
 * assembly/piece.ts's result header, i32 words (its H_* byte offsets / 4): counts, then pointers into wasm memory;
 * its f64 values (centre x, y, z, shape min x, y, z, max x, y, z) follow the HEADER_I32 words.
 */
const H = {
  faces: 0, vertices: 1, depth: 2, dropped: 3, counts: 4, // counts: 5 edge classes (open, flat, concave, convex, sharp)
  v: 9, offsets: 10, ids: 11, corners: 12, values: 13, concave: 14, flat: 15, nodes: 16, bitsetBytes: 17, open: 18, openAt: 19,
} as const;
const HEADER_I32 = 20;

/**
 * One shape from the welded triangles `subset` (indices into tris) of the welded mesh (pos, tris), or null when
 * none has area after recentring. Adds to `stats`. For one piece; encodeMeshShapes copies a mesh in once for all.
 */
export function encodePiece(pos: Float32Array, tris: Uint32Array, subset: Uint32Array, stats: EncodeStats): EncodedPiece | null {
  return withEncoder(`encode: piece of ${subset.length} triangles`, () => pieceInWasm(pos, tris, subset, stats));
}

/** encodePiece's work: the mesh and the subset copied into wasm memory, assembly/piece.ts run, the shape copied out. */
function pieceInWasm(pos: Float32Array, tris: Uint32Array, subset: Uint32Array, stats: EncodeStats): EncodedPiece | null {
  const m = new WasmLayout(encoderWasm());
  const nv = pos.length / 3;
  const pPos = m.take(4 * pos.length), pTris = m.take(4 * tris.length), pLocal = m.take(4 * nv), pSubset = m.take(4 * subset.length);
  const buf = m.commit();
  new Float32Array(buf, pPos, pos.length).set(pos);
  new Uint32Array(buf, pTris, tris.length).set(tris);
  new Int32Array(buf, pLocal, nv).fill(-1);
  new Uint32Array(buf, pSubset, subset.length).set(subset);
  const at = m.w.piece(pPos, pTris, pLocal, pSubset, subset.length, m.end(), FLAT_COS, 1);
  return readPiece(m.w, at, subset.length, stats, pPos, pTris);
}
