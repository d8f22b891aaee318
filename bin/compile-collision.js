#!/usr/bin/env node
// Launcher: runs cli/main.ts and the TypeScript sources it imports as one ES module bundle, cached in
// node_modules/.cache/skate-collision while its inputs are unchanged (size and mtime; built by esbuild, tsx's own
// transpiler, on a miss: ~0.1–0.3 s once). The plain-JavaScript packages every command loads (yargs and its
// helpers, @gltf-transform/core and extensions, gl-matrix, fast-xml-parser, binary-parser) are bundled too: loaded
// as dozens of separate ES modules they took ~100 ms of each start (yargs alone 70–100 ms). Packages with files of
// their own to find at run time, or only loaded on demand, stay external (EXTERNAL). Should anything about the
// bundle fail, the sources run through tsx as before.
//
// Why: tsx transpiles and resolves every module through its loader thread on each start (`--help` took ~0.5 s,
// a compile ~0.7 s more than its stages). The same pattern runs the workers (src/tiling/worker-boot.mjs).
// `import.meta.url` in a bundled file is replaced by that file's own URL, so relative paths (the worker entry,
// createRequire) keep pointing into src/.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'cli', 'main.ts');
const cacheDir = join(root, 'node_modules', '.cache', 'skate-collision');
// One index per checkout: two checkouts sharing node_modules (a link) must not run each other's bundle.
const indexFile = join(cacheDir, `cli-${createHash('sha256').update(entry).digest('hex').slice(0, 12)}.json`);

/**
 * sha256 over this launcher, Node's version and each input's path, size and mtime (statted, not read: ~200 inputs
 * with the bundled packages; an edit, a checkout or an install changes the mtime).
 */
function inputsKey(inputs) {
  const h = createHash('sha256');
  for (const p of [readFileSync(fileURLToPath(import.meta.url)), process.version, ...inputs.flatMap((f) => {
    const st = statSync(f);
    return [f, `${st.size}:${st.mtimeMs}`];
  })]) {
    h.update(`${p.length}:`).update(p);
  }
  return h.digest('hex');
}

/** Packages left out of the bundle (resolved from the project at run time, as usual). */
const EXTERNAL = ['esbuild', 'tsx', 'playwright-core', 'draco3dgltf', 'meshoptimizer', 'chokidar', 'glob', 'cli-progress', 'three', '@dimforge/*'];

/** The cached bundle's path when its inputs are unchanged, else undefined. */
function cached() {
  try {
    const index = JSON.parse(readFileSync(indexFile, 'utf8'));
    return inputsKey(index.inputs) === index.key ? join(cacheDir, index.bundle) : undefined;
  } catch {
    return undefined; // no cache, unreadable, or an input gone
  }
}

/**
 * esbuild plugin: each source's `import.meta.url` becomes its own file URL (a literal), bundled packages' too (yargs
 * finds its locales and package files relative to it).
 */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const loader = args.path.endsWith('.ts') ? 'ts' : 'js';
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader };
    });
  },
};

async function build() {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: [entry], absWorkingDir: root, bundle: true, format: 'esm', platform: 'node', target: 'node20',
    external: EXTERNAL, write: false, logLevel: 'silent', metafile: true, plugins: [ownUrl],
  });
  const inputs = Object.keys(out.metafile.inputs).map((f) => resolve(root, f));
  const key = inputsKey(inputs);
  const bundle = `cli-${key.slice(0, 16)}.mjs`;
  mkdirSync(cacheDir, { recursive: true });
  const tmp = (f) => `${f}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  const file = join(cacheDir, bundle), t1 = tmp(file), t2 = tmp(indexFile);
  writeFileSync(t1, out.outputFiles[0].text);
  renameSync(t1, file); // atomic: a concurrent run sees no bundle or the whole one
  writeFileSync(t2, JSON.stringify({ inputs, key, bundle }));
  renameSync(t2, indexFile);
  pruneBundles();
  return file;
}

/**
 * Removes bundles no checkout's index names any more (each source edit makes a new one), once they are an hour
 * old (a concurrent build may not have written its index yet). Best effort.
 */
function pruneBundles() {
  try {
    const names = readdirSync(cacheDir);
    const named = new Set();
    for (const n of names.filter((x) => /^cli-[0-9a-f]+\.json$/.test(x))) {
      try {
        named.add(JSON.parse(readFileSync(join(cacheDir, n), 'utf8')).bundle);
      } catch {
        // being written, or damaged: its bundle is kept until the next prune
      }
    }
    for (const n of names.filter((x) => /^cli-[0-9a-f]+\.mjs$/.test(x) && !named.has(x))) {
      const path = join(cacheDir, n);
      if (Date.now() - statSync(path).mtimeMs > 3600_000) unlinkSync(path);
    }
  } catch {
    // the cache stays as it is
  }
}

// The repository's launcher (the installed package's `bin` is the self-contained dist/compiler/compile-collision.mjs:
// scripts/release.ts).
await fromSources();

async function fromSources() {
  // The encoder's WebAssembly module is generated at install (`prepare`); `npm ci --ignore-scripts` skips it, and
  // without this check the first import fails with a bare "Cannot find module …/wasm.generated.ts".
  if (!existsSync(join(root, 'src', 'geometry', 'wasm.generated.ts'))) {
    process.stderr.write(
      'compile-collision: the encoder\'s WebAssembly module is not built (src/geometry/wasm.generated.ts is missing): ' +
        'run `npm run build:wasm` (npm install runs it; --ignore-scripts skips it)\n',
    );
    process.exit(1);
  }

  let bundle;
  try {
    bundle = cached() ?? (await build());
  } catch {
    bundle = undefined; // no esbuild, or the cache directory is not writable: run the sources through tsx
  }
  if (bundle) {
    await import(pathToFileURL(bundle).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../cli/main.ts');
  }
}
