// Jolt (jolt-physics, Jolt compiled to WebAssembly) as an independent second opinion: the level's written triangles
// as ONE static mesh body, so Jolt computes its own active edges across everything we cut, and the same slides.
// Where Jolt's one body rides clean, our ride over our cut files and their edge data finds nothing; where Jolt meets
// a real step or gap, so do we.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildWorld, rideResources } from '../../src/ride/index.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';
import { joltLevel, joltSlide, joltWorstLoss, loadJolt } from './jolt-oracle.ts';

const tmp = lazyTempDir('sk8-ride-jolt-');
afterAll(() => tmp.cleanup());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let J: any;
beforeAll(async () => {
  J = await loadJolt();
});

describe('Jolt as the oracle', () => {
  test("our ride agrees with Jolt's one body: clean where it is clean, a step or gap where it meets one", async () => {
    // Along x, each lane crosses the 100 m cell border at x = 0: a flat floor cut by the border (clean), two
    // objects meeting with a 5 mm step up, two objects 0.1 m apart (a gap), two objects meeting flush (clean).
    const out = await compileMeshes(tmp.dir, 'oracle', [
      { name: 'floor', ...grid(8, 3, 1, -4, 0, 0) },
      { name: 'low', ...grid(4, 3, 1, -4, 0, 5) }, { name: 'high', ...grid(4, 3, 1, 0, 0.005, 5) },
      { name: 'near', ...grid(4, 3, 1, -4, 0, 10) }, { name: 'far', ...grid(39, 3, 0.1, 0.1, 0, 10) },
      { name: 'left', ...grid(4, 3, 1, -4, 0, 15) }, { name: 'right', ...grid(4, 3, 1, 0, 0, 15) },
    ], { tiling: 'cells', seams: 'level' });
    const written = readOutput(out);
    const w = buildWorld(written);
    const jolt = joltLevel(w);
    const box = new J.BoxShape(new J.Vec3(0.1, 0.1, 0.1), 0);
    const wheel = new J.SphereShape(0.028);
    const report = rideResources(written, { laneSpacing: 0 });
    const lanes = [{ z: 1.5, real: false }, { z: 6.5, real: true }, { z: 11.5, real: true }, { z: 16.5, real: false }];
    for (const lane of lanes) {
      const runs = [joltSlide(jolt, box, 0.1, [-2.5, 0, lane.z], 3, 1.5), joltSlide(jolt, wheel, 0.028, [-2.5, 0, lane.z], 3, 1.5)];
      const clean = runs.every((r) => Math.abs(r.x - 2) < 0.01 && Math.abs(r.speed - 3) < 0.01 && Math.abs(r.y) < 0.002);
      expect(clean, `Jolt on lane z = ${lane.z}: ${JSON.stringify(runs)}`).toBe(!lane.real);
      const ours = report.findings.filter((f) => Math.abs(f.position[2] - lane.z) <= 1.5 && Math.abs(f.position[0]) < 0.5);
      if (clean) {
        // Clean at every start, not only this one: swept over where Jolt's 1/60 s steps fall (a ghost can sit between
        // two steps of one start), no step loses speed at the border.
        for (const [shape, lift] of [[box, 0.1], [wheel, 0.028]]) {
          for (const speed of [3, 8]) expect(joltWorstLoss(jolt, shape, lift, [-2.5, 0, lane.z], [1, 0], speed, 3 / speed, [0, lane.z], 0.6), `Jolt swept on lane z = ${lane.z} at ${speed} m/s`).toBeLessThan(0.01);
        }
        expect(ours, `lane z = ${lane.z}`).toEqual([]);
      }
      else expect(ours.some((f) => f.kind === 'step' || f.kind === 'gap'), `lane z = ${lane.z}: ${JSON.stringify(ours)}`).toBe(true);
    }
    expect(report.counts.step).toBeGreaterThan(0);
    expect(report.counts.gap).toBeGreaterThan(0);
    expect(report.counts.bump + report.counts.snag).toBe(0);
  }, 60_000);
});
