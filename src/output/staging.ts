// Publishing a build's output directory K atomically and recoverably. House rule (CONTEXT "Errors"): outputs
// published atomically; nothing outside what we wrote is ever deleted.
//
// Rules (docs/cli.md "The output directory"):
// - The build writes into a sibling `.K.tmp-<pid>-<random>` holding STAGING_MARKER until it is complete. The swap:
//   K → `.K.old-<pid>-<random>`, owned entries carried over, the marker dropped, temp → K, the old listed files and
//   manifest removed, then its directory. K is inspected again just before (ownership.ts decides what may go); an
//   interruption at any point is repaired by the next build (recovery.ts).
// - -o may be a symbolic link to a directory: the output is published into the link's target (the link stays).
//   Inputs inside the output directory are refused.
import { closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { isInside } from '../files.ts';
import { checkOf, writeSpan, type FileCheck } from './file-write.ts';
import { writeJson } from './json-file.ts';
import { inspectOutput, isPlainName, MANIFEST_FILE, rememberManifest, rememberVerdict, STAGING_MARKER, stampOf, WRITTEN_KIND } from './ownership.ts';
import { oldPrefix, removeStale, tempPrefix, type PublishLogger } from './recovery.ts';

/** Points of the swap, for tests that kill the process there (CompileHooks.onPublishStep). */
export type PublishStep = 'staged' | 'old-moved' | 'owned-carried' | 'new-in-place' | 'old-removed';

/**
 * The output directory as the build will publish it: absolute, every existing ancestor's symbolic links resolved,
 * and K itself, when a link to a directory, replaced by its target (publishing into the target; the link stays).
 * A dangling link, or one to something that is not a directory, is refused with the link and its target named.
 */
export function resolveOutDir(out: string): string {
  const abs = resolve(out);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    st = undefined;
  }
  if (st?.isSymbolicLink()) {
    const target = readlinkSync(abs);
    let real: string;
    try {
      real = realpathSync(abs);
    } catch (e) {
      throw new Error(`publish: output ${abs} is a symbolic link to ${target}, which does not exist (${(e as NodeJS.ErrnoException).code}); create the directory or remove the link`);
    }
    if (!statSync(real).isDirectory()) throw new Error(`publish: output ${abs} is a symbolic link to ${real}, which is not a directory`);
    return real;
  }
  if (st) return join(realpathSync(dirname(abs)), basename(abs));
  // Not there yet: resolve the nearest existing ancestor, keep the rest.
  let dir = dirname(abs);
  const rest = [basename(abs)];
  while (dir !== dirname(dir)) {
    try {
      lstatSync(dir);
      break;
    } catch {
      rest.unshift(basename(dir));
      dir = dirname(dir);
    }
  }
  let realDir = dir;
  try {
    realDir = realpathSync(dir);
  } catch {
    // a dangling link on the way: mkdir will report it
  }
  return join(realDir, ...rest);
}


/** Refuses inputs that lie in the output directory (the rebuild would replace or refuse them); links resolved. */
export function refuseInputsInside(outDir: string, inputs: string[]): void {
  let realOut: string;
  try {
    realOut = realpathSync(outDir);
  } catch {
    realOut = outDir;
  }
  for (const input of inputs) {
    let real = resolve(input);
    try {
      real = realpathSync(input);
    } catch {
      // missing: the import reports it
    }
    if (isInside(real, realOut) || isInside(resolve(input), outDir)) {
      throw new Error(`publish: input ${input} is inside the output directory ${outDir}; refusing to build (choose another -o: the output directory is replaced by each build)`);
    }
  }
}

