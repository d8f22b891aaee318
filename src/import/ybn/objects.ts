// Bound tree → collision objects, the same ImportedObject the glTF importer makes: one object per leaf bound
// (a geometry with its polygon primitives, or a primitive bound), named `<file stem>_<child path>`, positions in
// skate. game space, arrays in the SharedArena.
// Space: GTA V is Z-up metres, skate. Y-up with −Z forward: (x, y, z) → (x, z, −y), a proper rotation, so
// winding is kept (authoring-notes.md "Space, units, winding"). Static map YBN vertices are already world space;
// composite child transforms (ybn-bounds.md: four columns, translation in the fourth) are applied first, in
// float64, and each world position is rounded to f32 once.
import type { ImportedObject, ImportStats, Logger } from '../../model.ts';
import { MIN_WORLD_SCALE, uniqueName, WORLD_EXTENT_M } from '../../model.ts';
import { SharedArena } from '../shared-arena.ts';
import { boundLabel, polyName } from './bounds.ts';
import { GtaMaterials } from './materials.ts';
import { boxTolerance, IDENTITY, isComposite, isGeometry, isSkipped, kindName, KIND, POLY, POLY_WORDS, type Bound, type CompositeChild, type GeometryBound, type Vec3 } from './model.ts';
import { childSkipReason, emptyYbnReport, type SkipReason, type YbnReport } from './flags.ts';
import { placePrimitive, tessellate, TESSELLATE_DEFAULTS, type Primitive, type TessellateOptions } from '../../shapes/index.ts';
import { nativeBox, type NativePart } from '../../shapes/native.ts';
import { axialPolygon, boundPrimitive, fitBox, noVolumeReason, spherePolygon } from './shapes.ts';

/** Numbers for messages: six significant digits. */
const show = (v: ArrayLike<number>): string => `(${Array.from(v, (x) => +x.toPrecision(6)).join(', ')})`;
const mm = (m: number): string => `${+(m * 1000).toPrecision(3)} mm`;

/** (x, y, z) Z-up → (x, z, −y) Y-up. */
export const toGameSpace = (x: number, y: number, z: number): Vec3 => [x, z, 0 - y]; // 0 − y: no −0

/** p ↦ M(p) for a 12-number affine map (axis images, translation). */
function apply(m: Float64Array | readonly number[], x: number, y: number, z: number): Vec3 {
  return [
    m[0] * x + m[3] * y + m[6] * z + m[9],
    m[1] * x + m[4] * y + m[7] * z + m[10],
    m[2] * x + m[5] * y + m[8] * z + m[11],
  ];
}

/** parent ∘ child. */
export function compose(parent: Float64Array, child: Float64Array): Float64Array {
  const out = new Float64Array(12);
  for (let c = 0; c < 3; c++) {
    const x = child[3 * c], y = child[3 * c + 1], z = child[3 * c + 2];
    out[3 * c] = parent[0] * x + parent[3] * y + parent[6] * z;
    out[3 * c + 1] = parent[1] * x + parent[4] * y + parent[7] * z;
    out[3 * c + 2] = parent[2] * x + parent[5] * y + parent[8] * z;
  }
  const t = apply(parent, child[9], child[10], child[11]);
  out.set(t, 9);
  return out;
}

const determinant = (m: Float64Array): number =>
  m[0] * (m[4] * m[8] - m[5] * m[7]) - m[3] * (m[1] * m[8] - m[2] * m[7]) + m[6] * (m[1] * m[5] - m[2] * m[4]);

/** One bound's local-space mesh: positions and a triangle list per material word. */
/**
 * Most triangles one YBN file may expand to, primitives tessellated (counted as they are built: one primitive is
 * at most the shape layer's maxTriangles). The game's largest map bounds hold tens of thousands of polygons; this
 * stops a small file of 65,535 sphere polygons from asking for gigabytes.
 */
export const MAX_YBN_TRIANGLES = 5_000_000;

interface Piece {
  positions: ArrayLike<number>;
  groups: Map<number, number[]>;
  /** Boxes kept as primitives for native kind-2 parts (--native-shapes), with their material words. */
  boxes?: { box: Extract<Primitive, { family: 'box' }>; material: number; label: string }[];
}

