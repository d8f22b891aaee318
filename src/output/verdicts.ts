// Output files' verdicts kept beyond one inspection: ownership.ts proves a file ours once per stat stamp; that proof
// lets the cache link the previous output's file into the new one instead of writing the same bytes (linkFromPrevious),
// and the build record carries it to the next process (keptVerdicts, adoptVerdicts; src/build/unchanged.ts).
//
// Rules: a verdict stands only while the file keeps the stamp it was proven with (device, inode, size, change and
// modification times: any write, rename over or link changes the inode or the change time). A file changed less than
// RACY_NS before the stat that confirms it is not kept for the next process: a write in the same tick of the file
// system's clock would keep the stamp (git's "racy" entries); outlastRacyWindow waits that window out.
import { linkSync, lstatSync, type BigIntStats, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { FileCheck } from './file-write.ts';
import { checkedReads, CRC32_HEX, isPlainName, rememberVerdict, sha256Hex, stampOf, verdicts, WRITTEN_KIND } from './ownership.ts';

/**
 * The sha256 of `name` in the output directory `dir` as this process checked it (ownedFile, or recordChecks when
 * it published it), if the file is still the one checked (same stat stamp): what lets the cache link a resource of
 * the previous output into the new one (src/build/cache.ts take) rather than create a file for the same bytes.
 */
export function previousDigest(dir: string, name: string): string | undefined {
  const path = join(dir, name);
  const v = verdicts.get(path);
  if (!v || v.why !== undefined) return undefined;
  try {
    if (v.stamp !== stampOf(lstatSync(path, { bigint: true }))) return undefined;
    if (v.sha !== undefined) return v.sha;
    // Checked by its stamp alone (this process published it, or a record kept it without one): read it once, the
    // second stat proving the bytes read are the file checked.
    checkedReads.count++;
    v.sha = sha256Hex(readFileSync(path));
    return v.stamp === stampOf(lstatSync(path, { bigint: true })) ? v.sha : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Links `name` of the previous output `dir` into `toDir` when it is the file this process checked and its sha256
 * is `sha`; its check (size, CRC-32) when linked. Its verdict follows the link (a link changes the file's ctime, not its bytes), so the
 * build's next inspection of `dir` does not read it again.
 */
export function linkFromPrevious(dir: string, name: string, toDir: string, sha: string): FileCheck | undefined {
  if (previousDigest(dir, name) !== sha) return undefined;
  const path = join(dir, name);
  const v = verdicts.get(path)!;
  if (v.crc === '') return undefined; // checked by name and kind alone (an old manifest): write it anew
  try {
    linkSync(path, join(toDir, name));
  } catch {
    return undefined;
  }
  try {
    // The file linked is the one checked: the same inode, size and modification time (the link changed its ctime).
    const st = lstatSync(join(toDir, name), { bigint: true });
    const [dev, ino, size, , mtime] = v.stamp.split(':');
    if (`${st.dev}` !== dev || `${st.ino}` !== ino || `${st.size}` !== size || `${st.mtimeNs}` !== mtime) throw new Error('replaced while linked');
    v.stamp = stampOf(st);
    return { bytes: Number(st.size), crc32: v.crc };
  } catch {
    verdicts.delete(path);
    try {
      unlinkSync(join(toDir, name));
    } catch {
      // not made
    }
    return undefined;
  }
}

/**
 * A verdict as the build record keeps it for the next process (src/build/unchanged.ts): the file's name in the output, its
 * stat stamp, the CRC-32 it was checked against and its sha256 ('' when not known).
 */
export type KeptVerdict = [name: string, stamp: string, crc: string, sha: string];

/**
 * How long (ns) before the stat that confirms a verdict for the next process the file must have last changed: a
 * write in the same tick of the file system's clock as that stat would keep the stamp (git's "racy" entries; Linux's
 * coarse clock ticks every 1–10 ms). A file too recent is left out, and read by the next build.
 */
export const RACY_NS = 20_000_000n;
/** A coarse file-system clock's tick at most (ms): how far its times may lag the wall clock (Linux: 1–10 ms). */
const FS_TICK_MS = 10;

/**
 * Waits until the wall clock is RACY_NS and one file-system tick past `sinceMs` (performance.timeOrigin-based ms,
 * taken right after the output's files last changed: the publish, whose removal of the old output changes the
 * change time of every file it shared by link), so that keptVerdicts, called after it, keeps every file rather
 * than leave the newest for the next build to read and hash again (at 1M triangles: the 377 of 449 files a
 * rebuild links, ~70 ms of the next build). Waits at most RACY_NS + FS_TICK_MS; not at all once that has passed.
 */
export async function outlastRacyWindow(sinceMs: number): Promise<void> {
  const wait = sinceMs + Number(RACY_NS / 1_000_000n) + FS_TICK_MS - (performance.timeOrigin + performance.now());
  if (wait > 0) await new Promise((r) => setTimeout(r, Math.ceil(wait)));
}
const STAMP = /^\d{1,20}:\d{1,20}:\d{1,20}:\d{1,20}:\d{1,20}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The verdicts of this process for `names` in `outDir` that the next process may take on the file's stamp alone:
 * files proven ours (as written or checked) that still have the stamp they were proven with, on the device of
 * `now` and last changed at least RACY_NS before it. `now`: the stat of a file created just before this call (the
 * record's temporary), the file system's own clock. Times in whole milliseconds (a coarse clock) keep nothing.
 */
export function keptVerdicts(outDir: string, names: readonly string[], now: BigIntStats): KeptVerdict[] {
  const out: KeptVerdict[] = [];
  if (now.ctimeNs % 1_000_000n === 0n) return out;
  for (const name of names) {
    const path = join(outDir, name);
    const v = verdicts.get(path);
    if (!v || v.why !== undefined || v.crc === '') continue;
    try {
      const st = lstatSync(path, { bigint: true });
      if (stampOf(st) !== v.stamp || st.dev !== now.dev || st.ctimeNs + RACY_NS > now.ctimeNs || st.ctimeNs % 1_000_000n === 0n) continue;
    } catch {
      continue;
    }
    out.push([name, v.stamp, v.crc, v.sha ?? '']);
  }
  return out;
}

/**
 * Takes the verdicts a build record kept (keptVerdicts, in an earlier process) for files of `outDir`: each one
 * then stands while the file keeps that stamp (any write, rename over or link changes the inode or the change
 * time, which no caller can set back) and the manifest lists the same CRC-32. The caller has checked the record
 * (ours, not writable by others, src/build/unchanged.ts readRecord). Malformed entries are skipped; this process's own
 * verdicts are never replaced. Returns how many were taken.
 */
export function adoptVerdicts(outDir: string, kept: unknown): number {
  if (!Array.isArray(kept)) return 0;
  let n = 0;
  for (const e of kept) {
    if (!Array.isArray(e) || e.length !== 4) continue;
    const [name, stamp, crc, sha] = e as unknown[];
    if (!isPlainName(name) || !WRITTEN_KIND.some(([re]) => re.test(name)) || typeof stamp !== 'string' || !STAMP.test(stamp)) continue;
    if (typeof crc !== 'string' || !CRC32_HEX.test(crc) || typeof sha !== 'string' || (sha !== '' && !SHA256_HEX.test(sha))) continue;
    const path = join(outDir, name);
    if (verdicts.has(path)) continue;
    rememberVerdict(path, { stamp, crc, why: undefined, sha: sha === '' ? undefined : sha });
    n++;
  }
  return n;
}
