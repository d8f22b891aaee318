import { describe, expect, it } from 'vitest';
import type { ImportedObject } from '../../src/import/gltf.ts';
import { estimateShapes, poolWarnings } from '../../src/tiling/budget.ts';
import { assignCells, cellIndex, cellName } from '../../src/tiling/cells.ts';

/** One triangle per centroid (x, z): a small right triangle whose centroid lands exactly there. */
function triangles(name: string, centroids: [number, number][], material = 96): ImportedObject {
  const positions = new Float32Array(centroids.length * 9);
  const indices = new Uint32Array(centroids.length * 3);
  centroids.forEach(([x, z], t) => {
    positions.set([x - 1, 0, z - 1, x + 2, 0, z - 1, x - 1, 0, z + 2], 9 * t);
    indices.set([3 * t, 3 * t + 2, 3 * t + 1], 3 * t);
  });
  return { name, source: name, kind: 'mesh', positions, groups: [{ material, indices }] };
}

describe('cell indices and names', () => {
  it('anchors cells at world (0, 0) with floor division', () => {
    expect(cellIndex(0, 100)).toBe(0);
    expect(cellIndex(99.999, 100)).toBe(0);
    expect(cellIndex(100, 100)).toBe(1);
    expect(cellIndex(-0.001, 100)).toBe(-1);
    expect(cellIndex(-100, 100)).toBe(-1);
    expect(cellIndex(-100.001, 100)).toBe(-2);
    expect(cellName(-1, 0)).toBe('collision_area_-1_0');
  });
});

describe('assignCells', () => {
  it('puts each triangle in the cell of its centroid, cells sorted by x then z', () => {
    const o = triangles('a', [[50, 50], [150, 50], [-50, 50], [50, -50], [-50, -50]]);
    const cells = assignCells([o], 100);
    expect(cells.map((c) => c.name)).toEqual(['collision_area_-1_-1', 'collision_area_-1_0', 'collision_area_0_-1', 'collision_area_0_0', 'collision_area_1_0']);
    for (const c of cells) expect(c.groups[0].indices.length).toBe(3);
    const c00 = cells.find((c) => c.name === 'collision_area_0_0')!;
    expect(Array.from(c00.groups[0].positions)).toEqual([49, 0, 49, 49, 0, 52, 52, 0, 49]);
    expect(Array.from(c00.groups[0].indices)).toEqual([0, 1, 2]);
  });
  it('groups by material in first-seen order and lists sources in object order', () => {
    const a = triangles('a', [[10, 10]], 352);
    const b = triangles('b', [[20, 20], [30, 30]], 96);
    const c = triangles('c', [[40, 40]], 352);
    const [cell] = assignCells([a, b, c], 100);
    expect(cell.groups.map((g) => [g.material, g.indices.length / 3])).toEqual([[352, 2], [96, 2]]);
    expect(cell.sources).toEqual(['a', 'b', 'c']);
  });
  it('keeps vertex sharing inside a cell and copies shared vertices across cells', () => {
    // A strip of 4 quads across x = 100: triangles share vertices.
    const positions: number[] = [];
    for (let i = 0; i <= 4; i++) positions.push(80 + 10 * i, 0, 0, 80 + 10 * i, 0, 10);
    const indices: number[] = [];
    for (let i = 0; i < 4; i++) indices.push(2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 2, 2 * i + 1, 2 * i + 3);
    const o: ImportedObject = { name: 's', source: 's', kind: 'mesh', positions: Float32Array.from(positions), groups: [{ material: 96, indices: Uint32Array.from(indices) }] };
    const cells = assignCells([o], 100);
    expect(cells.map((c) => [c.name, c.groups[0].positions.length / 3, c.groups[0].indices.length / 3])).toEqual([
      ['collision_area_0_0', 6, 4],
      ['collision_area_1_0', 6, 4],
    ]);
  });
  it('refuses cells beyond ±2^20 instead of aliasing them', () => {
    expect(() => assignCells([triangles('far', [[1e9, 0]])], 50)).toThrow(/tiling: object "far" triangle 0: cell \(20000000, 0\) is beyond/);
  });
});

describe('budget', () => {
  it('estimates shapes per part at the u16 face limit', () => {
    expect(estimateShapes(0)).toBe(0);
    expect(estimateShapes(1)).toBe(1);
    expect(estimateShapes(21845)).toBe(1);
    expect(estimateShapes(21846)).toBe(2);
  });
  it('warns above the stock pool and above ReSkate pool', () => {
    expect(poolWarnings(5000)).toEqual([]);
    expect(poolWarnings(5001)[0]).toMatch(/exceed the stock geometry pool \(5000\)/);
    expect(poolWarnings(40001)[0]).toMatch(/exceed ReSkate's geometry pool \(40000\)/);
  });
});
