// The .forge container → data files → record bodies, as the public readers describe it (docs/forge.md
// "Container", facts from ACExplorer's pyUbiForge2 forge_v1.py and its ACU readers; no code taken):
// - header: "scimitar", one pad byte, u32 version (25–27), u64 offset of the data header; the first index block's
//   offset is a u64 at data header + 32 (versions 25, 26) or + 36 (27);
// - index block (48 bytes): u32 count, 4 bytes, u64 index table, u64 next index block (0: last), 8 bytes, u64 name
//   table, u64 raw data table; index entries u64 offset, u32 (u64 in 27) id, u32 size; name entries 188 (192 in
//   27) bytes, the data file's name at +44 (128 bytes, NUL-padded); version 25 data files start 440 bytes after
//   their indexed offset, the indexed size counted from there (version 26: where the data file is found, see
//   dataFileStart);
// - a data file: a per-generation prefix, then two compressed sections (the table of contents, then the records),
//   each: marker 33 AA FB 57 99 FA 04 10, u16, algorithm byte (marker + 10), u16, u16 largest block, block count
//   (u16; u32 in the Unity generation), (u16 raw, u16 packed) per block, then per block a u32 checksum (kept,
//   unchecked) and the packed bytes; packed = raw means stored;
// - the joined streams: u16 record count, per record u32 id (u64 in Unity), u32 span, and in the AC2 generation
//   one of two layouts, told apart by which one the records fit (readStreams): ACExplorer's (an i16 per entry,
//   then a u32 byte count and its bytes, two such blocks in version 26) or u16 n + 2n bytes per entry; then per
//   record u32 type, u32 body size, u32 name length, name, a check byte (0, or 1 + 3 bytes + u32 n + 12n bytes),
//   the body, and up to its span any bytes the span leaves (kept, warned).
// Memory is bounded by the input: every data file's block tables are read first; one listed again (the same
// sections) is read once; what all decompress to is checked against maxDecodedBytes before any is decoded.
// Every offset and count is checked against the input before use; sizes are capped before any allocation.
import { FormatError, hex, Reader } from '../../format/cursor.ts';
import { lzo1xDecompress, MAX_LZO_OUTPUT_BYTES } from './lzo.ts';

export const FORGE_MAGIC = 'scimitar';
export const COMPRESSION_MARKER = Uint8Array.of(0x33, 0xaa, 0xfb, 0x57, 0x99, 0xfa, 0x04, 0x10);
/** Data-file ids the public readers treat as not being containers (taken as they are, not read here). */
export const NON_CONTAINER_DATA_FILES: ReadonlySet<number> = new Set([16, 145]);
/** Most index blocks followed along the chain, data files per forge, records per data file. */
export const MAX_INDEX_BLOCKS = 4096;
export const MAX_DATA_FILES = 1_000_000;
/** Largest data file (bytes, as stored) and largest joined stream (bytes, decompressed) read. */
export const MAX_DATA_FILE_BYTES = 256 << 20;
export const MAX_STREAM_BYTES = MAX_LZO_OUTPUT_BYTES;
/** Version 25 (and some 26) data files start this many bytes after their indexed offset. */
export const V25_PREFIX_BYTES = 440;

export const ALGORITHM_NAMES: Record<number, string> = { 0: 'LZO1X', 1: 'LZO1X', 2: 'LZO2A', 5: 'LZO1C' };

/**
 * The data-file layout of a generation: 'ac1' (no prefix, u16 block count, 32-bit ids, no u16 list in the table
 * of contents), 'ac2' (u32 n + 8n prefix, else as ac1 with the u16 list), 'unity' (no prefix, u32 block count,
 * 64-bit ids, the u16 list).
 */
export type Generation = 'ac1' | 'ac2' | 'unity';

export interface IndexEntry {
  id: bigint;
  offset: number;
  size: number;
  name: string;
}

export interface ForgeIndex {
  version: number;
  entries: IndexEntry[];
}

export interface RawRecord {
  id: bigint;
  type: number;
  name: string;
  /** The body; empty for a record whose type the caller's `keep` did not want (counted, not held in memory). */
  body: Uint8Array;
}

