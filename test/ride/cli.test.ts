// compile-collision ride and compile --ride, spawned as a user runs them: exit codes (0 none, 1 findings, 2 usage or
// unreadable input), --json's shape, a file verify refuses named with its offset and left as it was, the manifest's
// ride entry and --strict.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readPhysicsResource } from '../../src/format/resource.ts';
import { addNode, lazyTempDir, newLevel, writeLevel } from '../fixtures/levels.ts';
import { compileMeshes, grid } from './helpers.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const tmp = lazyTempDir('sk8-ride-cli-');
afterAll(() => tmp.cleanup());
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });

const meshes = [{ name: 'left', ...grid(4, 3, 1, -4, 0, 0) }, { name: 'right', ...grid(4, 3, 1, 0, 0, 0) }];
let level: string, shape: string;
beforeAll(async () => {
  level = await compileMeshes(tmp.dir, 'level', meshes, { seams: 'level', tiling: 'cells' });
  shape = await compileMeshes(tmp.dir, 'shape', meshes, { seams: 'shape', tiling: 'cells' });
}, 60_000);

describe('compile-collision ride', () => {
  test('no findings: exit 0, --json gives counts and an empty findings list', () => {
    const r = run('ride', level, '--json');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
    expect(j.findings).toEqual([]);
    expect(j.coverage.seamMetres).toBeGreaterThan(0);
    const text = run('ride', level);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^ride: 0 bump, 0 snag, 0 step, 0 gap; seams [\d,]+ of [\d,]+ m ridden/m);
  });

  test("findings: exit 1, each with kind and position in the files' space (Studio's open cut bumps)", () => {
    const r = run('ride', join(shape, '*.physics'), '--json');
    expect(r.status, r.stderr).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.counts.bump + j.counts.snag).toBeGreaterThan(0);
    for (const f of j.findings) {
      expect(['bump', 'snag', 'step', 'gap']).toContain(f.kind);
      expect(f.position).toHaveLength(3);
      // The cut between the two objects is at x = 0 (and the cell border too).
      expect(Math.abs(f.position[0])).toBeLessThan(0.6);
      expect(f.resource).toMatch(/\.physics$/);
    }
  });

  test('a file verify refuses: exit 2, named with its offset; the input is left as it was', () => {
    const dir = join(tmp.dir, 'bad');
    mkdirSync(dir, { recursive: true });
    const name = readdirSync(level).find((f) => f.endsWith('.physics'))!;
    const bytes = readFileSync(join(level, name));
    writeFileSync(join(dir, name), bytes.subarray(0, bytes.length - 9));
    copyFileSync(join(level, name), join(dir, 'good.physics'));
    const before = readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs, readFileSync(join(dir, f)).length]);
    const r = run('ride', dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(name);
    expect(r.stderr).toMatch(/offset 0x[0-9a-f]+/);
    expect(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs, readFileSync(join(dir, f)).length])).toEqual(before);
    const level2 = run('ride', join(tmp.dir, 'level.glb'));
    expect(level2.status).toBe(2);
    expect(level2.stderr).toContain('level.glb');
  });

  test('a NaN or infinite vertex: ride exits 2 and verify refuses it, both naming the file and the byte offset; nothing is written', () => {
    const dir = join(tmp.dir, 'nan');
    mkdirSync(dir, { recursive: true });
    const name = readdirSync(level).find((f) => f.endsWith('.physics'))!;
    const bytes = new Uint8Array(readFileSync(join(level, name)));
    // Vertex 3's z in shape 0, where the codec found the vertex array.
    const offset = readPhysicsResource(bytes).layout!.arrays[0][0] + 4 * 11;
    for (const bad of [Number.NaN, Number.NEGATIVE_INFINITY]) {
      const b = bytes.slice();
      new DataView(b.buffer).setFloat32(offset, bad, true);
      writeFileSync(join(dir, name), b);
      const before = readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs, readFileSync(join(dir, f)).toString('hex')]);
      const r = run('ride', dir);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(name);
      expect(r.stderr).toContain(`offset 0x${offset.toString(16)}`);
      const v = run('verify', join(dir, name));
      expect(v.status).toBe(1);
      expect(v.stderr).toContain(name);
      expect(v.stderr).toContain(`at 0x${offset.toString(16)}`);
      expect(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs, readFileSync(join(dir, f)).toString('hex')])).toEqual(before);
    }
  });

  test('--workers: the same report on worker threads as on one thread, budget spent or not; a refused file named the same', () => {
    const json = (...a: string[]) => {
      const r = run('ride', ...a, '--json');
      expect(r.status, r.stderr).toBe(1);
      const j = JSON.parse(r.stdout);
      delete j.ms;
      return JSON.stringify(j);
    };
    // Crossings every 0.25 m of the 3 m cut: more steps than a message carries (threads.ts).
    const one = json(shape, '--workers', '1', '--seam-spacing', '0.25');
    expect(JSON.parse(one).coverage.crossings).toBe(12);
    expect(json(shape, '--workers', '2', '--seam-spacing', '0.25')).toBe(one);
    expect(json(shape, '--workers', '3', '--seam-spacing', '0.25')).toBe(one);
    // The budget spent half way through the crossings: the same steps counted.
    const budget = json(shape, '--workers', '1', '--seam-spacing', '0.25', '--work-budget', '30000');
    expect(JSON.parse(budget)).toMatchObject({ budgetExhausted: true, coverage: { crossings: expect.toSatisfy((n: number) => n > 1 && n < 12) } });
    expect(json(shape, '--workers', '2', '--seam-spacing', '0.25', '--work-budget', '30000')).toBe(budget);
    // A cut-off file between good ones: the first refused in file order is the one named.
    const dir = join(tmp.dir, 'bad-threads'), files = readdirSync(level).filter((f) => f.endsWith('.physics')).sort();
    mkdirSync(dir, { recursive: true });
    for (const f of files) copyFileSync(join(level, f), join(dir, f));
    copyFileSync(join(level, files[0]), join(dir, 'z-good.physics'));
    const name = files[1], bytes = readFileSync(join(level, name));
    writeFileSync(join(dir, name), bytes.subarray(0, bytes.length - 9));
    const serial = run('ride', dir, '--workers', '1'), threads = run('ride', dir, '--workers', '2');
    expect(threads.status).toBe(2);
    expect(threads.stderr).toContain(name);
    expect(threads.stderr).toBe(serial.stderr);
    expect(run('ride', level, '--workers', '0').status).toBe(2);
  }, 60_000);

  test('usage: no such input, a bad number: exit 2', () => {
    expect(run('ride', 'nothing-here').status).toBe(2);
    const r = run('ride', level, '--seam-spacing', 'x');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--seam-spacing');
  });
});

