// Invariants of a PhysicsResource (../shared/spec/physics-resource.md, "PhysicsResource" and "Triangle-mesh
// shapes"): the bytes read and write back identically, counts agree with arrays, corners name vertices, face
// offsets ascend, the vertex -> corner index matches the faces, every face lies inside the box of its leaf (boxes
// followed from the root), planes decode to unit normals. Returns findings; never throws on bad data, never prints.
import { FormatError } from './cursor.ts';
import { decodeNormal } from './plane.ts';
import { readPhysicsResource, writePhysicsResource, writesBack } from './resource.ts';
import { PLANE_TAIL, TREE_TAIL } from './layout.ts';
import { checkShapeRecord, recordArrayBytes, SHAPE_FIELD, SLOT } from './shape.ts';
import { type Box6, nodeBoxes } from './tree.ts';
import { PART_FIELD } from './part.ts';
import { KIND_MESH, NO_SHAPE, PART_SIZE, type PhysicsResource, SHAPE_SIZE, type ShapeRecord, faceCount } from './types.ts';

export interface Finding {
  file: string;
  /** Shape index, part index, face, node or byte offset where the finding applies. */
  shape?: number;
  part?: number;
  face?: number;
  node?: number;
  offset?: number;
  /** Short stable name of the check ("roundtrip", "tree-containment", ...). */
  check: string;
  message: string;
}

/**
 * Slack for "face inside its leaf's box": quantisation rounds conservatively, so the reference's own trees need
 * none; this only absorbs f32 rounding of a box bound near the face (relative to the bound's magnitude).
 */
export const CONTAINMENT_REL_TOLERANCE = 2 ** -22;
/** How far a decoded plane normal's length may stray from 1. */
export const NORMAL_LENGTH_TOLERANCE = 1e-4;
/** At most this many findings of one check in one shape are listed; the rest are counted in one line. */
export const MAX_FINDINGS_PER_CHECK = 10;

/**
 * A fast all-clear pass of a shape given from outside (src/geometry/verify-wasm.ts, in WebAssembly): true only
 * where shapeClean is true (false: not sure, and shapeClean runs). Asked only of a shape that passed
 * checkShapeRecord with finite bounds.
 */
export type ShapeCleaner = (s: ShapeRecord, kind: number | undefined) => boolean;

export interface VerifyOptions {
  /** Asked before shapeClean's own loops (none: those alone). Findings are the same with or without it. */
  fast?: ShapeCleaner;
}

/** Reads `bytes`, writes them back and compares, then checks the record's invariants. */
export function verifyPhysics(bytes: Uint8Array, file: string, options: VerifyOptions = {}): Finding[] {
  return verifyAndRead(bytes, file, options).findings;
}

/**
 * verifyPhysics, and the resource it read (none when it could not be read): for callers that go on to use it. The
 * resource's shape arrays are views of `bytes` (readPhysicsResource's borrow: no copy of the file): change neither
 * while the other is in use.
 */
export function verifyAndRead(bytes: Uint8Array, file: string, options: VerifyOptions = {}): { findings: Finding[]; resource?: PhysicsResource } {
  let res: PhysicsResource;
  try {
    res = readPhysicsResource(bytes, { borrow: true });
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { findings: [{ file, check: 'read', offset: e.offset, message: e.message }] };
  }
  const findings: Finding[] = [];
  const back = roundtrip(res, bytes, file);
  if (back) findings.push(back);
  const short = checkLength(res, bytes.length, file);
  if (short) findings.push(short);
  return { findings: findings.concat(verifyResource(res, file, false, options)), resource: res };
}

/**
 * The round trip: `res` written back must be `bytes`. A sound file is told without writing (writesBack, which says
 * no to anything it cannot vouch for); only then is it written back, to find where it differs or why the write fails.
 */
function roundtrip(res: PhysicsResource, bytes: Uint8Array, file: string): Finding | undefined {
  if (writesBack(res, bytes)) return undefined;
  let back: Uint8Array;
  try {
    back = writePhysicsResource(res);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { file, check: 'roundtrip', message: `write back failed: ${e.message}` };
  }
  const at = firstDifference(bytes, back);
  if (at < 0) return undefined;
  return {
    file,
    check: 'roundtrip',
    offset: at,
    message: `written back differs from 0x${at.toString(16)} (input ${bytes.length} bytes, written ${back.length})`,
  };
}