/**
 * What to keep of a record of a type (a forge holds textures and meshes too: mostly only their count is needed):
 * true or 'body' — the record with its body; 'entry' — the record with an empty body (its id and name); false —
 * only a count by type (ForgeContents.counted), no record at all.
 */
export type KeepType = (type: number) => boolean | 'body' | 'entry';
const KEEP_ALL: KeepType = () => true;

/** Records kept (listed, with or without a body) across a forge, and the most it may keep. */
interface RecordBudget {
  kept: number;
  max: number;
  stage: string;
  inputBytes: number;
}

/**
 * Most records one forge may list for the level builder: RECORDS_FLOOR plus one per INPUT_BYTES_PER_RECORD bytes
 * of the file. Each costs a few hundred bytes of memory once read and parsed, while identical records compress to
 * almost nothing: without this, 5.7 MB of LZO1X blocks listing 1.3 million spheres took 1.8 GB.
 */
export const RECORDS_FLOOR = 50_000;
export const INPUT_BYTES_PER_RECORD = 32;
export const maxKeptRecords = (inputBytes: number): number => RECORDS_FLOOR + Math.floor(inputBytes / INPUT_BYTES_PER_RECORD);

const u64At = (r: Reader, at: number, what: string): bigint => (BigInt(r.u32At(at + 4, what)) << 32n) | BigInt(r.u32At(at, what));
/** A u64 offset as a number, refused unless it lies in [0, limit]. */
function offsetAt(r: Reader, at: number, what: string, limit = r.length): number {
  const v = u64At(r, at, what);
  if (v > BigInt(limit)) throw new FormatError(r.stage, at, `${what} ${hex(Number(v))} is past the end of the ${limit}-byte input`);
  return Number(v);
}

/** Reads the header, the index block chain, the index and name tables. */
export function readForgeIndex(bytes: Uint8Array, stage: string): ForgeIndex {
  const r = new Reader(bytes, stage);
  r.need(0, 21, 'forge header');
  const magic = latin1.decode(bytes.subarray(0, 8));
  if (magic !== FORGE_MAGIC) r.fail(`expected the magic "${FORGE_MAGIC}", found ${JSON.stringify(magic)}`, 0);
  const version = r.u32At(9, 'version');
  if (version < 25 || version > 27) r.fail(`forge version ${version} is not one of 25, 26, 27 (the Scimitar/AnvilNext generations the public readers describe)`, 9);
  const dataHeader = offsetAt(r, 13, 'data header offset');
  let block = offsetAt(r, dataHeader + (version < 27 ? 32 : 36), 'first index block offset');
  const idBytes = version < 27 ? 4 : 8;
  const entrySize = 8 + idBytes + 4;
  const nameSize = version < 27 ? 188 : 192;
  const entries: IndexEntry[] = [];
  const seen = new Set<number>();
  for (let b = 0; ; b++) {
    if (seen.has(block)) r.fail(`index block chain returns to ${hex(block)}`, block);
    if (b >= MAX_INDEX_BLOCKS) r.fail(`more than ${MAX_INDEX_BLOCKS} index blocks`, block);
    seen.add(block);
    r.need(block, 48, 'index block');
    const count = r.u32At(block, 'index count');
    const table = offsetAt(r, block + 8, 'index table offset');
    const next = u64At(r, block + 16, 'next index block');
    const names = offsetAt(r, block + 32, 'name table offset');
    if (entries.length + count > MAX_DATA_FILES) r.fail(`more than ${MAX_DATA_FILES} data files`, block);
    r.need(table, count * entrySize, `index table of ${count} entries`);
    r.need(names, count * nameSize, `name table of ${count} entries`);
    for (let i = 0; i < count; i++) {
      const at = table + i * entrySize;
      const offset = offsetAt(r, at, `index entry ${i} offset`);
      const id = idBytes === 4 ? BigInt(r.u32At(at + 8, 'id')) : u64At(r, at + 8, 'id');
      const size = r.u32At(at + 8 + idBytes, 'size');
      const raw = bytes.subarray(names + i * nameSize + 44, names + i * nameSize + 44 + 128);
      const end = raw.indexOf(0);
      entries.push({ id, offset, size, name: latin1.decode(end < 0 ? raw : raw.subarray(0, end)) });
    }
    if (next === 0n || next === 0xffffffffffffffffn) break;
    if (next > BigInt(bytes.length)) r.fail(`next index block ${hex(Number(next))} is past the end of the ${bytes.length}-byte input`, block + 16);
    block = Number(next);
  }
  return { version, entries };
}

