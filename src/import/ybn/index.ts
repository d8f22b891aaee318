// GTA V collision → collision objects: compiled .ybn resources (RSC7) and the .ybn.xml that CodeWalker and
// Sollumz export, both read into one bound model (model.ts) and built into the same ImportedObjects as a glTF.
// Spec: ../shared/spec/ybn-bounds.md. docs/ybn-ports.md.
import { basename } from 'node:path';
import { readRegularFile } from '../../files.ts';
import type { ImportResult, Logger } from '../../model.ts';
import type { WalkHooks } from '../hooks.ts';
import { SharedArena } from '../shared-arena.ts';
import { readBoundTree } from './bounds.ts';
import type { Bound } from './model.ts';
import { boundObjects } from './objects.ts';
import { CHORD_ERROR_RANGE, TESSELLATE_DEFAULTS } from '../../shapes/index.ts';
import { readRsc7, ResourceReader } from './rsc7.ts';
import { MAX_YBN_XML_BYTES, readBoundXml } from './xml.ts';
import { DETAIL_KEEPS, emptyYbnReport, type SkipReason, type YbnReport } from './flags.ts';
import { looksInterior, placementText, type Placement } from './ymap.ts';

export interface YbnOptions {
  /**
   * Compile hi@/ma@ files (the finer copies for vehicles and weapons) instead of refusing them, with their children
   * met only by vehicles, cover searches or tests (flags.ts DETAIL_KEEPS: every child of such a file), each listed
   * as kept. Default false.
   */
  detail: boolean;
  /**
   * Spheres, capsules, cylinders, discs and boxes are tessellated by the shape layer (src/shapes/) within this
   * distance of the true surface, metres. Range CHORD_ERROR_RANGE (0.0001..0.5); default 0.005 (the layer's).
   */
  chordError: number;
  /** --native-shapes (experimental): boxes as kind-2 parts instead of kind-5 meshes. Default false. */
  nativeShapes?: boolean;
  /**
   * Composite children that are not solid for a skater (flags.ts SKIP_REASONS: stairs, river, foliage, probes)
   * are skipped unless their reason is listed here (--ybn-keep). Default none.
   */
  keep: SkipReason[];
  /**
   * Placements from the .ymap.xml files of the port (ymap.ts), when any were given: `placements` are those naming
   * this file (each places a copy of its collision); none for an interior-looking file is a warning. Absent (no
   * .ymap.xml given): an interior-looking file compiles where it is, with a note that it is in interior space.
   */
  placement?: { ymaps: string[]; placements: Placement[] };
}

export const YBN_DEFAULTS: YbnOptions = { detail: false, chordError: TESSELLATE_DEFAULTS.chordError, keep: [] };

/** What importYbn returns: the import, and the skipped children and notes (manifest.json "ybn"). */
export type YbnImportResult = ImportResult & { ybn: YbnReport };

/** Largest .ybn / .ybn.xml read (bytes); the game's biggest YBN is a few MB, its XML a few tens. */
export const MAX_YBN_FILE_BYTES = 1 << 30;

/** `.ybn` or `.ybn.xml` (any case). */
export const isYbnPath = (file: string): boolean => /\.ybn(\.xml)?$/i.test(file);
export const isYbnXmlPath = (file: string): boolean => /\.ybn\.xml$/i.test(file);

/** The file name without `.ybn` / `.ybn.xml`: the prefix of every object name. */
export const ybnStem = (file: string): string => basename(file).replace(/\.ybn(\.xml)?$/i, '');

/** hi@ and ma@ files: finer collision copies for weapons and vehicles, not the map's walking/rolling bounds. */
export const isDetailCopy = (file: string): boolean => /^(hi|ma)@/i.test(basename(file));

/**
 * How near the origin (metres) a file's bounding box must come to be taken for interior space. An MLO interior's
 * collision is stored around the interior's own origin; static map collision is stored in world space, where the
 * map lies far from (0, 0, 0) (the four real samples' boxes: 1,069 to 2,597 m from it).
 */
export const INTERIOR_ORIGIN_REACH_M = 10;

/**
 * The root bound's box as text ("(−4, −6, −0.5) … (4, 6, 3.5)") when it comes within INTERIOR_ORIGIN_REACH_M of
 * the origin: collision stored in an interior's own space, whatever the file is called. Else undefined.
 */
