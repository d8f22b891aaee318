// Lanes over a level whose walkable islands lie far apart: the lane budget (laneMetres) follows the walkable surface,
// not the bounding box, so every island gets lanes — two 50 m islands 40 km apart, and islands smaller than the lane
// spacing (ridden from their largest face where the lines pass them by). Each island's sampled share alone is
// compared with the level's: were an island left out, the level's share would be about half the islands' mean.
import { describe, expect, test } from 'vitest';
import { encodeResource } from '../../src/geometry/resource.ts';
import { rideResources, type RideResource } from '../../src/ride/index.ts';
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
