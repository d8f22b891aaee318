// The ride world's grid (src/ride/grid.ts): what each cell lists, its bytes against a plain build, and its queries.
import { afterAll, expect, test } from 'vitest';
import { lazyTempDir } from '../fixtures/levels.ts';
import { cellOf, facesNear, Query, STAMPS } from '../../src/ride/grid.ts';
import { buildWorld, faceArrays, WorldBuilder } from '../../src/ride/world.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-grid-');
afterAll(() => tmp.cleanup());

test('each grid cell lists, in ascending order, the faces whose x/z box overlaps it', () => {
  // 20,000 small faces over 10 × 10 m, then 8 large ones over all of it: a cell lists its small faces, then large
  // ones up to 20,000 faces on (gaps of one, two and three bytes).
  const small = 20_000, faces = small + 8, a = faceArrays(faces, 3 * faces);
  for (let t = 0; t < faces; t++) {
    const x = t < small ? (t % 200) * 0.05 : -1 + (t - small) * 1.5, z = t < small ? Math.floor(t / 200) * 0.1 : -1;
    const size = t < small ? 0.04 : 12;
    a.vert.set([x, 0, z, x, 0, z + size, x + size, 0, z], 9 * t);
    a.corner.set([3 * t, 3 * t + 1, 3 * t + 2], 3 * t);
  }
  const b = new WorldBuilder();
  b.addFaces('level', { faces, vertices: 3 * faces }, a, [0, 0, 0, 0], [-1, 0, -1], [20, 0, 11]);
  const w = b.finish({ cell: 1 });
  const q = new Query(w), g = w.grid;
  // Each face's cells: columns i0 … i1, rows j0 … j1.
  const span = Array.from({ length: w.faces }, (_, t) => {
    const v = [0, 1, 2].map((k) => 3 * w.corner[3 * t + k]), xs = v.map((o) => w.vert[o]), zs = v.map((o) => w.vert[o + 2]);
    return [cellOf(g, Math.min(...xs), 0), cellOf(g, Math.max(...xs), 0), cellOf(g, Math.min(...zs), 1), cellOf(g, Math.max(...zs), 1)];
  });
  let listed = 0;
  for (let j = 0; j < g.nz; j++) {
    for (let i = 0; i < g.nx; i++) {
      const x = g.x0 + (i + 0.5) * g.cell, z = g.z0 + (j + 0.5) * g.cell;
      const got: number[] = [];
      facesNear(w, x, z, x, z, q, (t) => got.push(t));
      const want: number[] = [];
      for (let t = 0; t < w.faces; t++) if (span[t][0] <= i && i <= span[t][1] && span[t][2] <= j && j <= span[t][3]) want.push(t);
      expect(got.join(), `cell ${i}, ${j}`).toBe(want.join());
      listed += got.length;
    }
  }
  expect(listed).toBeGreaterThan(w.faces);
});

test('the grid\'s arrays are those of a plain build: per cell, its faces\' gaps in LEB128, one after another', () => {
  // Faces of random sizes (one to a dozen columns and rows: the passes write out a row's first three cells) in random
  // places, four over all of it first and last (gaps of one to three bytes), a face with a NaN corner (no cells) and
  // one outside the bounds (clamped).
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const faces = 30_000, a = faceArrays(faces, 3 * faces);
  for (let t = 0; t < faces; t++) {
    const big = t < 4 || t >= faces - 4;
    const x = big ? -1 : rand() * 60, z = big ? -1 : rand() * 40, sx = big ? 70 : rand() * 5.5, sz = big ? 50 : rand() * 5.5;
    a.vert.set([x, 0, z, x + sx * rand(), 0, z + sz, x + sx, 0, z + sz * rand()], 9 * t);
    a.corner.set([3 * t, 3 * t + 1, 3 * t + 2], 3 * t);
  }
  a.vert[9 * 100] = NaN;
  a.vert.set([70, 0, -5], 9 * 200);
  const b = new WorldBuilder();
  b.addFaces('level', { faces, vertices: 3 * faces }, a, [0, 0, 0, 0], [0, 0, 0], [66, 0, 46]);
  const w = b.finish(), g = w.grid;
  expect([g.x0, g.z0, g.nx * g.nz > 10_000]).toEqual([0, 0, true]);
  const lists: number[][] = Array.from({ length: g.nx * g.nz }, () => []), widths = new Set<number>();
  for (let t = 0; t < faces; t++) {
    const v = [0, 1, 2].map((k) => 3 * w.corner[3 * t + k]), xs = v.map((o) => w.vert[o]), zs = v.map((o) => w.vert[o + 2]);
    if ([...xs, ...zs].some(Number.isNaN)) continue;
    const i0 = cellOf(g, Math.min(...xs), 0), i1 = cellOf(g, Math.max(...xs), 0), j0 = cellOf(g, Math.min(...zs), 1), j1 = cellOf(g, Math.max(...zs), 1);
    widths.add(i1 - i0 + 1);
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) lists[j * g.nx + i].push(t);
  }
  const start = [0], items: number[] = [];
  for (const list of lists) {
    let after = 0;
    for (const t of list) {
      let d = t - after;
      for (; d > 0x7f; d = Math.floor(d / 0x80)) items.push((d & 0x7f) | 0x80);
      items.push(d);
      after = t + 1;
    }
    start.push(items.length);
  }
  // The first difference (a diff of arrays this long takes minutes to print).
  const differs = (got: ArrayLike<number>, want: number[]) => got.length !== want.length ? `length ${got.length}, not ${want.length}` : want.findIndex((v, n) => got[n] !== v);
  expect(differs(g.start, start), 'start').toBe(-1);
  expect(differs(g.items, items), 'items').toBe(-1);
  // Gaps of three bytes; the faces' widths in columns.
  expect(lists.some((l) => l.some((t, n) => n > 0 && t - l[n - 1] > 0x4000))).toBe(true);
  expect([1, 2, 3, 4, 5].every((n) => widths.has(n))).toBe(true);
});

test('a query past its stamps clears them and still visits each face once', async () => {
  const out = await compileMeshes(tmp.dir, 'stamps', [{ name: 'a', ...grid(4, 4, 1, -2, 0, -2) }], { seams: 'level' });
  const w = buildWorld(readOutput(out));
  const q = new Query(w);
  const visit = (): number[] => {
    const got: number[] = [];
    facesNear(w, w.min[0], w.min[2], w.max[0], w.max[2], q, (t) => got.push(t));
    return got;
  };
  const all = visit();
  expect(all.length).toBe(w.faces);
  // The stamps run out (u16): the next queries clear them and start again, visiting every face once each.
  q.stamp = STAMPS - 1;
  for (let n = 0; n < 4; n++) expect(visit(), `query ${n}`).toEqual(all);
  expect(q.stamp).toBe(4);
}, 60_000);
