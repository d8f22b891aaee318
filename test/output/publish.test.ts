// The output directory is the user's: a rebuild removes only what the previous build wrote, refuses anything else,
// never builds from inside it, survives a kill at any point of the swap, follows a symlinked -o, and writes only
// names a Windows mod folder can hold (src/output/: no data loss).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLevel, type Manifest } from '../../src/build/compile.ts';
import { inspectOutput, OWNED_ENTRIES, STAGING_MARKER } from '../../src/output/ownership.ts';
import { recoverOutput } from '../../src/output/recovery.ts';
import { resolveOutDir, type PublishStep } from '../../src/output/staging.ts';
import { sanitizeName } from '../../src/model.ts';
import { addNode, boxMesh, gridMesh, newLevel, tempDir, writeBigLevel, writeLevel } from '../fixtures/levels.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const CHILD = fileURLToPath(new URL('../fixtures/publish-child.ts', import.meta.url));
const tmp = tempDir('sk8-publish-');
afterAll(tmp.cleanup);
const warnings: string[] = [];
const hooks = { logger: { warn: (m: string) => void warnings.push(m) } };
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });
const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
/** Temporary and old siblings of an output directory left in its parent. */
const siblings = (out: string): string[] => readdirSync(join(out, '..')).filter((n) => n.startsWith(`.${out.split('/').pop()}.`));

async function park(path: string): Promise<string> {
  const doc = newLevel();
  addNode(doc, { name: 'ground', ...gridMesh(6, 6, 2, [-6, 0, -6]), material: 'concrete' });
  addNode(doc, { name: 'funbox', ...boxMesh([3, 0.25, 3], [1, 0.25, 2]), material: 'wood' });
  mkdirSync(join(path, '..'), { recursive: true });
  return writeLevel(doc, path);
}

/** The directory holds one complete build: every listed file a plain file, nothing else but the manifest and owned entries. */
function expectComplete(out: string): Manifest {
  const m = manifestOf(out);
  for (const f of m.files) expect(lstatSync(join(out, f)).isFile()).toBe(true);
  expect(readdirSync(out).filter((n) => !OWNED_ENTRIES.includes(n)).sort()).toEqual([...m.files, 'manifest.json'].sort());
  return m;
}

