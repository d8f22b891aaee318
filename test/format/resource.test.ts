import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';

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
