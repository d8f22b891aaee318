// compile-collision [inputs..]: the default command. Thin: parse, expand globs, call compileLevel per level, print.
// Exit codes: 0 every level built, 1 a level failed to build, 2 usage error (bad option, input not found).
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import type { CompileOptions, CompileResult } from '../../src/compile.ts';
import { CELL_SIZES, type CellSize } from '../../src/tiling/cells.ts';
import type { SeamMode } from '../../src/tiling/seams.ts';
import { join } from 'node:path';

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
  report?: boolean;
  studioTemplate?: string;
  seams: SeamMode;
  allowOutsideUris: boolean;
  chordError: number;
  nativeShapes: boolean;
  hullParts: boolean;
  ybnDetail: boolean;
  cache?: string | boolean;
  watch: boolean;
}

const usage = (msg: string): never => {
  process.stderr.write(`compile-collision: ${msg}\nRun compile-collision --help for usage.\n`);
  process.exit(2);
};

function parseWorkers(v: string | undefined): number | 'auto' {
  if (v === undefined || v === 'auto') return 'auto';
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 256) return usage(`--workers must be 'auto' or 1..256, got ${v}`);
  return n;
}

async function progressBar(json: boolean): Promise<((stage: string, done: number, total: number) => void) & { stop?: () => void }> {
  if (json || !process.stderr.isTTY) return () => {};
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar({ stream: process.stderr, format: '  {stage} [{bar}] {value}/{total}', hideCursor: true }, Presets.shades_classic);
  let started = false;
  const f = ((stage: string, done: number, total: number) => {
    if (total < 8) return; // not worth a bar
    if (!started) {
      bar.start(total, 0, { stage });
      started = true;
    }
    bar.update(done, { stage });
    if (done === total) {
      bar.stop();
      started = false;
    }
  }) as ((stage: string, done: number, total: number) => void) & { stop?: () => void };
  f.stop = () => started && bar.stop();
  return f;
}

async function handler(argv: ArgumentsCamelCase<Args>): Promise<void> {
  const patterns = argv.inputs ?? [];
  if (patterns.length === 0) usage('give a level (.glb/.gltf/.ybn/.ybn.xml) to compile, or a command');
  if (!Number.isInteger(argv.budget) || argv.budget < 1) usage(`--budget must be a positive integer, got ${argv.budget}`);
  if (!(argv.chordError >= 0.0001 && argv.chordError <= 0.5)) usage(`--chord-error must be 0.0001..0.5 (metres), got ${argv.chordError}`);
  const workers = parseWorkers(argv.workers);
  // Loaded here, not at the top: `inspect`, `verify` and usage errors need none of the glTF stack.
  const { compileLevel, expandInputs, formatSummary, levelStem } = await import('../../src/compile.ts');
  const { files, unmatched, skipped } = await expandInputs(patterns, { ybnDetail: argv.ybnDetail });
  if (unmatched.length) usage(`no such level: ${unmatched.join(', ')}`);
  for (const f of skipped) process.stderr.write(`compile-collision: note: ${f} skipped: a hi@/ma@ file is the vehicle/weapon detail copy of map collision (--ybn-detail compiles it)\n`);
  const several = files.length > 1;
  // --cache DIR, --no-cache (false), or the default <out>/.cache (undefined).
  const cache = argv.cache === false ? false : typeof argv.cache === 'string' && argv.cache !== '' ? argv.cache : undefined;
  const levelOptions = (out: string | undefined): Partial<CompileOptions> => ({
    out, scene: argv.scene, cellSize: argv.cellSize as CellSize, workers, allowCustomSlots: argv.allowCustomSlots, budget: argv.budget, tiling: argv.tiling, studioTemplate: argv.studioTemplate, seams: argv.seams, allowOutsideUris: argv.allowOutsideUris, report: argv.report ?? (!argv.json && process.stdout.isTTY === true), ybn: { detail: argv.ybnDetail },
    shapes: { chordError: argv.chordError, nativeShapes: argv.nativeShapes, hullParts: argv.hullParts }, cache,
  });
  if (argv.watch) {
    if (several) usage(`--watch takes one level, got ${files.length}`);
    const { watchLevel } = await import('../watch.ts');
    const w = await watchLevel(files[0], levelOptions(argv.out), { line: (t) => process.stdout.write(`${t}\n`), compile: (f, o) => compileLevel(f, o, { logger: { warn: () => {} } }) });
    process.stderr.write(`compile-collision: watching ${files[0]}; Ctrl-C stops\n`);
    const stop = (): void => void w.stop().then(() => process.exit(0));
    process.once('SIGINT', stop).once('SIGTERM', stop);
    return;
  }
  const results: CompileResult[] = [];
  let failed = 0;
  for (const file of files) {
    const out = argv.out === undefined ? undefined : several ? join(argv.out, `${levelStem(file)}.collision`) : argv.out;
    const progress = await progressBar(argv.json);
    try {
      const r = await compileLevel(file, levelOptions(out), { logger: { warn: () => {} }, onProgress: progress });
      results.push(r);
      if (!argv.json) process.stdout.write(`${formatSummary(r)}\n`);
    } catch (e) {
      progress.stop?.();
      failed++;
      process.stderr.write(`compile-collision: ${(e as Error).message}\n`);
    }
  }
  if (argv.json) {
    const out = results.map((r) => ({ input: r.input, outDir: r.outDir, workers: r.workers, timings: r.timings, manifest: r.manifest }));
    process.stdout.write(`${JSON.stringify(several ? out : out[0] ?? null, null, 2)}\n`);
  }
  process.exitCode = failed ? 1 : 0;
}

