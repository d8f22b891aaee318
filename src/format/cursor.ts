// Byte cursor over a DataView: explicit little-endian, bounds-checked, errors that carry the offset, what was
// expected and what was found. Every on-disk record in src/format/ reads and writes through these two classes;
// nothing in the codec makes a typed-array view at an unaligned offset.

/** A decode or encode failure at a byte offset. `stage` names the record ("header", "shape 2", ...). */
export class FormatError extends Error {
  constructor(
    readonly stage: string,
    readonly offset: number,
    readonly detail: string,
  ) {
    super(`${stage}: at 0x${offset.toString(16)}: ${detail}`);
    this.name = 'FormatError';
  }
}

export const hex = (n: number): string => `0x${n.toString(16)}`;

/**
 * A plain Uint8Array over the same memory as `bytes`, whatever view it is (a Node Buffer, a pooled Buffer at a
 * byteOffset inside a shared slab, a subarray). Readers take their input through this: a Buffer's `slice` does not
 * copy, and its `.buffer` is the whole slab, so code written for Uint8Array semantics would read someone else's bytes.
 */
export const plainBytes = (bytes: ArrayBufferView): Uint8Array =>
  Object.getPrototypeOf(bytes) === Uint8Array.prototype ? (bytes as Uint8Array) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A fresh copy of `n` bytes of `bytes` from `at`, in a buffer of its own (offset 0, nothing else in it). */
export const copyBytes = (bytes: Uint8Array, at: number, n: number): Uint8Array => {
  const out = new Uint8Array(n);
  out.set(bytes.subarray(at, at + n));
  return out;
};

/** Bounds-checked little-endian reader. Reads are absolute (`u32At`) or sequential (`u32`). */
export class Reader {
  readonly view: DataView;
  pos: number;

  readonly bytes: Uint8Array;

  constructor(
    bytes: Uint8Array,
    readonly stage = 'read',
    pos = 0,
  ) {
    this.bytes = plainBytes(bytes);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = pos;
  }

  get length(): number {
    return this.bytes.byteLength;
  }

  /** Throws unless [at, at + size) lies inside the input. */
  need(at: number, size: number, what: string): void {
    if (!Number.isInteger(at) || at < 0 || size < 0 || at + size > this.length) {
      throw new FormatError(
        this.stage,
        at,
        `${what}: needs ${size} bytes, input is ${this.length} bytes (${Math.max(0, this.length - Math.max(at, 0))} left)`,
      );
    }
  }

  u8At(at: number, what = 'u8'): number {
    this.need(at, 1, what);
    return this.view.getUint8(at);
  }
  u16At(at: number, what = 'u16'): number {
    this.need(at, 2, what);
    return this.view.getUint16(at, true);
  }
  i16At(at: number, what = 'i16'): number {
    this.need(at, 2, what);
    return this.view.getInt16(at, true);
  }
  u32At(at: number, what = 'u32'): number {
    this.need(at, 4, what);
    return this.view.getUint32(at, true);
  }
  f32At(at: number, what = 'f32'): number {
    this.need(at, 4, what);
    return this.view.getFloat32(at, true);
  }
  bytesAt(at: number, size: number, what = 'bytes'): Uint8Array {
    this.need(at, size, what);
    return copyBytes(this.bytes, at, size);
  }

  u8(what?: string): number {
    const v = this.u8At(this.pos, what);
    this.pos += 1;
    return v;
  }
  u16(what?: string): number {
    const v = this.u16At(this.pos, what);
    this.pos += 2;
    return v;
  }
  i16(what?: string): number {
    const v = this.i16At(this.pos, what);
    this.pos += 2;
    return v;
  }
  u32(what?: string): number {
    const v = this.u32At(this.pos, what);
    this.pos += 4;
    return v;
  }
  f32(what?: string): number {
    const v = this.f32At(this.pos, what);
    this.pos += 4;
    return v;
  }
  bytesN(size: number, what?: string): Uint8Array {
    const v = this.bytesAt(this.pos, size, what);
    this.pos += size;
    return v;
  }

  /** Throws a FormatError at the cursor (or `at`) with the expected and actual values. */
  fail(detail: string, at = this.pos): never {
    throw new FormatError(this.stage, at, detail);
  }
}

/**
 * What the record writers write through: a Writer (into a buffer of the planned size) or a Comparer (against bytes
 * already there, writing nothing).
 */
