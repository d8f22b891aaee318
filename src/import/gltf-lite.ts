// The scene walk's view of a glTF document, and a light reader for the common case.
// gltf.ts walks nodes, meshes, primitives, accessors and materials through the small interface below, which
// @gltf-transform's classes satisfy. For a file that uses none of what only @gltf-transform reads (extensions,
// node matrices, sparse, interleaved, normalized or bufferView-less accessors, animations, skins), liteRoot builds
// that view straight from the glTF JSON and its binary buffers: the same names, extras, transforms and accessor
// values, in the same order, so the objects (and every message) come out the same.
//
// Design log
// - @gltf-transform's document build (io.readJSON) was over half of the import of the 1M bench level (4,100 nodes,
//   each a graph property with events and reference lists; ~290 of ~530 ms on the main thread in a profile). The
//   light reader makes one small object per node, mesh, primitive and accessor and reads accessors as views of the
//   binary chunk. importGltf on that level, fresh process each, 7 alternating runs at load ~4.4: cold (first call,
//   what a compile gets) 834 → 338 ms median, warm 524 → 183 ms; objects, stats and warnings identical (test).
//   Files it does not cover still go through @gltf-transform (Draco, meshopt, instancing, quantization...).
import type { ExtensionProperty, JSONDocument } from '@gltf-transform/core';
import type { AccessorData } from './memo.ts';

type Json = Record<string, any>;

export type AccessorArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Uint32Array | Float32Array;

/** What the walk reads of an accessor. */
export interface WalkAccessor {
  getArray(): AccessorArray | null;
  getCount(): number;
  getNormalized(): boolean;
  getElementSize(): number;
  getType(): string;
  getElement(index: number, target: number[]): number[];
  /** The light reader's accessors only: what src/import/memo.ts compares. */
  data?(): AccessorData;
}

export interface WalkMaterial {
  getName(): string;
  getExtras(): unknown;
}

export interface WalkPrimitive {
  getMode(): number;
  getAttribute(semantic: string): WalkAccessor | null;
  getIndices(): WalkAccessor | null;
  getMaterial(): WalkMaterial | null;
}

export interface WalkMesh {
  getName(): string;
  getExtras(): unknown;
  listPrimitives(): WalkPrimitive[];
}

export interface WalkNode {
  getName(): string;
  getExtras(): unknown;
  getMesh(): WalkMesh | null;
  getTranslation(): ArrayLike<number>;
  getRotation(): ArrayLike<number>;
  getScale(): ArrayLike<number>;
  listChildren(): WalkNode[];
  getParentNode(): WalkNode | null;
  getExtension<T extends ExtensionProperty>(name: string): T | null;
}

export interface WalkScene {
  getName(): string;
  listChildren(): WalkNode[];
}

export interface WalkRoot {
  listScenes(): WalkScene[];
  getDefaultScene(): WalkScene | null;
  listNodes(): WalkNode[];
  listMeshes(): WalkMesh[];
}

const ARRAY_TYPES: Record<number, { new (b: ArrayBuffer, o: number, n: number): AccessorArray; BYTES_PER_ELEMENT: number }> = {
  5120: Int8Array, 5121: Uint8Array, 5122: Int16Array, 5123: Uint16Array, 5125: Uint32Array, 5126: Float32Array,
};
const ELEMENT_SIZE: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const TEXTURE_SLOTS = ['normalTexture', 'occlusionTexture', 'emissiveTexture'];
const PBR_TEXTURE_SLOTS = ['baseColorTexture', 'metallicRoughnessTexture'];

// @gltf-transform's defaults: a property's name is '' and its extras {} unless the JSON sets them (truthy extras).
const nameOf = (def: Json): string => (def.name === undefined ? '' : def.name);
const extrasOf = (def: Json): unknown => (def.extras ? def.extras : {});

