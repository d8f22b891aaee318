// The ride's world built in WebAssembly (WasmWorldBuilder): the world writeFaces and buildGrid give (world.ts,
// grid.ts: the rule), byte for byte — vertices, corners, allowances, face bits, runs, bounds, the grid's starts and
// bytes, what the coverage grid takes from it — on compiled outputs, a sample, and hostile records of every kind
// verify could be handed; from any first capacity (the arrays moved as they grow); with a resource the writer does
// not take (arrays not as the codec gives them) written in between by writeFaces into the same memory.
import { afterAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lazyTempDir } from '../fixtures/levels.ts';
import { buildWorld, faceSource, type RideWorld } from '../../src/ride/world.ts';
import { WasmWorldBuilder } from '../../src/ride/world-wasm.ts';
import { wasmFold } from '../../src/ride/native.ts';
import { foldAcross, QuietMap } from '../../src/ride/quiet.ts';
import { Query } from '../../src/ride/grid.ts';
import { surfaceAt } from '../../src/ride/surface.ts';
import { Cover } from '../../src/ride/lanes.ts';
import { readRideResource, rideWorld, type RideResource } from '../../src/ride/index.ts';
import { box, compileMeshes, grid, hostile, readOutput } from './helpers.ts';
import { sameQuiet } from './quiet-same.ts';

const tmp = lazyTempDir('sk8-ride-wasm-');
afterAll(() => tmp.cleanup());

const bytes = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
/** Everything of a world, its float arrays as their bytes (NaN payloads and −0 included). */
const whole = (w: RideWorld) => ({
  faces: w.faces, names: w.names, min: w.min.map((x) => Object.is(x, -0) ? '-0' : x), max: w.max.map((x) => Object.is(x, -0) ? '-0' : x),
  vert: bytes(w.vert).toString('base64'), corner: bytes(w.corner).toString('base64'), allow: bytes(w.allow).toString('base64'),
  faceBits: bytes(w.faceBits).toString('base64'), runs: Array.from(w.runs),
  sources: Array.from({ length: Math.min(w.faces, 50) }, (_, t) => faceSource(w, t * Math.max(1, Math.floor(w.faces / 50)))),
  grid: { ...w.grid, start: bytes(w.grid.start).toString('base64'), items: bytes(w.grid.items).toString('base64') },
});
/** The coverage grid built right after the world (it takes the world grid's columns and scratch). */
const cover = (w: RideWorld, cell: number) => {
  const c = new Cover(w, cell);
  return { total: c.total, area: bytes(c.area).toString('base64') };
};

function wasmWorld(resources: RideResource[], capacity: number): RideWorld {
  const b = new WasmWorldBuilder(capacity, capacity);
  for (const r of resources) b.add(r);
  return b.finish();
}

