// The game's binary .ymap: an RSC7 resource (version 2) whose system segment holds a parser "meta" document, the
// CMapData the .ymap.xml spells out. Only the entities' placements are read (ymap.ts uses them exactly as the XML's).
// Layout facts from CodeWalker's public reader (GameFiles/MetaTypes/Meta.cs, MetaTypes.cs; facts, not code):
// - the meta document at system offset 0: 0x1C root block index (1-based, i32), 0x30 pointer to the data-block
//   table, 0x4C number of data blocks (u16);
// - a data block (16 bytes): u32 structure name hash (Jenkins one-at-a-time over the name, case kept), u32 byte
//   length, u64 resource pointer to its bytes;
// - a reference inside the blocks is a u32: block id (1-based) in bits 0–11, byte offset in that block in 12–31;
// - CMapData (0x200 bytes, the root block): `entities` at 0x60, an array of structure pointers (u32 reference, u32,
//   u16 count, u16 capacity, u32), whose elements are 8 bytes (a u32 reference, u32) to a CEntityDef (0x80 bytes)
//   or a CMloInstanceDef (0xA0 bytes, a CEntityDef first);
// - CEntityDef: archetypeName hash 0x08, position x, y, z (f32) 0x20, rotation x, y, z, w (f32) 0x30, scaleXY 0x40,
//   scaleZ 0x44.
// Every pointer, reference and count is checked against its segment or block before it is read; data blocks may not
// share bytes, and an entity reference naming the map or its own pointer list (a loop) is refused.
import type { Quat } from '../../shapes/index.ts';
import { makePlacement, MAX_YMAP_ENTITIES, type Placement, type Vec3 } from './ymap.ts';
import { readRsc7, ResourceReader } from './rsc7.ts';

/** Resource version of the game's .ymap files (a different one is read with a warning). */
export const YMAP_VERSION = 2;

/** Jenkins one-at-a-time over the bytes as written (the parser hashes structure names keeping their case). */
export function joaatKeepCase(name: string): number {
  let h = 0;
  for (const ch of name) {
    h = (h + (ch.charCodeAt(0) & 0xff)) >>> 0;
    h = (h + (h << 10)) >>> 0;
    h = (h ^ (h >>> 6)) >>> 0;
  }
  h = (h + (h << 3)) >>> 0;
  h = (h ^ (h >>> 11)) >>> 0;
  return (h + (h << 15)) >>> 0;
}

export const META_STRUCT = {
  CMapData: joaatKeepCase('CMapData'),
  CEntityDef: joaatKeepCase('CEntityDef'),
  CMloInstanceDef: joaatKeepCase('CMloInstanceDef'),
} as const;

/** Structure sizes (bytes) CodeWalker gives; a block must hold a whole one where one is read. */
const SIZE = { CEntityDef: 0x80, CMloInstanceDef: 0xa0, CMapDataEntities: 0x70 } as const;

interface Block {
  hash: number;
  length: number;
  /** Body offset of its first byte (null for an empty block without data). */
  at: number | null;
}

