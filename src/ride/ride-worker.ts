// Worker thread of the ride (threads.ts): verifies and reads files' bytes into world faces (sent back for the world
// the main thread builds), then, given that world (shared memory), runs ride steps (index.ts rider().step) and
// sends their results back. Messages are handled in the order sent; an error is sent back as a message.
import { parentPort } from 'node:worker_threads';
import { verifyAndRead } from '../format/verify.ts';
import { rider, type RideOptions, type StepResult } from './index.ts';
import { faceArrays, resourceFaces, writeFaces, type RideWorld } from './world.ts';

export type RideRequest =
  | { kind: 'file'; index: number; name: string; bytes: Uint8Array }
  | { kind: 'world'; world: RideWorld; options: Partial<RideOptions> }
  | { kind: 'steps'; from: number; steps: Float64Array };

export type RideReply =
  | { kind: 'file'; index: number; refused: import('../format/verify.ts').Finding[] }
  | { kind: 'file'; index: number; faces: number; arrays: ReturnType<typeof faceArrays>; lo: number[]; hi: number[] }
  | { kind: 'steps'; from: number; results: StepResult[] }
  | { kind: 'error'; message: string };

let step: ((steps: Float64Array, i: number) => StepResult) | undefined;

function handle(m: RideRequest): void {
  if (m.kind === 'file') {
    const { findings, resource } = verifyAndRead(m.bytes, m.name);
    if (findings.length || !resource) {
      parentPort!.postMessage({ kind: 'file', index: m.index, refused: findings } satisfies RideReply);
      return;
    }
    const arrays = faceArrays(resourceFaces(resource));
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    const faces = writeFaces(resource, 0, arrays, 0, lo, hi);
    const transfer = Object.values(arrays).map((a) => a.buffer as ArrayBuffer);
    parentPort!.postMessage({ kind: 'file', index: m.index, faces, arrays, lo, hi } satisfies RideReply, transfer);
  } else if (m.kind === 'world') {
    step = rider(m.world, m.options).step;
  } else {
    const results: StepResult[] = [];
    for (let i = 0; i < m.steps.length / 4; i++) results.push(step!(m.steps, i));
    parentPort!.postMessage({ kind: 'steps', from: m.from, results } satisfies RideReply);
  }
}

parentPort!.on('message', (m: RideRequest) => {
  try {
    handle(m);
  } catch (e) {
    parentPort!.postMessage({ kind: 'error', message: (e as Error).stack ?? String(e) } satisfies RideReply);
  }
});
