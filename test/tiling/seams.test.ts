// The level's edge data through the build (src/tiling/seams.ts): cells encoded on their own, their open corners
// matched over the level, and the codes stored into the resources' bytes where a cell border cuts the level.
import { describe, expect, it } from 'vitest';
import type { ImportedObject } from '../../src/model.ts';
import { planCells } from '../../src/tiling/cells.ts';
import { buildResource, type BuiltResource, type ResourceJob } from '../../src/tiling/build.ts';
import { applySeams, levelMatch, seamReport } from '../../src/tiling/seams.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import { runJobs } from '../../src/tiling/pool.ts';

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
