// Forge record grammars: bodies written field by field from the spec tables read back to the stored values; every
// truncated prefix and trailing byte refused as a RecordRefusal; seeded mutations read or refused, never anything else.
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FORGE_TYPES, readRecord, RecordRefusal, type ForgeRecord } from '../../../src/import/forge/records.ts';
import { boxBody, capsuleBody, entityGroupBody, genericEntityBody, IDENTITY4, refListBody, rotZ, sphereBody, swsEntityBody, T, translate, withObjectHeader } from '../../fixtures/forge.ts';
import { prng } from '../../fixtures/meshes.ts';

const f32 = Math.fround;

const samples: [string, number, Uint8Array, 'sws' | 'generic'][] = [
  ['SphereShape', T.SphereShape, sphereBody([1, 2, 3], 0.5, 77n), 'sws'],
  ['CapsuleShape', T.CapsuleShape, capsuleBody([0, 0, 0], [0, 0, 2], 0.25, 78n), 'sws'],
  ['BoxShape', T.BoxShape, boxBody([1, 2, 3], translate(4, 5, 6), 79n, 0x21), 'sws'],
  ['ReferenceListShape', T.ReferenceListShape, refListBody([11n, 12n], [IDENTITY4, rotZ(90, [1, 0, 0])], [[1, 1, 1, 1], [2, 2, 2, 1]], [-1, -1, -1, 0], [1, 1, 1, 0]), 'sws'],
  ['Entity (SWS)', T.Entity, swsEntityBody(0x100, translate(10, 20, 30), { reset: [Uint8Array.of(1, 2, 3), Uint8Array.of(9)] }), 'sws'],
  ['Entity (generic)', T.Entity, genericEntityBody(translate(1, 2, 3), { actions: 2, links: 1 }), 'generic'],
  ['Entity (generic, inline Hierarchy)', T.Entity, genericEntityBody(IDENTITY4, { hierarchy: true }), 'generic'],
  ['EntityGroup', T.EntityGroup, entityGroupBody(IDENTITY4, [5n, 6n, 7n], 2), 'generic'],
];

describe('forge records: type ids', () => {
  it('are the CRC-32 of the class names', () => {
    for (const [name, id] of Object.entries(FORGE_TYPES)) expect(crc32(name) >>> 0, name).toBe(id);
  });
});

