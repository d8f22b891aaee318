// A compile output's build settings, carried through to-gltf (scene extras sk8_compile, src/export/gltf.ts) and
// read back by `compile-collision --recorded-options` (the to-gltf round trip): the options in its manifest.json
// that change the written bytes, as CompileOptions. The layout the output had is forced (tiling 'objects' or
// 'cells'), because the budget counts objects and the GLB's objects are the output's resources, not the level's.
import { readRegularFile } from '../files.ts';
import { MAX_LEVEL_BYTES } from '../import/gltf.ts';
import type { CompileOptions } from '../build/options.ts';
import type { Manifest } from '../build/manifest.ts';
import { CELL_SIZES, type CellSize } from '../tiling/cells.ts';
import { SEAM_CARRY_STRIDE } from '../geometry/seams.ts';
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
    // A record from before the density cut was made without it.
    grindDensity: o.grindDensity === undefined ? 'off' : grindDensityOf(o.grindDensity, where),
    shapes: {
      ...(typeof o.shapes?.chordError === 'number' ? { chordError: o.shapes.chordError } : {}),
      hullParts: o.shapes?.hullParts === true, nativeShapes: o.shapes?.nativeShapes === 'experimental',
    },
  };
  const carried = seamValuesOf(rec, where);
  if (carried.length) out.seamValues = carried;
  if (o.header === 'studio') {
    if (!rec.header || !/^([0-9a-f]{2})*$/.test(rec.header.body)) throw new Error(`recorded: ${where}: Studio form recorded without its header words; give --studio-template`);
    out.encode = { header: { word08: rec.header.word08 >>> 0, body: Uint8Array.from(Buffer.from(rec.header.body, 'hex')) } };
  }
  return out;
}

/** A recorded density target, checked: 'off' or a number in 1 … 1e9. */
function grindDensityOf(d: unknown, where: string): number | 'off' {
  if (d === 'off' || (typeof d === 'number' && Number.isFinite(d) && d >= 1 && d <= 1e9)) return d;
  throw new Error(`recorded: ${where}: grindDensity ${JSON.stringify(d)} is not off or 1…1e9`);
}

/** Most joins a record may carry (a 16M-triangle level joins some 800,000 corners across its cuts). */
export const MAX_CARRIED_SEAMS = 4_000_000;

/** The record's carried joins (RecordedBuild.seamValues), checked: whole joins of finite numbers, values in 0…1. */
function seamValuesOf(rec: RecordedBuild, where: string): number[] {
  const v = rec.seamValues;
  if (v === undefined) return [];
  const bad = (why: string): Error => new Error(`recorded: ${where}: sk8_compile.seamValues ${why}`);
  if (!Array.isArray(v)) throw bad('is not a list of numbers');
  if (v.length % SEAM_CARRY_STRIDE !== 0) throw bad(`holds ${v.length} numbers, not ${SEAM_CARRY_STRIDE} a join`);
  if (v.length / SEAM_CARRY_STRIDE > MAX_CARRIED_SEAMS) throw bad(`holds ${v.length / SEAM_CARRY_STRIDE} joins, more than ${MAX_CARRIED_SEAMS}`);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw bad(`[${i}] is ${JSON.stringify(x)}, not a finite number`);
    if (i % SEAM_CARRY_STRIDE === SEAM_CARRY_STRIDE - 1 && (x < 0 || x > 1)) throw bad(`[${i}]: convex value ${x} outside 0…1`);
  }
  return v;
}
