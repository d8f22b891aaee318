// Reading a glTF level file (src/import/gltf.ts walks what it returns): the .glb container or the .gltf JSON with
// its external buffers, each a regular file inside the level's folder (src/files.ts resolveUri) read never past
// its declared length, the structure checked before anything is built (gltf-check.ts), and the Draco and meshopt
// decoders registered only when the file uses them. Bad input throws `gltf: <file>: ...`.
import { dirname } from 'node:path';
import { BufferUtils, NodeIO, type ILogger, type JSONDocument } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { checkGlbContainer, checkGltfStructure } from './gltf-check.ts';
import type { ImportMemo } from './memo.ts';
import { readRegularFile, resolveUri } from '../files.ts';
import type { Logger } from '../model.ts';
import { foreignLevelMessage } from './foreign.ts';

/** Largest level file read (bytes): a GLB's length field is a u32. */
export const MAX_LEVEL_BYTES = 0xffffffff;

/** What reading takes of the import's options (src/import/gltf.ts ImportOptions). */
export interface ReadOptions {
  decoders: { draco: boolean; meshopt: boolean };
  allowOutsideUris?: boolean;
}

const EXT_DRACO = 'KHR_draco_mesh_compression';
const EXT_MESHOPT = 'EXT_meshopt_compression';

export async function readJson(file: string, options: ReadOptions, logger: Logger, memo?: ImportMemo): Promise<{ io: NodeIO; jsonDoc: JSONDocument; inputBytes: Uint8Array[]; deps: Record<string, unknown> }> {
  const io = new NodeIO().setLogger(forwardLogger(file, logger)).registerExtensions(ALL_EXTENSIONS);
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(file, MAX_LEVEL_BYTES, 'error', undefined, memo?.fileBuffer);
  } catch (e) {
    throw new Error(`gltf: ${file}: ${(e as Error).message}`);
  }
  const isGlb = bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
  if (bytes.byteLength === 0) throw new Error(`gltf: ${file}: empty file (0 bytes)`);
  if (isGlb) checkGlbContainer(bytes, file);
  const foreign = isGlb ? undefined : foreignLevelMessage(bytes, file);
  if (foreign) throw new Error(`gltf: ${file}: ${foreign}`);
  let jsonDoc: JSONDocument;
  try {
    jsonDoc = isGlb ? await io.binaryToJSON(bytes) : readGltfJson(bytes, file, options.allowOutsideUris ?? false);
  } catch (e) {
    const shape = isGlb ? glbJsonShape(bytes) : undefined;
    if (shape) throw new Error(`gltf: ${file}: the JSON chunk is ${shape}, not a glTF object`);
    const external = isGlb ? glbExternalBuffer(bytes) : undefined;
    if (external) throw new Error(`gltf: ${file}: ${external}: a .glb's buffers are read from the file itself, not from other files (export the level as one .glb, or as glTF Separate)`);
    const message = (e as Error).message;
    throw new Error(message.startsWith('gltf: ') ? message : `gltf: ${file}: ${describeReadError(e as NodeJS.ErrnoException, isGlb)}`);
  }
  const inputBytes = [bytes, ...Object.keys(jsonDoc.resources).sort().filter((k) => k !== '@glb.bin').map((k) => jsonDoc.resources[k])];
  checkGltfStructure(jsonDoc, file, inputBytes.reduce((s, b) => s + b.byteLength, 0));
  const deps = await registerDecoders(io, jsonDoc, file, options);
  return { io, jsonDoc, inputBytes, deps };
}

