// A compile output's manifest.json edited by hand or by anyone who can write the output: inspect, verify, diff and
// to-gltf each give a clear error naming the file and the field (or work on a manifest that is still sound), never
// a stack trace. The named cases first through the CLI as a user runs it, then a seeded mutation fuzz that drives
// the commands' handlers in this process (their output and exit captured), hundreds of mutants in seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandModule } from 'yargs';
import { compileLevel } from '../../src/build/compile.ts';
import { compileOutputToGltf } from '../../src/export/outputs.ts';
import { inspectCommand } from '../../cli/commands/inspect.ts';
import { verifyCommand } from '../../cli/commands/verify.ts';
import { diffCommand } from '../../cli/commands/diff.ts';
import { toGltfCommand } from '../../cli/commands/to-gltf.ts';
import { addNode, boxMesh, gridMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';
import { prng } from '../fixtures/meshes.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const tmp = tempDir('sk8-manifest-fuzz-');
afterAll(tmp.cleanup);
const at = (p: string): string => join(tmp.dir, p);
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });

let pristine = '';
let manifest: any;

beforeAll(async () => {
  const doc = newLevel();
  addNode(doc, { name: 'ground', ...gridMesh(4, 4, 1, [0, 0, 0]), material: 'concrete' });
  addNode(doc, { name: 'box', ...boxMesh([1, 0.5, 1], [0.5, 0.5, 0.5]) });
  const input = await writeLevel(doc, at('level.glb'));
  pristine = at('out');
  await compileLevel(input, { out: pristine, cache: false, report: false });
  manifest = JSON.parse(readFileSync(join(pristine, 'manifest.json'), 'utf8'));
});

/** A copy of the output with its manifest replaced by `m` (an object, or text as it is). */
function withManifest(name: string, m: unknown): string {
  const dir = at(name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(pristine, dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), typeof m === 'string' ? m : JSON.stringify(m));
  return dir;
}

const edited = (edit: (m: any) => void): any => {
  const m = structuredClone(manifest);
  edit(m);
  return m;
};

/** Captures a handler's output and exit: process.exit throws this instead of ending the test process. */
class Exit extends Error {
  constructor(readonly code: number | undefined) {
    super(`exit ${code}`);
  }
}

const STACK = /\n\s+at |TypeError|ReferenceError|RangeError|Cannot read prop/;

describe('wrong-typed manifest fields through the CLI', () => {
  const cases: [string, (m: any) => void, RegExp][] = [
    ['resources-object', (m) => (m.resources = {}), /field "resources" is an object, expected an array/],
    ['options-null', (m) => (m.options = null), /field "options" is null, expected an object/],
    ['no-geometries', (m) => delete m.geometries, /field "geometries" is missing, expected a whole number/],
  ];
  for (const [name, edit, message] of cases) {
    it(`${name}: inspect, verify, diff and to-gltf name the file and the field; exit 1 or 2; no stack`, async () => {
      const dir = withManifest(name, edited(edit));
      // The commands' handlers in this process (spawning each is ~1 s on a loaded machine), then one as a user runs it.
      for (const [cmd, args] of [
        [inspectCommand, { inputs: [dir], json: false }],
        [verifyCommand, { inputs: [dir] }],
        [diffCommand, { a: pristine, b: dir, all: false }],
        [toGltfCommand, { inputs: [dir], out: at(`${name}.glb`), force: false, edgeColors: false }],
      ] as [CommandModule<object, any>, Record<string, unknown>][]) {
        const r = await drive(cmd, args);
        const what = String(cmd.command);
        expect(r.thrown, what).toBeUndefined();
        expect(r.err, what).toMatch(message);
        expect(r.err, what).toContain(join(dir, 'manifest.json'));
        expect(r.err, what).not.toMatch(STACK);
        expect([1, 2], what).toContain(r.code);
      }
      const r = run('verify', dir);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(STACK);
      expect(r.status).toBe(1);
    });
  }

  it('a number that parses to Infinity (1e999) in a field to-gltf carries into the GLB is refused, never written as null', async () => {
    const text = JSON.stringify(edited((m) => (m.options.future = 12345))).replace('12345', '1e999');
    const dir = withManifest('infinite', text);
    const out = at('infinite.glb');
    const r = await drive(toGltfCommand, { inputs: [dir], out, force: false, edgeColors: false });
    expect(r.thrown).toBeUndefined();
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/to-gltf: scene extras\.sk8_compile\.options\.future \(Infinity\) is not a finite number/);
    expect(existsSync(out)).toBe(false);
  });

  it('the library\'s compileOutputToGltf names a 1 GiB file that is not a PhysicsResource from its first bytes', async () => {
    const dir = withManifest('zeros-out', manifest);
    const zeros = join(dir, 'zz.physics');
    writeFileSync(zeros, '');
    truncateSync(zeros, 1 << 30);
    const before = process.memoryUsage().arrayBuffers;
    await expect(compileOutputToGltf(dir)).rejects.toThrow(/^to-gltf: .*zz\.physics: not a PhysicsResource \(1073741824 bytes/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(256 << 20); // never read whole
    rmSync(zeros);
  });

  it('a resource file that is a path is refused by name', () => {
    const dir = withManifest('file-path', edited((m) => (m.resources[0].file = '../../etc/passwd.physics')));
    const r = run('verify', dir);
    expect(r.stderr).toMatch(/field "resources\[0\]\.file" is a string \("\.\.\/\.\.\/etc\/passwd\.physics"\), expected a plain file name/);
    expect(r.status).toBe(1);
  });

  it('diff on a symbolic-link loop, and on a folder whose manifest is a link loop: clear errors, no ELOOP stack', async () => {
    const loop = at('loop');
    symlinkSync(loop, loop);
    const r = run('diff', loop, pristine);
    expect(r.stderr).toMatch(/diff: .*loop is a symbolic link loop/);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.status).toBe(2);
    const dir = withManifest('manifest-loop', '{}');
    rmSync(join(dir, 'manifest.json'));
    symlinkSync(join(dir, 'manifest.json'), join(dir, 'manifest.json'));
    for (const [cmd, args] of [
      [inspectCommand, { inputs: [dir], json: false }],
      [verifyCommand, { inputs: [dir] }],
      [diffCommand, { a: pristine, b: dir, all: false }],
      [toGltfCommand, { inputs: [dir], out: at('ml.glb'), force: false, edgeColors: false }],
    ] as [CommandModule<object, any>, Record<string, unknown>][]) {
      const s = await drive(cmd, args);
      expect(s.thrown, String(cmd.command)).toBeUndefined();
      expect(s.err, String(cmd.command)).toMatch(/symbolic link loop|ELOOP/);
      expect(s.err, String(cmd.command)).not.toMatch(STACK);
      expect([1, 2], String(cmd.command)).toContain(s.code);
    }
  });
});

