// The bound tree both YBN readers produce (binary: bounds.ts, CodeWalker/Sollumz XML: xml.ts) and objects.ts
// turns into collision objects. Values are in GTA V's local space (Z up, metres), already decoded: geometry
// vertices are int16 × quantum (rounded to f32, as the game and CodeWalker hold them) without the geometry
// centre, which is kept apart. Spec: ../shared/spec/ybn-bounds.md.

/** Bound kinds (the u8 at 0x10). */
export const KIND = { sphere: 0, capsule: 1, box: 3, geometry: 4, bvh: 8, composite: 10, disc: 12, cylinder: 13, cloth: 15 } as const;

export const KIND_NAMES: Record<number, string> = {
  0: 'sphere', 1: 'capsule', 3: 'box', 4: 'geometry', 8: 'geometry with BVH', 10: 'composite', 12: 'disc', 13: 'cylinder', 15: 'cloth',
};
export const kindName = (k: number): string => KIND_NAMES[k] ?? 'unknown';

/** Polygon record kinds (low 3 bits of a polygon's first byte). */
export const POLY = { triangle: 0, sphere: 1, capsule: 2, box: 3, cylinder: 4 } as const;
/** Words per polygon in GeometryBound.polys: kind, then up to four vertex indices. */
export const POLY_WORDS = 5;

export type Vec3 = [number, number, number];

/**
 * A material record's FLAG_STAIRS (bit 0 of its flag bits, which start at the record's fourth byte; a primitive
 * bound's at header byte 0x4F), carried next to the type: key = type | MATERIAL_STAIRS.
 */
export const MATERIAL_STAIRS = 0x100;
export const materialKey = (type: number, flagsLow: number): number => type | (flagsLow & 1 ? MATERIAL_STAIRS : 0);

/** Header fields every bound has (the 112-byte common header). */
export interface BoundHeader {
  kind: number;
  /** 0x14: bounding-sphere radius (the capsule's half length plus its radius, the disc's radius). */
  sphereRadius: number;
  /** 0x2C */
  margin: number;
  boxMin: Vec3;
  boxMax: Vec3;
  /** 0x50 */
  sphereCentre: Vec3;
  /** 0x4C: a primitive bound's material key (materialKey: GTA V type, stairs flag). */
  material: number;
  /**
   * A capsule bound's half segment length (f32 at 0x70 of its 0x80-byte record; XML <CapsuleHalfHeight value>),
   * when the file stores one (> 0). Older writers leave it 0: then the half segment is sphereRadius − margin.
   */
  capsuleHalfHeight?: number;
}

export interface GeometryBound extends BoundHeader {
  kind: 4 | 8;
  /** Decoded vertices without the centre, xyz, f32 values. */
  vertices: Float64Array;
  /** 0xA0 */
  centre: Vec3;
  /**
   * 0x90: the coordinate quantum (one int16 step per axis, metres). XML stores plain numbers: there it is what a
   * binary of the same bound would use (xmlQuantum), since CodeWalker's XML of a binary carries its quantized values.
   */
  quantum: Vec3;
  /** POLY_WORDS per polygon: kind, vertex indices (triangle: flag bit already masked off). */
  polys: Uint32Array;
  /** Radius of sphere, capsule and cylinder polygons (0 for the others). */
  radii: Float32Array;
  /** Per polygon: material key of its material record (materialKey). */
  polyMaterials: Uint16Array;
}

export interface CompositeChild {
  /** null: an empty slot. */
  bound: Bound | null;
  /** 12 numbers: images of the x, y, z axes, then the translation (the 64-byte record without its w words). */
  transform: Float64Array;
  /**
   * The child's type and include flag words (binary: the 8-byte record at 0x90, else 0x98; XML: <CompositeFlags1>
   * and <CompositeFlags2>); null when the file has none. flags.ts decides from them whether the child is solid.
   */
  flags: [number, number] | null;
}

export interface CompositeBound extends BoundHeader {
  kind: 10;
  children: CompositeChild[];
}

/** Sphere, capsule, box, disc, cylinder: the header says everything. */
export interface PrimitiveBound extends BoundHeader {
  kind: 0 | 1 | 3 | 12 | 13;
}

/** Cloth and unknown kinds: kept so the importer can name them in its warning. */
export interface SkippedBound extends BoundHeader {
  skipped: true;
  /** XML: the type attribute it had. */
  typeName?: string;
}

export type Bound = GeometryBound | CompositeBound | PrimitiveBound | SkippedBound;

export const isSkipped = (b: Bound): b is SkippedBound => (b as SkippedBound).skipped === true;
export const isGeometry = (b: Bound): b is GeometryBound => !isSkipped(b) && (b.kind === 4 || b.kind === 8);
export const isComposite = (b: Bound): b is CompositeBound => !isSkipped(b) && b.kind === 10;

export const IDENTITY: readonly number[] = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];

/** Nested composites deeper than this are refused (the game's files nest two levels at most). */
export const MAX_COMPOSITE_DEPTH = 16;
/** Most bounds one file may expand to (children shared by several composites counted each time). */
export const MAX_BOUNDS = 100_000;
/** Most vertices and polygons in one geometry bound: their indices are 16-bit (CodeWalker refuses above 0xFFFE). */
export const MAX_GEOMETRY_ITEMS = 0xffff;

/**
 * The quantum a binary geometry with this box would have: the game's files spread the box over the int16 range
 * (measured on the four real samples: extent / quantum is 65,365 … 65,530), so extent / 65,534 per axis.
 */
export const xmlQuantum = (boxMin: Vec3, boxMax: Vec3): Vec3 => [0, 1, 2].map((k) => Math.abs(boxMax[k] - boxMin[k]) / 65534) as Vec3;

/**
 * How far (metres) a written box corner may lie from the stored corner it stands for before the four corners
 * are called "not a box": BOX_FIT_QUANTA quantum steps (the length of the per-axis quantum vector; each stored
 * corner is within half a step of the true one), plus BOX_FIT_ULPS f32 rounding steps of the largest coordinate.
 * Seeded quantized boxes (test/import/ybn/box-fit.test.ts) fit within 1.5 steps; real files within 0.8.
 */
export const BOX_FIT_QUANTA = 2;
export const BOX_FIT_ULPS = 4;
export function boxTolerance(quantum: Vec3, largestCoordinate: number): number {
  return BOX_FIT_QUANTA * Math.hypot(...quantum) + BOX_FIT_ULPS * 2 ** -23 * Math.abs(largestCoordinate);
}
