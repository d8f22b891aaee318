import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/format/cursor.ts';
import { HEADER_FIELD } from '../../src/format/header.ts';
import { PART_FIELD } from '../../src/format/part.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import { SHAPE_FIELD } from '../../src/format/shape.ts';
import {
  HEADER_SIZE,
  NODE_SIZE,
  PART_SIZE,
  PLANE_SIZE,
  SHAPE_SIZE,
  STUDIO_BODY_SIZE,
  faceCount,
  vertexCount,
} from '../../src/format/types.ts';
import { verifyResource } from '../../src/format/verify.ts';
import { HAND, HAND_RESOURCES, layResource, studioBody } from './fixtures.ts';

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
const reference = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`./reference/${name}.physics`, import.meta.url)));

describe('size constants', () => {
  it('match the spec and the field tables', () => {
    expect([HEADER_SIZE, STUDIO_BODY_SIZE, PART_SIZE, SHAPE_SIZE, PLANE_SIZE, NODE_SIZE]).toEqual([0x38, 0x4c, 72, 0x54, 8, 8]);
    expect(HEADER_FIELD.partEnd + 4).toBe(HEADER_SIZE);
    expect(PART_FIELD.flags + 4).toBe(PART_SIZE);
    expect(SHAPE_FIELD.offsets + 12 * 4).toBe(SHAPE_SIZE);
    expect([HAND.header, HAND.shape, HAND.part, HAND.offsetsInShape]).toEqual([HEADER_SIZE, SHAPE_SIZE, PART_SIZE, SHAPE_FIELD.offsets]);
  });
});

describe('hand-laid resources', () => {
  for (const [name, make] of Object.entries(HAND_RESOURCES)) {
    it(`${name}: reads, verifies clean, writes back byte for byte (with and without layout hints)`, () => {
      const bytes = layResource(make());
      const res = readPhysicsResource(bytes);
      expect(verifyResource(res, name)).toEqual([]);
      expect(same(writePhysicsResource(res), bytes)).toBe(true);
      expect(same(writePhysicsResource({ ...res, layout: undefined }), bytes)).toBe(true);
    });
  }

  it('box part: equals the reference encoder’s bytes for the same record', () => {
    expect(same(layResource(HAND_RESOURCES['box part']()), reference('boxplanes'))).toBe(true);
  });
  it('convex part: equals the reference encoder’s bytes for the same record', () => {
    expect(same(layResource(HAND_RESOURCES['convex part']()), reference('convex'))).toBe(true);
  });

  it('decodes every field of the mixed resource', () => {
    const res = readPhysicsResource(layResource(HAND_RESOURCES['mesh + convex + box, Studio body']()));
    expect(res).toMatchObject({ version: 2, word08: 1, word14: 0, word20: 0 });
    expect(Array.from(res.body)).toEqual(Array.from(studioBody()));
    expect(res.parts.map((p) => [p.kind, p.shape, p.material, p.flags, p.w])).toEqual([
      [5, 0, 0x20, 0x800, 1],
      [3, 1, 0xba0, 0x800, 1],
      [2, 2, 47186720, 0x800, 1],
      [5, 0xffffffff, 0, 0x800, 1],
    ]);
    expect(res.parts[1]).toMatchObject({ rotation: [0, 0, 0, 1], position: [1, 2, 3], ids: [2, 7, 9] });
    const [mesh, convex, box] = res.shapes;
    expect([vertexCount(mesh), mesh.cornerVertices.length, faceCount(mesh), mesh.tree.length / 2]).toEqual([4, 6, 2, 1]);
    expect(Array.from(mesh.cornerVertices)).toEqual([0, 2, 1, 0, 3, 2]);
    expect(Array.from(mesh.vertexCornerOffsets)).toEqual([0, 2, 3, 5, 6]);
    expect(Array.from(mesh.cornerIdsByVertex)).toEqual([0, 3, 2, 1, 5, 4]);
    expect(Array.from(mesh.flatBits)).toEqual([0b100001, 0, 0, 0]);
    expect(Array.from(mesh.concaveBits)).toEqual([0, 0, 0, 0]);
    expect(mesh.min).toEqual([-0.5, 0, -0.5]);
    expect(Array.from(convex.faceOffsets)).toEqual([0, 4, 7, 10, 13, 16]);
    expect([convex.edgeValues.length, convex.tree.length, convex.planeOffsets.length]).toEqual([0, 0, 5]);
    expect(convex.min).toEqual([0, 0, 0]);
    expect(Array.from(box.planeNormals.slice(0, 4))).toEqual([0, 0, 32767, 32767]);
    expect(Array.from(box.planeOffsets)).toEqual([-1, -1, -1, -1, -1, -1]);
  });
});