class LiteAccessor implements WalkAccessor {
  private array: AccessorArray | null = null;
  constructor(private def: Json, private read: (def: Json) => AccessorArray) {}
  getArray(): AccessorArray {
    return (this.array ??= this.read(this.def));
  }
  /** Its values' kind and bytes (src/import/memo.ts): the light reader's accessors are plain, tightly packed views. */
  data(): AccessorData {
    const a = this.getArray();
    return { kind: `${this.def.componentType}:${this.def.type}:${this.def.count}`, bytes: new Uint8Array(a.buffer, a.byteOffset, a.byteLength) };
  }
  getCount(): number {
    return this.def.count;
  }
  getNormalized(): boolean {
    return false; // the light reader takes no normalized accessor
  }
  getElementSize(): number {
    return ELEMENT_SIZE[this.def.type];
  }
  getType(): string {
    return this.def.type;
  }
  getElement(index: number, target: number[]): number[] {
    const n = this.getElementSize();
    const a = this.getArray();
    for (let j = 0; j < n; j++) target[j] = a[index * n + j];
    target.length = n;
    return target;
  }
}

class LiteMaterial implements WalkMaterial {
  constructor(private def: Json) {}
  getName(): string {
    return nameOf(this.def);
  }
  getExtras(): unknown {
    return extrasOf(this.def);
  }
}

class LitePrimitive implements WalkPrimitive {
  constructor(private def: Json, private accessors: LiteAccessor[], private materials: LiteMaterial[]) {}
  getMode(): number {
    return this.def.mode === undefined ? 4 : this.def.mode;
  }
  getAttribute(semantic: string): WalkAccessor | null {
    const i = this.def.attributes?.[semantic];
    return i === undefined ? null : this.accessors[i];
  }
  getIndices(): WalkAccessor | null {
    return this.def.indices === undefined ? null : this.accessors[this.def.indices];
  }
  getMaterial(): WalkMaterial | null {
    return this.def.material === undefined ? null : this.materials[this.def.material];
  }
}

class LiteMesh implements WalkMesh {
  readonly primitives: LitePrimitive[];
  constructor(private def: Json, accessors: LiteAccessor[], materials: LiteMaterial[]) {
    this.primitives = (def.primitives ?? []).map((p: Json) => new LitePrimitive(p, accessors, materials));
  }
  getName(): string {
    return nameOf(this.def);
  }
  getExtras(): unknown {
    return extrasOf(this.def);
  }
  listPrimitives(): WalkPrimitive[] {
    return this.primitives;
  }
}

const T0 = [0, 0, 0], R0 = [0, 0, 0, 1], S1 = [1, 1, 1];

class LiteNode implements WalkNode {
  children: LiteNode[] = [];
  parent: LiteNode | null = null;
  constructor(private def: Json, private mesh: LiteMesh | null) {}
  getName(): string {
    return nameOf(this.def);
  }
  getExtras(): unknown {
    return extrasOf(this.def);
  }
  getMesh(): WalkMesh | null {
    return this.mesh;
  }
  getTranslation(): ArrayLike<number> {
    return this.def.translation ?? T0;
  }
  getRotation(): ArrayLike<number> {
    return this.def.rotation ?? R0;
  }
  getScale(): ArrayLike<number> {
    return this.def.scale ?? S1;
  }
  listChildren(): WalkNode[] {
    return this.children;
  }
  getParentNode(): WalkNode | null {
    return this.parent;
  }
  getExtension<T extends ExtensionProperty>(): T | null {
    return null; // no extension is used (liteRoot's condition)
  }
}

class LiteScene implements WalkScene {
  constructor(private def: Json, readonly children: LiteNode[]) {}
  getName(): string {
    return nameOf(this.def);
  }
  listChildren(): WalkNode[] {
    return this.children;
  }
}

/**
 * Whether the light reader covers this file: no extension, no node matrix, no animation or skin, and accessors
 * that are plain views of a bufferView (no sparse data, no interleaving, not normalized, a known component type).
 * Texture references must resolve (@gltf-transform reads them and fails on a dangling one: so does the fallback).
 */
