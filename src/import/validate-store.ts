// The validation of one build kept for the next process (a fresh rebuild validated all 1M triangles of
// the bench level again, ~250 ms of worker time for one moved prop). Worker 0 keeps each mesh it validated by the
// sha256 of its arrays (contentDigest) in a ValidationMemo (src/import/validate-memo.ts): a report depends on the
// arrays alone, so a mesh with the same digest takes its stored report; the crack pass classifies again only the
// open edges near what changed, as in a session. The pass is written beside the build record after a successful
// build (src/build/compile.ts) and read back only from a file that can only be ours (src/files.ts readOwnFile), whose
// digest and code fingerprint match (a build of other code validates everything).
//
// File: 'SK8VAL' 0 3 (8 bytes), sha256 of the rest (32), u32 JSON length, the JSON (utf-8: code fingerprint, the
// reports' field names, names, the few locations), zero padding to 8; then per mesh in pass order a fixed record
// of f64 words (encodePass), then per mesh its digest (32 bytes), then the arrays the records place (byte offsets):
// per mesh with open edges their ends (6n f32) and triangles (n u32), and their values in the pass (n i32: −1, or
// a mesh's place in the pass). Binary, not JSON: 4,100 reports as JSON took ~100 ms to write and to read.
import { createHash } from 'node:crypto';
import type { CrackCounts, MeshReport } from './validate.ts';
import { ValidationMemo, type Kept, type KeptPass } from './validate-memo.ts';

const MAGIC = Buffer.from('SK8VAL\x00\x03', 'latin1');
const HEAD = MAGIC.length + 32;
/** Largest file written or read (bytes); a level with more open edges than fit validates again each build. */
export const MAX_STORE_BYTES = 256 << 20;
/**
 * Most objects a build keeps a stored pass for. Past it worker 0 validates as without one: the memo's per-object
 * records cost ~1 KB each beside the level (64M bench triangles, 262,464 objects: +495 MB peak and +17 % time, a
 * sha256 of 1.3 GB of arrays), while the 16M level (65,600 objects) rebuilt 9.05 → 7.43 s through its pass.
 */
export const MAX_STORED_MESHES = 100_000;

/**
 * The identity of an object's arrays: sha256 over the positions and, per group, its length and its index list's own
 * sha256 (as a 32-character latin1 string: one character a byte). `ids`: per group a number naming its index list's
 * identity in the thread that made it (src/import/memo.ts arrayId: equal numbers, equal bytes), so a list every
 * node of a mesh shares is hashed once (`known`, the caller's, kept across calls) — the 16M bench level's 65,600
 * objects read 8 prop lists and one terrain list ~190 MB of times over.
 */
export function contentDigest(positions: Float32Array, groups: Uint32Array[], ids?: readonly number[], known?: Map<number, Buffer>): string {
  const h = createHash('sha256').update(`${positions.length}:${groups.length}:`);
  h.update(Buffer.from(positions.buffer, positions.byteOffset, positions.byteLength));
  groups.forEach((g, i) => {
    const id = ids?.[i];
    let d = id === undefined ? undefined : known?.get(id);
    if (!d) {
      d = createHash('sha256').update(Buffer.from(g.buffer, g.byteOffset, g.byteLength)).digest();
      if (id !== undefined) known?.set(id, d);
    }
    h.update(`${g.length};`).update(d);
  });
  return h.digest().toString('latin1');
}

/** JSON numbers that JSON cannot spell (−0 in a location). */
const replacer = (_: string, v: unknown): unknown => (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? { $n: Object.is(v, -0) ? '-0' : String(v) } : v);
const reviver = (_: string, v: unknown): unknown =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as { $n?: unknown }).$n === 'string' && Object.keys(v).length === 1 ? Number((v as { $n: string }).$n) : v;

/** The JSON part: what is not a number of fixed place. */
interface StoredHead {
  code: string;
  /** The reports' number fields, in the reports' own key order (`locations` follows them). */
  fields: string[];
  meshes: number;
  /** Per mesh its name in the pass, or null. */
  names: (string | null)[];
  /** Per mesh with any, by index: its report's locations and its counts' locations. */
  locations: Record<string, { report?: MeshReport['locations']; counts?: CrackCounts['locations'] }>;
}

