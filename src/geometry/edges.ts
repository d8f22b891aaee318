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
// - 2026-12-01: pairing, face data and classification moved to WebAssembly (assembly/edges.ts, the same loops;
//   hub lists heapsorted there — their entries are distinct, so any sort gives the same order). FLAT_COS and the
//   convex value's slow path come from JavaScript (edge-rule.ts), so no value depends on the wasm's own Math.

export { FLAT_COS, EDGE_OPEN, EDGE_FLAT, EDGE_CONCAVE, EDGE_CONVEX, EDGE_CONCAVE_SHARP, classifyEdge, convexValue, convexValueFast } from './edge-rule.ts';
import { FLAT_COS } from './edge-rule.ts';
import { encoderWasm, WasmLayout } from './wasm.ts';

export interface EdgeData {
  values: Float32Array;
  concave: Uint8Array;
  flat: Uint8Array;
  /** Corners by class: [open, flat, concave, convex, sharp concave]. */
  counts: [number, number, number, number, number];
}

/** Bytes of a corner bitset: u32 words, 4·ceil(corners/32) bytes. */
export const bitsetBytes = (corners: number): number => 4 * Math.ceil(corners / 32);

/** Vertices with more corners than this pair on sorted lists (binary search, no O(v²)); assembly/edges.ts's own. */
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
 * Every corner's edge value and bits (see the file header and classifyEdge), computed in WebAssembly. `nb`:
 * neighbours() of the CSR, when the caller built it along with the CSR. Each paired edge is resolved once for both
 * of its corners (d and the convex value are symmetric; the above test is taken from each side).
 */
export function computeEdges(
  v: Float32Array,
  corners: ArrayLike<number>,
  offsets: ArrayLike<number>,
  ids: ArrayLike<number>,
  nb: Int32Array = neighbours(corners, ids),
): EdgeData {
  const nc = corners.length, nv = offsets.length - 1, bytes = bitsetBytes(nc);
  const w = encoderWasm();
  const m = new WasmLayout(w);
  const pv = m.take(4 * v.length), pc = m.take(2 * nc), po = m.take(2 * (nv + 1)), pi = m.take(2 * nc), pnb = m.take(4 * nc);
  const ptwin = m.take(4 * nc), pfd = m.take(48 * (nc / 3)), pout = m.take(4 * nc), pinc = m.take(4 * nc);
  const pvalues = m.take(4 * nc), pconcave = m.take(bytes), pflat = m.take(bytes), pcounts = m.take(20);
  const buf = m.commit();
  new Float32Array(buf, pv, v.length).set(v);
  new Uint16Array(buf, pc, nc).set(corners);
  new Uint16Array(buf, po, nv + 1).set(offsets);
  new Uint16Array(buf, pi, nc).set(ids);
  new Int32Array(buf, pnb, nc).set(nb.subarray(0, nc));
  w.edges(nv, nc, FLAT_COS, pv, pc, po, pi, pnb, ptwin, pfd, pout, pinc, pvalues, pconcave, pflat, bytes, pcounts);
  const c = new Int32Array(buf, pcounts, 5);
  return {
    values: new Float32Array(buf, pvalues, nc).slice(),
    concave: new Uint8Array(buf, pconcave, bytes).slice(),
    flat: new Uint8Array(buf, pflat, bytes).slice(),
    counts: [c[0], c[1], c[2], c[3], c[4]],
  };
}