const isMarker = (b: Uint8Array, at: number): boolean => at >= 0 && at + 8 <= b.length && COMPRESSION_MARKER.every((v, k) => b[at + k] === v);

/**
 * Where a data file's bytes start and which generation's layout they use: version 27 → 'unity'; otherwise the
 * marker at the start → 'ac1', after a u32 n + 8n prefix → 'ac2'; for version 25 (and a version 26 file whose
 * indexed offset holds neither) the same 440 bytes later.
 */
export function dataFileStart(bytes: Uint8Array, e: IndexEntry, version: number, stage: string): { start: number; generation: Generation } {
  const at = (o: number): Generation | undefined => {
    if (version === 27) return isMarker(bytes, o) ? 'unity' : undefined;
    if (isMarker(bytes, o)) return 'ac1';
    if (o + 4 > bytes.length) return undefined;
    const n = new DataView(bytes.buffer, bytes.byteOffset).getUint32(o, true);
    return n <= 0xffff && isMarker(bytes, o + 4 + 8 * n) ? 'ac2' : undefined;
  };
  const candidates = version === 25 ? [e.offset + V25_PREFIX_BYTES] : version === 26 ? [e.offset, e.offset + V25_PREFIX_BYTES] : [e.offset];
  for (const c of candidates) {
    const g = at(c);
    if (g) return { start: c, generation: g };
  }
  const first = Array.from(bytes.subarray(candidates[0], candidates[0] + 12), (v) => v.toString(16).padStart(2, '0')).join(' ');
  throw new FormatError(stage, candidates[0], `no compressed stream marker (33 aa fb 57 99 fa 04 10) where the ${version === 27 ? 'Unity' : 'AC1 or AC2'} generation puts it${version === 25 ? ` (440 bytes after the indexed offset ${hex(e.offset)})` : ''}; found ${first || 'the end of the file'}`);
}

/** One compressed section's header: where its blocks are and what they decompress to (nothing decoded yet). */
interface SectionPlan {
  algorithm: number;
  algoAt: number;
  blocks: [raw: number, packed: number][];
  /** Offset of the first block's checksum. */
  dataAt: number;
  /** Decompressed bytes (the sum of the raw sizes). */
  total: number;
}

/** Reads a section's header and block table at `r.pos` and moves past its blocks (checked to lie in the data file). */
function planSection(r: Reader, generation: Generation): SectionPlan {
  const at = r.pos;
  if (!isMarker(r.bytes, at)) r.fail(`expected the compressed stream marker 33 aa fb 57 99 fa 04 10, found ${Array.from(r.bytes.subarray(at, at + 8), (v) => v.toString(16).padStart(2, '0')).join(' ') || 'the end'}`);
  r.pos += 8;
  r.u16('section word');
  const algoAt = r.pos;
  const algorithm = r.u8('algorithm');
  r.u16('section word');
  const maxBlock = r.u16('largest block');
  if (maxBlock === 0) r.fail('a section with largest block 0 (the chunked form) is not read', at + 13);
  const countAt = r.pos;
  const count = generation === 'unity' ? r.u32('block count') : r.u16('block count');
  r.need(r.pos, count * 4, `size table of ${count} blocks`);
  const blocks: [number, number][] = [];
  let total = 0;
  let packedTotal = 0;
  for (let i = 0; i < count; i++) {
    const raw = r.u16('raw size');
    const packed = r.u16('packed size');
    blocks.push([raw, packed]);
    total += raw;
    packedTotal += 4 + packed;
  }
  if (total > MAX_STREAM_BYTES) r.fail(`${count} blocks decompress to ${total} bytes, more than the ${MAX_STREAM_BYTES}-byte cap`, countAt);
  const dataAt = r.pos;
  r.need(dataAt, packedTotal, `${count} blocks (checksums and ${packedTotal - 4 * count} packed bytes)`);
  r.pos += packedTotal;
  return { algorithm, algoAt, blocks, dataAt, total };
}

