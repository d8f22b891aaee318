// Mesh objects → one PhysicsResource record (../shared/spec/physics-resource.md, "PhysicsResource" and
// "Triangle-mesh shapes"): every object encoded into kind-5 shapes (encode.ts), one part per shape, in object order
// then piece order, part words as the reference encoder writes them (docs/format-decisions.md, "Part words").
// The codec (src/format/resource.ts, writePhysicsResource) lays the record out as bytes.

import { KIND_MESH, PART_FLAGS, VERSION, type PartRecord, type PhysicsResource, type ShapeRecord } from '../format/types.ts';
import { encodeMeshShapes, ENCODE_DEFAULTS, type EncodeOptions, type EncodeStats, type OpenCorners } from './encode.ts';
import { stageError } from '../errors.ts';

export interface MeshObject {
  name: string;
  /** xyz per vertex, game space (metres, Y up). */
  positions: Float32Array | Float64Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
  /** Packed material word written to each of the object's parts (part + 0x40). */
  material: number;
  /** Part ids (part + 0x28); default PART_IDS_DEFAULT. */
  ids?: [number, number, number];
}

/**
 * The header word at 0x08 and the body block at 0x38. Studio writes word08 = 1 and its template's 0x4c-byte body;
 * the game's own resources have word08 = 0 and no body. Studio's template bytes are not public
 * (docs/format-decisions.md), so the default is the game's form, which the game demonstrably loads
 * (**decision**). Pass `header: { word08: 1, body: <0x4c bytes of a Studio-written resource> }` for Studio's form.
 */
export interface HeaderForm {
  word08: number;
  body: Uint8Array;
}
export const GAME_HEADER: HeaderForm = { word08: 0, body: new Uint8Array(0) };
export const RESOURCE_HEADER_DEFAULT: HeaderForm = GAME_HEADER;

/** Part ids when the caller gives none (Studio's values are not public; the reference takes them from its caller). */
export const PART_IDS_DEFAULT: [number, number, number] = [0, 0, 0];

export interface ResourceOptions extends EncodeOptions {
  header: HeaderForm;
}
export const RESOURCE_DEFAULTS: ResourceOptions = { ...ENCODE_DEFAULTS, header: RESOURCE_HEADER_DEFAULT };

export interface ResourceStats {
  /** Per object, in input order. */
  objects: Array<{ name: string; stats: EncodeStats }>;
  shapes: number;
  parts: number;
  vertices: number;
  faces: number;
}

/** The part the reference writes for a mesh shape: unrotated at `centre`, w 1.0, kind 5, flags 0x800. */
export function meshPart(shape: number, centre: [number, number, number], ids: [number, number, number], material: number): PartRecord {
  return {
    rotation: [0, 0, 0, 1],
    position: [centre[0], centre[1], centre[2]],
    w: 1,
    word20: 0,
    kind: KIND_MESH,
    ids: [ids[0], ids[1], ids[2]],
    word34: 0,
    shape,
    word3c: 0,
    material: material >>> 0,
    flags: PART_FLAGS,
  };
}

/** Encodes the objects into one resource record (see the file header). Throws with the object's name on bad input. */
export function encodeResource(
  objects: MeshObject[],
  options: Partial<ResourceOptions> = {},
): { resource: PhysicsResource; stats: ResourceStats; open: OpenCorners[] } {
  const opt = { ...RESOURCE_DEFAULTS, ...options };
  const shapes: ShapeRecord[] = [];
  const open: OpenCorners[] = []; // per shape: the corners it leaves unpaired (encode.ts)
  const parts: PartRecord[] = [];
  const stats: ResourceStats = { objects: [], shapes: 0, parts: 0, vertices: 0, faces: 0 };
  objects.forEach((o, i) => {
    if (!Number.isInteger(o.material) || o.material < 0 || o.material > 0xffffffff) {
      throw new Error(`encode: object ${i} "${o.name}": material ${o.material} is not a u32`);
    }
    let encoded: ReturnType<typeof encodeMeshShapes>;
    try {
      encoded = encodeMeshShapes(o.positions, o.indices, opt);
    } catch (e) {
      throw stageError('encode', `object ${i} "${o.name}"`, e);
    }
    for (const p of encoded.pieces) {
      parts.push(meshPart(shapes.length, p.centre, o.ids ?? PART_IDS_DEFAULT, o.material));
      shapes.push(p.shape);
      open.push(p.open);
      stats.vertices += p.shape.vertices.length / 3;
      stats.faces += p.shape.faceOffsets.length - 1;
    }
    stats.objects.push({ name: o.name, stats: encoded.stats });
  });
  stats.shapes = shapes.length;
  stats.parts = parts.length;
  const resource: PhysicsResource = { version: VERSION, word08: opt.header.word08, word14: 0, word20: 0, body: opt.header.body, shapes, parts };
  return { resource, stats, open };
}
