// Forge records → collision objects (the ImportedObject every importer makes). Placement (docs/format-decisions.md
// "Forge placement"): world = A × Entity placement × ReferenceListShape child transform × diag(Scales xyz)
// [× BoxShape Matrix], every matrix column-major with its translation at floats 12–14 (forge-entities.md: the SWS
// GlobalMatrix stores the local axes as rows 0–2 and the origin as row 3 under world = v · M, which is the same 16
// floats read as column-major for M' · v), A the axis change Z-up → Y-up (x, y, z) → (x, z, −y), a proper rotation.
// Primitives go through the shape layer (placePrimitive: scale taken, shear refused) and are tessellated by it, or
// become kind-2 boxes with --native-shapes. Entity → shape links are not established by the specs: a shape is placed
// by an entity when the entity's exactly-read body contains the shape's id (a heuristic, warned once).
import type { ForgeImportReport, ImportedObject, ImportStats, Logger } from '../../model.ts';
import { uniqueName, WORLD_EXTENT_M } from '../../model.ts';
import { fewestTriangles, placePrimitive, quatFromYTo, tessellate, TESSELLATE_DEFAULTS, type Primitive, type TessellateOptions, type Vec3 } from '../../shapes/index.ts';
import { nativeBox, type NativePart } from '../../shapes/native.ts';
import { SharedArena } from '../shared-arena.ts';
import type { RawRecord } from './container.ts';
import { ForgeMaterials, type ForgeMaterialMap } from './materials.ts';
import { bump, emptyCounts, FORGE_TYPES, forgeTypeName, readRecord, RecordRefusal, type EntityProfile, type ForgeRecord, type Matrix4 } from './records.ts';

/** A record with where it came from (the data file's name, or the extracted file's path). */
export interface LevelRecord extends RawRecord {
  source: string;
}

export interface LevelOptions {
  stem: string;
  stage: string;
  profile: EntityProfile;
  tessellation: Partial<TessellateOptions>;
  nativeShapes: boolean;
  materials: ForgeMaterialMap;
  logger: Logger;
  arena: SharedArena;
  onObject?: (o: ImportedObject) => void;
  /** Bytes of the input (the .forge, or every extracted file): the placed-shape cap grows with it (maxPlacedShapes). */
  inputBytes?: number;
}

/** The forge part of the summary and the manifest (model.ts). */
export type ForgeReport = ForgeImportReport;

/** Nested ReferenceListShapes deeper than this are refused (a cycle would never end). */
export const MAX_COMPOUND_DEPTH = 8;
/** Most shapes one level may place (compound children counted each time they are placed), whatever its size. */
export const MAX_PLACED_SHAPES = 200_000;
/**
 * Below MAX_PLACED_SHAPES, the cap grows with the input: PLACED_SHAPES_FLOOR plus one shape per
 * INPUT_BYTES_PER_PLACED_SHAPE bytes. A placement costs an entity's link (an SWS Entity is ~180 bytes before
 * compression) or a compound child (90 bytes); nested compounds multiply, so a few kilobytes of nesting could
 * otherwise ask for tens of thousands of shapes. Counted before anything is placed.
 */
export const PLACED_SHAPES_FLOOR = 10_000;
export const INPUT_BYTES_PER_PLACED_SHAPE = 4;
export const maxPlacedShapes = (inputBytes: number): number => Math.min(MAX_PLACED_SHAPES, PLACED_SHAPES_FLOOR + Math.floor(inputBytes / INPUT_BYTES_PER_PLACED_SHAPE));
/**
 * Most triangles one level's tessellated primitives may make (counted as each is made; one primitive is at most
 * the shape layer's maxTriangles). As for YBN files: a radius-10 m sphere at the default chord error is 21,845.
 */
export const MAX_FORGE_TRIANGLES = 5_000_000;

const SHAPE_TYPES = new Set<number>([FORGE_TYPES.SphereShape, FORGE_TYPES.CapsuleShape, FORGE_TYPES.BoxShape, FORGE_TYPES.ReferenceListShape, FORGE_TYPES.MeshShape]);
type Shape = Extract<ForgeRecord, { kind: 'SphereShape' | 'CapsuleShape' | 'BoxShape' | 'ReferenceListShape' }>;

/** Column-major 4×4 product a × b. */
export function mul4(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[4 * k + r] * b[4 * c + k];
    out[4 * c + r] = s;
  }
  return out;
}
/** Z-up → Y-up: (x, y, z) → (x, z, −y), column-major. */
export const Z_UP_TO_Y_UP: readonly number[] = [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1];
const diag = (x: number, y: number, z: number): number[] => [x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1];
const ID_Q: [number, number, number, number] = [0, 0, 0, 1];

