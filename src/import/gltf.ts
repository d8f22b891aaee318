// glTF 2.0 level → collision objects in game space.
// Context: ../shared/spec/authoring-notes.md ("Space, units, winding", "Objects and their properties", "Grind
// curves"). glTF world space is game space (Y up, metres): Blender's exporter already converts, so positions are
// taken as the scene's world positions with no further axis change. World matrices are composed in float64 and
// each world position is rounded to f32 once, the precision Studio's normalized per-object GLBs store.
import type { InstancedMesh } from '@gltf-transform/extensions';
import { mat4 } from 'gl-matrix';
import { locateDecodeFailure } from './decode-check.ts';
import { readJson } from './gltf-read.ts';
import { liteRoot, type WalkAccessor as Accessor, type WalkNode as Node, type WalkPrimitive as Primitive, type WalkRoot } from './gltf-lite.ts';
import { chainRuns, clampGrindRadius, grindPrisms, GRIND_DEFAULTS, halfEdgesPerMetre, DENSITY_WARN_HALF_EDGES_PER_METRE } from './grind.ts';
import { MaterialResolver, type Extras } from './objects.ts';
import { placeText, type Place } from './materials.ts';
import { SharedArena } from './shared-arena.ts';
import { arrayId, type AccessorData, type ImportMemo } from './memo.ts';
import { isShapeMode, type ShapeRequest } from '../shapes/build.ts';
import type { NativePart } from '../shapes/native.ts';
import { MAX_SCENE_OBJECTS, MAX_SCENE_TRIANGLES, MIN_WORLD_SCALE, uniqueName, WORLD_EXTENT_M, type ImportedObject, type ImportResult, type ImportStats, type Logger } from '../model.ts';
import type { WalkHooks } from './hooks.ts';

export interface ImportOptions {
  /** Scene to compile: name or index; default the file's default scene, else scene 0. */
  scene?: string;
  /** Accept material slots ≥ 116 (levels whose MaterialIndexMap adds surfaces). Default false. */
  allowCustomSlots: boolean;
  /** Decoders to register; tests turn one off to prove the missing-decoder error. Default both on. */
  decoders: { draco: boolean; meshopt: boolean };
  /** 'auto' (default): gltf-lite.ts where it covers the file, else @gltf-transform; tests compare the two. */
  reader?: 'auto' | 'gltf-transform';
  /** Read buffer URIs that resolve outside the glTF's directory (src/files.ts resolveUri). Default false. */
  allowOutsideUris?: boolean;
}

export const IMPORT_DEFAULTS: ImportOptions = { allowCustomSlots: false, decoders: { draco: true, meshopt: true } };

export { MAX_LEVEL_BYTES } from './gltf-read.ts';



/** GPU instances of a node (1 without EXT_mesh_gpu_instancing): the largest count among its attributes. */
function instanceCount(node: Node): number {
  const inst = node.getExtension<InstancedMesh>('EXT_mesh_gpu_instancing');
  if (!inst) return 1;
  return Math.max(0, ...inst.listAttributes().map((a) => a.getCount()));
}

const TRIANGLES = 4, TRIANGLE_STRIP = 5, TRIANGLE_FAN = 6, LINES = 1, LINE_LOOP = 2, LINE_STRIP = 3;


/** Reads, checks and walks a .glb/.gltf into collision objects. Throws `gltf: <file>: ...` on bad input. */
export async function importGltf(file: string, options: ImportOptions = IMPORT_DEFAULTS, logger: Logger, hooks: WalkHooks = {}): Promise<ImportResult> {
  hooks.memo?.begin();
  const { io, jsonDoc, inputBytes, deps } = await readJson(file, options, logger, hooks.memo);
  // The common case (no extensions, plain accessors) without @gltf-transform's document build (gltf-lite.ts).
  let doc: WalkRoot | undefined = options.reader === 'gltf-transform' ? undefined : liteRoot(jsonDoc);
  try {
    doc ??= (await io.readJSON(jsonDoc)).getRoot();
  } catch (e) {
    // A Draco or meshopt failure names no mesh: find the piece that fails on its own (decode-check.ts).
    throw new Error(`gltf: ${file}: ${locateDecodeFailure(jsonDoc, deps) ?? (e as Error).message}`);
  }
  const roots = selectScene(doc, file, options.scene);
  await hooks.beforeWalk?.();
  const walker = new SceneWalker(doc, file, options, logger, hooks.onObject, hooks.memo);
  walker.walk(roots);
  hooks.memo?.commit();
  return { objects: walker.objects, stats: walker.stats, inputBytes, materials: walker.materialUses() };
}


