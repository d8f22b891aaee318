// The convex hull (src/shapes/hull.ts) on hostile point sets: coplanar, collinear, coincident, duplicates, lattices
// full of exact ties, 100,000 points on a sphere, a rotated f32 cube. Checked exactly: every input point on or below
// every face (orient3d ≤ 0), every edge convex or flat (the neighbour's far vertex on or below the face), closed
// two-manifold; and through the encoder: no concave, sharp-concave or open edge.
import { describe, expect, it } from 'vitest';
import { encodeMeshShapes } from '../../src/geometry/encode.ts';
import { convexHull, type Hull } from '../../src/shapes/hull.ts';
import { orient3d, orient3dExact } from '../../src/shapes/predicates.ts';
import { prng } from '../fixtures/meshes.ts';
import { census } from './surface.ts';

function checkSolid(points: Float32Array, h: Hull): void {
  expect(h.dimension).toBe(3);
  const t = h.triangles;
  const c = census(points, t);
  expect(c).toMatchObject({ open: 0, nonManifold: 0, inconsistent: 0 });
  expect(c.signedVolume).toBeGreaterThan(0);
  const n = points.length / 3;
  let outside = 0, reflex = 0;
  for (let f = 0; f < t.length; f += 3) {
    for (let q = 0; q < n; q++) if (orient3d(points, t[f], t[f + 1], t[f + 2], q) > 0) outside++;
  }
  // Edges: the far vertex of the triangle across each edge is on or below this triangle's plane.
  const byEdge = new Map<string, number>();
  for (let f = 0; f < t.length; f += 3) for (let e = 0; e < 3; e++) byEdge.set(`${t[f + e]},${t[f + ((e + 1) % 3)]}`, f);
  for (let f = 0; f < t.length; f += 3) {
    for (let e = 0; e < 3; e++) {
      const a = t[f + e], b = t[f + ((e + 1) % 3)];
      const g = byEdge.get(`${b},${a}`)!;
      const far = [t[g], t[g + 1], t[g + 2]].find((v) => v !== a && v !== b)!;
      if (orient3d(points, t[f], t[f + 1], t[f + 2], far) > 0) reflex++;
    }
  }
  expect(outside).toBe(0);
  expect(reflex).toBe(0);
  const { stats } = encodeMeshShapes(points, t);
  expect(stats.edges.concave + stats.edges.concaveSharp + stats.edges.open).toBe(0);
  expect(stats.degenerateDropped + stats.duplicatesDropped).toBe(0);
}

const cubeLattice = (k: number): Float32Array => {
  const out: number[] = [];
  for (let i = 0; i <= k; i++) for (let j = 0; j <= k; j++) for (let l = 0; l <= k; l++) out.push(i, j, l);
  return Float32Array.from(out);
};

