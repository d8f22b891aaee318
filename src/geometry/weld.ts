// Weld a triangle soup by exact position, as ReSkate Studio welds one collision object
// (../shared/spec/physics-resource.md, "Triangle-mesh shapes"; rules taken from the reference encoder's output,
// docs/format-decisions.md "Encoder"). DCC exporters split vertices at UV and normal seams; welding on positions
// (not indices) is what keeps those seams from becoming open edges, i.e. ghost bumps.
//
// Rules (observed on the reference encoder, run as a black box):
// - positions are taken as f32; two vertices are one when their f32 coordinates are equal, -0.0 equal to 0.0;
// - welded vertices are numbered by first use (triangles in order, corners in order) and keep the first use's value;
//   vertices no triangle uses are not numbered;
// - a triangle with two corners on one welded vertex, or whose f64 cross product has zero length, is dropped
//   (`degenerate`);
// - each kept triangle is rotated to start at its smallest welded vertex (winding kept);
// - a triangle equal to an earlier kept one after rotation (same corners, same winding) is dropped (`repeated`);
//   its reversal is a different triangle and is kept.
// The weld itself runs in WebAssembly (assembly/weld.ts); this file checks the input, rounds f64 positions to f32
// and words the errors.

import { encoderWasm, WasmLayout, withEncoder } from './wasm.ts';

export interface Welded {
  /** Welded positions, xyz f32 per vertex, in first-use order. */
  positions: Float32Array;
  /** Kept triangles, three welded vertex ids each, rotated to start at the smallest. */
  triangles: Uint32Array;
  /** Input triangle index of each kept triangle. */
  source: Uint32Array;
  /** Input triangles dropped for a repeated welded vertex or no area. */
  degenerate: number;
  /** Input triangles dropped as a repeat of an earlier kept triangle. */
  repeated: number;
}

/** The f32 bit patterns of the positions: a view of a Float32Array's own memory, or the f64 values rounded to f32. */
function positionBits(positions: Float32Array | Float64Array): Uint32Array {
  const p = positions instanceof Float32Array ? positions : new Float32Array(positions);
  return new Uint32Array(p.buffer, p.byteOffset, p.length);
}

/** Throws for array lengths that are not whole vertices and triangles (indices are checked in wasm, first). */
function validate(positions: ArrayLike<number>, indices: Uint32Array): void {
  if (positions.length % 3 !== 0) throw new Error(`weld: positions length ${positions.length} is not a multiple of 3`);
  if (indices.length % 3 !== 0) throw new Error(`weld: indices length ${indices.length} is not a multiple of 3`);
}

/** The error for corner i, whose index is past the positions. */
function indexError(positions: ArrayLike<number>, indices: Uint32Array, i: number): Error {
  return new Error(`weld: triangle ${(i / 3) | 0}: index ${indices[i]} ≥ vertex count ${positions.length / 3}`);
}

/** Throws for vertex v (used by corner i) whose f32 position is not finite. */
function notFiniteError(positions: ArrayLike<number>, v: number, i: number): Error {
  const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
  return new Error(`weld: triangle ${(i / 3) | 0}: vertex ${v} position (${x}, ${y}, ${z}) is not finite in f32`);
}

