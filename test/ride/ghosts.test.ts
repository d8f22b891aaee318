// Open edges where the surface continues, judged by the oracle (Jolt's one mesh body of the written triangles,
// jolt-oracle.ts) swept over where its 1/60 s steps fall: a kicker (a separate object, as Blender exports it) whose
// foot lies on the ground's quad grid — exactly on the ground plane, 0.05 mm into it, 0.05 mm above, and sunk 5 mm
// (under the ground, the usual way to hide the joint) — and a funbox crest where the ramp, the top and the box's
// hidden side share one edge (three faces: no edge data, open). Jolt keeps such an edge active (one face, or more
// than two, on it) and its speculative contacts meet it: the deck loses most of its speed at the kicker's foot and
// the wheel up to half its speed at the crest, at some starts and not at others. These are ghost contacts of the
// written data (a rigid probe never touches either edge: the foot is a concave fold or under the ground, the crest
// one it leaves), and the ride reports them: they are not its false positives. A foot sunk 50 mm is out of reach of
// both. A single short slide misses them (the deck from x = −1 at 3 m/s for 0.1 s never reaches the foot).
// The kicker's foot is ridden on Studio's bytes (--seams shape: the foot open); with --seams level the compiler
// gives a foot lying on the ground (within T_JUNCTION_TOLERANCE) the concave crease's edge data and the ride
// finds nothing there (test/ride/flush-faces.test.ts), while Jolt, which reads only the triangles, still meets it.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileLevel } from '../../src/build/compile.ts';
import { buildWorld, rideResources } from '../../src/ride/index.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';
import { joltLevel, joltWorstLoss, loadJolt } from './jolt-oracle.ts';

const tmp = lazyTempDir('sk8-ride-ghosts-');
afterAll(() => tmp.cleanup());
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let J: any;
beforeAll(async () => {
  J = await loadJolt();
});

/** A 4 m wide kicker rising along +x from its foot at x = 0 (height `foot`) to 0.3 m at x = 2; open sides. */
const kicker = (foot: number) => ({
  name: 'kicker',
  positions: [0, foot, -2, 0, foot, 2, 2, 0.3, -2, 2, 0.3, 2, 2, 0, -2, 2, 0, 2],
  indices: [0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4],
});

/**
 * A funbox, one object: a 1.5 m top at 0.6 m from x = −0.75 to 0.75, the box's side under its crest at x = 0.75
 * (hidden by the ramp), and a ramp from the crest down to the ground at x = 2.25; z from −2 to 2.
 */
const funbox = () => ({
  name: 'funbox',
  positions: [-0.75, 0.6, -2, -0.75, 0.6, 2, 0.75, 0.6, -2, 0.75, 0.6, 2, 0.75, 0, -2, 0.75, 0, 2, 2.25, 0, -2, 2.25, 0, 2],
  // top (up), side (+x), ramp (up and +x)
  indices: [0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4, 2, 3, 7, 2, 7, 6],
});

