// The shape options as users run them: samples/shapes.glb with --native-shapes compiles, `inspect` shows the kinds,
// `verify` passes every file; --chord-error outside its range is a usage error (exit 2); a convex_parts failure
// exits 1 naming the object and part.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addNode, boxMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../../samples/shapes.glb', import.meta.url));
const tmp = tempDir('sk8-cli-shapes-');
afterAll(tmp.cleanup);
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });

describe('compile-collision shape options', () => {
  it('--native-shapes: builds, inspect shows kinds 2, 3 and 5, verify passes every file', () => {
    const r = run(SAMPLE, '-o', 'native', '--native-shapes', '--chord-error', '0.002');
    expect(r.status, r.stderr).toBe(0);
    const dir = join(tmp.dir, 'native');
    for (const [name, kind] of [['crate_box', /box \(kind 2\)/], ['rock_hull', /convex \(kind 3\)/], ['ball_sphere', /mesh \(kind 5\)/]] as const) {
      const i = run('inspect', join(dir, `${name}.physics`));
      expect(i.status, i.stderr).toBe(0);
      expect(i.stdout).toMatch(kind);
    }
    const files = readdirSync(dir).filter((f) => f.endsWith('.physics')).map((f) => join(dir, f));
    const v = run('verify', ...files);
    expect(v.status, v.stdout + v.stderr).toBe(0);
  });

  it('--chord-error out of range is a usage error', () => {
    const r = run(SAMPLE, '-o', 'bad', '--chord-error', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--chord-error expects a number of metres from 0\.0001 to 0\.5; got "0"/);
  });

  it('a convex part that is not convex fails the build (exit 1) naming object and part; --hull-parts builds it', async () => {
    const doc = newLevel();
    const a = boxMesh([0, 0.5, 0], [0.5, 0.5, 0.5]);
    addNode(doc, { name: 'crates', positions: a.positions, indices: [...a.indices, 0, 1, 2], nodeExtras: { sk8_collision_mode: 'aggregate' } });
    await writeLevel(doc, join(tmp.dir, 'crates.glb'));
    const r = run('crates.glb');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/convex_parts: object "crates" \(node 0 "crates"\): part 0 \(from triangle 0\): /);
    expect(run('crates.glb', '--hull-parts').status).toBe(0);
  });
});
