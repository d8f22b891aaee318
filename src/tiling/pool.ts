// Runs resource jobs on the calling thread and on worker threads together. Jobs are independent and each result is
// stored at its job's index, so the output is the same for any thread count; threads only change the wall time.
// Workers can be started before the import (ThreadPool.start) and given the validation report while the main
// thread is still importing; messages to one worker are handled in the order sent.
//
// Design log
// - Worker start (2026-11-29): the esbuild bundle used to be built on the main thread (awaited) and the worker
//   started from it; the build's reply waits for the main thread to yield, which the import's scene walk does not,
//   so on the 1M bench level the worker was up 131–1,577 ms after the compile started, and the validation it does
//   during the import spilled into the encode stage. Now ThreadPool.spawn starts the workers synchronously and each
//   builds or loads the cached bundle itself (worker-boot.mjs): first reply ~55–80 ms after spawn. Not passing
//   `--import tsx` on to workers saves ~150–300 ms each before their first message. Bench (8 alternating runs, 2
//   threads, load 2.9–5, so wide spread): wall 5,751 → 5,452 ms median, encode stage 4,558 → 3,530 ms (the
//   validation no longer runs into it), import 772 → 1,103 ms (the worker validates beside it on a busy machine).
import { availableParallelism, cpus, loadavg } from 'node:os';
import { cpuUsage, execArgv } from 'node:process';
import { Worker } from 'node:worker_threads';
import type { CrackCounts, MeshReport } from '../import/validate.ts';
import type { MemoItem } from '../import/validate-memo.ts';
import { buildResource, isNative, isPlanned, jobTriangles, releaseBytes, resourceFile, writeResource, type BuiltResource, type EncodeOptions, type ResourceJob } from './build.ts';
import { join } from 'node:path';
import { patchUnit, type PatchItem, type PatchResult } from './seams.ts';

/**
 * Yields until the event loop has passed a poll phase, so that replies the workers had already sent are taken in
 * (their handlers run) before this resolves. A build starts its workers in the continuation of a file stat and
 * walks the scene there, in one poll phase: libuv takes in a handle made during a poll phase (the worker's port)
 * at the next one, while one setImmediate runs in the same turn's check phase. The plan took none of the
 * worker's cell runs that way (0 of 4,101 objects of the 1M bench level, every build). A second setImmediate,
 * queued from the check phase, runs in the next turn, after its poll.
 */
export async function takeInReplies(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
}

export interface PoolOptions {
  /** Encoding threads including the calling thread: 1 = calling thread only. */
  threads: number;
  encode?: EncodeOptions;
  /** Workers already started; extra ones stay idle, missing ones are started. */
  pool?: ThreadPool;
  /** Run on the calling thread once the workers have their first jobs. */
  sideWork?: () => void;
  onDone?: (done: number, total: number) => void;
  /**
   * Directory each result is written into (writeResource) by the thread that built it; none: not written. A
   * written result comes back without its bytes in memory (read back from the file if asked for: releaseBytes).
   */
  writeDir?: string;
  /** With writeDir: each written file's sha256 is taken on the thread that wrote it (the cache records it). */
  sha256?: boolean;
  /** Each result as it is stored (in completion order, which varies with threads; the returned array does not). */
  onResult?: (index: number, result: BuiltResource) => void;
}

/** Triangles a thread must have to pay for a worker's start-up (~100 ms: spawn, bundle eval, cold JIT). */
export const WORK_PER_THREAD = 100_000;
/** Jobs travel in units of consecutive jobs holding about this many triangles (fewer, larger messages). */
export const UNIT_TRIANGLES = 25_000;
/**
 * Units sent to a worker before its previous one comes back. The main thread encodes too and handles replies only
 * between its own units, so with one in flight a worker idled for part of a main-thread unit after each of its own.
 */
export const UNITS_IN_FLIGHT = 2;

/**
 * Cores not already busy by the 1-minute load average: the core count minus it, at least 1. Only a fallback for
 * windows too short to measure (freeCores): the average lags by a minute, so right after a previous build it
 * still counts that build's threads as busy and would keep an idle machine at one thread.
 */
export function idleCores(): number {
  return Math.max(1, Math.min(availableParallelism(), Math.round(availableParallelism() - loadavg()[0] + 0.5)));
}

/** A point in time for freeCores: wall clock, idle time summed over all cores, this process's CPU time (ms). */
export interface CpuMark {
  wall: number;
  idle: number;
  own: number;
}

/** Shortest window (ms) whose idle-time sample is trusted (the kernel counts in 10 ms ticks). */
export const MIN_SAMPLE_MS = 100;

/**
 * A core counts as free from 1 − FREE_CORE_SLACK of one measured: with one other busy thread on a 2-core box this
 * process's two threads get ~1.33 cores between them (worth a second encoding thread); with two others, ~1.
 */
