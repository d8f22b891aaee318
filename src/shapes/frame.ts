// Canonical frames and placing a primitive under a node's transform
// (../shared/spec/collider-shape-contract.md, "Mesh Policy": rotation normalized, zero quaternion → identity; scale
// strictly positive and diagonally applied; "true hierarchy shear is outside this contract": refused, never
// approximated). Matrices are glTF's: 4×4 column-major, float64.
import { checkPrimitive, type Aabb, type Primitive, type Quat, type Vec3 } from './types.ts';

/**
 * Two of a frame's axes count as perpendicular (no shear) when the cosine of their angle is at most this. glTF
 * stores rotations as f32 quaternions: composed TRS matrices are orthogonal to ~1e-7, a sheared hierarchy
 * (non-uniform scale under a rotated parent) typically by 1e-2 and more.
 */
export const SHEAR_TOLERANCE = 1e-5;
/** Scale factors that must agree (a sphere's three, the two across a capsule's radius) may differ by this, relative. */
export const UNIFORM_SCALE_TOLERANCE = 1e-5;

export const IDENTITY_QUAT: Quat = [0, 0, 0, 1];

/** Unit quaternion; a zero (or non-finite) one resolves to identity, as the contract says. */
export function normalizeQuat(q: readonly number[]): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(n > 0) || !Number.isFinite(n)) return [...IDENTITY_QUAT];
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** 3×3 rotation matrix of a unit quaternion, column-major (m[3c + r]). */
export function quatToMat3(q: Quat): Float64Array {
  const [x, y, z, w] = q;
  const m = new Float64Array(9);
  m[0] = 1 - 2 * (y * y + z * z);
  m[1] = 2 * (x * y + z * w);
  m[2] = 2 * (x * z - y * w);
  m[3] = 2 * (x * y - z * w);
  m[4] = 1 - 2 * (x * x + z * z);
  m[5] = 2 * (y * z + x * w);
  m[6] = 2 * (x * z + y * w);
  m[7] = 2 * (y * z - x * w);
  m[8] = 1 - 2 * (x * x + y * y);
  return m;
}

/** Unit quaternion of a rotation matrix (column-major), w ≥ 0 (one canonical sign, so output is deterministic). */
export function mat3ToQuat(m: ArrayLike<number>): Quat {
  const m00 = m[0], m10 = m[1], m20 = m[2], m01 = m[3], m11 = m[4], m21 = m[5], m02 = m[6], m12 = m[7], m22 = m[8];
  const tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s];
  }
  if (q[3] < 0) q = [-q[0], -q[1], -q[2], -q[3]];
  return normalizeQuat(q);
}

export function quatMul(a: Quat, b: Quat): Quat {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** Rotates v by the rotation matrix m (column-major 3×3). */
export function rotate(m: ArrayLike<number>, v: readonly number[]): Vec3 {
  return [m[0] * v[0] + m[3] * v[1] + m[6] * v[2], m[1] * v[0] + m[4] * v[1] + m[7] * v[2], m[2] * v[0] + m[5] * v[1] + m[8] * v[2]];
}

/** The frame's +Y: a capsule's, cylinder's or cone's axis. */
export const frameAxis = (q: Quat): Vec3 => {
  const m = quatToMat3(q);
  return [m[3], m[4], m[5]];
};

/** Rotation taking +Y to the unit vector `a` (the shortest arc; a = −Y turns about +X). */
export function quatFromYTo(a: readonly number[]): Quat {
  const n = Math.hypot(a[0], a[1], a[2]);
  const x = a[0] / n, y = a[1] / n, z = a[2] / n;
  if (y < -1 + 1e-12) return [1, 0, 0, 0];
  // q = (Y × a, 1 + Y·a), normalised.
  return normalizeQuat([z, 0, 0 - x, 1 + y]);
}

/** The linear 3×3 (column-major) and translation of a 4×4 column-major matrix. */
export function splitAffine(m: ArrayLike<number>): { linear: Float64Array; translation: Vec3 } {
  return { linear: Float64Array.from([m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]]), translation: [m[12], m[13], m[14]] };
}

/**
 * linear = rotation · diag(scale), scale > 0; refuses shear (columns not perpendicular within SHEAR_TOLERANCE) and
 * a collapsed axis. A mirroring transform (det < 0) is returned with `mirrored` set and the rotation of
 * linear · diag(−1, 1, 1): every family is symmetric across its frame's x = 0 plane, so a mirrored primitive is the
 * same primitive in that frame (**decision**, docs/format-decisions.md "Shapes").
 */