describe('convexHull', () => {
  it('a lattice cube (coplanar points on every face, collinear ones on every edge): 6 polygon faces, 8 corners', () => {
    const p = cubeLattice(6);
    const h = convexHull(p, 'n');
    checkSolid(p, h);
    expect(h.polygonOffsets.length - 1).toBe(6);
    expect(new Set(h.triangles).size).toBe(8);
    for (let f = 0; f < 6; f++) expect(h.polygonOffsets[f + 1] - h.polygonOffsets[f]).toBe(4);
  });

  it('duplicates: every point repeated, −0 and 0, gives the hull of the distinct points', () => {
    const base = cubeLattice(2);
    const p = new Float32Array(base.length * 3);
    for (let k = 0; k < 3; k++) p.set(base, k * base.length);
    p[0] = -0;
    const h = convexHull(p, 'n');
    checkSolid(p, h);
    expect(h.distinctPoints).toBe(27);
  });

  it('a rotated cube of random points in f32 (near-coplanar faces): still exactly convex', () => {
    const rnd = prng(7);
    const pts: number[] = [];
    const c = Math.cos(0.3), s = Math.sin(0.3);
    for (let i = 0; i < 3000; i++) {
      const face = i % 6, a = rnd() * 2 - 1, b = rnd() * 2 - 1;
      const v = [a, b, face < 3 ? 1 : -1];
      const q = face % 3 === 0 ? v : face % 3 === 1 ? [v[2], v[0], v[1]] : [v[1], v[2], v[0]];
      pts.push(100 + c * q[0] - s * q[2], 5 + q[1], -40 + s * q[0] + c * q[2]);
    }
    const p = Float32Array.from(pts);
    checkSolid(p, convexHull(p, 'n'));
  });

  it('a lattice of 100,000 points with nothing but ties, and 100,000 points on a sphere', () => {
    const rnd = prng(100000);
    const lattice = Float32Array.from({ length: 300000 }, () => Math.floor(rnd() * 7) - 3);
    const h1 = convexHull(lattice, 'n');
    expect(h1.polygonOffsets.length - 1).toBe(6);
    const pts: number[] = [];
    for (let i = 0; i < 100000; i++) {
      const u = rnd() * 2 - 1, t = rnd() * 2 * Math.PI, r = Math.sqrt(1 - u * u);
      pts.push(r * Math.cos(t), u, r * Math.sin(t));
    }
    const p = Float32Array.from(pts);
    const h2 = convexHull(p, 'n');
    const c = census(p, h2.triangles);
    expect(c).toMatchObject({ open: 0, nonManifold: 0, inconsistent: 0 });
    expect(h2.triangles.length / 3).toBeGreaterThan(190000);
    // Every point inside (a sample of faces against all points would be 2·10^10 tests: the faces around 2,000
    // points, exactly).
    let outside = 0;
    for (let f = 0; f < h2.triangles.length; f += 3 * 97) {
      for (let q = 0; q < 100000; q += 50) if (orient3d(p, h2.triangles[f], h2.triangles[f + 1], h2.triangles[f + 2], q) > 0) outside++;
    }
    expect(outside).toBe(0);
    const { stats } = encodeMeshShapes(p, h2.triangles.subarray(0, 3 * 20000)); // one shape's worth: encoded, part of it
    expect(stats.edges.concave + stats.edges.concaveSharp).toBe(0);
  });

  it('all coplanar: one convex polygon (open plate) facing the authored side, collinear points dropped', () => {
    const rnd = prng(3);
    const pts: number[] = [0, 0, 0, 4, 0, 0, 4, 0, 4, 0, 0, 4, 2, 0, 0]; // a square with a point on an edge
    for (let i = 0; i < 500; i++) pts.push(rnd() * 4, 0, rnd() * 4);
    const p = Float32Array.from(pts);
    const up = convexHull(p, 'n', [0, 1, 0]);
    expect(up.dimension).toBe(2);
    expect([...up.polygonVertices].sort()).toEqual([0, 1, 2, 3]);
    const t = up.triangles;
    const ny = (p[3 * t[2]] - p[3 * t[0]]) * (p[3 * t[1] + 2] - p[3 * t[0] + 2]) - (p[3 * t[1]] - p[3 * t[0]]) * (p[3 * t[2] + 2] - p[3 * t[0] + 2]);
    expect(ny).toBeGreaterThan(0);
    const down = convexHull(p, 'n', [0, -1, 0]);
    expect([...down.polygonVertices]).toEqual([...up.polygonVertices].reverse());
    const { stats } = encodeMeshShapes(p, up.triangles);
    expect(stats.edges.concave + stats.edges.concaveSharp + stats.edges.convex).toBe(0);
    expect(stats.openEdges).toBe(4);
  });

  it('refuses degenerate input by name: nothing, one position, one line', () => {
    expect(() => convexHull(new Float32Array(0), 'node 4 "rock"')).toThrow('hull: node 4 "rock": no collision vertices');
    expect(() => convexHull(Float32Array.from([1, 2, 3, 1, 2, 3, 1, 2, 3]), 'node 4 "rock"')).toThrow(/hull: node 4 "rock": all 3 collision vertices are at one position \(1, 2, 3\)/);
    const line = Float32Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? i / 3 : i % 3 === 1 ? (2 * i) / 3 : -1));
    expect(() => convexHull(line, 'node 4 "rock"')).toThrow(/hull: node 4 "rock": all 100 distinct collision vertices lie on one line, \(0, [\d.]+, -1\) to \(99, /);
  });

  it('is deterministic', () => {
    const rnd = prng(11);
    const p = Float32Array.from({ length: 3000 }, () => Math.round(rnd() * 20) / 4);
    const a = convexHull(p, 'n'), b = convexHull(Float32Array.from(p), 'n');
    expect(a.triangles).toEqual(b.triangles);
    expect(a.polygonVertices).toEqual(b.polygonVertices);
    checkSolid(p, a);
  });
});

describe('orient3d', () => {
  it('agrees with exact arithmetic on near-degenerate f32 quadruples', () => {
    const rnd = prng(5);
    let zero = 0;
    for (let i = 0; i < 3000; i++) {
      // Four points on (or one ulp off) a plane through big coordinates.
      const pts: number[] = [];
      for (let k = 0; k < 4; k++) {
        const a = rnd() * 1000, b = rnd() * 1000;
        pts.push(a, b, Math.fround(0.5 * a + 0.25 * b + 1024));
      }
      const p = Float32Array.from(pts);
      const s = orient3d(p, 0, 1, 2, 3);
      expect(s).toBe(orient3dExact(p, 0, 1, 2, 3));
      if (s === 0) zero++;
    }
    expect(zero).toBeGreaterThan(0);
  });
});
