// Quiet rides (src/ride/quiet.ts): a ride whose probe can reach no loud face is not simulated. The skip must change
// no finding: each level here is ridden with every ride simulated and with quiet rides skipped, and the findings
// must be the same — on levels where the skip happens (quiet ground, true crests: a box's top edges) and where it
// must not (a floor laid 0.2 mm over a box's top, an edge storing a convex angle over flat ground, Studio's open
// cuts), each with findings the skip would lose if it skipped them. And the bound a skip relies on (rideBound: how
// far a ride can take a face within reach from its start) holds on rides that meet walls, crests and penetration.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { compileLevel } from '../../src/build/compile.ts';
import { buildWorld, PROBES, rideResources, type RideOptions, type RideResource } from '../../src/ride/index.ts';
import { quietMap } from '../../src/ride/quiet.ts';
import { ride, rideBound, SIMULATION_DEFAULTS } from '../../src/ride/simulate.ts';
import { Query } from '../../src/ride/grid.ts';
import { heightAt } from '../../src/ride/surface.ts';
import { faceNormal } from '../../src/ride/world.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-quiet-');
afterAll(() => tmp.cleanup());

/** A closed box (12 triangles, wound outward) from (x0, y0, z0) to (x1, y1, z1). */
function box(name: string, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number) {
  const positions = [x0, y0, z0, x1, y0, z0, x1, y0, z1, x0, y0, z1, x0, y1, z0, x1, y1, z0, x1, y1, z1, x0, y1, z1];
  const indices = [0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1, 1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0];
  return { name, positions, indices };
}

/** The same findings with every ride simulated and with quiet rides skipped; the skipped report. */
function bothWays(res: RideResource[], options: Partial<RideOptions> = {}) {
  const all = rideResources(res, { ...options, skipQuiet: false });
  const skip = rideResources(res, options);
  expect(skip.counts).toEqual(all.counts);
  expect(skip.findings).toEqual(all.findings);
  expect(all.coverage.quietRides).toBe(0);
  return skip;
}

