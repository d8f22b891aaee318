import { describe, expect, it } from 'vitest';
import type { MeshGroup, ResourceJob } from '../../src/tiling/build.ts';
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freeCores, idleCores, MIN_SAMPLE_MS, runJobs, takeInReplies, ThreadPool, units, workerFlags } from '../../src/tiling/pool.ts';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { cellRuns, gatherGroup, planCells } from '../../src/tiling/cells.ts';
import { SharedArena } from '../../src/import/shared-arena.ts';

function gridJob(name: string, n: number, y: number): ResourceJob & { groups: MeshGroup[] } {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.push(i, y + 0.01 * ((i * 7 + j * 3) % 5), j);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  }
  return { name, cell: null, sources: [name], groups: [{ material: 96, positions: Float32Array.from(positions), indices: Uint32Array.from(indices) }] };
}

const jobs = (): (ResourceJob & { groups: MeshGroup[] })[] => Array.from({ length: 12 }, (_, k) => gridJob(`g${k}`, 40 + k, k));

describe('takeInReplies', () => {
  // The plan's "take in the worker's cell runs" after the import. The build starts its workers in the
  // continuation of a file stat (a poll-phase callback), and walks the scene there: a worker's replies then wait
  // for the next poll phase, which one setImmediate does not reach (it runs in the same turn's check phase).
  it('runs the handler of a reply already sent, from where the build waits', async () => {
    await stat(fileURLToPath(import.meta.url));
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker("const { parentPort, workerData } = require('node:worker_threads'); parentPort.postMessage('runs'); Atomics.store(workerData, 0, 1); Atomics.notify(workerData, 0);", { eval: true, workerData: flag });
    try {
      const got: string[] = [];
      worker.on('message', (m: string) => got.push(m));
      expect(Atomics.wait(flag, 0, 0, 10_000)).not.toBe('timed-out'); // the reply is sent (the walk is busy meanwhile)
      expect(got).toEqual([]);
      await takeInReplies();
      expect(got).toEqual(['runs']);
    } finally {
      await worker.terminate();
    }
  });
});

