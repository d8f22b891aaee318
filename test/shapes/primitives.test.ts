// The shape layer's primitives (src/shapes/): canonical frames, placing under a node's transform (positive diagonal
// scale applied, shear refused by name), fitting to a mesh, sk8_shape parsing, and tessellation: closed, outward,
// welded, zero open edges once encoded, every point within the chord bound of the analytic surface (measured on a
// barycentric grid against surface.ts's independent distance functions), exact analytic bounds in the canonical
// frame and within the bound in any other, deterministic.
import { describe, expect, it } from 'vitest';
import { mat4 } from 'gl-matrix';
import { encodeMeshShapes } from '../../src/geometry/encode.ts';
import { fitPrimitive } from '../../src/shapes/fit.ts';
import { frameAxis, normalizeQuat, placePrimitive, primitiveBounds, quatFromYTo, quatToMat3, rigidScale } from '../../src/shapes/frame.ts';
import { parseShapeSpec } from '../../src/shapes/spec.ts';
import { fewestTriangles, tessellate, TESSELLATE_DEFAULTS } from '../../src/shapes/tessellate.ts';
import { primitiveMesh } from '../../src/shapes/mesh.ts';
import type { Primitive, Quat, Vec3 } from '../../src/shapes/types.ts';
import { boundsOf, census, maxSurfaceDistance, surfaceDistance } from './surface.ts';
import { prng } from '../fixtures/meshes.ts';

const ID: Quat = [0, 0, 0, 1];
const trs = (t: Vec3, r: Quat, s: Vec3): Float64Array => {
  const m = new Float64Array(16);
  mat4.fromRotationTranslationScale(m as unknown as mat4, r, t, s);
  return m;
};
const mul = (a: Float64Array, b: Float64Array): Float64Array => {
  const m = new Float64Array(16);
  mat4.multiply(m as unknown as mat4, a as unknown as mat4, b as unknown as mat4);
  return m;
};
const axisAngle = (axis: Vec3, deg: number): Quat => {
  const n = Math.hypot(...axis), s = Math.sin((deg * Math.PI) / 360);
  return [(axis[0] / n) * s, (axis[1] / n) * s, (axis[2] / n) * s, Math.cos((deg * Math.PI) / 360)];
};
const close = (a: readonly number[], b: readonly number[], eps = 1e-9): void => a.forEach((x, i) => expect(Math.abs(x - b[i])).toBeLessThanOrEqual(eps));

const FAMILIES: Primitive[] = [
  { family: 'sphere', centre: [0, 0, 0], rotation: ID, radius: 0.75 },
  { family: 'box', centre: [0, 0, 0], rotation: ID, halfExtents: [0.5, 0.3, 1.2] },
  { family: 'capsule', centre: [0, 0, 0], rotation: ID, radius: 0.25, length: 1 },
  { family: 'capsule', centre: [0, 0, 0], rotation: ID, radius: 0.4, length: 0 },
  { family: 'cylinder', centre: [0, 0, 0], rotation: ID, radius: 0.1, length: 0.8 },
  { family: 'cone', centre: [0, 0, 0], rotation: ID, radius: 0.6, length: 1.5 },
];

/** The families, rotated and moved off the origin. */
const posed = (p: Primitive, k: number): Primitive => ({ ...p, centre: [3 + k, -2, 7.5], rotation: normalizeQuat(axisAngle([1, 2 - k, 0.5], 37 + 11 * k)) }) as Primitive;

