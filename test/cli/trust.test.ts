// Each point of the trust and safety rules through the CLI as a user runs it: textures never read, the pool as an error, --strict,
// --quiet, --verbose, --dry-run, --json entries for failures, the layout line's reason, numeric option messages,
// progress on a terminal, a closed stdout, inspect/verify over files, folders and globs, short files, and diff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXTMeshGPUInstancing } from '@gltf-transform/extensions';
import { addNode, boxMesh, gridMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = tempDir('sk8-trust-');
afterAll(tmp.cleanup);
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', env: { ...process.env, CI: '1' }, maxBuffer: 1 << 28 });
const at = (p: string): string => join(tmp.dir, p);

/** A level whose one triangle mesh is instanced `count` times, 60 m apart on a square grid. */
async function instanced(path: string, count: number): Promise<void> {
  const doc = newLevel();
  const node = addNode(doc, { name: 'tri', positions: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 2, 1] });
  const side = Math.ceil(Math.sqrt(count));
  const t = new Float32Array(3 * count);
  for (let i = 0; i < count; i++) t.set([60 * (i % side), 0, 60 * Math.floor(i / side)], 3 * i);
  const ext = doc.createExtension(EXTMeshGPUInstancing);
  node.setExtension('EXT_mesh_gpu_instancing', ext.createInstancedMesh().setAttribute('TRANSLATION', doc.createAccessor().setType('VEC3').setArray(t).setBuffer(doc.getRoot().listBuffers()[0])));
  await writeLevel(doc, at(path));
}

beforeAll(async () => {
  const doc = newLevel();
  addNode(doc, { name: 'ground', ...gridMesh(4, 4, 1, [0, 0, 0]), material: 'concrete' });
  addNode(doc, { name: 'box', ...boxMesh([1, 0.5, 1], [0.5, 0.5, 0.5]) });
  await writeLevel(doc, at('level.glb'));
  // A closed, warning-free level for --strict.
  const clean = newLevel();
  addNode(clean, { name: 'crate', ...boxMesh([0, 0.5, 0], [0.5, 0.5, 0.5]), material: 'wood' });
  await writeLevel(clean, at('clean.glb'));
  // A level with one warning: a material that names no surface.
  const warn = newLevel();
  addNode(warn, { name: 'crate', ...boxMesh([0, 0.5, 0], [0.5, 0.5, 0.5]), material: 'Blorp' });
  await writeLevel(warn, at('warn.glb'));
  // A .gltf + .bin with a texture, then the texture deleted (copied without its images).
  const tex = newLevel();
  addNode(tex, { name: 'floor', ...gridMesh(2, 2, 1, [0, 0, 0]), material: 'concrete' });
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
  const texture = tex.createTexture('logo').setImage(png).setMimeType('image/png').setURI('CesiumLogoFlat.png');
  tex.getRoot().listMaterials()[0].setBaseColorTexture(texture);
  mkdirSync(at('tex'), { recursive: true });
  await writeLevel(tex, at('tex/level.gltf'));
  rmSync(at('tex/CesiumLogoFlat.png'));
  // The same as a GLB whose embedded image bytes are not an image at all.
  await writeLevel(tex, at('tex/embedded.glb'));
  await instanced('pool.glb', 40_001);
  await instanced('stock.glb', 5_001);
});

describe('textures and other unused resources', () => {
  it('a .gltf copied without its images compiles (images are never read)', () => {
    const r = run('tex/level.gltf', '-o', 'tex-out', '-q');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readdirSync(at('tex-out'))).toContain('floor.physics');
    expect(run('tex/embedded.glb', '-o', 'tex-glb', '-q').status).toBe(0);
  });
  it('a missing buffer is still an error naming the buffer and the file', () => {
    mkdirSync(at('nobin'), { recursive: true });
    copyFileSync(at('tex/level.gltf'), at('nobin/level.gltf'));
    const r = run('nobin/level.gltf', '-o', 'nobin-out');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/gltf: nobin\/level\.gltf: buffer 0 "level\.bin"/);
    expect(existsSync(at('nobin-out'))).toBe(false);
  });
});

