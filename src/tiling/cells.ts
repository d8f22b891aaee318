// collision_area tiles: square cells on the world X/Z plane.
// Spec: ../shared/spec/physics-resource.md "Collision, physics pools and grinds" (100-metre areas named
// collision_area_<x>_<z>; --cell-size 200|100|50). The grid's anchoring is not published; ours (**decision**,
// docs/format-decisions.md "Compiler"): cell edges at multiples of the cell size from world (0, 0); a triangle
// belongs to the cell of its centroid, cell (floor(x / size), floor(z / size)), so the cell west of the origin is
// −1 and its name is collision_area_-1_0.
//
// Design log
// - 2026-11-29: one stamp array per vertex (the bucket, reset to -1 for each object's vertices) instead of the
//   (object, bucket) pair, corners unrolled: assignCells on the 1M bench level, fresh process each, 7 runs at
//   load ~4: cold 273 → 274 ms, warm 192 → 201 ms median (same cells). Not kept. The cost is cold JIT (the first
//   call walks the 560,000-triangle terrain in the interpreter until on-stack replacement) and the per-triangle
//   centroid, not the stamps; object order fixes the output, so the big object cannot be moved back.
// - 2026-12-01: the per-triangle passes in WebAssembly (the encoder's module: runs of equal cells per group, the
//   buckets found in JavaScript per run, then a counting pass and a filling pass that re-stamps instead of storing
//   each corner's copy; same cells, groups and bytes on the 1M bench level and both samples at 50/100/200 m). Not
//   kept: warm 120–200 ms against 100–166 in JavaScript (copying every object in and the buckets out, ~100 MB of
//   fresh linear memory), and in the fresh-process bench the plan stage measured 222–286 ms against 216–242.
// - 2026-12-01: plan, then gather where the cell is encoded. The main thread only records runs of consecutive
//   triangles per (cell, material) (planCells); each cell's arrays are copied out by gatherGroup on the thread that
//   encodes it, reading the objects' arrays in shared memory (src/import/shared-arena.ts). A vertex is now copied
//   once per (object, group) even when it leaves and re-enters the bucket (the old fill copied it again): fewer
//   vertices, same bytes (the weld merges them either way; checked on the 1M bench level and both samples at 50,
//   100 and 200 m). 1M bench level, fresh processes alternating with the old code: plan stage 203–282 → 52–108 ms;
//   the gathering costs ~40–50 ms a thread. One thread: wall 1,768 / 2,173 / 2,044 → 1,575 / 1,921 / 1,637 ms. Two
//   threads: even (1,152–1,312 vs 1,169–1,419), because the worker's validation of the big terrain, which the old
//   plan stage hid, now runs into the encode stage (the CPU, ~2.1 s for 1.1 s of wall, is what is left to cut).
import type { ImportedObject } from '../model.ts';

export const CELL_SIZES = [50, 100, 200] as const;
export type CellSize = (typeof CELL_SIZES)[number];
export const DEFAULT_CELL_SIZE: CellSize = 100;

export const cellIndex = (v: number, size: number): number => Math.floor(v / size);
export const cellName = (x: number, z: number): string => `collision_area_${x}_${z}`;

/** The arrays of one object's material group that a cell group reads from (shared memory when imported). */
export interface CellSource {
  positions: Float32Array;
  indices: Uint32Array;
}

/**
 * One material's triangles in a cell, not yet copied out: runs of consecutive triangles of its sources, in object
 * then triangle order. gatherGroup turns it into the encoder's input on whichever thread encodes the cell, so the
 * copying is spread over the threads, and sources in shared memory reach a worker without a copy.
 */
export interface CellGroupPlan {
  material: number;
  /** Triangles over all runs. */
  triangles: number;
  sources: CellSource[];
  /** (source, first triangle, end triangle) triples. */
  runs: Int32Array;
}

export interface Cell {
  name: string;
  x: number;
  z: number;
  groups: CellGroupPlan[];
  /** Names of the objects with triangles in this cell, in object order. */
  sources: string[];
}

/** Cell ids pack (x, z) into one number; indices stay far inside ±2^20 for any level in f32 range at ≥ 50 m. */
const KEY_BIAS = 1 << 21;
/** Cells further than this from the origin (52,000 km at 50 m) are refused rather than aliased. */
export const MAX_CELL_INDEX = 1 << 20;
const packKey = (x: number, z: number): number => (x + KEY_BIAS) * 2 ** 23 + (z + KEY_BIAS);

interface CellBuild {
  x: number;
  z: number;
  /** Material → bucket id, in first-seen order. */
  byMaterial: Map<number, number>;
  sources: Set<string>;
}

