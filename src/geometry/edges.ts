// Corner edge data of a kind-5 shape (../shared/spec/physics-resource.md, "Triangle-mesh shapes"): every face
// corner's edge runs from its vertex to the next corner's vertex; the face across it decides the corner's edge value
// and its concave and flat bits. Normals are Newell's in f64 over the stored (recentred f32) vertices.
// The computation runs in WebAssembly (assembly/edges.ts, called by assembly/piece.ts for each shape); the rule's
// predicate and values are in edge-rule.ts (re-exported here), and this file keeps its constants and design log.
//
// Design log (encoder performance; computeEdges on a 21,845-face terrain piece, A/B in one process, 100 interleaved
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
// - 2026-12-04, kept (wasm; the JavaScript trials above do not carry over): the pairing notes each paired edge once
//   on a list (c << 16 | o) and the classification walks that list (no skip test per corner, a branch that follows
//   the pairing's order); past the flat test the two sides are chosen by selects and the convex value is computed
//   for every such edge (a bumpy surface's above tests are coin flips to the branch predictor); face data for two
//   faces at a time in f64x2 lanes (the divisions and square roots). By perf samples over 25 encodes of the 500k
//   terrain (of ~15,500): pairing + classification + convex values 2,838 → 2,645; face data −26 % (normalised to
//   the functions left unchanged); the per-piece step (interleaved in one process) min 99.5 → 97.1 ms for the
//   list and selects alone. Same bytes.
//   Tried, not kept (wasm): the non-hub pairing's counts by selects instead of branches (per-piece step 98.7 →
//   99.8 ms); convexValueFast inlined into the classification (97.4 → 98.6, noise).

export { FLAT_COS, EDGE_OPEN, EDGE_FLAT, EDGE_CONCAVE, EDGE_CONVEX, EDGE_CONCAVE_SHARP, classifyEdge, convexValue, convexValueFast } from './edge-rule.ts';

/** Bytes of a corner bitset: u32 words, 4·ceil(corners/32) bytes. */
export const bitsetBytes = (corners: number): number => 4 * Math.ceil(corners / 32);

/** Vertices with more corners than this pair on sorted lists (binary search, no O(v²)); assembly/edges.ts's own. */
export const HUB_VALENCE = 32;
