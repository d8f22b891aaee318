// bin/compile-collision.js: the CLI runs from a bundle cached under node_modules/.cache/skate-collision, used only
// while its inputs' contents match its key; a stale or foreign entry is rebuilt, never run.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/skate-collision/', import.meta.url));
// The launcher's index for this checkout (named by its entry's path: checkouts sharing node_modules keep apart).
const INDEX = `cli-${createHash('sha256').update(fileURLToPath(new URL('../../cli/main.ts', import.meta.url))).digest('hex').slice(0, 12)}.json`;
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, CI: '1' } });

describe('launcher', () => {
  it('runs the CLI from a cached bundle keyed on its inputs, and rebuilds an entry whose key does not match', () => {
    mkdirSync(CACHE, { recursive: true });
    // A foreign entry: a bundle that would print BOGUS, under a key no input set hashes to.
    writeFileSync(join(CACHE, 'cli-bogus.mjs'), "console.log('BOGUS');\n");
    writeFileSync(join(CACHE, INDEX), JSON.stringify({ inputs: [BIN], key: '0', bundle: 'cli-bogus.mjs' }));
    const first = run('--version');
    expect(first.status).toBe(0);
    expect(first.stdout).not.toMatch(/BOGUS/);
    expect(first.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    const index = JSON.parse(readFileSync(join(CACHE, INDEX), 'utf8'));
    expect(index.key).toMatch(/^[0-9a-f]{64}$/);
    expect(index.inputs).toContain(fileURLToPath(new URL('../../cli/main.ts', import.meta.url)));
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
    run('--version'); // the bundle built
    const index = JSON.parse(readFileSync(join(CACHE, INDEX), 'utf8'));
    const kinds = fileURLToPath(new URL('../../samples/kinds.physics', import.meta.url));
    const form = (module: string, ...args: string[]) => spawnSync(process.execPath, [join(CACHE, index.bundle, module), ...args], { encoding: 'utf8', env: { ...process.env, CI: '1' } });
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
      const r = spawnSync(process.execPath, [join(dir, 'bin', 'compile-collision.js'), '--version'], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/WebAssembly module is not built .*run `npm run build:wasm`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
