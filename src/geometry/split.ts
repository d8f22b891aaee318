// Splitting a welded mesh into shapes within the u16 limits (../shared/spec/physics-resource.md, "Triangle-mesh
// shapes": a shape holds at most 65,535 vertices and 21,845 faces). A piece of at most 21,845 triangles uses at most
// 65,535 vertices, so the face limit is the only one to enforce. Each piece keeps its triangles in welded order and
// is encoded with the whole object's welded numbering (as the reference encodes a batch of a welded object).
//
// Two rules (docs/format-decisions.md, "Encoder"):
// - 'spatial' (default, decision): recursive bisection at the median centroid along the axis of largest centroid
//   extent, counts proportional to the pieces each side needs — deterministic, each piece compact, pieces balanced.
// - 'sequential': consecutive runs of at most maxFaces welded triangles (what a batch-by-count writer does).
// The split runs in WebAssembly (assembly/split.ts); this file is its JavaScript entry point.
//
// Design log (encoder performance; 1M terrain, A/B of v1 and the candidate in one process): Floyd–Rivest sampling
// for ranges over 600 triangles (0.94×) plus each piece's ids put in order by one piece-of-id pass instead of
// sorting each piece (together 0.83×) are kept. Tried, no gain: one Float64Array of (centroid x, y, z, index)
// records with a one-pass widest axis (each level streams ~32 MB either way); bucket selection over 4,096 equal
// key buckets (slower: its 32 MB scatter buffer and copy-back cost more than quickselect's mispredictions).
// Tried 2026-11-29, not kept: ranges of ≥ 32k triangles split out of place into a second buffer set (two pivot keys
// from a sorted 4,096-key sample bracket the median; one branch-free pass writes below / above to the two ends,
// the middle few percent are selected in place; the buffers alternate by depth): split at 1M 249 vs 141 ms median —
// writing every record each level (8 stores a record, plus a fresh 28 MB buffer) costs more memory traffic than the
// in-place partition's mispredictions on this machine, whose random and streaming memory access is slow.
// Kept 2026-11-29: the ids, centroid and piece-of-id scratch reused between calls up to RETAIN_MAX triangles
// (≤ 8 MB retained): split 0.93–0.95× at 80k and 200k (80 and 40 interleaved pairs).
// 2026-12-01: moved to WebAssembly with the same passes (centroid arrays permuted with the ids, Floyd–Rivest
// selection, piece-of-id pass); measured in encode.ts's design log.
// 2026-12-04, kept: the widest axis's extents two lanes at a time with f64x2.pmin/pmax (the scalar compare-and-keep
// rule; f64x2.min/max measured slower: V8 wraps them in NaN and signed-zero fix-ups), and the centroids of two
// triangles at a time (three divisions for the price of one each). Split alone, 500k terrain, interleaved in one
// process: min 16.5 → 12.5 ms, median 18.5 → 15.0; same pieces.

import { encoderWasm, WasmLayout, withEncoder } from './wasm.ts';

export type SplitRule = 'spatial' | 'sequential';

/** Where a split's outputs are in the encoder's wasm memory: ids (u32 per triangle) and piece ends (u32 each). */
export interface SplitRegions {
  ids: number;
  ends: number;
}

/** Takes the regions of a split of up to n triangles from the layout. */
export function takeSplitRegions(m: WasmLayout, n: number): SplitRegions {
  return { ids: m.take(4 * n), ends: m.take(4 * (n + 1)) };
}

/**
 * Splits the n triangles at `tris` over the positions at `pos` (both in wasm memory; the layout committed) into
 * pieces of at most maxFaces: each piece's triangle indices, ascending, are ids[ends[p − 1], ends[p]) (ends[−1] = 0).
 * Returns the piece count (one piece when no split is needed, also for n = 0).
 */
export function runSplit(m: WasmLayout, r: SplitRegions, pos: number, tris: number, n: number, maxFaces: number, rule: SplitRule, arena = m.end()): number {
  if (!(maxFaces >= 1)) throw new Error(`split: maxFaces ${maxFaces} must be ≥ 1`);
  return m.w.split(n, pos, tris, maxFaces, rule === 'spatial' ? 1 : 0, r.ids, r.ends, arena);
}

/** Welded triangle indices of each piece, ascending within a piece. One piece when no split is needed. */
export function splitTriangles(positions: Float32Array, tris: Uint32Array, maxFaces: number, rule: SplitRule): Uint32Array[] {
  return withEncoder(`split: ${tris.length / 3} triangles`, () => splitCopy(positions, tris, maxFaces, rule));
}

function splitCopy(positions: Float32Array, tris: Uint32Array, maxFaces: number, rule: SplitRule): Uint32Array[] {
  const m = new WasmLayout(encoderWasm());
  const n = tris.length / 3;
  const pos = m.take(4 * positions.length), tri = m.take(4 * tris.length);
  const r = takeSplitRegions(m, n);
  const before = m.commit();
  new Float32Array(before, pos, positions.length).set(positions);
  new Uint32Array(before, tri, tris.length).set(tris);
  const pieces = runSplit(m, r, pos, tri, n, maxFaces, rule);
  return pieceLists(m.w.memory.buffer, r, pieces);
}

/** The pieces' id lists copied out of wasm memory. */
function pieceLists(buf: ArrayBuffer, r: SplitRegions, pieces: number): Uint32Array[] {
  const ends = new Uint32Array(buf, r.ends, pieces);
  const out: Uint32Array[] = [];
  for (let p = 0, lo = 0; p < pieces; lo = ends[p++]) out.push(new Uint32Array(buf, r.ids + 4 * lo, ends[p] - lo).slice());
  return out;
}