/**
 * Where the file must extend to: 56 bytes past the last face plane (PLANE_TAIL) and 8 past the last tree
 * (TREE_TAIL), whichever is further (**decision**, docs/format-decisions.md "Codec": the trailing zero padding is
 * part of the file; a file that ends inside it is short, whatever tool cut it). Undefined for a record without a
 * layout (not read from bytes) or without planes and trees.
 */
export function requiredLength(res: PhysicsResource): number | undefined {
  const l = res.layout;
  if (!l) return undefined;
  let need: number | undefined;
  res.shapes.forEach((s, i) => {
    const sizes = recordArrayBytes(s);
    const planes = l.arrays[i]?.[SLOT.planes] ?? 0;
    const tree = l.arrays[i]?.[SLOT.tree] ?? 0;
    if (planes && sizes[SLOT.planes]) need = Math.max(need ?? 0, planes + sizes[SLOT.planes] + PLANE_TAIL);
    if (tree && sizes[SLOT.tree]) need = Math.max(need ?? 0, tree + sizes[SLOT.tree] + TREE_TAIL);
  });
  return need;
}

function checkLength(res: PhysicsResource, length: number, file: string): Finding | undefined {
  const need = requiredLength(res);
  if (need === undefined || length >= need) return undefined;
  return {
    file,
    check: 'length',
    offset: length,
    message:
      `the file is ${need - length} bytes short: it ends at 0x${length.toString(16)}, but its trailing zero padding ` +
      `(${PLANE_TAIL} bytes after the last face plane, ${TREE_TAIL} after the last tree) runs to 0x${need.toString(16)}; it was probably cut off`,
  };
}

/** Index of the first differing byte, or −1 when equal. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  // Equal bytes (every file verify passes) are told by one memcmp; only a difference is looked for byte by byte.
  if (a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))) return -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * Invariants of a record (read from a file or produced in memory by the encoder). Each shape first takes one fast
 * pass that only answers "all clear" (shapeClean); a shape it does not clear is walked by the checks below, which
 * name each finding's place and offset. `exhaustive` walks every shape that way (tests compare the two).
 */
export function verifyResource(res: PhysicsResource, file: string, exhaustive = false, options: VerifyOptions = {}): Finding[] {
  const findings: Finding[] = [];
  res.parts.forEach((p, i) => {
    if (p.shape !== NO_SHAPE && p.shape >= res.shapes.length) {
      const offset = res.layout ? res.layout.partTable + PART_SIZE * i + PART_FIELD.shape : undefined;
      findings.push({ file, part: i, check: 'part-shape', ...(offset !== undefined ? { offset } : {}), message: `part ${i}: shape index ${p.shape}${at(offset)} ≥ shape count ${res.shapes.length}` });
    }
  });
  const l = res.layout;
  res.parts.forEach((p, i) => {
    const r = p.rotation, q = p.position;
    // x - x is 0 exactly for a finite x (NaN for NaN and the infinities): the common case told without arrays.
    const finite = r[0] - r[0] + (r[1] - r[1]) + (r[2] - r[2]) + (r[3] - r[3]) + (q[0] - q[0]) + (q[1] - q[1]) + (q[2] - q[2]) + (p.w - p.w) === 0;
    if (finite && r.length === 4 && q.length === 3) return;
    // Rotation x y z w, position x y z, w: the part record's f32s from 0x00 to 0x20, in that order.
    const values = [...p.rotation, ...p.position, p.w];
    const bad = values.filter((v) => !Number.isFinite(v));
    if (!bad.length) return;
    const first = values.findIndex((v) => !Number.isFinite(v));
    const field = first < 4 ? PART_FIELD.rotation + 4 * first : first < 7 ? PART_FIELD.position + 4 * (first - 4) : PART_FIELD.w;
    const offset = l ? l.partTable + PART_SIZE * i + field : undefined;
    findings.push({ file, part: i, check: 'part-transform', ...(offset !== undefined ? { offset } : {}), message: `part ${i}: non-finite rotation/position/w (${bad.join(', ')})${at(offset)}, expected finite numbers` });
  });
  const kinds = new Map<number, number>();
  for (const p of res.parts) if (p.shape !== NO_SHAPE && !kinds.has(p.shape)) kinds.set(p.shape, p.kind);
  res.shapes.forEach((s, i) => {
    if (!exhaustive && shapeClean(s, kinds.get(i), options.fast)) return;
    findings.push(...verifyShape(s, i, kinds.get(i), file, l ? { header: l.shapeTable + SHAPE_SIZE * i, arrays: l.arrays[i] ?? [] } : undefined));
  });
  return findings;
}

