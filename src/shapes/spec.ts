// Explicit primitive parameters: the `sk8_shape` custom property (glTF extras; also as a JSON string, how some
// exporters write dict properties), object-local, in the families and frames of
// ../shared/spec/collider-shape-contract.md "3D Shape Families":
//   { "type": "capsule", "radius": 0.25, "length": 1.0, "axis": "y", "centre": [0, 0.75, 0] }
// Keys: type (sphere | capsule | box | cylinder | cone); centre (or center), default [0, 0, 0]; rotation, a
// quaternion [x, y, z, w] (a zero one is identity), or axis ("x", "-z", …, or a vector) taking the frame's +Y there —
// not both; sphere: radius; capsule: radius, length (the cylindrical part, between the hemisphere centres);
// cylinder: radius, length (or height); cone: radius, height (or length), base to apex along the axis; box: size
// (full edges) or halfExtents, and `stored` (SHAPE_SPEC_STORED). Unknown keys are refused (a typo would otherwise be
// silently ignored). The hull and convex_parts records to-gltf writes are src/shapes/stored.ts's.
import { normalizeQuat, quatFromYTo } from './frame.ts';
import { checkPrimitive, isPrimitiveFamily, PRIMITIVE_FAMILIES, type Primitive, type Quat, type Vec3 } from './types.ts';

/** The keys sk8_shape reads per family (besides COMMON); the Blender add-on's shape fields are generated from them. */
export const SHAPE_SPEC_KEYS: Record<string, readonly string[]> = {
  sphere: ['radius'],
  capsule: ['radius', 'length'],
  cylinder: ['radius', 'length', 'height'],
  cone: ['radius', 'height', 'length'],
  box: ['size', 'halfExtents'],
};
export const SHAPE_SPEC_COMMON = ['type', 'centre', 'center', 'rotation', 'axis'];
/**
 * A box's `stored: true`: its numbers are a PhysicsResource's f32 values (to-gltf writes it, src/shapes/stored.ts):
 * under a node whose world matrix is a translation they are written as they are, the rotation not normalised. Not
 * one of the add-on's fields (SHAPE_SPEC_KEYS), so it is not offered for editing.
 */
export const SHAPE_SPEC_STORED = 'stored';

/** Parses an sk8_shape value into a local primitive. Throws `shapes: <where>: sk8_shape ...` naming what is wrong. */
export function parseShapeSpec(raw: unknown, where: string): Primitive {
  const fail = (m: string): never => {
    throw new Error(`shapes: ${where}: sk8_shape ${m}`);
  };
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      fail(`${JSON.stringify(raw)} is not valid JSON`);
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(`${JSON.stringify(raw)} is not an object`);
  const o = v as Record<string, unknown>;
  const type = typeof o.type === 'string' ? o.type.trim().toLowerCase() : undefined;
  if (!type || !isPrimitiveFamily(type)) return fail(`type ${JSON.stringify(o.type)} is not one of ${PRIMITIVE_FAMILIES.join(', ')}`);
  for (const k of Object.keys(o)) if (!SHAPE_SPEC_COMMON.includes(k) && !SHAPE_SPEC_KEYS[type].includes(k) && !(type === 'box' && k === SHAPE_SPEC_STORED)) fail(`key "${k}" is not read for a ${type} (keys: ${[...SHAPE_SPEC_COMMON, ...SHAPE_SPEC_KEYS[type]].join(', ')})`);
  const num = (k: string, value: unknown = o[k]): number => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) return fail(`${k} ${JSON.stringify(value)} is not a finite number`);
    return n;
  };
  const vec = (k: string, len: number): number[] => {
    const a = o[k];
    if (!Array.isArray(a) || a.length !== len) return fail(`${k} ${JSON.stringify(a)} is not ${len} numbers`);
    return a.map((x, i) => num(`${k}[${i}]`, x));
  };
  const need = (...keys: string[]): string => {
    const k = keys.find((x) => o[x] !== undefined);
    return k ?? fail(`needs ${keys.join(' or ')} for a ${type}`);
  };
  if (o.stored !== undefined && o.stored !== true && o.stored !== false) fail(`stored ${JSON.stringify(o.stored)} is not true or false`);
  if (o.centre !== undefined && o.center !== undefined) fail('gives both centre and center');
  const centre = (o.centre !== undefined ? vec('centre', 3) : o.center !== undefined ? vec('center', 3) : [0, 0, 0]) as Vec3;
  if (o.rotation !== undefined && o.axis !== undefined) fail('gives both rotation and axis');
  let rotation: Quat = [0, 0, 0, 1];
  if (o.rotation !== undefined) rotation = normalizeQuat(vec('rotation', 4));
  else if (o.axis !== undefined) rotation = quatFromYTo(axisVector(o.axis, fail));
  let p: Primitive;
  if (type === 'box') {
    const k = need('size', 'halfExtents');
    const v3 = vec(k, 3);
    p = { family: 'box', centre, rotation, halfExtents: (k === 'size' ? v3.map((x) => x / 2) : v3) as Vec3 };
  } else if (type === 'sphere') {
    p = { family: 'sphere', centre, rotation, radius: num(need('radius')) };
  } else {
    const lengthKey = type === 'capsule' ? need('length') : type === 'cone' ? need('height', 'length') : need('length', 'height');
    if (type !== 'capsule' && o.length !== undefined && o.height !== undefined) fail('gives both length and height');
    p = { family: type, centre, rotation, radius: num(need('radius')), length: num(lengthKey) };
  }
  checkPrimitive(p, `${where}: sk8_shape`);
  return p;
}

function axisVector(a: unknown, fail: (m: string) => never): Vec3 {
  if (typeof a === 'string') {
    const m = /^\s*([+-]?)([xyz])\s*$/i.exec(a);
    if (!m) return fail(`axis ${JSON.stringify(a)} is not x, y, z (optionally signed) or a vector`);
    const v: Vec3 = [0, 0, 0];
    v['xyz'.indexOf(m[2].toLowerCase())] = m[1] === '-' ? -1 : 1;
    return v;
  }
  if (Array.isArray(a) && a.length === 3 && a.every((x) => typeof x === 'number' && Number.isFinite(x)) && Math.hypot(...(a as number[])) > 0) return a as Vec3;
  return fail(`axis ${JSON.stringify(a)} is not x, y, z (optionally signed) or a non-zero vector`);
}
