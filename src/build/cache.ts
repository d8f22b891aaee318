// Incremental rebuilds: a content-addressed cache of built resources. A resource job's key (cache-key.ts) is a sha256
// over everything that determines its bytes — every array it reads (positions after the node transforms, indices,
// a cell's runs over its source objects), each group's material word, any other field a job or group carries (so
// data added to jobs later is part of the key without a change here), the encoder options (header word and body,
// split rule) and the encoder's code (tool version, the WebAssembly module's source hash, and the contents of the
// modules that build a resource). Not in it: the job's name, cell and source names, which only the manifest
// reports. Equal keys mean equal bytes as encoded, so a rebuild after an edit re-encodes only the jobs whose inputs
// changed and is byte for byte a clean build (test/compile/cache.test.ts). The level-wide seams (src/tiling/seams.ts)
// are stored into the bytes after the cache, every build: an entry keeps the resource's open corners, and its bytes
// may hold the joins of the build that wrote them (the seams step rewrites every listed corner, so that is harmless).
//
// Layout of a cache directory (default `<out>/.cache`, which src/output/ treats as the tool's own and moves into
// each new output): `r/pack-….bin` (the resources' bytes, appended by each build into packs of its own: a copy,
// never a hard link shared with a published file; src/output/cache-pack.ts), `index.json` (per key the manifest numbers,
// the entry's pack, offset, size, sha256 and fingerprint, where its record is, a seal over these, and the build
// that last used it) and `lists-<build>-….bin` (each entry's record: its open corners and the codes its bytes
// hold, binary). Nothing in it is trusted: an entry is taken only as a slice of a plain file that
// hashes to its sha256, with an index line that matches its seal, else it is a miss, counted as rejected; keys
// are hex digests and pack names of one shape only, never paths; a foreign --cache folder is refused. The seal is an
// HMAC keyed by the user's own secret (src/build/user-key.ts), so only the user's builds can seal a line, and a cache
// folder owned by another user or writable by other users is refused by name (docs/cli.md, "Cache"). Entries not
// used by the last KEEP_BUILDS builds are dropped; a pack no entry names is removed, and one whose entries fill
// less than COMPACT_BELOW of it is compacted (its entries copied into this build's pack).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resourceFile, type BuiltResource, type EncodeOptions, type ResourceJob, type ResourceOpen } from '../tiling/build.ts';
import { linkFromPrevious, previousDigest } from '../output/verdicts.ts';
import type { FileCheck } from '../output/file-write.ts';
import { readRegularFile, whatIsNot } from '../files.ts';
import { userKey } from './user-key.ts';
import { fingerprint } from '../tiling/unique.ts';
import { sameCodes } from '../tiling/seams.ts';
import { isSlice, PACK_NAME, PackWriter, readSlice, type PackSlice } from '../output/cache-pack.ts';
import { CACHE_FORMAT, encoderFingerprint, KeyHasher, NOT_IN_KEY, type KeyMemo } from './cache-key.ts';
import { SEAM_NONE } from '../geometry/edge-rule.ts';

/** The cache directory's name inside an output directory (one of src/output/ownership.ts's OWNED_ENTRIES). */
export const CACHE_ENTRY = '.cache';
/** Entries are kept while one of the last this many builds used them (an edit undone still hits). */
export const KEEP_BUILDS = 2;
/**
 * A pack whose kept entries fill less than this share of it is compacted at finish: its entries are copied
 * (checked) into this build's pack and it is removed, so the packs hold at most ~2× the bytes of the kept entries.
 */
export const COMPACT_BELOW = 0.5;

const INDEX = 'index.json';
/** Largest index read (bytes): ~600 bytes a line; 500,000 objects' cells fit. Past it, the cache starts empty. */
const MAX_INDEX_BYTES = 512 << 20;
/** Largest lists file read (bytes): 44+ bytes an open corner; the 64M bench level's is ~130 MB. */
const MAX_LISTS_BYTES = 1 << 30;
/** Names of lists files (IndexFile.lists). */
const LISTS_NAME = /^lists-\d+-\d+-[0-9a-f]{8}\.bin$/;
const ENTRIES = 'r';

