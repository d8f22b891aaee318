// A kicker's foot against the ground, as authors build it: sunk a few millimetres into the ground (the usual way to
// hide the joint), or left floating above it. Heights across the foot: where the edge is buried under the ground
// the surface a board meets is the ground, then the ramp rising out of it — no step; where it stands proud, a 5 mm
// step, against which Jolt's one body (jolt-physics, the level's written triangles as one mesh) stops the deck dead
// at 3 m/s. (The buried foot's edge is still met by speculative contacts — Jolt's and the ride's — at some starts:
// a bump and a snag, test/ride/ghosts.test.ts; this file is about steps.)
import { afterAll, describe, expect, test } from 'vitest';
import { buildWorld, rideResources } from '../../src/ride/index.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';
import { joltLevel, joltSlide, loadJolt } from './jolt-oracle.ts';

const tmp = lazyTempDir('sk8-ride-buried-');
afterAll(() => tmp.cleanup());

/** A 4 m wide kicker rising along +x from its foot at x = 0 (height `foot`) to 0.3 m at x = 2; open sides. */
function kicker(foot: number): { name: string; positions: number[]; indices: number[] } {
  return {
    name: 'kicker',
    positions: [0, foot, -2, 0, foot, 2, 2, 0.3, -2, 2, 0.3, 2, 2, 0, -2, 2, 0, 2],
    indices: [0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4],
  };
}

describe('a kicker on the ground', () => {
  test.each([
    ['sunk 5 mm into the ground: no step at its foot', -0.005, false],
    ['floating 5 mm above the ground: a 5 mm step at its foot', 0.005, true],
  ])('%s', async (_name, foot, step) => {
    const out = await compileMeshes(tmp.dir, `kicker${foot}`, [{ name: 'ground', ...grid(10, 6, 1, -4, 0, -3) }, kicker(foot)], { seams: 'level' });
    const written = readOutput(out);
    // Jolt: the deck (0.8 × 0.1 × 0.2 m) at 3 m/s from x = -1 for 0.25 s: onto the ramp, or stopped at the lip.
    const J = await loadJolt();
    const deck = joltSlide(joltLevel(buildWorld(written)), new J.BoxShape(new J.Vec3(0.4, 0.05, 0.1), 0), 0.05, [-1, 0, 0.5], 3, 0.25);
    expect(deck.speed < 1, `Jolt: ${JSON.stringify(deck)}`).toBe(step);
    const report = rideResources(written, { laneSpacing: 0, seamSpacing: 0.5 });
    const atFoot = report.findings.filter((f) => f.kind === 'step' && Math.abs(f.position[0]) < 0.01);
    if (step) {
      expect(atFoot.length, JSON.stringify(report.findings)).toBeGreaterThan(0);
      expect(atFoot[0].size).toBeCloseTo(0.005, 3);
    } else expect(atFoot, JSON.stringify(report.findings)).toEqual([]);
  }, 60_000);
});
