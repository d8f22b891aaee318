// PhysicsResources → one editable glTF : ../shared/spec/physics-resource.md ("PhysicsResource", parts,
// shapes) and authoring-notes.md (the file's space is glTF's: Y up, metres). Each resource is read by the one
// codec (src/format/resource.ts) and becomes a group node. Its parts become meshes the compiler reads back as the
// same objects: a compile output's per-object resource one node (named by its object, one primitive per part), a
// cell's or a lone file's parts a node each, placed by the part's rotation and position. Kind 5: the stored vertices
// in stored order and the faces in an order that encodes back to the stored bytes (src/export/face-order.ts: first
// use follows the stored vertex order, corner rotations kept, the tree's ties kept), at world values that recentre
// to the stored ones (src/export/positions.ts); kinds 2 and 3 on a node of their own at the part position, their
// stored record in sk8_shape (src/shapes/stored.ts) so --native-shapes writes the same record again, their polygon
// faces fanned to look at; a convex_parts object's parts one convex_parts node. One glTF material per packed word, named by its
// surface, carrying sk8_collision_material_packed (what src/import/objects.ts reads). Every word the compiler does
// not derive goes into extras (sk8_physics on the group, sk8_part on each part node); a compile output's manifest
// options into the scene's extras (sk8_compile), which `compile-collision --recorded-options` applies.
// Each resource's kind-5 parts are encoded again as the compiler would get them from this GLB (recompile.ts); where that does
// not give the stored shapes back, or a word is not the compiler's, a note says so per resource.
import { Document, NodeIO, type Material, type Node } from '@gltf-transform/core';
import { readPhysicsResource } from '../format/resource.ts';
import { decodeMaterial } from '../format/material.ts';
import { buildSurfaceTable, normaliseSurfaceName, surfaceNameOfWord } from '../import/materials.ts';
import { faceCount, KIND_BOX, KIND_CONVEX, KIND_MESH, NO_SHAPE, PART_FLAGS, type PartRecord, type PhysicsResource, type ShapeRecord, type Vec3 } from '../format/types.ts';
import type { OpenCorners } from '../geometry/encode.ts';
import { carrySeamValues, matchSeams, seamEdge, type LevelFaces } from '../geometry/seams.ts';
import { SEAM_NONE } from '../geometry/edge-rule.ts';
import { quatToMat3 } from '../shapes/frame.ts';
import type { Manifest } from '../build/manifest.ts';
import { encodeOrder, mergePieces } from './face-order.ts';
import { prismRings } from './grind.ts';
import { partSpans, relativeTo, WorldSolver, type PartSpans } from './positions.ts';
import { surfaceColourLinear } from '../report/surfaces.ts';
import { PHYSICS_LITERAL_FLAG } from '../import/materials.ts';
import { MAX_SHAPE_FACES } from '../geometry/encode.ts';
import { bitOf, convexSplitCheck, grindCurve, recordCheck, reencodeCheck, word, type Grouping, type MeshPlan } from './recompile.ts';

export interface ToGltfInput {
  /** Where the bytes came from, for messages and notes. */
  file: string;
  bytes: Uint8Array;
  /** Name of the resource's group node: the manifest's source object, the file stem, or collision_area_<x>_<z>. */
  name: string;
  /** A collision_area cell (x, z), or null. */
  cell: [number, number] | null;
  /** The manifest's source object names (a compile output), or undefined. */
  sourceObjects?: string[];
  /** The resource came from a compile output (grind prisms are then the objects named grind_…). */
  grind?: boolean;
}

export interface ToGltfOptions {
  /** Vertex colours (COLOR_0) by the corner's stored edge class. Default false. */
  edgeColors: boolean;
}
export const TO_GLTF_DEFAULTS: ToGltfOptions = { edgeColors: false };

export interface ToGltfResult {
  glb: Uint8Array;
  /** Per resource, why a recompile will not give its bytes back (empty list: nothing known against it). */
  notes: { file: string; notes: string[] }[];
}

/** Edge class colours (flat, concave, convex, open), linear RGBA. */
const EDGE_RGBA: Record<string, [number, number, number, number]> = {
  flat: [0.07, 0.2, 0.09, 1], concave: [0.04, 0.27, 0.75, 1], convex: [0.87, 0.32, 0.04, 1], open: [1, 0.03, 0.09, 1],
};

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** A compile output's build settings as its manifest holds them (scene extras sk8_compile). */
export interface RecordedBuild {
  options: Manifest['options'];
  layout: Manifest['layout'];
  /** The header form of its resources (word 0x08 and the 0x4c body, hex): what --studio-template gave. */
  header?: { word08: number; body: string };
  /**
   * The stored convex values of the joins across cuts that the written world values do not give back (--seams
   * level), SEAM_CARRY_STRIDE numbers a join (src/geometry/seams.ts carrySeamValues): the recompile takes them.
   */
  seamValues?: number[];
}

