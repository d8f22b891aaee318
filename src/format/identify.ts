// What a file handed to inspect/verify/diff is, from its first bytes, so a level or a stray file is named plainly
// instead of failing deep in the reader ("version: expected 2, found 1179937895" for a GLB). A PhysicsResource
// starts with version 2 and magic 0x69af7015 (../shared/spec/physics-resource.md, "PhysicsResource").
import { MAGIC, VERSION } from './types.ts';

export type FileKind = 'physics' | 'glb' | 'gltf' | 'ybn' | 'json' | 'empty' | 'other';

const GLB_MAGIC = 0x46546c67; // "glTF"
const RSC7_MAGIC = 0x37435352; // "RSC7": a GTA V resource such as .ybn

export function identify(bytes: Uint8Array, name = ''): FileKind {
  if (bytes.length === 0) return 'empty';
  const word = (at: number): number | undefined => (bytes.length >= at + 4 ? new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true) : undefined);
  // Either word right: a PhysicsResource, maybe damaged; the reader then names what is wrong.
  if (word(0) === VERSION || word(4) === MAGIC) return 'physics';
  if (word(0) === GLB_MAGIC) return 'glb';
  if (word(0) === RSC7_MAGIC || /\.ybn(\.xml)?$/i.test(name)) return 'ybn';
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).trimStart();
  if (head.startsWith('{')) return /"asset"\s*:/.test(head) || /\.gltf$/i.test(name) ? 'gltf' : 'json';
  return 'other';
}

/** Why a file that is not a PhysicsResource cannot be read as one, in words. */
export function notPhysics(kind: Exclude<FileKind, 'physics'>, bytes: number): string {
  switch (kind) {
    case 'glb': return 'a glTF binary (.glb), not a PhysicsResource: compile it with compile-collision';
    case 'gltf': return 'a glTF level (.gltf JSON), not a PhysicsResource: compile it with compile-collision';
    case 'ybn': return 'GTA V collision (.ybn), not a PhysicsResource: compile it with compile-collision';
    case 'json': return 'a JSON file, not a PhysicsResource';
    case 'empty': return 'an empty file, not a PhysicsResource';
    case 'other': return `not a PhysicsResource (${bytes} bytes; a PhysicsResource starts with version 2 and the magic 0x69af7015)`;
  }
}
