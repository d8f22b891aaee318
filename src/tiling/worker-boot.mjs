// Worker entry (src/tiling/pool.ts starts one per worker). Runs worker.ts and what it imports (encoder, codec,
// validation) as one CommonJS bundle: from a per-user cache (see Trust below) while its inputs' contents are unchanged,
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
// - Trust: the cache used to be `$TMPDIR/skate-collision/worker-<hash>.json`, in the shared,
//   world-writable /tmp: a file another local user planted there was run by the next build. Now it lives in a
//   per-user directory (codeCacheDir) that must be a real directory (lstat, not a link) owned by this uid with no
//   group/other write bits; the file is opened without following links and must be a plain file of ours with the
//   same mode rule, and the code's sha256 (stored beside it) is checked before it runs. Anything else: the cache is
//   ignored (never executed) and the bundle is built here. New files are created exclusively (O_EXCL, random
//   names, mode 0600) inside that directory and renamed into place.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
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

const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;

/** Ours: owned by this uid (where uids exist) and writable by nobody else. */
const ownedSafe = (st) => (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;

/**
 * The per-user directory for compiled code: $XDG_CACHE_HOME/skate-collision, else ~/.cache/skate-collision, else
 * (no home) `<tmpdir>/skate-collision-<uid>`; created 0700. Undefined unless it (and the folder it is in, for the
 * temp dir fallback) passes the trust check: then nothing is cached.
 */
function codeCacheDir() {
  const home = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : '');
  const dir = home ? join(home, 'skate-collision') : join(tmpdir(), `skate-collision-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    return st.isDirectory() && ownedSafe(st) ? dir : undefined;
  } catch {
    return undefined;
  }
}

const cacheDir = codeCacheDir();
const cacheFile = cacheDir && join(cacheDir, `worker-${digest([entry]).slice(0, 16)}.json`);

/** The cached file's text, read through a descriptor opened without following links and checked as ours. */
function readOurs(path) {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || !ownedSafe(st)) return undefined;
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

function fromCache() {
  if (!cacheFile) return undefined;
  try {
    const text = readOurs(cacheFile);
    if (text === undefined) return undefined;
    const cached = JSON.parse(text);
    if (typeof cached.code !== 'string' || !Array.isArray(cached.inputs) || !cached.inputs.every((f) => typeof f === 'string')) return undefined;
    const key = inputsKey(cached.inputs);
    // The code as it was written for this key: a file damaged or edited after it was written is not run.
    return key === cached.key && digest([key, cached.code]) === cached.codeDigest ? cached.code : undefined;
  } catch {
    return undefined; // no cache, unreadable, not ours, or an input gone: rebuild
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
  if (cacheFile) {
    const tmp = `${cacheFile}.${randomBytes(8).toString('hex')}.tmp`;
    try {
      const inputs = Object.keys(out.metafile.inputs).map((f) => resolve(absWorkingDir, f));
      const key = inputsKey(inputs);
      const fd = openSync(tmp, 'wx', 0o600); // exclusive: never through a file or link already there
      try {
        writeSync(fd, JSON.stringify({ inputs, key, codeDigest: digest([key, code]), code }));
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, cacheFile); // atomic: a concurrent reader sees the old cache or the new one
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // not created
      }
      // no writable cache directory: run uncached
    }
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
