import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { locateEdgeArrays, readPhysicsResource, writeCornerEdge, writePhysicsResource } from '../../src/format/resource.ts';
import { FormatError } from '../../src/format/cursor.ts';

const dir = new URL('./reference/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.physics')).sort();
const load = (f: string): Uint8Array => new Uint8Array(readFileSync(new URL(f, dir)));

describe('input views', () => {
  it('reads a view at an odd offset into a larger buffer (a pooled Buffer) the same', () => {
    const b = load('mixed.physics');
    const big = new Uint8Array(b.length + 7);
    big.set(b, 3);
    const view = big.subarray(3, 3 + b.length);
    expect(Buffer.from(writePhysicsResource(readPhysicsResource(view))).equals(Buffer.from(b))).toBe(true);
  });
});

describe('reference encoder resources', () => {
  it('has the probe outputs', () => expect(files.length).toBeGreaterThanOrEqual(17));
  for (const f of files) {
    it(`${f}: reads and writes back byte for byte`, () => {
      const b = load(f);
      expect(Buffer.from(writePhysicsResource(readPhysicsResource(b))).equals(Buffer.from(b))).toBe(true);
    });
    it(`${f}: the default layout (no hints) is the reference's`, () => {
      const b = load(f);
      const r = readPhysicsResource(b);
      expect(r.layout?.fill).toEqual([]);
      expect(Buffer.from(writePhysicsResource({ ...r, layout: undefined })).equals(Buffer.from(b))).toBe(true);
    });
  }
});

describe('locateEdgeArrays / writeCornerEdge (the seams step rewrites corners in place)', () => {
  it('finds each shape\u2019s edge arrays where the reader does, and a corner written there reads back', () => {
    for (const f of files) {
      const b = load(f);
      const r = readPhysicsResource(b);
      const arrays = locateEdgeArrays(b);
      expect(arrays.length, f).toBe(r.shapes.length);
      arrays.forEach((a, i) => {
        expect(a.corners, f).toBe(r.shapes[i].cornerVertices.length);
        expect([a.values, a.concave, a.flat], f).toEqual([4, 5, 6].map((k) => r.layout!.arrays[i][k]));
      });
      const s = arrays.findIndex((a) => a.corners > 9 && a.values !== 0);
      const plain = arrays.findIndex((a) => a.corners > 0 && a.values === 0); // kinds 2, 3: no edge data
      if (plain >= 0) expect(() => writeCornerEdge(new DataView(b.slice().buffer), arrays[plain], 0, 1, false, false, [0, 0])).toThrow(/edge data/);
      if (s < 0) continue;
      const copy = b.slice();
      const span: [number, number] = [Infinity, -Infinity];
      writeCornerEdge(new DataView(copy.buffer), arrays[s], 9, 0.5, true, false, span);
      const back = readPhysicsResource(copy).shapes[s];
      expect(back.edgeValues[9]).toBe(0.5);
      expect((back.concaveBits[1] >> 1) & 1).toBe(1);
      expect((back.flatBits[1] >> 1) & 1).toBe(0);
      expect(span[0]).toBe(arrays[s].values + 36);
      // Everything outside the span is unchanged.
      expect(copy.findIndex((x, k) => x !== b[k] && (k < span[0] || k >= span[1]))).toBe(-1);
      const none: [number, number] = [Infinity, -Infinity];
      writeCornerEdge(new DataView(copy.buffer), arrays[s], 9, 0.5, true, false, none);
      expect(none[0]).toBe(Infinity); // already so: nothing changed
      expect(() => writeCornerEdge(new DataView(copy.buffer), arrays[s], arrays[s].corners, 1, false, false, none)).toThrow(/corner/);
    }
  });

  it('refuses every truncated prefix of a resource with a FormatError, never reading past it', () => {
    const b = load('mixed.physics');
    const need = Math.max(...locateEdgeArrays(b).flatMap((a) => [a.values + 4 * a.corners, a.flat + 4 * Math.ceil(a.corners / 32)]));
    for (let n = 0; n < need; n++) expect(() => locateEdgeArrays(b.subarray(0, n)), `prefix ${n}`).toThrow(FormatError);
  });
});
