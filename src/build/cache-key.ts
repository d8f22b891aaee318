// The incremental cache's key (src/build/cache.ts): a sha256 over everything that determines a resource job's bytes —
// every array it reads, each group's material word, any other field a job or group carries, the encoder options and
// the encoder's code (encoderFingerprint) — but not the job's name, cell and source names, which only the manifest
// reports (NOT_IN_KEY). Equal keys mean equal bytes as encoded. Also a job's signature for a session's key memo
// (KeyMemo): the same make-up with imported arrays named by identity, so an unchanged job's key is not hashed again.
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WASM_SOURCE_SHA256 } from '../geometry/wasm.generated.ts';
import { isNative, isPlanned, type EncodeOptions, type ResourceJob } from '../tiling/build.ts';
import { hashSources, TOOL_VERSION } from '../version.ts';
import { arrayId } from '../import/memo.ts';
import { isShared } from '../import/shared-arena.ts';

/** Bumped when the key's recipe or the index's form changes: older entries are then never hit. */
export const CACHE_FORMAT = 7;

let codeDigest: string | undefined;

/**
 * sha256 over the tool version, the wasm module's source hash and the code that turns a job into bytes (src/'s
 * format/, geometry/ and tiling/, as sources or as the compiled package), read once per process:
 * a development change to the encoder without a version bump still misses.
 */
export function encoderFingerprint(): string {
  if (codeDigest) return codeDigest;
  const h = createHash('sha256').update(`${CACHE_FORMAT}\0${TOOL_VERSION}\0${WASM_SOURCE_SHA256}\0`);
  const src = dirname(dirname(fileURLToPath(import.meta.url))); // src/ from src/build/
  // The version and wasm hash still key a bundle without its source tree.
  for (const sub of ['format', 'geometry', 'tiling']) hashSources(h, join(src, sub), false, `${sub}/`);
  return (codeDigest = h.digest('hex'));
}

/** Arrays from this many bytes up are digested once per build and keyed by their digest (see KeyHasher.feed). */
const DIGEST_FROM_BYTES = 1 << 16;

/**
 * Walks a plain value as text tokens (arrays `[n:` … `]`, objects by sorted key `{n:` `"k"=` … `}`, anything else
 * `type:json;`), handing each typed array to `array`: the key's recipe (KeyHasher) and a job's signature
 * (valueSignature) say the same structure. `array` returning false stops the walk (false).
 */
export function walkPlain(v: unknown, skip: readonly string[], text: (s: string) => void, array: (a: ArrayBufferView) => boolean): boolean {
  if (ArrayBuffer.isView(v)) return array(v);
  if (Array.isArray(v)) {
    text(`[${v.length}:`);
    for (const x of v) if (!walkPlain(x, [], text, array)) return false;
    text(']');
    return true;
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const { names, tokens } = keyPlan(Object.keys(o), skip);
    let n = 0;
    for (const k of names) if (o[k] !== undefined) n++;
    text(`{${n}:`);
    for (let i = 0; i < names.length; i++) {
      const x = o[names[i]];
      if (x === undefined) continue;
      text(tokens[i]);
      if (!walkPlain(x, [], text, array)) return false;
    }
    text('}');
    return true;
  }
  text(typeof v === 'number' ? `number:${Number.isFinite(v) ? String(v) : 'null'};` : `${typeof v}:${JSON.stringify(v)};`);
  return true;
}

/** An object's own keys less `skip`, sorted, each with its `"key"=` token: per key list, made once (a job's
 *  objects share a few lists; sorting and quoting them per object was most of the 16M level's key walk). */
interface KeyPlan {
  names: string[];
  tokens: string[];
}
const keyPlans = new Map<string, KeyPlan>();
/** Distinct key lists remembered (a plain value of other shapes still walks, unremembered past this). */
const KEY_PLANS_MAX = 1024;

function keyPlan(keys: string[], skip: readonly string[]): KeyPlan {
  const id = skip.length ? `${keys.join('\0')}\u0001${skip.join('\0')}` : keys.join('\0');
  let plan = keyPlans.get(id);
  if (!plan) {
    const names = keys.filter((k) => !skip.includes(k)).sort();
    plan = { names, tokens: names.map((k) => `${JSON.stringify(k)}=`) };
    if (keyPlans.size < KEY_PLANS_MAX) keyPlans.set(id, plan);
  }
  return plan;
}

/** Feeds any plain value into the hash: typed arrays by their bytes (digested once per array), others by structure. */
export class KeyHasher {
  private arrays = new Map<ArrayBufferView, string>();
  /** A session's digests of shared (imported, never written) arrays, kept across builds (KeyMemo). */
  kept: WeakMap<ArrayBufferView, string> | undefined;

  private arrayDigest(a: ArrayBufferView): string {
    const shared = this.kept !== undefined && isShared(a);
    let d = this.arrays.get(a) ?? (shared ? this.kept!.get(a) : undefined);
    if (!d) {
      // A Buffer over the same memory: update() with other views measured ~6× slower per call (Node 20).
      d = createHash('sha256').update(Buffer.from(a.buffer as ArrayBuffer, a.byteOffset, a.byteLength)).digest('hex');
      this.arrays.set(a, d);
      if (shared) this.kept!.set(a, d);
    }
    return d;
  }