/** A (cell, material) bucket while the plan is built. */
interface Bucket {
  material: number;
  triangles: number;
  sources: CellSource[];
  runs: number[];
  /** The object group whose arrays are the last source (a new group starts a new source). */
  last: number;
}

/** Buckets ((cell, material) groups) in creation order, found by cell key and material. */
class Buckets {
  cells = new Map<number, CellBuild>();
  list: Bucket[] = [];

  /** The bucket of (cell, material), created on first use; the object is recorded as a source of the cell. */
  find(object: string, x: number, z: number, key: number, material: number, cellSize: number, t: number): number {
    if (Math.abs(x) >= MAX_CELL_INDEX || Math.abs(z) >= MAX_CELL_INDEX) {
      throw new Error(`tiling: object "${object}" triangle ${t}: cell (${x}, ${z}) is beyond ±${MAX_CELL_INDEX} cells of ${cellSize} m`);
    }
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = { x, z, byMaterial: new Map(), sources: new Set() }));
    cell.sources.add(object);
    let b = cell.byMaterial.get(material);
    if (b === undefined) {
      b = this.list.length;
      this.list.push({ material, triangles: 0, sources: [], runs: [], last: -1 });
      cell.byMaterial.set(material, b);
    }
    return b;
  }

  /** Triangles [from, to) of object group `group` (a running number) go to bucket b. */
  addRun(b: number, group: number, source: CellSource, from: number, to: number): void {
    const bucket = this.list[b];
    if (bucket.last !== group) {
      bucket.sources.push(source);
      bucket.last = group;
    }
    bucket.runs.push(bucket.sources.length - 1, from, to);
    bucket.triangles += to - from;
  }
}

/**
 * Plans the cells: every triangle goes to the cell of its centroid, recorded as runs of consecutive triangles per
 * (cell, material) bucket; nothing is copied here (gatherGroup does it where the cell is encoded). Cells come out
 * sorted by x then z; within a cell, groups by material in first-seen order, runs in object then triangle order.
 */
export function planCells(objects: ImportedObject[], cellSize: number, known?: KnownRuns): Cell[] {
  const buckets = new Buckets();
  let group = 0;
  for (const o of objects) {
    for (let gi = 0; gi < o.groups.length; gi++) {
      const g = o.groups[gi];
      const runs = known?.(o, gi) ?? cellRuns(o.positions, g.indices, cellSize);
      const source: CellSource = { positions: o.positions, indices: g.indices };
      planRuns(o, source, g.material, runs, group++, cellSize, buckets);
    }
  }
  const sorted = [...buckets.cells.values()].sort((a, b) => a.x - b.x || a.z - b.z);
  return sorted.map((c) => ({
    name: cellName(c.x, c.z),
    x: c.x,
    z: c.z,
    sources: [...c.sources],
    groups: [...c.byMaterial.values()].map((b) => {
      const { material, triangles, sources, runs } = buckets.list[b];
      return { material, triangles, sources, runs: Int32Array.from(runs) };
    }),
  }));
}

/** Runs already computed for group gi of an object (by cellRuns, at the same cell size), or undefined. */
export type KnownRuns = (o: ImportedObject, gi: number) => Float64Array | undefined;

/**
 * Cell runs kept from one build to the next (src/build/session.ts), with the arrays they were computed from (never
 * written after the import: src/import/memo.ts) and the cell size: as long as the arrays live.
 */
export class RunsMemo {
  private byIndices = new WeakMap<Uint32Array, { positions: Float32Array; cellSize: number; runs: Float64Array }[]>();

  /** The runs of these arrays at cellSize, if computed before. */
  get(positions: Float32Array, indices: Uint32Array, cellSize: number): Float64Array | undefined {
    const list = this.byIndices.get(indices);
    if (list) for (const e of list) if (e.positions === positions && e.cellSize === cellSize) return e.runs;
    return undefined;
  }

  /** Keeps runs not kept yet (the caller asked get first). */
  set(positions: Float32Array, indices: Uint32Array, cellSize: number, runs: Float64Array): void {
    const list = this.byIndices.get(indices);
    if (list) list.push({ positions, cellSize, runs });
    else this.byIndices.set(indices, [{ positions, cellSize, runs }]);
  }
}


/**
 * One material group's runs of consecutive triangles whose centroids share a cell: (x, z, first, end) per run,
 * f64 so that any cell index is kept exactly (the range check is planCells'). Pure, so a worker computes them for
 * the small objects while the main thread is still importing (compile.ts), with the same result.
 */
export function cellRuns(p: Float32Array, idx: Uint32Array, cellSize: number): Float64Array {
  return Float64Array.from(runList(p, idx, cellSize));
}