function selectScene(root: WalkRoot, file: string, wanted: string | undefined): Node[] {
  const scenes = root.listScenes();
  if (wanted !== undefined) {
    const byName = scenes.find((s) => s.getName() === wanted);
    const byIndex = /^\d+$/.test(wanted) ? scenes[Number(wanted)] : undefined;
    const scene = byName ?? byIndex;
    if (!scene) {
      const names = scenes.map((s, i) => `${i}${s.getName() ? ` "${s.getName()}"` : ''}`).join(', ') || 'none';
      throw new Error(`gltf: ${file}: no scene "${wanted}" (scenes: ${names})`);
    }
    return scene.listChildren();
  }
  const scene = root.getDefaultScene() ?? scenes[0];
  if (scene) return scene.listChildren();
  return root.listNodes().filter((n) => !n.getParentNode());
}

/** Where a node, one of its primitives or one of its instances is, as text only when a message needs it. */
class NodePlace {
  constructor(private walker: SceneWalker, private node: Node, private prim?: number, private instance?: number) {}
  toString(): string {
    const w = this.walker.where(this.node, this.prim);
    return this.instance === undefined ? w : `${w} instance ${this.instance}`;
  }
}

/** Depth-first over the scene with float64 world matrices; collects objects in a deterministic order. */
class SceneWalker {
  objects: ImportedObject[] = [];
  stats: ImportStats = { nodes: 0, meshNodes: 0, primitives: 0, skippedNodes: 0, instances: 0, grindCurves: 0, grindPrisms: 0 };
  private nodeIndex: Map<Node, number>;
  private meshIndex: Map<unknown, number>;
  private names = new Set<string>();
  private sceneTriangles = 0;
  private sceneObjects = 0;
  private materials: MaterialResolver;
  materialUses(): NonNullable<ImportResult['materials']> {
    return [...this.materials.uses.values()];
  }
  /**
   * Where the objects' arrays are allocated: shared memory, read by worker threads without a copy. A session's is
   * kept from build to build (a rebuild's few new arrays then fill the last chunk instead of a fresh 4 MB one).
   */
  private arena: SharedArena;

  /** This build's accessor tokens (ImportMemo.token), once per accessor. */
  private tokens = new Map<Accessor, number>();
  /**
   * Triangle lists made this import, by index accessor (or none), mode, winding flip and vertex count: nodes that
   * share a mesh share its list (never written after the import), as they cannot share world-space positions. The
   * 16M-triangle bench level's 16 terrain nodes and 65,600 props held 16 × 6.7 MB + 65,600 × 1.3 KB of equal lists.
   */
  private lists = new Map<Accessor | undefined, Map<string, Uint32Array>>();

  constructor(root: WalkRoot, private file: string, private options: ImportOptions, private logger: Logger, private onObject?: (o: ImportedObject) => void, private memo?: ImportMemo) {
    this.nodeIndex = new Map(root.listNodes().map((n, i) => [n, i]));
    this.meshIndex = new Map(root.listMeshes().map((m, i) => [m, i]));
    this.materials = new MaterialResolver(options.allowCustomSlots, (m) => logger.warn(m));
    this.arena = memo?.arena ?? new SharedArena();
  }

