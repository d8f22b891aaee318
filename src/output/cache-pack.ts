// The cache's entry bytes (src/build/cache.ts) live in pack files: each build appends the resources it settles into a
// few files of its own (one per seams work unit of ~32 resources, one for the main thread's), named
// `pack-<build>-<pid>-<random>-<unit>.bin` in the cache's entries folder, and the index names each entry's pack,
// offset and size. One file per entry cost a file creation each: at 16M triangles (7,168 cells) ~3.5 s of one
// machine's kernel time and 44 % of the build (docs/performance.md). Nothing read here is trusted:
// a pack is opened without following a link, must be a plain file holding the slice, and the caller checks the
// slice's sha256 before using it; a pack is created exclusively, so a planted name is never written through.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { MAX_RESOURCE_BYTES } from '../files.ts';
import { writeAll } from './file-write.ts';

/** A pack file's name: build number, writer's pid, 8 random hex digits, and the unit (a number, `m` or `c`). */
export const PACK_NAME = /^pack-\d+-\d+-[0-9a-f]{8}-(\d+|m|c)\.bin$/;

/** Where an entry's bytes are: its pack's file name (never a path), byte offset and size. */
export interface PackSlice {
  pack: string;
  at: number;
  size: number;
}

/** Whether an index's slice is well formed: a pack name, a safe offset, and a size within MAX_RESOURCE_BYTES. */
export function isSlice(s: Partial<PackSlice>): s is PackSlice {
  return typeof s.pack === 'string' && PACK_NAME.test(s.pack) && Number.isSafeInteger(s.at) && s.at! >= 0 && Number.isSafeInteger(s.size) && s.size! > 0 && s.size! <= MAX_RESOURCE_BYTES;
}

/**
 * Appends byte strings to a new pack at `path`, created on the first append ('wx': exclusive, so neither a file nor
 * a link already there is written through). After a failed write it takes nothing more (the slices before it stay
 * good); the caller keeps no entry for a refused one.
 */
export class PackWriter {
  private fd: number | undefined;
  private end = 0;
  private failed = false;
  readonly name: string;

  constructor(readonly path: string) {
    this.name = basename(path);
  }

  append(bytes: Uint8Array): PackSlice | undefined {
    if (this.failed || bytes.length === 0) return undefined;
    try {
      this.fd ??= openSync(this.path, 'wx');
      writeAll(this.fd, bytes, this.end);
      const at = this.end;
      this.end += bytes.length;
      return { pack: this.name, at, size: bytes.length };
    } catch {
      this.failed = true;
      return undefined;
    }
  }

  /** Bytes appended so far. */
  get size(): number {
    return this.end;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * The slice's bytes from the pack at `path`: opened without following a link (O_NOFOLLOW), a plain file at least
 * as long as the slice, read in full; else undefined. The caller checks the digest.
 */
export function readSlice(path: string, at: number, size: number): Uint8Array | undefined {
  if (!(Number.isSafeInteger(at) && at >= 0 && Number.isSafeInteger(size) && size > 0 && size <= MAX_RESOURCE_BYTES)) return undefined;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size < at + size) return undefined;
    const out = new Uint8Array(size);
    for (let done = 0; done < size;) {
      const n = readSync(fd, out, done, size - done, at + done);
      if (n === 0) return undefined;
      done += n;
    }
    return out;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