/**
 * A build's temporary output directory: a fresh sibling of K that resources are written into as they are built
 * (src/tiling/build.ts writeResource, on the thread that built each), then swapped into place by commit.
 *
 * Design log (writing 448 files of the 1M bench level, 43 MB): fs.writeFile with a callback took 70–88 ms of CPU
 * for 448 files of 40 KB against 103–121 ms for the promise API (2026-11-29), but both run on libuv's thread pool,
 * three round trips a file (open, write, close), each waking a pool thread. 2026-12-01, into fresh directories,
 * process CPU, 4 pairs: callbacks 47–164 ms, synchronous writes 29–91 ms (the pair always lower). Written by the
 * main thread alone they made it the last to finish; now every thread writes its own. What makes file creation
 * slow on this machine is ext4 skipping recently deleted inodes (perf: find_inode_bit → recently_deleted, a 12-hour
 * window while the inode table block is cached): after many deleted outputs, 448 creates cost 150–300 ms of CPU
 * instead of ~30 ms.
 */
export class Staging {
  private closed = false;
  /** Files written through write() (besides the resources), for the manifest's `files`. */
  readonly written: string[] = [];
  /** Files whose final bytes the build told (note, write): commit records their checks without reading them back. */
  private known = new Map<string, KnownFile>();

  private constructor(readonly outDir: string, private tempDir: string, private onStep?: (step: PublishStep) => void) {}

  /** Where the build writes its files. */
  get dir(): string {
    return this.tempDir;
  }

  /**
   * Opens the temporary sibling. K is not inspected here: the build did before any work (under its lock), and the
   * publish does again for what may have appeared there meanwhile (a third look cost a rebuild 6–10 ms of lstat).
   */
  static open(outDir: string, onStep?: (step: PublishStep) => void): Staging {
    mkdirSync(dirname(outDir), { recursive: true });
    return new Staging(outDir, Staging.temp(outDir), onStep);
  }

  private static temp(outDir: string): string {
    const dir = mkdtempSync(join(dirname(outDir), `${tempPrefix(outDir)}${process.pid}-`));
    writeFileSync(join(dir, STAGING_MARKER), `compile-collision build in progress (pid ${process.pid}); removed by the next build if left behind\n`);
    return dir;
  }

  /** Writes a file of the build (streaming plan, report) and records its name for the manifest. */
  write(name: string, data: string | Uint8Array): void {
    writeFileSync(join(this.tempDir, name), data);
    if (!this.written.includes(name)) this.written.push(name);
    this.note(name, typeof data === 'string' ? Buffer.from(data) : data);
  }

  /**
   * Tells the final bytes of a file in the temporary directory (a resource as written, patched or replaced), and
   * their sha256 when known: its manifest check is then taken from them, not read back from disk.
   */
  note(name: string, bytes: Uint8Array | FileCheck, sha?: string): void {
    this.known.set(name, { check: bytes instanceof Uint8Array ? checkOf(bytes) : bytes, sha, ours: true });
  }

  /**
   * Rewrites bytes [lo, hi) of a resource file the build wrote itself, in place (the level-wide seams store their
   * codes so). Only for a file no other directory shares: one taken from the cache goes through replace().
   */
  patch(name: string, bytes: Uint8Array, lo: number, hi: number): void {
    writeSpan(join(this.tempDir, name), bytes, lo, hi);
  }

