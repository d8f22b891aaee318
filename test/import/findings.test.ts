// Findings with locations (src/import/validate.ts) and the border/crack split (src/geometry/cracks.ts) on small
// fixtures built vertex by vertex: every count is checked together with where the finding is.
import { describe, expect, it } from 'vitest';
import { classifyCracks, describeReport, LOCATIONS_CAP, validateMesh, type MeshReport } from '../../src/import/validate.ts';
import { classifyOpenEdges } from '../../src/geometry/cracks.ts';
import { boxMesh, gridMesh } from '../fixtures/levels.ts';

const F = (a: ArrayLike<number>): Float32Array => Float32Array.from(a);
const U = (a: ArrayLike<number>): Uint32Array => Uint32Array.from(a);

interface Obj { name: string; positions: Float32Array; groups: Uint32Array[]; report: MeshReport }
const obj = (name: string, positions: number[], indices: number[]): Obj => {
  const p = F(positions), g = [U(indices)];
  return { name, positions: p, groups: g, report: validateMesh(p, g) };
};
/** Validates and classifies the objects together, as a level build does. */
const level = (...objs: Obj[]): Obj[] => (classifyCracks(objs), objs);

/** A unit quad on y = 0 from (x0, z0), two triangles facing up. */
const quad = (x0: number, z0: number, w = 1, y = 0): number[] => [x0, y, z0, x0 + w, y, z0, x0, y, z0 + w, x0 + w, y, z0 + w];
const QUAD_TRIS = [0, 2, 1, 1, 2, 3];
const sortPts = (pts: number[][]): string => pts.map((p) => p.map((v) => v.toFixed(4)).join(',')).sort().join(' | ');

