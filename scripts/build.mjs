// Builds what the package runs from (plain JavaScript: no TypeScript loader needed):
//   node scripts/build.mjs         the encoder's WebAssembly module (scripts/build-wasm.mjs) — `prepare`, at npm install
//   node scripts/build.mjs --dist  that, then dist/ (`npm run build`; `npm run release` packs it):
//     dist/src/, dist/cli/  the library's compiled JavaScript and .d.ts (tsconfig.build.json);
//     dist/compiler/        the command line as one self-contained folder (bundleCompiler below): what the installed
//                           package's bin runs and what the Blender add-on's zip carries.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
run([join(root, 'scripts', 'build-wasm.mjs')]);
if (process.argv.includes('--dist')) {
  rmSync(join(root, 'dist'), { recursive: true, force: true }); // nothing stale from an earlier build ships
  run([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')]);
  // The compiler folder, with report.html's page script (three.js and src/report/page/) bundled, which the library
  // takes from there too (src/report/index.ts PAGE_BUNDLE): the installed package needs neither esbuild nor the
  // page's sources.
  const { bundleCompiler } = await import('./bundle-compiler.mjs');
  const files = await bundleCompiler(root, join(root, 'dist', 'compiler'));
  process.stdout.write(`build: dist/ (JavaScript and .d.ts; dist/compiler/: ${files.length} files)\n`);
}

