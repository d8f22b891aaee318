// The ride's plan in WebAssembly (assembly/ride-plan.ts, over a world WasmWorldBuilder made): the seam edges and
// their total (seam-edges.ts seamEdgesOf: the rule), the coverage grid's occupied cells, the lane plan's sums and
// Cover.sampled (lanes.ts: the rule) — the same edges in the same order, the same f64 sums — on compiled outputs and
// a sample, and on the same worlds made hostile in place: NaN, −0, infinite and huge coordinates, keys at .5 ties
// (JavaScript's Math.round is not wasm's nearest-even), every corner a border; areas NaN, infinite, subnormal, zero.
import { afterAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lazyTempDir } from '../fixtures/levels.ts';
import { buildWorld, FACE_BORDERS, FACE_WALKABLE, type RideWorld } from '../../src/ride/world.ts';
import { WasmWorldBuilder } from '../../src/ride/world-wasm.ts';
import { wasmSeams } from '../../src/ride/native.ts';
import { seamEdges, seamEdgesOf } from '../../src/ride/seam-edges.ts';
import { Cover, planLanes } from '../../src/ride/lanes.ts';
import { readRideResource, rider, type RidePlan, type RideResource } from '../../src/ride/index.ts';
import { wasmMeasure } from '../../src/ride/native.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-plan-');
afterAll(() => tmp.cleanup());

function wasmWorld(resources: RideResource[]): RideWorld {
  const b = new WasmWorldBuilder(0, 0);
  for (const r of resources) b.add(r);
  return b.finish();
}

let levels: RideResource[][] | undefined;
/** Compiled outputs (written with seams level and shape: T-junctions, splits, borders) and the kinds sample. */
async function real(): Promise<RideResource[][]> {
  if (levels) return levels;
  const meshes = [
    { name: 'a', ...grid(12, 8, 1, -12, 0, 0) }, { name: 'b', ...grid(6, 4, 2, 0, 0, 0) }, { name: 'c', ...grid(5, 5, 1, 3, 0.5, 9) },
    { name: 'ramp', positions: Array.from({ length: 24 }, (_, n) => { const i = n >> 1, s = n & 1; return [i * 0.3, 0.02 * i * i * i, -3 + s]; }).flat(), indices: Array.from({ length: 11 }, (_, i) => [2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2]).flat() },
    { name: 'wall', positions: [0, 0, -5, 1, 0, -5, 1, 1, -5, 0, 1, -5], indices: [0, 1, 2, 0, 2, 3] },
    // floors 0.2 m apart (a gap), 20 mm apart in height (a step), 0.3 m (a ledge), and one over another's edge
    { name: 'gap-a', ...grid(3, 3, 1, 30, 0, 0) }, { name: 'gap-b', ...grid(3, 3, 1, 33.2, 0, 0) },
    { name: 'step-a', ...grid(3, 3, 1, 30, 0, 5) }, { name: 'step-b', ...grid(3, 3, 1, 33, 0.02, 5) },
    { name: 'ledge', ...grid(3, 3, 1, 36, 0.3, 5) }, { name: 'over', ...grid(2, 2, 1, 31.5, 0.01, 6) },
  ];
  const level = readOutput(await compileMeshes(tmp.dir, 'level', meshes, { tiling: 'cells', seams: 'level' }));
  const shape = readOutput(await compileMeshes(tmp.dir, 'shape', meshes, { tiling: 'cells', seams: 'shape' }));
  const kinds = readRideResource('kinds', new Uint8Array(readFileSync(fileURLToPath(new URL('../../samples/kinds.physics', import.meta.url)))));
  // Objects a resource each, side by side: the edges they share are twins with vertices of their own either side.
  const apart = readOutput(await compileMeshes(tmp.dir, 'objects', [
    { name: 'd', ...grid(4, 4, 1, 0, 2, 20) }, { name: 'e', ...grid(4, 4, 1, 4, 2, 20) }, { name: 'f', ...grid(4, 4, 0.5, 8, 2, 20) },
    { name: 'g', ...grid(4, 4, 1, 0, 2, 24) }, { name: 'h', ...grid(8, 2, 0.5, 4, 2, 24) },
  ], { tiling: 'objects', seams: 'level' }));
  levels = [level, shape, [kinds], [...level, kinds], apart];
  return levels;
}

