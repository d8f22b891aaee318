#!/usr/bin/env node
// Launcher: runs cli/main.ts and the TypeScript sources it imports as ES module bundles, cached in
// node_modules/.cache/skate-collision while their inputs are unchanged (size and mtime; built by esbuild, tsx's own
// transpiler, on a miss: ~0.2–0.5 s once). The plain-JavaScript packages the commands load (yargs and its
// helpers, @gltf-transform/core and extensions, gl-matrix, fast-xml-parser, binary-parser) are bundled too: loaded
// as dozens of separate ES modules they took ~100 ms of each start (yargs alone 70–100 ms). Packages with files of
// their own to find at run time, or only loaded on demand, stay external (EXTERNAL). Should anything about the
// bundle fail, the sources run through tsx as before.
//
// Two bundles of the same program are cached side by side, and the command picks one (moduleFor): the commands that
// read written files (ride, verify, inspect, diff, to-gltf), --help and --version run a split one (esbuild
// `splitting`): an entry module with what every start needs (yargs, the commands' definitions, ~350 KB) and chunks
// for what a handler imports when it runs, loaded only then. The compile runs the whole program as one module,
// as before: it needs nearly all of it, and as ~50 chunks Node's ES module loader took ~35 ms more CPU to load it
// than one file. As one module (~2 MB, the compiler and @gltf-transform evaluated at each start) `ride` and
// `--version` took ~50 ms more CPU (docs/performance.md "Riding the collision", start-up).
//
// Why: tsx transpiles and resolves every module through its loader thread on each start (`--help` took ~0.5 s,
// a compile ~0.7 s more than its stages). The same pattern runs the workers (src/tiling/worker-boot.mjs).
// `import.meta.url` in a bundled file is replaced by that file's own URL, so relative paths (the worker entry,
// createRequire) keep pointing into src/.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'cli', 'main.ts');
const cacheDir = join(root, 'node_modules', '.cache', 'skate-collision');
const self = fileURLToPath(import.meta.url);
/** The esbuild plugin that defers string-width (shared with scripts/bundle-compiler.mjs); a build option, so stamped. */
const lazyPlugin = join(root, 'scripts', 'lazy-string-width.mjs');

/**
 * A short name for a text: FNV-1a, two 32-bit lanes, 16 hex digits. Not a digest to trust: it names this checkout's
 * index (which records its entry, so two checkouts whose names clash only rebuild each other's bundle). Not sha256:
 * node:crypto costs every start ~4–5 ms to load, and a start that finds its bundle needs no hashing.
 */