/** Reads each input with the codec (throws `to-gltf: <file>: <FormatError>`), then writes one GLB. */
export async function resourcesToGltf(inputs: ToGltfInput[], opts: Partial<ToGltfOptions> = {}, recorded?: RecordedBuild): Promise<ToGltfResult> {
  const options = { ...TO_GLTF_DEFAULTS, ...opts };
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('collision');
  if (recorded) scene.setExtras({ sk8_compile: recorded });
  const materials = new Map<number, Material>();
  const surfaceTable = buildSurfaceTable();
  const material = (packed: number): Material => {
    let m = materials.get(packed);
    if (m) return m;
    // Named by the surface name that reads back as this word (Studio's preset name where the word has one: wood,
    // earth, roofing), kept in the catalog's spelling where that already reads back ("Concrete"); a word no name
    // gives keeps its slot's sound id and property slot ("Earth_p3") and no sk8_surface_name.
    const d = decodeMaterial(packed);
    const named = surfaceNameOfWord(packed, surfaceTable);
    const slotName = d.slotName ?? `slot_${d.slot}`;
    const catalogName = d.propertySlot === 0 ? slotName : `${slotName}_p${d.propertySlot}`;
    const name = named === undefined || normaliseSurfaceName(catalogName) === named ? catalogName : named;
    m = doc.createMaterial(`${name}_${word(packed)}`).setBaseColorFactor([...surfaceColourLinear(packed), 1]).setDoubleSided(false);
    m.setExtras({ sk8_collision_material_packed: word(packed), ...(named !== undefined ? { sk8_surface_name: name } : {}) });
    materials.set(packed, m);
    return m;
  };
  const accessor = (type: 'VEC3' | 'VEC4' | 'SCALAR', array: Float32Array | Uint32Array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const notes: ToGltfResult['notes'] = [];
  const seamLists: { note: number; open: OpenCorners[]; stored: ShapeRecord[]; faces: LevelFaces[] }[] = [];
  // First every resource read, and the world values of its unrotated kind-5 parts solved over the whole export (a
  // vertex several parts store comes back as one point).
  const solver = new WorldSolver();
  // A compile output built with --seams level: its joins are fitted and checked over the whole export (a file on its
  // own, or a --seams shape output, has no joins the recompile must give back but those its shapes made).
  const levelSeams = recorded?.options.seams === 'level';
  // The recompile (its recorded options) makes kinds 2 and 3 again from their records.
  const nativeRecorded = recorded?.options.shapes?.nativeShapes === 'experimental';
  const read = inputs.map((input) => {
    let res: PhysicsResource;
    try {
      res = readPhysicsResource(input.bytes);
    } catch (e) {
      throw new Error(`to-gltf: ${input.file}: not readable as a PhysicsResource: ${(e as Error).message}`);
    }
    const candidates = res.parts.map((p): PartSpans | string | null => {
      if (p.kind !== KIND_MESH || p.shape === NO_SHAPE || isRotated(p)) return null;
      return partSpans(res.shapes[p.shape].vertices, p.position);
    });
    const ids = candidates.map((c, i) => (c !== null && typeof c !== 'string' ? solver.add(c, levelSeams ? res.shapes[res.parts[i].shape] : undefined) : -1));
    return { res, candidates, ids };
  });
  const solved = solver.solve();
  for (const [r, input] of inputs.entries()) {
    const { res, candidates, ids } = read[r];
    const n: string[] = [];
    const group = doc.createNode(input.cell ? `collision_area_${input.cell[0]}_${input.cell[1]}` : `${input.name}_resource`);
    group.setExtras({
      sk8_physics: {
        file: input.file, version: res.version, word08: word(res.word08), word14: word(res.word14), word20: word(res.word20), body: hex(res.body),
        ...(input.cell ? { cell: input.cell } : {}), ...(input.sourceObjects ? { sourceObjects: input.sourceObjects } : {}),
      },
    });
    scene.addChild(group);
    const grouping: Grouping = input.cell ? 'cell' : input.sourceObjects ? 'object' : 'parts';
    if (grouping === 'parts' && res.parts.length > 1) n.push(`${res.parts.length} parts in one file: each part is its own node, so compile-collision makes a resource of each (the library's encodeResource over the nodes' objects, in order, gives this file back)`);
    if (res.body.length > 0 || res.word08 !== 0) n.push('Studio form (word 0x08 / 0x4c body): recompile with --studio-template (or --recorded-options on a compile output) to get it back');
    // Split meshes: consecutive unrotated kind-5 parts of one material in one object or cell (the encoder's pieces
    // of one group); their vertices on the cuts are shared, which their face orders must allow for.
    // A compile output's object whose parts are kind-3 parts beside others, or several kind-5 parts of one material
    // that are not one mesh's pieces: a convex_parts object (src/shapes/build.ts), written as one convex_parts node
    // whose mesh holds every part and whose sk8_shape holds the kind-3 records (src/shapes/stored.ts).
    const convexForm = grouping === 'object' && isConvexPartsObject(res);
    const runs = grouping === 'parts' || convexForm ? [] : splitRuns(res, candidates);
    const sharedOf = new Map<number, Uint8Array>();
    for (const run of runs) {
      const count = new Map<string, number>();
      const worlds = run.map((i) => solved[ids[i]].world);
      const keys = worlds.map((w) => Array.from({ length: w.length / 3 }, (_, v) => `${w[3 * v]},${w[3 * v + 1]},${w[3 * v + 2]}`));
      for (const ks of keys) for (const k of new Set(ks)) count.set(k, (count.get(k) ?? 0) + 1);
      run.forEach((i, r) => sharedOf.set(i, Uint8Array.from(keys[r], (k) => (count.get(k)! > 1 ? 1 : 0))));
    }
    const meshes: MeshPlan[] = [];
    res.parts.forEach((p, i) => {
      const unusual = p.w !== 1 || p.word20 !== 0 || p.word34 !== 0 || p.word3c !== 0 || p.flags !== PART_FLAGS || p.ids.some((x) => x !== 0);
      if (unusual) n.push(`part ${i}: words the compiler does not write (w ${p.w}, 0x20 ${word(p.word20)}, ids ${p.ids.join('/')}, 0x34 ${word(p.word34)}, 0x3c ${word(p.word3c)}, flags ${word(p.flags)}) are kept in extras only`);
      if ((p.material & PHYSICS_LITERAL_FLAG) === 0) n.push(`part ${i}: material ${word(p.material)} lacks the 0x20 flag, which the compiler adds`);
      if (p.kind !== KIND_MESH && !nativeRecorded) n.push(`part ${i}: kind ${p.kind} is written as its stored record (sk8_collision_mode ${p.kind === KIND_BOX ? 'box' : 'hull'}, sk8_shape): compile with --native-shapes for kind ${p.kind} again`);
      if (p.kind !== KIND_MESH || p.shape === NO_SHAPE) return;
      const s = res.shapes[p.shape];
      const rotated = isRotated(p);
      let order = encodeOrder(s, sharedOf.get(i));
      if (typeof order === 'string') {
        n.push(`part ${i}: ${order}; faces written in file order`);
        order = { order: Uint32Array.from({ length: faceCount(s) }, (_, f) => f), rotation: new Uint8Array(faceCount(s)) };
      }
      const c = candidates[i];
      let world: Float32Array;
      if (c === null || typeof c === 'string') {
        n.push(`part ${i}: ${c ?? 'the part is rotated (the compiler writes kind-5 parts unrotated)'}`);
        world = placed(s.vertices, p);
      } else {
        world = solved[ids[i]].world;
        if (solved[ids[i]].why) n.push(`part ${i}: ${solved[ids[i]].why}`);
      }
      meshes.push({ part: i, parts: [i], world, tris: orderedTriangles(s, order.order, order.rotation), rotated, first: firstCorners(s, order.order) });
    });
    for (const run of runs) {
      const plans = run.map((i) => meshes.find((m) => m.part === i)!);
      const merged = mergePieces(plans.map((m) => ({ tris: m.tris, first: m.first, world: m.world })));
      if (typeof merged === 'string') {
        n.push(`parts ${run.join(', ')} (one mesh split at the u16 limits): ${merged}; written one after another`);
      }
      const world = new Float32Array(plans.reduce((t, m) => t + m.world.length, 0));
      let at = 0, vbase = 0;
      const tris = typeof merged === 'string' ? new Uint32Array(plans.reduce((t, m) => t + m.tris.length, 0)) : merged;
      let to = 0;
      for (const m of plans) {
        world.set(m.world, at);
        if (typeof merged === 'string') for (const x of m.tris) tris[to++] = x + vbase;
        at += m.world.length;
        vbase += m.world.length / 3;
      }
      const head = plans[0];
      meshes.splice(meshes.indexOf(head), 1, { part: head.part, parts: run, world, tris, rotated: false, first: new Uint32Array(0) });
      for (const m of plans.slice(1)) meshes.splice(meshes.indexOf(m), 1);
    }
    // Nodes: the object's one node, or one per part.
    const nodeFor = (name: string, parts: number[]): Node => {
      const node = doc.createNode(name);
      const first = res.parts[parts[0]];
      node.setExtras(partExtras(res, parts, input.grind === true && /^grind_/.test(name) && isPrism(res, parts)));
      group.addChild(node);
      return node.setTranslation([...first.position]).setRotation([...first.rotation]);
    };
    const addPrimitive = (mesh: ReturnType<Document['createMesh']>, node: Node, plan: MeshPlan | null, i: number, t: Vec3 | null): void => {
      const p = res.parts[i], s = res.shapes[p.shape];
      let values: Float32Array;
      // A rotated part (not the compiler's) keeps its stored values under the part's rotation.
      if (plan && !plan.rotated) values = (t ? relativeTo(plan.world, t) : null) ?? plan.world.slice();
      else values = s.vertices.slice();
      const tris = plan ? plan.tris : shapeTriangles(s, p.kind);
      const prim = doc.createPrimitive().setAttribute('POSITION', accessor('VEC3', values)).setIndices(accessor('SCALAR', tris)).setMaterial(material(p.material));
      if (options.edgeColors && p.kind === KIND_MESH) {
        const colours = (plan?.parts ?? [i]).map((k) => vertexEdgeColours(res.shapes[res.parts[k].shape]));
        const all = new Float32Array(colours.reduce((t, c) => t + c.length, 0));
        colours.reduce((o, c) => (all.set(c, o), o + c.length), 0);
        prim.setAttribute('COLOR_0', accessor('VEC4', all));
      }
      mesh.addPrimitive(prim);
      if (!node.getMesh()) node.setMesh(mesh);
    };
    const planOf = new Map(meshes.map((m) => [m.part, m]));
    const inRun = new Set(runs.flatMap((r) => r.slice(1)));
    const withShape = res.parts.map((p, i) => i).filter((i) => res.parts[i].shape !== NO_SHAPE);
    // A kind-2/3 part on a node of its own: at the part position, unturned; its mesh the stored shape turned by the
    // part's rotation (to look at and edit), its sk8_shape the stored record the shape layer writes again as it is
    // (src/shapes/stored.ts), checked here against the stored part.
    const nativeNode = (name: string, i: number): void => {
      const p = res.parts[i], s = res.shapes[p.shape];
      const node = nodeFor(name, [i]).setRotation([0, 0, 0, 1]);
      const origin: Vec3 = [...p.position];
      const spec = p.kind === KIND_BOX ? boxRecord(p, s) : { type: 'hull', ...convexRecord(s, p.position, origin) };
      node.setExtras({ ...node.getExtras(), sk8_shape: spec });
      const prim = doc.createPrimitive().setAttribute('POSITION', accessor('VEC3', displayed(s.vertices, p, origin))).setIndices(accessor('SCALAR', shapeTriangles(s, p.kind))).setMaterial(material(p.material));
      node.setMesh(doc.createMesh(name).addPrimitive(prim));
      const why = recordCheck(p, s, spec, origin);
      if (why) n.push(`part ${i}: ${why}`);
    };
    if (convexForm) {
      // One convex_parts object: every part a primitive of one node, kind 5 as the encoder gives it back, kind 3 its
      // stored faces; sk8_shape lists per part, in the order convex_parts will find them, null or the kind-3 record.
      const name = input.name;
      const first = res.parts[withShape[0]];
      const node = nodeFor(name, withShape).setRotation([0, 0, 0, 1]);
      const fits = first.kind !== KIND_MESH || withShape.every((i) => res.parts[i].kind !== KIND_MESH || !planOf.get(i) || relativeTo(planOf.get(i)!.world, first.position));
      const origin: Vec3 = fits ? [...first.position] : [0, 0, 0];
      node.setTranslation([...origin]);
      const mesh = doc.createMesh(name);
      const written: { part: number; world: Float32Array; tris: Uint32Array }[] = [];
      for (const i of withShape) {
        const p = res.parts[i], s = res.shapes[p.shape];
        if (p.kind === KIND_MESH) {
          const plan = planOf.get(i) ?? null;
          addPrimitive(mesh, node, plan, i, fits ? origin : null);
          const world = plan ? plan.world : placed(s.vertices, p);
          written.push({ part: i, world, tris: plan ? plan.tris : shapeTriangles(s, p.kind) });
        } else {
          const local = displayed(s.vertices, p, origin);
          const tris = shapeTriangles(s, p.kind);
          mesh.addPrimitive(doc.createPrimitive().setAttribute('POSITION', accessor('VEC3', local)).setIndices(accessor('SCALAR', tris)).setMaterial(material(p.material)));
          written.push({ part: i, world: Float32Array.from(local, (x, k) => x + origin[k % 3]), tris });
        }
      }
      if (!node.getMesh()) node.setMesh(mesh);
      const found = importedOrder(res, written);
      const parts = found.map((i) => (res.parts[i].kind === KIND_CONVEX ? convexRecord(res.shapes[res.parts[i].shape], res.parts[i].position, origin) : null));
      node.setExtras({ ...node.getExtras(), sk8_collision_mode: 'convex_parts', sk8_shape: { type: 'convex_parts', parts } });
      found.forEach((i, k) => {
        if (!parts[k]) return;
        const why = recordCheck(res.parts[i], res.shapes[res.parts[i].shape], { type: 'hull', ...parts[k] }, origin);
        if (why) n.push(`part ${i}: ${why}`);
      });
      const split = convexSplitCheck(res, written, found);
      if (split) n.push(split);
    } else if (grouping === 'object') {
      // One object: its kind-5 parts one node (translation: the first part's position), a native part its own.
      const name = input.name;
      const meshParts = withShape.filter((i) => res.parts[i].kind === KIND_MESH);
      const curve = input.grind === true && /^grind_./.test(name) && withShape.length === 1 && meshParts.length === 1 ? grindCurve(res, meshParts[0], planOf.get(meshParts[0])) : null;
      if (typeof curve === 'string') n.push(`grind prism: its curve does not come back (${curve}); written as its triangles, flagged sk8_grind_prism`);
      if (curve && typeof curve !== 'string') {
        // The curve on a node of its own in world space, named so that the importer names its prism `name` again;
        // the check below encodes the prism the importer will build from it.
        const i = meshParts[0], p = res.parts[i];
        const node = doc.createNode(name.slice('grind_'.length)).setTranslation(curve.translation);
        node.setExtras({ ...partExtras(res, [i], false), sk8_grind_curve: { enabled: true, radius: curve.radius, surface: word(p.material) } });
        group.addChild(node);
        const prim = doc.createPrimitive().setMode(1).setAttribute('POSITION', accessor('VEC3', curve.points)).setIndices(accessor('SCALAR', curve.edges)).setMaterial(material(p.material));
        node.setMesh(doc.createMesh(node.getName()).addPrimitive(prim));
        const at = meshes.findIndex((m) => m.part === i);
        meshes[at] = { part: i, parts: [i], world: curve.positions, tris: curve.indices, rotated: false, first: new Uint32Array(0) };
      } else if (meshParts.length) {
        const node = nodeFor(name, meshParts);
        const t = res.parts[meshParts[0]].position;
        const fits = meshParts.every((i) => !planOf.get(i) || relativeTo(planOf.get(i)!.world, t));
        if (!fits) node.setTranslation([0, 0, 0]).setRotation([0, 0, 0, 1]);
        const mesh = doc.createMesh(name);
        for (const i of meshParts) if (!inRun.has(i)) addPrimitive(mesh, node, planOf.get(i) ?? null, i, fits ? t : null);
      }
      for (const i of withShape.filter((k) => res.parts[k].kind !== KIND_MESH)) nativeNode(meshParts.length || withShape.length > 1 ? `${name}_part${i}` : name, i);
      if (withShape.length > 1 && withShape.length > meshParts.length) n.push('a kind-2 part beside other parts: each native part is its own node, so it becomes its own object (resource) on recompile');
    } else {
      const single = grouping === 'parts' && res.parts.length === 1;
      for (const i of withShape) {
        if (inRun.has(i)) continue;
        const name = single ? (input.sourceObjects?.[0] ?? input.name) : `${input.name}_part${i}`;
        if (res.parts[i].kind !== KIND_MESH) {
          nativeNode(name, i);
          continue;
        }
        const plan = planOf.get(i) ?? null;
        const node = nodeFor(name, plan?.parts ?? [i]);
        const t = res.parts[i].position;
        const fits = !plan || plan.rotated || relativeTo(plan.world, t) !== null;
        if (!fits) node.setTranslation([0, 0, 0]).setRotation([0, 0, 0, 1]);
        addPrimitive(doc.createMesh(name), node, plan, i, fits ? t : null);
      }
    }
    // A part with no shape keeps its words on a node without a mesh (the importer skips it).
    res.parts.forEach((p, i) => {
      if (p.shape === NO_SHAPE) nodeFor(`${input.name}_part${i}`, [i]);
    });
    // Nothing written may be NaN or infinite (a GLB with NaN positions imports as garbage, and JSON would turn it
    // into null): a resource that gives such a number is refused with where it came out.
    const bad = nonFinite(group);
    if (bad) throw new Error(`to-gltf: ${input.file}: ${bad} is not a finite number (a vertex, part position or record the file holds is NaN, infinite or out of f32 range; verify names it); refusing to write it`);
    // What the compiler will encode from these nodes, against the stored shapes.
    if (meshes.length) {
      const check = reencodeCheck(res, convexForm ? 'parts' : grouping, meshes, input.file, !levelSeams);
      if (check.why) n.push(check.why);
      if (check.seams) seamLists.push({ note: notes.length, ...check.seams });
    }
    notes.push({ file: input.file, notes: n });
  }
  // The level-wide seams the recompile will compute (--seams level), over every resource's open corners in order,
  // against the stored edge data of those corners.
  if (levelSeams && seamLists.length) {
    const lists = seamLists.flatMap((l) => l.open);
    const match = matchSeams(lists, seamLists.flatMap((l) => l.faces));
    // The stored convex values of the joins that come back a few steps off are carried for the recompile
    // (sk8_compile.seamValues), which takes each where its join is still within SEAM_CARRY_ULPS of it.
    const carried: number[] = [];
    let k = 0;
    for (const l of seamLists) {
      l.open.forEach((o, s) => {
        const codes = match.codes[k++], st = l.stored[s];
        for (let i = 0; i < o.corner.length; i++) {
          const c = o.corner[i], v = st.edgeValues[c];
          if (codes[i] < 0 || Object.is(codes[i], v) || bitOf(st.concaveBits, c) || bitOf(st.flatBits, c) || !(v >= 0 && v <= 1)) continue;
          carried.push(...o.points.subarray(9 * i, 9 * i + 6), v);
        }
      });
    }
    carrySeamValues(lists, match.codes, carried);
    if (carried.length && recorded) scene.setExtras({ sk8_compile: { ...recorded, seamValues: carried } });
    k = 0;
    for (const l of seamLists) {
      let differ = 0, joined = 0;
      l.open.forEach((o, s) => {
        const codes = match.codes[k++];
        for (let i = 0; i < o.corner.length; i++) {
          const e = seamEdge(codes[i]), c = o.corner[i], st = l.stored[s];
          if (codes[i] !== SEAM_NONE) joined++;
          if (!Object.is(st.edgeValues[c], e.value) || bitOf(st.concaveBits, c) !== +e.concave || bitOf(st.flatBits, c) !== +e.flat) differ++;
        }
      });
      if (differ > 0) {
        notes[l.note].notes.push(`${differ} corners the shapes leave open come back with other edge data from the level-wide seams (--seams level; ${joined} joined across the compiler's cuts again): the world values written do not give the stored joins back, so the recompile will not give these bytes back`);
      }
    }
  }
  // The scene's record (a manifest's options: JSON may hold 1e999, which parses to Infinity) is checked as the nodes are.
  const badScene = nonFiniteValue(scene.getExtras(), 'scene extras');
  if (badScene) throw new Error(`to-gltf: ${badScene} is not a finite number; refusing to write it`);
  const glb = await new NodeIO().writeBinary(doc);
  return { glb, notes };
}

/** Runs of ≥ 2 consecutive unrotated kind-5 parts of one material (with world candidates): the encoder's split pieces. */
function splitRuns(res: PhysicsResource, candidates: (PartSpans | string | null)[]): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  const flush = (): void => {
    if (run.length > 1) runs.push(run);
    run = [];
  };
  res.parts.forEach((p, i) => {
    const ok = p.kind === KIND_MESH && p.shape !== NO_SHAPE && !isRotated(p) && candidates[i] !== null && typeof candidates[i] !== 'string';
    if (!ok) return flush();
    if (run.length && res.parts[run[0]].material !== p.material) flush();
    run.push(i);
  });
  flush();
  return runs;
}

