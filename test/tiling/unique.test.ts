import { describe, expect, it } from 'vitest';
import { FINGERPRINT_WINDOW, fingerprint, firstOfEach, firstOfEachFile } from '../../src/tiling/unique.ts';
import { checkOf } from '../../src/output/file-write.ts';

const bytes = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 7) & 0xff);

describe('firstOfEach (unique-collision-files)', () => {
  it('counts identical files once, in order', () => {
    const a = bytes(5000, 1), b = bytes(5000, 2), c = bytes(4999, 1);
    expect(firstOfEach([a, b, a.slice(), c, b.slice(), a.slice()])).toEqual([true, true, false, true, false, false]);
  });
  it('tells apart files that differ only outside the fingerprint windows', () => {
    const n = 8 * FINGERPRINT_WINDOW;
    const a = bytes(n, 3);
    const b = a.slice();
    b[FINGERPRINT_WINDOW + 5] ^= 1; // between the first window and the middle one
    expect(fingerprint(b)).toBe(fingerprint(a));
    expect(firstOfEach([a, b, a.slice(), b.slice()])).toEqual([true, true, false, false]);
  });
  it('reads no bytes of files that the CRC-32 they carry tells apart (a tiled level: equal sizes and fingerprints)', () => {
    const n = 8 * FINGERPRINT_WINDOW;
    const a = bytes(n, 3), b = a.slice();
    b[FINGERPRINT_WINDOW + 5] ^= 1;
    const unread = (x: Uint8Array) => ({
      size: x.length, fingerprint: fingerprint(x), check: checkOf(x),
      get bytes(): Uint8Array {
        throw new Error('bytes read');
      },
    });
    expect(firstOfEachFile([unread(a), unread(b)])).toEqual([true, true]);
    // Equal size, fingerprint and CRC-32: compared in full (their bytes read), so only equal bytes count once.
    const known = (x: Uint8Array) => ({ size: x.length, fingerprint: fingerprint(x), check: checkOf(x), bytes: x });
    expect(firstOfEachFile([known(a), known(a.slice()), { bytes: b }, unread(b.slice(1))])).toEqual([true, false, true, true]);
  });
  it('fingerprints short and empty files', () => {
    expect(firstOfEach([new Uint8Array(0), new Uint8Array(0), Uint8Array.of(1), Uint8Array.of(2)])).toEqual([true, false, true, true]);
    expect(fingerprint(Uint8Array.of(1))).not.toBe(fingerprint(Uint8Array.of(2)));
  });
});
