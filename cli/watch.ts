// compile-collision LEVEL --watch: rebuild on every change of the level (and, for a .gltf, the buffers it names; for a
// GTA V file, the .ymap / .ymap.xml files that place it), one line per rebuild. Exporters write a file in several steps (Blender's glTF exporter writes the .bin, then the
// .gltf; others truncate and write in chunks), so changes are debounced: a rebuild starts DEBOUNCE_MS after the last
// change seen, and changes during a rebuild start one more once it ends. Each rebuild publishes atomically as every
// build does; a failed one leaves the last good output as it was and says why. Runs until interrupted (Ctrl-C).
import { basename, dirname, extname, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import type { CompileOptions, CompileResult } from '../src/build/compile.ts';
import type { ThreadPool } from '../src/tiling/pool.ts';
import { MAX_RESOURCE_BYTES, readRegularFile } from '../src/files.ts';

/** Quiet time (ms) after the last change before a rebuild starts. */
export const DEBOUNCE_MS = 250;

/** The files a level is read from: itself and, for a .gltf, the relative buffer URIs it names (data: URIs aside). */
export function levelFiles(level: string): string[] {
  const files = [resolve(level)];
  if (extname(level).toLowerCase() !== '.gltf') return files;
  try {
    const j = JSON.parse(Buffer.from(readRegularFile(level, MAX_RESOURCE_BYTES)).toString('utf8')); // a regular file only: never waits on a FIFO
    for (const b of Array.isArray(j?.buffers) ? j.buffers : []) {
      const uri = typeof b?.uri === 'string' ? b.uri : undefined;
      if (uri && !/^[a-z][a-z0-9+.-]*:/i.test(uri)) files.push(resolve(dirname(level), decodeURIComponent(uri)));
    }
  } catch {
    // unreadable right now (being written): the build reports it; the level file itself is still watched
  }
  return [...new Set(files)];
}

export interface WatchIO {
  line(text: string): void;
  compile(level: string, opts: Partial<CompileOptions>): Promise<CompileResult>;
  /** Idle work after the first good build (watchSession's warmUp); its failure is ignored. */
  warmUp?(level: string, opts: Partial<CompileOptions>): Promise<void>;
}

/** One line for a finished build: what changed, what was rebuilt, the time. */
export function describeBuild(changed: string[], r: CompileResult, ms: number): string {
  const n = r.manifest.resources.length;
  const c = r.cache;
  const reuse = c ? `${c.misses} rebuilt, ${c.hits} from the cache` : 'no cache';
  const what = changed.length ? `${changed.map((f) => basename(f)).join(', ')} changed` : 'first build';
  return `${new Date().toISOString().slice(11, 19)} ${what}: ${n} resource${n === 1 ? '' : 's'} (${reuse}), ${r.manifest.warnings.length} warning(s) → ${r.outDir} in ${ms.toFixed(0)} ms`;
}

/**
 * Worker threads kept from one rebuild to the next (src/build/compile.ts CompileHooks.pool): a rebuild starts on warm
 * workers instead of starting its own (~60–80 ms to come up, and their code runs cold). After a failed build they
 * are closed and the next build starts new ones, so a worker that died takes no later build with it.
 */
export async function keptWorkers(workers: number | 'auto'): Promise<{ run<T>(build: (pool: ThreadPool | undefined) => Promise<T>): Promise<T>; close(): Promise<void> }> {
  const { ThreadPool } = await import('../src/tiling/pool.ts');
  const n = workers === 'auto' ? availableParallelism() - 1 : Math.floor(workers) - 1;
  let pool: ThreadPool | undefined;
  return {
    async run(build) {
      if (n > 0) pool ??= ThreadPool.spawn(n);
      try {
        return await build(pool);
      } catch (e) {
        const dead = pool;
        pool = undefined;
        await dead?.close();
        throw e;
      }
    },
    async close() {
      await pool?.close();
      pool = undefined;
    },
  };
}

/**
 * What --watch keeps for its level: the worker threads (keptWorkers) and one CompileSession (src/build/session.ts), so a
 * rebuild takes from the last build what the edit left unchanged. warmUp() is a dry run of the unchanged level on
 * both, run once while the watcher idles after the first build: the rebuild's code paths (the memos' hits, the
 * worker's incremental crack pass) get compiled then rather than during the author's first rebuild (1M bench
 * level: first rebuild 286–363 → 242–327 ms), and the session's second file buffer is faulted in. A dry run writes
 * nothing and touches no output.
 */
export async function watchSession(workers: number | 'auto'): Promise<{
  compile(level: string, opts: Partial<CompileOptions>): Promise<CompileResult>;
  warmUp(level: string, opts: Partial<CompileOptions>): Promise<void>;
  close(): Promise<void>;
}> {
  const [{ compileLevel }, { CompileSession }] = await Promise.all([import('../src/build/compile.ts'), import('../src/build/session.ts')]);
  const kept = await keptWorkers(workers);
  const session = new CompileSession();
  const quiet = { warn: () => {} };
  return {
    compile: (level, opts) => kept.run((pool) => compileLevel(level, opts, { logger: quiet, pool, session })),
    warmUp: async (level, opts) => {
      // Not strict: a level with warnings under --strict would fail it, and a failed build drops the session's state.
      await kept.run((pool) => compileLevel(level, { ...opts, dryRun: true, strict: false }, { logger: quiet, pool, session }));
    },
    close: () => kept.close(),
  };
}

/**
 * Watches until the returned stop() is called; resolves once the watcher is up (the first build then starts).
 * `opts` may be a function, called before each build (options read from files, e.g. a port folder's placements);
 * its failure fails that build. `also`: more files the build reads (placement files), watched with the level's.
 */
export async function watchLevel(level: string, opts: Partial<CompileOptions> | (() => Promise<Partial<CompileOptions>>), io: WatchIO, also: string[] = []): Promise<{ stop: () => Promise<void> }> {
  const { watch } = await import('chokidar');
  const extra = also.map((f) => resolve(f));
  const filesOf = (): string[] => [...new Set([...levelFiles(level), ...extra])];
  let watched = filesOf();
  const watcher = watch(watched, { ignoreInitial: true, persistent: true });
  let timer: NodeJS.Timeout | undefined;
  let building: Promise<void> | undefined;
  const changed = new Set<string>();
  let again = false;
  let warmed = false;

  const build = async (): Promise<void> => {
    const files = [...changed];
    changed.clear();
    const t0 = performance.now();
    try {
      const o = typeof opts === 'function' ? await opts() : opts;
      const r = await io.compile(level, o);
      io.line(describeBuild(files, r, performance.now() - t0));
      if (!warmed && io.warmUp) {
        warmed = true;
        await io.warmUp(level, o).catch(() => undefined); // a change meanwhile starts the next build after it
      }
    } catch (e) {
      const what = files.length ? `${files.map((f) => basename(f)).join(', ')} changed` : 'first build';
      io.line(`${new Date().toISOString().slice(11, 19)} ${what}: build failed, the last output is kept: ${(e as Error).message}`);
    }
    // A .gltf may name other buffers now.
    const now = filesOf();
    const added = now.filter((f) => !watched.includes(f));
    if (added.length) watcher.add(added);
    watched = [...new Set([...watched, ...now])];
  };
  const run = (): void => {
    if (building) {
      again = true;
      return;
    }
    building = build().finally(() => {
      building = undefined;
      if (again) {
        again = false;
        schedule();
      }
    });
  };
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  };
  const onEvent = (path: string): void => {
    changed.add(path);
    schedule();
  };
  watcher.on('add', onEvent).on('change', onEvent).on('unlink', onEvent);
  await new Promise<void>((r) => watcher.once('ready', () => r()));
  run();
  return {
    stop: async () => {
      clearTimeout(timer);
      await building;
      await watcher.close();
    },
  };
}


