// A compile output's build settings, carried through to-gltf (scene extras sk8_compile, src/export/gltf.ts) and
// read back by `compile-collision --recorded-options` (issue #25, the round trip): the options in its manifest.json
// that change the written bytes, as CompileOptions. The layout the output had is forced (tiling 'objects' or
// 'cells'), because the budget counts objects and the GLB's objects are the output's resources, not the level's.
import { readRegularFile } from '../files.ts';
import { MAX_LEVEL_BYTES } from '../import/gltf.ts';
import type { CompileOptions, Manifest } from '../compile.ts';
import { CELL_SIZES, type CellSize } from '../tiling/cells.ts';
import type { RecordedBuild } from './gltf.ts';

const GLB_MAGIC = 0x46546c67, JSON_CHUNK = 0x4e4f534a;

/** A manifest's recorded build (what to-gltf writes into the scene's extras). header: the first resource's form. */
export function recordedBuild(manifest: Manifest, header?: { word08: number; body: Uint8Array }): RecordedBuild {
  return {
    options: manifest.options,
    layout: manifest.layout,
    ...(manifest.options.header === 'studio' && header ? { header: { word08: header.word08, body: Buffer.from(header.body).toString('hex') } } : {}),
  };
}

/** The sk8_compile extras of a .glb's (first or default) scene, or null when it has none. Throws `recorded: <file>: ...`. */
export function readRecordedBuild(path: string): RecordedBuild | null {
  let bytes: Buffer;
  try {
    bytes = Buffer.from(readRegularFile(path, MAX_LEVEL_BYTES));
  } catch (e) {
    throw new Error(`recorded: ${path}: ${(e as Error).message}`);
  }
  let json: any;
  try {
    if (bytes.length >= 20 && bytes.readUInt32LE(0) === GLB_MAGIC) {
      const len = bytes.readUInt32LE(12);
      if (bytes.readUInt32LE(16) !== JSON_CHUNK || 20 + len > bytes.length) throw new Error('no JSON chunk first');
      json = JSON.parse(bytes.subarray(20, 20 + len).toString('utf8'));
    } else json = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new Error(`recorded: ${path}: not a glTF whose JSON can be read: ${(e as Error).message}`);
  }
  const scene = json?.scenes?.[json.scene ?? 0];
  const rec = scene?.extras?.sk8_compile;
  if (rec === undefined) return null;
  if (typeof rec !== 'object' || rec === null || typeof rec.options !== 'object' || (rec.layout !== 'objects' && rec.layout !== 'cells')) {
    throw new Error(`recorded: ${path}: scene extras sk8_compile is not a recorded build (options, layout)`);
  }
  return rec as RecordedBuild;
}

/** CompileOptions that give the recorded output again (its layout forced; the Studio header from the record). */
export function recordedCompileOptions(rec: RecordedBuild, where: string): Partial<CompileOptions> {
  const o = rec.options;
  if (!CELL_SIZES.includes(o.cellSize as CellSize)) throw new Error(`recorded: ${where}: cell size ${o.cellSize} is not one of ${CELL_SIZES.join(', ')}`);
  if (o.seams !== 'level' && o.seams !== 'shape') throw new Error(`recorded: ${where}: seams ${JSON.stringify(o.seams)} is not level or shape`);
  const out: Partial<CompileOptions> = {
    cellSize: o.cellSize as CellSize,
    budget: o.budget,
    tiling: rec.layout,
    allowCustomSlots: o.allowCustomSlots === true,
    seams: o.seams,
    shapes: {
      ...(typeof o.shapes?.chordError === 'number' ? { chordError: o.shapes.chordError } : {}),
      hullParts: o.shapes?.hullParts === true, nativeShapes: o.shapes?.nativeShapes === 'experimental',
    },
  };
  if (o.header === 'studio') {
    if (!rec.header || !/^([0-9a-f]{2})*$/.test(rec.header.body)) throw new Error(`recorded: ${where}: Studio form recorded without its header words; give --studio-template`);
    out.encode = { header: { word08: rec.header.word08 >>> 0, body: Uint8Array.from(Buffer.from(rec.header.body, 'hex')) } };
  }
  return out;
}