export interface BuildContext {
  stem: string;
  stage: string;
  /** The shape layer's tessellation (src/shapes/tessellate.ts). */
  tessellation: Partial<TessellateOptions>;
  /**
   * --native-shapes (experimental): box bounds and box polygons as kind-2 box parts (src/shapes/native.ts), placed
   * in game space, instead of kind-5 meshes. A box under a shearing composite transform is refused, naming the bound.
   */
  nativeShapes?: boolean;
  logger: Logger;
  arena: SharedArena;
  onObject?: (o: ImportedObject) => void;
  /** Reasons (flags.ts) whose composite children are compiled anyway (--ybn-keep). Default none. */
  keep?: ReadonlySet<SkipReason>;
  /** Reasons compiled because the file is a hi@/ma@ detail copy and --ybn-detail asked for it (flags.ts DETAIL_KEEPS). */
  detailKeep?: ReadonlySet<SkipReason>;
  /** Where skipped children are counted and named; a fresh one when absent. */
  report?: YbnReport;
  /** The file's name as reports name it (default the stem). */
  file?: string;
  /**
   * Where the game places this collision (an MLO interior's .ymap.xml instances): the tree is built once per
   * placement under its transform, objects named `<stem>_<placement index in its ymap>_<child path>` when there are
   * several. None: as stored (static map collision is world space).
   */
  placements?: { index: number; transform: Float64Array; archetype: string }[];
}

/** Walks the tree depth first in child order; returns the objects, the walk's statistics and the report. */
export function boundObjects(root: Bound, ctx: BuildContext): { objects: ImportedObject[]; stats: ImportStats; report: YbnReport } {
  return new ObjectBuilder(ctx).run(root);
}

class ObjectBuilder {
  objects: ImportedObject[] = [];
  stats: ImportStats = { nodes: 0, meshNodes: 0, primitives: 0, skippedNodes: 0, instances: 0, grindCurves: 0, grindPrisms: 0 };
  private names = new Set<string>();
  private materials: GtaMaterials;
  private triangles = 0;
  private report: YbnReport;
  /** Primitive bounds skipped for having no volume, with why (the import's error when nothing else is left). */
  private noVolume: string[] = [];
  /** False while building the second and later placed copies. */
  private counting = true;
  /** Primitives of the current bound that maxTriangles made coarser than the chord error. */
  private limited: { label: string; family: string; error: number; centre: readonly number[] }[] = [];

  constructor(private ctx: BuildContext) {
    this.materials = new GtaMaterials((m) => ctx.logger.warn(m), ctx.stage);
    this.report = ctx.report ?? emptyYbnReport();
  }

  run(root: Bound): { objects: ImportedObject[]; stats: ImportStats; report: YbnReport } {
    const places = this.ctx.placements ?? [];
    if (places.length === 0) this.visit(root, '', new Float64Array(IDENTITY));
    const stem = this.ctx.stem;
    for (const [k, p] of places.entries()) {
      this.counting = k === 0; // skipped children are counted once, not per copy
      if (places.length > 1) this.ctx.stem = `${stem}_${p.index}`;
      this.visit(root, '', this.checkTransform(new Float64Array(p.transform), p.transform, `root, placed by "${p.archetype.slice(0, 80)}" (entity ${p.index})`));
    }
    this.ctx.stem = stem;
    if (this.objects.length === 0 && this.noVolume.length) {
      // Nothing else to compile: the file's own reason, not only "no collision triangles".
      const shown = this.noVolume.slice(0, 3).join('; ');
      throw new Error(`${this.ctx.stage}: nothing to compile: ${shown}${this.noVolume.length > 3 ? `; … ${this.noVolume.length - 3} more` : ''}`);
    }
    return { objects: this.objects, stats: this.stats, report: this.report };
  }

  /**
   * A child's world transform under the glTF path's limits (src/model.ts): no axis scaled below MIN_WORLD_SCALE
   * (its triangles lose their area in f32) or nearly singular, and a translation within WORLD_EXTENT_M. Scale
   * upwards is bounded by where the vertices land (emit). Refused naming the file, the child and the numbers.
   */
  private checkTransform(world: Float64Array, own: Float64Array, path: string): Float64Array {
    const scales = [0, 3, 6].map((c) => Math.hypot(world[c], world[c + 1], world[c + 2]));
    const what = `bound ${path}: composite transform ${show(Array.from(own))} (world axis scales ${show(scales)}, translation ${show(Array.from(world.subarray(9)))})`;
    if (Math.min(...scales) < MIN_WORLD_SCALE) throw new Error(`${this.ctx.stage}: ${what} scales an axis below ${MIN_WORLD_SCALE} (MIN_WORLD_SCALE): its triangles would have no area in f32`);
    const det = determinant(world);
    if (!(Math.abs(det) >= MIN_WORLD_SCALE ** 3)) throw new Error(`${this.ctx.stage}: ${what} is a nearly singular matrix (determinant ${+det.toPrecision(3)})`);
    if (!world.subarray(9).every((t) => Math.abs(t) <= WORLD_EXTENT_M)) throw new Error(`${this.ctx.stage}: ${what} places the child beyond ±${WORLD_EXTENT_M} m (WORLD_EXTENT_M)`);
    return world;
  }

