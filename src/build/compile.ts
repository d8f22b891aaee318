// compile-collision level.glb: import → validate → budget → objects or collision_area tiles → encode → publish.
// Spec context: ../shared/spec/authoring-notes.md ("Where our compiler sits", "Budgets and pools") and
// ../shared/spec/physics-resource.md ("Collision, physics pools and grinds"). The library never prints or touches
// `process`: warnings go to the logger, progress to a callback, and the caller gets the manifest and timings.
import { webcrypto } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { readPhysicsResource } from '../format/resource.ts';
import { STUDIO_BODY_SIZE } from '../format/types.ts';
import { importGltf, IMPORT_DEFAULTS } from '../import/gltf.ts';
import type { ImportedObject, ImportResult, ImportStats, Logger } from '../model.ts';
import { Validation } from './validation.ts';
import { importYbn, isYbnPath, YBN_DEFAULTS, ybnStem, type YbnOptions } from '../import/ybn/index.ts';
import { forgeStem, importForge, isDirectory, isForgePath } from '../import/forge/index.ts';
import type { YbnReport } from '../import/ybn/flags.ts';
import { isShared, SharedArena } from '../import/shared-arena.ts';
import { buildReport, REPORT_FILE, type ReportInput } from '../report/index.ts';
import { estimateShapes, GEOMETRY_BUDGET, poolWarnings, RESKATE_POOL } from '../tiling/budget.ts';
import { groupTriangles, isNative, isPlanned, jobTriangles, noteBytes, releaseBytes, type BuiltResource, type EncodeOptions, type MeshGroup, type ResourceJob } from '../tiling/build.ts';
import { SEAM_NONE } from '../geometry/edge-rule.ts';
import { buildSurfaceTable } from '../import/materials.ts';
import { applySeams, countSeams, DEFAULT_SEAMS, levelMatch, seamReport, type PatchItem, type SeamMode } from '../tiling/seams.ts';
import { carrySeamValues } from '../geometry/seams.ts';
import type { SeamMatch } from '../geometry/seams.ts';
import { DEFAULT_CELL_SIZE, planCells, type CellSize, type KnownRuns } from '../tiling/cells.ts';
import { nativeGroups, withNativeCells } from '../tiling/native-jobs.ts';
import { SHAPE_DEFAULTS, shapeObjects, type ShapeOptions } from '../shapes/build.ts';
import { availableParallelism } from 'node:os';
import { autoThreads, cpuMark, freeCores, runJobs, runPatches, takeInReplies, ThreadPool, type CpuMark } from '../tiling/pool.ts';
import { MAX_RESOURCE_BYTES, readRegularFile } from '../files.ts';
import { CACHE_ENTRY, ResourceCache } from './cache.ts';
import type { KeyMemo } from './cache-key.ts';
import type { CompileSession } from './session.ts';
import { inspectOutput, MANIFEST_FILE, type PreviousOutput } from '../output/ownership.ts';
import { LOCK_WAIT_MS, lockOutput } from '../output/lock.ts';
import { recoverOutput } from '../output/recovery.ts';
import { refuseInputsInside, resolveOutDir, Staging, type PublishStep } from '../output/staging.ts';
import { outlastRacyWindow } from '../output/verdicts.ts';

export { MANIFEST_FILE, OWNED_ENTRIES } from '../output/ownership.ts';
export { STREAMING_PLAN_FILE, type Manifest, type ManifestResource, type StreamingPlan, type Totals } from './manifest.ts';
import { densePartWarnings, simplifyObjects, type SimplifiedEntry } from './grind.ts';
import { GRIND_DENSITY_TARGET } from '../geometry/grind-cut.ts';
import { makeManifest, STREAMING_PLAN_FILE, type Manifest, type StreamingPlan } from './manifest.ts';
import { buildKey, codeFingerprint, readRecord, readValidationPass, unchangedSince, writeRecord, writeValidationPass, type BuildRecord, type RecordedResult } from './unchanged.ts';

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

/** Inputs at least this big (bytes; ~100,000 triangles) start worker threads before the import when workers are 'auto'. */
export const PRESPAWN_BYTES = 3 << 20;

/** A level file's name without its extension (`.glb`, `.gltf`, `.ybn`, `.ybn.xml`). */
export const levelStem = (input: string): string =>
  isYbnPath(input) ? ybnStem(input) : isForgePath(input) ? forgeStem(input) : isForgeFolder(input) ? basename(input.replace(/[/\\]+$/, '')) : basename(input, extname(input));
/** A directory given as a level: a folder of records extracted from a forge (the only folder input). */
export const isForgeFolder = (input: string): boolean => isDirectory(input);
const isForgeInput = (input: string): boolean => isForgePath(input) || isForgeFolder(input);
export const defaultOutDir = (input: string): string => join(dirname(input), `${levelStem(input)}.collision`);

