// src/output/json-file.ts: the streamed JSON is byte for byte `${JSON.stringify(value, null, indent)}\n`, whatever the value's
// shape: big and small containers at every depth, a big one inside small ones, values JSON.stringify leaves out or
// writes as null, toJSON, typed arrays, null-prototype objects, strings with escapes and characters past ASCII
// across the write buffer's edge.
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeJson } from '../../src/output/json-file.ts';
import { lazyTempDir } from '../fixtures/levels.ts';

const tmp = lazyTempDir('sk8-json-');
afterAll(() => tmp.cleanup());

let n = 0;
/** The file writeJson makes of v, as text, and the byte count it returned. */
function written(v: unknown, indent: number): { text: string; bytes: number } {
  const path = join(tmp.dir, `j${n++}.json`);
  const fd = openSync(path, 'w');
  let bytes: number;
  try {
    bytes = writeJson(fd, v, indent);
  } finally {
    closeSync(fd);
  }
  const buf = readFileSync(path);
  expect(bytes).toBe(buf.length);
  return { text: buf.toString('utf8'), bytes };
}

const same = (v: unknown): void => {
  for (const indent of [0, 2, 4]) expect(written(v, indent).text).toBe(`${JSON.stringify(v, null, indent)}\n`);
};

/** A deterministic generator of plain values with every kind of leaf and container sizes around WHOLE_MAX (64). */
function randomValue(seed: number, depth: number): unknown {
  let s = seed >>> 0;
  const rnd = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  const leaf = (): unknown => {
    const k = Math.floor(rnd() * 14);
    return [0, -0, 1.5e300, -7, NaN, Infinity, null, true, false, 'plain', 'line\nbreak "quoted" \\ tab\t', 'ünïcødé ✓ 🛹', undefined, () => 1][k];
  };
  let budget = 3_000; // values made at most
  const make = (d: number): unknown => {
    if (budget-- <= 0 || d === 0 || rnd() < 0.25) return leaf();
    const sizes = [0, 1, 3, 63, 64, 65, 130];
    const size = sizes[Math.floor(rnd() * sizes.length)];
    if (rnd() < 0.5) return Array.from({ length: size }, () => make(d - 1));
    const o: Record<string, unknown> = rnd() < 0.1 ? Object.create(null) : {};
    for (let i = 0; i < size; i++) o[rnd() < 0.1 ? `k"${i}\n` : `k${i}`] = make(d - 1);
    return o;
  };
  return make(depth);
}

describe('writeJson', () => {
  it('writes what JSON.stringify writes for random nested values (indent 0, 2, 4)', () => {
    for (let seed = 1; seed <= 30; seed++) same({ root: randomValue(seed, 4), list: randomValue(seed * 7, 3) });
    for (let seed = 1; seed <= 10; seed++) same(Array.from({ length: 70 }, (_, i) => randomValue(seed * 31 + i, 2)));
  });

  it('walks a big container inside small ones (the build record: result.objects) and writes the same', () => {
    const objects = Array.from({ length: 5_000 }, (_, i) => ({ name: `prop_${i}`, source: `node ${i} "p${i}"`, triangles: i, materials: [i % 7, 3], resource: i % 3 ? null : `cell_${i}` }));
    same({ format: 1, key: 'k', result: { importStats: { nodes: 3 }, objects, workers: 2 }, files: objects.map((o) => o.name) });
  });

  it('keeps toJSON, typed arrays, dates, empty containers and top-level leaves as JSON.stringify does', () => {
    same({ when: new Date(0), f32: new Float32Array([1, -0, 2.5]), custom: { toJSON: () => ({ big: Array.from({ length: 100 }, (_, i) => i) }) }, empty: {}, none: [], nested: [[], {}, [[]]] });
    same([]);
    same({});
    same('just a string');
    same(42);
    same(null);
    same(Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? () => i : i)));
  });

  it('refuses a toJSON that gives nothing rather than writing a text JSON.stringify would not', () => {
    expect(() => written({ big: Array.from({ length: 100 }, () => ({ toJSON: () => undefined })) }, 2)).toThrow(/toJSON gives nothing/);
  });

  it('crosses the 1 MiB write buffer with multi-byte characters and counts bytes, not characters', () => {
    const v = { lines: Array.from({ length: 40_000 }, (_, i) => `ü ✓ 🛹 line ${i}`) };
    const { text, bytes } = written(v, 2);
    expect(text).toBe(`${JSON.stringify(v, null, 2)}\n`);
    expect(bytes).toBe(Buffer.byteLength(text));
    expect(bytes).toBeGreaterThan(1 << 20);
  });

  it('refuses a value with no JSON text', () => {
    expect(() => written(undefined, 2)).toThrow(/no JSON text/);
  });
});