export function rigidScale(linear: ArrayLike<number>, where: string): { rotation: Float64Array; scale: Vec3; mirrored: boolean } {
  const c = [0, 1, 2].map((k) => [linear[3 * k], linear[3 * k + 1], linear[3 * k + 2]]);
  const s = c.map((v) => Math.hypot(v[0], v[1], v[2])) as Vec3;
  const smax = Math.max(...s);
  if (!s.every((v) => Number.isFinite(v) && v > smax * 1e-12 && v > 0)) {
    throw new Error(`shapes: ${where}: the transform collapses the shape (scale ${s.map(fmt).join(', ')}); a shape needs a strictly positive scale`);
  }
  const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  for (const [i, j] of [[0, 1], [0, 2], [1, 2]]) {
    const cos = dot(c[i], c[j]) / (s[i] * s[j]);
    if (Math.abs(cos) > SHEAR_TOLERANCE) {
      const deg = (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
      throw new Error(
        `shapes: ${where}: the transform shears the shape (its ${'xyz'[i]} and ${'xyz'[j]} axes meet at ${deg.toFixed(3)}°, not 90°; ` +
          'typically a non-uniform scale under a rotated parent): apply the transform to the mesh, or use triangle_mesh',
      );
    }
  }
  const r = new Float64Array(9);
  for (let k = 0; k < 3; k++) for (let a = 0; a < 3; a++) r[3 * k + a] = c[k][a] / s[k];
  const det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[3] * (r[1] * r[8] - r[2] * r[7]) + r[6] * (r[1] * r[5] - r[2] * r[4]);
  const mirrored = det < 0;
  if (mirrored) for (let a = 0; a < 3; a++) r[a] = -r[a];
  return { rotation: r, scale: s, mirrored };
}

const fmt = (v: number): string => (Math.abs(v) >= 1e-3 && Math.abs(v) < 1e6 ? String(Number(v.toPrecision(6))) : v.toExponential(3));

/**
 * A primitive given in a node's local frame, placed by the node's world matrix (4×4 column-major). The rotation and
 * scale are taken on the primitive's own frame (world linear · local rotation), so the shear test and the scale
 * rules apply to the shape's axes: a box takes any positive diagonal scale, a capsule, cylinder or cone the same
 * scale across its radius (length scales along the axis), a sphere a uniform one. Anything else is refused with
 * `where` named. The result is checked (checkPrimitive).
 */
export function placePrimitive(local: Primitive, world: ArrayLike<number>, where: string): Primitive {
  checkPrimitive(local, where);
  const { linear, translation } = splitAffine(world);
  const frame = quatToMat3(local.rotation);
  const composed = new Float64Array(9);
  for (let k = 0; k < 3; k++) composed.set(rotate(linear, [frame[3 * k], frame[3 * k + 1], frame[3 * k + 2]]), 3 * k);
  const { rotation, scale } = rigidScale(composed, where);
  const c = rotate(linear, local.centre);
  const centre: Vec3 = [c[0] + translation[0], c[1] + translation[1], c[2] + translation[2]];
  const q = mat3ToQuat(rotation);
  const same = (a: number, b: number): boolean => Math.abs(a - b) <= UNIFORM_SCALE_TOLERANCE * Math.max(a, b);
  const scaleText = scale.map(fmt).join(', ');
  let placed: Primitive;
  switch (local.family) {
    case 'box':
      placed = { family: 'box', centre, rotation: q, halfExtents: [local.halfExtents[0] * scale[0], local.halfExtents[1] * scale[1], local.halfExtents[2] * scale[2]] };
      break;
    case 'sphere':
      if (!same(scale[0], scale[1]) || !same(scale[0], scale[2])) {
        throw new Error(`shapes: ${where}: sphere under a non-uniform scale (${scaleText}) would be an ellipsoid; scale it uniformly, or use hull`);
      }
      placed = { family: 'sphere', centre, rotation: q, radius: local.radius * Math.max(...scale) };
      break;
    default:
      if (!same(scale[0], scale[2])) {
        throw new Error(
          `shapes: ${where}: ${local.family} under a scale that differs across its radius (${fmt(scale[0])} and ${fmt(scale[2])}; along the axis ${fmt(scale[1])}) would be elliptic; scale it evenly across the axis, or use hull`,
        );
      }
      placed = { family: local.family, centre, rotation: q, radius: local.radius * Math.max(scale[0], scale[2]), length: local.length * scale[1] };
  }
  checkPrimitive(placed, where);
  return placed;
}

/** The exact axis-aligned bounds of a primitive. */
export function primitiveBounds(p: Primitive): Aabb {
  const c = p.centre;
  const m = quatToMat3(p.rotation);
  let lo: Vec3, hi: Vec3;
  if (p.family === 'sphere') {
    lo = [c[0] - p.radius, c[1] - p.radius, c[2] - p.radius];
    hi = [c[0] + p.radius, c[1] + p.radius, c[2] + p.radius];
  } else if (p.family === 'box') {
    const e = [0, 1, 2].map((i) => Math.abs(m[i]) * p.halfExtents[0] + Math.abs(m[3 + i]) * p.halfExtents[1] + Math.abs(m[6 + i]) * p.halfExtents[2]);
    lo = [c[0] - e[0], c[1] - e[1], c[2] - e[2]];
    hi = [c[0] + e[0], c[1] + e[1], c[2] + e[2]];
  } else {
    const a = [m[3], m[4], m[5]];
    const h = p.length / 2;
    const disc = a.map((ai) => p.radius * Math.sqrt(Math.max(0, 1 - ai * ai)));
    lo = [0, 0, 0];
    hi = [0, 0, 0];
    for (let i = 0; i < 3; i++) {
      const top = c[i] + h * a[i], bottom = c[i] - h * a[i];
      if (p.family === 'capsule') {
        lo[i] = Math.min(top, bottom) - p.radius;
        hi[i] = Math.max(top, bottom) + p.radius;
      } else if (p.family === 'cylinder') {
        lo[i] = Math.min(top, bottom) - disc[i];
        hi[i] = Math.max(top, bottom) + disc[i];
      } else {
        lo[i] = Math.min(top, bottom - disc[i]);
        hi[i] = Math.max(top, bottom + disc[i]);
      }
    }
  }
  return { min: lo, max: hi };
}
