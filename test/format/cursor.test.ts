import { describe, expect, it } from 'vitest';
import { FormatError, Reader, Writer, alignUp } from '../../src/format/cursor.ts';

describe('cursor', () => {
  it('writes and reads little-endian fields in order', () => {
    const w = new Writer(17);
    w.u32(0x69af7015).u16(0xfffe).i16(-2).f32(1.5).align(8).u8(7);
    expect(Array.from(w.bytes.slice(0, 4))).toEqual([0x15, 0x70, 0xaf, 0x69]);
    const r = new Reader(w.bytes);
    expect(r.u32()).toBe(0x69af7015);
    expect(r.u16()).toBe(0xfffe);
    expect(r.i16()).toBe(-2);
    expect(r.f32()).toBe(1.5);
    expect(r.u8At(16)).toBe(7);
  });

  it('refuses reads past the end with offset and sizes', () => {
    const r = new Reader(new Uint8Array(6), 'header');
    expect(() => r.u32At(4, 'part count')).toThrow(FormatError);
    expect(() => r.u32At(4, 'part count')).toThrow(/header: at 0x4: part count: needs 4 bytes, input is 6 bytes \(2 left\)/);
    expect(() => r.u8At(-1)).toThrow(FormatError);
  });

  it('refuses writes past the planned size', () => {
    const w = new Writer(3, 'shape 0');
    expect(() => w.u32(1)).toThrow(/shape 0: at 0x0: u32: 4 bytes past the planned size 3/);
  });

  it('aligns up', () => {
    expect([alignUp(0, 4), alignUp(1, 4), alignUp(8, 8), alignUp(9, 8)]).toEqual([0, 4, 8, 16]);
  });
});
