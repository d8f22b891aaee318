// npm run bench:ride [-- --runs N --seams level|shape --level FILE.glb --workers N]
// The ride check against its speed goal: `compile-collision ride OUT` takes at most half the compile's wall time on
// the same level and peaks at no more memory than the compile (docs/performance.md "Riding the collision"). Per
// round, two fresh child processes one after the other, as a user runs them: the compile
//   node bin/compile-collision.js LEVEL -o OUT --seams level --no-cache -q --no-report
// into a fresh folder, then the ride of that output
//   node bin/compile-collision.js ride OUT --json
// Each is timed from spawn to exit (wall); its CPU (user + system, all threads) and peak RSS are the child's own
// process.resourceUsage() at exit, handed back by a preload given inline (--import data:…: nothing is written to or
// run from disk; no /usr/bin/time needed). The ratios are per round (the two ran back to back under the same load)
// and over the medians. The ride's counts and coverage are printed too, so a change of results shows beside the time.
// The level: the 1M-triangle bench level (scripts/bench-level.ts makes it when missing).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LEVEL = join(tmpdir(), 'skate-collision-bench', 'level-1m.glb');
const BIN = fileURLToPath(new URL('../bin/compile-collision.js', import.meta.url));
/** The goals: the ride's wall time over the compile's at most this, and its peak RSS at most the compile's. */
const WALL_RATIO_GOAL = 0.5;

/**
 * Preload for each timed child: at exit, its own resource usage (all threads) as one line on a file descriptor of its
 * own (3: a pipe spawnSync collects), apart from its stdout and stderr.
 */
