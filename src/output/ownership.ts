// The output directory K: what of it is ours, and so what a rebuild may remove. House rule (CONTEXT "Errors"):
// nothing outside what we wrote is ever deleted.
//
// Rules (docs/cli.md "The output directory"):
// - K's manifest.json lists every file the build wrote (`files`) with its size and CRC-32 (`checks`). A rebuild
//   removes a listed file only when it is provably ours (ownedFile: a plain file directly inside K, named as a build
//   names its files, its first bytes of the kind that name says, its size and CRC-32 as recorded) and the manifest;
//   any other entry makes the build refuse, naming the entries (inspectOutput). A forged manifest cannot widen that.
// - A directory without our manifest is replaced only when it is empty. OWNED_ENTRIES (the incremental cache's
//   `.cache/`) are the tool's own: never foreign, moved (not copied) into the new output on swap.
//
// The output room: ownership.ts (this), verdicts.ts (checks kept across builds, links from the previous output),
// lock.ts (one build of K at a time), staging.ts (the temporary directory, the swap, where -o points), recovery.ts
// (an interrupted swap repaired), json-file.ts (JSON streamed into a file). The library never prints: findings go
// to the logger.
import { lstatSync, type BigIntStats, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { FileCheck } from './file-write.ts';
import { identify } from '../format/identify.ts';

export const MANIFEST_FILE = 'manifest.json';

/**
 * Entries of an output directory the tool owns besides the files its manifest lists: the incremental cache (src/build/cache.ts).
 * Never foreign, never deleted by a rebuild; moved into the new output on swap.
 */
export const OWNED_ENTRIES: readonly string[] = ['.cache'];

/** Written into a temporary output directory when it is created and dropped just before it becomes K. */
export const STAGING_MARKER = '.compile-collision-staging';

/**
 * Names a build writes (besides those its manifest lists): what a stale temporary or old directory of ours may
 * hold. Removing one deletes only plain files named so (or listed in its manifest); anything else stays.
 */
export const WRITTEN_NAME = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\.physics|manifest\.json|streaming-plan\.json|report\.html|\.compile-collision-staging)$/;

const ours = (j: unknown): boolean => (j as { tool?: { name?: unknown } } | null)?.tool?.name === 'compile-collision';

/** A manifest's (and a kept verdict's) CRC-32: 8 lowercase hex digits. */
export const CRC32_HEX = /^[0-9a-f]{8}$/;
/** A file name directly inside a directory: no separators, not `.`/`..`, no NUL. */
export const isPlainName = (n: unknown): n is string => typeof n === 'string' && n !== '' && n !== '.' && n !== '..' && !/[/\\\0]/.test(n);

/**
 * The manifests last read, by path and stat (inode, size, change and modification times): a build inspects its
 * output up to four times (src/build/compile.ts, Staging, commit), and the 1M bench level's manifest is ~380 KB of JSON.
 * Any write to the file changes its ctime, so a changed manifest is always read again.
 */
const manifests = new Map<string, { stamp: string; result: ListedFiles | undefined }>();
/** Paths remembered at most (an output and its old copy while it is removed, for a few outputs). */
const MANIFESTS_KEPT = 8;

/** A file's stamp: device, inode, size, change and modification times (ns). */
export const stampOf = (st: BigIntStats): string => `${st.dev}:${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}`;

/**
 * Remembers what the manifest with this stat holds. On a file system with coarse times (whole milliseconds or
 * seconds) a write in the same tick would keep the stamp: a manifest changed that recently is not kept (git's
 * "racy" entries).
 */
function remember(path: string, st: BigIntStats, result: ListedFiles | undefined): void {
  if (st.ctimeNs % 1_000_000n === 0n && Date.now() - Number(st.ctimeNs / 1_000_000n) <= 3000) return;
  const stamp = stampOf(st);
  manifests.delete(path);
  manifests.set(path, { stamp, result });
  if (manifests.size > MANIFESTS_KEPT) manifests.delete(manifests.keys().next().value!);
}