describe('a rebuild removes only what the previous build wrote', () => {
  it('the manifest lists every file the build wrote (resources and streaming plan)', async () => {
    const r = await compileLevel(await park(join(tmp.dir, 'list/level.glb')), { tiling: 'cells', budget: 1 }, hooks);
    expect(r.manifest.files).toContain('streaming-plan.json');
    expect(r.manifest.files.filter((f) => f.endsWith('.physics')).sort()).toEqual(r.manifest.resources.map((x) => x.file).sort());
    expectComplete(r.outDir);
  });

  it('an input inside the output directory is refused before any work (the CLI, as the issue ran it)', async () => {
    const level = await park(join(tmp.dir, 'inside/M/level.glb'));
    const first = cli('inside/M/level.glb', '-o', 'inside/M2');
    expect(first.status).toBe(0);
    // M is an earlier output that also holds the level: the old code deleted the level with the rebuild.
    cpSync(join(tmp.dir, 'inside/M2'), join(tmp.dir, 'inside/M'), { recursive: true });
    const r = cli('inside/M/level.glb', '-o', 'inside/M');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/publish: input inside\/M\/level\.glb is inside the output directory .*inside\/M; refusing to build/);
    expect(existsSync(level)).toBe(true);
    expect(readdirSync(join(tmp.dir, 'inside/M'))).toContain('level.glb');
    // The same through a symlink to the directory.
    symlinkSync(join(tmp.dir, 'inside/M'), join(tmp.dir, 'inside/link'));
    expect(cli('inside/link/level.glb', '-o', 'inside/M').status).toBe(1);
    expect(existsSync(level)).toBe(true);
  });

  it("refuses an earlier output holding the user's files, naming them, and keeps every file", async () => {
    const level = await park(join(tmp.dir, 'foreign/level.glb'));
    const out = join(tmp.dir, 'foreign/out');
    await compileLevel(level, { out }, hooks);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    mkdirSync(join(out, 'textures'));
    const before = readdirSync(out).sort();
    await expect(compileLevel(level, { out }, hooks)).rejects.toThrow(/publish: .*foreign\/out holds 2 entries the previous build did not write: notes\.txt, textures; refusing/);
    expect(readdirSync(out).sort()).toEqual(before);
    const r = cli('foreign/level.glb', '-o', 'foreign/out');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/notes\.txt, textures/);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('a file of the user put into the output while the build runs: refused at the publish, every file kept', async () => {
    const level = await park(join(tmp.dir, 'during/level.glb'));
    const out = join(tmp.dir, 'during/out');
    await compileLevel(level, { out }, hooks);
    const before = readdirSync(out).sort();
    const manifest = readFileSync(join(out, 'manifest.json'));
    const planted = { ...hooks, onProgress: (stage: string, done: number) => void (stage === 'plan' && done === 0 && writeFileSync(join(out, 'notes.txt'), 'mine')) };
    await expect(compileLevel(level, { out, cache: false }, planted)).rejects.toThrow(/publish: .*during\/out holds 1 entry the previous build did not write: notes\.txt; refusing/);
    expect(readdirSync(out).sort()).toEqual([...before, 'notes.txt'].sort());
    expect(readFileSync(join(out, 'manifest.json')).equals(manifest)).toBe(true);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(join(tmp.dir, 'during')).sort()).toEqual(['level.glb', 'out']); // no temporary sibling left
  });

  it('a manifest edited in place between builds (same size, same inode) is read again, not taken as remembered', async () => {
    const level = await park(join(tmp.dir, 'edited/level.glb'));
    const out = join(tmp.dir, 'edited/out');
    await compileLevel(level, { out }, hooks);
    await compileLevel(level, { out }, hooks); // the manifest read (and remembered) once more
    // The user's file takes the name of a listed resource's entry in `files`, padded to the same length.
    const path = join(out, 'manifest.json');
    const m = manifestOf(out);
    const size = statSync(path).size;
    const listed = m.files.find((f) => f.endsWith('.physics'))!;
    m.files = m.files.map((f) => (f === listed ? `${'x'.repeat(listed.length - '.physics'.length)}.physics` : f));
    writeFileSync(path, `${JSON.stringify(m, null, 2)}\n`); // in place: same inode, same size
    expect(statSync(path).size).toBe(size);
    await expect(compileLevel(level, { out }, hooks)).rejects.toThrow(new RegExp(`holds 1 entry the previous build did not write: ${listed.replace('.', '\\.')}`));
    expect(existsSync(join(out, listed))).toBe(true);
  });

  it('a hand-written manifest naming the tool does not make a directory an output', async () => {
    const dir = join(tmp.dir, 'fake');
    mkdirSync(dir);
    writeFileSync(join(dir, 'manifest.json'), '{"tool":{"name":"compile-collision"}}');
    writeFileSync(join(dir, 'essay.doc'), 'precious');
    writeFileSync(join(dir, 'ground.physics'), 'not ours either: not listed');
    await expect(compileLevel(await park(join(tmp.dir, 'fake-level.glb')), { out: dir }, hooks)).rejects.toThrow(/holds 2 entries the previous build did not write: essay\.doc, ground\.physics/);
    expect(readdirSync(dir).sort()).toEqual(['essay.doc', 'ground.physics', 'manifest.json']);
  });

  it('a listed name that is a symlink or a directory is foreign (its target is never touched)', async () => {
    const level = await park(join(tmp.dir, 'linked/level.glb'));
    const out = join(tmp.dir, 'linked/out');
    await compileLevel(level, { out }, hooks);
    writeFileSync(join(tmp.dir, 'linked/target.txt'), 'keep');
    rmSync(join(out, 'ground.physics'));
    symlinkSync(join(tmp.dir, 'linked/target.txt'), join(out, 'ground.physics'));
    await expect(compileLevel(level, { out }, hooks)).rejects.toThrow(/ground\.physics \(listed, but not a plain file\)/);
    expect(readFileSync(join(tmp.dir, 'linked/target.txt'), 'utf8')).toBe('keep');
  });

  it('removes the previous files, keeps nothing stale, and carries the tool-owned .cache/ over (moved, not copied)', async () => {
    const level = await park(join(tmp.dir, 'cache/level.glb'));
    const out = join(tmp.dir, 'cache/out');
    await compileLevel(level, { out, tiling: 'objects' }, hooks);
    mkdirSync(join(out, '.cache'), { recursive: true }); // the build's own cache may be there already
    writeFileSync(join(out, '.cache/entry.bin'), 'cached');
    const ino = statSync(join(out, '.cache/entry.bin')).ino;
    const r = await compileLevel(level, { out, tiling: 'cells' }, hooks);
    expect(r.manifest.layout).toBe('cells');
    expectComplete(out);
    expect(readdirSync(out)).not.toContain('ground.physics');
    expect(statSync(join(out, '.cache/entry.bin')).ino).toBe(ino);
    expect(siblings(out)).toEqual([]);
  });

  it("an output of an earlier version (a manifest without `files`) is replaced by its resources' files", async () => {
    const level = await park(join(tmp.dir, 'legacy/level.glb'));
    const out = join(tmp.dir, 'legacy/out');
    const first = await compileLevel(level, { out, tiling: 'objects' }, hooks);
    const { files: _, ...legacy } = first.manifest;
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(legacy));
    await compileLevel(level, { out, tiling: 'cells' }, hooks);
    expect(expectComplete(out).layout).toBe('cells');
    writeFileSync(join(out, 'manifest.json'), JSON.stringify({ ...legacy, resources: [] }));
    await expect(compileLevel(level, { out }, hooks)).rejects.toThrow(/collision_area_0_0\.physics/);
  });

  it('an empty directory may be used; a file is not a directory', async () => {
    mkdirSync(join(tmp.dir, 'empty'));
    await compileLevel(await park(join(tmp.dir, 'empty-level.glb')), { out: join(tmp.dir, 'empty') }, hooks);
    expectComplete(join(tmp.dir, 'empty'));
    writeFileSync(join(tmp.dir, 'afile'), 'x');
    await expect(compileLevel(join(tmp.dir, 'empty-level.glb'), { out: join(tmp.dir, 'afile') }, hooks)).rejects.toThrow(/afile exists and is not a directory/);
  });
});

