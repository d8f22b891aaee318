// Trust, the output directory: a manifest.json is not trusted to say what may be deleted (a forged one listing
// the user's files gets nothing deleted), and one build of an output runs at a time (the `.K.lock` beside it).
// The forged-manifest and held-lock cases fail on the publisher before this issue (the file was deleted; the
// second build ran beside the first).
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { compileLevel, type Manifest } from '../../src/build/compile.ts';
import { lockOutput, lockPath } from '../../src/output/lock.ts';
import { tempDir } from '../fixtures/levels.ts';
import { outputFiles as files } from '../fixtures/edits.ts';

const LEVEL = fileURLToPath(new URL('../../samples/skatepark.glb', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const tmp = tempDir('sk8-publish-trust-');
afterAll(tmp.cleanup);
const hooks = { logger: { warn: () => {} } };
let n = 0;
let dir = '';
beforeEach(() => {
  dir = join(tmp.dir, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
});
const THESIS = Buffer.from('PK\x03\x04 my thesis, five years of work');
const hex8 = (b: Uint8Array): string => crc32(b).toString(16).padStart(8, '0');
const forged = (files: string[], checks?: Record<string, { bytes: number; crc32: string }>): string =>
  JSON.stringify({ tool: { name: 'compile-collision', version: '0.0.0' }, files, ...(checks ? { checks } : {}) });
/** A process id that is not alive: a child that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout as unknown as number;

describe('a manifest does not decide alone what a rebuild deletes', () => {
  it('a forged manifest listing the user\'s file: the build refuses, naming it, and the file stays', async () => {
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'thesis.docx'), THESIS);
    writeFileSync(join(out, 'manifest.json'), forged(['thesis.docx']));
    await expect(compileLevel(LEVEL, { out }, hooks)).rejects.toThrow(/thesis\.docx \(listed, but not a name compile-collision writes\)/);
    expect(readFileSync(join(out, 'thesis.docx')).equals(THESIS)).toBe(true);
  });
  it('even with the right size and checksum of it', async () => {
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'thesis.docx'), THESIS);
    writeFileSync(join(out, 'manifest.json'), forged(['thesis.docx'], { 'thesis.docx': { bytes: THESIS.length, crc32: hex8(THESIS) } }));
    await expect(compileLevel(LEVEL, { out }, hooks)).rejects.toThrow(/thesis\.docx/);
    expect(readFileSync(join(out, 'thesis.docx')).equals(THESIS)).toBe(true);
  });
  it('a listed .physics that is not a PhysicsResource, or not the bytes recorded, stays', async () => {
    const out = join(dir, 'out');
    await compileLevel(LEVEL, { out }, hooks);
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(Object.keys(m.checks!).sort()).toEqual([...m.files].sort());
    // The user's own notes under a resource-like name, listed by an edited manifest with a matching check.
    writeFileSync(join(out, 'notes.physics'), THESIS);
    m.files.push('notes.physics');
    m.checks!['notes.physics'] = { bytes: THESIS.length, crc32: hex8(THESIS) };
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(m));
    await expect(compileLevel(LEVEL, { out }, hooks)).rejects.toThrow(/notes\.physics \(listed, but not the kind of file its name says\)/);
    expect(readFileSync(join(out, 'notes.physics')).equals(THESIS)).toBe(true);
  });
  it('a resource replaced by another PhysicsResource (not the recorded bytes) stays; with it gone the rebuild is clean', async () => {
    const out = join(dir, 'out');
    await compileLevel(LEVEL, { out }, hooks);
    const clean = files(out);
    const [a, b] = [...clean.keys()].filter((f) => f.endsWith('.physics') && clean.get(f)!.length !== clean.get([...clean.keys()][0])!.length).slice(0, 2);
    writeFileSync(join(out, a), clean.get(b)!); // the user's own edit, a valid resource
    await expect(compileLevel(LEVEL, { out }, hooks)).rejects.toThrow(new RegExp(`${a.replace('.', '\\.')} \\(listed as \\d+ bytes, but \\d+ bytes`));
    expect(readFileSync(join(out, a)).equals(clean.get(b)!)).toBe(true);
  });
  it('a manifest written before checks existed (none recorded): our files by name and kind are replaced, nothing else', async () => {
    const out = join(dir, 'out');
    await compileLevel(LEVEL, { out }, hooks);
    const clean = files(out);
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    delete m.checks;
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(m));
    await compileLevel(LEVEL, { out }, hooks);
    expect([...files(out).keys()].sort()).toEqual([...clean.keys()].sort());
  });
  it('a stale hidden sibling whose forged manifest lists a foreign name keeps that file', async () => {
    const out = join(dir, 'out');
    await compileLevel(LEVEL, { out }, hooks);
    const stale = join(dir, `.out.old-${deadPid()}-deadbeef`);
    mkdirSync(stale);
    writeFileSync(join(stale, 'manifest.json'), forged(['thesis.docx']));
    writeFileSync(join(stale, 'thesis.docx'), THESIS);
    const warned: string[] = [];
    await compileLevel(LEVEL, { out }, { logger: { warn: (w) => void warned.push(w) } });
    expect(readFileSync(join(stale, 'thesis.docx')).equals(THESIS)).toBe(true);
    expect(warned.join('\n')).toMatch(/did not write \(thesis\.docx\); left in place/);
  });
});

describe('one build of an output at a time', () => {
  it('a live holder is waited for, then the build is refused naming it; nothing is touched', async () => {
    const out = join(dir, 'out');
    await compileLevel(LEVEL, { out }, hooks);
    const before = files(out);
    const release = await lockOutput(out);
    const t = Date.now();
    await expect(compileLevel(LEVEL, { out, lockWaitMs: 300 }, hooks)).rejects.toThrow(new RegExp(`publish: .*out is being built by another compile-collision \\(pid ${process.pid}, since .*\\); waited 0 s`));
    expect(Date.now() - t).toBeGreaterThanOrEqual(300);
    expect(Date.now() - t).toBeLessThan(3000);
    const now = files(out);
    for (const [name, b] of before) expect(b.equals(now.get(name)!), name).toBe(true);
    release();
    expect(existsSync(lockPath(out))).toBe(false);
    await compileLevel(LEVEL, { out, lockWaitMs: 0 }, hooks); // released: the next build runs at once
  });
  it('a build waits for the holder and runs when it releases', async () => {
    const out = join(dir, 'out');
    const release = await lockOutput(out);
    setTimeout(release, 400);
    const t = Date.now();
    await compileLevel(LEVEL, { out }, hooks);
    expect(Date.now() - t).toBeGreaterThanOrEqual(390);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    expect(existsSync(lockPath(out))).toBe(false);
  });
  it('a dead holder\'s lock, and a torn (empty, old) one, are taken over', async () => {
    const out = join(dir, 'out');
    writeFileSync(lockPath(out), JSON.stringify({ pid: Number(deadPid()), host: (await import('node:os')).hostname(), started: 'x', token: 'abc' }));
    await compileLevel(LEVEL, { out, lockWaitMs: 0 }, hooks);
    const { utimesSync } = await import('node:fs');
    writeFileSync(lockPath(out), '');
    utimesSync(lockPath(out), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await compileLevel(LEVEL, { out, lockWaitMs: 0 }, hooks);
    expect(readdirSync(dir).sort()).toEqual(['out']);
  });
  it('a folder where the lock goes is refused, naming it', async () => {
    const out = join(dir, 'out');
    mkdirSync(lockPath(out));
    await expect(compileLevel(LEVEL, { out }, hooks)).rejects.toThrow(/\.out\.lock is in the way of the build's lock and is not a lock file of ours \(a folder\)/);
  });
  it('two CLI builds into one folder at once: both succeed, one after the other, and the output is complete', async () => {
    const out = join(dir, 'out');
    const run = (): Promise<{ code: number | null; err: string }> =>
      new Promise((resolve) => {
        const p = spawn(process.execPath, [BIN, LEVEL, '-o', out, '--workers', '1'], { env: { ...process.env, CI: '1' } });
        let err = '';
        p.stderr.on('data', (d) => (err += d));
        p.on('close', (code) => resolve({ code, err }));
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect([a.code, b.code, a.err + b.err]).toEqual([0, 0, '']);
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    for (const f of m.files) expect(existsSync(join(out, f)), f).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['out']);
  }, 60_000);
});
