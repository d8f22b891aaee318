// The ride's world written through the queue of parts (src/ride/world-pipe.ts, WasmWorldBuilder's `pipeline`): the
// same world as the one-thread build, array for array and bound for bound (−0 and NaN included), whichever thread
// wrote which part: with the worker and without it, parts waiting for ring slots and for queue slots, the ring grown
// for a part larger than it, the world's arrays moved as they grow, hostile records; a part the writer traps on is
// named; the CLI's read gives the same ride through it; a build given up half way stops its worker.
import { afterAll, expect, test } from 'vitest';
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lazyTempDir } from '../fixtures/levels.ts';
import { faceSource, type RideWorld } from '../../src/ride/world.ts';
import { PIPE_RING_BYTES, WasmWorldBuilder, type WorldPipeline } from '../../src/ride/world-wasm.ts';
import { CONVEX_ALLOWANCE_SOURCE, PartPipe, PIPE_SLOTS, type PartWriter } from '../../src/ride/world-pipe.ts';
import { edgeAllowance, EDGE_CONVEX } from '../../src/ride/contact.ts';
import { encoderInstance, encoderSharedModule, sharedEncoderMemory } from '../../src/geometry/wasm.ts';
import { rideWorld, type RideResource } from '../../src/ride/index.ts';
import { Cover } from '../../src/ride/lanes.ts';
import { readRideWorld } from '../../cli/commands/ride.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-pipe-');
afterAll(() => tmp.cleanup());

const bytes = (a: ArrayBufferView): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
const sign = (x: number): number | string => (Object.is(x, -0) ? '-0' : x);
/** Everything of a world (the arrays to their capacity: what lies past the last face is the same too). */
const whole = (w: RideWorld) => ({
  faces: w.faces, names: w.names, min: w.min.map(sign), max: w.max.map(sign), runs: Array.from(w.runs),
  vert: bytes(w.vert), corner: bytes(w.corner), allow: bytes(w.allow), faceBits: bytes(w.faceBits),
  sources: Array.from({ length: Math.min(w.faces, 60) }, (_, t) => faceSource(w, t * Math.max(1, Math.floor(w.faces / 60)))),
  grid: { ...w.grid, start: bytes(w.grid.start), items: bytes(w.grid.items) },
});

function build(resources: RideResource[], capacity: number, pipeline: WorldPipeline, ring?: number): RideWorld {
  const b = new WasmWorldBuilder(capacity, capacity, pipeline, ring);
  for (const r of resources) b.add(r);
  return b.finish();
}

/** Mutations a reader could be handed (no verify on this path): NaN and −0 vertices, corners past the vertices, a four-corner face, no vertex → corner index. */
function hostile(resources: RideResource[]): RideResource[] {
  return resources.map((r, i) => {
    const res = structuredClone(r.resource);
    for (const s of res.shapes) {
      const V = s.vertices, nv = V.length / 3;
      if (i % 4 === 0 && nv >= 4) { V[0] = NaN; V[3] = -0; V[5] = -0; }
      if (i % 4 === 1 && s.cornerVertices.length >= 9) { s.cornerVertices[1] = nv + 2; if (s.faceOffsets.length > 3) s.faceOffsets[1] += 1; }
      if (i % 4 === 2) s.vertexCornerOffsets = s.vertexCornerOffsets.subarray(1);
      if (i % 4 === 3) for (let c = 0; c < s.edgeValues.length; c++) s.edgeValues[c] = [0.5, NaN, -3, 2, 0.999, 1, -0][c % 7];
    }
    return { name: `${r.name}~`, resource: res };
  });
}

