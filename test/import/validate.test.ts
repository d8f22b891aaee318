import { describe, expect, it } from 'vitest';
import { describeReport, halfEdgeDensity, validateMesh } from '../../src/import/validate.ts';
import { boxMesh, gridMesh } from '../fixtures/levels.ts';

const F = (a: ArrayLike<number>): Float32Array => Float32Array.from(a);
const U = (a: ArrayLike<number>): Uint32Array => Uint32Array.from(a);

describe('validateMesh: the weld view', () => {
  it('welds by exact position, -0 with 0, across material groups', () => {
    // A quad as two triangles in two groups; the second one's copies of the shared corners use -0.
    const positions = F([0, 0, 0, 1, 0, 0, 0, 0, 1, 1, -0, -0, 1, 0, 1, -0, 0, 1]);
    const r = validateMesh(positions, [U([0, 2, 1]), U([3, 5, 4])]);
    expect(r).toMatchObject({ triangles: 2, openEdges: 4, inconsistentEdges: 0, nonManifoldEdges: 0, degenerate: 0 });
  });
  it('measures density over the used vertices of each part', () => {
    expect(halfEdgeDensity(0, 0, 0, 0)).toBe(0);
    expect(halfEdgeDensity(6, 0, 0, 0)).toBe(Infinity);
    expect(halfEdgeDensity(6, 3, 4, 0)).toBe(6 / 5);
    // Far-away unused vertex 3 does not count.
    const r = validateMesh(F([0, 0, 0, 3, 0, 0, 0, 0, 4, 1000, 0, 0]), [U([0, 2, 1])]);
    expect(r.maxHalfEdgesPerMetre).toBe(3 / 5);
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
    expect(r.open?.ends).toHaveLength(6 * 10);
    expect(describeReport('g', r)).toBeUndefined(); // open edges are borders until classifyCracks says otherwise
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

/** The mesh policy written out plainly (maps of strings), for random meshes. */
function plainReport(p: Float32Array, groups: Uint32Array[]) {
  const key = (v: number) => [0, 1, 2].map((k) => (p[3 * v + k] === 0 ? 0 : p[3 * v + k])).join(',');
  const ids = new Map<string, number>();
  const id = (v: number) => (ids.has(key(v)) ? ids.get(key(v))! : (ids.set(key(v), ids.size), ids.size - 1));
  const kept = new Set<string>();
  const tris: number[][] = [];
  let degenerate = 0, duplicate = 0;
  for (const g of groups) {
    for (let t = 0; t < g.length; t += 3) {
      const [i, j, k] = [g[t], g[t + 1], g[t + 2]];
      const [a, b, c] = [id(i), id(j), id(k)];
      const u = [0, 1, 2].map((d) => p[3 * j + d] - p[3 * i + d]), w = [0, 1, 2].map((d) => p[3 * k + d] - p[3 * i + d]);
      const cross = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
      if (a === b || b === c || a === c || cross.every((x) => x === 0)) {
        degenerate++;
        continue;
      }
      const r = a < b && a < c ? [a, b, c] : b < c ? [b, c, a] : [c, a, b];
      if (kept.has(r.join())) duplicate++;
      else kept.add(r.join()), tris.push(r);
    }
  }
  const reversedDuplicate = tris.filter(([a, b, c]) => kept.has([a, c, b].join())).length / 2;
  const edges = new Map<string, { uses: number; forward: number }>();
  for (const t of tris) {
    for (let e = 0; e < 3; e++) {
      const [x, y] = [t[e], t[(e + 1) % 3]];
      const k = `${Math.min(x, y)},${Math.max(x, y)}`;
      const s = edges.get(k) ?? { uses: 0, forward: 0 };
      s.uses++;
      s.forward += x < y ? 1 : 0;
      edges.set(k, s);
    }
  }
  const all = [...edges.values()];
  return {
    degenerate, duplicate, reversedDuplicate,
    openEdges: all.filter((e) => e.uses === 1).length,
    nonManifoldEdges: all.filter((e) => e.uses > 2).length,
    inconsistentEdges: all.filter((e) => e.uses === 2 && e.forward !== 1).length,
  };
}

describe('validateMesh against the policy written out plainly', () => {
  it('gives the same counts on random meshes (welds, repeats, reversals, fans past the pairwise limit)', () => {
    let x = 7;
    const rnd = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const seen = { reversed: 0, nonManifold: 0, inconsistent: 0, duplicate: 0, degenerate: 0 };
    for (let k = 0; k < 200; k++) {
      const nv = 3 + Math.floor(rnd() * (k % 4 === 0 ? 6 : 50));
      const grid = 1 + Math.floor(rnd() * 4);
      const positions = F(Array.from({ length: 3 * nv }, () => Math.floor(rnd() * grid) * (rnd() < 0.1 ? -1 : 1)));
      const groups = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => U(Array.from({ length: 3 * Math.floor(rnd() * (k % 5 === 0 ? 300 : 30)) }, () => Math.floor(rnd() * nv))));
      const got = validateMesh(positions, groups);
      const want = plainReport(positions, groups);
      expect(got).toMatchObject(want);
      seen.reversed += +(want.reversedDuplicate > 0);
      seen.nonManifold += +(want.nonManifoldEdges > 0);
      seen.inconsistent += +(want.inconsistentEdges > 0);
      seen.duplicate += +(want.duplicate > 0);
      seen.degenerate += +(want.degenerate > 0);
    }
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(20);
  });
});