/**
 * A compile output's object resource that convex_parts made (src/shapes/build.ts): kind-3 parts beside other parts,
 * or several kind-5 parts of one material that are not one mesh's pieces (those pass one shape's faces together).
 * A box object has one part, so a kind-2 part among others is not one.
 */
function isConvexPartsObject(res: PhysicsResource): boolean {
  const shaped = res.parts.filter((p) => p.shape !== NO_SHAPE);
  const natives = shaped.filter((p) => p.kind !== KIND_MESH);
  if (natives.some((p) => p.kind !== KIND_CONVEX)) return false;
  if (natives.length && shaped.length > 1) return true;
  const faces = new Map<number, { parts: number; faces: number }>();
  for (const p of shaped) {
    const f = faces.get(p.material) ?? { parts: 0, faces: 0 };
    faces.set(p.material, { parts: f.parts + 1, faces: f.faces + faceCount(res.shapes[p.shape]) });
  }
  return [...faces.values()].some((f) => f.parts > 1 && f.faces <= MAX_SHAPE_FACES);
}

/** The sk8_shape of a kind-2 part (src/shapes/stored.ts): half-extents from its vertices, its rotation as stored. */
function boxRecord(p: PartRecord, s: ShapeRecord): Record<string, unknown> {
  const half = [0, 1, 2].map((a) => {
    let h = 0;
    for (let k = a; k < s.vertices.length; k += 3) h = Math.max(h, Math.abs(s.vertices[k]));
    return h;
  });
  return { type: 'box', halfExtents: half, rotation: [...p.rotation], stored: true };
}