export function readManifest(dir: string): ListedFiles | undefined {
  let text: string;
  const path = join(dir, MANIFEST_FILE);
  try {
    const st = lstatSync(path, { bigint: true });
    if (!st.isFile()) return undefined;
    const known = manifests.get(path);
    if (known?.stamp === stampOf(st)) return known.result && { ...known.result, files: [...known.result.files] };
    text = readFileSync(path, 'utf8');
    const result = parseManifest(text);
    remember(path, st, result); // stamped as before the read: a write during it changes the ctime
    return result && { ...result, files: [...result.files] };
  } catch {
    return undefined;
  }
}

function parseManifest(text: string): ListedFiles | undefined {
  let j: any;
  try {
    j = JSON.parse(text);
  } catch {
    return undefined;
  }
  return manifestFiles(j);
}

/**
 * The manifest just written at path (its text is JSON.stringify(manifest)): what readManifest would parse, kept
 * for the stat it has now, so the next build's first inspection does not parse it again.
 */
export function rememberManifest(path: string, manifest: unknown): void {
  try {
    remember(path, lstatSync(path, { bigint: true }), manifestFiles(manifest));
  } catch {
    // not kept: the next build reads it
  }
}


interface ListedFiles {
  files: string[];
  /** Absent in manifests written before checks existed (then name and kind alone decide). */
  checks?: Map<string, FileCheck>;
}

function manifestFiles(j: any): ListedFiles | undefined {
  if (!ours(j)) return undefined;
  // Manifests before `files` existed: the resources' files and the streaming plan.
  const listed: unknown[] = Array.isArray(j.files) ? j.files : [...(Array.isArray(j.resources) ? j.resources.map((r: any) => r?.file) : []), ...(j.streamingPlan ? ['streaming-plan.json'] : [])];
  const files = listed.filter(isPlainName).filter((n) => n !== MANIFEST_FILE);
  if (j.checks === undefined) return { files };
  const checks = new Map<string, FileCheck>();
  if (j.checks && typeof j.checks === 'object') {
    for (const [name, c] of Object.entries(j.checks as Record<string, any>)) {
      if (isPlainName(name) && Number.isSafeInteger(c?.bytes) && c.bytes >= 0 && typeof c?.crc32 === 'string' && CRC32_HEX.test(c.crc32)) checks.set(name, { bytes: c.bytes, crc32: c.crc32 });
    }
  }
  return { files, checks };
}

/** The names a build gives the files it writes (a resource, the streaming plan, the report) and what each starts with. */
export const WRITTEN_KIND: [RegExp, (head: Uint8Array) => boolean][] = [
  [/^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.physics$/, (h) => identify(h) === 'physics'],
  [/^streaming-plan\.json$/, (h) => Buffer.from(h.subarray(0, 16)).toString('latin1').trimStart().startsWith('{')],
  [/^report\.html$/, (h) => Buffer.from(h.subarray(0, 15)).toString('latin1').toLowerCase() === '<!doctype html>'],
];

export const sha256Hex = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

const hex8 = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');

/** Verdicts of ownedFile by path and stat stamp: a build inspects its output up to four times. */
interface Verdict {
  /** The file's stat stamp when checked (stampOf). */
  stamp: string;
  /** The CRC-32 it was checked against ('' for a manifest without checks: name and kind alone). */
  crc: string;
  /** Why it may not be removed; undefined: ours. */
  why: string | undefined;
  /** Its sha256, when known (a resource): what the cache links by. */
  sha?: string;
}
export const verdicts = new Map<string, Verdict>();

/** Remembers a verdict, the oldest dropped past VERDICTS_KEPT. */
export function rememberVerdict(path: string, v: Verdict): void {
  verdicts.delete(path);
  verdicts.set(path, v);
  while (verdicts.size > VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!);
}
const VERDICTS_KEPT = 100_000;

/**
 * Why the listed file `name` in `dir` may not be removed, or undefined when it is provably one this tool wrote:
 * a plain file (not followed), named as a build names its files, whose first bytes are of that kind, and whose size
 * and CRC-32 are what the manifest recorded (a manifest without checks: name and kind alone).
 */
