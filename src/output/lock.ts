// One build of an output directory K at a time (docs/cli.md "The output directory").
//
// Rule: lockOutput creates K's `.K.lock` sibling exclusively (O_EXCL) with the holder's pid, host and a random
// token. A dead holder's lock (same host, pid not alive) or a torn one is taken over; a live holder is waited for,
// then the build is refused naming its pid. A lock is released only by its own token; recoverOutput removes the
// lock of a build that is gone (removeDeadLock).
import { linkSync, lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** Whether the process `pid` of this host lives (this process counts as alive). */
export function alive(pid: number): boolean {
  if (pid === process.pid) return true; // another build of this process (we are not stale)
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How long a build waits for another build of the same output to finish (ms) unless told otherwise: 2 minutes. */
export const LOCK_WAIT_MS = 120_000;
/** A lock file still empty or unreadable after this long (ms) was left by a holder killed while writing it. */
const LOCK_TORN_MS = 5_000;

interface LockHolder {
  pid: number;
  host: string;
  started: string;
  token: string;
}

export const lockPath = (outDir: string): string => join(dirname(outDir), `.${basename(outDir)}.lock`);

/** The holder a lock file names, 'torn' (empty or not ours yet: being written, or its writer died), or undefined (gone). */
function readLock(path: string): LockHolder | 'torn' | undefined {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  if (!st.isFile()) throw new Error(`publish: ${path} is in the way of the build's lock and is not a lock file of ours (${st.isDirectory() ? 'a folder' : st.isSymbolicLink() ? 'a symbolic link' : 'not a plain file'}); remove it`);
  try {
    const j = JSON.parse(readFileSync(path, 'utf8'));
    if (Number.isSafeInteger(j?.pid) && typeof j.host === 'string' && typeof j.token === 'string') return { pid: j.pid, host: j.host, started: String(j.started ?? ''), token: j.token };
  } catch {
    // torn
  }
  return Date.now() - st.mtimeMs > LOCK_TORN_MS ? { pid: -1, host: hostname(), started: '', token: '' } : 'torn';
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Serializes builds of one output directory: creates `.K.lock` beside K exclusively (O_EXCL) with this process's
 * pid, host and a random token, and returns its release. A lock whose holder is dead (same host, pid not alive) or
 * torn is taken over: renamed aside (atomic: of two takers one wins), checked to be the one seen, removed. A live
 * holder is waited for up to `waitMs`, then the build is refused naming it. Released only by its own token.
 */
export async function lockOutput(outDir: string, waitMs = LOCK_WAIT_MS): Promise<() => void> {
  const path = lockPath(outDir);
  mkdirSync(dirname(outDir), { recursive: true });
  const me: LockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), token: randomBytes(12).toString('hex') };
  const deadline = Date.now() + waitMs;
  for (let delay = 20; ; delay = Math.min(250, delay * 2)) {
    try {
      writeFileSync(path, `${JSON.stringify(me)}\n`, { flag: 'wx' });
      return () => {
        try {
          const h = readLock(path);
          if (h && h !== 'torn' && h.token === me.token) unlinkSync(path);
        } catch {
          // not ours any more, or gone: nothing to release
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`publish: ${path}: cannot create the build's lock (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const h = readLock(path);
    if (h === undefined) continue; // released meanwhile
    if (h !== 'torn' && (h.pid === -1 || (h.host === me.host && !alive(h.pid)))) {
      takeOver(path, h);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = h === 'torn' ? 'another build (its lock is being written)' : `another compile-collision (pid ${h.pid}${h.host === me.host ? '' : ` on ${h.host}`}, since ${h.started})`;
      throw new Error(`publish: ${outDir} is being built by ${who}; waited ${Math.round(waitMs / 1000)} s for it to finish. Try again when it has (if no such build runs, remove ${path})`);
    }
    await sleep(delay);
  }
}

/** Moves a dead holder's lock aside and removes it, unless what was moved is not the lock seen (then puts it back). */
function takeOver(path: string, seen: LockHolder): void {
  const aside = `${path}.stale-${randomBytes(6).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // another taker was first
  }
  let moved: LockHolder | 'torn' | undefined;
  try {
    moved = readLock(aside);
  } catch {
    moved = undefined;
  }
  const same = moved !== undefined && moved !== 'torn' && (seen.pid === -1 ? moved.pid === -1 : moved.token === seen.token);
  if (!same) {
    try {
      linkSync(aside, path); // a live holder's fresh lock: back in place (fails if a new one is there already)
    } catch {
      // a newer lock is in place: theirs stands
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // gone
  }
}

/**
 * Removes a lock left by a dead build (a live one, the caller's own included, stays): what it did, or undefined.
 */
export function removeDeadLock(outDir: string): string | undefined {
  const lock = lockPath(outDir);
  const holder = readLock(lock);
  if (!(holder && holder !== 'torn' && (holder.pid === -1 || (holder.host === hostname() && !alive(holder.pid))))) return undefined;
  takeOver(lock, holder);
  try {
    lstatSync(lock);
    return undefined;
  } catch {
    return `removed the lock of a build that is gone (${holder.pid === -1 ? 'torn' : `pid ${holder.pid}`})`;
  }
}
