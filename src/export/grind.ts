// A grind prism of a compile output back to its curve : the compiler builds each grind curve's run into
// an eight-sided prism (src/import/grind.ts, ../shared/spec/authoring-notes.md "Grind curves"), whose ring corner 0
// lies on the curve. Given the prism's world values in stored order (the weld numbers vertices by first use over
// the prism's faces), the rings are known, and corner 0 of each is a curve point. The curve is taken only where
// the importer's own path (chain, clean, split, build, f32) over those points with a recovered radius gives a prism
// that the caller's check finds encodes to the stored bytes; else it says why, and the prism stays triangles.
import { keyOf, valueOf } from '../geometry/f32-keys.ts';
import { chainRuns, clampGrindRadius, grindPrisms, GRIND_DEFAULTS, GRIND_SIDES, prismIndices } from '../import/grind.ts';

export interface RecoveredCurve {
  /** The curve's points (f32, about `translation`: a node's, whole metres or 0) and whether it closes. */
  points: Float32Array;
  translation: [number, number, number];
  closed: boolean;
  /** Line segments over points (pairs), as a LINES primitive. */
  edges: Uint32Array;
  radius: number;
  /** The prism the importer builds from it: world positions (f32) and faces. */
  positions: Float32Array;
  indices: Uint32Array;
}

/** Most radii tried per prism (short decimals near the measured one, then the measured one itself). */
const MOST_RADII = 24;
/** Sweeps over the points' coordinates, and f32 steps tried either way of each, when the f32 points miss. */
const CURVE_SWEEPS = 4;
const CURVE_STEPS = 12;
/**
 * Most rings built (prisms built × their rings: ~6 µs a ring; ~0.6 s for a 57-point curve that does not come back) and prisms encoded (a few hundred µs each) for one
 * curve, so that a curve that does not come back costs under a second.
 */
const CURVE_MOST_RINGS = 100_000;
const CURVE_MOST_ENCODES = 200;
/** Grids (m) of the translations the curve's points are written about when the f32 points miss (1: whole metres). */
const CURVE_TRANSLATION_STEPS = [1, 0.1, 0.05, 0.01];

const fr = Math.fround;
/** The f32 k steps from x (f32). */
const stepF32 = (x: number, k: number): number => valueOf(keyOf(x) + k);

/** The rings of a prism with n vertices and `faces` faces, and whether it closes; null where those are no prism's. */
export function prismRings(n: number, faces: number): { m: number; closed: boolean } | null {
  if (n % GRIND_SIDES !== 0 || n < 2 * GRIND_SIDES) return null;
  const m = n / GRIND_SIDES;
  if (faces === 2 * GRIND_SIDES * m && m >= 3) return { m, closed: true };
  return faces === 2 * GRIND_SIDES * (m - 1) ? { m, closed: false } : null;
}

/**
 * The curve of a prism with `faces` faces whose stored vertices have world values `world` (3 per vertex, stored
 * order), or why there is none, or null where the counts are not a prism's. `cost` says how far a rebuilt prism (world f32 positions, faces) encodes from the
 * stored shape: 0 when it gives the stored part back. `spans` (src/export/positions.ts partSpans: per stored vertex
 * and axis the f32 keys that recentre to the stored value) make the search cheap: a prism with a value outside them
 * cannot encode back, and is not encoded.
 */
