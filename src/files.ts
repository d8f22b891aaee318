// Reading the user's input files: only regular files, never more bytes than the format allows, and a glTF's
// external resources only from where the level lives. House rule (CONTEXT "Errors"): inputs read only from where
// the level lives; untrusted sizes never drive an allocation before they are checked.
//
// A character device (/dev/zero), a FIFO or a directory has no size to check: read whole, /dev/zero grew memory at
// ~150 MB/s until the kernel killed the process. A buffer URI is resolved against the glTF's directory after
// percent-decoding (glTF 2.0 §3.6.1: URIs are RFC 3986, relative ones against the glTF file) and its symbolic links
// are resolved before the confinement check, so `../`, `%2e%2e%2f`, absolute paths and links out are all caught.
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { identify, notPhysics } from './format/identify.ts';

/**
 * Largest PhysicsResource file inspect, verify and --studio-template read (bytes). The format bounds each shape
 * (u16 counts: ≤ 65,535 vertices, ≤ 21,845 faces, ~2 MB) but not the shape count (u32); 1 GiB is ~25× the whole
 * 1M-triangle bench level's output (43 MB in 448 files) and far beyond what the game's pools load.
 */
export const MAX_RESOURCE_BYTES = 1 << 30;

function kind(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * What `path` is, when it is not a regular file (links followed): undefined for a regular file, else words for a
 * message ('no such file', 'a directory', 'a FIFO (named pipe)', 'a symbolic link loop', 'a symbolic link to
 * "x", which does not exist'). Never throws, never opens: a FIFO is told without waiting for a writer.
 */
export function whatIsNot(path: string): string | undefined {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return 'a symbolic link loop';
    if (code === 'ENOENT') {
      try {
        if (lstatSync(path).isSymbolicLink()) return `a symbolic link to "${readlinkSync(path)}", which does not exist`;
      } catch {
        // not there at all
      }
      return 'no such file';
    }
    if (code === 'ENOTDIR') return 'no such file (a part of its path is not a directory)';
    return `not readable (${code ?? (e as Error).message})`;
  }
  return st.isFile() ? undefined : kind(st);
}

/** whatIsNot for a directory argument: undefined for a directory (links followed), else words as there. */
export function whatIsNotDir(path: string): string | undefined {
  const not = whatIsNot(path);
  if (not === 'a directory') return undefined;
  return not ?? 'a file';
}

/**
 * Largest manifest.json any command reads (bytes). The 1M-triangle bench level's is 380 KB for 449 files; a level
 * at the 27,648-slot streaming limit with findings stays well under 64 MiB. A link to /dev/zero or a FIFO in its
 * place is refused by readRegularFile, never read until memory runs out.
 */
export const MAX_MANIFEST_BYTES = 64 << 20;

/** manifest.json's text: a regular file of at most MAX_MANIFEST_BYTES (errors as readRegularFile's). */
export function readManifestText(path: string): string {
  return Buffer.from(readRegularFile(path, MAX_MANIFEST_BYTES, 'error', 'any manifest.json (MAX_MANIFEST_BYTES, 64 MiB)')).toString('utf8');
}

/**
 * A regular file's bytes, at most `maxBytes` of them: `over` says what a bigger file is ('error': refuse naming
 * both sizes; 'truncate': read the first maxBytes, e.g. a buffer file longer than its declared byteLength). Opened
 * non-blocking, so a FIFO is refused instead of waiting for a writer. Errors carry no stage prefix (the caller's).
 */
export function readRegularFile(path: string, maxBytes: number, over: 'error' | 'truncate' = 'error', limitName = `${maxBytes} bytes`, into?: (size: number) => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const fd = openRegular(path);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${kind(st)}, not a regular file; refusing to read it`);
    if (st.size > maxBytes && over === 'error') throw new Error(tooBig(st.size, limitName));
    const size = Math.min(st.size, maxBytes);
    // `into`: memory the caller reuses (a session's: src/import/memo.ts); only the bytes read are handed out.
    const out = into ? into(size) : new Uint8Array(size);
    const at = readInto(fd, out, size);
    return at === size ? out : out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

const tooBig = (size: number, limitName: string): string => `${size} bytes, more than ${limitName}; refusing to read it`;

/**
 * `path` opened for reading, non-blocking (a FIFO is refused by the caller's fstat instead of waiting for a writer).
 * Errors (readRegularFile's): ENOENT keeps its code; a loop or a dangling link is said in words.
 */
function openRegular(path: string): number {
  try {
    return openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const not = whatIsNot(path);
    if (err.code !== 'ENOENT' && not !== undefined && not !== 'no such file' && !not.startsWith('not readable')) throw new Error(`${not}; refusing to read it`);
    throw Object.assign(new Error(`cannot read (${err.code ?? err.message})`), { code: err.code });
  }
}

/**
 * Bytes one read asks for at most: Node refuses a read of 2 GiB or more ("The value of "length" is out of range"),
 * and a level may be up to 4 GiB (MAX_LEVEL_BYTES, a GLB's u32 length).
 */
export const READ_CHUNK = 1 << 30;

/** Reads up to `size` bytes of fd from its start into out; how many it got (fewer: the file shrank meanwhile). */
export function readInto(fd: number, out: Uint8Array, size: number, chunk = READ_CHUNK): number {
  let at = 0;
  while (at < size) {
    const n = readSync(fd, out, at, Math.min(size - at, chunk), at);
    if (n === 0) break;
    at += n;
  }
  return at;
}

/**
 * A file this tool wrote for its own later use (a build record), read only when it can only be ours: a regular
 * file, not a symbolic link, owned by this process's user and writable by nobody else (group or others), at most
 * `maxBytes`. Undefined otherwise, and always on Windows, where Node reports neither owner nor real permissions.
 */
export function readOwnFile(path: string, maxBytes: number): Uint8Array | undefined {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid === undefined || constants.O_NOFOLLOW === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.uid !== uid || (st.mode & 0o022) !== 0 || st.size > maxBytes) return undefined;
    const out = new Uint8Array(st.size);
    return readInto(fd, out, out.length) === out.length ? out : undefined; // shrank while reading: being written
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** `p` inside `dir` (or equal to it), both absolute. */
export function isInside(p: string, dir: string): boolean {
  const r = relative(dir, p);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

/**
 * The file a glTF URI names, resolved against `baseDir` (the glTF's directory). Throws (no stage prefix) for a URL
 * with a scheme, bad percent-encoding, and, unless allowOutside, for anything whose real path (links resolved)
 * lies outside baseDir's real path; `what` names the element ('buffer 2 "level.bin"').
 */
export function resolveUri(baseDir: string, uri: string, what: string, allowOutside: boolean): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri) && !/^[A-Za-z]:[\\/]/.test(uri)) throw new Error(`${what}: URI scheme "${uri.split(':')[0]}:" is not read (only files next to the glTF)`);
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    throw new Error(`${what}: URI is not valid percent-encoding`);
  }
  if (decoded.includes('\0')) throw new Error(`${what}: URI holds a NUL character`);
  const path = resolve(baseDir, decoded);
  if (allowOutside) return path;
  let real: string;
  try {
    real = realpathSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`${what}: ${code === 'ENOENT' ? `external resource not found: ${path}` : `cannot read ${path} (${code})`}`);
  }
  const realBase = realpathSync(baseDir);
  if (!isInside(real, realBase)) {
    throw new Error(`${what}: resolves to ${real}, outside the glTF's directory ${realBase}; refusing to read it (--allow-outside-uris reads it)`);
  }
  return real;
}

