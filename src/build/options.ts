// compileLevel's settings, hooks and result (src/build/compile.ts runs the build). Settings are plain data, each
// with its unit, range and default; COMPILE_DEFAULTS holds the defaults; and the options as the manifest records
// them (manifestOptions, ybnManifest).
import type { ImportStats, Logger } from '../model.ts';
import { IMPORT_DEFAULTS } from '../import/gltf.ts';
import { YBN_DEFAULTS, type YbnOptions } from '../import/ybn/index.ts';
import type { ReportInput } from '../report/index.ts';
import { GEOMETRY_BUDGET } from '../tiling/budget.ts';
import type { EncodeOptions } from '../tiling/build.ts';
import { DEFAULT_SEAMS, type SeamMode } from '../tiling/seams.ts';
import { DEFAULT_CELL_SIZE, type CellSize } from '../tiling/cells.ts';
import type { ThreadPool } from '../tiling/pool.ts';
import { SHAPE_DEFAULTS, type ShapeOptions } from '../shapes/build.ts';
import type { YbnReport } from '../import/ybn/flags.ts';
import { isStudioForm } from '../import/studio-template.ts';
import { GRIND_DENSITY_TARGET } from '../geometry/grind-cut.ts';
import type { PublishStep } from '../output/staging.ts';
import type { CompileSession } from './session.ts';
import type { Manifest } from './manifest.ts';

export interface CompileOptions {
  /** Output directory; default `<input dir>/<input stem>.collision`. */
  out?: string;
  /** Scene name or index; default the file's default scene. */
  scene?: string;
  /** collision_area cell edge in metres: 50, 100 (default) or 200. */
  cellSize: CellSize;
  /** Encoding threads, the main thread included (1 = no workers), or 'auto' (by work size, at most one per core). Never changes the output. */
  workers: number | 'auto';
  /** Accept material slots ≥ 116. Default false. */
  allowCustomSlots: boolean;
  /** Geometry budget: at or above it, collision is merged into cells. Default 4,003 (Studio's). */
  budget: number;
  /** 'auto' (by budget, default), 'objects' (never tile) or 'cells' (always tile). */
  tiling: 'auto' | 'objects' | 'cells';
  /** Passed to the encoder (split rule, header form). */
  encode?: EncodeOptions;
  /**
   * A PhysicsResource written by ReSkate Studio: its header word 0x08 and 0x4c-byte body are copied into every
   * output (Studio's form). Without it, outputs use the game's form (word 0, no body; docs/format-decisions.md).
   */
  studioTemplate?: string;
  /** Write report.html (src/report/) into the output: the written collision in a browser. Default false. */
  report: boolean;
  /** Decoders to register (tests switch them off). */
  decoders: { draco: boolean; meshopt: boolean };
  /**
   * Incremental cache of built resources (src/build/cache.ts): a directory, false for none, or undefined for the default
   * `<out>/.cache` (moved with the output on each publish). Never changes the output, only the time.
   */
  cache?: string | false;
  /**
   * Edge data where the compiler cuts the level (parts, u16 split, resources, cells): 'level' (default) gives a
   * cut corner the edge data of its face across the cut (src/geometry/seams.ts); 'shape' keeps each shape's own
   * (open at every cut: the reference encoder's bytes).
   */
  seams: SeamMode;
  /**
   * The density cut (src/geometry/grind-cut.ts): a part over this many half-edges per metre of its bbox diagonal is
   * cut into parts at or under it, creases kept inside, so the game analyses its edges (1 … 1e9; default
   * GRIND_DENSITY_TARGET, 800, under Studio's warning at 900). 'off': Studio's writer, one part and the warning.
   */
  grindDensity: number | 'off';
  /**
   * --simplify METRES (src/geometry/simplify.ts): each mesh object's material group over the game's density limit
   * simplified with meshoptimizer within this absolute error (0.0001 … 1 m), open borders and grind creases locked;
   * groups under the limit are never changed. Default undefined: off.
   */
  simplify?: number;
  /**
   * Convex values a round trip carries for joins across cuts (`--recorded-options` reads them from to-gltf's
   * sk8_compile): SEAM_CARRY_STRIDE numbers a join (its edge's ends, world f32 x y z twice, then the value). A join
   * matched within SEAM_CARRY_ULPS of its carried value takes it (src/geometry/seams.ts carrySeamValues). Default none.
   */
  seamValues?: number[];
  /** Read buffer URIs that resolve outside the glTF's directory. Default false (refused, naming the buffer). */
  allowOutsideUris: boolean;
  /** Shape modes: chord error, --native-shapes (experimental), --hull-parts (src/shapes/build.ts SHAPE_DEFAULTS). */
  shapes?: Partial<ShapeOptions>;
  /**
   * GTA V inputs (.ybn, .ybn.xml): whether hi@/ma@ detail copies compile, and which non-solid composite children
   * are kept anyway (`keep`: src/import/ybn/flags.ts SKIP_REASONS; default none), and the .ymap.xml placements of
   * this file (`placement`: src/import/ybn/ymap.ts). Their primitives use `shapes.chordError`.
   */
  ybn: Pick<YbnOptions, 'detail'> & Partial<Pick<YbnOptions, 'keep' | 'placement'>>;
  /**
   * Forge inputs (.forge, or a folder of extracted records; src/import/forge/): `materials`, a JSON file of
   * CollisionMaterial name or id → skate. surface (--forge-materials). Their primitives use `shapes.chordError`.
   */
  forge?: { materials?: string };
  /**
   * Publish even when the geometries exceed ReSkate's pool (RESKATE_POOL, 40,000), which faults the game. Default
   * false: such a build is an error and nothing is written.
   */
  allowPoolOverflow: boolean;
  /** Any warning fails the build before anything is written. Default false. */
  strict: boolean;
  /** Import, validate and plan only: nothing is encoded and the output is not touched; `dryRun` in the result says what would be written. */
  dryRun: boolean;
  /**
   * How long a build waits for another build of the same output directory to finish (the `.K.lock` beside it,
   * src/output/lock.ts lockOutput), ms: 0 … 86,400,000; default LOCK_WAIT_MS (120,000). Then it is refused, naming the holder.
   */
  lockWaitMs?: number;
}

