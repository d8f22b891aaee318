// One mesh's encoding in two steps, so that its pieces can be encoded on other threads (src/tiling/pool.ts) and
// merged back: the whole-mesh step (weld and split, ../shared/spec/physics-resource.md "Triangle-mesh shapes":
// at most 21,845 faces a shape) and the per-piece step (recentre, tree, corners, edges: encode.ts's encodePiece).
// A piece travels as its own small mesh — the welded vertices its triangles use, numbered by first use, and its
// triangles in welded order — which encodePiece turns into the same shape as from the whole welded mesh: it
// recentres on the used vertices' bounds and renumbers by first use over the kept triangles either way. Merged in
// piece order, the shapes and stats equal encodeMeshShapes's (test/geometry/pieces.test.ts).

import { weld } from './weld.ts';
import { splitTriangles } from './split.ts';
import { densityCut, subsetDensity } from './grind-cut.ts';
import { checkDensity, encodePiece, ENCODE_DEFAULTS, noteCut, MAX_SHAPE_FACES, type EncodeOptions, type EncodeStats, type EncodedPiece } from './encode.ts';

/** One piece as a self-contained mesh: xyz f32 per vertex (first-use order) and three vertex ids per triangle. */
export interface PieceInput {
  positions: Float32Array;
  triangles: Uint32Array;
}

export interface MeshPlan {
  pieces: PieceInput[];
  /** The whole-mesh counts (input triangles, welded vertices, dropped by the weld); per-piece counts are zero. */
  stats: EncodeStats;
}

export interface PieceResult {
  /** null when none of the piece's triangles has an area after recentring. */
  piece: EncodedPiece | null;
  /** The piece's own counts: faces, edges, dropped after recentring, tree depth. */
  stats: EncodeStats;
}

export function emptyStats(): EncodeStats {
  return {
    inputTriangles: 0,
    weldedVertices: 0,
    faces: 0,
    degenerateDropped: 0,
    duplicatesDropped: 0,
    edges: { flat: 0, concave: 0, convex: 0, open: 0, concaveSharp: 0 },
    openEdges: 0,
    maxTreeDepth: 0,
    shapes: 0,
  };
}

/** Weld and split (see the file header). Throws like encodeMeshShapes for bad options, indices or positions. */
export function planPieces(positions: Float32Array | Float64Array, indices: Uint32Array, options: Partial<EncodeOptions> = {}): MeshPlan {
  const opt = { ...ENCODE_DEFAULTS, ...options };
  if (!Number.isInteger(opt.maxFaces) || opt.maxFaces < 1 || opt.maxFaces > MAX_SHAPE_FACES) {
    throw new Error(`encode: maxFaces ${opt.maxFaces} outside 1…${MAX_SHAPE_FACES}`);
  }
  if (opt.split !== 'spatial' && opt.split !== 'sequential') throw new Error(`encode: split "${opt.split}" is not 'spatial' or 'sequential'`);
  const w = weld(positions, indices);
  const stats = emptyStats();
  stats.inputTriangles = indices.length / 3;
  stats.weldedVertices = w.positions.length / 3;
  stats.degenerateDropped = w.degenerate;
  stats.duplicatesDropped = w.repeated;
  const local = new Int32Array(w.positions.length / 3).fill(-1); // welded → piece vertex, reset after each piece
  checkDensity(opt.density);
  const density = opt.density ?? 0;
  const subsets = splitTriangles(w.positions, w.triangles, opt.maxFaces, opt.split).flatMap((s) => {
    if (density === 0 || subsetDensity(w.positions, w.triangles, s) <= density) return [s];
    const cut = densityCut(w.positions, w.triangles, s, density, opt.maxFaces);
    noteCut(stats, cut.pieces.length - 1, cut.dense);
    return cut.pieces;
  });
  const pieces = subsets.map((s) => pieceMesh(w.positions, w.triangles, s, local));
  return { pieces, stats };
}

/** The triangles `subset` of the welded mesh as a piece mesh. `local` (all −1) is scratch, left all −1. */
function pieceMesh(pos: Float32Array, tris: Uint32Array, subset: Uint32Array, local: Int32Array): PieceInput {
  const triangles = new Uint32Array(3 * subset.length);
  const used = new Uint32Array(Math.min(local.length, 3 * subset.length));
  let count = 0;
  for (let i = 0, o = 0; i < subset.length; i++) {
    const t = 3 * subset[i];
    for (let k = 0; k < 3; k++, o++) {
      const v = tris[t + k];
      if (local[v] < 0) { used[count] = v; local[v] = count++; }
      triangles[o] = local[v];
    }
  }
  const positions = new Float32Array(3 * count);
  for (let j = 0; j < count; j++) {
    const v = 3 * used[j];
    positions[3 * j] = pos[v]; positions[3 * j + 1] = pos[v + 1]; positions[3 * j + 2] = pos[v + 2];
    local[used[j]] = -1;
  }
  return { positions, triangles };
}

/** Encodes one piece (any thread). */
export function encodePieceInput(input: PieceInput): PieceResult {
  const stats = emptyStats();
  const faces = input.triangles.length / 3;
  const subset = new Uint32Array(faces);
  for (let i = 0; i < faces; i++) subset[i] = i;
  return { piece: encodePiece(input.positions, input.triangles, subset, stats), stats };
}

/** The plan's counts plus every piece's, and the non-empty pieces in piece order: encodeMeshShapes's result. */
export function mergePieces(plan: MeshPlan, results: PieceResult[]): { pieces: EncodedPiece[]; stats: EncodeStats } {
  const s = plan.stats;
  const stats: EncodeStats = { ...s, edges: { ...s.edges } };
  const pieces: EncodedPiece[] = [];
  for (const r of results) {
    if (r.piece) pieces.push(r.piece);
    stats.faces += r.stats.faces;
    stats.degenerateDropped += r.stats.degenerateDropped;
    const e = r.stats.edges;
    stats.edges.flat += e.flat;
    stats.edges.concave += e.concave;
    stats.edges.convex += e.convex;
    stats.edges.open += e.open;
    stats.edges.concaveSharp += e.concaveSharp;
    if (r.stats.maxTreeDepth > stats.maxTreeDepth) stats.maxTreeDepth = r.stats.maxTreeDepth;
  }
  stats.shapes = pieces.length;
  stats.openEdges = stats.edges.open;
  return { pieces, stats };
}
