// Every public reader takes any Uint8Array view of a file: what readFileSync returns (a Node Buffer), a pooled
// Buffer (a small allocation inside Node's shared 8 kB slab, at a byteOffset, with other bytes around it) and a
// subarray of a bigger buffer. Each must read exactly what a fresh Uint8Array of the same bytes reads.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inspectPhysics, readPhysicsResource, verifyPhysics, writePhysicsResource } from '../../src/index.ts';

const file = (rel: string): Uint8Array => new Uint8Array(readFileSync(new URL(rel, import.meta.url)));
const FILES = {
  'box (reference encoder)': file('../golden/box.physics'),
  'bumpy-1000 (reference encoder)': file('../golden/bumpy-1000.physics'),
  'box with a Studio header': file('../golden/box-studio-header.physics'),
  'kinds 2, 3 and 5 (samples/kinds.physics)': file('../../samples/kinds.physics'),
};

/** The same bytes as a plain Uint8Array and as each kind of view a caller may hand in. */
function views(bytes: Uint8Array): [string, Uint8Array][] {
  // Pooled: Buffer.allocUnsafe takes small sizes from the shared pool, so byteOffset is usually not 0; fill the
  // slab around it with junk so that reading outside the view shows. Allocate until one lands past offset 0.
  let pooled = Buffer.allocUnsafe(bytes.length);
  for (let i = 0; i < 8 && pooled.byteOffset === 0; i++) pooled = Buffer.allocUnsafe(bytes.length);
  new Uint8Array(pooled.buffer).fill(0xa5);
  pooled.set(bytes);
  // A Buffer from a file: what readFileSync gives (made after the slab is filled: it may share that slab).
  const buffer = Buffer.from(bytes);
  // A subarray at an odd offset (not even 4-aligned) of a buffer with junk either side.
  const big = new Uint8Array(bytes.length + 13).fill(0x5a);
  big.set(bytes, 7);
  const sub = big.subarray(7, 7 + bytes.length);
  // A Buffer view at an odd offset inside a bigger Buffer: what a subarray of readFileSync's result is.
  const bigBuffer = Buffer.alloc(bytes.length + 11, 0x3c);
  bigBuffer.set(bytes, 5);
  return [
    ['Buffer', buffer],
    ['pooled Buffer', pooled],
    ['subarray', sub],
    ['Buffer subarray', bigBuffer.subarray(5, 5 + bytes.length)],
  ];
}

describe('readers take any view of the bytes', () => {
  for (const [name, bytes] of Object.entries(FILES)) {
    it(name, () => {
      const want = readPhysicsResource(bytes);
      const inspected = inspectPhysics(bytes, { json: true });
      const summary = inspectPhysics(bytes, { json: false });
      expect(verifyPhysics(bytes, 'f.physics')).toEqual([]);
      for (const [kind, view] of views(bytes)) {
        if (kind === 'pooled Buffer' && bytes.length < 4096) expect(view.byteOffset, kind).toBeGreaterThan(0);
        const got = readPhysicsResource(view);
        expect(got, kind).toEqual(want);
        // The record owns its bytes: changing the input afterwards changes nothing read from it.
        const back = writePhysicsResource(got);
        view.fill(0);
        expect(Buffer.compare(back, bytes), kind).toBe(0);
        view.set(bytes);
        expect(verifyPhysics(view, 'f.physics'), kind).toEqual([]);
        expect(inspectPhysics(view, { json: true }), kind).toBe(inspected);
        expect(inspectPhysics(view, { json: false }), kind).toBe(summary);
      }
    });
  }
});