export const compileCommand: CommandModule<object, Args> = {
  command: '$0 [inputs..]',
  describe: 'compile levels (glTF .glb/.gltf, GTA V .ybn/.ybn.xml, globs) into PhysicsResource collision',
  builder: (y: Argv) =>
    y
      .positional('inputs', { type: 'string', array: true, describe: "level files or globs ('levels/**/*.glb')" })
      .option('out', { alias: 'o', type: 'string', describe: 'output directory (default <input-stem>.collision; with several levels, the parent of one such directory each)' })
      .option('scene', { type: 'string', describe: 'scene name or index (default: the default scene)' })
      .option('cell-size', { type: 'number', choices: [...CELL_SIZES], default: 100, describe: 'collision_area cell edge, metres' })
      .option('workers', { type: 'string', describe: "encoding threads, the main thread included: 'auto' or 1..256 (output is identical for any count)" })
      .option('allow-custom-slots', { type: 'boolean', default: false, describe: 'accept material slots ≥ 116 (levels that add surfaces)' })
      .option('budget', { type: 'number', default: 4003, describe: 'geometry budget: at or above it, collision merges into cells' })
      .option('tiling', { choices: ['auto', 'objects', 'cells'] as const, default: 'auto' as const, describe: 'auto by budget, or force per-object resources / cells' })
      .option('seams', { choices: ['level', 'shape'] as const, default: 'level' as const, describe: "edge data where the compiler cuts the level: 'level' (from the face across the cut) or 'shape' (open, as Studio writes)" })
      .option('studio-template', { type: 'string', describe: "a .physics written by ReSkate Studio: copy its header word and 0x4c-byte body (Studio's form)" })
      .option('chord-error', { type: 'number', default: 0.005, describe: 'largest distance of a tessellated sphere, capsule, cylinder or cone from its true surface, metres (0.0001–0.5)' })
      .option('native-shapes', { type: 'boolean', default: false, describe: 'experimental: boxes as kind-2 parts, hulls and convex parts as kind-3 polyhedra (default: all kind 5, as Studio)' })
      .option('hull-parts', { type: 'boolean', default: false, describe: 'a convex_parts part that breaks the convex contract becomes its hull (a warning) instead of an error' })
      .option('allow-outside-uris', { type: 'boolean', default: false, describe: "read buffer files outside the glTF's directory (refused by default)" })
      .option('ybn-detail', { type: 'boolean', default: false, describe: 'compile hi@/ma@ YBN files (vehicle/weapon detail copies; skipped by default)' })
      .option('cache', { type: 'string', describe: 'incremental cache directory (default <out>/.cache; --no-cache: none); never changes the output' })
      .option('watch', { type: 'boolean', default: false, describe: 'rebuild whenever the level (or a .gltf\'s buffers) changes, one line per rebuild; Ctrl-C stops' })
      .option('report', { type: 'boolean', describe: 'write report.html (the written collision in a browser, no network); default: on for a terminal run, off when piped or with --json (--no-report: off)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the manifest and timings as JSON' }) as unknown as Argv<Args>,
  handler,
};
