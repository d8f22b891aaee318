// npm run grind:figures -- LEVEL... [--runs N]
// The density cut's figures (docs/performance.md "Grind map and density cut"): each level compiled with
// --grind-density off (Studio's writer) and with the default, in fresh CLI processes alternating, no cache, no
// report: parts over the game's density limit, those of them that hold creases, grindable edges and metres, files,
// geometries, and wall / CPU time (medians of --runs rounds). The machine's load is printed beside them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/compile-collision.js', import.meta.url));
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const levels = args.filter((a, i) => !a.startsWith('--') && i !== runsAt + 1);

interface Run { wallMs: number; cpuMs: number; manifest: any }

function once(level: string, density: string): Run {
  const out = mkdtempSync(join(tmpdir(), 'grind-figures-'));
  try {
    // /usr/bin/time: wall, and user + system CPU of the CLI process and its worker threads.
    const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S', process.execPath, BIN, level, '-o', join(out, 'o'), '--no-cache', '--no-report', '--json', ...(density === 'default' ? [] : ['--grind-density', density])], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const t = /^TIME (\S+) (\S+) (\S+)$/m.exec(r.stderr);
    if (!t || (r.status !== 0 && r.status !== 2)) throw new Error(`${level} --grind-density ${density}: exit ${r.status}: ${r.stderr.slice(-2000)}`);
    return { wallMs: 1000 * Number(t[1]), cpuMs: 1000 * (Number(t[2]) + Number(t[3])), manifest: JSON.parse(readFileSync(join(out, 'o', 'manifest.json'), 'utf8')) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
console.log(`runs: ${runs} alternating per setting; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on this shared machine`);
for (const level of levels) {
  const by: Record<string, Run[]> = { off: [], default: [] };
  for (let i = 0; i < runs; i++) for (const d of ['off', 'default']) by[d].push(once(level, d));
  for (const d of ['off', 'default']) {
    const m = by[d][0].manifest;
    const dense = m.grind?.denseParts ?? [];
    console.log(
      `${level.split('/').pop()} --grind-density ${d}: parts over ${m.grind?.densityLimit} ${dense.length} (with creases ${dense.filter((x: any) => x.creases > 0).length}), ` +
        `grindable ${m.totals['grindable-edges']} edges / ${m.totals['grindable-metres']} m, files ${m.files.length + 1}, geometries ${m.geometries}, ` +
        `parts added by the cut ${m.grind?.cut.added}; wall ${median(by[d].map((r) => r.wallMs)).toFixed(0)} ms [${by[d].map((r) => r.wallMs.toFixed(0)).join(', ')}], ` +
        `cpu ${median(by[d].map((r) => r.cpuMs)).toFixed(0)} ms [${by[d].map((r) => r.cpuMs.toFixed(0)).join(', ')}]`,
    );
  }
}
console.log(`load average after: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