/** buildLevel's result: the objects, and why records were refused (the first example of each type). */
export interface BuiltLevel {
  objects: ImportedObject[];
  stats: ImportStats;
  report: ForgeReport;
  /** "Entity \"busy_ent\" (id 0x14, …): at 0x4a: expected …", the first of each refused type. */
  refusalExamples: string[];
}

export function buildLevel(records: LevelRecord[], o: LevelOptions): BuiltLevel {
  const counts = emptyCounts();
  const warn = (m: string): void => o.logger.warn(`${o.stage}: ${m}`);
  const shapes = new Map<bigint, { rec: LevelRecord; shape: Shape }>();
  const shapeIds = new Map<bigint, LevelRecord>();
  const materialNames = new Map<bigint, string>();
  const entities: { rec: LevelRecord; parsed: Extract<ForgeRecord, { kind: 'Entity' }>; placement: Matrix4; scale?: number; name: string }[] = [];
  const refusals = new Map<string, string[]>();
  let meshShapes = 0;
  for (const rec of records) {
    const typeName = forgeTypeName(rec.type);
    if (rec.type === FORGE_TYPES.CollisionMaterial) {
      materialNames.set(rec.id, rec.name);
      bump(counts.skipped, typeName); // its layout is not in the specs: only its name is used
      continue;
    }
    if (rec.type === FORGE_TYPES.MeshShape) {
      meshShapes++;
      shapeIds.set(rec.id, rec);
      bump(counts.skipped, typeName);
      continue;
    }
    let parsed: ForgeRecord | undefined;
    try {
      parsed = readRecord(rec.type, rec.body, o.profile);
    } catch (e) {
      if (!(e instanceof RecordRefusal)) throw e;
      bump(counts.refused, typeName);
      const list = refusals.get(typeName) ?? [];
      if (list.length < 3) list.push(`${label(rec)}: ${e.message}`);
      refusals.set(typeName, list);
      continue;
    }
    if (!parsed) {
      bump(counts.skipped, typeName);
      continue;
    }
    bump(counts.read, typeName);
    if (parsed.kind === 'Entity') entities.push({ rec, parsed, placement: parsed.placement, scale: parsed.profile === 'generic' ? parsed.scale : undefined, name: rec.name || `entity_${rec.id.toString(16)}` });
    else if (parsed.kind !== 'EntityGroup') {
      shapes.set(rec.id, { rec, shape: parsed });
      shapeIds.set(rec.id, rec);
    }
  }
  for (const [type, examples] of refusals) {
    warn(`${counts.refused[type]} ${type} record(s) refused (not consumed exactly; never read in part), e.g. ${examples.join('; ')}`);
  }
  if (meshShapes) warn(`${meshShapes} MeshShape record(s) skipped: their grammar for this generation is not established (forge-shapes.md covers primitives and compounds only)`);

  const materials = new ForgeMaterials(materialNames, o.materials, (m) => o.logger.warn(m), o.stage);
  const stats: ImportStats = { nodes: records.length, meshNodes: 0, primitives: 0, skippedNodes: 0, instances: 0, grindCurves: 0, grindPrisms: 0 };
  const objects: ImportedObject[] = [];
  const names = new Set<string>();
  const byEntity: Record<string, string[]> = {};
  /** Shapes some placement reached (directly or through a compound). */
  const reached = new Set<bigint>();
  let linkCount = 0;
  const unresolved: string[] = [];
  const unplacedMesh = { n: 0 };

  const oddLanes = new Set<string>();
  let triangles = 0;
  const place = (entity: string, id: bigint, world: number[], path: string, depth: number, out: ImportedObject[]): void => {
    const found = shapes.get(id);
    if (!found) {
      const rec = shapeIds.get(id);
      if (rec?.type === FORGE_TYPES.MeshShape) unplacedMesh.n++;
      else if (!rec && unresolved.length < 1000) unresolved.push(`${entity}/${path}: 0x${id.toString(16)}`);
      return;
    }
    const { rec, shape } = found;
    reached.add(id);
    const where = `entity "${entity}" ${path}${shape.kind} ${label(rec)}`;
    if (shape.kind === 'ReferenceListShape') {
      shape.children.forEach((c, i) => {
        const s = shape.scales[i];
        if (s[3] !== 1 && !oddLanes.has(`${id}:${i}`)) {
          oddLanes.add(`${id}:${i}`); // once per compound child, however often the compound is placed
          warn(`${where}: child ${i}: Scales fourth lane ${s[3]} is not 1; its meaning is not established, only x, y, z are applied`);
        }
        place(entity, c.id, mul4(mul4(world, shape.transforms[i]), diag(s[0], s[1], s[2])), `${path}${rec.name || 'list'}_${i}/`, depth + 1, out);
      });
      return;
    }
    const local = localPrimitive(shape);
    const frame = shape.kind === 'BoxShape' ? mul4(world, shape.matrix) : world;
    if (!local) {
      warn(`${where}: no volume or not finite (${JSON.stringify(describe(shape))}); skipped`);
      stats.skippedNodes++;
      return;
    }
    let p: Primitive;
    try {
      p = placePrimitive(local, mul4(Z_UP_TO_Y_UP, frame), where);
    } catch (e) {
      // The shape layer's message names the place it was given (`where`); warn adds the stage once.
      warn(`${(e as Error).message.replace(/^shapes: /, '')}; skipped`);
      stats.skippedNodes++;
      return;
    }
    const reach = Math.max(...p.centre.map(Math.abs)) + ('radius' in p ? p.radius + ('length' in p ? p.length / 2 : 0) : Math.hypot(...p.halfExtents));
    if (!(reach <= WORLD_EXTENT_M)) throw new Error(`${o.stage}: ${where}: placed ${reach.toFixed(0)} m from the world origin, farther than ${WORLD_EXTENT_M} m (a unit or matrix mistake?)`);
    const material = materials.word(shape.material.id, where);
    const name = uniqueName(names, `${o.stem}_${entity}_${rec.name || shape.kind}`);
    stats.primitives++;
    stats.meshNodes++;
    let obj: ImportedObject;
    if (p.family === 'box' && o.nativeShapes) {
      const native: NativePart = { ...nativeBox(p.centre, p.rotation, p.halfExtents), material };
      obj = { name, source: where, kind: 'mesh', positions: o.arena.f32(0), groups: [], native: [native] };
    } else {
      const t = tessellate(p, o.tessellation);
      triangles += t.indices.length / 3;
      if (triangles > MAX_FORGE_TRIANGLES) throw new Error(`${o.stage}: ${where}: the level's primitives tessellate to more than ${MAX_FORGE_TRIANGLES} triangles (--chord-error ${o.tessellation.chordError ?? TESSELLATE_DEFAULTS.chordError} m); refusing`);
      const positions = o.arena.f32(t.positions.length);
      for (let i = 0; i < t.positions.length; i++) positions[i] = Math.fround(t.positions[i]);
      const indices = o.arena.u32(t.indices.length);
      indices.set(t.indices);
      obj = { name, source: where, kind: 'mesh', positions, groups: [{ material, indices }] };
    }
    out.push(obj);
  };

  // Links first, then what they expand to, counted before anything is placed: the caps bound the work, not only
  // what is kept (nested compounds multiply; a few kilobytes can ask for millions of shapes).
  const linked = entities.map((e) => ({ e, links: scanLinks(e.parsed, shapeIds) }));
  const expansion = new CompoundExpansion(shapes, (id, why) => {
    const found = shapes.get(id)!;
    return new Error(`${o.stage}: ${found.shape.kind} ${label(found.rec)}: ${why}`);
  });
  const cap = maxPlacedShapes(o.inputBytes ?? 0);
  let planned = 0;
  for (const { links } of linked) for (const id of links) planned = Math.min(planned + expansion.count(id), Number.MAX_SAFE_INTEGER);
  if (planned > cap) {
    throw new Error(
      `${o.stage}: the level's entity links expand to ${planned > MAX_PLACED_SHAPES ? `more than ${MAX_PLACED_SHAPES}` : planned} shapes (compound children counted each time they are placed), more than the cap of ${cap}` +
        ` (${PLACED_SHAPES_FLOOR} + one per ${INPUT_BYTES_PER_PLACED_SHAPE} bytes of the ${o.inputBytes ?? 0}-byte input, at most ${MAX_PLACED_SHAPES}); refusing before placing any`,
    );
  }
  // The triangles the placed primitives make, at the fewest tessellate can make them, counted before any is made.
  let fewest = 0;
  const countTriangles = (id: bigint, world: number[], depth: number): void => {
    const found = shapes.get(id);
    if (!found || depth > MAX_COMPOUND_DEPTH) return;
    const { shape } = found;
    if (shape.kind === 'ReferenceListShape') {
      shape.children.forEach((c, i) => {
        const s = shape.scales[i];
        countTriangles(c.id, mul4(mul4(world, shape.transforms[i]), diag(s[0], s[1], s[2])), depth + 1);
      });
      return;
    }
    const local = localPrimitive(shape);
    if (!local || (local.family === 'box' && o.nativeShapes)) return;
    let p: Primitive;
    try {
      p = placePrimitive(local, mul4(Z_UP_TO_Y_UP, shape.kind === 'BoxShape' ? mul4(world, shape.matrix) : world), '');
    } catch {
      return; // refused when placed, with its warning
    }
    fewest += fewestTriangles(p, o.tessellation);
    if (fewest > MAX_FORGE_TRIANGLES) {
      throw new Error(`${o.stage}: the level's primitives tessellate to more than ${MAX_FORGE_TRIANGLES} triangles (--chord-error ${o.tessellation.chordError ?? TESSELLATE_DEFAULTS.chordError} m); refusing before placing any`);
    }
  };
  for (const { e, links } of linked) for (const id of links) countTriangles(id, e.placement, 0);
  for (const { e, links } of linked) {
    if (links.length === 0) continue;
    if (e.scale !== undefined && e.scale !== 1) warn(`entity "${e.name}": Scale ${e.scale} kept, not applied (the placement matrix is taken as the whole transform; docs/format-decisions.md)`);
    const made: ImportedObject[] = [];
    for (const id of links) {
      linkCount++;
      place(e.name, id, e.placement, '', 0, made);
    }
    for (const obj of made) {
      objects.push(obj);
      o.onObject?.(obj);
    }
    if (made.length) byEntity[e.name] = [...(byEntity[e.name] ?? []), ...made.map((x) => x.name)];
  }
  if (linkCount) warn(`${linkCount} entity → shape link(s) found by looking for shape ids in the fields of each exactly-read Entity that can hold a reference (${o.profile === 'sws' ? 'its uninterpreted bytes: flag bytes, EntityDescriptor, GameStateData arrays, tail; never its matrix, bounds, counts or own id' : 'its links, Run and DataLayerActions; never its matrix, bounds or numbers'}): a heuristic (forge-entities.md does not establish which field links an entity to its collision)`);
  if (unresolved.length) warn(`${unresolved.length} shape reference(s) name no record of the level: ${unresolved.slice(0, 5).join(', ')}${unresolved.length > 5 ? ', …' : ''}`);
  if (unplacedMesh.n) warn(`${unplacedMesh.n} placed reference(s) to MeshShapes skipped (not read)`);
  let unplaced = 0;
  for (const id of shapes.keys()) if (!reached.has(id)) unplaced++;
  if (unplaced) warn(`${unplaced} shape(s) that no exactly-read Entity links, directly or through a compound, were not placed`);
  stats.skippedNodes += unplaced;
  return { objects, stats, report: { records: counts, unplacedShapes: unplaced, objectsByEntity: byEntity }, refusalExamples: [...refusals.values()].map((l) => l[0]) };
}

