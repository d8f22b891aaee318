// Where the writer puts each record: ../shared/spec/physics-resource.md, "PhysicsResource" (the paragraph on shape
// arrays), as the reference encoder settles it (docs/format-decisions.md, "Codec"). A resource read from bytes
// carries the layout it was found in (ResourceLayout); the writer follows that while it still fits the record, so
// padding and grouping other tools chose survive a round trip, and otherwise lays the record out afresh.
import { type ByteSink, FormatError, alignUp, copyBytes, hex } from './cursor.ts';
import { ARRAY_SPECS, SHAPE_FIELD, SLOT, recordArrayBytes } from './shape.ts';
import {
  HEADER_SIZE,
  type LayoutFill,
  PART_SIZE,
  type PhysicsResource,
  type ResourceLayout,
  SHAPE_ARRAY_COUNT,
  SHAPE_SIZE,
} from './types.ts';

/** A byte range the resource's records occupy. */
export interface Region {
  at: number;
  size: number;
  what: string;
  /** Position of the offset field that placed it, named in errors. */
  field?: number;
}

const describe = (r: Region): string =>
  `${r.what} (${r.size} bytes at ${hex(r.at)}${r.field === undefined ? '' : `, offset field at ${hex(r.field)}`})`;

/** Zero bytes the reference leaves after the last face plane (at least this many before what follows). */
export const PLANE_TAIL = 56;
/** Zero bytes after the last tree. */
export const TREE_TAIL = 8;
/** Zero-byte gaps shorter than this inside non-zero padding are kept in one fill run (fewer, larger runs). */
const FILL_MERGE_GAP = 16;

/** Refuses regions that leave the input or overlap; empty regions are ignored. Returns the others by position. */
export function checkRegions(regions: readonly Region[], length: number): Region[] {
  const sorted = regions.filter((r) => r.size > 0).sort((a, b) => a.at - b.at || a.size - b.size);
  let prev: Region | undefined;
  for (const r of sorted) {
    if (r.at < 0 || r.at + r.size > length) {
      throw new FormatError('layout', r.field ?? r.at, `${describe(r)} runs past the end (input ${length} bytes)`);
    }
    if (prev && r.at < prev.at + prev.size) {
      // Name the later-placed record's field: sorting put it second, so it is the one that lands on the other.
      const [a, b] = (r.field ?? -1) >= (prev.field ?? -1) ? [r, prev] : [prev, r];
      throw new FormatError('layout', a.field ?? a.at, `${describe(a)} overlaps ${describe(b)}`);
    }
    prev = r;
  }
  return sorted;
}

/**
 * The non-zero bytes outside every region, as runs (zero gaps shorter than FILL_MERGE_GAP merged, never across a
 * region). Regions must not overlap (checkRegions); only the gaps between them are scanned.
 */
export function findFill(bytes: Uint8Array, regions: readonly Region[]): LayoutFill[] {
  const sorted = regions.filter((r) => r.size > 0).sort((a, b) => a.at - b.at);
  const fill: LayoutFill[] = [];
  let from = 0;
  for (let i = 0; i <= sorted.length; i++) {
    const to = i < sorted.length ? sorted[i].at : bytes.byteLength;
    gapFill(bytes, from, to, fill);
    if (i < sorted.length) from = Math.max(from, sorted[i].at + sorted[i].size);
  }
  return fill;
}

/** Appends the non-zero runs of bytes[from, to) to `fill`. */
function gapFill(bytes: Uint8Array, from: number, to: number, fill: LayoutFill[]): void {
  let start = -1;
  let last = -1;
  for (let i = from; i < to; i++) {
    if (bytes[i] === 0) continue;
    if (start >= 0 && i - last > FILL_MERGE_GAP) {
      fill.push({ at: start, bytes: copyBytes(bytes, start, last + 1 - start) });
      start = -1;
    }
    if (start < 0) start = i;
    last = i;
  }
  if (start >= 0) fill.push({ at: start, bytes: copyBytes(bytes, start, last + 1 - start) });
}

export function writeFill(w: ByteSink, fill: readonly LayoutFill[]): void {
  for (const f of fill) w.seek(f.at).raw(f.bytes, 'layout fill');
}

/** The layout to write `res` in: its own hints when they still fit it, else the reference encoder's. */
export function planLayout(res: PhysicsResource): ResourceLayout {
  if (res.layout && hintsFit(res, res.layout)) return res.layout;
  return defaultLayout(res);
}

