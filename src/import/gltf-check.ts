// Structural checks on a glTF's raw JSON before @gltf-transform builds its graph from it.
// glTF 2.0 spec (https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html): buffers, bufferViews, accessors,
// meshes, nodes, scenes. @gltf-transform trusts counts and offsets; a hostile file (counts past the end, cyclic
// node trees, billion-element accessors without data) would make it allocate or loop without bound. Every check
// here throws an Error prefixed "gltf: <file>:" that names the element and the numbers.
import { BufferUtils, type JSONDocument } from '@gltf-transform/core';

/** Limits on what a level may declare; each documented with its unit and why. */
export interface GltfLimits {
  /** Deepest node nesting accepted (levels); Blender scenes are a few levels deep. */
  maxNodeDepth: number;
  /**
   * An accessor without a bufferView (zero-filled, or decoded by Draco) may declare at most this many bytes per
   * byte of input file: Draco rarely exceeds 30:1, so anything above is an absurd count, not a level.
   */
  maxExpansion: number;
  /** Fixed allowance (bytes) on top of maxExpansion × input size for small files. */
  expansionAllowance: number;
}

export const GLTF_LIMITS: GltfLimits = { maxNodeDepth: 256, maxExpansion: 64, expansionAllowance: 16 << 20 };

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

type Json = Record<string, any>;

const isIndex = (v: unknown, length: number): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) < length;
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** Throws on the first structural fault; `inputBytes` is the size of the file(s) read (bounds allocations). */
export function checkGltfStructure(doc: JSONDocument, file: string, inputBytes: number, limits: GltfLimits = GLTF_LIMITS): void {
  const fail = (msg: string): never => {
    throw new Error(`gltf: ${file}: ${msg}`);
  };
  const json = doc.json as Json;
  if (!json || typeof json !== 'object') fail('no glTF JSON');
  if (json.asset?.version !== '2.0') fail(`asset.version is ${JSON.stringify(json.asset?.version)}, only glTF 2.0 is read`);
  const bufferSizes = checkBuffers(json, doc, fail);
  const viewSizes = checkBufferViews(json, bufferSizes, fail, inputBytes * limits.maxExpansion + limits.expansionAllowance, inputBytes);
  checkAccessors(json, viewSizes, inputBytes, limits, fail, (v) => viewBytes(json, doc, v));
  checkMeshes(json, fail);
  checkNodes(json, limits, fail);
}

/** A bufferView's bytes when its buffer's data is at hand (not meshopt-compressed), else undefined. */
function viewBytes(json: Json, doc: JSONDocument, view: number): Uint8Array | undefined {
  const v = json.bufferViews[view];
  if (v.extensions?.EXT_meshopt_compression) return undefined;
  const b = json.buffers[v.buffer];
  const data = b.uri === undefined ? doc.resources['@glb.bin'] : doc.resources[b.uri];
  if (!data) return undefined;
  const at = v.byteOffset ?? 0;
  return data.subarray(at, at + v.byteLength);
}

