// compile-collision [inputs..]: the default command. Thin: parse, expand globs, call compileLevel per level, print.
// Exit codes: 0 every level built, 1 a level failed to build, 2 usage error (bad option, input not found).
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import type { CompileOptions, CompileResult } from '../../src/build/compile.ts';
import { CELL_SIZES, type CellSize } from '../../src/tiling/cells.ts';
import type { SeamMode } from '../../src/tiling/seams.ts';
import { GRIND_DENSITY_TARGET } from '../../src/geometry/grind-cut.ts';
import { join, resolve } from 'node:path';
import { checkNumber, usage } from '../options.ts';
import { isSkipReason, SKIP_REASONS, type SkipReason } from '../../src/import/ybn/flags.ts';
import { progressDisplay, progressJsonLines } from '../progress.ts';

interface Args {
  inputs?: string[];
  out?: string;
  scene?: string;
  cellSize: number;
  workers?: string;
  allowCustomSlots: boolean;
  budget: number;
  tiling: 'auto' | 'objects' | 'cells';
  json: boolean;
  progressJson: boolean;
  report?: boolean;
  studioTemplate?: string;
  recordedOptions: boolean;
  seams: SeamMode;
  grindDensity: number | 'off';
  simplify?: number;
  allowOutsideUris: boolean;
  chordError: number;
  nativeShapes: boolean;
  hullParts: boolean;
  ybnDetail: boolean;
  forgeMaterials?: string;
  ybnKeep?: string;
  ymap?: string | string[];
  cache?: string | boolean;
  watch: boolean;
  strict: boolean;
  ride: boolean;
  quiet: boolean;
  verbose: boolean;
  dryRun: boolean;
  allowPoolOverflow: boolean;
}

/** --ybn-keep stairs,foliage (or all) → the reasons; anything else is a usage error naming what is accepted. */
function parseYbnKeep(v: string | undefined): SkipReason[] {
  if (v === undefined || v === '') return [];
  const words = v.split(',').map((w) => w.trim()).filter((w) => w !== '');
  if (words.includes('all')) return [...SKIP_REASONS];
  const bad = words.filter((w) => !isSkipReason(w));
  if (bad.length) usage(`--ybn-keep expects a comma list of ${SKIP_REASONS.join(', ')} or all; got "${bad.join(',')}"`);
  return [...new Set(words as SkipReason[])];
}

/**
 * --ymap files and .ymap / .ymap.xml inputs → the placements per YBN input; an interior placement naming none of them
 * is a warning naming it. A placement file that cannot be read throws `ymap: FILE: …` / `ymap-xml: FILE: …`.
 */
async function loadPlacements(ymaps: string[], files: string[], warn: (m: string) => void) {
  if (ymaps.length === 0) return undefined;
  const { readRegularFile } = await import('../../src/files.ts');
  const { isYmapXmlPath, matchPlacements, placementText, readYmapXml } = await import('../../src/import/ybn/ymap.ts');
  const { readYmapBinary } = await import('../../src/import/ybn/ymap-binary.ts');
  const { isYbnPath } = await import('../../src/import/ybn/index.ts');
  const all = [];
  for (const y of ymaps) {
    const stage = isYmapXmlPath(y) ? 'ymap-xml' : 'ymap';
    try {
      const bytes = readRegularFile(y, 256 << 20);
      all.push(...(stage === 'ymap-xml' ? readYmapXml(new TextDecoder().decode(bytes), y) : readYmapBinary(bytes, y, warn)));
    } catch (e) {
      const m = (e as Error).message;
      throw new Error(m.startsWith(`${stage}: `) ? m : `${stage}: ${y}: ${m}`);
    }
  }
  const m = matchPlacements(files.filter(isYbnPath), all);
  for (const p of m.unmatched) warn(`interior ${placementText(p)} names no YBN among the inputs; not placed`);
  if (m.unmatchedEntities) warn(`note: ${m.unmatchedEntities} CEntityDef placement(s) name no YBN among the inputs (props: their collision is in their own models)`);
  return { ymaps: ymaps.map((y) => y.replace(/^.*[\\/]/, '')), byFile: m.byFile };
}

