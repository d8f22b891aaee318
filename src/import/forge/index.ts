// Forge levels (Shaun White Skateboarding, Ubisoft's Scimitar engine) → collision objects: a .forge archive
// (container.ts) or a folder of records extracted from one, both read by the same record reader (records.ts) and
// placed by level.ts. Specs: ../shared/spec/forge-shapes.md, forge-entities.md; container facts: docs/forge.md.
// No real forge file was available to test: every fixture is written from the specs and the public readers.
import { readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { readRegularFile } from '../../files.ts';
import type { ImportedObject, ImportResult, Logger } from '../../model.ts';
import { CHORD_ERROR_RANGE, TESSELLATE_DEFAULTS } from '../../shapes/index.ts';
import type { WalkHooks } from '../hooks.ts';
import { SharedArena } from '../shared-arena.ts';
import { readForge } from './container.ts';
import { buildLevel, type ForgeReport, type LevelRecord } from './level.ts';
import { readForgeMaterialMap, type ForgeMaterialMap } from './materials.ts';
import { FORGE_TYPES, forgeTypeName, hasObjectHeader, READ_TYPES, type EntityProfile } from './records.ts';

export interface ForgeOptions {
  /** Primitive tessellation within this distance of the true surface, metres: CHORD_ERROR_RANGE (0.0001..0.5), default 0.005. */
  chordError: number;
  /** --native-shapes (experimental): boxes as kind-2 parts. Default false. */
  nativeShapes?: boolean;
  /** --forge-materials: a JSON file of material name or id → skate. surface. Default none (the keyword table only). */
  materials?: string;
}

export const FORGE_DEFAULTS: ForgeOptions = { chordError: TESSELLATE_DEFAULTS.chordError };

/** Largest .forge read (bytes); Shaun White Skateboarding's archives are hundreds of MB. */
export const MAX_FORGE_FILE_BYTES = 2 ** 31 - 1;
/** Largest single extracted record file, and most files walked in an extracted folder. */
export const MAX_RECORD_FILE_BYTES = 64 << 20;
export const MAX_FOLDER_FILES = 1_000_000;

export const isForgePath = (file: string): boolean => /\.forge$/i.test(file);
export const forgeStem = (file: string): string => basename(file).replace(/\.forge$/i, '');

/** Whether `path` is a directory (an extracted forge folder is the only directory a level can be). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Extracted records as ACExplorer writes them (docs/forge.md "Extracted folders"):
 * `…/<data file>/<TYPE>/<name>.<ext>`, TYPE the record's type id in 8 hex digits, the file the record's body. The
 * id is the name when it is 8 or 16 hex digits (the extractor's name for a record without one), else the SWS
 * Entity's own id field or the id of an AC2-era object header (0x01, u32 id, u32 class = the record's type); a
 * record without any cannot be referenced (negative placeholder ids).
 */
export function readExtractedFolder(dir: string, stage: string): { records: LevelRecord[]; bytes: Uint8Array[] } {
  const files: string[] = [];
  const walk = (d: string, depth: number): void => {
    if (depth > 16) throw new Error(`${stage}: ${d}: folders nest deeper than 16`);
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.isFile() && /^[0-9a-f]{8}$/i.test(basename(d))) {
        files.push(p);
        if (files.length > MAX_FOLDER_FILES) throw new Error(`${stage}: more than ${MAX_FOLDER_FILES} record files`);
      }
    }
  };
  walk(dir, 0);
  const records: LevelRecord[] = [];
  const bytes: Uint8Array[] = [];
  let placeholder = -1n;
  for (const f of files) {
    const type = parseInt(basename(join(f, '..')), 16) >>> 0;
    let body: Uint8Array;
    try {
      body = readRegularFile(f, MAX_RECORD_FILE_BYTES);
    } catch (e) {
      throw new Error(`${stage}: ${relative(dir, f)}: ${(e as Error).message}`);
    }
    bytes.push(body);
    const name = basename(f).replace(/\.[^.]*$/, '');
    let id: bigint;
    if (/^([0-9a-f]{8}|[0-9a-f]{16})$/i.test(name)) id = BigInt(`0x${name}`);
    else if ((type === FORGE_TYPES.Entity && body.length >= 9) || hasObjectHeader(type, body)) id = BigInt(new DataView(body.buffer, body.byteOffset).getUint32(1, true));
    else id = placeholder--;
    records.push({ id, type, name, body, source: relative(dir, f) });
  }
  return { records, bytes };
}