  feed(h: ReturnType<typeof createHash>, v: unknown, skip: readonly string[] = []): void {
    // The text between arrays goes in as one string: the same bytes as a call per token, ~10 calls fewer a source
    // (update() costs ~0.5 µs a call: ~0.35 s of the 16M level's 7,168 keys).
    let text = '';
    walkPlain(v, skip, (t) => void (text += t), (a) => {
      // Small arrays (a prop's) go into the key as they are; big ones (a terrain every cell reads) are digested
      // once and their digest used: a digest per array cost more than the hashing on the 1M bench level.
      if (a.byteLength < DIGEST_FROM_BYTES) {
        h.update(`${text}a${a.constructor.name}:${a.byteLength}:`).update(Buffer.from(a.buffer as ArrayBuffer, a.byteOffset, a.byteLength));
        text = '';
      } else text += `A${a.constructor.name}:${this.arrayDigest(a)};`;
      return true;
    });
    if (text) h.update(text);
  }
}

/** Job fields that only the manifest reports (they do not reach the encoder). */
export const NOT_IN_KEY = ['name', 'cell', 'sources'] as const;

/** Arrays up to this many bytes are spelled out in a job's signature; bigger ones must be imported (shared) ones. */
const SIGNATURE_BYTES = 1 << 16;

/**
 * A job's make-up as a string, for a session's key memo (src/build/session.ts): what key() hashes, with the arrays in
 * shared memory — the import's, never written once made (src/import/memo.ts) — named by identity, and any other
 * array by its bytes. Equal signatures in one process mean equal keys. Undefined when the job holds a big array
 * of another kind (then its key is computed).
 */
export function jobSignature(job: ResourceJob, encode: EncodeOptions | undefined, encodeSignature = valueSignature(encode ?? null)): string | undefined {
  if (encodeSignature === undefined) return undefined;
  // The usual groups spelled out directly (a cell's planned runs, an object's arrays); any other by valueSignature.
  let s = encodeSignature;
  const own = Object.keys(job).filter((k) => !(NOT_IN_KEY as readonly string[]).includes(k) && (job as unknown as Record<string, unknown>)[k] !== undefined);
  if (own.length !== 1 || own[0] !== 'groups') {
    const v = valueSignature(job, NOT_IN_KEY);
    return v === undefined ? undefined : `${s} J${v}`;
  }
  for (const g of job.groups) {
    const keys = Object.keys(g);
    if (isPlanned(g) && keys.length === 4 && g.sources.every((x) => Object.keys(x).length === 2 && isShared(x.positions) && isShared(x.indices)) && g.runs.byteLength <= SIGNATURE_BYTES) {
      s += ` P${g.material},${g.triangles},${g.sources.map((x) => `${arrayId(x.positions)}/${arrayId(x.indices)}`).join(',')},${Buffer.from(g.runs.buffer, g.runs.byteOffset, g.runs.byteLength).toString('base64')}`;
    } else if (!isPlanned(g) && !isNative(g) && keys.length === 3 && isShared(g.positions) && isShared(g.indices)) {
      s += ` M${g.material},${arrayId(g.positions)}/${arrayId(g.indices)}`;
    } else {
      const v = valueSignature(g);
      if (v === undefined) return undefined;
      s += ` G${v}`;
    }
  }
  return s;
}


/** Any plain value as a string (see jobSignature), or undefined for a big array not in shared memory. */
export function valueSignature(value: unknown, skipTop: readonly string[] = []): string | undefined {
  const out: string[] = [];
  const whole = walkPlain(value, skipTop, (t) => out.push(t), (a) => {
    const type = a.constructor.name;
    if (isShared(a)) out.push(`#${type}${arrayId(a)}`);
    else if (a.byteLength > SIGNATURE_BYTES) return false;
    else out.push(`a${type}:${Buffer.from(a.buffer as ArrayBuffer, a.byteOffset, a.byteLength).toString('base64')}`);
    return true;
  });
  return whole ? out.join(' ') : undefined;
}

/** What computes a key when the memo has none: the build's cache (src/build/cache.ts ResourceCache.key). */
export interface KeySource {
  key(job: ResourceJob, encode: EncodeOptions | undefined, kept?: WeakMap<ArrayBufferView, string>): string;
}

/** Keys by job signature, kept from one build of a session to the next (those a build used). */
export class KeyMemo {
  private prev = new Map<string, string>();
  private next = new Map<string, string>();

  private encode: { options: EncodeOptions | undefined; signature: string | undefined } | undefined;
  /** Digests of shared arrays for the keys this memo computes (ResourceCache.key). */
  private digests = new WeakMap<ArrayBufferView, string>();

  /** The job's key: the previous build's for the same signature, else cache.key's. */
  key(cache: KeySource, job: ResourceJob, encode: EncodeOptions | undefined): string {
    if (!this.encode || this.encode.options !== encode) this.encode = { options: encode, signature: valueSignature(encode ?? null) };
    const sig = jobSignature(job, encode, this.encode.signature);
    if (sig === undefined) return cache.key(job, encode, this.digests);
    const key = this.next.get(sig) ?? this.prev.get(sig) ?? cache.key(job, encode, this.digests);
    this.next.set(sig, key);
    return key;
  }

  begin(): void {
    this.next = new Map();
  }

  commit(): void {
    this.prev = this.next;
    this.next = new Map();
  }
}
