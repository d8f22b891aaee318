// One mesh on several threads (src/tiling/mesh-threads.ts): the same shapes (byte for byte, in order) and stats as
// encodeMeshShapes on the calling thread, for 1, 2 and 3 threads, with and without a pool; errors carry through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeMeshShapes } from '../../src/geometry/encode.ts';
import { writePhysicsResource } from '../../src/format/resource.ts';
import { encodeResource } from '../../src/geometry/resource.ts';
import type { EncodedPiece } from '../../src/geometry/encode.ts';
import { encodeMeshShapesOnThreads } from '../../src/tiling/mesh-threads.ts';
import { ThreadPool } from '../../src/tiling/pool.ts';
import { bumpyGrid, concat, degenerateMesh, seamSplitGrid, translate } from '../fixtures/meshes.ts';

/** The pieces' shapes laid out as one resource's bytes: compares every field of every shape at once. */
function bytesOf(pieces: EncodedPiece[]): Buffer {
  const { resource } = encodeResource([]);
  resource.shapes = pieces.map((p) => p.shape);
  return Buffer.from(writePhysicsResource(resource));
}

let pool: ThreadPool;
beforeAll(async () => {
  pool = await ThreadPool.start(2);
});
afterAll(async () => {
  await pool.close();
});

describe('encodeMeshShapesOnThreads', () => {
  const m = concat(bumpyGrid(5000), translate(seamSplitGrid(30, 20), [60, 0.5, -10]), degenerateMesh());

  it('equals encodeMeshShapes for 1, 2 and 3 threads (many pieces)', async () => {
    const whole = encodeMeshShapes(m.positions, m.indices, { maxFaces: 700 });
    expect(whole.pieces.length).toBeGreaterThan(8);
    const want = bytesOf(whole.pieces);
    for (const threads of [1, 2, 3]) {
      const got = await encodeMeshShapesOnThreads(m.positions, m.indices, { maxFaces: 700 }, pool, threads);
      expect(got.stats, `${threads} threads`).toEqual(whole.stats);
      expect(got.pieces.map((p) => p.centre)).toEqual(whole.pieces.map((p) => p.centre));
      expect(bytesOf(got.pieces).equals(want), `${threads} threads`).toBe(true);
    }
    const alone = await encodeMeshShapesOnThreads(m.positions, m.indices, { maxFaces: 700 }, undefined, 4);
    expect(bytesOf(alone.pieces).equals(want)).toBe(true);
  });

  it('leaves the input arrays as they were (pieces are copies, sent by transfer)', async () => {
    const p = m.positions.slice(), i = m.indices.slice();
    await encodeMeshShapesOnThreads(p, i, { maxFaces: 700 }, pool, 3);
    expect(Buffer.from(p.buffer).equals(Buffer.from(m.positions.buffer))).toBe(true);
    expect(Buffer.from(i.buffer).equals(Buffer.from(m.indices.buffer))).toBe(true);
  });

  it('throws for bad input before any piece is sent', async () => {
    await expect(encodeMeshShapesOnThreads(m.positions, new Uint32Array([0, 1, 1e6]), {}, pool, 3)).rejects.toThrow(/index 1000000/);
  });
});