/** Where a read shape's record and arrays were in its file (a record built in memory has none). */
interface ShapePlace {
  /** Absolute position of the shape record. */
  header: number;
  /** Absolute position of each array (SLOT order; 0: absent). */
  arrays: number[];
}

/** " at 0x…" for a finding whose value sits at a known byte offset of the file, else nothing. */
const at = (offset: number | undefined): string => (offset === undefined ? '' : ` at 0x${offset.toString(16)}`);

/** The absolute offset of element `k` (of `size` bytes) of array `slot`, when the shape was read from a file. */
function arrayOffset(place: ShapePlace | undefined, slot: number, k: number, size: number): number | undefined {
  const base = place?.arrays[slot];
  return base ? base + k * size : undefined;
}

/** Collects findings of one shape, capping each check at MAX_FINDINGS_PER_CHECK. */
class ShapeFindings {
  readonly list: Finding[] = [];
  private readonly counts = new Map<string, number>();
  /** Whether any check has more findings than are listed (over() is asked once a corner: a flag saves the lookup). */
  private anyOver = false;
  constructor(
    readonly file: string,
    readonly shape: number,
  ) {}
  /** `message` is a thunk: a hostile shape can fail a check 65,535 times and only the first few are written out. */
  add(check: string, message: () => string, where: { face?: number; node?: number; offset?: number } = {}): void {
    const n = (this.counts.get(check) ?? 0) + 1;
    this.counts.set(check, n);
    if (n > MAX_FINDINGS_PER_CHECK) this.anyOver = true;
    if (n <= MAX_FINDINGS_PER_CHECK) {
      const { offset, ...place } = where;
      this.list.push({ file: this.file, shape: this.shape, ...place, ...(offset !== undefined ? { offset } : {}), check, message: `shape ${this.shape}: ${message()}` });
    }
  }
  /** The check has more findings than are listed: loops stop early (a hostile shape has up to 65,535). */
  over(check: string): boolean {
    return this.anyOver && (this.counts.get(check) ?? 0) > MAX_FINDINGS_PER_CHECK;
  }
  finish(): Finding[] {
    for (const [check, n] of this.counts) {
      if (n > MAX_FINDINGS_PER_CHECK) this.list.push({ file: this.file, shape: this.shape, check, message: `shape ${this.shape}: further ${check} findings not listed` });
    }
    return this.list;
  }
}