export interface ByteSink {
  readonly stage: string;
  pos: number;
  seek(at: number): this;
  u8(v: number, what?: string): this;
  u16(v: number, what?: string): this;
  i16(v: number, what?: string): this;
  u32(v: number, what?: string): this;
  f32(v: number, what?: string): this;
  raw(src: Uint8Array, what?: string): this;
  /** a[0], b[0], a[1], b[1], ... as little-endian u32 words (a and b of one length). */
  interleave32(a: Uint32Array, b: Uint32Array, what?: string): this;
  align(n: number): this;
}

/** Bounds-checked little-endian writer into a buffer allocated once at its planned size. */
export class Writer implements ByteSink {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  pos = 0;

  constructor(
    size: number,
    readonly stage = 'write',
  ) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  private need(at: number, size: number, what: string): void {
    if (at < 0 || at + size > this.bytes.byteLength) {
      throw new FormatError(this.stage, at, `${what}: ${size} bytes past the planned size ${this.bytes.byteLength}`);
    }
  }

  seek(at: number): this {
    this.need(at, 0, 'seek');
    this.pos = at;
    return this;
  }
  u8(v: number, what = 'u8'): this {
    this.need(this.pos, 1, what);
    this.view.setUint8(this.pos, v);
    this.pos += 1;
    return this;
  }
  u16(v: number, what = 'u16'): this {
    this.need(this.pos, 2, what);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
    return this;
  }
  i16(v: number, what = 'i16'): this {
    this.need(this.pos, 2, what);
    this.view.setInt16(this.pos, v, true);
    this.pos += 2;
    return this;
  }
  u32(v: number, what = 'u32'): this {
    this.need(this.pos, 4, what);
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
    return this;
  }
  f32(v: number, what = 'f32'): this {
    this.need(this.pos, 4, what);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
    return this;
  }
  raw(src: Uint8Array, what = 'bytes'): this {
    this.need(this.pos, src.byteLength, what);
    this.bytes.set(src, this.pos);
    this.pos += src.byteLength;
    return this;
  }
  interleave32(a: Uint32Array, b: Uint32Array, what = 'words'): this {
    const n = pairCount(a, b, this.stage, this.pos, what);
    this.need(this.pos, 8 * n, what);
    if ((this.bytes.byteOffset + this.pos) % 4 === 0) {
      const out = new Uint32Array(this.bytes.buffer, this.bytes.byteOffset + this.pos, 2 * n);
      for (let k = 0; k < n; k++) {
        out[2 * k] = a[k];
        out[2 * k + 1] = b[k];
      }
    } else {
      for (let k = 0; k < n; k++) {
        this.view.setUint32(this.pos + 8 * k, a[k], true);
        this.view.setUint32(this.pos + 8 * k + 4, b[k], true);
      }
    }
    this.pos += 8 * n;
    return this;
  }
  /** Advances to the next multiple of `n`, leaving zero bytes. */
  align(n: number): this {
    const to = Math.ceil(this.pos / n) * n;
    this.need(this.pos, to - this.pos, `align ${n}`);
    this.pos = to;
    return this;
  }
}

function pairCount(a: Uint32Array, b: Uint32Array, stage: string, at: number, what: string): number {
  if (a.length !== b.length) throw new FormatError(stage, at, `${what}: ${a.length} words to pair with ${b.length}`);
  return a.length;
}

/**
 * Takes a Writer's calls without writing: checks each against `expected`, whose length is the planned size (the
 * same bounds and errors as a Writer of that size), each value encoded by the same DataView call the Writer makes.
 * equal() is true only when every byte written matches `expected` and every byte nothing wrote is zero in it: when
 * a Writer given the same calls would have produced `expected` exactly. A byte written twice must match both times
 * (stricter than a Writer, where the last write wins: equal() may say false where the bytes would agree, never the
 * other way round).
 */
export class Comparer implements ByteSink {
  pos = 0;
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private readonly scratch = new DataView(new ArrayBuffer(8));
  private differs = false;
  /** [start, end) of each run of bytes written (a run ends at a seek or an align). */
  private readonly runs: number[] = [];
  private runStart = 0;