  /**
   * Writes a resource file anew under its name (a new file renamed over the old one): a file linked with a cache
   * entry, and so with the previous output, keeps its bytes there.
   */
  replace(name: string, bytes: Uint8Array): void {
    const path = join(this.tempDir, name), tmp = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, bytes);
      renameSync(tmp, path);
    } catch (e) {
      throw new Error(`publish: ${path}: ${(e as Error).message}`);
    }
  }

  /** Drops everything written so far (the build starts over with another layout). */
  clear(): void {
    rmSync(this.tempDir, { recursive: true, force: true });
    this.written.length = 0;
    this.known.clear();
    this.tempDir = Staging.temp(this.outDir);
  }

  /** Writes the manifest and swaps the directory into place (see the file header); warns about what it leaves. */
  commit(manifest: unknown, logger: PublishLogger): void {
    const { outDir, dir } = this;
    const step = (s: PublishStep): void => this.onStep?.(s);
    try {
      const published = recordChecks(dir, manifest, this.known);
      // Streamed (json-file.ts): the 64M bench level's manifest is ~32 MB of text, written at the build's peak.
      const fd = openSync(join(dir, MANIFEST_FILE), 'w');
      try {
        writeJson(fd, manifest, 2);
      } finally {
        closeSync(fd);
      }
      const prev = inspectOutput(outDir); // again: something may have appeared there during the build
      step('staged');
      if (!prev.exists) {
        unlinkSync(join(dir, STAGING_MARKER));
        renameSync(dir, outDir);
        this.closed = true;
        rememberManifest(join(outDir, MANIFEST_FILE), manifest);
        primeVerdicts(outDir, published);
        step('new-in-place');
        return;
      }
      const old = `${join(dirname(outDir), oldPrefix(outDir))}${process.pid}-${randomBytes(4).toString('hex')}`;
      renameSync(outDir, old);
      step('old-moved');
      const carried: string[] = [];
      try {
        for (const e of prev.owned) {
          renameSync(join(old, e), join(dir, e));
          carried.push(e);
        }
        step('owned-carried');
        unlinkSync(join(dir, STAGING_MARKER));
        renameSync(dir, outDir);
      } catch (e) {
        for (const c of carried) renameSync(join(dir, c), join(old, c));
        renameSync(old, outDir);
        throw e;
      }
      this.closed = true;
      rememberManifest(join(outDir, MANIFEST_FILE), manifest);
      step('new-in-place');
      // The new output is in place: failing to remove the old one leaves it for the next build, with a warning.
      try {
        removeStale(old, logger);
      } catch (e) {
        logger.warn(`publish: ${old}: the previous output could not be removed (${(e as Error).message}); the next build removes it`);
      }
      primeVerdicts(outDir, published);
      step('old-removed');
    } catch (e) {
      this.discard();
      const message = (e as Error).message;
      throw new Error(message.startsWith('publish: ') ? message : `publish: ${outDir}: ${message}`);
    }
  }

  /** Removes the temporary directory unless it was committed. */
  discard(): void {
    if (this.closed) return;
    this.closed = true;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Adds `checks` to the manifest about to be written: each listed file's size and CRC-32 as it is in the temporary
 * directory now (after every patch), what the next build's ownedFile compares before removing it. Read back rather
 * than taken from the writers: resources are written by worker threads, copied from the cache and patched by the
 * seams pass; 42 MB (the 1M bench level) reads and checksums in tens of ms.
 */
function recordChecks(dir: string, manifest: unknown, known: Map<string, KnownFile>): Map<string, KnownFile> {
  const m = manifest as { files?: unknown; checks?: Record<string, FileCheck> };
  const all = new Map<string, KnownFile>();
  if (!Array.isArray(m.files)) return all;
  const checks: Record<string, FileCheck> = {};
  for (const f of m.files) {
    if (!isPlainName(f) || f === MANIFEST_FILE) continue;
    let k = known.get(f);
    if (!k) {
      const bytes = readFileSync(join(dir, f));
      const kind = WRITTEN_KIND.find(([re]) => re.test(f));
      k = { check: checkOf(bytes), ours: kind?.[1](bytes) === true };
    }
    checks[f] = k.check;
    all.set(f, k);
  }
  m.checks = checks;
  return all;
}

/**
 * The files just published, known good in K: the next build of this process (--watch, a CompileSession) checks
 * each by its stat stamp alone. Taken after the swap: a link made or removed changes a file's ctime.
 */
function primeVerdicts(outDir: string, files: Map<string, KnownFile>): void {
  for (const [f, k] of files) {
    if (!k.ours) continue;
    const path = join(outDir, f);
    try {
      const st = lstatSync(path, { bigint: true });
      if (st.isFile() && st.size === BigInt(k.check.bytes)) rememberVerdict(path, { stamp: stampOf(st), crc: k.check.crc32, why: undefined, sha: k.sha });
    } catch {
      // gone already: nothing to remember
    }
  }
}

/** A file of the build whose final bytes the build holds: its check, and its sha256 when known. */
interface KnownFile {
  check: FileCheck;
  sha?: string;
  /** Of the kind its name says (the build wrote it so). */
  ours: boolean;
}
