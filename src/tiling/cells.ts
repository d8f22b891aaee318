// collision_area tiles: square cells on the world X/Z plane.
// Spec: ../shared/spec/physics-resource.md "Collision, physics pools and grinds" (100-metre areas named
// collision_area_<x>_<z>; --cell-size 200|100|50). The grid's anchoring is not published; ours (**decision**,
// docs/format-decisions.md "Compiler"): cell edges at multiples of the cell size from world (0, 0); a triangle
// belongs to the cell of its centroid, cell (floor(x / size), floor(z / size)), so the cell west of the origin is
// −1 and its name is collision_area_-1_0.
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

/**
 * Distributes every triangle to the cell of its centroid: count → allocate → fill, in object then triangle order.
 * Cells come out sorted by x then z; within a cell, groups by material in first-seen order. A group keeps the
 * objects' vertex sharing (a vertex is copied once per run of triangles in the same cell); a vertex that leaves and
 * re-enters a cell is copied again, which the encoder's weld by position makes invisible in the output.
 */
export function assignCells(objects: ImportedObject[], cellSize: number): Cell[] {
  const cells = new Map<number, { x: number; z: number; byMaterial: Map<number, number>; sources: Set<string> }>();
  const triCount: number[] = [];
  const vertCount: number[] = [];
  let triangles = 0;
  let maxVertices = 0;
  for (const o of objects) {
    maxVertices = Math.max(maxVertices, o.positions.length / 3);
    for (const g of o.groups) triangles += g.indices.length / 3;
  }
  // Pass 1: per triangle its bucket, per corner its bucket-local vertex. One set of arrays for all objects: a
  // vertex's stamp is (object, bucket) so nothing needs clearing between objects.
  const bucketOf = new Int32Array(triangles);
  const cornerOf = new Uint32Array(triangles * 3);
  const stampObject = new Int32Array(maxVertices).fill(-1);
  const stampBucket = new Int32Array(maxVertices);
  const local = new Uint32Array(maxVertices);
  let t = 0;
  objects.forEach((o, oi) => {
    const p = o.positions;
    for (const g of o.groups) {
      const idx = g.indices;
      const n = idx.length / 3;
      let lastKey = NaN;
      let b = -1;
      for (let k = 0; k < n; k++, t++) {
        const i0 = 3 * idx[3 * k], i1 = 3 * idx[3 * k + 1], i2 = 3 * idx[3 * k + 2];
        const x = Math.floor((p[i0] + p[i1] + p[i2]) / 3 / cellSize);
        const z = Math.floor((p[i0 + 2] + p[i1 + 2] + p[i2 + 2]) / 3 / cellSize);
        const key = packKey(x, z);
        if (key !== lastKey) {
          b = bucketFor(cells, o.name, x, z, key, g.material, cellSize, k, triCount, vertCount);
          lastKey = key;
        }
        bucketOf[t] = b;
        triCount[b]++;
        for (let c = 0; c < 3; c++) {
          const v = idx[3 * k + c];
          if (stampObject[v] !== oi || stampBucket[v] !== b) {
            stampObject[v] = oi;
            stampBucket[v] = b;
            local[v] = vertCount[b]++;
          }
          cornerOf[3 * t + c] = local[v];
        }
      }
    }
  });
  // Pass 2: fill positions (a local vertex always maps back to the same source vertex) and indices.
  const positions = vertCount.map((n) => new Float32Array(n * 3));
  const indices = triCount.map((n) => new Uint32Array(n * 3));
  const fill = new Uint32Array(triCount.length);
  t = 0;
  for (const o of objects) {
    const p = o.positions;
    for (const g of o.groups) {
      const idx = g.indices;
      const n = idx.length / 3;
      for (let k = 0; k < n; k++, t++) {
        const b = bucketOf[t];
        const out = indices[b];
        const pos = positions[b];
        const w = 3 * fill[b]++;
        for (let c = 0; c < 3; c++) {
          const li = cornerOf[3 * t + c];
          const v = 3 * idx[3 * k + c];
          out[w + c] = li;
          pos[3 * li] = p[v];
          pos[3 * li + 1] = p[v + 1];
          pos[3 * li + 2] = p[v + 2];
        }
      }
    }
  }
  const sorted = [...cells.values()].sort((a, b) => a.x - b.x || a.z - b.z);
  return sorted.map((c) => ({
    name: cellName(c.x, c.z),
    x: c.x,
    z: c.z,
    sources: [...c.sources],
    groups: [...c.byMaterial].map(([material, b]) => ({ material, positions: positions[b], indices: indices[b] })),
  }));
}

/** The bucket of (cell, material), created on first use; the object is recorded as a source of the cell. */
function bucketFor(
  cells: Map<number, { x: number; z: number; byMaterial: Map<number, number>; sources: Set<string> }>,
  object: string, x: number, z: number, key: number, material: number, cellSize: number, t: number, triCount: number[], vertCount: number[],
): number {
  if (Math.abs(x) >= MAX_CELL_INDEX || Math.abs(z) >= MAX_CELL_INDEX) {
    throw new Error(`tiling: object "${object}" triangle ${t}: cell (${x}, ${z}) is beyond ±${MAX_CELL_INDEX} cells of ${cellSize} m`);
  }
  let cell = cells.get(key);
  if (!cell) cells.set(key, (cell = { x, z, byMaterial: new Map(), sources: new Set() }));
  cell.sources.add(object);
  let b = cell.byMaterial.get(material);
  if (b === undefined) {
    b = triCount.length;
    triCount.push(0);
    vertCount.push(0);
    cell.byMaterial.set(material, b);
  }
  return b;
}
