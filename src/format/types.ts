// Plain records mirroring the bytes of a PhysicsResource (../shared/spec/physics-resource.md, "PhysicsResource").
// The reader fills these, the writer lays them out again, the mesh encoder (src/geometry/) produces them.
// Every stored word is kept, including the ones whose meaning is unknown: they are never zeroed or normalised.

export type Vec3 = [number, number, number];

/** Resource type id of a PhysicsResource in a TOC. */
export const RESOURCE_TYPE = 0x41759364;
export const MAGIC = 0x69af7015;
export const VERSION = 2;
/** Header size; the body (when present) starts here. */
export const HEADER_SIZE = 0x38;
/** ReSkate Studio's body size (copied from its template); the game's own resources have none. */
export const STUDIO_BODY_SIZE = 0x4c;
export const PART_SIZE = 72;
/** Shape record: f32x3 min, f32x3 max, 4×u16 counts, u32 0, 12 self-relative array offsets. */
export const SHAPE_SIZE = 0x54;
export const SHAPE_ARRAY_COUNT = 12;
export const PLANE_SIZE = 8;
export const NODE_SIZE = 8;

export const KIND_BOX = 2;
export const KIND_CONVEX = 3;
export const KIND_MESH = 5;
/** Part flags written by Studio and found in every measured part. */
export const PART_FLAGS = 0x800;
/** A part's shape index when it names no shape. */
export const NO_SHAPE = 0xffffffff;

export interface PhysicsResource {
  version: number; // u32 @0x00, 2
  word08: number; // u32 @0x08: 0 in the game's resources, 1 in Studio's
  word14: number; // u32 @0x14: zero in every file seen
  word20: number; // u32 @0x20: zero in every file seen
  /** Bytes from 0x38 to the shape table: empty (game) or 0x4c bytes (Studio), kept verbatim. */
  body: Uint8Array;
  shapes: ShapeRecord[];
  parts: PartRecord[];
  /**
   * Layout facts a reader saw that the default layout rules would not reproduce (padding bytes, grouping).
   * The writer honours them so that write(read(bytes)) is byte-identical; the encoder leaves this undefined.
   */
  layout?: ResourceLayout;
}

/**
 * Where a read resource kept each record and which non-zero bytes sat outside them (src/format/layout.ts).
 * Produced by the reader; the writer follows it when it still fits the record, else lays the record out afresh.
 */
export interface ResourceLayout {
  /** Byte length of the resource. */
  size: number;
  /** Absolute position of the shape table (the body runs from HEADER_SIZE to here). */
  shapeTable: number;
  /** Absolute position of the part table. */
  partTable: number;
  /** Per shape, the absolute position of each of its SHAPE_ARRAY_COUNT arrays; 0 where the offset field is 0. */
  arrays: number[][];
  /** Non-zero bytes outside the header, body, tables and arrays (padding that was not zero), as runs. */
  fill: LayoutFill[];
}

/** A run of stored bytes at an absolute position outside every decoded record. */
export interface LayoutFill {
  at: number;
  bytes: Uint8Array;
}

export interface PartRecord {
  rotation: [number, number, number, number]; // f32x4 @0x00, quaternion x y z w
  position: Vec3; // f32x3 @0x10
  w: number; // f32 @0x1c, 1.0 in every file seen
  word20: number; // u32 @0x20
  kind: number; // u32 @0x24: KIND_BOX, KIND_CONVEX or KIND_MESH
  ids: [number, number, number]; // u32x3 @0x28
  word34: number; // u32 @0x34
  shape: number; // u32 @0x38: index into shapes, or NO_SHAPE
  word3c: number; // u32 @0x3c
  material: number; // u32 @0x40: packed material
  flags: number; // u32 @0x44: PART_FLAGS
}

/**
 * One shape record and its arrays, as stored. Kind 5 meshes have triangles (3 corners a face), edge data and a
 * tree; the game's kind 3 convex polyhedra have polygon faces and no edge data or tree; kind 2 boxes carry planes.
 * An absent array is an empty typed array (its offset field is zero on disk).
 */
export interface ShapeRecord {
  min: Vec3; // f32x3 @0x00 (recentred local bounds)
  max: Vec3; // f32x3 @0x0c
  word20: number; // u32 @0x20, zero in every file seen
  vertices: Float32Array; // [0] xyz per vertex; vertex count = length / 3
  vertexCornerOffsets: Uint16Array; // [1] vertices + 1 entries: CSR offsets into cornerIdsByVertex
  cornerIdsByVertex: Uint16Array; // [2] one per corner: the corners of each vertex, vertex by vertex
  cornerVertices: Uint16Array; // [3] one per corner: its vertex
  edgeValues: Float32Array; // [4] one per corner, or empty
  /** [5] stored bytes of the concave bitset: bit c is (bytes[c >> 3] >> (c & 7)) & 1; u32 words, 4·ceil(corners/32) bytes. */
  concaveBits: Uint8Array;
  /** [6] stored bytes of the flat bitset, same packing as concaveBits. */
  flatBits: Uint8Array;
  faceOffsets: Uint16Array; // [7] faces + 1 entries: corner range of each face
  // [8], [9]: offsets stored as zero in every file seen (kept by the codec's layout hints if not)
  /** [10] face planes: octahedral normal as two snorm16 per face (2 entries a face), or empty. */
  planeNormals: Int16Array;
  /** [10] face planes: f32 offset per face, or empty. */
  planeOffsets: Float32Array;
  /** [11] tree nodes in heap order as (lo, hi) u32 pairs: faces − 1 u64 nodes, or empty. */
  tree: Uint32Array;
}

/** Number of faces: faceOffsets holds one entry more than that (or is empty). */
export const faceCount = (s: ShapeRecord): number => Math.max(0, s.faceOffsets.length - 1);
export const vertexCount = (s: ShapeRecord): number => s.vertices.length / 3;
export const nodeCount = (s: ShapeRecord): number => s.tree.length / 2;