/** What every stage of one build shares. */
interface Build {
  input: string;
  options: CompileOptions;
  hooks: CompileHooks;
  logger: Logger;
  warnings: string[];
  timings: Record<string, number>;
  validation: Validation;
  pool?: ThreadPool;
  /** The output directory (links resolved), checked and recovered before any work. */
  outDir: string;
  /** The temporary output directory, opened once the input has been read; resources go into it as they are built. */
  staging?: Staging;
  /** The resource cache, when on; its directory once published (for the index). */
  cache?: ResourceCache;
  cacheHome?: string;
  /** CPU sample at the start: the import is the window that tells how many cores are free for encoding. */
  start: CpuMark;
  /** Objects with a shape mode (box, hull, …), by name, as imported: the decision --verbose reports. */
  modes: Map<string, string>;
  /** --simplify: each simplified object group (src/geometry/simplify.ts), for the manifest's grind section. */
  simplified?: SimplifiedEntry[];
  /**
   * The previous output as inspected before any work (none in a dry run). The output is locked for this build, so
   * only the publish inspects it again (for what may have appeared there meanwhile).
   */
  prev?: PreviousOutput;
}

async function timed<T>(b: Build, stage: ProgressStage, f: () => T | Promise<T>): Promise<T> {
  const t0 = performance.now();
  b.hooks.onProgress?.(stage, 0, 1);
  try {
    return await f();
  } finally {
    b.timings[stage] = (b.timings[stage] ?? 0) + performance.now() - t0;
    b.hooks.onProgress?.(stage, 1, 1);
  }
}

/**
 * Compiles one level. Throws (leaving any previous output untouched) on bad input or a failed build. One build of
 * an output directory at a time: a second waits for the first (lockOutput).
 */
export async function compileLevel(input: string, opts: Partial<CompileOptions> = {}, hooks: CompileHooks = { logger: { warn: () => {} } }): Promise<CompileResult> {
  const options = { ...COMPILE_DEFAULTS, ...opts };
  const wait = options.lockWaitMs ?? LOCK_WAIT_MS;
  if (!(Number.isFinite(wait) && wait >= 0 && wait <= 86_400_000)) throw new Error(`compile: lockWaitMs ${wait} outside 0…86,400,000 ms`);
  const outDir = resolveOutDir(options.out ?? defaultOutDir(input));
  if (options.dryRun) return build(input, options, outDir, hooks);
  const release = await lockOutput(outDir, wait);
  try {
    return await build(input, options, outDir, hooks);
  } finally {
    release();
  }
}