/** A kind-3 record: the stored vertices and polygon faces, centred at the part position relative to `origin`. */
function convexRecord(s: ShapeRecord, position: Vec3, origin: Vec3): { vertices: number[]; faces: number[][]; centre?: number[] } {
  const faces: number[][] = [];
  for (let f = 0; f + 1 < s.faceOffsets.length; f++) faces.push(Array.from(s.cornerVertices.subarray(s.faceOffsets[f], s.faceOffsets[f + 1])));
  const centre = position.map((x, j) => x - origin[j]);
  return { vertices: Array.from(s.vertices), faces, ...(centre.some((x) => x !== 0) ? { centre } : {}) };
}

/** The stored vertices turned by the part's rotation and placed at its position, relative to `origin` (f32). */
function displayed(v: Float32Array, p: PartRecord, origin: Vec3): Float32Array {
  const m = quatToMat3(p.rotation);
  const out = new Float32Array(v.length);
  for (let k = 0; k < v.length; k += 3) {
    for (let j = 0; j < 3; j++) out[k + j] = Math.fround(p.position[j] - origin[j] + m[j] * v[k] + m[3 + j] * v[k + 1] + m[6 + j] * v[k + 2]);
  }
  return out;
}

/** The parts of a convex_parts node in the order the importer and convex_parts see them: by material first seen. */
function importedOrder(res: PhysicsResource, written: { part: number }[]): number[] {
  const byMaterial = new Map<number, number[]>();
  for (const w of written) {
    const m = res.parts[w.part].material;
    byMaterial.set(m, [...(byMaterial.get(m) ?? []), w.part]);
  }
  return [...byMaterial.values()].flat();
}

