// The ride's simulation in WebAssembly (assembly/ride-sim.ts, for a world WasmWorldBuilder built) against
// simulate.ts's JavaScript (the rule) bit for bit: every ride the ride simulates on the samples (--seams level and
// shape), thousands of seeded random rides of every probe, custom probes and options over real and hostile worlds,
// few contacts a substep, and the work count; then whole rides of the samples, wasm world against JavaScript world.
import { afterAll, expect, test, vi } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileLevel } from '../../src/build/compile.ts';
import { buildWorld, faceNormal, type RideResource, type RideWorld } from '../../src/ride/world.ts';
import { WasmWorldBuilder } from '../../src/ride/world-wasm.ts';
import { wasmSim } from '../../src/ride/native.ts';
import { Query } from '../../src/ride/grid.ts';
import { rideJS, rideWith, SIMULATION_DEFAULTS, type RideResult, type RideStart, type SimulationOptions } from '../../src/ride/simulate.ts';
import { CONTACT_MODEL, type ContactModel } from '../../src/ride/contact.ts';
import { PROBES, type ProbeShape } from '../../src/ride/probes.ts';
import { rideWorld } from '../../src/ride/index.ts';
import { box, compileMeshes, grid, hostile, readOutput } from './helpers.ts';

// Every ride the ride simulates, recorded as it is asked (the real rideWith still runs it).
const asked: { w: RideWorld; start: RideStart; opt: SimulationOptions; model?: ContactModel }[] = [];
let recording = false;
vi.mock('../../src/ride/simulate.ts', async (original) => {
  const m = await original<typeof import('../../src/ride/simulate.ts')>();
  return {
    ...m,
    rideWith: (w: RideWorld, q: Query, start: RideStart, opt: SimulationOptions, model?: ContactModel) => {
      if (recording) asked.push({ w, start: structuredClone(start), opt: { ...opt }, model });
      return m.rideWith(w, q, start, opt, model);
    },
  };
});

const tmp = lazyTempDir('sk8-ride-sim-');
afterAll(() => tmp.cleanup());

function wasmWorld(resources: RideResource[]): RideWorld {
  const b = new WasmWorldBuilder();
  for (const r of resources) b.add(r);
  return b.finish();
}