async function build(input: string, options: CompileOptions, outDir: string, hooks: CompileHooks): Promise<CompileResult> {
  const warnings: string[] = [];
  const logger: Logger = { warn: (m) => (warnings.push(m), hooks.logger.warn(m)) };
  // Before any work (the output locked): no input inside it, an interrupted earlier publish repaired, and a
  // directory holding anything a rebuild may not remove refused (src/output/).
  // The last build's record, read first: its verdicts spare the inspection reading every file (src/build/unchanged.ts).
  const cacheHome = options.dryRun ? undefined : cacheHomeOf(options, outDir);
  const t0 = performance.now();
  let record: BuildRecord<RecordedResult> | undefined;
  let prev: PreviousOutput | undefined;
  if (!options.dryRun) {
    refuseInputsInside(outDir, [input]);
    recoverOutput(outDir, logger);
    if (cacheHome) record = readRecord<RecordedResult>(cacheHome, outDir);
    prev = inspectOutput(outDir);
  }
  // Nothing changed since the last build of this output (src/build/unchanged.ts): prove it, redo nothing.
  const key = cacheHome ? recordKey(options) : undefined;
  if (key && cacheHome && !hooks.session) {
    const same = unchangedSince<RecordedResult>(record, outDir, input, key, prev);
    if (same) {
      for (const w of same.manifest.warnings) logger.warn(w);
      const r = same.result;
      return {
        input, outDir, manifest: same.manifest, importStats: r.importStats, timings: { unchanged: performance.now() - t0 }, workers: 1,
        cache: { dir: cacheHome, hits: same.manifest.resources.length, misses: 0, rejected: 0 }, objects: r.objects as ObjectDecision[], unchanged: true,
      };
    }
  }
  const session = hooks.session;
  if (session?.building) throw new Error('compile: this CompileSession is already building; a session builds one level at a time');
  const validation = new Validation(session && { keep: session.validation, runs: session.runs });
  const b: Build = { input, hooks, warnings, options, outDir, prev, timings: {}, validation, start: cpuMark(), logger, modes: new Map() };
  session?.keys.begin();
  // Large inputs: start the workers now, so they are up when the import starts walking the scene. With 'auto' this
  // is a guess by size (the encode stage uses only as many as the cores measured free during the import); a worker
  // left unused has still done the validation report, work that is needed anyway.
  const size = await stat(input).then((st) => st.size, () => 0);
  const early = b.options.workers === 'auto' ? (size >= PRESPAWN_BYTES ? Math.min(availableParallelism(), Math.ceil(size / PRESPAWN_BYTES)) - 1 : 0) : Math.floor(b.options.workers) - 1;
  if (session) session.building = true;
  try {
    if (hooks.pool?.workers.length) b.pool = hooks.pool;
    else if (early > 0) b.pool = ThreadPool.spawn(early);
    // Kept workers forget the last build; a session's worker keeps its memo (src/build/validation.ts).
    if (b.pool && (b.pool === hooks.pool || session)) void b.pool.reset(0, session?.validation.token).catch(() => undefined); // a dead worker is reported where its work is awaited
    // Outside a session the worker takes the last build's validation for arrays it has seen (src/import/validate-store.ts).
    const restored = b.pool !== undefined && !session && cacheHome !== undefined;
    if (restored) void b.pool!.restoreValidation(0, readValidationPass(cacheHome!, outDir), codeFingerprint()).catch(() => undefined);
    if (options.studioTemplate) options.encode = { ...options.encode, header: await readStudioTemplate(options.studioTemplate) };
    if (options.grindDensity !== 'off') options.encode = { ...options.encode, density: options.grindDensity };
    const imported = await importStage(b);
    // Shape modes (src/shapes/): primitives, hulls and convex parts become what the plan and encoder take.
    for (const o of imported.objects) if (o.shape) b.modes.set(o.name, o.shape.mode);
    if (imported.objects.some((o) => o.shape)) imported.objects = await timed(b, 'shapes', () => shapeObjects(imported.objects, options.shapes ?? {}, b.logger).objects);
    if (options.simplify !== undefined) b.simplified = await simplifyObjects(imported.objects, options.simplify, options.grindDensity === 'off' ? 0 : options.grindDensity);
    if (options.dryRun) {
      const r = await dryRunStage(b, imported);
      settle(b, session, false);
      return r;
    }
    // The temporary sibling is created once the input has been read.
    b.staging = Staging.open(b.outDir, hooks.onPublishStep);
    openCache(b);
    const sha256 = hashAll(imported.inputBytes);
    sha256.catch(() => undefined); // awaited at publish; a failed build before then must not leave it unhandled
    const { built, layout, threads, level } = await encodeStage(b, imported.objects);
    const reports = await timed(b, 'validate', () => b.validation.results(imported.objects));
    b.validation.report(imported.objects, reports, b.logger, options.grindDensity === 'off' ? undefined : options.grindDensity);
    const pass = restored ? b.pool!.storedValidation(0).catch(() => null) : undefined;
    b.cache?.preserve(); // before the publish replaces the previous output's files
    const result = await publishStage(b, imported, await sha256, built, layout, threads, level);
    const published = performance.timeOrigin + performance.now();
    if (b.cache) {
      b.cache.finish(b.cacheHome);
      result.cache = { dir: b.cacheHome!, ...b.cache.stats };
      if (pass) writeValidationPass(b.cacheHome!, outDir, await pass);
      if (key) {
        // The record vouches only for files changed RACY_NS before it (src/output/verdicts.ts keptVerdicts): the build's
        // own workers are closed first (time that passes anyway), then what is left of that window waited out —
        // not in a session (--watch), whose next build is in this process and knows the files already: there a
        // rebuild's latency matters more than the record's completeness for a later fresh process.
        await closeOwnPool(b, hooks);
        if (!session) await outlastRacyWindow(published);
        writeRecord<RecordedResult>(b.cacheHome!, outDir, key, { importStats: result.importStats, objects: result.objects, workers: result.workers }, input, result.manifest.files);
      }
    }
    settle(b, session);
    return result;
  } catch (e) {
    session?.validation.forget(); // the worker's memo and this thread's copy may disagree now
    throw e;
  } finally {
    if (session) session.building = false;
    await closeOwnPool(b, hooks);
    b.staging?.discard();
  }
}

/** Closes the build's own worker threads (not a caller's kept pool), once. */
async function closeOwnPool(b: Build, hooks: CompileHooks): Promise<void> {
  if (b.pool === hooks.pool) return;
  const pool = b.pool;
  b.pool = undefined;
  await pool?.close();
}

/** A successful build's session memos become what the next build looks in (a dry run computes no keys). */
function settle(b: Build, session: CompileSession | undefined, keys = true): void {
  if (!session) return;
  b.validation.commit();
  if (keys) session.keys.commit();
}