/** Per face in the given order, its stored first corner. */
function firstCorners(s: ShapeRecord, order: Uint32Array): Uint32Array {
  return Uint32Array.from(order, (f) => s.cornerVertices[3 * f]);
}

const isRotated = (p: PartRecord): boolean => p.rotation[0] !== 0 || p.rotation[1] !== 0 || p.rotation[2] !== 0 || p.rotation[3] !== 1;

/** The stored vertices placed by their part (f32): the world values when nothing better is known. */
function placed(v: Float32Array, p: PartRecord): Float32Array {
  const m = quatToMat3(p.rotation);
  const out = new Float32Array(v.length);
  for (let k = 0; k < v.length; k += 3) {
    for (let j = 0; j < 3; j++) out[k + j] = Math.fround(p.position[j] + m[j] * v[k] + m[3 + j] * v[k + 1] + m[6 + j] * v[k + 2]);
  }
  return out;
}

/** The stored triangles in the given face order, each turned by its rotation (corners moved left). */
function orderedTriangles(s: ShapeRecord, order: Uint32Array, rotation: Uint8Array): Uint32Array {
  const out = new Uint32Array(3 * order.length), cv = s.cornerVertices;
  order.forEach((f, k) => {
    for (let j = 0; j < 3; j++) out[3 * k + j] = cv[3 * f + ((j + rotation[f]) % 3)];
  });
  return out;
}