/** A value whose key (x · 1e4) lies exactly on a half: h + 0.5, the nearest such to x. */
function tie(x: number): number {
  for (let h = Math.round(x * 1e4); ; h++) {
    const v = (h + 0.5) / 1e4;
    if (v * 1e4 === h + 0.5) return v;
  }
}

/** The world's vertices and face bits made hostile in place, mutation `kind`, over every `every`th vertex. */
function spoil(w: RideWorld, kind: number, seed: number): void {
  const V = w.vert, nv = V.length / 3;
  let s = seed;
  const random = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  if (kind === 0) {
    // Keys on .5 ties, either sign, and just above them: the same key by Math.round (2.5 and 2.5 + ε to 3, −3.5 and
    // −3.5 + ε to −3), two by nearest-even (2 and 3, −4 and −3). A coordinate's every vertex (an edge's twin in
    // another part has vertices of its own) takes the same tie, each vertex on it or above it.
    const ties = new Map<number, number>();
    for (let i = 0; i < 3 * nv; i++) {
      if (random() < 0.3) continue;
      const t = ties.get(V[i]) ?? tie(V[i]);
      ties.set(V[i], t);
      V[i] = random() < 0.5 ? t : t + 1e-12;
    }
  } else if (kind === 1) {
    // NaN, ±∞, −0, huge (the key overflows to ∞), tiny (the key −0 or 0), coincident with another vertex
    const odd = [NaN, Infinity, -Infinity, -0, 1e300, -1e300, 1e-300, -1e-300, -0.00004];
    for (let v = 0; v < nv; v++) {
      if (random() < 0.2) V[3 * v + Math.floor(random() * 3)] = odd[Math.floor(random() * odd.length)];
      else if (random() < 0.1) { const u = Math.floor(random() * nv); V.copyWithin(3 * v, 3 * u, 3 * u + 3); }
    }
  } else if (kind === 2) {
    // every corner a border of a walkable face (twins everywhere), some edges vertical (no horizontal length)
    for (let t = 0; t < w.faces; t++) w.faceBits[t] |= FACE_BORDERS | FACE_WALKABLE;
    for (let v = 0; v < nv; v++) if (random() < 0.3) { V[3 * v] = V[0]; V[3 * v + 2] = V[2]; }
  }
}

const same = (a: { edges: Uint32Array; total: number }, b: { edges: Uint32Array; total: number }) => ({
  edges: Array.from(a.edges).join(',') === Array.from(b.edges).join(','), total: Object.is(a.total, b.total), count: [a.edges.length, b.edges.length],
});

test('x ** 2 is x * x in this JavaScript (the seam edges\' total in WebAssembly multiplies)', () => {
  let s = 12345;
  const random = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const xs = [0, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, 1.34078079299425971e154, 1e-160, 2 ** -537];
  for (let i = 0; i < 200_000; i++) xs.push((random() - 0.5) * 10 ** (Math.floor(random() * 640) - 320), (random() - 0.5) * 10 ** (Math.floor(random() * 12) - 6));
  // Both in a loop (optimized) and once each (not): V8 runs a cold plan unoptimized.
  const pow = xs.map((x) => x ** 2), mul = xs.map((x) => x * x);
  const differ = xs.filter((x, i) => !Object.is(pow[i], mul[i]) || !Object.is(x ** 2, x * x));
  expect(differ.slice(0, 5)).toEqual([]);
});