describe('ghost contacts on open edges where the surface continues: Jolt meets them, the ride reports them', () => {
  test.each([
    ['on the ground plane', 0],
    ['0.05 mm into the ground', -0.00005],
    ['0.05 mm above the ground', 0.00005],
    ['sunk 5 mm into the ground', -0.005],
  ])("a kicker's foot %s (Studio's bytes: --seams shape)", async (_name, foot) => {
    const written = readOutput(await compileMeshes(tmp.dir, `kicker${foot}`, [{ name: 'ground', ...grid(10, 6, 1, -4, 0, -3) }, kicker(foot)], { seams: 'shape' }));
    const jolt = joltLevel(buildWorld(written));
    // The deck at 3 m/s from 1 m before the foot: gravity up an 8.5° slope takes ~0.03 m/s a step; Jolt stops it.
    const deck = joltWorstLoss(jolt, new J.BoxShape(new J.Vec3(0.4, 0.05, 0.1), 0), 0.05, [-1, 0, 0.5], [1, 0], 3, 0.6, [-0.4, 0.5], 0.3);
    expect(deck, 'Jolt: the deck at the foot').toBeGreaterThan(1);
    J.destroy(jolt);
    const report = rideResources(written, { laneSpacing: 0, seamSpacing: 0.5 });
    const atFoot = report.findings.filter((f) => (f.kind === 'bump' || f.kind === 'snag') && Math.abs(f.position[0]) < 0.01 && f.resource === 'kicker.physics');
    expect(atFoot.map((f) => f.probe).sort(), JSON.stringify(report.findings)).toEqual(['capsule', 'deck']);
    expect(report.counts.step + report.counts.gap).toBe(0);
  }, 60_000);

  test("a kicker's foot sunk 50 mm: out of reach, Jolt and the ride clean", async () => {
    const written = readOutput(await compileMeshes(tmp.dir, 'kicker-deep', [{ name: 'ground', ...grid(10, 6, 1, -4, 0, -3) }, kicker(-0.05)], { seams: 'level' }));
    const jolt = joltLevel(buildWorld(written));
    for (const speed of [3, 8]) {
      const deck = joltWorstLoss(jolt, new J.BoxShape(new J.Vec3(0.4, 0.05, 0.1), 0), 0.05, [-1, 0, 0.5], [1, 0], speed, 1.2 / speed, [-0.4, 0.5], 0.3);
      expect(deck, `Jolt: the deck at ${speed} m/s`).toBeLessThan(0.1);
    }
    J.destroy(jolt);
    expect(rideResources(written, { laneSpacing: 0, seamSpacing: 0.5 }).counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
  }, 60_000);

  test("a funbox's crest on a three-face edge", async () => {
    const written = readOutput(await compileMeshes(tmp.dir, 'funbox', [{ name: 'ground', ...grid(8, 6, 1, -3, 0, -3) }, funbox()], { seams: 'level' }));
    const jolt = joltLevel(buildWorld(written));
    const wheel = new J.SphereShape(0.028);
    for (const speed of [3, 8]) {
      const loss = joltWorstLoss(jolt, wheel, 0.028, [0.3, 0.6, 0.5], [1, 0], speed, 0.4, [0.75, 0.5], 0.2);
      expect(loss, `Jolt: the wheel over the crest at ${speed} m/s`).toBeGreaterThan(0.5);
    }
    J.destroy(jolt);
    const report = rideResources(written, { laneSpacing: 0, seamSpacing: 0.5 });
    const atCrest = report.findings.filter((f) => (f.kind === 'bump' || f.kind === 'snag') && Math.abs(f.position[0] - 0.75) < 0.01 && Math.abs(f.position[1] - 0.6) < 0.01);
    expect(atCrest.some((f) => f.probe === 'wheel'), JSON.stringify(report.findings)).toBe(true);
  }, 60_000);

  // Studio's bytes (--seams shape: the ramps' feet open, 9 findings) and --seams level (the feet joined to the
  // ground: the funbox's crests and the quarter pipe's side corner left, 3).
  test.each(['shape', 'level'] as const)('every bump and snag the ride finds on the skatepark sample (--seams %s), Jolt meets there too', async (seams) => {
    const out = join(tmp.dir, `skatepark-${seams}.collision`);
    await compileLevel(fileURLToPath(new URL('../../samples/skatepark.glb', import.meta.url)), { out, workers: 1, cache: false, seams }, { logger: { warn: () => {} } });
    const written = readOutput(out);
    const jolt = joltLevel(buildWorld(written));
    // Jolt's capsule is along y: turned onto x, or onto z.
    const capsule = (q: number[]) => new J.RotatedTranslatedShapeSettings(new J.Vec3(0, 0, 0), new J.Quat(q[0], q[1], q[2], q[3]), new J.CapsuleShapeSettings(0.36, 0.04)).Create().Get();
    const report = rideResources(written);
    const ghosts = report.findings.filter((f) => f.kind === 'bump' || f.kind === 'snag');
    expect(ghosts.length).toBeGreaterThan(0);
    for (const f of ghosts) {
      const [dx, dz] = f.direction!;
      const alongX = Math.abs(dx) > 0.5;
      const shape = f.probe === 'wheel' ? new J.SphereShape(0.028)
        : f.probe === 'deck' ? new J.BoxShape(alongX ? new J.Vec3(0.4, 0.05, 0.1) : new J.Vec3(0.1, 0.05, 0.4), 0)
        : capsule(alongX ? [0, 0, Math.SQRT1_2, Math.SQRT1_2] : [Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
      const lift = f.probe === 'wheel' ? 0.028 : f.probe === 'deck' ? 0.05 : 0.04;
      const back = f.probe === 'wheel' ? 0.3 : 0.7;
      const from: [number, number, number] = [f.position[0] - dx * back, f.position[1], f.position[2] - dz * back];
      const loss = Math.max(...[3, 8].map((speed) => joltWorstLoss(jolt, shape, lift + 1e-4, from, [dx, dz], speed, (2 * back) / speed, [f.position[0], f.position[2]], 0.8)));
      expect(loss, `Jolt at ${JSON.stringify(f)}`).toBeGreaterThan(0.5);
    }
    J.destroy(jolt);
  }, 60_000);
});
