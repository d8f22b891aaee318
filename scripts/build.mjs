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
  process.stdout.write('build: dist/ (JavaScript and .d.ts)\n');
}
