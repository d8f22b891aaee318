// The walkable surface under a point (src/ride/surface.ts): heightAt and surfaceAlong agree.
import { afterAll, expect, test } from 'vitest';
import { lazyTempDir } from '../fixtures/levels.ts';
import { Query } from '../../src/ride/grid.ts';
import { heightAt, surfaceAlong } from '../../src/ride/surface.ts';
import { buildWorld } from '../../src/ride/world.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-surface-');
afterAll(() => tmp.cleanup());

test('surfaceAlong finds the first point heightAt finds, point by point, with the same work', async () => {
  // Two grids with a 0.2 m gap between them, the second 0.05 m lower, a ramp over part of the first and a wall (not
  // walkable: visited, not stood on).
  const out = await compileMeshes(tmp.dir, 'along', [
    { name: 'a', ...grid(6, 6, 1, 0, 0, 0) }, { name: 'b', ...grid(6, 6, 1, 6.2, -0.05, 0) },
    { name: 'ramp', positions: [1, 0, 1, 3, 0.6, 1, 3, 0.6, 3, 1, 0, 3], indices: [0, 2, 1, 0, 3, 2] },
    { name: 'wall', positions: [2, 0, 5, 4, 0, 5, 4, 1, 5, 2, 1, 5], indices: [0, 1, 2, 0, 2, 3] },
  ], { seams: 'level' });
  const w = buildWorld(readOutput(out));
  let seed = 7;
  const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  let found = 0, missed = 0;
  for (let n = 0; n < 400; n++) {
    const x = -1 + random() * 15, z = -1 + random() * 8, y = random() * 0.7 - 0.1, a = random() * 2 * Math.PI;
    const dx = Math.cos(a), dz = Math.sin(a), reach = random() < 0.5 ? 0.1 : 0.02, step = 0.01, to = 0.3 + 1e-9;
    const q1 = new Query(w), q2 = new Query(w);
    let want = NaN;
    for (let d = step; d <= to; d += step) {
      if (heightAt(w, x + dx * d, z + dz * d, y, reach, q1)) { want = d; break; }
    }
    const got = surfaceAlong(w, x, z, dx, dz, y, reach, step, to, q2);
    expect([got, q2.work], `from ${x}, ${z} along ${dx}, ${dz} at ${y}`).toEqual([want, q1.work]);
    if (Number.isNaN(want)) missed++;
    else found++;
  }
  expect(found).toBeGreaterThan(20);
  expect(missed).toBeGreaterThan(20);
}, 60_000);
