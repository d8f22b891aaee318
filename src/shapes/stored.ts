// Stored native records (the to-gltf round trip of --native-shapes outputs): the sk8_shape forms to-gltf writes
// (src/export/gltf.ts) for kind-2 boxes and kind-3 convex parts, holding the f32 values the PhysicsResource stores,
// so that a recompile with --native-shapes writes the same record again instead of fitting one to the mesh (a fit
// from the written triangles gives other floats). Object-local like every sk8_shape:
// - box: `{ "type": "box", "halfExtents": [hx, hy, hz], "rotation": [x, y, z, w], "stored": true }` (centre
//   optional): the primitive spec of src/shapes/spec.ts with `stored`, which says the numbers are written as they
//   are (no normalisation of the rotation) when the node's world matrix is a translation;
// - hull: `{ "type": "hull", "vertices": [x0, y0, z0, x1, …], "faces": [[0, 1, 2, 3], …] }` (centre optional): the
//   kind-3 shape's stored vertices (relative to the part position, the node's origin + centre) and its polygon
//   faces over them, wound outward;
// - convex_parts: `{ "type": "convex_parts", "parts": [null, { "vertices": …, "faces": …, "centre": … }, …] }`:
//   per connected part of the mesh in declaration order (src/shapes/convex.ts), null (built from the mesh as
//   usual) or the kind-3 record that part is written as.
// Under a world matrix that is not a plain translation the record is placed (vertices transformed, then recentred
// and its planes computed again as for a hull, src/shapes/native.ts), so moving or turning the node in an editor
// moves the shape. Without --native-shapes a hull record's vertices are the hull's points and convex_parts records are
// not used. A mesh that no longer spans its record (src/shapes/build.ts spansRecord) is built from instead.
import { nativeBox, nativeConvex, storedConvex, type NativeShape } from './native.ts';
import { parseShapeSpec } from './spec.ts';
import type { Quat, Vec3 } from './types.ts';

/** The sk8_shape types that carry stored native records, by the mode they belong to. */
export const STORED_SHAPE_TYPES = ['hull', 'convex_parts'] as const;

/** A kind-3 record: vertices relative to centre (xyz), polygon faces over them. */
export interface StoredConvex {
  centre: Vec3;
  vertices: number[];
  faces: number[][];
}

export type StoredSpec = { type: 'hull'; convex: StoredConvex } | { type: 'convex_parts'; parts: (StoredConvex | null)[] };

const HULL_KEYS = ['type', 'vertices', 'faces', 'centre'];
const PARTS_KEYS = ['type', 'parts'];
const PART_KEYS = ['vertices', 'faces', 'centre'];

/** The type of an sk8_shape value when it is a hull or convex_parts record (else undefined; nothing is checked then). */
export function storedSpecType(raw: unknown): 'hull' | 'convex_parts' | undefined {
  const v = asObject(raw);
  const t = v && typeof v.type === 'string' ? v.type.trim().toLowerCase() : undefined;
  return t === 'hull' || t === 'convex_parts' ? t : undefined;
}

