// The incremental cache (src/build/cache.ts): after seeded random edits of both samples — move one object, change one
// material, delete one, add one — a rebuild through the cache writes exactly the files and bytes of a clean build
// (manifest included), reusing what did not change; entries edited in place, --no-cache and --cache DIR.
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { COMPACT_BELOW } from '../../src/build/cache.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLevel as compile, type CompileResult } from '../../src/build/compile.ts';
import { io, tempDir } from '../fixtures/levels.ts';
import { editLevel, expectSameOutput, outputFiles as files, seeded, type Edit, forgetLastBuild } from '../fixtures/edits.ts';

/** Every rebuild here goes through the cache: the record that lets an unchanged rebuild skip it is dropped first. */
const compileLevel: typeof compile = (input, opts = {}, h) => {
  if (typeof opts.out === 'string') forgetLastBuild(opts.out, typeof opts.cache === 'string' ? opts.cache : undefined);
  return compile(input, opts, h);
};

const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));
const tmp = tempDir('sk8-cache-');
afterAll(tmp.cleanup);
const hooks = { logger: { warn: () => {} } };

describe.each([
  ['skatepark.glb', 'objects'],
  ['city-blocks.glb', 'cells'],
])('cache on %s', (sample, layout) => {
  it('rebuilds byte for byte as a clean build after random edits (move, material, delete, add), reusing the rest', { timeout: 240_000 }, async () => {
    const dir = join(tmp.dir, sample);
    const level = join(dir, 'level.glb');
    const doc = await io().read(join(SAMPLES, sample));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    await io().write(level, doc);
    const inc = join(dir, 'inc');
    const first = await compileLevel(level, { out: inc, workers: 2 }, hooks);
    expect(first.manifest.layout).toBe(layout);
    expect(first.cache).toMatchObject({ dir: join(inc, '.cache'), hits: 0 });
    const rnd = seeded(sample.length * 7919);
    const done: string[] = [];
    const edits: Edit[] = ['move', 'material', 'delete', 'add', 'move'];
    for (const [k, kind] of edits.entries()) {
      done.push(editLevel(doc, kind, rnd));
      await io().write(level, doc);
      const r: CompileResult = await compileLevel(level, { out: inc, workers: k % 2 ? 1 : 2 }, hooks);
      const clean = await compileLevel(level, { out: join(dir, `clean-${k}`), cache: false }, hooks);
      expect(clean.cache).toBeUndefined();
      expect(existsSync(join(dir, `clean-${k}`, '.cache'))).toBe(false);
      expectSameOutput(inc, join(dir, `clean-${k}`));
      // Most was reused, and what an edit touched rebuilt (one object's resource or a few cells; deleting an
      // object per-object only drops its file).
      expect(r.cache!.hits, done.join(', ')).toBeGreaterThan(0);
      if (kind !== 'delete' || layout === 'cells') expect(r.cache!.misses, done.join(', ')).toBeGreaterThan(0);
      expect(r.cache!.misses, done.join(', ')).toBeLessThanOrEqual(layout === 'cells' ? 4 : 1);
    }
    // Nothing changed: every resource from the cache, still the same output.
    const again = await compileLevel(level, { out: inc }, hooks);
    expect(again.cache!.misses).toBe(0);
    expectSameOutput(inc, join(dir, `clean-${edits.length - 1}`));
  });
});

