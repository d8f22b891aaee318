// Shape record (0x54 bytes) and its twelve arrays: ../shared/spec/physics-resource.md, "PhysicsResource", second
// table. The record holds the counts; each array's byte size follows from them (ARRAY_SPECS). The shape does not
// name its kind (the part does), so reading is kind-agnostic: an array is present exactly when its offset is not 0.
import { type ByteSink, FormatError, Reader, copyBytes, hex } from './cursor.ts';
import { SHAPE_ARRAY_COUNT, SHAPE_SIZE, type ShapeRecord, type Vec3, faceCount } from './types.ts';

/** Field positions inside the shape record. */
export const SHAPE_FIELD = {
  min: 0x00,
  max: 0x0c,
  vertexCount: 0x18,
  cornerCount: 0x1a,
  faceCount: 0x1c,
  nodeCount: 0x1e,
  word20: 0x20,
  offsets: 0x24,
} as const;

/** The most a u16 count field holds. */
export const MAX_U16 = 0xffff;

/** Array slots; [8] and [9] are unused (0 in every file seen; the reader refuses them set). */
export const SLOT = {
  vertices: 0,
  vertexCornerOffsets: 1,
  cornerIdsByVertex: 2,
  cornerVertices: 3,
  edgeValues: 4,
  concaveBits: 5,
  flatBits: 6,
  faceOffsets: 7,
  unused8: 8,
  unused9: 9,
  planes: 10,
  tree: 11,
} as const;

export interface ShapeCounts {
  vertices: number;
  corners: number;
  faces: number;
  nodes: number;
}

/** Bytes of a bitset over `n` corners: whole u32 words. */
export const bitsetBytes = (n: number): number => 4 * Math.ceil(n / 32);

export interface ArraySpec {
  name: string;
  /** Natural alignment of the stored element; the reader refuses an array placed off it. */
  align: number;
  bytes: (c: ShapeCounts) => number;
}

/** Name, alignment and byte size of each of the twelve arrays, by slot. */
export const ARRAY_SPECS: readonly ArraySpec[] = [
  { name: 'vertices', align: 4, bytes: (c) => 12 * c.vertices },
  { name: 'vertex corner offsets', align: 2, bytes: (c) => 2 * (c.vertices + 1) },
  { name: 'corner ids by vertex', align: 2, bytes: (c) => 2 * c.corners },
  { name: 'corner vertices', align: 2, bytes: (c) => 2 * c.corners },
  { name: 'edge values', align: 4, bytes: (c) => 4 * c.corners },
  { name: 'concave bits', align: 4, bytes: (c) => bitsetBytes(c.corners) },
  { name: 'flat bits', align: 4, bytes: (c) => bitsetBytes(c.corners) },
  { name: 'face offsets', align: 2, bytes: (c) => 2 * (c.faces + 1) },
  { name: 'unused [8]', align: 1, bytes: () => 0 },
  { name: 'unused [9]', align: 1, bytes: () => 0 },
  { name: 'face planes', align: 4, bytes: (c) => 8 * c.faces },
  { name: 'tree', align: 8, bytes: (c) => 8 * c.nodes },
];

/** A shape record as stored: bounds, counts, the word at 0x20 and the absolute array positions (0: none). */
export interface ShapeHeader {
  min: Vec3;
  max: Vec3;
  counts: ShapeCounts;
  word20: number;
  arrays: number[];
}

/** The only NaN a scalar f32 field may hold: JS numbers do not carry NaN payloads (and V8 keeps or quiets them
 * depending on which tier runs), so the codec keeps NaN fields exactly only in this canonical form. */
export const CANONICAL_NAN_BITS = 0x7fc00000;