// Design log (weld, encoder performance):
// - v1: keys via a one-float scratch (store f32, load u32) per coordinate; a vertex table of ids plus a separate
//   key array (two cache misses per probe); the repeat table of kept indices compared against the triangle array
//   (two more misses per triangle, the table scattered over 16 MB at 1M triangles).
// - now: the f32 bits are read from one Uint32Array view (a Float64Array input is rounded to f32 once), finiteness
//   is an exponent test on them, the vertex table holds (id + 1, full hash) in one 8-byte slot (zero = empty, so no
//   fill pass; the welded vertex's bits are read only on a full-hash match — against (id + 1, x, y, z) 16-byte
//   slots: weld 0.84–0.98× at 4M, 0.82–0.91× at 1M; those in turn against v1: 0.57×), and the repeat table holds
//   (a + 1, b, c) slots placed at a · spread plus a hashed offset inside a 4,096-slot window, hubs past 64
//   triangles hashed over all of it. Tried: repeat-table slots of 3 words instead of 4 (no change at 4M).
// - now (2026-11-29; A/B in one process, terrain, medians): repeats are looked up in a chain per smallest vertex
//   (head per welded vertex, next per kept triangle: the chained triangles are recent, so cached), past HUB_LOCAL
//   triangles in a hashed table allocated only then. The 4 × nextPow2(2n) Int32 table was 4 MB at 80k triangles and
//   32 MB at 1M, and on this machine random access past ~1 MB costs 100–300 ns (500k random inserts: 33 ms into
//   1 MB, 140–230 ms into 8 MB). The loops live in loop-only functions (weldLoop, keepLoop) returning plain numbers:
//   on-stack-replaced code compiled before the code after a loop had run deopted on every call ("insufficient type
//   feedback" at the return). Weld 0.54× at 80k (18.5 → 10.0 ms), 0.77× at 1M (230 → 177 ms), where the vertex
//   table (8 MB at 500k vertices, ~150 ms) is now most of it.
// - Inputs past DIRECT_MAX vertices weld through partitions (weldPartitioned): the used vertices in first-use
//   order, their keys scattered by hash top bits into ≤ 256 partitions (sequential write streams), each welded with
//   a probe table that stays cached, then numbered in first-use order; a 64 KB direct-mapped cache of recent keys
//   settles repeats of a position in neighbouring triangles before the scatter. Against the chained version:
//   weld at 1M 0.49× on the terrain (165 → 81 ms), 0.82× on its split-vertex copy (every corner its own vertex,
//   530 → 436 ms). Below DIRECT_MAX the one table is as fast or faster (80k terrain 0.88–1.0×, but the
//   split-vertex 80k copy 1.1–1.3× slower through partitions), so small inputs keep it. That one table now holds
//   4-byte slots (id + 1; the keys compared against the welded bits, which are recent and cached), not (id + 1,
//   hash) pairs: half the table, 512 KB at 80k: weld 0.86–0.89× on the 80k terrain, 0.83–0.86× on its split-vertex
//   copy, 0.85× at 200k, unchanged at 750 triangles.
// - Internal arrays (remap, vertex table, chain heads, lengths and links) of up to 2^19 values kept between calls
//   (retainedI32; ≤ 10 MB retained): weld 0.92–1.00× at 80k, 0.94–0.95× split-vertex, 0.87–0.91× at 750
//   triangles (the level compile's meshes). The outputs stay fresh. Tried: 2,048 entries a
//   partition without a cap on their number (up to 2,048 write streams): split-vertex 1M 1.03×, 80k 1.32×.
//   Also tried, not kept: the zero-area test inlined by hand into keepLoop (1M: 1.06×, 1.01×); dropping the unused
//   `source` array (4 MB at 1M: 1.00×); the one table at load ≤ ¾ instead of ½ (80k 0.83×, 30k 1.23×: noise).
// - 2026-12-01: the weld moved to WebAssembly (assembly/weld.ts) with the one probe table of (id + 1) slots for
//   every size and the repeat chains and hub table as above; the partitions, recent-key cache and retained arrays
//   were for JavaScript's costs and are gone. A/B in one process against the JavaScript weld, medians: 2,200
//   triangles 0.24 → 0.13 ms (0.52×), 80k 15.1 → 10.3 ms (0.68×), 1M terrain 136 → 111 ms (0.82×), 300k
//   split-vertex soup (partitioned in JavaScript) 157 → 125 ms (0.80×); same output on 10 meshes (repeats, hubs,
//   −0.0, f64 input, unused vertices, split vertices) and the same errors.
// - 2026-12-04, kept: the probe table's slots carry a tag, the key hash's bits above those (id + 1) needs, so an
//   occupied slot of another key is passed without reading its welded bits (a random load: the slot's vertex is any
//   earlier one). Weld alone, the two modules interleaved in one process, 500k terrain (all vertices distinct):
//   median 20.1 → 17.7 ms (min 16.8 → 16.4); 80k and split-vertex copies unchanged; same output.
//   Tried, not kept: each batch of 32 corners' new vertices hashed first and their first slots read ahead (to
//   overlap the misses of a table far past the caches): weld 4M 173 → 209 ms, 1M 23 → 27, 80k 1.5 → 1.9 (min of
//   12): the probes' misses already overlap, and the extra pass is pure cost.
//   Tried, not kept (2026-12-04, evening): two passes, each input vertex's first corner listed first (branch-free),
//   then the hashes of that list, then the probes touching the slot 8, 16 or 32 vertices ahead. weld() alone, min
//   of 3 × 3 calls, two modules in one process: 4M 317–357 → 292–321 ms, but 1M 28.1–28.6 → 29.3–31.0, 500k and 80k
//   equal; whole encodes 1M −1 %, 4M −3.5 % (within this machine's spread). By perf, the touching load itself then
//   holds retirement (wasm has no prefetch), so at most what fits in the reorder buffer overlaps, as before.
// - 2026-12-04, late (the 4M/1M scaling goal, 4M/1M): large inputs weld through partitions again, now in wasm
//   (assembly/weld.ts weldPartitioned: the used vertices in first-use order, their keys scattered by the hash's top
//   bits into ≤ 256 partitions of ~8,192, each welded with a probe table that stays in a core's cache, then numbered
//   in list order). The one table for 2M vertices is 16 MB, past this machine's caches: a random miss a vertex.
//   weld() alone, two modules in one process, min of 12 (terrain: all positions distinct): 4M 187 → 93 ms, 2M 73 →
//   47, 1.1M 29.6 → 24.4, 1M 25.7 → 25.3; split-vertex copies: 2M 243 → 185, 1M 105 → 91, 500k 46 → 43, but 300k
//   20 → 26 and 200k 12 → 17 (their repeats hit cached slots of the one table, and the partitions' five passes
//   cost per corner). Hence two thresholds on min(nv, 3 nt): PART_MIN 2^19 for indexed inputs, PART_MIN_SPLIT 2^20
//   where nv > 2 nt. Whole encodes (encodeMeshShapes, both modules in one process, min): 4M 1,484 → 1,321 ms, 1M
//   equal (338 / 342). Same output on terrains, split-vertex copies, shuffled triangles, lattices with −0.0, one
//   point, and the same first bad corner (test/geometry/weld.test.ts holds it to the rules written out).

