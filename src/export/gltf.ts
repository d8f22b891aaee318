// PhysicsResources → one editable glTF (issue #25): ../shared/spec/physics-resource.md ("PhysicsResource", parts,
// shapes) and authoring-notes.md (the file's space is glTF's: Y up, metres). Each resource is read by the one
// codec (src/format/resource.ts) and becomes a group node; each part a child node placed by the part's rotation and
// position, holding its shape's triangles in the shape's own frame (kind 5: faces in file order over the stored
// vertex list; kind 3: polygon faces fanned; kind 2: its vertices' 12 box triangles). One glTF material per packed
// word, named by its surface, carrying sk8_collision_material_packed (what src/import/objects.ts reads). Every word
// the compiler does not derive goes into extras (sk8_physics on the group, sk8_part on each part node).
// Where the compiler cannot give the same bytes back, a note says so per resource; nothing pretends.
import { Document, NodeIO, type Material, type Node } from '@gltf-transform/core';
import { readPhysicsResource } from '../format/resource.ts';
import { decodeMaterial } from '../format/material.ts';
import { KIND_BOX, KIND_CONVEX, KIND_MESH, NO_SHAPE, PART_FLAGS, type PhysicsResource, type ShapeRecord } from '../format/types.ts';
import { keyColourRgb } from '../report/surfaces.ts';
import { PHYSICS_LITERAL_FLAG } from '../import/materials.ts';

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
const word = (v: number): string => `0x${(v >>> 0).toString(16).padStart(8, '0')}`;

/** Reads each input with the codec (throws `to-gltf: <file>: <FormatError>`), then writes one GLB. */
export async function resourcesToGltf(inputs: ToGltfInput[], opts: Partial<ToGltfOptions> = {}): Promise<ToGltfResult> {
  const options = { ...TO_GLTF_DEFAULTS, ...opts };
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('collision');
  const materials = new Map<number, Material>();
  const material = (packed: number): Material => {
    let m = materials.get(packed);
    if (m) return m;
    const d = decodeMaterial(packed);
    const surface = d.slotName ?? `slot_${d.slot}`;
    const name = d.propertySlot === 0 ? surface : `${surface}_p${d.propertySlot}`;
    m = doc.createMaterial(`${name}_${word(packed)}`).setBaseColorFactor([...keyColourRgb(d.slot), 1]).setDoubleSided(false);
    m.setExtras({ sk8_collision_material_packed: word(packed), sk8_surface_name: surface });
    materials.set(packed, m);
    return m;
  };
  const notes: ToGltfResult['notes'] = [];
  for (const input of inputs) {
    let res: PhysicsResource;
    try {
      res = readPhysicsResource(input.bytes);
    } catch (e) {
      throw new Error(`to-gltf: ${input.file}: not readable as a PhysicsResource: ${(e as Error).message}`);
    }
    const n: string[] = [];
    const group = doc.createNode(input.cell ? `collision_area_${input.cell[0]}_${input.cell[1]}` : `${input.name}_resource`);
    group.setExtras({
      sk8_physics: {
        file: input.file, version: res.version, word08: word(res.word08), word14: word(res.word14), word20: word(res.word20), body: hex(res.body),
        ...(input.cell ? { cell: input.cell } : {}), ...(input.sourceObjects ? { sourceObjects: input.sourceObjects } : {}),
      },
    });
    scene.addChild(group);
    const single = !input.cell && res.parts.length === 1;
    if (!input.cell && res.parts.length > 1) n.push(`${res.parts.length} parts in one per-object resource: each part becomes its own object on recompile, so its bytes are not reproduced`);
    if (res.body.length > 0 || res.word08 !== 0) n.push('Studio form (word 0x08 / 0x4c body): recompile with --studio-template to get it back');
    res.parts.forEach((p, i) => {
      const name = single ? (input.sourceObjects?.[0] ?? input.name) : `${input.name}_part${i}`;
      const node = doc.createNode(name).setTranslation([...p.position]).setRotation([...p.rotation]);
      const unusual = p.w !== 1 || p.word20 !== 0 || p.word34 !== 0 || p.word3c !== 0 || p.flags !== PART_FLAGS || p.ids.some((x) => x !== 0);
      if (unusual) n.push(`part ${i}: words the compiler does not write (w ${p.w}, 0x20 ${word(p.word20)}, ids ${p.ids.join('/')}, 0x34 ${word(p.word34)}, 0x3c ${word(p.word3c)}, flags ${word(p.flags)}) are kept in extras only`);
      if ((p.material & PHYSICS_LITERAL_FLAG) === 0) n.push(`part ${i}: material ${word(p.material)} lacks the 0x20 flag, which the compiler adds`);
      const extras: Record<string, unknown> = {
        sk8_part: { index: i, kind: p.kind, w: p.w, word20: word(p.word20), ids: p.ids, word34: word(p.word34), word3c: word(p.word3c), flags: word(p.flags), material: word(p.material) },
      };
      if (p.kind === KIND_BOX) extras.sk8_collision_mode = 'box';
      else if (p.kind === KIND_CONVEX) extras.sk8_collision_mode = 'hull';
      if (input.grind && /^grind_/.test(name)) extras.sk8_grind_prism = true;
      if (p.kind !== KIND_MESH) n.push(`part ${i}: kind ${p.kind} comes back as a triangle mesh with sk8_collision_mode ${extras.sk8_collision_mode}; its exact floats are refitted by the compiler`);
      node.setExtras(extras);
      group.addChild(node);
      if (p.shape === NO_SHAPE) return;
      const s = res.shapes[p.shape];
      const tris = shapeTriangles(s, p.kind);
      const mesh = doc.createMesh(name);
      const prim = doc.createPrimitive()
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(s.vertices.slice()).setBuffer(buffer))
        .setIndices(doc.createAccessor().setType('SCALAR').setArray(tris).setBuffer(buffer))
        .setMaterial(material(p.material));
      if (options.edgeColors && p.kind === KIND_MESH) prim.setAttribute('COLOR_0', doc.createAccessor().setType('VEC4').setArray(vertexEdgeColours(s)).setBuffer(buffer));
      mesh.addPrimitive(prim);
      node.setMesh(mesh);
    });
    notes.push({ file: input.file, notes: n });
  }
  const glb = await new NodeIO().writeBinary(doc);
  return { glb, notes };
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
