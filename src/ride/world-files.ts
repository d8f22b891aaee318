// The ride's world read from .physics files on several threads at once (threads.ts starts them; the main thread is
// one of them), the world the single-thread build gives, array for array, written where it lies: no copies.
//
// Two passes over the files, each thread claiming the next file with Atomics.add on one shared counter (a thread
// that comes up late, or is slow, takes fewer):
//   1. count: each file read (into the thread's reused buffer) and parsed, its faces and vertices counted exactly as
//      writeFaces will write them (countFaces);
//   2. write: the main thread has summed the counts into each file's first face and vertex and allocated the world's
//      arrays on shared memory at their exact size; each file is read again, verified (nothing of it is trusted until
//      checked: the first pass only counted), its counts checked against the first pass's (a file that changed in
//      between stops the build before anything is written past its slot), and its faces written at its place.
// A thread that finds a file it cannot use marks the lowest such file (`failed`): files past it are skipped, files
// before it still run, so the first failing file in file order is known at the end. Why it failed is worked out
// again on the main thread (readRideFile: the single-thread build's own words).
import { ReadBuffer, readPhysicsBytes } from '../files.ts';
import { readResourceOutline } from '../format/resource.ts';
import type { PhysicsResource } from '../format/types.ts';
import { verifyAndRead, type Finding } from '../format/verify.ts';
import { wasmShapeClean } from '../geometry/verify-wasm.ts';
import { countFaces, writeFaces, type FaceArrays } from './world.ts';

/** A file read and verified for the ride, or why not: it cannot be read (`error`, in words) or verify refused it. */
export type RideFileRead = { resource: PhysicsResource } | { error: string } | { refused: Finding[] };

/** Reads `file` (into `into`: the resource's arrays are views of it, valid until its next read) and verifies it. */
export function readRideFile(file: string, into?: ReadBuffer): RideFileRead {
  const read = readPhysicsBytes(file, into);
  if ('error' in read) return read;
  // The resource verify read is the one ridden: the file is parsed once.
  const { findings, resource } = verifyAndRead(read.bytes, file, { fast: wasmShapeClean });
  return findings.length || !resource ? { refused: findings } : { resource };
}

/** Slots of WorldShare.state. */
export const NEXT_COUNT = 0, NEXT_WRITE = 1, DONE_COUNT = 2, DONE_WRITE = 3, FAILED = 4, STATE_SLOTS = 5;

/** What the threads of one build share (posted to each worker; the arrays are on SharedArrayBuffers). */
export interface WorldShare {
  /** The files, in the world's order (their index is their resource's in the world's runs and names). */
  files: string[];
  /** NEXT_COUNT, NEXT_WRITE: the next file to claim in each pass; DONE_*: files finished (or skipped) in each; FAILED: the first file that failed (files.length: none). */
  state: Int32Array;
  /** Per file, from the first pass: its faces and vertices (2 entries a file). */
  counts: Int32Array;
}

/** A WorldShare for `files` on fresh shared memory. */
export function worldShare(files: string[]): WorldShare {
  const state = new Int32Array(new SharedArrayBuffer(4 * STATE_SLOTS));
  state[FAILED] = files.length;
  return { files, state, counts: new Int32Array(new SharedArrayBuffer(8 * Math.max(1, files.length))) };
}

/** Lowers FAILED to file i (when it is lower). */
function fail(state: Int32Array, i: number): void {
  for (let seen = Atomics.load(state, FAILED); i < seen; ) {
    const was = Atomics.compareExchange(state, FAILED, seen, i);
    if (was === seen) return;
    seen = was;
  }
}

/**
 * The first pass on this thread: claims files until none are left, and counts each one's faces and vertices into
 * share.counts; a file that cannot be read or parsed is marked failed. Returns the files it claimed.
 */
export function countPass(share: WorldShare, into: ReadBuffer): number {
  const { files, state, counts } = share;
  let claimed = 0;
  for (let i = Atomics.add(state, NEXT_COUNT, 1); i < files.length; i = Atomics.add(state, NEXT_COUNT, 1)) {
    claimed++;
    try {
      if (i >= Atomics.load(state, FAILED)) continue;
      const read = readPhysicsBytes(files[i], into);
      if ('error' in read) {
        fail(state, i);
        continue;
      }
      // Its parts and face arrays only: verify runs in the second pass, on the bytes that are written.
      const c = countFaces(readResourceOutline(read.bytes));
      counts[2 * i] = c.faces;
      counts[2 * i + 1] = c.vertices;
    } catch {
      fail(state, i); // why: the main thread reads it again (readRideFile)
    } finally {
      Atomics.add(state, DONE_COUNT, 1);
    }
  }
  return claimed;
}

/**
 * Where each file's faces and vertices start (first face at[2i], first vertex at[2i + 1]; the totals at the end),
 * or undefined past 2³¹ − 1 of either (a world of ~50 GB). Small integers: writeFaces' indices stay integers (from a
 * Float64Array they were doubles, and its loops ~2× slower).
 */
export function fileOffsets(share: WorldShare): Int32Array | undefined {
  const n = share.files.length, c = share.counts;
  const at = new Int32Array(new SharedArrayBuffer(8 * (n + 1)));
  let faces = 0, vertices = 0;
  for (let i = 0; i < n; i++) {
    faces += c[2 * i];
    vertices += c[2 * i + 1];
    if (faces > 0x7fffffff || vertices > 0x7fffffff) return undefined;
    at[2 * i + 2] = faces;
    at[2 * i + 3] = vertices;
  }
  return at;
}

/** What writing one file's faces gave besides them: its runs (writeFaces'), and its bounds. */
export interface FileFaces {
  index: number;
  runs: number[];
  lo: number[];
  hi: number[];
}

/**
 * The second pass on this thread: claims files until none are left (or past the first failed one), reads and
 * verifies each and writes its faces into `a` at its offsets (`at`, fileOffsets). A file verify refuses, or whose
 * counts are not the first pass's, is marked failed and nothing of it is written.
 */
export function writePass(share: WorldShare, at: Int32Array, a: FaceArrays, into: ReadBuffer): FileFaces[] {
  const { files, state, counts } = share;
  const out: FileFaces[] = [];
  for (let i = Atomics.add(state, NEXT_WRITE, 1); i < files.length; i = Atomics.add(state, NEXT_WRITE, 1)) {
    try {
      if (i >= Atomics.load(state, FAILED)) continue;
      const read = readRideFile(files[i], into);
      if (!('resource' in read)) {
        fail(state, i);
        continue;
      }
      const c = countFaces(read.resource);
      if (c.faces !== counts[2 * i] || c.vertices !== counts[2 * i + 1]) {
        fail(state, i); // changed since the first pass: its slot is not its size
        continue;
      }
      const f: FileFaces = { index: i, runs: [], lo: [Infinity, Infinity, Infinity], hi: [-Infinity, -Infinity, -Infinity] };
      writeFaces(read.resource, i, a, { faces: at[2 * i], vertices: at[2 * i + 1] }, f.lo, f.hi, f.runs);
      out.push(f);
    } catch {
      fail(state, i);
    } finally {
      Atomics.add(state, DONE_WRITE, 1);
    }
  }
  return out;
}