/** What the manifest needs of a resource besides its bytes (and its open corners, kept apart). */
type Meta = Omit<BuiltResource, 'name' | 'file' | 'cell' | 'bytes' | 'sources' | 'open'>;

interface IndexEntry {
  meta: Meta;
  /**
   * Where the entry's record is in the lists file (byte offset, length): the resource's open corners
   * (BuiltResource.open) and the seams codes its bytes hold for them (packRecord). `pending`: this build's, packed
   * only when finish writes it (put and settle may both give one).
   */
  list: [number, number];
  pending?: { open: ResourceOpen; codes: Float32Array | null };
  /** The entry's bytes' fingerprint (src/tiling/unique.ts). */
  fp: number;
  /**
   * Where the bytes are: a pack in the entries folder (its name) and offset; or, in an output's own cache
   * (outputRefs), `file`: the output's resource file that holds them (copied into a pack before a rebuild replaces it).
   */
  pack?: string;
  at?: number;
  file?: string;
  size: number;
  used: number;
  /** sha256 (hex) of the entry's bytes: an entry is taken only when its slice hashes to it. */
  sha: string;
  /**
   * HMAC-SHA256 (hex), keyed by the user's secret, over the key, sha, meta, fp, size and the record (sealOf):
   * metadata edited in the index, or a line moved to another key, is a miss too, and cannot be sealed again
   * without the secret.
   */
  seal?: string;
}

/** A cache key or a digest as the index may hold it: 64 lower-case hex digits, never a path. */
const HEX64 = /^[0-9a-f]{64}$/;
/** A resource file of the output an entry may name (a plain name, never a path). */
const OUTPUT_FILE = /^(?!\.)[^/\\\0]{1,240}\.physics$/;
/** Whether an index line says where its bytes are: a pack slice, or a resource file of the output. */
const isPlace = (e: IndexEntry): boolean => (e.file === undefined ? isSlice(e) : e.pack === undefined && typeof e.file === 'string' && OUTPUT_FILE.test(e.file) && Number.isSafeInteger(e.size) && e.size > 0);
/** An entry file's name in cache formats before 6 (one file an entry): removed by finish's sweep. */
const ENTRY_NAME = /^[0-9a-f]{64}\.physics$/;

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/**
 * What ties an entry's index line to its key and bytes: the key, the bytes' digest, the reused metadata and the
 * record, under an HMAC with the user's secret (src/build/user-key.ts): a plain digest could be recomputed by whoever
 * edits the index.
 */
function sealOf(key: string, e: IndexEntry, rec: Uint8Array): string {
  return createHmac('sha256', userKey().key).update(`${key}\0${e.sha}\0${e.fp}\0${e.size}\0${JSON.stringify(e.meta)}\0`).update(rec).digest('hex');
}

/**
 * A cache folder is used only when no one but the user could have put anything in it: a real folder (not a
 * link), owned by this user, with no group or other write bits. Every hit is checked against the user's seal
 * anyway; this keeps another user's planted files (and their deletion of ours) out altogether. The output's own
 * `.cache`, when this user's, is made 0700 instead (an older build under umask 002 made it 0775). Where Node
 * reports no owner (Windows) only the link check applies.
 */
export function checkCacheFolder(dir: string, own: boolean): void {
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`cache: ${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; refusing to use it as a cache`);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid === undefined) return;
  if (st.uid !== uid) throw new Error(`cache: ${dir} is owned by another user (uid ${st.uid}); refusing to use it (entries there could have been planted: give a folder of your own)`);
  const mode = st.mode & 0o777;
  if ((mode & 0o022) === 0) return;
  if (own) {
    chmodSync(dir, 0o700);
    return;
  }
  throw new Error(`cache: ${dir} is writable by ${mode & 0o002 ? 'every user' : 'its group'} (mode ${mode.toString(8).padStart(4, '0')}); refusing to use it (entries there could have been planted: \`chmod go-w\` it, or give a folder of your own)`);
}

