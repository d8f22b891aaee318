// The per-user secret that seals the incremental cache's index lines (src/build/cache.ts sealOf: HMAC-SHA256). A plain
// digest as the seal let anyone who can write a cache folder edit an index line and seal it again; with a key only
// the user can read, a line is trusted only when the user's own builds wrote it.
//
// Where: the per-user folder the worker code already caches its bundle in (src/tiling/worker-boot.mjs
// codeCacheDir): $XDG_CACHE_HOME/skate-collision, else ~/.cache/skate-collision, else <tmpdir>/skate-collision-<uid>,
// made 0700; it must be a real folder (not a link) owned by this user with no group/other write bits. The key file
// `cache-seal.key` (32 random bytes) is read only as a plain file of ours that no one else can write
// (src/files.ts readOwnFile) and made exclusively (O_EXCL, mode 0600, a random temporary name linked into place, so
// two first builds at once agree on one key).
//
// Without such a key (no home, a folder that fails the check; Windows, where Node reports no owner or real mode:
// there the file is read as a plain file of the user's profile folder), the seal's key is random for this process:
// the cache still works within the run, and entries from earlier runs all miss (never trusted).
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, lstatSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOwnFile, readRegularFile } from '../files.ts';

/** The key's length (bytes). */
const KEY_BYTES = 32;
const KEY_FILE = 'cache-seal.key';

/** Whether the key was read or made in the per-user folder (false: this process's random key). */
export interface UserKey {
  key: Buffer;
  persistent: boolean;
  /** Why the key is not persistent, in words. */
  why?: string;
}

/** The per-user folder (see the header), created 0700; throws when it is not the user's own. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  let home = '';
  try {
    home = env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : '');
  } catch {
    // no home directory
  }
  const dir = home ? join(home, 'skate-collision') : join(tmpdir(), `skate-collision-${uid ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)) throw new Error(`${dir} is not this user's own (owner ${st.uid}, mode ${(st.mode & 0o777).toString(8)})`);
  return dir;
}

let cached: UserKey | undefined;

/** The user's cache-seal key (see the header), read or made once per process. */
export function userKey(): UserKey {
  if (cached) return cached;
  try {
    return (cached = { key: readOrMake(userCacheDir()), persistent: true });
  } catch (e) {
    return (cached = { key: randomBytes(KEY_BYTES), persistent: false, why: (e as Error).message });
  }
}

/** Tests: forget the key read (the next userKey() reads XDG_CACHE_HOME's again). */
export function forgetUserKey(): void {
  cached = undefined;
}

function readKey(path: string): Buffer | undefined {
  const posix = typeof process.getuid === 'function';
  let b: Uint8Array | undefined;
  try {
    b = posix ? readOwnFile(path, 4096) : readRegularFile(path, 4096);
  } catch {
    b = undefined;
  }
  return b && b.length === KEY_BYTES ? Buffer.from(b) : undefined;
}

function readOrMake(dir: string): Buffer {
  const path = join(dir, KEY_FILE);
  const have = readKey(path);
  if (have) return have;
  let exists = false;
  try {
    lstatSync(path);
    exists = true;
  } catch {
    // none yet
  }
  if (exists) throw new Error(`${path} is not a ${KEY_BYTES}-byte file of this user's that no one else can write`);
  const tmp = join(dir, `${KEY_FILE}.${randomBytes(8).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, randomBytes(KEY_BYTES));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path); // never replaces: a key another build made first wins, and both read it below
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(tmp);
  }
  const key = readKey(path);
  if (!key) throw new Error(`${path} could not be read back as this user's key`);
  return key;
}