describe('pools', () => {
  it("over ReSkate's pool (40,000) is an error: exit 1, nothing published", () => {
    const r = run('pool.glb', '--tiling', 'objects', '-o', 'pool-out');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/budget: at least 40001 geometries exceed ReSkate's geometry pool \(40000\).*--allow-pool-overflow/);
    expect(existsSync(at('pool-out'))).toBe(false);
  }, 60_000);
  it('--allow-pool-overflow lets it through (dry run here: 40,001 files are slow to write), with the warning', () => {
    const r = run('pool.glb', '--tiling', 'objects', '--allow-pool-overflow', '--dry-run', '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.wouldWrite.geometries).toBe(40_001);
    expect(j.warnings.join('\n')).toMatch(/exceed ReSkate's geometry pool/);
  }, 60_000);
  it('over the stock pool (5,000) still only warns', () => {
    const r = run('stock.glb', '--tiling', 'objects', '--dry-run');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/5001 geometries exceed the stock geometry pool \(5000\)/);
  }, 60_000);
});

describe('--strict, --quiet, --verbose, --dry-run', () => {
  it('--strict: a warning fails the build and nothing is written; a clean level builds', () => {
    const loose = run('warn.glb', '-o', 'strict-out');
    expect(loose.status).toBe(0);
    expect(loose.stdout).toMatch(/1 warning\(s\):\n +materials: .*material "Blorp" names no surface/);
    const r = run('warn.glb', '--strict', '-o', 'strict-out2');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/compile-collision: strict: 1 warning, and strict mode fails on any: materials: .*material "Blorp" names no surface/);
    expect(existsSync(at('strict-out2'))).toBe(false);
    const j = JSON.parse(run('warn.glb', '--strict', '--json').stdout);
    expect(j).toMatchObject({ ok: false, error: { stage: 'strict' } });
    expect(run('clean.glb', '--strict', '-o', 'strict-clean', '-q').status).toBe(0);
  });
  it('--quiet prints nothing on success, only the error on failure', () => {
    const ok = run('level.glb', '-q', '-o', 'quiet-out');
    expect([ok.status, ok.stdout, ok.stderr]).toEqual([0, '', '']);
    writeFileSync(at('bad.glb'), 'not a level');
    const bad = run('bad.glb', '-q');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^compile-collision: gltf: bad\.glb: .*\n$/);
  });
  it('--verbose: per-stage timings and, per object, mode, material word, triangles and resource', () => {
    const r = run('level.glb', '-v', '-o', 'verbose-out');
    expect(r.status).toBe(0);
    for (const stage of ['import', 'plan', 'validate', 'encode', 'publish']) expect(r.stdout).toMatch(new RegExp(`\\n {4}${stage} +[\\d.]+ ms +\\d+%`));
    expect(r.stdout).toMatch(/ground \(node 0 "ground"\): triangle_mesh, 32 triangles, Concrete \(0x00000060\) → ground/);
    expect(r.stdout).toMatch(/box \(node 1 "box"\): triangle_mesh, 12 triangles, .* → box/);
    // --json --verbose carries the same decisions.
    const j = JSON.parse(run('level.glb', '-v', '--json', '-o', 'verbose-out').stdout);
    expect(j.objects[0]).toMatchObject({ name: 'ground', mode: 'triangle_mesh', triangles: 32, materials: [0x60], resource: 'ground' });
  });
  it('--quiet with --verbose is a usage error', () => expect(run('level.glb', '-q', '-v').status).toBe(2));
  it('--dry-run: prints what would be written (resources, cells, geometries) and writes nothing', () => {
    const r = run('level.glb', '--dry-run', '-o', 'dry-out');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/dry run: nothing written/);
    expect(r.stdout).toMatch(/would write 2 resources, manifest\.json:\n +ground\.physics +32 triangles +1 parts +1 geometries\n +box\.physics/);
    expect(existsSync(at('dry-out'))).toBe(false);
    const cells = JSON.parse(run('level.glb', '--dry-run', '--tiling', 'cells', '--json', '-o', 'dry-out').stdout);
    expect(cells.ok).toBe(true);
    expect(cells.wouldWrite.layout).toBe('cells');
    expect(cells.wouldWrite.resources.map((x: { name: string }) => x.name)).toEqual(['collision_area_0_0']);
    expect(cells.wouldWrite.resources[0]).toMatchObject({ triangles: 44, parts: 2, geometries: 2, sourceObjects: ['ground', 'box'] });
    expect(existsSync(at('dry-out'))).toBe(false);
  });
});