export const COMPILE_DEFAULTS: CompileOptions = {
  cellSize: DEFAULT_CELL_SIZE,
  workers: 'auto',
  allowCustomSlots: false,
  budget: GEOMETRY_BUDGET,
  tiling: 'auto',
  report: false,
  decoders: IMPORT_DEFAULTS.decoders,
  seams: DEFAULT_SEAMS,
  grindDensity: GRIND_DENSITY_TARGET,
  allowOutsideUris: false,
  ybn: { detail: YBN_DEFAULTS.detail, keep: YBN_DEFAULTS.keep },
  allowPoolOverflow: false,
  strict: false,
  dryRun: false,
};

export interface CompileHooks {
  logger: Logger;
  /**
   * Progress of every stage that can take long: import, shapes (when the level has shape modes), validate, plan,
   * encode, publish. A stage reports
   * (stage, 0, total) when it starts and (stage, total, total) when it ends; `total` counts the stage's own steps
   * (resources for encode, each reported as done; 1 for a stage without finer steps).
   */
  onProgress?: (stage: ProgressStage, done: number, total: number) => void;
  /** Called at each point of the output swap (src/output/staging.ts); tests kill the process there. */
  onPublishStep?: (step: PublishStep) => void;
  /**
   * Worker threads kept across builds by the caller (--watch: a rebuild then starts on warm workers instead of
   * starting its own). Used instead of the build's own, left running at the end; `workers` still bounds how many
   * threads encode. Close it when done; after a failed build, a pool whose worker died fails the next build too,
   * so start a new one then.
   */
  pool?: ThreadPool;
  /**
   * State kept from the previous build of this level in this process (src/build/session.ts; --watch keeps one): what
   * the edit left unchanged is taken from it instead of computed again. Never changes the output.
   */
  session?: CompileSession;
}

