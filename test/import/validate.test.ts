import { describe, expect, it } from 'vitest';
import { describeReport, validateMesh, weldExact } from '../../src/import/validate.ts';
import { boxMesh, gridMesh } from '../fixtures/levels.ts';

const F = (a: ArrayLike<number>): Float32Array => Float32Array.from(a);
const U = (a: ArrayLike<number>): Uint32Array => Uint32Array.from(a);

describe('weldExact', () => {
  it('welds equal positions, -0 with 0, in first-use order', () => {
    const { ids, count } = weldExact(F([1, 2, 3, 0, 0, 0, 1, 2, 3, -0, 0, -0]));
    expect(Array.from(ids)).toEqual([0, 1, 0, 1]);
    expect(count).toBe(2);
  });
});

describe('validateMesh', () => {
  it('a closed box is clean', () => {
    const b = boxMesh([0, 0, 0], [1, 1, 1]);
    const r = validateMesh(F(b.positions), [U(b.indices)]);
    expect(describeReport('box', r)).toBeUndefined();
    expect(r.triangles).toBe(12);
  });
  it('a seam-split box (every triangle its own vertices) is still closed', () => {
    const b = boxMesh([0, 0, 0], [1, 1, 1]);
    const soup = b.indices.flatMap((i) => b.positions.slice(3 * i, 3 * i + 3));
    const r = validateMesh(F(soup), [U(soup.map((_, i) => i).filter((i) => i < soup.length / 3))]);
    expect(r.openEdges).toBe(0);
    expect(r.inconsistentEdges).toBe(0);
  });
  it('counts open edges of a grid border', () => {
    const g = gridMesh(3, 2, 1, [0, 0, 0]);
    const r = validateMesh(F(g.positions), [U(g.indices)]);
    expect(r.openEdges).toBe(2 * (3 + 2));
    expect(describeReport('g', r)).toMatch(/10 open edges/);
  });
  it('counts degenerate, duplicate, reversed, flipped and non-manifold', () => {
    const g = gridMesh(1, 1, 1, [0, 0, 0]); // 2 triangles: (0,2,1) (1,2,3)
    const idx = [...g.indices, 0, 0, 1, /* repeated vertex */ 0, 2, 1, /* duplicate */ 1, 2, 0 /* reversed: rotates to (0,1,2) */];
    const r = validateMesh(F(g.positions), [U(idx)]);
    expect(r.degenerate).toBe(1);
    expect(r.duplicate).toBe(1);
    expect(r.reversedDuplicate).toBe(1);
    // flipped neighbour: (1,3,2) runs edge 1→2 the same way as (0,2,1)? (0,2,1) has 1→0, 0→2, 2→1.
    const flipped = validateMesh(F(g.positions), [U([0, 2, 1, 1, 3, 2])]);
    expect(flipped.inconsistentEdges).toBe(1);
    const fin = validateMesh(F([...g.positions, 0.5, 1, 0.5]), [U([0, 2, 1, 1, 2, 3, 1, 2, 4])]);
    expect(fin.nonManifoldEdges).toBe(1);
  });
  it('zero-area (collinear) triangles are degenerate', () => {
    const r = validateMesh(F([0, 0, 0, 1, 0, 0, 2, 0, 0]), [U([0, 1, 2])]);
    expect(r.degenerate).toBe(1);
  });
  it('flags parts denser than 900 half-edges per metre', () => {
    const g = gridMesh(100, 100, 0.001, [0, 0, 0]);
    const r = validateMesh(F(g.positions), [U(g.indices)]);
    expect(r.denseParts).toBe(1);
    expect(describeReport('dense', r)).toMatch(/too dense to grind/);
  });
  it('is fast on a large fan (no quadratic buckets)', () => {
    const n = 50_000;
    const pos = [0, 0, 0];
    for (let i = 0; i <= n; i++) pos.push(Math.cos(i / n * 6), 0, Math.sin(i / n * 6));
    const idx: number[] = [];
    for (let i = 1; i <= n; i++) idx.push(0, i + 1, i);
    const t0 = performance.now();
    const r = validateMesh(F(pos), [U(idx)]);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(r.openEdges).toBe(n + 2);
  });
});
