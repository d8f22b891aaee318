// Runs resource jobs on the calling thread and on worker threads together. Jobs are independent and each result is
// stored at its job's index, so the output is the same for any thread count; threads only change the wall time.
// The calling thread first does `sideWork` (the validation report) while the workers start encoding, then takes
// jobs itself: with 2 cores, one worker plus the main thread keeps both busy.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildResource, type BuiltResource, type EncodeOptions, type ResourceJob } from './build.ts';

export interface PoolOptions {
  /** Encoding threads including the calling thread: 1 = calling thread only. */
  threads: number;
  encode?: EncodeOptions;
  /** Workers already starting (see startWorkers); extra ones are terminated, missing ones spawned. */
  pool?: Promise<Worker[]>;
  /** Run on the calling thread once the workers have their first jobs. */
  sideWork?: () => void;
  onDone?: (done: number, total: number) => void;
}

/** Triangles a thread must have to pay for a worker's start-up (~100 ms: spawn, bundle eval, cold JIT). */
export const WORK_PER_THREAD = 100_000;

/** Encoding threads for these jobs: one per WORK_PER_THREAD triangles, at most one per core and one per job. */
export function autoThreads(jobs: ResourceJob[]): number {
  const triangles = jobs.reduce((s, j) => s + j.groups.reduce((t, g) => t + g.indices.length / 3, 0), 0);
  return Math.max(1, Math.min(availableParallelism(), jobs.length, Math.ceil(triangles / WORK_PER_THREAD)));
}

/**
 * Worker code: worker.ts and what it imports (encoder, codec), bundled once per process by esbuild (tsx's own
 * transpiler) into one CommonJS string run with `eval`. Loading TypeScript through tsx inside each worker costs
 * over a second per worker (an esbuild service each); the bundle starts in tens of milliseconds.
 * Without esbuild (it ships with tsx, but is not our direct dependency) workers fall back to worker-boot.mjs.
 */
let bundle: Promise<string | undefined> | undefined;

function workerBundle(): Promise<string | undefined> {
  bundle ??= (async () => {
    try {
      const esbuild = await import('esbuild');
      const out = await esbuild.build({
        entryPoints: [fileURLToPath(new URL('./worker.ts', import.meta.url))],
        bundle: true, format: 'cjs', platform: 'node', target: 'node20', write: false, logLevel: 'silent',
      });
      return out.outputFiles[0].text;
    } catch {
      return undefined;
    }
  })();
  return bundle;
}

async function spawnWorker(): Promise<Worker> {
  const code = await workerBundle();
  if (code !== undefined) return new Worker(code, { eval: true });
  return new Worker(new URL('./worker-boot.mjs', import.meta.url), { workerData: { entry: new URL('./worker.ts', import.meta.url).href } });
}

/** Starts `n` workers now (their start-up overlaps the import); hand the promise to runJobs. */
export function startWorkers(n: number): Promise<Worker[]> {
  return Promise.all(Array.from({ length: Math.max(0, n) }, spawnWorker));
}

export async function stopWorkers(pool: Promise<Worker[]> | undefined): Promise<void> {
  if (pool) await Promise.all((await pool.catch(() => [])).map((w) => w.terminate()));
}

export async function runJobs(jobs: ResourceJob[], options: PoolOptions): Promise<BuiltResource[]> {
  const want = Math.min(options.threads, jobs.length) - 1;
  let workers = options.pool ? await options.pool : [];
  for (const w of workers.slice(Math.max(0, want))) void w.terminate();
  workers = workers.slice(0, Math.max(0, want));
  if (workers.length < want) workers.push(...(await startWorkers(want - workers.length)));
  try {
    return await runOnThreads(jobs, workers, options);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** Jobs travel in units of consecutive jobs holding about this many triangles (fewer, larger messages). */
export const UNIT_TRIANGLES = 25_000;

function units(jobs: ResourceJob[]): number[][] {
  const out: number[][] = [];
  let cur: number[] = [];
  let size = 0;
  jobs.forEach((job, i) => {
    cur.push(i);
    size += job.groups.reduce((t, g) => t + g.indices.length / 3, 0);
    if (size >= UNIT_TRIANGLES) {
      out.push(cur);
      cur = [];
      size = 0;
    }
  });
  if (cur.length) out.push(cur);
  return out;
}

function runOnThreads(jobs: ResourceJob[], workers: Worker[], options: PoolOptions): Promise<BuiltResource[]> {
  const results: BuiltResource[] = new Array(jobs.length);
  const work = units(jobs);
  let next = 0;
  let done = 0;
  return new Promise<BuiltResource[]>((resolve, reject) => {
    let settled = false;
    const fail = (e: Error): void => {
      if (!settled) (settled = true), reject(e);
    };
    const store = (i: number, r: BuiltResource): void => {
      results[i] = r;
      options.onDone?.(++done, jobs.length);
      if (done === jobs.length && !settled) (settled = true), resolve(results);
    };
    const feed = (w: Worker): void => {
      if (settled || next >= work.length) return;
      const unit = work[next++];
      const batch = unit.map((i) => ({ index: i, job: jobs[i] }));
      w.postMessage({ batch, encode: options.encode }, unit.flatMap((i) => transferList(jobs[i])));
    };
    for (const w of workers) {
      w.on('message', (msg: { results?: { index: number; result: BuiltResource }[]; error?: string }) => {
        if (msg.error !== undefined) return fail(new Error(msg.error));
        for (const { index, result } of msg.results!) store(index, result);
        feed(w);
      });
      w.on('error', (e) => fail(new Error(`worker: ${e.message}`)));
      w.on('exit', (code) => {
        if (code !== 0 && done < jobs.length) fail(new Error(`worker: exited with code ${code}`));
      });
      feed(w);
    }
    void mainThread();

    /** The calling thread: side work first, then one unit at a time, yielding so worker messages get handled. */
    async function mainThread(): Promise<void> {
      try {
        options.sideWork?.();
        while (!settled && next < work.length) {
          for (const i of work[next++]) store(i, buildResource(jobs[i], options.encode));
          if (workers.length) await new Promise((r) => setImmediate(r));
        }
      } catch (e) {
        fail(e as Error);
      }
    }
  });
}

/** The job's array buffers, each once, when the view covers its whole buffer (transfer, don't copy). */
function transferList(job: ResourceJob): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>();
  for (const g of job.groups) {
    for (const a of [g.positions, g.indices]) {
      if (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer) seen.add(a.buffer);
    }
  }
  return [...seen];
}