describe('a kill between the renames (library hook) leaves a recoverable output', () => {
  let level: string;
  beforeAll(async () => {
    level = await park(join(tmp.dir, 'kill/level.glb'));
  });
  const steps: [PublishStep, 'old' | 'new'][] = [['staged', 'old'], ['old-moved', 'new'], ['owned-carried', 'new'], ['new-in-place', 'new']];
  for (const [step, expected] of steps) {
    it(`killed at "${step}": the next run finds the ${expected} output complete and removes what is stale`, async () => {
      const out = join(tmp.dir, `kill/out-${step}`);
      await compileLevel(level, { out, tiling: 'objects' }, hooks); // the old build: one resource per object
      mkdirSync(join(out, '.cache'), { recursive: true });
      writeFileSync(join(out, '.cache/k'), 'v');
      const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD, level, out, step, 'cells'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(child.signal).toBe('SIGKILL');
      if (step === 'old-moved' || step === 'owned-carried') {
        expect(existsSync(out)).toBe(false); // what the old code left forever
        expect(siblings(out).some((n) => n.includes('.old-')) && siblings(out).some((n) => n.includes('.tmp-'))).toBe(true);
      }
      const done = recoverOutput(out, hooks.logger);
      expect(done.length).toBeGreaterThan(0);
      const m = expectComplete(out);
      expect(m.layout).toBe(expected === 'old' ? 'objects' : 'cells');
      expect(readFileSync(join(out, '.cache/k'), 'utf8')).toBe('v');
      expect(siblings(out)).toEqual([]);
    });
  }

  it('the CLI on that directory repairs it too, then builds', async () => {
    const out = join(tmp.dir, 'kill/out-cli');
    await compileLevel(level, { out, tiling: 'objects' }, hooks);
    const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD, level, out, 'old-moved', 'cells'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(child.signal).toBe('SIGKILL');
    expect(existsSync(out)).toBe(false);
    const r = cli('kill/level.glb', '-o', 'kill/out-cli', '--tiling', 'objects');
    expect(r.status).toBe(0);
    expect(expectComplete(out).layout).toBe('objects');
    expect(siblings(out)).toEqual([]);
  });

  it("removes stale temporary directories of ours (a dead pid, a legacy name), never a live build's or a user's file", () => {
    const out = join(tmp.dir, 'stale/out');
    mkdirSync(out, { recursive: true });
    const mk = (name: string, files: string[]): string => {
      const d = join(tmp.dir, 'stale', name);
      mkdirSync(d);
      for (const f of files) writeFileSync(join(d, f), 'x');
      return d;
    };
    const dead = mk('.out.tmp-999999999-abc123', [STAGING_MARKER, 'a.physics', 'b.physics']);
    const legacy = mk('.out.tmp-Xy12ab', ['a.physics', 'manifest.json']);
    const live = mk(`.out.tmp-${process.ppid}-zzz999`, [STAGING_MARKER, 'a.physics']);
    const user = mk('.out.tmp-999999998-qqq111', [STAGING_MARKER, 'a.physics', 'keep.txt']);
    const other = mk('.out.tmp-notes', ['keep.txt']);
    const log: string[] = [];
    recoverOutput(out, { warn: (m) => void log.push(m) });
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(legacy)).toBe(false);
    expect(readdirSync(live).sort()).toEqual([STAGING_MARKER, 'a.physics'].sort());
    expect(readdirSync(user)).toEqual(['keep.txt']);
    expect(log.some((m) => m.includes('keep.txt') && m.includes('left in place'))).toBe(true);
    expect(readdirSync(other)).toEqual(['keep.txt']);
  });

  it('a failed rebuild removes its temporary directory and leaves the old output', async () => {
    const out = join(tmp.dir, 'kill/out-fail');
    await compileLevel(level, { out }, hooks);
    const bad = join(tmp.dir, 'kill/bad.gltf');
    writeFileSync(bad, '{"asset":{"version":"2.0"},"meshes":[{"primitives":[]}],"nodes":[{"mesh":0}]}');
    await expect(compileLevel(bad, { out }, hooks)).rejects.toThrow(/no collision triangles/);
    expectComplete(out);
    expect(siblings(out)).toEqual([]);
  });
});