/** The parts are one kind-5 part with a grind prism's vertex and face counts (src/export/grind.ts prismRings). */
function isPrism(res: PhysicsResource, parts: number[]): boolean {
  const p = res.parts[parts[0]];
  return parts.length === 1 && p.kind === KIND_MESH && p.shape !== NO_SHAPE && prismRings(res.shapes[p.shape].vertices.length / 3, faceCount(res.shapes[p.shape])) !== null;
}

/** sk8_part extras of a node holding the given parts (one entry per part), and the mode/grind flags. */
function partExtras(res: PhysicsResource, parts: number[], grind: boolean): Record<string, unknown> {
  const one = (i: number) => {
    const p = res.parts[i];
    return { index: i, kind: p.kind, w: p.w, word20: word(p.word20), ids: p.ids, word34: word(p.word34), word3c: word(p.word3c), flags: word(p.flags), material: word(p.material) };
  };
  const extras: Record<string, unknown> = { sk8_part: parts.length === 1 ? one(parts[0]) : parts.map(one) };
  const kind = res.parts[parts[0]].kind;
  if (kind === KIND_BOX) extras.sk8_collision_mode = 'box';
  else if (kind === KIND_CONVEX) extras.sk8_collision_mode = 'hull';
  if (grind) extras.sk8_grind_prism = true;
  return extras;
}