describe('borders and cracks', () => {
  it('a lone quad: 4 borders, 0 cracks, each border located', () => {
    const [q] = level(obj('quad', quad(0, 0), QUAD_TRIS));
    expect(q.report).toMatchObject({ openEdges: 4, borderEdges: 4, crackEdges: 0 });
    expect(q.report.open).toBeUndefined();
    const borders = q.report.locations.borderEdges!;
    expect(borders).toHaveLength(4);
    // Each border is one of the quad's sides, run as its triangle runs it, with that triangle's index.
    const sides = new Set(['0,0,0>1,0,0', '1,0,0>1,0,1', '1,0,1>0,0,1', '0,0,1>0,0,0'].map((s) => s));
    for (const b of borders) {
      const key = (p: number[]): string => p.map((v) => Math.round(v)).join(',');
      const [a, c] = b.points;
      expect(sides.has(`${key(c)}>${key(a)}`) || sides.has(`${key(a)}>${key(c)}`)).toBe(true);
      expect([0, 1]).toContain(b.triangle);
    }
    expect(describeReport('quad', q.report)).toBeUndefined(); // borders do not warn
  });

  it('two quads 0.5 mm apart (one object): the facing sides are cracks, the rest borders', () => {
    const pos = [...quad(0, 0), ...quad(1.0005, 0)];
    const [o] = level(obj('pair', pos, [...QUAD_TRIS, ...QUAD_TRIS.map((i) => i + 4)]));
    expect(o.report).toMatchObject({ openEdges: 8, crackEdges: 2, borderEdges: 6 });
    const cracks = o.report.locations.crackEdges!;
    expect(cracks.map((c) => c.points.map((p) => p[0].toFixed(4)).join())).toEqual(expect.arrayContaining(['1.0000,1.0000', '1.0005,1.0005']));
    expect(cracks.every((c) => c.with === undefined)).toBe(true); // same object
    expect(describeReport('pair', o.report)).toMatch(/^validate: object "pair": 2 cracks .*first: edge \(1(\.0005)?, 0, [01]\)–\(1(\.0005)?, 0, [01]\) of triangle \d/);
  });

  it('two quads 0.5 mm apart in two objects: cracks in both, naming the other', () => {
    const [a, b] = level(obj('left', quad(0, 0), QUAD_TRIS), obj('right', quad(1.0005, 0), QUAD_TRIS));
    expect(a.report).toMatchObject({ crackEdges: 1, borderEdges: 3 });
    expect(b.report).toMatchObject({ crackEdges: 1, borderEdges: 3 });
    expect(a.report.locations.crackEdges![0].with).toBe('right');
    expect(b.report.locations.crackEdges![0].with).toBe('left');
    expect(describeReport('left', a.report)).toMatch(/along "right"/);
  });

  it('two quads 2 mm apart: borders only (past the 1 mm tolerance); 2 mm with a 3 mm tolerance: cracks', () => {
    const pos = [...quad(0, 0), ...quad(1.002, 0)];
    const idx = [...QUAD_TRIS, ...QUAD_TRIS.map((i) => i + 4)];
    const [o] = level(obj('apart', pos, idx));
    expect(o.report).toMatchObject({ openEdges: 8, crackEdges: 0, borderEdges: 8 });
    const wide = obj('apart', pos, idx);
    classifyCracks([wide], { tolerance: 0.003 });
    expect(wide.report.crackEdges).toBe(2);
  });

  it('two quads sharing a side exactly (welded): 6 borders, 0 cracks', () => {
    const pos = [...quad(0, 0), ...quad(1, 0)];
    const [o] = level(obj('welded', pos, [...QUAD_TRIS, ...QUAD_TRIS.map((i) => i + 4)]));
    expect(o.report).toMatchObject({ openEdges: 6, crackEdges: 0, borderEdges: 6 });
  });

  it('two objects continuing each other exactly (terrain tiles): the shared side is joined, no crack', () => {
    // The level-wide weld joins the pair (src/tiling/seams.ts), so the seam is no bump: borders only.
    const [a, b] = level(obj('tile_a', quad(0, 0), QUAD_TRIS), obj('tile_b', quad(1, 0), QUAD_TRIS));
    expect(a.report).toMatchObject({ openEdges: 4, crackEdges: 0, borderEdges: 4 });
    expect(b.report).toMatchObject({ openEdges: 4, crackEdges: 0, borderEdges: 4 });
  });

  it('two objects meeting exactly with mirrored winding: not joined, so the shared side is a crack in both', () => {
    // tile_b faces down (winding reversed): both run the shared side in the same direction; no weld pairs them.
    const flipped = [0, 1, 2, 1, 3, 2];
    const [a, b] = level(obj('tile_a', quad(0, 0), QUAD_TRIS), obj('tile_b', quad(1, 0), flipped));
    expect(a.report).toMatchObject({ crackEdges: 1, borderEdges: 3 });
    expect(b.report).toMatchObject({ crackEdges: 1, borderEdges: 3 });
    expect(a.report.locations.crackEdges![0].with).toBe('tile_b');
  });

  it('a T-junction: the long side and the two short sides along it are cracks', () => {
    // Left: one quad 0..1 (its right side x = 1 is one edge). Right: two quads stacked in z (x = 1..2), whose left
    // sides meet at (1, 0, 0.5), a vertex in the middle of the left quad's side: not welded to it.
    const left = quad(0, 0);
    const right = [...quad(1, 0, 0.5), ...quad(1, 0.5, 0.5)];
    const pos = [...left, ...right];
    const idx = [...QUAD_TRIS, ...QUAD_TRIS.map((i) => i + 4), ...QUAD_TRIS.map((i) => i + 8)];
    const [o] = level(obj('t', pos, idx));
    // Open: left quad 4 sides; right pair: outline of 6 (their shared side is welded) → 10.
    expect(o.report.openEdges).toBe(10);
    expect(o.report.crackEdges).toBe(3);
    const xs = o.report.locations.crackEdges!.map((c) => c.points.map((p) => p[0]));
    expect(xs.every((x) => x.every((v) => v === 1))).toBe(true);
  });

  it('a wall standing on a ground face, not welded: its bottom edge is a crack along the face', () => {
    // Ground 4 × 4 (one quad); wall: a vertical quad at x = 2, bottom edge on the ground's face.
    const wall = [2, 0, 1, 2, 0, 3, 2, 1, 1, 2, 1, 3];
    const [g, w] = level(obj('ground', quad(0, 0, 4), QUAD_TRIS), obj('wall', wall, [0, 2, 1, 1, 2, 3]));
    expect(g.report).toMatchObject({ crackEdges: 0, borderEdges: 4 });
    expect(w.report).toMatchObject({ crackEdges: 1, borderEdges: 3 });
    expect(sortPts(w.report.locations.crackEdges![0].points)).toBe(sortPts([[2, 0, 1], [2, 0, 3]]));
    expect(w.report.locations.crackEdges![0].with).toBe('ground');
  });

  it('a closed box resting on a face has no open edges at all', () => {
    const b = boxMesh([0, 0.5, 0], [0.5, 0.5, 0.5]);
    const [g, box] = level(obj('ground', quad(-2, -2, 4), QUAD_TRIS), obj('box', b.positions, b.indices));
    expect(box.report.openEdges).toBe(0);
    expect(g.report.crackEdges).toBe(0);
  });

  it('a straight, finely split border is not a crack (the next edge of an outline is not along it)', () => {
    const gr = gridMesh(40, 40, 0.0005, [0, 0, 0]); // 0.5 mm cells: edges shorter than the tolerance
    const [o] = level(obj('fine', gr.positions, gr.indices));
    expect(o.report.crackEdges).toBe(0);
    expect(o.report.borderEdges).toBe(4 * 40);
    // But a strip 0.5 mm wide has its two long sides within the tolerance of each other: cracks.
    const strip = gridMesh(40, 1, 0.0005, [0, 0, 0]);
    expect(level(obj('strip', strip.positions, strip.indices))[0].report.crackEdges).toBe(80);
  });

  it('classifyOpenEdges is linear-ish: a 200 × 200 grid with 800 borders and a crack row', () => {
    const g = gridMesh(200, 200, 1, [0, 0, 0]);
    const far = quad(200.0004, 10); // a quad 0.4 mm off the grid's east side
    const t0 = performance.now();
    const [a, b] = level(obj('grid', g.positions, g.indices), obj('off', far, QUAD_TRIS));
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(a.report).toMatchObject({ openEdges: 800, crackEdges: 1 });
    expect(b.report).toMatchObject({ crackEdges: 1 });
    expect(a.report.locations.borderEdges).toHaveLength(LOCATIONS_CAP); // capped; count exact
    expect(a.report.borderEdges).toBe(799);
  });

  it('the raw pass: no meshes, no open edges; an edge off every face and edge is a border', () => {
    expect(classifyOpenEdges([]).with).toEqual([]);
    const r = classifyOpenEdges([{ positions: F(quad(0, 0)), groups: [U(QUAD_TRIS)], open: F([5, 0, 5, 6, 0, 5]), openTriangle: U([0]) }]);
    expect(Array.from(r.with[0])).toEqual([-1]);
    const on = classifyOpenEdges([{ positions: F(quad(0, 0)), groups: [U(QUAD_TRIS)], open: F([0.2, 0.0005, 0.2, 0.4, 0.0005, 0.2]), openTriangle: U([7]) }]);
    expect(Array.from(on.with[0])).toEqual([0]); // 0.5 mm above a face of its own mesh, not its own triangle
  });
});