function shortName(text) {
  let a = 0x811c9dc5, b = 0x6c62272e;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

// One index per checkout: two checkouts sharing node_modules (a link) must not run each other's bundle.
const indexFile = join(cacheDir, `cli-${shortName(entry)}.json`);
/** In a bundle's folder: the split program's entry module (its chunks beside it, imported by relative paths), and the whole program as one module. */
const SPLIT_MODULE = 'main.mjs';
const WHOLE_MODULE = 'whole.mjs';
/** The commands the split bundle runs; anything else (the compile: its first argument a level, or an option) runs the whole one. */
const SPLIT_COMMANDS = new Set(['ride', 'verify', 'inspect', 'diff', 'to-gltf']);

/**
 * Which of the two modules runs these arguments: the split one for a command that reads written files or for no
 * command (--help, --version), the whole one for the compile. Either runs any command the same way (one program):
 * a wrong guess (an option's value taken for the command) costs time, never behaviour.
 */
function moduleFor(args) {
  const first = args.find((a) => !a.startsWith('-'));
  return first === undefined || SPLIT_COMMANDS.has(first) ? SPLIT_MODULE : WHOLE_MODULE;
}

/**
 * What the bundle was built from, as one text: Node's version, then this launcher and the plugin it loads (the
 * build's options) and each input, a line each of path, size and mtime (statted, not read: ~250 inputs with the
 * bundled packages, ~3–5 ms; an edit, a checkout or an install changes the mtime). A start compares it whole with
 * the one its index recorded: any difference rebuilds.
 */
function stampsOf(inputs) {
  return [process.version, ...[self, lazyPlugin, ...inputs].map((f) => {
    const st = statSync(f);
    return `${f}\t${st.size}\t${st.mtimeMs}`;
  })].join('\n');
}

/** Packages left out of the bundle (resolved from the project at run time, as usual). */
const EXTERNAL = ['esbuild', 'tsx', 'playwright-core', 'draco3dgltf', 'meshoptimizer', 'chokidar', 'glob', 'cli-progress', 'three', '@dimforge/*'];

/** The cached bundle's folder when its inputs are unchanged, else undefined. */
function cached() {
  try {
    const index = JSON.parse(readFileSync(indexFile, 'utf8'));
    // This checkout's, naming a bundle folder of this launcher's own naming directly in the cache (anything else is
    // not ours: rebuilt), built from inputs whose stamps are still the same.
    if (index.entry !== entry || typeof index.bundle !== 'string' || !/^cli-[0-9a-f]{16}$/.test(index.bundle)) return undefined;
    if (!Array.isArray(index.inputs) || !index.inputs.every((f) => typeof f === 'string') || typeof index.stamps !== 'string') return undefined;
    return stampsOf(index.inputs) === index.stamps ? join(cacheDir, index.bundle) : undefined;
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
  const { lazyStringWidth, LAZY_NAMESPACE } = await import(pathToFileURL(lazyPlugin).href);
  // Written nowhere (write: false): the files are placed below, their paths taken relative to this folder.
  const outdir = join(cacheDir, 'out');
  const common = {
    absWorkingDir: root, bundle: true, format: 'esm', platform: 'node', target: 'node20', external: EXTERNAL, write: false,
    logLevel: 'silent', metafile: true, plugins: [ownUrl, lazyStringWidth()],
  };
  const [split, whole] = await Promise.all([
    esbuild.build({ ...common, entryPoints: { main: entry }, splitting: true, outdir, outExtension: { '.js': '.mjs' }, chunkNames: 'chunk-[hash]' }),
    esbuild.build({ ...common, entryPoints: [entry], outfile: join(outdir, WHOLE_MODULE) }),
  ]);
  // The files read (a stand-in of lazyStringWidth is named by its namespace; the file it requires is listed too).
  const inputs = [...new Set([split, whole].flatMap((o) => Object.keys(o.metafile.inputs)).filter((f) => !f.startsWith(`${LAZY_NAMESPACE}:`)).map((f) => resolve(root, f)))];
  const stamps = stampsOf(inputs);
  const { createHash } = await import('node:crypto');
  const bundle = `cli-${createHash('sha256').update(stamps).digest('hex').slice(0, 16)}`;
  mkdirSync(cacheDir, { recursive: true });
  const rnd = () => `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const dir = join(cacheDir, bundle), tmpDir = join(cacheDir, `tmp-${rnd()}`), tmpIndex = `${indexFile}.${rnd()}`;
  mkdirSync(tmpDir);
  for (const f of [...split.outputFiles, ...whole.outputFiles]) {
    const rel = relative(outdir, f.path);
    if (rel.startsWith('..') || isAbsolute(rel) || rel.includes(sep)) throw new Error(`launcher: esbuild wrote ${f.path} outside its folder`);
    writeFileSync(join(tmpDir, rel), f.contents);
  }
  try {
    renameSync(tmpDir, dir); // atomic: a concurrent run sees no bundle or the whole one
  } catch (e) {
    // A concurrent run published the same inputs' bundle first: same inputs, same files; ours goes.
    rmSync(tmpDir, { recursive: true, force: true });
    if (!existsSync(join(dir, SPLIT_MODULE)) || !existsSync(join(dir, WHOLE_MODULE))) throw e;
  }
  writeFileSync(tmpIndex, JSON.stringify({ entry, inputs, stamps, bundle }));
  renameSync(tmpIndex, indexFile);
  // This checkout's index as earlier launchers named it (sha256 of the entry): gone, so that prune takes its bundle.
  try {
    unlinkSync(join(cacheDir, `cli-${createHash('sha256').update(entry).digest('hex').slice(0, 12)}.json`));
  } catch {
    // none
  }
  pruneBundles();
  return dir;
}

/**
 * Removes bundles no checkout's index names any more (each source edit makes a new one), once they are an hour
 * old (a concurrent build may not have written its index yet): bundle folders, the one-file bundles earlier
 * launchers wrote, and folders a build left half-written. Only names this launcher makes. Best effort. (A split
 * bundle's chunks are imported in a command's first moments, so a folder that no index has named since is not
 * one a running command still loads from; the compile, which may run for hours with --watch, is one module.)
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
    for (const n of names.filter((x) => /^(cli-[0-9a-f]+(\.mjs)?|tmp-[0-9]+-[0-9a-z]+)$/.test(x) && !named.has(x))) {
      const path = join(cacheDir, n);
      const st = lstatSync(path);
      if (Date.now() - st.mtimeMs <= 3600_000) continue;
      if (st.isDirectory()) rmSync(path, { recursive: true, force: true });
      else unlinkSync(path);
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
    await import(pathToFileURL(join(bundle, moduleFor(process.argv.slice(2)))).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../cli/main.ts');
  }
}
