// The CLI as a build step runs it: verify and diff with --json (one object on stdout, the usual exit codes), and
// diff of two outputs decided by their resources (a renamed input is listed, not a failure).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));
let dir: string;
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sk8-scripting-'));
  copyFileSync(join(SAMPLES, 'skatepark.glb'), join(dir, 'park.glb'));
  copyFileSync(join(SAMPLES, 'skatepark.glb'), join(dir, 'renamed.glb'));
  for (const [level, out] of [['park.glb', 'a'], ['renamed.glb', 'b']]) expect(run(level, '-o', out, '-q', '--no-cache').status).toBe(0);
  expect(run('park.glb', '-o', 'c', '-q', '--no-cache', '--tiling', 'cells').status).toBe(0);
  writeFileSync(join(dir, 'junk.physics'), 'not a resource at all');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('verify --json', () => {
  it('one object: every file ok, the output as a whole; exit 0', () => {
    const r = run('verify', 'a', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ ok: true, total: 17, failed: 0 });
    expect(j.files).toHaveLength(17);
    expect(j.files.every((f: { ok: boolean; findings: unknown[] }) => f.ok && f.findings.length === 0)).toBe(true);
    expect(j.folders).toEqual([{ input: 'a', kind: 'output', files: 17, failed: 0, manifestFindings: [] }]);
  });
  it('a bad file: its findings in the object, nothing on stderr; exit 1', () => {
    const r = run('verify', 'a/ground.physics', 'junk.physics', '--json');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ ok: false, total: 2, failed: 1 });
    expect(j.files[1]).toMatchObject({ file: 'junk.physics', ok: false, findings: [{ file: 'junk.physics', check: 'open' }] });
    expect(j.files[1].findings[0].message).toMatch(/not a PhysicsResource/);
  });
});

describe('diff of two outputs: the resources decide', () => {
  it('the same level under another name: manifest differences listed, exit 0', () => {
    const r = run('diff', 'a', 'b');
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toBe('input file: "park.glb" → "renamed.glb"\n0 added, 0 removed, 0 changed, 17 identical resources\nthe resources are identical: only the manifests differ\n');
  });
  it('--json: identical, the manifest differences, the resource lists', () => {
    const r = run('diff', 'a', 'b', '--json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'outputs', a: 'a', b: 'b', identical: true, added: [], removed: [], changed: [], same: 17, manifest: ['input file: "park.glb" → "renamed.glb"'] });
  });
  it('--json of different outputs and of two files: exit 1', () => {
    const r = run('diff', 'a', 'c', '--json');
    expect(r.status).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.identical).toBe(false);
    expect(j.removed).toContain('ground');
    expect(j.manifest).toContain('option tiling: "auto" → "cells"');
    const f = run('diff', 'a/ground.physics', 'a/pond.physics', '--json');
    expect(f.status).toBe(1);
    expect(JSON.parse(f.stdout)).toMatchObject({ kind: 'resources', a: 'a/ground.physics', b: 'a/pond.physics', identical: false });
    const same = run('diff', 'a/ground.physics', 'b/ground.physics', '--json');
    expect(same.status).toBe(0);
    expect(JSON.parse(same.stdout)).toEqual({ kind: 'resources', a: 'a/ground.physics', b: 'b/ground.physics', identical: true, lines: [] });
  });
});

