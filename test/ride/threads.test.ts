// The ride's world built on threads (src/ride/threads.ts, world-files.ts: two passes over the files, each file's
// faces written at its place in shared memory) is the single-thread build's world, array for array; the first file
// that fails in file order is named with the single-thread build's words; countFaces says exactly what writeFaces
// writes, on hostile records too.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readRideWorld } from '../../cli/commands/ride.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import { KIND_MESH } from '../../src/format/types.ts';
import { ReadBuffer } from '../../src/files.ts';
import { RideThreads } from '../../src/ride/threads.ts';
import { countPass, FAILED, fileOffsets, worldShare, writePass } from '../../src/ride/world-files.ts';
import { countFaces, faceArrays, resourceFaces, resourceVertices, writeFaces, type RideWorld } from '../../src/ride/world.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-threads-');
afterAll(() => tmp.cleanup());

let out: string, files: string[];
beforeAll(async () => {
  out = await compileMeshes(tmp.dir, 'many', [
    // Far apart: a file (cell) or more each.
    ...[-150, -75, 0, 75, 150].map((x, k) => ({ name: `g${k}`, ...grid(12, 8, 1, x, k * 0.25, -4) })),
    { name: 'c', ...grid(6, 6, 1, 0, 0.5, 80) },
    { name: 'ramp', positions: [0, 0, -4, 4, 2, -4, 0, 0, -1, 4, 2, -1], indices: [0, 2, 1, 1, 2, 3] },
  ], { tiling: 'cells', seams: 'level' });
  files = readdirSync(out).filter((f) => f.endsWith('.physics')).sort().map((f) => join(out, f));
}, 60_000);

const sha = (a: ArrayBufferView): string => createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');
const digest = (w: RideWorld) => ({
  faces: w.faces, names: w.names, min: w.min, max: w.max, cell: [w.grid.x0, w.grid.z0, w.grid.cell, w.grid.nx, w.grid.nz],
  ...Object.fromEntries((['vert', 'corner', 'allow', 'faceBits', 'runs'] as const).map((k) => [k, sha(w[k])])),
  start: sha(w.grid.start), items: sha(w.grid.items),
});

/** The world (or error) built by `workers` worker threads, the main thread taking files too or not. */
async function threaded(list: string[], workers: number, mainClaims: boolean) {
  const threads = new RideThreads(workers);
  try {
    return await readRideWorld(list, threads, mainClaims);
  } finally {
    await threads.close();
  }
}

test('the world built on threads is the single-thread world, array for array, whoever takes which file', async () => {
  expect(files.length).toBeGreaterThan(3);
  const one = await readRideWorld(files);
  if (!('world' in one)) throw new Error(one.error);
  const want = digest(one.world);
  expect(one.world.faces).toBeGreaterThan(300);
  for (const [workers, mainClaims] of [[1, false], [2, false], [1, true]] as const) {
    const r = await threaded(files, workers, mainClaims);
    if (!('world' in r)) throw new Error(r.error);
    expect(digest(r.world), `${workers} workers, main ${mainClaims}`).toEqual(want);
    expect(r.world.vert.buffer instanceof SharedArrayBuffer).toBe(true);
  }
}, 60_000);

test('the first file that fails in file order is named as the single-thread build names it, whichever thread read it', async () => {
  const dir = join(tmp.dir, 'bad'), names = readdirSync(out).filter((f) => f.endsWith('.physics')).sort();
  mkdirSync(dir, { recursive: true });
  // Many files (copies), a cut-off one in the middle and a level after it.
  const list: string[] = [];
  for (let k = 0; k < 6; k++) {
    for (const f of names) {
      const to = join(dir, `${k}-${f}`);
      copyFileSync(join(out, f), to);
      list.push(to);
    }
  }
  const cut = list[Math.floor(list.length / 2)], bytes = readFileSync(cut);
  writeFileSync(cut, bytes.subarray(0, bytes.length - 9));
  writeFileSync(list[list.length - 2], Buffer.from('glTF\x02\x00\x00\x00'));
  const single = await readRideWorld(list);
  expect('error' in single && single.error).toContain(cut);
  for (const [workers, mainClaims] of [[1, false], [2, false], [1, true]] as const) expect(await threaded(list, workers, mainClaims), `${workers} workers, main ${mainClaims}`).toEqual(single);
  // A file that is not one (a level) first: named with readPhysicsFile's words.
  const level = list[list.length - 2];
  const later = [...list.slice(0, 3), level, cut];
  const s2 = await readRideWorld(later), t2 = await threaded(later, 1, false);
  expect('error' in s2 && s2.error).toContain('a glTF binary (.glb), not a PhysicsResource');
  expect(t2).toEqual(s2);
  // A file verify refuses but whose faces can be counted (a NaN vertex), before one that cannot be read at all:
  // the first is named, though the second failed first (in the count).
  const nan = list[2], good = new Uint8Array(readFileSync(nan));
  new DataView(good.buffer).setFloat32(readPhysicsResource(good).layout!.arrays[0][0] + 4 * 2, Number.NaN, true);
  writeFileSync(nan, good);
  const both = [...list.slice(0, 6), level];
  const s3 = await readRideWorld(both);
  expect('error' in s3 && s3.error).toContain(`${nan}: refused by verify`);
  for (const [workers, mainClaims] of [[1, false], [1, true]] as const) expect(await threaded(both, workers, mainClaims)).toEqual(s3);
}, 60_000);

