// The compiler as one self-contained folder (scripts/build.mjs writes it to dist/compiler/): everything the command
// line runs, bundled by esbuild, so that it needs Node 20+ and nothing else — no npm, no node_modules, no sources.
// The installed package's bin runs it, and the Blender add-on's zip carries it as skate_collision/compiler/
// (docs/blender-addon.md, "The compiler in the zip"). The folder:
//   compile-collision.mjs     the CLI (cli/main.ts and every package it loads)
//   worker.js                 the encoding/validation worker (src/tiling/worker.ts; src/tiling/pool.ts starts it
//                             from beside the code that runs it)
//   ride-worker.js            the ride's worker (src/ride/ride-worker.ts; src/ride/threads.ts starts it likewise)
//   page.bundle.js            report.html's page script with three.js (src/report/index.ts reads it from beside it)
//   draco_decoder_gltf.wasm   the Draco decoder's WebAssembly (loaded from beside the bundle when a level uses
//                             KHR_draco_mesh_compression)
//   package.json              type module; name and version (src/version.ts finds the tool's version there)
//   LICENSE, THIRD-PARTY-NOTICES.txt  ours, and the licence of every package bundled in
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lazyStringWidth } from './lazy-string-width.mjs';

/**
 * report.html's page script: one IIFE, minified. Third-party licence comments (three.js's MIT notice) are kept, at
 * the end of the script, so every report.html carries them. src/report/index.ts bundles it with these same options
 * when it runs from the sources.
 */
export const PAGE_OPTIONS = (root) => ({
  entryPoints: [join(root, 'src', 'report', 'page', 'main.ts')], bundle: true, minify: true, format: 'iife', target: 'es2020',
  logLevel: 'silent', legalComments: 'eof', absWorkingDir: root,
});

/**
 * The bundles' first lines: a shebang (the npm package's `bin` is the bundle), and what CommonJS packages bundled
 * into an ES module expect: `require` (for Node's built-ins) and `__dirname`
 * (the Draco decoder finds its .wasm from it: the folder of the bundle).
 */
const BANNER = [
  '#!/usr/bin/env node',
  "import { createRequire as __skCreateRequire } from 'node:module';",
  "import { fileURLToPath as __skFileURLToPath } from 'node:url';",
  "import { dirname as __skDirname } from 'node:path';",
  'const require = __skCreateRequire(import.meta.url);',
  'const __filename = __skFileURLToPath(import.meta.url);',
  'const __dirname = __skDirname(__filename);',
].join('\n');

/**
 * Resolution for the bundle: the Draco package's decoder alone (its index loads the encoder too), the meshopt
 * package's decoder alone; `import.meta.url` in packages that use it pinned to a place inside the folder (yargs
 * finds its locale files from it: none are shipped, so it speaks English, and nothing is read from outside).
 */
function plugin(root) {
  const nm = join(root, 'node_modules');
  return {
    name: 'skate-compiler',
    setup(b) {
      b.onResolve({ filter: /^draco3dgltf$/ }, () => ({ path: 'draco3dgltf', namespace: 'draco-decoder' }));
      b.onLoad({ filter: /.*/, namespace: 'draco-decoder' }, () => ({
        contents: 'module.exports = { createDecoderModule: require("./draco_decoder_gltf_nodejs.js") };',
        resolveDir: join(nm, 'draco3dgltf'), loader: 'js',
      }));
      // Only reached from the sources (src/report/index.ts bundles the page when PAGE_BUNDLE is not beside it; the
      // folder has it): a stub, so the bundle neither carries esbuild nor imports it.
      b.onResolve({ filter: /^(esbuild|tsx(\/.*)?)$/ }, (args) => ({ path: args.path, namespace: 'not-bundled' }));
      b.onLoad({ filter: /.*/, namespace: 'not-bundled' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`compile-collision: ${args.path} is not part of the compiler bundle`)});`, loader: 'js',
      }));
      b.onResolve({ filter: /^meshoptimizer$/ }, () => ({ path: join(nm, 'meshoptimizer', 'meshopt_decoder.mjs') }));
      b.onLoad({ filter: /node_modules[\\/].*\.[cm]?js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rel = args.path.split(sep).join('/').replace(/^.*\/node_modules\//, '');
        if (!/^(yargs|yargs-parser)\//.test(rel)) throw new Error(`bundle-compiler: ${rel} uses import.meta.url: check what it finds from it`);
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(`./${rel}`)}, import.meta.url).href`), loader: 'js' };
      });
    },
  };
}