describe('frames and placing', () => {
  it('quaternions normalise (zero → identity); +Y maps to the axis asked for', () => {
    expect(normalizeQuat([0, 0, 0, 0])).toEqual([0, 0, 0, 1]);
    expect(Math.hypot(...normalizeQuat([1, 2, 3, 4]))).toBeCloseTo(1, 15);
    for (const a of [[1, 0, 0], [0, 0, 1], [0, -1, 0], [0, 1, 0], [0.3, -0.4, 0.5]] as Vec3[]) {
      const n = Math.hypot(...a);
      close(frameAxis(quatFromYTo(a)), a.map((x) => x / n), 1e-12);
    }
  });

  it('rotation and translation move the canonical centre and axis; sizes stay', () => {
    const cap: Primitive = { family: 'capsule', centre: [0, 1, 0], rotation: ID, radius: 0.25, length: 1 };
    const q = axisAngle([0, 0, 1], 90); // +Y → −X
    const placed = placePrimitive(cap, trs([10, 0, 5], q, [1, 1, 1]), 'node 3 "bollard"');
    expect(placed.family).toBe('capsule');
    close(placed.centre, [9, 0, 5], 1e-12);
    close(frameAxis(placed.rotation), [-1, 0, 0], 1e-12);
    expect(placed).toMatchObject({ radius: 0.25, length: 1 });
  });

  it('positive diagonal scale is applied per family: box per axis, axial length along and radius across', () => {
    const box = placePrimitive({ family: 'box', centre: [1, 1, 1], rotation: ID, halfExtents: [1, 1, 1] }, trs([0, 0, 0], ID, [2, 3, 4]), 'n');
    expect(box).toMatchObject({ halfExtents: [2, 3, 4] });
    close(box.centre, [2, 3, 4]);
    const cyl = placePrimitive({ family: 'cylinder', centre: [0, 0, 0], rotation: ID, radius: 0.5, length: 2 }, trs([0, 0, 0], ID, [2, 5, 2]), 'n');
    expect(cyl).toMatchObject({ radius: 1, length: 10 });
    // A capsule along local x under scale (3, 2, 2): its own frame sees (2 across, 3 along, 2 across).
    const capX = placePrimitive({ family: 'capsule', centre: [0, 0, 0], rotation: quatFromYTo([1, 0, 0]), radius: 0.5, length: 1 }, trs([0, 0, 0], ID, [3, 2, 2]), 'n');
    expect(capX.family === 'capsule' && capX.radius).toBeCloseTo(1, 12);
    expect(capX.family === 'capsule' && capX.length).toBeCloseTo(3, 12);
    const sph = placePrimitive({ family: 'sphere', centre: [0, 0, 0], rotation: ID, radius: 1 }, trs([0, 0, 0], axisAngle([1, 1, 0], 30), [2, 2, 2]), 'n');
    expect(sph.family === 'sphere' && sph.radius).toBeCloseTo(2, 12);
    // Mirroring is a reflection of a symmetric shape: accepted, same sizes, proper rotation.
    const mir = placePrimitive({ family: 'cone', centre: [0, 0, 0], rotation: ID, radius: 0.5, length: 1 }, trs([0, 0, 0], ID, [-1, 1, 1]), 'n');
    expect(mir).toMatchObject({ radius: 0.5, length: 1 });
    close(frameAxis(mir.rotation), [0, 1, 0], 1e-12);
  });

  it('refuses scale a family cannot take, naming the node and the factors', () => {
    const where = 'level.glb: node 7 "ball"';
    expect(() => placePrimitive({ family: 'sphere', centre: [0, 0, 0], rotation: ID, radius: 1 }, trs([0, 0, 0], ID, [1, 2, 1]), where)).toThrow(
      /shapes: level\.glb: node 7 "ball": sphere under a non-uniform scale \(1, 2, 1\)/,
    );
    expect(() => placePrimitive({ family: 'capsule', centre: [0, 0, 0], rotation: ID, radius: 1, length: 1 }, trs([0, 0, 0], ID, [1, 2, 3]), where)).toThrow(
      /capsule under a scale that differs across its radius \(1 and 3; along the axis 2\)/,
    );
    expect(() => placePrimitive({ family: 'box', centre: [0, 0, 0], rotation: ID, halfExtents: [1, 1, 1] }, trs([0, 0, 0], ID, [1, 0, 1]), where)).toThrow(/collapses the shape/);
  });

  it('refuses shear (non-uniform scale under a rotated parent) with the node named, for every family', () => {
    const sheared = mul(trs([0, 0, 0], axisAngle([0, 0, 1], 45), [1, 1, 1]), mul(trs([0, 0, 0], ID, [1, 3, 1]), trs([0, 0, 0], axisAngle([0, 0, 1], 30), [1, 1, 1])));
    // Parent scale (1, 3, 1) with a rotated child: the composed axes are no longer perpendicular.
    const m = mul(trs([0, 0, 0], ID, [1, 3, 1]), trs([0, 0, 0], axisAngle([0, 0, 1], 30), [1, 1, 1]));
    for (const p of FAMILIES) {
      expect(() => placePrimitive(p, m, 'level.glb: node 12 "crate"')).toThrow(/shapes: level\.glb: node 12 "crate": the transform shears the shape \(its x and y axes meet at [\d.]+°/);
    }
    expect(() => rigidScale(Float64Array.from([sheared[0], sheared[1], sheared[2], sheared[4], sheared[5], sheared[6], sheared[8], sheared[9], sheared[10]]), 'n')).toThrow(/shears/);
    // A box rotated inside its node by 90° about the node's scale axes is not sheared.
    expect(() => placePrimitive({ family: 'box', centre: [0, 0, 0], rotation: axisAngle([0, 0, 1], 90), halfExtents: [1, 2, 3] }, trs([0, 0, 0], ID, [1, 3, 1]), 'n')).not.toThrow();
  });
});

describe('fitting to a mesh in the local frame', () => {
  // A lopsided point cloud of triangles in local space: bounds x −0.2…0.4, y 0…2, z −0.3…0.3.
  const localPts = [[-0.2, 0, 0], [0.4, 0, 0], [0, 2, 0], [0, 1, -0.3], [0, 1, 0.3], [0.1, 0.5, 0.1]];
  const idx = [0, 1, 2, 2, 3, 4, 4, 5, 0];
  const world = (m: Float64Array): Float32Array => {
    const out = new Float32Array(localPts.length * 3);
    localPts.forEach((p, i) => {
      out[3 * i] = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
      out[3 * i + 1] = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
      out[3 * i + 2] = m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14];
    });
    return out;
  };
  const q = axisAngle([0, 1, 0], 30);
  const m = trs([5, 0, -3], q, [1, 1, 1]);
  const frame = { rotation: quatToMat3(q), translation: [5, 0, -3] as Vec3 };
  const toWorld = (v: Vec3): Vec3 => {
    const r = quatToMat3(q);
    return [5 + r[0] * v[0] + r[3] * v[1] + r[6] * v[2], r[1] * v[0] + r[4] * v[1] + r[7] * v[2], -3 + r[2] * v[0] + r[5] * v[1] + r[8] * v[2]];
  };

  it('box = local bounds; sphere = bounds centre and largest half-extent', () => {
    const box = fitPrimitive('box', world(m), idx, frame, 'n');
    expect(box.family).toBe('box');
    if (box.family === 'box') close(box.halfExtents, [0.3, 1, 0.3], 1e-6);
    close(box.centre, toWorld([0.1, 1, 0]), 1e-6);
    close(box.rotation, q, 1e-9);
    const s = fitPrimitive('sphere', world(m), idx, frame, 'n');
    expect(s.family === 'sphere' && s.radius).toBeCloseTo(1, 6);
  });

  it('capsule and cylinder along the longest local axis; cone base to apex along local +Y', () => {
    const cap = fitPrimitive('capsule', world(m), idx, frame, 'n');
    close(frameAxis(cap.rotation), toWorld([0, 1, 0]).map((v, i) => v - [5, 0, -3][i]), 1e-6);
    expect(cap).toMatchObject({ family: 'capsule' });
    if (cap.family === 'capsule') {
      expect(cap.radius).toBeCloseTo(0.3, 6);
      expect(cap.length).toBeCloseTo(2 - 0.6, 6);
    }
    const cyl = fitPrimitive('cylinder', world(m), idx, frame, 'n');
    if (cyl.family === 'cylinder') expect(cyl.length).toBeCloseTo(2, 6);
    const cone = fitPrimitive('cone', world(m), idx, frame, 'n');
    if (cone.family === 'cone') {
      expect(cone.length).toBeCloseTo(2, 6);
      expect(cone.radius).toBeCloseTo(0.3, 6);
    }
    // Longest along local x: the axis follows it.
    const wide = fitPrimitive('cylinder', Float32Array.from([-3, 0, 0, 3, 0, 0, 0, 0.5, 0.5, 0, -0.5, -0.5]), [0, 1, 2, 1, 3, 2], { rotation: quatToMat3(ID), translation: [0, 0, 0] }, 'n');
    close(frameAxis(wide.rotation), [1, 0, 0], 1e-12);
  });

  it('refuses a mesh that is flat along an axis the family needs, with the bounds', () => {
    const flat = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(() => fitPrimitive('box', flat, [0, 1, 2], { rotation: quatToMat3(ID), translation: [0, 0, 0] }, 'node 1 "plate"')).toThrow(/node 1 "plate": box: half-extents .* flat or empty/);
  });
});

