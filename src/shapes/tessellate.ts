// Primitive → closed triangle mesh for a kind-5 shape (../shared/spec/physics-resource.md "Triangle-mesh shapes":
// ReSkate Studio writes only kind 5, so the game is known to handle it). Every vertex lies on the analytic surface
// and every point of every triangle is within `chordError` of it (the bound is computed per triangle, below, and
// the segment count raised until it holds). The mesh is closed and consistently wound outward, and welded by
// construction (one vertex per position, poles and cap centres shared), so every edge has exactly one opposite
// edge and the encoder classifies all of them (no open edges). Rings are built with a multiple of four segments
// and (spheres, capsules) an equator, so the canonical frame's extreme points are vertices: the mesh's bounds are
// the analytic bounds in the canonical frame, and within chordError of them in any other.
import { quatToMat3 } from './frame.ts';
import type { Primitive } from './types.ts';

export interface TessellateOptions {
  /**
   * Largest distance from any point of the tessellated surface to the analytic surface, metres. Range
   * CHORD_ERROR_RANGE (0.1 mm … 0.5 m); default 0.005 (5 mm).
   */
  chordError: number;
  /**
   * Most triangles one primitive may become (one kind-5 shape: at most 21,845 faces). Range 64 … 21,845; default
   * 21,845. A primitive that would need more is tessellated with the finest ring that fits, and the result says so
   * (`limited`, with the bound actually reached).
   */
  maxTriangles: number;
}

export const TESSELLATE_DEFAULTS: TessellateOptions = { chordError: 0.005, maxTriangles: 21_845 };
export const CHORD_ERROR_RANGE: readonly [number, number] = [1e-4, 0.5];
export const MAX_TRIANGLES_RANGE: readonly [number, number] = [64, 21_845];
/** Fewest segments around an axis (a multiple of 4: the cardinal directions are vertices). */
export const MIN_SEGMENTS = 8;

export interface Tessellation {
  /** xyz per vertex, in the primitive's space (its centre and rotation applied), float64. */
  positions: Float64Array;
  /** Three vertex indices per triangle, wound outward. */
  indices: Uint32Array;
  /** Segments around the axis (spheres: around +Y; 0 for a box). */
  segments: number;
  /** The bound this mesh meets: the largest per-triangle distance bound, metres (0 for a box). */
  chordError: number;
  /** True when maxTriangles forced a coarser mesh than chordError asks for (chordError is then larger). */
  limited: boolean;
}

/** Throws `shapes: option: ...` when an option is outside its range. */
export function checkTessellateOptions(o: TessellateOptions): void {
  const [lo, hi] = CHORD_ERROR_RANGE;
  if (!(o.chordError >= lo && o.chordError <= hi)) throw new Error(`shapes: chord error ${o.chordError} m is outside ${lo} … ${hi} m`);
  const [tlo, thi] = MAX_TRIANGLES_RANGE;
  if (!(Number.isInteger(o.maxTriangles) && o.maxTriangles >= tlo && o.maxTriangles <= thi)) {
    throw new Error(`shapes: max triangles ${o.maxTriangles} is outside ${tlo} … ${thi}`);
  }
}

/** Sagitta of a chord spanning 2π/n of a circle of radius r: the distance from the arc's middle to the chord. */
export const sagitta = (r: number, n: number): number => r * (1 - Math.cos(Math.PI / n));

/** Triangles each family makes with n segments (n a multiple of 4). */
function triangleCount(p: Primitive, n: number): number {
  switch (p.family) {
    case 'box':
      return 12;
    case 'sphere':
      return n * (n - 2);
    case 'capsule':
      return p.length > 0 ? n * n : n * (n - 2);
    case 'cylinder':
      return 4 * n;
    case 'cone':
      return 2 * n;
  }
}

/** cos and sin of 2πk/n, exact at the quarter turns (so the cardinal vertices sit exactly on the axes). */
function cs(k: number, n: number): [number, number] {
  const q = (4 * k) / n;
  if (Number.isInteger(q)) return ([[1, 0], [0, 1], [-1, 0], [0, -1]] as [number, number][])[((q % 4) + 4) % 4];
  const a = (2 * Math.PI * k) / n;
  return [Math.cos(a), Math.sin(a)];
}

