// unique-collision-files and unique-collision-triangles (reskate_cli's statistics, authoring-notes.md "Where our
// compiler sits"): resources with identical bytes count once. Found by exact comparison within buckets of equal
// length and fingerprint, not by a digest of every file.
//
// Design log
// - 2026-12-01: a sha256 per resource (on the thread that built it) cost ~50 ms of CPU for the 1M bench level's
//   448 files (43 MB), ~5 % of its CPU on a 2-core machine that is CPU-bound; this costs under 1 ms there
//   (fingerprints of 768 bytes a file; equal files are compared in full once, which a digest also reads).

import { checkOf } from '../output/file-write.ts';

/** Bytes read from each end and from the middle for the fingerprint. */
export const FINGERPRINT_WINDOW = 256;

/** FNV-1a (32-bit) over the window at each end and in the middle: files that differ there never meet. */
export function fingerprint(b: Uint8Array): number {
  let h = 0x811c9dc5;
  const w = FINGERPRINT_WINDOW;
  const mid = Math.max(0, (b.length >> 1) - (w >> 1));
  for (const start of [0, mid, Math.max(0, b.length - w)]) {
    for (let i = start; i < Math.min(b.length, start + w); i++) h = Math.imul(h ^ b[i], 0x01000193);
  }
  return h >>> 0;
}

/** For each file, whether it is the first with its bytes (so the true ones count the unique files). */
export function firstOfEach(files: Uint8Array[]): boolean[] {
  return firstOfEachFile(files.map((bytes) => ({ bytes })));
}

/**
 * firstOfEach over files whose size, fingerprint and CRC-32 may be known without their bytes (a resource taken
 * from the cache, or written by the thread that built it: its bytes are out of memory): the bytes are read only
 * when another file has the same size, fingerprint and CRC-32 (a level tiled from one block has thousands of
 * cells equal in size and fingerprint, the part positions lying outside its windows; the CRC tells them apart).
 */
export function firstOfEachFile(files: { readonly bytes: Uint8Array; size?: number; fingerprint?: number; check?: { crc32: string } }[]): boolean[] {
  const buckets = new Map<string, { readonly bytes: Uint8Array }[]>();
  return files.map((f) => {
    const key = `${f.size ?? f.bytes.length}:${f.fingerprint ?? fingerprint(f.bytes)}:${f.check?.crc32 ?? checkOf(f.bytes).crc32}`;
    const seen = buckets.get(key);
    if (!seen) return buckets.set(key, [f]), true;
    if (seen.some((s) => Buffer.compare(s.bytes, f.bytes) === 0)) return false;
    seen.push(f);
    return true;
  });
}
