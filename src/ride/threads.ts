// The ride on worker threads (ride-worker.ts) beside the main thread: the world is built from the files by all of them
// at once, straight into shared memory (world-files.ts: two passes, files claimed from one shared counter), and the
// ride's steps (index.ts: a seam crossing or a lane ride each) run on the workers in chunks while the main thread
// plans and merges them in step order (RideMerge). The report is the one rideWorld gives on one thread, for any
// worker count: the same faces in the same order, the same steps, applied in the same order.
import { execArgv } from 'node:process';
import { Worker } from 'node:worker_threads';
import type { Finding } from '../format/verify.ts';
import { workerFlags } from '../tiling/pool.ts';
import { RideMerge, rider, type RideOptions, type RideReport, type StepResult } from './index.ts';
import type { RideReply, RideRequest } from './ride-worker.ts';
import { ReadBuffer } from '../files.ts';
import { type WorldOptions } from './grid.ts';
import { faceArrays, worldOf, type RideWorld } from './world.ts';
import { countPass, DONE_COUNT, DONE_WRITE, FAILED, fileOffsets, readRideFile, worldShare, writePass, type FileFaces } from './world-files.ts';

/** Steps a message carries (a crossing is 12 rides, a lane step one), and messages a worker holds at a time. */
const STEPS_PER_MESSAGE = 12;
const MESSAGES_IN_FLIGHT = 2;

/** The world, or the first file (in order) that could not be read (`error`), that verify refused (`refused`), or that changed while it was read. */
export type WorldRead = { world: RideWorld } | { index: number; error: string } | { index: number; refused: Finding[] };

