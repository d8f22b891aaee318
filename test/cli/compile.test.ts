// The compile command as users run it: exit codes, summary, --json, globs over several levels, no partial output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addNode, boxMesh, gridMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));
const tmp = tempDir('sk8-cli-');
afterAll(tmp.cleanup);
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });

beforeAll(async () => {
  mkdirSync(join(tmp.dir, 'levels/a'), { recursive: true });
  for (const [i, path] of ['levels/a/one.glb', 'levels/two.glb'].entries()) {
    const doc = newLevel();
    addNode(doc, { name: 'ground', ...gridMesh(4, 4, 1, [0, 0, 0]), material: 'concrete' });
    addNode(doc, { name: `box${i}`, ...boxMesh([1, 0.5, 1], [0.5, 0.5, 0.5]) });
    await writeLevel(doc, join(tmp.dir, path));
  }
  writeFileSync(join(tmp.dir, 'levels/broken.glb'), 'glTF but not really');
  // Two road segments meeting along x = 4 (each its own object and vertices).
  mkdirSync(join(tmp.dir, 'seams'), { recursive: true });
  const road = newLevel();
  addNode(road, { name: 'road_a', ...gridMesh(4, 4, 1, [0, 0, 0]), material: 'asphalt' });
  addNode(road, { name: 'road_b', ...gridMesh(4, 4, 1, [4, 0, 0]), material: 'asphalt' });
  await writeLevel(road, join(tmp.dir, 'seams/road.glb'));
});