/**
 * The largest distance from a triangle inscribed in a sphere of radius r to the sphere: r − √(r² − R²) with R the
 * triangle's circumradius (the sphere's centre is √(r² − R²) from the triangle's plane, and no point of the
 * triangle is nearer to the centre than that plane).
 */
export function inscribedTriangleError(r: number, a: readonly number[], b: readonly number[], c: readonly number[]): number {
  const ab = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  const bc = Math.hypot(c[0] - b[0], c[1] - b[1], c[2] - b[2]);
  const ca = Math.hypot(a[0] - c[0], a[1] - c[1], a[2] - c[2]);
  const ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2], vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  const area2 = Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  const R = (ab * bc * ca) / (2 * area2);
  return r - Math.sqrt(Math.max(0, r * r - R * R));
}

/** Local-frame mesh builder: vertices and outward triangles. */
class Builder {
  pos: number[] = [];
  idx: number[] = [];
  vertex(x: number, y: number, z: number): number {
    this.pos.push(x, y, z);
    return this.pos.length / 3 - 1;
  }
  /** A ring of n vertices at height y and radius r, azimuth from +X towards +Z. Returns the first index. */
  ring(n: number, y: number, r: number): number {
    const first = this.pos.length / 3;
    for (let j = 0; j < n; j++) {
      const [c, s] = cs(j, n);
      this.vertex(r * c, y, r * s);
    }
    return first;
  }
  /** The band between ring a (above) and ring b (below), n segments each. */
  band(a: number, b: number, n: number): void {
    for (let j = 0; j < n; j++) {
      const j1 = (j + 1) % n;
      this.idx.push(a + j, a + j1, b + j, a + j1, b + j1, b + j);
    }
  }
  /** A fan from a single vertex above a ring (pole, apex, top cap centre). */
  fanAbove(top: number, ring: number, n: number): void {
    for (let j = 0; j < n; j++) this.idx.push(top, ring + ((j + 1) % n), ring + j);
  }
  /** A fan from a single vertex below a ring (pole, bottom cap centre). */
  fanBelow(ring: number, bottom: number, n: number): void {
    for (let j = 0; j < n; j++) this.idx.push(ring + j, ring + ((j + 1) % n), bottom);
  }
}

/** Sphere (or capsule cap) rings: polar angles kπ/m, k = 1 … m − 1, at radius r about y = ±offset per hemisphere. */
function roundBody(b: Builder, n: number, r: number, h: number): void {
  const m = n / 2; // latitude bands of the whole sphere; m even (n is a multiple of 4): the equator is a ring
  const top = b.vertex(0, h + r, 0);
  const rings: number[] = [];
  for (let k = 1; k < m; k++) {
    const [c, s] = cs(k, 2 * m); // θ = kπ/m
    const y = r * c;
    if (2 * k === m) {
      rings.push(b.ring(n, h, r * s));
      if (h > 0) rings.push(b.ring(n, -h, r * s)); // the capsule's side runs between the two equators
    } else rings.push(b.ring(n, y > 0 ? y + h : y - h, r * s));
  }
  const bottom = b.vertex(0, -h - r, 0);
  b.fanAbove(top, rings[0], n);
  for (let k = 0; k + 1 < rings.length; k++) b.band(rings[k], rings[k + 1], n);
  b.fanBelow(rings[rings.length - 1], bottom, n);
}

