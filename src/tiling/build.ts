// One output resource: a job (a collision object, or a collision_area cell) → PhysicsResource bytes and the
// numbers the manifest reports. Pure (no I/O), so it runs the same on the main thread and in a worker; a job's
// bytes depend only on the job, which is what makes output identical for any worker count.
import { closeSync, constants, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { checkOf } from '../output/file-write.ts';
import { fingerprint } from './unique.ts';
import { encodeResource, type MeshObject } from '../geometry/resource.ts';
import type { OpenCorners } from '../geometry/encode.ts';
import { releaseEncoderMemory } from '../geometry/wasm.ts';
import { locateEdgeArrays, writePhysicsResource } from '../format/resource.ts';
import { gatherGroup, type CellGroupPlan } from './cells.ts';
import { PART_FLAGS, type PartRecord } from '../format/types.ts';
import type { NativePart } from '../shapes/native.ts';
import { quatToMat3 } from '../shapes/frame.ts';
import { resourceGrind, type PartGrind } from '../format/grind-map.ts';
import { stageError } from '../errors.ts';

/** Options handed to the encoder unchanged (header word 0x08, Studio body, part ids; see docs/format-decisions.md). */
export type EncodeOptions = NonNullable<Parameters<typeof encodeResource>[1]>;

/** One material's mesh, ready for the encoder. */
export interface MeshGroup {
  material: number;
  positions: Float32Array;
  indices: Uint32Array;
}

/** A native kind-2/3 shape (--native-shapes, src/shapes/native.ts): written as it is, after the job's meshes. */
export interface NativeGroup {
  material: number;
  native: NativePart;
}

/** A group as jobs carry it: a mesh (per-object resources), a cell's planned runs (gathered where it is encoded), or a native shape. */
export type JobGroup = MeshGroup | CellGroupPlan | NativeGroup;

export const isPlanned = (g: JobGroup): g is CellGroupPlan => 'runs' in g;
export const isNative = (g: JobGroup): g is NativeGroup => 'native' in g;
export const groupTriangles = (g: JobGroup): number => (isPlanned(g) ? g.triangles : isNative(g) ? 0 : g.indices.length / 3);
export const jobTriangles = (job: ResourceJob): number => job.groups.reduce((s, g) => s + groupTriangles(g), 0);

export interface ResourceJob {
  name: string;
  /** Cell indices for collision_area tiles; null for per-object resources. */
  cell: [number, number] | null;
  groups: JobGroup[];
  /** Source object names. */
  sources: string[];
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export interface BuiltResource {
  name: string;
  file: string;
  cell: [number, number] | null;
  bytes: Uint8Array;
  parts: number;
  shapes: number;
  vertices: number;
  faces: number;
  /** Triangles handed to the encoder (before it drops degenerate and repeated ones). */
  inputTriangles: number;
  bounds: Bounds;
  /** Packed material words, one per part group, in part order (deduplicated). */
  materials: number[];
  sources: string[];
  /** Corners written with no opposite corner in their shape (open edges, sharp concave folds not counted). */
  openEdges: number;
  /** Corners that took their level-wide edge data (joined across a cut, src/tiling/seams.ts; 0 as encoded). */
  seamJoined: number;
  /** The corners the resource's shapes leave unpaired, as encoded (src/geometry/seams.ts joins them level-wide). */
  open: ResourceOpen;
  /** The grind map of the written parts (src/format/grind-map.ts): the seams step changes no edge it counts. */
  grind: BuiltGrind;
  /** Shapes the density cut added to this resource, and those it left over its target (src/geometry/grind-cut.ts). */
  densityCut?: { added: number; dense: number };
  /**
   * A resource from the cache: its bytes' length and fingerprint (src/tiling/unique.ts) as the cache holds them, so
   * that `bytes` (read from the file when first asked) need not be read when nothing changes them.
   */
  size?: number;
  fingerprint?: number;
  /** A resource from the cache: its bytes' sha256 as checked there. */
  sha256?: string;
  /**
   * The size and CRC-32 of the file's bytes as they are now: a resource linked from the previous output (src/build/cache.ts
   * take), as checked there; one this build wrote (writeResource), as written. Kept true whenever the bytes change.
   */
  check?: { bytes: number; crc32: string };
}

/** OpenCorners (src/geometry/encode.ts) of all a resource's shapes, with each corner's shape index. */
export interface ResourceOpen {
  shape: Uint32Array;
  corner: Uint32Array;
  /** 9 f32 per corner (OpenCorners.points). */
  points: Float32Array;
  /**
   * Where each shape's edge data are in the bytes (src/format/resource.ts locateEdgeArrays), 4 per shape: corners,
   * values, concave bits, flat bits; read where the bytes were written, so the seams step need not parse them.
   */
  arrays: Uint32Array;
}

/** A resource's grind map as the manifest reports it: grindable edges and metres, the parts that lose theirs. */
export interface BuiltGrind {
  edges: number;
  metres: number;
  /** Creases ≥ the crease angle on parts that cannot grind them (over the density limit, or an excluding surface). */
  lostCreases: number;
  /** Parts over the density limit: index, density, world bounds, material, faces, the creases they lose. */
  dense: { part: number; density: number; min: number[]; max: number[]; material: number; faces: number; creases: number }[];
}

/** The manifest's grind figures of a resource from its parts' grind maps. */
export function builtGrind(parts: PartGrind[], faces: (part: number) => number): BuiltGrind {
  const out: BuiltGrind = { edges: 0, metres: 0, lostCreases: 0, dense: [] };
  for (const p of parts) {
    out.edges += p.edges;
    out.metres += p.metres;
    if (p.excluded === 'dense' || p.excluded === 'surface') out.lostCreases += p.creases;
    if (p.excluded === 'dense') out.dense.push({ part: p.part, density: p.density, min: p.min, max: p.max, material: p.material, faces: faces(p.part), creases: p.creases });
  }
  return out;
}

/** The buffers of a built resource that a worker transfers back. */
export const resourceBuffers = (r: BuiltResource): ArrayBuffer[] =>
  [r.bytes.buffer, r.open.shape.buffer, r.open.corner.buffer, r.open.points.buffer, r.open.arrays.buffer] as ArrayBuffer[];

export const resourceFile = (name: string): string => `${name}.physics`;

export const sha256Of = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/**
 * Writes a built resource into dir as resourceFile(name), synchronously, on the thread that built it (so each
 * encoding thread pays for its own files); a resource without parts gets no file. Throws "publish: <path>: ...".
 * The bytes then leave memory (a 16M-triangle level's 675 MB of output were all held until publish):
 * what later stages need of them — size, fingerprint, CRC-32 and, for the cache (`withSha`), sha256 — is taken
 * here, on the same thread, and the bytes are read back only where the seams step changes them (releaseBytes).
 */
export function writeResource(dir: string, r: BuiltResource, withSha = false): void {
  if (r.parts === 0) return;
  const path = join(dir, resourceFile(r.name));
  try {
    writeFileSync(path, r.bytes, { flag: 'wx' });
  } catch (e) {
    throw new Error(`publish: ${path}: ${(e as Error).message}`);
  }
  noteBytes(r, withSha);
  r.bytes = new Uint8Array(0); // the thread that receives it calls releaseBytes (a fresh buffer: it is transferred)
}

/** Takes size, fingerprint, check and (withSha) sha256 from r.bytes as they are now. */
export function noteBytes(r: BuiltResource, withSha: boolean): void {
  r.size = r.bytes.length;
  r.fingerprint = fingerprint(r.bytes);
  r.check = checkOf(r.bytes);
  r.sha256 = withSha ? sha256Of(r.bytes) : undefined;
}

/**
 * Drops r.bytes from memory: from now on they are read from `path` when asked for (and kept until released again),
 * a plain file (no link followed) whose size and CRC-32 must be r.check's, else "publish: <path>: ..." is thrown:
 * nothing on disk is trusted, a temporary file of our own included.
 */
export function releaseBytes(r: BuiltResource, path: string): void {
  const check = r.check;
  if (!check) throw new Error(`publish: ${path}: released with no check of its bytes`);
  let bytes: Uint8Array | undefined;
  Object.defineProperty(r, 'bytes', {
    configurable: true,
    enumerable: true,
    get: () => (bytes ??= readChecked(path, check)),
    set: (v: Uint8Array) => void (bytes = v),
  });
}

/**
 * A file this build wrote, read back and checked as releaseBytes does, into `scratch` (grown as needed; the result
 * is a view of it, good until the next call): the seams step patches every cut cell's file, and a fresh buffer per
 * file left the 16M-triangle level's 650 MB of read-back garbage for the collector to find late (RSS +250 MB).
 */
export function readStaged(path: string, check: { bytes: number; crc32: string }, scratch: { buf: Uint8Array }): Uint8Array {
  if (scratch.buf.length < check.bytes) scratch.buf = new Uint8Array(Math.max(check.bytes, 2 * scratch.buf.length));
  return readChecked(path, check, scratch.buf.subarray(0, check.bytes));
}

function readChecked(path: string, check: { bytes: number; crc32: string }, into?: Uint8Array): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    throw new Error(`publish: ${path}: ${(e as Error).message}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size !== check.bytes) throw new Error(`publish: ${path}: ${st.isFile() ? `${st.size} bytes, but this build wrote ${check.bytes}` : 'no longer a plain file'}: changed since this build wrote it`);
    const out = into ?? new Uint8Array(check.bytes);
    for (let at = 0; at < out.length; ) {
      const n = readSync(fd, out, at, out.length - at, at);
      if (n === 0) throw new Error(`publish: ${path}: ends at byte ${at} of ${out.length}: changed since this build wrote it`);
      at += n;
    }
    if (checkOf(out).crc32 !== check.crc32) throw new Error(`publish: ${path}: its bytes are not what this build wrote (CRC-32 ${checkOf(out).crc32}, wrote ${check.crc32})`);
    return out;
  } finally {
    closeSync(fd);
  }
}

/** The part of a native shape: its rotation and position, kind 2 or 3, the mesh part's other words. */
function nativePart(n: NativePart, shape: number): PartRecord {
  return {
    rotation: [...n.rotation], position: [...n.position], w: 1, word20: 0, kind: n.kind, ids: [0, 0, 0], word34: 0, shape, word3c: 0,
    material: n.material >>> 0, flags: PART_FLAGS,
  };
}

/** Grows min/max by a native shape's vertices placed by its part (kind 3 stores zero bounds). */
function nativeBounds(n: NativePart, min: number[], max: number[]): void {
  const m = quatToMat3(n.rotation);
  const v = n.shape.vertices;
  for (let k = 0; k < v.length; k += 3) {
    for (let j = 0; j < 3; j++) {
      const x = Math.fround(n.position[j] + m[j] * v[k] + m[3 + j] * v[k + 1] + m[6 + j] * v[k + 2]);
      if (x < min[j]) min[j] = x;
      if (x > max[j]) max[j] = x;
    }
  }
}

export function buildResource(job: ResourceJob, options?: EncodeOptions): BuiltResource {
  const objects: MeshObject[] = [];
  const natives: NativeGroup[] = [];
  for (const g of job.groups) {
    if (isNative(g)) {
      natives.push(g);
      continue;
    }
    const { positions, indices } = isPlanned(g) ? gatherGroup(g) : g;
    const o: MeshObject = { name: job.name, positions, indices, material: g.material };
    objects.push(o);
  }
  let encoded: ReturnType<typeof encodeResource>;
  try {
    encoded = encodeResource(objects, options);
  } catch (e) {
    throw stageError('encode', `resource "${job.name}"`, e);
  }
  releaseEncoderMemory(); // before the resource's bytes are written: a big mesh's memory must not sit beside them
  const res = encoded.resource;
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const meshParts = res.parts.length;
  for (const { native: n } of natives) {
    res.parts.push(nativePart(n, res.shapes.length));
    res.shapes.push(n.shape);
    nativeBounds(n, min, max);
  }
  const bytes = writePhysicsResource(res);
  let vertices = 0;
  let faces = 0;
  for (const part of res.parts.slice(0, meshParts)) {
    const s = res.shapes[part.shape];
    if (!s) continue;
    for (let j = 0; j < 3; j++) {
      min[j] = Math.min(min[j], Math.fround(part.position[j] + s.min[j]));
      max[j] = Math.max(max[j], Math.fround(part.position[j] + s.max[j]));
    }
  }
  for (const s of res.shapes) {
    vertices += s.vertices.length / 3;
    faces += Math.max(0, s.faceOffsets.length - 1);
  }
  return {
    name: job.name,
    file: resourceFile(job.name),
    cell: job.cell,
    bytes,
    parts: res.parts.length,
    shapes: res.shapes.length,
    vertices,
    faces,
    inputTriangles: jobTriangles(job),
    bounds: { min, max },
    materials: [...new Set(res.parts.map((p) => p.material))],
    sources: job.sources,
    openEdges: encoded.stats.objects.reduce((n, o) => n + o.stats.openEdges, 0),
    seamJoined: 0,
    open: packOpen(encoded.open, bytes),
    ...densityCutOf(encoded.stats.objects.map((o) => o.stats)),
    grind: builtGrind(resourceGrind(res).parts, (i) => Math.max(0, (res.shapes[res.parts[i].shape]?.faceOffsets.length ?? 1) - 1)),
  };
}

/** The resource's density-cut counts, when the cut ran on any of its meshes. */
function densityCutOf(stats: { densityCut?: { added: number; dense: number } }[]): { densityCut?: { added: number; dense: number } } {
  const cut = stats.filter((x) => x.densityCut);
  if (cut.length === 0) return {};
  return { densityCut: { added: cut.reduce((n, x) => n + x.densityCut!.added, 0), dense: cut.reduce((n, x) => n + x.densityCut!.dense, 0) } };
}

/** Per-shape open corners as one list (shape index alongside; native shapes have none), and the edge arrays' places. */
function packOpen(perShape: OpenCorners[], bytes: Uint8Array): ResourceOpen {
  const n = perShape.reduce((s, o) => s + o.corner.length, 0);
  const arrays = new Uint32Array(n > 0 ? locateEdgeArrays(bytes).flatMap((a) => [a.corners, a.values, a.concave, a.flat]) : []);
  const out: ResourceOpen = { shape: new Uint32Array(n), corner: new Uint32Array(n), points: new Float32Array(9 * n), arrays };
  let at = 0;
  perShape.forEach((o, s) => {
    out.shape.fill(s, at, at + o.corner.length);
    out.corner.set(o.corner, at);
    out.points.set(o.points, 9 * at);
    at += o.corner.length;
  });
  return out;
}