function asObject(raw: unknown): Record<string, unknown> | undefined {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Parses a hull or convex_parts sk8_shape. Throws `shapes: <where>: sk8_shape ...` naming what is wrong. */
export function parseStoredSpec(raw: unknown, where: string): StoredSpec {
  const fail = (m: string): never => {
    throw new Error(`shapes: ${where}: sk8_shape ${m}`);
  };
  const o = asObject(raw) ?? fail(`${JSON.stringify(raw)} is not an object`);
  const type = storedSpecType(o) ?? fail(`type ${JSON.stringify(o.type)} is not hull or convex_parts`);
  const keys = type === 'hull' ? HULL_KEYS : PARTS_KEYS;
  for (const k of Object.keys(o)) if (!keys.includes(k)) fail(`key "${k}" is not read for a ${type} (keys: ${keys.join(', ')})`);
  if (type === 'hull') return { type, convex: convexRecord(o, fail, '') };
  if (!Array.isArray(o.parts) || o.parts.length === 0) return fail(`parts ${JSON.stringify(o.parts)} is not a list of null or kind-3 records`);
  return {
    type,
    parts: o.parts.map((p, i) => {
      if (p === null) return null;
      const r = asObject(p) ?? fail(`parts[${i}] is not null or an object`);
      for (const k of Object.keys(r)) if (!PART_KEYS.includes(k)) fail(`parts[${i}]: key "${k}" is not read (keys: ${PART_KEYS.join(', ')})`);
      return convexRecord(r, fail, `parts[${i}]: `);
    }),
  };
}

function convexRecord(o: Record<string, unknown>, fail: (m: string) => never, at: string): StoredConvex {
  const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  const v = o.vertices;
  if (!Array.isArray(v) || v.length < 12 || v.length % 3 !== 0 || !v.every(finite)) fail(`${at}vertices is not a flat list of at least 4 xyz points (finite numbers)`);
  const nv = (v as number[]).length / 3;
  const f = o.faces;
  if (!Array.isArray(f) || f.length < 4) return fail(`${at}faces is not a list of at least 4 polygons`);
  f.forEach((face, i) => {
    if (!Array.isArray(face) || face.length < 3 || !face.every((x) => Number.isInteger(x) && x >= 0 && x < nv)) {
      fail(`${at}faces[${i}] ${JSON.stringify(face)} is not a polygon of 3 or more vertex numbers below ${nv}`);
    }
  });
  let centre: Vec3 = [0, 0, 0];
  if (o.centre !== undefined) {
    if (!Array.isArray(o.centre) || o.centre.length !== 3 || !o.centre.every(finite)) fail(`${at}centre ${JSON.stringify(o.centre)} is not 3 numbers`);
    centre = o.centre as Vec3;
  }
  return { centre, vertices: v as number[], faces: f as number[][] };
}

/** The world matrix (4×4 column-major) is a plain translation: the stored values are then kept as they are. */
export function isTranslation(m: ArrayLike<number>): boolean {
  for (let c = 0; c < 3; c++) for (let r = 0; r < 4; r++) if (m[4 * c + r] !== (c === r ? 1 : 0)) return false;
  return m[15] === 1;
}

/**
 * The kind-3 part of a record under `world`: with a translation, position f32(origin + centre) and the vertices as
 * stored; otherwise the vertices placed (f32) and made a hull part again (recentred, planes computed, faces turned
 * round under a mirroring matrix). Throws `shapes: <where>: ...` from nativeConvex.
 */
export function storedConvexPart(r: StoredConvex, world: ArrayLike<number>, where: string): NativeShape {
  if (isTranslation(world)) {
    const position: Vec3 = [world[12] + r.centre[0], world[13] + r.centre[1], world[14] + r.centre[2]];
    return storedConvex(Float32Array.from(r.vertices), r.faces, position, where);
  }
  const points = storedPoints(r, world);
  const faces = det3(world) < 0 ? r.faces.map((f) => [...f].reverse()) : r.faces;
  const offsets = [0];
  for (const f of faces) offsets.push(offsets[offsets.length - 1] + f.length);
  return nativeConvex(points, offsets, faces.flat(), where);
}

/** The record's vertices placed by `world` (f32): a hull's points without --native-shapes. */
export function storedPoints(r: StoredConvex, world: ArrayLike<number>): Float32Array {
  const nv = r.vertices.length / 3;
  const points = new Float32Array(3 * nv);
  for (let i = 0; i < nv; i++) {
    const x = r.centre[0] + r.vertices[3 * i], y = r.centre[1] + r.vertices[3 * i + 1], z = r.centre[2] + r.vertices[3 * i + 2];
    for (let j = 0; j < 3; j++) points[3 * i + j] = world[j] * x + world[4 + j] * y + world[8 + j] * z + world[12 + j];
  }
  return points;
}

function det3(m: ArrayLike<number>): number {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
}

/**
 * A box sk8_shape with `stored: true` as its raw numbers (centre, rotation, half-extents; checked by parseShapeSpec
 * first), or undefined when it is not one.
 */
export function storedBoxSpec(raw: unknown, where: string): { centre: Vec3; rotation: Quat; half: Vec3 } | undefined {
  const o = asObject(raw);
  if (!o || o.stored !== true) return undefined;
  const p = parseShapeSpec(raw, where);
  if (p.family !== 'box') return undefined;
  const nums = (a: unknown): number[] => (a as unknown[]).map((x) => (typeof x === 'string' ? Number(x) : (x as number)));
  const rotation = o.rotation !== undefined ? (nums(o.rotation) as Quat) : p.rotation;
  // A zero quaternion is identity to parseShapeSpec; as stored it is not a rotation to keep.
  if (rotation.every((x) => x === 0)) return undefined;
  return { centre: p.centre, rotation, half: o.halfExtents !== undefined ? (nums(o.halfExtents) as Vec3) : p.halfExtents };
}

/** A stored box under a translation: nativeBox of the values as given (f32), no normalisation. */
export function storedBox(b: { centre: Vec3; rotation: Quat; half: Vec3 }, world: ArrayLike<number>): NativeShape {
  return nativeBox([world[12] + b.centre[0], world[13] + b.centre[1], world[14] + b.centre[2]], b.rotation, b.half);
}
