// Lanes over a level whose walkable islands lie far apart: the lane budget (laneMetres) follows the walkable surface,
// not the bounding box, so every island gets lanes — two 50 m islands 40 km apart, and islands smaller than the lane
// spacing (ridden from their largest face where the lines pass them by). Each island's sampled share alone is
// compared with the level's: were an island left out, the level's share would be about half the islands' mean.
import { describe, expect, test } from 'vitest';
import { encodeResource } from '../../src/geometry/resource.ts';
import { rideResources, type RideResource } from '../../src/ride/index.ts';
import { Cover, planLanes } from '../../src/ride/lanes.ts';
import { FACE_WALKABLE, faceArrays, WorldBuilder } from '../../src/ride/world.ts';
import { grid } from './helpers.ts';

/** A flat square island of n × n quads of `cell` m from (x0, z0), as a resource of its own. */
function island(name: string, n: number, cell: number, x0: number, z0: number): RideResource {
  const g = grid(n, n, cell, x0, 0, z0);
  const { resource } = encodeResource([{ name, positions: Float64Array.from(g.positions), indices: Uint32Array.from(g.indices), material: 0 }]);
  return { name: `${name}.physics`, resource };
}

const share = (islands: RideResource[]): { share: number; lanes: number; budget: boolean } => {
  const r = rideResources(islands, { maxCrossings: 1, seamSpacing: 1000 });
  return { share: r.coverage.walkableShare, lanes: r.coverage.lanesRidden, budget: r.budgetExhausted };
};

describe('lanes over islands far apart', () => {
  test.each([
    ['two 50 m islands 40 km apart along x', [['a', 50, 1, 0, 0], ['b', 50, 1, 40_000, 10]]],
    ['two 50 m islands 40 km apart on a diagonal', [['a', 50, 1, 0, 0], ['b', 50, 1, 28_000, 28_000]]],
    ['three 3 m islands (smaller than the lane spacing) 20 km apart', [['a', 3, 1, 0, 0], ['b', 3, 1, 20_003, 5], ['c', 3, 1, 7, 20_011]]],
  ] as [string, [string, number, number, number, number][]][])('%s: each gets lanes', (_name, specs) => {
    const islands = specs.map(([name, n, cell, x, z]) => island(name, n, cell, x, z));
    const level = share(islands);
    expect(level.budget).toBe(false);
    const alone = islands.map((i) => share([i]));
    for (const a of alone) expect(a.share).toBeGreaterThan(0);
    const mean = alone.reduce((s, a) => s + a.share, 0) / alone.length;
    // Equal areas: the level's share is the islands' mean when each is sampled as it is alone.
    expect(level.share, JSON.stringify({ level, alone })).toBeGreaterThan(0.75 * mean);
    expect(level.lanes).toBeGreaterThanOrEqual(islands.length);
  });

  test('more islands than the lane budget holds: the budget is shared (largest first), within laneMetres, the same each run', () => {
    // 100 islands of 3 m (2 of 4 m: the largest) on a 4 km grid; 400 m of lanes hold 25 cells of two 8 m rides.
    const islands: RideResource[] = [];
    for (let k = 0; k < 100; k++) islands.push(island(`i${k}`, k < 2 ? 4 : 3, 1, (k % 10) * 4000 + k, Math.floor(k / 10) * 4000));
    const ride = () => rideResources(islands, { maxCrossings: 1, seamSpacing: 1000, laneMetres: 400 });
    const r = ride();
    expect(r.coverage.lanesRidden).toBeGreaterThan(0);
    expect(r.coverage.lanesRidden).toBeLessThanOrEqual(2 * 25);
    expect(r.coverage.walkableShare).toBeGreaterThan(0);
    expect(ride()).toEqual(r);
  });
});