  walk(roots: Node[]): void {
    const stack: [Node, Float64Array][] = [];
    const identity = mat4.create() as unknown as Float64Array;
    const id64 = new Float64Array(16);
    mat4.copy(id64 as unknown as mat4, identity as unknown as mat4);
    for (let i = roots.length - 1; i >= 0; i--) stack.push([roots[i], id64]);
    while (stack.length) {
      const [node, parent] = stack.pop()!;
      this.stats.nodes++;
      const world = new Float64Array(16);
      mat4.multiply(world as unknown as mat4, parent as unknown as mat4, localMatrix(node) as unknown as mat4);
      this.visit(node, world);
      const children = node.listChildren();
      for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], world]);
    }
  }

  /** Where a node (or one of its primitives) is, for messages. */
  where(node: Node, prim?: number): string {
    const mesh = node.getMesh();
    const n = `node ${this.nodeIndex.get(node)} "${node.getName()}"`;
    const m = mesh ? ` mesh ${this.meshIndex.get(mesh)}${mesh.getName() ? ` "${mesh.getName()}"` : ''}` : '';
    return `${this.file}: ${n}${m}${prim === undefined ? '' : ` primitive ${prim}`}`;
  }

  private visit(node: Node, world: Float64Array): void {
    const mesh = node.getMesh();
    if (!mesh) {
      const spec = ((node.getExtras() ?? {}) as Extras).sk8_shape;
      if (spec !== undefined) this.shapeNode(node, world, spec);
      return;
    }
    this.stats.meshNodes++;
    const nodeExtras = (node.getExtras() ?? {}) as Extras;
    const meshExtras = (mesh.getExtras() ?? {}) as Extras;
    const base = node.getName() || mesh.getName() || `node_${this.nodeIndex.get(node)}`;
    const grind = nodeExtras.sk8_grind_curve ?? meshExtras.sk8_grind_curve;
    if (grind !== undefined) {
      checkWorld(world, this.where(node));
      this.grind(node, world, grind, base);
    }
    const mode = this.materials.mode(nodeExtras, meshExtras, new NodePlace(this, node));
    if (mode === 'none') {
      this.stats.skippedNodes++;
      return;
    }
    this.budget(node, mesh.listPrimitives(), instanceCount(node));
    const matrices = this.instanceMatrices(node, world);
    for (const [k, matrix] of matrices.entries()) {
      checkWorld(matrix, new NodePlace(this, node, undefined, matrix === world ? undefined : k));
      const name = this.uniqueName(matrix === world ? base : `${base}_${k}`);
      const obj = this.meshObject(node, matrix, name, mode === 'water');
      if (obj) Object.assign(obj, renamedFrom(name, node));
      if (obj && isShapeMode(mode)) obj.shape = { mode, world: Array.from(matrix), spec: nodeExtras.sk8_shape ?? meshExtras.sk8_shape };
      if (obj) this.add(obj);
    }
  }

  /** A node without a mesh whose sk8_shape gives a primitive (a Blender empty): an object with no triangles of its own. */
  private shapeNode(node: Node, world: Float64Array, spec: unknown): void {
    const extras = (node.getExtras() ?? {}) as Extras;
    const where = this.where(node);
    const mode = this.materials.mode(extras, {}, where);
    if (mode === 'none') {
      this.stats.skippedNodes++;
      return;
    }
    const material = this.materials.resolveExtras(extras, where);
    const name = this.uniqueName(node.getName() || `node_${this.nodeIndex.get(node)}`);
    const shape: ShapeRequest = { mode: mode as ShapeRequest['mode'], world: Array.from(world), spec };
    this.add({ name, source: `node ${this.nodeIndex.get(node)} "${node.getName()}"`, ...renamedFrom(name, node), kind: 'mesh', positions: new Float32Array(0), groups: [{ material, indices: new Uint32Array(0) }], shape });
  }

  /**
   * Node reuse and GPU instancing multiply a mesh's triangles without growing the file: refuse a scene that
   * expands past MAX_SCENE_TRIANGLES before allocating it.
   */
  private budget(node: Node, prims: Primitive[], copies: number): void {
    let per = 0;
    for (const p of prims) {
      const mode = p.getMode();
      const n = p.getIndices()?.getCount() ?? p.getAttribute('POSITION')?.getCount() ?? 0;
      if (mode === TRIANGLES) per += Math.floor(n / 3);
      else if (mode === TRIANGLE_STRIP || mode === TRIANGLE_FAN) per += Math.max(0, n - 2);
    }
    this.sceneTriangles += per * copies;
    this.sceneObjects += copies;
    if (this.sceneObjects > MAX_SCENE_OBJECTS) {
      throw new Error(`gltf: ${this.where(node)}: the scene has more than ${MAX_SCENE_OBJECTS} mesh objects (${copies} instance(s) here); refusing`);
    }
    if (this.sceneTriangles > MAX_SCENE_TRIANGLES) {
      throw new Error(`gltf: ${this.where(node)}: the scene expands to more than ${MAX_SCENE_TRIANGLES} triangles (${per} × ${copies} instance(s) here); refusing`);
    }
  }

  /** EXT_mesh_gpu_instancing: one world matrix per instance; otherwise the node's own. */
  private instanceMatrices(node: Node, world: Float64Array): Float64Array[] {
    const inst = node.getExtension<InstancedMesh>('EXT_mesh_gpu_instancing');
    if (!inst) return [world];
    const t = inst.getAttribute('TRANSLATION'), r = inst.getAttribute('ROTATION'), s = inst.getAttribute('SCALE');
    const count = Math.max(t?.getCount() ?? 0, r?.getCount() ?? 0, s?.getCount() ?? 0);
    const out: Float64Array[] = [];
    for (let i = 0; i < count; i++) {
      const tv = t ? t.getElement(i, []) : [0, 0, 0];
      const rv = r ? r.getElement(i, []) : [0, 0, 0, 1];
      const sv = s ? s.getElement(i, []) : [1, 1, 1];
      const local = trs(tv, rv, sv);
      const m = new Float64Array(16);
      mat4.multiply(m as unknown as mat4, world as unknown as mat4, local as unknown as mat4);
      out.push(m);
    }
    this.stats.instances += count;
    return out;
  }

  private meshObject(node: Node, world: Float64Array, name: string, water: boolean): ImportedObject | undefined {
    const mesh = node.getMesh()!;
    const flip = determinant3(world) < 0; // mirrored: reverse winding so faces keep pointing out
    const chunks: { positions: Float32Array; tris: Uint32Array; material: number }[] = [];
    const prims = mesh.listPrimitives();
    for (let pi = 0; pi < prims.length; pi++) {
      const prim = prims[pi];
      const mode = prim.getMode();
      if (mode !== TRIANGLES && mode !== TRIANGLE_STRIP && mode !== TRIANGLE_FAN) continue;
      this.stats.primitives++;
      // The message text only when one is made (most primitives have none: a string per primitive showed in profiles).
      const place = new NodePlace(this, node, pi);
      const pos = prim.getAttribute('POSITION'), idx = prim.getIndices();
      const posToken = pos ? this.token(pos) : undefined;
      const idxToken = idx ? this.token(idx) : -1;
      const memo = posToken !== undefined && idxToken !== undefined ? this.memo : undefined;
      let positions = memo?.findPositions(posToken!, world);
      if (!positions) {
        positions = readPositions(prim, world, place, this.arena);
        memo?.keepPositions(posToken!, world, positions);
      }
      let tris = memo?.findTriangles(idxToken!, positions, mode, flip);
      if (!tris) {
        tris = this.triangles(prim, idx ?? undefined, positions.length / 3, mode, flip, place);
        memo?.keepTriangles(idxToken!, positions, mode, flip, tris);
      }
      const material = this.materials.resolve(node, mesh, prim, water, place);
      chunks.push({ positions, tris, material });
    }
    if (!chunks.length) return undefined;
    const source = `node ${this.nodeIndex.get(node)} "${node.getName()}"`;
    if (chunks.length === 1 || !this.memo) return assembleObject(name, source, 'mesh', chunks, this.arena);
    // Several primitives: the concatenation is kept too, by its chunks' arrays and materials.
    const key = chunks.map((c) => `${arrayId(c.positions)},${arrayId(c.tris)},${c.material}`).join(';');
    const body = this.memo.assembled(key, () => assembleObject(name, source, 'mesh', chunks, this.arena));
    return { name, source, kind: 'mesh', positions: body.positions, groups: body.groups.map((g) => ({ ...g })) };
  }

  /** The accessor's memo token (ImportMemo.token), or undefined without a memo or data. */
  private triangles(prim: Primitive, idx: Accessor | undefined, vertexCount: number, mode: number, flip: boolean, place: Place): Uint32Array {
    let byKind = this.lists.get(idx);
    if (!byKind) this.lists.set(idx, (byKind = new Map()));
    const kind = `${mode}:${flip ? 1 : 0}:${vertexCount}`;
    let tris = byKind.get(kind);
    if (!tris) byKind.set(kind, (tris = readTriangles(prim, vertexCount, mode, flip, place, this.arena)));
    return tris;
  }

  private token(acc: Accessor): number | undefined {
    if (!this.memo) return undefined;
    let t = this.tokens.get(acc);
    if (t === undefined) {
      const d = accessorData(acc);
      if (!d) return undefined;
      this.tokens.set(acc, (t = this.memo.token(d)));
    }
    return t;
  }

  /** sk8_grind_curve: the node's line primitives → chained runs → one prism object per run. */
  private grind(node: Node, world: Float64Array, setting: unknown, base: string): void {
    const cfg = this.materials.grindSettings(setting, this.where(node));
    if (!cfg) return;
    this.stats.grindCurves++;
    const { points, edges } = collectLines(node, world, (pi) => this.where(node, pi));
    if (edges.length === 0) {
      this.logger.warn(`grind: ${this.where(node)}: sk8_grind_curve is set but the mesh has no line primitives (export loose edges)`);
      return;
    }
    const prisms = grindPrisms(chainRuns(points, edges), { radius: clampGrindRadius(cfg.radius ?? GRIND_DEFAULTS.radius) });
    prisms.forEach((prism, k) => {
      const name = this.uniqueName(prisms.length === 1 ? `grind_${base}` : `grind_${base}_${k}`);
      const positions = this.arena.copyF32(prism.positions);
      const density = halfEdgesPerMetre(positions, prism.indices.length);
      if (density > DENSITY_WARN_HALF_EDGES_PER_METRE) {
        this.logger.warn(`grind: "${name}": ${Math.round(density)} half-edges per metre > ${DENSITY_WARN_HALF_EDGES_PER_METRE}: too detailed to grind`);
      }
      const indices = this.arena.copyU32(prism.indices);
      this.add({ name, source: `node ${this.nodeIndex.get(node)} "${node.getName()}"`, ...renamedFrom(name, node), kind: 'grind', positions, groups: [{ material: cfg.material, indices }] });
    });
    this.stats.grindPrisms += prisms.length;
  }

  private add(o: ImportedObject): void {
    this.objects.push(o);
    this.onObject?.(o);
  }

  private uniqueName(raw: string): string {
    return uniqueName(this.names, raw);
  }
}


