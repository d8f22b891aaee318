// The worker's compiled-code cache (src/tiling/worker-boot.mjs) runs nothing another local user can write: not a
// file planted in the shared temp dir (where it used to live), not one in a cache directory or file that others may
// write, not one whose code no longer matches the digest stored with it ("trust nothing on disk").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addNode, boxMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const BOOT = fileURLToPath(new URL('../../src/tiling/worker-boot.mjs', import.meta.url));
const ENTRY = fileURLToPath(new URL('../../src/tiling/worker.ts', import.meta.url));
const tmp = tempDir('sk8-boot-');
afterAll(tmp.cleanup);

function digest(parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(`${p.length}:`).update(p);
  return h.digest('hex');
}
const NAME = `worker-${digest([ENTRY]).slice(0, 16)}.json`;

/** A cache file as an attacker would write it: a valid key for no inputs, and the digest the new format stores. */
function planted(marker: string): string {
  const key = digest([readFileSync(BOOT), process.version]);
  const code = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'pwned');`;
  return JSON.stringify({ inputs: [], key, codeDigest: digest([key, code]), code });
}

let level: string;
beforeAll(async () => {
  const doc = newLevel();
  addNode(doc, { name: 'crate', ...boxMesh([0, 0.5, 0], [0.5, 0.5, 0.5]), material: 'wood' });
  level = await writeLevel(doc, join(tmp.dir, 'level.glb'));
});

/** A CLI build with two workers, its temp dir and user cache directory set. */
function build(name: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, level, '-o', join(tmp.dir, name), '--workers', '2'], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1', ...env } });
}

describe('the worker code cache', () => {
  it('a worker file planted in the shared temp dir is not executed', () => {
    const shared = join(tmp.dir, 'shared-tmp');
    mkdirSync(join(shared, 'skate-collision'), { recursive: true });
    const marker = join(tmp.dir, 'marker-tmp');
    writeFileSync(join(shared, 'skate-collision', NAME), planted(marker));
    const r = build('out-tmp', { TMPDIR: shared, XDG_CACHE_HOME: join(tmp.dir, 'xdg-tmp') });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('the per-user cache is a 0700 directory of 0600 files, used again; a planted or tampered file there is not run', () => {
    const xdg = join(tmp.dir, 'xdg');
    const env = { XDG_CACHE_HOME: xdg };
    const first = build('out-own', env);
    expect(first.status, first.stderr).toBe(0);
    const dir = join(xdg, 'skate-collision');
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(dir, NAME)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const good = JSON.parse(readFileSync(join(dir, NAME), 'utf8'));
    // A file of ours whose code was changed after it was written (the digest no longer matches): not run.
    const marker = join(tmp.dir, 'marker-own');
    writeFileSync(join(dir, NAME), JSON.stringify({ ...good, code: `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'pwned');${good.code}` }), { mode: 0o600 });
    expect(build('out-own', env).status).toBe(0);
    expect(existsSync(marker)).toBe(false);
    // A consistent file others may write (group/other write bits): not run.
    writeFileSync(join(dir, NAME), planted(marker));
    chmodSync(join(dir, NAME), 0o666);
    expect(build('out-own', env).status).toBe(0);
    expect(existsSync(marker)).toBe(false);
    // A cache directory others may write: not used at all.
    rmSync(join(dir, NAME));
    writeFileSync(join(dir, NAME), planted(marker), { mode: 0o600 });
    chmodSync(dir, 0o777);
    expect(build('out-own', env).status).toBe(0);
    expect(existsSync(marker)).toBe(false);
    // The cache file a link to a planted file: not followed.
    chmodSync(dir, 0o700);
    const elsewhere = join(tmp.dir, 'elsewhere.json');
    writeFileSync(elsewhere, planted(marker), { mode: 0o600 });
    rmSync(join(dir, NAME));
    symlinkSync(elsewhere, join(dir, NAME));
    expect(build('out-own', env).status).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('a cache directory that is a link (to a folder someone else prepared) is not used', () => {
    const xdg = join(tmp.dir, 'xdg-link');
    const prepared = join(tmp.dir, 'prepared');
    mkdirSync(prepared, { recursive: true, mode: 0o700 });
    chmodSync(prepared, 0o700);
    mkdirSync(xdg, { recursive: true });
    const marker = join(tmp.dir, 'marker-link');
    writeFileSync(join(prepared, NAME), planted(marker), { mode: 0o600 });
    symlinkSync(prepared, join(xdg, 'skate-collision'));
    const r = build('out-link', { XDG_CACHE_HOME: xdg, TMPDIR: prepared });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
