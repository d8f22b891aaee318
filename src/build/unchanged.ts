// A rebuild with nothing changed (the rebuild-time goal): when the level file, every option that can change a byte, and
// the tool's code are what the last build of this output used, and the output is still exactly what that build
// wrote, nothing is redone: the build only proves it and returns the last build's result, its warnings given again.
//
// The proof, each part checked from disk (nothing there is trusted):
// - the level file's sha256 equals the manifest's input digest (computed over the file and its external buffers:
//   a .gltf with separate .bin files never matches, so it always builds — correct, only slower);
// - the build key (options that reach the output, the bytes of files they name, the code fingerprint) equals the one
//   recorded beside the cache in `build-<out>.json` after the last successful publish;
// - manifest.json is the one that build wrote (its size and CRC-32 recorded), and every file it lists is present
//   and passes src/output/ownership.ts's ownership check (name, kind, size and CRC-32 as recorded).
// Any miss, or an unreadable or odd record, is an ordinary build. With the cache off (`--no-cache`) nothing is
// recorded or skipped.
//
// The record also keeps each output file's verdict (src/output/verdicts.ts keptVerdicts: its stat stamp, CRC-32 and
// sha256), so that the next process checks a file it finds with the same stamp without reading it (the 1M bench
// level: ~100 ms of reading and hashing 42 MB at every build). Taken only from a record that can only be ours
// (readOwnFile: owned by this user, writable by no one else, not a link; never on Windows). Beside the record goes
// the build's validation pass (src/import/validate-store.ts), read back under the same rule.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOwnFile, readRegularFile } from '../files.ts';
import { checkOf, type FileCheck } from '../output/file-write.ts';
import { writeJson } from '../output/json-file.ts';
import { MAX_LEVEL_BYTES } from '../import/gltf.ts';
import { MAX_STORE_BYTES } from '../import/validate-store.ts';
import { WASM_SOURCE_SHA256 } from '../geometry/wasm.generated.ts';
import type { Manifest } from './manifest.ts';
import type { ImportStats } from '../model.ts';
import { inspectOutput, MANIFEST_FILE, type PreviousOutput } from '../output/ownership.ts';
import { adoptVerdicts, keptVerdicts, type KeptVerdict } from '../output/verdicts.ts';
import { hashSources, TOOL_VERSION } from '../version.ts';

/** Bumped when the record's form or the key's recipe changes. */
const RECORD_FORMAT = 1;
/** Largest build record read (bytes): it holds one decision per object; 500,000 objects (MAX_SCENE_OBJECTS) fit. */
const MAX_RECORD_BYTES = 128 << 20;

/** What the last build recorded, beside the cache, for the next one to prove nothing changed. */
export interface BuildRecord<R> {
  format: number;
  key: string;
  manifest: FileCheck;
  /** The level file's stat when it was read (device, inode, size, mtime): a file with another needs no digest to miss. */
  input?: string;
  /** The parts of the build's result the manifest does not hold. */
  result: R;
  /** The output files' verdicts for the next process (src/output/verdicts.ts keptVerdicts). */
  files?: KeptVerdict[];
}

/** Options that never change a byte of the output: left out of the key. */
const NOT_IN_KEY = new Set(['out', 'workers', 'cache', 'lockWaitMs', 'dryRun', 'studioTemplate']);

/** JSON with object keys sorted, so that equal options give equal text whatever order they were spread in. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
    return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  if (v instanceof Uint8Array) return JSON.stringify(createHash('sha256').update(v).digest('hex'));
  return JSON.stringify(v) ?? 'null';
}

let code: string | undefined;

/**
 * sha256 over the tool version, the wasm module's source hash and every module of the compiler (src/ as sources
 * or as the compiled package, recursively; or the bundle this runs from): any change to the code is a new key.
 */
export function codeFingerprint(): string {
  if (code) return code;
  const h = createHash('sha256').update(`${RECORD_FORMAT}\0${TOOL_VERSION}\0${WASM_SOURCE_SHA256}\0`);
  const self = fileURLToPath(import.meta.url);
  // src/ (or dist/src/) from src/build/; a bundle's folder holds no format/ beside it.
  const root = dirname(dirname(self));
  let tree = false;
  try {
    tree = lstatSync(join(root, 'format')).isDirectory();
  } catch {
    // a bundle: its own bytes are the code
  }
  if (!tree) h.update(readFileSync(self));
  else hashSources(h, root, true);
  return (code = h.digest('hex'));
}

/**
 * The build key: every option that reaches the output, the bytes of every file an option names (the Studio
 * template, a material map: by digest, in a fixed order), the code.
 */
export function buildKey(options: object, files: Uint8Array[]): string {
  const kept = Object.fromEntries(Object.entries(options).filter(([k]) => !NOT_IN_KEY.has(k)));
  const digests = files.map((f) => createHash('sha256').update(f).digest('hex')).join(',');
  return createHash('sha256').update(`${canonical(kept)}\0${digests}\0${codeFingerprint()}`).digest('hex');
}

/** Where the record of the last build of `outDir` lives in a cache directory. */
export const recordPath = (cacheDir: string, outDir: string): string => join(cacheDir, `build-${createHash('sha256').update(outDir).digest('hex').slice(0, 24)}.json`);

/**
 * Writes `path` through a random temporary beside it and a rename (mode 0644, so readOwnFile takes it): `fill` gets
 * the temporary's descriptor, created before anything it stats, and gives the bytes, or null for none. On any
 * failure, or none, neither the temporary nor an older `path` survives: a stale file never describes a build it
 * was not written for. A failure only costs the next build time.
 */