function localMatrix(node: Node): Float64Array {
  return trs(node.getTranslation(), node.getRotation(), node.getScale());
}

function trs(t: ArrayLike<number>, r: ArrayLike<number>, s: ArrayLike<number>): Float64Array {
  const m = new Float64Array(16);
  // gl-matrix reads plain arrays as well; its types only ask for its own tuples.
  mat4.fromRotationTranslationScale(m as unknown as mat4, r as unknown as [number, number, number, number], t as unknown as [number, number, number], s as unknown as [number, number, number]);
  return m;
}

/** An object's world transform: finite, not singular, no axis shrunk below MIN_WORLD_SCALE. */
function checkWorld(m: Float64Array, place: Place): void {
  const show = (v: ArrayLike<number>): string => `[${Array.from(v, (x) => +x.toPrecision(6)).join(', ')}]`;
  let finite = true;
  for (let i = 0; i < 16; i++) if (!Number.isFinite(m[i])) finite = false;
  if (!finite) throw new Error(`gltf: ${placeText(place)}: world transform ${show(m)} is not finite`);
  const det = determinant3(m);
  if (det === 0) throw new Error(`gltf: ${placeText(place)}: world transform ${show(m.subarray(0, 12))} is a singular matrix (determinant 0): it flattens the mesh`);
  const s0 = Math.hypot(m[0], m[1], m[2]), s1 = Math.hypot(m[4], m[5], m[6]), s2 = Math.hypot(m[8], m[9], m[10]);
  if (Math.min(s0, s1, s2) < MIN_WORLD_SCALE) {
    throw new Error(`gltf: ${placeText(place)}: world transform scales the axes by ${show([s0, s1, s2])}; below ${MIN_WORLD_SCALE} (MIN_WORLD_SCALE) the triangles have no area in f32`);
  }
  if (Math.abs(det) < MIN_WORLD_SCALE ** 3) throw new Error(`gltf: ${placeText(place)}: world transform is a nearly singular matrix (determinant ${det.toPrecision(3)})`);
}

