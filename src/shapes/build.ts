// Imported objects with a shape mode → collision objects. Runs after the import, before planning, so the
// tiling and the budget see every primitive and convex part as what it becomes: by default kind-5 meshes (one
// group, so one shape and one geometry, per primitive, hull or convex part), or with --native-shapes kind-2 boxes
// and kind-3 convex parts (`native`, one geometry each). Spheres, capsules, cylinders and cones are kind 5 either
// way (the format has no kind for them). Materials: the object's first group's (authoring-notes.md: "a
// multi-material hull object gives its whole mesh to its first primitive"); a convex part takes its first
// triangle's. Never prints: oddities go to the logger, with the object named.
import type { ImportedObject, Logger, ObjectGroup, ShapeMode, ShapeRequest } from '../model.ts';
import { convexParts } from './convex.ts';
import { fitPrimitive } from './fit.ts';
import { placePrimitive, rigidScale, splitAffine } from './frame.ts';
import { convexHull, type Hull } from './hull.ts';
import { primitiveMesh } from './mesh.ts';
import { nativeBox, nativeConvex, type NativePart, type NativeShape } from './native.ts';
import { parseShapeSpec } from './spec.ts';
import { isTranslation, parseStoredSpec, storedBox, storedBoxSpec, storedConvexPart, storedPoints, type StoredConvex } from './stored.ts';
import { CHORD_ERROR_RANGE, TESSELLATE_DEFAULTS } from './tessellate.ts';
import { isPrimitiveFamily, type Primitive, type PrimitiveFamily, type Vec3 } from './types.ts';

export { SHAPE_MODES, isShapeMode, type ShapeMode, type ShapeRequest } from '../model.ts';

export interface ShapeOptions {
  /** Largest distance between a tessellated primitive and its analytic surface, metres: 0.0001 … 0.5; default 0.005. */
  chordError: number;
  /** Experimental: boxes as kind-2 parts, hulls and convex parts as kind-3 convex polyhedra. Default false (kind 5). */
  nativeShapes: boolean;
  /** A convex part that breaks the convex contract becomes its hull (with a warning) instead of an error. Default false. */
  hullParts: boolean;
}

export const SHAPE_DEFAULTS: ShapeOptions = { chordError: TESSELLATE_DEFAULTS.chordError, nativeShapes: false, hullParts: false };

/** Counts for the report: objects per mode. */
export type ShapeStats = Partial<Record<ShapeMode, number>>;

/**
 * Replaces every object that carries a ShapeRequest by its collision (same name and source); other objects pass
 * through untouched. Throws `shapes: ...`, `hull: ...` or `convex_parts: ...` naming the object.
 */
export function shapeObjects(objects: ImportedObject[], options: Partial<ShapeOptions>, logger: Logger): { objects: ImportedObject[]; stats: ShapeStats } {
  const opt = { ...SHAPE_DEFAULTS, ...options };
  const [lo, hi] = CHORD_ERROR_RANGE;
  if (!(opt.chordError >= lo && opt.chordError <= hi)) throw new Error(`shapes: chord error ${opt.chordError} m is outside ${lo} … ${hi} m`);
  const stats: ShapeStats = {};
  const out = objects.map((o) => {
    if (!o.shape) return o;
    stats[o.shape.mode] = (stats[o.shape.mode] ?? 0) + 1;
    return shapeObject(o, o.shape, opt, logger);
  });
  return { objects: out, stats };
}

/** The object's triangles in declaration order (group by group) and each triangle's material. */
function allTriangles(o: ImportedObject): { tris: Uint32Array; materialOf: (t: number) => number } {
  const n = o.groups.reduce((s, g) => s + g.indices.length, 0);
  const tris = new Uint32Array(n);
  const ends: number[] = [];
  let at = 0;
  for (const g of o.groups) {
    tris.set(g.indices, at);
    at += g.indices.length;
    ends.push(at / 3);
  }
  return { tris, materialOf: (t) => o.groups[ends.findIndex((e) => t < e)].material };
}

