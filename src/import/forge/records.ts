// Forge record bodies → typed records, exactly as ../shared/spec/forge-shapes.md ("Primitive and compound shapes":
// SphereShape, CapsuleShape, BoxShape, ReferenceListShape) and forge-entities.md ("Entities and groups": Entity,
// EntityGroup; "Shaun White Skateboarding": the SWS Entity) tabulate them. Every field is read through the cursor
// Reader; fields whose meaning the specs leave Unknown are kept as stored and never interpreted. A body that does
// not end exactly where its grammar ends, or that needs a grammar the specs do not give (a component body, an
// inline Hierarchy in SWS, an inline ResetData in the generic profile), is refused with a RecordRefusal naming the
// offset, what was expected and what was found; readRecord never guesses a length.
// References (10 bytes): two bytes kept as stored, then the u64 id of the referenced object (ACExplorer's
// pyUbiForge2 reads a reference as 2 bytes then a file id; docs/forge.md).
import { FormatError, hex, Reader } from '../../format/cursor.ts';

/** Resource type ids: CRC-32 of the class name (checked against node:zlib crc32 in the tests). */
export const FORGE_TYPES = {
  SphereShape: 0xfa3f7a18,
  CapsuleShape: 0xb8599052,
  BoxShape: 0x4ec68e98,
  ReferenceListShape: 0x2d675ba2,
  MeshShape: 0xb22b3e61,
  Entity: 0x0984415e,
  EntityGroup: 0x3f742d26,
  CollisionMaterial: 0x74f7311d,
} as const;
export type ForgeTypeName = keyof typeof FORGE_TYPES;
const TYPE_NAMES = new Map<number, ForgeTypeName>(Object.entries(FORGE_TYPES).map(([k, v]) => [v, k as ForgeTypeName]));
/** The class name of a type id, or its hex. */
export const forgeTypeName = (type: number): string => TYPE_NAMES.get(type >>> 0) ?? `type ${hex(type >>> 0).toUpperCase().replace('0X', '0x')}`;

/** Types this module has a grammar for. */
export const READ_TYPES: ReadonlySet<number> = new Set([
  FORGE_TYPES.SphereShape, FORGE_TYPES.CapsuleShape, FORGE_TYPES.BoxShape, FORGE_TYPES.ReferenceListShape, FORGE_TYPES.Entity, FORGE_TYPES.EntityGroup,
]);

/** A 10-byte reference: `head` (2 bytes, kept, not interpreted) and the referenced id (0n: none). */
export interface ForgeRef {
  head: Uint8Array;
  id: bigint;
}
export type Vec4 = [number, number, number, number];
/** The AC2-era object header some bodies start with (0x01, u32 id, u32 class): kept as read. */
export interface ObjectHeader {
  id: number;
  class: number;
}
/** 16 f32, column-major (translation at 12–14). */
export type Matrix4 = number[];

export interface SphereShape {
  kind: 'SphereShape';
  header?: ObjectHeader;
  tag: number;
  /** 0x1: u32 = 0 in every installed shape; meaning Unknown, kept. */
  zero: number;
  centre: Vec4;
  radius: number;
  material: ForgeRef;
}
export interface CapsuleShape {
  kind: 'CapsuleShape';
  header?: ObjectHeader;
  tag: number;
  zero: number;
  endA: Vec4;
  endB: Vec4;
  radius: number;
  material: ForgeRef;
}
export interface BoxShape {
  kind: 'BoxShape';
  header?: ObjectHeader;
  /** ManagedObject byte: Unknown, kept. */
  managed: number;
  userCategory: number;
  halfExtents: Vec4;
  matrix: Matrix4;
  material: ForgeRef;
}
export interface ReferenceListShape {
  kind: 'ReferenceListShape';
  header?: ObjectHeader;
  tag: number;
  zero: number;
  children: ForgeRef[];
  transforms: Matrix4[];
  scales: Vec4[];
  min: Vec4;
  max: Vec4;
}