function verifyShape(s: ShapeRecord, i: number, kind: number | undefined, file: string, place?: ShapePlace): Finding[] {
  const out = new ShapeFindings(file, i);
  try {
    checkShapeRecord(s, `shape ${i}`);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    // The counts are the record's (vertex, corner, face and node counts from 0x18).
    const offset = place ? place.header + SHAPE_FIELD.vertexCount : undefined;
    out.add('counts', () => `${e.detail}${at(offset)}`, { offset });
    return out.finish();
  }
  const faces = faceCount(s);
  const corners = s.cornerVertices.length;
  const vertices = s.vertices.length / 3;
  const bounds = [...s.min, ...s.max];
  if (!bounds.every(Number.isFinite)) {
    // min x y z then max x y z: the record's first six f32s.
    const offset = place ? place.header + SHAPE_FIELD.min + 4 * bounds.findIndex((v) => !Number.isFinite(v)) : undefined;
    out.add('bounds', () => `non-finite bounds ${s.min.join(', ')} .. ${s.max.join(', ')}${at(offset)}, expected finite numbers`, { offset });
  }
  for (let k = 0; k < s.vertices.length && !out.over('vertex'); k++) {
    if (Number.isFinite(s.vertices[k])) continue;
    const offset = arrayOffset(place, SLOT.vertices, k, 4);
    out.add('vertex', () => `vertex ${Math.floor(k / 3)}: coordinate ${'xyz'[k % 3]} is ${s.vertices[k]}${at(offset)}, expected a finite number`, { offset });
  }
  for (let c = 0; c < corners && !out.over('corner-vertex'); c++) {
    if (s.cornerVertices[c] >= vertices) {
      const offset = arrayOffset(place, SLOT.cornerVertices, c, 2);
      out.add('corner-vertex', () => `corner ${c}: vertex ${s.cornerVertices[c]}${at(offset)} ≥ vertex count ${vertices}`, { offset });
    }
  }
  const facesOk = checkFaceOffsets(s, out, place);
  checkCornerIndex(s, out, place);
  if (kind === KIND_MESH) checkMesh(s, out, place);
  if (facesOk && s.tree.length > 0) checkTree(s, out, place);
  for (let f = 0; f < s.planeOffsets.length && !out.over('plane-normal') && !out.over('plane-offset'); f++) {
    const n = decodeNormal(s.planeNormals[2 * f], s.planeNormals[2 * f + 1]);
    const len = Math.hypot(n[0], n[1], n[2]);
    if (!(Math.abs(len - 1) <= NORMAL_LENGTH_TOLERANCE)) {
      const offset = arrayOffset(place, SLOT.planes, f, 8);
      out.add('plane-normal', () => `face ${f}: plane normal${at(offset)} length ${len}`, { face: f, offset });
    }
    if (!Number.isFinite(s.planeOffsets[f])) {
      // A plane is 8 bytes: the packed normal (2 × i16), then the offset (f32).
      const offset = arrayOffset(place, SLOT.planes, f, 8);
      out.add('plane-offset', () => `face ${f}: plane offset ${s.planeOffsets[f]}${at(offset === undefined ? undefined : offset + 4)}, expected a finite number`, { face: f, ...(offset !== undefined ? { offset: offset + 4 } : {}) });
    }
  }
  if (faces > 0 && s.planeOffsets.length > 0 && s.planeOffsets.length !== faces) {
    const offset = place ? place.header + SHAPE_FIELD.faceCount : undefined;
    out.add('counts', () => `${s.planeOffsets.length} planes for ${faces} faces${at(offset)}`, { offset });
  }
  return out.finish();
}

/** Zeros (never written), grown to the most corners asked for: the edge bits shapeClean gives a shape of another kind. */
let zeros = new Uint32Array(0);
function zeroBits(n: number): Uint32Array {
  if (zeros.length < n) zeros = new Uint32Array(Math.max(n, 2 * zeros.length));
  return zeros.subarray(0, n);
}

/** Scratch for shapeClean's tree pass: every heap node's box (6 f32 a node), grown to the largest shape seen. */
let scratchBoxes = new Float32Array(0);
const STEP_10 = 1 / 1024, STEP_9 = 1 / 512;

/**
 * The fast pass: true only when verifyShape would find nothing in the shape (never the other way round: a shape it
 * does not clear is walked by verifyShape, which decides). Tight loops over the typed arrays, no closures or objects
 * per element, the tree's boxes decoded into one reused scratch array, then every face's corners against its leaf's
 * box. Comparisons are strict (no containment slack): a face within the slack but outside its box goes to
 * verifyShape, which accepts it. One function, not one a check: each function the engine runs in its interpreter
 * until it is found hot, and a ride runs this once a process (a level's first files paid each warm-up in turn).
 */
