// Stored native records (src/shapes/stored.ts, what to-gltf writes for kind-2/3 parts): under a translation the
// values are kept as given (no recentring, no normalised rotation), under any other matrix the record is placed and
// made a hull part again (planes outward under a mirror); refusals name the key; a convex_parts record whose part
// count is not the mesh's is not used (with a warning); a hull record without --native-shapes is the kind-5 hull of
// its vertices.
import { describe, expect, it } from 'vitest';
import type { ImportedObject } from '../../src/model.ts';
import { shapeObjects } from '../../src/shapes/build.ts';
import { nativeConvex } from '../../src/shapes/native.ts';
import { parseStoredSpec, storedConvexPart } from '../../src/shapes/stored.ts';

const translation = (x: number, y: number, z: number): number[] => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];
/** A 1 × 2 × 3 block's corners (x: bit 0, y: bit 1, z: bit 2) about the origin and its 6 quads wound outward. */
const block = {
  vertices: Array.from({ length: 8 }, (_, i) => [i & 1 ? 0.5 : -0.5, i & 2 ? 1 : -1, i & 4 ? 1.5 : -1.5]).flat(),
  faces: [[4, 5, 7, 6], [1, 0, 2, 3], [1, 3, 7, 5], [0, 4, 6, 2], [2, 6, 7, 3], [0, 1, 5, 4]],
};
const offsets = (faces: number[][]): number[] => faces.reduce((o, f) => [...o, o[o.length - 1] + f.length], [0]);
const quiet = { warn: () => {} };
/** The block's 12 outward triangles (the box corner numbering) and its corners placed at (x, y, z), as the importer gives them. */
const BOX_TRIS = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];
const placedBlock = (x: number, y: number, z: number): number[] => block.vertices.map((v, i) => Math.fround(v + [x, y, z][i % 3]));
const object = (positions: number[], indices: number[], shape: ImportedObject['shape']): ImportedObject => ({
  name: 'o', source: 'node 0 "o"', kind: 'mesh', positions: Float32Array.from(positions), groups: [{ material: 0x20, indices: Uint32Array.from(indices) }], shape,
});

describe('stored kind-3 records', () => {
  it('under a translation: the vertices as given, at origin + centre (a fit would recentre them)', () => {
    // A tetrahedron whose bounds' centre is not its origin.
    const rec = { centre: [0, 0.25, 0] as [number, number, number], vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], faces: [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]] };
    const n = storedConvexPart(rec, translation(10, 0, 5), 'test');
    expect(Array.from(n.shape.vertices)).toEqual(rec.vertices);
    expect(n.position).toEqual([10, 0.25, 5]);
    expect(n.rotation).toEqual([0, 0, 0, 1]);
    const fitted = nativeConvex(Float32Array.from(rec.vertices), offsets(rec.faces), rec.faces.flat(), 'test');
    expect(Array.from(fitted.shape.vertices)).not.toEqual(rec.vertices);
    // The record of a fitted part (its stored vertices and faces, at its position) builds that part again, every array.
    const faces = Array.from({ length: fitted.shape.faceOffsets.length - 1 }, (_, f) => Array.from(fitted.shape.cornerVertices.subarray(fitted.shape.faceOffsets[f], fitted.shape.faceOffsets[f + 1])));
    const again = storedConvexPart({ centre: [0, 0, 0], vertices: Array.from(fitted.shape.vertices), faces }, translation(...fitted.position), 'test');
    expect(again).toEqual(fitted);
  });

  it('turned or mirrored: placed and made a hull part again, its planes facing out', () => {
    const rec = { centre: [0, 0, 0] as [number, number, number], ...block };
    // 90° about y, then moved.
    const turned = [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 3, 0, 0, 1];
    const n = storedConvexPart(rec, turned, 'test');
    expect(n.position).toEqual([3, 0, 0]);
    // The block's x extent (0.5) is now along z, its z extent (1.5) along x.
    const xs = Array.from(n.shape.vertices).filter((_, i) => i % 3 === 0), zs = Array.from(n.shape.vertices).filter((_, i) => i % 3 === 2);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...zs), Math.max(...zs)]).toEqual([-1.5, 1.5, -0.5, 0.5]);
    // n · p + offset = 0 on a face with n out: the centre (0) inside gives a negative offset for every face.
    const mirrored = storedConvexPart(rec, [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 'test');
    expect(Array.from(mirrored.shape.planeOffsets).every((o) => o < 0)).toBe(true);
    expect(Array.from(storedConvexPart(rec, translation(0, 0, 0), 'test').shape.planeOffsets).every((o) => o < 0)).toBe(true);
  });

  it('refusals name what is wrong', () => {
    expect(() => parseStoredSpec({ type: 'hull', vertices: [0, 0, 0], faces: [] }, 'here')).toThrow(/shapes: here: sk8_shape vertices is not a flat list of at least 4 xyz points/);
    expect(() => parseStoredSpec({ type: 'hull', ...block, radius: 1 }, 'here')).toThrow(/key "radius" is not read for a hull/);
    expect(() => parseStoredSpec({ type: 'hull', vertices: block.vertices, faces: [...block.faces.slice(1), [0, 1, 8]] }, 'here')).toThrow(/faces\[5\] \[0,1,8\] is not a polygon of 3 or more vertex numbers below 8/);
    expect(() => parseStoredSpec({ type: 'convex_parts', parts: [null, { ...block, axis: 'y' }] }, 'here')).toThrow(/parts\[1\]: key "axis" is not read/);
    expect(() => shapeObjects([object([], [], { mode: 'box', world: translation(0, 0, 0), spec: { type: 'box', size: [1, 1, 1], stored: 'yes' } })], { nativeShapes: true }, quiet)).toThrow(/sk8_shape stored "yes" is not true or false/);
  });
});

