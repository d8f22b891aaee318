// The quiet map judged in WebAssembly (assembly/ride-quiet.ts) against the JavaScript QuietMap on the samples as the
// compiler writes them, with Studio's open cuts (--seams shape: loud faces everywhere) and welded (--seams level: true
// crests, most ground quiet): the same answers call for call (quiet-same.ts; the hostile records are in
// world-wasm.test.ts). And edges whose fold one side finds and the other does not, forty of them: the fold found from
// one corner is the one the corner across answers, once (the table's semantics, through its growth, are observable).
// And a ride's start to its quiet box in WebAssembly (rideStart: index.ts rider's startAt, boundOf and the box): every
// step's rides, quiet count, work and findings as from the world in JavaScript, on samples and hostile records.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { compileLevel } from '../../src/build/compile.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { buildWorld, type RideResource, type RideWorld } from '../../src/ride/world.ts';
import { QuietMap, quietMap } from '../../src/ride/quiet.ts';
import { WasmWorldBuilder, type WorldPipeline } from '../../src/ride/world-wasm.ts';
import { wasmStart } from '../../src/ride/native.ts';
import { RideMerge } from '../../src/ride/merge.ts';
import { rider, type RideOptions } from '../../src/ride/index.ts';
import { type ProbeShape } from '../../src/ride/probes.ts';
import { box, compileMeshes, grid, hostile, readOutput } from './helpers.ts';
import { sameQuiet } from './quiet-same.ts';

const tmp = lazyTempDir('sk8-ride-quiet-wasm-');
afterAll(() => tmp.cleanup());

/** A sample compiled (once a file: the tests below ride what the tests above judged). */
const compiled = new Map<string, Promise<RideResource[]>>();
const sample = (name: string, seams: 'shape' | 'level'): Promise<RideResource[]> => {
  const out = join(tmp.dir, `${name}-${seams}.collision`);
  if (!compiled.has(out)) {
    compiled.set(out, compileLevel(fileURLToPath(new URL(`../../samples/${name}.glb`, import.meta.url)), { out, workers: 1, cache: false, seams }, { logger: { warn: () => {} } }).then(() => readOutput(out)));
  }
  return compiled.get(out)!;
};

test.each([['city-blocks', 'shape'], ['city-blocks', 'level'], ['skatepark', 'shape']] as const)('the %s sample (--seams %s): the quiet map in WebAssembly answers as the JavaScript one', async (name, seams) => {
  const q = sameQuiet(await sample(name, seams), `${name} ${seams}`, 10_000, 12_000);
  expect(q.folds).toBeGreaterThan(100);
  expect(q.loud).toBeGreaterThan(0);
  expect(q.quiet).toBeGreaterThan(0);
  expect(q.quiet).toBeLessThan(q.boxes);
}, 60_000);

