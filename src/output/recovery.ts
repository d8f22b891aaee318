// Repairing an interrupted publish of K (staging.ts's swap), run before every build. House rule (CONTEXT
// "Errors"): outputs published recoverably; nothing outside what we wrote is ever deleted.
//
// Rules (docs/cli.md "The output directory"): with K missing, recoverOutput finishes the swap from a complete
// temporary directory or restores the old one; then it removes the stale temp/old siblings that are ours (the pid in
// the name is not alive), file by file (plain files named as a build names them: a sibling's manifest never widens
// that), and warns about what is left; last, the lock of a build that is gone (lock.ts).
import { lstatSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { alive, removeDeadLock } from './lock.ts';
import { list, MANIFEST_FILE, OWNED_ENTRIES, readManifest, STAGING_MARKER, WRITTEN_KIND, WRITTEN_NAME } from './ownership.ts';

export interface PublishLogger {
  warn(message: string): void;
}

/** The names of K's temporary and old siblings start so (then `<pid>-<random>`). */
export const tempPrefix = (outDir: string): string => `.${basename(outDir)}.tmp-`;
export const oldPrefix = (outDir: string): string => `.${basename(outDir)}.old-`;

/** The pid a temp/old sibling's name carries (`.K.tmp-<pid>-<random>`), or undefined (legacy `.K.tmp-<random>`). */
function pidOf(name: string, prefix: string): number | undefined {
  const m = /^(\d+)-[A-Za-z0-9]+$/.exec(name.slice(prefix.length));
  return m ? Number(m[1]) : undefined;
}

const exists = (p: string): boolean => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/** A temp directory a build finished writing: its manifest is ours and every listed file is there as a plain file. */
function complete(dir: string): boolean {
  const m = readManifest(dir);
  if (!m) return false;
  return m.files.every((f) => {
    try {
      return lstatSync(join(dir, f)).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * Removes a stale temporary or old output directory of ours: plain files it lists or that are named like our
 * output, owned entries, then the directory. Whatever else is there stays, with a warning naming it.
 */
export function removeStale(dir: string, logger: PublishLogger): void {
  // A listing never widens what is removed beyond the names a build writes (a forged manifest names anything).
  const listed = new Set((readManifest(dir)?.files ?? []).filter((n) => WRITTEN_KIND.some(([re]) => re.test(n))));
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  // The manifest last: a directory interrupted half-way is still recognisable as ours.
  entries.sort((a, b) => Number(a.name === MANIFEST_FILE) - Number(b.name === MANIFEST_FILE));
  const kept: string[] = [];
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isFile() && (listed.has(e.name) || WRITTEN_NAME.test(e.name))) unlinkSync(p);
    else if (OWNED_ENTRIES.includes(e.name) && e.isDirectory()) rmSync(p, { recursive: true, force: true });
    else kept.push(e.name);
  }
  if (kept.length) {
    logger.warn(`publish: ${dir} holds entries compile-collision did not write (${list(kept.sort())}); left in place`);
    return;
  }
  rmdirSync(dir);
}

/**
 * Repairs an interrupted publish of K and removes the stale temporary/old siblings that are ours. With K missing:
 * the newest complete temporary directory becomes K (the swap finished, the old build's owned entries carried
 * over), else the newest old directory is put back. Siblings of live processes are left alone. Returns what it did.
 */
export function recoverOutput(outDir: string, logger: PublishLogger): string[] {
  try {
    return recover(outDir, logger);
  } catch (e) {
    const m = (e as Error).message;
    throw new Error(m.startsWith('publish: ') ? m : `publish: ${outDir}: repairing an interrupted publish failed: ${m}`);
  }
}

function recover(outDir: string, logger: PublishLogger): string[] {
  const parent = dirname(outDir);
  const done: string[] = [];
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return done;
  }
  const tp = tempPrefix(outDir), op = oldPrefix(outDir);
  const stale = (n: string, prefix: string): boolean => {
    const pid = pidOf(n, prefix);
    // Legacy names (before the pid was in them): mkdtemp's 6 characters, or the old directory's 8 hex digits.
    return pid === undefined ? /^(?:[A-Za-z0-9]{6}|[0-9a-f]{8})$/.test(n.slice(prefix.length)) : !alive(pid);
  };
  const mtime = (p: string): number => {
    try {
      return statSync(join(p, MANIFEST_FILE)).mtimeMs;
    } catch {
      return statSync(p).mtimeMs;
    }
  };
  const isDir = (p: string): boolean => {
    try {
      return lstatSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  const temps = names.filter((n) => n.startsWith(tp) && stale(n, tp)).map((n) => join(parent, n)).filter(isDir);
  const olds = names.filter((n) => n.startsWith(op) && stale(n, op)).map((n) => join(parent, n)).filter(isDir);
  // A temp directory is ours when it holds the marker, or (the marker dropped just before its rename) our complete manifest.
  const ourTemps = temps.filter((t) => exists(join(t, STAGING_MARKER)) || complete(t) || readdirSync(t).every((n) => WRITTEN_NAME.test(n)));
  const ourOlds = olds.filter((o) => readManifest(o) !== undefined || readdirSync(o).length === 0);
  if (!exists(outDir)) {
    const finished = ourTemps.filter(complete).sort((a, b) => mtime(b) - mtime(a))[0];
    const old = ourOlds.filter((o) => readManifest(o)).sort((a, b) => mtime(b) - mtime(a))[0];
    if (finished) {
      if (old) for (const e of OWNED_ENTRIES) if (exists(join(old, e)) && !exists(join(finished, e))) renameSync(join(old, e), join(finished, e));
      rmSync(join(finished, STAGING_MARKER), { force: true });
      renameSync(finished, outDir);
      done.push(`finished an interrupted publish: ${basename(finished)} → ${basename(outDir)}`);
    } else if (old) {
      renameSync(old, outDir);
      done.push(`restored the previous output from ${basename(old)}`);
    }
  }
  for (const d of [...ourTemps, ...ourOlds]) {
    if (!exists(d)) continue;
    // Owned entries of an old output not carried yet: into K when it has none of its own.
    for (const e of OWNED_ENTRIES) if (exists(join(d, e)) && isDir(outDir) && !exists(join(outDir, e))) renameSync(join(d, e), join(outDir, e));
    removeStale(d, logger);
    if (!exists(d)) done.push(`removed stale ${basename(d)}`);
  }
  // A lock left by a dead build (a live one, the caller's own included, stays).
  const lock = removeDeadLock(outDir);
  if (lock) done.push(lock);
  for (const m of done) logger.warn(`publish: ${outDir}: ${m}`);
  return done;
}
