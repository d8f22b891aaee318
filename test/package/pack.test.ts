// What a release hands out, as a user gets it: `npm run release` from a copy of the repository (the npm tarball and
// the Blender add-on zip carrying the compiler), the tarball installed into an empty project (its dependencies from
// the npm cache, else the registry), then docs/api.md's example and the CLI run there with plain Node, a TypeScript
// file that imports the package type-checked against the shipped declarations, and the zip's compiler run from a
// folder with no node_modules anywhere above it. Slow (~40–60 s): one build, one install.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** The compiler folder: in the package as dist/compiler/, in the add-on's zip as skate_collision/compiler/. */
const COMPILER_FILES = ['compile-collision.mjs', 'worker.js', 'ride-worker.js', 'page.bundle.js', 'draco_decoder_gltf.wasm', 'package.json', 'LICENSE', 'THIRD-PARTY-NOTICES.txt'];

let work: string;
let tarball: string;
let zip: string;
let consumer: string;
let packLog: string;
let installLog: string;
let tarList: string[];

function run(cmd: string, args: string[], opts: SpawnSyncOptions): { stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 240_000, ...opts, env: { ...process.env, CI: '1', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  return { stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** The example program of docs/api.md: the js block after `<!-- example: example.mjs -->`. */
function apiExample(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  const m = /<!-- example: example\.mjs -->\s*```js\n([\s\S]*?)\n```/.exec(doc);
  if (!m) throw new Error('docs/api.md: no example block');
  return m[1];
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sk8-pack-'));
  // A copy of what a clean checkout has (not dist/, not the generated wasm): pack builds them itself.
  const src = join(work, 'repo');
  mkdirSync(src);
  for (const e of ['package.json', 'package-lock.json', 'README.md', 'LICENSE', 'tsconfig.json', 'tsconfig.build.json', 'assembly', 'bin', 'blender', 'cli', 'docs', 'scripts', 'src']) {
    cpSync(join(ROOT, e), join(src, e), { recursive: true, filter: (p) => !p.endsWith('wasm.generated.ts') && !/[\\/](__pycache__|dist)$/.test(p) });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'), 'dir');
  const out = join(work, 'release');
  const r = run(NPM, ['run', 'release', '--', '--out', out], { cwd: src });
  packLog = r.stdout + r.stderr;
  tarball = join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
  zip = join(out, readdirSync(out).find((f) => f.endsWith('.zip'))!);
  tarList = run('tar', ['-tzf', tarball], {}).stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  const i = run(NPM, ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: consumer });
  installLog = i.stdout + i.stderr;
  cpSync(join(ROOT, 'samples', 'skatepark.glb'), join(consumer, 'skatepark.glb'));
}, 400_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm package', () => {
  it('packs without warnings: dist/src (the library), dist/compiler (the CLI, once), docs/, LICENSE, no sources', () => {
    expect(packLog).not.toMatch(/npm warn/i);
    const list = tarList;
    for (const f of ['package.json', 'LICENSE', 'README.md', 'docs/api.md', 'docs/using-the-output.md', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/tiling/worker.js', 'dist/src/geometry/wasm.generated.js', 'dist/src/format/material-catalog.json', ...COMPILER_FILES.map((f) => `dist/compiler/${f}`)]) {
      expect(list, f).toContain(f);
    }
    expect(list.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(list.some((f) => f.startsWith('assembly/') || f.startsWith('test/') || f.startsWith('scripts/') || f.startsWith('bin/'))).toBe(false);
    // The CLI ships once: the compiler folder (bin), not also as compiled modules; the page script once, there.
    expect(list.filter((f) => f.startsWith('dist/cli/')).sort()).toEqual(['dist/cli/summary.js', 'dist/cli/summary.d.ts'].sort());
    expect(list.filter((f) => f.endsWith('page.bundle.js') || /^dist\/src\/report\/page\/(main|view)\./.test(f))).toEqual(['dist/compiler/page.bundle.js']);
    // The wasm module is code, not a declaration: its .d.ts is a line.
    const dts = run('tar', ['-xzOf', tarball, 'package/dist/src/geometry/wasm.generated.d.ts'], {}).stdout;
    expect(dts.length).toBeLessThan(400);
    expect(dts).toMatch(/WASM_BASE64: string;/);
    // The published package.json: no scripts (npm warns consumers of install-time scripts), no devDependencies; its
    // bin is the compiler folder's entry.
    const shipped = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], {}).stdout);
    expect(shipped.scripts).toBeUndefined();
    expect(shipped.devDependencies).toBeUndefined();
    expect(shipped.bin).toEqual({ 'compile-collision': 'dist/compiler/compile-collision.mjs' });
    expect(shipped.dependencies).toEqual(pkg.dependencies);
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(shipped.license).toBe('MIT');
  });

  it('depends on exactly the packages the library imports (the compiler folder imports none)', () => {
    const x = mkdtempSync(join(work, 'x-'));
    run('tar', ['-xzf', tarball, '-C', x], {});
    const imported = new Set<string>();
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.js') && !p.includes(`${join('dist', 'compiler')}`)) {
          for (const m of readFileSync(p, 'utf8').matchAll(/(?:^import .*? from |^export .*? from |await import\()'([^'.][^']*)'/gm)) {
            if (!m[1].startsWith('node:')) imported.add(/^(@[^/]+\/)?[^/]+/.exec(m[1])![0]);
          }
        }
      }
    };
    walk(join(x, 'package', 'dist'));
    // esbuild: only when the page script is not beside the library (it always is in the package).
    imported.delete('esbuild');
    expect([...imported].sort()).toEqual(Object.keys(pkg.dependencies).sort());
    for (const f of ['compile-collision.mjs', 'worker.js', 'ride-worker.js']) {
      const text = readFileSync(join(x, 'package', 'dist', 'compiler', f), 'utf8');
      const from = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
      expect(from.length, f).toBeGreaterThan(0);
      expect(from.filter((m) => !isBuiltin(m)), f).toEqual([]);
    }
  });

  it('installs without warnings, and without what only the build or the tests use', () => {
    expect(existsSync(join(consumer, 'node_modules', 'skate-collision', 'dist', 'src', 'index.js'))).toBe(true);
    for (const p of ['tsx', 'esbuild', 'three', 'yargs', 'binary-parser', '@gltf-transform/functions', 'sharp', 'chokidar', 'glob']) {
      expect(existsSync(join(consumer, 'node_modules', p)), p).toBe(false);
    }
    expect(installLog).not.toMatch(/ERR!|npm warn/i);
  });

  it("runs docs/api.md's example with plain Node", () => {
    writeFileSync(join(consumer, 'example.mjs'), apiExample());
    const r = run(process.execPath, ['example.mjs', 'skatepark.glb'], { cwd: consumer });
    expect(r.stdout).toMatch(new RegExp(`^skate-collision ${pkg.version.replace(/\./g, '\\.')}: 17 resources, 1480 triangles in .*level\\.collision$`, 'm'));
    expect(r.stdout).toMatch(/^floor: 1 shape, 2 faces, centre 5, 0, -5$/m);
    expect(r.stdout).toMatch(/^to-gltf and back: identical resources \(17\), [1-9]\d* manifest differences$/m);
    expect(existsSync(join(consumer, 'level.collision', 'manifest.json'))).toBe(true);
    // The names the docs give for ybn.placement and for diff / to-gltf are exported (no ERR_PACKAGE_PATH_NOT_EXPORTED).
    const names = ['readYmapXml', 'readYmapBinary', 'matchPlacements', 'diffCompileOutputs', 'diffResources', 'compileOutputToGltf', 'readCompileOutput', 'resourcesToGltf'];
    const m = run(process.execPath, ['--input-type=module', '-e', `import * as m from 'skate-collision'; console.log(${JSON.stringify(names)}.map((k) => typeof m[k]).join(' '))`], { cwd: consumer });
    expect(m.stdout.trim()).toBe(names.map(() => 'function').join(' '));
  });

  it('type-checks a TypeScript consumer against the shipped declarations', () => {
    writeFileSync(
      join(consumer, 'use.ts'),
      [
        "import { compileLevel, readPhysicsResource, writePhysicsResource, encodeMeshShapes, verifyPhysics, type CompileResult, type PhysicsResource, type Finding } from 'skate-collision';",
        "import { diffCompileOutputs, compileOutputToGltf, readYmapXml, matchPlacements, type OutputDiff, type ToGltfResult, type Placement } from 'skate-collision';",
        'export async function g(text: string): Promise<boolean> {',
        "  const placements: Placement[] = readYmapXml(text, 'x.ymap.xml');",
        "  const { byFile } = matchPlacements(['v_int.ybn'], placements);",
        "  await compileLevel('v_int.ybn', { ybn: { detail: false, placement: { ymaps: ['x.ymap.xml'], placements: byFile.get('v_int.ybn') ?? [] } } });",
        "  const d: OutputDiff = diffCompileOutputs('a.collision', 'b.collision');",
        "  const t: ToGltfResult = await compileOutputToGltf('a.collision', { edgeColors: true });",
        '  return d.identical && t.glb.byteLength > 0;',
        '}',
        'export async function f(bytes: Uint8Array): Promise<number> {',
        "  const r: CompileResult = await compileLevel('a.glb', { out: 'x', cellSize: 50, workers: 1 });",
        '  const res: PhysicsResource = readPhysicsResource(bytes);',
        '  const back: Uint8Array = writePhysicsResource(res);',
        "  const findings: Finding[] = verifyPhysics(back, 'a.physics');",
        '  const { pieces } = encodeMeshShapes(new Float32Array(9), new Uint32Array([0, 1, 2]), { maxFaces: 100 });',
        "  return r.manifest.totals['collision-resources'] + findings.length + pieces.length;",
        '}',
        '// @ts-expect-error cellSize is 50 | 100 | 200',
        "compileLevel('a.glb', { cellSize: 75 });",
        '',
      ].join('\n'),
    );
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, skipLibCheck: true, types: [] }, files: ['use.ts'] }));
    run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: consumer });
  });

  it('runs the CLI from the installed package (compile with workers, verify, --version)', () => {
    const bin = join(consumer, 'node_modules', '.bin', 'compile-collision');
    expect(run(bin, ['--version'], { cwd: consumer }).stdout.trim()).toBe(pkg.version);
    const r = run(bin, ['skatepark.glb', '--json', '--workers', '2', '-o', 'cli-out'], { cwd: consumer });
    const j = JSON.parse(r.stdout);
    expect(j.manifest.totals['collision-resources']).toBe(17);
    expect(j.workers).toBe(2); // the bundled worker (dist/compiler/worker.js) starts without a loader
    const files = readdirSync(join(consumer, 'cli-out')).filter((f) => f.endsWith('.physics')).map((f) => join('cli-out', f));
    expect(run(bin, ['verify', ...files], { cwd: consumer }).stdout.trim().split('\n')).toHaveLength(17);
    // report.html with the page script the package ships bundled (no esbuild, no page sources installed).
    run(bin, ['skatepark.glb', '--report', '-o', 'with-report'], { cwd: consumer });
    const html = readFileSync(join(consumer, 'with-report', 'report.html'), 'utf8');
    expect(html.length).toBeGreaterThan(100_000); // three.js is inside, with its licence notice
    expect(html).toContain('<script');
    expect(html).toMatch(/@license\s+\*?\s*Copyright 2010-\d{4} Three\.js Authors\s+\*?\s*SPDX-License-Identifier: MIT/);
    // The installed CLI is the compiler folder's bundle with yargs inside: its help and usage errors are the
    // repository CLI's, word for word.
    const repoBin = join(ROOT, 'bin', 'compile-collision.js');
    expect(run(bin, ['--help'], { cwd: consumer }).stdout).toBe(run(repoBin, ['--help'], { cwd: consumer }).stdout);
    const bad = spawnSync(bin, ['--no-such-option'], { cwd: consumer, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(spawnSync(process.execPath, [repoBin, '--no-such-option'], { cwd: consumer, encoding: 'utf8', maxBuffer: 1 << 28 }).stderr);
  });
});