describe('compile-collision LEVEL', () => {
  it('builds, prints the summary with reskate_cli totals, exits 0', () => {
    const r = run('levels/two.glb');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/collision-objects\s+2/);
    expect(r.stdout).toMatch(/collision-resources\s+2/);
    expect(readdirSync(join(tmp.dir, 'levels/two.collision')).filter((f) => f !== '.cache').sort()).toEqual(['box1.physics', 'ground.physics', 'manifest.json']);
  });
  it('--report writes report.html and lists it in the manifest; piped (as above) or --no-report, none', () => {
    const r = run('levels/two.glb', '-o', 'out-report', '--report');
    expect(r.status).toBe(0);
    const files = readdirSync(join(tmp.dir, 'out-report'));
    expect(files).toContain('report.html');
    expect(JSON.parse(readFileSync(join(tmp.dir, 'out-report/manifest.json'), 'utf8')).files).toContain('report.html');
    expect(r.stdout).toMatch(/report \d+ ms/);
    // A rebuild without it removes the earlier report (it is one of the files the build wrote).
    expect(run('levels/two.glb', '-o', 'out-report', '--no-report').status).toBe(0);
    expect(readdirSync(join(tmp.dir, 'out-report'))).not.toContain('report.html');
  });
  it.runIf(existsSync('/usr/bin/script'))('a terminal run writes what a piped run writes: report.html only with --report (util-linux script gives it a terminal)', () => {
    const cmd = (out: string, ...more: string[]) => [process.execPath, BIN, 'levels/two.glb', '-o', out, ...more].map((a) => JSON.stringify(a)).join(' ');
    const tty = (out: string, ...more: string[]) => spawnSync('/usr/bin/script', ['-qec', cmd(out, ...more), '/dev/null'], { cwd: tmp.dir, encoding: 'utf8', env: { ...process.env, CI: '1' } });
    expect(tty('out-tty').status).toBe(0);
    expect(run('levels/two.glb', '-o', 'out-piped').status).toBe(0);
    expect(readdirSync(join(tmp.dir, 'out-tty')).sort()).toEqual(readdirSync(join(tmp.dir, 'out-piped')).sort());
    expect(readdirSync(join(tmp.dir, 'out-tty'))).not.toContain('report.html');
    expect(tty('out-tty-report', '--report').status).toBe(0);
    expect(readdirSync(join(tmp.dir, 'out-tty-report'))).toContain('report.html');
  });
  it('--json prints the manifest and the summary\'s layout line', () => {
    const r = run('levels/a/one.glb', '-o', 'out-json', '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.manifest.totals['collision-parts']).toBe(2);
    expect(j.layoutLine).toMatch(/^\d+ objects .*< budget 4,003 → one resource per object \(\d+ geometries\)$/);
    expect(j.outDir).toBe(join(tmp.dir, 'out-json'));
  });
  it('--progress-json writes one JSON line per progress event to stderr, in stage order, encode counting every resource; stdout keeps --json', () => {
    const r = run('levels/a/one.glb', '-o', 'out-progress', '--json', '--no-cache', '--progress-json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).manifest.totals['collision-resources']).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    const events = lines.map((l) => JSON.parse(l) as { stage: string; done: number; total: number });
    for (const e of events) expect(Object.keys(e)).toEqual(['stage', 'done', 'total']);
    // Every stage that is started ends: 0/1 … 1/1, or encode's 1/N … N/N.
    const stages = [...new Set(events.map((e) => e.stage))];
    expect(stages).toEqual(expect.arrayContaining(['import', 'validate', 'plan', 'encode', 'publish']));
    expect(stages.indexOf('import')).toBe(0);
    expect(stages.at(-1)).toBe('publish');
    expect(events.filter((e) => e.stage === 'encode')).toEqual([{ stage: 'encode', done: 1, total: 2 }, { stage: 'encode', done: 2, total: 2 }]);
    for (const s of stages.filter((x) => x !== 'encode')) expect(events.filter((e) => e.stage === s).map((e) => e.done)).toEqual([0, 1]);
    // Cells cut the level: the seams stage counts the files it patches, on every thread (src/tiling/pool.ts runPatches).
    const cells = run(join(SAMPLES, 'city-blocks.glb'), '-o', 'out-progress-cells', '--no-cache', '--progress-json', '--workers', '2');
    expect(cells.status).toBe(0);
    const seams = cells.stderr.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { stage: string; done: number; total: number }).filter((e) => e.stage === 'seams');
    const counted = seams.filter((e) => e.total > 1);
    expect(counted.length).toBeGreaterThan(1);
    expect(counted.at(-1)!.done).toBe(counted[0].total);
    expect(counted.map((e) => e.done)).toEqual([...counted.map((e) => e.done)].sort((a, b) => a - b));
    const watching = run('levels/a/one.glb', '--watch', '--progress-json');
    expect(watching.status).toBe(2);
    expect(watching.stderr).toMatch(/--progress-json reports the stages of one build; --watch prints a line per rebuild/);
    // Without it a piped run writes no progress at all.
    const plain = run('levels/a/one.glb', '-o', 'out-progress', '--json', '--no-cache');
    expect(plain.status).toBe(0);
    expect(plain.stderr).toBe('');
  });
  it('compiles every level a glob matches; a broken one exits 1 and leaves no output of its own', () => {
    const r = run('levels/**/*.glb', '-o', 'all');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/compile-collision: gltf: levels\/broken\.glb: /);
    expect(readdirSync(join(tmp.dir, 'all')).sort()).toEqual(['one.collision', 'two.collision']);
    expect(existsSync(join(tmp.dir, 'levels/broken.collision'))).toBe(false);
  });
  it('usage errors exit 2: no input, missing file, bad cell size', () => {
    expect(run().status).toBe(2);
    const missing = run('levels/nope.glb');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no such level: levels\/nope\.glb/);
    expect(run('levels/two.glb', '--cell-size', '75').status).toBe(2);
    const seams = run('levels/two.glb', '--seams', 'cells');
    expect(seams.status).toBe(2);
    expect(seams.stderr).toMatch(/seams/);
  });
  it('--seams: level (default) joins the two segments, shape leaves the cut open; the summary and manifest count both', () => {
    const level = run('seams/road.glb', '-o', 'road-level', '--json');
    expect(level.status).toBe(0);
    expect(JSON.parse(level.stdout).manifest.seams).toEqual({ mode: 'level', authoredOpenEdges: 24, joinedAcrossCuts: 8, openEdgesWritten: 24 });
    const shape = run('seams/road.glb', '-o', 'road-shape', '--seams', 'shape');
    expect(shape.status).toBe(0);
    expect(shape.stdout).toMatch(/open edges \(edge sides, non-manifold included; --seams shape\): 24 as authored, 0 joined across cuts, 32 written/);
  });
});