/** What a parsed JSON value is when it is not a plain object ('null', 'an array', 'a number'), else undefined. */
function notAnObject(v: unknown): string | undefined {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return undefined;
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

const glbJson = (bytes: Uint8Array): unknown => {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
};

/** The GLB's JSON chunk, when it parses to something other than an object (only asked after a failure). */
function glbJsonShape(bytes: Uint8Array): string | undefined {
  try {
    return notAnObject(glbJson(bytes));
  } catch {
    return undefined;
  }
}

/** The first buffer of a GLB that names another file (`buffer 1 "level.bin"`; only asked after a failure). */
function glbExternalBuffer(bytes: Uint8Array): string | undefined {
  try {
    const buffers = (glbJson(bytes) as { buffers?: { uri?: unknown }[] }).buffers ?? [];
    const i = buffers.findIndex((b) => typeof b?.uri === 'string' && !b.uri.startsWith('data:'));
    return i < 0 ? undefined : `buffer ${i} "${buffers[i].uri}"`;
  } catch {
    return undefined;
  }
}

/**
 * A .gltf's JSON and its external buffers, each read from a regular file inside the glTF's directory (resolveUri)
 * and never past its declared byteLength. Images are not read: collision needs no textures.
 */
function readGltfJson(bytes: Uint8Array, file: string, allowOutside: boolean): JSONDocument {
  let json: any;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new Error(`gltf: ${file}: not valid glTF JSON (${(e as Error).message})`);
  }
  const shape = notAnObject(json);
  if (shape) throw new Error(`gltf: ${file}: the JSON is ${shape}, not a glTF object`);
  const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
  const base = dirname(file);
  const external = (uri: unknown): uri is string => typeof uri === 'string' && !uri.startsWith('data:');
  (Array.isArray(json.buffers) ? json.buffers : []).forEach((b: any, i: number) => {
    if (typeof b?.uri === 'string' && b.uri.startsWith('data:')) {
      // Decoded here as @gltf-transform's readAsJSON does (under a key of its own, the uri pointing to it).
      const key = `__data_${i}.bin`;
      resources[key] = BufferUtils.createBufferFromDataURI(b.uri);
      b.uri = key;
      return;
    }
    if (!external(b?.uri) || b.uri in resources) return;
    const what = `buffer ${i} "${b.uri}"`;
    try {
      const path = resolveUri(base, b.uri, what, allowOutside);
      const declared = Number.isSafeInteger(b.byteLength) && b.byteLength > 0 ? b.byteLength : 0;
      resources[b.uri] = readRegularFile(path, declared, 'truncate');
    } catch (e) {
      const m = (e as Error).message;
      throw new Error(`gltf: ${file}: ${m.startsWith(what) ? m : `${what}: ${m}`}`);
    }
  });
  for (const img of Array.isArray(json.images) ? json.images : []) if (external(img?.uri)) resources[img.uri] = new Uint8Array(0);
  return { json, resources };
}

function describeReadError(e: NodeJS.ErrnoException, isGlb: boolean): string {
  if (e.code === 'ENOENT') return `external resource not found: ${e.path ?? e.message}`;
  if (e instanceof SyntaxError) return `not valid glTF JSON (${e.message})`;
  return `${isGlb ? 'GLB' : 'glTF'} unreadable: ${e.message}`;
}

/** Draco and meshopt decoders, created only when the file uses them (the Draco module costs ~100 ms). */
async function registerDecoders(io: NodeIO, jsonDoc: JSONDocument, file: string, options: ReadOptions): Promise<Record<string, unknown>> {
  const used = new Set<string>([...(jsonDoc.json.extensionsUsed ?? []), ...(jsonDoc.json.extensionsRequired ?? [])]);
  const supported = new Set(ALL_EXTENSIONS.map((e) => e.EXTENSION_NAME));
  for (const name of jsonDoc.json.extensionsRequired ?? []) {
    if (!supported.has(name)) throw new Error(`gltf: ${file}: requires extension ${name}, which compile-collision cannot read`);
  }
  const deps: Record<string, unknown> = {};
  if (used.has(EXT_DRACO)) {
    if (!options.decoders.draco) throw new Error(`gltf: ${file}: uses ${EXT_DRACO} (Draco compression) but no Draco decoder is available`);
    const { createDecoderModule } = await import('draco3dgltf');
    deps['draco3d.decoder'] = await createDecoderModule();
  }
  if (used.has(EXT_MESHOPT)) {
    if (!options.decoders.meshopt) throw new Error(`gltf: ${file}: uses ${EXT_MESHOPT} (meshopt compression) but no meshopt decoder is available`);
    const { MeshoptDecoder } = await import('meshoptimizer');
    await MeshoptDecoder.ready;
    deps['meshopt.decoder'] = MeshoptDecoder;
  }
  io.registerDependencies(deps);
  return deps;
}

function forwardLogger(file: string, logger: Logger): ILogger {
  const noop = (): void => {};
  return { debug: noop, info: noop, warn: (m: string) => logger.warn(`gltf: ${file}: ${m}`), error: (m: string) => logger.warn(`gltf: ${file}: ${m}`) };
}
