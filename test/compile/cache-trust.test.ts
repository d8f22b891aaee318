// Trust, the incremental cache: nothing in it is trusted. A tampered, overwritten, truncated or linked entry (a
// slice of a pack file, src/output/cache-pack.ts), edited index metadata, a key or pack name that is a path, a --cache
// folder of the user's own files: each gives a clean build's bytes and deletes nothing outside the cache. Each case
// fails on the cache before this issue.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLevel as compile } from '../../src/build/compile.ts';
import { tempDir } from '../fixtures/levels.ts';
import { forgetUserKey } from '../../src/build/user-key.ts';
import { outputFiles as files, forgetLastBuild } from '../fixtures/edits.ts';

/** Every rebuild here goes through the cache: the record that lets an unchanged rebuild skip it is dropped first. */
const compileLevel: typeof compile = (input, opts = {}, h) => {
  if (typeof opts.out === 'string') forgetLastBuild(opts.out, typeof opts.cache === 'string' ? opts.cache : undefined);
  return compile(input, opts, h);
};

const LEVEL = fileURLToPath(new URL('../../samples/skatepark.glb', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const tmp = tempDir('sk8-cache-trust-');
afterAll(tmp.cleanup);
const hooks = { logger: { warn: () => {} } };
let n = 0;
let dir = '';
beforeEach(() => {
  dir = join(tmp.dir, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
});

interface Slice {
  key: string;
  pack: string;
  at: number;
  size: number;
}

/**
 * A first build into dir/out through the cache dir/cache (--cache DIR: entries are copies in packs), its clean
 * files, the cache's entries folder and index, and each entry's slice (as the index says).
 */
async function built() {
  const out = join(dir, 'out');
  const cache = join(dir, 'cache');
  await compileLevel(LEVEL, { out, cache }, hooks);
  const indexFile = join(cache, 'index.json');
  const entries: Slice[] = Object.entries(JSON.parse(readFileSync(indexFile, 'utf8')).entries as Record<string, Slice>)
    .map(([key, e]) => ({ key, pack: e.pack, at: e.at, size: e.size }))
    .sort((a, b) => a.pack.localeCompare(b.pack) || a.at - b.at);
  expect(entries.length).toBeGreaterThanOrEqual(3);
  return { out, cache, r: join(cache, 'r'), entries, clean: files(out), indexFile };
}

/** Rewrites bytes of a pack in place. */
function editPack(path: string, edit: (b: Buffer) => void): void {
  const b = readFileSync(path);
  edit(b);
  writeFileSync(path, b);
}

function expectClean(out: string, clean: Map<string, Buffer>): void {
  const now = files(out);
  expect([...now.keys()].sort()).toEqual([...clean.keys()].sort());
  for (const [name, b] of clean) expect(b.equals(now.get(name)!), name).toBe(true);
}

describe('cache entries are checked before reuse', () => {
  it('a flipped byte in an entry is a miss, counted as rejected; the output is a clean build\'s', async () => {
    const c = await built();
    const e = c.entries[0];
    editPack(join(c.r, e.pack), (b) => void (b[e.at + (e.size >> 1)] ^= 0x40));
    // Into the same output the previous (checked) files are linked and the entries not even read: clean.
    expectClean((await compileLevel(LEVEL, { out: c.out, cache: c.cache }, hooks)).outDir, c.clean);
    // Into another output through the same cache, the entries are what is reused: the flipped one is rejected.
    const r = await compileLevel(LEVEL, { out: join(dir, 'out2'), cache: c.cache }, hooks);
    expect(r.cache!.misses).toBeGreaterThanOrEqual(1);
    expect((r.cache as { rejected?: number }).rejected).toBeGreaterThanOrEqual(1);
    expectClean(join(dir, 'out2'), c.clean);
  });

  it('an entry overwritten with another\'s bytes, and a pack cut short inside an entry, are misses', async () => {
    const c = await built();
    const [a, b] = c.entries;
    const other = readFileSync(join(c.r, b.pack)).subarray(b.at, b.at + b.size);
    editPack(join(c.r, a.pack), (p) => void p.set(other.subarray(0, Math.min(a.size, other.length)), a.at));
    const last = c.entries[c.entries.length - 1];
    truncateSync(join(c.r, last.pack), last.at + 100);
    expectClean((await compileLevel(LEVEL, { out: c.out, cache: c.cache }, hooks)).outDir, c.clean);
    const r = await compileLevel(LEVEL, { out: join(dir, 'out2'), cache: c.cache }, hooks);
    expect(r.cache!.misses).toBeGreaterThanOrEqual(2);
    expect(r.cache!.rejected).toBeGreaterThanOrEqual(2);
    expectClean(join(dir, 'out2'), c.clean);
  });

  it('a pack replaced by a link to another file is not followed, not published as a link, not removed', async () => {
    const c = await built();
    const victim = join(dir, 'secret.bin');
    const e = c.entries[0];
    // The link's target holds the very bytes the pack did: only the link itself makes it a miss.
    const bytes = readFileSync(join(c.r, e.pack));
    writeFileSync(victim, bytes);
    unlinkSync(join(c.r, e.pack));
    symlinkSync(victim, join(c.r, e.pack));
    const r = await compileLevel(LEVEL, { out: join(dir, 'out2'), cache: c.cache }, hooks);
    expect(r.cache!.rejected).toBeGreaterThanOrEqual(1);
    expectClean(join(dir, 'out2'), c.clean);
    expect(readFileSync(victim).equals(bytes)).toBe(true);
    expect(readdirSync(join(dir, 'out2')).filter((f) => f.endsWith('.physics')).every((f) => !lstatSync(join(dir, 'out2', f)).isSymbolicLink())).toBe(true);
  });

  it('edited index metadata (faces, bounds) is a miss: the manifest is a clean build\'s', async () => {
    const c = await built();
    const cleanManifest = JSON.parse(readFileSync(join(c.out, 'manifest.json'), 'utf8'));
    const index = JSON.parse(readFileSync(c.indexFile, 'utf8'));
    for (const e of Object.values(index.entries) as { meta: Record<string, unknown> }[]) {
      e.meta = JSON.parse(JSON.stringify(e.meta).replace(/\d+(\.\d+)?/g, (m) => String(Number(m) + 1)));
    }
    writeFileSync(c.indexFile, JSON.stringify(index));
    const r = await compileLevel(LEVEL, { out: c.out, cache: c.cache }, hooks);
    expect(r.cache!.hits).toBe(0);
    expect(JSON.parse(readFileSync(join(c.out, 'manifest.json'), 'utf8')).resources).toEqual(cleanManifest.resources);
    expectClean(c.out, c.clean);
  });

  it('an index key or pack name that is a path never reaches the file it names', async () => {
    const c = await built();
    const victims = join(dir, 'victims');
    mkdirSync(victims);
    writeFileSync(join(victims, 'victim.physics'), 'keep me');
    // A pack-shaped name two folders up, holding an entry's very bytes: only its name's being a path refuses it.
    const e = c.entries[0];
    writeFileSync(join(victims, 'pack-1-1-00000000-0.bin'), readFileSync(join(c.r, e.pack)));
    const index = JSON.parse(readFileSync(c.indexFile, 'utf8'));
    index.entries['../../../victims/victim'] = { ...index.entries[e.key], used: -1000 };
    index.entries[e.key].pack = '../../../victims/pack-1-1-00000000-0.bin';
    writeFileSync(c.indexFile, JSON.stringify(index));
    for (let i = 0; i < 3; i++) {
      const r = await compileLevel(LEVEL, { out: join(dir, `o${i}`), cache: c.cache }, hooks);
      if (i === 0) expect(r.cache!.misses).toBe(1); // the entry whose pack was a path
      expectClean(join(dir, `o${i}`), c.clean);
    }
    expect(readFileSync(join(victims, 'victim.physics'), 'utf8')).toBe('keep me');
    expect(readdirSync(victims).sort()).toEqual(['pack-1-1-00000000-0.bin', 'victim.physics']);
  });

  it('in the output\'s own cache, an index line naming an output file by a path is dropped, and that file is never read', async () => {
    const out = join(dir, 'out');
    await compileLevel(LEVEL, { out }, hooks);
    const clean = files(out);
    const indexFile = join(out, '.cache', 'index.json');
    const index = JSON.parse(readFileSync(indexFile, 'utf8'));
    const lines = Object.values(index.entries) as { file?: string; pack?: string }[];
    expect(lines.every((e) => typeof e.file === 'string' && e.pack === undefined)).toBe(true); // no second copy
    // The victim holds the very bytes the line's file did: only its name's being a path refuses it.
    const [key] = Object.keys(index.entries);
    const victims = join(dir, 'victims');
    mkdirSync(victims);
    writeFileSync(join(victims, index.entries[key].file), readFileSync(join(out, index.entries[key].file)));
    index.entries[key].file = `../../victims/${index.entries[key].file}`;
    writeFileSync(indexFile, JSON.stringify(index));
    // Its file is not linked (out's own file of the job's name would be, but the line is not an entry): one miss.
    const r = await compileLevel(LEVEL, { out }, hooks);
    expect(r.cache).toMatchObject({ misses: 1, hits: r.manifest.resources.length - 1 });
    expectClean(out, clean);
  });

  it('a FIFO planted as the index or the lists file does not block the build: every entry misses, the output is clean', { timeout: 60_000 }, async () => {
    for (const which of ['index', 'lists'] as const) {
      const c = await built();
      const lists = JSON.parse(readFileSync(c.indexFile, 'utf8')).lists as string;
      const path = which === 'index' ? c.indexFile : join(c.cache, lists);
      unlinkSync(path);
      execFileSync('mkfifo', [path]);
      // As a user runs it, in a child with a time limit: a read that blocks fails the test instead of hanging it.
      const r = spawnSync(process.execPath, [BIN, LEVEL, '-o', join(dir, `out-${which}`), '--cache', c.cache, '--no-report'], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 30_000 });
      expect([r.status, r.signal], `${which}: ${r.stderr}`).toEqual([0, null]);
      expect(r.stdout, which).toMatch(/cache: \d+ resource\(s\) encoded, 0 reused/);
      expectClean(join(dir, `out-${which}`), c.clean);
      rmSync(c.out, { recursive: true });
      rmSync(c.cache, { recursive: true });
    }
  });

  it('a planted link at a guessed temporary name is not written through', async () => {
    const c = await built();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'unchanged');
    for (const pid of [process.pid]) {
      symlinkSync(victim, join(c.cache, `index.json.${pid}.tmp`));
    }
    await compileLevel(LEVEL, { out: c.out, cache: c.cache }, hooks);
    expect(readFileSync(victim, 'utf8')).toBe('unchanged');
  });
});

describe('a cache folder that is not ours', () => {
  it('--cache at a non-empty folder of the user\'s files is refused, naming it, and nothing there is deleted', async () => {
    const user = join(dir, 'U');
    mkdirSync(join(user, 'r'), { recursive: true });
    writeFileSync(join(user, 'notes.txt'), 'mine');
    writeFileSync(join(user, 'r', 'analysis.R'), 'mine too');
    // A folder with an r/ but no index: its r/ is swept only of entry-shaped plain files.
    const r = compileLevel(LEVEL, { out: join(dir, 'out'), cache: join(user) }, hooks);
    await r.catch(() => undefined);
    expect(readFileSync(join(user, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(user, 'r', 'analysis.R'), 'utf8')).toBe('mine too');
    const only = join(dir, 'V');
    mkdirSync(only);
    writeFileSync(join(only, 'thesis.docx'), 'mine');
    await expect(compileLevel(LEVEL, { out: join(dir, 'out2'), cache: only }, hooks)).rejects.toThrow(/cache: .*V is not empty and holds no cache of compile-collision \(thesis\.docx\)/);
    expect(existsSync(join(only, 'thesis.docx'))).toBe(true);
  });

  it('.cache/r as a link to a user folder is refused; the folder keeps its files', async () => {
    const c = await built();
    const user = join(dir, 'mine');
    mkdirSync(user);
    writeFileSync(join(user, 'analysis.R'), 'x');
    rmSync(c.r, { recursive: true });
    symlinkSync(user, c.r);
    await compileLevel(LEVEL, { out: c.out, cache: c.cache }, hooks).catch((e: Error) => expect(e.message).toMatch(/cache: .*r is a symbolic link/));
    expect(readdirSync(user)).toEqual(['analysis.R']);
  });
});

describe('the seal is keyed by the user\'s secret', () => {
  /** The seal as a plain sha256 (what anyone who can write the cache can compute). */
  function plainSeal(e: { sha: string; fp: number; size: number; meta: unknown; list: [number, number] }, lists: Buffer): string {
    return createHash('sha256').update(`${e.sha}\0${e.fp}\0${e.size}\0${JSON.stringify(e.meta)}\0`).update(lists.subarray(e.list[0], e.list[0] + e.list[1])).digest('hex');
  }

  it('consistent tampers re-sealed with a plain sha256 are misses: another line under a key, another entry\'s bytes, edited numbers', async () => {
    const tampers: [string, (index: any, lists: Buffer, keys: string[]) => void][] = [
      // Entry B's whole line, seal and all, under key A: a plain seal does not cover the key.
      ['line moved', (index, _l, [a, b]) => void (index.entries[a] = { ...index.entries[b] })],
      // A's line pointing at B's bytes (slice, digest, fingerprint), sealed again.
      ['bytes swapped', (index, lists, [a, b]) => {
        const ea = index.entries[a], eb = index.entries[b];
        Object.assign(ea, { pack: eb.pack, at: eb.at, size: eb.size, sha: eb.sha, fp: eb.fp });
        ea.seal = plainSeal(ea, lists);
      }],
      // Every line's manifest numbers edited, sealed again.
      ['numbers edited', (index, lists, keys) => {
        for (const k of keys) {
          const e = index.entries[k];
          e.meta = JSON.parse(JSON.stringify(e.meta).replace(/\d+(\.\d+)?/g, (m) => String(Number(m) + 1)));
          e.seal = plainSeal(e, lists);
        }
      }],
    ];
    for (const [what, tamper] of tampers) {
      const c = await built();
      const cleanManifest = JSON.parse(readFileSync(join(c.out, 'manifest.json'), 'utf8'));
      const index = JSON.parse(readFileSync(c.indexFile, 'utf8'));
      const lists = readFileSync(join(c.cache, index.lists));
      // Two entries of different bytes.
      const keys = Object.keys(index.entries);
      const b = keys.find((k) => index.entries[k].sha !== index.entries[keys[0]].sha)!;
      tamper(index, lists, [keys[0], b, ...keys.filter((k) => k !== keys[0] && k !== b)]);
      writeFileSync(c.indexFile, JSON.stringify(index));
      const out2 = join(dir, `out-${what.replace(/ /g, '-')}`);
      const r = await compileLevel(LEVEL, { out: out2, cache: c.cache }, hooks);
      expect(r.cache!.rejected, what).toBeGreaterThanOrEqual(1);
      expectClean(out2, c.clean);
      expect(JSON.parse(readFileSync(join(out2, 'manifest.json'), 'utf8')).resources, what).toEqual(cleanManifest.resources);
      dir = join(dir, 'next');
      mkdirSync(dir);
    }
  });

  it('the key is a 0600 file of 32 bytes in the user\'s 0700 folder; a key that others can write is not used', async () => {
    const home = join(dir, 'xdg');
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = home;
    forgetUserKey();
    try {
      const c = await built();
      const keyFile = join(home, 'skate-collision', 'cache-seal.key');
      expect(lstatSync(join(home, 'skate-collision')).mode & 0o777).toBe(0o700);
      expect(lstatSync(keyFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(keyFile).length).toBe(32);
      // The next process reads the same key: its entries hit.
      forgetUserKey();
      const r = await compileLevel(LEVEL, { out: join(dir, 'again'), cache: c.cache }, hooks);
      expect(r.cache!.hits).toBe(r.manifest.resources.length);
      // A key file others could have written is not trusted: a random key for the run, so nothing of before hits.
      chmodSync(keyFile, 0o666);
      forgetUserKey();
      const r2 = await compileLevel(LEVEL, { out: join(dir, 'again2'), cache: c.cache }, hooks);
      expect(r2.cache!.hits).toBe(0);
      expectClean(join(dir, 'again2'), c.clean);
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
      forgetUserKey();
    }
  });
});

describe('a cache folder others can write, or another user\'s, is refused by name', () => {
  it('--cache at a 0777 folder, a 0775 one, and one owned by another user: refused, naming it; nothing written there', async () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    await expect(compileLevel(LEVEL, { out: join(dir, 'o1'), cache: shared }, hooks)).rejects.toThrow(/cache: .*shared is writable by every user \(mode 0777\); refusing to use it/);
    chmodSync(shared, 0o775);
    await expect(compileLevel(LEVEL, { out: join(dir, 'o2'), cache: shared }, hooks)).rejects.toThrow(/cache: .*shared is writable by its group \(mode 0775\)/);
    expect(readdirSync(shared)).toEqual([]);
    if (process.getuid?.() === 0) {
      chmodSync(shared, 0o755);
      chownSync(shared, 65534, 65534);
      await expect(compileLevel(LEVEL, { out: join(dir, 'o3'), cache: shared }, hooks)).rejects.toThrow(/cache: .*shared is owned by another user \(uid 65534\)/);
    }
    // As a user runs it: exit 1 with the message, no stack.
    if (process.getuid?.() === 0) chownSync(shared, 0, 0);
    chmodSync(shared, 0o777);
    const r = spawnSync(process.execPath, [BIN, LEVEL, '-o', join(dir, 'o4'), '--cache', shared, '--no-report'], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/shared is writable by every user/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--cache at a symbolic-link loop or a file: a clear error naming it, no ELOOP trace', async () => {
    const loop = join(dir, 'loop');
    symlinkSync(loop, loop);
    await expect(compileLevel(LEVEL, { out: join(dir, 'o1'), cache: loop }, hooks)).rejects.toThrow(/^cache: .*loop cannot be used as a cache folder: it is a symbolic link loop$/);
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    await expect(compileLevel(LEVEL, { out: join(dir, 'o2'), cache: file }, hooks)).rejects.toThrow(/^cache: .*file cannot be used as a cache folder: it is a file$/);
  });

  it('the output\'s own .cache left group-writable by an older build is made 0700, and used', async () => {
    const out = join(dir, 'out');
    await compileLevel(LEVEL, { out }, hooks);
    chmodSync(join(out, '.cache'), 0o775);
    forgetLastBuild(out);
    const r = await compileLevel(LEVEL, { out }, hooks);
    expect(r.cache!.hits).toBe(r.manifest.resources.length);
    expect(lstatSync(join(out, '.cache')).mode & 0o777).toBe(0o700);
  });
});