/** The shape's faces as triangles over its stored vertices, in file order (polygons fanned from their first corner). */
export function shapeTriangles(s: ShapeRecord, kind: number): Uint32Array {
  const faces = Math.max(0, s.faceOffsets.length - 1);
  if (faces > 0) {
    const out: number[] = [];
    for (let f = 0; f < faces; f++) {
      const a = s.faceOffsets[f], b = s.faceOffsets[f + 1];
      for (let c = a + 1; c + 1 < b; c++) out.push(s.cornerVertices[a], s.cornerVertices[c], s.cornerVertices[c + 1]);
    }
    return new Uint32Array(out);
  }
  if (kind === KIND_BOX && s.vertices.length === 24) return new Uint32Array(BOX_TRIANGLES);
  return new Uint32Array(0);
}

/** Box corners indexed by bits (x = bit 0, y = bit 1, z = bit 2), 12 outward triangles. */
const BOX_TRIANGLES = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];

/** Per vertex, the colour of the worst edge class among its corners (open > convex > concave > flat; inspect's rule). */
function vertexEdgeColours(s: ShapeRecord): Float32Array {
  const rank = ['flat', 'concave', 'convex', 'open'];
  const bit = (b: Uint8Array, c: number): number => (b.length ? (b[c >> 3] >> (c & 7)) & 1 : 0);
  const out = new Float32Array((s.vertices.length / 3) * 4);
  const best = new Int8Array(s.vertices.length / 3);
  for (let c = 0; c < s.edgeValues.length && c < s.cornerVertices.length; c++) {
    const r = bit(s.flatBits, c) ? 0 : bit(s.concaveBits, c) ? 1 : s.edgeValues[c] !== 1 ? 2 : 3;
    if (r > best[s.cornerVertices[c]]) best[s.cornerVertices[c]] = r;
  }
  best.forEach((r, v) => out.set(EDGE_RGBA[rank[r]], 4 * v));
  return out;
}