function arrayOf(json: Json, key: string, fail: (m: string) => never): Json[] {
  const v = json[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(`"${key}" is not an array`);
  return v;
}

/** Actual byte size of each buffer: declared byteLength, checked against the data present. */
function checkBuffers(json: Json, doc: JSONDocument, fail: (m: string) => never): number[] {
  return arrayOf(json, 'buffers', fail).map((b, i) => {
    if (!isCount(b?.byteLength)) fail(`buffer ${i}: byteLength ${JSON.stringify(b?.byteLength)} is not a byte count`);
    // A buffer with no data is legal only as a meshopt fallback (it is never read).
    if (b.extensions?.EXT_meshopt_compression?.fallback) return b.byteLength;
    // Only the first buffer may lack a uri: it is the GLB's binary chunk.
    const key = b.uri === undefined ? (i === 0 ? '@glb.bin' : undefined) : b.uri;
    const data = key === undefined ? undefined : doc.resources[key];
    if (data === undefined) {
      if (typeof b.uri === 'string' && b.uri.startsWith('data:')) {
        const inline = BufferUtils.createBufferFromDataURI(b.uri).byteLength;
        if (inline < b.byteLength) fail(`buffer ${i}: declares ${b.byteLength} bytes but its data URI holds ${inline}`);
        return b.byteLength;
      }
      if (b.uri === undefined) fail(`buffer ${i}: no data (no uri and not the GLB's binary chunk; GLB truncated?)`);
      fail(`buffer ${i}: "${b.uri}" could not be read`);
    }
    if (data && data.byteLength < b.byteLength) {
      fail(`buffer ${i}: declares ${b.byteLength} bytes but ${data.byteLength} are present (truncated?)`);
    }
    return b.byteLength;
  });
}

function checkBufferViews(json: Json, bufferSizes: number[], fail: (m: string) => never, budget: number, inputBytes: number): number[] {
  let decodedBytes = 0;
  return arrayOf(json, 'bufferViews', fail).map((v, i) => {
    if (!isIndex(v?.buffer, bufferSizes.length)) fail(`bufferView ${i}: buffer ${v?.buffer} does not exist (${bufferSizes.length} buffers)`);
    const offset = v.byteOffset ?? 0;
    if (!isCount(offset) || !isCount(v.byteLength)) fail(`bufferView ${i}: byteOffset/byteLength are not byte counts`);
    if (offset + v.byteLength > bufferSizes[v.buffer]) {
      fail(`bufferView ${i}: bytes ${offset}..${offset + v.byteLength} run past buffer ${v.buffer} (${bufferSizes[v.buffer]} bytes)`);
    }
    if (v.byteStride !== undefined && (!Number.isInteger(v.byteStride) || v.byteStride < 4 || v.byteStride > 252)) {
      fail(`bufferView ${i}: byteStride ${v.byteStride} outside 4..252`);
    }
    const mo = v.extensions?.EXT_meshopt_compression;
    if (mo) {
      if (!isIndex(mo.buffer, bufferSizes.length)) fail(`bufferView ${i}: meshopt source buffer ${mo.buffer} does not exist`);
      const end = (mo.byteOffset ?? 0) + mo.byteLength;
      if (!isCount(mo.byteLength) || !(end <= bufferSizes[mo.buffer])) fail(`bufferView ${i}: meshopt source runs past buffer ${mo.buffer}`);
      // What the decoder allocates: count × byteStride, within the view and (like data-less accessors) what the
      // input can expand to; a fallback buffer's byteLength is only declared.
      const size = mo.count * mo.byteStride;
      if (!isCount(mo.count) || !isCount(mo.byteStride) || !isCount(size) || size > v.byteLength) fail(`bufferView ${i}: meshopt count ${mo.count} × byteStride ${mo.byteStride} does not fit its ${v.byteLength} bytes`);
      decodedBytes += size;
      if (decodedBytes > budget) fail(`bufferView ${i}: meshopt data decoding to ${decodedBytes} bytes exceeds what a ${inputBytes}-byte file can hold`);
    }
    return v.byteLength;
  });
}

function checkAccessors(json: Json, viewSizes: number[], inputBytes: number, limits: GltfLimits, fail: (m: string) => never, bytesOf: (view: number) => Uint8Array | undefined): void {
  const views = arrayOf(json, 'bufferViews', fail);
  const budget = inputBytes * limits.maxExpansion + limits.expansionAllowance;
  let zeroFilledBytes = 0;
  arrayOf(json, 'accessors', fail).forEach((a, i) => {
    const comp = COMPONENT_BYTES[a?.componentType];
    const n = TYPE_COMPONENTS[a?.type];
    if (!comp || !n) fail(`accessor ${i}: componentType ${a?.componentType} / type ${a?.type} not valid glTF`);
    if (!isCount(a.count) || a.count < 1) fail(`accessor ${i}: count ${a.count} is not a positive integer`);
    const elementBytes = comp * n;
    if (a.bufferView === undefined) {
      zeroFilledBytes += a.count * elementBytes;
      if (zeroFilledBytes > budget) fail(`accessor ${i}: count ${a.count} × ${elementBytes} bytes without data exceeds what a ${inputBytes}-byte file can hold`);
    } else {
      if (!isIndex(a.bufferView, viewSizes.length)) fail(`accessor ${i}: bufferView ${a.bufferView} does not exist (${viewSizes.length} views)`);
      const stride = views[a.bufferView].byteStride ?? elementBytes;
      const offset = a.byteOffset ?? 0;
      if (!isCount(offset)) fail(`accessor ${i}: byteOffset ${offset} is not a byte count`);
      const end = offset + stride * (a.count - 1) + elementBytes;
      if (end > viewSizes[a.bufferView]) {
        fail(`accessor ${i}: count ${a.count} × stride ${stride} from offset ${offset} needs ${end} bytes, bufferView ${a.bufferView} has ${viewSizes[a.bufferView]}`);
      }
    }
    if (a.sparse) checkSparse(a, i, views, viewSizes, fail, bytesOf);
  });
}

function checkSparse(a: Json, i: number, views: Json[], viewSizes: number[], fail: (m: string) => never, bytesOf: (view: number) => Uint8Array | undefined): void {
  const s = a.sparse;
  if (!isCount(s.count) || s.count > a.count) fail(`accessor ${i}: sparse count ${s.count} exceeds count ${a.count}`);
  for (const [key, bytes] of [['indices', COMPONENT_BYTES[s.indices?.componentType] ?? 0], ['values', COMPONENT_BYTES[a.componentType] * TYPE_COMPONENTS[a.type]]] as const) {
    const part = s[key];
    if (!part || !isIndex(part.bufferView, viewSizes.length) || !bytes) fail(`accessor ${i}: sparse ${key} invalid`);
    const end = (part.byteOffset ?? 0) + bytes * s.count;
    if (end > viewSizes[part.bufferView]) fail(`accessor ${i}: sparse ${key} need ${end} bytes, bufferView ${part.bufferView} has ${viewSizes[part.bufferView]}`);
  }
  void views;
  // glTF 2.0 §3.6.2.3: sparse indices strictly increase and stay below the accessor's count (@gltf-transform drops
  // an entry past the count without a word, so the value it was to set silently stays).
  const bytes = bytesOf(s.indices.bufferView);
  if (!bytes) return;
  const size = COMPONENT_BYTES[s.indices.componentType];
  if (![5121, 5123, 5125].includes(s.indices.componentType)) fail(`accessor ${i}: sparse indices componentType ${s.indices.componentType} is not an unsigned integer type`);
  const view = new DataView(bytes.buffer, bytes.byteOffset + (s.indices.byteOffset ?? 0), size * s.count);
  let previous = -1;
  for (let k = 0; k < s.count; k++) {
    const index = size === 1 ? view.getUint8(k) : size === 2 ? view.getUint16(2 * k, true) : view.getUint32(4 * k, true);
    if (index >= a.count) fail(`accessor ${i}: sparse index ${index} (entry ${k}) ≥ count ${a.count}`);
    if (index <= previous) fail(`accessor ${i}: sparse index ${index} (entry ${k}) does not increase (after ${previous})`);
    previous = index;
  }
}

/** POSITION component types (glTF 2.0 §3.7.2.1): FLOAT; KHR_mesh_quantization adds (normalized) BYTE and SHORT. */
const POSITION_TYPES = [5126];
const QUANTIZED_POSITION_TYPES = [5120, 5121, 5122, 5123, 5126];
const COMPONENT_NAMES: Record<number, string> = { 5120: 'BYTE', 5121: 'UNSIGNED_BYTE', 5122: 'SHORT', 5123: 'UNSIGNED_SHORT', 5125: 'UNSIGNED_INT', 5126: 'FLOAT' };

function checkMeshes(json: Json, fail: (m: string) => never): void {
  const accessors = arrayOf(json, 'accessors', fail);
  const accessorCount = accessors.length;
  const materialCount = arrayOf(json, 'materials', fail).length;
  const quantized = (json.extensionsUsed ?? []).includes('KHR_mesh_quantization');
  arrayOf(json, 'meshes', fail).forEach((m, mi) => {
    const prims = arrayOf(m ?? {}, 'primitives', fail);
    prims.forEach((p, pi) => {
      const where = `mesh ${mi}${m.name ? ` "${m.name}"` : ''} primitive ${pi}`;
      if (!p || typeof p.attributes !== 'object') fail(`${where}: no attributes`);
      for (const [sem, acc] of Object.entries(p.attributes)) {
        if (!isIndex(acc, accessorCount)) fail(`${where}: attribute ${sem} names accessor ${acc} (${accessorCount} accessors)`);
      }
      if (p.indices !== undefined && !isIndex(p.indices, accessorCount)) fail(`${where}: indices accessor ${p.indices} does not exist`);
      const pos = p.attributes.POSITION;
      if (pos !== undefined) {
        const a = accessors[pos];
        const allowed = quantized ? QUANTIZED_POSITION_TYPES : POSITION_TYPES;
        if (!allowed.includes(a.componentType)) {
          fail(`${where}: POSITION accessor ${pos} has componentType ${a.componentType} (${COMPONENT_NAMES[a.componentType]}); glTF allows FLOAT${quantized ? ', BYTE and SHORT (KHR_mesh_quantization)' : ' (BYTE and SHORT only with KHR_mesh_quantization)'}`);
        }
      }
      if (p.indices !== undefined) {
        const a = accessors[p.indices];
        if (a.type !== 'SCALAR' || ![5121, 5123, 5125].includes(a.componentType) || a.normalized) {
          fail(`${where}: indices accessor ${p.indices} is ${a.type} of component type ${a.componentType}, not unsigned integer SCALAR`);
        }
      }
      if (p.material !== undefined && !isIndex(p.material, materialCount)) fail(`${where}: material ${p.material} does not exist`);
      if (p.mode !== undefined && !(Number.isInteger(p.mode) && p.mode >= 0 && p.mode <= 6)) fail(`${where}: mode ${p.mode} is not a glTF primitive mode`);
    });
  });
}

/** Children indices valid, every node at most one parent, no cycles, bounded depth, scene roots valid. */
function checkNodes(json: Json, limits: GltfLimits, fail: (m: string) => never): void {
  const nodes = arrayOf(json, 'nodes', fail);
  const meshCount = arrayOf(json, 'meshes', fail).length;
  const parent = new Int32Array(nodes.length).fill(-1);
  const scenes = arrayOf(json, 'scenes', fail);
  if (json.scene !== undefined && !isIndex(json.scene, scenes.length)) fail(`scene ${JSON.stringify(json.scene)} (the default scene) does not exist (${scenes.length} scenes)`);
  nodes.forEach((n, i) => {
    if (n?.mesh !== undefined && !isIndex(n.mesh, meshCount)) fail(`node ${i}: mesh ${n.mesh} does not exist (${meshCount} meshes)`);
    checkTransform(n ?? {}, i, fail);
    for (const c of arrayOf(n ?? {}, 'children', fail)) {
      if (!isIndex(c, nodes.length)) fail(`node ${i}: child ${c} does not exist (${nodes.length} nodes)`);
      if (c === i) fail(`node ${i} is its own child (cyclic node tree)`);
      if (parent[c] !== -1) fail(`node ${c} has two parents (${parent[c]} and ${i}); node trees must be trees`);
      parent[c] = i;
    }
  });
  // Walk up from every node: a chain longer than the node count is a cycle; longer than the limit is absurd.
  const depth = new Int32Array(nodes.length).fill(-1);
  const chain: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    chain.length = 0;
    let p = i;
    while (p !== -1 && depth[p] === -1) {
      chain.push(p);
      if (chain.length > nodes.length) fail(`node ${i}: cyclic node tree`);
      p = parent[p];
    }
    let d = p === -1 ? -1 : depth[p];
    for (let k = chain.length - 1; k >= 0; k--) depth[chain[k]] = ++d;
    if (depth[i] > limits.maxNodeDepth) fail(`node ${i}: nested ${depth[i]} levels deep (limit ${limits.maxNodeDepth})`);
  }
  arrayOf(json, 'scenes', fail).forEach((s, si) => {
    for (const r of arrayOf(s ?? {}, 'nodes', fail)) {
      if (!isIndex(r, nodes.length)) fail(`scene ${si}: root node ${r} does not exist`);
      if (parent[r] !== -1) fail(`scene ${si}: root node ${r} is also a child of node ${parent[r]}`);
    }
  });
}