/** The generic (Assassin's Creed profile) Entity prefix, also the start of an EntityGroup. */
export interface GenericEntity {
  kind: 'Entity';
  profile: 'generic';
  /** 01 03, or 01 00 with the inline Hierarchy and HierarchyHandle kept as stored. */
  tags: [number, number];
  hierarchy?: Uint8Array;
  placement: Matrix4;
  /** Component count: only 0 is read (a component body has no length rule in the spec). */
  components: number;
  run: Uint8Array;
  fakeCellIndex: number;
  scale: number;
  bounds: Uint8Array;
  descriptor: { descriptorType: number; subDescriptorType: number; networkType: number; isPickableByPlayer: number };
  actions: Uint8Array[];
  links: Uint8Array[];
  /** ResetData pointer byte (03: null; the only form read). */
  reset: number;
}

export interface EntityGroup extends Omit<GenericEntity, 'kind'> {
  kind: 'EntityGroup';
  members: ForgeRef[];
  memberLinks: Uint8Array[];
  optimizationState: number;
}

/** The SWS Entity (forge-entities.md "Shaun White Skateboarding"). */
export interface SwsEntity {
  kind: 'Entity';
  profile: 'sws';
  managed: number;
  id: number;
  /** GlobalMatrix: rows 0–2 the local axes in world space, row 3 the origin = column-major in our convention. */
  placement: Matrix4;
  components: number;
  flags: Uint8Array;
  boundsMin: [number, number, number];
  boundsMax: [number, number, number];
  boundsKind: number;
  descriptor: Uint8Array;
  reset: { word: number; first: Uint8Array; second: Uint8Array };
  tail: Uint8Array;
}

export type ForgeRecord = SphereShape | CapsuleShape | BoxShape | ReferenceListShape | GenericEntity | EntityGroup | SwsEntity;

/** Which Entity grammar to read: the SWS one (32-bit ids, AC2 generation) or the generic one (64-bit ids). */
export type EntityProfile = 'sws' | 'generic';

/** A body that does not consume exactly: refused, never read in part. */
export class RecordRefusal extends Error {
  constructor(
    readonly type: number,
    readonly offset: number,
    readonly expected: string,
    readonly actual: string,
    readonly reading = '',
  ) {
    super(`${forgeTypeName(type)}${reading}: at ${hex(offset)}: expected ${expected}, found ${actual}`);
    this.name = 'RecordRefusal';
  }
}

/** Most children of one ReferenceListShape, members of one group, actions/links of one entity (bounds the loops before the size check). */
export const MAX_RECORD_ITEMS = 1 << 20;
/** Largest GameStateData byte array read, bytes. */
export const MAX_RESET_ARRAY = 1 << 24;

const TYPE_ENTITY_DESCRIPTOR = 0x60121a9e;
const TYPE_DATA_LAYER_FILTER = 0xdb1d406e;
const TYPE_HIERARCHY = 0x788baa0d;
const TYPE_HIERARCHY_HANDLE = 0x709fb9d4;

/**
 * How a shape body begins. 'table': as forge-shapes.md tabulates it (a tag byte and a u32). The AC2-era object
 * header seen in public dumps (0x01, u32 id, u32 class = the record's own type id) comes in two readings:
 * 'header' — the header in place of the table's tag and u32, the fields from the table's 0x5 on; 'header+table' —
 * the header, then the whole table. Which one a body uses is told by which consumes it exactly (their lengths
 * differ by 4, 5 and 9 bytes, 90 apart per compound child, so at most one can).
 */
export type ShapeHead = 'table' | 'header' | 'header+table';
const SHAPE_READ_TYPES = new Set<number>([FORGE_TYPES.SphereShape, FORGE_TYPES.CapsuleShape, FORGE_TYPES.BoxShape, FORGE_TYPES.ReferenceListShape]);

/** Whether a body starts with the AC2-era object header of its own type: 0x01, u32 id, u32 class. */
export function hasObjectHeader(type: number, body: Uint8Array): boolean {
  return body.length >= 9 && body[0] === 1 && new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(5, true) === type >>> 0;
}

/** Reads one record body of `type`. Throws RecordRefusal when it does not consume exactly; undefined for a type without a grammar here. */
export function readRecord(type: number, body: Uint8Array, profile: EntityProfile = 'sws'): ForgeRecord | undefined {
  if (!READ_TYPES.has(type >>> 0)) return undefined;
  if (!SHAPE_READ_TYPES.has(type >>> 0) || !hasObjectHeader(type, body)) return readAs(type, body, profile, 'table');
  // The AC2-era header: the reading that consumes the body exactly (at most one can), else the header reading's refusal.
  let first: RecordRefusal | undefined;
  for (const head of ['header', 'header+table', 'table'] as const) {
    try {
      return readAs(type, body, profile, head);
    } catch (e) {
      if (!(e instanceof RecordRefusal)) throw e;
      first ??= e;
    }
  }
  throw first!;
}

