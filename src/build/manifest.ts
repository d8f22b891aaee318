// manifest.json: what one build wrote and why (docs/cli.md "Compiling a level"): tool version, input digest, the
// options, per resource its file, cell, bounds and counts, the validation report, seams, warnings, and the files
// the next build of the directory may remove (src/output/ownership.ts). Built here from the stages' results; compile.ts
// only calls makeManifest.
import { basename } from 'node:path';
import type { ForgeImportReport, ImportedObject } from '../model.ts';
import { LOCATIONS_CAP, type MeshReport } from '../import/validate.ts';
import type { SeamMode, SeamReport } from '../tiling/seams.ts';
import type { BuiltResource } from '../tiling/build.ts';
import { firstOfEachFile } from '../tiling/unique.ts';
import { TOOL_VERSION } from '../version.ts';
import { GRIND_CREASE_DEGREES, GRIND_DENSITY_LIMIT } from '../format/grind-map.ts';
import type { FileCheck } from '../output/file-write.ts';
import type { SkipReason, YbnReport } from '../import/ybn/flags.ts';
import type { RideReport } from '../ride/index.ts';

export const STREAMING_PLAN_FILE = 'streaming-plan.json';

/** reskate_cli's statistic names (authoring-notes.md "Where our compiler sits"). */
export interface Totals {
  'collision-objects': number;
  'collision-triangles': number;
  'collision-resources': number;
  'collision-parts': number;
  'unique-collision-files': number;
  'unique-collision-triangles': number;
  /** Edges the game can grind in the written parts (src/format/grind-map.ts), and their length in metres. */
  'grindable-edges': number;
  'grindable-metres': number;
}

export interface ManifestResource {
  name: string;
  file: string;
  cell: [number, number] | null;
  bounds: { min: number[]; max: number[] };
  parts: number;
  shapes: number;
  vertices: number;
  faces: number;
  sourceObjects: string[];
  materials: number[];
  'grindable-edges': number;
  'grindable-metres': number;
}

/** A written part over the game's density limit: its creases get no edge analysis in game. */
export interface DensePartFinding {
  resource: string;
  part: number;
  /** Half-edges per metre of the part's bbox diagonal. */
  density: number;
  faces: number;
  /** Creases at or over the crease angle it holds, which the game will not analyse (0: nothing to grind is lost). */
  creases: number;
  material: number;
  /** World bounds of the part and their middle. */
  at: number[];
  bounds: { min: number[]; max: number[] };
  sourceObjects: string[];
}

/** The grind map's rules and findings (docs/validation.md "Grind map"). */
export interface GrindReport {
  creaseDegrees: number;
  densityLimit: number;
  /** Creases ≥ the crease angle on parts that cannot grind them (over the limit, or an excluding surface). */
  lostCreases: number;
  denseParts: DensePartFinding[];
  /** Parts the density cut added (pieces count as geometries) and pieces it left over its target (too small to cut). */
  cut: { added: number; dense: number };
  /** --simplify: each object group simplified (src/build/grind.ts SimplifiedEntry: triangles, density, error reached). */
  simplified?: { object: string; material: number; triangles: [number, number]; density: [number, number]; error: number }[];
}

export interface StreamingPlan {
  cellSize: number;
  budget: number;
  geometries: number;
  cells: { name: string; cell: [number, number]; geometries: number }[];
}

export interface Manifest {
  tool: { name: string; version: string };
  input: { file: string; sha256: string };
  options: {
    scene: string | null; cellSize: number; budget: number; tiling: string; allowCustomSlots: boolean; header: 'game' | 'studio'; seams: SeamMode;
    /** The density cut's target (half-edges per metre), or 'off' (Studio's writer). */
    grindDensity?: number | 'off';
    /** --simplify: the absolute error allowed simplifying parts too dense to grind, m; absent when off. */
    simplify?: number;
    /** Shape modes' settings: chord error (m), hull parts, native kinds ('experimental' when on). */
    shapes: { chordError: number; hullParts: boolean; nativeShapes: false | 'experimental' };
  };
  layout: 'objects' | 'cells';
  geometries: number;
  totals: Totals;
  resources: ManifestResource[];
  validation: Record<string, Partial<MeshReport>>;
  streamingPlan: StreamingPlan | null;
  /** Forge inputs only: records read / refused / skipped by class, unplaced shapes, objects by entity name. */
  forge?: ForgeImportReport;
  /** Open-edge corners: the level as authored, joined across the compiler's cuts, written (src/tiling/seams.ts). */
  seams: SeamReport;
  /** Where the written collision can be ground (src/format/grind-map.ts); absent in a dry run. */
  grind?: GrindReport;
  warnings: string[];
  /** Object name → the input's name for it, for every object the compiler renamed (cleaned, made unique, a grind prism); absent when none was. */
  sourceNames?: Record<string, string>;
  /** Every file the build wrote besides this manifest: what the next build of this directory may remove. */
  files: string[];
  /** Each listed file's size and CRC-32 as published (src/output/staging.ts): a rebuild removes a listed file only if it still matches. */
  checks?: Record<string, FileCheck>;
  /**
   * GTA V inputs only (docs/ybn-ports.md): --ybn-keep as given; composite children not compiled because they are
   * not solid for a skater, per reason (flags.ts SKIP_REASONS) and each by file, child path and flag words; those kept (keptChildren); notes.
   */
  ybn?: YbnReport & { keep: SkipReason[] };
  /** compile --ride only: the ride check over the written files (src/ride/, docs/ride.md); findings listed up to RIDE_LISTED. */
  ride?: RideReport & { listed: number };
}