/** Canonical-frame mesh for n segments, and its distance bound. */
function build(p: Primitive, n: number): { b: Builder; error: number } {
  const b = new Builder();
  switch (p.family) {
    case 'box': {
      const [hx, hy, hz] = p.halfExtents;
      for (let i = 0; i < 8; i++) b.vertex(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
      // prettier-ignore
      b.idx.push(0,2,1, 1,2,3, 4,5,6, 5,7,6, 0,1,4, 1,5,4, 2,6,3, 3,6,7, 0,4,2, 2,4,6, 1,3,5, 3,7,5);
      return { b, error: 0 };
    }
    case 'sphere':
    case 'capsule': {
      const h = p.family === 'capsule' ? p.length / 2 : 0;
      roundBody(b, n, p.radius, h);
      // Bound: the worst cap triangle, and the capsule side's sagitta.
      let error = h > 0 ? sagitta(p.radius, n) : 0;
      const P = (v: number): number[] => {
        const x = b.pos[3 * v], y = b.pos[3 * v + 1], z = b.pos[3 * v + 2];
        return [x, y > 0 ? y - h : y + h, z]; // into its hemisphere's frame (centre at the origin)
      };
      for (let t = 0; t < b.idx.length; t += 3) {
        const [i0, i1, i2] = [b.idx[t], b.idx[t + 1], b.idx[t + 2]];
        const ys = [b.pos[3 * i0 + 1], b.pos[3 * i1 + 1], b.pos[3 * i2 + 1]];
        if (h > 0 && ys.some((y) => y > 0) && ys.some((y) => y < 0)) continue; // side band: a flat quad, sagitta
        error = Math.max(error, inscribedTriangleError(p.radius, P(i0), P(i1), P(i2)));
      }
      return { b, error };
    }
    case 'cylinder': {
      const h = p.length / 2;
      const top = b.vertex(0, h, 0);
      const ra = b.ring(n, h, p.radius);
      const rb = b.ring(n, -h, p.radius);
      const bottom = b.vertex(0, -h, 0);
      b.fanAbove(top, ra, n);
      b.band(ra, rb, n);
      b.fanBelow(rb, bottom, n);
      return { b, error: sagitta(p.radius, n) };
    }
    case 'cone': {
      const h = p.length / 2;
      const apex = b.vertex(0, h, 0);
      const base = b.ring(n, -h, p.radius);
      const centre = b.vertex(0, -h, 0);
      b.fanAbove(apex, base, n);
      b.fanBelow(base, centre, n);
      return { b, error: sagitta(p.radius, n) };
    }
  }
}

/** Segments that bring the circle's sagitta to at most `e` (a multiple of 4, at least MIN_SEGMENTS). */
function segmentsFor(r: number, e: number): number {
  const n = e >= r ? MIN_SEGMENTS : Math.PI / Math.acos(1 - e / r);
  return Math.max(MIN_SEGMENTS, 4 * Math.ceil(n / 4 - 1e-9));
}

/**
 * The fewest triangles tessellate(p, options) makes (it may step to finer rings until the error holds): what a
 * caller can count before tessellating anything, to refuse work past a budget up front.
 */
export function fewestTriangles(p: Primitive, options: Partial<TessellateOptions> = {}): number {
  const opt = { ...TESSELLATE_DEFAULTS, ...options };
  if (p.family === 'box') return triangleCount(p, 0);
  let nMax = MIN_SEGMENTS;
  while (triangleCount(p, nMax + 4) <= opt.maxTriangles) nMax += 4;
  const round = p.family === 'sphere' || p.family === 'capsule';
  return triangleCount(p, Math.min(nMax, segmentsFor(p.radius, round ? opt.chordError / 2 : opt.chordError)));
}

/** The primitive as a closed, outward-wound, welded triangle mesh within options.chordError (see the header). */
export function tessellate(p: Primitive, options: Partial<TessellateOptions> = {}): Tessellation {
  const opt = { ...TESSELLATE_DEFAULTS, ...options };
  checkTessellateOptions(opt);
  let n = 0;
  let limited = false;
  let built: { b: Builder; error: number };
  if (p.family === 'box') built = build(p, 0);
  else {
    // Largest n that fits the triangle limit.
    let nMax = MIN_SEGMENTS;
    while (triangleCount(p, nMax + 4) <= opt.maxTriangles) nMax += 4;
    // Spheres' triangles span a band's diagonal: start from half the error for them, then step until it holds.
    const round = p.family === 'sphere' || p.family === 'capsule';
    n = Math.min(nMax, segmentsFor(p.radius, round ? opt.chordError / 2 : opt.chordError));
    built = build(p, n);
    while (built.error > opt.chordError && n < nMax) {
      n += 4;
      built = build(p, n);
    }
    limited = built.error > opt.chordError;
  }
  const { b, error } = built;
  const m = quatToMat3(p.rotation);
  const [cx, cy, cz] = p.centre;
  const positions = new Float64Array(b.pos.length);
  for (let v = 0; v < b.pos.length; v += 3) {
    const x = b.pos[v], y = b.pos[v + 1], z = b.pos[v + 2];
    positions[v] = cx + m[0] * x + m[3] * y + m[6] * z;
    positions[v + 1] = cy + m[1] * x + m[4] * y + m[7] * z;
    positions[v + 2] = cz + m[2] * x + m[5] * y + m[8] * z;
  }
  return { positions, indices: Uint32Array.from(b.idx), segments: n, chordError: error, limited };
}
