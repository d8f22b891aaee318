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

/** Bounds-checked little-endian writer into a buffer allocated once at its planned size. */
export class Writer {
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
  /** Advances to the next multiple of `n`, leaving zero bytes. */
  align(n: number): this {
    const to = Math.ceil(this.pos / n) * n;
    this.need(this.pos, to - this.pos, `align ${n}`);
    this.pos = to;
    return this;
  }
}

/** Rounds `n` up to a multiple of `a`. */
export const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;
