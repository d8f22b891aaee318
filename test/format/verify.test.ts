import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { edgeClasses, inspectPhysics, summarize } from '../../src/format/inspect.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import type { PhysicsResource } from '../../src/format/types.ts';
import { firstDifference, verifyPhysics, verifyResource } from '../../src/format/verify.ts';
import { HAND_RESOURCES, layResource } from './fixtures.ts';

const refDir = new URL('./reference/', import.meta.url);
const load = (f: string): Uint8Array => new Uint8Array(readFileSync(new URL(f, refDir)));
const box = (): PhysicsResource => readPhysicsResource(load('box.physics'));
const checks = (res: PhysicsResource): string[] => verifyResource(res, 'x.physics').map((f) => `${f.check}: ${f.message}`);

describe('verify', () => {
  it('finds nothing in the reference encoder’s resources', () => {
    for (const f of readdirSync(refDir).filter((n) => n.endsWith('.physics'))) expect(verifyPhysics(load(f), f)).toEqual([]);
  });

  it('finds nothing in the committed goldens (test/golden/, the reference encoder on the golden meshes)', () => {
    const golden = new URL('../golden/', import.meta.url);
    let n = 0;
    for (const f of existsSync(golden) ? readdirSync(golden).filter((x) => x.endsWith('.physics')) : []) {
      expect(verifyPhysics(new Uint8Array(readFileSync(new URL(f, golden))), f)).toEqual([]);
      n++;
    }
    expect(n === 0 || n >= 20).toBe(true);
  });

  it('reports a read refusal as a finding with the offset', () => {
    const b = load('box.physics').slice(0, 100);
    expect(verifyPhysics(b, 'cut.physics')).toMatchObject([{ file: 'cut.physics', check: 'read' }]);
  });

  it('locates the first differing byte for the round-trip check', () => {
    const a = Uint8Array.of(1, 2, 3);
    expect([firstDifference(a, a), firstDifference(a, Uint8Array.of(1, 9, 3)), firstDifference(a, Uint8Array.of(1, 2))]).toEqual([-1, 1, 2]);
  });

  it('face offsets that do not ascend', () => {
    const res = box();
    res.shapes[0].faceOffsets[3] = 2;
    expect(checks(res)).toContain(`face-offsets: shape 0: face 2: offsets 6 → 2 at 0x${(res.layout!.arrays[0][7] + 2 * 3).toString(16)} do not ascend`);
  });

  it('a vertex → corner index that disagrees with the corners', () => {
    const res = box();
    const ids = res.shapes[0].cornerIdsByVertex;
    [ids[0], ids[1]] = [ids[1], ids[0]];
    const id = (k: number): string => `0x${(res.layout!.arrays[0][2] + 2 * k).toString(16)}`;
    expect(checks(res).join('\n')).toContain(`corner-index: shape 0: vertex 0: corners ${ids[0]}, ${ids[1]} at ${id(1)} not ascending`);
    res.shapes[0].cornerIdsByVertex[0] = 1;
    expect(checks(res).join('\n')).toMatch(new RegExp(`corner-index: shape 0: vertex 0: lists corner 1 at ${id(0)}, whose vertex is \\d+`));
  });

  it('a face outside the box of its leaf, naming face, node and numbers', () => {
    const res = box();
    // Root node: push the right child's min x to the parent's max (q = 1023): faces in the right half fall out.
    res.shapes[0].tree[0] = (res.shapes[0].tree[0] & ~0x3ff) | 0x3ff;
    const f = verifyResource(res, 'box.physics').filter((x) => x.check === 'tree-containment');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0].message).toMatch(/shape 0: face \d+ \(leaf node \d+\): min x -?[\d.]+ outside the leaf box's [\d.]+/);
    expect(f[0].node).toBe(11 + f[0].face!);
  });

  it('corner vertices past the vertex count, counts that disagree, kind-5 shape rules', () => {
    const res = box();
    res.shapes[0].cornerVertices[5] = 99;
    expect(checks(res)).toContain(`corner-vertex: shape 0: corner 5: vertex 99 at 0x${(res.layout!.arrays[0][3] + 2 * 5).toString(16)} ≥ vertex count 8`);
    const r2 = box();
    r2.shapes[0].edgeValues = new Float32Array(3);
    expect(checks(r2)).toEqual([`counts: shape 0: edge values: 3 entries, expected 0 or 36 at 0x${(r2.layout!.shapeTable + 0x18).toString(16)}`]);
    const r3 = box();
    r3.shapes[0].edgeValues[0] = 1.5;
    r3.shapes[0].flatBits[0] |= 1;
    r3.shapes[0].concaveBits[0] |= 1;
    expect(checks(r3)).toEqual([
      `edge-value: shape 0: corner 0: edge value 1.5 at 0x${r3.layout!.arrays[0][4].toString(16)} outside [0, 1]`,
      `edge-bits: shape 0: corner 0: both the concave at 0x${r3.layout!.arrays[0][5].toString(16)} and the flat bit at 0x${r3.layout!.arrays[0][6].toString(16)} are set`,
    ]);
  });

  it('gives every finding of a record read from a file its byte offset', () => {
    const res = box();
    res.shapes[0].cornerVertices[5] = 99;
    [res.shapes[0].cornerIdsByVertex[0], res.shapes[0].cornerIdsByVertex[1]] = [res.shapes[0].cornerIdsByVertex[1], res.shapes[0].cornerIdsByVertex[0]];
    res.shapes[0].edgeValues[0] = 1.5;
    res.shapes[0].flatBits[0] |= 1;
    res.shapes[0].concaveBits[0] |= 1;
    res.shapes[0].tree[0] = (res.shapes[0].tree[0] & ~0x3ff) | 0x3ff;
    res.parts[0].position[1] = Number.NaN;
    res.shapes[0].vertices[4] = Number.POSITIVE_INFINITY;
    const found = verifyResource(res, 'x.physics');
    expect(new Set(found.map((f) => f.check))).toEqual(new Set(['corner-vertex', 'corner-index', 'edge-value', 'edge-bits', 'tree-containment', 'part-transform', 'vertex']));
    for (const f of found) {
      expect(f.offset, `${f.check}: ${f.message}`).toBeGreaterThan(0);
      expect(f.message).toContain(`at 0x${f.offset!.toString(16)}`);
    }
  });

  it('caps repeated findings of one check', () => {
    const res = box();
    res.shapes[0].cornerVertices.fill(200);
    const f = checks(res).filter((m) => m.startsWith('corner-vertex'));
    expect(f).toHaveLength(11);
    expect(f[10]).toMatch(/further corner-vertex findings not listed/);
  });

  it('checks the planes of the box and convex parts', () => {
    expect(verifyResource(readPhysicsResource(layResource(HAND_RESOURCES['mesh + convex + box, Studio body']())), 'k')).toEqual([]);
    const res = readPhysicsResource(load('boxplanes.physics'));
    res.shapes[0].planeOffsets[2] = Number.POSITIVE_INFINITY;
    expect(checks(res)).toEqual([`plane-offset: shape 0: face 2: plane offset Infinity at 0x${(res.layout!.arrays[0][10] + 2 * 8 + 4).toString(16)}, expected a finite number`]);
  });

  it('names the byte offset of a NaN or infinite value in the file: a vertex, a bound, a part transform, a plane, an edge value', () => {
    // box.physics: a kind-5 mesh (edge values); boxplanes.physics: a shape with face planes.
    const where = (file: string, pick: (l: NonNullable<PhysicsResource['layout']>) => number): [Uint8Array, number] => {
      const bytes = load(file);
      return [bytes, pick(readPhysicsResource(bytes).layout!)];
    };
    const places: [string, Uint8Array, number][] = [
      ['vertex', ...where('box.physics', (l) => l.arrays[0][0] + 4 * 7)], // vertex 2's y
      ['bounds', ...where('box.physics', (l) => l.shapeTable + 0x0c + 4)], // max y
      ['part-transform', ...where('box.physics', (l) => l.partTable + 0x14)], // position y
      ['edge-value', ...where('box.physics', (l) => l.arrays[0][4] + 4 * 5)], // corner 5
      ['plane-offset', ...where('boxplanes.physics', (l) => l.arrays[0][10] + 8 * 3 + 4)], // face 3's plane offset
    ];
    for (const [check, bytes, offset] of places) {
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
        const b = bytes.slice();
        new DataView(b.buffer).setFloat32(offset, bad, true);
        const f = verifyPhysics(b, 'bad.physics').filter((x) => x.check === check);
        expect(f, `${check} ${bad}`).toHaveLength(1);
        expect(f[0].offset, `${check} ${bad}`).toBe(offset);
        expect(f[0].message).toContain(`at 0x${offset.toString(16)}`);
      }
    }
  });
});