function ownedFile(dir: string, name: string, listed: ListedFiles): string | undefined {
  const kind = WRITTEN_KIND.find(([re]) => re.test(name));
  if (!kind) return 'listed, but not a name compile-collision writes';
  const path = join(dir, name);
  let st: BigIntStats;
  try {
    st = lstatSync(path, { bigint: true });
  } catch {
    return 'listed, but gone';
  }
  if (!st.isFile()) return 'listed, but not a plain file';
  const check = listed.checks?.get(name);
  if (listed.checks && !check) return 'listed without a size and checksum';
  if (check && BigInt(check.bytes) !== st.size) return `listed as ${check.bytes} bytes, but ${st.size} bytes: changed since the build wrote it`;
  const stamp = stampOf(st), crc = check?.crc32 ?? '';
  const known = verdicts.get(path);
  if (known?.stamp === stamp && known.crc === crc) return known.why;
  let why: string | undefined;
  let sha: string | undefined;
  try {
    checkedReads.count++;
    const bytes = readFileSync(path);
    if (!kind[1](bytes)) why = 'listed, but not the kind of file its name says';
    else if (check && hex8(crc32(bytes)) !== check.crc32) why = 'listed, but its bytes are not what the build wrote (edited or replaced since)';
    // A resource's digest, for the cache to link it into the new output instead of writing its bytes again.
    else if (name.endsWith('.physics')) sha = sha256Hex(bytes);
  } catch (e) {
    why = `listed, but unreadable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  rememberVerdict(path, { stamp, crc, why, sha });
  return why;
}

/** @internal Output files read to check or digest them (tests: verdicts taken from a record read none). */
export const checkedReads = { count: 0 };

/** @internal Forgets every verdict and manifest of this process (tests: a fresh process). */
export function forgetChecked(): void {
  verdicts.clear();
  manifests.clear();
}

export const list = (names: string[], max = 12): string => names.slice(0, max).join(', ') + (names.length > max ? `, … ${names.length - max} more` : '');

/** What a rebuild of K would replace: the previous build's files (to remove) and the owned entries (to carry). */
export interface PreviousOutput {
  exists: boolean;
  /** Listed plain files present, then manifest.json last (its removal marks the old directory as done). */
  files: string[];
  owned: string[];
}

/**
 * Throws unless K is absent, empty, or a previous output whose every entry is a listed plain file, the manifest or
 * an owned entry; the message names the foreign entries.
 */
export function inspectOutput(outDir: string): PreviousOutput {
  let st;
  try {
    st = lstatSync(outDir);
  } catch {
    return { exists: false, files: [], owned: [] };
  }
  if (!st.isDirectory()) throw new Error(`publish: ${outDir} exists and is not a directory`);
  const entries = readdirSync(outDir, { withFileTypes: true });
  if (entries.length === 0) return { exists: true, files: [], owned: [] };
  const manifest = readManifest(outDir);
  if (!manifest) {
    throw new Error(`publish: ${outDir} exists and is not a compile-collision output (no manifest.json of this tool; it holds ${list(entries.map((e) => e.name).sort())}); refusing to replace it`);
  }
  const listed = new Set(manifest.files);
  const files: string[] = [];
  const owned: string[] = [];
  const foreign: string[] = [];
  for (const e of entries) {
    if (e.name === MANIFEST_FILE) continue;
    if (OWNED_ENTRIES.includes(e.name) && e.isDirectory()) owned.push(e.name);
    else if (!listed.has(e.name)) foreign.push(e.name);
    else {
      const why = ownedFile(outDir, e.name, manifest);
      if (why === undefined) files.push(e.name);
      else foreign.push(`${e.name} (${why})`);
    }
  }
  if (foreign.length) {
    throw new Error(
      `publish: ${outDir} holds ${foreign.length} entr${foreign.length === 1 ? 'y' : 'ies'} the previous build did not write: ${list(foreign.sort())}; ` +
        `refusing to replace it (a rebuild removes only files its ${MANIFEST_FILE} lists that are still as it wrote them: move the others out or choose another -o)`,
    );
  }
  return { exists: true, files: [...files.sort(), MANIFEST_FILE], owned };
}