export function interiorSpace(root: Bound): string | undefined {
  const lo = root.boxMin, hi = root.boxMax;
  if (![...lo, ...hi].every(Number.isFinite)) return undefined;
  const d = Math.hypot(...[0, 1, 2].map((k) => Math.max(lo[k], 0 - hi[k], 0)));
  if (d > INTERIOR_ORIGIN_REACH_M) return undefined;
  const v = (p: readonly number[]): string => `(${p.map((x) => +x.toPrecision(4)).join(', ')})`;
  return `${v(lo)} … ${v(hi)}`;
}

/** Reads a .ybn or .ybn.xml into the bound model (tests compare the two forms here). */
export function parseYbn(bytes: Uint8Array, file: string, warn: (m: string) => void): Bound {
  if (isYbnXmlPath(file)) return readBoundXml(new TextDecoder().decode(bytes), `ybn-xml: ${file}`, warn);
  const stage = `ybn: ${file}`;
  const res = readRsc7(bytes, stage, warn);
  return readBoundTree(new ResourceReader(res, stage), warn);
}

/** Reads, checks and builds a YBN level. Throws `ybn: <file>: ...` (or `ybn-xml: ...`) on bad input. */
export async function importYbn(file: string, options: YbnOptions, logger: Logger, hooks: WalkHooks = {}): Promise<YbnImportResult> {
  const stage = `${isYbnXmlPath(file) ? 'ybn-xml' : 'ybn'}: ${file}`;
  const { chordError } = options;
  const [lo, hi] = CHORD_ERROR_RANGE;
  if (!(chordError >= lo && chordError <= hi)) throw new Error(`${stage}: chord error ${chordError} m is outside ${lo} … ${hi} m`);
  if (isDetailCopy(file) && !options.detail) {
    throw new Error(`${stage}: a hi@/ma@ file is the detail copy for vehicles and weapons, not map collision; pass --ybn-detail to compile it`);
  }
  let bytes: Uint8Array;
  try {
    bytes = isYbnXmlPath(file)
      ? readRegularFile(file, MAX_YBN_XML_BYTES, 'error', 'a .ybn.xml may hold (MAX_YBN_XML_BYTES, 64 MiB: give the binary .ybn, which CodeWalker exports, for bigger)')
      : readRegularFile(file, MAX_YBN_FILE_BYTES);
  } catch (e) {
    throw new Error(`${stage}: ${(e as Error).message}`);
  }
  if (bytes.length === 0) throw new Error(`${stage}: empty file (0 bytes)`);
  const root = parseYbn(bytes, file, (m) => logger.warn(m));
  const report = emptyYbnReport();
  const placements = options.placement?.placements ?? [];
  const byContent = looksInterior(file) ? undefined : interiorSpace(root);
  if (placements.length === 0 && (looksInterior(file) || byContent)) {
    // The bounds alone are no proof (a level built around 0, 0, 0, or a world tile over the origin, looks the same):
    // they give a note, never a warning, so --strict does not fail a world-space file. An interior's name does.
    const what = byContent ? `its bounds ${byContent} lie around the origin, as MLO interior collision does (or a level built around 0, 0, 0)` : 'looks like MLO interior collision (v_*, *_col, *_int)';
    const why = `${basename(file)} ${what}, whose vertices are in the interior's own space, not the world's`;
    const unnamed = options.placement ? `no placement in ${options.placement.ymaps.join(', ')} names it (CMloInstanceDef archetypeName "${ybnStem(file)}")` : '';
    if (unnamed && !byContent) logger.warn(`${stage}: ${why}, and ${unnamed}; compiled in interior space`);
    else if (unnamed) report.notes.push(`${why}; ${unnamed}: compiled where it sits`);
    else report.notes.push(`${why}: compiled where it sits; give the .ymap or .ymap.xml that places it (--ymap, or beside it in a port folder) to put it where the game does`);
  }
  await hooks.beforeWalk?.();
  const { objects, stats } = boundObjects(root, {
    stem: ybnStem(file), stage, tessellation: { chordError }, nativeShapes: options.nativeShapes ?? false, logger, arena: new SharedArena(), onObject: hooks.onObject,
    keep: new Set(options.keep ?? []), detailKeep: new Set(isDetailCopy(file) ? DETAIL_KEEPS : []), file: basename(file), report, placements,
  });
  for (const p of placements) report.placedBy.push(placementText(p));
  return { objects, stats, inputBytes: [bytes], ybn: report };
}