/** How readRegularFile names MAX_RESOURCE_BYTES in its refusal. */
const RESOURCE_LIMIT = 'any PhysicsResource (MAX_RESOURCE_BYTES, 1 GiB)';

/** A .physics file for inspect/verify: a regular file of at most MAX_RESOURCE_BYTES. */
export const readPhysicsFile = (path: string): Uint8Array<ArrayBuffer> => readRegularFile(path, MAX_RESOURCE_BYTES, 'error', RESOURCE_LIMIT);

/** Bytes identify() looks at in a large file's head (readPhysicsBytes). */
export const PHYSICS_HEAD_BYTES = 4096;
/**
 * A file up to this size is read whole at once (a compile output's cells are ~0.1 MB each); a larger one is told
 * from its head first (a 1 GiB file of zeros took 1.1 GB to be told it is not a PhysicsResource).
 */
export const PHYSICS_WHOLE_BYTES = 4 << 20;

/**
 * Memory read into file after file (readPhysicsBytes): grown to the largest file read, never shrunk. Reading each
 * file into fresh memory paid a first touch of every page (the 1M bench level's 448 files, 47 MB: ~11,000 minor
 * faults and ~0.5 s of system time on a 2-core VM, against ~2,900 and ~0.14 s into one reused buffer). The bytes
 * handed out are valid until the next read into the same buffer.
 */
