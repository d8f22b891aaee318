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
 * Cells come out sorted by x then z; within a cell, groups by material in first-seen order.
 */
export function assignCells(objects: ImportedObject[], cellSize: number): Cell[] {
  const buckets = new Map<number, { x: number; z: number; byMaterial: Map<number, number>; sources: Set<string> }>();
  const counts: number[] = [];
  const materials: number[] = [];
  // Pass 1: bucket id per triangle, counts per bucket.
  const bucketOf: Int32Array[][] = objects.map((o) =>
    o.groups.map((g) => {
      const ids = new Int32Array(g.indices.length / 3);
      let lastKey = NaN;
      let lastCell: ReturnType<typeof buckets.get>;
      for (let t = 0; t < ids.length; t++) {
        const p = o.positions, i0 = 3 * g.indices[3 * t], i1 = 3 * g.indices[3 * t + 1], i2 = 3 * g.indices[3 * t + 2];
        const x = cellIndex((p[i0] + p[i1] + p[i2]) / 3, cellSize);
        const z = cellIndex((p[i0 + 2] + p[i1 + 2] + p[i2 + 2]) / 3, cellSize);
        const key = packKey(x, z);
        if (key !== lastKey) {
          if (Math.abs(x) >= MAX_CELL_INDEX || Math.abs(z) >= MAX_CELL_INDEX) {
            throw new Error(`tiling: object "${o.name}" triangle ${t}: cell (${x}, ${z}) is beyond ±${MAX_CELL_INDEX} cells of ${cellSize} m`);
          }
          lastCell = buckets.get(key);
          if (!lastCell) buckets.set(key, (lastCell = { x, z, byMaterial: new Map(), sources: new Set() }));
          lastCell.sources.add(o.name);
          lastKey = key;
        }
        let b = lastCell!.byMaterial.get(g.material);
        if (b === undefined) {
          b = counts.length;
          counts.push(0);
          materials.push(g.material);
          lastCell!.byMaterial.set(g.material, b);
        }
        counts[b]++;
        ids[t] = b;
      }
      return ids;
    }),
  );
  // Pass 2: fill each bucket's soup.
  const soups = counts.map((n) => new Float32Array(n * 9));
  const fill = new Uint32Array(counts.length);
  objects.forEach((o, oi) =>
    o.groups.forEach((g, gi) => {
      const ids = bucketOf[oi][gi];
      for (let t = 0; t < ids.length; t++) {
        const b = ids[t];
        const out = soups[b];
        let w = fill[b]++ * 9;
        for (let c = 0; c < 3; c++) {
          const v = 3 * g.indices[3 * t + c];
          out[w++] = o.positions[v];
          out[w++] = o.positions[v + 1];
          out[w++] = o.positions[v + 2];
        }
      }
    }),
  );
  const cells = [...buckets.values()].sort((a, b) => a.x - b.x || a.z - b.z);
  return cells.map((c) => ({
    name: cellName(c.x, c.z),
    x: c.x,
    z: c.z,
    sources: [...c.sources],
    groups: [...c.byMaterial].map(([material, b]) => ({ material, positions: soups[b], indices: sequence(counts[b] * 3) })),
  }));
}

function sequence(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}
