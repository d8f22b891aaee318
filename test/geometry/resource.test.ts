// encodeResource (src/geometry/resource.ts): parts and header as the reference writes them, and every encoded
// fixture passes the codec's verifier and round trip ("verify passes on every encoded fixture").
import { describe, expect, it } from 'vitest';
import { encodeResource, GAME_HEADER, PART_IDS_DEFAULT, RESOURCE_HEADER_DEFAULT } from '../../src/geometry/resource.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import { verifyPhysics } from '../../src/format/verify.ts';
import { KIND_MESH, PART_FLAGS } from '../../src/format/types.ts';
import { box, bumpyGrid, FIXTURES, stairs } from '../fixtures/meshes.ts';

const obj = (name: string, m: { positions: Float32Array; indices: Uint32Array }, material: number, ids?: [number, number, number]) => ({
  name, positions: m.positions, indices: m.indices, material, ids,
});

describe('encodeResource', () => {
  it('the box: one part with the reference part words, game header by default', () => {
    const { resource, stats } = encodeResource([obj('box', box(), 96, [1, 2, 3])]);
    expect(RESOURCE_HEADER_DEFAULT).toBe(GAME_HEADER);
    expect(resource).toMatchObject({ version: 2, word08: 0, word14: 0, word20: 0 });
    expect(resource.body.length).toBe(0);
    expect(resource.parts).toEqual([
      { rotation: [0, 0, 0, 1], position: [20, 30, 0], w: 1, word20: 0, kind: KIND_MESH, ids: [1, 2, 3], word34: 0, shape: 0, word3c: 0, material: 96, flags: PART_FLAGS },
    ]);
    expect(stats).toMatchObject({ shapes: 1, parts: 1, vertices: 8, faces: 12 });
  });

  it('objects in order, one part per shape piece, shape indices follow; ids default; Studio header on request', () => {
    const body = Uint8Array.from({ length: 0x4c }, (_, i) => 255 - i);
    const big = bumpyGrid(30000, 11, [-80, 0, -80]);
    const { resource, stats } = encodeResource([obj('a', stairs(), 47186720), obj('b', big, 160), obj('c', box(), 32)], { header: { word08: 1, body } });
    expect(resource.word08).toBe(1);
    expect(resource.body).toEqual(body);
    expect(resource.parts.map((p) => [p.shape, p.material])).toEqual([[0, 47186720], [1, 160], [2, 160], [3, 32]]);
    expect(resource.parts[3].ids).toEqual(PART_IDS_DEFAULT);
    expect(stats.objects.map((o) => [o.name, o.stats.shapes])).toEqual([['a', 1], ['b', 2], ['c', 1]]);
  });

  it('bad input names the object', () => {
    const bad = { name: 'rail_03', positions: new Float32Array(9), indices: new Uint32Array([0, 1, 5]), material: 32 };
    expect(() => encodeResource([obj('ok', box(), 32), bad])).toThrow(/object 1 "rail_03": weld: triangle 0: index 5 ≥ vertex count 3/);
    expect(() => encodeResource([obj('m', box(), -1)])).toThrow(/material -1 is not a u32/);
  });

  it.each(Object.keys(FIXTURES))('%s: written bytes verify clean, read back and rewrite identically; twice the same', (name) => {
    const m = FIXTURES[name]();
    const bytes = writePhysicsResource(encodeResource([obj(name, m, 96, [1, 2, 3])]).resource);
    expect(verifyPhysics(bytes, `${name}.physics`)).toEqual([]);
    // (Buffer.equals: vitest's toEqual walks typed arrays element by element, seconds for 500 kB.)
    expect(Buffer.from(writePhysicsResource(readPhysicsResource(bytes))).equals(bytes)).toBe(true);
    expect(Buffer.from(writePhysicsResource(encodeResource([obj(name, m, 96, [1, 2, 3])]).resource)).equals(bytes)).toBe(true);
  });
});

describe('error messages', () => {
  it('one stage prefix per message: an object\'s encode error names the object once, "encode:" once', () => {
    const o = { name: 't', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 1]), indices: new Uint32Array([0, 2, 1]), material: 0x20 };
    let message = '';
    try {
      encodeResource([o], { maxFaces: 30000 } as never);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^encode: object 0 "t": maxFaces 30000 outside 1…21845$/);
    expect(message.match(/encode:/g)).toHaveLength(1);
  });
});
