// Crossings next to the level's outer border: a probe whose footprint hangs over the border meets the border (an
// open edge with nothing beyond it), not a ghost. Two plates meeting in a 1% crest, sloping up toward their outer edge, ridden with Jolt as the judge.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildWorld, rideResources } from '../../src/ride/index.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, readOutput } from './helpers.ts';
import { joltLevel, joltSlide, loadJolt } from './jolt-oracle.ts';

const tmp = lazyTempDir('sk8-ride-border-');
afterAll(() => tmp.cleanup());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let J: any;
beforeAll(async () => {
  J = await loadJolt();
});

/**
 * A 2 × 2 m plate from x0 to x0 + 2 along x, z 0 … 2, its height going from y0 to y1 along x and rising 3.6% toward
 * its outer edge at z = 2 (the terrain by city-blocks' border where the ride found its bump).
 */
const plate = (name: string, x0: number, y0: number, y1: number) => ({
  name, positions: [x0, y0, 0, x0 + 2, y1, 0, x0, y0 + 0.072, 2, x0 + 2, y1 + 0.072, 2], indices: [0, 2, 1, 1, 2, 3],
});

describe("crossings by the level's outer border", () => {
  test('a 1% crest rides clean up to the outer edge, as on Jolt', async () => {
    const written = readOutput(await compileMeshes(tmp.dir, 'crest', [plate('up', -2, -0.02, 0), plate('down', 0, 0, -0.02)], { seams: 'level' }));
    const w = buildWorld(written);
    const jolt = joltLevel(w);
    // Jolt: the box and the wheel ride over the crest clean, the wheel next to the outer edge too; a box hanging
    // half over the edge (z = 1.975) tips over it: it meets the border, which is real.
    const box = new J.BoxShape(new J.Vec3(0.1, 0.1, 0.1), 0), wheel = new J.SphereShape(0.028);
    for (const [shape, lift, z] of [[box, 0.1, 1], [wheel, 0.028, 1], [wheel, 0.028, 1.97]] as const) {
      const r = joltSlide(jolt, shape, lift, [-0.5, -0.005 + 0.036 * z, z], 3, 1 / 3);
      expect(Math.abs(r.speed - 3), `Jolt at z = ${z}: ${JSON.stringify(r)}`).toBeLessThan(0.01);
    }
    expect(joltSlide(jolt, box, 0.1, [-0.5, -0.005 + 0.036 * 1.975, 1.975], 3, 1 / 3).speed).toBeLessThan(2.9);
    const report = rideResources(written, { laneSpacing: 0, seamSpacing: 0.05 });
    expect(report.coverage.crossings).toBeGreaterThan(30);
    expect(report.findings).toEqual([]);
  }, 60_000);
});