describe('cache entries and options', () => {
  it('a published file edited in place does not reach its cache entry (no shared inode): the next build restores the clean bytes', async () => {
    const dir = join(tmp.dir, 'inplace');
    const out = join(dir, 'out');
    const first = await compileLevel(join(SAMPLES, 'skatepark.glb'), { out }, hooks);
    const clean = files(out);
    const f = join(out, 'ground.physics');
    const bytes = readFileSync(f);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(f, bytes); // same size, in place
    // The edited file is no longer what the build wrote: the rebuild keeps it and says so (src/output/ownership.ts ownedFile).
    await expect(compileLevel(join(SAMPLES, 'skatepark.glb'), { out }, hooks)).rejects.toThrow(/ground\.physics \(listed, but its bytes are not what the build wrote/);
    expect(readFileSync(f).equals(bytes)).toBe(true);
    unlinkSync(f);
    // In the output's own cache the entry's bytes were that file (no second copy): with it gone, it misses.
    const r = await compileLevel(join(SAMPLES, 'skatepark.glb'), { out }, hooks);
    expect(r.cache).toMatchObject({ hits: first.manifest.resources.length - 1, misses: 1 });
    const now = files(out);
    for (const [n, b] of clean) expect(b.equals(now.get(n)!), n).toBe(true);
    // Through --cache DIR the entries are copies (packs): an edited, then deleted, published file misses nothing.
    const out2 = join(dir, 'out2'), cache = join(dir, 'cache');
    await compileLevel(join(SAMPLES, 'skatepark.glb'), { out: out2, cache }, hooks);
    writeFileSync(join(out2, 'ground.physics'), bytes);
    unlinkSync(join(out2, 'ground.physics'));
    const s2 = await compileLevel(join(SAMPLES, 'skatepark.glb'), { out: out2, cache }, hooks);
    expect(s2.cache!.hits).toBe(first.manifest.resources.length); // the entry kept its bytes
    for (const [n, b] of clean) expect(b.equals(readFileSync(join(out2, n))), n).toBe(true);
  });

  it('in the output\'s own cache a build keeps no second copy: entries name its files, and a rebuild copies into a pack only the kept entries whose files it replaces (an undone edit still hits)', { timeout: 120_000 }, async () => {
    const dir = join(tmp.dir, 'refs');
    mkdirSync(dir, { recursive: true });
    const out = join(dir, 'out');
    const level = join(dir, 'level.glb');
    const doc = await io().read(join(SAMPLES, 'city-blocks.glb'));
    const node = doc.getRoot().listNodes().find((n) => n.getName().startsWith('planter'))!;
    const t = node.getTranslation();
    await io().write(level, doc);
    const first = await compileLevel(level, { out }, hooks);
    const lines = (): { file?: string; pack?: string; sha: string }[] => Object.values(JSON.parse(readFileSync(join(out, '.cache', 'index.json'), 'utf8')).entries);
    expect(readdirSync(join(out, '.cache', 'r'))).toEqual([]);
    expect(lines()).toHaveLength(first.manifest.resources.length);
    for (const e of lines()) expect(createHash('sha256').update(readFileSync(join(out, e.file!))).digest('hex')).toBe(e.sha);
    const clean = files(out);
    node.setTranslation([t[0] + 3, t[1], t[2]]);
    await io().write(level, doc);
    const moved = await compileLevel(level, { out }, hooks);
    expect(moved.cache!.misses).toBeGreaterThan(0);
    // The replaced files' entries, kept for an undo, are now copies in this build's pack; the rest name files.
    const packs = readdirSync(join(out, '.cache', 'r'));
    expect(packs).toHaveLength(1);
    expect(lines().filter((e) => e.pack !== undefined)).toHaveLength(moved.cache!.misses);
    for (const e of lines()) if (e.file) expect(createHash('sha256').update(readFileSync(join(out, e.file))).digest('hex')).toBe(e.sha);
    // Undone: every resource is a hit again (the replaced ones read from the pack), byte for byte the first build.
    node.setTranslation(t);
    await io().write(level, doc);
    const undone = await compileLevel(level, { out }, hooks);
    expect(undone.cache).toMatchObject({ misses: 0, rejected: 0 });
    expectSameOutput(out, (await compileLevel(level, { out: join(dir, 'clean'), cache: false }, hooks)).outDir);
    for (const [n, b] of clean) expect(b.equals(readFileSync(join(out, n))), n).toBe(true);
  });
  it('an entry whose open corners or seams codes are damaged in the index is a miss, not a wrong file', async () => {
    const dir = join(tmp.dir, 'damaged');
    const out = join(dir, 'out');
    const city = join(SAMPLES, 'city-blocks.glb');
    await compileLevel(city, { out }, hooks);
    const clean = files(out);
    const indexFile = join(out, '.cache', 'index.json');
    const index = JSON.parse(readFileSync(indexFile, 'utf8'));
    const keys = Object.keys(index.entries);
    keys.forEach((k, i) => {
      const [at, length] = index.entries[k].list;
      if (i % 3 === 0) index.entries[k].list = [at, length - 4]; // a word short
      else if (i % 3 === 1) index.entries[k].list = [at + 1e9, length]; // past the lists file
    });
    writeFileSync(indexFile, JSON.stringify(index));
    const r = await compileLevel(city, { out }, hooks);
    expect(r.cache!.misses).toBe(keys.filter((_, i) => i % 3 !== 2).length);
    const now = files(out);
    for (const [n, b] of clean) expect(b.equals(now.get(n)!), n).toBe(true);
    // The lists file itself gone: every entry misses, the output is still a clean build's.
    const again = JSON.parse(readFileSync(indexFile, 'utf8'));
    rmSync(join(out, '.cache', again.lists));
    const s = await compileLevel(city, { out }, hooks);
    expect(s.cache).toMatchObject({ hits: 0 });
    const after = files(out);
    for (const [n, b] of clean) expect(b.equals(after.get(n)!), n).toBe(true);
  });

  it('--cache DIR keeps the cache elsewhere and the output holds none; option changes miss', async () => {
    const dir = join(tmp.dir, 'elsewhere');
    const cache = join(dir, 'cache');
    const a = await compileLevel(join(SAMPLES, 'skatepark.glb'), { out: join(dir, 'a'), cache }, hooks);
    expect(a.cache).toMatchObject({ dir: cache, hits: 0 });
    expect(existsSync(join(dir, 'a', '.cache'))).toBe(false);
    expect(existsSync(join(cache, 'index.json'))).toBe(true);
    const b = await compileLevel(join(SAMPLES, 'skatepark.glb'), { out: join(dir, 'b'), cache }, hooks);
    expect(b.cache!.misses).toBe(0);
    expectSameOutput(join(dir, 'a'), join(dir, 'b'));
    // Another split rule changes the bytes of anything past maxFaces: every key differs.
    const c = await compileLevel(join(SAMPLES, 'skatepark.glb'), { out: join(dir, 'c'), cache, encode: { maxFaces: 50 } }, hooks);
    expect(c.cache!.hits).toBe(0);
    const cClean = await compileLevel(join(SAMPLES, 'skatepark.glb'), { out: join(dir, 'c-clean'), cache: false, encode: { maxFaces: 50 } }, hooks);
    expectSameOutput(join(dir, 'c'), join(dir, 'c-clean'));
    expect(cClean.manifest.geometries).toBeGreaterThan(a.manifest.geometries);
    // The level-wide seams are stored after the cache (a resource's key is its own triangles only): --seams shape
    // through the same cache reuses every resource and still gives the shape build's bytes, and back again the
    // level build's; the files the level build published keep their joins (a reused entry is written anew, not
    // changed in place where the previous output shares it).
    const s = await compileLevel(join(SAMPLES, 'city-blocks.glb'), { out: join(dir, 's-level'), cache }, hooks);
    const published = readFileSync(join(dir, 's-level', 'collision_area_0_0.physics'));
    const t = await compileLevel(join(SAMPLES, 'city-blocks.glb'), { out: join(dir, 's-shape'), cache, seams: 'shape' }, hooks);
    await compileLevel(join(SAMPLES, 'city-blocks.glb'), { out: join(dir, 's-shape-clean'), cache: false, seams: 'shape' }, hooks);
    expectSameOutput(join(dir, 's-shape'), join(dir, 's-shape-clean'));
    expect(s.cache!.misses).toBeGreaterThan(0);
    expect(t.cache).toMatchObject({ misses: 0 });
    expect(readFileSync(join(dir, 's-level', 'collision_area_0_0.physics')).equals(published)).toBe(true);
    const u = await compileLevel(join(SAMPLES, 'city-blocks.glb'), { out: join(dir, 's-level-again'), cache }, hooks);
    expect(u.cache).toMatchObject({ misses: 0 });
    expectSameOutput(join(dir, 's-level-again'), join(dir, 's-level'));
    expect(readFileSync(join(dir, 's-shape', 'collision_area_0_0.physics')).equals(readFileSync(join(dir, 's-shape-clean', 'collision_area_0_0.physics')))).toBe(true);
  });
});

describe('cache pruning', () => {
  // Through --cache DIR (entries are copies, in packs). The entries folder's files, and each index line's pack:
  const onDisk = (cache: string): string[] => readdirSync(join(cache, 'r')).sort();
  const lines = (cache: string): Record<string, { pack: string; at: number; size: number }> => JSON.parse(readFileSync(join(cache, 'index.json'), 'utf8')).entries;
  const named = (cache: string): string[] => [...new Set(Object.values(lines(cache)).map((e) => e.pack))].sort();

  it('an entry no build of the last KEEP_BUILDS used is dropped, packs no line names are removed, and only files of ours go', { timeout: 120_000 }, async () => {
    const dir = join(tmp.dir, 'prune');
    mkdirSync(dir, { recursive: true });
    const out = join(dir, 'out'), cache = join(dir, 'cache');
    const level = join(dir, 'level.glb');
    const doc = await io().read(join(SAMPLES, 'skatepark.glb'));
    const node = doc.getRoot().listNodes().find((n) => n.getMesh() && n.getName() === 'ground')!;
    await io().write(level, doc);
    const first = await compileLevel(level, { out, cache }, hooks);
    const firstKeys = Object.keys(lines(cache));
    expect(firstKeys).toHaveLength(first.manifest.resources.length);
    // A few packs, not a file an entry: the packs on disk are exactly those the index names.
    expect(onDisk(cache)).toEqual(named(cache));
    expect(onDisk(cache).length).toBeLessThan(firstKeys.length);
    // Move the ground twice: its first entry is used by no build of the last KEEP_BUILDS (2) and goes.
    for (const dx of [1, 2]) {
      node.setTranslation([dx, 0, 0]);
      await io().write(level, doc);
      await compileLevel(level, { out, cache }, hooks);
    }
    const now = Object.keys(lines(cache));
    expect(firstKeys.filter((k) => !now.includes(k))).toHaveLength(1);
    expect(now).toHaveLength(firstKeys.length + 1); // the ground's last two entries
    expect(onDisk(cache)).toEqual(named(cache));
    // Strays: a pack of a build that died (old), a pack another build is still writing (newer than this build),
    // an entry file of cache format 5, and a file not of ours.
    const r = join(cache, 'r');
    const old = 'pack-1-1-00000000-0.bin', fresh = 'pack-9-9-ffffffff-m.bin', legacy = `${'0'.repeat(64)}.physics`;
    for (const f of [old, fresh, legacy, 'notes.txt']) writeFileSync(join(r, f), 'stray');
    utimesSync(join(r, old), new Date(Date.now() - 3600e3), new Date(Date.now() - 3600e3));
    utimesSync(join(r, fresh), new Date(Date.now() + 3600e3), new Date(Date.now() + 3600e3));
    await compileLevel(level, { out, cache }, hooks);
    expect(onDisk(cache)).toEqual([...named(cache), fresh, 'notes.txt'].sort());
    // An index that cannot be read: every entry misses, and every pack of ours but the running one's is removed.
    writeFileSync(join(cache, 'index.json'), '{ damaged');
    const again = await compileLevel(level, { out, cache }, hooks);
    expect(again.cache).toMatchObject({ hits: 0 });
    expect(onDisk(cache)).toEqual([...named(cache), fresh, 'notes.txt'].sort());
  });

  it(`a pack whose kept entries fill less than ${COMPACT_BELOW * 100} % of it is compacted: its entries copied (readable), the pack removed`, { timeout: 120_000 }, async () => {
    const dir = join(tmp.dir, 'compact');
    mkdirSync(dir, { recursive: true });
    const out = join(dir, 'out'), cache = join(dir, 'cache');
    const level = join(dir, 'level.glb');
    const doc = await io().read(join(SAMPLES, 'skatepark.glb'));
    const meshNodes = doc.getRoot().listNodes().filter((n) => n.getMesh());
    await io().write(level, doc);
    await compileLevel(level, { out, cache }, hooks);
    const firstPacks = named(cache);
    const kept = meshNodes[meshNodes.length - 1].getName();
    // Every object but one moved, twice: the first build's entries of the moved ones are dropped at the third.
    for (const dx of [5, 9]) {
      for (const n of meshNodes.slice(0, -1)) n.setTranslation([dx, 0, 0]);
      await io().write(level, doc);
      await compileLevel(level, { out, cache }, hooks);
    }
    const packs = named(cache);
    expect(packs.filter((p) => firstPacks.includes(p))).toEqual([]);
    expect(packs.some((p) => p.endsWith('-c.bin'))).toBe(true);
    expect(onDisk(cache)).toEqual(packs);
    // The compacted entry is read (not linked: another output) and gives a clean build's bytes.
    const other = join(dir, 'other');
    const r = await compileLevel(level, { out: other, cache }, hooks);
    expect(r.cache).toMatchObject({ misses: 0, rejected: 0 });
    const clean = join(dir, 'clean');
    await compileLevel(level, { out: clean, cache: false }, hooks);
    expectSameOutput(other, clean);
    // The unmoved object's entry is the one the compaction moved.
    expect(Object.values(lines(cache)).filter((e) => e.pack.endsWith('-c.bin')).length).toBeGreaterThanOrEqual(1);
    expect(r.objects.map((o) => o.source).join(' ')).toContain(kept);
  });
});

describe('the seams step through the cache', () => {
  it('an unchanged rebuild takes every file from the cache, never sharing an inode with an entry (the previous output\'s file linked); a moved object rebuilds only some cells', { timeout: 120_000 }, async () => {
    const dir = join(tmp.dir, 'seamcache');
    mkdirSync(dir, { recursive: true });
    const city = join(SAMPLES, 'city-blocks.glb');
    const out = join(dir, 'out');
    await compileLevel(city, { out }, hooks);
    const inodes = (d: string): Map<string, number> => new Map(readdirSync(d).filter((f) => f.endsWith('.physics')).map((f) => [f, statSync(join(d, f)).ino]));
    const entryInodes = (): Set<number> => new Set(readdirSync(join(out, '.cache', 'r')).map((f) => statSync(join(out, '.cache', 'r', f)).ino));
    const firstBytes = files(out);
    const firstInodes = inodes(out);
    const again = await compileLevel(city, { out }, hooks);
    expect(again.cache).toMatchObject({ misses: 0 });
    const second = inodes(out);
    const entries = entryInodes();
    for (const [f, ino] of second) expect(entries.has(ino), f).toBe(false);
    // Linked from the previous output (no file created again for the same bytes), whose names the swap removed:
    // the first build's inodes, one link each.
    for (const [f, ino] of second) expect([ino, statSync(join(out, f)).nlink], f).toEqual([firstInodes.get(f), 1]);
    const secondBytes = files(out);
    for (const [n, b] of firstBytes) expect(b.equals(secondBytes.get(n)!), n).toBe(true);
    // Move one prop: its cells are encoded again; the others keep their files unless a join of theirs changed.
    const doc = await io().read(city);
    const node = doc.getRoot().listNodes().find((n) => n.getName().startsWith('planter'))!;
    const t = node.getTranslation();
    node.setTranslation([t[0] + 3, t[1], t[2]]);
    const moved = join(dir, 'moved.glb');
    await io().write(moved, doc);
    const r = await compileLevel(moved, { out }, hooks);
    const clean = await compileLevel(moved, { out: join(dir, 'clean'), cache: false }, hooks);
    expectSameOutput(out, join(dir, 'clean'));
    // The first build's entries of the cells it replaced are copies now (a pack), never sharing an inode with the output.
    const packed = entryInodes();
    expect(packed.size).toBeGreaterThan(0);
    for (const [f, ino] of inodes(out)) expect(packed.has(ino), f).toBe(false);
    expect(r.cache!.hits).toBeGreaterThan(r.cache!.misses);
    expect(clean.manifest.seams).toEqual(r.manifest.seams);
  });
});