/** The package directory under node_modules that a bundled input belongs to ("@scope/name" or "name"). */
function packageOf(input) {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.split(sep).join('/'));
  return m ? m[1] : undefined;
}

/** One notice per bundled package: name, version, licence, and its licence file's text (or where to read it). */
function notices(root, packages) {
  const parts = [
    'Third-party software bundled in this folder (compile-collision.mjs, worker.js, ride-worker.js, page.bundle.js,',
    'draco_decoder_gltf.wasm), with the licence each is distributed under.',
    '',
  ];
  for (const name of [...packages].sort()) {
    const dir = join(root, 'node_modules', name); // (a nested copy would have the same name: the top one stands for it)
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    parts.push('='.repeat(78), `${name} ${pkg.version} — ${pkg.license ?? 'see its package'}${repo ? ` — ${repo}` : ''}`, '');
    parts.push(file ? readFileSync(join(dir, file), 'utf8').trim() : `No licence file is distributed with ${name}; its package declares ${pkg.license}.`, '');
  }
  return `${parts.join('\n')}\n`;
}

/** Builds the compiler folder at `out` (replacing it); returns the names of the files written. */
export async function bundleCompiler(root, out) {
  const { build } = await import('esbuild');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const common = {
    bundle: true, format: 'esm', platform: 'node', target: 'node20', absWorkingDir: root, logLevel: 'silent',
    legalComments: 'eof', metafile: true, plugins: [plugin(root), lazyStringWidth()], banner: { js: BANNER },
  };
  const cli = await build({ ...common, entryPoints: [join(root, 'cli', 'main.ts')], outfile: join(out, 'compile-collision.mjs') });
  const worker = await build({ ...common, entryPoints: [join(root, 'src', 'tiling', 'worker.ts')], outfile: join(out, 'worker.js') });
  const rideWorker = await build({ ...common, entryPoints: [join(root, 'src', 'ride', 'ride-worker.ts')], outfile: join(out, 'ride-worker.js') });
  const page = await build({ ...PAGE_OPTIONS(root), metafile: true, outfile: join(out, 'page.bundle.js') });
  copyFileSync(join(root, 'node_modules', 'draco3dgltf', 'draco_decoder_gltf.wasm'), join(out, 'draco_decoder_gltf.wasm'));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(join(out, 'package.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, type: 'module', license: pkg.license }, null, 2)}\n`);
  copyFileSync(join(root, 'LICENSE'), join(out, 'LICENSE'));
  const packages = new Set();
  for (const r of [cli, worker, rideWorker, page]) for (const input of Object.keys(r.metafile.inputs)) {
    const p = packageOf(input);
    if (p) packages.add(p);
  }
  packages.add('draco3dgltf');
  writeFileSync(join(out, 'THIRD-PARTY-NOTICES.txt'), notices(root, packages));
  // The folder must run on its own: nothing in it may import a package (only node: built-ins and its own files).
  for (const r of [cli, worker, rideWorker]) {
    for (const [file, o] of Object.entries(r.metafile.outputs)) {
      const bare = o.imports.filter((i) => i.external && !isBuiltin(i.path)).map((i) => i.path);
      if (bare.length) throw new Error(`bundle-compiler: ${file} still imports ${[...new Set(bare)].join(', ')}`);
    }
  }
  return readdirSync(out).sort();
}

// Run directly: `node scripts/bundle-compiler.mjs OUT` (after the wasm module is built).
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const root = join(dirname(new URL(import.meta.url).pathname), '..');
  const out = process.argv[2] ?? join(root, 'dist', 'compiler');
  if (!existsSync(join(root, 'src', 'geometry', 'wasm.generated.ts'))) throw new Error('bundle-compiler: run `npm run build:wasm` first');
  process.stdout.write(`${(await bundleCompiler(root, out)).join('\n')}\n`);
}