/** A data file located and its section headers read: everything needed to decode it, and what that costs. */
export interface DataFilePlan {
  start: number;
  generation: Generation;
  sections: [SectionPlan, SectionPlan];
  /** Bytes the two sections decompress to. */
  decoded: number;
  /** Bytes after the second section, up to the indexed size (ignored; warned once per data file read). */
  trailing: number;
}

/** The prefix and the two sections' headers of a data file at `start` (`size` bytes as indexed); nothing decoded. */
export function planDataFile(bytes: Uint8Array, start: number, size: number, generation: Generation, stage: string): DataFilePlan {
  if (size > MAX_DATA_FILE_BYTES) throw new FormatError(stage, start, `data file of ${size} bytes is more than the ${MAX_DATA_FILE_BYTES}-byte cap`);
  const end = Math.min(bytes.length, start + size);
  const r = new Reader(bytes.subarray(0, end), stage, start);
  if (generation === 'ac2') {
    const n = r.u32('prefix count');
    r.need(r.pos, 8 * n, `prefix of ${n} × 8 bytes`);
    r.pos += 8 * n;
  }
  const first = planSection(r, generation);
  const second = planSection(r, generation);
  const decoded = first.total + second.total;
  if (decoded > MAX_STREAM_BYTES) r.fail(`the two sections decompress to ${decoded} bytes, more than the ${MAX_STREAM_BYTES}-byte cap`, start);
  return { start, generation, sections: [first, second], decoded, trailing: end - r.pos };
}

function warnTrailing(plan: DataFilePlan, stage: string, warn: (m: string) => void): void {
  if (plan.trailing) warn(`${stage}: ${plan.trailing} byte(s) after the second section; ignored`);
}

/** Decodes a planned data file's two sections into one buffer of exactly `plan.decoded` bytes. */
export function decodeDataFile(bytes: Uint8Array, plan: DataFilePlan, stage: string): Uint8Array {
  const out = new Uint8Array(plan.decoded);
  let o = 0;
  for (const s of plan.sections) {
    let at = s.dataAt;
    s.blocks.forEach(([raw, packed], i) => {
      const data = bytes.subarray(at + 4, at + 4 + packed); // after the block's checksum (kept, not checked)
      if (packed === raw) out.set(data, o);
      else {
        if (s.algorithm !== 0 && s.algorithm !== 1) {
          const name = ALGORITHM_NAMES[s.algorithm];
          throw new FormatError(stage, s.algoAt, `compression algorithm ${s.algorithm}${name ? ` (${name})` : ' (unknown)'} is not read: only LZO1X (0, 1) and stored blocks are`);
        }
        out.set(lzo1xDecompress(data, raw, `${stage}: block ${i} at ${hex(at + 4)}`), o);
      }
      o += raw;
      at += 4 + packed;
    });
  }
  return out;
}

/** A data file's bytes (from `start`) → its records. Throws FormatError with the data file's offsets. */
export function readDataFile(bytes: Uint8Array, start: number, size: number, generation: Generation, stage: string, warn: (m: string) => void, keep: KeepType = KEEP_ALL, version = 26): RawRecord[] {
  const plan = planDataFile(bytes, start, size, generation, stage);
  warnTrailing(plan, stage, warn);
  return readStreams(decodeDataFile(bytes, plan, stage), generation, `${stage}: streams`, warn, keep, version).records;
}

/**
 * How the joined streams of an AC2-generation data file lay out the table of contents (docs/forge.md):
 * - 'counted' (ACExplorer's reader for AC2 on): entries u32 id, u32 span, i16 (no values follow it); after the
 *   table a u32 byte count and its bytes (version 26: two such blocks), then the records;
 * - 'listed': entries u32 id, u32 span, u16 n and n u16 values; the records right after the table.
 * AC1 and Unity data files have one layout each ('plain': AC1 entries u32 id, u32 span; Unity: u64 id, u32 span,
 * u16 n + n u16 values; records right after the table).
 */