/**
 * The fixed record of each mesh, f64 words: the report's fields, the box (6; NaN: none), the counts' crack and
 * border edges (NaN: none), the open edges' count, their byte offset in the arrays part, whether values follow.
 */
const FIXED_TAIL = 6 + 2 + 3;
const DIGEST_BYTES = 32;

/** The pass as bytes (its meshes named by digestOf), or undefined when it would pass MAX_STORE_BYTES. */
export function encodePass(pass: KeptPass, digestOf: (key: number) => string | undefined, code: string): Uint8Array | undefined {
  const n = pass.order.length;
  const first = pass.kept.get(pass.order[0]);
  const fields = first ? Object.keys(first.report).filter((k) => k !== 'locations' && k !== 'open') : [];
  const width = fields.length + FIXED_TAIL;
  const fixed = new Float64Array(n * width);
  const digests = Buffer.alloc(n * DIGEST_BYTES);
  const head: StoredHead = { code, fields, meshes: n, names: [], locations: {} };
  const arrays: Uint8Array[] = [];
  let at = 0;
  const put = (a: Float32Array | Uint32Array | Int32Array): number => {
    const o = at;
    if (a.byteLength === 0) return o;
    arrays.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    at += a.byteLength;
    return o;
  };
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    const key = pass.order[i];
    const k = pass.kept.get(key);
    const d = digestOf(key);
    if (!k || d === undefined || d.length !== DIGEST_BYTES || seen.has(key)) return undefined;
    seen.add(key);
    digests.write(d, i * DIGEST_BYTES, 'latin1');
    const r = k.report as unknown as Record<string, unknown>;
    const keys = Object.keys(r).filter((f) => f !== 'open');
    // Every report of the same shape (validateMesh's), key order included: the manifest's summary follows it.
    if (keys.length !== fields.length + 1 || keys[fields.length] !== 'locations' || fields.some((f, j) => keys[j] !== f || typeof r[f] !== 'number')) return undefined;
    const o = i * width;
    fields.forEach((f, j) => (fixed[o + j] = r[f] as number));
    const t = o + fields.length;
    for (let j = 0; j < 6; j++) fixed[t + j] = k.box ? k.box[j] : NaN;
    // A pass past its budget left edges unclassified: neither its counts nor its values are kept (classified again).
    const sure = !k.counts?.uncheckedEdges;
    fixed[t + 6] = k.counts && sure ? k.counts.crackEdges : NaN;
    fixed[t + 7] = k.counts && sure ? k.counts.borderEdges : NaN;
    const open = k.report.open;
    const edges = open?.triangle.length ?? 0;
    if (open && open.ends.length !== 6 * edges) return undefined;
    if (k.hits && k.hits.length !== edges) return undefined;
    fixed[t + 8] = open ? edges : -1;
    fixed[t + 9] = open ? put(open.ends) : -1;
    if (open) put(open.triangle);
    fixed[t + 10] = k.hits && sure ? put(k.hits) : -1;
    head.names.push(k.name ?? null);
    const loc: StoredHead['locations'][string] = {};
    if (Object.keys(k.report.locations).length) loc.report = k.report.locations;
    if (k.counts && Object.keys(k.counts.locations).length) loc.counts = k.counts.locations;
    if (loc.report || loc.counts) head.locations[i] = loc;
    if (at > MAX_STORE_BYTES) return undefined;
  }
  const json = Buffer.from(JSON.stringify(head, replacer), 'utf8');
  const pad = (8 - ((4 + json.length) % 8)) % 8;
  const total = HEAD + 4 + json.length + pad + fixed.byteLength + digests.length + at;
  if (total > MAX_STORE_BYTES) return undefined;
  const out = Buffer.alloc(total);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(json.length, HEAD);
  json.copy(out, HEAD + 4);
  let w = HEAD + 4 + json.length + pad;
  for (const a of [new Uint8Array(fixed.buffer), digests, ...arrays]) {
    out.set(a, w);
    w += a.byteLength;
  }
  createHash('sha256').update(out.subarray(HEAD)).digest().copy(out, MAGIC.length);
  return out;
}

const isIndex = (v: number, below: number): boolean => Number.isSafeInteger(v) && v >= -1 && v < below;

