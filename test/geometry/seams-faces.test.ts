// Open edges lying on another object's face (src/geometry/seams.ts joinOnFaces; docs/format-decisions.md "Open
// edges lying on a face"): a kicker left open at the bottom, as modellers leave it, whose foot lies on the ground
// crossing the interior of the ground's quads (not along their edges, so no edge of the ground meets it); a box open
// at the bottom on a floor; a floor patch lying on a bigger floor. Each object is encoded on its own (the shape rule),
// its open corners matched over the level with the level's triangles given (matchSeams), as the build does.
import { describe, expect, it } from 'vitest';
import { encodeMeshShapes, type OpenCorners } from '../../src/geometry/encode.ts';
import { FACE_BUDGET, matchSeams, T_JUNCTION_TOLERANCE, type LevelFaces } from '../../src/geometry/seams.ts';
import { SEAM_CONCAVE, SEAM_FLAT, SEAM_NONE, SEAM_SHARP } from '../../src/geometry/edge-rule.ts';

type Obj = { positions: Float32Array; indices: Uint32Array };

/** n × m quads of `cell` m at height y from (x0, z0), facing up (as Blender's grid exports: two triangles a quad). */
function floor(n: number, m: number, cell: number, x0: number, y: number, z0: number): Obj {
  const p: number[] = [], t: number[] = [];
  for (let j = 0; j <= m; j++) for (let i = 0; i <= n; i++) p.push(x0 + i * cell, y, z0 + j * cell);
  for (let j = 0; j < m; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      t.push(a, c, b, b, c, d);
    }
  }
  return { positions: Float32Array.from(p), indices: Uint32Array.from(t) };
}

/**
 * A kicker 3 m wide rising along +x from its foot at x = 0.37 (height `foot`) to 0.3 m at x = 2.37, its sides and
 * back closed down to `foot`, open at the bottom. Its foot runs z = −1.5 … 1.5: inside the ground's quads.
 */
function kicker(foot: number): Obj {
  const A = [0.37, foot, -1.5], B = [0.37, foot, 1.5], C = [2.37, 0.3, -1.5], D = [2.37, 0.3, 1.5], E = [2.37, foot, -1.5], F = [2.37, foot, 1.5];
  // ramp (up, towards −x), back (+x), sides (−z, +z)
  return { positions: Float32Array.from([A, B, C, D, E, F].flat()), indices: Uint32Array.of(0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4, 0, 2, 4, 1, 5, 3) };
}

/** Encodes each object on its own and matches over them; codes of the corners whose edge both ends pass `on`. */
function level(objects: Obj[], faces: LevelFaces[] | null = objects) {
  const lists: OpenCorners[] = objects.flatMap((o) => encodeMeshShapes(o.positions, o.indices).pieces.map((p) => p.open));
  const m = matchSeams(lists, faces ?? undefined);
  const codes = (on: (x: number, y: number, z: number) => boolean, list?: number): number[] => {
    const out: number[] = [];
    lists.forEach((l, s) => {
      if (list !== undefined && s !== list) return;
      for (let i = 0; i < l.corner.length; i++) {
        const p = l.points.subarray(9 * i, 9 * i + 6);
        if (on(p[0], p[1], p[2]) && on(p[3], p[4], p[5])) out.push(m.codes[s][i]);
      }
    });
    return out;
  };
  return { m, codes, lists };
}

const near = (a: number, b: number, tol = 1e-6) => Math.abs(a - b) <= tol;

