// The ride's world written on a second thread while this one reads, verifies and parses the next files
// (src/ride/world-wasm.ts, WasmWorldBuilder with `pipeline`): both threads hold an instance of the encoder module's
// shared-memory build (scripts/build-wasm.mjs) over one memory, which holds the world. This thread copies a part's
// shape arrays into a slot of the memory's ring, works out where its faces and vertices go (ridePartCount) and posts
// the part; whichever thread claims it first (one counter, Atomics.compareExchange) writes it with rideWritePart, so
// the world is the same whichever thread wrote which part, and a worker that is late, slow or never starts leaves
// its parts to this thread. Each part is written from empty bounds, its own bounds kept with its result; this
// thread widens the world's bounds by them in part order with the writer's own comparisons, which gives what one
// writer widening corner by corner gives (the first of equal values kept: −0 and 0 alike). Why: on the 1M-face
// bench level the writer's ~70 ms (a third of it faulting in the world's fresh pages) leave the main thread's path.
import { Worker } from 'node:worker_threads';

/** The writer's exports both threads call (assembly/ride-world.ts). */
export interface PartWriter {
  rideBegin(): void;
  rideBound(k: number): number;
  rideResult(k: number): number;
  rideTransform(qx: number, qy: number, qz: number, qw: number, px: number, py: number, pz: number): void;
  rideWritePart(...args: number[]): void;
  rideGridPlace(...args: number[]): void;
  rideGridCountAfter(...args: number[]): void;
  rideGridFill(...args: number[]): void;
  rideCover(...args: number[]): number;
  memory: WebAssembly.Memory;
}

/**
 * A posted job's parameters: its arguments, then its kind at PART_PARAMS − 1. A part (OP_WRITE): rideWritePart's 24
 * arguments, then rideTransform's 7. The grid's passes over a range of vertices or faces (OP_PLACE, OP_COUNT_AFTER,
 * OP_FILL: assembly/ride-grid.ts rideGridPlace, rideGridCountAfter, rideGridFill), a chunk of GRID_CHUNK a call. The
 * coverage grid's pass (OP_COVER: rideCover over all faces, its areas zeroed first, the total carried from chunk to
 * chunk in face order; the total is its result 0).
 */
export const PART_PARAMS = 32;
export const OP_WRITE = 0, OP_PLACE = 1, OP_COUNT_AFTER = 2, OP_FILL = 3, OP_COVER = 4;
/** Vertices or faces a grid call takes (world-wasm.ts says why). */
export const GRID_CHUNK = 1 << 15;
/** Parts posted and not yet retired at most (the queue's slots). */
export const PIPE_SLOTS = 64;
/** A part's results: faces and vertices after it, its runs, its bounds (min x y z, max x y z). */
const OUT = 9;
/**
 * Control words: parts posted, parts claimed, a counter bumped at each post and at the stop (what the worker waits
 * on), stop, failed (the part + 1), the worker's start (1 running, −1 its instance could not be made), whether the
 * worker is (about to be) asleep on the counter, whether this thread is (about to be) asleep on a part's slot. A
 * thread wakes the other only when it sleeps: a wake is a system call (~5–30 µs), and a level posts ~1,350 parts.
 */
const TAIL = 0, CLAIM = 1, EPOCH = 2, STOP = 3, FAILED = 4, STARTED = 5, WORKER_ASLEEP = 6, MAIN_ASLEEP = 7, CONTROL = 8;
/** Bytes for a failure's message. */
const MESSAGE_BYTES = 1024;
/** A part not done after this long with nothing else to do: the writer thread is taken to have stopped, ms. */
const STALL_MS = 60_000;

/**
 * contact.ts edgeAllowance(EDGE_CONVEX, value) as source for the worker (an eval'd worker imports none of our modules;
 * a test holds the two to the same bits).
 */
export const CONVEX_ALLOWANCE_SOURCE = '(value) => 2 * Math.acos(Math.max(-1, Math.min(1, value)))';

/**
 * Runs posted job c with instance `w` (P the jobs' parameters, O their results): the worker runs this text, and this
 * thread a function made from the same text, so the two cannot differ.
 */
