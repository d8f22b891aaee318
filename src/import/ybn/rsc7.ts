// RSC7 resource container of a GTA V .ybn: a 16-byte header (magic "RSC7", version, system and graphics page
// flags), then one raw-deflate stream holding the system segment followed by the graphics segment. Structures
// point into them with 64-bit virtual (0x5…, system) and physical (0x6…, graphics) addresses.
// Spec: ../shared/spec/ybn-bounds.md (the bounds inside); the container is the game's common resource wrapper.
// Every read goes through the cursor Reader (src/format/cursor.ts); no size from the file drives an allocation
// before it is checked against the input.
import { inflateRawSync, inflateSync } from 'node:zlib';
import { FormatError, hex, Reader } from '../../format/cursor.ts';

/** "RSC7" read as a little-endian u32. */
export const RSC7_MAGIC = 0x37435352;
/** The resource version of every YBN the game ships (a different one is read anyway, with a warning). */
export const YBN_VERSION = 43;
export const HEADER_SIZE = 16;
/**
 * Most bytes the two segments may declare together. The largest YBN in the game is a few MB inflated; this only
 * stops a forged header from asking for gigabytes.
 */
export const MAX_RESOURCE_BYTES = 256 << 20;
/**
 * Deflate cannot expand a stream by more than ~1032:1 (a 258-byte match per 2 bits, at best). Declared segment
 * sizes above that ratio of the stream's own size cannot be real: refused before inflating.
 */
export const MAX_DEFLATE_RATIO = 1032;

export const VIRTUAL_BASE = 0x50000000;
export const PHYSICAL_BASE = 0x60000000;

/**
 * Bytes described by a page-flags word: a base page size 0x200 << (bits 0–3), times a page count made of nine
 * bit fields (bit 4: 256 pages, 5–6: ×128, 7–10: ×64, 11–16: ×32, 17–23: ×16, 24: 8, 25: 4, 26: 2, 27: 1).
 * Bits 28–31 carry half of the resource version.
 */
export function pageFlagsSize(flags: number): number {
  const pages =
    ((flags >>> 4) & 0x1) * 256 +
    ((flags >>> 5) & 0x3) * 128 +
    ((flags >>> 7) & 0xf) * 64 +
    ((flags >>> 11) & 0x3f) * 32 +
    ((flags >>> 17) & 0x7f) * 16 +
    ((flags >>> 24) & 0x1) * 8 +
    ((flags >>> 25) & 0x1) * 4 +
    ((flags >>> 26) & 0x1) * 2 +
    ((flags >>> 27) & 0x1);
  return pages * (0x200 * 2 ** (flags & 0xf));
}

export interface Rsc7 {
  version: number;
  systemFlags: number;
  graphicsFlags: number;
  /** Segment sizes from the page flags. */
  systemSize: number;
  graphicsSize: number;
  /** The inflated body: system segment, then graphics segment. */
  body: Uint8Array;
}

