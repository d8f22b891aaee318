// compile-collision ride INPUT...: probes ridden over the written collision (src/ride/, docs/ride.md) of compile
// outputs, .physics files, folders or globs (as verify takes them). Reads only: nothing is written into the inputs.
// Exit codes: 0 no findings, 1 findings, 2 usage or an input that cannot be read (a file verify refuses is refused
// by name and offset).
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { CommandModule } from 'yargs';
import type { Finding } from '../../src/format/verify.ts';
import type { RideOptions, RideReport, RideWorld } from '../../src/ride/index.ts';
import type { RideThreads } from '../../src/ride/threads.ts';
import type { WasmWorldBuilder } from '../../src/ride/world-wasm.ts';
import { parseWorkers } from './compile.ts';
import { expandPhysicsInputs } from '../physics-inputs.ts';
import { checkNumber, usage } from '../options.ts';

interface RideArgs {
  inputs: string[];
  json: boolean;
  seamSpacing: number;
  laneSpacing: number;
  workBudget: number;
  workers?: string;
}

/**
 * Threads for a ride, this one included: --workers as given (1: this thread alone); auto is this thread alone. The
 * world built on two threads (this one and a worker: RideThreads) gives the same report but lost on the 1M bench level
 * on this project's 2-core machine both under load and idle (idle, 04:50 UTC 2026-12-06: 1.10–1.20 s wall against
 * 0.98–1.09 s on one thread): each isolate warms up its own copy of the hot code (the first ~200 files of a ride run
 * 2–4× slower than the rest) and a worker takes its first file 100–200 ms after it is spawned, while one thread builds
 * the whole world in ~350 ms (docs/performance.md "Riding the collision").
 */
export function rideThreadCount(workers: number | 'auto'): number {
  return workers === 'auto' ? 1 : workers;
}

/** A refusal in words: the file, verify's first finding (its check and offset) and how many more. */
function refusal(file: string, refused: Finding[]): string {
  const f = refused[0];
  const at = f.offset !== undefined ? ` at offset 0x${f.offset.toString(16)}` : '';
  return `${file}: refused by verify (${f.check})${at}: ${f.message}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}`;
}

/**
 * The world of the files' faces, or the first file that cannot be read: its name and why (verify's finding, with its
 * offset). Each file is read (into one reused buffer), verified and its faces added before the next is read: its
 * record goes once its faces are in the world (the world, not the files beside it, sets the ride's peak memory).
 * With `threads`, the world is built by this thread and the workers together (the same world: src/ride/threads.ts;
 * `mainClaims` false: by the workers alone, for tests); one thread sizes its builder from the files' sizes added up,
 * and from `pipelineMinBytes` of them on has a worker write the faces while it reads the next files (the same world).
 */
export async function readRideWorld(files: string[], threads?: RideThreads, mainClaims = true, pipelineMinBytes = PIPELINE_MIN_BYTES): Promise<{ world: RideWorld } | { error: string }> {
  if (threads) {
    const read = await threads.buildWorld(files, files.map((f) => basename(f)), {}, mainClaims);
    if ('world' in read) return read;
    return { error: 'refused' in read ? refusal(files[read.index], read.refused) : `${files[read.index]}: ${read.error}` };
  }
  const bytes = filesBytes(files);
  // A pipelined build's writer thread is started before the reading modules load: its start (~25–40 ms) overlaps
  // their loading. Otherwise all load together (one after the other, each waited for its files' reads and links in
  // turn, ~2–4 ms more a start).
  let builder: WasmWorldBuilder | undefined;
  if (bytes >= pipelineMinBytes) {
    const [{ WasmWorldBuilder }, { capacityForBytes }] = await Promise.all([import('../../src/ride/world-wasm.ts'), import('../../src/ride/world.ts')]);
    const capacity = capacityForBytes(bytes);
    builder = new WasmWorldBuilder(capacity.faces, capacity.vertices, 'worker');
  }
  try {
    const [{ ReadBuffer }, { readRideFile }, { capacityForBytes }, { WasmWorldBuilder }] = await Promise.all([
      import('../../src/files.ts'), import('../../src/ride/world-files.ts'), import('../../src/ride/world.ts'), import('../../src/ride/world-wasm.ts'),
    ]);
    if (!builder) {
      const capacity = capacityForBytes(bytes);
      builder = new WasmWorldBuilder(capacity.faces, capacity.vertices);
    }
    const into = new ReadBuffer();
    for (const file of files) {
      const read = readRideFile(file, into);
      if ('error' in read) return { error: `${file}: ${read.error}` };
      if ('refused' in read) return { error: refusal(file, read.refused) };
      builder.add({ name: basename(file), resource: read.resource });
    }
    return { world: builder.finish() };
  } finally {
    builder?.close();
  }
}

/**
 * Files of this many bytes in all and more are written into the world by a second thread while this one reads the
 * next (src/ride/world-pipe.ts): below it, the worker's start costs more than the writing it takes over (a 144 KB
 * file's ~3,400 faces take the writer ~0.2 ms; the 1M-face bench level's 47 MB, ~70 ms).
 */
export const PIPELINE_MIN_BYTES = 8 << 20;

/** The files' sizes in bytes, added up (a file that cannot be statted counts 0: its read says why). */
function filesBytes(files: string[]): number {
  let bytes = 0;
  for (const file of files) {
    try {
      bytes += statSync(file).size;
    } catch {
      // told by the read
    }
  }
  return bytes;
}

