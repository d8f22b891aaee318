// PhysicsResource reader and writer: ../shared/spec/physics-resource.md, "PhysicsResource".
// readPhysicsResource checks every count and offset against the input before it allocates, refuses what it cannot
// keep exactly (FormatError naming the field, its offset and the values), and records the layout it found so that
// writePhysicsResource(readPhysicsResource(b)) is b, byte for byte. Without layout hints the writer uses the reference
// encoder's layout (src/format/layout.ts).
import { type ByteSink, Comparer, FormatError, Reader, Writer, hex, plainBytes } from './cursor.ts';
import { HEADER_FIELD, readHeader, writeHeader } from './header.ts';
import { findFill, planLayout, type Region, checkRegions, writeFill } from './layout.ts';
import { partAt, readPart, writePart } from './part.ts';
import {
  ARRAY_SPECS,
  SHAPE_FIELD,
  bitsetBytes,
  SLOT,
  type ShapeHeader,
  checkShapeRecord,
  readShapeArrays,
  readShapeFaces,
  readShapeHeader,
  shapeHeaderAt,
  writeShapeArrays,
  writeShapeHeader,
} from './shape.ts';
import { HEADER_SIZE, NO_SHAPE, PART_SIZE, type PartRecord, type PhysicsResource, type ShapeRecord, type ResourceLayout, SHAPE_ARRAY_COUNT, SHAPE_SIZE } from './types.ts';

export interface ReadOptions {
  /**
   * The record's shape arrays are views of `input` itself, not of a copy: for a caller that changes neither the
   * bytes nor the record's arrays while both are in use (verify, the ride: bytes read from a file for this alone).
   * Default false: the record shares nothing with the input.
   */
  borrow?: boolean;
}

/** Decodes a PhysicsResource; throws FormatError on anything it cannot read and write back exactly. */
export function readPhysicsResource(input: Uint8Array, options: ReadOptions = {}): PhysicsResource {
  // The shape arrays are views of one copy of the whole input (readShapeArrays; of the input itself when borrowed):
  // the record does not alias the caller's bytes unless asked to (a Buffer's slice would), and a file costs one
  // allocation, not a dozen a shape.
  const bytes = options.borrow ? plainBytes(input) : plainBytes(input).slice();
  const h = readHeader(new Reader(bytes, 'header'));
  const regions: Region[] = [
    { at: 0, size: HEADER_SIZE, what: 'header' },
    { at: h.shapeTable, size: SHAPE_SIZE * h.shapeCount, what: 'shape table', field: HEADER_FIELD.shapeTable },
    { at: h.partTable, size: PART_SIZE * h.partCount, what: 'part table', field: HEADER_FIELD.partTable },
  ];
  const headers: ShapeHeader[] = [];
  // Records read straight from one view where they read without a word to say; a Reader, which names what is wrong,
  // only otherwise (shapeHeaderAt, partAt).
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < h.shapeCount; i++) {
    const at = h.shapeTable + SHAPE_SIZE * i;
    const sh = shapeHeaderAt(view, at) ?? readShapeHeader(new Reader(bytes, `shape ${i}`), at);
    checkShapeHeader(sh, i, at, bytes.byteLength);
    headers.push(sh);
    for (let k = 0; k < SHAPE_ARRAY_COUNT; k++) {
      const size = ARRAY_SPECS[k].bytes(sh.counts);
      const field = at + SHAPE_FIELD.offsets + 4 * k;
      if (sh.arrays[k] !== 0) regions.push({ at: sh.arrays[k], size, what: `shape ${i} ${ARRAY_SPECS[k].name}`, field });
    }
  }
  regions.push({ at: HEADER_SIZE, size: h.shapeTable - HEADER_SIZE, what: 'body' });
  // By position: findFill's own sort then finds them in order.
  const placed = checkRegions(regions, bytes.byteLength);
  const parts = [];
  for (let i = 0; i < h.partCount; i++) {
    const at = h.partTable + PART_SIZE * i;
    parts.push(partAt(view, at, h.shapeCount) ?? readPart(new Reader(bytes, `part ${i}`), at, h.shapeCount));
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
      fill: findFill(bytes, placed),
    },
  };
}

