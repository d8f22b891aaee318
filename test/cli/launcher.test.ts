// bin/compile-collision.js: the CLI runs from a bundle cached under node_modules/.cache/skate-collision, used only
// while its inputs' contents match its key; a stale or foreign entry is rebuilt, never run.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/skate-collision/', import.meta.url));
const ENTRY = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });

/** The launcher's index for this checkout (one per entry path: checkouts sharing node_modules keep apart), after a run. */
function indexName(): string {
  expect(run('--version').status).toBe(0);
  const mine = readdirSync(CACHE).filter((f) => /^cli-[0-9a-f]+\.json$/.test(f)).filter((f) => {
    try {
      return JSON.parse(readFileSync(join(CACHE, f), 'utf8')).entry === ENTRY;
    } catch {
      return false;
    }
  });
  expect(mine).toHaveLength(1);
  return mine[0];
}

describe('launcher', () => {
  it('runs the CLI from a cached bundle keyed on its inputs, and rebuilds an entry whose key does not match', () => {
    const INDEX = indexName();
    const real = JSON.parse(readFileSync(join(CACHE, INDEX), 'utf8'));
    // Foreign entries: a bundle folder that would print BOGUS, named by an index whose stamps no input set has, by
    // one naming a path outside the cache, and by one recording another checkout's entry; each is rebuilt, never run.
    const bogus = join(CACHE, 'cli-00000000b0905000');
    mkdirSync(bogus, { recursive: true });
    for (const m of ['main.mjs', 'whole.mjs']) writeFileSync(join(bogus, m), "console.log('BOGUS');\n");
    for (const index of [
      { ...real, stamps: `${real.stamps} `, bundle: 'cli-00000000b0905000' },
      { ...real, bundle: '../../cli-00000000b0905000' },
      { ...real, entry: '/elsewhere/cli/main.ts', bundle: 'cli-00000000b0905000' },
    ]) {
      writeFileSync(join(CACHE, INDEX), JSON.stringify(index));
      const r = run('--version');
      expect(r.status).toBe(0);
      expect(r.stdout).not.toMatch(/BOGUS/);
    }
    rmSync(bogus, { recursive: true, force: true });
    const first = run('--version');
    expect(first.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    const index = JSON.parse(readFileSync(join(CACHE, INDEX), 'utf8'));
    expect(index.entry).toBe(ENTRY);
    // Node's version, then a line per input (this launcher first): path, size, mtime.
    expect(index.stamps.split('\n')[0]).toBe(process.version);
    expect(index.stamps.split('\n')[1]).toMatch(new RegExp(`^${BIN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\t\\d+\t[\\d.]+$`));
    expect(index.inputs).toContain(ENTRY);
    expect(index.inputs).toContain(fileURLToPath(new URL('../../src/tiling/pool.ts', import.meta.url)));
    // A folder of two forms of the program: split (main.mjs and its chunks: ride, verify, --version) and whole (the compile).
    const dir = join(CACHE, index.bundle);
    expect(index.bundle).toMatch(/^cli-[0-9a-f]{16}$/);
    const modules = readdirSync(dir).filter((f) => f.endsWith('.mjs'));
    expect(modules).toContain('main.mjs');
    expect(modules).toContain('whole.mjs');
    expect(modules.length).toBeGreaterThan(2);
    // Each form keeps each file's own import.meta.url (the worker entry and createRequire point into src/).
    const split = modules.filter((f) => f !== 'whole.mjs').map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    const whole = readFileSync(join(dir, 'whole.mjs'), 'utf8');
    for (const code of [split, whole]) {
      expect(code).not.toMatch(/import\.meta\.url/);
      expect(code).toContain(JSON.stringify(new URL('../../src/tiling/pool.ts', import.meta.url).href));
    }
    // The split entry holds what every start needs; the compiler and @gltf-transform are in chunks loaded on demand.
    const entry = readFileSync(join(dir, 'main.mjs'), 'utf8');
    expect(entry.length).toBeLessThan(whole.length / 3);
    expect(entry).not.toContain('@gltf-transform');
    const second = run('--version');
    expect(second.stdout).toBe(first.stdout);
  });
  it('runs a command from either form of the bundle with the same result', () => {
    const index = JSON.parse(readFileSync(join(CACHE, indexName()), 'utf8'));
    const kinds = fileURLToPath(new URL('../../samples/kinds.physics', import.meta.url));
    const form = (module: string, ...args: string[]) => spawnSync(process.execPath, [join(CACHE, index.bundle, module), ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });
    for (const args of [['ride', kinds, '--json'], ['inspect', kinds], ['ride', '--help']]) {
      const split = form('main.mjs', ...args), whole = form('whole.mjs', ...args);
      expect(split.status, `${args.join(' ')}: ${split.stderr}`).toBe(whole.status);
      expect(split.stdout.replace(/"ms": \d+/, '')).toBe(whole.stdout.replace(/"ms": \d+/, ''));
      expect(split.stdout.length).toBeGreaterThan(0);
    }
  });
  it('says how to build the WebAssembly module when it was not built (npm ci --ignore-scripts)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sk8-launcher-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(BIN, join(dir, 'bin', 'compile-collision.js'));
      const r = spawnSync(process.execPath, [join(dir, 'bin', 'compile-collision.js'), '--version'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/WebAssembly module is not built .*run `npm run build:wasm`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
