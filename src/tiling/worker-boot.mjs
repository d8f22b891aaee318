// Worker entry (src/tiling/pool.ts starts one per worker). Runs worker.ts and what it imports (encoder, codec,
// validation) as one CommonJS bundle: from a cache in the OS temp dir while its inputs' contents are unchanged,
// else bundled here by esbuild (tsx's own transpiler, a direct dependency) and cached; should esbuild fail, the
// TypeScript is loaded through tsx (over a second per worker: an esbuild service each). All of this happens on the
// worker's own thread, so a worker is up while the main thread is still busy importing the level.
//
// Design log
// - The bundle used to be built on the main thread (esbuild.build, awaited) and the worker started from it with
//   eval. The build's reply waits for the main thread to yield, and the import's scene walk does not: on the 1M
//   bench level the worker came up 130–1,580 ms after the compile started (at the end of the import when the
//   machine was loaded), so the validation it does during the import ran into the encode stage. Now the worker
//   starts at once and is ready ~60–80 ms later (cache hit: read and hash 17 files, ~3 ms; miss: ~50 ms esbuild).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInThisContext } from 'node:vm';
import { workerData } from 'node:worker_threads';

const entry = fileURLToPath(workerData.entry);
const self = fileURLToPath(import.meta.url);

/** sha256 (hex) over the given strings/buffers, each preceded by its length (no ambiguity between parts). */
function digest(parts) {
  const h = createHash('sha256');
  for (const p of parts) h.update(`${p.length}:`).update(p);
  return h.digest('hex');
}

/** The cache is valid for this boot file (bundle options), Node version and the inputs' exact contents. */
function inputsKey(inputs) {
  return digest([readFileSync(self), process.version, ...inputs.flatMap((f) => [f, readFileSync(f)])]);
}

const cacheFile = join(tmpdir(), 'skate-collision', `worker-${digest([entry]).slice(0, 16)}.json`);

function fromCache() {
  try {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8'));
    return inputsKey(cached.inputs) === cached.key ? cached.code : undefined;
  } catch {
    return undefined; // no cache, unreadable, or an input gone: rebuild
  }
}

async function build() {
  const esbuild = await import('esbuild');
  const absWorkingDir = dirname(entry);
  const out = await esbuild.build({
    entryPoints: [entry], absWorkingDir, bundle: true, format: 'cjs', platform: 'node', target: 'node20',
    write: false, logLevel: 'silent', metafile: true,
  });
  const code = out.outputFiles[0].text;
  try {
    const inputs = Object.keys(out.metafile.inputs).map((f) => resolve(absWorkingDir, f));
    mkdirSync(dirname(cacheFile), { recursive: true });
    const tmp = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, JSON.stringify({ inputs, key: inputsKey(inputs), code }));
    renameSync(tmp, cacheFile); // atomic: a concurrent reader sees the old cache or the new one
  } catch {
    // no writable temp dir: run uncached
  }
  return code;
}

/** Runs the CommonJS bundle in this thread, as Node would run a .cjs file at the entry's place. */
function run(code) {
  const wrapper = runInThisContext(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename: `${entry}.bundle.cjs` });
  const module = { exports: {} };
  wrapper(module.exports, createRequire(entry), module, entry, dirname(entry));
}

let code = fromCache();
if (code === undefined) code = await build().catch(() => undefined);
if (code !== undefined) run(code);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(workerData.entry);
}
