// Piece-wise encoding (src/geometry/pieces.ts): planPieces → encodePieceInput per piece → mergePieces gives exactly
// encodeMeshShapes's shapes (every array, byte for byte) and stats, for every fixture, for split meshes under both
// split rules and for pieces encoded in any order.
import { describe, expect, it } from 'vitest';
import { encodeMeshShapes, type EncodeOptions } from '../../src/geometry/encode.ts';
import type { ShapeRecord } from '../../src/format/types.ts';
import { encodePieceInput, mergePieces, planPieces } from '../../src/geometry/pieces.ts';
import { bumpyGrid, concat, degenerateMesh, FIXTURES, seamSplitGrid, translate, type Mesh } from '../fixtures/meshes.ts';

function piecewise(m: Mesh, options: Partial<EncodeOptions> = {}, reverse = false) {
  const plan = planPieces(m.positions, m.indices, options);
  const order = plan.pieces.map((_, i) => i);
  if (reverse) order.reverse();
  const results = new Array(plan.pieces.length);
  for (const i of order) results[i] = encodePieceInput(plan.pieces[i]);
  return mergePieces(plan, results);
}

/** Every field equal; typed arrays byte for byte (toEqual on 100k-element arrays takes seconds). */
function sameShape(a: ShapeRecord, b: ShapeRecord): void {
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  for (const k of Object.keys(a) as (keyof ShapeRecord)[]) {
    const x = a[k], y = b[k];
    if (ArrayBuffer.isView(x) && ArrayBuffer.isView(y)) {
      expect(x.constructor, k).toBe(y.constructor);
      expect(Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(y.buffer, y.byteOffset, y.byteLength)), k).toBe(true);
    } else expect(x, k).toEqual(y);
  }
}

function expectSame(m: Mesh, options: Partial<EncodeOptions> = {}, reverse = false): number {
  const whole = encodeMeshShapes(m.positions, m.indices, options);
  const parts = piecewise(m, options, reverse);
  expect(parts.stats).toEqual(whole.stats);
  expect(parts.pieces.length).toBe(whole.pieces.length);
  parts.pieces.forEach((p, i) => {
    expect(p.centre).toEqual(whole.pieces[i].centre);
    sameShape(p.shape, whole.pieces[i].shape);
  });
  return parts.pieces.length;
}

describe('pieces', () => {
  it('every fixture encodes to the same shapes and stats piece by piece', () => {
    for (const [name, make] of Object.entries(FIXTURES)) {
      expect(() => expectSame(make()), name).not.toThrow();
    }
  });

  it('split meshes: spatial and sequential rules, small maxFaces, pieces encoded in reverse order', () => {
    const m = concat(bumpyGrid(2048), translate(seamSplitGrid(12, 9), [40, 1, -3]), degenerateMesh());
    expect(expectSame(m, { maxFaces: 300 })).toBeGreaterThan(6);
    expect(expectSame(m, { maxFaces: 300, split: 'sequential' }, true)).toBeGreaterThan(6);
    expect(expectSame(m, { maxFaces: 1 })).toBeGreaterThan(2000);
  });

  it('a piece is a self-contained mesh: only the vertices its triangles use, numbered by first use', () => {
    const plan = planPieces(bumpyGrid(2048).positions, bumpyGrid(2048).indices, { maxFaces: 500 });
    for (const p of plan.pieces) {
      const nv = p.positions.length / 3;
      let next = 0;
      for (const v of p.triangles) {
        expect(v).toBeLessThanOrEqual(next);
        if (v === next) next++;
      }
      expect(next).toBe(nv);
    }
  });

  it('bad input throws as encodeMeshShapes does', () => {
    const m = bumpyGrid(8);
    expect(() => planPieces(m.positions, m.indices, { maxFaces: 0 })).toThrow(/maxFaces 0/);
    expect(() => planPieces(m.positions, new Uint32Array([0, 1, 99999]))).toThrow(/index 99999/);
  });
});