describe('--json', () => {
  it('every input gets an entry; a failed one { input, ok: false, error: { stage, message } }; exit code unchanged', () => {
    writeFileSync(at('broken.glb'), 'glTF but not really');
    const one = run('broken.glb', '--json');
    expect(one.status).toBe(1);
    const e = JSON.parse(one.stdout);
    expect(e).toMatchObject({ input: 'broken.glb', ok: false, error: { stage: 'gltf' } });
    expect(e.error.message).toMatch(/^gltf: broken\.glb: /);
    const both = run('level.glb', 'broken.glb', '--json', '-o', 'json-out');
    expect(both.status).toBe(1);
    const list = JSON.parse(both.stdout);
    expect(list.map((x: { input: string; ok: boolean }) => [x.input, x.ok])).toEqual([['level.glb', true], ['broken.glb', false]]);
    expect(list[0].manifest.totals['collision-objects']).toBe(2);
    const pool = JSON.parse(run('pool.glb', '--tiling', 'objects', '--json').stdout);
    expect(pool).toMatchObject({ ok: false, error: { stage: 'budget' } });
  }, 60_000);
});

describe('the summary', () => {
  it('the layout line says why: objects vs budget → cells', () => {
    const cells = run('level.glb', '--budget', '2', '-o', 'why-cells');
    expect(cells.stdout).toMatch(/layout: 2 objects ≥ budget 2 → merged into 1 cells of 100 m \(2 geometries\)/);
    const objects = run('level.glb', '-o', 'why-objects');
    expect(objects.stdout).toMatch(/layout: 2 objects < budget 4,003 → one resource per object \(2 geometries\)/);
    const forced = run('level.glb', '--tiling', 'cells', '-o', 'why-forced');
    expect(forced.stdout).toMatch(/layout: merged into 1 cells of 100 m \(2 geometries\): --tiling cells/);
  });
});

describe('numeric options name what they expect', () => {
  const cases: [string[], RegExp][] = [
    [['--budget', 'abc'], /--budget expects a whole number of geometries, 1 or more; got "abc"/],
    [['--budget=0'], /--budget expects a whole number of geometries, 1 or more; got "0"/],
    [['--cell-size', 'x'], /--cell-size expects one of 50, 100, 200 \(metres\); got "x"/],
    [['--cell-size', '75'], /--cell-size expects one of 50, 100, 200 \(metres\); got "75"/],
    [['--chord-error', 'fine'], /--chord-error expects a number of metres from 0.0001 to 0.5; got "fine"/],
    [['--chord-error', '1'], /--chord-error expects a number of metres from 0.0001 to 0.5; got "1"/],
    [['--workers', 'many'], /--workers expects 'auto' or a whole number of threads from 1 to 256; got "many"/],
  ];
  for (const [args, message] of cases) {
    it(args.join(' '), () => {
      const r = run('level.glb', ...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/NaN/);
    });
  }
});