/** Where a weld's input and output arrays are in the encoder's wasm memory (byte offsets). */
export interface WeldRegions {
  nv: number;
  nt: number;
  bits: number;
  indices: number;
  /** Welded positions: f32 ×3 per welded vertex (room for min(nv, 3·nt)). */
  out: number;
  remap: number;
  /** Kept triangles: 3 u32 each (room for nt). */
  tris: number;
  source: number;
}

/**
 * The regions of a weld whose outputs (welded positions and triangles) were taken already, at `out` and `tris`:
 * its input, remap and sources, which nothing reads after it (encode.ts lets the next calls' tables start there).
 */
export function takeWeldInputs(m: WasmLayout, nv: number, nt: number, out: number, tris: number): WeldRegions {
  return { nv, nt, bits: m.take(12 * nv), indices: m.take(12 * nt), out, remap: m.take(4 * nv), tris, source: m.take(4 * nt) };
}

/** Takes the regions of a weld of nv vertices and nt triangles from the layout: its outputs, then takeWeldInputs. */
export function takeWeldRegions(m: WasmLayout, nv: number, nt: number): WeldRegions {
  const out = m.take(12 * Math.min(nv, 3 * nt)), tris = m.take(12 * nt);
  return takeWeldInputs(m, nv, nt, out, tris);
}

export interface WeldCounts {
  /** Welded vertices. */
  count: number;
  /** Kept triangles. */
  kept: number;
  degenerate: number;
  repeated: number;
}

/**
 * Checks the input, copies it into the regions (the layout committed first: regions taken after the weld's are
 * grown too) and welds in wasm, its tables after everything taken. Throws for bad indices or non-finite positions.
 */
export function runWeld(m: WasmLayout, r: WeldRegions, positions: Float32Array | Float64Array, indices: Uint32Array): WeldCounts {
  validate(positions, indices);
  const bits = positionBits(positions);
  const buf = m.commit();
  new Uint32Array(buf, r.bits, bits.length).set(bits);
  new Uint32Array(buf, r.indices, indices.length).set(indices);
  const w = m.w;
  w.weld(r.nv, r.nt, r.bits, r.indices, r.out, r.remap, r.tris, r.source, m.end());
  const badIndex = w.weldResult(5);
  if (badIndex >= 0) throw indexError(positions, indices, badIndex);
  const bad = w.weldResult(4);
  if (bad >= 0) throw notFiniteError(positions, indices[bad], bad);
  return { count: w.weldResult(0), kept: w.weldResult(1), degenerate: w.weldResult(2), repeated: w.weldResult(3) };
}

/** `indices` over `positions` welded (see the file header). Throws for bad indices or non-finite positions. */
export function weld(positions: Float32Array | Float64Array, indices: Uint32Array): Welded {
  return withEncoder(`weld: ${indices.length / 3} triangles`, () => weldCopy(positions, indices));
}

function weldCopy(positions: Float32Array | Float64Array, indices: Uint32Array): Welded {
  const m = new WasmLayout(encoderWasm());
  const r = takeWeldRegions(m, positions.length / 3, indices.length / 3);
  const c = runWeld(m, r, positions, indices);
  const buf = m.w.memory.buffer; // after the call: the memory may have grown
  const welded = {
    positions: new Float32Array(buf, r.out, 3 * c.count).slice(),
    triangles: new Uint32Array(buf, r.tris, 3 * c.kept).slice(),
    source: new Uint32Array(buf, r.source, c.kept).slice(),
    degenerate: c.degenerate,
    repeated: c.repeated,
  };
  return welded;
}
