// compile-collision to-gltf, spawned as a user runs it: writes a GLB, refuses to replace one without --force,
// refuses a truncated resource naming the file (exit 1) and leaves no temporary file behind; a compile output's
// GLB compiled with --recorded-options gives the output's files again, and a GLB without a record is refused.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'to-gltf-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) => spawnSync(process.execPath, ['bin/compile-collision.js', 'to-gltf', ...args], { encoding: 'utf8' });
const compile = (...args: string[]) => spawnSync(process.execPath, ['bin/compile-collision.js', ...args, '-q', '--no-cache', '--workers', '1'], { encoding: 'utf8' });

describe('compile-collision to-gltf', () => {
  it('writes a GLB, and replaces it only with --force', () => {
    const out = join(dir, 'box.glb');
    const first = run('test/golden/box.physics', '-o', out);
    expect(first.status, first.stderr).toBe(0);
    expect(readFileSync(out).subarray(0, 4).toString('latin1')).toBe('glTF');
    const again = run('test/golden/box.physics', '-o', out);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/exists; pass --force/);
    expect(run('test/golden/box.physics', '-o', out, '--force').status).toBe(0);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a truncated resource, naming the file and offset, and writes nothing', () => {
    const cut = join(dir, 'cut.physics');
    writeFileSync(cut, readFileSync('test/golden/box.physics').subarray(0, 120));
    const out = join(dir, 'cut.glb');
    const r = run(cut, '-o', out);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(cut);
    expect(r.stderr).toMatch(/0x[0-9a-f]+/);
    expect(readdirSync(dir)).not.toContain('cut.glb');
  });

  it('a compile output back to a GLB and, with --recorded-options, to the same files', () => {
    const a = join(dir, 'park-a'), b = join(dir, 'park-b'), glb = join(dir, 'park.glb');
    expect(compile('samples/skatepark.glb', '-o', a, '--tiling', 'cells', '--seams', 'shape', '--cell-size', '50').status).toBe(0);
    const t = run(a, '-o', glb);
    expect(t.status, t.stderr).toBe(0);
    expect(t.stderr).not.toMatch(/re-encodes|not give/);
    const c = compile(glb, '-o', b, '--recorded-options');
    expect(c.status, c.stderr).toBe(0);
    const physics = (d: string) => readdirSync(d).filter((f) => f.endsWith('.physics')).sort();
    expect(physics(b)).toEqual(physics(a));
    for (const f of physics(a)) expect(Buffer.compare(readFileSync(join(a, f)), readFileSync(join(b, f))), f).toBe(0);
    const m = JSON.parse(readFileSync(join(b, 'manifest.json'), 'utf8'));
    expect(m.options).toMatchObject({ cellSize: 50, seams: 'shape', tiling: 'cells' });
    // A GLB that records nothing: refused as a usage error, naming it.
    const plain = join(dir, 'plain.glb');
    expect(run('test/golden/box.physics', '-o', plain).status).toBe(0);
    const r = compile(plain, '-o', join(dir, 'plain-out'), '--recorded-options');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(plain);
  }, 60_000);
});