describe('an open edge lying on another object\'s face takes the edge data of the joint (--seams level)', () => {
  for (const [name, foot] of [['on the ground plane', 0], ['0.05 mm into it', -0.00005], ['0.05 mm above it', 0.00005]] as const) {
    it(`a kicker's foot ${name}, crossing the ground's quads: concave; its sides' and back's feet: the 90° fold`, () => {
      const { m, codes } = level([floor(8, 6, 1, -4, 0, -3), kicker(foot)]);
      const footCodes = codes((x, y) => near(x, 0.37) && near(y, foot));
      expect(footCodes).toEqual([SEAM_CONCAVE]);
      // The sides' and the back's bottom edges lie on the ground too: a 90° concave fold, stored as the shape rule
      // stores it (1.0, neither bit).
      expect(codes((x, y) => near(y, foot), 1).filter((c) => c !== SEAM_CONCAVE)).toEqual([SEAM_SHARP, SEAM_SHARP, SEAM_SHARP]);
      expect(m.faceUnchecked).toBeUndefined();
      // Without the level's faces (the pass not run): open, as before.
      expect(level([floor(8, 6, 1, -4, 0, -3), kicker(foot)], null).codes((x, y) => near(x, 0.37) && near(y, foot))).toEqual([SEAM_NONE]);
    });
  }

  it("a kicker left as a loose part of the ground's own mesh (one object, one shape): the same joint, concave", () => {
    const g = floor(8, 6, 1, -4, 0, -3), k = kicker(0), nv = g.positions.length / 3;
    const one: Obj = { positions: Float32Array.from([...g.positions, ...k.positions]), indices: Uint32Array.from([...g.indices, ...[...k.indices].map((i) => i + nv)]) };
    expect(level([one]).codes((x, y) => near(x, 0.37) && near(y, 0))).toEqual([SEAM_CONCAVE]);
  });

  it("a kicker's foot sunk 1 mm (past T_JUNCTION_TOLERANCE): stays open", () => {
    expect(T_JUNCTION_TOLERANCE).toBeLessThan(0.001);
    const { codes } = level([floor(8, 6, 1, -4, 0, -3), kicker(-0.001)]);
    expect(codes((x, y) => near(y, -0.001))).toEqual(Array(4).fill(SEAM_NONE));
  });

  it("a kicker's foot on a ground lying along the ground's quad edges (the foot at x = 0): concave", () => {
    const k = kicker(0);
    for (let i = 0; i < k.positions.length; i += 3) k.positions[i] -= 0.37;
    const { codes } = level([floor(8, 6, 1, -4, 0, -3), k]);
    expect(codes((x, y) => near(x, 0) && near(y, 0))).toEqual([SEAM_CONCAVE]);
  });

  it('a floor patch lying coplanar on a bigger floor: flat all round; the floor is left as it is', () => {
    const patch = floor(2, 2, 0.75, -0.6, 0, -0.35);
    const { codes } = level([floor(6, 6, 1, -3, 0, -3), patch]);
    const edge = (x: number, _y: number, z: number) => near(x, -0.6) || near(x, 0.9) || near(z, -0.35) || near(z, 1.15);
    expect(codes(edge, 1)).toEqual(Array(8).fill(SEAM_FLAT));
    // The big floor's own border is open (nothing across it).
    expect(codes((x) => near(x, -3), 0)).toEqual(Array(6).fill(SEAM_NONE));
  });

  it('an open edge over a gap between two faces (covered only in part): stays open', () => {
    // Two floors 0.5 m apart (x = −0.25 … 0.25 empty); a ramp's foot at x = −1 … 1 lies on both and over the gap.
    const left = floor(3, 2, 1, -3.25, 0, -1), right = floor(3, 2, 1, 0.25, 0, -1);
    const ramp: Obj = { positions: Float32Array.of(-1, 0, 0.5, 1, 0, 0.5, 1, 0.5, 1.5, -1, 0.5, 1.5), indices: Uint32Array.of(0, 2, 1, 0, 3, 2) };
    const { codes } = level([left, right, ramp]);
    expect(codes((x, y, z) => near(y, 0) && near(z, 0.5), 2)).toEqual([SEAM_NONE]);
    // The same ramp on one floor under all of it: joined.
    expect(level([floor(6, 2, 1, -3, 0, -1), ramp]).codes((x, y, z) => near(y, 0) && near(z, 0.5), 1)).toEqual([SEAM_CONCAVE]);
  });

  it("faces back to back with the edge's face are never paired; a face merely touching the edge from its own side does not continue it", () => {
    // A floor patch facing down lying on a floor facing up: back to back.
    const down = floor(2, 2, 0.75, -0.6, 0, -0.35);
    for (let t = 0; t < down.indices.length; t += 3) [down.indices[t + 1], down.indices[t + 2]] = [down.indices[t + 2], down.indices[t + 1]];
    expect(level([floor(6, 6, 1, -3, 0, -3), down]).codes(() => true, 1).every((c) => c === SEAM_NONE)).toBe(true);
    // A floor ending at x = 0 and a patch beyond it (x = 0 … 1) lifted 1 m: the floor's border corners see nothing.
    // The same floor under a kicker whose foot is the floor's far border: the floor's faces end at the foot on the
    // kicker's side only (its ground lies under the ramp), so the foot is not joined.
    const k = kicker(0);
    for (let i = 0; i < k.positions.length; i += 3) k.positions[i] -= 0.37;
    const under = floor(3, 4, 1, 0, 0, -2);
    expect(level([under, k]).codes((x, y) => near(x, 0) && near(y, 0), 1)).toEqual([SEAM_NONE]);
  });

  it('faces across giving different codes leave the edge open', () => {
    // A ramp's foot on flat ground (concave), and a second object's face dipping through the foot's line (its plane
    // holds the foot too, and it reaches across it): the two give different codes, so the foot stays open.
    const ramp: Obj = { positions: Float32Array.of(0, 0, -1, 0, 0, 1, 2, 0.3, 1, 2, 0.3, -1), indices: Uint32Array.of(0, 1, 2, 0, 2, 3) };
    const g = floor(4, 4, 1, -2.5, 0, -2.5);
    expect(level([g, ramp]).codes((x, y) => near(x, 0) && near(y, 0), 1)).toEqual([SEAM_CONCAVE]);
    const dip: Obj = { positions: Float32Array.of(-1, -0.2, -2, -1, -0.2, 2, 0.5, 0.1, 2, 0.5, 0.1, -2), indices: Uint32Array.of(0, 1, 2, 0, 2, 3) };
    expect(level([g, ramp, dip]).codes((x, y) => near(x, 0) && near(y, 0), 1)).toEqual([SEAM_NONE]);
  });

  it('an edge some other face holds by position (three faces on it) is left as it is, as the exact match leaves it', () => {
    // A ramp whose foot is exactly one edge of the ground's grid (x = 0, z = −1 … 0): the ground's two faces and
    // the ramp hold it.
    const ramp: Obj = { positions: Float32Array.of(0, 0, -1, 0, 0, 0, 2, 0.3, 0, 2, 0.3, -1), indices: Uint32Array.of(0, 1, 2, 0, 2, 3) };
    expect(level([floor(8, 6, 1, -4, 0, -3), ramp]).codes((x, y) => near(x, 0) && near(y, 0), 1)).toEqual([SEAM_NONE]);
    // Moved off the grid's edge by 0.25 m along it (its ends inside the ground's edges): joined.
    const off: Obj = { positions: ramp.positions.map((v, i) => (i % 3 === 2 ? v + 0.25 : v)), indices: ramp.indices };
    expect(level([floor(8, 6, 1, -4, 0, -3), off]).codes((x, y) => near(x, 0) && near(y, 0), 1)).toEqual([SEAM_CONCAVE]);
  });
});

describe('the face pass is bounded (FACE_BUDGET)', () => {
  it('a soup of 10,000 large overlapping triangles finishes in seconds and says it was not checked', () => {
    let seed = 7;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const p: number[] = [];
    for (let t = 0; t < 10_000; t++) for (let k = 0; k < 3; k++) p.push(rnd() * 100, rnd() * 2, rnd() * 100);
    const soup: Obj = { positions: Float32Array.from(p), indices: Uint32Array.from({ length: 30_000 }, (_, i) => i) };
    const t0 = performance.now();
    const { m } = level([soup]);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(m.faceUnchecked).toMatchObject({ budget: FACE_BUDGET.base + FACE_BUDGET.perCorner * m.faceUnchecked!.corners });
    expect(m.faceUnchecked!.work).toBeGreaterThan(m.faceUnchecked!.budget);
  }, 30_000);
});