describe('forge records: grammars', () => {
  it('SphereShape', () => {
    const r = readRecord(T.SphereShape, sphereBody([1, 2, 3], 0.5, 77n)) as Extract<ForgeRecord, { kind: 'SphereShape' }>;
    expect(r).toMatchObject({ kind: 'SphereShape', tag: 1, zero: 0, centre: [1, 2, 3, 1], radius: 0.5 });
    expect(r.material.id).toBe(77n);
    expect(Array.from(r.material.head)).toEqual([1, 0]);
  });
  it('CapsuleShape', () => {
    const r = readRecord(T.CapsuleShape, capsuleBody([0, 0, 0], [0, 0, 2], 0.25, 78n));
    expect(r).toMatchObject({ kind: 'CapsuleShape', endA: [0, 0, 0, 1], endB: [0, 0, 2, 1], radius: 0.25 });
  });
  it('BoxShape', () => {
    const r = readRecord(T.BoxShape, boxBody([1, 2, 3], translate(4, 5, 6), 79n, 0x21));
    expect(r).toMatchObject({ kind: 'BoxShape', managed: 1, userCategory: 0x21, halfExtents: [1, 2, 3, 0], matrix: translate(4, 5, 6) });
  });
  it('ReferenceListShape: children, transforms, Scales, bounds', () => {
    const r = readRecord(T.ReferenceListShape, samples[3][2]) as Extract<ForgeRecord, { kind: 'ReferenceListShape' }>;
    expect(r.children.map((c) => c.id)).toEqual([11n, 12n]);
    expect(r.transforms[1].map((v) => Math.round(v * 1e6) / 1e6)).toEqual(rotZ(90, [1, 0, 0]).map((v) => Math.round(f32(v) * 1e6) / 1e6 + 0));
    expect(r.scales).toEqual([[1, 1, 1, 1], [2, 2, 2, 1]]);
    expect(r.min).toEqual([-1, -1, -1, 0]);
  });
  it('ReferenceListShape: a repeated count that differs is refused at its offset', () => {
    const b = refListBody([11n], [IDENTITY4], [[1, 1, 1, 1]]);
    new DataView(b.buffer).setUint32(9 + 10, 2, true);
    expect(() => readRecord(T.ReferenceListShape, b)).toThrow(/at 0x13: expected transform count = child count 1, found 2/);
  });
  it('ReferenceListShape: every child count from 0 to 12 reads (90 bytes a child, 40 once after them)', () => {
    for (let n = 0; n <= 12; n++) {
      const ids = Array.from({ length: n }, (_, i) => BigInt(100 + i));
      const body = refListBody(ids, ids.map((_, i) => translate(i, 0, 0)), ids.map(() => [1, 1, 1, 1]), [0, 0, 0, 0], [n, 1, 1, 0]);
      expect(body.length, `${n} children`).toBe(49 + 90 * n);
      const r = readRecord(T.ReferenceListShape, body) as Extract<ForgeRecord, { kind: 'ReferenceListShape' }>;
      expect(r.children.map((c) => c.id), `${n} children`).toEqual(ids);
      expect(r.max, `${n} children`).toEqual([n, 1, 1, 0]);
      // One byte short is refused at the count (the 40 bytes after the children are counted too).
      expect(() => readRecord(T.ReferenceListShape, body.subarray(0, body.length - 1)), `${n} children`).toThrow(RecordRefusal);
    }
  });
  describe('the AC2-era object header (0x01, u32 id, u32 class)', () => {
    const tables: [string, number, Uint8Array][] = [
      ['SphereShape', T.SphereShape, sphereBody([1, 2, 3], 0.5, 77n)],
      ['CapsuleShape', T.CapsuleShape, capsuleBody([0, 0, 0], [0, 0, 2], 0.25, 78n)],
      ['BoxShape', T.BoxShape, boxBody([1, 2, 3], translate(4, 5, 6), 79n, 0x21)],
      ['ReferenceListShape', T.ReferenceListShape, refListBody([11n, 12n], [IDENTITY4, rotZ(90, [1, 0, 0])], [[1, 1, 1, 1], [2, 2, 2, 1]], [-1, -1, -1, 0], [1, 1, 1, 0])],
    ];
    for (const [name, type, table] of tables) {
      for (const reading of ['header', 'header+table'] as const) {
        it(`${name}: read as ${reading === 'header' ? 'the header in place of the tag and u32' : 'the header, then the table'}`, () => {
          const plain = readRecord(type, table) as unknown as Record<string, unknown>;
          const r = readRecord(type, withObjectHeader(type, 0x4242, table, reading)) as unknown as Record<string, unknown>;
          expect(r.header).toEqual({ id: 0x4242, class: type });
          const { header: _h, tag: _t, zero: _z, managed: _m, userCategory: _u, ...fields } = r;
          const { tag: _t2, zero: _z2, managed: _m2, userCategory: _u2, ...want } = plain;
          expect(fields).toEqual(want);
          if (reading === 'header+table') expect(r.zero ?? r.userCategory).toBe(plain.zero ?? plain.userCategory);
        });
      }
    }
    it('a header whose class is not the record type is read by the table (and refused by it here)', () => {
      const b = withObjectHeader(T.SphereShape, 5, sphereBody([0, 0, 0], 1));
      new DataView(b.buffer).setUint32(5, T.BoxShape, true);
      expect(() => readRecord(T.SphereShape, b)).toThrow(/SphereShape: at 0x23: expected the end of the body \(35 bytes\), found 4 more byte\(s\)/);
    });
    it('a headed body that fits no reading is refused naming the header reading', () => {
      const b = withObjectHeader(T.SphereShape, 5, sphereBody([0, 0, 0], 1));
      expect(() => readRecord(T.SphereShape, b.subarray(0, b.length - 2))).toThrow(/SphereShape \(read as the AC2-era object header in place of the tag and u32\): at 0x/);
    });
  });
  it('SWS Entity: placement, bounds, GameStateData arrays kept', () => {
    const r = readRecord(T.Entity, samples[4][2], 'sws') as Extract<ForgeRecord, { profile: 'sws' }>;
    expect(r).toMatchObject({ id: 0x100, placement: translate(10, 20, 30), components: 0, boundsMin: [-1, -1, -1], boundsMax: [1, 1, 1] });
    expect(Array.from(r.reset.first)).toEqual([1, 2, 3]);
    expect(r.tail.length).toBe(16);
    expect(r.flags.length).toBe(34);
  });
  it('SWS Entity with components: refused, naming the count (no component layout is known)', () => {
    expect(() => readRecord(T.Entity, swsEntityBody(1, IDENTITY4, { components: 1 }), 'sws')).toThrow(/Entity: at 0x4a: expected component count 0 .*found 1 \(the first: pointer tag 0x0/);
  });
  it('generic Entity and EntityGroup', () => {
    const e = readRecord(T.Entity, samples[5][2], 'generic');
    expect(e).toMatchObject({ profile: 'generic', placement: translate(1, 2, 3), fakeCellIndex: 0xffffffff, scale: 1, reset: 3 });
    expect((e as { actions: unknown[] }).actions).toHaveLength(2);
    const h = readRecord(T.Entity, samples[6][2], 'generic') as { hierarchy?: Uint8Array };
    expect(h.hierarchy?.length).toBe(8 + 4 + 64 + 8 + 4 + 4 + 9);
    const g = readRecord(T.EntityGroup, samples[7][2], 'generic') as Extract<ForgeRecord, { kind: 'EntityGroup' }>;
    expect(g.members.map((m) => m.id)).toEqual([5n, 6n, 7n]);
    expect(g.memberLinks).toHaveLength(2);
    expect(g.optimizationState).toBe(1);
  });
  it('a wrong constant is refused with expected and actual', () => {
    const b = genericEntityBody(IDENTITY4);
    const at = 2 + 64 + 4 + 43 + 4 + 4 + 40 + 8;
    new DataView(b.buffer).setUint32(at, 0x12345678, true);
    expect(() => readRecord(T.Entity, b, 'generic')).toThrow(new RegExp(`at 0x${at.toString(16)}: expected EntityDescriptor type 0x60121a9e, found 0x12345678`));
  });
  it('a type without a grammar is not read (MeshShape)', () => {
    expect(readRecord(T.MeshShape, new Uint8Array(10))).toBeUndefined();
  });
});

describe('forge records: hostile bodies', () => {
  for (const [name, type, body, profile] of samples) {
    it(`${name}: every truncated prefix and one trailing byte are refused`, () => {
      expect(readRecord(type, body, profile)).toBeDefined();
      for (let n = 0; n < body.length; n++) {
        let err: unknown;
        try {
          readRecord(type, body.subarray(0, n), profile);
        } catch (e) {
          err = e;
        }
        expect(err, `prefix ${n}`).toBeInstanceOf(RecordRefusal);
      }
      const longer = new Uint8Array(body.length + 1);
      longer.set(body);
      expect(() => readRecord(type, longer, profile)).toThrow(/expected the end of the body .* found 1 more byte/);
    });
    it(`${name}: 300 seeded mutations are read or refused`, () => {
      const rand = prng(0x27 + type);
      for (let i = 0; i < 300; i++) {
        const b = body.slice();
        const steps = 1 + Math.floor(rand() * 3);
        for (let s = 0; s < steps; s++) {
          const at = Math.floor(rand() * b.length);
          if (rand() < 0.5) b[at] ^= 1 << Math.floor(rand() * 8);
          else b[at] = [0, 1, 3, 0x80, 0xff][Math.floor(rand() * 5)];
        }
        try {
          readRecord(type, b, profile);
        } catch (e) {
          expect(e, `mutation ${i}`).toBeInstanceOf(RecordRefusal);
        }
      }
    });
  }
});