describe('layout hints keep foreign padding and grouping', () => {
  const base = layResource(HAND_RESOURCES['mesh + convex + box, Studio body']());

  it('keeps non-zero padding bytes', () => {
    const bytes = new Uint8Array([...base, 0xde, 0xad, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x77]);
    const res = readPhysicsResource(bytes);
    expect(res.layout!.fill.map((f) => f.at)).toEqual([base.length, base.length + 20]);
    expect(same(writePhysicsResource(res), bytes)).toBe(true);
  });

  it('keeps arrays at positions the default layout would not choose, and drops stale hints', () => {
    // Move the first shape's vertices to the end of the file, leaving a hole.
    const res = readPhysicsResource(base);
    const at = res.layout!.arrays[0][0];
    const grown = new Uint8Array(base.length + 64);
    grown.set(base);
    const moved = grown.length - 48;
    grown.set(base.subarray(at, at + 48), moved);
    grown.fill(0, at, at + 48);
    const field = res.layout!.shapeTable + SHAPE_FIELD.offsets;
    new DataView(grown.buffer).setUint32(field, moved - field, true);
    const back = readPhysicsResource(grown);
    expect(back.layout!.arrays[0][0]).toBe(moved);
    expect(same(writePhysicsResource(back), grown)).toBe(true);
    // A record that no longer fits its hints is laid out afresh, in the default layout.
    const edited = { ...back, shapes: back.shapes.slice(0, 2), parts: back.parts.slice(0, 2) };
    const out = writePhysicsResource(edited);
    expect(same(out, writePhysicsResource({ ...edited, layout: undefined }))).toBe(true);
  });
});

/** Writes a u32 into a copy of `bytes`. */
const poke = (bytes: Uint8Array, at: number, v: number, size: 2 | 4 = 4): Uint8Array => {
  const b = bytes.slice();
  const dv = new DataView(b.buffer);
  if (size === 4) dv.setUint32(at, v >>> 0, true);
  else dv.setUint16(at, v, true);
  return b;
};

