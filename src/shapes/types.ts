// The shape layer's data: primitive families with canonical frames, as ../shared/spec/collider-shape-contract.md
// ("3D Shape Families", "Mesh Policy": centre, normalized rigid frame, local axis, full axis length, radius) describes
// them. Every importer (glTF extras, YBN bounds, forge shapes) produces these; src/shapes/ turns them into collision.
// Units are metres; space is whatever the caller says (object-local while fitting, game space once placed).

export type Vec3 = [number, number, number];
/** Quaternion x, y, z, w; unit length (normalizeQuat). */
export type Quat = [number, number, number, number];

export const PRIMITIVE_FAMILIES = ['sphere', 'capsule', 'box', 'cylinder', 'cone'] as const;
export type PrimitiveFamily = (typeof PRIMITIVE_FAMILIES)[number];

/**
 * A primitive in its canonical frame. The frame is `rotation` about `centre`; the local axis of capsules,
 * cylinders and cones is the frame's +Y (for a cone: base → apex), as the contract's `Rotation * Vector3d.Up`.
 * - sphere: radius (rotation carried but irrelevant).
 * - box: half-extents along the frame's x, y, z.
 * - capsule: `length` is the full cylindrical axis length between the two hemisphere centres (0: the sphere limit).
 * - cylinder: `length` is the full axis length (flat cap to flat cap), > 0.
 * - cone: `length` is the full height, base to apex; `centre` is the middle of that axis (half way up), so the
 *   base disc is at −length/2 and the apex at +length/2 along the axis.
 */
export type Primitive =
  | { family: 'sphere'; centre: Vec3; rotation: Quat; radius: number }
  | { family: 'box'; centre: Vec3; rotation: Quat; halfExtents: Vec3 }
  | { family: 'capsule' | 'cylinder' | 'cone'; centre: Vec3; rotation: Quat; radius: number; length: number };

export type AxialPrimitive = Extract<Primitive, { family: 'capsule' | 'cylinder' | 'cone' }>;

export const isPrimitiveFamily = (s: string): s is PrimitiveFamily => (PRIMITIVE_FAMILIES as readonly string[]).includes(s);

export interface Aabb {
  min: Vec3;
  max: Vec3;
}

/** Throws `shapes: <where>: ...` unless every number is finite and every size positive (capsule length ≥ 0). */
export function checkPrimitive(p: Primitive, where: string): void {
  const fail = (m: string): never => {
    throw new Error(`shapes: ${where}: ${p.family}: ${m}`);
  };
  if (![...p.centre, ...p.rotation].every(Number.isFinite)) fail(`centre ${JSON.stringify(p.centre)} / rotation ${JSON.stringify(p.rotation)} not finite`);
  if (p.family === 'box') {
    if (!p.halfExtents.every((h) => Number.isFinite(h) && h > 0)) fail(`half-extents ${JSON.stringify(p.halfExtents)} must be finite and > 0`);
    return;
  }
  if (!(Number.isFinite(p.radius) && p.radius > 0)) fail(`radius ${p.radius} must be finite and > 0`);
  if (p.family === 'sphere') return;
  if (!Number.isFinite(p.length)) fail(`length ${p.length} is not finite`);
  if (p.family === 'capsule' ? p.length < 0 : !(p.length > 0)) fail(`length ${p.length} must be ${p.family === 'capsule' ? '≥ 0' : '> 0'}`);
}
