import { describe, expect, it } from 'vitest';
import { FINGERPRINT_WINDOW, fingerprint, firstOfEach } from '../../src/tiling/unique.ts';

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
  it('fingerprints short and empty files', () => {
    expect(firstOfEach([new Uint8Array(0), new Uint8Array(0), Uint8Array.of(1), Uint8Array.of(2)])).toEqual([true, false, true, true]);
    expect(fingerprint(Uint8Array.of(1))).not.toBe(fingerprint(Uint8Array.of(2)));
  });
});