async function importStage(b: Build): Promise<ImportResult & { ybn?: YbnReport }> {
  const { options, input } = b;
  // Batches go to the worker as the walk makes objects (posted at once: the walk does not yield; a worker still
  // starting queues them).
  // With tiling possible, the worker also computes the small objects' cell runs (the plan's per-triangle pass).
  if (b.pool) b.validation.onWorker(b.pool, options.tiling === 'objects' ? undefined : options.cellSize);
  const walkHooks = { onObject: (o: ImportedObject) => b.validation.add(o), memo: b.hooks.session?.import };
  // By extension: GTA V collision (.ybn, .ybn.xml) has its own importer; everything else is glTF.
  const imported: ImportResult & { ybn?: YbnReport } = await timed(b, 'import', (): Promise<ImportResult & { ybn?: YbnReport }> =>
    isForgeInput(input)
      ? importForge(input, { chordError: options.shapes?.chordError ?? SHAPE_DEFAULTS.chordError, nativeShapes: options.shapes?.nativeShapes, materials: options.forge?.materials }, b.logger, walkHooks)
      : isYbnPath(input)
      ? importYbn(input, { ...options.ybn, keep: options.ybn.keep ?? [], chordError: options.shapes?.chordError ?? SHAPE_DEFAULTS.chordError, nativeShapes: options.shapes?.nativeShapes }, b.logger, walkHooks)
      : importGltf(input, { scene: options.scene, allowCustomSlots: options.allowCustomSlots, decoders: options.decoders, allowOutsideUris: options.allowOutsideUris }, b.logger, walkHooks),
  );
  b.validation.flush();
  if (imported.objects.every((o) => !o.shape && o.groups.every((g) => g.indices.length === 0) && !o.native?.length)) {
    const st = imported.stats;
    const f = imported.forge?.records;
    const sum = (m: Record<string, number> | undefined): number => Object.values(m ?? {}).reduce((a, v) => a + v, 0);
    const counts = f
      ? `${sum(f.read)} records read, ${sum(f.refused)} refused, ${sum(f.skipped)} skipped; ${imported.forge!.unplacedShapes} shapes unplaced`
      : isYbnPath(input)
      ? `${st.nodes} bounds, ${st.meshNodes} with collision, ${st.skippedNodes} skipped${skippedChildrenText(imported.ybn)}`
      : `${st.nodes} nodes, ${st.meshNodes} with meshes, ${st.skippedNodes} set to sk8_collision_mode none`;
    throw new Error(`compile: ${input}: no collision triangles (${counts})`);
  }
  return imported;
}

/** ", 2 of them composite children not solid for a skater (stairs 1, probes 1; --ybn-keep compiles them)". */
function skippedChildrenText(r: YbnReport | undefined): string {
  const n = r?.skippedChildren.length ?? 0;
  if (!r || n === 0) return '';
  const per = Object.entries(r.skipped).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(', ');
  return `, ${n} of them composite children not solid for a skater (${per}; --ybn-keep compiles them)`;
}

/**
 * Chooses the layout from the geometry estimate, then encodes every resource. If per-object encoding reaches the
 * budget after all (the encoder's split made extra shapes), it starts over with cells.
 */
async function encodeStage(b: Build, objects: ImportedObject[]): Promise<{ built: BuiltResource[]; layout: 'objects' | 'cells'; threads: number; level: SeamMatch }> {
  const { options, timings } = b;
  const estimate = objects.reduce((s, o) => s + (o.native?.length ?? 0) + o.groups.reduce((t, g) => t + estimateShapes(g.indices.length / 3), 0), 0);
  let layout: 'objects' | 'cells' = options.tiling === 'auto' ? (estimate < options.budget ? 'objects' : 'cells') : options.tiling;
  // Without a worker for it, the validation report runs on the main thread while the workers start encoding.
  const sideWork = (): void => {
    const t0 = performance.now();
    b.validation.runLocal(objects);
    timings.validate = (timings.validate ?? 0) + performance.now() - t0;
  };
  for (;;) {
    if (layout === 'cells') await takeInReplies(); // the worker's cell runs sent so far
    const all = await timed(b, 'plan', () => (layout === 'objects' ? objectJobs(objects) : cellJobs(objects, options.cellSize, b.validation.knownRuns(options.cellSize))));
    if (layout === 'cells') b.validation.releaseRuns();
    checkPool(jobsGeometries(all), options, 'at least '); // before encoding: the estimate is a lower bound
    // Resources whose key is in the cache are published from it; only the others are encoded.
    const staging = b.staging!;
    const { cached, jobs, keys, index, allKeys } = await timed(b, 'cache', () => fromCache(b.cache, all, options.encode, staging.dir, b.hooks.session?.keys));
    let threads = options.workers === 'auto' ? autoThreads(jobs, freeCores(b.start)) : Math.max(1, Math.floor(options.workers));
    if (b.pool) threads = Math.min(threads, b.pool.workers.length + 1);
    const onDone = (d: number, t: number): void => b.hooks.onProgress?.('encode', d, t);
    // Jobs read the objects' arrays: in shared memory (as imported) workers read them in place; any others are
    // copied into it first (transferring them would empty the objects, cloning would copy per message).
    const toRun = threads > 1 ? sharedJobs(jobs) : jobs;
    // Each thread writes the files of the resources it builds into the staging directory as it goes.
    const t0 = performance.now();
    const before = timings.validate ?? 0;
    const onResult = b.cache ? (i: number, r: BuiltResource): void => b.cache!.put(keys[i], r) : undefined;
    // No sha256 here: the cache's entries are hashed once, as their final bytes, by the seams step (patchUnit).
    const encoded = await runJobs(toRun, { threads, pool: b.pool, sideWork, encode: options.encode, onDone, writeDir: staging.dir, onResult });
    const built = cached.slice();
    encoded.forEach((r, i) => (built[index[i]] = r));
    timings.encode = (timings.encode ?? 0) + performance.now() - t0 - ((timings.validate ?? 0) - before);
    const shapes = built.reduce((s, r) => s + r.shapes, 0);
    if (layout === 'objects' && options.tiling === 'auto' && shapes >= options.budget) {
      const cut = built.reduce((n, r) => n + (r.densityCut?.added ?? 0), 0);
      b.logger.warn(`budget: ${shapes} geometries after splitting at the u16 limits${cut ? ` and the density cut (${cut} of them: --grind-density)` : ''} reach the budget (${options.budget}); merging into cells`);
      layout = 'cells';
      staging.clear();
      if (b.cache) openCache(b); // a cache inside the temporary directory went with it
      continue;
    }
    // The level's edge data: the corners each shape left unpaired, matched over the level, stored into the files
    // (counted in 'shape' mode too, for the manifest, where every listed corner is written open).
    const level = await timed(b, 'seams', () => joinSeams(built, options.seams, options.seamValues ?? [], cached, allKeys, b.cache, staging, b.pool, threads, (d, t) => b.hooks.onProgress?.('seams', d, t)));
    const skipped = level.coverUnchecked;
    if (skipped && options.seams === 'level') b.logger.warn(`seams: ${skipped.corners} open corners not checked for T-junctions and near-flush joints (the pass would compare more than its work budget of ${skipped.budget.toExponential(1)} edge pairs: large edges over many open ones); they are written open`);
    return { built, layout, threads, level };
  }
}