describe('skipping quiet rides changes no finding', () => {
  // A ground 48 m wide: its outer border is open (loud), so only rides more than their reach from it are quiet.
  const ground = () => ({ name: 'ground', ...grid(24, 24, 2, -24, 0, -24) });
  // Lanes every metre: rides cross every edge near the middle.
  const dense = { laneSpacing: 1 };

  test('boxes standing on a ground of quads (--seams level): their top edges true crests, the rides near them quiet', async () => {
    const out = await compileMeshes(tmp.dir, 'boxes', [ground(), box('a', -1, 0, -1, 0.5, 0.8, 0.5), box('b', 2, 0, 2, 3, 0.4, 3)]);
    const r = bothWays(readOutput(out), dense);
    // Lanes every metre over 48 m: of ~4,600 lane rides, those 9 m or more from the border are quiet (~1/7 of them).
    expect(r.coverage.quietRides).toBeGreaterThan(300);
    expect(r.counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
  });

  test("the city-blocks sample with Studio's open cuts (--seams shape): thousands of ghosts, none lost", async () => {
    const out = join(tmp.dir, 'city-blocks-shape.collision');
    await compileLevel(fileURLToPath(new URL('../../samples/city-blocks.glb', import.meta.url)), { out, workers: 1, cache: false, seams: 'shape' }, { logger: { warn: () => {} } });
    const r = bothWays(readOutput(out));
    expect(r.counts.bump + r.counts.snag).toBeGreaterThan(5000);
    expect(r.coverage.quietRides).toBeGreaterThan(0);
  });

  test("the skatepark sample with Studio's open cuts (--seams shape)", async () => {
    const out = join(tmp.dir, 'skatepark.collision');
    await compileLevel(fileURLToPath(new URL('../../samples/skatepark.glb', import.meta.url)), { out, workers: 1, cache: false, seams: 'shape' }, { logger: { warn: () => {} } });
    const r = bothWays(readOutput(out));
    expect(r.counts.bump + r.counts.snag).toBeGreaterThan(0);
  });

  test('the city-blocks sample (--seams level): 144 cells, most rides quiet', async () => {
    const out = join(tmp.dir, 'city-blocks.collision');
    await compileLevel(fileURLToPath(new URL('../../samples/city-blocks.glb', import.meta.url)), { out, workers: 1, cache: false, seams: 'level' }, { logger: { warn: () => {} } });
    const r = bothWays(readOutput(out));
    expect(r.coverage.quietRides).toBeGreaterThan(r.coverage.rides / 2);
  });
});

describe('loud faces', () => {
  test("a box's top: true crests, quiet; under a floor laid 0.2 mm over it: loud; an edge storing more than it folds, the level's open border: loud", async () => {
    const ground = { name: 'ground', ...grid(24, 24, 2, -24, 0, -24) };
    const floor = { name: 'floor', ...grid(3, 3, 1, -5, 0.8002, -5) };
    const out = await compileMeshes(tmp.dir, 'loud', [ground, box('free', 3, 0, 3, 4.5, 0.8, 4.5), box('under', -4.5, 0, -4.5, -3, 0.8, -3), floor]);
    const res = readOutput(out);
    // The edge along x = 10 from z = 0 to 2 stores a 10° convex fold over flat ground.
    for (const { resource } of res) {
      for (const s of resource.shapes) {
        for (let f = 0; f + 1 < s.faceOffsets.length; f++) {
          for (let c = s.faceOffsets[f]; c < s.faceOffsets[f + 1]; c++) {
            const n = c + 1 < s.faceOffsets[f + 1] ? c + 1 : s.faceOffsets[f];
            const a = s.cornerVertices[c], b = s.cornerVertices[n];
            if (s.vertices[3 * a] !== 10 || s.vertices[3 * b] !== 10 || s.vertices[3 * a + 1] !== 0 || Math.min(s.vertices[3 * a + 2], s.vertices[3 * b + 2]) !== 0 || Math.max(s.vertices[3 * a + 2], s.vertices[3 * b + 2]) !== 2) continue;
            s.flatBits[c >> 3] &= ~(1 << (c & 7));
            s.edgeValues[c] = Math.fround(Math.cos((10 * Math.PI) / 180 / 2));
          }
        }
      }
    }
    const w = buildWorld(res);
    const m = quietMap(w);
    const V = w.vert, C = w.corner, n = new Float64Array(3);
    /** Walkable faces whose corners all lie in the x/z box at height y (±0.1 mm). */
    const faces = (x0: number, x1: number, z0: number, z1: number, y: number): number[] => {
      const found: number[] = [];
      for (let t = 0; t < w.faces; t++) {
        faceNormal(V, C, t, n);
        if (n[1] < 0.9) continue;
        let inside = true;
        for (let k = 0; k < 3; k++) {
          const p = 3 * C[3 * t + k];
          if (V[p] < x0 - 1e-6 || V[p] > x1 + 1e-6 || V[p + 2] < z0 - 1e-6 || V[p + 2] > z1 + 1e-6 || Math.abs(V[p + 1] - y) > 0.0001) inside = false;
        }
        if (inside) found.push(t);
      }
      return found;
    };
    const free = faces(3, 4.5, 3, 4.5, 0.8), under = faces(-4.5, -3, -4.5, -3, 0.8), liar = faces(8, 12, 0, 2, 0), field = faces(-20, -10, -20, -10, 0);
    expect([free.length, under.length, liar.length, field.length]).toEqual([2, 2, 4, 50]);
    for (const t of free) {
      expect(m.isLoud(t)).toBe(false);
      for (let k = 0; k < 3; k++) if (w.allow[3 * t + k] > 0) expect(m.crestFold(3 * t + k)).toBeCloseTo(Math.PI / 2, 6);
    }
    for (const t of under) {
      expect(m.isLoud(t)).toBe(true);
      for (let k = 0; k < 3; k++) if (w.allow[3 * t + k] > 0) expect(m.crestFold(3 * t + k)).toBe(-1);
    }
    // The two faces either side of the lying edge are loud, those beside them quiet.
    expect(liar.filter((t) => m.isLoud(t)).length).toBe(2);
    expect(field.filter((t) => m.isLoud(t))).toEqual([]);
    // The ground's faces along its open outer border: one of each quad's two, both at the corner where the x = 24
    // border meets it.
    const border = faces(-24, 24, -24, -22, 0);
    expect(border.filter((t) => m.isLoud(t)).length).toBe(25);
    expect(m.quiet(-20, -20, -10, -10)).toBe(true);
    expect(m.quiet(-20, -20, -10, -10)).toBe(true); // judged once, then kept
    expect(m.quiet(-5, -5, -4, -4)).toBe(false);
    expect(m.quiet(9, 1, 11, 1.5)).toBe(false);
    expect(m.quiet(3.5, 3.5, 4, 4)).toBe(true);
    expect(m.quiet(-23.5, 0, -22.5, 1)).toBe(false);
  });
});

describe('rideBound', () => {
  test('no ride takes its probe further from its start than the bound, nor meets a face beyond it', async () => {
    const out = await compileMeshes(tmp.dir, 'bound', [
      { name: 'ground', ...grid(10, 10, 1, -5, 0, -5) }, box('wall', 1, 0, -5, 1.3, 2, 5), box('low', -2, 0, -1, -1.2, 0.3, 1),
      // A ramp up to a crest at 0.6 m and down: the probe leaves it in the air.
      { name: 'ramp', positions: [-4, 0, -2, -4, 0, 2, -3, 0.6, -2, -3, 0.6, 2, -2.6, 0, -2, -2.6, 0, 2], indices: [0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4] },
    ]);
    const w = buildWorld(readOutput(out));
    const q = new Query(w);
    let seed = 7;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    let rides = 0, hits = 0;
    for (let n = 0; n < 60; n++) {
      const p = PROBES[n % 3], speed = n % 2 ? 8 : 3, length = 0.5 + rnd() * 6;
      const x = -4.5 + rnd() * 9, z = -4.5 + rnd() * 9, a = rnd() * 2 * Math.PI;
      const h = heightAt(w, x, z, 10, Infinity, q, true);
      if (!h) continue;
      // Some start sunk into the surface (a push out of penetration), the rest resting on it.
      const sink = n % 5 === 0 ? 0.03 : 0;
      const start: [number, number, number] = [x, h.y + (p.shape.kind === 'box' ? p.shape.half[1] : p.shape.radius) - sink, z];
      const duration = length / speed + 0.5;
      const r = ride(w, q, { probe: p.shape, position: start, velocity: [speed * Math.cos(a), 0, speed * Math.sin(a)], duration, distance: length });
      const bound = rideBound(p.shape, speed, duration, length, SIMULATION_DEFAULTS);
      rides++;
      hits += r.hits.length;
      expect(Math.abs(r.position[0] - start[0]), 'x').toBeLessThanOrEqual(bound);
      expect(Math.abs(r.position[2] - start[2]), 'z').toBeLessThanOrEqual(bound);
      for (const hit of r.hits) {
        expect(Math.abs(hit.point[0] - start[0])).toBeLessThanOrEqual(bound);
        expect(Math.abs(hit.point[2] - start[2])).toBeLessThanOrEqual(bound);
      }
    }
    expect(rides).toBeGreaterThan(40);
    expect(hits).toBeGreaterThan(0);
  });

  test('is infinite without a distance', () => {
    expect(rideBound(PROBES[0].shape, 3, 1, undefined)).toBe(Infinity);
    expect(rideBound(PROBES[0].shape, 3, Infinity, 5)).toBe(Infinity);
  });
});