function shapeObject(o: ImportedObject, req: ShapeRequest, opt: ShapeOptions, logger: Logger): ImportedObject {
  const where = `object "${o.name}" (${o.source})`;
  const { tris, materialOf } = allTriangles(o);
  const material = o.groups[0]?.material ?? 0x20;
  const base = { name: o.name, source: o.source, ...(o.sourceName !== undefined ? { sourceName: o.sourceName } : {}), kind: 'shape' as const };
  if (isPrimitiveFamily(req.mode)) {
    // A box to-gltf wrote from a kind-2 part, not moved: the stored numbers as they are (a fit would round again).
    const stored = opt.nativeShapes && req.mode === 'box' && req.spec !== undefined && isTranslation(req.world) ? storedBoxSpec(req.spec, where) : undefined;
    if (stored) return { ...base, positions: new Float32Array(0), groups: [], native: [{ ...storedBox(stored, req.world), material }] };
    const prim = primitiveOf(o, req, req.mode, tris, where);
    if (opt.nativeShapes && prim.family === 'box') {
      return { ...base, positions: new Float32Array(0), groups: [], native: [{ ...nativeBox(prim.centre, prim.rotation, prim.halfExtents), material }] };
    }
    const mesh = primitiveMesh(prim, { chordError: opt.chordError });
    if (mesh.limited) {
      logger.warn(
        `shapes: ${where}: the ${prim.family} needs more than ${TESSELLATE_DEFAULTS.maxTriangles} triangles for a ${mm(opt.chordError)} chord error; ` +
          `tessellated to ${mm(mesh.chordError)} instead (at ${fmtV(prim.centre)})`,
      );
    }
    return { ...base, positions: mesh.positions, groups: [{ material, indices: mesh.indices }] };
  }
  if (req.mode === 'hull') {
    const spec = req.spec === undefined ? undefined : parseStoredSpec(req.spec, where);
    if (spec && spec.type !== 'hull') throw new Error(`shapes: ${where}: sk8_collision_mode "hull" but sk8_shape is a ${spec.type}`);
    // A mesh that no longer spans its record (edited after to-gltf wrote both) is built from: the record would hide the edit.
    const stale = spec?.type === 'hull' && tris.length > 0 && !spansRecord(usedPoints(o.positions, tris).points, spec.convex, req.world);
    if (stale) logger.warn(`shapes: ${where}: the mesh does not span its sk8_shape hull record (edited since to-gltf wrote them?); built from the mesh, the record not used`);
    if (spec?.type === 'hull' && !stale) {
      // A stored kind-3 record (to-gltf): the part itself with --native-shapes, else the hull of its vertices.
      if (opt.nativeShapes) return { ...base, positions: new Float32Array(0), groups: [], native: [{ ...storedConvexPart(spec.convex, req.world, where), material }] };
      const points = storedPoints(spec.convex, req.world);
      // A record is a solid (4 faces at least), so the hull is 3D and the facing a flat hull would need is never read.
      const h = convexHull(points, where, [0, 1, 0]);
      return { ...base, positions: points, groups: [{ material, indices: h.triangles }] };
    }
    const { points } = usedPoints(o.positions, tris);
    const h = convexHull(points, where, facing(o.positions, tris));
    const n = opt.nativeShapes && h.dimension === 3 ? nativeOrWarn(points, h, where, logger) : undefined;
    if (n) return { ...base, positions: new Float32Array(0), groups: [], native: [{ ...n, material }] };
    return { ...base, positions: points, groups: [{ material, indices: h.triangles }] };
  }
  // convex_parts
  const { parts } = convexParts(o.positions, tris, where);
  const records = opt.nativeShapes && req.spec !== undefined ? storedParts(req.spec, parts.length, where, logger) : undefined;
  const groups: ObjectGroup[] = [];
  const native: NativePart[] = [];
  parts.forEach((part, k) => {
    const first = part.triangles[0];
    const m = materialOf(first);
    if (part.triangles.some((t) => materialOf(t) !== m)) {
      logger.warn(`convex_parts: ${where}: part ${k} (from triangle ${first}) mixes materials; the part takes its first triangle's (0x${m.toString(16)})`);
    }
    const partTris = new Uint32Array(part.triangles.length * 3);
    part.triangles.forEach((t, i) => partTris.set(tris.subarray(3 * t, 3 * t + 3), 3 * i));
    let record = records?.[k];
    if (record && !spansRecord(usedPoints(o.positions, partTris).points, record, req.world)) {
      logger.warn(`convex_parts: ${where}: part ${k} (from triangle ${first}) does not span its sk8_shape record (edited since to-gltf wrote them?); built from the mesh, the record not used`);
      record = null;
    }
    if (record) {
      // The part to-gltf wrote from a kind-3 part: its stored record, not a hull of the written triangles.
      native.push({ ...storedConvexPart(record, req.world, `${where} part ${k}`), material: m });
      return;
    }
    if (part.failure && !opt.hullParts) {
      throw new Error(`convex_parts: ${where}: part ${k} (from triangle ${first}): ${part.failure} (an error because the mode asks for convex parts; --hull-parts takes the hull of such a part instead)`);
    }
    if (part.failure || opt.nativeShapes) {
      const { points, ids } = usedPoints(o.positions, partTris);
      const h = convexHull(points, `${where} part ${k}`, facing(o.positions, partTris));
      if (part.failure) logger.warn(`convex_parts: ${where}: part ${k} (from triangle ${first}): ${part.failure}; compiled as its hull (--hull-parts)`);
      const n = opt.nativeShapes && h.dimension === 3 ? nativeOrWarn(points, h, `${where} part ${k}`, logger) : undefined;
      if (n) {
        native.push({ ...n, material: m });
        return;
      }
      if (part.failure) {
        groups.push({ material: m, indices: Uint32Array.from(h.triangles, (i) => ids[i]) });
        return;
      }
    }
    groups.push({ material: m, indices: partTris });
  });
  return { ...base, positions: o.positions, groups, ...(native.length ? { native } : {}) };
}

