// compile-collision to-gltf, spawned as a user runs it: writes a GLB, refuses to replace one without --force,
// refuses a truncated resource naming the file (exit 1) and leaves no temporary file behind; a compile output's
// GLB compiled with --recorded-options gives the output's files again, and a GLB without a record is refused.
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTarget, publishFile } from '../../src/export/publish-file.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import type { PhysicsResource } from '../../src/format/types.ts';

const dir = mkdtempSync(join(tmpdir(), 'to-gltf-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) => spawnSync(process.execPath, ['bin/compile-collision.js', 'to-gltf', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const compile = (...args: string[]) => spawnSync(process.execPath, ['bin/compile-collision.js', ...args, '-q', '--no-cache', '--workers', '1'], { encoding: 'utf8', maxBuffer: 1 << 28 });

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


describe('to-gltf publishes like the compiler', () => {
  const box = readFileSync('test/golden/box.physics');

  it('-o equal to an input is refused even with --force, by path and through a hard link; the input is kept', () => {
    const input = join(dir, 'keep.physics');
    writeFileSync(input, box);
    for (const out of [input, join(dir, 'keep-link.physics')]) {
      if (out !== input) linkSync(input, out);
      const r = run(input, '-o', out, '--force');
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/is one of the inputs; refusing to write over it \(even with --force\)/);
      expect(readFileSync(input).equals(box)).toBe(true);
    }
    // An input given as a folder: its files are inputs too.
    const folder = join(dir, 'in-folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.physics'), box);
    const r = run(folder, '-o', join(folder, 'a.physics'), '--force');
    expect(r.status).toBe(2);
    expect(readFileSync(join(folder, 'a.physics')).equals(box)).toBe(true);
  });

  it('a dangling symbolic link at -o is refused without --force (left as it is); with --force the link itself is replaced', () => {
    const out = join(dir, 'dangling.glb');
    const target = join(dir, 'nowhere', 'x.glb');
    symlinkSync(target, out);
    const r = run('test/golden/box.physics', '-o', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/dangling\.glb exists; pass --force to replace it \(it is a symbolic link to nothing\)/);
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    const f = run('test/golden/box.physics', '-o', out, '--force');
    expect(f.status, f.stderr).toBe(0);
    expect(lstatSync(out).isFile()).toBe(true);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });

  it('a symbolic-link loop at -o is refused in words without --force, and replaced (the link itself) with it', () => {
    const out = join(dir, 'loop.glb');
    symlinkSync(out, out);
    const r = run('test/golden/box.physics', '-o', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/loop\.glb exists; pass --force to replace it \(it is a symbolic link in a loop\)/);
    expect(r.stderr).not.toMatch(/ELOOP|\n\s+at /);
    expect(run('test/golden/box.physics', '-o', out, '--force').status).toBe(0);
    expect(lstatSync(out).isFile()).toBe(true);
  });

  it('a file that appears at -o while converting is kept: the publish refuses it at that moment (no --force)', () => {
    const out = join(dir, 'raced.glb');
    checkTarget(out, [], false, 'to-gltf'); // nothing there when the command starts
    writeFileSync(out, 'mine'); // ... someone writes it meanwhile
    expect(() => publishFile(out, new Uint8Array([1, 2, 3]), [], false, 'to-gltf')).toThrow(/raced\.glb exists/);
    expect(readFileSync(out, 'utf8')).toBe('mine');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    publishFile(out, new Uint8Array([1, 2, 3]), [], true, 'to-gltf');
    expect([...readFileSync(out)]).toEqual([1, 2, 3]);
  });

  it('a resource holding NaN or an infinite vertex or part position is refused with its reason; nothing written', () => {
    for (const [name, edit] of [
      ['nan-vertex', (r: PhysicsResource) => void (r.shapes[0].vertices[4] = NaN)],
      ['inf-position', (r: PhysicsResource) => void (r.parts[0].position[1] = Infinity)],
    ] as [string, (r: PhysicsResource) => void][]) {
      const res = readPhysicsResource(box);
      edit(res);
      const file = join(dir, `${name}.physics`);
      writeFileSync(file, writePhysicsResource(res));
      const out = join(dir, `${name}.glb`);
      const r = run(file, '-o', out);
      expect(r.status, `${name}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`${name}\\.physics: .* is not a finite number .*refusing to write it`));
      expect(existsSync(out)).toBe(false);
    }
  });
});
