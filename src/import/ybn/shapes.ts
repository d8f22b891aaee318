// YBN primitives → the shape layer's primitives (src/shapes/: canonical frames, +Y axis, full length), in the
// bound's own space (GTA V, Z up); objects.ts tessellates them with the shape layer and places the mesh.
// Sizes as CodeWalker reads each kind's header fields (ybn-bounds.md names the fields; their meaning per kind is
// CodeWalker's): a capsule bound has radius = margin and runs along local Y with half segment = bounding-sphere
// radius − margin; a cylinder bound runs along Y, radius half the box's X extent, length its Y extent; a disc runs
// along X, radius the bounding-sphere radius, half thickness the margin. Polygon primitives name their vertices:
// a sphere's centre, a capsule's or cylinder's two end centres, a box's four corners pairwise not sharing an edge.
import { checkPrimitive, quatFromYTo, type Primitive, type Quat, type Vec3 } from '../../shapes/index.ts';
import { mat3ToQuat } from '../../shapes/frame.ts';
import { KIND, type BoundHeader } from './model.ts';

const ID: Quat = [0, 0, 0, 1];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a: Vec3): number => Math.sqrt(dot(a, a));

/** The shape, or undefined when it has no volume (or is not finite): the caller warns and skips it. */
function valid(p: Primitive): Primitive | undefined {
  try {
    checkPrimitive(p, 'ybn');
    return p;
  } catch {
    return undefined;
  }
}

/** A standalone primitive bound (kinds 0, 1, 3, 12, 13). */
export function boundPrimitive(b: BoundHeader): Primitive | undefined {
  const c: Vec3 = [...b.sphereCentre];
  const ext = sub(b.boxMax, b.boxMin).map(Math.abs) as Vec3;
  switch (b.kind) {
    case KIND.sphere:
      return valid({ family: 'sphere', centre: c, rotation: ID, radius: b.sphereRadius });
    case KIND.capsule:
      return valid({ family: 'capsule', centre: c, rotation: ID, radius: b.margin, length: 2 * Math.max(0, b.sphereRadius - b.margin) });
    case KIND.box:
      return valid({ family: 'box', centre: scale(add(b.boxMin, b.boxMax), 0.5), rotation: ID, halfExtents: scale(ext, 0.5) });
    case KIND.cylinder:
      return valid({ family: 'cylinder', centre: c, rotation: ID, radius: ext[0] / 2, length: ext[1] });
    case KIND.disc:
      return valid({ family: 'cylinder', centre: c, rotation: quatFromYTo([1, 0, 0]), radius: b.sphereRadius, length: 2 * b.margin });
    default:
      return undefined;
  }
}

/** A capsule or cylinder polygon between two end centres. */
export function axialPolygon(family: 'capsule' | 'cylinder', a: Vec3, b: Vec3, radius: number): Primitive | undefined {
  const d = sub(b, a);
  const length = len(d);
  const rotation = length > 0 ? quatFromYTo(d) : ID;
  return valid({ family, centre: scale(add(a, b), 0.5), rotation, radius, length });
}

export function spherePolygon(centre: Vec3, radius: number): Primitive | undefined {
  return valid({ family: 'sphere', centre, rotation: ID, radius });
}

/**
 * A box polygon from its four corners p1..p4 (pairwise apart: the other corners are p1 + e1, …): the edges from
 * p1 are e1 = ((p3 + p4) − (p1 + p2)) / 2, e2 = p3 − p1 − e1, e3 = p4 − p1 − e1 (CodeWalker's reading). Edges that
 * are not quite perpendicular (f32 corners) are made so, e1 first, as CodeWalker and Sollumz do.
 */
export function boxPolygon(p1: Vec3, p2: Vec3, p3: Vec3, p4: Vec3): Primitive | undefined {
  const e1 = scale(sub(add(p3, p4), add(p1, p2)), 0.5);
  const e2 = sub(sub(p3, p1), e1);
  const e3 = sub(sub(p4, p1), e1);
  const centre = add(p1, scale(add(add(e1, e2), e3), 0.5));
  const l1 = len(e1);
  if (!(l1 > 0)) return undefined;
  const u1 = scale(e1, 1 / l1);
  const r2 = sub(e2, scale(u1, dot(e2, u1)));
  const l2 = len(r2);
  if (!(l2 > 0)) return undefined;
  const u2 = scale(r2, 1 / l2);
  const u3 = cross(u1, u2); // right-handed frame; a box is symmetric, so e3's sign does not matter
  const h: Vec3 = [l1 / 2, l2 / 2, Math.abs(dot(e3, u3)) / 2];
  return valid({ family: 'box', centre, rotation: mat3ToQuat([...u1, ...u2, ...u3]), halfExtents: h });
}