/** TRS and matrix lengths, every value finite (JSON's 1e999 parses to Infinity), a matrix not singular. */
function checkTransform(n: Json, i: number, fail: (m: string) => never): void {
  const where = `node ${i}${typeof n.name === 'string' && n.name ? ` "${n.name}"` : ''}`;
  for (const [key, length] of [['translation', 3], ['rotation', 4], ['scale', 3], ['matrix', 16]] as const) {
    const v = n[key];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.length !== length || v.some((x) => typeof x !== 'number')) fail(`${where}: ${key} ${JSON.stringify(v)} is not ${length} numbers`);
    if (v.some((x: number) => !Number.isFinite(x))) fail(`${where}: ${key} [${v.join(', ')}] is not finite`);
  }
  const m = n.matrix as number[] | undefined;
  if (m) {
    const det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5]);
    if (det === 0) fail(`${where}: matrix [${m.join(', ')}] is a singular matrix (determinant 0)`);
  }
}

/**
 * GLB container (glTF 2.0 §4.4): 12-byte header (magic "glTF", version 2, total length), then chunks of
 * (length, type) with 4-aligned data: JSON first, then an optional BIN. Checked before parsing so a truncated
 * download gets a message with the numbers rather than a typed-array error.
 */
export function checkGlbContainer(bytes: Uint8Array, file: string): void {
  const fail = (msg: string): never => {
    throw new Error(`gltf: ${file}: ${msg}`);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 20) fail(`GLB truncated: ${bytes.byteLength} bytes, less than a header and one chunk header`);
  const version = view.getUint32(4, true);
  if (version !== 2) fail(`GLB version ${version}, only 2 is read`);
  const total = view.getUint32(8, true);
  if (total > bytes.byteLength) fail(`GLB truncated: header says ${total} bytes, file has ${bytes.byteLength}`);
  let at = 12;
  let chunk = 0;
  while (at + 8 <= total) {
    const length = view.getUint32(at, true);
    const type = view.getUint32(at + 4, true);
    if (chunk === 0 && type !== 0x4e4f534a) fail(`GLB first chunk is 0x${type.toString(16)}, not JSON`);
    if (at + 8 + length > total) fail(`GLB chunk ${chunk} (${length} bytes at ${at + 8}) runs past the end (${total} bytes)`);
    at += 8 + length;
    chunk++;
  }
  if (chunk === 0) fail('GLB has no JSON chunk');
}