  constructor(
    expected: Uint8Array,
    readonly stage = 'compare',
  ) {
    this.bytes = plainBytes(expected);
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  private need(at: number, size: number, what: string): void {
    if (at < 0 || at + size > this.bytes.byteLength) {
      throw new FormatError(this.stage, at, `${what}: ${size} bytes past the planned size ${this.bytes.byteLength}`);
    }
  }
  private endRun(): void {
    if (this.pos > this.runStart) this.runs.push(this.runStart, this.pos);
  }
  /** Compares the first `size` (1, 2 or 4) bytes of the scratch view (the value as a Writer encodes it) at pos. */
  private scalar(size: number, what: string): this {
    this.need(this.pos, size, what);
    const at = this.pos, a = this.scratch, b = this.view;
    const same = size === 4 ? a.getUint32(0) === b.getUint32(at) : size === 2 ? a.getUint16(0) === b.getUint16(at) : a.getUint8(0) === b.getUint8(at);
    if (!same) this.differs = true;
    this.pos += size;
    return this;
  }

  seek(at: number): this {
    this.need(at, 0, 'seek');
    this.endRun();
    this.pos = this.runStart = at;
    return this;
  }
  u8(v: number, what = 'u8'): this {
    this.scratch.setUint8(0, v);
    return this.scalar(1, what);
  }
  u16(v: number, what = 'u16'): this {
    this.scratch.setUint16(0, v, true);
    return this.scalar(2, what);
  }
  i16(v: number, what = 'i16'): this {
    this.scratch.setInt16(0, v, true);
    return this.scalar(2, what);
  }
  u32(v: number, what = 'u32'): this {
    this.scratch.setUint32(0, v >>> 0, true);
    return this.scalar(4, what);
  }
  f32(v: number, what = 'f32'): this {
    this.scratch.setFloat32(0, v, true);
    return this.scalar(4, what);
  }
  raw(src: Uint8Array, what = 'bytes'): this {
    const n = src.byteLength;
    this.need(this.pos, n, what);
    // A view of these very bytes (a record read without a copy) matches itself.
    const same = src.buffer === this.bytes.buffer && src.byteOffset === this.bytes.byteOffset + this.pos;
    if (!same && !Buffer.from(src.buffer, src.byteOffset, n).equals(Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.pos, n))) this.differs = true;
    this.pos += n;
    return this;
  }
  interleave32(a: Uint32Array, b: Uint32Array, what = 'words'): this {
    const n = pairCount(a, b, this.stage, this.pos, what);
    this.need(this.pos, 8 * n, what);
    if ((this.bytes.byteOffset + this.pos) % 4 === 0) {
      const has = new Uint32Array(this.bytes.buffer, this.bytes.byteOffset + this.pos, 2 * n);
      for (let k = 0; k < n; k++) {
        if (has[2 * k] !== a[k] || has[2 * k + 1] !== b[k]) {
          this.differs = true;
          break;
        }
      }
    } else {
      for (let k = 0; k < n; k++) {
        if (this.view.getUint32(this.pos + 8 * k, true) !== a[k] || this.view.getUint32(this.pos + 8 * k + 4, true) !== b[k]) this.differs = true;
      }
    }
    this.pos += 8 * n;
    return this;
  }
  align(n: number): this {
    const to = Math.ceil(this.pos / n) * n;
    this.need(this.pos, to - this.pos, `align ${n}`);
    this.endRun();
    this.pos = this.runStart = to;
    return this;
  }

  /** Whether a Writer given the same calls would have written `expected` exactly (see the class). */
  equal(): boolean {
    this.endRun();
    if (this.differs) return false;
    // Runs by start: each key is start · 2^21 + run index, exact in an f64 for starts below 2^32 and fewer than 2^21
    // runs (anything bigger is not vouched for), sorted as numbers without a comparator.
    const n = this.runs.length / 2;
    if (n >= 2 ** 21 || this.bytes.byteLength >= 2 ** 32) return false;
    const keys = new Float64Array(n);
    for (let k = 0; k < n; k++) keys[k] = this.runs[2 * k] * 2 ** 21 + k;
    keys.sort();
    let from = 0;
    for (let i = 0; i < n; i++) {
      const k = keys[i] % 2 ** 21;
      if (!this.zero(from, this.runs[2 * k])) return false;
      from = Math.max(from, this.runs[2 * k + 1]);
    }
    return this.zero(from, this.bytes.byteLength);
  }
  private zero(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (this.bytes[i] !== 0) return false;
    return true;
  }
}

/** Rounds `n` up to a multiple of `a`. */
export const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;
