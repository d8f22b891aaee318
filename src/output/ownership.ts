// Publishing a build's output directory K safely: what a rebuild may remove, the atomic and recoverable swap,
// where -o really points. House rules (CONTEXT "Errors"): outputs published atomically and recoverably; nothing
// outside what we wrote is ever deleted. The library never prints: findings go to the logger.
//
// Rules (docs/cli.md "The output directory"):
// - K's manifest.json lists every file the build wrote (`files`) with its size and CRC-32 (`checks`). A rebuild
//   removes a listed file only when it is provably ours (ownedFile: a plain file directly inside K, named as a build
//   names its files, its first bytes of the kind that name says, its size and CRC-32 as recorded) and the manifest;
//   any other entry makes the build refuse, naming the entries. A forged manifest cannot widen that.
// - One build of K at a time: lockOutput's `.K.lock` sibling (O_EXCL, holder's pid); a dead holder's lock is
//   taken over, a live one waited for, then refused naming the pid.
//   A directory without our manifest is replaced only when it is empty. OWNED_ENTRIES (issue #17's `.cache/`) are
//   the tool's own: never foreign, moved (not copied) into the new output on swap.
// - The build writes into a sibling `.K.tmp-<pid>-<random>` holding STAGING_MARKER until it is complete. The swap:
//   K → `.K.old-<pid>-<random>`, owned entries carried over, the marker dropped, temp → K, the old listed files and
//   manifest removed, then its directory. recoverOutput (run before every build) repairs any interruption: with K
//   missing it finishes the swap from a complete temp directory or restores the old one; then it removes the stale
//   temp/old siblings that are ours (the pid in the name is not alive), file by file, and warns about what is left.
// - -o may be a symbolic link to a directory: the output is published into the link's target (the link stays).
import { closeSync, linkSync, openSync, lstatSync, type BigIntStats, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { checkOf, isInside, writeSpan, type FileCheck } from '../files.ts';
import { writeJson } from './json-file.ts';

export { checkOf, type FileCheck };
import { identify } from '../format/identify.ts';

export const MANIFEST_FILE = 'manifest.json';

/**
 * Entries of an output directory the tool owns besides the files its manifest lists: issue #17's incremental cache.
 * Never foreign, never deleted by a rebuild; moved into the new output on swap.
 */
export const OWNED_ENTRIES: readonly string[] = ['.cache'];

/** Written into a temporary output directory when it is created and dropped just before it becomes K. */
export const STAGING_MARKER = '.compile-collision-staging';

/**
 * Names a build writes (besides those its manifest lists): what a stale temporary or old directory of ours may
 * hold. Removing one deletes only plain files named so (or listed in its manifest); anything else stays.
 */
const WRITTEN_NAME = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\.physics|manifest\.json|streaming-plan\.json|report\.html|\.compile-collision-staging)$/;

/** Points of the swap, for tests that kill the process there (CompileHooks.onPublishStep). */
export type PublishStep = 'staged' | 'old-moved' | 'owned-carried' | 'new-in-place' | 'old-removed';

export interface PublishLogger {
  warn(message: string): void;
}

const ours = (j: unknown): boolean => (j as { tool?: { name?: unknown } } | null)?.tool?.name === 'compile-collision';

/** A file name directly inside a directory: no separators, not `.`/`..`, no NUL. */
/** A manifest's (and a kept verdict's) CRC-32: 8 lowercase hex digits. */
const CRC32_HEX = /^[0-9a-f]{8}$/;
const isPlainName = (n: unknown): n is string => typeof n === 'string' && n !== '' && n !== '.' && n !== '..' && !/[/\\\0]/.test(n);

/**
 * The manifests last read, by path and stat (inode, size, change and modification times): a build inspects its
 * output up to four times (src/compile.ts, Staging, commit), and the 1M bench level's manifest is ~380 KB of JSON.
 * Any write to the file changes its ctime, so a changed manifest is always read again.
 */
const manifests = new Map<string, { stamp: string; result: ListedFiles | undefined }>();
/** Paths remembered at most (an output and its old copy while it is removed, for a few outputs). */
const MANIFESTS_KEPT = 8;

/** A file's stamp: device, inode, size, change and modification times (ns). */
const stampOf = (st: BigIntStats): string => `${st.dev}:${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}`;

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

function readManifest(dir: string): ListedFiles | undefined {
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
function rememberManifest(path: string, manifest: unknown): void {
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
const WRITTEN_KIND: [RegExp, (head: Uint8Array) => boolean][] = [
  [/^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.physics$/, (h) => identify(h) === 'physics'],
  [/^streaming-plan\.json$/, (h) => Buffer.from(h.subarray(0, 16)).toString('latin1').trimStart().startsWith('{')],
  [/^report\.html$/, (h) => Buffer.from(h.subarray(0, 15)).toString('latin1').toLowerCase() === '<!doctype html>'],
];

const sha256Hex = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

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
const verdicts = new Map<string, Verdict>();

/** Remembers a verdict, the oldest dropped past VERDICTS_KEPT. */
function rememberVerdict(path: string, v: Verdict): void {
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

/**
 * The sha256 of `name` in the output directory `dir` as this process checked it (ownedFile, or recordChecks when
 * it published it), if the file is still the one checked (same stat stamp): what lets the cache link a resource of
 * the previous output into the new one (src/cache.ts take) rather than create a file for the same bytes.
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
 * A verdict as the build record keeps it for the next process (src/unchanged.ts): the file's name in the output, its
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
 * (ours, not writable by others, src/unchanged.ts readRecord). Malformed entries are skipped; this process's own
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

/** @internal Output files read to check or digest them (tests: verdicts taken from a record read none). */
export const checkedReads = { count: 0 };

/** @internal Forgets every verdict and manifest of this process (tests: a fresh process). */
export function forgetChecked(): void {
  verdicts.clear();
  manifests.clear();
}

const list = (names: string[], max = 12): string => names.slice(0, max).join(', ') + (names.length > max ? `, … ${names.length - max} more` : '');

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

const tempPrefix = (outDir: string): string => `.${basename(outDir)}.tmp-`;
const oldPrefix = (outDir: string): string => `.${basename(outDir)}.old-`;

function alive(pid: number): boolean {
  if (pid === process.pid) return true; // another build of this process (we are not stale)
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
function removeStale(dir: string, logger: PublishLogger): void {
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
  const lock = lockPath(outDir);
  const holder = readLock(lock);
  if (holder && holder !== 'torn' && (holder.pid === -1 || (holder.host === hostname() && !alive(holder.pid)))) {
    takeOver(lock, holder);
    if (!exists(lock)) done.push(`removed the lock of a build that is gone (${holder.pid === -1 ? 'torn' : `pid ${holder.pid}`})`);
  }
  for (const m of done) logger.warn(`publish: ${outDir}: ${m}`);
  return done;
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
      // Streamed (src/json-file.ts): the 64M bench level's manifest is ~32 MB of text, written at the build's peak.
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