const label = (rec: LevelRecord): string => `${rec.name ? `"${rec.name}" ` : ''}(id 0x${rec.id.toString(16)}, ${rec.source})`;

/** The shape in its own frame (Z-up, forge units), or undefined without volume. */
function localPrimitive(s: Exclude<Shape, { kind: 'ReferenceListShape' }>): Primitive | undefined {
  const ok = (p: Primitive): Primitive | undefined => {
    const nums = [...p.centre, 'radius' in p ? p.radius : 1, 'length' in p ? p.length : 0, ...('halfExtents' in p ? p.halfExtents : [1, 1, 1])];
    if (!nums.every(Number.isFinite)) return undefined;
    if ('radius' in p && !(p.radius > 0)) return undefined;
    if ('halfExtents' in p && !p.halfExtents.every((h) => h > 0)) return undefined;
    return p;
  };
  switch (s.kind) {
    case 'SphereShape':
      return ok({ family: 'sphere', centre: [s.centre[0], s.centre[1], s.centre[2]], rotation: ID_Q, radius: s.radius });
    case 'CapsuleShape': {
      const a: Vec3 = [s.endA[0], s.endA[1], s.endA[2]];
      const d: Vec3 = [s.endB[0] - a[0], s.endB[1] - a[1], s.endB[2] - a[2]];
      const length = Math.hypot(...d);
      return ok({ family: 'capsule', centre: [a[0] + d[0] / 2, a[1] + d[1] / 2, a[2] + d[2] / 2], rotation: length > 0 ? quatFromYTo(d) : ID_Q, radius: s.radius, length });
    }
    case 'BoxShape':
      return ok({ family: 'box', centre: [0, 0, 0], rotation: ID_Q, halfExtents: [s.halfExtents[0], s.halfExtents[1], s.halfExtents[2]] });
  }
}