test('the world built in WebAssembly is the world writeFaces and buildGrid give, byte for byte, on real and hostile records', async () => {
  const out = await compileMeshes(tmp.dir, 'cells', [
    { name: 'a', ...grid(6, 4, 1, -6, 0, 0) }, { name: 'b', ...grid(6, 4, 1, 0, 0, 0) }, { name: 'c', ...grid(3, 3, 1, 0, 0.5, 5) },
    // a curved ramp (slopes either side of 45°), a wall, a face upside down: kinds, walkable and not
    { name: 'ramp', positions: Array.from({ length: 24 }, (_, n) => { const i = n >> 1, s = n & 1; return [i * 0.3, 0.02 * i * i * i, 3 + s]; }).flat(), indices: Array.from({ length: 11 }, (_, i) => [2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2]).flat() },
    { name: 'wall', positions: [0, 0, -3, 1, 0, -3, 1, 1, -3, 0, 1, -3], indices: [0, 1, 2, 0, 2, 3] },
    { name: 'under', positions: [5, 1, 5, 6, 1, 5, 6, 1.1, 6], indices: [0, 2, 1] },
    // For the quiet map's folds: a box's top (true crests), one under a floor laid 0.2 mm over it, a plate 1.5 mm
    // beside another's top edge (crowded), and a lid and a wall meeting at an edge as two objects (the face across
    // in another part, found by its vertices' places: a few f32 ulps apart).
    box('free', 13, 0, 3, 14.5, 0.8, 4.5), box('under', 13, 0, -4.5, 14.5, 0.8, -3), { name: 'floor', ...grid(3, 3, 1, 12.5, 0.8002, -5) },
    box('beside', 16, 0, 3, 17.5, 0.8, 4.5), { name: 'plate', ...grid(1, 1, 1, 17.5015, 0.81, 3) },
    { name: 'lid', positions: [10.3, 1.1, 10.7, 12.3, 1.1, 10.7, 12.3, 1.1, 12.7, 10.3, 1.1, 12.7], indices: [0, 2, 1, 0, 3, 2] },
    { name: 'wall', positions: [10.3, 0.1, 10.7, 12.3, 0.1, 10.7, 12.3, 1.1, 10.7, 10.3, 1.1, 10.7], indices: [0, 1, 2, 0, 2, 3] },
  ], { tiling: 'cells', seams: 'level' });
  const kinds = readRideResource('kinds', new Uint8Array(readFileSync(fileURLToPath(new URL('../../samples/kinds.physics', import.meta.url)))));
  // The lid and the wall again as objects of their own (tiling by object: each its own resource, so the face across
  // the lid's edge is in another part, found by its vertices' places, a few f32 ulps apart).
  const apart = await compileMeshes(tmp.dir, 'objects', [
    { name: 'lid', positions: [20.3, 1.1, 10.7, 22.3, 1.1, 10.7, 22.3, 1.1, 13.3, 20.3, 1.1, 13.3], indices: [0, 2, 1, 0, 3, 2] },
    { name: 'wall', positions: [20.3, 0.137, 10.7, 22.3, 0.137, 10.7, 22.3, 1.1, 10.7, 20.3, 1.1, 10.7], indices: [0, 1, 2, 0, 2, 3] },
  ], { tiling: 'objects', seams: 'level' });
  const real = [...readOutput(out), ...readOutput(apart), kinds];
  expect(real.length).toBeGreaterThan(2);
  const took = new Array<number>(9).fill(0);
  const sets: [string, RideResource[]][] = [['real', real], ...Array.from({ length: 9 }, (_, k): [string, RideResource[]] => [`hostile ${k}`, hostile(real, k, took)])];
  expect(took.every((n) => n > 0), `mutations that took: ${took}`).toBe(true);
  let found = 0, quietFolds = 0, quietLoud = 0;
  const crossPart: Record<string, number> = {};
  for (const [label, resources] of sets) {
    const want = buildWorld(resources), wantCover = cover(want, 0.5);
    expect(want.faces).toBeGreaterThan(20);
    for (const capacity of [0, 7, 1e6]) {
      const got = wasmWorld(resources, capacity);
      expect(whole(got), `${label}, capacity ${capacity}`).toEqual(whole(want));
      // The coverage grid in WebAssembly (once a world: over the grid's own cells, or over coarser ones, their
      // vertices' columns worked out again), then in JavaScript (taken already; or cells the scratch does not hold).
      const cell = [got.grid.cell, 2 * got.grid.cell, 0.5][capacity === 0 ? 0 : capacity === 7 ? 1 : 2];
      expect(cover(got, cell), `${label}, capacity ${capacity}: the coverage grid over ${cell} m`).toEqual(cover(buildWorld(resources), cell));
      expect(cover(got, 0.5), `${label}, capacity ${capacity}: the coverage grid`).toEqual(wantCover);
      // The quiet map's marks.
      const marks = (w: RideWorld) => { const q = new QuietMap(w) as unknown as { candidates: number; pending: Int32Array }; return { candidates: q.candidates, pending: bytes(q.pending).toString('base64') }; };
      expect(marks(got), `${label}, capacity ${capacity}: the quiet map's marks`).toEqual(marks(buildWorld(resources)));
    }
    // The quiet map's fold across every edge (foldAcross asks for convex ones; every one here), as foldAcross finds it.
    const fold = wasmFold(wasmWorld(resources, 0))!, a = new Int32Array(1), b = new Int32Array(1), differ: string[] = [];
    expect(fold).toBeDefined();
    expect(wasmFold(want)).toBeUndefined();
    for (let e = 0; e < 3 * want.faces; e++) {
      const t = Math.floor(e / 3), k = e % 3;
      a[0] = b[0] = -1;
      const x = fold(t, k, a), y = foldAcross(want, t, k, b);
      if (!Object.is(x, y) || (y >= 0 && a[0] !== b[0])) differ.push(`${e}: ${x} ${a[0]} against ${y} ${b[0]}`);
      if (y >= 0) {
        found++;
        const here = faceSource(want, t), there = faceSource(want, Math.floor(b[0] / 3));
        if (here.resource !== there.resource || here.part !== there.part) crossPart[label] = (crossPart[label] ?? 0) + 1;
      }
    }
    expect(differ.slice(0, 5), label).toEqual([]);
    // The surface under points (surfaceAt): over the world's box and past it, on vertices and edges, NaN; nearest and
    // top, small and large reach: the face, its height, the faces visited and the work, as the JavaScript walk gives.
    const gw = wasmWorld(resources, 0), qa = new Query(gw), qb = new Query(want);
    let seed = 7;
    const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const surfaceDiffer: string[] = [];
    let hits = 0;
    for (let n = 0; n < 20_000; n++) {
      let x: number, y: number, z: number;
      if (n % 4 === 0 && want.faces > 0) {
        // a vertex or the middle of an edge of a face
        const t = Math.floor(random() * want.faces), k = Math.floor(random() * 3), a = 3 * want.corner[3 * t + k], b = 3 * want.corner[3 * t + ((k + 1) % 3)];
        const s = n % 8 === 0 ? 0 : 0.5;
        [x, y, z] = [0, 1, 2].map((i) => want.vert[a + i] + s * (want.vert[b + i] - want.vert[a + i]));
      } else if (n % 4 === 1 && want.faces > 0) {
        // just off the middle of an edge, away from the face's third corner: its barycentric weight −3e-9 (outside
        // the 1e-9 the test allows), or −3e-10 (inside it)
        const t = Math.floor(random() * want.faces), k = Math.floor(random() * 3);
        const [a, b, c] = [0, 1, 2].map((j) => 3 * want.corner[3 * t + ((k + j) % 3)]);
        const off = n % 8 === 1 ? 3e-9 : 3e-10;
        [x, y, z] = [0, 1, 2].map((i) => { const mid = 0.5 * (want.vert[a + i] + want.vert[b + i]); return mid + off * (mid - want.vert[c + i]); });
      } else {
        [x, y, z] = [0, 1, 2].map((i) => want.min[i] - 2 + random() * (want.max[i] - want.min[i] + 4));
      }
      if (n % 97 === 0) x = NaN;
      if (n % 89 === 0) y = NaN;
      const reach = [0.05, 1, 100, 0][n % 4], top = n % 3 === 0;
      const fa = surfaceAt(gw, x, z, y, reach, qa, top), fb = surfaceAt(want, x, z, y, reach, qb, top);
      if (fb >= 0) hits++;
      const got = [fa, qa.height[0], qa.visits, qa.work], exp = [fb, qb.height[0], qb.visits, qb.work];
      if (!got.every((v, i) => Object.is(v, exp[i]))) surfaceDiffer.push(`${x},${y},${z} ${reach} ${top}: ${got} against ${exp}`);
    }
    expect(surfaceDiffer.slice(0, 5), label).toEqual([]);
    expect(hits, label).toBeGreaterThan(1000);
    expect(qa.native).not.toBeNull();
    // The quiet map judged in WebAssembly: the JavaScript map's answers, call for call (quiet-same.ts).
    const q = sameQuiet(resources, label);
    quietFolds += q.folds;
    quietLoud += q.loud;
  }
  expect(quietFolds).toBeGreaterThan(100);
  expect(quietLoud).toBeGreaterThan(10);
  expect(found).toBeGreaterThan(100);
  // Faces across found in another part (by their vertices' places), the ulp-nudged ones among them.
  expect(crossPart.real).toBeGreaterThan(0);
  expect(crossPart['hostile 8']).toBeGreaterThan(0);
  // The hostile records do reach the odd paths: NaN and far vertices, faces skipped.
  const faces = buildWorld(real).faces;
  expect(Array.from(buildWorld(sets[1][1]).vert).some((x) => Number.isNaN(x))).toBe(true);
  expect(Array.from(buildWorld(sets[8][1]).vert).some((x) => Math.abs(x) > 1e29)).toBe(true);
  expect(buildWorld(sets[2][1]).faces).toBeLessThan(faces);
  expect(buildWorld(sets[7][1]).faces).toBeLessThan(faces);
  expect(buildWorld(sets[8][1]).faces).toBeGreaterThan(faces);
}, 60_000);