describe('report.html: one rule, terminal or not', () => {
  it('without --report no report.html, and the summary says how to get one; with it, the summary names the file', () => {
    const r = run('park.glb', '-o', 'no-report', '--no-cache');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}report: none \(--report writes report\.html: the collision and every finding in a browser\)$/m);
    expect(run('verify', 'no-report', '--json').status).toBe(0);
    const w = run('park.glb', '-o', 'with-report', '--no-cache', '--report');
    expect(w.status, w.stderr).toBe(0);
    expect(w.stdout).toContain(`  report: ${join(dir, 'with-report', 'report.html')}\n`);
  });
  it('a pseudo-terminal run writes the files a piped run writes', () => {
    // script(1) gives the command a terminal for stdout; skip with a line where it is missing.
    const probe = spawnSync('script', ['-qec', 'true', '/dev/null'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      console.log('skipped: no script(1) to run the CLI in a pseudo-terminal');
      return;
    }
    const t = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} park.glb -o tty --no-cache`, '/dev/null'], { cwd: dir, encoding: 'utf8' });
    expect(t.status, t.stdout).toBe(0);
    expect(t.stdout).toMatch(/report: none/);
    const p = run('park.glb', '-o', 'piped', '--no-cache');
    expect(p.status).toBe(0);
    const list = (d: string): string[] => readdirSync(join(dir, d)).sort();
    expect(list('tty')).toEqual(list('piped'));
    expect(list('tty')).not.toContain('report.html');
  });
});

describe('a level that is not glTF', () => {
  // What Blender, FBX and OBJ files start with (a .blend from 4.2 is zstd-compressed unless saved uncompressed).
  const files: [string, Uint8Array, RegExp][] = [
    ['scene.blend', new TextEncoder().encode('BLENDER-v402REND\0\0\0\0'), /a Blender file \(\.blend\)/],
    ['packed.blend', Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 0, 0), /a Blender file \(\.blend\)/],
    ['model.fbx', new TextEncoder().encode('Kaydara FBX Binary  \0\x1a\0\xe8\x1c\0\0'), /an FBX file \(\.fbx\)/],
    ['model.obj', new TextEncoder().encode('# Blender 4.2 OBJ\nmtllib model.mtl\no Cube\nv 1 1 -1\n'), /a Wavefront OBJ file \(\.obj\)/],
  ];
  for (const [name, bytes, what] of files) {
    it(`${name}: says what the file is and how to export glTF (and the add-on); exit 1`, () => {
      writeFileSync(join(dir, name), bytes);
      const r = run(name);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(what);
      expect(r.stderr).toMatch(/not glTF: .*File → Export → glTF 2\.0 \(docs\/blender-export\.md\).*skate\. collision add-on \(docs\/blender-addon\.md\)/);
      expect(r.stderr).not.toMatch(/Unexpected token|not valid glTF JSON/);
    });
  }
  it('a .gltf is still read as glTF JSON whatever its first bytes say', () => {
    writeFileSync(join(dir, 'broken.gltf'), 'BLENDER? no: {"asset":');
    expect(run('broken.gltf').stderr).toMatch(/not valid glTF JSON/);
  });
});

describe('the sample skatepark', () => {
  it('warns three times, deliberately (README "Run"), so --strict fails on it and writes nothing', () => {
    const r = run('park.glb', '-o', 'strict', '--strict', '--no-cache');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/strict: 3 warnings, and strict mode fails on any: validate: object "quarter_pipe": 2 cracks.*validate: object "stairs": 9 non-manifold edges.*validate: object "funbox": 2 cracks/);
    expect(readdirSync(dir)).not.toContain('strict');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toMatch(/The sample skatepark warns three times on purpose[^]*`npx compile-collision samples\/skatepark\.glb --strict` exits 1 and writes nothing/);
  });
});

describe('--help', () => {
  it('groups the compile options by task, shows each default, and no [default: []] on required file arguments', () => {
    const h = run('--help').stdout;
    const groups = [...h.matchAll(/^(\S[^\n]*):$/gm)].map((m) => m[1]);
    expect(groups).toEqual(expect.arrayContaining(['Output', 'Layout and budget', 'Shapes, edges and header', 'Checks', 'Rebuilds', 'Level ports (GTA V .ybn, forge)', 'Options']));
    expect(h).toMatch(/--out[^]*\[default: <input-stem>\.collision next to the input\]/);
    expect(h).toMatch(/--workers[^]*\[default: auto\]/);
    for (const cmd of ['inspect', 'verify', 'to-gltf', 'ride']) {
      const c = run(cmd, '--help').stdout;
      expect(c, cmd).toMatch(/^ {2}inputs [^]*?\[array\] \[required\]$/m);
      expect(c, cmd).not.toContain('[default: []]');
    }
  });
});
