// The level's edge data through the build (src/tiling/seams.ts): cells encoded on their own, their open corners
// matched over the level, and the codes stored into the resources' bytes where a cell border cuts the level.
import { describe, expect, it } from 'vitest';
import type { ImportedObject } from '../../src/model.ts';
import { planCells } from '../../src/tiling/cells.ts';
import { buildResource, type BuiltResource, type ResourceJob } from '../../src/tiling/build.ts';
import { applySeams, levelMatch, seamReport, type PatchItem } from '../../src/tiling/seams.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import { runJobs, runPatches, ThreadPool } from '../../src/tiling/pool.ts';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as pathJoin } from 'node:path';
import { createHash } from 'node:crypto';
import { fingerprint } from '../../src/tiling/unique.ts';
import { checkOf } from '../../src/output/file-write.ts';

/** A bumpy n × n grid of 10 m quads centred on the origin (dyadic heights), one material. */
function grid(name: string, n: number, material: number, x0 = -n * 5): ImportedObject {
  const positions = new Float32Array((n + 1) * (n + 1) * 3);
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.set([x0 + 10 * i, ((i * 5 + j * 3) % 7) / 8, -n * 5 + 10 * j], 3 * (j * (n + 1) + i));
  const idx: number[] = [];
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
    idx.push(a, c, b, b, c, d);
  }
  return { name, source: name, kind: 'mesh', positions, groups: [{ material, indices: Uint32Array.from(idx) }] };
}

const jobsOf = (objects: ImportedObject[], size: number): ResourceJob[] =>
  planCells(objects, size).map((c) => ({ name: c.name, cell: [c.x, c.z], sources: c.sources, groups: c.groups }));

/** Open corners (value 1.0, no bits, not a sharp fold: no single opposite corner) counted on the written bytes. */
function openInBytes(r: BuiltResource): number {
  let n = 0;
  for (const s of readPhysicsResource(r.bytes).shapes) {
    const held = new Map<string, number>();
    const key = (c: number, d: number): string => `${s.cornerVertices[c]}>${s.cornerVertices[d]}`;
    const next = (c: number): number => (c % 3 === 2 ? c - 2 : c + 1);
    for (let c = 0; c < s.cornerVertices.length; c++) held.set(key(c, next(c)), (held.get(key(c, next(c))) ?? 0) + 1);
    for (let c = 0; c < s.cornerVertices.length; c++) {
      const bits = ((s.concaveBits[c >> 3] | s.flatBits[c >> 3]) >> (c & 7)) & 1;
      if (s.edgeValues[c] === 1 && !bits && (held.get(key(next(c), c)) ?? 0) !== 1) n++;
    }
  }
  return n;
}

/** Matches and stores the level's codes ('level') or open corners ('shape') into each resource, as the build does. */
function join(built: BuiltResource[], mode: 'level' | 'shape'): ReturnType<typeof levelMatch> {
  const m = levelMatch(built);
  built.forEach((r, i) => applySeams(r, mode === 'level' ? m.codes[i] : null));
  return m;
}

describe('seams in the build', () => {
  it('a grid over four cells writes only its border open; shape by shape the borders between cells stay open', () => {
    const objects = [grid('terrain', 8, 96)];
    const built = jobsOf(objects, 50).map((j) => buildResource(j));
    expect(built.length).toBe(4);
    const level = join(built, 'level');
    expect(level.openCorners).toBe(32);
    expect(seamReport('level', level, built)).toEqual({ mode: 'level', authoredOpenEdges: 32, joinedAcrossCuts: 32, openEdgesWritten: 32 });
    expect(built.reduce((n, r) => n + openInBytes(r), 0)).toBe(32);
    const without = jobsOf(objects, 50).map((j) => buildResource(j));
    const shape = join(without, 'shape');
    expect(seamReport('shape', shape, without)).toEqual({ mode: 'shape', authoredOpenEdges: 32, joinedAcrossCuts: 0, openEdgesWritten: 64 });
    expect(without.reduce((n, r) => n + openInBytes(r), 0)).toBe(64);
  });

  it('two objects and two materials in one cell merge, and across cells join; same bytes on 1 and 3 threads', async () => {
    const objects = [grid('a', 6, 96), grid('b', 6, 160, 30), grid('c', 6, 96, 90)];
    const jobs = jobsOf(objects, 50);
    const one = await runJobs(jobs, { threads: 1 });
    const three = await runJobs(jobs, { threads: 3 });
    const m1 = join(one, 'level'), m3 = join(three, 'level');
    expect(three.map((r) => Buffer.from(r.bytes).toString('hex'))).toEqual(one.map((r) => Buffer.from(r.bytes).toString('hex')));
    expect(m3).toEqual(m1);
    const report = seamReport('level', m1, one);
    expect(report.openEdgesWritten).toBe(report.authoredOpenEdges);
    expect(report.joinedAcrossCuts).toBeGreaterThan(0);
    expect(one.reduce((n, r) => n + openInBytes(r), 0)).toBe(report.authoredOpenEdges);
  });

  it('storing codes changes only the listed corners, is idempotent, and shape mode restores the encoded bytes', () => {
    const objects = [grid('terrain', 8, 96)];
    const built = jobsOf(objects, 50).map((j) => buildResource(j));
    const encoded = built.map((r) => r.bytes.slice());
    const m = levelMatch(built);
    built.forEach((r, i) => {
      const [lo, hi] = applySeams(r, m.codes[i]);
      expect(hi).toBeGreaterThan(lo);
      const changed = [...r.bytes].flatMap((b, k) => (b !== encoded[i][k] ? [k] : []));
      expect(Math.min(...changed)).toBe(lo);
      expect(Math.max(...changed)).toBe(hi - 1);
      const again = applySeams(r, m.codes[i]);
      expect(again[0]).toBeGreaterThanOrEqual(again[1]); // nothing left to change
      expect(r.seamJoined).toBe(m.codes[i].filter((c) => c !== -1).length);
    });
    built.forEach((r, i) => {
      applySeams(r, null);
      expect(Buffer.from(r.bytes).equals(Buffer.from(encoded[i]))).toBe(true);
      expect(r.seamJoined).toBe(0);
    });
    // Bytes as encoded: writing the joined corners only gives the same bytes as writing every listed corner.
    const again = jobsOf(objects, 50).map((j) => buildResource(j));
    again.forEach((r, i) => {
      const full = { ...r, bytes: r.bytes.slice() };
      applySeams(full, m.codes[i]);
      applySeams(r, m.codes[i], true);
      expect(Buffer.from(r.bytes).equals(Buffer.from(full.bytes))).toBe(true);
      expect(r.seamJoined).toBe(full.seamJoined);
    });
  });
});

