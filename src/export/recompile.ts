// Whether compiling a to-gltf GLB gives the stored bytes back (src/export/gltf.ts writes the notes per resource):
// each check builds or encodes what the compiler will take from the GLB — a kind-2/3 record through the shape
// layer, a convex_parts object's split, a grind prism's curve, a resource's kind-5 parts grouped as the compiler
// will group them — and compares it with the stored part and shape. A note says where they differ; null: nothing
// known against it.
import { faceCount, KIND_BOX, KIND_MESH, NO_SHAPE, type PartRecord, type PhysicsResource, type ShapeRecord, type Vec3 } from '../format/types.ts';
import { encodeResource, type MeshObject } from '../geometry/resource.ts';
import type { OpenCorners } from '../geometry/encode.ts';
import type { LevelFaces } from '../geometry/seams.ts';
import type { NativeShape } from '../shapes/native.ts';
import { convexParts } from '../shapes/convex.ts';
import { parseStoredSpec, storedBox, storedBoxSpec, storedConvexPart } from '../shapes/stored.ts';
import { recoverGrindCurve, type RecoveredCurve } from './grind.ts';
import { partSpans } from './positions.ts';

/** A packed word as the notes and extras write it: 0x and 8 hex digits. */
export const word = (v: number): string => `0x${(v >>> 0).toString(16).padStart(8, '0')}`;

/** How the compiler will group a resource's parts when this GLB is compiled (see the file header). */
export type Grouping = 'object' | 'cell' | 'parts';

export interface MeshPlan {
  part: number;
  /** The parts it holds: one, or the pieces of a mesh the encoder split (merged into one input, mergePieces). */
  parts: number[];
  /** World positions of the stored vertices (f32), as the importer will compute them from what is written. */
  world: Float32Array;
  /** Triangles over the stored vertices, in the order written. */
  tris: Uint32Array;
  /** The part is rotated: its stored values are written under its rotation (world is then only for the check). */
  rotated: boolean;
  /** Per triangle written, its stored first corner. */
  first: Uint32Array;
}

/**
 * What the shape layer builds from a record under a node at `origin` (read back from its JSON, as the importer
 * gets it) against the stored part and shape: a note when they differ, else null.
 */
export function recordCheck(p: PartRecord, s: ShapeRecord, spec: unknown, origin: Vec3): string | null {
  const json: unknown = JSON.parse(JSON.stringify(spec));
  // JSON has no −0: the node's translation comes back +0.
  const world = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, origin[0] + 0, origin[1] + 0, origin[2] + 0, 1];
  let built: NativeShape;
  try {
    if (p.kind === KIND_BOX) {
      const b = storedBoxSpec(json, 'to-gltf');
      if (!b) return 'its rotation is a zero quaternion, which a box record cannot keep, so the recompile will not give these bytes back';
      built = storedBox(b, world);
    } else {
      const spec = parseStoredSpec(json, 'to-gltf');
      if (spec.type !== 'hull') throw new Error('not a hull record');
      built = storedConvexPart(spec.convex, world, 'to-gltf');
    }
  } catch (e) {
    return `its kind-${p.kind} record is not one the shape layer takes (${(e as Error).message}), so the recompile will not give these bytes back`;
  }
  const back = (what: string): string => `its kind-${p.kind} record does not give the stored ${what} back (the shape layer writes a box at ±half-extents with its planes, a convex part unrotated with zero bounds and Newell planes), so the recompile will not give these bytes back`;
  for (let j = 0; j < 3; j++) if (!Object.is(built.position[j], p.position[j])) return back(`position ${'xyz'[j]} (${built.position[j]}, not the stored ${p.position[j]})`);
  for (let j = 0; j < 4; j++) if (!Object.is(built.rotation[j], p.rotation[j])) return back('rotation');
  const same = (x: ArrayLike<number>, y: ArrayLike<number>): boolean => x.length === y.length && Array.prototype.every.call(x, (v: number, i: number) => Object.is(v, y[i]));
  for (const k of ['min', 'max', 'vertices', 'vertexCornerOffsets', 'cornerIdsByVertex', 'cornerVertices', 'edgeValues', 'concaveBits', 'flatBits', 'faceOffsets', 'planeNormals', 'planeOffsets', 'tree'] as const) {
    if (!same(s[k] as ArrayLike<number>, built.shape[k] as ArrayLike<number>)) return back(k);
  }
  if (s.word20 !== built.shape.word20) return back('shape word 0x20');
  return null;
}

/**
 * The convex_parts split of the node as the recompile will make it (world values as the importer computes them,
 * triangles grouped by material as it assembles them): one part per written part, in `found` order, and no kind-5
 * part breaking the convex contract. A note when not, else null.
 */
