// Closed, welded, outward-wound triangle meshes for YBN primitives (spheres, capsules, cylinders, discs, boxes),
// in the bound's own space (GTA V, Z up). Until the shared shape layer (src/shapes/, issue #15) is on main, YBN
// import tessellates its primitives here; objects.ts is the only caller, so switching over is one place.
// Meshes are surfaces of revolution ("lathes") around an axis: rings of `segments` vertices, a single vertex at
// a pole, a centre vertex on each flat cap; every edge is shared by exactly two triangles.

/** Tessellation settings. */
export interface PrimitiveOptions {
  /** Vertices around a ring (sphere, capsule, cylinder, disc). Range 6..64; default 16. */
  segments: number;
}

export const PRIMITIVE_DEFAULTS: PrimitiveOptions = { segments: 16 };
export const MIN_SEGMENTS = 6;
export const MAX_SEGMENTS = 64;

/** Local-space mesh: xyz positions and triangle corner indices (counter-clockwise seen from outside). */
export interface PrimitiveMesh {
  positions: number[];
  indices: number[];
}

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: V): number => Math.sqrt(dot(a, a));
const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];

/** Orthonormal u, v with u × v = w (w unit). Deterministic: u is perpendicular to the world axis least along w. */
function basis(w: V): [V, V] {
  const ax = Math.abs(w[0]), ay = Math.abs(w[1]), az = Math.abs(w[2]);
  const pick: V = ax <= ay && ax <= az ? [1, 0, 0] : ay <= az ? [0, 1, 0] : [0, 0, 1];
  const c = cross(w, pick);
  const u = scale(c, 1 / len(c));
  return [u, cross(w, u)];
}

/**
 * A surface of revolution around `base + t·w`: rings [t, radius] in increasing t; radius 0 is a pole (one
 * vertex); a first or last ring with radius > 0 gets a flat cap.
 */
function lathe(base: V, w: V, rings: [number, number][], segments: number): PrimitiveMesh {
  const [u, v] = basis(w);
  const positions: number[] = [];
  const indices: number[] = [];
  const start: number[] = [];
  for (const [t, r] of rings) {
    start.push(positions.length / 3);
    const n = r === 0 ? 1 : segments;
    for (let j = 0; j < n; j++) {
      const a = (2 * Math.PI * j) / segments;
      const c = r * Math.cos(a), s = r * Math.sin(a);
      for (let k = 0; k < 3; k++) positions.push(base[k] + t * w[k] + c * u[k] + s * v[k]);
    }
  }
  const at = (i: number, j: number): number => (rings[i][1] === 0 ? start[i] : start[i] + (j % segments));
  for (let i = 0; i + 1 < rings.length; i++) {
    for (let j = 0; j < segments; j++) {
      const a = at(i, j), b = at(i, j + 1), c = at(i + 1, j + 1), d = at(i + 1, j);
      if (rings[i][1] !== 0) indices.push(a, b, c);
      if (rings[i + 1][1] !== 0) indices.push(a, c, d);
    }
  }
  const cap = (i: number, outward: boolean): void => {
    const centre = positions.length / 3;
    for (let k = 0; k < 3; k++) positions.push(base[k] + rings[i][0] * w[k]);
    for (let j = 0; j < segments; j++) {
      if (outward) indices.push(centre, at(i, j), at(i, j + 1));
      else indices.push(centre, at(i, j + 1), at(i, j));
    }
  };
  if (rings[0][1] !== 0) cap(0, false);
  if (rings[rings.length - 1][1] !== 0) cap(rings.length - 1, true);
  return { positions, indices };
}

const Z: V = [0, 0, 1];

export function sphereMesh(centre: V, radius: number, o: PrimitiveOptions): PrimitiveMesh {
  const n = Math.max(2, Math.round(o.segments / 2));
  const rings: [number, number][] = [];
  for (let k = 0; k <= n; k++) {
    const phi = (Math.PI * k) / n;
    rings.push([-radius * Math.cos(phi), k === 0 || k === n ? 0 : radius * Math.sin(phi)]);
  }
  return lathe(centre, Z, rings, o.segments);
}

/** Capsule between the centres of its end hemispheres. */
export function capsuleMesh(a: V, b: V, radius: number, o: PrimitiveOptions): PrimitiveMesh {
  const d = sub(b, a);
  const length = len(d);
  if (length <= radius * 1e-6) return sphereMesh(scale([a[0] + b[0], a[1] + b[1], a[2] + b[2]], 0.5), radius, o);
  const w = scale(d, 1 / length);
  const h = Math.max(1, Math.round(o.segments / 4));
  const rings: [number, number][] = [];
  for (let k = 0; k <= h; k++) {
    const phi = (Math.PI / 2) * (k / h);
    rings.push([-radius * Math.cos(phi), k === 0 ? 0 : radius * Math.sin(phi)]);
  }
  for (let k = 0; k <= h; k++) {
    const phi = (Math.PI / 2) * (1 + k / h);
    rings.push([length - radius * Math.cos(phi), k === h ? 0 : radius * Math.sin(phi)]);
  }
  return lathe(a, w, rings, o.segments);
}

/** Cylinder between the centres of its caps; undefined when it has no volume. */
export function cylinderMesh(a: V, b: V, radius: number, o: PrimitiveOptions): PrimitiveMesh | undefined {
  const d = sub(b, a);
  const length = len(d);
  if (!(length > 0) || !(radius > 0)) return undefined;
  return lathe(a, scale(d, 1 / length), [[0, radius], [length, radius]], o.segments);
}

/**
 * Parallelepiped at corner `o` along edges e1, e2, e3 (a box when they are perpendicular); undefined when flat.
 * Corner (a, b, c) ∈ {0,1}³ is o + a·e1 + b·e2 + c·e3, index a + 2b + 4c.
 */
export function boxMesh(o: V, e1: V, e2: V, e3: V): PrimitiveMesh | undefined {
  const det = dot(e1, cross(e2, e3));
  const size = len(e1) * len(e2) * len(e3);
  if (!(Math.abs(det) > size * 1e-9) || !(size > 0)) return undefined;
  const positions: number[] = [];
  for (let c = 0; c < 2; c++) for (let b = 0; b < 2; b++) for (let a = 0; a < 2; a++) {
    for (let k = 0; k < 3; k++) positions.push(o[k] + a * e1[k] + b * e2[k] + c * e3[k]);
  }
  // Outward for a right-handed (e1, e2, e3); reversed otherwise.
  const faces = [0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5];
  if (det < 0) for (let i = 0; i < faces.length; i += 3) [faces[i + 1], faces[i + 2]] = [faces[i + 2], faces[i + 1]];
  return { positions, indices: faces };
}

/** The box polygon of a geometry: four corners, pairwise not sharing an edge (CodeWalker's reading). */
export function boxFromCorners(p1: V, p2: V, p3: V, p4: V): PrimitiveMesh | undefined {
  const e1 = scale(sub([p3[0] + p4[0], p3[1] + p4[1], p3[2] + p4[2]], [p1[0] + p2[0], p1[1] + p2[1], p1[2] + p2[2]]), 0.5);
  const e2 = sub(sub(p3, p1), e1);
  const e3 = sub(sub(p4, p1), e1);
  return boxMesh(p1, e1, e2, e3);
}

export function aabbMesh(min: V, max: V): PrimitiveMesh | undefined {
  return boxMesh(min, [max[0] - min[0], 0, 0], [0, max[1] - min[1], 0], [0, 0, max[2] - min[2]]);
}
