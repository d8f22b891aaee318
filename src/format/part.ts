// Part record (72 bytes): ../shared/spec/physics-resource.md, "PhysicsResource", third table. Every word is kept as
// stored, including those whose meaning is unknown.
import { type ByteSink, Reader, hex } from './cursor.ts';
import { exactF32, f32Field, writeF32 } from './shape.ts';
import { KIND_BOX, KIND_CONVEX, KIND_MESH, NO_SHAPE, PART_SIZE, type PartRecord } from './types.ts';

/** Field positions inside the part record. */
export const PART_FIELD = {
  rotation: 0x00,
  position: 0x10,
  w: 0x1c,
  word20: 0x20,
  kind: 0x24,
  ids: 0x28,
  word34: 0x34,
  shape: 0x38,
  word3c: 0x3c,
  material: 0x40,
  flags: 0x44,
} as const;

/** Shape kinds the codec reads; another kind is refused rather than guessed at. */
export const KNOWN_KINDS: readonly number[] = [KIND_BOX, KIND_CONVEX, KIND_MESH];

export const KIND_NAMES: Record<number, string> = {
  [KIND_BOX]: 'box',
  [KIND_CONVEX]: 'convex',
  [KIND_MESH]: 'mesh',
};

/** Reads the part at `at`; refuses an unknown kind and a shape index past `shapeCount`. */
export function readPart(r: Reader, at: number, shapeCount: number): PartRecord {
  r.need(at, PART_SIZE, 'part record');
  // Plain calls, no closures: a level's files hold thousands of parts.
  const part: PartRecord = {
    rotation: [exactF32(r, at, 'rotation.x'), exactF32(r, at + 4, 'rotation.y'), exactF32(r, at + 8, 'rotation.z'), exactF32(r, at + 12, 'rotation.w')],
    position: [exactF32(r, at + 0x10, 'position.x'), exactF32(r, at + 0x14, 'position.y'), exactF32(r, at + 0x18, 'position.z')],
    w: exactF32(r, at + PART_FIELD.w, 'w'),
    word20: r.u32At(at + PART_FIELD.word20, 'word20'),
    kind: r.u32At(at + PART_FIELD.kind, 'kind'),
    ids: [r.u32At(at + 0x28, 'ids[0]'), r.u32At(at + 0x2c, 'ids[1]'), r.u32At(at + 0x30, 'ids[2]')],
    word34: r.u32At(at + PART_FIELD.word34, 'word34'),
    shape: r.u32At(at + PART_FIELD.shape, 'shape index'),
    word3c: r.u32At(at + PART_FIELD.word3c, 'word3c'),
    material: r.u32At(at + PART_FIELD.material, 'material'),
    flags: r.u32At(at + PART_FIELD.flags, 'flags'),
  };
  if (!KNOWN_KINDS.includes(part.kind)) {
    r.fail(`kind: ${part.kind} is not a known shape kind (2 box, 3 convex, 5 mesh)`, at + PART_FIELD.kind);
  }
  if (part.shape !== NO_SHAPE && part.shape >= shapeCount) {
    r.fail(`shape index: ${part.shape} ≥ shape count ${shapeCount} (and not ${hex(NO_SHAPE)})`, at + PART_FIELD.shape);
  }
  return part;
}

/**
 * readPart's record where it reads without a word to say (inside the input, no NaN with a payload, a known kind, a
 * shape index in range or none), the same object read straight from `view` (one DataView of the whole input)
 * without a Reader's per-field checks and names; undefined otherwise, and readPart, which names what is wrong,
 * decides.
 */
export function partAt(view: DataView, at: number, shapeCount: number): PartRecord | undefined {
  if (!(Number.isInteger(at) && at >= 0 && at + PART_SIZE <= view.byteLength)) return undefined;
  const rx = f32Field(view, at), ry = f32Field(view, at + 4), rz = f32Field(view, at + 8), rw = f32Field(view, at + 12);
  const px = f32Field(view, at + 0x10), py = f32Field(view, at + 0x14), pz = f32Field(view, at + 0x18), w = f32Field(view, at + PART_FIELD.w);
  if (rx === undefined || ry === undefined || rz === undefined || rw === undefined || px === undefined || py === undefined || pz === undefined || w === undefined) return undefined;
  const kind = view.getUint32(at + PART_FIELD.kind, true), shape = view.getUint32(at + PART_FIELD.shape, true);
  if (kind !== KIND_BOX && kind !== KIND_CONVEX && kind !== KIND_MESH) return undefined;
  if (shape !== NO_SHAPE && shape >= shapeCount) return undefined;
  return {
    rotation: [rx, ry, rz, rw],
    position: [px, py, pz],
    w,
    word20: view.getUint32(at + PART_FIELD.word20, true),
    kind,
    ids: [view.getUint32(at + 0x28, true), view.getUint32(at + 0x2c, true), view.getUint32(at + 0x30, true)],
    word34: view.getUint32(at + PART_FIELD.word34, true),
    shape,
    word3c: view.getUint32(at + PART_FIELD.word3c, true),
    material: view.getUint32(at + PART_FIELD.material, true),
    flags: view.getUint32(at + PART_FIELD.flags, true),
  };
}

/** Writes the part at the writer's position. */
export function writePart(w: ByteSink, p: PartRecord): void {
  // Indexed, not for-of: the round trip asks this of every part, mostly before the engine has found it hot.
  for (let a = 0; a < p.rotation.length; a++) writeF32(w, p.rotation[a], 'rotation');
  for (let a = 0; a < p.position.length; a++) writeF32(w, p.position[a], 'position');
  writeF32(w, p.w, 'w');
  w.u32(p.word20, 'word20').u32(p.kind, 'kind');
  for (let a = 0; a < p.ids.length; a++) w.u32(p.ids[a], 'ids');
  w.u32(p.word34, 'word34').u32(p.shape, 'shape index').u32(p.word3c, 'word3c');
  w.u32(p.material, 'material').u32(p.flags, 'flags');
}