function describe(s: Shape): unknown {
  if (s.kind === 'SphereShape') return { centre: s.centre, radius: s.radius };
  if (s.kind === 'CapsuleShape') return { endA: s.endA, endB: s.endB, radius: s.radius };
  if (s.kind === 'BoxShape') return { halfExtents: s.halfExtents };
  return {};
}

/**
 * The fields of an exactly-read Entity that can hold a reference to a shape, as byte ranges: for the SWS profile
 * the bytes forge-entities.md leaves uninterpreted (34 flag bytes, the 12-byte EntityDescriptor, the GameStateData
 * arrays, the 16-byte tail); for the generic profile the u64 of each UIVisualsDisplayOrder link (after its tag),
 * the Run box and each DataLayerAction. Never the matrix, the bounds, a count, a scale or the entity's own id: a
 * float such as 1.0 is not a link, whatever shape id its bits equal.
 */
export function linkFields(e: Extract<ForgeRecord, { kind: 'Entity' }>): Uint8Array[] {
  if (e.profile === 'sws') return [e.flags, e.descriptor, e.reset.first, e.reset.second, e.tail];
  return [...e.links.map((l) => l.subarray(1, 9)), e.run, ...e.actions];
}

/**
 * Shape ids found in the entity's link fields (linkFields), in order of first appearance: u32 for the SWS profile
 * (32-bit ids), u64 for the generic one, at any offset inside a field (their layouts are not tabulated), never
 * across two. The heuristic the placement uses, nothing more.
 */