  /** A composite child not solid for a skater (flags.ts) and not kept: counted and named, not compiled. */
  private skipChild(c: CompositeChild, path: string): boolean {
    const reason = childSkipReason(c.flags);
    if (reason === null) return false;
    const hex = (v: number): string => `0x${(v >>> 0).toString(16)}`;
    const by = this.ctx.keep?.has(reason) ? '--ybn-keep' : this.ctx.detailKeep?.has(reason) ? '--ybn-detail' : undefined;
    if (by) {
      if (this.counting) this.report.keptChildren.push({ file: this.ctx.file ?? this.ctx.stem, bound: path, reason, type: hex(c.flags![0]), include: hex(c.flags![1]), by });
      return false;
    }
    if (!this.counting) return true;
    this.stats.skippedNodes++;
    this.report.skipped[reason]++;
    this.report.skippedChildren.push({ file: this.ctx.file ?? this.ctx.stem, bound: path, reason, type: hex(c.flags![0]), include: hex(c.flags![1]) });
    return true;
  }

  private warn(m: string): void {
    this.ctx.logger.warn(`${this.ctx.stage}: ${m}`);
  }

  private visit(b: Bound, path: string, m: Float64Array): void {
    this.stats.nodes++;
    const label = `bound ${boundLabel(path)}`;
    if (isSkipped(b)) {
      this.stats.skippedNodes++;
      const what = b.typeName !== undefined ? `type "${b.typeName}" (unknown)` : `kind ${b.kind} (${b.kind === KIND.cloth ? 'cloth' : 'unknown'})`;
      this.warn(`${label}: ${what} skipped`);
      return;
    }
    if (isComposite(b)) {
      b.children.forEach((c, i) => {
        const childPath = path === '' ? `${i}` : `${path}_${i}`;
        if (c.bound && !this.skipChild(c, childPath)) this.visit(c.bound, childPath, this.checkTransform(compose(m, c.transform), c.transform, childPath));
      });
      return;
    }
    const piece = isGeometry(b) ? this.geometry(b, label) : this.primitive(b, label);
    this.warnLimited(`${label} (${kindName(b.kind)})`);
    if (!piece) return;
    this.stats.meshNodes++;
    this.emit(piece, path, `${label} (${kindName(b.kind)})`, m);
  }

  private primitive(b: Bound, label: string): Piece | undefined {
    const shape = boundPrimitive(b);
    if (!shape) {
      const why = `${label} (${kindName(b.kind)}): ${noVolumeReason(b)}; skipped`;
      this.noVolume.push(why);
      this.warn(why);
      return undefined;
    }
    const material = this.materials.word(b.material, label);
    if (shape.family === 'box' && this.ctx.nativeShapes) {
      this.stats.primitives++;
      return { positions: [], groups: new Map(), boxes: [{ box: shape, material, label }] };
    }
    const mesh = this.tessellate(shape, label);
    return { positions: mesh.positions, groups: new Map([[material, Array.from(mesh.indices)]]) };
  }

  /** The shape layer's closed, outward, welded mesh of one primitive, counted against MAX_YBN_TRIANGLES. */
  private tessellate(p: Primitive, label: string): { positions: Float64Array; indices: Uint32Array } {
    const t = tessellate(p, this.ctx.tessellation);
    this.stats.primitives++;
    this.plan(t.indices.length / 3, label);
    if (t.limited) this.limited.push({ label, family: p.family, error: t.chordError, centre: p.centre });
    return t;
  }

  /**
   * The shape layer's warning (src/shapes/build.ts) for primitives the triangle limit made coarser than
   * --chord-error, once per bound: how many, and the worst with its place in the bound's own space.
   */
  private warnLimited(label: string): void {
    const l = this.limited;
    if (l.length === 0) return;
    this.limited = [];
    const chord = this.ctx.tessellation.chordError ?? TESSELLATE_DEFAULTS.chordError;
    const max = this.ctx.tessellation.maxTriangles ?? TESSELLATE_DEFAULTS.maxTriangles;
    const worst = l.reduce((a, b) => (b.error > a.error ? b : a));
    const which = worst.label.startsWith(`${label.replace(/ \(.*\)$/, '')} `) ? `${worst.label.slice(label.replace(/ \(.*\)$/, '').length + 1)} ` : '';
    const more = l.length > 1 ? `; ${l.length} primitives of this bound are, the worst shown` : '';
    this.warn(
      `${label}: the ${worst.family} needs more than ${max} triangles for a ${mm(chord)} chord error; tessellated to ${mm(worst.error)} instead ` +
        `(${which}at ${show(worst.centre)} in the bound's space${more})`,
    );
  }