function determinant3(m: Float64Array): number {
  return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5]);
}

/**
 * What the memo compares of an accessor: the light reader's kind and bytes, or (@gltf-transform's, decoded) the
 * array the walk reads with its element type, count and normalisation.
 */
function accessorData(acc: Accessor): AccessorData | undefined {
  if (acc.data) return acc.data();
  const a = acc.getArray();
  if (!a) return undefined;
  return { kind: `${a.constructor.name}:${acc.getType()}:${acc.getCount()}:${acc.getNormalized() ? 'n' : ''}`, bytes: new Uint8Array(a.buffer, a.byteOffset, a.byteLength) };
}

/** Accessor values as plain numbers, un-normalised (getElement does it for normalised integer data). */
function readValues(acc: Accessor): ArrayLike<number> {
  if (!acc.getNormalized()) return acc.getArray()!;
  const n = acc.getElementSize();
  const out = new Float64Array(acc.getCount() * n);
  const el: number[] = [];
  for (let i = 0; i < acc.getCount(); i++) out.set(acc.getElement(i, el), i * n);
  return out;
}

function readPositions(prim: Primitive, world: Float64Array, where: Place, arena: SharedArena): Float32Array {
  const acc = prim.getAttribute('POSITION');
  if (!acc) throw new Error(`gltf: ${where}: triangle primitive without POSITION`);
  if (acc.getElementSize() !== 3) throw new Error(`gltf: ${where}: POSITION is ${acc.getType()}, not VEC3`);
  return transformPositions(readValues(acc), acc.getCount(), world, where, arena);
}