describe('kills at random points of a 1M-triangle build', () => {
  it('always leave the old or the new complete output after the next run', { timeout: 240_000 }, async () => {
    const dir = join(tmp.dir, 'big');
    mkdirSync(dir);
    const level = await writeBigLevel(join(dir, 'big.glb'));
    const out = join(dir, 'out');
    // The old output: 200 m cells; the new: 100 m cells. A reference of each, to compare bytes with.
    const run = (o: string, cell: string) => spawn(process.execPath, [BIN, level, '-o', o, '--tiling', 'cells', '--cell-size', cell], { stdio: 'ignore' });
    const finish = (p: ReturnType<typeof spawn>): Promise<number | null> => new Promise((r) => p.on('exit', (code) => r(code)));
    const timed = async (o: string, cell: string): Promise<number> => {
      const t0 = performance.now();
      expect(await finish(run(o, cell))).toBe(0);
      return performance.now() - t0;
    };
    const wall = Math.min(await timed(join(dir, 'ref-new'), '100'), await timed(join(dir, 'ref-old'), '200'));
    const sizes = (d: string): Record<string, number> => Object.fromEntries(readdirSync(d).filter((f) => f !== 'manifest.json').map((f) => [f, statSync(join(d, f)).size]));
    const refNew = sizes(join(dir, 'ref-new'));
    const refOld = sizes(join(dir, 'ref-old'));
    let seed = 11;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const seen: string[] = [];
    // Three kills at seeded random points, one in each third of [0.2, 1.1] × an unkilled run's wall time, so the
    // last ones can land in the publish (the machine is shared: few kills).
    for (let k = 0; k < 3; k++) {
      rmSync(out, { recursive: true, force: true });
      cpSync(join(dir, 'ref-old'), out, { recursive: true });
      const p = run(out, '100');
      const exited = finish(p); // listening from the start: the build may end before the kill
      const delay = wall * (0.2 + 0.3 * (k + rnd()));
      await new Promise((r) => setTimeout(r, delay));
      p.kill('SIGKILL');
      await exited;
      recoverOutput(out, hooks.logger);
      const m = expectComplete(out);
      expect(sizes(out)).toEqual(m.options.cellSize === 100 ? refNew : refOld);
      expect(siblings(out)).toEqual([]);
      seen.push(`${delay.toFixed(0)} ms: ${m.options.cellSize === 100 ? 'new' : 'old'}`);
    }
    console.log(`1M build (${wall.toFixed(0)} ms unkilled), killed at ${seen.join('; ')}`);
  });
});