function readAs(type: number, body: Uint8Array, profile: EntityProfile, head: ShapeHead): ForgeRecord {
  const r = new Reader(body, forgeTypeName(type));
  const refuse = (at: number, expected: string, actual: string): never => {
    throw new RecordRefusal(type, at, expected, actual, head === 'table' ? '' : ` (read as the AC2-era object header${head === 'header' ? ' in place of the tag and u32' : ' then the table'})`);
  };
  try {
    const rec = parse(type >>> 0, r, refuse, profile, head);
    if (r.pos !== body.length) refuse(r.pos, `the end of the body (${r.pos} bytes)`, `${body.length - r.pos} more byte(s)`);
    return rec;
  } catch (e) {
    if (e instanceof FormatError) {
      // A read past the end: the body is shorter than its grammar.
      refuse(e.offset, e.detail.replace(/:.*$/, '') + ' within the body', `${body.length} bytes in all`);
    }
    throw e;
  }
}

/** A shape's first fields: the table's tag byte and u32, or the AC2-era header (then, for 'header+table', the table's). */
function shapeHead(r: Reader, type: number, refuse: Refuse, head: ShapeHead, tag: (r: Reader) => number): { tag: number; word: number; header?: ObjectHeader } {
  if (head === 'table') return { tag: tag(r), word: r.u32('u32 at 0x1') };
  expectU8(r, [1], 'object header byte', refuse);
  const id = r.u32('object id');
  const cls = expectU32(r, type, 'object class', refuse);
  const header = { id, class: cls };
  if (head === 'header') return { tag: 1, word: 0, header };
  return { tag: tag(r), word: r.u32('u32 at 0x1'), header };
}

type Refuse = (at: number, expected: string, actual: string) => never;

const u64 = (r: Reader, what: string): bigint => {
  const lo = r.u32(what);
  const hi = r.u32(what);
  return (BigInt(hi) << 32n) | BigInt(lo);
};
const vec4 = (r: Reader, what: string): Vec4 => [r.f32(what), r.f32(what), r.f32(what), r.f32(what)];
const matrix = (r: Reader, what: string): Matrix4 => Array.from({ length: 16 }, () => r.f32(what));
const ref = (r: Reader, what: string): ForgeRef => ({ head: r.bytesN(2, what), id: u64(r, what) });
/**
 * A count whose items need `each` bytes, followed by at least `after` bytes whatever the count: checked against
 * the bytes left before any loop or allocation.
 */
function count(r: Reader, each: number, what: string, refuse: Refuse, after = 0): number {
  const at = r.pos;
  const n = r.u32(what);
  if (n > MAX_RECORD_ITEMS || r.pos + n * each + after > r.length) {
    refuse(at, `${what} whose ${each}-byte items${after ? ` and ${after} bytes after them` : ''} fit in the ${r.length - r.pos} bytes left`, `${n}`);
  }
  return n;
}
function expectU8(r: Reader, want: number[], what: string, refuse: Refuse): number {
  const at = r.pos;
  const v = r.u8(what);
  if (!want.includes(v)) refuse(at, `${what} ${want.map((w) => hex(w)).join(' or ')}`, hex(v));
  return v;
}
function expectU32(r: Reader, want: number, what: string, refuse: Refuse): number {
  const at = r.pos;
  const v = r.u32(what);
  if (v !== want) refuse(at, `${what} ${hex(want)}`, hex(v));
  return v;
}
function expectU64Zero(r: Reader, what: string, refuse: Refuse): void {
  const at = r.pos;
  const v = u64(r, what);
  if (v !== 0n) refuse(at, `${what} 0`, `0x${v.toString(16)}`);
}