  /**
   * Triangles reference the geometry's vertices; each primitive polygon appends its own tessellation. Only the
   * vertices a triangle uses are kept (a primitive's centre or ends are not points of the mesh), in index order.
   */
  private geometry(g: GeometryBound, label: string): Piece | undefined {
    const nv = g.vertices.length / 3;
    const vertex = (i: number): Vec3 => [g.vertices[3 * i] + g.centre[0], g.vertices[3 * i + 1] + g.centre[1], g.vertices[3 * i + 2] + g.centre[2]];
    const n = g.polyMaterials.length;
    let planned = 0;
    const used = new Uint8Array(nv);
    for (let p = 0; p < n; p++) {
      const w = POLY_WORDS * p;
      const kind = g.polys[w];
      if (kind === POLY.triangle) used[g.polys[w + 1]] = used[g.polys[w + 2]] = used[g.polys[w + 3]] = 1;
      if (kind === POLY.triangle) planned++;
    }
    this.plan(planned, label);
    const remap = new Int32Array(nv).fill(-1);
    const positions: number[] = [];
    for (let i = 0; i < nv; i++) {
      if (!used[i]) continue;
      remap[i] = positions.length / 3;
      positions.push(...vertex(i));
    }
    const groups = new Map<number, number[]>();
    const list = (word: number): number[] => {
      let l = groups.get(word);
      if (!l) groups.set(word, (l = []));
      return l;
    };
    const degenerate: string[] = [];
    const boxes: NonNullable<Piece['boxes']> = [];
    // Box polygons: the nearest box to the four stored corners; a misfit beyond their precision is reported.
    const misfits: { p: number; misfit: number; bound: number }[] = [];
    const box = (p: number): Primitive | undefined => {
      const w = POLY_WORDS * p;
      const c = [1, 2, 3, 4].map((k) => vertex(g.polys[w + k])) as [Vec3, Vec3, Vec3, Vec3];
      const fit = fitBox(...c);
      const bound = boxTolerance(g.quantum, Math.max(...c.flat().map(Math.abs)));
      if (fit.box && fit.misfit > bound) misfits.push({ p, misfit: fit.misfit, bound });
      return fit.box;
    };
    for (let p = 0; p < n; p++) {
      const w = POLY_WORDS * p;
      const kind = g.polys[w];
      if (kind === 0xff) continue;
      if (kind === POLY.box && this.ctx.nativeShapes) {
        const shape = box(p);
        if (shape && shape.family === 'box') {
          this.stats.primitives++;
          boxes.push({ box: shape, material: this.materials.word(g.polyMaterials[p], `${label} polygon ${p}`), label: `${label} polygon ${p}` });
        } else degenerate.push(`${p} (${polyName(kind)})`);
        continue;
      }
      const out = list(this.materials.word(g.polyMaterials[p], `${label} polygon ${p}`));
      if (kind === POLY.triangle) {
        out.push(remap[g.polys[w + 1]], remap[g.polys[w + 2]], remap[g.polys[w + 3]]);
        continue;
      }
      const r = g.radii[p];
      const a = vertex(g.polys[w + 1]);
      let shape: Primitive | undefined;
      if (kind === POLY.sphere) shape = spherePolygon(a, r);
      else if (kind === POLY.capsule) shape = axialPolygon('capsule', a, vertex(g.polys[w + 2]), r);
      else if (kind === POLY.cylinder) shape = axialPolygon('cylinder', a, vertex(g.polys[w + 2]), r);
      else if (kind === POLY.box) shape = box(p);
      if (!shape) {
        degenerate.push(`${p} (${polyName(kind)})`);
        continue;
      }
      const mesh = this.tessellate(shape, `${label} polygon ${p}`);
      const offset = positions.length / 3;
      for (const v of mesh.positions) positions.push(v);
      for (const i of mesh.indices) out.push(i + offset);
    }
    if (misfits.length) {
      const worst = misfits.slice().sort((x, y) => y.misfit - x.misfit);
      const list = worst.slice(0, 5).map((x) => `polygon ${x.p} misfit ${x.misfit.toFixed(4)} m (bound ${x.bound.toFixed(4)} m)`).join(', ');
      this.warn(`${label} (${kindName(g.kind)}): ${misfits.length} box polygon(s) whose four corners are not a box within their precision, written as the nearest box: ${list}${misfits.length > 5 ? ` and ${misfits.length - 5} more` : ''}`);
    }
    for (const [k, l] of groups) if (l.length === 0) groups.delete(k);
    if (degenerate.length) this.warn(`${label} (${kindName(g.kind)}): polygon(s) ${degenerate.slice(0, 5).join(', ')}${degenerate.length > 5 ? ` and ${degenerate.length - 5} more` : ''} have no volume; skipped`);
    if (groups.size === 0 && boxes.length === 0) return undefined;
    return { positions, groups, ...(boxes.length ? { boxes } : {}) };
  }