export type StreamLayout = 'plain' | 'counted' | 'listed';

interface TocEntry {
  id: bigint;
  span: number;
}

/** Reads the table of contents at r.pos for `layout`; r.pos ends where the records start. */
function readToc(r: Reader, count: number, generation: Generation, layout: StreamLayout, version: number): TocEntry[] {
  const toc: TocEntry[] = [];
  for (let i = 0; i < count; i++) {
    let id: bigint;
    if (generation === 'unity') {
      const lo = r.u32('id');
      id = (BigInt(r.u32('id')) << 32n) | BigInt(lo);
    } else id = BigInt(r.u32('id'));
    const span = r.u32('span');
    if (generation === 'unity' || layout === 'listed') {
      const n = r.u16('list count');
      r.need(r.pos, 2 * n, `list of ${n} u16 values`);
      r.pos += 2 * n;
    } else if (layout === 'counted') r.i16('extra count');
    toc.push({ id, span });
  }
  if (layout === 'counted') {
    for (let k = 0; k < (version === 26 ? 2 : 1); k++) {
      const n = r.u32('byte count after the table of contents');
      r.need(r.pos, n, `${n} bytes after the table of contents`);
      r.pos += n;
    }
  }
  return toc;
}

/**
 * Checks, without keeping anything, that records laid one after another from r.pos fit the table of contents:
 * each header's check byte is 0 or 1, its name and body fit its span, the spans fit the stream. Returns why not.
 */
function walkRecords(r: Reader, toc: TocEntry[]): string | undefined {
  try {
    for (let i = 0; i < toc.length; i++) {
      const at = r.pos;
      const used = recordHeader(r, i);
      if (toc[i].span < used.size) return `record ${i} at ${hex(at)}: table of contents span ${toc[i].span} bytes, the record's header and body take ${used.size}`;
      r.need(at, toc[i].span, `record ${i} span`);
      r.pos = at + toc[i].span;
    }
    return undefined;
  } catch (e) {
    if (e instanceof FormatError) return e.message.slice(r.stage.length + 2);
    throw e;
  }
}

/** A record's header at r.pos (moved past it): type, body size, name, and the bytes header and body take. */
function recordHeader(r: Reader, i: number): { type: number; bodySize: number; name: Uint8Array; size: number } {
  const at = r.pos;
  const type = r.u32('record type');
  const bodySize = r.u32('body size');
  const nameLen = r.u32('name length');
  if (nameLen > 0xffff) r.fail(`record ${i}: name length ${nameLen} is more than 65535`, at + 8);
  r.need(r.pos, nameLen, 'name');
  const name = r.bytes.subarray(r.pos, r.pos + nameLen);
  r.pos += nameLen;
  const checkAt = r.pos;
  const check = r.u8('check byte');
  if (check === 1) {
    r.need(r.pos, 3, 'check bytes');
    r.pos += 3;
    const n = r.u32('check list count');
    r.need(r.pos, 12 * n, `check list of ${n} × 12 bytes`);
    r.pos += 12 * n;
  } else if (check !== 0) r.fail(`record ${i}: check byte 0 or 1, found ${check}`, checkAt);
  r.need(r.pos, bodySize, `record ${i} body`);
  return { type, bodySize, name, size: r.pos - at + bodySize };
}

/**
 * The joined table of contents and records → records. AC2-generation streams come in two layouts ('counted',
 * 'listed'); the one whose records fit the table of contents is read, the other never guessed: when both or
 * neither fit, the data file is refused saying so.
 */
