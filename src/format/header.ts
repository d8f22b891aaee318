// Header (0x38 bytes): ../shared/spec/physics-resource.md, "PhysicsResource", first table. Offsets are
// self-relative (field position + value). The 24- and 44-byte dynamic-prop tables are not decoded: a resource with
// either is refused by name, never misread.
import { type ByteSink, Reader, hex } from './cursor.ts';
import { HEADER_SIZE, MAGIC, PART_SIZE, SHAPE_SIZE, VERSION } from './types.ts';

/** Field positions inside the header. */
export const HEADER_FIELD = {
  version: 0x00,
  magic: 0x04,
  word08: 0x08,
  partCount: 0x0c,
  count24: 0x10,
  word14: 0x14,
  shapeCount: 0x18,
  count44: 0x1c,
  word20: 0x20,
  bodyOffset: 0x24,
  shapeTable: 0x28,
  table44: 0x2c,
  partTable: 0x30,
  partEnd: 0x34,
} as const;

export interface Header {
  version: number;
  word08: number;
  word14: number;
  word20: number;
  partCount: number;
  shapeCount: number;
  /** Absolute positions. */
  shapeTable: number;
  partTable: number;
}

const target = (r: Reader, field: number, what: string): number => {
  const v = r.u32At(field, what);
  return v === 0 ? 0 : field + v;
};

/** Reads and checks the header: version, magic, no dynamic-prop tables, tables inside the input. */
export function readHeader(r: Reader): Header {
  r.need(0, HEADER_SIZE, 'the 0x38-byte header');
  const version = r.u32At(HEADER_FIELD.version, 'version');
  if (version !== VERSION) r.fail(`version: expected ${VERSION}, found ${version}`, HEADER_FIELD.version);
  const magic = r.u32At(HEADER_FIELD.magic, 'magic');
  if (magic !== MAGIC) r.fail(`magic: expected ${hex(MAGIC)}, found ${hex(magic)}`, HEADER_FIELD.magic);
  const count24 = r.u32At(HEADER_FIELD.count24);
  const count44 = r.u32At(HEADER_FIELD.count44);
  if (count24 !== 0 || count44 !== 0) {
    r.fail(`dynamic-prop tables are not decoded: 24-byte ×${count24}, 44-byte ×${count44}`, HEADER_FIELD.count24);
  }
  // Zero in every resource seen, and the reference reader (which reads every base-game resource) refuses any other
  // value next to the dynamic-prop counts: a non-zero word may belong to tables we do not decode.
  for (const [field, name] of [[HEADER_FIELD.word14, 'word 0x14'], [HEADER_FIELD.word20, 'word 0x20']] as const) {
    const v = r.u32At(field, name);
    if (v !== 0) r.fail(`${name}: ${hex(v)}, expected 0 (may belong to the undecoded dynamic-prop tables)`, field);
  }
  const h: Header = {
    version,
    word08: r.u32At(HEADER_FIELD.word08),
    word14: r.u32At(HEADER_FIELD.word14),
    word20: r.u32At(HEADER_FIELD.word20),
    partCount: r.u32At(HEADER_FIELD.partCount),
    shapeCount: r.u32At(HEADER_FIELD.shapeCount),
    shapeTable: target(r, HEADER_FIELD.shapeTable, 'shape table offset'),
    partTable: target(r, HEADER_FIELD.partTable, 'part table offset'),
  };
  const body = target(r, HEADER_FIELD.bodyOffset, 'body offset');
  if (body !== HEADER_SIZE) r.fail(`body offset: points at ${hex(body)}, expected ${hex(HEADER_SIZE)}`, HEADER_FIELD.bodyOffset);
  checkTable(r, HEADER_FIELD.shapeTable, 'shape table', h.shapeTable, h.shapeCount, SHAPE_SIZE);
  checkTable(r, HEADER_FIELD.partTable, 'part table', h.partTable, h.partCount, PART_SIZE);
  // With no 44-byte entries the reference points this field at the part table; anything else is not understood.
  const table44 = target(r, HEADER_FIELD.table44, '44-byte table offset');
  if (table44 !== h.partTable) {
    r.fail(`44-byte table offset: points at ${hex(table44)}, expected the part table ${hex(h.partTable)}`, HEADER_FIELD.table44);
  }
  const partEnd = target(r, HEADER_FIELD.partEnd, 'end of part table');
  const wantEnd = h.partTable + PART_SIZE * h.partCount;
  if (partEnd !== wantEnd) {
    r.fail(`end of part table: points at ${hex(partEnd)}, expected ${hex(wantEnd)} (${h.partCount} parts)`, HEADER_FIELD.partEnd);
  }
  return h;
}

/** A table lies after the header, inside the input, and its count fits (checked before anything is allocated). */
function checkTable(r: Reader, field: number, name: string, at: number, count: number, size: number): void {
  if (at < HEADER_SIZE) r.fail(`${name} offset: points at ${hex(at)}, inside the header`, field);
  if (at % 4 !== 0) r.fail(`${name} offset: ${hex(at)} is not 4-aligned`, field);
  if (count > (r.length - at) / size) {
    r.fail(`${name}: ${count} entries of ${size} bytes at ${hex(at)} run past the end (input ${r.length} bytes)`, field);
  }
}

/** Writes the header; `shapeTable` and `partTable` are absolute positions. */
export function writeHeader(w: ByteSink, h: Header): void {
  const rel = (field: number, abs: number): number => abs - field;
  w.seek(0).u32(h.version, 'version').u32(MAGIC, 'magic').u32(h.word08, 'word08');
  w.u32(h.partCount, 'part count').u32(0, '24-byte count').u32(h.word14, 'word14');
  w.u32(h.shapeCount, 'shape count').u32(0, '44-byte count').u32(h.word20, 'word20');
  w.u32(rel(HEADER_FIELD.bodyOffset, HEADER_SIZE), 'body offset');
  w.u32(rel(HEADER_FIELD.shapeTable, h.shapeTable), 'shape table offset');
  w.u32(rel(HEADER_FIELD.table44, h.partTable), '44-byte table offset');
  w.u32(rel(HEADER_FIELD.partTable, h.partTable), 'part table offset');
  w.u32(rel(HEADER_FIELD.partEnd, h.partTable + PART_SIZE * h.partCount), 'end of part table');
}