describe('records through the shape layer', () => {
  it('a stored box keeps its rotation as written (not normalised); without stored it is normalised', () => {
    const rotation = [0, 0.6000001, 0, 0.8];
    const box = (stored: boolean) => shapeObjects([object([], [], { mode: 'box', world: translation(1, 2, 3), spec: { type: 'box', halfExtents: [1, 2, 3], rotation, ...(stored ? { stored } : {}) } })], { nativeShapes: true }, quiet).objects[0].native![0];
    const kept = box(true);
    expect(kept.rotation).toEqual(rotation.map(Math.fround));
    expect(kept.position).toEqual([1, 2, 3]);
    expect(box(false).rotation).not.toEqual(rotation.map(Math.fround));
  });

  it('a hull record without --native-shapes: the kind-5 hull of its vertices, placed by the node', () => {
    const o = shapeObjects([object(placedBlock(0, 5, 0), BOX_TRIS, { mode: 'hull', world: translation(0, 5, 0), spec: { type: 'hull', ...block } })], {}, quiet).objects[0];
    expect(o.native).toBeUndefined();
    expect(o.groups[0].indices.length).toBe(36);
    expect(Math.min(...Array.from(o.positions).filter((_, i) => i % 3 === 1))).toBe(4);
  });

  it('a mesh edited after to-gltf wrote it (it no longer spans its record): built from the mesh, with a warning', () => {
    const spec = { type: 'hull', ...block, vertices: block.vertices.map((v, i) => v + (i % 3 === 0 ? 0.25 : 0)) };
    // The record as written: used (its vertices as stored, not recentred on the mesh's bounds).
    const asWritten = shapeObjects([object(placedBlock(2.25, 0, 0), BOX_TRIS, { mode: 'hull', world: translation(2, 0, 0), spec })], { nativeShapes: true }, quiet).objects[0];
    expect(Array.from(asWritten.native![0].shape.vertices)).toEqual(spec.vertices);
    // One corner dragged 1 cm out: the mesh's hull, recentred.
    const warnings: string[] = [];
    const moved = placedBlock(2.25, 0, 0);
    moved[21] += 0.01;
    const edited = shapeObjects([object(moved, BOX_TRIS, { mode: 'hull', world: translation(2, 0, 0), spec })], { nativeShapes: true }, { warn: (m) => warnings.push(m) }).objects[0];
    expect(warnings.join('\n')).toMatch(/shapes: object "o" \(node 0 "o"\): the mesh does not span its sk8_shape hull record .*built from the mesh/);
    expect(Math.max(...Array.from(edited.native![0].shape.vertices).filter((_, i) => i % 3 === 0))).toBeCloseTo(0.505, 6);
  });

  it('a convex_parts record with another part count than the mesh: not used, with a warning', () => {
    const cube = (x: number) => Array.from({ length: 8 }, (_, i) => [x + (i & 1 ? 0.5 : -0.5), i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5]).flat();
    const tris = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];
    const warnings: string[] = [];
    const spec = { type: 'convex_parts', parts: [{ ...block }] };
    const o = shapeObjects([object([...cube(0), ...cube(3)], [...tris, ...tris.map((i) => i + 8)], { mode: 'convex_parts', world: translation(0, 0, 0), spec })], { nativeShapes: true }, { warn: (m) => warnings.push(m) }).objects[0];
    expect(warnings.join('\n')).toMatch(/convex_parts: object "o" \(node 0 "o"\): sk8_shape lists 1 part\(s\) but the mesh has 2; its records are not used/);
    expect(o.native!.length).toBe(2);
    // With one record per part, the record is the part: the first cube's record centred at x 0.25 (a fit centres
    // it at 0), the second part from the mesh.
    const cubeRecord = { centre: [0.25, 0, 0], vertices: cube(-0.25), faces: block.faces };
    const used = shapeObjects([object([...cube(0), ...cube(3)], [...tris, ...tris.map((i) => i + 8)], { mode: 'convex_parts', world: translation(0, 0, 0), spec: { type: 'convex_parts', parts: [cubeRecord, null] } })], { nativeShapes: true }, quiet).objects[0];
    expect(used.native![0].position).toEqual([0.25, 0, 0]);
    expect(Array.from(used.native![0].shape.vertices)).toEqual(cube(-0.25));
    expect(used.native![1].position).toEqual([3, 0, 0]);
    // A record whose part is not its mesh's (a 1-m cube, not the 1 × 2 × 3 block): that part from the mesh, said.
    warnings.length = 0;
    const wrong = shapeObjects([object([...cube(0), ...cube(3)], [...tris, ...tris.map((i) => i + 8)], { mode: 'convex_parts', world: translation(0, 0, 0), spec: { type: 'convex_parts', parts: [cubeRecord, block] } })], { nativeShapes: true }, { warn: (m) => warnings.push(m) }).objects[0];
    expect(warnings.join('\n')).toMatch(/convex_parts: object "o" \(node 0 "o"\): part 1 \(from triangle 12\) does not span its sk8_shape record/);
    expect(wrong.native![0].position).toEqual([0.25, 0, 0]);
    expect(wrong.native![1].position).toEqual([3, 0, 0]);
    expect(Array.from(wrong.native![1].shape.vertices).slice(0, 3).map(Math.abs)).toEqual([0.5, 0.5, 0.5]);
  });
});
