import { describe, expect, it } from 'vitest';
import { ALONE_BYTES, CHUNK_BYTES, isShared, SharedArena } from '../../src/import/shared-arena.ts';

describe('SharedArena', () => {
  it('carves small arrays out of one shared chunk, aligned and not overlapping', () => {
    const arena = new SharedArena();
    const a = arena.f32(3);
    const b = arena.u32(5);
    const c = arena.copyU32([7, 8, 9]);
    for (const v of [a, b, c]) expect(isShared(v)).toBe(true);
    expect(b.buffer).toBe(a.buffer);
    expect([a.byteOffset, b.byteOffset, c.byteOffset]).toEqual([0, 12, 32]);
    a.fill(1);
    b.fill(2);
    expect(Array.from(c)).toEqual([7, 8, 9]);
    expect(Array.from(a)).toEqual([1, 1, 1]);
  });
  it('gives big arrays a buffer of their own and starts a new chunk when one is full', () => {
    const arena = new SharedArena();
    const small = arena.f32(1);
    const big = arena.f32(ALONE_BYTES / 4);
    expect(big.buffer).not.toBe(small.buffer);
    expect(big.byteLength).toBe(big.buffer.byteLength);
    const fill: Uint32Array[] = [];
    let used = 4;
    while (used + ALONE_BYTES - 4 <= CHUNK_BYTES) (fill.push(arena.u32(ALONE_BYTES / 4 - 1)), (used += ALONE_BYTES - 4));
    expect(fill.every((f) => f.buffer === small.buffer)).toBe(true);
    const next = arena.u32(ALONE_BYTES / 4 - 1);
    expect(next.buffer).not.toBe(small.buffer);
    expect(next.byteOffset).toBe(0);
  });
  it('copies Float32 values exactly', () => {
    const src = Float32Array.from([-0, 1.5, 3e38]);
    const out = new SharedArena().copyF32(src);
    expect(Object.is(out[0], -0)).toBe(true);
    expect(Array.from(out)).toEqual(Array.from(src));
  });
});