describe('-o given as a symbolic link', () => {
  it('publishes into the link target and keeps the link', async () => {
    const level = await park(join(tmp.dir, 'sym/level.glb'));
    const target = join(tmp.dir, 'sym/real-out');
    await compileLevel(level, { out: target, tiling: 'objects' }, hooks);
    symlinkSync(target, join(tmp.dir, 'sym/link'));
    const r = await compileLevel(level, { out: join(tmp.dir, 'sym/link'), tiling: 'cells' }, hooks);
    expect(r.outDir).toBe(target);
    expect(lstatSync(join(tmp.dir, 'sym/link')).isSymbolicLink()).toBe(true);
    expect(manifestOf(target).layout).toBe('cells');
    expect(resolveOutDir(join(tmp.dir, 'sym/link'))).toBe(target);
  });
  it('a dangling link gets a clear message (CLI), not a raw ENOTDIR', async () => {
    await park(join(tmp.dir, 'dangle/level.glb'));
    symlinkSync(join(tmp.dir, 'dangle/nowhere'), join(tmp.dir, 'dangle/out'));
    const r = cli('dangle/level.glb', '-o', 'dangle/out');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/publish: output .*dangle\/out is a symbolic link to .*dangle\/nowhere, which does not exist \(ENOENT\); create the directory or remove the link/);
    expect(r.stderr).not.toMatch(/ENOTDIR|rename/);
    expect(lstatSync(join(tmp.dir, 'dangle/out')).isSymbolicLink()).toBe(true);
  });
});

describe('Windows-reserved file names', () => {
  it('maps CON, NUL, COM1, LPT9, aux.txt, prn. and trailing dots like other unsafe names', () => {
    expect(['CON', 'NUL', 'COM1', 'LPT9', 'aux.txt', 'prn.', 'con.tar.gz', 'Com0', 'rail...'].map(sanitizeName)).toEqual([
      'CON_', 'NUL_', 'COM1_', 'LPT9_', 'aux_.txt', 'prn_', 'con_.tar.gz', 'Com0_', 'rail___',
    ]);
    expect(['CONSOLE', 'COM10', 'nullable', 'lpt', 'ok.name'].map(sanitizeName)).toEqual(['CONSOLE', 'COM10', 'nullable', 'lpt', 'ok.name']);
  });
  it('a level with such objects writes files a Windows folder can hold', async () => {
    const doc = newLevel();
    ['CON', 'NUL', 'COM1', 'LPT9', 'aux.txt', 'prn.'].forEach((name, i) => addNode(doc, { name, ...boxMesh([i * 3, 0.5, 0], [1, 0.5, 1]) }));
    const r = await compileLevel(await writeLevel(doc, join(tmp.dir, 'win.glb')), {}, hooks);
    const files = readdirSync(r.outDir).filter((f) => !OWNED_ENTRIES.includes(f)).sort();
    expect(files).toEqual(['AUX_.txt.physics', 'COM1_.physics', 'CON_.physics', 'LPT9_.physics', 'NUL_.physics', 'manifest.json', 'prn_.physics'].map((f) => (f === 'AUX_.txt.physics' ? 'aux_.txt.physics' : f)).sort());
    for (const f of files) expect(f.split('.')[0]).not.toMatch(/^(CON|PRN|AUX|NUL|COM\d|LPT\d)$/i);
  });
});

describe('inspectOutput', () => {
  it('lists what a rebuild would remove, the manifest last', async () => {
    const r = await compileLevel(await park(join(tmp.dir, 'insp/level.glb')), {}, hooks);
    const prev = inspectOutput(r.outDir);
    expect(prev.files.at(-1)).toBe('manifest.json');
    expect(prev.files.slice(0, -1).sort()).toEqual([...r.manifest.files].sort());
    renameSync(join(r.outDir, 'ground.physics'), join(r.outDir, 'ground.physics.bak'));
    expect(() => inspectOutput(r.outDir)).toThrow(/ground\.physics\.bak/);
  });
});
