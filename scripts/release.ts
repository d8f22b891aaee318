// npm run release: what a release hands out, built from the sources in one step, into release/:
//   skate-collision-<version>.tgz   the npm package (install it with `npm install ./skate-collision-<version>.tgz`)
//   skate_collision-<version>.zip   the Blender add-on, carrying the compiler (skate_collision/compiler/), so that a
//                                   Blender user needs Node 20+ and nothing else
// The package is packed from a staging folder holding only what ships, with a package.json of its own: no scripts
// (npm warns every consumer about install-time scripts such as `prepare`), no devDependencies. What it holds:
//   dist/src/, dist/cli/summary.js   the library (compiled JavaScript and .d.ts; its page script bundled)
//   dist/compiler/                   the command line, self-contained (scripts/bundle-compiler.mjs); package.json's
//                                    `bin` runs it, so the package's CLI and the add-on's are the same files
//   README.md, LICENSE, docs/
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addonVersion, writeAddonZip } from './blender-zip.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The published package.json: the repository's, less what only a checkout uses. */
export function packageJson(repo: Record<string, unknown>): Record<string, unknown> {
  const keep = ['name', 'version', 'description', 'keywords', 'license', 'type', 'main', 'types', 'exports', 'engines', 'repository', 'dependencies'];
  const out: Record<string, unknown> = Object.fromEntries(keep.filter((k) => repo[k] !== undefined).map((k) => [k, repo[k]]));
  out.bin = { 'compile-collision': 'dist/compiler/compile-collision.mjs' };
  return out;
}

export function release(outDir: string): { tarball: string; zip: string } {
  const node = (args: string[]): void => void execFileSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  node([join(ROOT, 'scripts', 'build.mjs'), '--dist']);
  const repo = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  mkdirSync(outDir, { recursive: true });
  const stage = join(outDir, 'stage');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, 'dist', 'cli'), { recursive: true });
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(packageJson(repo), null, 2)}\n`);
  for (const f of ['README.md', 'LICENSE']) cpSync(join(ROOT, f), join(stage, f));
  cpSync(join(ROOT, 'docs'), join(stage, 'docs'), { recursive: true });
  // The report page's script compiled module by module is not the page (that is the compiler folder's
  // page.bundle.js): its modules that load three.js stay out; the palette the report module shares stays in.
  const page = join(ROOT, 'dist', 'src', 'report', 'page');
  const threeModules = new Set(readdirSync(page).filter((f) => f.endsWith('.js') && /from 'three/.test(readFileSync(join(page, f), 'utf8'))).map((f) => f.slice(0, -3)));
  cpSync(join(ROOT, 'dist', 'src'), join(stage, 'dist', 'src'), { recursive: true, filter: (p) => !(dirname(p) === page && threeModules.has(basename(p).replace(/\.(js|d\.ts)$/, ''))) });
  cpSync(join(ROOT, 'dist', 'compiler'), join(stage, 'dist', 'compiler'), { recursive: true });
  // The library re-exports the build summary's formatter (src/index.ts); nothing else of cli/ ships compiled.
  for (const f of ['summary.js', 'summary.d.ts']) cpSync(join(ROOT, 'dist', 'cli', f), join(stage, 'dist', 'cli', f));
  const tarball = join(outDir, `${repo.name}-${repo.version}.tgz`);
  rmSync(tarball, { force: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['pack', '--pack-destination', outDir, '--silent'], { cwd: stage, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(tarball)) throw new Error(`release: npm pack wrote ${readdirSync(outDir).join(', ')}, not ${tarball}`);
  rmSync(stage, { recursive: true, force: true });
  const zip = join(outDir, `skate_collision-${addonVersion()}.zip`);
  writeAddonZip(zip, join(ROOT, 'dist', 'compiler'));
  return { tarball, zip };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--out');
  const { tarball, zip } = release(i > 0 ? process.argv[i + 1] : join(ROOT, 'release'));
  process.stdout.write(`release: ${tarball}\nrelease: ${zip}\n`);
}