test('the seam edges in WebAssembly are seamEdgesOf\'s, edge for edge and the total bit for bit, on real and hostile worlds', async () => {
  const sets = await real();
  let hostile = 0, ties = 0, edges = 0;
  for (const [n, resources] of sets.entries()) {
    const w = wasmWorld(resources);
    const pass = wasmSeams(w)!;
    expect(pass).toBeDefined();
    expect(wasmSeams(buildWorld(resources))).toBeUndefined();
    const got = pass();
    expect(got).toBeDefined();
    expect(same(got!, seamEdgesOf(w)), `level ${n}`).toEqual({ edges: true, total: true, count: [got!.edges.length, got!.edges.length] });
    expect(same(got!, seamEdgesOf(buildWorld(resources))), `level ${n} built in JavaScript`).toMatchObject({ edges: true, total: true });
    edges += got!.edges.length;
    for (let kind = 0; kind < 3; kind++) {
      for (let seed = 1; seed <= 3; seed++) {
        const h = wasmWorld(resources);
        spoil(h, kind, seed + 10 * n);
        if (kind === 0) for (const x of h.vert) if (Math.abs(x * 1e4 - Math.trunc(x * 1e4)) === 0.5 && Math.trunc(x * 1e4) % 2 === 0) ties++;
        const a = wasmSeams(h)!()!, b = seamEdgesOf(h);
        expect(same(a, b), `level ${n}, mutation ${kind}, seed ${seed}`).toEqual({ edges: true, total: true, count: [b.edges.length, b.edges.length] });
        hostile += b.edges.length;
      }
    }
  }
  expect(edges).toBeGreaterThan(100);
  expect(hostile).toBeGreaterThan(1000);
  expect(ties).toBeGreaterThan(1000);
  // Once the coverage grid has the pass's memory, the seam edges are JavaScript's.
  const w = wasmWorld(sets[0]);
  new Cover(w, 2);
  expect(wasmSeams(w)).toBeUndefined();
  expect(same(seamEdges(w), seamEdgesOf(buildWorld(sets[0])))).toMatchObject({ edges: true, total: true });
}, 60_000);

/** A lane plan as data: spacing, cells (their areas' bits), chosen. */
const lanePlan = (w: RideWorld, c: Cover, spacing: number, metres: number) => {
  const p = planLanes(w, c, spacing, metres, 8);
  return { spacing: p.spacing, cells: p.cells.map((x) => [x.i, x.j, Object.is(x.area, -0) ? '-0' : x.area]), chosen: Array.from(p.chosen), occupied: c.occupied() };
};

test('the lane plan\'s sums and the sampled share in WebAssembly are lanes.ts\'s, on real coverage grids and hostile areas', async () => {
  const sets = await real();
  const native = [0, 0];
  let plans = 0, sampled = 0;
  for (const [n, resources] of sets.entries()) {
    for (const cell of [0.5, 1, 3]) {
      for (let kind = 0; kind < 2; kind++) {
        const w = wasmWorld(resources), want = buildWorld(resources);
        const a = new Cover(w, cell), b = new Cover(want, cell);
        expect(a.total).toBe(b.total);
        if (kind === 1) {
          // Areas no face gives on its own, the same in both: NaN, ∞, subnormal (a share of it rounds to 0), 0, −0, huge.
          const odd = [NaN, Infinity, 5e-324, 1e-320, 0, -0, 1e308, 3.5];
          for (let k = 0; k < a.area.length; k++) if (k % 3 === 0) a.area[k] = b.area[k] = odd[(k / 3) % odd.length];
        }
        if (a.laneAreas(1, 3, 3)) native[kind]++;
        for (const [spacing, metres] of [[0.2, 1e6], [1, 40], [0.7, 5], [2.5, 1], [16, 20000], [0.13, 3]]) {
          expect(lanePlan(w, a, spacing, metres), `level ${n}, cell ${cell}, areas ${kind}: spacing ${spacing}, ${metres} m`).toEqual(lanePlan(want, b, spacing, metres));
          plans++;
        }
        // The sampled share after the same rides marked.
        let s = n + 1;
        const random = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
        for (let r = 0; r < 40; r++) {
          const [x0, z0, x1, z1] = [0, 2, 0, 2].map((k) => w.min[k] - 1 + random() * (w.max[k] - w.min[k] + 2));
          // and a few odd ones: a point, NaN, far off the grid, −0
          const odd = [[x0, z0, x0, z0], [NaN, z0, x1, z1], [x0, z0, x1 + 300, z1], [-0, -0, x1, -0]][r % 10] ?? [x0, z0, x1, z1];
          a.mark(odd[0], odd[1], odd[2], odd[3]);
          b.mark(odd[0], odd[1], odd[2], odd[3]);
        }
        const hits = (c: Cover) => Buffer.from((c as unknown as { hit: Uint8Array }).hit).toString('base64');
        expect(hits(a), `level ${n}, cell ${cell}: the cells marked`).toBe(hits(b));
        expect(Object.is(a.sampled(), b.sampled()), `level ${n}, cell ${cell}`).toBe(true);
        // Its sum before the rounding, bit for bit.
        const hit = (a as unknown as { hit: Uint8Array }).hit, nat = (a as unknown as { native?: { hit?: Uint8Array; sampledSum(): number } }).native;
        if (nat?.hit) {
          let sum = 0;
          for (let k = 0; k < hit.length; k++) if (hit[k]) sum += a.area[k];
          expect(Object.is(nat.sampledSum(), sum), `level ${n}, cell ${cell}: the sampled sum`).toBe(true);
          sampled++;
        }
      }
    }
  }
  // The WebAssembly passes did run (over the grids their memory held: the coarser ones here), on either areas.
  expect(native[0]).toBeGreaterThan(3);
  expect(native[1]).toBeGreaterThan(3);
  expect(plans).toBeGreaterThan(100);
  expect(sampled).toBeGreaterThan(5);
}, 60_000);

