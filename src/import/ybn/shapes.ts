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
    case KIND.capsule: {
      const half = b.capsuleHalfHeight ?? Math.max(0, b.sphereRadius - b.margin);
      return valid({ family: 'capsule', centre: c, rotation: ID, radius: b.margin, length: 2 * half });
    }
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

/**
 * Why a standalone primitive bound has no volume (boundPrimitive gave none), in the file's own terms: a capsule's
 * radius and a disc's half thickness are the margin, so a margin of 0 leaves nothing to collide with.
 */
export function noVolumeReason(b: BoundHeader): string {
  const ext = sub(b.boxMax, b.boxMin).map(Math.abs);
  const nums = `radius ${b.sphereRadius}, margin ${b.margin}, box ${b.boxMin.join(' ')} .. ${b.boxMax.join(' ')}`;
  switch (b.kind) {
    case KIND.capsule:
      if (!(b.margin > 0)) return `margin ${b.margin}: a capsule bound's radius is its margin, so it has no volume (${nums})`;
      break;
    case KIND.disc:
      if (!(b.margin > 0)) return `margin ${b.margin}: a disc bound's half thickness is its margin, so it has no volume (${nums})`;
      if (!(b.sphereRadius > 0)) return `bounding-sphere radius ${b.sphereRadius}: a disc bound's radius is it, so it has no volume (${nums})`;
      break;
    case KIND.sphere:
      if (!(b.sphereRadius > 0)) return `bounding-sphere radius ${b.sphereRadius}: a sphere bound's radius is it, so it has no volume (${nums})`;
      break;
    case KIND.box:
      if (!ext.every((e) => e > 0)) return `box ${b.boxMin.join(' ')} .. ${b.boxMax.join(' ')} is flat (extent ${ext.join(' × ')} m): no volume`;
      break;
    case KIND.cylinder:
      if (!(ext[0] > 0 && ext[1] > 0)) return `box ${b.boxMin.join(' ')} .. ${b.boxMax.join(' ')}: a cylinder bound's diameter is its X extent and its length its Y extent (${ext[0]} × ${ext[1]} m): no volume`;
      break;
  }
  return `no volume or not finite (${nums})`;
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
 * p1 are e1 = ((p3 + p4) − (p1 + p2)) / 2, e2 = p3 − p1 − e1, e3 = p4 − p1 − e1 (CodeWalker's reading). Four
 * points fix a parallelepiped exactly; the stored corners are quantized (or f32), so its edges are not quite
 * perpendicular and must be squared. They are squared longest first (Gram-Schmidt longest → middle → shortest):
 * a long edge's direction is the best known (noise / length), so the frame taken from it moves no corner by more
 * than about the noise itself. (Taking the frame from e1 whatever its length let a 2 cm kerb side's noise turn a
 * 56 m box by 4°, moving its far corners 3.6 m.) `misfit`: the largest distance, metres, from a stored corner to
 * the written box's corner that stands for it; the caller compares it with the corners' precision (boxTolerance).
 */
export function fitBox(p1: Vec3, p2: Vec3, p3: Vec3, p4: Vec3): { box: Primitive | undefined; misfit: number } {
  const e1 = scale(sub(add(p3, p4), add(p1, p2)), 0.5);
  const e = [e1, sub(sub(p3, p1), e1), sub(sub(p4, p1), e1)];
  const centre = add(p1, scale(add(add(e[0], e[1]), e[2]), 0.5));
  const order = [0, 1, 2].sort((a, b) => len(e[b]) - len(e[a]) || a - b);
  const [a, b, c] = order.map((k) => e[k]);
  const la = len(a);
  if (!(la > 0)) return { box: undefined, misfit: Infinity };
  const ua = scale(a, 1 / la);
  const rb = sub(b, scale(ua, dot(b, ua)));
  const lb = len(rb);
  if (!(lb > 0)) return { box: undefined, misfit: Infinity };
  const ub = scale(rb, 1 / lb);
  const uc = cross(ua, ub);
  const rc = scale(uc, dot(c, uc));
  // Each stored corner is centre ± e_k/2 (p1: − − −, p2: − + +, p3: + + −, p4: + − +), so its written corner is
  // off by ± the halves of what squaring removed from each edge.
  const fitted: Vec3[] = [];
  fitted[order[0]] = a;
  fitted[order[1]] = rb;
  fitted[order[2]] = rc;
  const d = [0, 1, 2].map((k) => scale(sub(fitted[k], e[k]), 0.5));
  let misfit = 0;
  for (const s of [[-1, -1, -1], [-1, 1, 1], [1, 1, -1], [1, -1, 1]]) {
    misfit = Math.max(misfit, len(add(add(scale(d[0], s[0]), scale(d[1], s[1])), scale(d[2], s[2]))));
  }
  const h: Vec3 = [la / 2, lb / 2, Math.abs(dot(c, uc)) / 2];
  return { box: valid({ family: 'box', centre, rotation: mat3ToQuat([...ua, ...ub, ...uc]), halfExtents: h }), misfit };
}

/** fitBox's box alone (the caller does not check the fit). */
export const boxPolygon = (p1: Vec3, p2: Vec3, p3: Vec3, p4: Vec3): Primitive | undefined => fitBox(p1, p2, p3, p4).box;
