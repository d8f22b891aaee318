// compile-collision level.glb: import → shapes → validate → plan (objects or collision_area cells) → cache →
// encode → seams → publish; orchestration only: each stage's work is in its room (src/import/, src/shapes/,
// src/tiling/, src/build/, src/output/, src/report/). Spec context: ../shared/spec/authoring-notes.md ("Where our
// compiler sits", "Budgets and pools") and ../shared/spec/physics-resource.md ("Collision, physics pools and
// grinds"). The library never prints or touches `process`: warnings go to the logger, progress to a callback, and
// the caller gets the manifest and timings.
import { webcrypto } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { MAX_RESOURCE_BYTES, readRegularFile } from '../files.ts';
import type { ImportedObject, ImportResult, Logger } from '../model.ts';
import { importGltf } from '../import/gltf.ts';
import { importYbn, isYbnPath, ybnStem } from '../import/ybn/index.ts';
import { skippedChildrenText, type YbnReport } from '../import/ybn/flags.ts';
import { forgeStem, importForge, isDirectory, isForgePath } from '../import/forge/index.ts';
import { readStudioTemplate } from '../import/studio-template.ts';
import { SHAPE_DEFAULTS, shapeObjects } from '../shapes/build.ts';
import { checkPool, estimateShapes, poolWarnings } from '../tiling/budget.ts';
import { jobTriangles, type BuiltResource } from '../tiling/build.ts';
import { cellJobs, jobGeometries, jobsGeometries, objectGeometries, objectJobs, sharedJobs } from '../tiling/jobs.ts';
import { seamReport } from '../tiling/seams.ts';
import type { SeamMatch } from '../geometry/seams.ts';
import { autoThreads, cpuMark, freeCores, runJobs, takeInReplies, ThreadPool, type CpuMark } from '../tiling/pool.ts';
import { buildReport, REPORT_FILE } from '../report/index.ts';
import { inspectOutput, MANIFEST_FILE, type PreviousOutput } from '../output/ownership.ts';
import { LOCK_WAIT_MS, lockOutput } from '../output/lock.ts';
import { recoverOutput } from '../output/recovery.ts';
import { refuseInputsInside, resolveOutDir, Staging } from '../output/staging.ts';
import { outlastRacyWindow } from '../output/verdicts.ts';
import { CACHE_ENTRY, cacheHomeOf, fromCache, ResourceCache } from './cache.ts';
import { decisions } from './decisions.ts';
import { densePartWarnings, simplifyObjects, type SimplifiedEntry } from './grind.ts';
import { makeManifest, STREAMING_PLAN_FILE, type StreamingPlan } from './manifest.ts';
import { COMPILE_DEFAULTS, manifestOptions, ybnManifest, type CompileHooks, type CompileOptions, type CompileResult, type ObjectDecision, type ProgressStage } from './options.ts';
import { joinSeams } from './seams.ts';
import type { CompileSession } from './session.ts';
import { buildKey, codeFingerprint, readRecord, readValidationPass, unchangedSince, writeRecord, writeValidationPass, type BuildRecord, type RecordedResult } from './unchanged.ts';
import { Validation } from './validation.ts';

