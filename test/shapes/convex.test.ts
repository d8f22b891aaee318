// The enforced convex contract (src/shapes/convex.ts): parts by edge-connected component in declaration order, the
// two accepted forms (closed convex shell, flat convex polygon), and every refusal, each naming the first
// offending triangle, edge or vertex with its position.
import { describe, expect, it } from 'vitest';
import { convexParts } from '../../src/shapes/convex.ts';

type Mesh = { p: number[]; t: number[] };
const run = (m: Mesh) => convexParts(Float32Array.from(m.p), Uint32Array.from(m.t), 'object "x"');
const failure = (m: Mesh): string | undefined => run(m).parts.find((x) => x.failure)?.failure;

const cube = (c = [0, 0, 0], h = 0.5): Mesh => {
  const p: number[] = [];
  for (let i = 0; i < 8; i++) p.push(c[0] + (i & 1 ? h : -h), c[1] + (i & 2 ? h : -h), c[2] + (i & 4 ? h : -h));
  // prettier-ignore
  return { p, t: [0,2,1, 1,2,3, 4,5,6, 5,7,6, 0,1,4, 1,5,4, 2,6,3, 3,6,7, 0,4,2, 2,4,6, 1,3,5, 3,7,5] };
};
const join = (...ms: Mesh[]): Mesh => {
  const out: Mesh = { p: [], t: [] };
  for (const m of ms) {
    const base = out.p.length / 3;
    out.p.push(...m.p);
    out.t.push(...m.t.map((i) => i + base));
  }
  return out;
};
const octahedron = (topY = 1): Mesh => ({
  p: [1, 0, 0, -1, 0, 0, 0, topY, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1],
  // +x 0, −x 1, +y 2, −y 3, +z 4, −z 5; faces wound outward
  t: [0, 2, 4, 4, 2, 1, 1, 2, 5, 5, 2, 0, 4, 3, 0, 1, 3, 4, 5, 3, 1, 0, 3, 5],
});
const quad: Mesh = { p: [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1], t: [0, 3, 2, 0, 2, 1] }; // faces +y