function replaceBeside(path: string, fill: (fd: number) => string | Uint8Array | { json: unknown } | null): void {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o644);
    const bytes = fill(fd);
    if (bytes === null) throw new Error('none');
    if (typeof bytes === 'object' && 'json' in bytes) writeJson(fd, bytes.json);
    else writeFileSync(fd, bytes);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch {
    if (fd !== undefined) closeSync(fd);
    for (const p of [tmp, path]) {
      try {
        unlinkSync(p);
      } catch {
        // none
      }
    }
  }
}

/** Writes the record of a build just published; a failure only costs the next build its shortcut. */
export function writeRecord<R>(cacheDir: string, outDir: string, key: string, result: R, input: string, files: readonly string[]): void {
  replaceBeside(recordPath(cacheDir, outDir), (fd) => {
    const manifest = checkOf(readFileSync(join(outDir, MANIFEST_FILE)));
    // The temporary's change time is the file system's clock at a moment before the files' stats (keptVerdicts).
    const record: BuildRecord<R> = { format: RECORD_FORMAT, key, manifest, input: inputStamp(input), result, files: keptVerdicts(outDir, files, fstatSync(fd, { bigint: true })) };
    return { json: record }; // streamed (src/output/json-file.ts): one decision an object, ~40 MB of text at 64M
  });
}

/** A level file's stat as the record keeps it; '' when it cannot be read. */
function inputStamp(path: string): string {
  try {
    const st = lstatSync(path, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return '';
  }
}

/** Drops the record (a build that failed or changed the output without one). */
export function dropRecord(cacheDir: string, outDir: string): void {
  try {
    unlinkSync(recordPath(cacheDir, outDir));
  } catch {
    // none
  }
}

/**
 * The record of the last build of `outDir` in `cacheDir`, or undefined (none, unreadable, another format). From a
 * record that can only be ours (readOwnFile), the output files' verdicts are taken (src/output/verdicts.ts adoptVerdicts):
 * call it before the output is first inspected.
 */
export function readRecord<R>(cacheDir: string, outDir: string): BuildRecord<R> | undefined {
  const path = recordPath(cacheDir, outDir);
  try {
    const own = readOwnFile(path, MAX_RECORD_BYTES);
    const record = JSON.parse(Buffer.from(own ?? readRegularFile(path, MAX_RECORD_BYTES)).toString('utf8'));
    if (record?.format !== RECORD_FORMAT || typeof record.key !== 'string') return undefined;
    if (own) adoptVerdicts(outDir, record.files);
    return record;
  } catch {
    return undefined;
  }
}

/**
 * The last build's manifest and recorded result when nothing changed since it (see the file header), else
 * undefined. Reads the level file once (its digest). `record`: readRecord's; `inspected`: inspectOutput's result
 * for outDir when the caller has just taken it (the output locked since), else it is inspected here.
 */
export function unchangedSince<R>(record: BuildRecord<R> | undefined, outDir: string, input: string, key: string, inspected?: PreviousOutput): { manifest: Manifest; result: R } | undefined {
  let manifestBytes: Uint8Array;
  try {
    if (record?.key !== key || !record.manifest || !record.result) return undefined;
    // Another stat: edited (or touched: then this build is an ordinary one, which is never wrong). The same stat
    // proves nothing by itself: the digest below does.
    if (record.input !== undefined && record.input !== inputStamp(input)) return undefined;
    manifestBytes = readRegularFile(join(outDir, MANIFEST_FILE), MAX_RECORD_BYTES);
  } catch {
    return undefined;
  }
  const now = checkOf(manifestBytes);
  if (now.bytes !== record.manifest.bytes || now.crc32 !== record.manifest.crc32) return undefined;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(Buffer.from(manifestBytes).toString('utf8'));
    if (!Array.isArray(manifest?.files) || !manifest.checks || typeof manifest.input?.sha256 !== 'string') return undefined;
    // Every listed file present and as written (inspectOutput refuses any that is not; a missing one it cannot see).
    const prev = inspected ?? inspectOutput(outDir);
    const present = new Set(prev.files);
    if (!manifest.files.every((f) => present.has(f))) return undefined;
    const digest = createHash('sha256').update(readRegularFile(input, MAX_LEVEL_BYTES)).digest('hex');
    if (digest !== manifest.input.sha256) return undefined;
  } catch {
    return undefined;
  }
  return { manifest, result: record.result };
}

/** What the record keeps of a build's result besides its manifest. */
export interface RecordedResult {
  importStats: ImportStats;
  objects: unknown[];
  workers: number;
}

/** Where the validation pass of the last build of `outDir` lives beside its record (src/import/validate-store.ts). */
export const validationPath = (cacheDir: string, outDir: string): string => recordPath(cacheDir, outDir).replace(/\.json$/, '.validation.bin');

/** The last build's validation pass, from a file that can only be ours (readOwnFile), or undefined. */
export function readValidationPass(cacheDir: string, outDir: string): Uint8Array | undefined {
  return readOwnFile(validationPath(cacheDir, outDir), MAX_STORE_BYTES);
}

/** Writes (or, with none, removes) the validation pass beside the record; a failure only costs the next build time. */
export function writeValidationPass(cacheDir: string, outDir: string, bytes: Uint8Array | null): void {
  replaceBeside(validationPath(cacheDir, outDir), () => bytes);
}