/** The regions `res` occupies when laid out by `l`. */
function regionsOf(res: PhysicsResource, l: ResourceLayout): Region[] {
  const regions: Region[] = [
    { at: 0, size: HEADER_SIZE, what: 'header' },
    { at: HEADER_SIZE, size: res.body.byteLength, what: 'body' },
    { at: l.shapeTable, size: SHAPE_SIZE * res.shapes.length, what: 'shape table' },
    { at: l.partTable, size: PART_SIZE * res.parts.length, what: 'part table' },
  ];
  // Named only for hintsFit, which drops the error: no name a shape array (a level has thousands of them).
  res.shapes.forEach((s, i) => {
    recordArrayBytes(s).forEach((size, k) => regions.push({ at: l.arrays[i][k], size, what: 'shape array' }));
  });
  return regions;
}

/** Whether `l` still describes a faithful place for every record of `res` (a stale or foreign hint is dropped). */
export function hintsFit(res: PhysicsResource, l: ResourceLayout): boolean {
  if (l.shapeTable !== HEADER_SIZE + res.body.byteLength) return false;
  if (l.partTable % 4 !== 0 || l.partTable < HEADER_SIZE || l.partTable > l.size) return false;
  if (!Array.isArray(l.arrays) || l.arrays.length !== res.shapes.length) return false;
  const ok = res.shapes.every((s, i) => {
    const pos = l.arrays[i];
    const sizes = recordArrayBytes(s);
    return (
      pos.length === SHAPE_ARRAY_COUNT &&
      pos[SLOT.unused8] === 0 &&
      pos[SLOT.unused9] === 0 &&
      sizes.every((n, k) => {
        // Offsets are unsigned and self-relative: an array must lie after its own offset field.
        const field = l.shapeTable + SHAPE_SIZE * i + SHAPE_FIELD.offsets + 4 * k;
        if (!Number.isInteger(pos[k])) return false;
        return pos[k] === 0 ? n === 0 : pos[k] > field && pos[k] % ARRAY_SPECS[k].align === 0;
      })
    );
  });
  if (!ok) return false;
  const fills = l.fill.map((f, i) => ({ at: f.at, size: f.bytes.byteLength, what: `fill ${i}` }));
  try {
    checkRegions([...regionsOf(res, l), ...fills], l.size);
  } catch {
    return false;
  }
  return true;
}

/**
 * The reference encoder's layout: header, body, shape table, part table, then the arrays grouped by kind across
 * all shapes in shape order (see docs/format-decisions.md, "Codec").
 */
export function defaultLayout(res: PhysicsResource): ResourceLayout {
  const shapeTable = HEADER_SIZE + res.body.byteLength;
  const partTable = shapeTable + SHAPE_SIZE * res.shapes.length;
  let pos = partTable + PART_SIZE * res.parts.length;
  const sizes = res.shapes.map(recordArrayBytes);
  const arrays = res.shapes.map(() => new Array<number>(SHAPE_ARRAY_COUNT).fill(0));
  const place = (i: number, k: number): void => {
    if (sizes[i][k] === 0) return;
    pos = alignUp(pos, ARRAY_SPECS[k].align);
    arrays[i][k] = pos;
    pos += sizes[i][k];
  };
  const each = (slots: readonly number[]): void => res.shapes.forEach((_, i) => slots.forEach((k) => place(i, k)));
  for (const k of [SLOT.vertices, SLOT.vertexCornerOffsets, SLOT.cornerIdsByVertex, SLOT.cornerVertices]) each([k]);
  each([SLOT.edgeValues, SLOT.concaveBits, SLOT.flatBits]);
  each([SLOT.faceOffsets]);
  // The plane tail is a minimum, not a reservation: trees follow the last plane (8-aligned) and may cover it.
  let end = pos;
  if (sizes.some((s) => s[SLOT.planes] > 0)) {
    each([SLOT.planes]);
    end = pos + PLANE_TAIL;
  }
  if (sizes.some((s) => s[SLOT.tree] > 0)) {
    pos = alignUp(pos, 8);
    each([SLOT.tree]);
    pos += TREE_TAIL;
  }
  return { size: Math.max(pos, end), shapeTable, partTable, arrays, fill: [] };
}