export function shapeClean(s: ShapeRecord, kind: number | undefined, fast?: ShapeCleaner): boolean {
  try {
    checkShapeRecord(s, 'shape');
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return false;
  }
  const V = s.vertices, cv = s.cornerVertices, fo = s.faceOffsets;
  const corners = cv.length, faces = faceCount(s), vertices = V.length / 3;
  for (let a = 0; a < 3; a++) if (!Number.isFinite(s.min[a]) || !Number.isFinite(s.max[a])) return false;
  if (fast?.(s, kind)) return true;
  // A vertex a step (checkShapeRecord: whole vertices); x − x is 0 exactly for a finite x, NaN for NaN and the
  // infinities. The loops below take a few elements a step too: their own overhead was half their time.
  for (let k = 0; k + 2 < V.length; k += 3) {
    const x = V[k], y = V[k + 1], z = V[k + 2];
    if (x - x + (y - y) + (z - z) !== 0) return false;
  }
  // Face offsets: 0, strictly ascending, ending at the corner count (none at all only without corners).
  if (fo.length === 0) {
    if (corners > 0) return false;
  } else {
    if (fo[0] !== 0 || fo[fo.length - 1] !== corners) return false;
    let f = 0;
    for (; f + 4 < fo.length; f += 4) if (fo[f + 1] <= fo[f] || fo[f + 2] <= fo[f + 1] || fo[f + 3] <= fo[f + 2] || fo[f + 4] <= fo[f + 3]) return false;
    for (; f + 1 < fo.length; f++) if (fo[f + 1] <= fo[f]) return false;
  }
  const mesh = kind === KIND_MESH;
  if (mesh) {
    // checkMesh would find nothing but for the edge values' range (looked at with the corners below): triangles, an
    // edge value a corner, not both bits for any corner, faces − 1 nodes.
    const ev = s.edgeValues;
    if (corners !== 3 * faces || ev.length !== corners) return false;
    if (faces > 1 && s.tree.length !== 2 * (faces - 1)) return false;
    const cb = s.concaveBits, fb = s.flatBits;
    if (cb.length !== 0 && fb.length !== 0) {
      // Only the bits of corners 0 .. edge values − 1 are looked at (the bitsets' padding bits are not).
      const whole = ev.length >> 3;
      for (let b = 0; b < whole; b++) if ((cb[b] & fb[b]) !== 0) return false;
      const rest = ev.length & 7;
      if (rest !== 0 && (cb[whole] & fb[whole] & ((1 << rest) - 1)) !== 0) return false;
    }
  }
  // Each corner names a vertex and, in a mesh, has an edge value in [0, 1]: told on the value's f32 bits, where +0
  // up to 1.0 (0x3f800000) ascend with the value and −0 (0x80000000) is in range too; NaN and every negative value
  // lie above 0x3f800000 (the mesh check has made the edge values one a corner; other kinds are given zeros).
  const edgeBits = mesh ? new Uint32Array(s.edgeValues.buffer, s.edgeValues.byteOffset, corners) : zeroBits(corners);
  const tree = s.tree;
  if (tree.length > 0) {
    // checkTree would find nothing: decodes the heap from the root (decodeNode's arithmetic in f32, tree.ts; a
    // product by 1/1024 is the same as the division by 1024) into one reused scratch array, then every corner of
    // every face must lie inside its leaf's box with no slack. The owner bits pick a child's slot by arithmetic, not
    // by a branch per bit: they are as good as random, and a mispredicted branch each costs more than the node's
    // sums. The leaves' pass visits every corner once (the face offsets run from 0 to the corner count): the
    // corners' vertices and edge values are checked there.
    const inner = faces - 1;
    if (inner < 1 || tree.length !== 2 * inner) return false;
    const need = 6 * (2 * faces - 1);
    if (scratchBoxes.length < need) scratchBoxes = new Float32Array(Math.max(need, 2 * scratchBoxes.length));
    const B = scratchBoxes;
    const f = Math.fround;
    for (let a = 0; a < 3; a++) {
      B[a] = s.min[a];
      B[a + 3] = s.max[a];
    }
    for (let i = 0; i < inner; i++) {
      const lo = tree[2 * i], hi = tree[2 * i + 1], p = 6 * i;
      const x0 = B[p], y0 = B[p + 1], z0 = B[p + 2], x1 = B[p + 3], y1 = B[p + 4], z1 = B[p + 5];
      const dx = f(x1 - x0), dy = f(y1 - y0), dz = f(z1 - z0);
      // Children 2i + 1 (left, at l) and 2i + 2 (right, at l + 6). The right child always takes the inner min x;
      // lo bits 30/31 give the inner min y/z to the left, hi bits 29/30/31 the inner max x/y/z; the other child
      // keeps the parent's bound. A bound's last rounding to f32 is the store's (a Float32Array rounds as fround
      // does): one call fewer each, which is what the first shapes cost while this still runs in the interpreter.
      const l = 12 * i + 6;
      const ly = 6 * ((lo >>> 30) & 1), lz = 6 * (lo >>> 31), mx = 6 * ((hi >>> 29) & 1), my = 6 * ((hi >>> 30) & 1), mz = 6 * (hi >>> 31);
      B[l] = x0;
      B[l + 6] = x0 + f(f(dx * (lo & 0x3ff)) * STEP_10);
      B[l + 1 + ly] = y0;
      B[l + 7 - ly] = y0 + f(f(dy * ((lo >>> 10) & 0x3ff)) * STEP_10);
      B[l + 2 + lz] = z0;
      B[l + 8 - lz] = z0 + f(f(dz * ((lo >>> 20) & 0x3ff)) * STEP_10);
      B[l + 3 + mx] = x1;
      B[l + 9 - mx] = x1 - f(f(dx * (hi & 0x3ff)) * STEP_10);
      B[l + 4 + my] = y1;
      B[l + 10 - my] = y1 - f(f(dy * ((hi >>> 10) & 0x1ff)) * STEP_9);
      B[l + 5 + mz] = z1;
      B[l + 11 - mz] = z1 - f(f(dz * ((hi >>> 19) & 0x3ff)) * STEP_10);
    }
    // Face j's leaf is heap node inner + j. Every corner inside is the face's box inside (a NaN fails a comparison).
    for (let j = 0, b = 6 * inner; j < faces; j++, b += 6) {
      const x0 = B[b], y0 = B[b + 1], z0 = B[b + 2], x1 = B[b + 3], y1 = B[b + 4], z1 = B[b + 5];
      for (let c = fo[j], end = fo[j + 1]; c < end; c++) {
        const vi = cv[c], e = edgeBits[c];
        if (vi >= vertices || (e > 0x3f800000 && e !== 0x80000000)) return false;
        const v = 3 * vi, x = V[v], y = V[v + 1], z = V[v + 2];
        if (!(x >= x0 && x <= x1 && y >= y0 && y <= y1 && z >= z0 && z <= z1)) return false;
      }
    }
  } else {
    for (let c = 0; c < corners; c++) {
      const b = edgeBits[c];
      if (cv[c] >= vertices || (b > 0x3f800000 && b !== 0x80000000)) return false;
    }
  }
  // checkCornerIndex would find nothing: ascending offsets from 0 to the id count, each vertex its own corners,
  // ascending.
  const off = s.vertexCornerOffsets, ids = s.cornerIdsByVertex;
  if (off.length !== 0 || ids.length !== 0) {
    if (off.length === 0 || (ids.length === 0 && corners > 0)) return false;
    if (off[0] !== 0 || off[off.length - 1] !== ids.length) return false;
    for (let v = 0; v + 1 < off.length; v++) {
      const from = off[v], to = off[v + 1];
      if (to < from || to > ids.length) return false;
      let prev = -1;
      for (let k = from; k < to; k++) {
        const c = ids[k];
        if (c >= corners || cv[c] !== v || c <= prev) return false;
        prev = c;
      }
    }
  }
  const po = s.planeOffsets;
  if (faces > 0 && po.length > 0 && po.length !== faces) return false;
  // Only the offsets can fail. The normals cannot: decodeNormal's vector before normalising has |x| + |y| + |z| = 1
  // for any i16 pair (the octahedral fold keeps the sum), so its length lies in [1/√3, 1] and the normalised length
  // is 1 within a few ulps, far inside NORMAL_LENGTH_TOLERANCE (test/format/plane.test.ts sweeps the i16 pairs).
  for (let f = 0; f < po.length; f++) if (!Number.isFinite(po[f])) return false;
  return true;
}