describe('locations of the other findings', () => {
  const g = gridMesh(1, 1, 1, [0, 0, 0]); // (0,2,1) (1,2,3) over (0,0,0) (1,0,0) (0,0,1) (1,0,1)

  it('non-manifold: the edge with three triangles, and one of them', () => {
    const r = validateMesh(F([...g.positions, 0.5, 1, 0.5]), [U([0, 2, 1, 1, 2, 3, 1, 2, 4])]);
    expect(r.nonManifoldEdges).toBe(1);
    const [l] = r.locations.nonManifoldEdges!;
    expect(sortPts(l.points)).toBe(sortPts([[1, 0, 0], [0, 0, 1]]));
    expect([0, 1, 2]).toContain(l.triangle);
    expect(describeReport('fin', r)).toMatch(/1 non-manifold edges \(first: edge \((1, 0, 0|0, 0, 1)\)–\((1, 0, 0|0, 0, 1)\) of triangle [012]\)/);
  });

  it('inconsistent winding: the edge both triangles run the same way', () => {
    const r = validateMesh(F(g.positions), [U([0, 2, 1, 1, 3, 2])]);
    expect(r.inconsistentEdges).toBe(1);
    expect(sortPts(r.locations.inconsistentEdges![0].points)).toBe(sortPts([[1, 0, 0], [0, 0, 1]]));
  });

  it('degenerate and duplicate: the dropped source triangles with their corners', () => {
    const idx = [...g.indices, 0, 0, 1, /* repeated vertex: triangle 2 */ 0, 2, 1 /* duplicate of 0: triangle 3 */];
    const r = validateMesh(F(g.positions), [U(idx)]);
    expect(r.locations.degenerate).toEqual([{ triangle: 2, points: [[0, 0, 0], [0, 0, 0], [1, 0, 0]] }]);
    expect(r.locations.duplicate).toEqual([{ triangle: 3, points: [[0, 0, 0], [0, 0, 1], [1, 0, 0]] }]);
    // Zero area without a repeated vertex is degenerate too.
    const line = validateMesh(F([0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1]), [U([0, 3, 1, 0, 1, 2])]);
    expect(line.locations.degenerate).toEqual([{ triangle: 1, points: [[0, 0, 0], [1, 0, 0], [2, 0, 0]] }]);
  });

  it('back-to-back: one triangle of each pair, once per pair', () => {
    const r = validateMesh(F(g.positions), [U([0, 2, 1, 1, 2, 3, 0, 1, 2])]);
    expect(r.reversedDuplicate).toBe(1);
    expect(r.locations.reversedDuplicate).toHaveLength(1);
    expect([0, 2]).toContain(r.locations.reversedDuplicate![0].triangle);
    // A hub of 40 sheets back to back (past the pairwise search): 40 pairs, 40 locations, distinct triangles.
    const pos = [0, 0, 0];
    const idx: number[] = [];
    for (let i = 0; i < 41; i++) pos.push(Math.cos(i), 1, Math.sin(i));
    for (let i = 1; i <= 40; i++) idx.push(0, i, i + 1, 0, i + 1, i);
    const hub = validateMesh(F(pos), [U(idx)]);
    expect(hub.reversedDuplicate).toBe(40);
    expect(new Set(hub.locations.reversedDuplicate!.map((l) => l.triangle)).size).toBe(40);
  });

  it('keeps every warn-level location (up to the safety bound) and counts exactly; a cap given is kept', () => {
    const n = 250;
    const pos: number[] = [];
    const idx: number[] = [];
    for (let i = 0; i < n; i++) {
      pos.push(i, 0, 0, i + 0.5, 0, 0, i, 0, 1);
      idx.push(3 * i, 3 * i + 2, 3 * i + 1, 3 * i, 3 * i + 2, 3 * i + 1); // each twice: 250 duplicates
    }
    const r = validateMesh(F(pos), [U(idx)]);
    expect(r.duplicate).toBe(n);
    expect(r.locations.duplicate).toHaveLength(n); // past the manifest's LOCATIONS_CAP: report.html places them all
    expect(n).toBeGreaterThan(LOCATIONS_CAP);
    expect(r.locations.duplicate![0].triangle).toBe(1);
    expect(validateMesh(F(pos), [U(idx)], 5).locations.duplicate).toHaveLength(5);
  });
});