/**
 * Matches the open corners over the level and stores each resource's codes ('level') or open corners ('shape')
 * into its bytes and its staged file: the changed span in place for a file this build wrote, the whole file anew
 * for one taken from the cache (it may be linked with the previous output, which must not change) — and nothing,
 * not even a read, for one from the cache that already holds these codes. Each cache entry then holds the final
 * bytes (appended to a pack: src/output/cache-pack.ts).
 */
async function joinSeams(built: BuiltResource[], mode: SeamMode, carried: number[], cached: BuiltResource[], keys: string[], cache: ResourceCache | undefined, staging: Staging, pool: ThreadPool | undefined, threads: number, onDone?: (done: number, total: number) => void): Promise<SeamMatch> {
  const match = levelMatch(built);
  if (mode === 'level') carrySeamValues(built.map((r) => r.open), match.codes, carried);
  // The files this build wrote that gain joined corners are patched on every thread (each read back, checked,
  // patched in place and summed, and with the cache on appended to a pack: src/tiling/seams.ts patchUnit); the
  // rest here, in resource order.
  const patched: number[] = [];
  const items: PatchItem[] = [];
  built.forEach((r, i) => {
    const codes = mode === 'level' ? match.codes[i] : null;
    if (cached[i] !== undefined || r.parts === 0 || !r.check) return;
    const item: PatchItem = { name: r.name, path: join(staging.dir, r.file), check: r.check, codes: hasJoined(codes) ? codes : null, shape: r.open.shape, corner: r.open.corner, arrays: r.open.arrays, sha256: cache !== undefined, toCache: cache?.wantsEntry(keys[i]) };
    if (item.codes === null && !item.toCache) return;
    patched.push(i);
    items.push(item);
  });
  const results = await runPatches(items, pool, threads, onDone, cache && ((unit) => cache.unitPack(unit)));
  const byIndex = new Map(patched.map((i, k) => [i, { ...results[k], toCache: items[k].toCache }]));
  built.forEach((r, i) => {
    const codes = mode === 'level' ? match.codes[i] : null;
    const fromCache = cached[i] !== undefined;
    if (fromCache && cache!.holds(keys[i], codes, r.open.corner.length)) {
      countSeams(r, codes);
      if (r.parts > 0) staging.note(r.file, r.check ?? r.bytes, r.sha256); // a linked file's bytes are not read
      return;
    }
    const done = byIndex.get(i);
    if (done) {
      countSeams(r, codes);
      if (done.sums) Object.assign(r, done.sums);
      if (done.sha256) r.sha256 = done.sha256;
    } else {
      const [lo, hi] = applySeams(r, codes, !fromCache);
      if (lo < hi && r.parts > 0) {
        if (fromCache) staging.replace(r.file, r.bytes);
        else staging.patch(r.file, r.bytes, lo, hi);
      }
      // What is known of the bytes follows them (a file this build wrote was summed where it was written).
      if (lo < hi || r.check === undefined || (cache && r.sha256 === undefined)) noteBytes(r, cache !== undefined);
    }
    if (r.parts > 0) staging.note(r.file, r.check!, r.sha256);
    cache?.settle(keys[i], r, codes, done?.toCache ? (done.copied ?? null) : undefined);
    // The bytes leave memory again, to be read back (checked) only if asked for: the manifest's equal-file count.
    if (r.parts > 0) releaseBytes(r, join(staging.dir, r.file));
  });
  return match;
}

const hasJoined = (codes: Float32Array | null): boolean => codes !== null && codes.some((c) => c !== SEAM_NONE);