/**
 * World positions rounded to f32, in one pass. A non-finite input is reported at the first such vertex; a result
 * beyond WORLD_EXTENT_M only after every input was checked (input errors first, as the messages promise).
 */
function transformPositions(v: ArrayLike<number>, n: number, m: Float64Array, where: Place, arena: SharedArena): Float32Array {
  const out = arena.f32(n * 3);
  // A world axis the matrix leaves as it is (its row a unit row, no translation) takes the file's value itself:
  // the sum would give the same value but turn −0.0 into +0.0 (docs/format-decisions.md, "Untransformed axes").
  const [keepX, keepY, keepZ] = untransformedAxes(m);
  const bad = transformLoop(v, n, m, keepX, keepY, keepZ, out);
  if (bad < 0) return out;
  const x = v[3 * bad], y = v[3 * bad + 1], z = v[3 * bad + 2];
  if (x - x !== 0 || y - y !== 0 || z - z !== 0) throw new Error(`gltf: ${where}: POSITION ${bad} is (${x}, ${y}, ${z}), not finite`);
  throw beyondExtent(where, bad, v, m);
}

/**
 * transformPositions' pass: the first non-finite input's index, else the first result beyond WORLD_EXTENT_M's,
 * else −1. Its own function, ending at the loop: V8 compiles a level's first, long call (its terrain) on the loop
 * and keeps that code, so a comparison after the loop, never reached by then, would deoptimise every later call.
 */
function transformLoop(v: ArrayLike<number>, n: number, m: Float64Array, keepX: boolean, keepY: boolean, keepZ: boolean, out: Float32Array): number {
  const m0 = m[0], m1 = m[1], m2 = m[2], m4 = m[4], m5 = m[5], m6 = m[6], m8 = m[8], m9 = m[9], m10 = m[10], m12 = m[12], m13 = m[13], m14 = m[14];
  const E = WORLD_EXTENT_M;
  let overflow = -1;
  for (let i = 0; i < n; i++) {
    const x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2];
    // x - x is 0 exactly for finite x, NaN for ±Infinity and NaN.
    if (x - x !== 0 || y - y !== 0 || z - z !== 0) return i;
    const a = (out[3 * i] = keepX ? x : m0 * x + m4 * y + m8 * z + m12);
    const b = (out[3 * i + 1] = keepY ? y : m1 * x + m5 * y + m9 * z + m13);
    const c = (out[3 * i + 2] = keepZ ? z : m2 * x + m6 * y + m10 * z + m14);
    if (overflow < 0 && !(a <= E && a >= -E && b <= E && b >= -E && c <= E && c >= -E)) overflow = i;
  }
  return overflow;
}

