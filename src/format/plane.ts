// Face planes: ../shared/spec/physics-resource.md, "PhysicsResource" (paragraph after the part table): eight bytes,
// the unit normal octahedrally encoded as two snorm16 values, then the plane offset as f32.
// The spec does not give the octahedral convention; we use the common one (docs/format-decisions.md, "Codec"):
// project onto |x| + |y| + |z| = 1, fold the z < 0 half over the diagonals, store x and y as snorm16
// (value · 32767, rounded to nearest; decode clamps at −1). No measured file settles the convention or the offset's
// sign (n · p = offset or n · p + offset = 0): the codec carries both as stored, and inspect reports how many
// decoded normals agree with their face's winding so a real file can settle it.

export const SNORM16_MAX = 32767;

const signNotZero = (v: number): number => (v >= 0 ? 1 : -1);
const snorm = (v: number): number => Math.max(-SNORM16_MAX, Math.min(SNORM16_MAX, Math.round(v * SNORM16_MAX)));
const unsnorm = (q: number): number => Math.max(-1, q / SNORM16_MAX);

/** Octahedral snorm16 pair of a (not necessarily unit, non-zero) normal. */
export function encodeNormal(x: number, y: number, z: number): [number, number] {
  const s = Math.abs(x) + Math.abs(y) + Math.abs(z);
  if (!(s > 0) || !Number.isFinite(s)) return [0, 0];
  let u = x / s;
  let v = y / s;
  if (z < 0) {
    const fu = (1 - Math.abs(v)) * signNotZero(u);
    v = (1 - Math.abs(u)) * signNotZero(v);
    u = fu;
  }
  return [snorm(u), snorm(v)];
}

/** Unit normal of an octahedral snorm16 pair. */
export function decodeNormal(qu: number, qv: number): [number, number, number] {
  let x = unsnorm(qu);
  let y = unsnorm(qv);
  const z = 1 - Math.abs(x) - Math.abs(y);
  if (z < 0) {
    const fx = (1 - Math.abs(y)) * signNotZero(x);
    y = (1 - Math.abs(x)) * signNotZero(y);
    x = fx;
  }
  const len = Math.hypot(x, y, z);
  return [x / len, y / len, z / len];
}

/** A decoded face plane. */
export interface Plane {
  normal: [number, number, number];
  offset: number;
}

/** Face `f`'s plane from a shape's stored plane arrays. */
export function facePlane(planeNormals: Int16Array, planeOffsets: Float32Array, f: number): Plane {
  return { normal: decodeNormal(planeNormals[2 * f], planeNormals[2 * f + 1]), offset: planeOffsets[f] };
}

/** Stored form (normal pair, f32 offset) of a plane with unit `normal` and `offset`. */
export function encodePlane(normal: readonly [number, number, number], offset: number): { normal: [number, number]; offset: number } {
  return { normal: encodeNormal(normal[0], normal[1], normal[2]), offset: Math.fround(offset) };
}