describe('Blender add-on zip', () => {
  /** The zip unpacked as Blender does (Python's zipfile), in a folder with no node_modules anywhere above it. */
  let addon: string;
  let compiler: string;
  beforeAll(() => {
    addon = mkdtempSync(join(tmpdir(), 'sk8-addon-'));
    for (let d = addon; ; d = dirname(d)) {
      if (existsSync(join(d, 'node_modules'))) throw new Error(`${d} has a node_modules: the test must run where none is above`);
      if (dirname(d) === d) break;
    }
    run(process.env.PYTHON ?? 'python3', ['-m', 'zipfile', '-e', zip, addon], {});
    compiler = join(addon, 'skate_collision', 'compiler');
  });
  afterAll(() => rmSync(addon, { recursive: true, force: true }));

  it('carries the add-on and the compiler folder (docs/blender-addon.md, "The compiler in the zip")', () => {
    expect(readdirSync(compiler).sort()).toEqual([...COMPILER_FILES].sort());
    expect(existsSync(join(addon, 'skate_collision', 'blender_manifest.toml'))).toBe(true);
    expect(existsSync(join(addon, 'skate_collision', '__init__.py'))).toBe(true);
    // The same compiler as the npm package's, byte for byte.
    for (const f of COMPILER_FILES) {
      expect(Buffer.compare(readFileSync(join(compiler, f)), readFileSync(join(consumer, 'node_modules', 'skate-collision', 'dist', 'compiler', f))), f).toBe(0);
    }
    const notices = readFileSync(join(compiler, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
    for (const p of ['yargs', '@gltf-transform/core', 'three', 'draco3dgltf', 'meshoptimizer', 'fast-xml-parser']) expect(notices, p).toContain(`\n${p} `);
  });

  it('compiles the sample with `node compile-collision.mjs` and nothing installed: the repository CLI’s files, byte for byte', () => {
    const level = join(addon, 'skatepark.glb');
    cpSync(join(ROOT, 'samples', 'skatepark.glb'), level);
    const entry = join(compiler, 'compile-collision.mjs');
    expect(run(process.execPath, [entry, '--version'], { cwd: addon }).stdout.trim()).toBe(pkg.version);
    run(process.execPath, [entry, level, '-o', 'zip-out', '--workers', '2', '--report'], { cwd: addon });
    run(process.execPath, [join(ROOT, 'bin', 'compile-collision.js'), level, '-o', 'repo-out', '--workers', '2', '--report'], { cwd: addon });
    const files = (d: string): string[] => readdirSync(join(addon, d)).filter((f) => !f.startsWith('.')).sort();
    expect(files('zip-out')).toEqual(files('repo-out'));
    expect(files('zip-out')).toContain('report.html');
    // report.html carries the build's timings (so does the manifest's line for it): the rest is byte for byte.
    const manifest = (d: string): unknown => {
      const m = JSON.parse(readFileSync(join(addon, d, 'manifest.json'), 'utf8'));
      expect(m.files).toContain('report.html');
      delete m.checks['report.html'];
      return m;
    };
    expect(manifest('zip-out')).toEqual(manifest('repo-out'));
    for (const f of files('zip-out').filter((x) => x !== 'report.html' && x !== 'manifest.json')) {
      expect(Buffer.compare(readFileSync(join(addon, 'zip-out', f)), readFileSync(join(addon, 'repo-out', f))), f).toBe(0);
    }
  });

  it('decodes Draco and meshopt levels with the decoders it carries', async () => {
    const [{ KHRDracoMeshCompression, EXTMeshoptCompression }, draco3d, { MeshoptEncoder }, { addNode, gridMesh, io, newLevel }] = await Promise.all([
      import('@gltf-transform/extensions'), import('draco3dgltf'), import('meshoptimizer'), import('../fixtures/levels.ts'),
    ]);
    await MeshoptEncoder.ready;
    for (const [ext, file, deps] of [
      [KHRDracoMeshCompression, 'draco.glb', { 'draco3d.encoder': await draco3d.createEncoderModule() }],
      [EXTMeshoptCompression, 'meshopt.glb', { 'meshopt.encoder': MeshoptEncoder }],
    ] as const) {
      const doc = newLevel();
      addNode(doc, { name: 'ground', ...gridMesh(4, 4, 1, [0, 0, 0]) });
      const e = doc.createExtension(ext as typeof KHRDracoMeshCompression).setRequired(true);
      if (ext === EXTMeshoptCompression) (e as unknown as InstanceType<typeof EXTMeshoptCompression>).setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.FILTER });
      await io().registerDependencies(deps).write(join(addon, file), doc);
      const r = run(process.execPath, [join(compiler, 'compile-collision.mjs'), file, '--json', '-o', `${file}.out`], { cwd: addon });
      expect(JSON.parse(r.stdout).manifest.totals['collision-triangles'], file).toBe(4 * 4 * 2);
    }
  });
});