async function drive(cmd: CommandModule<object, any>, args: Record<string, unknown>): Promise<{ out: string; err: string; code: number | undefined; thrown?: unknown }> {
  let out = '', err = '';
  const w1 = process.stdout.write, w2 = process.stderr.write, ex = process.exit, code0 = process.exitCode;
  process.stdout.write = ((s: string) => ((out += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((err += s), true)) as typeof process.stderr.write;
  process.exit = ((c?: number) => {
    throw new Exit(c);
  }) as typeof process.exit;
  process.exitCode = undefined;
  let code: number | undefined;
  let thrown: unknown;
  try {
    await (cmd.handler as (a: unknown) => Promise<void> | void)({ _: [], $0: 'compile-collision', ...args });
    code = process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (e) {
    if (e instanceof Exit) code = e.code;
    else thrown = e;
  } finally {
    process.stdout.write = w1;
    process.stderr.write = w2;
    process.exit = ex;
    process.exitCode = code0;
  }
  return { out, err, code, thrown };
}

/** Every path into a JSON value (arrays and objects), the root included. */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.slice(0, 4).forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

const REPLACEMENTS: unknown[] = [{}, [], null, 'x', '', 0, -1, 1.5, 1e308, true, false, [1, 2], { a: 1 }, '../x.physics', ['x']];

/** A seeded mutant of the manifest: one to three paths replaced, deleted, or (arrays) emptied / doubled. */
function mutant(seed: number): unknown {
  const r = prng(seed);
  const m = structuredClone(manifest);
  const all = paths(m);
  const edits = 1 + Math.floor(r() * 3);
  for (let e = 0; e < edits; e++) {
    const p = all[1 + Math.floor(r() * (all.length - 1))];
    let parent: any = m;
    for (const k of p.slice(0, -1)) parent = parent?.[k];
    if (parent === null || typeof parent !== 'object') continue;
    const key = p[p.length - 1];
    const op = r();
    if (op < 0.2) delete parent[key];
    else if (op < 0.25 && Array.isArray(parent[key])) parent[key] = [...parent[key], ...parent[key]];
    else parent[key] = structuredClone(REPLACEMENTS[Math.floor(r() * REPLACEMENTS.length)]);
  }
  return m;
}

describe('seeded mutation fuzz of compile outputs\' manifests', () => {
  it('300 mutants × inspect, verify, diff, to-gltf: no command throws or prints a stack; errors name manifest.json', { timeout: 120_000 }, async () => {
    const dir = withManifest('fuzz', manifest);
    const glb = at('fuzz.glb');
    let refused = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const m = mutant(seed);
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
      for (const [cmd, args] of [
        [inspectCommand, { inputs: [dir], json: seed % 2 === 0 }],
        [verifyCommand, { inputs: [dir] }],
        [diffCommand, { a: pristine, b: dir, all: false }],
        [toGltfCommand, { inputs: [dir], out: glb, force: true, edgeColors: false }],
      ] as [CommandModule<object, any>, Record<string, unknown>][]) {
        const r = await drive(cmd, args);
        const what = `seed ${seed} ${String(cmd.command)}: ${JSON.stringify(m).slice(0, 300)}`;
        expect(r.thrown, `${what}\n${(r.thrown as Error)?.stack}`).toBeUndefined();
        expect(r.err, what).not.toMatch(STACK);
        if (/field "/.test(r.err)) {
          refused++;
          expect(r.err, what).toMatch(/manifest: .*manifest\.json: field "[^"]+" is /);
        }
      }
    }
    expect(refused).toBeGreaterThan(100); // most mutants touch a field the commands read
  });
});