export function recoverGrindCurve(world: Float32Array, faces: number, cost: (positions: Float32Array, indices: Uint32Array) => number, spans?: { lo: Int32Array; hi: Int32Array }): RecoveredCurve | string | null {
  const n = world.length / 3;
  // Not a prism's counts (an object named grind_… that a mesh made): nothing to recover.
  const rings = prismRings(n, faces);
  if (!rings) return null;
  const { m, closed } = rings;
  // Stored vertex s is ring vertex order[s]: first use over the prism's faces, as the weld numbers them.
  const nat = prismIndices(m, closed);
  const storedOf = new Int32Array(n).fill(-1);
  let next = 0;
  for (const v of nat) if (storedOf[v] < 0) storedOf[v] = next++;
  if (next !== n) return 'its faces do not use every ring vertex';
  const points = new Float32Array(3 * m);
  for (let i = 0; i < m; i++) points.set(world.subarray(3 * storedOf[GRIND_SIDES * i], 3 * storedOf[GRIND_SIDES * i] + 3), 3 * i);
  const edges = new Uint32Array(2 * (closed ? m : m - 1));
  for (let i = 0; i < edges.length / 2; i++) edges.set([i, (i + 1) % m], 2 * i);
  // The radius: half of each ring's diameters (corner k to k + 4) is the radius where the ring is not stretched (a
  // straight stretch, an open run's ends) and more where it is, so the least of them, then short decimals near it.
  let r = Infinity;
  for (let i = 0; i < m; i++) {
    for (let k = 0; k < GRIND_SIDES / 2; k++) {
      const a = 3 * storedOf[GRIND_SIDES * i + k], b = 3 * storedOf[GRIND_SIDES * i + k + GRIND_SIDES / 2];
      r = Math.min(r, Math.hypot(world[a] - world[b], world[a + 1] - world[b + 1], world[a + 2] - world[b + 2]) / 2);
    }
  }
  const radii: number[] = [];
  for (let p = 1; p <= 7; p++) {
    const q = 10 ** (p - 1 - Math.floor(Math.log10(r)));
    for (const x of [Math.round(r * q) / q, Math.ceil(r * q) / q, Math.floor(r * q) / q]) if (x > 0 && !radii.includes(x)) radii.push(x);
  }
  for (const x of [GRIND_DEFAULTS.radius, r]) if (!radii.includes(x)) radii.push(x);
  // The importer's path: the line's points in world space (translation + f32 values, summed in f64), chained,
  // cleaned, split and built, then rounded to f32.
  const build = (t: number[], local: Float32Array, radius: number): { positions: Float32Array; indices: Uint32Array } | null => {
    const line = Float64Array.from(local, (x, k) => (t[k % 3] === 0 ? x : x + t[k % 3]));
    const prisms = grindPrisms(chainRuns(line, edges), { radius });
    if (prisms.length !== 1 || prisms[0].positions.length !== world.length) return null;
    return { positions: Float32Array.from(prisms[0].positions), indices: prisms[0].indices };
  };
  let builds = 0, encodes = 0;
  // Where spans are given, a rebuilt value outside its vertex's span counts one without encoding (the prism's ring
  // vertex v is stored vertex storedOf[v]); the encode decides once every value is inside.
  const costOf = (t: number[], local: Float32Array, radius: number): number => {
    if ((++builds) * m > CURVE_MOST_RINGS || encodes >= CURVE_MOST_ENCODES) return Infinity;
    const b = build(t, local, radius);
    if (!b) return Infinity;
    if (spans) {
      let out = 0;
      for (let v = 0; v < n; v++) {
        for (let j = 0; j < 3; j++) {
          const k = keyOf(b.positions[3 * v + j]), at = 3 * storedOf[v] + j;
          if (k < spans.lo[at] || k > spans.hi[at]) out++;
        }
      }
      if (out > 0) return 10 * n + out; // worse than any prism inside every span (at most 6n off when encoded)
    }
    encodes++;
    return cost(b.positions, b.indices);
  };
  let best = { radius: NaN, cost: Infinity };
  for (const radius of radii.slice(0, MOST_RADII)) {
    if (clampGrindRadius(radius) !== radius) continue;
    const c = costOf([0, 0, 0], points, radius);
    if (c < best.cost) best = { radius, cost: c };
    if (c === 0) break;
  }
  if (!(best.cost < Infinity)) return `no radius near ${r.toPrecision(6)} m builds a prism of the stored size from its ${m} ring points`;
  const { radius } = best;
  // The points were f64 sums (a node's translation plus f32 values) that the prism rounds to f32 once: where the
  // f32 points miss, they are written about a translation, whose f32 offsets are finer, and stepped.
  // One coordinate at a time stepped by f32 steps while the prism comes closer to the stored one; the cost left.
  const descend = (tt: number[], ll: Float32Array): number => {
    let c = costOf(tt, ll, radius);
    const c0 = c;
    for (let sweep = 0; sweep < CURVE_SWEEPS && c > 0; sweep++) {
      // A sweep that leaves more than half of what was off (outside spans, or not encoding back) is not converging.
      if (sweep === 1 && c > c0 / 2) break;
      let moved = false;
      for (let k = 0; k < ll.length && c > 0; k++) {
        const was = ll[k];
        let bestK = was, bestC = c;
        for (let d = 1; d <= CURVE_STEPS && bestC > 0; d++) {
          for (const x of [stepF32(was, -d), stepF32(was, d)]) {
            ll[k] = x;
            const got = costOf(tt, ll, radius);
            if (got < bestC) [bestK, bestC] = [x, got];
          }
        }
        ll[k] = bestK;
        if (bestC < c) [c, moved] = [bestC, true];
      }
      if (!moved) break;
    }
    return c;
  };
  let t = [0, 0, 0], local = points;
  if (best.cost > 0) {
    // Translations tried: whole metres, then the points' middle to a tenth, a twentieth and a hundredth of a metre
    // (authors move nodes by decimals, and a node's f64 translation plus the f32 offsets is what the importer sums).
    const mid = [0, 1, 2].map((j) => {
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < m; i++) [lo, hi] = [Math.min(lo, points[3 * i + j]), Math.max(hi, points[3 * i + j])];
      return (lo + hi) / 2;
    });
    const tried = new Set<string>();
    let found = false;
    for (const step of CURVE_TRANSLATION_STEPS) {
      const tt = step === 1 ? [0, 1, 2].map((j) => Math.round(points[j])) : mid.map((x) => Number((Math.round(x / step) * step).toFixed(2)));
      if (tried.has(tt.join())) continue;
      tried.add(tt.join());
      const ll = Float32Array.from(points, (x, k) => fr(x - tt[k % 3]));
      if (descend(tt, ll) === 0) {
        [t, local, found] = [tt, ll, true];
        break;
      }
    }
    if (!found && (builds * m > CURVE_MOST_RINGS || encodes >= CURVE_MOST_ENCODES)) return `no prism built from the ${m} ring points with radius ${radius} m encoded to the stored one within ${Math.floor(CURVE_MOST_RINGS / m)} builds and ${CURVE_MOST_ENCODES} encodes`;
    if (!found) return `the ${m} ring points with radius ${radius} m build no prism that encodes to the stored one (about the translations tried: ${[...tried].map((x) => `(${x})`).join(', ')})`;
  }
  const built = build(t, local, radius)!;
  return { points: local, translation: t as [number, number, number], closed, edges, radius, positions: built.positions, indices: built.indices };
}