export class ReadBuffer {
  private bytes = new Uint8Array(0);
  /** `size` bytes of the buffer (their contents undefined). */
  take(size: number): Uint8Array<ArrayBuffer> {
    if (this.bytes.length < size) this.bytes = new Uint8Array(Math.max(size, Math.min(2 * this.bytes.length, PHYSICS_WHOLE_BYTES)));
    return this.bytes.subarray(0, size);
  }
}

/**
 * A file's bytes when it is a PhysicsResource; otherwise what it is, in words: no such file, not a regular file (a
 * FIFO, a device, a directory; never waited on or read), larger than any PhysicsResource (MAX_RESOURCE_BYTES), or
 * what identify() makes of its first bytes (a level, an empty file, …). One open: the file is fstat-ed, then read
 * whole when small, else its head is told first. `into`: the bytes are read into it (valid until its next read),
 * else into memory of their own.
 */
export function readPhysicsBytes(path: string, into?: ReadBuffer): { bytes: Uint8Array<ArrayBuffer> } | { error: string } {
  const take = (size: number): Uint8Array<ArrayBuffer> => (into ? into.take(size) : new Uint8Array(size));
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const fd = openRegular(path);
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new Error(`${kind(st)}, not a regular file; refusing to read it`);
      if (st.size > PHYSICS_WHOLE_BYTES) {
        // Its first bytes say what it is: a file that is not a PhysicsResource is named without reading the rest.
        const head = take(PHYSICS_HEAD_BYTES);
        const what = identify(head.subarray(0, readInto(fd, head, head.length)), path);
        if (what !== 'physics') return { error: notPhysics(what, st.size) };
        if (st.size > MAX_RESOURCE_BYTES) throw new Error(tooBig(st.size, RESOURCE_LIMIT));
      }
      const out = take(st.size);
      bytes = out.subarray(0, readInto(fd, out, st.size));
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { error: err.code === 'ENOENT' ? 'no such file' : err.message };
  }
  const what = identify(bytes, path);
  return what === 'physics' ? { bytes } : { error: notPhysics(what, bytes.length) };
}

/**
 * Largest file diff compares record by record (bytes): both are read and decoded whole, a few times their size in
 * memory. Past it, two files are compared byte by byte in chunks (firstDifference: the first differing offset).
 */
export const DIFF_RECORD_BYTES = 128 << 20;

/** Bytes a byte-by-byte comparison reads of each file at a time (firstDifference). */
const COMPARE_CHUNK = 1 << 20;

/**
 * Where two regular files first differ, read side by side in chunks of COMPARE_CHUNK (memory: two chunks, whatever
 * the sizes): `at` the first differing offset (the shorter one's length when one is a prefix of the other), or -1
 * when they are equal. Throws (as readRegularFile) for what is not a regular file.
 */
export function firstDifference(a: string, b: string): { at: number; sizes: [number, number] } {
  const open = (p: string): number => {
    const not = whatIsNot(p);
    if (not !== undefined) throw new Error(`${p}: ${not}; refusing to read it`);
    return openSync(p, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  };
  const fa = open(a);
  try {
    const fb = open(b);
    try {
      const sa = fstatSync(fa), sb = fstatSync(fb);
      if (!sa.isFile() || !sb.isFile()) throw new Error(`${!sa.isFile() ? a : b}: not a regular file; refusing to read it`);
      const ba = new Uint8Array(COMPARE_CHUNK), bb = new Uint8Array(COMPARE_CHUNK);
      const sizes: [number, number] = [sa.size, sb.size];
      for (let pos = 0; ; pos += COMPARE_CHUNK) {
        const na = readSync(fa, ba, 0, COMPARE_CHUNK, pos), nb = readSync(fb, bb, 0, COMPARE_CHUNK, pos);
        const n = Math.min(na, nb);
        for (let i = 0; i < n; i++) if (ba[i] !== bb[i]) return { at: pos + i, sizes };
        if (na !== nb) return { at: pos + n, sizes };
        if (na === 0) return { at: -1, sizes };
      }
    } finally {
      closeSync(fb);
    }
  } finally {
    closeSync(fa);
  }
}
