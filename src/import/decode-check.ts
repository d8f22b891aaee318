// Which compressed piece of a glTF failed to decode. @gltf-transform decodes every Draco primitive
// (KHR_draco_mesh_compression) and meshopt bufferView (EXT_meshopt_compression) while it builds the document and
// reports a failure with the decoder's bare text ("Decoding failure.", "Malformed buffer data: -2", "Invalid typed
// array length"); after such a failure, locateDecodeFailure decodes each piece again on its own, with the same
// decoders, and names the first one that fails (mesh, primitive, bufferView) and why. Only on the error path.
import type { JSONDocument } from '@gltf-transform/core';

type Json = Record<string, any>;

/** The parts of the draco3d decoder module used here (emscripten bindings). */
interface DracoModule {
  DecoderBuffer: new () => { Init(data: Uint8Array, length: number): void };
  Decoder: new () => {
    GetEncodedGeometryType(b: unknown): number;
    DecodeBufferToMesh(b: unknown, m: unknown): { ok(): boolean; error_msg(): string };
    GetAttributeByUniqueId(m: unknown, id: number): { ptr: number };
  };
  Mesh: new () => { ptr: number; num_points(): number; num_faces(): number };
  TRIANGULAR_MESH: number;
  destroy(o: unknown): void;
}

interface MeshoptDecoderLike {
  decodeGltfBuffer(target: Uint8Array, count: number, size: number, source: Uint8Array, mode: string, filter?: string): void;
}

function bufferData(json: Json, doc: JSONDocument, index: number): Uint8Array | undefined {
  const b = json.buffers?.[index];
  if (!b) return undefined;
  return b.uri === undefined ? doc.resources['@glb.bin'] : doc.resources[b.uri];
}

function viewData(json: Json, doc: JSONDocument, view: number): Uint8Array | undefined {
  const v = json.bufferViews?.[view];
  const data = v && bufferData(json, doc, v.buffer);
  if (!data) return undefined;
  const at = v.byteOffset ?? 0;
  return data.subarray(at, at + v.byteLength);
}

const meshName = (json: Json, mi: number): string => `mesh ${mi}${json.meshes[mi]?.name ? ` "${json.meshes[mi].name}"` : ''}`;

/** The first Draco primitive that does not decode (or whose decoded counts do not match its accessors). */
function dracoFailure(json: Json, doc: JSONDocument, M: DracoModule): string | undefined {
  for (const [mi, mesh] of (json.meshes ?? []).entries()) {
    for (const [pi, prim] of (mesh?.primitives ?? []).entries()) {
      const ext = prim?.extensions?.KHR_draco_mesh_compression;
      if (!ext) continue;
      const where = `${meshName(json, mi)} primitive ${pi}: KHR_draco_mesh_compression bufferView ${ext.bufferView}`;
      const data = viewData(json, doc, ext.bufferView);
      if (!data) return `${where}: no such bufferView or no data`;
      const buffer = new M.DecoderBuffer();
      const decoder = new M.Decoder();
      const dmesh = new M.Mesh();
      try {
        buffer.Init(data, data.length);
        const type = decoder.GetEncodedGeometryType(buffer);
        if (type !== M.TRIANGULAR_MESH) return `${where}: ${data.length} bytes are not Draco triangle-mesh data (geometry type ${type})`;
        const status = decoder.DecodeBufferToMesh(buffer, dmesh);
        if (!status.ok() || dmesh.ptr === 0) return `${where}: Draco decoding failed (${status.error_msg() || 'no message'})`;
        for (const [semantic, id] of Object.entries(ext.attributes ?? {})) {
          if (decoder.GetAttributeByUniqueId(dmesh, id as number).ptr === 0) return `${where}: ${semantic} is Draco attribute ${id}, which the data does not have`;
          const acc = json.accessors?.[prim.attributes?.[semantic]];
          if (acc && acc.count !== dmesh.num_points()) return `${where}: ${semantic} accessor ${prim.attributes[semantic]} has count ${acc.count}, the Draco data ${dmesh.num_points()} points`;
        }
        const idx = json.accessors?.[prim.indices];
        if (idx && idx.count !== dmesh.num_faces() * 3) return `${where}: indices accessor ${prim.indices} has count ${idx.count}, the Draco data ${dmesh.num_faces()} triangles (${dmesh.num_faces() * 3} indices)`;
      } catch (e) {
        return `${where}: ${(e as Error).message}`;
      } finally {
        M.destroy(dmesh);
        M.destroy(decoder);
        M.destroy(buffer);
      }
    }
  }
  return undefined;
}

/** Who reads a bufferView, for the message: `mesh 0 "ground" primitive 0 POSITION`. */
function usersOf(json: Json, view: number): string {
  const accessors = new Set((json.accessors ?? []).flatMap((a: Json, i: number) => (a?.bufferView === view ? [i] : [])));
  const users: string[] = [];
  (json.meshes ?? []).forEach((m: Json, mi: number) =>
    (m?.primitives ?? []).forEach((p: Json, pi: number) => {
      for (const [sem, a] of Object.entries(p?.attributes ?? {})) if (accessors.has(a)) users.push(`${meshName(json, mi)} primitive ${pi} ${sem}`);
      if (accessors.has(p?.indices)) users.push(`${meshName(json, mi)} primitive ${pi} indices`);
    }),
  );
  return users.length ? `, read by ${users.slice(0, 3).join(', ')}${users.length > 3 ? ` and ${users.length - 3} more` : ''}` : '';
}

/** The first meshopt-compressed bufferView that does not decode. */
function meshoptFailure(json: Json, doc: JSONDocument, decoder: MeshoptDecoderLike): string | undefined {
  for (const [vi, view] of (json.bufferViews ?? []).entries()) {
    const ext = view?.extensions?.EXT_meshopt_compression;
    if (!ext) continue;
    const where = `bufferView ${vi} (EXT_meshopt_compression ${ext.mode} ${ext.filter ?? 'NONE'}, ${ext.count} × ${ext.byteStride} bytes${usersOf(json, vi)})`;
    const src = bufferData(json, doc, ext.buffer);
    const at = ext.byteOffset ?? 0;
    if (!src || at + ext.byteLength > src.length) return `${where}: source bytes ${at}..${at + ext.byteLength} are not in buffer ${ext.buffer}`;
    const size = ext.count * ext.byteStride;
    if (!(Number.isSafeInteger(size) && size >= 0 && size <= view.byteLength)) return `${where}: decodes to ${size} bytes, the bufferView has ${view.byteLength}`;
    try {
      decoder.decodeGltfBuffer(new Uint8Array(size), ext.count, ext.byteStride, src.subarray(at, at + ext.byteLength), ext.mode, ext.filter);
    } catch (e) {
      return `${where}: ${(e as Error).message}`;
    }
  }
  return undefined;
}

/** After a failed document build: the compressed piece that fails on its own, described, or undefined. */
export function locateDecodeFailure(doc: JSONDocument, deps: Record<string, unknown>): string | undefined {
  const json = doc.json as Json;
  const draco = deps['draco3d.decoder'] as DracoModule | undefined;
  const meshopt = deps['meshopt.decoder'] as MeshoptDecoderLike | undefined;
  return (meshopt && meshoptFailure(json, doc, meshopt)) || (draco && dracoFailure(json, doc, draco)) || undefined;
}