/** The first place two results differ (every number by Object.is: −0 and NaN included), or ''. */
function differ(a: unknown, b: unknown, at = ''): string {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b) ? '' : `${at}: ${a} against ${b}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${at}: length ${a.length} against ${b.length}`;
    for (let i = 0; i < a.length; i++) { const d = differ(a[i], b[i], `${at}[${i}]`); if (d) return d; }
    return '';
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
    if (ka.join() !== kb.join()) return `${at}: keys ${ka} against ${kb}`;
    for (const k of ka) { const d = differ((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`); if (d) return d; }
    return '';
  }
  return a === b ? '' : `${at}: ${String(a)} against ${String(b)}`;
}

/**
 * One ride both ways on a world built in WebAssembly: the difference ('' for none: the same result, q.work advanced
 * by the same) and the JavaScript's result.
 */
function both(w: RideWorld, start: RideStart, opt: SimulationOptions, model: ContactModel = CONTACT_MODEL, work0 = 0): { d: string; want: RideResult } {
  const qa = new Query(w), qb = new Query(w);
  qa.work = qb.work = work0;
  const got = rideWith(w, qa, start, opt, model), want = rideJS(w, qb, start, opt, model);
  return { d: differ({ r: got, work: qa.work }, { r: want, work: qb.work }), want };
}

async function sample(name: string, seams: 'level' | 'shape'): Promise<RideResource[]> {
  const out = join(tmp.dir, `${name}-${seams}.collision`);
  await compileLevel(fileURLToPath(new URL(`../../samples/${name}.glb`, import.meta.url)), { out, workers: 1, cache: false, seams }, { logger: { warn: () => {} } });
  return readOutput(out);
}

test("V8's x ** 2 is x * x for every double (what assembly/ride-sim.ts takes for probes.ts's squares)", () => {
  const f = new Float64Array(1), u = new Uint32Array(f.buffer);
  let seed = 1, bad = 0;
  const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0));
  const square = (x: number): number => x ** 2;
  for (let i = 0; i < 400_000; i++) {
    u[0] = random(); u[1] = random();
    const x = i % 4 === 0 ? f[0] : i % 4 === 1 ? (random() / 2 ** 31 - 1) * 10 : i % 4 === 2 ? (random() / 2 ** 31 - 1) * 1e-150 : (random() / 2 ** 31 - 1) * 1e160;
    if (!Object.is(square(x), x * x)) bad++;
  }
  for (const x of [0, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE, 1e154, 1.5e-162]) if (!Object.is(square(x), x * x)) bad++;
  expect(bad).toBe(0);
});

test('every ride the ride simulates on the samples (--seams level and shape) is the same in WebAssembly, bit for bit', async () => {
  let rides = 0, hits = 0;
  for (const [name, seams] of [['skatepark', 'shape'], ['skatepark', 'level'], ['city-blocks', 'level']] as const) {
    const resources = await sample(name, seams);
    const w = wasmWorld(resources);
    expect(wasmSim(w)).toBeDefined();
    expect(wasmSim(buildWorld(resources))).toBeUndefined();
    asked.length = 0;
    recording = true;
    const report = rideWorld(w, { skipQuiet: name === 'city-blocks' });
    recording = false;
    expect(asked.length, name).toBeGreaterThan(50);
    const diffs: string[] = [];
    for (const a of asked) {
      const { d } = both(a.w, a.start, a.opt, a.model);
      if (d) diffs.push(`${name} ${seams} ride ${rides}: ${d}`);
      rides++;
    }
    expect(diffs.slice(0, 3)).toEqual([]);
    hits += report.counts.bump + report.counts.snag;
    // The whole ride, world in WebAssembly against world in JavaScript (city-blocks: ride --json's comparison has it).
    if (name !== 'city-blocks') expect(JSON.stringify({ ...report, ms: 0 }), `${name} ${seams}`).toBe(JSON.stringify({ ...rideWorld(buildWorld(resources), { skipQuiet: false }), ms: 0 }));
  }
  expect(rides).toBeGreaterThan(500);
  expect(hits).toBeGreaterThan(0);
}, 120_000);

test('thousands of seeded random rides (every probe, custom sizes, speeds, starts on, near and under faces, far) over real and hostile worlds', async () => {
  const out = await compileMeshes(tmp.dir, 'cells', [
    { name: 'a', ...grid(6, 4, 1, -6, 0, 0) }, { name: 'b', ...grid(6, 4, 1, 0, 0, 0) }, { name: 'c', ...grid(3, 3, 1, 0, 0.5, 5) },
    { name: 'ramp', positions: Array.from({ length: 24 }, (_, n) => { const i = n >> 1, s = n & 1; return [i * 0.3, 0.02 * i * i * i, 3 + s]; }).flat(), indices: Array.from({ length: 11 }, (_, i) => [2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2]).flat() },
    { name: 'wall', positions: [0, 0, -3, 1, 0, -3, 1, 1, -3, 0, 1, -3], indices: [0, 1, 2, 0, 2, 3] },
    box('free', 13, 0, 3, 14.5, 0.8, 4.5), box('under', 13, 0, -4.5, 14.5, 0.8, -3), { name: 'floor', ...grid(3, 3, 1, 12.5, 0.8002, -5) },
    box('beside', 16, 0, 3, 17.5, 0.8, 4.5), { name: 'plate', ...grid(1, 1, 1, 17.5015, 0.81, 3) },
    // crowded edges: fans of thin faces meeting at one edge and one vertex
    { name: 'fan', positions: [8, 0, 8, 9, 0, 8, ...Array.from({ length: 12 }, (_, k) => [8.5, 0.05 * Math.sin(k), 8 + 0.02 * (k - 6)]).flat()], indices: Array.from({ length: 12 }, (_, k) => [0, 1, 2 + k]).flat() },
  ], { tiling: 'cells', seams: 'level' });
  const real = [...readOutput(out), ...(await sample('skatepark', 'shape'))];
  const took = new Array<number>(9).fill(0);
  const sets: [string, RideResource[]][] = [['real', real], ...Array.from({ length: 9 }, (_, k): [string, RideResource[]] => [`hostile ${k}`, hostile(real, k, took)])];
  let seed = 11;
  const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
  const diffs: string[] = [];
  const N = new Float64Array(3);
  let rides = 0, withHits = 0, visits = 0;
  for (const [label, resources] of sets) {
    const w = wasmWorld(resources);
    expect(wasmSim(w), label).toBeDefined();
    for (let n = 0; n < 400; n++) {
      const probe: ProbeShape = n % 4 === 3
        ? pick<ProbeShape>([{ kind: 'sphere', radius: 0.005 + random() * 0.3 }, { kind: 'capsule', radius: 0.01 + random() * 0.1, halfLength: random() * 0.8 },
          { kind: 'box', half: [0.02 + random() * 0.6, 0.01 + random() * 0.2, 0.02 + random() * 0.3] }, { kind: 'capsule', radius: 0.05, halfLength: 0 }])
        : PROBES[n % 3].shape;
      // Start: on a vertex, an edge's middle or inside a face, a little in front of it, touching, or under; or anywhere, or far.
      let p: number[];
      const t = Math.floor(random() * w.faces), k = Math.floor(random() * 3);
      const a = 3 * w.corner[3 * t + k], b = 3 * w.corner[3 * t + ((k + 1) % 3)], c = 3 * w.corner[3 * t + ((k + 2) % 3)];
      const kind = n % 6;
      if (kind === 0) p = [0, 1, 2].map((i) => w.vert[a + i]);
      else if (kind === 1) p = [0, 1, 2].map((i) => 0.5 * (w.vert[a + i] + w.vert[b + i]));
      else if (kind === 2) p = [0, 1, 2].map((i) => (w.vert[a + i] + w.vert[b + i] + w.vert[c + i]) / 3);
      else if (kind === 3) p = [0, 1, 2].map((i) => w.min[i] - 1 + random() * (w.max[i] - w.min[i] + 2));
      else if (kind === 4) p = [1e7 * (random() - 0.5), random(), 1e7 * (random() - 0.5)];
      else p = [0, 1, 2].map((i) => w.vert[a + i] + (random() - 0.5) * 1e-9);
      const lift = pick([0.028, 0.05, 0.1, 0, -0.01, -0.2, 0.3]);
      p[1] += lift;
      const speed = pick([0, 0.5, 3, 8, 15, 30, random() * 30]), angle = random() * 2 * Math.PI, up = (random() - 0.6) * 0.5;
      // A third of the face starts head into the face (a capsule's core then crosses sloped and upright faces).
      const into = kind === 2 && n % 3 === 0;
      faceNormal(w.vert, w.corner, t, N);
      if (into) p = p.map((x, i) => x + 0.1 * N[i]);
      const start: RideStart = {
        probe, position: [p[0], p[1], p[2]],
        velocity: into ? [speed * (0.3 * Math.cos(angle) - N[0]), -speed * N[1], speed * (0.3 * Math.sin(angle) - N[2])] : [speed * Math.cos(angle), speed * up, speed * Math.sin(angle)],
        duration: pick([0.1, 0.3, 0.6]), distance: pick([undefined, 0.5, 2, 1e9]),
      };
      const opt: SimulationOptions = {
        ...SIMULATION_DEFAULTS,
        ...(n % 5 === 1 ? { maxContacts: pick([0, 1, 3, 2.5]) } : {}),
        ...(n % 7 === 2 ? { iterations: pick([1, 2.5, 8]), skin: pick([0, 0.01, 0.05]), hitImpulse: pick([0, -1, 0.5]) } : {}),
        ...(n % 11 === 3 ? { gravity: pick([0, 30]), hz: pick([30, 240]) } : {}),
      };
      const model = n % 9 === 4 ? { angleSlack: 0.05, faceAngle: 1e-3 } : CONTACT_MODEL;
      const { d, want: r } = both(w, start, opt, model, n % 13 === 0 ? 123_456_789 : 0);
      if (d) diffs.push(`${label} ride ${n}: ${d}`);
      if (r.hits.length) withHits++;
      if (r.work > 0) visits++;
      rides++;
    }
  }
  expect(took.every((x) => x > 0)).toBe(true);
  expect(diffs.slice(0, 5)).toEqual([]);
  expect(rides).toBe(4000);
  expect(withHits).toBeGreaterThan(200);
  expect(visits).toBeGreaterThan(2000);
}, 120_000);

test('few contacts a substep (maxContacts 3) and the work budget: the whole ride the same from the world in WebAssembly', async () => {
  const resources = await sample('skatepark', 'shape');
  for (const options of [{ simulation: { maxContacts: 3 } }, { workBudget: 200_000 }, { probes: [{ name: 'pebble', shape: { kind: 'sphere', radius: 0.01 } as ProbeShape }, { name: 'plank', shape: { kind: 'box', half: [1, 0.02, 0.15] } as ProbeShape }] }]) {
    const got = rideWorld(wasmWorld(resources), options), want = rideWorld(buildWorld(resources), options);
    expect(JSON.stringify({ ...got, ms: 0 })).toBe(JSON.stringify({ ...want, ms: 0 }));
  }
}, 120_000);

test('a ride of more hits than the scratch region holds (1,024) hands them over in order', async () => {
  // A wheel rolling for 20 s along a 20 mm gap between two floors, held by both open edges, every kept contact a hit
  // (hitImpulse −1).
  const w = wasmWorld(readOutput(await compileMeshes(tmp.dir, 'gap', [{ name: 'a', ...grid(8, 2, 1, 0, 0, -2) }, { name: 'b', ...grid(8, 2, 1, 0, 0, 0.02) }], { seams: 'level' })));
  const start: RideStart = { probe: PROBES[0].shape, position: [0.5, 0.0262, 0.01], velocity: [0.2, 0, 0], duration: 20 };
  const opt = { ...SIMULATION_DEFAULTS, hitImpulse: -1 };
  const { d, want } = both(w, start, opt);
  expect(d).toBe('');
  expect(want.hits.length).toBeGreaterThan(2 * 1024);
});

test("a reach over more faces than the simulation's list of a substep's faces holds (4,096): the cells walked as the JavaScript walks them", async () => {
  // 12,800 faces of 0.25 m; probes of every kind reaching over up to ~8,000 of them, and over a few hundred.
  const w = wasmWorld(readOutput(await compileMeshes(tmp.dir, 'wide', [{ name: 'floor', ...grid(80, 80, 0.25, 0, 0, 0) }], { seams: 'level' })));
  expect(w.faces).toBe(12_800);
  const diffs: string[] = [];
  let many = 0;
  for (const probe of [{ kind: 'sphere', radius: 6 }, { kind: 'sphere', radius: 1.5 }, { kind: 'capsule', radius: 0.5, halfLength: 5 }, { kind: 'box', half: [5, 0.2, 4] }] as ProbeShape[]) {
    for (const speed of [0, 4, 20]) {
      const start: RideStart = { probe, position: [10, 0.25, 10], velocity: [speed, 0, speed / 3], duration: 0.3 };
      const { d, want } = both(w, start, SIMULATION_DEFAULTS);
      if (d) diffs.push(`${probe.kind} ${speed}: ${d}`);
      if (want.work > 4096 * 18) many++;
    }
  }
  expect(diffs).toEqual([]);
  expect(many).toBeGreaterThan(0);
});