function spawn(): Worker {
  // Compiled JavaScript (dist/src/ride/, or the compiler folder's bundle) starts the ride-worker.js beside it.
  const compiled = /\.[cm]?js$/.test(import.meta.url);
  const boot = compiled ? new URL('./ride-worker.js', import.meta.url) : new URL('../tiling/worker-boot.mjs', import.meta.url);
  const workerData = { entry: new URL('./ride-worker.ts', import.meta.url).href };
  const argv = workerFlags(execArgv);
  if (argv.length < execArgv.length) {
    try {
      return new Worker(boot, { workerData, execArgv: argv, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    } catch {
      // a flag a worker refuses when listed: inherit them all
    }
  }
  return new Worker(boot, { workerData, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
}

/** Worker threads for one ride: start, readWorld, ride, close. */
export class RideThreads {
  private readonly workers: Worker[];
  private onReply: (k: number, m: RideReply) => void = () => {};
  private onError: (e: Error) => void = () => {};
  private onWritten: (f: FileFaces) => void = () => {};
  constructor(count: number) {
    this.workers = Array.from({ length: Math.max(1, count) }, spawn);
    this.workers.forEach((w, k) => {
      w.on('message', (m: RideReply) => {
        if (m.kind === 'error') this.onError(new Error(`ride worker: ${m.message}`));
        else {
          if (m.kind === 'written') for (const f of m.files) this.onWritten(f);
          this.onReply(k, m);
        }
      });
      w.on('error', (e) => this.onError(e));
      w.on('exit', (code) => code !== 0 && this.onError(new Error(`ride worker exited with code ${code}`)));
    });
  }
  get count(): number {
    return this.workers.length;
  }
  private post(k: number, m: RideRequest, transfer: ArrayBuffer[] = []): void {
    this.workers[k].postMessage(m, transfer);
  }
  /**
   * Resolves once `done()` holds, checked now and at each worker's reply (a worker replies when it has no more files
   * to claim in a pass): the main thread never blocks on a worker that has not come up yet.
   */
  private until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.onError = reject;
      this.onReply = () => {
        if (done()) resolve();
      };
    });
  }
  /**
   * The world of the files (names: their names in the report), built by this thread and the workers together
   * (world-files.ts); or the first file in file order that cannot be ridden, and why, in the single-thread build's
   * words (readRideFile, read again on this thread). `mainClaims` false: the workers alone take the files (tests).
   */
  async buildWorld(files: string[], names: string[], options: Partial<WorldOptions> = {}, mainClaims = true): Promise<WorldRead> {
    const share = worldShare(files), n = files.length, state = share.state, into = new ReadBuffer();
    for (let k = 0; k < this.workers.length; k++) this.post(k, { kind: 'count', share });
    if (mainClaims) countPass(share, into);
    await this.until(() => Atomics.load(state, DONE_COUNT) >= n);
    // A file that cannot even be counted: the files before it were not verified yet (that is the second pass), and
    // the first of them verify refuses is the one to name.
    if (Atomics.load(state, FAILED) < n) return firstFailure(files, 0, Atomics.load(state, FAILED), into);
    const at = fileOffsets(share);
    if (!at) return { index: n - 1, error: 'more faces or vertices than a world holds (2³¹ − 1)' };
    const faces = at[2 * n], vertices = at[2 * n + 1];
    const a = faceArrays(faces, vertices, true);
    const written: FileFaces[] = [];
    this.onWritten = (f) => (written[f.index] = f);
    for (let k = 0; k < this.workers.length; k++) this.post(k, { kind: 'write', share, at, arrays: a });
    if (mainClaims) for (const f of writePass(share, at, a, into)) written[f.index] = f;
    // The workers' files' runs and bounds come in their replies.
    await this.until(() => {
      const failed = Atomics.load(state, FAILED);
      if (Atomics.load(state, DONE_WRITE) < n) return false;
      for (let i = 0; i < failed; i++) if (!written[i]) return false;
      return true;
    });
    const failed = Atomics.load(state, FAILED);
    if (failed < n) return firstFailure(files, failed, failed, into);
    // Runs in file order (their faces are already where they belong), bounds merged in file order: the comparisons
    // the single-thread build makes, so the same ±0 is kept.
    const runs: number[] = [], lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const f of written) {
      for (const r of f.runs) runs.push(r);
      for (let k = 0; k < 3; k++) {
        if (f.lo[k] < lo[k]) lo[k] = f.lo[k];
        if (f.hi[k] > hi[k]) hi[k] = f.hi[k];
      }
    }
    return { world: worldOf(a, faces, vertices, runs, names, lo, hi, options, true) };
  }
  /** Rides the world (built by buildWorld: on shared memory) with the workers; the report rideWorld gives. */
  ride(world: RideWorld, options: Partial<RideOptions> = {}): Promise<RideReport> {
    const r = rider(world, options);
    for (let k = 0; k < this.workers.length; k++) this.post(k, { kind: 'world', world, options });
    const plan = r.plan();
    const merge = new RideMerge(plan, r.opt);
    const results = new Map<number, StepResult>();
    const held = this.workers.map(() => 0);
    let sent = 0;
    return new Promise<RideReport>((resolve, reject) => {
      let done = false;
      const pump = (): void => {
        if (done) return;
        let i = merge.next();
        for (let got = results.get(i); i >= 0 && got; got = results.get(i)) {
          results.delete(i);
          merge.apply(got);
          i = merge.next();
        }
        if (i < 0) {
          done = true;
          resolve(merge.finish());
          return;
        }
        sent = Math.max(sent, i);
        for (let k = 0; k < held.length; k++) {
          while (held[k] < MESSAGES_IN_FLIGHT && sent < merge.known()) {
            const to = Math.min(merge.known(), sent + STEPS_PER_MESSAGE);
            this.post(k, { kind: 'steps', from: sent, steps: merge.steps.slice(4 * sent, 4 * to) });
            held[k]++;
            sent = to;
          }
        }
      };
      this.onError = (e) => {
        done = true;
        reject(e);
      };
      this.onReply = (k, m) => {
        if (m.kind !== 'steps') return;
        held[k]--;
        m.results.forEach((s, j) => results.set(m.from + j, s));
        pump();
      };
      pump();
    });
  }
  async close(): Promise<void> {
    this.onError = () => {};
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/**
 * The build's answer when file `failed` failed in it and every file before `from` was read and verified: the first
 * file from `from` on that cannot be ridden and why, in the single-thread build's words (read again here). When
 * `failed` itself reads well now, it changed while the build read it.
 */
function firstFailure(files: string[], from: number, failed: number, into: ReadBuffer): WorldRead {
  for (let index = from; index <= failed; index++) {
    const read = readRideFile(files[index], into);
    if ('error' in read) return { index, error: read.error };
    if ('refused' in read) return { index, refused: read.refused };
  }
  return { index: failed, error: 'changed while it was read; nothing of it was ridden: ride it again' };
}