function covered(json: Json): boolean {
  if (json.extensionsUsed?.length || json.extensionsRequired?.length) return false;
  if (json.animations?.length || json.skins?.length) return false;
  if ((json.nodes ?? []).some((n: Json) => n.matrix !== undefined)) return false;
  const views: Json[] = json.bufferViews ?? [];
  for (const a of (json.accessors ?? []) as Json[]) {
    if (a.sparse !== undefined || a.bufferView === undefined || a.normalized || !ARRAY_TYPES[a.componentType] || !ELEMENT_SIZE[a.type]) return false;
    const stride = views[a.bufferView]?.byteStride;
    if (stride !== undefined && stride !== ELEMENT_SIZE[a.type] * ARRAY_TYPES[a.componentType].BYTES_PER_ELEMENT) return false;
  }
  const textures = (json.textures ?? []).length;
  for (const m of (json.materials ?? []) as Json[]) {
    const infos = [...TEXTURE_SLOTS.map((k) => m[k]), ...PBR_TEXTURE_SLOTS.map((k) => m.pbrMetallicRoughness?.[k])];
    if (infos.some((t) => t !== undefined && !(Number.isInteger(t.index) && t.index >= 0 && t.index < textures))) return false;
  }
  // A node listed twice by one scene: @gltf-transform keeps it once; not worth mirroring.
  for (const s of (json.scenes ?? []) as Json[]) if (new Set(s.nodes ?? []).size !== (s.nodes ?? []).length) return false;
  return true;
}

/**
 * The walk's view of a checked (gltf-check.ts) glTF JSON document, or undefined when the file needs
 * @gltf-transform's reader (see covered).
 */
export function liteRoot(jsonDoc: JSONDocument): WalkRoot | undefined {
  const json = jsonDoc.json as Json;
  if (!covered(json)) return undefined;
  const views: Json[] = json.bufferViews ?? [];
  const buffers: Json[] = json.buffers ?? [];
  const read = (def: Json): AccessorArray => {
    const view = views[def.bufferView];
    const bufferDef = buffers[view.buffer];
    const data = bufferDef.uri ? jsonDoc.resources[bufferDef.uri] : jsonDoc.resources['@glb.bin'];
    const Type = ARRAY_TYPES[def.componentType];
    const offset = data.byteOffset + (view.byteOffset ?? 0) + (def.byteOffset ?? 0);
    const length = def.count * ELEMENT_SIZE[def.type];
    // A view when aligned (the usual case); a copy otherwise. Either way the values of @gltf-transform's copy.
    if (offset % Type.BYTES_PER_ELEMENT === 0) return new Type(data.buffer as ArrayBuffer, offset, length);
    return new Type(data.buffer.slice(offset, offset + length * Type.BYTES_PER_ELEMENT) as ArrayBuffer, 0, length);
  };
  const accessors = ((json.accessors ?? []) as Json[]).map((a) => new LiteAccessor(a, read));
  const materials = ((json.materials ?? []) as Json[]).map((m) => new LiteMaterial(m));
  const meshes = ((json.meshes ?? []) as Json[]).map((m) => new LiteMesh(m, accessors, materials));
  const nodeDefs: Json[] = json.nodes ?? [];
  const nodes = nodeDefs.map((n) => new LiteNode(n, n.mesh === undefined ? null : meshes[n.mesh]));
  nodeDefs.forEach((n, i) => {
    for (const c of n.children ?? []) {
      nodes[i].children.push(nodes[c]);
      nodes[c].parent = nodes[i];
    }
  });
  const scenes = ((json.scenes ?? []) as Json[]).map((s) => new LiteScene(s, (s.nodes ?? []).map((i: number) => nodes[i])));
  const defaultScene = json.scene === undefined ? null : (scenes[json.scene] ?? null);
  return {
    listScenes: () => scenes,
    getDefaultScene: () => defaultScene,
    listNodes: () => nodes,
    listMeshes: () => meshes,
  };
}
