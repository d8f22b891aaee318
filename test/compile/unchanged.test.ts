// A rebuild with nothing changed redoes nothing (src/build/unchanged.ts), and anything that could change a byte — the
// level, an option, the Studio template, a file of the output, the manifest, the record itself — makes it an
// ordinary build whose output is a clean build's.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLevel, type CompileResult } from '../../src/build/compile.ts';
import { tempDir } from '../fixtures/levels.ts';
import { outputFiles as files } from '../fixtures/edits.ts';

const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));
const tmp = tempDir('sk8-unchanged-');
afterAll(tmp.cleanup);
let n = 0;
let dir = '';
beforeEach(() => {
  dir = join(tmp.dir, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
});
const build = async (level: string, opts: Record<string, unknown> = {}): Promise<{ r: CompileResult; warned: string[] }> => {
  const warned: string[] = [];
  const r = await compileLevel(level, { workers: 1, ...opts }, { logger: { warn: (w) => void warned.push(w) } });
  return { r, warned };
};
const level = (name = 'skatepark.glb'): string => {
  const p = join(dir, name);
  copyFileSync(join(SAMPLES, name), p);
  return p;
};
function expectSame(a: Map<string, Buffer>, b: Map<string, Buffer>): void {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  for (const [k, v] of a) expect(v.equals(b.get(k)!), k).toBe(true);
}

describe('nothing changed: nothing rebuilt', () => {
  it('the second build proves it and returns the first one\'s result, its warnings given again', async () => {
    const lv = level();
    const out = join(dir, 'out');
    const first = await build(lv, { out });
    expect(first.r.unchanged).toBeUndefined();
    const before = files(out);
    const again = await build(lv, { out });
    expect(again.r.unchanged).toBe(true);
    expect(Object.keys(again.r.timings)).toEqual(['unchanged']);
    expect(again.warned).toEqual(first.warned);
    expect(again.warned.length).toBeGreaterThan(0);
    expect(again.r.manifest).toEqual(first.r.manifest);
    expect(again.r.objects).toEqual(first.r.objects);
    expect(again.r.importStats).toEqual(first.r.importStats);
    expect(again.r.cache).toMatchObject({ hits: first.r.manifest.resources.length, misses: 0, rejected: 0 });
    expectSame(before, files(out));
  });
  it('with --cache DIR too, per output', async () => {
    const lv = level();
    const cache = join(dir, 'cache');
    await build(lv, { out: join(dir, 'a'), cache });
    await build(lv, { out: join(dir, 'b'), cache });
    expect((await build(lv, { out: join(dir, 'a'), cache })).r.unchanged).toBe(true);
    expect((await build(lv, { out: join(dir, 'b'), cache })).r.unchanged).toBe(true);
  });
  it('costs a small part of a clean build (city-blocks: 4,400 props, 144 cells)', async () => {
    const lv = level('city-blocks.glb');
    const out = join(dir, 'out');
    const clean: number[] = [];
    const same: number[] = [];
    for (let i = 0; i < 3; i++) {
      let t = performance.now();
      await build(lv, { out, cache: false }); // a clean build every time (and it drops the shortcut's premise)
      clean.push(performance.now() - t);
      await build(lv, { out }); // records
      t = performance.now();
      expect((await build(lv, { out })).r.unchanged).toBe(true);
      same.push(performance.now() - t);
    }
    const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[1];
    expect(med(same) / med(clean)).toBeLessThan(0.25);
  }, 120_000);
});

describe('anything that could change a byte builds', () => {
  it('an edited level', async () => {
    const lv = level();
    const out = join(dir, 'out');
    await build(lv, { out });
    const bytes = readFileSync(lv);
    // Flip one byte of the binary chunk's padding-free data (a vertex coordinate's low bits).
    bytes[bytes.length - 9] ^= 1;
    writeFileSync(lv, bytes);
    const r = (await build(lv, { out })).r;
    expect(r.unchanged).toBeUndefined();
    const clean = await build(lv, { out: join(dir, 'clean'), cache: false });
    expectSame(files(join(dir, 'clean')), files(out));
    expect(clean.r.manifest.input.sha256).toBe(r.manifest.input.sha256);
  });
  it.each([
    ['seams', { seams: 'shape' }],
    ['tiling', { tiling: 'cells' }],
    ['cell size', { tiling: 'cells', cellSize: 50 }],
    ['report', { report: true }],
    ['native shapes', { shapes: { nativeShapes: true } }],
    ['chord error', { shapes: { chordError: 0.01 } }],
  ])('a changed option: %s', async (_, opts) => {
    const lv = level('shapes.glb');
    const out = join(dir, 'out');
    await build(lv, { out });
    expect((await build(lv, { out })).r.unchanged).toBe(true);
    const r = (await build(lv, { out, ...opts })).r;
    expect(r.unchanged).toBeUndefined();
    await build(lv, { out: join(dir, 'clean'), cache: false, ...opts });
    const a = files(join(dir, 'clean'));
    const b = files(out);
    a.delete('manifest.json'); b.delete('manifest.json');
    a.delete('report.html'); b.delete('report.html'); // timings inside
    expectSame(a, b);
  });
  it('options that change no byte keep the shortcut (workers, lock wait)', async () => {
    const lv = level();
    const out = join(dir, 'out');
    await build(lv, { out });
    expect((await build(lv, { out, workers: 2, lockWaitMs: 10 })).r.unchanged).toBe(true);
  });
  it('a listed file deleted: built again, and restored', async () => {
    const lv = level();
    const out = join(dir, 'out');
    await build(lv, { out });
    const before = files(out);
    unlinkSync(join(out, 'ground.physics'));
    expect((await build(lv, { out })).r.unchanged).toBeUndefined();
    expectSame(before, files(out));
  });
  it('an edited manifest, or a damaged or foreign record: an ordinary build', async () => {
    const lv = level();
    const out = join(dir, 'out');
    await build(lv, { out });
    const m = join(out, 'manifest.json');
    writeFileSync(m, readFileSync(m, 'utf8').replace('"collision-objects": 17', '"collision-objects": 18'));
    expect((await build(lv, { out })).r.unchanged).toBeUndefined();
    expect(JSON.parse(readFileSync(m, 'utf8')).totals['collision-objects']).toBe(17);
    const record = join(out, '.cache', readdirSync(join(out, '.cache')).find((f) => f.startsWith('build-'))!);
    for (const text of ['', '{', JSON.stringify({ format: 1, key: 'x', manifest: { bytes: 1, crc32: '00000000' }, result: {} }), readFileSync(record, 'utf8').replace(/"key":"[0-9a-f]+"/, '"key":"0"')]) {
      writeFileSync(record, text);
      expect((await build(lv, { out })).r.unchanged, text.slice(0, 20)).toBeUndefined();
    }
  });
  it('a Studio template with other bytes under the same name', async () => {
    const lv = level();
    const out = join(dir, 'out');
    const template = join(dir, 'template.physics');
    copyFileSync(join(SAMPLES, 'kinds.physics'), template);
    await build(lv, { out, studioTemplate: template });
    expect((await build(lv, { out, studioTemplate: template })).r.unchanged).toBe(true);
    const t = readFileSync(template);
    t[t.length - 200] ^= 0xff; // inside the body? anywhere: the key takes the template's digest
    writeFileSync(template, t);
    const r = await build(lv, { out, studioTemplate: template }).catch((e: Error) => e);
    expect(r instanceof Error ? r.message : r.r.unchanged).not.toBe(true);
  });
  it('the cache off: nothing recorded, nothing skipped', async () => {
    const lv = level();
    const out = join(dir, 'out');
    await build(lv, { out, cache: false });
    expect((await build(lv, { out, cache: false })).r.unchanged).toBeUndefined();
  });
});