test("the fold search's box and corner tests without a branch each: quiet.ts's answers at the box's very edge, with NaN corners in every place, at scales where the margin vanishes", async () => {
  // Boxes (convex top edges, faces across in the same part and in another: the lid and the wall), a plate beside a
  // top edge (crowded), a floor under a box's top (out of reach), a ramp (slanted edges, whose box holds faces clear
  // of their line).
  const out = await compileMeshes(tmp.dir, 'fold-box', [
    box('a', 0, 0, 0, 1.5, 0.8, 1.5), box('b', 3, 0, 0, 4.5, 0.5, 2), { name: 'plate', ...grid(1, 1, 1, 4.5015, 0.51, 0) },
    { name: 'floor', ...grid(3, 3, 1, -0.5, 0.8002, -0.5) },
    { name: 'ramp', positions: Array.from({ length: 16 }, (_, n) => { const i = n >> 1, s = n & 1; return [6 + i * 0.3 + s * 0.7, 0.05 * i * i, 3 + s + 0.2 * i]; }).flat(), indices: Array.from({ length: 7 }, (_, i) => [2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2]).flat() },
    { name: 'lid', positions: [0.3, 1.1, 3.7, 2.3, 1.1, 3.7, 2.3, 1.1, 5.7, 0.3, 1.1, 5.7], indices: [0, 2, 1, 0, 3, 2] },
    { name: 'wall', positions: [0.3, 0.1, 3.7, 2.3, 0.1, 3.7, 2.3, 1.1, 3.7, 0.3, 1.1, 3.7], indices: [0, 1, 2, 0, 2, 3] },
  ], { tiling: 'objects', seams: 'level' });
  const base = readOutput(out);
  /** Every shape's vertices changed by `f` (vertex v's coordinate i, of n). */
  const each = (f: (V: Float32Array, v: number, n: number) => void): RideResource[] => base.map((r) => {
    const res = structuredClone(r.resource);
    for (const s of res.shapes) { const V = s.vertices as Float32Array; for (let v = 0; v < V.length / 3; v++) f(V, v, V.length / 3); }
    return { name: r.name, resource: res };
  });
  const sets: [string, RideResource[]][] = [['as compiled', base]];
  // Scaled by powers of two (exact in f32): at 2^60 the edge's box (its ends ± 2.01 mm) is its ends' own coordinates
  // in f64, so the faces beside an edge along x or z reach it exactly (a < where ≤ belongs shows).
  for (const k of [40, 52, 60, 100]) sets.push([`scaled 2^${k}`, each((V, v) => { for (let i = 0; i < 3; i++) V[3 * v + i] *= 2 ** k; })]);
  // A NaN x or z at each place of a face's corners (max3 and min3 pick by their order): every third vertex from
  // 0, 1 or 2, one coordinate.
  for (const i of [0, 2]) for (const from of [0, 1, 2]) sets.push([`NaN ${'xyz'[i]} from ${from}`, each((V, v) => { if (v % 3 === from) V[3 * v + i] = NaN; })]);
  sets.push(['infinite x', each((V, v) => { if (v % 5 === 1) V[3 * v] = v % 2 ? Infinity : -Infinity; })]);
  // Shrunk to a 256th and moved 4 km out: a face's corners all within SAME_VERTEX of each other (both ends of an edge
  // at once), the corner across the first that matches, as quiet.ts takes it.
  sets.push(['tiny, far out', each((V, v) => { for (let i = 0; i < 3; i++) V[3 * v + i] = V[3 * v + i] / 256 + 4096; })]);
  let found = 0, none = 0;
  for (const [label, resources] of sets) {
    const want = buildWorld(resources), fold = wasmFold(wasmWorld(resources, 0))!, a = new Int32Array(1), b = new Int32Array(1), differ: string[] = [];
    for (let e = 0; e < 3 * want.faces; e++) {
      const t = Math.floor(e / 3), k = e % 3;
      a[0] = b[0] = -1;
      const x = fold(t, k, a), y = foldAcross(want, t, k, b);
      if (!Object.is(x, y) || (y >= 0 && a[0] !== b[0])) differ.push(`${e}: ${x} ${a[0]} against ${y} ${b[0]}`);
      if (y >= 0) found++;
      else none++;
    }
    expect(differ.slice(0, 5), label).toEqual([]);
  }
  expect(found).toBeGreaterThan(500);
  expect(none).toBeGreaterThan(500);
});