interface IndexFile {
  format: number;
  builds: number;
  entries: Record<string, IndexEntry>;
  /**
   * The lists file beside the index (`lists-<build>-<writer>.bin`: a name of its own for each build that writes
   * one, so two builds sharing a --cache directory never leave an index naming the other's records): every entry's
   * record, one after another.
   */
  lists: string;
}

/**
 * An entry's record: u32 words n, m, joined (0/1), then shape and corner (n each), the points (9n, f32 bits), the
 * edge arrays' places (m) and, when joined, the codes the entry's bytes hold (n f32; else every corner is open).
 * Binary in a file of its own, not in index.json: 44+ bytes a corner (the 1M bench level's 47,456 corners, a triangle
 * soup's millions) made the JSON index 3 MB to 50 MB, parsed and written every build.
 */
function packRecord(o: ResourceOpen, codes: Float32Array | null): Uint8Array {
  const n = o.corner.length, m = o.arrays.length;
  const joined = codes !== null && codes.some((c) => c !== SEAM_NONE);
  const words = new Uint32Array(3 + 11 * n + m + (joined ? n : 0));
  words[0] = n;
  words[1] = m;
  words[2] = joined ? 1 : 0;
  words.set(o.shape, 3);
  words.set(o.corner, 3 + n);
  words.set(new Uint32Array(o.points.buffer, o.points.byteOffset, 9 * n), 3 + 2 * n);
  words.set(o.arrays, 3 + 11 * n);
  if (joined) words.set(new Uint32Array(codes!.buffer, codes!.byteOffset, n), 3 + 11 * n + m);
  return new Uint8Array(words.buffer);
}

/** packRecord's open corners and codes (null: none joined) back, or undefined for a damaged record (a miss). */
function unpackRecord(b: Uint8Array | undefined): { open: ResourceOpen; codes: Float32Array | null } | undefined {
  if (!b || b.length < 12 || b.length % 4 !== 0) return undefined;
  const words = new Uint32Array(b.length / 4);
  new Uint8Array(words.buffer).set(b);
  const n = words[0], m = words[1], joined = words[2];
  if (m % 4 !== 0 || joined > 1 || words.length !== 3 + 11 * n + m + joined * n) return undefined;
  const end = 3 + 11 * n + m;
  return {
    open: {
      shape: words.slice(3, 3 + n),
      corner: words.slice(3 + n, 3 + 2 * n),
      points: new Float32Array(words.slice(3 + 2 * n, 3 + 11 * n).buffer),
      arrays: words.slice(3 + 11 * n, end),
    },
    codes: joined ? new Float32Array(words.slice(end, end + n).buffer) : null,
  };
}

/**
 * Gives a resource linked from the previous output its bytes when first asked (the seams step, when its codes
 * change): read from `path`, the output's name for that inode before the swap (the old file) and after it (the
 * new one).
 */
function lazyBytes(r: BuiltResource, path: string): BuiltResource {
  let bytes: Uint8Array | undefined;
  Object.defineProperty(r, 'bytes', {
    configurable: true,
    enumerable: true,
    get: () => (bytes ??= new Uint8Array(readFileSync(path))),
    set: (v: Uint8Array) => void (bytes = v),
  });
  return r;
}

/** What an index entry's metadata leaves out of a built resource: the job's own (name, file, cell, sources), the bytes and what is known of them, and the open corners (kept in the record). */
const NOT_META = new Set(['name', 'file', 'cell', 'bytes', 'sources', 'open', 'size', 'fingerprint', 'check', 'sha256']);