export const FREE_CORE_SLACK = 0.7;

export function cpuMark(): CpuMark {
  const u = cpuUsage();
  return { wall: performance.now(), idle: cpus().reduce((s, c) => s + c.times.idle, 0), own: (u.user + u.system) / 1000 };
}

/**
 * Cores other processes left to this one since `from`: the cores' idle time plus this process's own CPU time (all
 * its threads), over the wall time, counted with FREE_CORE_SLACK (at least 1, at most the core count). Measured over the import, so it
 * sees the machine as it is now; on a 2-core box that others keep busy it says 1 (a second thread there measured
 * slower). Windows shorter than MIN_SAMPLE_MS fall back to idleCores().
 */
export function freeCores(from: CpuMark | undefined, to: CpuMark = cpuMark()): number {
  const wall = to.wall - (from?.wall ?? 0);
  if (!from || wall < MIN_SAMPLE_MS) return idleCores();
  const free = (to.idle - from.idle + to.own - from.own) / wall;
  return Math.max(1, Math.min(availableParallelism(), Math.floor(free + FREE_CORE_SLACK)));
}

/** Encoding threads for these jobs: one per WORK_PER_THREAD triangles, at most one per free core and one per job. */
export function autoThreads(jobs: ResourceJob[], free: number = idleCores()): number {
  const triangles = jobs.reduce((s, j) => s + jobTriangles(j), 0);
  return Math.max(1, Math.min(free, jobs.length, Math.ceil(triangles / WORK_PER_THREAD)));
}

/**
 * A worker runs worker.ts (and the encoder, codec and validation it imports) as one esbuild bundle, built or
 * taken from its cache by worker-boot.mjs on the worker's own thread: nothing a worker needs to start waits for
 * the main thread, which is busy importing the level when the workers are started early. The process's tsx
 * preload (`--import tsx`) is not passed on: the bundle needs no loader, and tsx's set-up cost each worker
 * ~150–300 ms before its first message (other flags, e.g. --cpu-prof, still are).
 */
function spawnWorker(): Worker {
  // Compiled JavaScript (the package's dist/src/tiling/pool.js, or the compiler bundle, dist/compiler/*.mjs) starts
  // the worker.js beside it as it is.
  const compiled = /\.[cm]?js$/.test(import.meta.url);
  const boot = compiled ? new URL('./worker.js', import.meta.url) : new URL('./worker-boot.mjs', import.meta.url);
  const workerData = { entry: new URL('./worker.ts', import.meta.url).href };
  const argv = workerFlags(execArgv);
  if (argv.length < execArgv.length) {
    try {
      return new Worker(boot, { workerData, execArgv: argv });
    } catch {
      // A flag a worker refuses when listed (V8 options such as --max-old-space-size): inherit them all, tsx too.
    }
  }
  return new Worker(boot, { workerData });
}

/**
 * execArgv for a worker: without preloads of tsx (`--import tsx`, `--import=tsx`, `--loader tsx`, `--require
 * tsx/cjs`, and the paths the tsx command line passes: `--require …/node_modules/tsx/dist/preflight.cjs --import
 * file:///…/tsx/dist/loader.mjs`), and without `--input-type` (a process run as `node --input-type=module -e …`
 * passes it on, and a worker started from a file then fails: "--input-type can only be used with string input").
 */