describe('sk8_shape', () => {
  it('reads every family, object or JSON string, with defaults', () => {
    expect(parseShapeSpec({ type: 'capsule', radius: 0.25, length: 1.0, axis: 'y', centre: [0, 0.75, 0] }, 'n')).toEqual({
      family: 'capsule', centre: [0, 0.75, 0], rotation: [0, 0, 0, 1], radius: 0.25, length: 1,
    });
    expect(parseShapeSpec('{"type":"box","size":[1,2,3]}', 'n')).toMatchObject({ family: 'box', halfExtents: [0.5, 1, 1.5], centre: [0, 0, 0] });
    expect(parseShapeSpec({ type: 'Sphere', radius: '2' }, 'n')).toMatchObject({ family: 'sphere', radius: 2 });
    expect(parseShapeSpec({ type: 'cone', radius: 1, height: 2, axis: '-z' }, 'n')).toMatchObject({ family: 'cone', length: 2 });
    close(frameAxis(parseShapeSpec({ type: 'cylinder', radius: 1, height: 2, axis: [1, 1, 0] }, 'n').rotation), [Math.SQRT1_2, Math.SQRT1_2, 0], 1e-12);
    expect(parseShapeSpec({ type: 'box', halfExtents: [1, 1, 1], rotation: [0, 0, 0, 0] }, 'n').rotation).toEqual([0, 0, 0, 1]);
  });

  it('refuses bad values by name', () => {
    const where = 'node 2 "post"';
    const bad: [unknown, RegExp][] = [
      ['{oops', /"\{oops" is not valid JSON/],
      [{ type: 'torus' }, /type "torus" is not one of sphere, capsule, box, cylinder, cone/],
      [{ type: 'sphere' }, /needs radius for a sphere/],
      [{ type: 'sphere', radius: -1 }, /radius -1 must be finite and > 0/],
      [{ type: 'capsule', radius: 1, length: -1 }, /length -1 must be ≥ 0/],
      [{ type: 'cylinder', radius: 1, length: 0 }, /length 0 must be > 0/],
      [{ type: 'box', size: [1, 2] }, /size \[1,2\] is not 3 numbers/],
      [{ type: 'box', size: [1, 2, 3], radius: 1 }, /key "radius" is not read for a box/],
      [{ type: 'capsule', radius: 1, length: 1, axis: 'w' }, /axis "w" is not x, y, z/],
      [{ type: 'capsule', radius: 1, length: 1, axis: 'x', rotation: [0, 0, 0, 1] }, /both rotation and axis/],
      [{ type: 'sphere', radius: 'big' }, /radius "big" is not a finite number/],
      [[1, 2], /is not an object/],
    ];
    for (const [v, re] of bad) expect(() => parseShapeSpec(v, where), JSON.stringify(v)).toThrow(new RegExp(`shapes: node 2 "post": sk8_shape.*${re.source}`));
  });
});

