// The weld (src/geometry/weld.ts, assembly/weld.ts) against its rules written out naively here (a Map from the
// f32 bits, −0.0 as 0.0; first-use numbering; rotation to the smallest vertex; f64 zero-area and repeat drops), on
// inputs large enough for the partitioned path (assembly/weld.ts PART_MIN, PART_MIN_SPLIT) and on small ones that
// keep the one probe table: indexed meshes with shared positions, −0.0 beside 0.0, unused vertices, degenerate and
// repeated triangles, a split-vertex copy, and the errors for a non-finite vertex or an index past the vertices.
import { describe, expect, it } from 'vitest';
import { weld, type Welded } from '../../src/geometry/weld.ts';
import { bumpyGrid, prng, type Mesh } from '../fixtures/meshes.ts';

/** The weld by its rules' letter. */
function referenceWeld(positions: Float32Array, indices: Uint32Array): Welded {
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
  const ids = new Map<string, number>();
  const remap = new Int32Array(positions.length / 3).fill(-1);
  const out: number[] = [];
  const key = (w: number): number => (w === 0x80000000 ? 0 : w);
  for (const v of indices) {
    if (remap[v] >= 0) continue;
    const k = `${key(bits[3 * v])},${key(bits[3 * v + 1])},${key(bits[3 * v + 2])}`;
    let id = ids.get(k);
    if (id === undefined) {
      ids.set(k, (id = out.length / 3));
      out.push(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
    }
    remap[v] = id;
  }
  const p = Float32Array.from(out);
  const tris: number[] = [], source: number[] = [];
  const seen = new Set<string>();
  let degenerate = 0, repeated = 0;
  for (let t = 0; t < indices.length / 3; t++) {
    const [i0, i1, i2] = [0, 1, 2].map((c) => remap[indices[3 * t + c]]);
    const d = (a: number, b: number, c: number): number => p[3 * b + c] - p[3 * a + c];
    const [ux, uy, uz, vx, vy, vz] = [d(i0, i1, 0), d(i0, i1, 1), d(i0, i1, 2), d(i0, i2, 0), d(i0, i2, 1), d(i0, i2, 2)];
    const cross = (uy * vz - uz * vy) ** 2 + (uz * vx - ux * vz) ** 2 + (ux * vy - uy * vx) ** 2;
    if (i0 === i1 || i1 === i2 || i0 === i2 || cross === 0) {
      degenerate++;
      continue;
    }
    const r = i1 < i0 && i1 < i2 ? [i1, i2, i0] : i2 < i0 && i2 < i1 ? [i2, i0, i1] : [i0, i1, i2];
    const k = r.join(',');
    if (seen.has(k)) {
      repeated++;
      continue;
    }
    seen.add(k);
    tris.push(...r);
    source.push(t);
  }
  return { positions: p, triangles: Uint32Array.from(tris), source: Uint32Array.from(source), degenerate, repeated };
}

/**
 * `nv` vertices on a coarse lattice (`side` values an axis, so positions repeat; 0 written as −0.0 half the time),
 * a tenth of them unused, and `nt` triangles over them: 4 % repeats of an earlier one (rotated: still a repeat), 4 %
 * reversed repeats (kept), 3 % with two corners on one vertex.
 */
function latticeMesh(nv: number, nt: number, side: number, seed: number): Mesh {
  const rnd = prng(seed);
  const positions = new Float32Array(3 * nv);
  for (let i = 0; i < positions.length; i++) {
    const q = Math.floor(rnd() * side);
    positions[i] = q === 0 ? (rnd() < 0.5 ? -0 : 0) : q * 0.25 - 3;
  }
  const indices = new Uint32Array(3 * nt);
  const used = Math.floor(nv * 0.9);
  for (let t = 0; t < nt; t++) {
    const r = rnd();
    if (r < 0.08 && t > 0) {
      const s = Math.floor(rnd() * t);
      const [a, b, c] = indices.subarray(3 * s, 3 * s + 3);
      indices.set(r < 0.04 ? [b, c, a] : [c, b, a], 3 * t);
      continue;
    }
    for (let k = 0; k < 3; k++) indices[3 * t + k] = Math.floor(rnd() * used);
    if (r < 0.11) indices[3 * t + 2] = indices[3 * t];
  }
  return { positions, indices };
}

/** Every corner its own vertex, in corner order. */
function splitVertices(m: Mesh): Mesh {
  const positions = new Float32Array(3 * m.indices.length);
  for (let c = 0; c < m.indices.length; c++) positions.set(m.positions.subarray(3 * m.indices[c], 3 * m.indices[c] + 3), 3 * c);
  return { positions, indices: Uint32Array.from(m.indices.keys()) };
}

const bytes = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function expectSame(got: Welded, want: Welded): void {
  expect({ degenerate: got.degenerate, repeated: got.repeated, vertices: got.positions.length / 3, kept: got.source.length })
    .toEqual({ degenerate: want.degenerate, repeated: want.repeated, vertices: want.positions.length / 3, kept: want.source.length });
  // Bits, not values: a welded vertex keeps its first use's −0.0.
  expect(bytes(got.positions).equals(bytes(want.positions))).toBe(true);
  expect(bytes(got.triangles).equals(bytes(want.triangles))).toBe(true);
  expect(bytes(got.source).equals(bytes(want.source))).toBe(true);
}

describe('weld', () => {
  it('follows its rules on small meshes (one probe table)', () => {
    for (const m of [latticeMesh(3_000, 4_000, 9, 1), latticeMesh(50_000, 30_000, 40, 2), splitVertices(bumpyGrid(5_000, 3))]) {
      expectSame(weld(m.positions, m.indices), referenceWeld(m.positions, m.indices));
    }
  });

  it('follows its rules past the partitioned weld\'s threshold: shared and −0.0 positions, unused vertices, drops', () => {
    // 700,000 vertices (630,000 used, ≥ PART_MIN), 400,000 triangles; few enough lattice points that most keys repeat.
    const m = latticeMesh(700_000, 400_000, 60, 4);
    const want = referenceWeld(m.positions, m.indices);
    expect(want.positions.length / 3).toBeLessThan(630_000); // keys do repeat
    expect(want.degenerate).toBeGreaterThan(0);
    expect(want.repeated).toBeGreaterThan(0);
    expectSame(weld(m.positions, m.indices), want);
  }, 60_000);

  it('an indexed mesh and its split-vertex copy past the thresholds weld the same', () => {
    // 1,100,000 triangles: 552,049 vertices indexed (≥ PART_MIN), 3,300,000 split (≥ PART_MIN_SPLIT).
    const g = bumpyGrid(1_100_000, 7);
    const indexed = weld(g.positions, g.indices);
    const s = splitVertices(g);
    const split = weld(s.positions, s.indices);
    expectSame(split, indexed);
    expect(indexed.positions.length / 3).toBeGreaterThanOrEqual(1 << 19); // past PART_MIN: the partitioned path
  }, 60_000);

  it('names the first corner whose vertex is not finite, and an index past the vertices, on the partitioned path too', () => {
    const m = latticeMesh(700_000, 400_000, 5_000, 5);
    const v = m.indices[3 * 350_000 + 1];
    const first = m.indices.indexOf(v);
    m.positions[3 * v + 2] = Number.NaN;
    const t = Math.floor(first / 3);
    expect(() => weld(m.positions, m.indices)).toThrow(new RegExp(`^weld: triangle ${t}: vertex ${v} position \\(.*, NaN\\) is not finite in f32$`));
    m.indices[3 * 399_999 + 2] = 700_000;
    expect(() => weld(m.positions, m.indices)).toThrow(/^weld: triangle 399999: index 700000 ≥ vertex count 700000$/);
  }, 60_000);
});
