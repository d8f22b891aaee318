import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { locateEdgeArrays, readPhysicsResource, writeCornerEdge, writePhysicsResource, writesBack } from '../../src/format/resource.ts';
import { FormatError } from '../../src/format/cursor.ts';
import type { PhysicsResource } from '../../src/format/types.ts';
import { prng } from '../fixtures/meshes.ts';
import { HAND_RESOURCES, layResource } from './fixtures.ts';
import { mutate, mutateRecord } from './mutate.ts';

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

describe('corner vertices', () => {
  it('names the first corner whose vertex is out of range, wherever it falls among the corners', () => {
    const b = load('grid.physics');
    const r = readPhysicsResource(b);
    const at = r.layout!.arrays[0][3]; // shape 0's corner vertices (u16 each)
    const n = r.shapes[0].vertices.length / 3, corners = r.shapes[0].cornerVertices.length;
    for (const [first, second] of [[0, 1], [1, 3], [2, 7], [3, 4], [5, 6], [6, 9], [corners - 2, corners - 1], [corners - 1, -1]]) {
      const m = b.slice();
      const dv = new DataView(m.buffer);
      dv.setUint16(at + 2 * first, n, true);
      if (second >= 0) dv.setUint16(at + 2 * second, n + 5, true);
      expect(() => readPhysicsResource(m)).toThrow(`at 0x${(at + 2 * first).toString(16)}: corner vertices[${first}]: vertex ${n} ≥ vertex count ${n}`);
    }
  });
});

describe('borrowed reads', () => {
  it('a default read shares nothing with its input; a borrowed one reads the same record through views of it', () => {
    const b = load('mixed.physics');
    const own = readPhysicsResource(b);
    const borrowed = readPhysicsResource(b, { borrow: true });
    expect(borrowed).toEqual(own);
    const v = own.layout!.arrays[0][0]; // shape 0's vertices
    b[v] ^= 0xff;
    expect(own.shapes[0].vertices[0]).toBe(readPhysicsResource(load('mixed.physics')).shapes[0].vertices[0]);
    expect(borrowed.shapes[0].vertices[0]).not.toBe(own.shapes[0].vertices[0]);
  });
  it('a borrowed view at an odd offset (a pooled Buffer) reads each array into an aligned copy', () => {
    const b = load('mixed.physics');
    const big = new Uint8Array(b.length + 7);
    big.set(b, 3);
    const r = readPhysicsResource(big.subarray(3, 3 + b.length), { borrow: true });
    expect(r).toEqual(readPhysicsResource(b));
    for (const s of r.shapes) if (s.vertices.length) expect(s.vertices.byteOffset).toBe(0);
  });
});

describe('writesBack (the round trip told without writing)', () => {
  const readable = (b: Uint8Array): boolean => {
    try {
      return readPhysicsResource(b) !== undefined;
    } catch {
      return false;
    }
  };
  const corpus = [...files.map(load), ...Object.values(HAND_RESOURCES).map((make) => layResource(make()))].filter((b) => b.length < 50_000 && readable(b));
  /** What writesBack must say: writing `res` back succeeds and gives exactly `bytes`. */
  const truth = (res: PhysicsResource, bytes: Uint8Array): boolean => {
    try {
      return Buffer.from(writePhysicsResource(res)).equals(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch (e) {
      if (e instanceof FormatError) return false;
      throw e;
    }
  };
  it('compares a borrowed array written elsewhere than where it was read (never takes it as matching itself)', () => {
    const b = load('box.physics');
    const res = readPhysicsResource(b, { borrow: true });
    expect(writesBack(res, b)).toBe(true);
    // A view of the same bytes, of the same length, but another array's: written where the corner vertices go.
    res.shapes[0].cornerVertices = res.shapes[0].cornerIdsByVertex;
    expect(truth(res, b)).toBe(false);
    expect(writesBack(res, b)).toBe(false);
  });

  it('agrees with writing back and comparing, over mutated bytes and records, default layouts and odd offsets', () => {
    const rand = prng(20261206);
    const said = { same: 0, different: 0 };
    for (let i = 0; i < 2000; i++) {
      let b = corpus[Math.floor(rand() * corpus.length)];
      if (rand() < 0.5) {
        // A mutated file the reader accepts: among others, layouts of other tools (arrays moved elsewhere).
        const m = mutate(b, rand);
        if (readable(m)) b = m;
      }
      const how = Math.floor(rand() * 4);
      const borrow = rand() < 0.5;
      // A borrowed record's edits are edits of the bytes it borrows: those get a copy of their own.
      const res = readPhysicsResource(borrow && how === 1 ? b.slice() : b, { borrow });
      let target: Uint8Array = b;
      if (how === 0) target = mutate(b, rand); // the file changed under the record
      else if (how === 1) mutateRecord(res, rand); // the record changed
      else if (how === 2) res.layout = undefined; // laid out afresh (the reference's layout)
      if (rand() < 0.3) {
        // The bytes at an odd offset of a larger buffer (a pooled Buffer): the unaligned paths.
        const big = new Uint8Array(target.length + 5);
        big.set(target, 1);
        target = big.subarray(1, 1 + target.length);
      }
      const want = truth(res, target);
      expect(writesBack(res, target), `iteration ${i}`).toBe(want);
      said[want ? 'same' : 'different']++;
    }
    expect(said.same).toBeGreaterThan(300);
    expect(said.different).toBeGreaterThan(300);
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