/**
 * The pass in `bytes` (encodePass's), its meshes numbered by keyOf(digest); throws on anything not as written:
 * another code fingerprint, a digest mismatch, an array out of range, a mesh given twice.
 */
export function decodePass(bytes: Uint8Array, code: string, keyOf: (digest: string) => number): KeptPass {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < HEAD + 4 || !b.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('validate: not a stored pass');
  if (!createHash('sha256').update(b.subarray(HEAD)).digest().equals(b.subarray(MAGIC.length, HEAD))) throw new Error('validate: stored pass damaged');
  const length = b.readUInt32LE(HEAD);
  if (HEAD + 4 + length > b.length) throw new Error('validate: stored pass truncated');
  const head = JSON.parse(b.subarray(HEAD + 4, HEAD + 4 + length).toString('utf8'), reviver) as StoredHead;
  if (head?.code !== code || !Array.isArray(head.fields) || !head.fields.every((f) => typeof f === 'string' && f !== 'locations' && f !== 'open' && f !== '__proto__')) throw new Error('validate: stored pass of other code');
  const n = head.meshes;
  if (!Number.isSafeInteger(n) || n < 0 || !Array.isArray(head.names) || head.names.length !== n || !head.locations || typeof head.locations !== 'object') throw new Error('validate: stored pass malformed');
  const width = head.fields.length + FIXED_TAIL;
  const base = HEAD + 4 + length + ((8 - ((4 + length) % 8)) % 8);
  const arraysAt = base + n * width * 8 + n * DIGEST_BYTES;
  if (arraysAt > b.length) throw new Error('validate: stored pass truncated');
  const fixed = new Float64Array(n * width);
  new Uint8Array(fixed.buffer).set(b.subarray(base, base + fixed.byteLength));
  const digests = b.subarray(base + fixed.byteLength, arraysAt);
  const data = b.subarray(arraysAt);
  // Copies out of the file's bytes (alignment certain, the file's buffer not kept alive); one empty array of each
  // kind for all (most meshes of a level are closed: no open edges; nothing writes into a list of none).
  const none = { f: new Float32Array(0), u: new Uint32Array(0), i: new Int32Array(0) };
  const view = <T extends Float32Array | Uint32Array | Int32Array>(C: { new (n: number): T; BYTES_PER_ELEMENT: number }, at: number, count: number): T => {
    if (!Number.isSafeInteger(at) || at < 0 || at % 4 !== 0 || at + count * C.BYTES_PER_ELEMENT > data.length) throw new Error('validate: stored array out of range');
    if (count === 0) return (C === (Float32Array as unknown) ? none.f : C === (Uint32Array as unknown) ? none.u : none.i) as T;
    const out = new C(count);
    new Uint8Array(out.buffer).set(data.subarray(at, at + count * C.BYTES_PER_ELEMENT));
    return out;
  };
  const order: number[] = [];
  const kept = new Map<number, Kept>();
  for (let i = 0; i < n; i++) {
    const key = keyOf(digests.toString('latin1', i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES));
    if (kept.has(key)) throw new Error('validate: stored mesh twice');
    const o = i * width;
    const report = {} as Record<string, unknown>;
    head.fields.forEach((f, j) => (report[f] = fixed[o + j]));
    const loc = head.locations[i];
    report.locations = loc?.report && typeof loc.report === 'object' ? { ...loc.report } : {};
    const t = o + head.fields.length;
    const edges = fixed[t + 8], openAt = fixed[t + 9], hitsAt = fixed[t + 10];
    if (!Number.isSafeInteger(edges) || edges < -1) throw new Error('validate: stored open edges malformed');
    if (edges >= 0) report.open = { ends: view(Float32Array, openAt, 6 * edges), triangle: view(Uint32Array, openAt + 24 * edges, edges) };
    const box = Number.isNaN(fixed[t]) ? null : fixed.slice(t, t + 6);
    const k: Kept = { report: report as unknown as MeshReport, box };
    const name = head.names[i];
    if (typeof name === 'string') k.name = name;
    if (!Number.isNaN(fixed[t + 6])) k.counts = { crackEdges: fixed[t + 6], borderEdges: fixed[t + 7], locations: loc?.counts && typeof loc.counts === 'object' ? loc.counts : {} };
    if (hitsAt >= 0) {
      k.hits = view(Int32Array, hitsAt, Math.max(0, edges));
      for (const v of k.hits) if (!isIndex(v, n)) throw new Error('validate: stored edge value out of range');
    }
    order.push(key);
    kept.set(key, k);
  }
  return { order, kept };
}

