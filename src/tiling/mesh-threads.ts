// One large mesh encoded on several threads: the weld and the split run on the calling thread
// (src/geometry/pieces.ts, planPieces), then the calling thread and the pool's workers take pieces in turn, and
// the results are merged in piece order. Pieces are independent and stored at their index, so the shapes, their
// order and the stats equal encodeMeshShapes's for any thread count (test/tiling/mesh-threads.test.ts); threads
// only change the wall time. Worth it above a couple of pieces (21,845 faces each) in a warm process: a piece is
// ~10–30 ms of work, a message a fraction of a millisecond (bench-cook, 1M terrain: 972 ms on 2 threads against
// 1,378 on one).
//
// Design log: wired into the compiler (a job with a group of three or more shapes' worth of faces spread over the
// pool; a lone large job counting as its pieces for the thread count) and measured with compile-collision on one
// terrain object, fresh process, 2 cores, 3 alternating runs: 400k triangles encode 1.08–1.18 s on 1 thread
// against 1.38–1.44 s on 2; 1M 2.04–2.20 against 2.06–2.49 s (output identical). The worker's pieces queue behind
// its validation work and run before its JIT has caught up, so the compiler keeps a job on one thread.
// Measured again 2026-12-01 with the encoder in WebAssembly (the same wiring re-applied, 2-core Xeon VM, 3
// alternating runs): 405k-triangle terrain encode 475–541 ms on 1 thread against 483–503 on 2; 980k 1,141–1,440
// against 1,159–1,287. No clear gain (the worker still validates the object while the main thread welds and
// splits), so it stays off; a first encode with TurboFan at once (--no-liftoff) measured no faster either.

import { encodePieceInput, mergePieces, planPieces, type PieceInput, type PieceResult } from '../geometry/pieces.ts';
import type { EncodeOptions, EncodeStats, EncodedPiece } from '../geometry/encode.ts';
import type { ThreadPool } from './pool.ts';

/**
 * Pieces sent to a worker before its previous one comes back: the calling thread handles replies only between
 * its own pieces, so with one in flight a worker would idle for up to a piece after each of its own.
 */
export const PIECES_IN_FLIGHT = 2;

/** The worker side of a 'piece' request: the encoded piece and the buffers to transfer back (each once). */
export function pieceReply(input: PieceInput): { result: PieceResult; transfer: ArrayBuffer[] } {
  const result = encodePieceInput(input);
  const buffers = new Set<ArrayBuffer>();
  if (result.piece) {
    for (const v of Object.values(result.piece.shape)) {
      if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer) buffers.add(v.buffer);
    }
    for (const v of Object.values(result.piece.open)) buffers.add(v.buffer as ArrayBuffer);
  }
  return { result, transfer: [...buffers] };
}

/**
 * encodeMeshShapes on the calling thread plus up to `threads − 1` of the pool's workers (none: all on the calling
 * thread). The input arrays are only read.
 */
export async function encodeMeshShapesOnThreads(
  positions: Float32Array | Float64Array,
  indices: Uint32Array,
  options: Partial<EncodeOptions>,
  pool: ThreadPool | undefined,
  threads: number,
): Promise<{ pieces: EncodedPiece[]; stats: EncodeStats }> {
  const plan = planPieces(positions, indices, options);
  const n = plan.pieces.length;
  const workers = Math.max(0, Math.min(pool?.workers.length ?? 0, threads - 1, n - 1));
  const results: PieceResult[] = new Array(n);
  let next = 0;
  let failed = false; // a failed piece stops every lane from taking more
  const onWorker = async (w: number): Promise<void> => {
    while (!failed && next < n) {
      const i = next++;
      const input = plan.pieces[i];
      results[i] = await pool!.call<PieceResult>(w, { kind: 'piece', input }, [input.positions.buffer as ArrayBuffer, input.triangles.buffer as ArrayBuffer]);
    }
  };
  const onMain = async (): Promise<void> => {
    while (!failed && next < n) {
      const i = next++;
      results[i] = encodePieceInput(plan.pieces[i]);
      if (workers) await new Promise((r) => setImmediate(r)); // let worker replies in, so their next piece goes out
    }
  };
  const lanes = Array.from({ length: workers * PIECES_IN_FLIGHT }, (_, k) => onWorker(k % workers));
  await Promise.all(
    [...lanes, onMain()].map((p) =>
      p.catch((e: Error) => {
        failed = true;
        throw e;
      }),
    ),
  );
  return mergePieces(plan, results);
}