export function convexSplitCheck(res: PhysicsResource, written: { part: number; world: Float32Array; tris: Uint32Array }[], found: number[]): string | null {
  const at = new Map<number, { base: number; w: (typeof written)[number] }>();
  let base = 0;
  for (const w of written) {
    at.set(w.part, { base, w });
    base += w.world.length / 3;
  }
  const positions = new Float32Array(3 * base);
  for (const { base: b, w } of at.values()) positions.set(w.world, 3 * b);
  const tris = new Uint32Array(written.reduce((t, w) => t + w.tris.length, 0));
  const expected: number[][] = [];
  let t = 0;
  for (const i of found) {
    const { base: b, w } = at.get(i)!;
    expected.push(Array.from({ length: w.tris.length / 3 }, (_, k) => t / 3 + k));
    for (let k = 0; k < w.tris.length; k++) tris[t++] = w.tris[k] + b;
  }
  let split: ReturnType<typeof convexParts>;
  try {
    split = convexParts(positions, tris, 'to-gltf');
  } catch (e) {
    return `as one convex_parts object its mesh is refused (${(e as Error).message}), so the recompile will not give these bytes back`;
  }
  if (split.parts.length !== found.length || split.parts.some((p, k) => p.triangles.join() !== expected[k].join())) {
    return `as one convex_parts object its mesh splits into ${split.parts.length} parts, not the ${found.length} stored (parts meet at a vertex), so the recompile will not give these bytes back`;
  }
  const bad = split.parts.findIndex((p, k) => p.failure && res.parts[found[k]].kind === KIND_MESH);
  if (bad >= 0) return `part ${found[bad]} breaks the convex contract as written (${split.parts[bad].failure}): the recompile refuses it, or with --hull-parts takes its hull`;
  return null;
}

/**
 * The grind curve of a compile output's grind prism (part i, planned as `plan`), or why it does not come back, or
 * null where there is nothing to try (a rotated part, no plan): rebuilt prisms are encoded as the recompile will
 * encode them and taken only where that gives the stored part back.
 */
export function grindCurve(res: PhysicsResource, i: number, plan: MeshPlan | undefined): RecoveredCurve | string | null {
  if (!plan || plan.rotated || plan.parts.length !== 1) return null;
  const p = res.parts[i], stored = res.shapes[p.shape];
  const spans = partSpans(stored.vertices, p.position);
  return recoverGrindCurve(plan.world, faceCount(stored), (positions, indices) => {
    let encoded: ReturnType<typeof encodeResource>;
    try {
      encoded = encodeResource([{ name: 'grind', positions, indices, material: p.material }], { header: { word08: res.word08, body: res.body } });
    } catch {
      return Infinity;
    }
    const [q] = encoded.resource.parts;
    if (encoded.resource.parts.length !== 1 || q.material !== p.material) return Infinity;
    const s = encoded.resource.shapes[q.shape];
    if (s.vertices.length !== stored.vertices.length) return Infinity;
    // Stored values off, a part position axis off counting as every vertex's; 0 only where every array matches.
    let off = 0;
    for (let j = 0; j < 3; j++) if (!Object.is(q.position[j], p.position[j])) off += stored.vertices.length / 3;
    for (let k = 0; k < s.vertices.length; k++) if (!Object.is(s.vertices[k], stored.vertices[k])) off++;
    return off > 0 ? off : shapeDifference(stored, s, encoded.open[q.shape].corner) === null ? 0 : 1;
  }, typeof spans === 'string' ? undefined : spans);
}

/**
 * Encodes the resource's kind-5 parts as the compiler will get them from the GLB ('object': one object, a group
 * per material in first-seen order; 'cell': the cell's groups by material over the nodes in order; 'parts': one
 * object per part, as encodeResource over the nodes) and compares parts and shapes with the stored ones (edge data
 * at corners the shape leaves open excepted: the level-wide seams set those on recompile). Returns a note, or null.
 */