/** cellRuns' loop, alone in its function for the reason runEnd gives (here: 695 deopts at Float64Array.from). */
function runList(p: Float32Array, idx: Uint32Array, cellSize: number): number[] {
  const n = idx.length / 3;
  const out: number[] = [];
  for (let k = 0; k < n; ) {
    const a = 3 * idx[3 * k], b = 3 * idx[3 * k + 1], c = 3 * idx[3 * k + 2];
    const x = centroidCell(p, a, b, c, 0, cellSize), z = centroidCell(p, a, b, c, 2, cellSize);
    const end = runEnd(p, idx, k + 1, n, packKey(x, z), cellSize);
    out.push(x, z, k, end);
    k = end;
  }
  return out;
}

/** A group's runs into their (cell, material) buckets. */
function planRuns(o: ImportedObject, source: CellSource, material: number, runs: Float64Array, group: number, cellSize: number, buckets: Buckets): void {
  for (let r = 0; r < runs.length; r += 4) {
    const x = runs[r], z = runs[r + 1], from = runs[r + 2], to = runs[r + 3];
    const b = buckets.find(o.name, x, z, packKey(x, z), material, cellSize, from);
    buckets.addRun(b, group, source, from, to);
  }
}

/** Cell index along axis (0: x, 2: z) of the centroid of the triangle whose corners start at p[a], p[b], p[c]. */
const centroidCell = (p: Float32Array, a: number, b: number, c: number, axis: number, cellSize: number): number =>
  Math.floor((p[a + axis] + p[b + axis] + p[c + axis]) / 3 / cellSize);

/**
 * The first triangle from k on whose centroid's cell key is not `key` (n when none). A loop-only function: with
 * the run's last compare after the loop in the planning function, its on-stack-replaced code (compiled during the
 * first, big object) deoptimised at the loop's exit on most later calls ("insufficient type feedback for compare
 * operation": 719 deopts planning the 1M bench level, none now).
 */
function runEnd(p: Float32Array, idx: Uint32Array, k: number, n: number, key: number, cellSize: number): number {
  for (; k < n; k++) {
    const a = 3 * idx[3 * k], b = 3 * idx[3 * k + 1], c = 3 * idx[3 * k + 2];
    if (packKey(centroidCell(p, a, b, c, 0, cellSize), centroidCell(p, a, b, c, 2, cellSize)) !== key) return k;
  }
  return n;
}

/** Per-thread scratch for gatherGroup: a stamp and a local number per source vertex, and the positions copied. */
const scratch = { stamp: new Int32Array(0), local: new Int32Array(0), positions: new Float32Array(0), token: 0 };

/**
 * The encoder's input for one planned group: the runs' triangles with their vertices copied once per object (a
 * vertex shared by several of the group's triangles of one object is copied once, at its first corner), so the
 * cell keeps the objects' vertex sharing. The weld by position makes any further sharing invisible in the output.
 */
export function gatherGroup(g: CellGroupPlan): { positions: Float32Array; indices: Uint32Array } {
  let maxVertices = 0;
  for (const s of g.sources) maxVertices = Math.max(maxVertices, s.positions.length / 3);
  if (scratch.stamp.length < maxVertices || scratch.token > 0x3fffffff) {
    scratch.stamp = new Int32Array(Math.max(maxVertices, 2 * scratch.stamp.length));
    scratch.local = new Int32Array(scratch.stamp.length);
    scratch.token = 0;
  }
  if (scratch.positions.length < 9 * g.triangles) scratch.positions = new Float32Array(Math.max(9 * g.triangles, 2 * scratch.positions.length));
  const indices = new Uint32Array(3 * g.triangles);
  let vertices = 0;
  let w = 0;
  let last: Float32Array | undefined;
  for (let r = 0; r < g.runs.length; r += 3) {
    const src = g.sources[g.runs[r]];
    if (src.positions !== last) (last = src.positions), scratch.token++;
    const from = g.runs[r + 1], to = g.runs[r + 2];
    vertices = gatherRun(src.positions, src.indices, from, to, indices, w, vertices, scratch.token);
    w += 3 * (to - from);
  }
  return { positions: scratch.positions.slice(0, 3 * vertices), indices };
}

/** Triangles [from, to) of one source into `out` at w; returns the group's vertex count after them. */
function gatherRun(p: Float32Array, idx: Uint32Array, from: number, to: number, out: Uint32Array, w: number, vertices: number, token: number): number {
  const { stamp, local, positions } = scratch;
  for (let i = 3 * from; i < 3 * to; i++, w++) {
    const v = idx[i];
    if (stamp[v] !== token) {
      stamp[v] = token;
      local[v] = vertices;
      const d = 3 * vertices++, s = 3 * v;
      positions[d] = p[s];
      positions[d + 1] = p[s + 1];
      positions[d + 2] = p[s + 2];
    }
    out[w] = local[v];
  }
  return vertices;
}
