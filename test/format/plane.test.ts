import { describe, expect, it } from 'vitest';
import { NORMAL_LENGTH_TOLERANCE } from '../../src/format/verify.ts';
import { decodeNormal, encodeNormal, encodePlane, facePlane } from '../../src/format/plane.ts';

describe('octahedral face-plane normals', () => {
  it('encodes the axes to the octahedron corners', () => {
    expect(encodeNormal(0, 0, 1)).toEqual([0, 0]);
    expect(encodeNormal(1, 0, 0)).toEqual([32767, 0]);
    expect(encodeNormal(0, -1, 0)).toEqual([0, -32767]);
    expect(encodeNormal(0, 0, -1)).toEqual([32767, 32767]);
  });
  it('round-trips unit normals within snorm16 precision', () => {
    let worst = 0;
    for (let i = 0; i < 2000; i++) {
      const t = Math.acos(1 - 2 * ((i + 0.5) / 2000));
      const p = i * 2.399963;
      const n = [Math.sin(t) * Math.cos(p), Math.sin(t) * Math.sin(p), Math.cos(t)] as const;
      const d = decodeNormal(...encodeNormal(...n));
      worst = Math.max(worst, Math.acos(Math.min(1, d[0] * n[0] + d[1] * n[1] + d[2] * n[2])));
      expect(Math.hypot(...d)).toBeCloseTo(1, 12);
    }
    expect(worst).toBeLessThan(1e-4); // radians
  });
  it('decodes every stored pair to a unit vector, clamping −32768', () => {
    expect(decodeNormal(-32768, -32768).map((v) => Math.round(v * 1e6) / 1e6)).toEqual([-0, -0, -1]);
    expect(Math.hypot(...decodeNormal(12345, -30000))).toBeCloseTo(1, 12);
  });
  it('decodes any i16 pair to a length within the tolerance: verify does not measure stored normals', () => {
    // verify's fast pass relies on this (|x| + |y| + |z| = 1 before normalising, for any pair): a grid over the
    // whole i16 square, and every pair along the extreme and middle rows and columns.
    let worst = 0;
    const at = (u: number, v: number): void => {
      worst = Math.max(worst, Math.abs(Math.hypot(...decodeNormal(u, v)) - 1));
    };
    for (let u = -32768; u <= 32767; u += 61) for (let v = -32768; v <= 32767; v += 61) at(u, v);
    for (const e of [-32768, -32767, -1, 0, 1, 32767]) for (let k = -32768; k <= 32767; k++) (at(e, k), at(k, e));
    expect(worst).toBeLessThan(NORMAL_LENGTH_TOLERANCE / 1000);
  });
  it('keeps the offset as f32 and reads a face plane from the arrays', () => {
    const e = encodePlane([0, 1, 0], 0.1);
    expect(e.offset).toBe(Math.fround(0.1));
    const p = facePlane(new Int16Array([0, 0, ...e.normal]), new Float32Array([0, e.offset]), 1);
    expect(p.normal[1]).toBeCloseTo(1, 9);
    expect(p.offset).toBe(Math.fround(0.1));
  });
});