/** Face offsets start at 0, ascend, end at the corner count. Returns whether faces can be walked. */
function checkFaceOffsets(s: ShapeRecord, out: ShapeFindings, place?: ShapePlace): boolean {
  const fo = s.faceOffsets;
  const corners = s.cornerVertices.length;
  const entry = (k: number): number | undefined => arrayOffset(place, SLOT.faceOffsets, k, 2);
  if (fo.length === 0) {
    const offset = place ? place.header + SHAPE_FIELD.faceCount : undefined;
    if (corners > 0) out.add('face-offsets', () => `${corners} corners but no face offsets${at(offset)}`, { offset });
    return corners === 0;
  }
  let ok = true;
  if (fo[0] !== 0) {
    out.add('face-offsets', () => `face offsets[0]${at(entry(0))} = ${fo[0]}, expected 0`, { face: 0, offset: entry(0) });
    ok = false;
  }
  for (let f = 0; f + 1 < fo.length && !out.over('face-offsets'); f++) {
    if (fo[f + 1] <= fo[f]) {
      out.add('face-offsets', () => `face ${f}: offsets ${fo[f]} → ${fo[f + 1]}${at(entry(f + 1))} do not ascend`, { face: f, offset: entry(f + 1) });
      ok = false;
    }
  }
  if (fo[fo.length - 1] !== corners) {
    const last = entry(fo.length - 1);
    out.add('face-offsets', () => `face offsets end at ${fo[fo.length - 1]}${at(last)}, corner count is ${corners}`, { offset: last });
    ok = false;
  }
  return ok;
}