/** Reads a .forge or an extracted folder and builds its collision objects. Throws `forge: <file>: ...` on bad input. */
export async function importForge(input: string, options: ForgeOptions, logger: Logger, hooks: WalkHooks = {}): Promise<ImportResult & { forge: ForgeReport }> {
  const stage = `forge: ${input}`;
  const [lo, hi] = CHORD_ERROR_RANGE;
  if (!(options.chordError >= lo && options.chordError <= hi)) throw new Error(`${stage}: chord error ${options.chordError} m is outside ${lo} … ${hi} m`);
  const materials: ForgeMaterialMap = options.materials ? readForgeMaterialMap(options.materials) : {};
  let read: ForgeRead;
  if (isDirectory(input)) {
    const r = readExtractedFolder(input, stage);
    if (r.records.length === 0) throw new Error(`${stage}: no extracted forge records (files in folders named by an 8-hex-digit type id, as ACExplorer writes them)`);
    read = { records: r.records, inputBytes: r.bytes, profile: 'sws', refused: [], skipped: 0, repeated: 0 };
  } else {
    let bytes: Uint8Array;
    try {
      bytes = readRegularFile(input, MAX_FORGE_FILE_BYTES);
    } catch (e) {
      throw new Error(`${stage}: ${(e as Error).message}`);
    }
    read = readForgeRecords(bytes, stage, logger);
  }
  await hooks.beforeWalk?.();
  const stem = input.replace(/[/\\]+$/, '').split(/[/\\]/).pop()!.replace(/\.forge$/i, '');
  return placeForgeLevel(read, { stem, stage, chordError: options.chordError, nativeShapes: options.nativeShapes ?? false, materials, logger, onObject: hooks.onObject });
}

/** What a .forge (or an extracted folder) holds for the level builder. */
export interface ForgeRead {
  records: LevelRecord[];
  inputBytes: Uint8Array[];
  profile: EntityProfile;
  /** Why each refused data file was refused. */
  refused: string[];
  skipped: number;
  repeated: number;
  /** Records of types the level does not read, counted by type id, not listed. */
  counted?: Map<number, number>;
}

/** A .forge's bytes → the records the level builder reads. Throws `<stage>: ...` on bad input. */
export function readForgeRecords(bytes: Uint8Array, stage: string, logger: Logger): ForgeRead {
  if (bytes.length === 0) throw new Error(`${stage}: empty file (0 bytes)`);
  // Only the bodies the level builder reads are held; the others (textures, meshes, …) are counted by type.
  // CollisionMaterials and MeshShapes are listed by name and id (no body); other types are only counted.
  const c = readForge(bytes, stage, (m) => logger.warn(m), (t) => READ_TYPES.has(t) || (t === FORGE_TYPES.CollisionMaterial || t === FORGE_TYPES.MeshShape ? 'entry' : false));
  if (c.refused.length) {
    logger.warn(`${stage}: ${c.refused.length} data file(s) not read, e.g. ${c.refused.slice(0, 3).map((r) => r.why).join('; ')}`);
  }
  if (c.dataFiles.length === 0) throw new Error(`${stage}: no data file could be read (${c.refused.length} refused${c.refused.length ? `; the first: ${c.refused[0].why}` : ''})`);
  return {
    records: c.dataFiles.flatMap((d) => {
      const source = `data file "${d.entry.name}"`;
      return d.records.map((r) => Object.assign(r, { source }));
    }),
    counted: c.counted,
    inputBytes: [bytes],
    profile: c.version === 27 ? 'generic' : 'sws',
    refused: c.refused.map((r) => r.why),
    skipped: c.skipped.length,
    repeated: c.repeated.length,
  };
}

/** Read records → placed collision objects and the report; a level that places nothing throws, saying why. */
export function placeForgeLevel(
  read: ForgeRead,
  o: { stem: string; stage: string; chordError: number; nativeShapes: boolean; materials: ForgeMaterialMap; logger: Logger; onObject?: (obj: ImportedObject) => void; arena?: SharedArena },
): ImportResult & { forge: ForgeReport } {
  const built = buildLevel(read.records, {
    inputBytes: read.inputBytes.reduce((n, b) => n + b.length, 0),
    stem: o.stem, stage: o.stage, profile: read.profile, tessellation: { chordError: o.chordError }, nativeShapes: o.nativeShapes, materials: o.materials, logger: o.logger, arena: o.arena ?? new SharedArena(), onObject: o.onObject,
  });
  // Data files count with the records: a refused one hides every record inside it.
  if (read.refused.length) built.report.records.refused['data file'] = read.refused.length;
  if (read.skipped) built.report.records.skipped['data file (not a container)'] = read.skipped;
  if (read.repeated) built.report.records.skipped['data file (listed again)'] = read.repeated;
  for (const [t, n] of read.counted ?? []) built.report.records.skipped[forgeTypeName(t)] = (built.report.records.skipped[forgeTypeName(t)] ?? 0) + n;
  if (built.objects.length === 0) throw new Error(`${o.stage}: no shape placed (${nothingPlaced(built.report, read.refused, built.refusalExamples)})`);
  return { objects: built.objects, stats: built.stats, inputBytes: read.inputBytes, forge: built.report };
}

/** Why a level placed nothing: the counts, then the first reason a data file or a record was refused. */
function nothingPlaced(r: ForgeReport, dataFiles: string[], records: string[]): string {
  const sum = (m: Record<string, number>): number => Object.values(m).reduce((a, v) => a + v, 0);
  const read = r.records.read;
  const parts = [`${sum(read)} records read (${read.Entity ?? 0} entities), ${sum(r.records.refused)} refused, ${sum(r.records.skipped)} skipped; ${r.unplacedShapes} shapes unplaced`];
  if (dataFiles.length) parts.push(`the first data file refused: ${dataFiles[0]}`);
  if (records.length) parts.push(`the first record refused: ${records[0]}`);
  if (!dataFiles.length && !records.length) parts.push((read.Entity ?? 0) === 0 ? 'no Entity was read, and only entities place shapes' : 'no exactly-read Entity links a shape');
  return parts.join('; ');
}