/** Drops empty resources, applies the pool warnings and streaming plan, writes the manifest, publishes. */
async function publishStage(b: Build, imported: ImportResult & { ybn?: YbnReport }, sha256: string, all: BuiltResource[], layout: 'objects' | 'cells', threads: number, level: SeamMatch): Promise<CompileResult> {
  const { options, input, logger } = b;
  // An object (or cell) whose triangles all lack area encodes to no part: write no file for it.
  for (const r of all.filter((x) => x.parts === 0)) logger.warn(`encode: "${r.name}": no triangle with area; no resource written`);
  const built = all.filter((x) => x.parts > 0);
  if (built.length === 0) throw new Error(`compile: ${input}: every collision triangle is degenerate (no area); nothing to write`);
  const geometries = built.reduce((s, r) => s + r.shapes, 0);
  for (const w of densePartWarnings(built)) logger.warn(w);
  checkPool(geometries, options);
  for (const w of poolWarnings(geometries)) logger.warn(w);
  let plan: StreamingPlan | null = null;
  if (layout === 'cells' && geometries >= options.budget) {
    plan = { cellSize: options.cellSize, budget: options.budget, geometries, cells: built.map((r) => ({ name: r.name, cell: r.cell!, geometries: r.shapes })) };
    logger.warn(`budget: merged collision still has ${geometries} geometries (budget ${options.budget}): stream it by cell; plan written to ${STREAMING_PLAN_FILE}`);
  }
  checkStrict(b);
  const staging = b.staging!;
  if (plan) staging.write(STREAMING_PLAN_FILE, `${JSON.stringify(plan, null, 2)}\n`);
  const files = [...built.map((r) => r.file), ...staging.written, ...(options.report ? [REPORT_FILE] : [])];
  const manifest = makeManifest(input, sha256, manifestOptions(options), layout, built, imported.objects, b.validation.summary, plan, b.warnings, files, seamReport(options.seams, level, built), ybnManifest(options, imported.ybn));
  if (imported.forge) manifest.forge = imported.forge;
  if (b.simplified && manifest.grind) manifest.grind.simplified = b.simplified;
  // The report reads the files just written (what the game gets) and shows the manifest as written.
  const objects = decisions(imported.objects, built, b.modes);
  if (options.report) await timed(b, 'report', async () => staging.write(REPORT_FILE, await buildReport({ dir: staging.dir, manifest, findings: b.validation.summary, sources: imported.objects, timings: { ...b.timings }, workers: threads, objects, materials: imported.materials })));
  await timed(b, 'publish', () => staging.commit(manifest, logger));
  return { input, outDir: staging.outDir, manifest, importStats: imported.stats, timings: b.timings, workers: threads, objects, materials: imported.materials, ...(options.report ? { reportData: { findings: b.validation.summary, sources: imported.objects } } : {}) };
}

/** Geometries over ReSkate's pool fault the game: an error (nothing is written) unless allowPoolOverflow. */
function checkPool(geometries: number, options: CompileOptions, what = ''): void {
  if (geometries <= RESKATE_POOL || options.allowPoolOverflow) return;
  throw new Error(
    `budget: ${what}${geometries} geometries exceed ReSkate's geometry pool (${RESKATE_POOL}): the game faults when it ` +
      'overflows; split the level or stream it by cell (allowPoolOverflow, --allow-pool-overflow, builds it anyway)',
  );
}

/** strict: any warning fails the build before anything is written. */
function checkStrict(b: Build): void {
  const n = b.warnings.length;
  if (!b.options.strict || n === 0) return;
  const shown = b.warnings.slice(0, 3).join('; ');
  throw new Error(`strict: ${n} warning${n === 1 ? '' : 's'}, and strict mode fails on any: ${shown}${n > 3 ? `; … ${n - 3} more` : ''}`);
}

/** Estimated geometries of planned jobs (a lower bound: the encoder's split may add shapes). */
const jobsGeometries = (jobs: ResourceJob[]): number => jobs.reduce((s, j) => s + jobGeometries(j), 0);
const jobGeometries = (j: ResourceJob): number => j.groups.reduce((t, g) => t + (isNative(g) ? 1 : estimateShapes(groupTriangles(g))), 0);

/** An object's geometries as the layout choice counts them (encodeStage's estimate): native parts one each. */
const objectGeometries = (o: ImportedObject): number => (o.native?.length ?? 0) + o.groups.reduce((t, g) => t + estimateShapes(g.indices.length / 3), 0);

let waterWord: number | undefined;
function objectMode(o: ImportedObject, modes: Map<string, string>): string {
  const shaped = modes.get(o.name);
  if (shaped) return shaped;
  if (o.kind === 'grind') return 'grind_curve';
  waterWord ??= buildSurfaceTable().get('water');
  return o.groups.length > 0 && o.groups.every((g) => g.material === waterWord) ? 'water' : 'triangle_mesh';
}