/** Header + inflate. Throws FormatError (stage `stage`) naming the field. Warnings go to `warn`. */
export function readRsc7(bytes: Uint8Array, stage: string, warn: (m: string) => void, expect: { version: number; name: string } = { version: YBN_VERSION, name: 'YBN' }): Rsc7 {
  const r = new Reader(bytes, stage);
  const magic = r.u32At(0, 'RSC7 magic');
  if (magic !== RSC7_MAGIC) {
    const text = Array.from(bytes.subarray(0, 4), (c) => (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.')).join('');
    r.fail(`RSC7 magic: expected "RSC7" (${hex(RSC7_MAGIC)}), found "${text}" (${hex(magic)}); not a compiled ${expect.name} resource`, 0);
  }
  const version = r.u32At(4, 'RSC7 version');
  const systemFlags = r.u32At(8, 'system page flags');
  const graphicsFlags = r.u32At(12, 'graphics page flags');
  if (version !== expect.version) warn(`${stage}: RSC7 version ${version}, ${expect.name} files are version ${expect.version}; reading it as a ${expect.name}`);
  const systemSize = pageFlagsSize(systemFlags);
  const graphicsSize = pageFlagsSize(graphicsFlags);
  if (systemSize === 0) r.fail(`system page flags ${hex(systemFlags)}: declare a 0-byte system segment (the ${expect.name === 'YBN' ? 'bounds live' : 'data lives'} there)`, 8);
  const declared = systemSize + graphicsSize;
  if (declared > MAX_RESOURCE_BYTES) {
    r.fail(`page flags ${hex(systemFlags)}/${hex(graphicsFlags)}: declare ${declared} bytes, more than the ${MAX_RESOURCE_BYTES}-byte limit`, 8);
  }
  const stream = bytes.subarray(HEADER_SIZE);
  if (stream.length === 0) r.fail('deflate body: missing (the file ends after the 16-byte header)', HEADER_SIZE);
  if (declared > stream.length * MAX_DEFLATE_RATIO + 64) {
    r.fail(`page flags ${hex(systemFlags)}/${hex(graphicsFlags)}: declare ${declared} bytes, which a ${stream.length}-byte deflate stream cannot hold`, 8);
  }
  const body = inflate(stream, declared, stage);
  if (body.length < declared) {
    warn(`${stage}: the deflate body inflates to ${body.length} bytes, the page flags declare ${declared}; reading what is there`);
  }
  return { version, systemFlags, graphicsFlags, systemSize, graphicsSize, body };
}

/** Raw deflate (what the game writes), else a zlib-wrapped stream (some tools); output bounded by `limit`. */
function inflate(stream: Uint8Array, limit: number, stage: string): Uint8Array {
  const attempt = (f: typeof inflateRawSync): Uint8Array => new Uint8Array(f(stream, { maxOutputLength: Math.max(1, limit) }));
  try {
    return attempt(inflateRawSync);
  } catch (raw) {
    const zlibHeader = stream.length >= 2 && (stream[0] & 0x0f) === 8 && ((stream[0] << 8) | stream[1]) % 31 === 0;
    if (zlibHeader) {
      try {
        return attempt(inflateSync);
      } catch {
        // report the raw-deflate failure: that is the format
      }
    }
    const e = raw as NodeJS.ErrnoException;
    const detail = e.code === 'ERR_BUFFER_TOO_LARGE' ? `inflates to more than the ${limit} bytes the page flags declare` : `corrupt (${e.message})`;
    throw new FormatError(stage, HEADER_SIZE, `deflate body: ${detail}`);
  }
}

export type Segment = 'system' | 'graphics';

/**
 * Resolves resource pointers against the two segments and reads through the one Reader. A pointer is a u64:
 * 0 is null, 0x5XXXXXXX is system offset XXXXXXX, 0x6XXXXXXX graphics offset XXXXXXX; anything else (or a
 * non-zero high word) is refused. A resolved span must lie inside the segment it points into.
 */
export class ResourceReader {
  readonly r: Reader;
  private readonly sysEnd: number;
  private readonly gfxEnd: number;

  constructor(readonly res: Pick<Rsc7, 'body' | 'systemSize' | 'graphicsSize'>, readonly stage: string) {
    this.r = new Reader(res.body, stage);
    this.sysEnd = Math.min(res.systemSize, res.body.length);
    this.gfxEnd = Math.min(res.systemSize + res.graphicsSize, res.body.length);
  }

  /** Reads the pointer at `at` (an offset in the body); returns the body offset it points to, or null. */
  ptr(at: number, what: string): number | null {
    const lo = this.r.u32At(at, `${what} pointer`);
    const hi = this.r.u32At(at + 4, `${what} pointer`);
    if (lo === 0 && hi === 0) return null;
    if (hi !== 0) this.fail(`${what} pointer: expected a 32-bit resource address, found high word ${hex(hi)} (${hex(hi)}${lo.toString(16).padStart(8, '0')})`, at);
    const base = lo >>> 28;
    const offset = lo & 0x0fffffff;
    if (base === 5) {
      if (offset >= this.res.systemSize) this.fail(`${what} pointer ${hex(lo)}: system offset ${hex(offset)} is outside the ${hex(this.res.systemSize)}-byte system segment`, at);
      return offset;
    }
    if (base === 6) {
      if (offset >= this.res.graphicsSize) this.fail(`${what} pointer ${hex(lo)}: graphics offset ${hex(offset)} is outside the ${hex(this.res.graphicsSize)}-byte graphics segment`, at);
      return this.res.systemSize + offset;
    }
    return this.fail(`${what} pointer: expected a system (0x5…) or graphics (0x6…) address, found ${hex(lo)}`, at);
  }

  /** Throws unless [at, at + size) lies within one segment and within the inflated body. */
  span(at: number, size: number, what: string): void {
    const inSystem = at < this.res.systemSize;
    const end = inSystem ? this.sysEnd : this.gfxEnd;
    const name: Segment = inSystem ? 'system' : 'graphics';
    if (!Number.isSafeInteger(size) || size < 0 || at + size > end) {
      const left = Math.max(0, end - at);
      this.fail(`${what}: needs ${size} bytes, the ${name} segment has ${left} left`, at);
    }
  }

  fail(detail: string, at: number): never {
    throw new FormatError(this.stage, at, detail);
  }
}
