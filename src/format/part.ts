// Part record (72 bytes): ../shared/spec/physics-resource.md, "PhysicsResource", third table. Every word is kept as
// stored, including those whose meaning is unknown.
import { type ByteSink, Reader, hex } from './cursor.ts';
import { exactF32, writeF32 } from './shape.ts';
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
  const f = (o: number, what: string): number => exactF32(r, at + o, what);
  const u = (o: number, what: string): number => r.u32At(at + o, what);
  const part: PartRecord = {
    rotation: [f(0, 'rotation.x'), f(4, 'rotation.y'), f(8, 'rotation.z'), f(12, 'rotation.w')],
    position: [f(0x10, 'position.x'), f(0x14, 'position.y'), f(0x18, 'position.z')],
    w: f(PART_FIELD.w, 'w'),
    word20: u(PART_FIELD.word20, 'word20'),
    kind: u(PART_FIELD.kind, 'kind'),
    ids: [u(0x28, 'ids[0]'), u(0x2c, 'ids[1]'), u(0x30, 'ids[2]')],
    word34: u(PART_FIELD.word34, 'word34'),
    shape: u(PART_FIELD.shape, 'shape index'),
    word3c: u(PART_FIELD.word3c, 'word3c'),
    material: u(PART_FIELD.material, 'material'),
    flags: u(PART_FIELD.flags, 'flags'),
  };
  if (!KNOWN_KINDS.includes(part.kind)) {
    r.fail(`kind: ${part.kind} is not a known shape kind (2 box, 3 convex, 5 mesh)`, at + PART_FIELD.kind);
  }
  if (part.shape !== NO_SHAPE && part.shape >= shapeCount) {
    r.fail(`shape index: ${part.shape} ≥ shape count ${shapeCount} (and not ${hex(NO_SHAPE)})`, at + PART_FIELD.shape);
  }
  return part;
}

/** Writes the part at the writer's position. */
export function writePart(w: ByteSink, p: PartRecord): void {
  for (const v of p.rotation) writeF32(w, v, 'rotation');
  for (const v of p.position) writeF32(w, v, 'position');
  writeF32(w, p.w, 'w');
  w.u32(p.word20, 'word20').u32(p.kind, 'kind');
  for (const v of p.ids) w.u32(v, 'ids');
  w.u32(p.word34, 'word34').u32(p.shape, 'shape index').u32(p.word3c, 'word3c');
  w.u32(p.material, 'material').u32(p.flags, 'flags');
}