export class ResourceCache {
  private index: IndexFile;
  private hasher = new KeyHasher();
  private used = new Map<string, IndexEntry>();
  /** The codes each entry taken this build holds (null: none joined). */
  private held = new Map<string, Float32Array | null>();
  /** This build's packs: `<packBase>-<unit>.bin` (src/output/cache-pack.ts PACK_NAME). */
  private readonly packBase: string;
  /** The pack of the entries settled on this thread (hits whose joins changed), made on first need. */
  private mainPack?: PackWriter;
  /** When this cache was opened (ms since the epoch): finish leaves unnamed packs newer than this (another build's, still writing). */
  private readonly openedAt = Date.now();
  /** Hits and misses of this build (for the summary and tests). */
  readonly stats = { hits: 0, misses: 0, rejected: 0 };
  /** The output directory being rebuilt, whose checked files take() may link instead of writing (src/output/verdicts.ts previousDigest). */
  previous?: string;
  /**
   * The cache is the output's own (`<out>/.cache`): an entry of this build names the output file holding its bytes
   * instead of a copy in a pack (no second copy of every resource), and a rebuild copies into its pack only the
   * entries it keeps whose files it replaces (preserve). Off for --cache DIR, which may serve other outputs.
   */
  outputRefs = false;

  /** The lists file the index names, as read (records of entries from earlier builds). */
  private lists: Uint8Array;