export function reencodeCheck(res: PhysicsResource, grouping: Grouping, meshes: MeshPlan[], file: string, joinedNote: boolean): { why: string | null; seams?: { open: OpenCorners[]; stored: ShapeRecord[]; faces: LevelFaces[] } } {
  const why = (w: string): { why: string } => ({ why: w });
  const objects: MeshObject[] = [];
  const byMaterial = new Map<number, MeshPlan[]>();
  for (const m of meshes) {
    const mat = res.parts[m.part].material;
    if (grouping === 'parts') objects.push(meshObject(`part${m.part}`, [m], mat));
    else byMaterial.set(mat, [...(byMaterial.get(mat) ?? []), m]);
  }
  for (const [mat, list] of byMaterial) objects.push(meshObject(`material ${word(mat)}`, list, mat));
  let encoded: ReturnType<typeof encodeResource>;
  try {
    encoded = encodeResource(objects, { header: { word08: res.word08, body: res.body } });
  } catch (e) {
    return why(`kind-5 parts do not encode again: ${(e as Error).message}`);
  }
  const meshParts = res.parts.filter((p) => p.kind === KIND_MESH && p.shape !== NO_SHAPE);
  const got = encoded.resource.parts;
  if (got.length !== meshParts.length) return why(`kind-5 parts re-encode to ${got.length} parts, not ${meshParts.length} (the compiler's split or grouping differs), so the recompile will not give ${file}'s bytes back`);
  // The stored shape of each encoded shape, for the seams' check (every encoded shape is a kind-5 part's here).
  const stored: ShapeRecord[] = [];
  let differs: string | null = null;
  for (let k = 0; k < got.length; k++) {
    const a = meshParts[k], b = got[k];
    stored[b.shape] = res.shapes[a.shape];
    if (differs) continue;
    const where = `kind-5 part ${res.parts.indexOf(a)}`;
    if (a.material !== b.material) differs = `${where}: re-encodes in another part order (material ${word(b.material)} where ${word(a.material)} is stored)`;
    for (let j = 0; j < 3 && !differs; j++) if (!Object.is(a.position[j], b.position[j])) differs = `${where}: re-encodes with position ${'xyz'[j]} ${b.position[j]}, not the stored ${a.position[j]}, so the recompile will not give these bytes back`;
    const diff: string | null = differs ? null : shapeDifference(res.shapes[a.shape], encoded.resource.shapes[b.shape], encoded.open[b.shape].corner);
    if (diff) differs = `${where}: re-encodes differently (${diff}), so the recompile will not give these bytes back`;
  }
  if (!differs && joinedNote) {
    // Not fitted to the level-wide seams: stored edge data at corners the shapes leave open is not the encoder's.
    let joined = 0;
    for (let k = 0; k < got.length; k++) {
      const a = res.shapes[meshParts[k].shape], b = encoded.resource.shapes[got[k].shape];
      for (const c of encoded.open[got[k].shape].corner) if (!Object.is(a.edgeValues[c], b.edgeValues[c]) || bitOf(a.concaveBits, c) !== bitOf(b.concaveBits, c) || bitOf(a.flatBits, c) !== bitOf(b.flatBits, c)) joined++;
    }
    if (joined > 0) differs = `${joined} corners carry edge data joined across the compiler's cuts (--seams level): the recompile joins them again from world values the file keeps only to its f32 recentring, so their edge values may come out a step apart (a compile output with its manifest is fitted to them)`;
  }
  // The triangles the recompile will see (world space), for the seams' open edges lying on another face.
  return { why: differs, seams: { open: encoded.open, stored, faces: objects.map((o) => ({ positions: o.positions, indices: o.indices })) } };
}

/** Bit c of a per-corner bit array (concave, flat). */
export const bitOf = (bits: Uint8Array, c: number): number => (bits[c >> 3] >> (c & 7)) & 1;

function meshObject(name: string, list: MeshPlan[], material: number): MeshObject {
  const nv = list.reduce((s, m) => s + m.world.length / 3, 0), nt = list.reduce((s, m) => s + m.tris.length, 0);
  const positions = new Float32Array(3 * nv), indices = new Uint32Array(nt);
  let v = 0, t = 0;
  for (const m of list) {
    positions.set(m.world, 3 * v);
    for (let i = 0; i < m.tris.length; i++) indices[t + i] = m.tris[i] + v;
    v += m.world.length / 3;
    t += m.tris.length;
  }
  return { name, positions, indices, material };
}

/** The first stored array of `a` that `b` does not hold the same (edge data at `open` corners not compared), or null. */
function shapeDifference(a: ShapeRecord, b: ShapeRecord, open: Uint32Array): string | null {
  const same = (x: ArrayLike<number>, y: ArrayLike<number>): boolean => x.length === y.length && Array.prototype.every.call(x, (v: number, i: number) => Object.is(v, y[i]));
  for (const k of ['vertices', 'faceOffsets', 'cornerVertices', 'vertexCornerOffsets', 'cornerIdsByVertex', 'tree', 'min', 'max'] as const) {
    if (!same(a[k] as ArrayLike<number>, b[k] as ArrayLike<number>)) return k;
  }
  const skip = new Set(open);
  const bit = (bits: Uint8Array, c: number): number => (bits[c >> 3] >> (c & 7)) & 1;
  for (let c = 0; c < a.cornerVertices.length; c++) {
    if (skip.has(c)) continue;
    if (!Object.is(a.edgeValues[c], b.edgeValues[c]) || bit(a.concaveBits, c) !== bit(b.concaveBits, c) || bit(a.flatBits, c) !== bit(b.flatBits, c)) return `edge data of corner ${c}`;
  }
  return null;
}