test('a resource whose arrays are not as the codec gives them is written by writeFaces into the same memory; the ride is the same', async () => {
  const out = await compileMeshes(tmp.dir, 'mixed', [
    { name: 'a', ...grid(8, 8, 1, -8, 0, -8) }, { name: 'b', ...grid(8, 8, 1, 0, 0, -8) }, { name: 'c', ...grid(8, 8, 1, -8, 0, 0) },
  ], { tiling: 'cells', seams: 'level' });
  const resources = readOutput(out);
  expect(resources.length).toBeGreaterThan(2);
  // The middle one's arrays as plain typed arrays of other kinds (a resource built in memory).
  const mid = structuredClone(resources[1].resource);
  for (const s of mid.shapes) {
    (s as { vertices: ArrayLike<number> }).vertices = Float64Array.from(s.vertices);
    (s as { cornerVertices: ArrayLike<number> }).cornerVertices = Uint32Array.from(s.cornerVertices);
  }
  const mixed = [resources[0], { name: resources[1].name, resource: mid }, ...resources.slice(2)];
  const want = buildWorld(mixed);
  for (const capacity of [0, 1e5]) {
    const got = wasmWorld(mixed, capacity);
    expect(whole(got)).toEqual(whole(want));
    const ride = (w: RideWorld) => JSON.stringify({ ...rideWorld(w), ms: 0 });
    expect(ride(got)).toBe(ride(want));
  }
}, 60_000);