  private constructor(readonly dir: string) {
    this.index = ResourceCache.readIndex(dir);
    this.packBase = `pack-${this.index.builds + 1}-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      this.lists = this.index.lists ? readRegularFile(join(dir, this.index.lists), MAX_LISTS_BYTES) : new Uint8Array(0);
    } catch {
      this.lists = new Uint8Array(0); // gone: every entry's record is unreadable, so every entry misses
    }
  }

  /**
   * Opens (creating) a cache directory; an unreadable or foreign index starts empty. `own`: the output's own
   * `.cache` (the tool's folder: one this user owns with group or other write bits is made 0700); else a
   * --cache folder, refused when owned by another user or writable by group or others.
   */
  static open(dir: string, own = false): ResourceCache {
    // A folder that holds files and no index of ours is someone else's: refused, never swept (`--cache`
    // at a user's folder deleted its files). The entries folder must be a real folder, not a link to one.
    const existing = (() => {
      try {
        return readdirSync(dir);
      } catch {
        return undefined;
      }
    })();
    if (existing && existing.length > 0 && !existing.includes(INDEX) && !existing.includes(ENTRIES)) {
      throw new Error(`cache: ${dir} is not empty and holds no cache of compile-collision (${existing.slice(0, 5).join(', ')}${existing.length > 5 ? ', …' : ''}); refusing to use it (give an empty or new folder)`);
    }
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      // A link loop, a file in the way, no permission: said in words, naming the folder.
      const not = whatIsNot(dir);
      const what = not === undefined ? 'a file' : not !== 'no such file' ? not : ((e as NodeJS.ErrnoException).code ?? (e as Error).message);
      throw new Error(`cache: ${dir} cannot be used as a cache folder: it is ${what}`);
    }
    checkCacheFolder(dir, own);
    mkdirSync(join(dir, ENTRIES), { recursive: true, mode: 0o700 });
    const st = lstatSync(join(dir, ENTRIES));
    if (!st.isDirectory()) throw new Error(`cache: ${join(dir, ENTRIES)} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}, not the cache's own entries folder; refusing to use it`);
    return new ResourceCache(dir);
  }

  private static readIndex(dir: string): IndexFile {
    try {
      // A plain file only (a FIFO planted there would block the read), of a bounded size.
      const j = JSON.parse(Buffer.from(readRegularFile(join(dir, INDEX), MAX_INDEX_BYTES)).toString('utf8'));
      if (j?.format === CACHE_FORMAT && typeof j.builds === 'number' && j.entries && typeof j.entries === 'object' && typeof j.lists === 'string' && LISTS_NAME.test(j.lists)) {
        // Keys become file names: only hex digests with a digest and a seal are entries; anything else is dropped.
        const entries: Record<string, IndexEntry> = Object.create(null);
        for (const [k, e] of Object.entries(j.entries as Record<string, IndexEntry>)) {
          if (HEX64.test(k) && e && typeof e === 'object' && typeof e.sha === 'string' && HEX64.test(e.sha) && typeof e.seal === 'string' && HEX64.test(e.seal) && isPlace(e)) entries[k] = e;
        }
        return { ...j, entries };
      }
    } catch {
      // none yet, or damaged: start empty (entries on disk without an index line are removed at finish)
    }
    return { format: CACHE_FORMAT, builds: 0, entries: {}, lists: '' };
  }

  /**
   * The job's key (see the file header). `digests`: a session's digests of shared arrays from earlier builds (the
   * 1M bench level's terrain, ~13 MB that every cell reads, took ~15–30 ms to digest each build).
   */
  key(job: ResourceJob, encode: EncodeOptions | undefined, digests?: WeakMap<ArrayBufferView, string>): string {
    this.hasher.kept = digests;
    const h = createHash('sha256').update(`${encoderFingerprint()}\0`);
    this.hasher.feed(h, encode ?? null);
    this.hasher.feed(h, job, NOT_IN_KEY);
    return h.digest('hex');
  }

  /** The pack a seams work unit appends its entries to (src/tiling/pool.ts runPatches). */
  packPath(unit: number | 'm' | 'c'): string {
    return join(this.dir, ENTRIES, `${this.packBase}-${unit}.bin`);
  }

  /**
   * The resource for key, published into dir as the job's file (a copy of its checked bytes), or undefined on a miss.
   */
  take(key: string, job: ResourceJob, dir: string): BuiltResource | undefined {
    const e = this.index.entries[key];
    if (!e) return this.miss();
    const rec = unpackRecord(this.recordOf(e));
    if (!rec || typeof e.fp !== 'number') return this.miss();
    const { open, codes } = rec;
    const file = resourceFile(job.name);
    // Nothing on disk is trusted: the index line must match its seal, and the entry is read from a plain
    // file (no link followed) as a slice that hashes to the index's digest; the output gets a copy of the checked
    // bytes, never a link to the pack, so an edit of the cache cannot reach a published file.
    // Or, better: the previous output's file with these very bytes (its sha256 checked by this process, the file
    // unchanged since; src/output/verdicts.ts linkFromPrevious) is linked into the new output and the entry not even read.
    // Creating 448 files costs 0.5 s of CPU on an ext4 that recently deleted many (the old outputs); a link creates
    // no inode. The new file shares its inode with the old output only until the swap removes that, never with the
    // cache entry. Its bytes are read only if asked for (lazyBytes).
    let bytes: Uint8Array | undefined;
    let check: FileCheck | undefined;
    try {
      if (sealOf(key, e, this.recordOf(e)!) !== e.seal) return this.reject(key);
      check = this.previous ? linkFromPrevious(this.previous, file, dir, e.sha) : undefined;
      if (!check) {
        if (e.file !== undefined) {
          bytes = this.outputBytes(e);
          if (!bytes) return this.drop(key); // the output's file is gone or changed: the entry with it
        } else {
          bytes = readSlice(join(this.dir, ENTRIES, e.pack!), e.at!, e.size);
          if (!bytes || sha256(bytes) !== e.sha) return this.reject(key);
        }
        writeFileSync(join(dir, file), bytes, { flag: 'wx' });
      }
    } catch {
      return this.miss();
    }
    // In an output's own cache the entry now lives in this output's file (its bytes, linked or written here).
    this.used.set(key, this.outputRefs ? { ...e, pack: undefined, at: undefined, file } : e);
    this.held.set(key, codes);
    this.stats.hits++;
    const r = { ...e.meta, name: job.name, file, cell: job.cell, sources: job.sources, open, size: e.size, fingerprint: e.fp, sha256: e.sha } as BuiltResource;
    return bytes ? Object.assign(r, { bytes }) : lazyBytes(Object.assign(r, { check }), join(this.previous!, file));
  }

  /** Bytes appended to this thread's pack (made on first need), or undefined when it cannot be written. */
  private appendHere(bytes: Uint8Array): PackSlice | undefined {
    return (this.mainPack ??= new PackWriter(this.packPath('m'))).append(bytes);
  }

  /** An output-file entry's bytes: the previous output's file as this process checked it, hashing to the entry's digest. */
  private outputBytes(e: IndexEntry): Uint8Array | undefined {
    if (!this.previous || previousDigest(this.previous, e.file!) !== e.sha) return undefined;
    const bytes = readSlice(join(this.previous, e.file!), 0, e.size);
    return bytes && sha256(bytes) === e.sha ? bytes : undefined;
  }

  /**
   * Before the publish replaces the previous output: the entries kept for later builds that name one of its files
   * and that this build did not use (their resources changed, so their files are replaced) are copied, checked,
   * into this build's pack; one whose file is gone or changed is dropped.
   */
  preserve(): void {
    const builds = this.index.builds + 1;
    for (const [k, e] of Object.entries(this.index.entries)) {
      if (e.file === undefined || this.used.has(k) || builds - e.used >= KEEP_BUILDS) continue;
      const bytes = this.outputBytes(e);
      const slice = bytes && this.appendHere(bytes);
      if (slice) this.index.entries[k] = { ...e, ...slice, file: undefined };
      else delete this.index.entries[k];
    }
  }

  /** An entry's record: this build's, or its place in the lists file read at open. */
  private recordOf(e: IndexEntry): Uint8Array | undefined {
    if (e.pending) return packRecord(e.pending.open, e.pending.codes);
    const [at, length] = Array.isArray(e.list) ? e.list : [-1, 0];
    if (!(Number.isSafeInteger(at) && Number.isSafeInteger(length) && at >= 0 && length >= 0 && at + length <= this.lists.length)) return undefined;
    return this.lists.subarray(at, at + length);
  }

  /** Whether the entry taken for key holds these seams codes (null: none joined), so its bytes need no change. */
  holds(key: string, codes: Float32Array | null, n: number): boolean {
    const have = this.held.get(key);
    return have !== undefined && sameCodes(have, codes, n);
  }

  /**
   * After the seams step: the entry for key (put or taken this build) becomes the resource's final bytes, holding
   * these codes: in an output's own cache (outputRefs), the output's file r.file; else `copied`, where a seams work
   * unit appended them (src/tiling/seams.ts patchUnit; null: that failed), or (undefined) appended here, to this
   * thread's pack, from r.bytes.
   */
  settle(key: string, r: BuiltResource, codes: Float32Array | null, copied?: PackSlice | null): void {
    const e = this.used.get(key);
    if (!e || r.parts === 0) return;
    try {
      const place = this.outputRefs
        ? { file: r.file, size: r.check?.bytes ?? r.bytes.length, pack: undefined, at: undefined }
        : copied === undefined ? this.appendHere(r.bytes) : copied && { ...copied, file: undefined };
      if (!place) throw new Error('not copied');
      // The caller keeps r.fingerprint and r.sha256 true to the bytes (src/tiling/build.ts noteBytes).
      const fp = r.fingerprint ?? fingerprint(r.bytes), sha = r.sha256 ?? sha256(r.bytes);
      this.used.set(key, { ...e, pending: { open: r.open, codes }, fp, ...place, sha });
    } catch {
      this.used.delete(key); // an entry that cannot be settled is not kept
    }
  }

  /** Whether the entry for key is settled from a seams work unit (a key put this build): hashed there, and appended to the unit's pack unless outputRefs. */
  wantsEntry(key: string): boolean {
    return this.used.has(key) && !this.held.has(key);
  }

  /** The pack a seams work unit appends its entries to, or undefined when entries name output files (outputRefs). */
  unitPack(unit: number): string | undefined {
    return this.outputRefs ? undefined : this.packPath(unit);
  }

  private miss(): undefined {
    this.stats.misses++;
    return undefined;
  }

  /** An entry whose output file is gone or changed: a miss, its line dropped. */
  private drop(key: string): undefined {
    delete this.index.entries[key];
    return this.miss();
  }

  /** An entry that failed its check: a miss, counted, and its line dropped (its pack goes once no line names it). */
  private reject(key: string): undefined {
    this.stats.rejected++;
    delete this.index.entries[key];
    return this.miss();
  }

  /** Records a resource built in this build (its file already written into dir) under key. */
  put(key: string, r: BuiltResource): void {
    if (r.parts === 0) return; // no file was written for it
    // Only what the index keeps of it: the bytes are copied in once, with their final codes, when settled (copying
    // them here too wrote every file twice, ~0.8 s of the 1M bench level's main thread on one machine's disk). An
    // entry never settled has no sha and no slice, and finish() keeps no line for it.
    // Picked key by key, never reading `bytes`: they are out of memory now and reading them would read the file.
    const meta: Record<string, unknown> = {};
    for (const k of Object.keys(r)) if (!NOT_META.has(k)) meta[k] = r[k as keyof BuiltResource];
    this.used.set(key, { meta: meta as IndexEntry['meta'], list: [0, 0], pending: { open: r.open, codes: null }, fp: 0, pack: '', at: 0, size: 0, used: 0, sha: '' });
  }

  /**
   * After the build is published: the index with this build's entries (and those the last KEEP_BUILDS builds
   * used), written atomically; packs no kept entry names removed, sparse ones compacted. `dir` is where the cache
   * is now (an output's cache moved with the swap).
   */
  finish(dir: string = this.dir): void {
    this.mainPack?.close();
    const builds = this.index.builds + 1;
    const entries: Record<string, IndexEntry> = {};
    for (const [k, e] of Object.entries(this.index.entries)) if (builds - e.used < KEEP_BUILDS) entries[k] = e;
    for (const [k, e] of this.used) if (e.sha) entries[k] = { ...e, used: builds }; // no sha: put, never settled
    this.compact(dir, entries);
    // Every kept entry's record into a new lists file; the index names it, so a reader always finds the records
    // the index it read describes (the old file is removed only after the new index is in place).
    const lists = `lists-${builds}-${process.pid}-${randomBytes(4).toString('hex')}.bin`;
    // Temporary names are random and created exclusively: a link planted under a guessed name is never written
    // through.
    const tmpLists = join(dir, `${lists}.${randomBytes(8).toString('hex')}.tmp`);
    const out = new PackWriter(tmpLists);
    try {
      // Records are written as they are sealed, not gathered into one buffer (at 64M triangles ~130 MB, twice).
      for (const [k, e] of Object.entries(entries)) {
        const rec = this.recordOf(e);
        if (!rec) {
          delete entries[k];
          continue;
        }
        const slice = out.append(rec);
        if (!slice) throw new Error('lists not written');
        const { pending: _p, ...kept } = e;
        // A line carried over untaken keeps its seal: sealing it anew would launder an edit made to it on disk.
        entries[k] = { ...kept, list: [slice.at, rec.length], seal: this.used.has(k) ? sealOf(k, e, rec) : e.seal };
      }
      if (out.size === 0) writeFileSync(tmpLists, new Uint8Array(0), { flag: 'wx' }); // no entries: an empty lists file
      out.close();
      renameSync(tmpLists, join(dir, lists));
      const tmp = join(dir, `${INDEX}.${randomBytes(8).toString('hex')}.tmp`);
      writeFileSync(tmp, JSON.stringify({ format: CACHE_FORMAT, builds, entries, lists } satisfies IndexFile), { flag: 'wx' });
      renameSync(tmp, join(dir, INDEX));
      for (const n of readdirSync(dir)) if (LISTS_NAME.test(n) && n !== lists) unlinkSync(join(dir, n));
      // Only files of ours, and only plain files: a pack no kept entry names (this build's, or one older than this
      // build: a pack newer than that is another build's, still writing into a shared --cache), and the entry files
      // of cache formats before packs. A name of another shape stays.
      const named = new Set(Object.values(entries).map((e) => e.pack));
      for (const n of readdirSync(join(dir, ENTRIES))) {
        const pack = PACK_NAME.test(n);
        if (!(pack ? !named.has(n) : ENTRY_NAME.test(n))) continue;
        const st = lstatSync(join(dir, ENTRIES, n));
        if (st.isFile() && (!pack || n.startsWith(`${this.packBase}-`) || st.mtimeMs < this.openedAt)) unlinkSync(join(dir, ENTRIES, n));
      }
    } catch {
      // as in put: a cache that cannot be kept costs hits, never the build
      out.close();
      try {
        unlinkSync(tmpLists);
      } catch {
        // not made, or renamed already
      }
    }
  }

  /**
   * Packs of earlier builds whose kept entries fill less than COMPACT_BELOW of them: each entry's bytes read
   * (checked against its digest; one that fails is dropped) and appended to this build's compaction pack, its line
   * moved there. The old pack is then named by no entry, and finish removes it.
   */
  private compact(dir: string, entries: Record<string, IndexEntry>): void {
    const live = new Map<string, number>();
    for (const e of Object.values(entries)) if (e.pack !== undefined) live.set(e.pack, (live.get(e.pack) ?? 0) + e.size);
    const sparse = new Set<string>();
    for (const [pack, bytes] of live) {
      if (pack.startsWith(`${this.packBase}-`)) continue;
      try {
        if (bytes < COMPACT_BELOW * lstatSync(join(dir, ENTRIES, pack)).size) sparse.add(pack);
      } catch {
        // gone: its entries miss next time
      }
    }
    if (sparse.size === 0) return;
    const out = new PackWriter(join(dir, ENTRIES, `${this.packBase}-c.bin`));
    try {
      for (const [k, e] of Object.entries(entries)) {
        if (e.pack === undefined || !sparse.has(e.pack)) continue;
        const bytes = readSlice(join(dir, ENTRIES, e.pack), e.at!, e.size);
        const slice = bytes && sha256(bytes) === e.sha ? out.append(bytes) : undefined;
        if (slice) entries[k] = { ...e, ...slice };
        else delete entries[k];
      }
    } finally {
      out.close();
    }
  }
}

/** Where the cache of this output lives (--cache DIR, else `<out>/.cache`); undefined with the cache off. */
export function cacheHomeOf(cache: string | false | undefined, outDir: string): string | undefined {
  if (cache === false) return undefined;
  return cache !== undefined ? resolve(cache) : join(outDir, CACHE_ENTRY);
}

/** Splits the jobs into those the cache has (published from it, at their index) and those to encode. */
export function fromCache(cache: ResourceCache | undefined, all: ResourceJob[], encode: EncodeOptions | undefined, dir: string, memo?: KeyMemo) {
  const cached: BuiltResource[] = new Array(all.length);
  if (!cache) return { cached, jobs: all, keys: [] as string[], index: all.map((_, i) => i), allKeys: [] as string[] };
  const jobs: ResourceJob[] = [];
  const keys: string[] = [];
  const index: number[] = [];
  const allKeys: string[] = [];
  all.forEach((job, i) => {
    const key = memo ? memo.key(cache, job, encode) : cache.key(job, encode);
    allKeys.push(key);
    const hit = cache.take(key, job, dir);
    if (hit) cached[i] = hit;
    else {
      jobs.push(job);
      keys.push(key);
      index.push(i);
    }
  });
  return { cached, jobs, keys, index, allKeys };
}
