// Imported meshes live in shared memory (SharedArrayBuffer), so worker threads read them where they are: the
// validation report and the cells' gathering (src/tiling/cells.ts gatherGroup) get the objects' arrays without a
// structured-clone copy. A level's many small meshes are carved out of larger chunks, because every buffer costs
// ~1.5–2 µs to create whatever its size (8,200 of them for the 1M bench level's 4,100 props: ~15 ms).
//
// Design log
// - 2026-12-01: posting the bench level's objects to the validating worker copied them (45–60 ms of the main
//   thread's import in a CPU profile); cells gathered on the encoding threads need the objects there too.

/** Chunk size in bytes: small arrays are views into one; at most CHUNK_BYTES − ALONE_BYTES of a chunk is left unused. */
export const CHUNK_BYTES = 4 << 20;
/** Arrays of at least this many bytes get a buffer of their own. */
export const ALONE_BYTES = 256 << 10;

/** Hands out Float32Array and Uint32Array views of shared memory, zero-filled; never reuses space. */
export class SharedArena {
  private chunk: SharedArrayBuffer | undefined;
  private used = 0;

  f32(length: number): Float32Array {
    const [buffer, offset] = this.take(4 * length);
    return new Float32Array(buffer, offset, length);
  }

  u32(length: number): Uint32Array {
    const [buffer, offset] = this.take(4 * length);
    return new Uint32Array(buffer, offset, length);
  }

  /** A copy of `a` in shared memory. */
  copyU32(a: ArrayLike<number>): Uint32Array {
    const out = this.u32(a.length);
    out.set(a);
    return out;
  }

  copyF32(a: ArrayLike<number>): Float32Array {
    const out = this.f32(a.length);
    out.set(a);
    return out;
  }

  private take(bytes: number): [SharedArrayBuffer, number] {
    if (bytes >= ALONE_BYTES) return [new SharedArrayBuffer(bytes), 0];
    if (!this.chunk || this.used + bytes > CHUNK_BYTES) {
      this.chunk = new SharedArrayBuffer(CHUNK_BYTES);
      this.used = 0;
    }
    const offset = this.used;
    this.used += bytes; // multiples of 4: every view stays aligned
    return [this.chunk, offset];
  }
}

export const isShared = (a: ArrayBufferView): boolean => a.buffer instanceof SharedArrayBuffer;

/** The lists end to end in an array from `make` (one list: itself, no copy). */
export function concatU32(lists: Uint32Array[], make: (length: number) => Uint32Array = (n) => new Uint32Array(n)): Uint32Array {
  if (lists.length === 1) return lists[0];
  const out = make(lists.reduce((s, l) => s + l.length, 0));
  let o = 0;
  for (const l of lists) {
    out.set(l, o);
    o += l.length;
  }
  return out;
}