export { MANIFEST_FILE, OWNED_ENTRIES } from '../output/ownership.ts';
export { STREAMING_PLAN_FILE, type Manifest, type ManifestResource, type StreamingPlan, type Totals } from './manifest.ts';
export { COMPILE_DEFAULTS, type CompileHooks, type CompileOptions, type CompileResult, type DryRun, type ObjectDecision, type ProgressStage } from './options.ts';

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
  const cacheHome = options.dryRun ? undefined : cacheHomeOf(options.cache, outDir);
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
    checkPool(jobsGeometries(all), options.allowPoolOverflow, 'at least '); // before encoding: the estimate is a lower bound
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
    // Open edges lying on another object's face are looked for over the level's triangles as encoded.
    const faces = objects.flatMap((o) => o.groups.map((g) => ({ positions: o.positions, indices: g.indices })));
    const level = await timed(b, 'seams', () => joinSeams(built, options.seams, options.seamValues ?? [], cached, allKeys, b.cache, staging, b.pool, threads, (d, t) => b.hooks.onProgress?.('seams', d, t), faces));
    const skipped = level.coverUnchecked;
    if (skipped && options.seams === 'level') b.logger.warn(`seams: ${skipped.corners} open corners not checked for T-junctions and near-flush joints (the pass would compare more than its work budget of ${skipped.budget.toExponential(1)} edge pairs: large edges over many open ones); they are written open`);
    const notOnFaces = level.faceUnchecked;
    if (notOnFaces) b.logger.warn(`seams: ${notOnFaces.corners} open corners not checked for lying on another object's face (the pass would consider more than its work budget of ${notOnFaces.budget.toExponential(1)} edge–face pairs: large faces over many open edges); they are written open`);
    return { built, layout, threads, level };
  }
}

/** Drops empty resources, applies the pool warnings and streaming plan, writes the manifest, publishes. */
async function publishStage(b: Build, imported: ImportResult & { ybn?: YbnReport }, sha256: string, all: BuiltResource[], layout: 'objects' | 'cells', threads: number, level: SeamMatch): Promise<CompileResult> {
  const { options, input, logger } = b;
  // An object (or cell) whose triangles all lack area encodes to no part: write no file for it.
  for (const r of all.filter((x) => x.parts === 0)) logger.warn(`encode: "${r.name}": no triangle with area; no resource written`);
  const built = all.filter((x) => x.parts > 0);
  if (built.length === 0) throw new Error(`compile: ${input}: every collision triangle is degenerate (no area); nothing to write`);
  const geometries = built.reduce((s, r) => s + r.shapes, 0);
  for (const w of densePartWarnings(built)) logger.warn(w);
  checkPool(geometries, options.allowPoolOverflow);
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

/** strict: any warning fails the build before anything is written. */
function checkStrict(b: Build): void {
  const n = b.warnings.length;
  if (!b.options.strict || n === 0) return;
  const shown = b.warnings.slice(0, 3).join('; ');
  throw new Error(`strict: ${n} warning${n === 1 ? '' : 's'}, and strict mode fails on any: ${shown}${n > 3 ? `; … ${n - 3} more` : ''}`);
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
  checkPool(geometries, options.allowPoolOverflow, 'at least ');
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

/**
 * The cache for this build: --cache DIR; else the previous output's `.cache` (an output of ours: src/output/staging.ts
 * carries it into the new one); else, with no previous output, one inside the temporary directory, which becomes
 * the output. Options that change the bytes are in every key, so one cache serves any of them.
 */
function openCache(b: Build): void {
  const { options, outDir } = b;
  const home = cacheHomeOf(options.cache, outDir);
  if (home === undefined) return;
  const prev = options.cache === undefined ? (b.prev ?? inspectOutput(outDir)) : undefined;
  const dir = options.cache !== undefined || (prev!.exists && (prev!.files.length > 0 || prev!.owned.length > 0)) ? home : join(b.staging!.dir, CACHE_ENTRY);
  b.cache = ResourceCache.open(dir, options.cache === undefined);
  b.cache.previous = outDir;
  b.cache.outputRefs = options.cache === undefined;
  b.cacheHome = home;
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

/** sha256 (hex) of the parts in order, on libuv's thread pool (WebCrypto), so it overlaps planning and encoding. */
async function hashAll(parts: Uint8Array[]): Promise<string> {
  let all = parts.length === 1 ? parts[0] : new Uint8Array(parts.reduce((s, p) => s + p.byteLength, 0));
  if (parts.length > 1) parts.reduce((o, p) => (all.set(p, o), o + p.byteLength), 0);
  const digest = await webcrypto.subtle.digest('SHA-256', all);
  return Buffer.from(digest).toString('hex');
}