/**
 * Per world axis, whether the column-major matrix m leaves it as the vertex has it: its row is that axis's unit row
 * and its translation 0 (an identity node, or a node moved along the other axes only). Then the world value is the
 * file's own, −0.0 included, as the reference encoder takes its input; the product would give +0.0 for −0.0 and
 * the same value otherwise.
 */
export function untransformedAxes(m: ArrayLike<number>): [boolean, boolean, boolean] {
  const row = (j: number): boolean => [0, 1, 2].every((k) => m[4 * k + j] === (k === j ? 1 : 0)) && m[12 + j] === 0;
  return [row(0), row(1), row(2)];
}

function beyondExtent(where: Place, i: number, v: ArrayLike<number>, m: Float64Array): Error {
  const x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2];
  const w = [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
  const scale = [Math.hypot(m[0], m[1], m[2]), Math.hypot(m[4], m[5], m[6]), Math.hypot(m[8], m[9], m[10])];
  const show = (a: number[]): string => `(${a.map((t) => +t.toPrecision(6)).join(', ')})`;
  return new Error(`gltf: ${where}: POSITION ${i} ${show([x, y, z])} is at ${show(w)} in world space (world scale ${show(scale)}), beyond ±${WORLD_EXTENT_M} m (WORLD_EXTENT_M)`);
}

/** TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN → triangle list (glTF 2.0 §3.7.2.1), reversed when mirrored. */
function readTriangles(prim: Primitive, vertexCount: number, mode: number, flip: boolean, where: Place, arena: SharedArena): Uint32Array {
  const acc = prim.getIndices();
  let idx: ArrayLike<number>;
  if (acc) {
    idx = acc.getArray()!;
    checkIndices(idx, vertexCount, where);
  } else {
    idx = sequence(vertexCount);
  }
  const n = idx.length;
  const count = mode === TRIANGLES ? Math.floor(n / 3) : Math.max(0, n - 2);
  if (mode === TRIANGLES && !flip) {
    // The common case: the list as it is (a native copy; Uint8/16 widen).
    const list = (idx as Uint32Array).subarray(0, 3 * count); // indices are unsigned-integer typed arrays (gltf-check)
    return arena.copyU32(list);
  }
  const out = arena.u32(count * 3);
  const b1 = flip ? 2 : 1, b2 = flip ? 1 : 2; // corner slots of the 2nd and 3rd vertex
  for (let t = 0; t < count; t++) {
    const o = 3 * t;
    if (mode === TRIANGLES) {
      out[o] = idx[o];
      out[o + b1] = idx[o + 1];
      out[o + b2] = idx[o + 2];
    } else if (mode === TRIANGLE_STRIP) {
      const even = t % 2 === 0;
      out[o] = idx[even ? t : t + 1];
      out[o + b1] = idx[even ? t + 1 : t];
      out[o + b2] = idx[t + 2];
    } else {
      out[o] = idx[t + 1];
      out[o + b1] = idx[t + 2];
      out[o + b2] = idx[0];
    }
  }
  return out;
}

/** Every index below the vertex count; the first one that is not is named with its position. */
function checkIndices(idx: ArrayLike<number>, vertexCount: number, where: Place): void {
  if (maxIndex(idx) < vertexCount) return;
  for (let i = 0; i < idx.length; i++) {
    if (idx[i] >= vertexCount) throw new Error(`gltf: ${where}: index ${idx[i]} (at ${i}) ≥ vertex count ${vertexCount}`);
  }
}

/**
 * The largest index. A loop-only function: with the compare after the loop in the same function, its
 * on-stack-replaced code deoptimised at the loop's exit on most calls ("insufficient type feedback for compare
 * operation": 89 deopts importing the 1M bench level's 4,100 meshes).
 */
