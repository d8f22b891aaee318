import { describe, expect, it } from 'vitest';
import { convexValue, convexValueFast } from '../../src/geometry/edges.ts';
import { encodeMeshShapes } from '../../src/geometry/encode.ts';
import { classifyEdge, EDGE_CONCAVE, EDGE_CONCAVE_SHARP, EDGE_CONVEX, EDGE_FLAT, EDGE_OPEN, FLAT_COS } from '../../src/geometry/edge-rule.ts';
import type { ShapeRecord } from '../../src/format/types.ts';
import { bumpyGrid, concat, flatGrid, prng, stairs, type Mesh } from '../fixtures/meshes.ts';

describe('convexValueFast', () => {
  it('equals convexValue bit for bit (random d, d near ±1, f32 d, the ends)', () => {
    const rnd = prng(7);
    const ds = [-1, 1, 0, -0, 0.5, -0.5, Math.cos((0.1 * Math.PI) / 180), -1 + 1e-12, 1 - 1e-12];
    for (let i = 0; i < 200_000; i++) {
      const u = rnd();
      ds.push(u * 2 - 1, -1 + u * 1e-6, 1 - u * 1e-3, Math.fround(u * 2 - 1));
    }
    // d whose half-angle cosine lies on an f32 rounding midpoint: the guarded fallback must decide these.
    const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
    for (let i = 0; i < 2000; i++) {
      f32[0] = rnd();
      const lo = f32[0];
      u32[0]++;
      const mid = (lo + f32[0]) / 2;
      ds.push(2 * mid * mid - 1);
    }
    let mismatches = 0;
    for (const d of ds) if (!Object.is(convexValueFast(d), convexValue(d))) mismatches++;
    expect(mismatches).toBe(0);
  });
});

// The corner edge data of whole shapes against the rule written out per corner in JavaScript (edge-rule.ts), from
// the stored shape alone: the pairing (a→b and b→a each held by exactly one corner), Newell normals and centroids
// in f64 over the stored f32 vertices, the flat / above tests. The WebAssembly classifies a list of paired edges
// with selects and computes face data two faces at a time; this holds it to the plain rule on meshes with hubs,
// non-manifold edges, folds, flat runs and odd face counts.

/** Per corner: [class, value, concave bit, flat bit] as the rule gives them. */
function referenceEdges(s: ShapeRecord): { value: Float32Array; concave: Uint8Array; flat: Uint8Array; counts: number[] } {
  const nc = s.cornerVertices.length, faces = nc / 3, v = s.vertices, cv = s.cornerVertices;
  const next = (c: number): number => (c % 3 === 2 ? c - 2 : c + 1);
  const held = new Map<string, number[]>();
  for (let c = 0; c < nc; c++) {
    const k = `${cv[c]},${cv[next(c)]}`;
    (held.get(k) ?? held.set(k, []).get(k)!).push(c);
  }
  const normal = new Float64Array(3 * faces), centroid = new Float64Array(3 * faces);
  for (let f = 0; f < faces; f++) {
    const [p, q, r] = [0, 1, 2].map((k) => 3 * cv[3 * f + k]);
    const [px, py, pz, qx, qy, qz, rx, ry, rz] = [v[p], v[p + 1], v[p + 2], v[q], v[q + 1], v[q + 2], v[r], v[r + 1], v[r + 2]];
    let nx = 0, ny = 0, nz = 0;
    nx += (py - qy) * (pz + qz); ny += (pz - qz) * (px + qx); nz += (px - qx) * (py + qy);
    nx += (qy - ry) * (qz + rz); ny += (qz - rz) * (qx + rx); nz += (qx - rx) * (qy + ry);
    nx += (ry - py) * (rz + pz); ny += (rz - pz) * (rx + px); nz += (rx - px) * (ry + py);
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (len > 0) normal.set([nx / len, ny / len, nz / len], 3 * f);
    centroid.set([(px + qx + rx) / 3, (py + qy + ry) / 3, (pz + qz + rz) / 3], 3 * f);
  }
  const value = new Float32Array(nc).fill(1), bytes = s.concaveBits.length;
  const concave = new Uint8Array(bytes), flat = new Uint8Array(bytes), counts = [0, 0, 0, 0, 0];
  const set = (bits: Uint8Array, c: number): void => { bits[c >> 3] |= 1 << (c & 7); };
  for (let c = 0; c < nc; c++) {
    const a = cv[c], b = cv[next(c)];
    const mine = held.get(`${a},${b}`)!, theirs = held.get(`${b},${a}`) ?? [];
    const f = Math.floor(c / 3);
    let cls = EDGE_OPEN;
    if (mine.length === 1 && theirs.length === 1) {
      const g = Math.floor(theirs[0] / 3);
      const nf = normal.subarray(3 * f, 3 * f + 3), ng = normal.subarray(3 * g, 3 * g + 3);
      if ((nf[0] || nf[1] || nf[2]) && (ng[0] || ng[1] || ng[2])) {
        const dot = nf[0] * ng[0] + nf[1] * ng[1] + nf[2] * ng[2];
        const above = (centroid[3 * g] - v[3 * a]) * nf[0] + (centroid[3 * g + 1] - v[3 * a + 1]) * nf[1] + (centroid[3 * g + 2] - v[3 * a + 2]) * nf[2] >= 0;
        cls = classifyEdge(Math.max(-1, dot), above);
        if (cls === EDGE_CONVEX) value[c] = Math.fround(Math.cos(Math.acos(Math.max(-1, dot)) / 2));
        if (cls === EDGE_FLAT) set(flat, c);
        if (cls === EDGE_CONCAVE) set(concave, c);
      }
    }
    counts[cls]++;
  }
  return { value, concave, flat, counts };
}

