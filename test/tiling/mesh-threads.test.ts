// One mesh on several threads (src/tiling/mesh-threads.ts): the same shapes (byte for byte, in order) and stats as
// encodeMeshShapes on the calling thread, for 1, 2 and 3 threads, with and without a pool; errors carry through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeMeshShapes } from '../../src/geometry/encode.ts';
import { writePhysicsResource } from '../../src/format/resource.ts';
import { encodeResource } from '../../src/geometry/resource.ts';
import type { EncodedPiece } from '../../src/geometry/encode.ts';
import { encodeMeshShapesOnThreads, parallelWork, spreadsOverThreads } from '../../src/tiling/mesh-threads.ts';
import { autoThreads, runJobs } from '../../src/tiling/pool.ts';
import type { ResourceJob } from '../../src/tiling/build.ts';
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

describe('runJobs with jobs spread piece by piece', () => {
  const job = (name: string, m: { positions: Float32Array; indices: Uint32Array }): ResourceJob => ({
    name, cell: null, sources: [name], groups: [{ material: 0x60, positions: m.positions.slice(), indices: m.indices.slice() }, { material: 0x20, positions: bumpyGrid(30).positions, indices: bumpyGrid(30).indices }],
  });
  const jobs = (): ResourceJob[] => [job('small', bumpyGrid(200)), job('big', bumpyGrid(5000)), job('mid', seamSplitGrid(20, 20)), job('big2', concat(bumpyGrid(3000), degenerateMesh()))];
  const encode = { maxFaces: 600 };

  it('spreads the groups of several shapes and gives the same bytes as one thread', async () => {
    expect(jobs().map((j) => spreadsOverThreads(j, encode))).toEqual([false, true, false, true]);
    const one = await runJobs(jobs(), { threads: 1, encode });
    const three = await runJobs(jobs(), { threads: 3, pool, encode });
    expect(three.map((r) => r.name)).toEqual(['small', 'big', 'mid', 'big2']);
    three.forEach((r, i) => {
      expect(r.shapes).toBe(one[i].shapes);
      expect(Buffer.from(r.bytes).equals(Buffer.from(one[i].bytes)), r.name).toBe(true);
    });
    expect(three[1].shapes).toBeGreaterThan(8);
  });

  it("reports a spread group's error as buildResource does", async () => {
    const bad = jobs();
    bad[1].groups[0].positions[7] = Infinity;
    const err = await runJobs(bad, { threads: 1, encode }).catch((e: Error) => e.message);
    await expect(runJobs(jobs().map((j, i) => (i === 1 ? bad[1] : j)), { threads: 3, pool, encode })).rejects.toThrow(err as string);
    expect(err).toMatch(/^encode: resource "big": encode: object 0 "big": weld: .*not finite/);
  });
});

describe('one large object', () => {
  const single = (): ResourceJob[] => [{ name: 'terrain', cell: null, sources: ['terrain'], groups: [{ material: 0x20, positions: bumpyGrid(5000).positions, indices: bumpyGrid(5000).indices }] }];
  const encode = { maxFaces: 600 };

  it('counts as several pieces of work, so a lone job still gets threads', () => {
    expect(parallelWork(single(), encode)).toBe(Math.ceil(bumpyGrid(5000).indices.length / 3 / 600));
    expect(parallelWork(single())).toBe(1); // under three shapes' worth at the default 21,845 faces
    expect(autoThreads(single(), 4, encode)).toBe(1); // 5,000 triangles: under one thread's worth of work
  });

  it('is encoded piece by piece on the workers, with the bytes of one thread', async () => {
    const calls: string[] = [];
    const call = pool.call.bind(pool);
    pool.call = ((w: number, m: { kind: string }, t?: ArrayBuffer[]) => (calls.push(m.kind), call(w, m, t))) as typeof pool.call;
    try {
      const [one] = await runJobs(single(), { threads: 1, encode });
      const [three] = await runJobs(single(), { threads: 3, pool, encode });
      expect(calls.filter((k) => k === 'piece').length).toBeGreaterThan(2);
      expect(calls).not.toContain('encode');
      expect(Buffer.from(three.bytes).equals(Buffer.from(one.bytes))).toBe(true);
    } finally {
      pool.call = call;
    }
  });
});
