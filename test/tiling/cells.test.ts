import { describe, expect, it } from 'vitest';
import type { ImportedObject } from '../../src/model.ts';
import { estimateShapes, poolWarnings } from '../../src/tiling/budget.ts';
import { cellIndex, cellName, cellRuns, gatherGroup, planCells } from '../../src/tiling/cells.ts';
import { SharedArena } from '../../src/import/shared-arena.ts';

/** Planned and gathered: the arrays the encoder gets for each cell. */
const planAndGather = (objects: ImportedObject[], size: number) =>
  planCells(objects, size).map((c) => ({ ...c, groups: c.groups.map((g) => ({ material: g.material, ...gatherGroup(g) })) }));

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

describe('planCells and gatherGroup', () => {
  it('puts each triangle in the cell of its centroid, cells sorted by x then z', () => {
    const o = triangles('a', [[50, 50], [150, 50], [-50, 50], [50, -50], [-50, -50]]);
    const cells = planAndGather([o], 100);
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
    const [cell] = planAndGather([a, b, c], 100);
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
    const cells = planAndGather([o], 100);
    expect(cells.map((c) => [c.name, c.groups[0].positions.length / 3, c.groups[0].indices.length / 3])).toEqual([
      ['collision_area_0_0', 6, 4],
      ['collision_area_1_0', 6, 4],
    ]);
  });
  it('plans runs over the objects\' own arrays (nothing copied until gathered)', () => {
    const o = triangles('a', [[50, 50], [60, 50], [150, 50], [70, 50]]);
    const cells = planCells([o], 100);
    expect(cells.map((c) => c.name)).toEqual(['collision_area_0_0', 'collision_area_1_0']);
    const [g] = cells[0].groups;
    expect(g.sources).toHaveLength(1);
    expect(g.sources[0].positions).toBe(o.positions);
    expect(g.sources[0].indices).toBe(o.groups[0].indices);
    expect(Array.from(g.runs)).toEqual([0, 0, 2, 0, 3, 4]);
    expect(g.triangles).toBe(3);
  });
  it('gathers exactly what the rule written out plainly gives, on a random level in shared memory', () => {
    const objects = randomLevel(20260 + 1, new SharedArena());
    for (const size of [50, 100, 200]) {
      const got = planAndGather(objects, size);
      const want = plainCells(objects, size);
      expect(got.map((c) => c.name)).toEqual(want.map((c) => c.name));
      got.forEach((c, i) => {
        expect(c.sources).toEqual(want[i].sources);
        expect(c.groups.map((g) => g.material)).toEqual(want[i].groups.map((g) => g.material));
        c.groups.forEach((g, j) => {
          expect(Array.from(g.indices)).toEqual(want[i].groups[j].indices);
          expect(Array.from(g.positions)).toEqual(want[i].groups[j].positions);
        });
      });
    }
  });
  it('plans the same cells from runs computed elsewhere (cellRuns), for any mix of known and computed groups', () => {
    const objects = randomLevel(99, new SharedArena());
    const plain = planAndGather(objects, 50);
    const runs = new Map(objects.map((o) => [o, o.groups.map((g) => cellRuns(o.positions, g.indices, 50))]));
    for (const pick of [() => true, (gi: number) => gi === 0]) {
      const cells = planCells(objects, 50, (o, gi) => (pick(gi) ? runs.get(o)![gi] : undefined));
      expect(cells.map((c) => c.name)).toEqual(plain.map((c) => c.name));
      cells.forEach((c, i) => c.groups.forEach((g, j) => {
        const got = gatherGroup(g);
        expect(Array.from(got.indices)).toEqual(Array.from(plain[i].groups[j].indices));
        expect(Array.from(got.positions)).toEqual(Array.from(plain[i].groups[j].positions));
      }));
    }
    const far = cellRuns(Float32Array.of(3e38, 0, 0, 3e38, 0, 1, 3e38, 0, 2), Uint32Array.of(0, 1, 2), 50);
    expect(far[0]).toBe(Math.floor(Math.fround(3e38) / 50)); // kept exactly (f64), for planCells' range check
  });
  it('refuses cells beyond ±2^20 instead of aliasing them', () => {
    expect(() => planAndGather([triangles('far', [[1e9, 0]])], 50)).toThrow(/tiling: object "far" triangle 0: cell \(20000000, 0\) is beyond/);
  });
});

/** Objects of random triangles over 400 × 400 m sharing vertices, two groups each (sometimes of one material). */
function randomLevel(seed: number, arena: SharedArena): ImportedObject[] {
  let x = seed;
  const rnd = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  return Array.from({ length: 6 }, (_, k) => {
    const nv = 30 + Math.floor(rnd() * 40);
    const positions = arena.f32(3 * nv);
    for (let i = 0; i < nv; i++) positions.set([rnd() * 400 - 200, rnd() * 10, rnd() * 400 - 200], 3 * i);
    const group = (material: number) => {
      const indices = arena.u32(3 * (20 + Math.floor(rnd() * 60)));
      for (let i = 0; i < indices.length; i++) indices[i] = Math.floor(rnd() * nv);
      return { material, indices };
    };
    return { name: `o${k}`, source: `o${k}`, kind: 'mesh' as const, positions, groups: [group(96), group(k % 2 ? 96 : 352)] };
  });
}

/**
 * The cell rule written out plainly: per cell (sorted by x, z) and material (first seen), the triangles in object
 * then triangle order; an object's vertex is copied into a group at its first use there.
 */
function plainCells(objects: ImportedObject[], size: number) {
  type G = { material: number; positions: number[]; indices: number[]; seen: Map<string, number> };
  const cells = new Map<string, { x: number; z: number; name: string; sources: string[]; groups: Map<number, G> }>();
  objects.forEach((o, oi) => {
    for (const g of o.groups) {
      for (let t = 0; t < g.indices.length; t += 3) {
        const c = [0, 1, 2].map((k) => 3 * g.indices[t + k]);
        const x = Math.floor((o.positions[c[0]] + o.positions[c[1]] + o.positions[c[2]]) / 3 / size);
        const z = Math.floor((o.positions[c[0] + 2] + o.positions[c[1] + 2] + o.positions[c[2] + 2]) / 3 / size);
        const key = `${x},${z}`;
        if (!cells.has(key)) cells.set(key, { x, z, name: cellName(x, z), sources: [], groups: new Map() });
        const cell = cells.get(key)!;
        if (!cell.sources.includes(o.name)) cell.sources.push(o.name);
        if (!cell.groups.has(g.material)) cell.groups.set(g.material, { material: g.material, positions: [], indices: [], seen: new Map() });
        const out = cell.groups.get(g.material)!;
        for (const v of c) {
          const id = `${oi}:${v}`;
          if (!out.seen.has(id)) {
            out.seen.set(id, out.positions.length / 3);
            out.positions.push(...o.positions.subarray(v, v + 3));
          }
          out.indices.push(out.seen.get(id)!);
        }
      }
    }
  });
  return [...cells.values()].sort((a, b) => a.x - b.x || a.z - b.z).map((c) => ({ ...c, groups: [...c.groups.values()] }));
}

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
