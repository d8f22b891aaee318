// The published package as a user gets it: `npm pack` (prepack builds dist/: compiled JavaScript and .d.ts) from a
// copy of the repository, the tarball installed into an empty project (its dependencies from the npm cache, else
// the registry), then docs/api.md's example and the CLI run there with plain Node, and a TypeScript file that
// imports the package type-checked against the shipped declarations. Slow (~30–60 s): one build, one install.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work: string;
let tarball: string;
let consumer: string;
let packLog: string;
let installLog: string;

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
  for (const e of ['package.json', 'package-lock.json', 'README.md', 'LICENSE', 'tsconfig.json', 'tsconfig.build.json', 'assembly', 'bin', 'cli', 'docs', 'scripts', 'src']) {
    cpSync(join(ROOT, e), join(src, e), { recursive: true, filter: (p) => !p.endsWith('wasm.generated.ts') });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'), 'dir');
  const out = join(work, 'tgz');
  mkdirSync(out);
  const r = run(NPM, ['pack', '--pack-destination', out], { cwd: src });
  packLog = r.stdout + r.stderr;
  tarball = join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  const i = run(NPM, ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: consumer });
  installLog = i.stdout + i.stderr;
  cpSync(join(ROOT, 'samples', 'skatepark.glb'), join(consumer, 'skatepark.glb'));
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm package', () => {
  it('packs without warnings, holding dist/, docs/, LICENSE and no TypeScript sources', () => {
    expect(packLog).not.toMatch(/npm warn/i);
    const list = run('tar', ['-tzf', tarball], {}).stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
    for (const f of ['package.json', 'LICENSE', 'README.md', 'docs/api.md', 'docs/using-the-output.md', 'bin/compile-collision.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/cli/main.js', 'dist/cli/main.bundle.mjs', 'dist/src/tiling/worker.js', 'dist/src/geometry/wasm.generated.js', 'dist/src/format/material-catalog.json', 'dist/src/report/page.bundle.js']) {
      expect(list, f).toContain(f);
    }
    expect(list.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(list.some((f) => f.startsWith('assembly/') || f.startsWith('test/'))).toBe(false);
    // `files` names only what exists; `prepare` names a shipped file.
    for (const f of pkg.files) expect(list.some((x: string) => x === f || x.startsWith(`${f}/`)), f).toBe(true);
    const script = /node (\S+)/.exec(pkg.scripts.prepare)![1];
    expect(list).toContain(script);
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(pkg.license).toBe('MIT');
  });

  it('installs without tsx or esbuild: nothing is transpiled at run time', () => {
    expect(existsSync(join(consumer, 'node_modules', 'skate-collision', 'dist', 'src', 'index.js'))).toBe(true);
    expect(existsSync(join(consumer, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(consumer, 'node_modules', 'esbuild'))).toBe(false);
    expect(installLog).not.toMatch(/ERR!/);
  });

  it("runs docs/api.md's example with plain Node", () => {
    writeFileSync(join(consumer, 'example.mjs'), apiExample());
    const r = run(process.execPath, ['example.mjs', 'skatepark.glb'], { cwd: consumer });
    expect(r.stdout).toMatch(new RegExp(`^skate-collision ${pkg.version.replace(/\./g, '\\.')}: 17 resources, 1480 triangles in .*level\\.collision$`, 'm'));
    expect(r.stdout).toMatch(/^floor: 1 shape, 2 faces, centre 5, 0, -5$/m);
    expect(existsSync(join(consumer, 'level.collision', 'manifest.json'))).toBe(true);
  });

  it('type-checks a TypeScript consumer against the shipped declarations', () => {
    writeFileSync(
      join(consumer, 'use.ts'),
      [
        "import { compileLevel, readPhysicsResource, writePhysicsResource, encodeMeshShapes, verifyPhysics, type CompileResult, type PhysicsResource, type Finding } from 'skate-collision';",
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
    expect(j.workers).toBe(2); // the compiled worker (dist/src/tiling/worker.js) starts without a loader
    const files = readdirSync(join(consumer, 'cli-out')).filter((f) => f.endsWith('.physics')).map((f) => join('cli-out', f));
    expect(run(bin, ['verify', ...files], { cwd: consumer }).stdout.trim().split('\n')).toHaveLength(17);
    // report.html with the page script the package ships bundled (no esbuild, no page sources installed).
    run(bin, ['skatepark.glb', '--report', '-o', 'with-report'], { cwd: consumer });
    const html = readFileSync(join(consumer, 'with-report', 'report.html'), 'utf8');
    expect(html.length).toBeGreaterThan(100_000); // three.js is inside
    expect(html).toContain('<script');
    // The installed CLI is one bundle (dist/cli/main.bundle.mjs) with yargs inside: its help and usage errors are
    // the repository CLI's, word for word (yargs finds its own strings where it is installed).
    const repoBin = join(ROOT, 'bin', 'compile-collision.js');
    expect(run(bin, ['--help'], { cwd: consumer }).stdout).toBe(run(repoBin, ['--help'], { cwd: consumer }).stdout);
    const bad = spawnSync(bin, ['--no-such-option'], { cwd: consumer, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(spawnSync(process.execPath, [repoBin, '--no-such-option'], { cwd: consumer, encoding: 'utf8' }).stderr);
  });
});
