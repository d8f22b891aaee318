// Level files that are not glTF, named from their first bytes and extension, so that `compile-collision scene.blend`
// says what the file is and how to get a glTF from it instead of "not valid glTF JSON (Unexpected token 'B'…)".
// Only asked for a file that is not a GLB: a glTF's JSON (starting with "{") is never taken for one of these.

/** How to get a glTF out of any DCC tool: what every message below ends with. */
const EXPORT_HINT =
  'export the level as glTF 2.0 (.glb) and compile that: from Blender, File → Export → glTF 2.0 (docs/blender-export.md), ' +
  'or compile from inside Blender with the skate. collision add-on (docs/blender-addon.md)';

const ascii = (bytes: Uint8Array, n: number): string => String.fromCharCode(...bytes.subarray(0, n));

/** What a non-glTF level file is ("a Blender file (.blend)"), or undefined when it looks like none of them. */
export function foreignFormat(bytes: Uint8Array, file: string): string | undefined {
  const ext = /\.([^./\\]+)$/.exec(file)?.[1]?.toLowerCase() ?? '';
  const head = ascii(bytes, 64);
  // JSON (a .gltf under another name), or named .gltf/.glb: read as glTF, whose errors say what is wrong.
  if (head.trimStart().startsWith('{') || ext === 'gltf' || ext === 'glb') return undefined;
  if (head.startsWith('BLENDER') || ((ext === 'blend' || /^blend\d+$/.test(ext)) && (head.startsWith('\x28\xb5\x2f\xfd') || head.startsWith('\x1f\x8b')))) {
    return 'a Blender file (.blend)';
  }
  if (head.startsWith('Kaydara FBX Binary') || (ext === 'fbx' && /^\s*;\s*FBX/.test(head))) return 'an FBX file (.fbx)';
  if (ext === 'fbx') return 'an FBX file (.fbx)';
  if (ext === 'obj') return 'a Wavefront OBJ file (.obj)';
  if (ext === 'dae' || /<COLLADA/i.test(ascii(bytes, 512))) return 'a COLLADA file (.dae)';
  if (ext === 'stl') return 'an STL file (.stl)';
  if (ext === '3ds' || ext === 'max') return `a 3ds Max file (.${ext})`;
  if (ext === 'ma' || ext === 'mb') return `a Maya scene (.${ext})`;
  if (['usd', 'usda', 'usdc', 'usdz'].includes(ext) || head.startsWith('PXR-USDC') || head.startsWith('#usda')) return 'a USD file';
  if (ext === 'ply' || head.startsWith('ply\n') || head.startsWith('ply\r')) return 'a PLY file (.ply)';
  return undefined;
}

/** The error for a non-glTF level file (undefined when `foreignFormat` does not know it). */
export function foreignLevelMessage(bytes: Uint8Array, file: string): string | undefined {
  const what = foreignFormat(bytes, file);
  return what && `${what}, not glTF: compile-collision reads glTF 2.0 (.glb/.gltf), GTA V collision (.ybn/.ybn.xml) and forge archives (.forge); ${EXPORT_HINT}`;
}
