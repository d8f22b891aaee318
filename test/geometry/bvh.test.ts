// Tree building blocks (src/geometry/bvh.ts): quantisation is the largest conservative step, node words decode
// (by the codec's independent decoder) to boxes holding both children, the heap's leaf counts add up.
import { describe, expect, it } from 'vitest';
import { decodeNode as codecDecode, type Box6 } from '../../src/format/tree.ts';
import { decodeNode, encodeNode, maxPlane, minPlane, quantiseMax, quantiseMin, subtreeLeaves } from '../../src/geometry/bvh.ts';
import { prng } from '../fixtures/meshes.ts';

const f = Math.fround;

describe('bvh', () => {
  it('quantiseMin/Max give the largest step whose decoded plane does not cut into the bound (brute force)', () => {
    const r = prng(7);
    for (let t = 0; t < 300; t++) {
      const lo = f((r() - 0.5) * 2000), hi = f(lo + f(r() * 50 + 1e-3));
      const v = f(lo + (hi - lo) * r());
      for (const bins of [1024, 512]) {
        let kMin = 0, kMax = 0;
        for (let k = 0; k < bins; k++) {
          if (minPlane(lo, hi, k, bins) <= v) kMin = k;
          if (maxPlane(lo, hi, k, bins) >= v) kMax = k;
        }
        expect(quantiseMin(lo, hi, v, bins)).toBe(kMin);
        expect(quantiseMax(lo, hi, v, bins)).toBe(kMax);
      }
    }
    expect(quantiseMin(3, 3, 3, 1024)).toBe(0); // empty extent
  });

  it('node words decode (ours and the codec decoder agree) to child boxes that hold the true children', () => {
    const r = prng(11);
    const nodes = new Uint32Array(2);
    const out = new Float64Array(12);
    for (let t = 0; t < 500; t++) {
      const p = new Float64Array(6), l = new Float64Array(6), q = new Float64Array(6);
      for (let a = 0; a < 3; a++) {
        p[a] = f((r() - 0.5) * 100);
        p[a + 3] = f(p[a] + f(r() * 20 + 0.01));
        const span = p[a + 3] - p[a];
        for (const b of [l, q]) {
          const x = f(p[a] + span * r()), y = f(p[a] + span * r());
          b[a] = Math.min(x, y); b[a + 3] = Math.max(x, y);
        }
      }
      if (q[0] < l[0]) [l[0], q[0]] = [q[0], l[0]]; // the left child starts lowest in x (min x has no owner bit)
      encodeNode(p, 0, l, 0, q, 0, nodes, 0);
      decodeNode(p, 0, nodes[0], nodes[1], out, 0, 6);
      const [cl, cr] = codecDecode(Array.from(p) as Box6, nodes[0], nodes[1]);
      expect(Array.from(out)).toEqual([...cl, ...cr]);
      for (let a = 0; a < 3; a++) {
        expect(out[a]).toBeLessThanOrEqual(l[a]);
        expect(out[a + 3]).toBeGreaterThanOrEqual(l[a + 3]);
        expect(out[6 + a]).toBeLessThanOrEqual(q[a]);
        expect(out[9 + a]).toBeGreaterThanOrEqual(q[a + 3]);
      }
    }
  });

  it('subtree leaf counts of the complete heap add up', () => {
    for (const n of [2, 3, 5, 7, 100, 1000, 21845]) {
      expect(subtreeLeaves(0, n)).toBe(n);
      for (let i = 0; i < n - 1; i++) expect(subtreeLeaves(2 * i + 1, n) + subtreeLeaves(2 * i + 2, n)).toBe(subtreeLeaves(i, n));
    }
  });
});