test('the pipelined world is the one-thread world, array for array, with and without the worker, whatever waits for what', async () => {
  const out = await compileMeshes(tmp.dir, 'tiles', [
    { name: 'a', ...grid(30, 20, 1, -30, 0, 0) }, { name: 'b', ...grid(30, 20, 1, 0, 0, 0) }, { name: 'c', ...grid(8, 8, 0.5, 2, 0.4, 3) },
    { name: 'ramp', positions: Array.from({ length: 24 }, (_, n) => { const i = n >> 1, s = n & 1; return [i * 0.3, 0.02 * i * i * i, 30 + s]; }).flat(), indices: Array.from({ length: 11 }, (_, i) => [2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2]).flat() },
    // a level at −0 and below it: bounds of −0 and 0 alike (the first kept)
    { name: 'low', ...grid(4, 4, 1, -40, -0, -40) },
  ], { tiling: 'cells', seams: 'level' });
  const real = readOutput(out);
  // Many parts: past the queue's slots and round the ring again and again.
  const many = Array.from({ length: 50 }, (_, k) => real.map((r) => ({ name: `${k}-${r.name}`, resource: r.resource }))).flat();
  const parts = many.reduce((n, r) => n + r.resource.parts.length, 0);
  expect(parts).toBeGreaterThan(2 * PIPE_SLOTS);
  const sets: [string, RideResource[]][] = [['real', real], ['many', many], ['hostile', hostile(many)]];
  for (const [label, resources] of sets) {
    const want = whole(build(resources, 0, undefined));
    expect(want.faces).toBeGreaterThan(1000);
    for (const pipeline of ['here', 'worker'] as const) {
      for (const capacity of [0, 7, 1e6]) {
        expect(whole(build(resources, capacity, pipeline)), `${label}, ${pipeline}, capacity ${capacity}`).toEqual(want);
      }
      // A ring smaller than most parts (grown for them), and one a few parts long (parts wait for the oldest).
      for (const ring of [256, 40_000]) expect(whole(build(resources, 1e6, pipeline, ring)), `${label}, ${pipeline}, ring ${ring}`).toEqual(want);
    }
  }
  // The coverage grid a pipelined build works out on its writer thread (over the grid's own cells), and one over other
  // cells (the writer thread's pass waited for, then the columns worked out again): the one-thread build's, bit for bit.
  const coverOf = (w: RideWorld, twice: boolean) => {
    const c = new Cover(w, twice ? 2 * w.grid.cell : w.grid.cell);
    return { total: Object.is(c.total, -0) ? '-0' : c.total, area: bytes(c.area), nx: c.nx, nz: c.nz };
  };
  for (const [label, resources] of sets) {
    for (const twice of [false, true]) {
      const want = coverOf(build(resources, 0, undefined), twice);
      for (const pipeline of ['here', 'worker'] as const) expect(coverOf(build(resources, 0, pipeline), twice), `${label}, ${pipeline}, cells ×${twice ? 2 : 1}`).toEqual(want);
    }
  }
  // A finished build closed at once (as the CLI's read does in its `finally`): the writer thread's last job (the
  // coverage grid) is still done, not cut off (a wait for it would stall).
  for (let k = 0; k < 4; k++) {
    const b = new WasmWorldBuilder(0, 0, 'worker');
    for (const r of many) b.add(r);
    const w = b.finish();
    b.close();
    expect(coverOf(w, false), `closed after finish, round ${k}`).toEqual(coverOf(build(many, 0, undefined), false));
  }
  // A resource the writer does not take (arrays not the codec's: written by writeFaces here) between pipelined parts.
  const odd = structuredClone(real[0]);
  for (const s of odd.resource.shapes) s.vertices = Array.from(s.vertices) as unknown as Float32Array;
  const mixed = [...many.slice(0, 20), { name: 'odd', resource: odd.resource }, ...many.slice(20, 40)];
  expect(whole(build(mixed, 0, 'worker'))).toEqual(whole(build(mixed, 0, undefined)));
  expect(PIPE_RING_BYTES).toBeGreaterThan(1 << 20);
});