export function readStreams(
  s: Uint8Array, generation: Generation, stage: string, warn: (m: string) => void, keep: KeepType = KEEP_ALL, version = 26, budget?: RecordBudget,
): { records: RawRecord[]; layout: StreamLayout; counted: Map<number, number> } {
  const r: Reader = new Reader(s, stage);
  const count = r.u16('record count');
  const each = generation === 'ac1' ? 8 : generation === 'ac2' ? 10 : 14;
  r.need(r.pos, count * each, `table of contents of ${count} records`);
  let layout: StreamLayout = generation === 'ac2' ? 'counted' : 'plain';
  let toc: TocEntry[];
  let from: number;
  if (generation !== 'ac2') {
    toc = readToc(r, count, generation, layout, version);
    from = r.pos;
  } else {
    const tried = (['counted', 'listed'] as const).map((l) => {
      const t = new Reader(s, stage, 2);
      try {
        const entries = readToc(t, count, generation, l, version);
        const start = t.pos;
        const why = walkRecords(t, entries);
        return { layout: l, toc: entries, start, why, exact: !why && t.pos === s.length };
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        return { layout: l, toc: [], start: 0, why: e.detail, exact: false };
      }
    });
    const fits = tried.filter((t) => !t.why);
    // Both may fit only by accident; the one that ends exactly at the stream's end is then the layout.
    const pick = fits.length === 1 ? fits[0] : fits.filter((t) => t.exact).length === 1 ? fits.find((t) => t.exact)! : undefined;
    if (!pick) {
      if (fits.length) r.fail(`the table of contents fits both AC2-generation layouts (records after a counted block at ${hex(tried[0].start)}, or after u16 lists at ${hex(tried[1].start)}); not guessing`, 2);
      r.fail(`the records fit neither AC2-generation layout: after the table and its counted byte block(s): ${tried[0].why}; after the table with u16 lists: ${tried[1].why}`, 2);
    }
    layout = pick.layout;
    toc = pick.toc;
    from = pick.start;
  }
  r.pos = from;
  const records: RawRecord[] = [];
  const counted = new Map<number, number>();
  let leftovers = 0;
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const h = recordHeader(r, i);
    const { span } = toc[i];
    if (span < h.size) r.fail(`record ${i} (${hex(h.type)}): table of contents span ${span} bytes, the record's header and body take ${h.size} (${h.size - h.bodySize - h.name.length}-byte header + ${h.name.length}-byte name + ${h.bodySize}-byte body)`, at);
    const k = keep(h.type);
    r.need(at, span, `record ${i} span`);
    if (span > h.size) leftovers++;
    const bodyAt = r.pos;
    r.pos = at + span;
    if (k === false) {
      counted.set(h.type, (counted.get(h.type) ?? 0) + 1);
      continue;
    }
    if (budget && ++budget.kept > budget.max) {
      throw new Error(
        `${budget.stage}: the data files list more than ${budget.max} records of the types the level reads (${RECORDS_FLOOR} + one per ${INPUT_BYTES_PER_RECORD} bytes ` +
          `of the ${budget.inputBytes}-byte file); refusing`,
      );
    }
    const body = k === 'entry' ? EMPTY : s.slice(bodyAt, bodyAt + h.bodySize);
    records.push({ id: toc[i].id, type: h.type, name: h.name.length ? latin1.decode(h.name) : '', body });
  }
  if (leftovers) warn(`${stage}: ${leftovers} record(s) whose table-of-contents span is longer than header and body; the rest was skipped`);
  if (r.pos !== s.length) warn(`${stage}: ${s.length - r.pos} byte(s) after the last record; ignored`);
  return { records, layout, counted };
}
const EMPTY = new Uint8Array(0);
const latin1 = new TextDecoder('latin1');

export interface ForgeDataFile {
  entry: IndexEntry;
  generation: Generation;
  layout: StreamLayout;
  records: RawRecord[];
}

export interface ForgeContents {
  version: number;
  dataFiles: ForgeDataFile[];
  /** Data files that could not be read, with why (`data file <id> "<name>": at <offset>: …`, without the stage). */
  refused: { entry: IndexEntry; why: string }[];
  /** Data files that are not containers (ids 16 and 145), not read. */
  skipped: IndexEntry[];
  /** Index entries that list a data file already listed (the same compressed sections): read once, under the first. */
  repeated: { entry: IndexEntry; sameAs: IndexEntry }[];
  /** Bytes decompressed in all. */
  decoded: number;
  /** Records of the types `keep` only counts, by type. */
  counted: Map<number, number>;
}

/**
 * Most bytes all the data files of one forge may decompress to: DECODED_FLOOR_BYTES plus DECODED_PER_INPUT_BYTE
 * for each byte of the file. LZO1X packs game data a few times over; 32 leaves room for data files of mostly
 * zeros, while a small file whose blocks claim hundreds of times their size (LZO1X runs reach ~250×) is refused
 * before anything is decoded.
 */