const RUSAGE_PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => { const u = process.resourceUsage(); " +
    'try { writeSync(3, `${JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKiB: u.maxRSS })}\\n`); } catch {} });',
)}`;

interface Run {
  wallMs: number;
  cpuMs: number;
  rssMiB: number;
  stdout: string;
}

/** One fresh process `node bin/compile-collision.js ...args`: wall time from spawn to exit, its CPU and peak RSS. */
function timed(args: string[], okStatus: number[]): Run {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', RUSAGE_PRELOAD, BIN, ...args], {
    encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const wallMs = performance.now() - t0;
  if (r.status === null || !okStatus.includes(r.status)) throw new Error(`bench:ride: compile-collision ${args.join(' ')}: exit ${r.status ?? r.signal}\n${r.stderr}`);
  const usage = JSON.parse(String(r.output[3]).trim().split('\n').pop()!);
  return { wallMs, cpuMs: usage.cpuMs, rssMiB: usage.maxRssKiB / 1024, stdout: r.stdout };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (v: number): string => `${Math.round(v).toLocaleString('en-US')} ms`;
const mib = (v: number): string => `${v.toFixed(0)} MiB`;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(', ');
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');

/** The ride's results that must not change with its speed: counts and coverage (the JSON less its time). */
function results(json: string): { counts: Record<string, number>; coverage: Record<string, number>; findings: number; files: number } {
  const r = JSON.parse(json);
  return { counts: r.counts, coverage: r.coverage, findings: r.findings.length, files: r.files };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, def: string): string => (args.includes(name) ? args[args.indexOf(name) + 1] : def);
  const runs = Number(opt('--runs', '3'));
  const seams = opt('--seams', 'level');
  const level = opt('--level', LEVEL);
  const rideWorkers = args.includes('--workers') ? ['--workers', opt('--workers', 'auto')] : [];
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`bench:ride: --runs expects a whole number, 1 or more; got "${opt('--runs', '')}"`);
  if (seams !== 'level' && seams !== 'shape') throw new Error(`bench:ride: --seams expects level or shape; got "${seams}"`);
  if (!existsSync(level)) {
    if (level !== LEVEL) throw new Error(`bench:ride: no such level: ${level}`);
    const made = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./bench-level.ts', import.meta.url)), '--runs', '1'], { stdio: 'inherit' });
    if (made.status !== 0 || !existsSync(LEVEL)) throw new Error('bench:ride: the bench level could not be made (npm run bench:level)');
  }
  timed(['--version'], [0]); // the launcher's bundle built and cached before anything is timed
  const work = mkdtempSync(join(tmpdir(), 'sk8-bench-ride-'));
  const lines = [
    `bench:ride: ${basename(level)}, --seams ${seams}, ${runs} round(s) of fresh processes, compile then ride; ${availableParallelism()} cores, load ${load()} (1, 5, 15 min)`,
    `  compile: node bin/compile-collision.js ${basename(level)} -o OUT --seams ${seams} --no-cache -q --no-report`,
    `  ride:    node bin/compile-collision.js ride OUT --json${rideWorkers.length ? ` ${rideWorkers.join(' ')}` : ''}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const compiles: Run[] = [], rides: Run[] = [];
  const seen = new Set<string>();
  let first: ReturnType<typeof results> | undefined;
  try {
    for (let i = 0; i < runs; i++) {
      const out = join(work, `out-${i}`);
      const c = timed([level, '-o', out, '--seams', seams, '--no-cache', '-q', '--no-report'], [0]);
      // ride exits 1 with findings (--seams shape has thousands): still a finished ride.
      const r = timed(['ride', out, '--json', ...rideWorkers], [0, 1]);
      rmSync(out, { recursive: true, force: true });
      compiles.push(c);
      rides.push(r);
      const got = results(r.stdout);
      first ??= got;
      seen.add(JSON.stringify(got));
      const ratio = r.wallMs / c.wallMs;
      process.stdout.write(
        `  round ${i + 1}: compile ${ms(c.wallMs)} wall, ${ms(c.cpuMs)} CPU, ${mib(c.rssMiB)}; ride ${ms(r.wallMs)} wall, ${ms(r.cpuMs)} CPU, ${mib(r.rssMiB)}; ` +
          `ride/compile wall ${ratio.toFixed(2)} ${verdict(ratio <= WALL_RATIO_GOAL)}, RSS ${(r.rssMiB / c.rssMiB).toFixed(2)} ${verdict(r.rssMiB <= c.rssMiB)}; load ${load()}\n`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const m = (xs: Run[], f: (r: Run) => number): number => median(xs.map(f));
  const cw = m(compiles, (r) => r.wallMs), rw = m(rides, (r) => r.wallMs), cr = m(compiles, (r) => r.rssMiB), rr = m(rides, (r) => r.rssMiB);
  const ratios = rides.map((r, i) => r.wallMs / compiles[i].wallMs);
  const f = first!;
  const c = f.coverage;
  const out = [
    `  median:  compile ${ms(cw)} wall, ${ms(m(compiles, (r) => r.cpuMs))} CPU, ${mib(cr)}; ride ${ms(rw)} wall, ${ms(m(rides, (r) => r.cpuMs))} CPU, ${mib(rr)}`,
    `  goal: ride wall ≤ ${WALL_RATIO_GOAL} × compile: median of the rounds' ratios ${median(ratios).toFixed(2)}, of the medians ${(rw / cw).toFixed(2)} ${verdict(median(ratios) <= WALL_RATIO_GOAL)}`,
    `  goal: ride peak RSS ≤ compile's: ${mib(rr)} against ${mib(cr)} (median) ${verdict(rr <= cr)}; every round ${verdict(rides.every((r, i) => r.rssMiB <= compiles[i].rssMiB))}`,
    `  ride: ${f.files} files; ${f.counts.bump} bump, ${f.counts.snag} snag, ${f.counts.step} step, ${f.counts.gap} gap (${f.findings} findings); ` +
      `seams ${Math.round(c.seamMetresRidden).toLocaleString('en-US')} of ${Math.round(c.seamMetres).toLocaleString('en-US')} m ridden, ${c.crossings.toLocaleString('en-US')} crossings; ` +
      `${(100 * c.walkableShare).toFixed(1)}% of ${Math.round(c.walkableArea).toLocaleString('en-US')} m² walkable sampled; ${c.rides.toLocaleString('en-US')} rides over ${Math.round(c.metresRidden).toLocaleString('en-US')} m` +
      `${seen.size > 1 ? `; RESULTS DIFFER between rounds (${seen.size} different)` : ', the same every round'}`,
    `  load after: ${load()}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

await main();