test('a world past the 4 GiB a thread\'s WebAssembly memory holds is refused in words, not a RangeError', () => {
  expect(() => new WasmWorldBuilder(2e8, 2e8)).toThrow(/^ride: the world's arrays and grid need [\d,]+ MiB of WebAssembly memory, more than a thread has \(4 GiB\): ride fewer files at a time/);
});

test("the walkable bit at the 45° limit: the WebAssembly writer's shortcut gives faceNormal's answer on faces tilted by 1e-16 rad", async () => {
  // A face at 45° (normal (−1, 1, 0)), compiled, then ridden as 4,001 parts naming its shape, each turned about z by
  // (k − 2,000) · 1e-16 rad (and a few by 1e-9): their normals' y straddle cos 45° by an ulp or so.
  const out = await compileMeshes(tmp.dir, 'slope', [{ name: 'slope', positions: [30, 0, 30, 30, 0, 31, 31, 1, 30], indices: [0, 1, 2] }], { seams: 'level' });
  const [slope] = readOutput(out);
  const res = structuredClone(slope.resource);
  const part = res.parts.find((p) => p.kind === 5)!;
  res.parts = Array.from({ length: 4001 }, (_, k) => {
    const a = (k - 2000) * (k % 100 === 0 ? 1e-9 : 1e-16);
    return { ...structuredClone(part), rotation: [0, 0, Math.sin(a / 2), Math.cos(a / 2)] };
  });
  const tilted = [{ name: 'tilted', resource: res }];
  const want = buildWorld(tilted), got = wasmWorld(tilted, 0);
  expect(bytes(got.faceBits).equals(bytes(want.faceBits))).toBe(true);
  // Both answers occur: the limit is inside the range.
  const walk = Array.from(want.faceBits, (b) => (b >> 9) & 1);
  expect(walk.includes(0) && walk.includes(1)).toBe(true);
});
