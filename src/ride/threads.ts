// The ride on worker threads (ride-worker.ts): the files are verified and read into faces on the workers while the
// main thread reads the next files' bytes and adds the faces in file order; the world is built on shared memory,
// and the ride's steps (index.ts: a seam crossing or a lane ride each) run on the workers in chunks while the main
// thread plans and merges them in step order (RideMerge). The report is the one rideWorld gives on one thread, for
// any worker count: the same faces in the same order, the same steps, applied in the same order.
import { execArgv } from 'node:process';
import { Worker } from 'node:worker_threads';
import type { Finding } from '../format/verify.ts';
import { workerFlags } from '../tiling/pool.ts';
import { RideMerge, rider, type RideOptions, type RideReport, type StepResult } from './index.ts';
import type { RideReply, RideRequest } from './ride-worker.ts';
import { capacityForBytes, WorldBuilder, type RideWorld } from './world.ts';

/** Files a worker holds at a time (sent, not yet back): bounds the bytes in flight. */
const FILES_IN_FLIGHT = 3;
/** Steps a message carries (a crossing is 12 rides, a lane step one), and messages a worker holds at a time. */
const STEPS_PER_MESSAGE = 12;
const MESSAGES_IN_FLIGHT = 2;

/** A file to ride: its name in the report, its size (bytes, for the world's first capacity), and its bytes. */
export interface RideSource {
  name: string;
  size: number;
  read: () => { bytes: Uint8Array } | { error: string };
}

/** The world, or the first source (in order) that could not be read (`error`) or that verify refused (`refused`). */
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
  constructor(count: number) {
    this.workers = Array.from({ length: Math.max(1, count) }, spawn);
    this.workers.forEach((w, k) => {
      w.on('message', (m: RideReply) => (m.kind === 'error' ? this.onError(new Error(`ride worker: ${m.message}`)) : this.onReply(k, m)));
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
  /** Reads, verifies and adds the sources' faces in order (see the file header); stops at the first that fails. */
  readWorld(sources: RideSource[]): Promise<WorldRead> {
    const capacity = capacityForBytes(sources.reduce((s, f) => s + f.size, 0));
    const builder = new WorldBuilder(capacity.faces, true, capacity.vertices);
    const back = new Map<number, Extract<RideReply, { kind: 'file' }>>();
    const held = this.workers.map(() => 0);
    /** The worker each file's faces came from. */
    const from = new Map<number, number>();
    let next = 0, sent = 0, end = sources.length;
    let failed: { index: number; error: string } | undefined;
    return new Promise<WorldRead>((resolve, reject) => {
      let done = false;
      const finish = (r: WorldRead): void => {
        done = true;
        resolve(r);
      };
      const pump = (): void => {
        if (done) return;
        for (let r = back.get(next); r; r = back.get(next)) {
          back.delete(next);
          if ('refused' in r) return finish({ index: next, refused: r.refused });
          builder.addFaces(sources[next].name, r.written, r.arrays, r.runs, r.lo, r.hi);
          // Its arrays back to the worker that wrote them, for a later file (ride-worker.ts: no garbage here).
          const arrays = r.arrays;
          this.post(from.get(next)!, { kind: 'recycle', arrays }, Object.values(arrays).map((a) => a.buffer as ArrayBuffer));
          from.delete(next);
          next++;
        }
        if (failed && next === failed.index) return finish(failed);
        if (next === sources.length) return finish({ world: builder.finish() });
        for (let k = 0; k < held.length; k++) {
          while (held[k] < FILES_IN_FLIGHT && sent < end) {
            const read = sources[sent].read();
            if ('error' in read) {
              failed = { index: sent, error: read.error };
              end = sent;
              if (next === sent) return finish(failed);
              break;
            }
            // Transferred when the bytes have a buffer of their own, else copied (a pooled Buffer's slab stays here).
            const own = read.bytes.byteOffset === 0 && read.bytes.byteLength === read.bytes.buffer.byteLength && read.bytes.buffer instanceof ArrayBuffer;
            const bytes = own ? read.bytes : read.bytes.slice();
            this.post(k, { kind: 'file', index: sent, name: sources[sent].name, bytes }, [bytes.buffer as ArrayBuffer]);
            held[k]++;
            sent++;
          }
        }
      };
      this.onError = (e) => {
        done = true;
        reject(e);
      };
      this.onReply = (k, m) => {
        if (m.kind !== 'file') return;
        held[k]--;
        from.set(m.index, k);
        back.set(m.index, m);
        pump();
      };
      pump();
    });
  }
  /** Rides the world (built by readWorld: on shared memory) with the workers; the report rideWorld gives. */
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