describe('tessellation', () => {
  const chordErrors = [0.005, 0.0005, 0.05];
  for (const base of FAMILIES) {
    for (const [k, e] of chordErrors.entries()) {
      const p = k === 0 ? base : posed(base, k);
      it(`${base.family}${base.family === 'capsule' && base.length === 0 ? ' (sphere limit)' : ''}, chord error ${e * 1000} mm${k ? ', rotated and moved' : ''}: closed, outward, welded, within the bound`, () => {
        const t = tessellate(p, { chordError: e });
        expect(t.limited).toBe(false);
        expect(t.chordError).toBeLessThanOrEqual(e);
        const c = census(t.positions, t.indices);
        expect(c).toMatchObject({ open: 0, nonManifold: 0, inconsistent: 0, duplicatePositions: 0, unused: 0 });
        expect(c.vertices - c.edges + c.triangles).toBe(2); // a sphere's Euler characteristic
        expect(c.signedVolume).toBeGreaterThan(0);
        // Every triangle faces away from the centre (all families are convex and contain it).
        for (let i = 0; i < t.indices.length; i += 3) {
          const [a, b, cc] = [0, 1, 2].map((j) => Array.from(t.positions.subarray(3 * t.indices[i + j], 3 * t.indices[i + j] + 3)));
          const n = [(b[1] - a[1]) * (cc[2] - a[2]) - (b[2] - a[2]) * (cc[1] - a[1]), (b[2] - a[2]) * (cc[0] - a[0]) - (b[0] - a[0]) * (cc[2] - a[2]), (b[0] - a[0]) * (cc[1] - a[1]) - (b[1] - a[1]) * (cc[0] - a[0])];
          const g = [0, 1, 2].map((j) => (a[j] + b[j] + cc[j]) / 3 - p.centre[j]);
          expect(n[0] * g[0] + n[1] * g[1] + n[2] * g[2]).toBeGreaterThan(0);
        }
        // Vertices on the surface; every point within the stated bound, which is within the option.
        for (let v = 0; v < t.positions.length; v += 3) expect(surfaceDistance(p, t.positions.subarray(v, v + 3))).toBeLessThan(1e-12 * 10);
        const measured = maxSurfaceDistance(p, t.positions, t.indices);
        expect(measured).toBeLessThanOrEqual(t.chordError * (1 + 1e-9) + 1e-12);
        if (p.family !== 'box') expect(measured).toBeGreaterThan(t.chordError * 0.5); // the bound is not loose
        // Bounds: exact in the canonical frame, inside and within the bound otherwise.
        const want = primitiveBounds(p);
        const got = boundsOf(t.positions);
        for (let a = 0; a < 3; a++) {
          if (k === 0) {
            expect(Math.abs(got.min[a] - want.min[a])).toBeLessThanOrEqual(1e-12);
            expect(Math.abs(got.max[a] - want.max[a])).toBeLessThanOrEqual(1e-12);
          } else {
            expect(got.min[a]).toBeGreaterThanOrEqual(want.min[a] - 1e-12);
            expect(got.max[a]).toBeLessThanOrEqual(want.max[a] + 1e-12);
            expect(got.min[a] - want.min[a]).toBeLessThanOrEqual(t.chordError + 1e-12);
            expect(want.max[a] - got.max[a]).toBeLessThanOrEqual(t.chordError + 1e-12);
          }
        }
      });
    }
  }

  it('encoded as kind 5: one shape, nothing dropped, zero open edges, no concave edge (f32 game-space positions)', () => {
    for (const base of FAMILIES) {
      for (const k of [0, 1, 2]) {
        const p = k ? posed({ ...base, centre: [120.5, 3, -64] } as Primitive, k) : base;
        const m = primitiveMesh(p);
        const { stats } = encodeMeshShapes(m.positions, m.indices);
        expect(stats, `${p.family} ${k}`).toMatchObject({ shapes: 1, degenerateDropped: 0, duplicatesDropped: 0, openEdges: 0 });
        expect(stats.edges.concave + stats.edges.concaveSharp + stats.edges.open).toBe(0);
        expect(stats.faces).toBe(m.indices.length / 3);
      }
    }
  });

  it('segments grow as the bound tightens; a primitive too big for one shape is limited and says so', () => {
    const s = FAMILIES[0];
    const coarse = tessellate(s, { chordError: 0.05 }), fine = tessellate(s, { chordError: 0.0005 });
    expect(fine.segments).toBeGreaterThan(coarse.segments);
    expect(fine.segments % 4).toBe(0);
    const huge = tessellate({ family: 'sphere', centre: [0, 0, 0], rotation: ID, radius: 80 }, { chordError: 0.001 });
    expect(huge.limited).toBe(true);
    expect(huge.indices.length / 3).toBeLessThanOrEqual(TESSELLATE_DEFAULTS.maxTriangles);
    expect(huge.chordError).toBeGreaterThan(0.001);
    expect(maxSurfaceDistance({ family: 'sphere', centre: [0, 0, 0], rotation: ID, radius: 80 }, huge.positions, huge.indices, 2)).toBeLessThanOrEqual(huge.chordError * (1 + 1e-9));
    expect(() => tessellate(s, { chordError: 0 })).toThrow(/chord error 0 m is outside 0.0001 … 0.5 m/);
    expect(() => tessellate(s, { maxTriangles: 10 })).toThrow(/max triangles 10 is outside 64 … 21845/);
  });

  it('is deterministic (same bytes for the same primitive)', () => {
    const rnd = prng(15);
    for (let i = 0; i < 20; i++) {
      const base = FAMILIES[i % FAMILIES.length];
      const p = { ...base, centre: [rnd() * 100, rnd() * 10, rnd() * 100], rotation: normalizeQuat([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5]) } as Primitive;
      const a = tessellate(p), b = tessellate(JSON.parse(JSON.stringify(p)));
      expect(Buffer.from(a.positions.buffer).equals(Buffer.from(b.positions.buffer))).toBe(true);
      expect(a.indices).toEqual(b.indices);
    }
  });
});

describe('fewestTriangles: a count before tessellating', () => {
  it('is at most what tessellate makes, for every family across radii and chord errors', () => {
    const q: Quat = [0, 0, 0, 1];
    for (const r of [0.01, 0.1, 0.5, 1, 3, 10, 100]) {
      for (const chordError of [0.001, 0.005, 0.05]) {
        const ps: Primitive[] = [
          { family: 'sphere', centre: [0, 0, 0], rotation: q, radius: r },
          { family: 'capsule', centre: [0, 0, 0], rotation: q, radius: r, length: 2 * r },
          { family: 'cylinder', centre: [0, 0, 0], rotation: q, radius: r, length: r },
          { family: 'cone', centre: [0, 0, 0], rotation: q, radius: r, length: r },
          { family: 'box', centre: [0, 0, 0], rotation: q, halfExtents: [r, r, r] },
        ];
        for (const p of ps) {
          const made = tessellate(p, { chordError }).indices.length / 3;
          const fewest = fewestTriangles(p, { chordError });
          expect(fewest, `${p.family} r ${r} e ${chordError}`).toBeLessThanOrEqual(made);
          expect(fewest, `${p.family} r ${r} e ${chordError}`).toBeGreaterThan(0);
        }
      }
    }
  });
});