describe('runJobs', () => {
  it('gives the same bytes, in job order, on 1 and 3 threads', async () => {
    const one = await runJobs(jobs(), { threads: 1 });
    const three = await runJobs(jobs(), { threads: 3 });
    expect(three.map((r) => r.name)).toEqual(one.map((r) => r.name));
    three.forEach((r, i) => expect(Buffer.from(r.bytes).equals(Buffer.from(one[i].bytes))).toBe(true));
  });
  it('gathers planned cells on workers from shared memory: the bytes of the gathered meshes, on 1 and 3 threads', async () => {
    const arena = new SharedArena();
    const objects = jobs().map((j, k) => ({
      name: j.name, source: j.name, kind: 'mesh' as const,
      positions: arena.copyF32(j.groups[0].positions.map((v, i) => (i % 3 === 1 ? v : v * 3 + 7 * k))),
      groups: [{ material: 96 + 64 * (k % 2), indices: arena.copyU32(j.groups[0].indices) }],
    }));
    const planned = (): ResourceJob[] => planCells(objects, 50).map((c) => ({ name: c.name, cell: [c.x, c.z], sources: c.sources, groups: c.groups }));
    expect(planned().length).toBeGreaterThan(4);
    const gathered: ResourceJob[] = planCells(objects, 50).map((c) => ({ name: c.name, cell: [c.x, c.z], sources: c.sources, groups: c.groups.map((g) => ({ material: g.material, ...gatherGroup(g) })) }));
    const want = await runJobs(gathered, { threads: 1 });
    for (const threads of [1, 3]) {
      const got = await runJobs(planned(), { threads });
      got.forEach((r, i) => expect(Buffer.from(r.bytes).equals(Buffer.from(want[i].bytes))).toBe(true));
      expect(got.map((r) => r.inputTriangles)).toEqual(want.map((r) => r.inputTriangles));
    }
  });
  it('has each thread write the files of what it built, with the returned bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sk8-pool-'));
    try {
      const empty: ResourceJob = { name: 'empty', cell: null, sources: [], groups: [{ material: 96, positions: new Float32Array(9), indices: Uint32Array.of(0, 1, 2) }] };
      const all = [...jobs(), empty];
      const built = await runJobs(all, { threads: 3, writeDir: dir });
      expect(readdirSync(dir).sort()).toEqual(jobs().map((j) => `${j.name}.physics`).sort());
      // A written file's bytes are out of memory: read back only when asked for, and checked against what was
      // written (size and CRC-32), so a file changed since is refused rather than published or patched.
      const g3 = built.find((r) => r.name === 'g3')!, g4 = built.find((r) => r.name === 'g4')!;
      expect(g4.check).toEqual({ bytes: statSync(join(dir, 'g4.physics')).size, crc32: expect.stringMatching(/^[0-9a-f]{8}$/) });
      const flipped = readFileSync(join(dir, 'g4.physics'));
      flipped[flipped.length >> 1] ^= 1;
      writeFileSync(join(dir, 'g4.physics'), flipped);
      expect(() => g4.bytes).toThrow(/^publish: .*g4\.physics: its bytes are not what this build wrote/);
      writeFileSync(join(dir, 'g3.physics'), flipped.subarray(1));
      expect(() => g3.bytes).toThrow(/^publish: .*g3\.physics: \d+ bytes, but this build wrote \d+: changed since/);
      rmSync(join(dir, 'g5.physics'));
      symlinkSync(join(dir, 'g6.physics'), join(dir, 'g5.physics'));
      expect(() => built.find((r) => r.name === 'g5')!.bytes).toThrow(/^publish: .*g5\.physics: ELOOP/);
      for (const r of built.filter((x) => x.parts > 0 && !['g3', 'g4', 'g5'].includes(x.name))) expect(readFileSync(join(dir, `${r.name}.physics`)).equals(Buffer.from(r.bytes))).toBe(true);
      await expect(runJobs(jobs(), { threads: 2, writeDir: join(dir, 'missing') })).rejects.toThrow(/^publish: .*missing.g\d+\.physics: ENOENT/);
      await expect(runJobs(jobs().slice(0, 1), { threads: 1, writeDir: join(dir, 'missing') })).rejects.toThrow(/^publish: .*missing.g0\.physics: ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('reports an encoder error from a worker with the resource name', async () => {
    const bad = jobs();
    bad[7].groups[0].positions[4] = NaN;
    await expect(runJobs(bad, { threads: 2 })).rejects.toThrow(/encode: resource "g7"/);
  });
  it('computes cell runs on a worker, as cellRuns does here', async () => {
    const pool = await ThreadPool.start(1);
    try {
      const items = jobs().slice(0, 3).map((j) => ({ positions: j.groups[0].positions.map((v) => v * 40), groups: [j.groups[0].indices, j.groups[0].indices.subarray(0, 30)] }));
      const got = await pool.cellRuns(0, items, 50);
      expect(got.map((r) => r.map((g) => Array.from(g)))).toEqual(items.map((it) => it.groups.map((g) => Array.from(cellRuns(it.positions, g, 50)))));
      expect(got[0][0].length).toBeGreaterThan(4);
    } finally {
      await pool.close();
    }
  });
  it('answers cell runs ahead of validation requests sent before them (the plan waits on the runs)', async () => {
    const pool = await ThreadPool.start(1);
    try {
      const big = gridJob('big', 150, 0); // 45,000 triangles: the worker is busy with it when the others come in
      const small = gridJob('small', 3, 0);
      const item = (j: ReturnType<typeof gridJob>) => ({ positions: j.groups[0].positions, groups: [j.groups[0].indices] });
      const order: string[] = [];
      const first = pool.validate(0, [item(big)]).then(() => order.push('validate 1'));
      const second = pool.validate(0, [item(small)]).then(() => order.push('validate 2'));
      const runs = pool.cellRuns(0, [item(small)], 50).then(() => order.push('runs'));
      await Promise.all([first, second, runs]);
      expect(order.indexOf('runs')).toBeLessThan(order.indexOf('validate 2'));
      expect(order.indexOf('validate 1')).toBeLessThan(order.indexOf('validate 2')); // the others keep their order
    } finally {
      await pool.close();
    }
  });
  it('validates on a worker', async () => {
    const pool = await ThreadPool.start(1);
    try {
      const j = gridJob('v', 3, 0);
      const [r] = await pool.validate(0, [{ positions: j.groups[0].positions, groups: [j.groups[0].indices] }]);
      expect(r).toMatchObject({ triangles: 18, openEdges: 12, degenerate: 0 });
    } finally {
      await pool.close();
    }
  });
});

describe('freeCores', () => {
  const at = (wall: number, idle: number, own: number) => ({ wall, idle, own });
  it("counts idle time plus this process's own CPU time over the window", () => {
    // 1 s: one core idle, this process busy on one: two cores free (as far as the machine has them).
    expect(freeCores(at(0, 0, 0), at(1000, 1000, 1000))).toBe(Math.min(2, availableParallelism()));
    // Others keep every core busy and this process got half a core: one.
    expect(freeCores(at(0, 0, 0), at(1000, 0, 500))).toBe(1);
    expect(freeCores(at(0, 0, 0), at(1000, 0, 0))).toBe(1);
    // One other busy thread: this process's two threads got 1.33 cores; a second thread pays.
    expect(freeCores(at(0, 0, 0), at(1000, 0, 1330))).toBe(Math.min(2, availableParallelism()));
  });
  it('falls back to the load average for a window too short to measure', () => {
    expect(freeCores(at(0, 0, 0), at(MIN_SAMPLE_MS - 1, 99, 99))).toBe(idleCores());
    expect(freeCores(undefined)).toBe(idleCores());
  });
});

describe('workerFlags', () => {
  it("drops tsx preloads from a worker's flags and keeps the rest", () => {
    expect(workerFlags(['--import', 'tsx', '--cpu-prof', '--cpu-prof-dir=/tmp/p'])).toEqual(['--cpu-prof', '--cpu-prof-dir=/tmp/p']);
    expect(workerFlags(['--import=tsx/esm', '--require', 'tsx/cjs', '--loader', 'tsx', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
    expect(workerFlags(['--import', './other.mjs', '--conditions', 'tsx'])).toEqual(['--import', './other.mjs', '--conditions', 'tsx']);
    // What the tsx command line passes.
    expect(workerFlags(['--require', '/w/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///w/node_modules/tsx/dist/loader.mjs', '--inspect'])).toEqual(['--inspect']);
    expect(workerFlags(['--import', './tsx-helpers.mjs'])).toEqual(['--import', './tsx-helpers.mjs']);
  });
  it('drops --input-type, which a worker started from a file refuses', () => {
    expect(workerFlags(['--input-type=module', '-e', 'x', '--inspect'])).toEqual(['-e', 'x', '--inspect']);
    expect(workerFlags(['--input-type', 'module', '--import', 'tsx'])).toEqual([]);
  });
});

describe('units', () => {
  const job = (t: number): ResourceJob => ({ name: `j${t}`, cell: null, sources: [], groups: [{ material: 96, positions: new Float32Array(0), indices: new Uint32Array(3 * t) }] });
  it('cuts full units first, then smaller ones towards the end, every job once and in order', () => {
    const jobs = Array.from({ length: 100 }, () => job(2_000)); // 200,000 triangles
    const u = units(jobs, 2);
    expect(u.flat()).toEqual(jobs.map((_, i) => i));
    const sizes = u.map((x) => x.length * 2_000);
    expect(sizes[0]).toBe(26_000); // 13 jobs reach 25,000
    expect(sizes.at(-1)).toBe(2_000);
    for (let k = 1; k < sizes.length; k++) expect(sizes[k]).toBeLessThanOrEqual(sizes[k - 1]);
  });
  it('ends in single jobs, and makes no unit of no jobs', () => {
    expect(units([job(10), job(10)], 1)).toEqual([[0], [1]]);
    expect(units([], 2)).toEqual([]);
  });
});