describe('compile --ride', () => {
  test('stores the ride in manifest.json; --strict fails on findings', async () => {
    const doc = newLevel();
    for (const m of meshes) addNode(doc, { ...m, material: 'concrete' });
    const glb = await writeLevel(doc, join(tmp.dir, 'two.glb'));
    const ok = run(glb, '--ride', '--tiling', 'cells', '--no-cache', '-o', join(tmp.dir, 'two-level'));
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/ride: 0 bump, 0 snag, 0 step, 0 gap/);
    const m = JSON.parse(readFileSync(join(tmp.dir, 'two-level', 'manifest.json'), 'utf8'));
    expect(m.ride.counts).toEqual({ bump: 0, snag: 0, step: 0, gap: 0 });
    const bad = run(glb, '--ride', '--strict', '--seams', 'shape', '--tiling', 'cells', '--no-cache', '-o', join(tmp.dir, 'two-shape'), '--json');
    expect(bad.status).toBe(1);
    const j = JSON.parse(bad.stdout);
    // Every finding counted, not only those the manifest lists (at most 1,000).
    const n = j.manifest.ride.counts;
    expect(bad.stderr).toContain(`ride: ${n.bump + n.snag + n.step + n.gap} finding(s) (${n.bump} bump, ${n.snag} snag, ${n.step} step, ${n.gap} gap) under --strict`);
    expect(j.manifest.ride.counts.bump + j.manifest.ride.counts.snag).toBeGreaterThan(0);
    const written = JSON.parse(readFileSync(join(tmp.dir, 'two-shape', 'manifest.json'), 'utf8'));
    expect(written.ride.findings.length).toBe(written.ride.listed);
    // The output stays verifiable after the manifest is rewritten.
    expect(run('verify', join(tmp.dir, 'two-shape')).status).toBe(0);
    // Nothing to ride: usage errors.
    for (const other of ['--watch', '--dry-run']) {
      const u = run(glb, '--ride', other);
      expect(u.status, other).toBe(2);
      expect(u.stderr).toContain('--ride');
    }
  }, 60_000);

  test("the ride stored is the one `ride OUT` gives: the files ridden in the same order", async () => {
    // A strip 1,200 m long: cells 0 … 11 along x, whose names sort otherwise than their numbers (…_10_0 before …_2_0).
    const doc = newLevel();
    addNode(doc, { name: 'strip', ...grid(24, 2, 50, 0, 0, 0), material: 'concrete' });
    addNode(doc, { name: 'step', ...grid(4, 1, 50, 300, 0.02, 0), material: 'concrete' });
    const glb = await writeLevel(doc, join(tmp.dir, 'strip.glb'));
    const out = join(tmp.dir, 'strip-out');
    const c = run(glb, '--ride', '--tiling', 'cells', '--seams', 'shape', '--no-cache', '-o', out, '--json');
    expect(c.status === 0 || c.status === 1, c.stderr).toBe(true);
    const stored = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).ride;
    const names = readdirSync(out).filter((f) => f.endsWith('.physics'));
    expect(names.length).toBeGreaterThan(10);
    const r = run('ride', out, '--json');
    const rode = JSON.parse(r.stdout);
    expect(stored.coverage).toEqual(rode.coverage);
    expect(stored.counts).toEqual(rode.counts);
    expect(stored.findings).toEqual(rode.findings.slice(0, stored.listed));
  }, 60_000);
});