test('the coverage grid\'s and the lane cells\' areas are those of a plain sum, bit for bit: in order, each cell row by row', () => {
  // Tilted faces of random sizes (one to a dozen cells a side) in random places, a quarter of them not walkable, one
  // with a NaN corner (its area in the total, in no cell).
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const faces = 5000, a = faceArrays(faces, 3 * faces);
  for (let t = 0; t < faces; t++) {
    const x = rand() * 60, z = rand() * 40, sx = rand() * 11, sz = rand() * 11;
    a.vert.set([x, rand(), z, x + sx * rand(), rand(), z + sz, x + sx, rand(), z + sz * rand()], 9 * t);
    a.corner.set([3 * t, 3 * t + 1, 3 * t + 2], 3 * t);
    a.faceBits[t] = rand() < 0.75 ? FACE_WALKABLE : 0;
  }
  a.vert[9 * 10] = NaN;
  a.faceBits[10] = FACE_WALKABLE;
  const b = new WorldBuilder();
  b.addFaces('level', { faces, vertices: 3 * faces }, a, [0, 0, 0, 0], [0, 0, 0], [72, 1, 52]);
  const w = b.finish(), cover = new Cover(w, 1);
  const { nx, nz, cell } = cover, P = w.vert;
  expect(cell).toBe(1);
  const area = new Float64Array(nx * nz), widths = new Set<number>();
  let total = 0;
  const col = (v: number, n: number) => Math.min(n - 1, Math.max(0, Math.floor(v / cell)));
  for (let t = 0; t < faces; t++) {
    if (!(w.faceBits[t] & FACE_WALKABLE)) continue;
    const v = [0, 1, 2].map((k) => 3 * w.corner[3 * t + k]);
    const u = [0, 1, 2].map((k) => P[v[1] + k] - P[v[0] + k]), s = [0, 1, 2].map((k) => P[v[2] + k] - P[v[0] + k]);
    const f = 0.5 * Math.sqrt((u[1] * s[2] - u[2] * s[1]) ** 2 + (u[2] * s[0] - u[0] * s[2]) ** 2 + (u[0] * s[1] - u[1] * s[0]) ** 2);
    total += f;
    const xs = v.map((o) => P[o]), zs = v.map((o) => P[o + 2]);
    if ([...xs, ...zs].some(Number.isNaN)) continue;
    const i0 = col(Math.min(...xs), nx), i1 = col(Math.max(...xs), nx), j0 = col(Math.min(...zs), nz), j1 = col(Math.max(...zs), nz);
    widths.add(i1 - i0 + 1);
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) area[j * nx + i] += f / ((i1 - i0 + 1) * (j1 - j0 + 1));
  }
  expect(cover.total).toBe(total);
  expect(Array.from(cover.area).findIndex((v, k) => !Object.is(v, area[k]))).toBe(-1);
  expect([1, 2, 3, 4, 5].every((n) => widths.has(n))).toBe(true);
  // The lane cells over it: each one's area a plain sum of its coverage cells' shares, row by row, bit for bit —
  // lane cells a quarter of a coverage cell wide to ten.
  for (const spacing of [0.25, 0.7, 3, 10.3]) {
    const plan = planLanes(w, cover, spacing, 1e9, 8);
    expect(plan.spacing).toBe(spacing);
    const lx = Math.floor((nx * cell) / spacing) + 2, lz = Math.floor((nz * cell) / spacing) + 2, lane = new Float64Array(lx * lz);
    const span = (k: number) => [Math.floor((k * cell) / spacing), Math.max(Math.floor((k * cell) / spacing), Math.floor(((k + 1) * cell) / spacing))];
    for (let cj = 0; cj < nz; cj++) {
      for (let ci = 0; ci < nx; ci++) {
        const f = cover.area[cj * nx + ci];
        if (!(f > 0)) continue;
        const [i0, i1] = span(ci), [j0, j1] = span(cj);
        for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) lane[j * lx + i] += f / ((i1 - i0 + 1) * (j1 - j0 + 1));
      }
    }
    const want = Array.from(lane.keys()).filter((k) => lane[k] > 0).map((k) => ({ i: k % lx, j: Math.floor(k / lx), area: lane[k] }));
    expect(plan.cells.length, `spacing ${spacing}`).toBe(want.length);
    expect(plan.cells.findIndex((c, n) => c.i !== want[n].i || c.j !== want[n].j || !Object.is(c.area, want[n].area)), `spacing ${spacing}`).toBe(-1);
  }
});