test('countFaces is what writeFaces writes, on written files and on hostile records', () => {
  const resources = readOutput(out).map((r) => r.resource);
  const hostile = resources.flatMap((r) => {
    const variants = [];
    const clone = () => structuredClone(r);
    // A corner past its shape's vertices (the part's one origin vertex), in two faces of one shape.
    let v = clone();
    v.shapes[0].cornerVertices[1] = 0xfff0;
    v.shapes[0].cornerVertices[5] = v.shapes[0].vertices.length / 3;
    variants.push(v);
    // A quad (two faces' offsets merged), an offset past the corners, offsets going back.
    v = clone();
    const o = v.shapes[0].faceOffsets;
    if (o.length > 4) {
      v.shapes[0].faceOffsets = Uint16Array.from([...o.subarray(0, 2), ...o.subarray(3)]);
      v.shapes[0].faceOffsets[v.shapes[0].faceOffsets.length - 1] = 0xffff;
      if (v.shapes[0].faceOffsets.length > 3) v.shapes[0].faceOffsets[2] = 1;
    }
    variants.push(v);
    // A part of another kind, a part naming a shape past the table, two parts on one shape.
    v = clone();
    if (v.parts.length) {
      v.parts.push({ ...v.parts[0], kind: KIND_MESH + 1 }, { ...v.parts[0], shape: v.shapes.length + 3 }, { ...v.parts[0] });
    }
    variants.push(v);
    return variants;
  });
  let origins = 0;
  for (const r of [...resources, ...hostile]) {
    const a = faceArrays(resourceFaces(r), resourceVertices(r));
    const w = writeFaces(r, 0, a, { faces: 0, vertices: 0 }, [0, 0, 0], [0, 0, 0], []);
    expect(countFaces(r)).toEqual(w);
    if (w.vertices > r.parts.filter((p) => p.kind === KIND_MESH && p.shape < r.shapes.length).reduce((s, p) => s + r.shapes[p.shape].vertices.length / 3, 0)) origins++;
  }
  expect(origins).toBeGreaterThan(0);
  expect(hostile.some((r) => countFaces(r).faces < resourceFaces(r))).toBe(true);
});

test('a file that changed between the passes fails the build by name and nothing is written past its slot', () => {
  const dir = join(tmp.dir, 'changing'), list: string[] = [];
  mkdirSync(dir, { recursive: true });
  for (const f of files) {
    const to = join(dir, f.slice(f.lastIndexOf('/') + 1));
    copyFileSync(f, to);
    list.push(to);
  }
  const share = worldShare(list), into = new ReadBuffer();
  countPass(share, into);
  expect(share.state[FAILED]).toBe(list.length);
  // File 1 becomes the largest of the others (more faces than its slot holds) after it was counted.
  const sizes = list.map((f) => readFileSync(f).length), big = sizes.indexOf(Math.max(...sizes.filter((_, i) => i !== 1)));
  expect(share.counts[2 * big]).toBeGreaterThan(share.counts[2]);
  copyFileSync(list[big], list[1]);
  const at = fileOffsets(share)!, n = list.length;
  const a = faceArrays(at[2 * n], at[2 * n + 1], true);
  a.corner.fill(0xdeadbeef);
  a.vert.fill(-7);
  const written = writePass(share, at, a, into);
  expect(share.state[FAILED]).toBe(1);
  expect(written.map((f) => f.index)).toEqual([0]); // the files after it are not written either
  // File 0's slot written, file 1's and everything after it untouched.
  expect(a.corner.subarray(0, 3 * at[2]).every((c) => c !== 0xdeadbeef)).toBe(true);
  expect(a.corner.subarray(3 * at[2]).every((c) => c === 0xdeadbeef)).toBe(true);
  expect(a.vert.subarray(3 * at[3]).every((v) => v === -7)).toBe(true);
});
