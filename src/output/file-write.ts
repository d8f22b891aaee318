// Writing the build's files: whole buffers and in-place spans through a descriptor, however many calls a write
// takes, never through a link planted at the path; and the check (size, CRC-32) a manifest records of what was
// written, which a rebuild compares before removing anything (ownership.ts).
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/** What a manifest records of a file it lists (`checks`): its size in bytes and zlib's CRC-32 of them, 8 hex digits. */
export interface FileCheck {
  bytes: number;
  crc32: string;
}

/**
 * Writes bytes [lo, hi) of `bytes` to fd at file position `at` + lo (null: at the descriptor's own position),
 * however many calls it takes (a write may take fewer bytes than given).
 */
export function writeAll(fd: number, bytes: Uint8Array, at: number | null = null, lo = 0, hi = bytes.length): void {
  for (let done = lo; done < hi; ) done += writeSync(fd, bytes, done, hi - done, at === null ? null : at + done);
}

/**
 * Bytes [lo, hi) of a file this build wrote, rewritten in place (a link at `path` is refused, not written through);
 * errors as "publish: <path>: ...". Only for a file no other directory shares (the seams step's patches).
 */
export function writeSpan(path: string, bytes: Uint8Array, lo: number, hi: number): void {
  try {
    const fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
    try {
      writeAll(fd, bytes, 0, lo, hi);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw new Error(`publish: ${path}: ${(e as Error).message}`);
  }
}

/** The check a manifest records for these bytes. */
export const checkOf = (bytes: Uint8Array): FileCheck => ({ bytes: bytes.byteLength, crc32: (crc32(bytes) >>> 0).toString(16).padStart(8, '0') });