/** How far (metres, plus 2 f32 steps of the coordinate) a mesh's bounds may be from its record's and still be it. */
export const RECORD_SPAN_TOLERANCE_M = 1e-4;

/**
 * The mesh points' bounds are the record's placed bounds (within RECORD_SPAN_TOLERANCE_M): to-gltf writes the
 * record's vertices as the mesh, so a mesh moved, scaled or with a vertex dragged out (or in, at an extreme) no
 * longer is. An edit strictly inside the bounds is not seen.
 */
function spansRecord(points: Float32Array, record: StoredConvex, world: ArrayLike<number>): boolean {
  const a = bounds(points), b = bounds(storedPoints(record, world));
  for (let k = 0; k < 6; k++) if (!(Math.abs(a[k] - b[k]) <= RECORD_SPAN_TOLERANCE_M + Math.abs(b[k]) * 2.4e-7)) return false;
  return true;
}

function bounds(p: Float32Array): number[] {
  const out = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) for (let j = 0; j < 3; j++) {
    out[j] = Math.min(out[j], p[i + j]);
    out[3 + j] = Math.max(out[3 + j], p[i + j]);
  }
  return out;
}

/** A convex_parts sk8_shape's records, one per part found, or undefined (with a warning) when the counts differ. */
function storedParts(raw: unknown, found: number, where: string, logger: Logger): (StoredConvex | null)[] | undefined {
  const spec = parseStoredSpec(raw, where);
  if (spec.type !== 'convex_parts') throw new Error(`shapes: ${where}: sk8_collision_mode "convex_parts" but sk8_shape is a ${spec.type}`);
  if (spec.parts.length === found) return spec.parts;
  logger.warn(`convex_parts: ${where}: sk8_shape lists ${spec.parts.length} part(s) but the mesh has ${found}; its records are not used (every part is built from the mesh)`);
  return undefined;
}

/** A kind-3 shape of the hull, or undefined (with a warning: it stays kind 5) when it does not fit the u16 counts. */
function nativeOrWarn(points: Float32Array, h: Hull, where: string, logger: Logger): NativeShape | undefined {
  try {
    return nativeConvex(points, h.polygonOffsets, h.polygonVertices, where);
  } catch (e) {
    logger.warn(`${(e as Error).message.replace(/; compile without --native-shapes$/, '')}; written as a kind-5 mesh instead`);
    return undefined;
  }
}

/** The primitive: explicit (sk8_shape, placed by the node's matrix) or fitted to the mesh in the node's frame. */
function primitiveOf(o: ImportedObject, req: ShapeRequest, family: PrimitiveFamily, tris: Uint32Array, where: string): Primitive {
  if (req.spec !== undefined) {
    const local = parseShapeSpec(req.spec, where);
    if (local.family !== family) throw new Error(`shapes: ${where}: sk8_collision_mode "${family}" but sk8_shape is a ${local.family}`);
    return placePrimitive(local, req.world, where);
  }
  const { linear, translation } = splitAffine(req.world);
  const { rotation } = rigidScale(linear, where); // refuses shear: the fit would be of a sheared mesh
  return fitPrimitive(family, o.positions, tris, { rotation, translation }, where);
}

/** The vertices the triangles use, in first-use order (f32), and their ids in the input. */
function usedPoints(positions: Float32Array, tris: Uint32Array): { points: Float32Array; ids: Uint32Array } {
  const map = new Map<number, number>();
  for (let k = 0; k < tris.length; k++) if (!map.has(tris[k])) map.set(tris[k], map.size);
  const ids = Uint32Array.from(map.keys());
  const points = new Float32Array(ids.length * 3);
  ids.forEach((v, i) => points.set(positions.subarray(3 * v, 3 * v + 3), 3 * i));
  return { points, ids };
}

/** The area-weighted normal of the triangles: which side a flat hull faces. */
function facing(p: Float32Array, tris: Uint32Array): Vec3 {
  const n: Vec3 = [0, 0, 0];
  for (let t = 0; t < tris.length; t += 3) {
    const a = 3 * tris[t], b = 3 * tris[t + 1], c = 3 * tris[t + 2];
    const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2], vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
    n[0] += uy * vz - uz * vy;
    n[1] += uz * vx - ux * vz;
    n[2] += ux * vy - uy * vx;
  }
  return n;
}

const mm = (m: number): string => `${Number((m * 1000).toPrecision(4))} mm`;
const fmtV = (v: readonly number[]): string => `(${v.map((x) => Number(x.toPrecision(7))).join(', ')})`;
