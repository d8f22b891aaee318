// PhysicsResource reader and writer: ../shared/spec/physics-resource.md, "PhysicsResource".
// readPhysicsResource checks every count and offset against the input before it allocates, refuses what it cannot
// keep exactly (FormatError naming the field, its offset and the values), and records the layout it found so that
// writePhysicsResource(readPhysicsResource(b)) is b, byte for byte. Without layout hints the writer uses the reference
// encoder's layout (src/format/layout.ts).
import { FormatError, Reader, Writer, hex } from './cursor.ts';
import { HEADER_FIELD, readHeader, writeHeader } from './header.ts';
import { findFill, planLayout, type Region, checkRegions, writeFill } from './layout.ts';
import { readPart, writePart } from './part.ts';
import {
  ARRAY_SPECS,
  SHAPE_FIELD,
  SLOT,
  type ShapeHeader,
  checkShapeRecord,
  readShapeArrays,
  readShapeHeader,
  shapeArrayBytes,
  writeShapeHeader,
} from './shape.ts';
import { HEADER_SIZE, NO_SHAPE, PART_SIZE, type PhysicsResource, SHAPE_ARRAY_COUNT, SHAPE_SIZE } from './types.ts';

/** Decodes a PhysicsResource; throws FormatError on anything it cannot read and write back exactly. */
export function readPhysicsResource(bytes: Uint8Array): PhysicsResource {
  const h = readHeader(new Reader(bytes, 'header'));
  const regions: Region[] = [
    { at: 0, size: HEADER_SIZE, what: 'header' },
    { at: h.shapeTable, size: SHAPE_SIZE * h.shapeCount, what: 'shape table', field: HEADER_FIELD.shapeTable },
    { at: h.partTable, size: PART_SIZE * h.partCount, what: 'part table', field: HEADER_FIELD.partTable },
  ];
  const headers: ShapeHeader[] = [];
  for (let i = 0; i < h.shapeCount; i++) {
    const at = h.shapeTable + SHAPE_SIZE * i;
    const sh = readShapeHeader(new Reader(bytes, `shape ${i}`), at);
    checkShapeHeader(sh, i, at, bytes.byteLength);
    headers.push(sh);
    for (let k = 0; k < SHAPE_ARRAY_COUNT; k++) {
      const size = ARRAY_SPECS[k].bytes(sh.counts);
      const field = at + SHAPE_FIELD.offsets + 4 * k;
      if (sh.arrays[k] !== 0) regions.push({ at: sh.arrays[k], size, what: `shape ${i} ${ARRAY_SPECS[k].name}`, field });
    }
  }
  regions.push({ at: HEADER_SIZE, size: h.shapeTable - HEADER_SIZE, what: 'body' });
  checkRegions(regions, bytes.byteLength);
  const parts = [];
  for (let i = 0; i < h.partCount; i++) {
    parts.push(readPart(new Reader(bytes, `part ${i}`), h.partTable + PART_SIZE * i, h.shapeCount));
  }
  const shapes = headers.map((sh, i) => {
    const s = readShapeArrays(bytes, sh);
    checkCornerVertices(s.cornerVertices, sh, i);
    return s;
  });
  return {
    version: h.version,
    word08: h.word08,
    word14: h.word14,
    word20: h.word20,
    body: bytes.slice(HEADER_SIZE, h.shapeTable),
    shapes,
    parts,
    layout: {
      size: bytes.byteLength,
      shapeTable: h.shapeTable,
      partTable: h.partTable,
      arrays: headers.map((sh) => sh.arrays.slice()),
      fill: findFill(bytes, regions),
    },
  };
}

/**
 * Refuses a shape record the record types cannot hold exactly: a count whose array is absent, a tree that is not
 * faces − 1 nodes, the unused offsets set, an array off its element's alignment or past the end.
 */
