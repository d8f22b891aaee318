// Worker thread of the ride (threads.ts): builds the world with the main thread (world-files.ts: counts, then
// writes, the files it claims, into shared memory), then, given the world, runs ride steps (index.ts rider().step)
// and sends their results back. Messages are handled in the order sent; an error is sent back as a message.
import { parentPort } from 'node:worker_threads';
import { ReadBuffer } from '../files.ts';
import type { RideOptions, StepResult } from './index.ts';
import { countPass, writePass, type FileFaces, type WorldShare } from './world-files.ts';
import type { FaceArrays, RideWorld } from './world.ts';

export type RideRequest =
  | { kind: 'count'; share: WorldShare }
  | { kind: 'write'; share: WorldShare; at: Int32Array; arrays: FaceArrays }
  | { kind: 'world'; world: RideWorld; options: Partial<RideOptions> }
  | { kind: 'steps'; from: number; steps: Float64Array };

export type RideReply =
  | { kind: 'counted' }
  | { kind: 'written'; files: FileFaces[] }
  | { kind: 'steps'; from: number; results: StepResult[] }
  | { kind: 'error'; message: string };

let step: ((steps: Float64Array, i: number) => StepResult) | undefined;

/** The buffer this thread reads files into (world-files.ts): one for all its files. */
const into = new ReadBuffer();

async function handle(m: RideRequest): Promise<void> {
  if (m.kind === 'count') {
    countPass(m.share, into);
    parentPort!.postMessage({ kind: 'counted' } satisfies RideReply);
  } else if (m.kind === 'write') {
    parentPort!.postMessage({ kind: 'written', files: writePass(m.share, m.at, m.arrays, into) } satisfies RideReply);
  } else if (m.kind === 'world') {
    // Loaded only to ride (a build-only worker never compiles the ride's modules).
    const { rider } = await import('./index.ts');
    step = rider(m.world, m.options).step;
  } else {
    const results: StepResult[] = [];
    for (let i = 0; i < m.steps.length / 4; i++) results.push(step!(m.steps, i));
    parentPort!.postMessage({ kind: 'steps', from: m.from, results } satisfies RideReply);
  }
}

// One message at a time, in order (the world's `import` is awaited before the steps that need it).
let queue = Promise.resolve();
parentPort!.on('message', (m: RideRequest) => {
  queue = queue.then(() => handle(m)).catch((e: unknown) => {
    parentPort!.postMessage({ kind: 'error', message: (e as Error).stack ?? String(e) } satisfies RideReply);
  });
});
