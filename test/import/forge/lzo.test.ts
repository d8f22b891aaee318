// LZO1X decoder: round trips against lzop run as a separate program (its blocks are plain LZO1X streams; the file
// framing is parsed here), hand-crafted streams for each instruction class, and hostile streams (every truncated
// prefix, seeded mutations): each is decoded exactly or refused with a FormatError, never anything else.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/format/cursor.ts';
import { lzo1xDecompress } from '../../../src/import/forge/lzo.ts';
import { prng } from '../../fixtures/meshes.ts';
import { parseLzop } from '../../fixtures/forge.ts';

const HAVE_LZOP = spawnSync('lzop', ['--version']).status === 0;


function lzop(data: Uint8Array, level: string): { data: Uint8Array; size: number }[] {
  const r = spawnSync('lzop', ['-c', level], { input: data, maxBuffer: 1 << 28 });
  expect(r.status, String(r.stderr)).toBe(0);
  return parseLzop(new Uint8Array(r.stdout));
}

/** Inputs with long runs, repeats at every distance class, text and noise. */
function samples(): [string, Uint8Array][] {
  const rand = prng(27);
  const text = new TextEncoder().encode('SphereShape CapsuleShape BoxShape ReferenceListShape Entity EntityGroup '.repeat(900));
  const runs = new Uint8Array(300_000);
  for (let i = 0; i < runs.length; i++) runs[i] = (i >> 12) & 1 ? 0 : (i * 7) & 0xff;
  const far = new Uint8Array(200_000);
  const block = Uint8Array.from({ length: 5000 }, () => Math.floor(rand() * 256));
  for (let i = 0; i < far.length; i++) far[i] = i % 70_000 < 5000 ? block[i % 5000] : Math.floor(rand() * 4);
  const noise = Uint8Array.from({ length: 70_000 }, () => Math.floor(rand() * 256));
  const zeros = new Uint8Array(1 << 20);
  return [['text', text], ['runs', runs], ['far repeats', far], ['noise', noise], ['zeros', zeros], ['one byte', Uint8Array.of(42)]];
}

describe('lzo1x: round trip against lzop', () => {
  if (!HAVE_LZOP) {
    it.skip('lzop is not installed: the round trip against it is skipped', () => {});
    return;
  }
  for (const level of ['-1', '-9']) {
    for (const [name, data] of samples()) {
      it(`${name}, lzop ${level}`, () => {
        const blocks = lzop(data, level);
        const parts = blocks.map((b) => (b.data.length === b.size ? b.data : lzo1xDecompress(b.data, b.size)));
        const joined = Buffer.concat(parts);
        expect(joined.equals(Buffer.from(data))).toBe(true);
        // At least one block really was compressed (not only stored), except for noise.
        if (name !== 'noise' && name !== 'one byte') expect(blocks.some((b) => b.data.length < b.size)).toBe(true);
      });
    }
  }
  it('every truncated prefix of a real stream is refused with a FormatError', () => {
    const data = samples()[0][1].subarray(0, 3000);
    const [b] = lzop(data, '-9');
    for (let n = 0; n < b.data.length; n++) expect(() => lzo1xDecompress(b.data.subarray(0, n), b.size)).toThrow(FormatError);
  });
  it('seeded mutations decode to the declared size or throw a FormatError', () => {
    const data = samples()[1][1].subarray(0, 20_000);
    const [b] = lzop(data, '-1');
    for (let i = 0; i < 3000; i++) {
      const rand = prng(1000 + i);
      const m = b.data.slice();
      for (let k = 0; k < 1 + Math.floor(rand() * 3); k++) m[Math.floor(rand() * m.length)] = Math.floor(rand() * 256);
      try {
        expect(lzo1xDecompress(m, b.size).length).toBe(b.size);
      } catch (e) {
        expect(e, `mutation ${i}`).toBeInstanceOf(FormatError);
      }
    }
  });
});