function checkShapeHeader(sh: ShapeHeader, i: number, at: number, length: number): void {
  const stage = `shape ${i}`;
  const field = (k: number): number => at + SHAPE_FIELD.offsets + 4 * k;
  const c = sh.counts;
  const needs = (k: number, count: number, countName: string, countAt: number): void => {
    if (count > 0 && sh.arrays[k] === 0) {
      throw new FormatError(stage, countAt, `${countName} ${count} but offset [${k}] ${ARRAY_SPECS[k].name} is 0`);
    }
  };
  needs(SLOT.vertices, c.vertices, 'vertex count', at + SHAPE_FIELD.vertexCount);
  needs(SLOT.cornerVertices, c.corners, 'corner count', at + SHAPE_FIELD.cornerCount);
  needs(SLOT.faceOffsets, c.faces, 'face count', at + SHAPE_FIELD.faceCount);
  needs(SLOT.tree, c.nodes, 'tree node count', at + SHAPE_FIELD.nodeCount);
  if (sh.arrays[SLOT.tree] !== 0 && c.nodes !== Math.max(0, c.faces - 1)) {
    throw new FormatError(stage, at + SHAPE_FIELD.nodeCount, `tree node count ${c.nodes} ≠ face count ${c.faces} − 1`);
  }
  for (const k of [SLOT.unused8, SLOT.unused9]) {
    if (sh.arrays[k] !== 0) throw new FormatError(stage, field(k), `offset [${k}] (unused) is set: points at ${hex(sh.arrays[k])}`);
  }
  for (let k = 0; k < SHAPE_ARRAY_COUNT; k++) {
    const pos = sh.arrays[k];
    if (pos === 0) continue;
    const spec = ARRAY_SPECS[k];
    const size = spec.bytes(c);
    if (pos + size > length) {
      throw new FormatError(stage, field(k), `offset [${k}] ${spec.name}: ${size} bytes at ${hex(pos)} run past the end (input ${length} bytes)`);
    }
    if (pos % spec.align !== 0) {
      throw new FormatError(stage, field(k), `offset [${k}] ${spec.name}: ${hex(pos)} is not ${spec.align}-aligned`);
    }
  }
}

/** Every corner names a vertex of its shape. */
function checkCornerVertices(cv: Uint16Array, sh: ShapeHeader, i: number): void {
  const n = sh.counts.vertices;
  for (let c = 0; c < cv.length; c++) {
    if (cv[c] >= n) {
      const at = sh.arrays[SLOT.cornerVertices] + 2 * c;
      throw new FormatError(`shape ${i}`, at, `corner vertices[${c}]: vertex ${cv[c]} ≥ vertex count ${n}`);
    }
  }
}

/** Lays out `res` (following res.layout when it still fits), allocating the output once. */
export function writePhysicsResource(res: PhysicsResource): Uint8Array {
  res.shapes.forEach((s, i) => checkShapeRecord(s, `write: shape ${i}`));
  res.parts.forEach((p, i) => {
    if (p.shape !== NO_SHAPE && p.shape >= res.shapes.length) {
      throw new FormatError(`write: part ${i}`, 0, `shape index ${p.shape} ≥ shape count ${res.shapes.length}`);
    }
  });
  const plan = planLayout(res);
  const w = new Writer(plan.size, 'write');
  writeHeader(w, {
    version: res.version,
    word08: res.word08,
    word14: res.word14,
    word20: res.word20,
    partCount: res.parts.length,
    shapeCount: res.shapes.length,
    shapeTable: plan.shapeTable,
    partTable: plan.partTable,
  });
  w.seek(HEADER_SIZE).raw(res.body, 'body');
  res.shapes.forEach((s, i) => {
    w.seek(plan.shapeTable + SHAPE_SIZE * i);
    writeShapeHeader(w, s, plan.arrays[i]);
    shapeArrayBytes(s).forEach((b, k) => {
      if (b.byteLength > 0) w.seek(plan.arrays[i][k]).raw(b, `shape ${i} ${ARRAY_SPECS[k].name}`);
    });
  });
  res.parts.forEach((p, i) => writePart(w.seek(plan.partTable + PART_SIZE * i), p));
  writeFill(w, plan.fill);
  return w.bytes;
}