/** Each object's decision; a resource's sources name the objects it holds. */
function decisions(objects: ImportedObject[], resources: { name: string; sources?: string[]; sourceObjects?: string[] }[], modes: Map<string, string>): ObjectDecision[] {
  const holder = new Map<string, string>();
  for (const r of resources) for (const s of r.sourceObjects ?? r.sources ?? []) if (!holder.has(s)) holder.set(s, r.name);
  return objects.map((o) => ({
    name: o.name,
    source: o.source,
    mode: objectMode(o, modes),
    triangles: o.groups.reduce((t, g) => t + g.indices.length / 3, 0),
    geometries: objectGeometries(o),
    materials: [...o.groups.map((g) => g.material), ...(o.native ?? []).map((p) => p.material)],
    resource: holder.get(o.name) ?? null,
  }));
}

/**
 * Dry run: the layout and the jobs the build would encode, from the same plan, with the validation report, the
 * pool check and strict mode; nothing is encoded and the output location is not touched (not even checked).
 */
async function dryRunStage(b: Build, imported: ImportResult & { ybn?: YbnReport }): Promise<CompileResult> {
  const { options, input } = b;
  const objects = imported.objects;
  const estimate = objects.reduce((s, o) => s + objectGeometries(o), 0);
  const layout: 'objects' | 'cells' = options.tiling === 'auto' ? (estimate < options.budget ? 'objects' : 'cells') : options.tiling;
  if (layout === 'cells') await takeInReplies(); // the worker's cell runs sent so far
  const jobs = await timed(b, 'plan', () => (layout === 'objects' ? objectJobs(objects) : cellJobs(objects, options.cellSize, b.validation.knownRuns(options.cellSize))));
  const geometries = jobsGeometries(jobs);
  checkPool(geometries, options, 'at least ');
  for (const w of poolWarnings(geometries)) b.logger.warn(w);
  const reports = await timed(b, 'validate', () => b.validation.results(objects));
  b.validation.report(objects, reports, b.logger, b.options.grindDensity === 'off' ? undefined : b.options.grindDensity);
  const resources = jobs.map((j) => ({
    name: j.name, file: `${j.name}.physics`, cell: j.cell, triangles: jobTriangles(j), parts: j.groups.length,
    geometries: jobGeometries(j), sourceObjects: j.sources,
  }));
  const files = [...(layout === 'cells' && geometries >= options.budget ? [STREAMING_PLAN_FILE] : []), MANIFEST_FILE];
  checkStrict(b);
  const manifest = makeManifest(input, '', manifestOptions(options), layout, [], objects, b.validation.summary, null, b.warnings, [], { mode: options.seams, authoredOpenEdges: null, joinedAcrossCuts: null, openEdgesWritten: null }, ybnManifest(options, imported.ybn));
  manifest.geometries = geometries;
  if (imported.forge) manifest.forge = imported.forge;
  return {
    input, outDir: b.outDir, manifest, importStats: imported.stats, timings: b.timings, workers: 1,
    objects: decisions(objects, resources, b.modes), dryRun: { layout, geometries, resources, files },
  };
}

/** Header word 0x08 and body of a Studio-written resource (the only source of Studio's template bytes). */
/** A header form given directly (encode.header, as --recorded-options passes it) that is Studio's: word 0x08 or a body. */
const isStudioForm = (h: { word08: number; body: Uint8Array } | undefined): boolean => h !== undefined && (h.word08 !== 0 || h.body.length > 0);

export async function readStudioTemplate(path: string): Promise<{ word08: number; body: Uint8Array }> {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(path, MAX_RESOURCE_BYTES, 'error', 'any PhysicsResource (MAX_RESOURCE_BYTES, 1 GiB)');
  } catch (e) {
    throw new Error(`template: ${path}: ${(e as Error).message}`);
  }
  let res;
  try {
    res = readPhysicsResource(new Uint8Array(bytes));
  } catch (e) {
    throw new Error(`template: ${path}: not a readable PhysicsResource: ${(e as Error).message}`);
  }
  if (res.body.length !== STUDIO_BODY_SIZE) {
    throw new Error(`template: ${path}: body is ${res.body.length} bytes, Studio's is ${STUDIO_BODY_SIZE} (a game resource has none)`);
  }
  return { word08: res.word08, body: res.body };
}

/** Where the cache of this output lives (--cache DIR, else `<out>/.cache`); undefined with the cache off. */
function cacheHomeOf(options: CompileOptions, outDir: string): string | undefined {
  if (options.cache === false) return undefined;
  return options.cache !== undefined ? resolve(options.cache) : join(outDir, CACHE_ENTRY);
}

/**
 * The cache for this build: --cache DIR; else the previous output's `.cache` (an output of ours: src/output/staging.ts
 * carries it into the new one); else, with no previous output, one inside the temporary directory, which becomes
 * the output. Options that change the bytes are in every key, so one cache serves any of them.
 */
function openCache(b: Build): void {
  const { options, outDir } = b;
  const home = cacheHomeOf(options, outDir);
  if (home === undefined) return;
  const prev = options.cache === undefined ? (b.prev ?? inspectOutput(outDir)) : undefined;
  const dir = options.cache !== undefined || (prev!.exists && (prev!.files.length > 0 || prev!.owned.length > 0)) ? home : join(b.staging!.dir, CACHE_ENTRY);
  b.cache = ResourceCache.open(dir, options.cache === undefined);
  b.cache.previous = outDir;
  b.cache.outputRefs = options.cache === undefined;
  b.cacheHome = home;
}

