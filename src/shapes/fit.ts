// Fitting a primitive family to an object's mesh in the object's local frame (the families and frames of
// ../shared/spec/collider-shape-contract.md "3D Shape Families"). The frame is the node's rotation and
// translation; the node's scale stays in the coordinates (positive diagonal scale applied, shear refused before
// this is called), so the fit sees the mesh as it stands in the level:
// - box: the local bounds;
// - sphere: the bounds' centre and largest half-extent;
// - capsule, cylinder: along the longest local axis (ties: y, then x, then z), radius the larger of the other two
//   half-extents; a capsule's cylindrical length is that axis's extent less 2 · radius (0 at least: the sphere limit);
// - cone: base to apex along local +Y (base at the bounds' bottom), radius the larger of the x and z half-extents.
import { mat3ToQuat, normalizeQuat, quatFromYTo, quatMul, rotate } from './frame.ts';
import { checkPrimitive, type Primitive, type PrimitiveFamily, type Quat, type Vec3 } from './types.ts';

/** A rigid frame: rotation (3×3 column-major, proper) and translation. */
export interface RigidFrame {
  rotation: ArrayLike<number>;
  translation: Vec3;
}

/** Axis order for ties of the longest extent: y first (upright bollards and posts are the common case). */
const AXIS_PREFERENCE = [1, 0, 2] as const;
const AXIS_TO: Record<number, Vec3> = { 0: [1, 0, 0], 1: [0, 1, 0], 2: [0, 0, 1] };

/**
 * Bounds, in `frame`, of the vertices the triangles use (float64). Throws when no triangle is given.
 */
export function frameBounds(positions: ArrayLike<number>, indices: ArrayLike<number>, frame: RigidFrame, where: string): { min: Vec3; max: Vec3 } {
  if (indices.length === 0) throw new Error(`shapes: ${where}: no triangles to fit a shape to`);
  const r = frame.rotation, t = frame.translation;
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < indices.length; k++) {
    const v = indices[k];
    const x = positions[3 * v] - t[0], y = positions[3 * v + 1] - t[1], z = positions[3 * v + 2] - t[2];
    // q = Rᵀ (p − t): the rows of Rᵀ are R's columns.
    const q = [r[0] * x + r[1] * y + r[2] * z, r[3] * x + r[4] * y + r[5] * z, r[6] * x + r[7] * y + r[8] * z];
    for (let a = 0; a < 3; a++) {
      if (q[a] < min[a]) min[a] = q[a];
      if (q[a] > max[a]) max[a] = q[a];
    }
  }
  return { min, max };
}

/** Fits `family` to the mesh (world positions, triangle indices) in `frame`; the result is in world space. */
export function fitPrimitive(family: PrimitiveFamily, positions: ArrayLike<number>, indices: ArrayLike<number>, frame: RigidFrame, where: string): Primitive {
  const { min, max } = frameBounds(positions, indices, frame, where);
  const c: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const half: Vec3 = [(max[0] - min[0]) / 2, (max[1] - min[1]) / 2, (max[2] - min[2]) / 2];
  let local: Primitive;
  switch (family) {
    case 'box':
      local = { family, centre: c, rotation: [0, 0, 0, 1], halfExtents: half };
      break;
    case 'sphere':
      local = { family, centre: c, rotation: [0, 0, 0, 1], radius: Math.max(...half) };
      break;
    case 'cone':
      local = { family, centre: c, rotation: [0, 0, 0, 1], radius: Math.max(half[0], half[2]), length: 2 * half[1] };
      break;
    default: {
      let axis: number = AXIS_PREFERENCE[0];
      for (const a of AXIS_PREFERENCE) if (half[a] > half[axis]) axis = a;
      const others = [0, 1, 2].filter((a) => a !== axis);
      const radius = Math.max(half[others[0]], half[others[1]]);
      const length = family === 'capsule' ? Math.max(0, 2 * half[axis] - 2 * radius) : 2 * half[axis];
      local = { family, centre: c, rotation: quatFromYTo(AXIS_TO[axis]), radius, length };
    }
  }
  try {
    checkPrimitive(local, where);
  } catch (e) {
    throw new Error(`${(e as Error).message} (fitted to the mesh's local bounds ${fmtV(min)} … ${fmtV(max)}: it is flat or empty along an axis)`);
  }
  const frameQ: Quat = mat3ToQuat(frame.rotation);
  const w = rotate(frame.rotation, local.centre);
  return { ...local, centre: [w[0] + frame.translation[0], w[1] + frame.translation[1], w[2] + frame.translation[2]], rotation: normalizeQuat(quatMul(frameQ, local.rotation)) } as Primitive;
}

const fmtV = (v: readonly number[]): string => `(${v.map((x) => Number(x.toPrecision(6))).join(', ')})`;