/** The vertex -> corner CSR lists, for every vertex, exactly its corners in ascending order. */
function checkCornerIndex(s: ShapeRecord, out: ShapeFindings, place?: ShapePlace): void {
  const off = s.vertexCornerOffsets;
  const ids = s.cornerIdsByVertex;
  const cv = s.cornerVertices;
  const offAt = (k: number): number | undefined => arrayOffset(place, SLOT.vertexCornerOffsets, k, 2);
  const idAt = (k: number): number | undefined => arrayOffset(place, SLOT.cornerIdsByVertex, k, 2);
  if (off.length === 0 && ids.length === 0) return;
  if (off.length === 0 || (ids.length === 0 && cv.length > 0)) {
    // One of the two arrays is absent: its offset field in the record says so.
    const slot = off.length === 0 ? SLOT.vertexCornerOffsets : SLOT.cornerIdsByVertex;
    const offset = place ? place.header + SHAPE_FIELD.offsets + 4 * slot : undefined;
    out.add('corner-index', () => `vertex → corner index incomplete: ${off.length} offsets, ${ids.length} ids${at(offset)}`, { offset });
    return;
  }
  if (off[0] !== 0 || off[off.length - 1] !== ids.length) {
    const offset = offAt(off[0] !== 0 ? 0 : off.length - 1);
    out.add('corner-index', () => `vertex → corner offsets run ${off[0]}..${off[off.length - 1]}${at(offset)}, expected 0..${ids.length}`, { offset });
    return;
  }
  for (let v = 0; v + 1 < off.length && !out.over('corner-index'); v++) {
    if (off[v + 1] < off[v]) {
      out.add('corner-index', () => `vertex ${v}: offsets ${off[v]} → ${off[v + 1]}${at(offAt(v + 1))} descend`, { offset: offAt(v + 1) });
      return;
    }
    for (let k = off[v]; k < off[v + 1]; k++) {
      const c = ids[k];
      if (c >= cv.length || cv[c] !== v) out.add('corner-index', () => `vertex ${v}: lists corner ${c}${at(idAt(k))}, whose vertex is ${cv[c] ?? 'none'}`, { offset: idAt(k) });
      else if (k > off[v] && c <= ids[k - 1]) out.add('corner-index', () => `vertex ${v}: corners ${ids[k - 1]}, ${c}${at(idAt(k))} not ascending`, { offset: idAt(k) });
    }
  }
}