/** Reads an f32 field, refusing a NaN other than CANONICAL_NAN_BITS (it could not be written back exactly). */
export function exactF32(r: Reader, at: number, what: string): number {
  const bits = r.u32At(at, what);
  const nan = (bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0;
  if (nan && bits !== CANONICAL_NAN_BITS) {
    r.fail(`${what}: f32 bits ${hex(bits)} (a NaN with a payload) cannot be kept exactly`, at);
  }
  return nan ? Number.NaN : r.f32At(at, what);
}

/** Writes a scalar f32 field; NaN always as CANONICAL_NAN_BITS. */
export function writeF32(w: ByteSink, v: number, what: string): void {
  if (Number.isNaN(v)) w.u32(CANONICAL_NAN_BITS, what);
  else w.f32(v, what);
}

const vec3At = (r: Reader, at: number, what: string): Vec3 => [
  exactF32(r, at, `${what}.x`),
  exactF32(r, at + 4, `${what}.y`),
  exactF32(r, at + 8, `${what}.z`),
];

/** A word that is zero in every resource and that the reference reader refuses otherwise. */
function zeroWord(r: Reader, at: number, what: string): number {
  const v = r.u32At(at, what);
  if (v !== 0) r.fail(`${what}: ${hex(v)}, expected 0 (zero in every resource seen; meaning unknown)`, at);
  return v;
}

/** Reads shape record `index` at `at`; array positions are resolved (self-relative) but not yet checked. */
export function readShapeHeader(r: Reader, at: number): ShapeHeader {
  r.need(at, SHAPE_SIZE, 'shape record');
  const arrays: number[] = [];
  for (let k = 0; k < SHAPE_ARRAY_COUNT; k++) {
    const field = at + SHAPE_FIELD.offsets + 4 * k;
    const v = r.u32At(field, `offset [${k}] ${ARRAY_SPECS[k].name}`);
    arrays.push(v === 0 ? 0 : field + v);
  }
  return {
    min: vec3At(r, at + SHAPE_FIELD.min, 'min'),
    max: vec3At(r, at + SHAPE_FIELD.max, 'max'),
    counts: {
      vertices: r.u16At(at + SHAPE_FIELD.vertexCount, 'vertex count'),
      corners: r.u16At(at + SHAPE_FIELD.cornerCount, 'corner count'),
      faces: r.u16At(at + SHAPE_FIELD.faceCount, 'face count'),
      nodes: r.u16At(at + SHAPE_FIELD.nodeCount, 'tree node count'),
    },
    word20: zeroWord(r, at + SHAPE_FIELD.word20, 'word 0x20'),
    arrays,
  };
}

/**
 * An f32 field exactF32 reads without a word to say, straight from `view`; undefined for a NaN with a payload (the
 * one thing exactF32 refuses). The caller has checked the field lies inside the view.
 */
export function f32Field(view: DataView, at: number): number | undefined {
  const bits = view.getUint32(at, true);
  if ((bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0) return bits === CANONICAL_NAN_BITS ? Number.NaN : undefined;
  return view.getFloat32(at, true);
}

/**
 * readShapeHeader's record where it reads without a word to say (inside the input, no NaN with a payload, word 0x20
 * zero), the same object read straight from `view` (one DataView of the whole input) without a Reader's per-field
 * checks and names; undefined otherwise, and readShapeHeader, which names what is wrong, decides. A level's files
 * hold thousands of shape records, most read while the code is still cold.
 */
export function shapeHeaderAt(view: DataView, at: number): ShapeHeader | undefined {
  if (!(Number.isInteger(at) && at >= 0 && at + SHAPE_SIZE <= view.byteLength)) return undefined;
  const arrays: number[] = [];
  for (let k = 0; k < SHAPE_ARRAY_COUNT; k++) {
    const field = at + SHAPE_FIELD.offsets + 4 * k;
    const v = view.getUint32(field, true);
    arrays.push(v === 0 ? 0 : field + v);
  }
  const x0 = f32Field(view, at), y0 = f32Field(view, at + 4), z0 = f32Field(view, at + 8);
  const x1 = f32Field(view, at + 12), y1 = f32Field(view, at + 16), z1 = f32Field(view, at + 20);
  if (x0 === undefined || y0 === undefined || z0 === undefined || x1 === undefined || y1 === undefined || z1 === undefined) return undefined;
  if (view.getUint32(at + SHAPE_FIELD.word20, true) !== 0) return undefined;
  return {
    min: [x0, y0, z0],
    max: [x1, y1, z1],
    counts: {
      vertices: view.getUint16(at + SHAPE_FIELD.vertexCount, true),
      corners: view.getUint16(at + SHAPE_FIELD.cornerCount, true),
      faces: view.getUint16(at + SHAPE_FIELD.faceCount, true),
      nodes: view.getUint16(at + SHAPE_FIELD.nodeCount, true),
    },
    word20: 0,
    arrays,
  };
}

/** The counts a record's arrays imply (what the writer stores in the count fields). */
export function shapeCounts(s: ShapeRecord): ShapeCounts {
  return {
    vertices: s.vertices.length / 3,
    corners: s.cornerVertices.length,
    faces: faceCount(s),
    nodes: s.tree.length / 2,
  };
}

/** Byte size of each slot's array as this record holds it (0 for an empty one). */
export function recordArrayBytes(s: ShapeRecord): number[] {
  return [
    s.vertices.byteLength,
    s.vertexCornerOffsets.byteLength,
    s.cornerIdsByVertex.byteLength,
    s.cornerVertices.byteLength,
    s.edgeValues.byteLength,
    s.concaveBits.byteLength,
    s.flatBits.byteLength,
    s.faceOffsets.byteLength,
    0,
    0,
    s.planeOffsets.byteLength * 2,
    s.tree.byteLength,
  ];
}

/**
 * Refuses a record the writer cannot lay out faithfully: array lengths that disagree with the counts they imply,
 * counts past the u16 fields. `stage` names the shape ("write: shape 3").
 */
export function checkShapeRecord(s: ShapeRecord, stage: string): void {
  if (s.vertices.length % 3 !== 0) failRecord(stage, `vertices: ${s.vertices.length} floats is not a multiple of 3`);
  const c = shapeCounts(s);
  // Plain calls, no closures or entries: verify and the writer ask this of every shape.
  countFits(stage, 'vertices', c.vertices);
  countFits(stage, 'corners', c.corners);
  countFits(stage, 'faces', c.faces);
  countFits(stage, 'nodes', c.nodes);
  oneOf(stage, 'vertex corner offsets', s.vertexCornerOffsets.length, c.vertices + 1);
  oneOf(stage, 'corner ids by vertex', s.cornerIdsByVertex.length, c.corners);
  oneOf(stage, 'edge values', s.edgeValues.length, c.corners);
  oneOf(stage, 'concave bits', s.concaveBits.length, bitsetBytes(c.corners));
  oneOf(stage, 'flat bits', s.flatBits.length, bitsetBytes(c.corners));
  oneOf(stage, 'face plane offsets', s.planeOffsets.length, c.faces);
  if (s.planeNormals.length !== 2 * s.planeOffsets.length) {
    failRecord(stage, `face plane normals: ${s.planeNormals.length} entries, expected ${2 * s.planeOffsets.length}`);
  }
  if (s.tree.length % 2 !== 0) failRecord(stage, `tree: ${s.tree.length} u32 words is not whole u64 nodes`);
  if (c.nodes !== 0 && c.nodes !== c.faces - 1) failRecord(stage, `tree: ${c.nodes} nodes, expected faces − 1 = ${c.faces - 1}`);
}

function failRecord(stage: string, detail: string): never {
  throw new FormatError(stage, 0, detail);
}
function countFits(stage: string, name: string, n: number): void {
  if (n > MAX_U16) failRecord(stage, `${name} count ${n} > ${MAX_U16}`);
}
function oneOf(stage: string, name: string, n: number, want: number): void {
  if (n !== 0 && n !== want) failRecord(stage, `${name}: ${n} entries, expected 0 or ${want}`);
}

/** Writes the shape record at the writer's position; `arrays` are the planned absolute positions (0: none). */
export function writeShapeHeader(w: ByteSink, s: ShapeRecord, arrays: readonly number[]): void {
  const at = w.pos;
  const c = shapeCounts(s);
  // Indexed, not for-of: the round trip asks this of every shape, mostly before the engine has found it hot.
  for (let a = 0; a < s.min.length; a++) writeF32(w, s.min[a], 'min');
  for (let a = 0; a < s.max.length; a++) writeF32(w, s.max[a], 'max');
  w.u16(c.vertices, 'vertex count').u16(c.corners, 'corner count').u16(c.faces, 'face count');
  w.u16(c.nodes, 'tree node count').u32(s.word20, 'word20');
  for (let k = 0; k < SHAPE_ARRAY_COUNT; k++) {
    const field = at + SHAPE_FIELD.offsets + 4 * k;
    w.u32(arrays[k] === 0 ? 0 : arrays[k] - field, `offset [${k}]`);
  }
}

// Bulk arrays are typed-array views of one copy of the input (readPhysicsResource makes it, a buffer of its own; or
// of the input itself when the caller lends it), so every bit is kept (a NaN payload too). Each array's position was
// checked against the input and its element's alignment (ARRAY_SPECS) before the view is made, and a view is made
// only over bytes at an 8-aligned offset of their buffer (else the array is copied), so no view is ever unaligned. The format and the typed arrays are both little-endian on every host Node runs on; checked once here.
if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('format: a little-endian host is required');

const asBytes = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * Absent and empty arrays share one frozen-length instance per type: a hostile file of empty shape records would
 * otherwise cost a dozen typed-array objects per 84 input bytes.
 */
const EMPTY = {
  f32: new Float32Array(0),
  u16: new Uint16Array(0),
  i16: new Int16Array(0),
  u8: new Uint8Array(0),
  u32: new Uint32Array(0),
};

/**
 * The arrays of a shape whose header and array positions the caller has checked against `own` (in bounds, each at
 * its element's alignment): the resource's copy of the file, or the file's bytes lent by the caller. The arrays are
 * views of it (copies where `own` is not at an 8-aligned offset of its buffer, so that no view is ever unaligned).
 * Face planes are stored interleaved (normal pair, offset) and come out as two arrays of their own.
 */
export function readShapeArrays(own: Uint8Array, h: ShapeHeader): ShapeRecord {
  const planes = arrayBytes(own, h, SLOT.planes);
  const faces = planes.byteLength / 8;
  const planeNormals = faces ? new Int16Array(2 * faces) : EMPTY.i16;
  const planeOffsets = faces ? new Float32Array(faces) : EMPTY.f32;
  if (faces) {
    // 4-aligned (checked): word 2f is the normal pair (two i16, in memory order), word 2f + 1 the offset's bits.
    const words = new Uint32Array(planes.buffer, planes.byteOffset, 2 * faces);
    const pairs = new Uint32Array(planeNormals.buffer), offsets = new Uint32Array(planeOffsets.buffer);
    for (let f = 0; f < faces; f++) {
      pairs[f] = words[2 * f];
      offsets[f] = words[2 * f + 1];
    }
  }
  const tree = arrayBytes(own, h, SLOT.tree);
  return {
    min: h.min,
    max: h.max,
    word20: h.word20,
    vertices: f32Array(arrayBytes(own, h, SLOT.vertices)),
    vertexCornerOffsets: u16Array(arrayBytes(own, h, SLOT.vertexCornerOffsets)),
    cornerIdsByVertex: u16Array(arrayBytes(own, h, SLOT.cornerIdsByVertex)),
    cornerVertices: u16Array(arrayBytes(own, h, SLOT.cornerVertices)),
    edgeValues: f32Array(arrayBytes(own, h, SLOT.edgeValues)),
    concaveBits: arrayBytes(own, h, SLOT.concaveBits),
    flatBits: arrayBytes(own, h, SLOT.flatBits),
    faceOffsets: u16Array(arrayBytes(own, h, SLOT.faceOffsets)),
    planeNormals,
    planeOffsets,
    tree: tree.byteLength ? new Uint32Array(tree.buffer, tree.byteOffset, tree.byteLength / 4) : EMPTY.u32,
  };
}

/** Array k's bytes: a view of `own` (a copy where `own` is not 8-aligned in its buffer); EMPTY.u8 when absent or empty. */
function arrayBytes(own: Uint8Array, h: ShapeHeader, k: number): Uint8Array {
  const size = h.arrays[k] === 0 ? 0 : ARRAY_SPECS[k].bytes(h.counts);
  if (size === 0) return EMPTY.u8;
  return own.byteOffset % 8 === 0 ? new Uint8Array(own.buffer, own.byteOffset + h.arrays[k], size) : copyBytes(own, h.arrays[k], size);
}
/**
 * The shape's vertices, corner vertices and face offsets only (readShapeArrays' views of them): what a reader that
 * counts faces needs (src/format/resource.ts readResourceOutline).
 */
export function readShapeFaces(own: Uint8Array, h: ShapeHeader): Pick<ShapeRecord, 'vertices' | 'cornerVertices' | 'faceOffsets'> {
  return {
    vertices: f32Array(arrayBytes(own, h, SLOT.vertices)),
    cornerVertices: u16Array(arrayBytes(own, h, SLOT.cornerVertices)),
    faceOffsets: u16Array(arrayBytes(own, h, SLOT.faceOffsets)),
  };
}
const f32Array = (b: Uint8Array): Float32Array => (b.byteLength ? new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) : EMPTY.f32);
const u16Array = (b: Uint8Array): Uint16Array => (b.byteLength ? new Uint16Array(b.buffer, b.byteOffset, b.byteLength / 2) : EMPTY.u16);

/** The u32 words of a typed array's bytes: a view where it is 4-aligned, else an aligned copy. */
const words = (a: ArrayBufferView): Uint32Array =>
  a.byteOffset % 4 === 0 ? new Uint32Array(a.buffer, a.byteOffset, a.byteLength >> 2) : new Uint32Array(new Uint8Array(a.buffer, a.byteOffset, a.byteLength).slice().buffer);

/**
 * Writes the shape's non-empty arrays at `arrays` (the planned absolute positions, by slot). Face planes go out
 * interleaved as stored: each face's normal pair (two i16, one u32 word) then its offset's f32 bits. The record has
 * passed checkShapeRecord (two normal entries a plane).
 */
export function writeShapeArrays(w: ByteSink, s: ShapeRecord, arrays: readonly number[], i: number): void {
  const bulk: [number, ArrayBufferView][] = [
    [SLOT.vertices, s.vertices],
    [SLOT.vertexCornerOffsets, s.vertexCornerOffsets],
    [SLOT.cornerIdsByVertex, s.cornerIdsByVertex],
    [SLOT.cornerVertices, s.cornerVertices],
    [SLOT.edgeValues, s.edgeValues],
    [SLOT.concaveBits, s.concaveBits],
    [SLOT.flatBits, s.flatBits],
    [SLOT.faceOffsets, s.faceOffsets],
  ];
  for (const [k, a] of bulk) if (a.byteLength > 0) w.seek(arrays[k]).raw(asBytes(a), `shape ${i} ${ARRAY_SPECS[k].name}`);
  if (s.planeOffsets.length > 0) {
    w.seek(arrays[SLOT.planes]).interleave32(words(s.planeNormals), words(s.planeOffsets), `shape ${i} ${ARRAY_SPECS[SLOT.planes].name}`);
  }
  if (s.tree.byteLength > 0) w.seek(arrays[SLOT.tree]).raw(asBytes(s.tree), `shape ${i} ${ARRAY_SPECS[SLOT.tree].name}`);
}