/** Placements of a binary .ymap (CEntityDef and CMloInstanceDef). Throws `ymap: <file>: at 0x…: …` naming the field. */
export function readYmapBinary(bytes: Uint8Array, file: string, warn: (m: string) => void): Placement[] {
  const stage = `ymap: ${file}`;
  const res = readRsc7(bytes, stage, warn, { version: YMAP_VERSION, name: 'YMAP' });
  const rr = new ResourceReader(res, stage);
  const r = rr.r;
  const rootId = r.u32At(0x1c, 'meta root block index') | 0;
  const tableAt = rr.ptr(0x30, 'meta data-block table');
  const count = r.u16At(0x4c, 'meta data-block count');
  if (tableAt === null || count === 0) return rr.fail('meta document: no data blocks (not a map placement file?)', 0x30);
  rr.span(tableAt, 16 * count, `meta data-block table (${count} × 16 bytes)`);
  const blocks: Block[] = [];
  for (let i = 0; i < count; i++) {
    const at = tableAt + 16 * i;
    const hash = r.u32At(at, `data block ${i + 1} structure hash`);
    const length = r.u32At(at + 4, `data block ${i + 1} length`);
    const data = rr.ptr(at + 8, `data block ${i + 1}`);
    if (data === null && length > 0) rr.fail(`data block ${i + 1}: ${length} bytes but a null pointer`, at + 8);
    if (data !== null) rr.span(data, length, `data block ${i + 1} (${length} bytes)`);
    blocks.push({ hash, length, at: data });
  }
  // Data blocks are separate allocations: two that share bytes would read one structure as another (the map from an
  // entity's bytes, 0 entities and no word). Sorted by start, each must end before the next begins.
  const order = blocks.map((b, i) => i).filter((i) => blocks[i].at !== null && blocks[i].length > 0).sort((a, b) => blocks[a].at! - blocks[b].at! || a - b);
  for (let k = 1; k < order.length; k++) {
    const [p, q] = [blocks[order[k - 1]], blocks[order[k]]];
    if (p.at! + p.length > q.at!) {
      const [first, second] = order[k - 1] < order[k] ? [order[k - 1], order[k]] : [order[k], order[k - 1]];
      const f = blocks[first], g = blocks[second];
      rr.fail(`data block ${second + 1} (${g.length} bytes at 0x${g.at!.toString(16)}) overlaps data block ${first + 1} (${f.length} bytes at 0x${f.at!.toString(16)})`, tableAt + 16 * second + 8);
    }
  }
  if (!(rootId >= 1 && rootId <= count)) rr.fail(`meta root block index ${rootId}: expected 1 … ${count}`, 0x1c);
  const root = blocks[rootId - 1];
  if (root.hash !== META_STRUCT.CMapData) {
    rr.fail(`meta root block ${rootId}: structure hash 0x${root.hash.toString(16)}, expected CMapData (0x${META_STRUCT.CMapData.toString(16)}); not a map placement file`, tableAt + 16 * (rootId - 1));
  }
  if (root.length < SIZE.CMapDataEntities || root.at === null) rr.fail(`CMapData block: ${root.length} bytes, fewer than the ${SIZE.CMapDataEntities} its entities array needs`, tableAt + 16 * (rootId - 1));
  /** A reference → body offset of `size` bytes inside its block, and the block. */
  const deref = (ref: number, size: number, what: string, at: number): { at: number; block: Block; id: number } => {
    const id = ref & 0xfff;
    const offset = ref >>> 12;
    if (!(id >= 1 && id <= count)) rr.fail(`${what}: reference 0x${ref.toString(16)} names block ${id}, expected 1 … ${count}`, at);
    const block = blocks[id - 1];
    if (block.at === null || offset + size > block.length) rr.fail(`${what}: reference 0x${ref.toString(16)}: ${size} bytes at offset ${offset} of block ${id}, which holds ${block.length}`, at);
    return { at: block.at! + offset, block, id };
  };
  const arrayAt = root.at! + 0x60;
  const n = r.u16At(arrayAt + 8, 'CMapData entities count');
  if (n === 0) return [];
  if (n > MAX_YMAP_ENTITIES) rr.fail(`CMapData entities: ${n}, more than ${MAX_YMAP_ENTITIES}`, arrayAt + 8);
  const list = deref(r.u32At(arrayAt, 'CMapData entities reference'), 8 * n, `CMapData entities (${n} pointers)`, arrayAt);
  const out: Placement[] = [];
  for (let i = 0; i < n; i++) {
    const ptrAt = list.at + 8 * i;
    const ref = r.u32At(ptrAt, `entity ${i} reference`);
    const id = ref & 0xfff;
    const hash = id >= 1 && id <= count ? blocks[id - 1].hash : undefined;
    const kind = hash === META_STRUCT.CMloInstanceDef ? 'CMloInstanceDef' : hash === META_STRUCT.CEntityDef ? 'CEntityDef' : undefined;
    if (kind === undefined) {
      if (hash === undefined) deref(ref, 0, `entity ${i}`, ptrAt); // throws, naming the bad block
      // A reference back into the map or its own pointer list is a loop, not another entity class.
      const loop = id === rootId ? 'the CMapData root' : id === list.id ? "the map's entity pointer list" : undefined;
      if (loop) rr.fail(`entity ${i}: reference 0x${ref.toString(16)} names block ${id}, ${loop}, not an entity`, ptrAt);
      deref(ref, 0, `entity ${i}`, ptrAt); // inside its block, even when skipped
      continue; // another entity class: it places no YBN (as the XML reader skips other types)
    }
    const e = deref(ref, SIZE[kind], `entity ${i} (${kind})`, ptrAt).at;
    const archetype = `hash_${r.u32At(e + 0x08, `entity ${i} archetypeName`).toString(16).padStart(8, '0')}`;
    const f = (off: number, what: string): number => {
      const v = r.f32At(e + off, `entity ${i} ${what}`);
      if (!Number.isFinite(v)) rr.fail(`entity ${i} (${kind} "${archetype}"): ${what} is ${v}, not a finite number`, e + off);
      return v;
    };
    const position = [f(0x20, 'position x'), f(0x24, 'position y'), f(0x28, 'position z')] as Vec3;
    const rotation = [f(0x30, 'rotation x'), f(0x34, 'rotation y'), f(0x38, 'rotation z'), f(0x3c, 'rotation w')] as Quat;
    const sxy = kind === 'CEntityDef' ? f(0x40, 'scaleXY') : 1;
    const sz = kind === 'CEntityDef' ? f(0x44, 'scaleZ') : 1;
    out.push(makePlacement(file, i, kind, archetype, position, rotation, sxy, sz, `${stage}: at 0x${(e + 0x30).toString(16)}: entity ${i} (${kind} "${archetype}"): rotation`));
  }
  return out;
}