/** loadPlacements for one build: a placement file that cannot be read is an error (exit 1) before anything is built. */
async function readPlacements(ymaps: string[], files: string[], quiet: boolean) {
  const warn = (m: string): void => void (quiet || process.stderr.write(`compile-collision: ${m.startsWith('note: ') ? m : `warning: ${m}`}\n`));
  try {
    return await loadPlacements(ymaps, files, warn);
  } catch (e) {
    process.stderr.write(`compile-collision: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

export function parseWorkers(v: string | undefined): number | 'auto' {
  if (v === undefined || v === 'auto') return 'auto';
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 256) return usage(`--workers expects 'auto' or a whole number of threads from 1 to 256; got "${v}"`);
  return n;
}

/** One level's --json entry: the build, or what failed (the stage is the message's prefix: gltf, budget, publish, …). */
type JsonEntry =
  | ({ input: string; ok: true } & Record<string, unknown>)
  | { input: string; ok: false; error: { stage: string; message: string } };

export function errorStage(message: string): string {
  const m = /^([a-z][a-z0-9-]*): /.exec(message);
  return m ? m[1] : 'compile';
}

async function handler(argv: ArgumentsCamelCase<Args>): Promise<void> {
  const patterns = argv.inputs ?? [];
  if (patterns.length === 0) usage('give a level (.glb/.gltf/.ybn/.ybn.xml/.forge, or a folder of extracted forge records) to compile, or a command');
  if (argv.quiet && argv.verbose) usage('--quiet and --verbose contradict each other; give one');
  if (argv.ride && argv.watch) usage('--ride rides one build; with --watch, ride the output when you want with compile-collision ride OUT');
  if (argv.ride && argv.dryRun) usage('--dry-run writes nothing for --ride to ride; give one');
  if (argv.watch && argv.progressJson) usage('--progress-json reports the stages of one build; --watch prints a line per rebuild instead: give one');
  checkNumber('cell-size', argv.cellSize, { min: 50, integer: true, unit: 'metres', choices: CELL_SIZES });
  checkNumber('budget', argv.budget, { min: 1, integer: true, unit: 'geometries' });
  checkNumber('chord-error', argv.chordError, { min: 0.0001, max: 0.5, integer: false, unit: 'metres' });
  const workers = parseWorkers(argv.workers);
  const ybnKeep = parseYbnKeep(argv.ybnKeep);
  // Loaded here, not at the top: `inspect`, `verify` and usage errors need none of the glTF stack.
  const { compileLevel, defaultOutDir, levelStem } = await import('../../src/build/compile.ts');
  const { expandInputs } = await import('../inputs.ts');
  const { layoutLine, summary } = await import('../summary.ts');
  const { files, unmatched, skipped, refused, ymaps: found } = await expandInputs(patterns, { ybnDetail: argv.ybnDetail });
  if (refused.length) usage(refused.map((r) => `${r.path} is ${r.why}, not a level file (.glb/.gltf/.ybn/.ybn.xml/.forge or a folder)`).join('; '));
  if (unmatched.length) usage(`no such level: ${unmatched.join(', ')}`);
  if (!argv.quiet) {
    for (const f of skipped) process.stderr.write(`compile-collision: note: ${f} skipped: a hi@/ma@ file is the vehicle/weapon detail copy of map collision (--ybn-detail compiles it)\n`);
  }
  if (files.length === 0 && skipped.length) {
    const few = skipped.slice(0, 3).join(', ') + (skipped.length > 3 ? ` and ${skipped.length - 3} more` : '');
    usage(`no level to compile: ${few} ${skipped.length === 1 ? 'is a hi@/ma@ detail copy' : 'are hi@/ma@ detail copies'} (vehicles and weapons); --ybn-detail compiles ${skipped.length === 1 ? 'it' : 'them'}`);
  }
  if (files.length === 0) usage(`no level among ${patterns.join(', ')} (only .ymap / .ymap.xml placements)`);
  const ymapFiles = [...new Set([...[argv.ymap ?? []].flat(), ...found])];
  const placements = await readPlacements(ymapFiles, files, argv.quiet);
  const several = files.length > 1;
  const outOf = (file: string): string | undefined => (argv.out === undefined ? undefined : several ? join(argv.out, `${levelStem(file)}.collision`) : argv.out);
  // Two levels with one stem (x.glb and x.gltf, x.ybn and x.ybn.xml, the same name in two folders under one -o)
  // would publish into one directory, the second build replacing the first: refused before anything is built.
  const byDir = new Map<string, string[]>();
  for (const f of files) {
    const dir = resolve(outOf(f) ?? defaultOutDir(f));
    byDir.set(dir, [...(byDir.get(dir) ?? []), f]);
  }
  for (const [dir, same] of byDir) {
    if (same.length > 1) usage(`${same.join(' and ')} would all be written to ${dir}; compile them separately, each with its own -o`);
  }
  // --cache DIR, --no-cache (false), or the default <out>/.cache (undefined).
  const cache = argv.cache === false ? false : typeof argv.cache === 'string' && argv.cache !== '' ? argv.cache : undefined;
  // --recorded-options: each level's own record (scene extras sk8_compile, written by to-gltf).
  const recorded = new Map<string, Partial<CompileOptions>>();
  if (argv.recordedOptions) {
    const { readRecordedBuild, recordedCompileOptions } = await import('../../src/export/recorded.ts');
    for (const f of files) {
      let rec;
      try {
        rec = readRecordedBuild(f);
      } catch (e) {
        usage((e as Error).message);
      }
      if (!rec) usage(`--recorded-options: ${f} carries no recorded build (scene extras sk8_compile: make it with compile-collision to-gltf from a compile output)`);
      try {
        recorded.set(f, recordedCompileOptions(rec!, f));
      } catch (e) {
        usage((e as Error).message);
      }
    }
  }
  const levelOptions = (out: string | undefined, file?: string, pl = placements): Partial<CompileOptions> => ({
    out, scene: argv.scene, cellSize: argv.cellSize as CellSize, workers, allowCustomSlots: argv.allowCustomSlots, budget: argv.budget,
    tiling: argv.tiling, studioTemplate: argv.studioTemplate, seams: argv.seams, grindDensity: argv.grindDensity, simplify: argv.simplify, allowOutsideUris: argv.allowOutsideUris,
    // One rule, terminal or not (the same files either way): report.html only with --report.
    report: argv.report === true, ybn: { detail: argv.ybnDetail, keep: ybnKeep, ...(pl && file ? { placement: { ymaps: pl.ymaps, placements: pl.byFile.get(file) ?? [] } } : {}) }, forge: { materials: argv.forgeMaterials },
    shapes: { chordError: argv.chordError, nativeShapes: argv.nativeShapes, hullParts: argv.hullParts },
    strict: argv.strict, dryRun: argv.dryRun, allowPoolOverflow: argv.allowPoolOverflow, cache,
    ...(file ? recorded.get(file) : undefined),
  });
  if (argv.watch) {
    if (several) usage(`--watch takes one level, got ${files.length}`);
    const { watchLevel, watchSession } = await import('../watch.ts');
    // The watched level's workers and CompileSession: each rebuild takes from the last what the edit left unchanged.
    const kept = await watchSession(workers);
    // The placement files are watched too and read again for each rebuild: moving an interior in the .ymap rebuilds.
    const options = async (): Promise<Partial<CompileOptions>> => levelOptions(argv.out, files[0], await loadPlacements(ymapFiles, files, () => {}));
    const io = { line: (t: string) => process.stdout.write(`${t}\n`), compile: kept.compile, warmUp: kept.warmUp };
    const w = await watchLevel(files[0], ymapFiles.length ? options : levelOptions(argv.out, files[0]), io, ymapFiles);
    process.stderr.write(`compile-collision: watching ${files[0]}; Ctrl-C stops\n`);
    const stop = (): void => void w.stop().then(() => kept.close()).then(() => process.exit(0));
    process.once('SIGINT', stop).once('SIGTERM', stop);
    return;
  }
  const entries: JsonEntry[] = [];
  let failed = 0;
  for (const file of files) {
    const out = outOf(file);
    // --progress-json: a line per event for a front end reading stderr (the add-on), instead of the terminal's bar.
    const progress = argv.progressJson ? progressJsonLines() : await progressDisplay(!argv.json && !argv.quiet);
    try {
      const r = await compileLevel(file, levelOptions(out, file), { logger: { warn: () => {} }, onProgress: progress.update });
      progress.stop();
      const rode = argv.ride && !r.dryRun ? await rideBuilt(r) : undefined;
      entries.push(jsonEntry(r, argv.verbose, layoutLine(r)));
      if (!argv.json && !argv.quiet) process.stdout.write(`${summary(r, argv.verbose)}\n`);
      if (rode && !argv.json && !argv.quiet) process.stdout.write(`${rode.text}\n`);
      if (rode && 'error' in rode) throw new Error((rode as { error: string }).error);
      if (rode && argv.strict && r.manifest.ride!.findings.length) {
        failed++;
        // The counts, not the findings listed: the manifest lists at most RIDE_LISTED of them.
        const n = r.manifest.ride!.counts, all = n.bump + n.snag + n.step + n.gap;
        process.stderr.write(`compile-collision: ride: ${all} finding(s) (${n.bump} bump, ${n.snag} snag, ${n.step} step, ${n.gap} gap) under --strict (the output is written; the ride reads what was written)\n`);
      }
    } catch (e) {
      progress.stop();
      failed++;
      const message = (e as Error).message;
      entries.push({ input: file, ok: false, error: { stage: errorStage(message), message } });
      process.stderr.write(`compile-collision: ${message}\n`);
    }
  }
  if (argv.json) process.stdout.write(`${JSON.stringify(several ? entries : entries[0], null, 2)}\n`);
  process.exitCode = failed ? 1 : 0;
}

/**
 * compile --ride: the ride check over what was just written (the output's resources as its manifest lists them),
 * stored into the output's manifest.json as `ride` (rewritten whole: written beside, then renamed over it).
 */
async function rideBuilt(r: CompileResult): Promise<{ text: string } | { text: string; error: string }> {
  const { rideFiles, rideText } = await import('./ride.ts');
  const { RIDE_LISTED } = await import('../../src/ride/index.ts');
  const { renameSync, writeFileSync } = await import('node:fs');
  const t0 = performance.now();
  // In the order `ride OUT` takes a folder's files (their names sorted): the world's face order sets the crossing
  // points along the seams and which of equal findings is kept, so the two report the same ride.
  const rode = await rideFiles(r.manifest.resources.map((m) => m.file).sort().map((f) => join(r.outDir, f)), 'auto');
  if ('error' in rode) return { text: '', error: `ride: ${rode.error}` };
  const report = rode.report;
  const ms = performance.now() - t0;
  r.manifest.ride = { ...report, findings: report.findings.slice(0, RIDE_LISTED), listed: Math.min(RIDE_LISTED, report.findings.length) };
  // report.html shows the ride as a layer of its findings: built again with the manifest that holds it, and its
  // size and CRC-32 recorded again (a rebuild removes only files that still match the record).
  if (r.manifest.files.includes('report.html')) {
    const { buildReport } = await import('../../src/report/index.ts');
    const { checkOf } = await import('../../src/output/file-write.ts');
    const page = new TextEncoder().encode(await buildReport({ dir: r.outDir, manifest: r.manifest, timings: r.timings, workers: r.workers, objects: r.objects, materials: r.materials, ...r.reportData }));
    const at = join(r.outDir, 'report.html'), tmp = `${at}.ride-${process.pid}`;
    writeFileSync(tmp, page, { flag: 'wx' });
    renameSync(tmp, at);
    if (r.manifest.checks) r.manifest.checks['report.html'] = checkOf(page);
  }
  const path = join(r.outDir, 'manifest.json'), temp = `${path}.ride-${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(r.manifest, null, 2)}\n`, { flag: 'wx' });
  renameSync(temp, path);
  return { text: rideText(report, ms) };
}

/** `layoutLine`: the summary's layout line (why one resource per object or cells), for front ends such as the Blender add-on. */
function jsonEntry(r: CompileResult, verbose: boolean, layoutLine: string): JsonEntry {
  const base = { input: r.input, ok: true as const, outDir: r.outDir, workers: r.workers, timings: r.timings, layoutLine };
  const objects = verbose ? { objects: r.objects } : {};
  if (r.dryRun) return { ...base, dryRun: true, wouldWrite: r.dryRun, warnings: r.manifest.warnings, ...objects };
  return { ...base, manifest: r.manifest, ...objects };
}

export const compileCommand: CommandModule<object, Args> = {
  command: '$0 [inputs..]',
  describe: 'compile levels (glTF .glb/.gltf, GTA V .ybn/.ybn.xml, forge .forge or an extracted folder, globs) into PhysicsResource collision',
  builder: (y: Argv) =>
    y
      .positional('inputs', { type: 'string', array: true, describe: "level files or globs ('levels/**/*.glb')" })
      .option('out', { alias: 'o', type: 'string', defaultDescription: '<input-stem>.collision next to the input', describe: "output directory (with several inputs: the parent of one <stem>.collision each)" })
      .option('scene', { type: 'string', defaultDescription: "the file's default scene", describe: "which glTF scene to compile" })
      .option('cell-size', { type: 'number', default: 100, describe: "edge of a collision_area cell, metres (50, 100 or 200)" })
      .option('workers', { type: 'string', defaultDescription: 'auto', describe: "encoding threads, the main thread included (auto: by size, at most one per idle core); the output is identical for any count" })
      .option('allow-custom-slots', { type: 'boolean', default: false, describe: "accept material slots ≥ 116 (only for levels whose MaterialIndexMap adds them: an unknown slot crashes the game on contact)" })
      .option('budget', { type: 'number', default: 4003, describe: "geometry budget (one geometry = one shape); at or above it collision is merged into cells" })
      .option('tiling', { choices: ['auto', 'objects', 'cells'] as const, default: 'auto' as const, describe: "by budget, or force one resource per object / cells" })
      .option('seams', { choices: ['level', 'shape'] as const, default: 'level' as const, describe: "edge data where the compiler cuts the level (material parts, u16 split, resources, cells): level gives each cut corner the edge data of the face across the cut, so no open edges are made, and joins T-junctions, near-flush joints and open edges lying on another object's face (a kicker's foot on the ground) within 0.1 mm; shape leaves them open, byte for byte as Studio writes" })
      .option('grind-density', {
        type: 'string', default: String(GRIND_DENSITY_TARGET),
        coerce: (v: string): number | 'off' => {
          if (v === 'off') return 'off';
          const d = Number(v);
          if (!/^\d+(\.\d+)?$/.test(v) || !(d >= 1 && d <= 1e9)) throw new Error(`--grind-density: "${v}" is not off or a number of half-edges per metre in 1…1e9`);
          return d;
        },
        describe: `the most half-edges per metre of bbox diagonal a written part may hold: a denser part is cut into parts under it, creases kept inside, so the game analyses its edges for grinding (it analyses none of a part over ~1,000; Studio warns at 900); off: Studio's writer, one part and the warning`,
      })
      .option('simplify', {
        type: 'number',
        describe: 'simplify each mesh part over the game\'s density limit (too dense to grind) within this absolute error in metres (0.0001 to 1), with meshoptimizer, open borders and grind creases kept; parts under the limit are never changed; the error reached is in manifest.json (grind.simplified); off by default',
      })
      .option('recorded-options', { type: 'boolean', default: false, describe: "take the build settings a to-gltf GLB carries from the compile output it was made from (cell size, budget, the layout it had, seams, shape modes, custom slots, Studio header), so the recompile gives that output's files again; they replace those flags" })
      .option('studio-template', { type: 'string', defaultDescription: 'none', describe: "copy header word 0x08 and the 0x4c-byte body of a resource ReSkate Studio wrote (Studio's form); without it the game's form is written" })
      .option('chord-error', { type: 'number', default: 0.005, describe: "largest distance, metres (0.0001–0.5), between a tessellated sphere/capsule/cylinder/cone and its true surface (vertices lie on it; boxes are exact)" })
      .option('native-shapes', { type: 'boolean', default: false, describe: "experimental: box objects as kind-2 box parts, hull and convex_parts as kind-3 convex polyhedra (polygon faces with planes); ReSkate Studio writes only kind 5, so whether the game handles these is not established (the manifest says \"nativeShapes\": \"experimental\")" })
      .option('hull-parts', { type: 'boolean', default: false, describe: "a convex_parts part that breaks the convex contract is compiled as its hull, with a warning, instead of failing the build" })
      .option('allow-outside-uris', { type: 'boolean', default: false, describe: "read buffer files a .gltf names outside its own directory (../shared.bin, absolute paths, links out); without it they are refused, naming the buffer" })
      .option('ybn-detail', { type: 'boolean', default: false, describe: "compile hi@/ma@ YBN files (GTA V's finer collision copies for vehicles and weapons) with their children that only vehicles, cover searches or tests meet (all of them: the map rule would drop every one), each listed in the manifest as kept; without it they are skipped with a note" })
      .option('forge-materials', { type: 'string', defaultDescription: 'none', describe: "JSON file mapping forge CollisionMaterial names or ids (\"0x…\") to skate. surface names; checked before the keyword table (docs/forge.md), unmapped materials get the default surface 0x20 with a warning" })
      .option('ybn-keep', { type: 'string', defaultDescription: 'none', describe: "compile YBN composite children that are not solid for a skater anyway: a comma list of stairs (ped-only ramps over steps), river, foliage, cover (AI-cover walls), vehicles (met by vehicles only), probes (only weapon/camera/AI tests meet them), or all; without it they are skipped and counted" })
      .option('ymap', { type: 'string', defaultDescription: 'none', describe: "a .ymap (the game's binary form) or CodeWalker .ymap.xml whose CMloInstanceDef/CEntityDef placements put interior YBN collision where the game does (repeat for several); a .ymap or .ymap.xml among the inputs counts too" })
      .option('report', { type: 'boolean', default: false, describe: "write report.html into the output: the written collision in a browser (3D view, edge classes, cells and budget, findings); opens from disk, no network" })
      .option('allow-pool-overflow', { type: 'boolean', default: false, describe: "build even when the geometries exceed ReSkate's geometry pool (40,000), which faults the game; without it such a build fails and writes nothing" })
      .option('strict', { type: 'boolean', default: false, describe: "any warning fails the build and nothing is written (for CI)" })
      .option('ride', { type: 'boolean', default: false, describe: "ride the written collision afterwards (compile-collision ride: probes across every seam and along lanes; bumps, snags, steps, gaps) and store it in manifest.json as ride; with --strict a finding fails the build (exit 1; the output stays written)" })
      .option('dry-run', { type: 'boolean', default: false, describe: "import, validate and plan, then print (or with --json give) what would be written: resources, cells, estimated geometries; nothing is written" })
      .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: "print errors only" })
      .option('verbose', { alias: 'v', type: 'boolean', default: false, describe: "also print each stage's time, every warning, and per object the decision taken: mode, material words, triangles, the resource or cell holding it" })
      .option('cache', { type: 'string', defaultDescription: '<out>/.cache', describe: "incremental cache directory, default <out>/.cache (--no-cache: none): a resource whose inputs are unchanged is reused; the output is byte for byte a clean build's" })
      .option('watch', { type: 'boolean', default: false, describe: "stay running and rebuild whenever the level (or a .gltf's buffer files, or the .ymap / .ymap.xml placing a GTA V file) changes, one line per rebuild; a failed rebuild keeps the last output and prints why; Ctrl-C stops" })
      .option('progress-json', { type: 'boolean', default: false, describe: "write one JSON line per progress event to stderr, {\"stage\":\"encode\",\"done\":120,\"total\":448} (stages: import, shapes, seams, validate, plan, cache, encode, report, publish; a stage without steps gives 0/1 and 1/1), for front ends such as the Blender add-on; replaces the terminal's progress bar" })
      .option('json', { type: 'boolean', default: false, describe: "print JSON instead of the summary: for each level its outDir, timings, layoutLine (the summary's layout line) and manifest, or for a failed one { input, ok: false, error: { stage, message } } (an array when there are several levels)" })
      // --help by task, as gltf-transform lists its commands' options (an option added without a group is listed
      // under "Options:" until it is given one).
      .group(['out', 'report', 'json', 'quiet', 'verbose', 'progress-json', 'dry-run'], 'Output:')
      .group(['cell-size', 'budget', 'tiling', 'workers', 'scene', 'allow-pool-overflow'], 'Layout and budget:')
      .group(['seams', 'grind-density', 'chord-error', 'native-shapes', 'hull-parts', 'allow-custom-slots', 'studio-template', 'recorded-options'], 'Shapes, edges and header:')
      .group(['strict', 'ride', 'allow-outside-uris'], 'Checks:')
      .group(['cache', 'watch'], 'Rebuilds:')
      .group(['ybn-detail', 'ybn-keep', 'ymap', 'forge-materials'], 'Level ports (GTA V .ybn, forge):') as unknown as Argv<Args>,
  handler,
};
