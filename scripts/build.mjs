// Builds what the package runs from (npm lifecycle; plain JavaScript: no TypeScript loader needed):
//   node scripts/build.mjs         the encoder's WebAssembly module (scripts/build-wasm.mjs) — `prepare`
//   node scripts/build.mjs --dist  that, then dist/: the compiled JavaScript and .d.ts (tsconfig.build.json) — `prepack`
// (and report.html's page script, bundled). In an installed package there is nothing to build (no assembly/, no sources: dist/ ships built), and this file
// says so and exits 0; it is shipped so that `prepare` never names a file the package lacks.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'assembly')) || !existsSync(join(root, 'scripts', 'build-wasm.mjs'))) {
  process.stdout.write('build: an installed package (no assembly/ sources): dist/ is already built\n');
  process.exit(0);
}
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
run([join(root, 'scripts', 'build-wasm.mjs')]);
if (process.argv.includes('--dist')) {
  rmSync(join(root, 'dist'), { recursive: true, force: true }); // nothing stale from an earlier build ships
  run([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')]);
  // report.html's page script (three.js and src/report/page/), bundled as src/report/index.ts would at run time, so
  // the installed package needs neither esbuild nor the page's sources (PAGE_BUNDLE there).
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(root, 'src', 'report', 'page', 'main.ts')], bundle: true, minify: true, format: 'iife', target: 'es2020',
    outfile: join(root, 'dist', 'src', 'report', 'page.bundle.js'), logLevel: 'silent', legalComments: 'none', absWorkingDir: root,
  });
  await bundleCli(build);
  process.stdout.write('build: dist/ (JavaScript and .d.ts, the CLI bundle)\n');
}

/**
 * dist/cli/main.bundle.mjs: the CLI (dist/cli/main.js) and the packages it loads at start in one file, which
 * bin/compile-collision.js runs when it is there: loading the compiled modules one by one cost the installed
 * package's `--version` ~60 ms and a small compile ~90 ms over the repository's bundled launcher. Left out, as the
 * launcher leaves them: packages loaded only when needed, or with native parts. `import.meta.url` keeps meaning
 * each file's own place: in our files it becomes their dist/ path relative to the bundle, and in yargs (it finds
 * its locales and package.json from it) yargs' installed place, resolved from the bundle at run time.
 * The worker threads still run dist/src/tiling/worker.js (src/tiling/pool.ts finds it from pool.js's place).
 */
async function bundleCli(build) {
  const { readFileSync } = await import('node:fs');
  const { relative, sep } = await import('node:path');
  const dist = join(root, 'dist');
  const outDir = join(dist, 'cli');
  const ownUrl = {
    name: 'dist-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        let url;
        if (args.path.startsWith(dist + sep)) url = `new URL(${JSON.stringify(relative(outDir, args.path).split(sep).join('/'))}, import.meta.url).href`;
        else if (/node_modules[\\/]yargs-parser[\\/]/.test(args.path)) url = 'import.meta.url'; // only its createRequire, for absolute paths
        else {
          const m = /node_modules[\\/]yargs[\\/](.*)$/.exec(args.path);
          if (!m) throw new Error(`build: ${args.path} uses import.meta.url: leave its package out of the CLI bundle`);
          url = `__yargsFileUrl(${JSON.stringify(m[1].split(sep).join('/'))})`;
        }
        return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
      });
    },
  };
  // A bundled yargs file's URL where yargs is installed (it exports its package.json).
  const banner = [
    "import { createRequire as __createRequire } from 'node:module';",
    "import { dirname as __dirnameOf, join as __joinPath } from 'node:path';",
    "import { pathToFileURL as __toFileUrl } from 'node:url';",
    'const __yargsFileUrl = (file) => __toFileUrl(__joinPath(__dirnameOf(__createRequire(import.meta.url).resolve("yargs/package.json")), file)).href;',
  ].join('\n');
  await build({
    entryPoints: [join(outDir, 'main.js')], bundle: true, format: 'esm', platform: 'node', target: 'node20',
    outfile: join(outDir, 'main.bundle.mjs'), logLevel: 'silent', absWorkingDir: root, plugins: [ownUrl],
    external: ['esbuild', 'tsx', 'playwright-core', 'draco3dgltf', 'meshoptimizer', 'chokidar', 'glob', 'cli-progress', 'three', '@dimforge/*'],
    banner: { js: banner },
  });
}
