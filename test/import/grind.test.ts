import { describe, expect, it } from 'vitest';
import { buildPrism, chainRuns, cleanRun, douglasPeucker, grindPrisms, halfEdgesPerMetre, splitAtCorners, GRIND_SIDES } from '../../src/import/grind.ts';
import { validateMesh } from '../../src/import/validate.ts';

const P = (pts: number[][]): Float64Array => Float64Array.from(pts.flat());
const ring = (pos: Float64Array, i: number, k: number): number[] => Array.from(pos.subarray(3 * (8 * i + k), 3 * (8 * i + k) + 3));

describe('chainRuns', () => {
  it('chains a shuffled polyline into one open run from its loose end', () => {
    const pts = P([[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]);
    const runs = chainRuns(pts, Uint32Array.from([2, 3, 0, 1, 1, 2]));
    expect(runs).toHaveLength(1);
    expect(runs[0].closed).toBe(false);
    expect(Array.from(runs[0].points)).toEqual([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0]);
  });
  it('closes loops and splits at junctions', () => {
    const square = P([[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]]);
    const loop = chainRuns(square, Uint32Array.from([0, 1, 1, 2, 2, 3, 3, 0]));
    expect(loop).toHaveLength(1);
    expect(loop[0].closed).toBe(true);
    expect(loop[0].points.length).toBe(12);
    // T: 0-1-2 with 1-3 branching: three runs meeting at 1.
    const t = chainRuns(P([[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 0, 1]]), Uint32Array.from([0, 1, 1, 2, 1, 3]));
    expect(t).toHaveLength(3);
    for (const r of t) expect(r.points.length).toBe(6);
  });
  it('ignores repeated and zero-length edges', () => {
    const runs = chainRuns(P([[0, 0, 0], [1, 0, 0]]), Uint32Array.from([0, 1, 1, 0, 1, 1]));
    expect(runs).toHaveLength(1);
  });
});

describe('cleanRun and corners (steps 2–3)', () => {
  it('Douglas–Peucker drops collinear points within 3 mm', () => {
    const p = P([[0, 0, 0], [1, 0.001, 0], [2, 0, 0], [3, 1, 0]]);
    expect(douglasPeucker(p, 0.003)).toEqual([0, 2, 3]);
  });
  it('drops interior points closer than 2 cm and lets the end replace a close last point', () => {
    const p = P([[0, 0, 0], [0.5, 0.5, 0], [0.51, 0.5, 0], [1, 0, 0], [1.01, 0, 0]]);
    const r = cleanRun({ points: p, closed: false })!;
    expect(Array.from(r.points)).toEqual([0, 0, 0, 0.5, 0.5, 0, 1.01, 0, 0]);
  });
  it('drops runs that are too short or whose ends coincide', () => {
    expect(cleanRun({ points: P([[0, 0, 0], [0.01, 0, 0]]), closed: false })).toBeUndefined();
    expect(cleanRun({ points: P([[0, 0, 0], [1, 0, 0], [0, 0, 0]]), closed: false })).toBeUndefined();
  });
  it('splits at sharp interior points sharing the corner; opens sharp loops at their first corner', () => {
    const l = splitAtCorners({ points: P([[0, 0, 0], [1, 0, 0], [1, 0, 1]]), closed: false });
    expect(l.map((r) => r.points.length / 3)).toEqual([2, 2]);
    expect(Array.from(l[1].points.subarray(0, 3))).toEqual([1, 0, 0]);
    const sq = splitAtCorners({ points: P([[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]]), closed: true });
    expect(sq).toHaveLength(4);
    expect(sq.every((r) => !r.closed)).toBe(true);
    // A gentle octagon keeps its loop.
    const oct = P(Array.from({ length: 8 }, (_, k) => [Math.cos((k * Math.PI) / 4), 0, Math.sin((k * Math.PI) / 4)]));
    expect(splitAtCorners({ points: oct, closed: true })).toHaveLength(1);
  });
});

describe('buildPrism (steps 4–7)', () => {
  const straight = buildPrism({ points: P([[0, 1, 0], [1, 1, 0], [2, 1, 0]]), closed: false }, 0.03);
  it('hangs an 8-sided ring under each point with corner 0 on the curve', () => {
    expect(straight.positions.length).toBe(3 * 8 * 3);
    for (let i = 0; i < 3; i++) {
      const top = ring(straight.positions, i, 0);
      expect(top[0]).toBeCloseTo(i, 12);
      expect(top[1]).toBeCloseTo(1, 12);
      expect(top[2]).toBeCloseTo(0, 12);
      const bottom = ring(straight.positions, i, 4);
      expect(bottom[1]).toBeCloseTo(1 - 0.06, 12);
    }
    // side = t × up = (1,0,0)×(0,1,0) = (0,0,1): corner 2 is +z of the axis.
    expect(ring(straight.positions, 0, 2)[2]).toBeCloseTo(0.03, 12);
  });
  it('has 16 triangles a segment, wound outward, no caps (open ends)', () => {
    expect(straight.indices.length / 3).toBe(2 * GRIND_SIDES * 2);
    const p = straight.positions;
    for (let t = 0; t < straight.indices.length; t += 3) {
      const [a, b, c] = [straight.indices[t], straight.indices[t + 1], straight.indices[t + 2]].map((i) => Array.from(p.subarray(3 * i, 3 * i + 3)));
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const centroid = [0, 1, 2].map((j) => (a[j] + b[j] + c[j]) / 3);
      const out = [0, centroid[1] - (1 - 0.03), centroid[2]];
      expect(n[1] * out[1] + n[2] * out[2]).toBeGreaterThan(0);
    }
    const r = validateMesh(Float32Array.from(p), [straight.indices]);
    expect(r.inconsistentEdges).toBe(0);
    expect(r.openEdges).toBe(16); // two open 8-edge ends
  });
  it('mitres a bend: the top corner still lies on the curve, the ring is stretched', () => {
    const bent = buildPrism({ points: P([[0, 0, 0], [1, 0, 0], [1.5, 0, 0.5]]), closed: false }, 0.1);
    const top = ring(bent.positions, 1, 0);
    expect(top[0]).toBeCloseTo(1, 12);
    expect(top[1]).toBeCloseTo(0, 12);
    const w = Math.hypot(...[0, 1, 2].map((j) => ring(bent.positions, 1, 2)[j] - ring(bent.positions, 1, 6)[j]));
    expect(w).toBeGreaterThan(0.2); // wider than the diameter across the bend
  });
  it('uses (0,0,-1) as up on a vertical first segment', () => {
    const v = buildPrism({ points: P([[0, 0, 0], [0, 1, 0]]), closed: false }, 0.03);
    const c0 = ring(v.positions, 0, 0), c4 = ring(v.positions, 0, 4);
    expect(c4[2] - c0[2]).toBeCloseTo(0.06, 12);
  });
  it('closes a loop without sharp corners (segment n-1 → 0)', () => {
    const oct = P(Array.from({ length: 12 }, (_, k) => [Math.cos((k * Math.PI) / 6), 0, Math.sin((k * Math.PI) / 6)]));
    const [prism] = grindPrisms([{ points: oct, closed: true }]);
    expect(prism.indices.length / 3).toBe(12 * 16);
    expect(validateMesh(Float32Array.from(prism.positions), [prism.indices]).openEdges).toBe(0);
  });
  it('measures density as index count over bbox diagonal', () => {
    expect(halfEdgesPerMetre(straight.positions, straight.indices.length)).toBeCloseTo(96 / Math.hypot(2, 0.06, 0.06), 6);
  });
});

describe('agreement with the independent fixture of the same rule (test/fixtures/meshes.ts)', () => {
  it('buildPrism matches grindPrismCurved vertex for vertex and face for face', async () => {
    const { grindPrismCurved } = await import('../fixtures/meshes.ts');
    const ref = grindPrismCurved();
    const pts = Float64Array.from(Array.from({ length: 13 }, (_, k) => {
      const a = ((Math.PI / 2) * k) / 12;
      return [30 + 3 * Math.cos(a), 0.8 + (0.5 * k) / 12, -5 + 3 * Math.sin(a)];
    }).flat());
    const mine = buildPrism({ points: pts, closed: false }, 0.03);
    expect(Array.from(mine.indices)).toEqual(Array.from(ref.indices));
    let worst = 0;
    for (let i = 0; i < ref.positions.length; i++) worst = Math.max(worst, Math.abs(Math.fround(mine.positions[i]) - ref.positions[i]));
    expect(worst).toBeLessThan(1e-5);
  });
});