const RUN_SOURCE = `(w, P, O, c) => {
  const s = c % ${PIPE_SLOTS}, p = ${PART_PARAMS} * s, o = ${OUT} * s, op = P[p + ${PART_PARAMS - 1}];
  if (op === ${OP_WRITE}) {
    w.rideBegin();
    w.rideTransform(P[p + 24], P[p + 25], P[p + 26], P[p + 27], P[p + 28], P[p + 29], P[p + 30]);
    w.rideWritePart(P[p], P[p + 1], P[p + 2], P[p + 3], P[p + 4], P[p + 5], P[p + 6], P[p + 7], P[p + 8], P[p + 9], P[p + 10], P[p + 11],
      P[p + 12], P[p + 13], P[p + 14], P[p + 15], P[p + 16], P[p + 17], P[p + 18], P[p + 19], P[p + 20], P[p + 21], P[p + 22], P[p + 23]);
    O[o] = w.rideResult(0); O[o + 1] = w.rideResult(1); O[o + 2] = w.rideResult(2);
    for (let k = 0; k < 6; k++) O[o + 3 + k] = w.rideBound(k);
    return;
  }
  const from = P[p + 1], to = P[p + 2];
  if (op === ${OP_COVER}) {
    // vert, from, to, corner, bits, place, area, nx, cells
    new Float64Array(w.memory.buffer, P[p + 6], P[p + 8]).fill(0);
    let total = 0;
    for (let t = from; t < to; t += ${GRID_CHUNK}) total = w.rideCover(P[p], P[p + 3], P[p + 4], t, Math.min(to, t + ${GRID_CHUNK}), P[p + 5], P[p + 6], P[p + 7], total);
    O[o] = total;
    return;
  }
  // A call a chunk; the first of the count's calls zeroes its cells (and so is made for an empty range too).
  let t = from;
  do {
    const e = Math.min(to, t + ${GRID_CHUNK});
    if (op === ${OP_PLACE}) w.rideGridPlace(P[p], t, e, P[p + 3], P[p + 4], P[p + 5], P[p + 6], P[p + 7], P[p + 8]);
    else if (op === ${OP_COUNT_AFTER}) w.rideGridCountAfter(P[p], t, e, P[p + 3], P[p + 4], P[p + 5], P[p + 6], t === from ? P[p + 7] : 0);
    else if (op === ${OP_FILL}) w.rideGridFill(P[p], t, e, P[p + 3], P[p + 4], P[p + 5], P[p + 6]);
    else throw new Error('no job of kind ' + op);
    t = e;
  } while (t < to);
}`;
const run = new Function(`return ${RUN_SOURCE}`)() as (w: PartWriter, P: Float64Array, O: Float64Array, c: number) => void;