const expectRefusal = (bytes: Uint8Array, pattern: RegExp): void => {
  let err: unknown;
  try {
    readPhysicsResource(bytes);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(FormatError);
  expect((err as Error).message).toMatch(pattern);
};

describe('refusals name the field, its offset and the values', () => {
  const mixed = layResource(HAND_RESOURCES['mesh + convex + box, Studio body']());
  const res = readPhysicsResource(mixed);
  const shape0 = res.layout!.shapeTable;
  const shape1 = shape0 + SHAPE_SIZE;
  const part0 = res.layout!.partTable;
  const off = (shape: number, k: number): number => shape + SHAPE_FIELD.offsets + 4 * k;
  const rel = (field: number, abs: number): number => abs - field;

  const cases: [string, Uint8Array, RegExp][] = [
    ['short header', mixed.slice(0, 0x37), /header: at 0x0: the 0x38-byte header: needs 56 bytes, input is 55 bytes/],
    ['bad version', poke(mixed, 0, 3), /header: at 0x0: version: expected 2, found 3/],
    ['bad magic', poke(mixed, 4, 0x12345678), /header: at 0x4: magic: expected 0x69af7015, found 0x12345678/],
    ['24-byte entries', poke(mixed, 0x10, 2), /dynamic-prop tables are not decoded: 24-byte ×2, 44-byte ×0/],
    ['44-byte entries', poke(mixed, 0x1c, 5), /dynamic-prop tables are not decoded: 24-byte ×0, 44-byte ×5/],
    ['header word 0x14', poke(mixed, 0x14, 1), /header: at 0x14: word 0x14: 0x1, expected 0/],
    ['header word 0x20', poke(mixed, 0x20, 0xffffffff), /header: at 0x20: word 0x20: 0xffffffff, expected 0/],
    ['shape word 0x20', poke(mixed, shape1 + 0x20, 5), /shape 1: at 0xf8: word 0x20: 0x5, expected 0/],
    ['body offset', poke(mixed, 0x24, 0x18), /at 0x24: body offset: points at 0x3c, expected 0x38/],
    ['shape table in header', poke(mixed, 0x28, 4), /at 0x28: shape table offset: points at 0x2c, inside the header/],
    ['shape table misaligned', poke(mixed, 0x28, rel(0x28, shape0 + 2)), /at 0x28: shape table offset: 0x86 is not 4-aligned/],
    ['shape count past the end', poke(mixed, 0x18, 0x10000000), /at 0x28: shape table: 268435456 entries of 84 bytes at 0x84 run past the end/],
    ['part count past the end', poke(mixed, 0xc, 0xffffffff), /at 0x30: part table: 4294967295 entries of 72 bytes/],
    ['44-byte table offset', poke(mixed, 0x2c, 0), /at 0x2c: 44-byte table offset: points at 0x0, expected the part table/],
    ['end of part table', poke(mixed, 0x34, 0x10), /at 0x34: end of part table: points at 0x44, expected 0x.* \(4 parts\)/],
    [
      'tables overlap',
      poke(poke(poke(mixed, 0x30, rel(0x30, shape1)), 0x2c, rel(0x2c, shape1)), 0x34, rel(0x34, shape1 + 4 * 72)),
      /layout: at 0x30: part table \(288 bytes at 0xd8, offset field at 0x30\) overlaps shape table \(252 bytes at 0x84, offset field at 0x28\)/,
    ],
    ['array past the end', poke(mixed, off(shape0, 0), 0x7ffffff0), /shape 0: at 0x.*: offset \[0\] vertices: 48 bytes at 0x.* run past the end/],
    ['array misaligned', poke(mixed, off(shape0, 0), rel(off(shape0, 0), res.layout!.arrays[0][0] + 2)), /offset \[0\] vertices: 0x.* is not 4-aligned/],
    ['arrays overlap', poke(mixed, off(shape1, 0), rel(off(shape1, 0), res.layout!.arrays[0][0])), /layout: at 0xfc: shape 1 vertices \(60 bytes at 0x2a0, offset field at 0xfc\) overlaps shape 0 vertices \(48 bytes at 0x2a0, offset field at 0xa8\)/],
    ['array over a table', poke(mixed, off(shape0, 3), rel(off(shape0, 3), part0)), /overlaps/],
    ['unused offset set', poke(mixed, off(shape0, 8), 0x100), /shape 0: at 0x.*: offset \[8\] \(unused\) is set/],
    ['node count ≠ faces − 1', poke(mixed, shape0 + 0x1e, 2, 2), /shape 0: at 0x.*: tree node count 2 ≠ face count 2 − 1/],
    ['count without its array', poke(mixed, shape1 + 0x1e, 3, 2), /shape 1: .*tree node count 3 but offset \[11\] tree is 0/],
    ['corner vertex ≥ vertex count', poke(mixed, res.layout!.arrays[0][3] + 2, 9, 2), /shape 0: at 0x.*: corner vertices\[1\]: vertex 9 ≥ vertex count 4/],
    ['vertex count grows past corners', poke(mixed, shape0 + 0x18, 0xffff, 2), /shape 0: .*vertices: 786420 bytes .* run past the end/],
    ['unknown kind', poke(mixed, part0 + 0x24, 7), /part 0: at 0x.*: kind: 7 is not a known shape kind/],
    ['shape index past the shapes', poke(mixed, part0 + 72 + 0x38, 3), /part 1: at 0x.*: shape index: 3 ≥ shape count 3/],
    ['NaN with a payload', poke(mixed, part0 + 0x10, 0x7f800001), /part 0: at 0x.*: position.x: f32 bits 0x7f800001 .* cannot be kept exactly/],
  ];
  for (const [name, bytes, pattern] of cases) it(name, () => expectRefusal(bytes, pattern));

  it('keeps the canonical NaN (0x7fc00000) in a scalar field exactly; verify reports it', () => {
    const nan = poke(mixed, part0 + 0x10, 0x7fc00000);
    const r = readPhysicsResource(nan);
    expect(r.parts[0].position[0]).toBeNaN();
    expect(same(writePhysicsResource(r), nan)).toBe(true);
    expect(verifyResource(r, 'nan').map((f) => f.check)).toEqual(['part-transform']);
  });

  it('refuses before allocating what the input cannot hold', () => {
    const before = process.memoryUsage().arrayBuffers;
    expectRefusal(poke(mixed, 0x18, 0x7fffffff), /run past the end/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
  });
});

describe('many records', () => {
  it('12,000 empty shape records (1 MB) read, share their empty arrays and write back exactly', () => {
    const n = 12_000;
    const len = HEADER_SIZE + SHAPE_SIZE * n;
    const b = new Uint8Array(len);
    const dv = new DataView(b.buffer);
    [[0, 2], [4, 0x69af7015], [0x18, n], [0x24, 0x14], [0x28, 0x10], [0x2c, len - 0x2c], [0x30, len - 0x30], [0x34, len - 0x34]].forEach(
      ([at, v]) => dv.setUint32(at, v, true),
    );
    const r = readPhysicsResource(b);
    expect(r.shapes).toHaveLength(n);
    expect(r.shapes[0].vertices).toBe(r.shapes[n - 1].vertices);
    expect(same(writePhysicsResource(r), b)).toBe(true);
  });
});

describe('truncation at every prefix length', () => {
  const inputs: [string, () => Uint8Array][] = [
    ...Object.entries(HAND_RESOURCES).map(([name, make]): [string, () => Uint8Array] => [name, () => layResource(make())]),
    ['reference mixed (mesh, convex, box, mesh, no-shape part)', () => reference('mixed')],
    ['reference multi (three meshes, Studio-form body)', () => reference('multi')],
  ];
  for (const [name, make] of inputs) {
    it(`${name}: every prefix is a clean refusal or an exact round trip`, () => {
      const bytes = make();
      let refused = 0;
      for (let n = 0; n < bytes.length; n++) {
        const prefix = bytes.slice(0, n);
        try {
          const r = readPhysicsResource(prefix);
          expect(same(writePhysicsResource(r), prefix)).toBe(true);
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          refused++;
        }
      }
      // Only trailing zero padding (the plane tail, the 8 bytes after the trees) may be cut without a refusal.
      expect(refused).toBeGreaterThan(bytes.length - 64);
    });
  }
});