function parse(type: number, r: Reader, refuse: Refuse, profile: EntityProfile, head: ShapeHead = 'table'): ForgeRecord {
  const tag1 = (x: Reader): number => expectU8(x, [1], 'tag', refuse);
  switch (type) {
    case FORGE_TYPES.SphereShape: {
      const h = shapeHead(r, type, refuse, head, tag1);
      return { kind: 'SphereShape', tag: h.tag, zero: h.word, ...(h.header ? { header: h.header } : {}), centre: vec4(r, 'centre'), radius: r.f32('radius'), material: ref(r, 'CollisionMaterial') };
    }
    case FORGE_TYPES.CapsuleShape: {
      const h = shapeHead(r, type, refuse, head, tag1);
      return {
        kind: 'CapsuleShape', tag: h.tag, zero: h.word, ...(h.header ? { header: h.header } : {}), endA: vec4(r, 'end A'), endB: vec4(r, 'end B'), radius: r.f32('radius'), material: ref(r, 'CollisionMaterial'),
      };
    }
    case FORGE_TYPES.BoxShape: {
      const h = shapeHead(r, type, refuse, head, (x) => x.u8('ManagedObject byte'));
      return { kind: 'BoxShape', managed: h.tag, userCategory: h.word, ...(h.header ? { header: h.header } : {}), halfExtents: vec4(r, 'HalfExtents'), matrix: matrix(r, 'Matrix'), material: ref(r, 'Material') };
    }
    case FORGE_TYPES.ReferenceListShape: {
      const h = shapeHead(r, type, refuse, head, tag1);
      // Per child a reference, a matrix and a Scales vec4 (90 bytes); once, the two repeated counts and the bounds.
      const n = count(r, 10 + 64 + 16, 'child count', refuse, 4 + 4 + 32);
      const children = Array.from({ length: n }, () => ref(r, 'child'));
      const again = (what: string): void => {
        const at = r.pos;
        const m = r.u32(what);
        if (m !== n) refuse(at, `${what} = child count ${n}`, `${m}`);
      };
      again('transform count');
      const transforms = Array.from({ length: n }, () => matrix(r, 'child transform'));
      again('Scales count');
      const scales = Array.from({ length: n }, () => vec4(r, 'Scales'));
      return { kind: 'ReferenceListShape', tag: h.tag, zero: h.word, ...(h.header ? { header: h.header } : {}), children, transforms, scales, min: vec4(r, 'minimum'), max: vec4(r, 'maximum') };
    }
    case FORGE_TYPES.Entity:
      return profile === 'sws' ? swsEntity(r, refuse) : genericEntity(r, refuse, 'Entity');
    case FORGE_TYPES.EntityGroup: {
      const prefix = genericEntity(r, refuse, 'EntityGroup');
      const c = count(r, 10, 'member count', refuse);
      const members = Array.from({ length: c }, () => ref(r, 'member'));
      const m = count(r, 9, 'member link count', refuse);
      const memberLinks = Array.from({ length: m }, () => r.bytesN(9, 'member link'));
      return { ...prefix, kind: 'EntityGroup', members, memberLinks, optimizationState: r.u32('GroupOptimizationState') };
    }
    default:
      throw new Error(`forge: no grammar for ${forgeTypeName(type)}`);
  }
}