describe('convex parts', () => {
  it('accepts closed convex shells and flat convex polygons; parts by component, in declaration order', () => {
    const r = run(join(cube([5, 0, 0]), octahedron(), quad, cube([0, 3, 0], 0.25)));
    expect(r.parts.map((x) => x.failure)).toEqual([undefined, undefined, undefined, undefined]);
    expect(r.parts.map((x) => x.triangles[0])).toEqual([0, 12, 20, 22]);
    expect(r.parts.map((x) => x.triangles.length)).toEqual([12, 8, 2, 12]);
  });

  it('welds exact positions (seam-split cubes are one closed part); parts touching at a vertex are two parts', () => {
    const c = cube();
    const split: Mesh = { p: [], t: [] };
    for (const i of c.t) {
      split.p.push(...c.p.slice(3 * i, 3 * i + 3));
      split.t.push(split.t.length);
    }
    expect(run(split).parts).toEqual([{ triangles: [...Array(12).keys()] }]);
    expect(run(join(cube([0, 0, 0]), cube([1, 1, 1]))).parts.map((x) => x.failure)).toEqual([undefined, undefined]);
  });

  it('refuses unused vertices (object level, with the vertex and its position)', () => {
    const m = cube();
    m.p.push(9, 9, 9);
    expect(() => run(m)).toThrow('convex_parts: object "x": vertex 8 at (9, 9, 9) is used by no triangle');
  });

  it('refuses degenerate triangles and duplicate faces', () => {
    const d = cube();
    d.t.push(0, 1, 1);
    expect(failure(d)).toMatch(/^triangle 12 at \(.*\) is degenerate/);
    const dup = cube();
    dup.t.push(2, 1, 0); // triangle 0 reversed
    expect(failure(dup)).toMatch(/^triangle 12 at \(-0\.1666667, -0\.1666667, -0\.5\) duplicates triangle 0/);
  });

  it('refuses non-manifold edges and inconsistent winding', () => {
    const fin = cube();
    fin.p.push(0, 0, -3);
    fin.t.push(0, 1, 8); // a fin on the cube's edge 0–1
    expect(failure(fin)).toMatch(/^edge 1–0 at \(0\.5, -0\.5, -0\.5\)–\(-0\.5, -0\.5, -0\.5\) is shared by 3 triangles \(0, 4, 12; first extra: triangle 12\): non-manifold/);
    const flipped = cube();
    flipped.t.splice(0, 3, 0, 1, 2);
    expect(failure(flipped)).toMatch(/run edge .* the same way: inconsistent winding/);
  });

  it('refuses a disconnected vertex link (a strip that comes back to its first vertex)', () => {
    const strip: Mesh = { p: [0, 0, 0, 2, 0, 0, 2, 2, 0, 4, 1, 0, 3, 4, 0], t: [0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 0] };
    expect(failure(strip)).toMatch(/^vertex 0 at \(0, 0, 0\) joins 2 triangles that do not form one fan: a disconnected vertex link/);
  });

  it('refuses closed shells wound inward, with handles, or with reflex edges', () => {
    const inward = cube();
    for (let k = 0; k < inward.t.length; k += 3) [inward.t[k + 1], inward.t[k + 2]] = [inward.t[k + 2], inward.t[k + 1]];
    expect(failure(inward)).toMatch(/faces point inward \(negative volume; first triangle 0 at/);
    // A torus: 8 × 4 quads, closed and manifold, Euler characteristic 0.
    const torus: Mesh = { p: [], t: [] };
    const N = 8, M = 4;
    for (let i = 0; i < N; i++) for (let j = 0; j < M; j++) {
      const u = (2 * Math.PI * i) / N, v = (2 * Math.PI * j) / M;
      torus.p.push((2 + Math.cos(v)) * Math.cos(u), Math.sin(v), (2 + Math.cos(v)) * Math.sin(u));
    }
    const id = (i: number, j: number): number => (i % N) * M + (j % M);
    for (let i = 0; i < N; i++) for (let j = 0; j < M; j++) torus.t.push(id(i, j), id(i, j + 1), id(i + 1, j), id(i + 1, j), id(i, j + 1), id(i + 1, j + 1));
    expect(failure(torus)).toMatch(/closed shell is not a sphere \(Euler characteristic 0/);
    // An octahedron whose top is pushed down through its middle: the equator edges become reflex creases.
    expect(failure(octahedron(-0.4))).toMatch(/^edge \d+–\d+ at .* between triangles \d+ and \d+ is a reflex \(non-convex\) crease: triangle \d+'s far corner is [\d.e-]+ m above/);
  });

  it('refuses open parts that are bent, folded, holed, not convex, or overlapping', () => {
    const bent: Mesh = { p: [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0.5, 1], t: [0, 3, 2, 0, 2, 1] };
    expect(failure(bent)).toMatch(/^the part is open \(edge .* has one triangle\) but not flat: vertex \d at \([\d., ]+\) is [\d.]+ m off its plane/);
    const folded: Mesh = { p: [0, 0, 0, 2, 0, 0, 0, 0, 2, 0.5, 0, 0.5], t: [0, 2, 1, 2, 3, 1] };
    expect(failure(folded)).toMatch(/^triangle 1 at .* is folded over/);
    // A square frame around a square hole.
    const ring: Mesh = { p: [0, 0, 0, 3, 0, 0, 3, 0, 3, 0, 0, 3, 1, 0, 1, 2, 0, 1, 2, 0, 2, 1, 0, 2], t: [] };
    for (let k = 0; k < 4; k++) {
      const a = k, b = (k + 1) % 4, ia = 4 + k, ib = 4 + ((k + 1) % 4);
      ring.t.push(a, ia, b, b, ia, ib);
    }
    expect(failure(ring)).toMatch(/has a hole|several boundaries/);
    const ell: Mesh = { p: [0, 0, 0, 2, 0, 0, 2, 0, 1, 1, 0, 1, 1, 0, 2, 0, 0, 2], t: [0, 3, 1, 1, 3, 2, 0, 5, 3, 3, 5, 4] };
    expect(failure(ell)).toMatch(/^the flat part's boundary turns inward at vertex 3 at \(1, 0, 1\): not a convex polygon/);
    // A fan wrapping twice around its centre: every turn convex, the boundary winds around twice.
    const fan: Mesh = { p: [0, 0, 0], t: [] };
    for (let k = 0; k < 12; k++) fan.p.push((1 + 0.01 * k) * Math.cos((k * Math.PI) / 3), 0, -(1 + 0.01 * k) * Math.sin((k * Math.PI) / 3));
    for (let k = 0; k < 11; k++) fan.t.push(0, 1 + k, 2 + k);
    expect(failure(fan)).toMatch(/triangles overlap|turns inward/);
  });
});

import { MaterialResolver } from '../../src/import/objects.ts';

describe('sk8_collision_mode spellings', () => {
  it('maps the add-on enum, reskate_cli spellings and the primitive names; sk8_shape alone sets its family', () => {
    const warn: string[] = [];
    const m = new MaterialResolver(false, (x) => warn.push(x));
    const mode = (v: unknown, extra: Record<string, unknown> = {}) => m.mode({ sk8_collision_mode: v, ...extra }, {}, 'n');
    expect([mode('mesh'), mode('convex_hull'), mode('aggregate'), mode(1), mode(2), mode(' Capsule ')]).toEqual(['triangle_mesh', 'hull', 'convex_parts', 'convex_parts', 'hull', 'capsule']);
    expect(['sphere', 'box', 'cylinder', 'cone', 'hull', 'convex_parts', 'triangle_mesh', 'none', 'water'].map((x) => mode(x))).toEqual(['sphere', 'box', 'cylinder', 'cone', 'hull', 'convex_parts', 'triangle_mesh', 'none', 'water']);
    expect(m.mode({}, { sk8_shape: { type: 'cone', radius: 1, height: 1 } }, 'n')).toBe('cone');
    expect(mode('box', { sk8_shape: { type: 'box', size: [1, 1, 1] } })).toBe('box');
    expect(() => mode('capsule', { sk8_shape: { type: 'box', size: [1, 1, 1] } })).toThrow(/objects: n: sk8_shape is a box but sk8_collision_mode is "capsule"/);
    expect(mode('blob')).toBe('triangle_mesh');
    expect(warn).toEqual(['objects: n: unknown sk8_collision_mode "blob"; compiled as triangle_mesh']);
  });
});