/**
 * Worker 0's validation outside a session, with the cache on (src/tiling/worker.ts 'restore'): meshes kept by the
 * digest of their arrays, starting from the pass an earlier process stored, and this build's objects in the order
 * validated. Two objects with the same arrays (coincident copies) share a key: their pass runs whole and is not
 * stored (encodePass refuses a key given twice), so such a level validates everything each build.
 */
export class StoredValidation {
  memo: ValidationMemo;
  private keys = new Map<string, number>();
  private digests = new Map<number, string>();
  /** This build's objects since the last crack pass: key and name, in the order validated. */
  order: { key: number; name: string }[] = [];

  constructor(
    stored: Uint8Array | undefined,
    private code: string,
    /** Most objects kept (MAX_STORED_MESHES; tests lower it): past it the caller goes on with plain(). */
    readonly limit = MAX_STORED_MESHES,
  ) {
    let memo: ValidationMemo | undefined;
    if (stored) {
      try {
        memo = ValidationMemo.restored(decodePass(stored, code, (d) => this.keyOf(d)));
      } catch {
        this.keys.clear(); // damaged or another code's: everything is validated
        this.digests.clear();
      }
    }
    this.memo = memo ?? new ValidationMemo();
  }

  keyOf(digest: string): number {
    let k = this.keys.get(digest);
    if (k === undefined) {
      k = this.keys.size + 1;
      this.keys.set(digest, k);
      this.digests.set(k, digest);
    }
    return k;
  }

  /** Objects of this build so far (what the worker compares with MAX_STORED_MESHES). */
  get count(): number {
    return this.order.length;
  }

  /**
   * This build's objects so far as the plain crack pass takes them (src/tiling/worker.ts `validated`), each with its
   * own copy of the report (open edges included): the worker goes on without a stored pass.
   */
  plain(): { item: { positions: Float32Array; groups: Uint32Array[]; name: string }; report: MeshReport }[] {
    const { kept } = this.memo.pass();
    return this.order.map(({ key, name }) => {
      const k = kept.get(key)!;
      return { item: { positions: k.positions!, groups: k.groups!, name }, report: { ...k.report, locations: { ...k.report.locations } } };
    });
  }

  /** Index lists' digests by the sender's ids (contentDigest). */
  private lists = new Map<number, Buffer>();

  validate(items: { positions: Float32Array; groups: Uint32Array[]; name?: string; ids?: number[] }[]): MeshReport[] {
    return items.map((it) => {
      const key = this.keyOf(contentDigest(it.positions, it.groups, it.ids, this.lists));
      this.order.push({ key, name: it.name ?? '' });
      return this.memo.validate({ key, positions: it.positions, groups: it.groups });
    });
  }

  /**
   * The crack pass over this build's objects. The pass is then encoded at once and the memo let go: a level's
   * reports and open edges held to the end of the build were ~65 MB at 16M triangles (65,600 objects); its bytes
   * are a quarter of that.
   */
  cracks(): CrackCounts[] {
    const order = this.order;
    this.order = [];
    const counts = this.memo.cracksWhole(order.map((o) => o.key), order.map((o) => o.name));
    this.stats = { ...this.memo.stats };
    this.bytes = encodePass(this.memo.pass(), (k) => this.digests.get(k), this.code) ?? null;
    this.memo = new ValidationMemo();
    this.keys.clear();
    this.digests.clear();
    this.lists.clear();
    return counts;
  }

  /** The last crack pass as bytes (encodePass's), or null when none ran or it would not fit. */
  private bytes: Uint8Array | null = null;
  /** The last crack pass's memo stats: whether it ran incrementally, edges classified of all (tests, bench). */
  stats = { incremental: false, classified: 0, edges: 0 };

  /** The last crack pass as bytes, handed out once (the worker transfers them). */
  encode(): Uint8Array | undefined {
    const b = this.bytes;
    this.bytes = null;
    return b ?? undefined;
  }
}