export function makeManifest(
  input: string, sha256: string, options: Manifest['options'], layout: 'objects' | 'cells', built: BuiltResource[],
  objects: ImportedObject[], validation: Record<string, Partial<MeshReport>>, streamingPlan: StreamingPlan | null, warnings: string[], files: string[],
  seams: SeamReport, ybn?: Manifest['ybn'],
): Manifest {
  const first = firstOfEachFile(built);
  const unique = built.filter((_, i) => first[i]);
  const totals: Totals = {
    'collision-objects': objects.length,
    'collision-triangles': built.reduce((s, r) => s + r.faces, 0),
    'collision-resources': built.length,
    'collision-parts': built.reduce((s, r) => s + r.parts, 0),
    'unique-collision-files': unique.length,
    'unique-collision-triangles': unique.reduce((s, r) => s + r.faces, 0),
    'grindable-edges': built.reduce((s, r) => s + (r.grind?.edges ?? 0), 0),
    'grindable-metres': metres(built.reduce((s, r) => s + (r.grind?.metres ?? 0), 0)),
  };
  return {
    tool: { name: 'compile-collision', version: TOOL_VERSION },
    input: { file: basename(input), sha256 },
    options,
    layout,
    geometries: built.reduce((s, r) => s + r.shapes, 0),
    totals,
    resources: built.map((r) => ({
      name: r.name, file: r.file, cell: r.cell, bounds: r.bounds, parts: r.parts, shapes: r.shapes,
      vertices: r.vertices, faces: r.faces, sourceObjects: r.sources, materials: r.materials,
      'grindable-edges': r.grind?.edges ?? 0, 'grindable-metres': metres(r.grind?.metres ?? 0),
    })),
    validation: listedFirst(validation),
    streamingPlan,
    seams,
    ...(built.length ? { grind: grindReport(built) } : {}),
    warnings,
    ...sourceNamesOf(objects),
    files,
    ...(ybn ? { ybn } : {}),
  };
}

function sourceNamesOf(objects: ImportedObject[]): { sourceNames?: Record<string, string> } {
  const renamed = objects.filter((o) => o.sourceName !== undefined && o.sourceName !== o.name);
  return renamed.length ? { sourceNames: Object.fromEntries(renamed.map((o) => [o.name, o.sourceName!])) } : {};
}

/** A place to the millimetre. */
const mm = (m: number): number => Math.round(m * 1000) / 1000;

/** Metres to the centimetre. */
const metres = (m: number): number => Math.round(m * 100) / 100;

/** The grind map's findings over the built resources, in resource then part order. */
export function grindReport(built: BuiltResource[]): GrindReport {
  const denseParts: DensePartFinding[] = [];
  let lostCreases = 0;
  for (const r of built) {
    if (!r.grind) continue;
    lostCreases += r.grind.lostCreases;
    for (const d of r.grind.dense) {
      denseParts.push({
        resource: r.name, part: d.part, density: Math.round(d.density), faces: d.faces, creases: d.creases, material: d.material,
        at: d.min.map((v, j) => mm((v + d.max[j]) / 2)), bounds: { min: d.min.map(mm), max: d.max.map(mm) }, sourceObjects: r.sources,
      });
    }
  }
  const cut = { added: built.reduce((n, r) => n + (r.densityCut?.added ?? 0), 0), dense: built.reduce((n, r) => n + (r.densityCut?.dense ?? 0), 0) };
  return { creaseDegrees: GRIND_CREASE_DEGREES, densityLimit: GRIND_DENSITY_LIMIT, lostCreases, denseParts, cut };
}

/**
 * The validation as the manifest lists it: every count, and the first LOCATIONS_CAP locations of each kind per
 * object (the build keeps every warn-level one; report.html places them all).
 */
export function listedFirst(validation: Record<string, Partial<MeshReport>>): Record<string, Partial<MeshReport>> {
  const out: Record<string, Partial<MeshReport>> = {};
  for (const [name, v] of Object.entries(validation)) {
    if (!v.locations) {
      out[name] = v;
      continue;
    }
    const locations: MeshReport['locations'] = {};
    for (const [k, list] of Object.entries(v.locations)) locations[k as keyof MeshReport['locations']] = list!.length > LOCATIONS_CAP ? list!.slice(0, LOCATIONS_CAP) : list;
    out[name] = { ...v, locations };
  }
  return out;
}