export type ProgressStage = 'import' | 'shapes' | 'seams' | 'validate' | 'plan' | 'cache' | 'encode' | 'report' | 'publish';

export interface CompileResult {
  input: string;
  outDir: string;
  manifest: Manifest;
  importStats: ImportStats;
  /**
   * Milliseconds per stage: import, seams (the level's edge data, src/tiling/seams.ts), plan, validate, encode, publish. The validation report is computed on a worker
   * during the import when workers are up early (then `validate` is only the wait for it), else on the main thread
   * while the workers encode; `encode` is the encode stage's wall time without it.
   */
  timings: Record<string, number>;
  /** Encoding threads used, the main thread included. */
  workers: number;
  /** The cache used (src/build/cache.ts), with this build's hits (resources reused) and misses (encoded); none: off. */
  /** rejected: entries that failed their check (bytes or index line not as written) and were rebuilt. */
  cache?: { dir: string; hits: number; misses: number; rejected: number };
  /** Per collision object, the decision taken (the CLI's --verbose). */
  objects: ObjectDecision[];
  /** How each glTF material became a packed word (report.html's materials table; a report rebuilt after the build takes it). */
  materials?: ReportInput['materials'];
  /** With options.report: what report.html takes besides the output (every finding kept, the source meshes that name a cell's faces), for a report rebuilt after the build. */
  reportData?: Pick<ReportInput, 'findings' | 'sources'>;
  /** Set by a dry run: what would be written (nothing was; `outDir` is where it would go). */
  dryRun?: DryRun;
  /**
   * True when nothing changed since the last build of this output (src/build/unchanged.ts: the level file, the options
   * that reach the output and the tool's code as then, every file as that build wrote it): nothing was rebuilt,
   * and the result is that build's, its warnings given again.
   */
  unchanged?: boolean;
}

/** What the build decided for one collision object. */
export interface ObjectDecision {
  name: string;
  /** Node (and instance) it came from. */
  source: string;
  /**
   * 'triangle_mesh'; 'water' when every part has the water word; 'grind_curve' for a prism built from loose edges;
   * or the object's shape mode (box, sphere, hull, convex_parts, …: src/shapes/).
   */
  mode: string;
  triangles: number;
  /** Its geometries as its own resource, estimated before encoding (estimateShapes per part): what the budget compares. */
  geometries: number;
  /** Material words of its parts, in part order. */
  materials: number[];
  /** The resource (the object's own, or its collision_area cell) holding its triangles; null when none has area. */
  resource: string | null;
}

export interface DryRun {
  layout: 'objects' | 'cells';
  /** Estimated geometries: one shape per 21,845 faces of each part (estimateShapes; the encoder's split may add some). */
  geometries: number;
  resources: { name: string; file: string; cell: [number, number] | null; triangles: number; parts: number; geometries: number; sourceObjects: string[] }[];
  /** Written besides the resources. */
  files: string[];
}

/** manifest.json "ybn" of a GTA V input: --ybn-keep as given, the children skipped per reason and by name, notes. */
export function ybnManifest(options: CompileOptions, r: YbnReport | undefined): Manifest['ybn'] {
  if (!r) return undefined;
  return { keep: [...(options.ybn.keep ?? [])], ...r };
}

/** The options as the manifest records them. */
export function manifestOptions(options: CompileOptions): Manifest['options'] {
  return {
    scene: options.scene ?? null, cellSize: options.cellSize, budget: options.budget, tiling: options.tiling,
    allowCustomSlots: options.allowCustomSlots, header: options.studioTemplate || isStudioForm(options.encode?.header) ? 'studio' : 'game', seams: options.seams,
    grindDensity: options.grindDensity,
    ...(options.simplify !== undefined ? { simplify: options.simplify } : {}),
    shapes: { chordError: options.shapes?.chordError ?? SHAPE_DEFAULTS.chordError, hullParts: options.shapes?.hullParts ?? false, nativeShapes: options.shapes?.nativeShapes ? 'experimental' : false },
    };
}
