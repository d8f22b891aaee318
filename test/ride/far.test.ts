// A level placed far out (a part's position of 1e20 m, as a broken export or a hostile file gives and verify lets
// through: it is finite): there a step of a few metres does not move a coordinate, and lanes laid by adding their
// spacing to a position never advanced — the ride spun until the work budget ran out. Lanes and rides along them
// are counted from the extents instead: the ride ends on its own, well inside the budget.
import { expect, test } from 'vitest';
import { encodeResource } from '../../src/geometry/resource.ts';
import { rideResources } from '../../src/ride/index.ts';
import { grid } from './helpers.ts';

test('a level 1e20 m out: the lanes end on their own, the budget untouched', () => {
  const floor = grid(4, 4, 1, 0, 0, 0);
  const { resource } = encodeResource([{ name: 'floor', positions: Float64Array.from(floor.positions), indices: Uint32Array.from(floor.indices), material: 0 }]);
  resource.parts[0].position[0] = 1e20;
  const t0 = performance.now();
  const r = rideResources([{ name: 'far.physics', resource }], { workBudget: 2_000_000 });
  expect(performance.now() - t0).toBeLessThan(10_000);
  expect(r.budgetExhausted, r.note).toBe(false);
});