describe('patching staged files (the build: written files, bytes out of memory)', () => {
  it('patchUnit on every thread writes the bytes applySeams makes, sums them, packs the cache entries, and refuses a file changed since', async () => {
    const dir = mkdtempSync(pathJoin(tmpdir(), 'sk8-patch-'));
    const pool = await ThreadPool.start(2);
    try {
      const objects = [grid('a', 12, 96), grid('b', 12, 160, 120)];
      const jobs = jobsOf(objects, 20);
      const want = jobs.map((j) => buildResource(j));
      const m = levelMatch(want);
      want.forEach((r, i) => applySeams(r, m.codes[i]));
      for (const [threads, p] of [[1, undefined], [3, pool]] as const) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir);
        const built = await runJobs(jobsOf(objects, 20), { threads: 1, writeDir: dir, sha256: true });
        // Every other file is also appended to its work unit's cache pack (src/output/cache-pack.ts); unit 0's pack name is
        // planted as a link first: it is not written through, and that unit's files get no entry. Every third file
        // has no joins: it is only copied (read back, checked, hashed).
        const entries = pathJoin(dir, 'entries');
        mkdirSync(entries);
        writeFileSync(pathJoin(dir, 'elsewhere'), 'not ours');
        const packOf = (u: number): string => pathJoin(entries, `pack-1-1-abcdef01-${u}.bin`);
        symlinkSync(pathJoin(dir, 'elsewhere'), packOf(0));
        const items: PatchItem[] = built.map((r, i) => ({
          name: r.name, path: pathJoin(dir, r.file), check: r.check!, codes: i % 3 ? m.codes[i] : null, shape: r.open.shape, corner: r.open.corner, arrays: r.open.arrays, sha256: true,
          toCache: i % 2 === 0,
        }));
        expect(items.length).toBeGreaterThan(2 * 32); // more than one unit a thread
        const got = await runPatches(items, p, threads, undefined, packOf);
        built.forEach((r, i) => {
          const file = readFileSync(pathJoin(dir, r.file));
          const sha = createHash('sha256').update(file).digest('hex');
          if (i % 3) {
            expect(file.equals(Buffer.from(want[i].bytes))).toBe(true);
            expect(got[i].sums).toEqual({ size: file.length, fingerprint: fingerprint(file), check: checkOf(file), sha256: sha });
          } else expect(got[i].sums).toBeUndefined();
          const unit = Math.floor(i / 32);
          if (i % 2 || unit === 0) expect(got[i].copied).toBeUndefined();
          else {
            const c = got[i].copied!;
            expect(c).toMatchObject({ pack: `pack-1-1-abcdef01-${unit}.bin`, size: file.length });
            expect(lstatSync(packOf(unit)).isFile()).toBe(true);
            expect(readFileSync(packOf(unit)).subarray(c.at, c.at + c.size).equals(file)).toBe(true);
            expect(i % 3 ? got[i].sums!.sha256 : got[i].sha256).toBe(sha);
          }
        });
        expect(readFileSync(pathJoin(dir, 'elsewhere'), 'utf8')).toBe('not ours');
      }
      // A file changed after it was written is refused by name, on a worker as on this thread.
      const built = await runJobs(jobsOf(objects, 20).slice(0, 40), { threads: 1, writeDir: (rmSync(dir, { recursive: true }), mkdirSync(dir), dir) });
      const items: PatchItem[] = built.map((r, i) => ({ name: r.name, path: pathJoin(dir, r.file), check: r.check!, codes: m.codes[i], shape: r.open.shape, corner: r.open.corner, arrays: r.open.arrays, sha256: false }));
      const victim = built[39];
      const bytes = readFileSync(pathJoin(dir, victim.file));
      bytes[bytes.length - 1] ^= 0x40;
      writeFileSync(pathJoin(dir, victim.file), bytes);
      await expect(runPatches(items, pool, 3)).rejects.toThrow(new RegExp(`^publish: .*${victim.file.replace(/\./g, '\\.')}: its bytes are not what this build wrote`));
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