describe('lzo1x: hand-crafted streams', () => {
  const EOS = [0x11, 0x00, 0x00];
  const dec = (bytes: number[], size: number): string => new TextDecoder().decode(lzo1xDecompress(Uint8Array.from(bytes), size));
  it('a first byte > 17 is a literal run of byte − 17', () => {
    expect(dec([17 + 5, ...'hello'.split('').map((c) => c.charCodeAt(0)), ...EOS], 5)).toBe('hello');
  });
  it('a first byte 18..20 copies 1..3 literals, then a 0..15 opcode is a 2-byte match', () => {
    // "ab" then opcode 0000 DD SS with D = 0, H = 0: distance 1, length 2 → "abbb"? distance (0<<2)+0+1 = 1 → "bb".
    expect(dec([19, 0x61, 0x62, 0x00, 0x00, ...EOS], 4)).toBe('abbb');
  });
  it('a long literal run uses zero bytes of 255 each', () => {
    const n = 18 + 255 + 7; // opcode 0, one zero byte, then 7
    const lit = Array.from({ length: n }, (_, i) => 65 + (i % 26));
    expect(dec([0x00, 0x00, 7, ...lit, ...EOS], n).length).toBe(n);
  });
  it('M2 (64..255), M3 (32..63) and M4 (16..31) matches at their distances', () => {
    // 8 literals "ABCDEFGH"; M2 0b1_01_001_00: length 5 + 1 = 6, distance (H<<3)+1+1 with H = 0 → 2.
    expect(dec([17 + 8, ...'ABCDEFGH'.split('').map((c) => c.charCodeAt(0)), 0b10100100, 0x00, ...EOS], 14)).toBe('ABCDEFGHGHGHGH');
    // M3: 0b001_00011 length 2 + 3 = 5, D = (7 << 2) → distance 8.
    expect(dec([17 + 8, ...'ABCDEFGH'.split('').map((c) => c.charCodeAt(0)), 0x23, 7 << 2, 0x00, ...EOS], 13)).toBe('ABCDEFGHABCDE');
  });
  it('an M4 match 16 KiB back', () => {
    const lit = Array.from({ length: 16390 }, (_, i) => (i * 31) & 0xff);
    // literal run of 16390: opcode 0, extension: 16390 − 18 = 16372 = 64 × 255 + 52.
    const run = [0x00, ...new Array(64).fill(0), 52];
    // M4: 0b0001_0_011 length 2 + 3 = 5, D = 1 << 2 → distance 16384 + 1.
    const out = lzo1xDecompress(Uint8Array.from([...run, ...lit, 0x13, 0x04, 0x00, ...EOS]), 16395);
    expect(Array.from(out.subarray(16390))).toEqual(lit.slice(16390 - 16385, 16390 - 16380));
  });
  it('refuses a match before the output start, output overrun, missing end and trailing input', () => {
    expect(() => lzo1xDecompress(Uint8Array.from([18, 0x61, 0x21, 0x04, 0x00, ...EOS]), 8)).toThrow(/reaches back 2 bytes from output offset 1/);
    expect(() => lzo1xDecompress(Uint8Array.from([17 + 5, 1, 2, 3, 4, 5, ...EOS]), 4)).toThrow(/literal run of 5 bytes .* output is 4 bytes/);
    expect(() => lzo1xDecompress(Uint8Array.from([17 + 2, 1, 2]), 2)).toThrow(/needs a byte at input offset 3/);
    expect(() => lzo1xDecompress(Uint8Array.from([17 + 2, 1, 2, ...EOS, 0]), 2)).toThrow(/1 bytes of input after the end marker/);
    expect(() => lzo1xDecompress(Uint8Array.from([17 + 2, 1, 2, ...EOS]), 3)).toThrow(/ends after 2 bytes of output, 3 declared/);
    expect(() => lzo1xDecompress(Uint8Array.from(EOS), 1 << 30)).toThrow(/declared output size/);
  });
});
