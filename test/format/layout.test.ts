import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/format/cursor.ts';
import { PLANE_TAIL, TREE_TAIL, defaultLayout, findFill, hintsFit } from '../../src/format/layout.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';

const load = (f: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./reference/${f}.physics`, import.meta.url)));

describe('fill runs', () => {
  it('merges runs closer than 16 zero bytes, splits farther ones and at regions', () => {
    const b = new Uint8Array(80);
    b[1] = 1;
    b[10] = 2; // 8 zeros after b[1]: same run
    b[40] = 3; // 29 zeros: new run
    b[50] = 4; // inside the region 45..55: not fill
    b[60] = 5; // across the region from b[40]: new run
    expect(findFill(b, [{ at: 45, size: 10, what: 'r' }]).map((f) => [f.at, Array.from(f.bytes)])).toEqual([
      [1, [1, 0, 0, 0, 0, 0, 0, 0, 0, 2]],
      [40, [3]],
      [60, [5]],
    ]);
  });
});

describe('default layout', () => {
  it('ends after the trees plus 8 zero bytes, or 56 past the last plane, whichever is later', () => {
    expect([PLANE_TAIL, TREE_TAIL]).toEqual([56, 8]);
    const mixed3 = readPhysicsResource(load('mixed3')); // convex planes end at 0x2cc, a 2-node tree at 0x2d0
    expect(defaultLayout(mixed3).size).toBe(0x2cc + 56);
    const mixed2 = readPhysicsResource(load('mixed2')); // a 23-node tree after the planes
    const l = defaultLayout(mixed2);
    expect(l.size).toBe(l.arrays[0][11] + 23 * 8 + 8);
  });
});

describe('layout hints', () => {
  it('fit the record they were read with; stale ones are refused', () => {
    const res = readPhysicsResource(load('multi'));
    expect(hintsFit(res, res.layout!)).toBe(true);
    expect(hintsFit({ ...res, body: new Uint8Array(4) }, res.layout!)).toBe(false);
    expect(hintsFit({ ...res, shapes: res.shapes.slice(1) }, res.layout!)).toBe(false);
    const grown = { ...res, shapes: res.shapes.map((s, i) => (i === 0 ? { ...s, vertices: new Float32Array(300) } : s)) };
    expect(hintsFit(grown, res.layout!)).toBe(false);
    const moved = { ...res.layout!, arrays: res.layout!.arrays.map((a) => a.map((x) => (x ? x + 2 : 0))) };
    expect(hintsFit(res, moved)).toBe(false);
  });
});

describe('writer refusals', () => {
  const res = () => readPhysicsResource(load('box'));
  const fails = (r: ReturnType<typeof res>, pattern: RegExp) => {
    expect(() => writePhysicsResource(r)).toThrow(FormatError);
    expect(() => writePhysicsResource(r)).toThrow(pattern);
  };
  it('arrays whose lengths disagree with the counts they imply', () => {
    const a = res();
    a.shapes[0].vertices = new Float32Array(7);
    fails(a, /write: shape 0: at 0x0: vertices: 7 floats is not a multiple of 3/);
    const b = res();
    b.shapes[0].tree = new Uint32Array(4);
    fails(b, /tree: 2 nodes, expected faces − 1 = 11/);
    const c = res();
    c.shapes[0].cornerVertices = new Uint16Array(70000);
    fails(c, /corners count 70000 > 65535/);
  });
  it('a part naming a missing shape', () => {
    const r = res();
    r.parts[0].shape = 4;
    fails(r, /write: part 0: at 0x0: shape index 4 ≥ shape count 1/);
  });
});