function maxIndex(idx: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < idx.length; i++) if (idx[i] > max) max = idx[i];
  return max;
}

function sequence(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** Concatenates primitives into one position array and one index list per material (first-seen order). */
function assembleObject(name: string, source: string, kind: 'mesh' | 'grind', chunks: { positions: Float32Array; tris: Uint32Array; material: number }[], arena: SharedArena): ImportedObject {
  if (chunks.length === 1) {
    const [c] = chunks; // the common case: no copy
    return { name, source, kind, positions: c.positions, groups: [{ material: c.material, indices: c.tris }] };
  }
  const total = chunks.reduce((s, c) => s + c.positions.length, 0);
  const positions = arena.f32(total);
  const byMaterial = new Map<number, { tris: Uint32Array; base: number }[]>();
  let base = 0;
  for (const c of chunks) {
    positions.set(c.positions, base * 3);
    const list = byMaterial.get(c.material) ?? [];
    list.push({ tris: c.tris, base });
    byMaterial.set(c.material, list);
    base += c.positions.length / 3;
  }
  // Each chunk's triangles shifted by its first vertex while copied: the chunks' own arrays are not written (a
  // session's memo may hand them to the next build: src/import/memo.ts).
  const groups = [...byMaterial].map(([material, lists]) => {
    if (lists.length === 1 && lists[0].base === 0) return { material, indices: lists[0].tris };
    const indices = arena.u32(lists.reduce((s, l) => s + l.tris.length, 0));
    let o = 0;
    for (const { tris, base: b } of lists) {
      if (b === 0) indices.set(tris, o);
      else for (let i = 0; i < tris.length; i++) indices[o + i] = tris[i] + b;
      o += tris.length;
    }
    return { material, indices };
  });
  return { name, source, kind, positions, groups };
}

/** World-space points (float64, welded by exact value) and edges of a node's line primitives. */
function collectLines(node: Node, world: Float64Array, where: (pi: number) => string): { points: Float64Array; edges: Uint32Array } {
  const pts: number[] = [];
  const edges: number[] = [];
  const ids = new Map<string, number>();
  node.getMesh()!.listPrimitives().forEach((prim, pi) => {
    const mode = prim.getMode();
    if (mode !== LINES && mode !== LINE_STRIP && mode !== LINE_LOOP) return;
    const acc = prim.getAttribute('POSITION');
    if (!acc) throw new Error(`gltf: ${where(pi)}: line primitive without POSITION`);
    const v = readValues(acc);
    const n = acc.getCount();
    const local = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2];
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) throw new Error(`gltf: ${where(pi)}: POSITION ${i} is (${x}, ${y}, ${z}), not finite`);
      const m = world;
      const w = [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
      if (!w.every((t) => Math.abs(t) <= WORLD_EXTENT_M)) throw beyondExtent(where(pi), i, v, m);
      const key = w.join(',');
      let id = ids.get(key);
      if (id === undefined) {
        id = pts.length / 3;
        ids.set(key, id);
        pts.push(...w);
      }
      local[i] = id;
    }
    const iacc = prim.getIndices();
    const idx = iacc ? iacc.getArray()! : Uint32Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < idx.length; i++) if (idx[i] >= n) throw new Error(`gltf: ${where(pi)}: index ${idx[i]} (at ${i}) ≥ vertex count ${n}`);
    const seg = (a: number, b: number): void => void edges.push(local[idx[a]], local[idx[b]]);
    if (mode === LINES) for (let i = 0; i + 1 < idx.length; i += 2) seg(i, i + 1);
    else for (let i = 0; i + 1 < idx.length; i++) seg(i, i + 1);
    if (mode === LINE_LOOP && idx.length > 2) seg(idx.length - 1, 0);
  });
  return { points: Float64Array.from(pts), edges: Uint32Array.from(edges) };
}

/** ImportedObject.sourceName: the node's own name when the object's differs (a node without a name has none). */
function renamedFrom(name: string, node: Node): { sourceName?: string } {
  return node.getName() && name !== node.getName() ? { sourceName: node.getName() } : {};
}