/** The worker: the same claim loop over the same shared arrays (run() below is its twin). */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { module, memory, control, done, params, out, message, walkableMinNy } = workerData;
const C = new Int32Array(control), D = new Int32Array(done), P = new Float64Array(params), O = new Float64Array(out), M = new Uint8Array(message);
// The writer's one import; every other function the module imports refuses (none is reached from the writer).
const given = { convexAllowance: ${CONVEX_ALLOWANCE_SOURCE}, abort: () => { throw new Error('wasm abort'); } };
const run = ${RUN_SOURCE};
let w;
try {
  const env = { memory };
  for (const i of WebAssembly.Module.imports(module)) {
    if (i.kind === 'function') env[i.name] = given[i.name] ?? (() => { throw new Error('wasm import ' + i.name + ' is not one of its calls'); });
  }
  w = new WebAssembly.Instance(module, { env }).exports;
  w.rideWalkable(walkableMinNy);
  Atomics.store(C, ${STARTED}, 1);
} catch (e) {
  w = undefined;
  M.set(new TextEncoder().encode(String(e && e.message || e)).subarray(0, ${MESSAGE_BYTES}));
  Atomics.store(C, ${STARTED}, -1);
}
Atomics.notify(C, ${STARTED});
for (;;) {
  const epoch = Atomics.load(C, ${EPOCH});
  if (w === undefined || Atomics.load(C, ${FAILED})) break;
  const c = Atomics.load(C, ${CLAIM});
  // Stopped: the jobs posted before the stop are still done (a closed pipe's last job may be one it was closed after).
  if (c >= Atomics.load(C, ${TAIL}) && Atomics.load(C, ${STOP})) break;
  if (c < Atomics.load(C, ${TAIL})) {
    if (Atomics.compareExchange(C, ${CLAIM}, c, c + 1) !== c) continue;
    const s = c % ${PIPE_SLOTS};
    try {
      run(w, P, O, c);
      Atomics.store(D, s, c + 1);
    } catch (e) {
      const text = new TextEncoder().encode(String(e && e.message || e)).subarray(0, ${MESSAGE_BYTES});
      M.set(text);
      Atomics.store(C, ${FAILED}, c + 1);
      Atomics.store(D, s, -(c + 1));
    }
    if (Atomics.load(C, ${MAIN_ASLEEP})) Atomics.notify(D, s);
    continue;
  }
  // Asleep until the counter moves (a post or the stop): said first, so that a post after it wakes this thread, and a
  // post before it has moved the counter already (then the wait returns at once).
  Atomics.store(C, ${WORKER_ASLEEP}, 1);
  Atomics.wait(C, ${EPOCH}, epoch);
  Atomics.store(C, ${WORKER_ASLEEP}, 0);
}
`;


/** The queue of jobs (parts, the grid's passes) between this thread and the writer thread. */
export class PartPipe {
  private readonly worker: Worker | undefined;
  private readonly control = new Int32Array(new SharedArrayBuffer(4 * CONTROL));
  private readonly done = new Int32Array(new SharedArrayBuffer(4 * PIPE_SLOTS));
  private readonly params = new Float64Array(new SharedArrayBuffer(8 * PART_PARAMS * PIPE_SLOTS));
  private readonly out = new Float64Array(new SharedArrayBuffer(8 * OUT * PIPE_SLOTS));
  private readonly message = new Uint8Array(new SharedArrayBuffer(MESSAGE_BYTES));
  /** Parts posted. */
  private posted = 0;

  /**
   * `w`: this thread's instance of `module` over `memory`. `threads` false: no worker (this thread writes every
   * part through the same queue: what the tests compare with).
   */
  constructor(private readonly w: PartWriter, module: WebAssembly.Module, memory: WebAssembly.Memory, walkableMinNy: number, threads = true) {
    if (!threads) return;
    try {
      this.worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: {
          module, memory, control: this.control.buffer, done: this.done.buffer, params: this.params.buffer, out: this.out.buffer,
          message: this.message.buffer, walkableMinNy,
        },
        // Nothing of the process's own start-up (its --import preloads, its flags) is the writer's business.
        execArgv: [],
        stdout: true, stderr: true,
      });
      this.worker.unref();
      // A worker that fails to start leaves its parts to this thread (never claimed); its error is not the ride's.
      this.worker.on('error', () => {});
    } catch {
      this.worker = undefined;
    }
  }

  /** Posts a part: its parameters (OP_WRITE's) into the next slot, which the caller has retired. Returns its number. */
  post(p: ArrayLike<number>): number {
    return this.postJob(OP_WRITE, p);
  }

  /** Posts a job of kind `op` with these arguments into the next slot, which the caller has retired. Returns its number. */
  postJob(op: number, args: ArrayLike<number>): number {
    const c = this.posted++, s = c % PIPE_SLOTS;
    if (args.length > PART_PARAMS - 1) throw new Error(`ride: a job of ${args.length} arguments (at most ${PART_PARAMS - 1})`);
    this.params.set(args, PART_PARAMS * s);
    this.params[PART_PARAMS * s + PART_PARAMS - 1] = op;
    Atomics.store(this.done, s, 0);
    Atomics.store(this.control, TAIL, this.posted);
    Atomics.add(this.control, EPOCH, 1);
    if (this.worker && Atomics.load(this.control, WORKER_ASLEEP)) Atomics.notify(this.control, EPOCH);
    return c;
  }

  /** Claims the next part no thread has and writes it here; false when every posted part is claimed. */
  private runOne(): boolean {
    for (;;) {
      const c = Atomics.load(this.control, CLAIM);
      if (c >= this.posted) return false;
      if (Atomics.compareExchange(this.control, CLAIM, c, c + 1) !== c) continue;
      run(this.w, this.params, this.out, c);
      Atomics.store(this.done, c % PIPE_SLOTS, c + 1);
      return true;
    }
  }

  /**
   * Waits until part c is written (writing parts no thread has claimed meanwhile, from the oldest); its results then
   * are result(c, k). Throws when the writer thread failed on it.
   */
  wait(c: number): void {
    const s = c % PIPE_SLOTS;
    let since = performance.now();
    for (;;) {
      const d = Atomics.load(this.done, s);
      if (d === c + 1) return;
      if (d === -(c + 1)) {
        const text = new TextDecoder().decode(this.message.slice()).replace(/\0+$/, '');
        throw new Error(`ride: the world's writer thread failed on part ${c}: ${text}`);
      }
      if (this.runOne()) {
        since = performance.now();
        continue;
      }
      // Claimed by the worker: wait for it (it wakes this thread when it is asleep), a while at a time.
      Atomics.store(this.control, MAIN_ASLEEP, 1);
      Atomics.wait(this.done, s, d, 50);
      Atomics.store(this.control, MAIN_ASLEEP, 0);
      if (performance.now() - since > STALL_MS) throw new Error(`ride: the world's writer thread has not finished part ${c} in ${STALL_MS / 1000} s`);
    }
  }

  /**
   * Whether the worker runs (true), could not make its instance (false, with why), or has not started within
   * `ms` (undefined). The build never waits for it: a part no thread has claimed is written here.
   */
  started(ms: number): { running: boolean; why?: string } | undefined {
    if (!this.worker) return { running: false, why: 'no worker' };
    Atomics.wait(this.control, STARTED, 0, ms);
    const s = Atomics.load(this.control, STARTED);
    if (s === 0) return undefined;
    return s > 0 ? { running: true } : { running: false, why: new TextDecoder().decode(this.message.slice()).replace(/\0+$/, '') };
  }

  /** Result k of written part c (0 faces after it, 1 vertices after it, 2 runs, 3–8 bounds). */
  result(c: number, k: number): number {
    return this.out[OUT * (c % PIPE_SLOTS) + k];
  }

  /**
   * Stops the worker once the jobs posted are done (their results can still be waited for: a job no thread has
   * claimed is done here); `now`: at once (a build given up: its jobs' results are not wanted).
   */
  close(now = false): void {
    Atomics.store(this.control, STOP, 1);
    Atomics.add(this.control, EPOCH, 1);
    Atomics.notify(this.control, EPOCH);
    if (now) void this.worker?.terminate().catch(() => {});
  }
}