/** forge-entities.md, the Entity table (generic profile); with `group`, the prefix an EntityGroup starts with. */
function genericEntity(r: Reader, refuse: Refuse, what: 'Entity' | 'EntityGroup'): GenericEntity {
  const t0 = expectU8(r, [1], 'tag', refuse);
  const t1 = expectU8(r, [3, 0], 'tag', refuse);
  let hierarchy: Uint8Array | undefined;
  if (t1 === 0) {
    // 01 00: inline Hierarchy (u64 + type + 64 bytes) and HierarchyHandle (u64 + type + u32 + 9 bytes), kept as stored.
    const start = r.pos;
    r.bytesN(8, 'Hierarchy id');
    expectU32(r, TYPE_HIERARCHY, 'Hierarchy type', refuse);
    r.bytesN(64, 'Hierarchy');
    r.bytesN(8, 'HierarchyHandle id');
    expectU32(r, TYPE_HIERARCHY_HANDLE, 'HierarchyHandle type', refuse);
    r.bytesN(4 + 9, 'HierarchyHandle');
    hierarchy = r.bytes.slice(start, r.pos);
  }
  const placement = matrix(r, 'placement');
  const at = r.pos;
  const components = r.u32('component count');
  // "Type-specific grammar; no universal stored component length": a component's end is not known, so an entity
  // with components is refused rather than delimited by guessing.
  if (components !== 0) {
    const next = r.pos + 13 <= r.length ? ` (the first: tag ${hex(r.u8At(r.pos))}, type ${hex(r.u32At(r.pos + 9))})` : '';
    refuse(at, `component count 0 (component bodies have no length rule in forge-entities.md)`, `${components}${next}`);
  }
  const run = r.bytesN(43, 'Run');
  const fakeCellIndex = r.u32('FakeCellIndex');
  const scale = r.f32('Scale');
  const bounds = r.bytesN(40, 'BoundingVolume');
  expectU64Zero(r, 'EntityDescriptor id', refuse);
  expectU32(r, TYPE_ENTITY_DESCRIPTOR, 'EntityDescriptor type', refuse);
  const descriptor = { descriptorType: r.u32('DescriptorType'), subDescriptorType: r.u32('SubDescriptorType'), networkType: r.u32('NetworkType'), isPickableByPlayer: r.u8('IsPickableByPlayer') };
  expectU64Zero(r, 'DataLayerFilter id', refuse);
  expectU32(r, TYPE_DATA_LAYER_FILTER, 'DataLayerFilter type', refuse);
  const k = count(r, 25, 'DataLayerAction count', refuse);
  const actions = Array.from({ length: k }, () => r.bytesN(25, 'DataLayerAction'));
  const m = count(r, 9, 'UIVisualsDisplayOrder link count', refuse);
  const links = Array.from({ length: m }, () => r.bytesN(9, 'link'));
  // ResetData: 03 null; inline GameStateData has no grammar for this profile.
  const reset = expectU8(r, [3], `${what} ResetData pointer (03 null; inline GameStateData is not tabulated)`, refuse);
  return { kind: 'Entity', profile: 'generic', tags: [t0, t1], ...(hierarchy ? { hierarchy } : {}), placement, components, run, fakeCellIndex, scale, bounds, descriptor, actions, links, reset };
}

/** forge-entities.md "Shaun White Skateboarding": the SWS Entity. */
function swsEntity(r: Reader, refuse: Refuse): SwsEntity {
  const managed = r.u8('managed');
  const id = r.u32('id');
  expectU32(r, FORGE_TYPES.Entity, 'class (CRC-32 of Entity)', refuse);
  const placement = matrix(r, 'GlobalMatrix');
  expectU8(r, [3], 'Hierarchy pointer (03 null; an inline Hierarchy is not tabulated)', refuse);
  const at = r.pos;
  const components = r.u32('component count');
  if (components !== 0) {
    const next = r.pos + 9 <= r.length ? ` (the first: pointer tag ${hex(r.u8At(r.pos))}, then ${hex(r.u32At(r.pos + 1))} ${hex(r.u32At(r.pos + 5))})` : '';
    refuse(at, 'component count 0 (no component class has a layout in forge-entities.md)', `${components}${next}`);
  }
  const flags = r.bytesN(34, 'flag bytes');
  const boundsMin: [number, number, number] = [r.f32('bounds Min'), r.f32('bounds Min'), r.f32('bounds Min')];
  const boundsMax: [number, number, number] = [r.f32('bounds Max'), r.f32('bounds Max'), r.f32('bounds Max')];
  const boundsKind = r.u32('bounds enum');
  const descriptor = r.bytesN(12, 'EntityDescriptor');
  expectU8(r, [3], 'null pointer', refuse);
  expectU8(r, [3], 'null pointer', refuse);
  const word = r.u32('GameStateData');
  const array = (what: string): Uint8Array => {
    const a = r.pos;
    const n = r.u32(`${what} length`);
    if (n > MAX_RESET_ARRAY || r.pos + n > r.length) refuse(a, `${what} length within the ${r.length - r.pos} bytes left`, `${n}`);
    return r.bytesN(n, what);
  };
  const first = array('GameStateData first array');
  const second = array('GameStateData second array');
  const tail = r.bytesN(16, 'tail');
  return { kind: 'Entity', profile: 'sws', managed, id, placement, components, flags, boundsMin, boundsMax, boundsKind, descriptor, reset: { word, first, second }, tail };
}

/** Records read, refused and skipped, by class name (the summary's and the manifest's counts). */
export interface RecordCounts {
  read: Record<string, number>;
  refused: Record<string, number>;
  skipped: Record<string, number>;
}
export const emptyCounts = (): RecordCounts => ({ read: {}, refused: {}, skipped: {} });
export const bump = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};