describe('progress', () => {
  it('on a terminal, every stage that can take long is shown: import, validate, plan, encode, publish', () => {
    // script(1) runs the CLI on a pseudo-terminal, as in a user's shell.
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} level.glb -o tty-out`;
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: tmp.dir, encoding: 'utf8', env: { ...process.env, CI: '1', TERM: 'xterm' } });
    expect(r.status).toBe(0);
    for (const stage of ['import', 'validate', 'plan', 'encode', 'publish']) expect(r.stdout).toMatch(new RegExp(` {2}${stage} \\[`));
  });
  it('not on a terminal: no progress at all', () => {
    const r = run('level.glb', '-o', 'notty-out');
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toMatch(/\[[█░-]+\]/);
  });
});

describe('a closed stdout', () => {
  const piped = (args: string) => spawnSync('bash', ['-c', `set -o pipefail; ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} ${args} | head -c 20 >/dev/null`], { cwd: tmp.dir, encoding: 'utf8' });
  it('inspect --json | head: exit 0, no EPIPE trace', () => {
    copyFileSync(join(ROOT, 'test/golden/bumpy-21845.physics'), at('big.physics'));
    const r = piped('inspect big.physics --json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
  it('every command: verify, diff, compile, --help', () => {
    mkdirSync(at('many'), { recursive: true });
    for (let i = 0; i < 3000; i++) copyFileSync(join(ROOT, 'samples/kinds.physics'), at(`many/k${i}.physics`));
    for (const args of ['verify many', 'diff big.physics many/k0.physics --all', 'level.glb -v -o pipe-out', '--help']) {
      const r = piped(args);
      expect([args, r.stderr, r.status]).toEqual([args, '', 0]);
    }
  }, 60_000);
});

describe('inspect and verify over files, folders and globs', () => {
  beforeAll(() => {
    expect(run('level.glb', '-o', 'out', '-q').status).toBe(0);
  });
  it('inspect takes several files and a quoted glob; a folder that is a compile output is summarised as a whole', () => {
    const r = run('inspect', 'out/ground.physics', 'out/box.physics');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^out\/ground\.physics:\n {2}PhysicsResource/);
    expect(r.stdout).toMatch(/\nout\/box\.physics:\n/);
    const g = run('inspect', 'out/*.physics');
    expect(g.status).toBe(0);
    expect(g.stdout).toMatch(/out\/box\.physics:[^]*out\/ground\.physics:/);
    const whole = run('inspect', 'out');
    expect(whole.status).toBe(0);
    expect(whole.stdout).toMatch(/^out: compile output of level\.glb \(compile-collision [\d.]+\), layout one resource per object, 2 geometries, 2 resources listed\n {2}2 PhysicsResources, [\d,]+ bytes: 2 parts, 2 shapes, \d+ vertices, 44 faces/);
    const j = JSON.parse(run('inspect', 'out', '--json').stdout);
    expect(j[0]).toMatchObject({ folder: 'out', kind: 'output', totals: { resources: 2, faces: 44 } });
  });
  it('a plain folder gives its .physics; glTF, GLB and other files are named as such', () => {
    mkdirSync(at('loose'), { recursive: true });
    copyFileSync(at('out/box.physics'), at('loose/a.physics'));
    expect(run('inspect', 'loose').stdout).toMatch(/^loose: folder of 1 \.physics files\n/);
    const glb = run('inspect', 'level.glb');
    expect(glb.status).toBe(1);
    expect(glb.stderr).toMatch(/level\.glb: a glTF binary \(\.glb\), not a PhysicsResource: compile it with compile-collision/);
    expect(glb.stderr).not.toMatch(/version: expected 2/);
    expect(run('inspect', 'tex/level.gltf').stderr).toMatch(/a glTF level \(\.gltf JSON\), not a PhysicsResource/);
    writeFileSync(at('notes.txt'), 'hello');
    expect(run('verify', 'notes.txt').stderr).toMatch(/notes\.txt: open: not a PhysicsResource \(5 bytes; a PhysicsResource starts with version 2/);
    expect(run('verify', 'level.glb').stderr).toMatch(/level\.glb: open: a glTF binary \(\.glb\), not a PhysicsResource/);
    expect(run('inspect', 'nothing-here').status).toBe(2);
  });
  it('verify expands quoted globs and folders; a compile output is checked against its manifest', () => {
    const g = run('verify', 'out/*.physics');
    expect(g.status).toBe(0);
    expect(g.stdout).toMatch(/out\/box\.physics: ok\nout\/ground\.physics: ok\n/);
    const whole = run('verify', 'out');
    expect(whole.status).toBe(0);
    expect(whole.stdout).toMatch(/out: compile output: 2 files, all ok\n/);
    mkdirSync(at('out2'), { recursive: true });
    for (const f of ['manifest.json', 'ground.physics']) copyFileSync(at(`out/${f}`), at(`out2/${f}`));
    copyFileSync(at('out/box.physics'), at('out2/stray.physics'));
    const odd = run('verify', 'out2');
    expect(odd.status).toBe(1);
    expect(odd.stderr).toMatch(/out2: manifest: manifest\.json lists box\.physics, which is missing/);
    expect(odd.stderr).toMatch(/out2: manifest: stray\.physics is not in manifest\.json/);
    // A resource replaced by another valid one (the user's edit, or a tampered file): not the bytes recorded.
    copyFileSync(at('out/box.physics'), at('out2/ground.physics'));
    expect(run('verify', 'out2').stderr).toMatch(/out2\/ground\.physics: manifest: not the bytes the build wrote: manifest\.json records \d+ bytes, CRC-32 [0-9a-f]{8}; the file has \d+ bytes, CRC-32 [0-9a-f]{8}/);
  });
  it('verify reports a short file (the last 40 bytes cut off)', () => {
    const bytes = readFileSync(join(ROOT, 'samples/kinds.physics'));
    writeFileSync(at('cut40.physics'), bytes.subarray(0, bytes.length - 40));
    const r = run('verify', 'cut40.physics');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cut40\.physics: length: the file is 40 bytes short: it ends at 0x4f4, but its trailing zero padding \(56 bytes after the last face plane, 8 after the last tree\) runs to 0x51c/);
    // inspect reads it and says so plainly.
    expect(run('inspect', 'cut40.physics').stdout).toMatch(/40 bytes short of Studio's layout/);
    expect(run('verify', 'samples/kinds.physics'.replace(/^/, join(ROOT, ''))).status).toBe(0);
  });
  it('inspect speaks plainly: no bare word08, no unexplained "reference encoder"', () => {
    const r = run('inspect', join(ROOT, 'samples/kinds.physics'));
    expect(r.stdout).toMatch(/header: ReSkate Studio's form \(header word 0x08 = 1, 76-byte body\)/);
    expect(r.stdout).not.toMatch(/word08|reference encoder|-\d+ bytes longer/);
  });
});

describe('diff', () => {
  beforeAll(() => {
    expect(run('level.glb', '-o', 'd1', '-q').status).toBe(0);
    expect(run('level.glb', '-o', 'd2', '-q').status).toBe(0);
    expect(run('level.glb', '-o', 'd3', '-q', '--tiling', 'cells').status).toBe(0);
  }, 60_000); // three builds: over vitest's 10 s default on a loaded 2-core machine
  it('identical files and outputs: exit 0', () => {
    expect(run('diff', 'd1/box.physics', 'd2/box.physics')).toMatchObject({ status: 0, stdout: 'identical: d1/box.physics and d2/box.physics\n' });
    expect(run('diff', 'd1', 'd2').status).toBe(0);
  });
  it('two files: record-level differences with decoded values and byte offsets; exit 1', () => {
    const bytes = new Uint8Array(readFileSync(at('d1/box.physics')));
    const changed = bytes.slice();
    // The first vertex's x (the shape's vertex array: offset field at shape record + 0x24, self-relative).
    const dv = new DataView(changed.buffer);
    const shape = 0x28 + dv.getUint32(0x28, true); // shape table offset, relative to its field
    const vertices = shape + 0x24 + dv.getUint32(shape + 0x24, true);
    dv.setFloat32(vertices, 7.25, true);
    writeFileSync(at('moved.physics'), changed);
    const r = run('diff', 'd1/box.physics', 'moved.physics');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^A = d1\/box\.physics\nB = moved\.physics\n/);
    expect(r.stdout).toMatch(new RegExp(`shape\\[0\\]\\.vertices: A at 0x${vertices.toString(16)}[^]*\\[0\\] A [-\\d.]+ \\[[0-9a-f ]+\\] at 0x${vertices.toString(16)}\\n +B 7\\.25 \\[[0-9a-f ]+\\] at 0x${vertices.toString(16)}`));
  });
  it('two outputs: manifest differences, resources added / removed / changed; exit 1', () => {
    const r = run('diff', 'd1', 'd3');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/option tiling: "auto" → "cells"/);
    expect(r.stdout).toMatch(/layout: "objects" → "cells"/);
    expect(r.stdout).toMatch(/removed box \(only in d1\)\nremoved ground \(only in d1\)\nadded collision_area_0_0 \(only in d3\)/);
    expect(r.stdout).toMatch(/1 added, 2 removed, 0 changed, 0 identical resources/);
    copyFileSync(at('moved.physics'), at('d2/box.physics'));
    const c = run('diff', 'd1', 'd2');
    expect(c.status).toBe(1);
    expect(c.stdout).toMatch(/changed box \(box\.physics\):\n {2}size: d1 \d+ bytes, d2 \d+ bytes[^]*shape\[0\]\.vertices/);
    expect(c.stdout).toMatch(/0 added, 0 removed, 1 changed, 1 identical resources/);
  });
  it('a file against a folder, or a missing input, is a usage error', () => {
    expect(run('diff', 'd1', 'd1/box.physics').status).toBe(2);
    expect(run('diff', 'd1/box.physics', 'nope.physics').status).toBe(2);
  });
});

describe('diff and the other readers of .physics are bounded by what they show', () => {
  /** Max RSS (kB) of a spawned command through GNU time, or undefined where there is none. */
  const rss = (...args: string[]): { status: number | null; stdout: string; stderr: string; kb?: number } => {
    if (!existsSync('/usr/bin/time')) return { ...run(...args) };
    const r = spawnSync('/usr/bin/time', ['-f', 'maxrss %M', process.execPath, BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', env: { ...process.env, CI: '1' } });
    const m = /maxrss (\d+)\s*$/.exec(r.stderr);
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, kb: m ? Number(m[1]) : undefined };
  };

  it('a 1 GiB file that is not a PhysicsResource is named from its first bytes, never read whole', () => {
    const zeros = at('zeros.physics');
    writeFileSync(zeros, '');
    truncateSync(zeros, 1 << 30);
    const box = join(ROOT, 'test/golden/box.physics');
    for (const cmd of [['diff', zeros, box], ['inspect', zeros], ['verify', zeros]]) {
      const r = rss(...cmd);
      expect(r.stderr, cmd[0]).toMatch(/zeros\.physics: (open: )?not a PhysicsResource \(1073741824 bytes/);
      if (r.kb !== undefined) expect(r.kb, cmd[0]).toBeLessThan(400_000);
    }
    rmSync(zeros);
  });

  it('diff of two files over 128 MiB compares them byte by byte in chunks: the first differing byte, bounded memory', () => {
    const box = readFileSync(join(ROOT, 'test/golden/box.physics'));
    const [a, b] = [at('big-a.physics'), at('big-b.physics')];
    for (const p of [a, b]) {
      writeFileSync(p, box);
      truncateSync(p, 200 << 20);
    }
    const fd = openSync(b, 'r+');
    writeSync(fd, Buffer.from([1]), 0, 1, 150 << 20);
    closeSync(fd);
    const r = rss('diff', a, b);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain(`first differing byte: 0x${(150 << 20).toString(16)}`);
    expect(r.stdout).toMatch(/compared byte by byte, not record by record/);
    if (r.kb !== undefined) expect(r.kb).toBeLessThan(400_000);
    expect(rss('diff', a, a).status).toBe(0);
    rmSync(a);
    rmSync(b);
  }, 60_000);
});

describe('diff of two compile outputs with a resource over 128 MiB', () => {
  it('compares that pair byte by byte (first differing byte), with bounded memory', () => {
    const [a, b] = [at('big-out-a'), at('big-out-b')];
    expect(run('level.glb', '-o', a, '--no-cache', '-q').status).toBe(0);
    cpSync(a, b, { recursive: true });
    const file = readdirSync(b).find((f) => f.endsWith('.physics'))!;
    const size = statSync(join(b, file)).size;
    truncateSync(join(b, file), 1 << 30); // its bytes, then zeros to 1 GiB (sparse)
    const r = existsSync('/usr/bin/time')
      ? spawnSync('/usr/bin/time', ['-f', 'maxrss %M', process.execPath, BIN, 'diff', a, b], { cwd: tmp.dir, encoding: 'utf8' })
      : run('diff', a, b);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain(`first differing byte 0x${size.toString(16)} (a file over 128 MiB is compared byte by byte, not record by record)`);
    const kb = /maxrss (\d+)\s*$/.exec(r.stderr);
    if (kb) expect(Number(kb[1])).toBeLessThan(400_000);
    rmSync(b, { recursive: true });
  }, 60_000);
});
