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
import type { ImportedObject } from '../import/gltf.ts';

export const CELL_SIZES = [50, 100, 200] as const;
export type CellSize = (typeof CELL_SIZES)[number];
export const DEFAULT_CELL_SIZE: CellSize = 100;

export const cellIndex = (v: number, size: number): number => Math.floor(v / size);
export const cellName = (x: number, z: number): string => `collision_area_${x}_${z}`;

/** One material's triangles in a cell, as a triangle soup (9 floats a triangle; the encoder welds by position). */
export interface CellGroup {
  material: number;
  positions: Float32Array;
  indices: Uint32Array;
}

export interface Cell {
  name: string;
  x: number;
  z: number;
  groups: CellGroup[];
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

/** Buckets ((cell, material) groups) by id, with their triangle and vertex counts. */
class Buckets {
  cells = new Map<number, CellBuild>();
  triangles: Int32Array<ArrayBuffer> = new Int32Array(256);
  vertices: Int32Array<ArrayBuffer> = new Int32Array(256);
  count = 0;

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
      b = this.count++;
      if (b === this.triangles.length) {
        this.triangles = grown(this.triangles);
        this.vertices = grown(this.vertices);
      }
      cell.byMaterial.set(material, b);
    }
    return b;
  }
}

const grown = (a: Int32Array): Int32Array<ArrayBuffer> => {
  const next = new Int32Array(2 * a.length);
  next.set(a);
  return next;
};

/**
 * Distributes every triangle to the cell of its centroid: count → allocate → fill, in object then triangle order.
 * Cells come out sorted by x then z; within a cell, groups by material in first-seen order. A group keeps the
 * objects' vertex sharing (a vertex is copied once per run of triangles in the same bucket); a vertex that leaves
 * and re-enters a bucket is copied again, which the encoder's weld by position makes invisible in the output.
 */
export function assignCells(objects: ImportedObject[], cellSize: number): Cell[] {
  let triangles = 0;
  let maxVertices = 0;
  for (const o of objects) {
    maxVertices = Math.max(maxVertices, o.positions.length / 3);
    for (const g of o.groups) triangles += g.indices.length / 3;
  }
  const buckets = new Buckets();
  // Pass 1: per triangle its bucket; per corner its bucket-local vertex, as ~local (negative) where the corner is
  // the vertex's first copy into the bucket. Stamps are (object, bucket), so nothing needs clearing between objects.
  const bucketOf = new Int32Array(triangles);
  const cornerOf = new Int32Array(triangles * 3);
  const stamps = { object: new Int32Array(maxVertices).fill(-1), bucket: new Int32Array(maxVertices), local: new Int32Array(maxVertices) };
  let t = 0;
  for (let oi = 0; oi < objects.length; oi++) {
    const o = objects[oi];
    for (const g of o.groups) t = countGroup(o, oi, g.indices, g.material, cellSize, t, buckets, bucketOf, cornerOf, stamps);
  }
  // Pass 2: exact arrays per bucket, filled in the same order.
  const positions = Array.from({ length: buckets.count }, (_, b) => new Float32Array(3 * buckets.vertices[b]));
  const indices = Array.from({ length: buckets.count }, (_, b) => new Uint32Array(3 * buckets.triangles[b]));
  const fill = new Int32Array(buckets.count);
  t = 0;
  for (const o of objects) {
    for (const g of o.groups) t = fillGroup(o.positions, g.indices, t, bucketOf, cornerOf, positions, indices, fill);
  }
  const sorted = [...buckets.cells.values()].sort((a, b) => a.x - b.x || a.z - b.z);
  return sorted.map((c) => ({
    name: cellName(c.x, c.z),
    x: c.x,
    z: c.z,
    sources: [...c.sources],
    groups: [...c.byMaterial].map(([material, b]) => ({ material, positions: positions[b], indices: indices[b] })),
  }));
}

/** Pass 1 over one material group of an object; returns the next global triangle number. */
function countGroup(
  o: ImportedObject, oi: number, idx: Uint32Array, material: number, cellSize: number, t0: number, buckets: Buckets,
  bucketOf: Int32Array, cornerOf: Int32Array, stamps: { object: Int32Array; bucket: Int32Array; local: Int32Array },
): number {
  const p = o.positions;
  const stampObject = stamps.object, stampBucket = stamps.bucket, local = stamps.local;
  let vertices = buckets.vertices, tris = buckets.triangles;
  const n = idx.length / 3;
  let lastKey = NaN;
  let b = -1;
  let t = t0;
  for (let k = 0; k < n; k++, t++) {
    const v0 = idx[3 * k], v1 = idx[3 * k + 1], v2 = idx[3 * k + 2];
    const x = Math.floor((p[3 * v0] + p[3 * v1] + p[3 * v2]) / 3 / cellSize);
    const z = Math.floor((p[3 * v0 + 2] + p[3 * v1 + 2] + p[3 * v2 + 2]) / 3 / cellSize);
    const key = packKey(x, z);
    if (key !== lastKey) {
      b = buckets.find(o.name, x, z, key, material, cellSize, k);
      (vertices = buckets.vertices), (tris = buckets.triangles);
      lastKey = key;
    }
    bucketOf[t] = b;
    tris[b]++;
    for (let c = 0; c < 3; c++) {
      const v = c === 0 ? v0 : c === 1 ? v1 : v2;
      if (stampObject[v] !== oi || stampBucket[v] !== b) {
        stampObject[v] = oi;
        stampBucket[v] = b;
        local[v] = vertices[b]++;
        cornerOf[3 * t + c] = ~local[v];
      } else cornerOf[3 * t + c] = local[v];
    }
  }
  return t;
}

/** Pass 2 over one material group: indices for every triangle, positions where a corner made the copy. */
function fillGroup(
  p: Float32Array, idx: Uint32Array, t0: number, bucketOf: Int32Array, cornerOf: Int32Array, positions: Float32Array[], indices: Uint32Array[], fill: Int32Array,
): number {
  const n = idx.length / 3;
  let t = t0;
  for (let k = 0; k < n; k++, t++) {
    const b = bucketOf[t];
    const out = indices[b];
    const w = 3 * fill[b]++;
    for (let c = 0; c < 3; c++) {
      const li = cornerOf[3 * t + c];
      if (li < 0) {
        const pos = positions[b];
        const d = 3 * ~li, s = 3 * idx[3 * k + c];
        pos[d] = p[s];
        pos[d + 1] = p[s + 1];
        pos[d + 2] = p[s + 2];
        out[w + c] = ~li;
      } else out[w + c] = li;
    }
  }
  return t;
}