export function workerFlags(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--input-type')) {
      if (a === '--input-type') i++;
      continue;
    }
    const m = /^(--import|--loader|--experimental-loader|--require|-r)(=(.*))?$/.exec(a);
    const value = m ? (m[2] !== undefined ? m[3] : argv[i + 1]) : undefined;
    if (value !== undefined && /(^|[/\\])tsx([/\\]|$)/.test(value)) {
      if (m![2] === undefined) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

export interface ValidateItem {
  positions: Float32Array;
  groups: Uint32Array[];
  /** The object's name (for a crack's "along" object). */
  name?: string;
  /** Per group, its index list's identity in the sending thread (src/import/validate-store.ts contentDigest). */
  ids?: number[];
}

/** Worker threads with request/response by id; a dead worker fails every request in flight. */
export class ThreadPool {
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;

  private constructor(readonly workers: Worker[]) {
    for (const w of workers) {
      w.on('message', (msg: { id: number; result?: unknown; error?: string }) => {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error !== undefined) p?.reject(new Error(msg.error));
        else p?.resolve(msg.result);
      });
      w.on('error', (e) => this.failAll(new Error(`worker: ${e.message}`)));
      w.on('exit', (code) => code !== 0 && this.failAll(new Error(`worker: exited with code ${code}`)));
    }
  }

  /** Starts n workers; requests can be sent at once (they are handled once a worker is up). */
  static spawn(n: number): ThreadPool {
    const workers: Worker[] = [];
    try {
      for (let i = 0; i < n; i++) workers.push(spawnWorker());
    } catch (e) {
      for (const w of workers) void w.terminate(); // none left running when one cannot start
      throw e;
    }
    return new ThreadPool(workers);
  }

  static async start(n: number): Promise<ThreadPool> {
    return ThreadPool.spawn(n);
  }

  private failAll(e: Error): void {
    this.failure ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  call<T>(worker: number, message: object, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const reply = new Promise<T>((resolve, reject) => this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    this.workers[worker].postMessage({ ...message, id }, transfer);
    return reply;
  }

  /** Seam patches of staged files on a worker (src/tiling/seams.ts patchUnit). */
  patch(worker: number, items: PatchItem[], pack?: string): Promise<PatchResult[]> {
    return this.call(worker, { kind: 'patch', items, pack });
  }

  /** Mesh validation reports on a worker (shared-memory arrays are read in place, others copied; none transferred). */
  validate(worker: number, items: ValidateItem[] | MemoItem[]): Promise<MeshReport[]> {
    return this.call(worker, { kind: 'validate', items });
  }

  /**
   * Borders and cracks over every object validated on that worker since the last call (validateMesh keeps their
   * open edges there), in the order validated.
   */
  cracks(worker: number): Promise<CrackCounts[]>;
  /** In a session (after reset with its token): the objects of this build's pass, by key, in order; null: unchanged. */
  cracks(worker: number, keys: number[], names: string[]): Promise<(CrackCounts | null)[]>;
  cracks(worker: number, keys?: number[], names?: string[]): Promise<(CrackCounts | null)[]> {
    return this.call(worker, { kind: 'cracks', keys, names });
  }

  /**
   * Forgets what the worker validated before (a new build on workers kept across builds). With a session token,
   * the worker keeps that session's memo (src/import/validate-memo.ts) and starts a build in it; any other token
   * (or none) drops the memo it had.
   */
  reset(worker: number, session?: string): Promise<null> {
    return this.call(worker, { kind: 'reset', session });
  }

  /**
   * Outside a session: the worker keeps what it validates by the digest of the arrays, starting from `stored` (a
   * pass an earlier process wrote: src/import/validate-store.ts; checked there against `code`). Before any validate.
   */
  restoreValidation(worker: number, stored: Uint8Array | undefined, code: string): Promise<null> {
    return this.call(worker, { kind: 'restore', stored, code });
  }

  /** The worker's last crack pass as bytes for the next process (after restoreValidation and cracks), or null. */
  storedValidation(worker: number): Promise<Uint8Array | null> {
    return this.call(worker, { kind: 'stored' });
  }

  /** Cell runs (src/tiling/cells.ts cellRuns) of every group of each item, at cellSize, on a worker. */
  cellRuns(worker: number, items: ValidateItem[], cellSize: number): Promise<Float64Array[][]> {
    return this.call(worker, { kind: 'cellRuns', items, cellSize });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

export async function runJobs(jobs: ResourceJob[], options: PoolOptions): Promise<BuiltResource[]> {
  const want = Math.max(0, Math.min(options.threads, jobs.length) - 1);
  const owned = options.pool ? undefined : await ThreadPool.start(want);
  const pool = options.pool ?? owned!;
  if (pool.workers.length < want) throw new Error(`pool: ${pool.workers.length} workers started, ${want} needed`);
  try {
    return await runOnThreads(jobs, pool, want, options);
  } finally {
    await owned?.close();
  }
}

/**
 * Consecutive jobs grouped into units of UNIT_TRIANGLES, shrinking towards the end (guided scheduling: at most
 * 1 / (2 · threads) of what is left, down to one job), so the threads run out of work at about the same time
 * instead of one waiting for another's last full unit.
 */
export function units(jobs: ResourceJob[], threads: number): number[][] {
  const sizes = jobs.map(jobTriangles);
  let left = sizes.reduce((s, n) => s + n, 0);
  const out: number[][] = [];
  let cur: number[] = [];
  let size = 0;
  sizes.forEach((n, i) => {
    cur.push(i);
    size += n;
    if (size >= Math.min(UNIT_TRIANGLES, left / (2 * threads))) {
      out.push(cur);
      left -= size;
      cur = [];
      size = 0;
    }
  });
  if (cur.length) out.push(cur);
  return out;
}

async function runOnThreads(jobs: ResourceJob[], pool: ThreadPool, workers: number, options: PoolOptions): Promise<BuiltResource[]> {
  const results: BuiltResource[] = new Array(jobs.length);
  const work = units(jobs, workers + 1);
  let next = 0;
  let done = 0;
  let failed = false;
  const store = (i: number, r: BuiltResource): void => {
    if (options.writeDir !== undefined && r.parts > 0) releaseBytes(r, join(options.writeDir, resourceFile(r.name)));
    results[i] = r;
    options.onResult?.(i, r);
    options.onDone?.(++done, jobs.length);
  };
  // A lane beyond a worker's first stops once few units are left, so the last ones are not queued behind another.
  const onWorker = async (w: number, prefetch: boolean): Promise<void> => {
    while (!failed && next < work.length && (!prefetch || work.length - next > workers + 1)) {
      const unit = work[next++];
      const batch = unit.map((i) => ({ index: i, job: jobs[i] }));
      const out = await pool.call<{ index: number; result: BuiltResource }[]>(w, { kind: 'encode', batch, encode: options.encode, writeDir: options.writeDir, sha256: options.sha256 }, unit.flatMap((i) => transferList(jobs[i])));
      for (const { index, result } of out) store(index, result);
    }
  };
  /** The calling thread: side work first, then one unit at a time, yielding so worker replies get handled. */
  const onMain = async (): Promise<void> => {
    options.sideWork?.();
    while (!failed && next < work.length) {
      for (const i of work[next++]) {
        const r = buildResource(jobs[i], options.encode);
        if (options.writeDir !== undefined) writeResource(options.writeDir, r, options.sha256);
        store(i, r);
      }
      if (workers) await new Promise((r) => setImmediate(r));
    }
  };
  // Each worker gets UNITS_IN_FLIGHT lanes: its next unit is already queued when it finishes one, instead of
  // waiting for the main thread to finish its own unit and handle the reply.
  const workerLanes = Array.from({ length: workers * UNITS_IN_FLIGHT }, (_, k) => onWorker(k % workers, k >= workers));
  const lanes = [...workerLanes, onMain()].map((p) =>
    p.catch((e: Error) => {
      failed = true;
      throw e;
    }),
  );
  await Promise.all(lanes);
  return results;
}

/**
 * The job's array buffers, each once, when the view covers its whole buffer (transfer, don't copy). Shared memory
 * is never in the list (it is shared as it is); a planned cell group's sources are the objects' arrays, which
 * must stay usable, so they are not either.
 */
function transferList(job: ResourceJob): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>();
  for (const g of job.groups) {
    if (isPlanned(g) || isNative(g)) continue;
    for (const a of [g.positions, g.indices]) {
      if (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer) seen.add(a.buffer);
    }
  }
  return [...seen];
}

/** Files a thread takes at a time in runPatches (~100 KB each: a message per ~3 MB). */
const PATCH_UNIT = 32;

/**
 * The seams step's patches spread over the pool's workers and the calling thread (each a read-back, a write of
 * the changed span and the file's sums: I/O and hashing that scale with the output, which one thread did alone),
 * results in item order. `threads` counts the calling thread (the encode stage's count); without a pool, all on
 * the calling thread. `packOf(unit)`: the cache pack a work unit (numbered in the order taken) appends its
 * toCache items to (src/build/cache.ts unitPack; undefined: none, they are only hashed).
 */
export async function runPatches(items: PatchItem[], pool: ThreadPool | undefined, threads: number, onDone?: (done: number, total: number) => void, packOf?: (unit: number) => string | undefined): Promise<PatchResult[]> {
  const out: PatchResult[] = new Array(items.length);
  const workers = Math.max(0, Math.min(pool?.workers.length ?? 0, threads - 1, Math.ceil(items.length / PATCH_UNIT) - 1));
  let next = 0;
  let units = 0;
  let done = 0;
  let failed = false;
  const take = (): { at: number[]; pack?: string } | undefined => {
    if (failed || next >= items.length) return undefined;
    const from = next;
    next = Math.min(items.length, next + PATCH_UNIT);
    const at = Array.from({ length: next - from }, (_, k) => from + k);
    return { at, pack: packOf && at.some((i) => items[i].toCache) ? packOf(units++) : undefined };
  };
  const onWorker = async (w: number): Promise<void> => {
    for (let unit = take(); unit; unit = take()) {
      const got = await pool!.patch(w, unit.at.map((i) => items[i]), unit.pack);
      unit.at.forEach((i, k) => (out[i] = got[k]));
      onDone?.((done += unit.at.length), items.length);
    }
  };
  const onMain = async (): Promise<void> => {
    for (let unit = take(); unit; unit = take()) {
      patchUnit(unit.at.map((i) => items[i]), unit.pack).forEach((r, k) => (out[unit.at[k]] = r));
      onDone?.((done += unit.at.length), items.length);
      if (workers) await new Promise((r) => setImmediate(r)); // take in the workers' replies
    }
  };
  const lanes = [...Array.from({ length: workers }, (_, w) => onWorker(w)), onMain()].map((p) =>
    p.catch((e: Error) => {
      failed = true;
      throw e;
    }),
  );
  await Promise.all(lanes);
  return out;
}

