// Runs resource jobs on the main thread or on worker threads. Jobs are independent and each result is stored at
// its job's index, so the output is the same for any worker count; workers only change the wall time.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildResource, type BuiltResource, type EncodeOptions, type ResourceJob } from './build.ts';

export interface PoolOptions {
  /** Worker threads; 0 or 1 = build on the calling thread. */
  workers: number;
  encode?: EncodeOptions;
  onDone?: (done: number, total: number) => void;
}

/**
 * Workers pay off only when there is enough work to hide their start-up (~150 ms each, loading tsx and the
 * encoder): one worker per WORK_PER_WORKER triangles, at most one per core, at most one per job.
 */
export const WORK_PER_WORKER = 150_000;

export function autoWorkers(jobs: ResourceJob[]): number {
  const triangles = jobs.reduce((s, j) => s + j.groups.reduce((t, g) => t + g.indices.length / 3, 0), 0);
  return Math.max(1, Math.min(availableParallelism(), jobs.length, Math.floor(triangles / WORK_PER_WORKER)));
}

export async function runJobs(jobs: ResourceJob[], options: PoolOptions): Promise<BuiltResource[]> {
  const n = Math.min(options.workers, jobs.length);
  if (n <= 1) {
    return jobs.map((job, i) => {
      const r = buildResource(job, options.encode);
      options.onDone?.(i + 1, jobs.length);
      return r;
    });
  }
  const workers = await Promise.all(Array.from({ length: n }, spawnWorker));
  return runOnWorkers(jobs, workers, options);
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

function runOnWorkers(jobs: ResourceJob[], workers: Worker[], options: PoolOptions): Promise<BuiltResource[]> {
  const results: BuiltResource[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  return new Promise<BuiltResource[]>((resolve, reject) => {
    let failed = false;
    const finish = (err?: Error): void => {
      if (failed) return;
      if (err) failed = true;
      for (const w of workers) void w.terminate();
      if (err) reject(err);
      else resolve(results);
    };
    const feed = (w: Worker): void => {
      if (next >= jobs.length) return;
      const i = next++;
      w.postMessage({ index: i, job: jobs[i], encode: options.encode }, transferList(jobs[i]));
    };
    for (const w of workers) {
      w.on('message', (msg: { index: number; result?: BuiltResource; error?: string }) => {
        if (msg.error !== undefined) return finish(new Error(msg.error));
        results[msg.index] = msg.result!;
        options.onDone?.(++done, jobs.length);
        if (done === jobs.length) return finish();
        feed(w);
      });
      w.on('error', (e) => finish(new Error(`worker: ${e.message}`)));
      w.on('exit', (code) => {
        if (code !== 0 && done < jobs.length) finish(new Error(`worker: exited with code ${code}`));
      });
      feed(w);
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
