// The shape and part records read straight from one DataView (shapeHeaderAt, partAt) must be readShapeHeader's and
// readPart's own records wherever those read without an error, and must leave every refusal to them.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError, Reader } from '../../src/format/cursor.ts';
import { partAt, readPart } from '../../src/format/part.ts';
import { CANONICAL_NAN_BITS, readShapeHeader, shapeHeaderAt } from '../../src/format/shape.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import { PART_SIZE, SHAPE_SIZE } from '../../src/format/types.ts';
import { prng } from '../fixtures/meshes.ts';
import { HAND_RESOURCES, layResource } from './fixtures.ts';
import { mutate } from './mutate.ts';

const dir = new URL('./reference/', import.meta.url);
const corpus = [
  ...Object.values(HAND_RESOURCES).map((make) => layResource(make())),
  ...readdirSync(dir)
    .filter((f) => f.endsWith('.physics'))
    .map((f) => new Uint8Array(readFileSync(new URL(f, dir)))),
];

/** What the Reader path gives: the record, or the error's message. */
const slow = <T>(read: () => T): T | string => {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return e.message;
  }
};

describe('records read straight from a view', () => {
  it('are the Reader path records where it reads, and nothing where it refuses (mutated files, any position)', () => {
    const rand = prng(20261208);
    const seen = { shapeSame: 0, shapeRefused: 0, partSame: 0, partRefused: 0 };
    for (let i = 0; i < 400; i++) {
      const base = corpus[Math.floor(rand() * corpus.length)];
      const b = rand() < 0.8 ? mutate(base, rand) : base;
      if (b.length >= 8 && rand() < 0.3) {
        // Odd NaNs and the canonical one in the f32 fields of some record.
        const at = Math.floor(rand() * (b.length - 4)) & ~3;
        new DataView(b.buffer, b.byteOffset).setUint32(at, rand() < 0.5 ? CANONICAL_NAN_BITS : 0x7f800001 + Math.floor(rand() * 1000), true);
      }
      const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      // The tables' own positions where the file has them, and positions anywhere (past the end, before the start).
      const positions: number[] = [];
      try {
        const r = readPhysicsResource(base);
        for (let k = 0; k < r.shapes.length; k++) positions.push(r.layout!.shapeTable + SHAPE_SIZE * k);
        for (let k = 0; k < r.parts.length; k++) positions.push(r.layout!.partTable + PART_SIZE * k);
      } catch {
        // a base the reader refuses (none today) still gives random positions
      }
      for (let k = 0; k < 20; k++) positions.push(Math.floor(rand() * (b.length + 16)) - 8);
      for (const at of positions) {
        const shapeCount = Math.floor(rand() * 4);
        const fs = shapeHeaderAt(view, at), ss = slow(() => readShapeHeader(new Reader(b, 'shape'), at));
        if (typeof ss === 'string') {
          expect(fs, `shape at ${at}: ${ss}`).toBeUndefined();
          seen.shapeRefused++;
        } else {
          // Where the Reader path reads, so does the view (it refuses only what the Reader refuses).
          expect(fs).toEqual(ss);
          seen.shapeSame++;
        }
        const fp = partAt(view, at, shapeCount), sp = slow(() => readPart(new Reader(b, 'part'), at, shapeCount));
        if (typeof sp === 'string') {
          expect(fp, `part at ${at}: ${sp}`).toBeUndefined();
          seen.partRefused++;
        } else {
          expect(fp).toEqual(sp);
          seen.partSame++;
        }
      }
    }
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(200);
  });
});
