// Pathological geometry: a soup of overlapping triangles is bounded by the work budget, and says so.
import { expect, test } from 'vitest';
import { encodeResource } from '../../src/geometry/resource.ts';
import { rideResources } from '../../src/ride/index.ts';
import { randomSoup } from '../fixtures/meshes.ts';

test('a soup of 20,000 overlapping triangles stops at the work budget and says so', () => {
  const soup = randomSoup(20_000, 3);
  const { resource } = encodeResource([{ name: 'soup', positions: soup.positions, indices: soup.indices, material: 0 }]);
  const t0 = performance.now();
  const r = rideResources([{ name: 'soup.physics', resource }], { workBudget: 2_000_000 });
  expect(performance.now() - t0).toBeLessThan(20_000);
  expect(r.budgetExhausted).toBe(true);
  expect(r.note).toMatch(/work budget of 2000000 face visits spent/);
  // A budget it does not reach: not exhausted, no note.
  const small = randomSoup(200, 3);
  const few = encodeResource([{ name: 'few', positions: small.positions, indices: small.indices, material: 0 }]).resource;
  const done = rideResources([{ name: 'few.physics', resource: few }], { workBudget: 1e9 });
  expect(done.budgetExhausted).toBe(false);
  expect(done.note).toBeUndefined();
});