/** A triangle mesh (kind 5): triangles, edge data for every corner, a tree of faces − 1 nodes. */
function checkMesh(s: ShapeRecord, out: ShapeFindings, place?: ShapePlace): void {
  const faces = faceCount(s);
  const corners = s.cornerVertices.length;
  const field = (f: number): number | undefined => (place ? place.header + f : undefined);
  if (corners !== 3 * faces) out.add('mesh', () => `kind 5 (mesh) with ${corners} corners for ${faces} faces (not triangles)${at(field(SHAPE_FIELD.cornerCount))}`, { offset: field(SHAPE_FIELD.cornerCount) });
  if (s.edgeValues.length !== corners) {
    const offset = field(SHAPE_FIELD.offsets + 4 * SLOT.edgeValues);
    out.add('mesh', () => `kind 5 (mesh) with ${s.edgeValues.length} edge values for ${corners} corners${at(offset)}`, { offset });
  }
  if (faces > 1 && s.tree.length !== 2 * (faces - 1)) out.add('mesh', () => `kind 5 (mesh) with ${s.tree.length / 2} tree nodes for ${faces} faces${at(field(SHAPE_FIELD.nodeCount))}`, { offset: field(SHAPE_FIELD.nodeCount) });
  const bit = (b: Uint8Array, c: number): number => (b.length ? (b[c >> 3] >> (c & 7)) & 1 : 0);
  for (let c = 0; c < s.edgeValues.length && !out.over('edge-value') && !out.over('edge-bits'); c++) {
    const v = s.edgeValues[c];
    if (!(v >= 0 && v <= 1)) {
      const offset = arrayOffset(place, SLOT.edgeValues, c, 4);
      out.add('edge-value', () => `corner ${c}: edge value ${v}${at(offset)} outside [0, 1]`, { offset });
    }
    if (bit(s.concaveBits, c) && bit(s.flatBits, c)) {
      const offset = arrayOffset(place, SLOT.concaveBits, c >> 3, 1);
      out.add('edge-bits', () => `corner ${c}: both the concave${at(offset)} and the flat bit${at(arrayOffset(place, SLOT.flatBits, c >> 3, 1))} are set`, { offset });
    }
  }
}

/** Every face's box lies inside the box of its leaf (heap node faces − 1 + f) decoded from the root. */
function checkTree(s: ShapeRecord, out: ShapeFindings, place?: ShapePlace): void {
  const faces = faceCount(s);
  const root: Box6 = [...s.min, ...s.max];
  const boxes = nodeBoxes(root, s.tree, faces);
  const fb = new Float64Array(6);
  for (let f = 0; f < faces && !out.over('tree-containment'); f++) {
    faceBox(s, f, fb);
    const leaf = faces - 1 + f;
    for (let a = 0; a < 6; a++) {
      const bound = boxes[6 * leaf + a];
      // Inside without slack (the common case, and never NaN): nothing more to work out.
      if (a < 3 ? fb[a] >= bound : fb[a] <= bound) continue;
      const slack = CONTAINMENT_REL_TOLERANCE * Math.max(Math.abs(bound), Math.abs(fb[a]), 1e-30);
      const outside = a < 3 ? fb[a] < bound - slack : fb[a] > bound + slack;
      if (outside || Number.isNaN(fb[a])) {
        const axis = 'xyz'[a % 3];
        // The leaf's box is stored in its parent node (node i holds the boxes of 2i + 1 and 2i + 2; 8 bytes a node).
        const offset = arrayOffset(place, SLOT.tree, (leaf - 1) >> 1, 8);
        out.add(
          'tree-containment',
          () => `face ${f} (leaf node ${leaf}): ${a < 3 ? 'min' : 'max'} ${axis} ${fb[a]} outside the leaf box's ${bound}${at(offset)}`,
          { face: f, node: leaf, offset },
        );
        break;
      }
    }
  }
}

/** The box of face `f`'s vertices (a NaN coordinate makes its bounds NaN). */
function faceBox(s: ShapeRecord, f: number, out: Float64Array): void {
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  const V = s.vertices, cv = s.cornerVertices;
  for (let c = s.faceOffsets[f], end = s.faceOffsets[f + 1]; c < end; c++) {
    const v = 3 * cv[c], x = V[v], y = V[v + 1], z = V[v + 2];
    if (x < x0 || x !== x) x0 = x;
    if (x > x1 || x !== x) x1 = x;
    if (y < y0 || y !== y) y0 = y;
    if (y > y1 || y !== y) y1 = y;
    if (z < z0 || z !== z) z0 = z;
    if (z > z1 || z !== z) z1 = z;
  }
  out[0] = x0; out[1] = y0; out[2] = z0; out[3] = x1; out[4] = y1; out[5] = z1;
}