/** A resource's parts and its shapes' face arrays (readResourceOutline). */
export interface ResourceOutline {
  parts: PartRecord[];
  shapes: Pick<ShapeRecord, 'vertices' | 'cornerVertices' | 'faceOffsets'>[];
}

/**
 * The parts and each shape's vertices, corner vertices and face offsets of a PhysicsResource, read as
 * readPhysicsResource reads them (the same header, shape and part checks; the arrays are views of `input`), without
 * the rest: the other arrays, the layout checks, the corner check. For counting faces (the ride's world build, whose
 * files are verified whole before their faces are written); throws FormatError.
 */
export function readResourceOutline(input: Uint8Array): ResourceOutline {
  const bytes = plainBytes(input);
  const h = readHeader(new Reader(bytes, 'header'));
  const shapes: ResourceOutline['shapes'] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < h.shapeCount; i++) {
    const at = h.shapeTable + SHAPE_SIZE * i;
    const sh = shapeHeaderAt(view, at) ?? readShapeHeader(new Reader(bytes, `shape ${i}`), at);
    checkShapeHeader(sh, i, at, bytes.byteLength);
    shapes.push(readShapeFaces(bytes, sh));
  }
  const parts: PartRecord[] = [];
  for (let i = 0; i < h.partCount; i++) {
    const at = h.partTable + PART_SIZE * i;
    parts.push(partAt(view, at, h.shapeCount) ?? readPart(new Reader(bytes, `part ${i}`), at, h.shapeCount));
  }
  return { parts, shapes };
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
  const n = sh.counts.vertices, len = cv.length;
  // Four corners a step up to the first that may fail (the loop's own overhead was half its time), then one at a
  // time from there: the first failing corner is the one named.
  let c = 0;
  for (; c + 3 < len; c += 4) if (cv[c] >= n || cv[c + 1] >= n || cv[c + 2] >= n || cv[c + 3] >= n) break;
  for (; c < len; c++) {
    if (cv[c] >= n) {
      const at = sh.arrays[SLOT.cornerVertices] + 2 * c;
      throw new FormatError(`shape ${i}`, at, `corner vertices[${c}]: vertex ${cv[c]} ≥ vertex count ${n}`);
    }
  }
}

/** Where one shape's corner edge data are in a resource's bytes (byte offsets; 0 when the shape has none). */
export interface EdgeArrays {
  corners: number;
  values: number;
  concave: number;
  flat: number;
}

/**
 * Each shape's edge value and bit arrays, read from the header and shape table alone, for rewriting corners in
 * place (src/tiling/seams.ts). The arrays are checked to lie inside the bytes, aligned; a shape without edge data
 * (kinds 2 and 3) has 0 for each. Throws FormatError naming the shape and field.
 */
export function locateEdgeArrays(bytes: Uint8Array): EdgeArrays[] {
  const h = readHeader(new Reader(bytes, 'header'));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (h.shapeTable + SHAPE_SIZE * h.shapeCount > bytes.byteLength) {
    throw new FormatError('header', HEADER_FIELD.shapeTable, `shape table of ${h.shapeCount} records at ${hex(h.shapeTable)} runs past the end (input ${bytes.byteLength} bytes)`);
  }
  const out: EdgeArrays[] = [];
  for (let i = 0; i < h.shapeCount; i++) {
    const at = h.shapeTable + SHAPE_SIZE * i;
    const corners = view.getUint16(at + SHAPE_FIELD.cornerCount, true);
    const slot = (k: number, size: number, align: number): number => {
      const field = at + SHAPE_FIELD.offsets + 4 * k, v = view.getUint32(field, true);
      if (v === 0) return 0; // no edge data (kinds 2 and 3)
      const pos = field + v;
      if (pos + size > bytes.byteLength || pos % align !== 0) {
        throw new FormatError(`shape ${i}`, field, `offset [${k}] ${ARRAY_SPECS[k].name}: ${size} bytes at ${hex(pos)} are past the end (input ${bytes.byteLength} bytes) or not ${align}-aligned`);
      }
      return pos;
    };
    const bits = bitsetBytes(corners);
    out.push({ corners, values: slot(SLOT.edgeValues, 4 * corners, 4), concave: slot(SLOT.concaveBits, bits, 1), flat: slot(SLOT.flatBits, bits, 1) });
  }
  return out;
}