export const DECODED_FLOOR_BYTES = 64 << 20;
export const DECODED_PER_INPUT_BYTE = 32;
export const maxDecodedBytes = (inputBytes: number): number => DECODED_FLOOR_BYTES + DECODED_PER_INPUT_BYTE * inputBytes;

/**
 * A whole .forge: the index (a bad one throws), then every data file located and its block tables read; a data
 * file listed again (the same compressed sections) is read once; what they decompress to in all is checked against
 * maxDecodedBytes before any is decoded (throws); then each is decoded and read. A data file that fails (a bad
 * block, an algorithm other than LZO1X, a table of contents that does not add up) is refused with its message and
 * counted, the others are read.
 */
export function readForge(bytes: Uint8Array, stage: string, warn: (m: string) => void, keep: KeepType = KEEP_ALL): ForgeContents {
  const index = readForgeIndex(bytes, stage);
  const out: ForgeContents = { version: index.version, dataFiles: [], refused: [], skipped: [], repeated: [], decoded: 0, counted: new Map() };
  const plans: { entry: IndexEntry; plan: DataFilePlan; where: string }[] = [];
  const bySections = new Map<number, IndexEntry>();
  let total = 0;
  for (const entry of index.entries) {
    const where = `${stage}: data file ${entry.id} "${entry.name}"`;
    if (NON_CONTAINER_DATA_FILES.has(Number(entry.id))) {
      out.skipped.push(entry); // not a container (ids 16 and 145, per the public readers)
      continue;
    }
    try {
      const { start, generation } = dataFileStart(bytes, entry, index.version, where);
      // The indexed size counts from where the data file starts (after the 440-byte prefix too), as the public readers read it.
      if (start + entry.size > bytes.length) throw new FormatError(where, start, `data file of ${entry.size} bytes runs past the end of the ${bytes.length}-byte input`);
      const plan = planDataFile(bytes, start, entry.size, generation, where);
      const key = plan.sections[0].dataAt;
      const first = bySections.get(key);
      if (first) {
        out.repeated.push({ entry, sameAs: first });
        continue;
      }
      bySections.set(key, entry);
      warnTrailing(plan, where, warn);
      plans.push({ entry, plan, where });
      total += plan.decoded;
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      out.refused.push({ entry, why: withoutStage(e.message, stage) });
    }
  }
  const cap = maxDecodedBytes(bytes.length);
  if (total > cap) {
    throw new Error(
      `${stage}: its ${plans.length} data file(s) decompress to ${total} bytes in all, more than the ${cap}-byte cap for a ${bytes.length}-byte file ` +
        `(${DECODED_FLOOR_BYTES} + ${DECODED_PER_INPUT_BYTE} × its size); refusing before decoding any`,
    );
  }
  if (out.repeated.length) {
    const e = out.repeated[0];
    warn(`${stage}: ${out.repeated.length} index entr${out.repeated.length === 1 ? 'y lists' : 'ies list'} a data file listed before (e.g. data file ${e.entry.id} "${e.entry.name}" is data file ${e.sameAs.id} "${e.sameAs.name}"); read once`);
  }
  const budget: RecordBudget = { kept: 0, max: maxKeptRecords(bytes.length), stage, inputBytes: bytes.length };
  for (const { entry, plan, where } of plans) {
    try {
      const streams = decodeDataFile(bytes, plan, where);
      out.decoded += streams.length;
      const { records, layout, counted } = readStreams(streams, plan.generation, `${where}: streams`, warn, keep, index.version, budget);
      out.dataFiles.push({ entry, generation: plan.generation, layout, records });
      for (const [t, n] of counted) out.counted.set(t, (out.counted.get(t) ?? 0) + n);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      out.refused.push({ entry, why: withoutStage(e.message, stage) });
    }
  }
  return out;
}

/** A data file's refusal as the caller quotes it after its own stage: `data file 7 "x": at 0x…: …`. */
const withoutStage = (m: string, stage: string): string => (m.startsWith(`${stage}: `) ? m.slice(stage.length + 2) : m);