test('a fold one side of an edge finds and the other does not: the corner across answers the fold found, once; in WebAssembly as in JavaScript', async () => {
  // Forty lids (the first resource) over walls (the last) as objects of their own at x, z ~1000, each wall's top 0.5 mm
  // off its lid's edge (within SAME_VERTEX there: the same edge), and a walkable plate beside it 1.8 mm from the
  // wall's top, 2.3 mm from the lid's edge: from the lid the fold is found (the plate out of reach), from the wall not.
  const N = 40, lids: number[] = [], walls: number[] = [], plates: number[] = [], li: number[] = [], wi: number[] = [], pi: number[] = [];
  for (let i = 0; i < N; i++) {
    const x = 1000 + 4 * i;
    let o = lids.length / 3; lids.push(x, 1.1, 1000, x + 2, 1.1, 1000, x + 2, 1.1, 1002, x, 1.1, 1002); li.push(o, o + 2, o + 1, o, o + 3, o + 2);
    o = walls.length / 3; walls.push(x, 0.1, 1000, x + 2, 0.1, 1000, x + 2, 1.1, 1000, x, 1.1, 1000); wi.push(o, o + 2, o + 1, o, o + 3, o + 2);
    o = plates.length / 3; plates.push(x + 0.5, 1.08, 999.99, x + 1.5, 1.08, 999.99, x + 1.5, 1.08, 999.9977, x + 0.5, 1.08, 999.9977); pi.push(o, o + 2, o + 1, o, o + 3, o + 2);
  }
  const out = await compileMeshes(tmp.dir, 'one-side', [{ name: 'lids', positions: lids, indices: li }, { name: 'walls', positions: walls, indices: wi }, { name: 'plates', positions: plates, indices: pi }], { tiling: 'objects', seams: 'level' });
  const res = readOutput(out);
  expect(res.map((r) => r.name)).toEqual(['lids.physics', 'plates.physics', 'walls.physics']);
  // Every open edge stored convex (1.4 rad: a true crest at the lids' 90°); the walls moved 0.5 mm out.
  const value = Math.fround(Math.cos(0.7));
  for (const r of res) {
    for (const s of r.resource.shapes) {
      for (let c = 0; c < s.edgeValues.length; c++) if (s.edgeValues[c] === 1 && !((s.flatBits[c >> 3] >> (c & 7)) & 1) && !((s.concaveBits[c >> 3] >> (c & 7)) & 1)) s.edgeValues[c] = value;
      if (r.name === 'walls.physics') for (let v = 2; v < s.vertices.length; v += 3) s.vertices[v] -= 5e-4;
    }
  }
  // The rule: asked up (the lids first), each wall's top answers its lid's fold; asked down, none does.
  const w = buildWorld(res), up = new QuietMap(w), down = new QuietMap(w), corners = 3 * w.faces;
  const a = Array.from({ length: corners }, (_, c) => up.crestFold(c)), b: number[] = [];
  for (let c = corners - 1; c >= 0; c--) b[c] = down.crestFold(c);
  expect(a.filter((f) => f >= 0).length).toBe(2 * N);
  expect(b.filter((f) => f >= 0).length).toBe(N);
  expect(a.filter((f, c) => f !== b[c]).length).toBe(N);
  // Asked down again: each wall's top first, its fold taken already, finds none itself; the lids' are kept once more:
  // the walls' tops then answer them, once.
  const again: number[] = [];
  for (let c = corners - 1; c >= 0; c--) again[c] = up.crestFold(c);
  expect(again).toEqual(b);
  const tops = a.flatMap((f, c) => (f !== b[c] ? [c] : []));
  expect(tops.map((c) => up.crestFold(c))).toEqual(tops.map((c) => a[c]));
  expect(tops.map((c) => up.crestFold(c))).toEqual(tops.map(() => -1));
  sameQuiet(res, 'one side', 4000);
});

/** Every step of the ride over `w` (rideWorld's loop), each step's result as it came, and the merged report. */
function steps(w: RideWorld, options: Partial<RideOptions>): string[] {
  const r = rider(w, options), plan = r.plan(), merge = new RideMerge(plan, r.opt), out: string[] = [];
  for (let i = merge.next(); i >= 0; i = merge.next()) {
    const s = r.step(merge.steps, i);
    out.push(JSON.stringify(s));
    merge.apply(s);
  }
  out.push(JSON.stringify({ ...merge.finish(), ms: 0 }));
  return out;
}

const wasmWorld = (resources: RideResource[], pipeline?: WorldPipeline): RideWorld => {
  const b = new WasmWorldBuilder(0, 0, pipeline);
  for (const r of resources) b.add(r);
  return b.finish();
};