/**
 * Reads and rides the files (readRideWorld, rideWorld) on `workers` threads, this one included (rideThreadCount;
 * 1: this thread alone); the report is the same for any count.
 */
export async function rideFiles(files: string[], workers: number | 'auto', options: Partial<RideOptions> = {}): Promise<{ report: RideReport } | { error: string }> {
  const count = rideThreadCount(workers);
  // Loaded only for worker threads: it brings the worker pool's modules (src/tiling/pool.ts and what it imports).
  const threads = count > 1 ? new (await import('../../src/ride/threads.ts')).RideThreads(count - 1) : undefined;
  try {
    const read = await readRideWorld(files, threads);
    if ('error' in read) return read;
    if (threads) return { report: await threads.ride(read.world, options) };
    const { rideWorld } = await import('../../src/ride/index.ts');
    return { report: rideWorld(read.world, options) };
  } finally {
    await threads?.close();
  }
}

/** The report in lines for a terminal: each finding, then counts and coverage. */
export function rideText(r: RideReport, ms: number): string {
  const lines: string[] = [];
  const p = (v: number[]): string => v.map((x) => x.toFixed(3)).join(', ');
  for (const f of r.findings) {
    const by = f.probe ? `, ${f.probe} at ${f.speed} m/s` : '';
    const edge = f.edge ? `, ${f.edge} edge` : '';
    lines.push(`${f.kind} at (${p(f.position)}): ${f.size} ${f.unit} — ${f.resource} part ${f.part} face ${f.face}${edge}${by}`);
  }
  const c = r.coverage, n = r.counts;
  const m = (v: number): string => Math.round(v).toLocaleString('en-US'); // whole metres, grouped: a summary line, not data (--json has the figures)
  lines.push(`ride: ${n.bump} bump, ${n.snag} snag, ${n.step} step, ${n.gap} gap; seams ${m(c.seamMetresRidden)} of ${m(c.seamMetres)} m ridden (${c.crossings} crossings), ` +
    `${(100 * c.walkableShare).toFixed(1)}% of ${c.walkableArea < 10 ? c.walkableArea.toFixed(2) : m(c.walkableArea)} m² walkable sampled, ${c.rides} rides (${c.quietRides} quiet: nothing to meet) over ${m(c.metresRidden)} m in ${(ms / 1000).toFixed(2)} s`);
  if (r.note) lines.push(`ride: ${r.note}`);
  return lines.join('\n');
}

export const rideCommand: CommandModule<object, RideArgs> = {
  command: 'ride <inputs..>',
  describe: 'ride probes (wheel, deck, capsule at 3 and 8 m/s) over written collision (compile outputs, .physics files, folders, globs) across every seam and along lanes: bumps, snags, steps and gaps',
  builder: (y) =>
    y
      .positional('inputs', { type: 'string', array: true, demandOption: true, describe: ".physics files, folders, compile outputs or globs ('out/*.physics')" })
      // A variadic positional's implied [] default, shown beside [required], says nothing: not shown.
      .default('inputs', undefined)
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object: counts {bump, snag, step, gap}, findings [{kind, position: [x, y, z], resource, part, face, size, unit, probe, speed, …}], coverage, options' })
      .option('seam-spacing', { type: 'number', default: 2, describe: 'metres of seam between crossing points (0.05–1000), widened so that a level has at most 3,000 crossings; each crossing is ridden by every probe at both speeds both ways' })
      .option('lane-spacing', { type: 'number', default: 16, describe: 'metres between lanes along x and along z over the walkable surface, ridden by the wheel at 8 m/s (0: none, up to 10000), widened so that lanes total at most 20,000 m' })
      .option('work-budget', { type: 'number', default: 400_000_000, describe: 'face visits at most; past it the ride stops and says how much it covered (1,000 or more)' })
      .option('workers', { type: 'string', defaultDescription: 'auto', describe: 'threads, the main thread included: N builds the world from the files on N threads and rides it on the N − 1 workers beside the main thread; 1 and auto: the main thread alone. The report is identical for any count' }) as never,
  handler: async (args) => {
    const seamSpacing = checkNumber('seam-spacing', args.seamSpacing, { min: 0.05, max: 1000, integer: false, unit: 'metres' });
    const laneSpacing = checkNumber('lane-spacing', args.laneSpacing, { min: 0, max: 10000, integer: false, unit: 'metres' });
    const workBudget = checkNumber('work-budget', args.workBudget, { min: 1000, integer: true, unit: 'face visits' });
    // The files only: nothing of a compile output's manifest is ridden.
    const { groups, unmatched } = await expandPhysicsInputs(args.inputs, { manifests: false });
    if (unmatched.length) usage(`ride: no such file or folder: ${unmatched.join(', ')}`);
    const files = [...new Set(groups.flatMap((g) => g.files))];
    if (files.length === 0) usage(`ride: no .physics files in ${args.inputs.join(', ')}`);
    const workers = parseWorkers(args.workers);
    const t0 = performance.now();
    const rode = await rideFiles(files, workers, { seamSpacing, laneSpacing, workBudget });
    if ('error' in rode) {
      process.stderr.write(`compile-collision: ride: ${rode.error}\n`);
      process.exit(2);
    }
    const report = rode.report;
    const ms = performance.now() - t0;
    if (args.json) process.stdout.write(`${JSON.stringify({ ...report, files: files.length, ms: Math.round(ms) }, null, 2)}\n`);
    else process.stdout.write(`${rideText(report, ms)}\n`);
    process.exitCode = report.findings.length ? 1 : 0;
  },
};