/** A soup over a small vertex pool: shared edges held by one, two or more corners either way, hubs, zero areas. */
function pooledSoup(triangles: number, pool: number, seed: number): Mesh {
  const rnd = prng(seed);
  const positions = new Float32Array(3 * pool);
  for (let i = 0; i < positions.length; i++) positions[i] = Math.round((rnd() - 0.5) * 16) / 4;
  const indices = new Uint32Array(3 * triangles);
  for (let i = 0; i < indices.length; i++) indices[i] = Math.floor(rnd() * pool);
  return { positions, indices };
}

/** A fan of `spokes` triangles around one hub vertex (valence past the hub lists' threshold), bumpy rim. */
function hubFan(spokes: number, seed: number): Mesh {
  const rnd = prng(seed);
  const positions = [0, 0.5, 0];
  for (let i = 0; i < spokes; i++) {
    const a = (2 * Math.PI * i) / spokes;
    positions.push(Math.cos(a) * 3, (rnd() - 0.5) * 2, Math.sin(a) * 3);
  }
  const indices: number[] = [];
  for (let i = 0; i < spokes; i++) indices.push(0, 1 + ((i + 1) % spokes), 1 + i);
  return { positions: new Float32Array(positions), indices: new Uint32Array(indices) };
}

describe('corner edge data against the rule written out per corner', () => {
  const meshes: [string, Mesh, number][] = [
    ['bumpy grid, odd face count', bumpyGrid(4_001, 3), 21_845],
    ['bumpy grid in pieces of 777', bumpyGrid(9_999, 5), 777],
    ['flat grid with stairs on it', concat(flatGrid(31, 17), stairs(9)), 21_845],
    ['pooled soup (non-manifold edges, repeats, hubs)', pooledSoup(3_001, 400, 11), 21_845],
    ['dense pooled soup', pooledSoup(5_000, 60, 12), 1_001],
    ['hub fan of 97 spokes', hubFan(97, 13), 21_845],
    ['hub fan of 5 spokes and one triangle', concat(hubFan(5, 14), pooledSoup(1, 3, 15)), 21_845],
  ];
  for (const [name, mesh, maxFaces] of meshes) {
    it(name, () => {
      const { pieces, stats } = encodeMeshShapes(mesh.positions, mesh.indices, { maxFaces });
      expect(pieces.length).toBeGreaterThan(0);
      const total = [0, 0, 0, 0, 0];
      for (const { shape } of pieces) {
        const ref = referenceEdges(shape);
        const got = shape.edgeValues;
        let differ = 0;
        for (let c = 0; c < got.length; c++) if (!Object.is(got[c], ref.value[c])) differ++;
        expect(differ).toBe(0);
        expect(Array.from(shape.concaveBits)).toEqual(Array.from(ref.concave));
        expect(Array.from(shape.flatBits)).toEqual(Array.from(ref.flat));
        ref.counts.forEach((n, k) => (total[k] += n));
      }
      expect([stats.edges.open, stats.edges.flat, stats.edges.concave, stats.edges.convex, stats.edges.concaveSharp])
        .toEqual([total[EDGE_OPEN], total[EDGE_FLAT], total[EDGE_CONCAVE], total[EDGE_CONVEX], total[EDGE_CONCAVE_SHARP]]);
    });
  }
  it('the meshes hold every class (the comparison is not vacuous)', () => {
    const total = [0, 0, 0, 0, 0];
    for (const [, mesh, maxFaces] of meshes) {
      const { stats } = encodeMeshShapes(mesh.positions, mesh.indices, { maxFaces });
      total[EDGE_OPEN] += stats.edges.open; total[EDGE_FLAT] += stats.edges.flat; total[EDGE_CONCAVE] += stats.edges.concave;
      total[EDGE_CONVEX] += stats.edges.convex; total[EDGE_CONCAVE_SHARP] += stats.edges.concaveSharp;
    }
    for (const n of total) expect(n).toBeGreaterThan(50);
    expect(FLAT_COS).toBeLessThan(1);
  });
});