/**
 * The first number under `root` (its node tree: transforms, extras, each mesh's primitives' accessors and their
 * extras) that is not finite, named by where it is; undefined when all are.
 */
function nonFiniteValue(v: unknown, at: string): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : `${at} (${v})`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = nonFiniteValue(v[i], `${at}[${i}]`);
      if (r) return r;
    }
  } else if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) {
    for (const [k, x] of Object.entries(v)) {
      const r = nonFiniteValue(x, `${at}.${k}`);
      if (r) return r;
    }
  }
  return undefined;
}

function nonFinite(root: Node): string | undefined {
  const inValue = nonFiniteValue;
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    const at = `node "${node.getName()}"`;
    const r = inValue(node.getTranslation(), `${at} translation`) ?? inValue(node.getRotation(), `${at} rotation`) ?? inValue(node.getScale(), `${at} scale`) ?? inValue(node.getExtras(), `${at} extras`);
    if (r) return r;
    const mesh = node.getMesh();
    if (mesh) {
      const prims = mesh.listPrimitives();
      for (let pi = 0; pi < prims.length; pi++) {
        for (const sem of prims[pi].listSemantics()) {
          const a = prims[pi].getAttribute(sem)!.getArray();
          if (!(a instanceof Float32Array)) continue;
          for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return `${at} primitive ${pi} ${sem} value ${i} (${a[i]})`;
        }
      }
    }
    stack.push(...node.listChildren());
  }
  return undefined;
}

