// compile-collision ride INPUT...: probes ridden over the written collision (src/ride/, docs/ride.md) of compile
// outputs, .physics files, folders or globs (as verify takes them). Reads only: nothing is written into the inputs.
// Exit codes: 0 no findings, 1 findings, 2 usage or an input that cannot be read (a file verify refuses is refused
// by name and offset).
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { CommandModule } from 'yargs';
import type { RideReport, RideWorld } from '../../src/ride/index.ts';
import { expandPhysicsInputs, readPhysicsFile } from '../physics-inputs.ts';
import { checkNumber, usage } from '../options.ts';

interface RideArgs {
  inputs: string[];
  json: boolean;
  seamSpacing: number;
  laneSpacing: number;
  workBudget: number;
}

/**
 * The world of the files' faces, or the first file that cannot be read: its name and why (verify's finding, with its
 * offset). Each file is read, verified and its faces added before the next is read: its bytes and record go once
 * they are in the world (the world, not the files beside it, sets the ride's peak memory).
 */
export async function readRideWorld(files: string[]): Promise<{ world: RideWorld } | { error: string }> {
  const { verifyAndRead } = await import('../../src/format/verify.ts');
  const { MIN_FILE_BYTES_PER_FACE, WorldBuilder } = await import('../../src/ride/index.ts');
  let bytes = 0;
  for (const file of files) {
    try {
      bytes += statSync(file).size;
    } catch {
      // told by the read below
    }
  }
  const builder = new WorldBuilder(bytes / MIN_FILE_BYTES_PER_FACE);
  for (const file of files) {
    const read = readPhysicsFile(file);
    if ('error' in read) return { error: `${file}: ${read.error}` };
    // The resource verify read is the one ridden: the file is parsed once.
    const { findings: refused, resource } = verifyAndRead(read.bytes, file);
    if (refused.length || !resource) {
      const f = refused[0];
      const at = f.offset !== undefined ? ` at offset 0x${f.offset.toString(16)}` : '';
      return { error: `${file}: refused by verify (${f.check})${at}: ${f.message}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}` };
    }
    builder.add({ name: basename(file), resource });
  }
  return { world: builder.finish() };
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
    `${(100 * c.walkableShare).toFixed(1)}% of ${m(c.walkableArea)} m² walkable sampled, ${c.rides} rides over ${m(c.metresRidden)} m in ${(ms / 1000).toFixed(2)} s`);
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
      .option('work-budget', { type: 'number', default: 400_000_000, describe: 'face visits at most; past it the ride stops and says how much it covered (1,000 or more)' }) as never,
  handler: async (args) => {
    const seamSpacing = checkNumber('seam-spacing', args.seamSpacing, { min: 0.05, max: 1000, integer: false, unit: 'metres' });
    const laneSpacing = checkNumber('lane-spacing', args.laneSpacing, { min: 0, max: 10000, integer: false, unit: 'metres' });
    const workBudget = checkNumber('work-budget', args.workBudget, { min: 1000, integer: true, unit: 'face visits' });
    const { groups, unmatched } = await expandPhysicsInputs(args.inputs);
    if (unmatched.length) usage(`ride: no such file or folder: ${unmatched.join(', ')}`);
    const files = [...new Set(groups.flatMap((g) => g.files))];
    if (files.length === 0) usage(`ride: no .physics files in ${args.inputs.join(', ')}`);
    const t0 = performance.now();
    const read = await readRideWorld(files);
    if ('error' in read) {
      process.stderr.write(`compile-collision: ride: ${read.error}\n`);
      process.exit(2);
    }
    const { rideWorld } = await import('../../src/ride/index.ts');
    const report = rideWorld(read.world, { seamSpacing, laneSpacing, workBudget });
    const ms = performance.now() - t0;
    if (args.json) process.stdout.write(`${JSON.stringify({ ...report, files: files.length, ms: Math.round(ms) }, null, 2)}\n`);
    else process.stdout.write(`${rideText(report, ms)}\n`);
    process.exitCode = report.findings.length ? 1 : 0;
  },
};
