// compile-collision on forge levels, as a user runs it: a .forge, a folder of extracted records, a glob taking
// .forge, --forge-materials, a broken forge named in the message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../fixtures/levels.ts';
import { dataFile, forgeFile, placedLevel } from '../fixtures/forge.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const tmp = tempDir('sk8-cli-forge-');
afterAll(tmp.cleanup);
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });

beforeAll(() => {
  mkdirSync(join(tmp.dir, 'sws'), { recursive: true });
  writeFileSync(join(tmp.dir, 'sws/level_01.forge'), forgeFile([{ id: 1, name: 'level_01', bytes: dataFile(placedLevel()) }]));
  for (const r of placedLevel()) {
    const d = join(tmp.dir, 'dump/level_01', r.type.toString(16).toUpperCase().padStart(8, '0'));
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, `${Number(r.id).toString(16).toUpperCase().padStart(8, '0')}.sws`), r.body);
  }
  writeFileSync(join(tmp.dir, 'broken.forge'), 'scimitar but not really');
  writeFileSync(join(tmp.dir, 'map.json'), JSON.stringify({ CM_Mystery: 'metal' }));
});

describe('compile-collision LEVEL.forge', () => {
  it('builds a .forge: summary with the record counts, <stem>.collision, exit 0', () => {
    const r = run('sws/level_01.forge', '--workers', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/collision-objects\s+5/);
    expect(r.stdout).toMatch(/forge records read: Entity 4, BoxShape 2, SphereShape 2, CapsuleShape 1, ReferenceListShape 1/);
    expect(r.stdout).toMatch(/forge records refused: Entity 1/);
    expect(r.stdout).toMatch(/forge records skipped: CollisionMaterial 2, MeshShape 1/);
    expect(r.stdout).toMatch(/forge placement: 4 entities placed collision, 0 shapes unplaced/);
    expect(r.stdout).toMatch(/a heuristic/);
    const manifest = JSON.parse(readFileSync(join(tmp.dir, 'sws/level_01.collision/manifest.json'), 'utf8'));
    expect(manifest.forge.objectsByEntity.crate_ent).toEqual(['level_01_crate_ent_crate']);
    expect(readdirSync(join(tmp.dir, 'sws/level_01.collision')).filter((f) => f.endsWith('.physics'))).toHaveLength(5);
  });

  it('an extracted folder builds through the same record reader; a glob takes .forge', () => {
    const r = run('dump', '--workers', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/collision-objects\s+5/);
    expect(readdirSync(join(tmp.dir, 'dump.collision')).filter((f) => f.endsWith('.physics'))).toHaveLength(5);
    const g = run('sws/*', '-o', 'globbed', '--workers', '1', '--json');
    expect(g.status, g.stderr).toBe(0);
    // One level matched (the .collision folder beside it is not a file): -o is its output directory.
    expect(JSON.parse(g.stdout).manifest.input.file).toBe('level_01.forge');
    expect(readdirSync(join(tmp.dir, 'globbed'))).toContain('manifest.json');
  });

  it('--forge-materials maps a material the keyword table does not', () => {
    const r = run('sws/level_01.forge', '-o', 'mapped', '--workers', '1', '--forge-materials', 'map.json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/CM_Mystery/);
  });

  it('a broken .forge exits 1 naming the file and the place', () => {
    const r = run('broken.forge');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/compile-collision: forge: broken\.forge: at 0x9: forge version \d+ is not one of 25, 26, 27/);
  });
});