export function scanLinks(e: Extract<ForgeRecord, { kind: 'Entity' }>, ids: ReadonlyMap<bigint, unknown>): bigint[] {
  const width = e.profile === 'sws' ? 4 : 8;
  const out: bigint[] = [];
  const seen = new Set<bigint>();
  for (const field of linkFields(e)) {
    const dv = new DataView(field.buffer, field.byteOffset, field.byteLength);
    for (let at = 0; at + width <= field.length; at++) {
      const v = width === 4 ? BigInt(dv.getUint32(at, true)) : dv.getBigUint64(at, true);
      if (v !== 0n && ids.has(v) && !seen.has(v)) {
        seen.add(v);
        out.push(v);
      }
    }
  }
  return out;
}

/**
 * How many shapes a shape id expands to when placed once — a primitive, a MeshShape or an id no record has: 1; a
 * compound: the sum over its children, at least 1 — memoized,
 * so a level's total is known before anything is placed; nesting deeper than MAX_COMPOUND_DEPTH, or a cycle, is
 * refused. Linear in the shapes and children however they multiply; counts saturate above MAX_PLACED_SHAPES.
 */
export class CompoundExpansion {
  private counts = new Map<bigint, number>();
  private heights = new Map<bigint, number>();
  private open = new Set<bigint>();
  constructor(
    private shapes: ReadonlyMap<bigint, { shape: Shape }>,
    private refuse: (id: bigint, why: string) => Error,
  ) {}

  count(id: bigint): number {
    this.visit(id);
    return this.counts.get(id) ?? 0;
  }

  private visit(id: bigint): void {
    if (this.counts.has(id)) return;
    const found = this.shapes.get(id);
    // A MeshShape or an unresolved id places nothing but is still met (and counted in a note) each time: 1, so
    // the cap bounds the walk too; likewise an empty compound counts 1.
    if (!found || found.shape.kind !== 'ReferenceListShape') {
      this.counts.set(id, 1);
      this.heights.set(id, 0);
      return;
    }
    const { shape } = found;
    if (this.open.has(id)) throw this.refuse(id, `lists itself through its children (a cycle of ReferenceListShapes)`);
    this.open.add(id);
    let n = 0;
    let h = 0;
    for (const c of shape.children) {
      this.visit(c.id);
      n = Math.min(n + (this.counts.get(c.id) ?? 0), MAX_PLACED_SHAPES + 1);
      h = Math.max(h, this.heights.get(c.id) ?? 0);
    }
    this.open.delete(id);
    if (h + 1 > MAX_COMPOUND_DEPTH) throw this.refuse(id, `ReferenceListShapes nest deeper than ${MAX_COMPOUND_DEPTH}`);
    this.counts.set(id, Math.max(1, n));
    this.heights.set(id, h + 1);
  }
}

export const isShapeType = (t: number): boolean => SHAPE_TYPES.has(t);