/** The ride's steps from the world in WebAssembly (its starts there: checked) and in JavaScript; how many rides were quiet. */
function sameSteps(resources: RideResource[], options: Partial<RideOptions>, label: string, pipeline?: WorldPipeline): number {
  const w = wasmWorld(resources, pipeline);
  quietMap(w);
  expect(wasmStart(w), label).toBeDefined();
  expect(wasmStart(buildWorld(resources))).toBeUndefined();
  const got = steps(w, options), want = steps(buildWorld(resources), options);
  expect(got.length, label).toBe(want.length);
  const differ = got.flatMap((g, i) => (g === want[i] ? [] : [`${label} step ${i}: ${g.slice(0, 300)} against ${want[i].slice(0, 300)}`]));
  expect(differ.slice(0, 3), label).toEqual([]);
  return JSON.parse(got[got.length - 1]).coverage.quietRides;
}

const odd: { name: string; shape: ProbeShape }[] = [
  { name: 'pebble', shape: { kind: 'sphere', radius: 0.01 } }, { name: 'plank', shape: { kind: 'box', half: [1, 0.02, 0.15] } },
  { name: 'rod', shape: { kind: 'capsule', radius: 0.03, halfLength: 0.5 } },
];

test('a ride\'s start to its quiet box in WebAssembly: every step the same as from the world in JavaScript (samples)', async () => {
  let quiet = 0;
  // Its world written on two threads (the pipeline a ride of 8 MB of files and more takes; its memory shared).
  quiet += sameSteps(await sample('city-blocks', 'level'), {}, 'city-blocks level', 'worker');
  const park = await sample('skatepark', 'shape');
  quiet += sameSteps(park, { probes: odd, speeds: [1, 5, 12], laneSpacing: 4 }, 'skatepark shape, odd probes');
  expect(sameSteps(park, { skipQuiet: false }, 'skatepark shape, every ride simulated')).toBe(0);
  expect(sameSteps(park, { workBudget: 150_000 }, 'skatepark shape, work budget')).toBeGreaterThanOrEqual(0);
  expect(quiet).toBeGreaterThan(10_000);
}, 120_000);

test('a ride\'s start to its quiet box in WebAssembly: every step the same on hostile records', async () => {
  const out = await compileMeshes(tmp.dir, 'starts', [
    { name: 'ground', ...grid(24, 24, 1, -12, 0, -12) }, { name: 'b', ...grid(6, 4, 1, 12, 0.02, 0) },
    { name: 'ramp', positions: Array.from({ length: 24 }, (_, n) => { const i = n >> 1, s = n & 1; return [i * 0.3, 0.02 * i * i * i, 3 + s]; }).flat(), indices: Array.from({ length: 11 }, (_, i) => [2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2]).flat() },
    box('free', 3, 0, 3, 4.5, 0.8, 4.5), box('under', -4.5, 0, -4.5, -3, 0.8, -3), { name: 'floor', ...grid(3, 3, 1, -5, 0.8002, -5) },
  ], { tiling: 'cells', seams: 'level' });
  // A slope tilted both ways, two objects of their own meeting on its diagonal (a seam): rides across it go
  // diagonally over faces whose normals lean in x and z (every term of the box's support counts).
  const slope = await compileMeshes(tmp.dir, 'slope', [
    { name: 'slopeA', positions: [20, 0, 0, 24, 1.2, 0, 24, 2, 4], indices: [0, 2, 1] },
    { name: 'slopeB', positions: [20, 0, 0, 24, 2, 4, 20, 0.8, 4], indices: [0, 2, 1] },
  ], { tiling: 'objects', seams: 'level' });
  const real = [...readOutput(out), ...readOutput(slope)], took = new Array<number>(9).fill(0);
  let quiet = sameSteps(real, { laneSpacing: 1 }, 'real');
  sameSteps(real, { laneSpacing: 1, skipQuiet: false }, 'real, every ride simulated');
  for (let k = 0; k < 9; k++) quiet += sameSteps(hostile(real, k, took), { laneSpacing: 8, maxCrossings: 100, laneMetres: 1000, workBudget: 1_000_000, ...(k % 2 ? { probes: odd } : {}) }, `hostile ${k}`);
  expect(quiet).toBeGreaterThan(100);
}, 120_000);