describe('inspect', () => {
  it('counts edge classes of the reference box: quad diagonals flat, cube edges convex', () => {
    expect(edgeClasses(box().shapes[0])).toEqual({ flat: 12, concave: 0, convex: 24, open: 0 });
  });
  it('says when a layout differs from the reference encoder’s', () => {
    const b = load('box.physics');
    const padded = new Uint8Array(b.length + 8);
    padded.set(b);
    padded[b.length + 2] = 9;
    expect(inspectPhysics(b, { json: false })).toMatch(/\nlayout: records placed exactly where ReSkate Studio \(and our compiler\) put them\n/);
    expect(inspectPhysics(padded, { json: false })).toMatch(/layout: not where ReSkate Studio puts them \(0 arrays or tables elsewhere, 1 non-zero padding byte, 8 bytes longer than Studio's layout\)/);
    expect(inspectPhysics(b.subarray(0, b.length - 8), { json: false })).toMatch(/8 bytes short of Studio's layout/);
  });
  it('summarises parts and shapes', () => {
    const s = summarize(box(), 832);
    expect(s.parts[0]).toMatchObject({ kind: 5, kindName: 'mesh', shape: 0, position: [20, 30, 0] });
    expect(s.shapes[0]).toMatchObject({ vertices: 8, faces: 12, corners: 36, treeNodes: 11, treeDepth: 4, planes: 0 });
  });
  it('dumps JSON that parses, with hex tree nodes and non-finite numbers as strings', () => {
    const res = box();
    const j = JSON.parse(inspectPhysics(load('box.physics'), { json: true }));
    expect(j.resource.shapes[0].tree).toHaveLength(11);
    expect(j.resource.shapes[0].tree[10]).toMatch(/^[0-9a-f]{16}$/);
    expect(j.resource.shapes[0].vertices).toHaveLength(24);
    expect(j.resource.layout.arrays[0]).toHaveLength(12);
    expect(res.parts).toHaveLength(1);
  });
});