/** A plan as data: the seam edges' count, work, lengths (their bits), crossings and findings, the steps, the stop. */
const planData = (p: RidePlan) => ({
  count: p.edges.count, work: Array.from(p.edges.work.subarray(0, p.edges.count)), seam: Buffer.from(p.edges.seam.buffer).toString('base64'),
  crossings: Array.from(p.edges.crossings), finds: JSON.stringify([...p.edges.finds]), steps: Buffer.from(p.steps.buffer).toString('base64'),
  stopped: p.stopped, seamSpacing: p.seamSpacing,
});

test('the seam edges measured in WebAssembly are the plan\'s JavaScript measuring: look-ups, work, gaps, steps, crossings; on real and hostile worlds, and a budget spent', async () => {
  const sets = await real();
  let gaps = 0, steps = 0, edges = 0, chunks = 0;
  for (const [n, resources] of sets.entries()) {
    for (let kind = -1; kind < 3; kind++) {
      for (const budget of [400_000_000, 300]) {
        const got = wasmWorld(resources), want = buildWorld(resources);
        if (kind >= 0) {
          // The same arrays in both (the grids, built before, are the same too).
          spoil(want, kind, n + 5);
          got.vert.set(want.vert.subarray(0, Math.min(got.vert.length, want.vert.length)));
          got.faceBits.set(want.faceBits.subarray(0, Math.min(got.faceBits.length, want.faceBits.length)));
        }
        const pass = wasmMeasure(got);
        expect(pass, `level ${n}`).toBeDefined();
        expect(wasmMeasure(want)).toBeUndefined();
        // Chunks of a few edges (their edges ridden across a chunk's end).
        pass!.chunk = 1 + (n % 5);
        // Lanes too where the world is as built (the coverage grid takes the grid's vertex cells, made before a mutation).
        const opt = { workBudget: budget, laneSpacing: kind >= 0 ? 0 : 16 };
        const a = planData(rider(got, opt).plan()), b = planData(rider(want, opt).plan());
        expect(a, `level ${n}, mutation ${kind}, budget ${budget}`).toEqual(b);
        if (budget === 300 && b.count < 3) continue;
        const finds = b.finds;
        gaps += finds.split('"gap"').length - 1;
        steps += finds.split('"step"').length - 1;
        edges += b.count;
        chunks++;
      }
    }
  }
  expect(gaps).toBeGreaterThan(5);
  expect(steps).toBeGreaterThan(5);
  expect(edges).toBeGreaterThan(1000);
  expect(chunks).toBeGreaterThan(20);
}, 60_000);