  /**
   * A box as a kind-2 part in game space: the composite transform and the axis change applied to its frame by the
   * shape layer (placePrimitive: positive scale and mirroring are taken, shear is refused naming the bound).
   */
  private nativeBox(b: NonNullable<Piece['boxes']>[number], m: Float64Array): NativePart | undefined {
    // World 4×4, column-major: the axis change (x, y, z) → (x, z, −y) after the composite transform.
    const g = (v: number[]): number[] => [v[0], v[2], 0 - v[1]];
    const world = [...g([m[0], m[1], m[2]]), 0, ...g([m[3], m[4], m[5]]), 0, ...g([m[6], m[7], m[8]]), 0, ...g([m[9], m[10], m[11]]), 1];
    let placed: Primitive;
    try {
      placed = placePrimitive(b.box, world, `${this.ctx.stage}: ${b.label}`);
    } catch (e) {
      throw new Error(`${(e as Error).message.replace(/^shapes: /, '')} (without --native-shapes it compiles as a mesh)`);
    }
    if (placed.family !== 'box') return undefined;
    const reach = Math.hypot(...placed.halfExtents);
    if (!placed.centre.every((c) => Math.abs(c) + reach <= WORLD_EXTENT_M)) {
      throw new Error(`${this.ctx.stage}: ${b.label}: box at ${show(placed.centre)} in world space (half extents ${show(placed.halfExtents)}) reaches beyond ±${WORLD_EXTENT_M} m (WORLD_EXTENT_M)`);
    }
    return { ...nativeBox(placed.centre, placed.rotation, placed.halfExtents), material: b.material };
  }

  /** Counts a bound's triangles against MAX_YBN_TRIANGLES before they are built. */
  private plan(triangles: number, label: string): void {
    this.triangles += triangles;
    if (this.triangles > MAX_YBN_TRIANGLES) throw new Error(`${this.ctx.stage}: ${label}: the file expands to more than ${MAX_YBN_TRIANGLES} triangles; refusing`);
  }

  /** World transform, axis change, f32 rounding; one object with a group per material. */
  private emit(piece: Piece, path: string, label: string, m: Float64Array): void {
    const { arena } = this.ctx;
    const src = piece.positions;
    const nv = src.length / 3;
    const positions = arena.f32(src.length);
    for (let i = 0; i < nv; i++) {
      const [x, y, z] = apply(m, src[3 * i], src[3 * i + 1], src[3 * i + 2]);
      const g = toGameSpace(x, y, z);
      for (let k = 0; k < 3; k++) {
        const v = Math.fround(g[k]);
        if (!(Math.abs(v) <= WORLD_EXTENT_M)) {
          const local = [src[3 * i], src[3 * i + 1], src[3 * i + 2]];
          throw new Error(`${this.ctx.stage}: ${label}: vertex ${i} ${show(local)} is at ${show(g)} in world space (game axes; world scale ${show([0, 3, 6].map((c) => Math.hypot(m[c], m[c + 1], m[c + 2])))}), beyond ±${WORLD_EXTENT_M} m (WORLD_EXTENT_M)`);
        }
        positions[3 * i + k] = v;
      }
    }
    const flip = determinant(m) < 0; // a mirroring transform: reverse winding so faces keep pointing out
    const groups = [...piece.groups].map(([material, list]) => {
      const indices = arena.u32(list.length);
      indices.set(list);
      if (flip) for (let t = 0; t < indices.length; t += 3) [indices[t + 1], indices[t + 2]] = [indices[t + 2], indices[t + 1]];
      return { material, indices };
    });
    const native = (piece.boxes ?? []).map((b) => this.nativeBox(b, m));
    const name = this.uniqueName(path === '' ? this.ctx.stem : `${this.ctx.stem}_${path}`);
    const obj: ImportedObject = {
      name,
      source: label,
      kind: 'mesh',
      positions,
      groups,
      ...(native.some((x) => x) ? { native: native.filter((x): x is NativePart => x !== undefined) } : {}),
    };
    this.objects.push(obj);
    this.ctx.onObject?.(obj);
  }

  private uniqueName(raw: string): string {
    return uniqueName(this.names, raw);
  }
}