/** Splits the jobs into those the cache has (published from it, at their index) and those to encode. */
function fromCache(cache: ResourceCache | undefined, all: ResourceJob[], encode: EncodeOptions | undefined, dir: string, memo?: KeyMemo) {
  const cached: BuiltResource[] = new Array(all.length);
  if (!cache) return { cached, jobs: all, keys: [] as string[], index: all.map((_, i) => i), allKeys: [] as string[] };
  const jobs: ResourceJob[] = [];
  const keys: string[] = [];
  const index: number[] = [];
  const allKeys: string[] = [];
  all.forEach((job, i) => {
    const key = memo ? memo.key(cache, job, encode) : cache.key(job, encode);
    allKeys.push(key);
    const hit = cache.take(key, job, dir);
    if (hit) cached[i] = hit;
    else {
      jobs.push(job);
      keys.push(key);
      index.push(i);
    }
  });
  return { cached, jobs, keys, index, allKeys };
}

/** One job per object with triangles or native shapes. */
function objectJobs(objects: ImportedObject[]): ResourceJob[] {
  const jobs: ResourceJob[] = [];
  objects.forEach((o) => {
    if (!o.groups.some((g) => g.indices.length > 0) && !o.native?.length) return;
    const groups = o.groups.map((g): MeshGroup => ({ material: g.material, positions: o.positions, indices: g.indices }));
    jobs.push({ name: o.name, cell: null, sources: [o.name], groups: [...groups, ...nativeGroups(o)] });
  });
  return jobs;
}

function cellJobs(objects: ImportedObject[], cellSize: number, known: KnownRuns): ResourceJob[] {
  return withNativeCells(planCells(objects, cellSize, known).map((c) => ({ name: c.name, cell: [c.x, c.z], sources: c.sources, groups: c.groups })), objects, cellSize);
}

/** The jobs with every array they read in shared memory (the importer's already are: then nothing is copied). */
function sharedJobs(jobs: ResourceJob[]): ResourceJob[] {
  const arena = new SharedArena();
  const copies = new Map<ArrayBufferView, Float32Array | Uint32Array>();
  const share = <T extends Float32Array | Uint32Array>(a: T): T => {
    if (isShared(a)) return a;
    let c = copies.get(a);
    if (!c) copies.set(a, (c = a instanceof Float32Array ? arena.copyF32(a) : arena.copyU32(a)));
    return c as T;
  };
  return jobs.map((j) => ({
    ...j,
    groups: j.groups.map((g) =>
      isPlanned(g)
        ? { ...g, sources: g.sources.map((s) => ({ positions: share(s.positions), indices: share(s.indices) })) }
        : isNative(g)
          ? g
          : { material: g.material, positions: share(g.positions), indices: share(g.indices) },
    ),
  }));
}

/** The build key of src/build/unchanged.ts; undefined (no shortcut, no record) when a file an option names cannot be read (the build says why). */
function recordKey(options: CompileOptions): string | undefined {
  try {
    // Every option that names a file the build reads: its bytes are in the key, not only its path.
    const read = (path: string | undefined): Uint8Array => (path ? readRegularFile(path, MAX_RESOURCE_BYTES) : new Uint8Array(0));
    return buildKey(options, [read(options.studioTemplate), read(options.forge?.materials)]);
  } catch {
    return undefined;
  }
}

/** manifest.json "ybn" of a GTA V input: --ybn-keep as given, the children skipped per reason and by name, notes. */
function ybnManifest(options: CompileOptions, r: YbnReport | undefined): Manifest['ybn'] {
  if (!r) return undefined;
  return { keep: [...(options.ybn.keep ?? [])], ...r };
}

/** The options as the manifest records them. */
function manifestOptions(options: CompileOptions): Manifest['options'] {
  return {
    scene: options.scene ?? null, cellSize: options.cellSize, budget: options.budget, tiling: options.tiling,
    allowCustomSlots: options.allowCustomSlots, header: options.studioTemplate || isStudioForm(options.encode?.header) ? 'studio' : 'game', seams: options.seams,
    grindDensity: options.grindDensity,
    shapes: { chordError: options.shapes?.chordError ?? SHAPE_DEFAULTS.chordError, hullParts: options.shapes?.hullParts ?? false, nativeShapes: options.shapes?.nativeShapes ? 'experimental' : false },
    };
}

/** sha256 (hex) of the parts in order, on libuv's thread pool (WebCrypto), so it overlaps planning and encoding. */
async function hashAll(parts: Uint8Array[]): Promise<string> {
  let all = parts.length === 1 ? parts[0] : new Uint8Array(parts.reduce((s, p) => s + p.byteLength, 0));
  if (parts.length > 1) parts.reduce((o, p) => (all.set(p, o), o + p.byteLength), 0);
  const digest = await webcrypto.subtle.digest('SHA-256', all);
  return Buffer.from(digest).toString('hex');
}