/**
 * Stores corner c's edge data (value f32, concave and flat bits) into a shape's arrays in the resource's bytes, and
 * widens span ([lo, hi) byte offsets) over the bytes that changed (for a partial rewrite of the file).
 */
export function writeCornerEdge(view: DataView, a: EdgeArrays, c: number, value: number, concave: boolean, flat: boolean, span: [number, number]): void {
  if (!(c >= 0 && c < a.corners) || a.values === 0 || a.concave === 0 || a.flat === 0) {
    throw new FormatError('edges', a.values, `corner ${c} outside the shape's ${a.corners} corners with edge data`);
  }
  const v = a.values + 4 * c, bit = 1 << (c & 7);
  F32[0] = value;
  if (view.getUint32(v, true) !== U32[0]) {
    view.setUint32(v, U32[0], true);
    widen(span, v, v + 4);
  }
  setBit(view, a.concave + (c >> 3), bit, concave, span);
  setBit(view, a.flat + (c >> 3), bit, flat, span);
}

function setBit(view: DataView, at: number, bit: number, on: boolean, span: [number, number]): void {
  const old = view.getUint8(at), now = on ? old | bit : old & ~bit;
  if (now === old) return;
  view.setUint8(at, now);
  widen(span, at, at + 1);
}

const F32 = new Float32Array(1), U32 = new Uint32Array(F32.buffer);

function widen(span: [number, number], lo: number, hi: number): void {
  if (lo < span[0]) span[0] = lo;
  if (hi > span[1]) span[1] = hi;
}

/** Lays out `res` (following res.layout when it still fits), allocating the output once. */
export function writePhysicsResource(res: PhysicsResource): Uint8Array {
  const plan = checkedPlan(res);
  const w = new Writer(plan.size, 'write');
  layOut(res, plan, w);
  return w.bytes;
}

/**
 * Whether writePhysicsResource(res) would give exactly `bytes`, found without writing: the same calls go to a
 * Comparer (src/format/cursor.ts) instead of a Writer. False whenever the write would fail or differ (and, rarely,
 * where a byte is written twice: the caller then writes to see).
 */
export function writesBack(res: PhysicsResource, bytes: Uint8Array): boolean {
  try {
    const plan = checkedPlan(res);
    if (plan.size !== bytes.byteLength) return false;
    const c = new Comparer(bytes, 'write');
    layOut(res, plan, c);
    return c.equal();
  } catch (e) {
    if (e instanceof FormatError) return false;
    throw e;
  }
}

/** The layout to write `res` in, after refusing a record that cannot be written faithfully. */
function checkedPlan(res: PhysicsResource): ResourceLayout {
  res.shapes.forEach((s, i) => checkShapeRecord(s, `write: shape ${i}`));
  res.parts.forEach((p, i) => {
    if (p.shape !== NO_SHAPE && p.shape >= res.shapes.length) {
      throw new FormatError(`write: part ${i}`, 0, `shape index ${p.shape} ≥ shape count ${res.shapes.length}`);
    }
  });
  return planLayout(res);
}

function layOut(res: PhysicsResource, plan: ResourceLayout, w: ByteSink): void {
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
    writeShapeArrays(w, s, plan.arrays[i], i);
  });
  res.parts.forEach((p, i) => writePart(w.seek(plan.partTable + PART_SIZE * i), p));
  writeFill(w, plan.fill);
}
