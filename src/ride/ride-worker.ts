// Worker thread of the ride (threads.ts): verifies and reads files' bytes into world faces (sent back for the world
// the main thread builds), then, given that world (shared memory), runs ride steps (index.ts rider().step) and
// sends their results back. Messages are handled in the order sent; an error is sent back as a message.
import { parentPort } from 'node:worker_threads';
import { verifyAndRead } from '../format/verify.ts';
import { rider, type RideOptions, type StepResult } from './index.ts';
import { faceArrays, resourceFaces, resourceVertices, writeFaces, type FaceArrays, type RideWorld, type Written } from './world.ts';

export type RideRequest =
  | { kind: 'file'; index: number; name: string; bytes: Uint8Array }
  | { kind: 'world'; world: RideWorld; options: Partial<RideOptions> }
  | { kind: 'steps'; from: number; steps: Float64Array }
  /** A file's face arrays back, once their faces are in the world: written again for a later file. */
  | { kind: 'recycle'; arrays: FaceArrays };

export type RideReply =
  | { kind: 'file'; index: number; refused: import('../format/verify.ts').Finding[] }
  | { kind: 'file'; index: number; written: Written; arrays: FaceArrays; runs: number[]; lo: number[]; hi: number[] }
  | { kind: 'steps'; from: number; results: StepResult[] }
  | { kind: 'error'; message: string };

let step: ((steps: Float64Array, i: number) => StepResult) | undefined;

/**
 * Face arrays the main thread sent back: the next file's faces are written into them (writeFaces sets every entry
 * of the faces and vertices it writes), not into new ones: each file's arrays would otherwise be garbage on the
 * main thread once copied into the world, as much as the world over the 1M bench level, held until a collection
 * there.
 */
let spare: FaceArrays | undefined;

function handle(m: RideRequest): void {
  if (m.kind === 'file') {
    const { findings, resource } = verifyAndRead(m.bytes, m.name);
    if (findings.length || !resource) {
      parentPort!.postMessage({ kind: 'file', index: m.index, refused: findings } satisfies RideReply);
      return;
    }
    const faces = resourceFaces(resource), vertices = resourceVertices(resource);
    const arrays = spare && spare.corner.length >= 3 * faces && spare.vert.length >= 3 * vertices ? spare : faceArrays(faces, vertices);
    spare = undefined;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity], runs: number[] = [];
    const written = writeFaces(resource, 0, arrays, { faces: 0, vertices: 0 }, lo, hi, runs);
    const transfer = Object.values(arrays).map((a) => a.buffer as ArrayBuffer);
    parentPort!.postMessage({ kind: 'file', index: m.index, written, arrays, runs, lo, hi } satisfies RideReply, transfer);
  } else if (m.kind === 'recycle') {
    if (!spare || m.arrays.corner.length + m.arrays.vert.length > spare.corner.length + spare.vert.length) spare = m.arrays;
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