test("the worker's convex allowance is edgeAllowance's, bit for bit", () => {
  const f = new Function(`return ${CONVEX_ALLOWANCE_SOURCE}`)() as (v: number) => number;
  const values = [0, -0, 1, -1, 0.5, -0.5, 2, -3, NaN, Infinity, -Infinity, 1 - 2 ** -53, -1 + 2 ** -53, 1e-300, Math.fround(0.999)];
  let seed = 3;
  for (let n = 0; n < 20_000; n++) values.push(Math.fround(((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 31) - 1));
  for (const v of values) expect(Object.is(f(v), edgeAllowance(EDGE_CONVEX, v)), `${v}`).toBe(true);
});

test('the worker starts, and a part the writer traps on is named, on the worker and here', () => {
  for (const threads of [true, false]) {
    const module = encoderSharedModule(), memory = sharedEncoderMemory(1);
    const w = encoderInstance<PartWriter & { rideWalkable(ny: number): void }>('test', { convexAllowance: (v) => v }, { module, memory });
    const pipe = new PartPipe(w, module, memory, Math.SQRT1_2, threads);
    try {
      // The worker makes its instance of the module (every import the module has, given or refusing): a module that
      // gained an import it lacked would leave every part to this thread, unseen.
      if (threads) expect(pipe.started(20_000)).toEqual({ running: true });
      // A part whose shape lies past the memory's end: the writer's first load traps.
      const params = new Array<number>(31).fill(0);
      params[0] = 2 ** 31 - 64; params[1] = 4; params[3] = 3; params[4] = 2 ** 31 - 64; params[5] = 1; params[27] = 1;
      const c = pipe.post(params);
      expect(() => pipe.wait(c)).toThrow(threads ? /ride: the world's writer thread failed on part 0: .*out of bounds|memory access out of bounds/ : /out of bounds/);
    } finally {
      pipe.close();
    }
  }
});

test("the CLI's read rides the same through the pipeline, and a refused file half way stops it", async () => {
  const out = await compileMeshes(tmp.dir, 'cli', [
    { name: 'a', ...grid(20, 20, 1, -20, 0, 0) }, { name: 'b', ...grid(20, 20, 1, 0, 0.0005, 0) }, { name: 'c', ...grid(6, 6, 1, 3, 0.3, 3) },
  ], { tiling: 'cells', seams: 'level' });
  const files = readdirSync(out).filter((f) => f.endsWith('.physics')).sort().map((f) => join(out, f));
  expect(files.length).toBeGreaterThan(1);
  const one = await readRideWorld(files, undefined, true, Infinity), piped = await readRideWorld(files, undefined, true, 0);
  if (!('world' in one) || !('world' in piped)) throw new Error('not read');
  expect(whole(piped.world)).toEqual(whole(one.world));
  expect(rideWorld(piped.world)).toEqual(rideWorld(one.world));
  // A cut file among them: named, in the words of the one-thread read.
  const bad = join(tmp.dir, 'bad');
  mkdirSync(bad, { recursive: true });
  for (const f of files) cpSync(f, join(bad, f.slice(out.length + 1)));
  const cut = join(bad, readdirSync(bad).sort()[1]);
  writeFileSync(cut, Buffer.alloc(40));
  const badFiles = readdirSync(bad).sort().map((f) => join(bad, f));
  const a = await readRideWorld(badFiles, undefined, true, Infinity), b = await readRideWorld(badFiles, undefined, true, 0);
  expect('error' in b && b.error).toBe('error' in a && a.error);
  expect('error' in a && a.error).toMatch(/not a PhysicsResource/);
});

test("the grid's passes split at any face give one pass's bytes: gaps across the split at LEB128's lengths", () => {
  interface GridWasm {
    memory: WebAssembly.Memory;
    heapBase(): number;
    rideGridCount(corner: number, from: number, faces: number, place: number, at: number, nx: number): void;
    rideGridStarts(at: number, cells: number, start: number): number;
    rideGridFill(corner: number, from: number, faces: number, place: number, at: number, items: number, nx: number): void;
    rideGridCountAfter(corner: number, from: number, faces: number, place: number, at: number, nx: number, first: number, cells: number): void;
    rideGridStartsSplit(at: number, after: number, first: number, cells: number, start: number): number;
  }
  const w = encoderInstance<GridWasm>('test');
  // Faces of one vertex each (its three corners), each vertex in the cell the pattern gives: cell k (of nx × 1) gets
  // the faces at multiples of its spacing, so that a cell's gaps, and its gap across a split, are 126–129,
  // 16,382–16,385 or 2,097,150–2,097,153 faces long (LEB128's one, two and three bytes either side), plus noise.
  const spacings = [1, 2, 127, 128, 129, 130, 16383, 16384, 16385, 16386, 2097151, 2097152, 2097153];
  const n = 2_200_000, nx = spacings.length + 1, cells = nx;
  const align = (x: number) => Math.ceil(x / 8) * 8;
  const base = align(w.heapBase()), placeAt = base, cornerAt = align(placeAt + 8 * n), atAt = align(cornerAt + 12 * n);
  const afterAt = atAt + 8 * cells, firstAt = afterAt + 8 * cells, startAt = align(firstAt + 4 * cells), itemsAt = align(startAt + 4 * (cells + 1));
  const end = itemsAt + 4 * n * 3;
  w.memory.grow(Math.ceil((end - w.memory.buffer.byteLength) / 65536) + 1);
  const buf = w.memory.buffer, place = new Int32Array(buf, placeAt, 2 * n), corner = new Uint32Array(buf, cornerAt, 3 * n);
  let seed = 11;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let t = 0; t < n; t++) {
    // The largest spacing t is a multiple of (most of the time); the rest: the first and the last cell.
    let k = -1;
    for (let m = spacings.length - 1; m > 0 && k < 0; m--) if (t % spacings[m] === 0 && random() < 0.9) k = m;
    if (k < 0) k = random() < 0.5 ? 0 : spacings.length;
    place[2 * t] = k; place[2 * t + 1] = 0;
    corner[3 * t] = corner[3 * t + 1] = corner[3 * t + 2] = t;
  }
  const zero = () => new Uint8Array(buf, atAt, itemsAt - atAt).fill(0);
  zero();
  w.rideGridCount(cornerAt, 0, n, placeAt, atAt, nx);
  const bytes = w.rideGridStarts(atAt, cells, startAt) >>> 0;
  w.rideGridFill(cornerAt, 0, n, placeAt, atAt, itemsAt, nx);
  const want = { start: Array.from(new Uint32Array(buf, startAt, cells + 1)), items: Buffer.from(new Uint8Array(buf, itemsAt, bytes)).toString('base64') };
  for (const h of [0, 1, 127, 128, 129, 16384, 16385, 2097152, 2097153, 2097154, Math.floor(n / 2), n - 1, n, ...Array.from({ length: 6 }, () => Math.floor(random() * n))]) {
    zero();
    new Uint8Array(buf, afterAt, 12 * cells).fill(7); // the second half's count zeroes its own cells
    w.rideGridCount(cornerAt, 0, h, placeAt, atAt, nx);
    w.rideGridCountAfter(cornerAt, h, n, placeAt, afterAt, nx, firstAt, cells);
    const b = w.rideGridStartsSplit(atAt, afterAt, firstAt, cells, startAt) >>> 0;
    new Uint8Array(buf, itemsAt, b).fill(0xee);
    w.rideGridFill(cornerAt, h, n, placeAt, afterAt, itemsAt, nx);
    w.rideGridFill(cornerAt, 0, h, placeAt, atAt, itemsAt, nx);
    const got = { start: Array.from(new Uint32Array(buf, startAt, cells + 1)), items: Buffer.from(new Uint8Array(buf, itemsAt, b)).toString('base64') };
    expect(got.start, `split at ${h}`).toEqual(want.start);
    expect(got.items === want.items, `split at ${h}: the cells' bytes`).toBe(true);
  }
});
