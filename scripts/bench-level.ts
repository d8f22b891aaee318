// npm run bench:level [-- --runs N --workers auto|N] [--incremental | --process]
// A 1M-triangle level from .glb to published collision_area tiles: wall time, peak RSS and each stage's share.
// The level (generated once into the OS temp dir, not timed): 560,000-triangle terrain on 400 × 700 quads of 4 m
// plus 4,100 props (8 shared meshes of 108 triangles, one node each): 1,002,800 triangles, ~4,130 geometries,
// above the 4,003 budget, so it compiles into 100 m cells. Each run is a fresh child process (cold JIT, as a user
// gets it); peak RSS is that process's maxRSS, workers included.
//
// Figures (2 cores, AMD EPYC; other helpers' benchmarks running on the same machine, hence the spread):
//   before the compiler tuning (14:17, load 0.7→1.7, auto → 1 thread, validation on the main thread):
//     wall 4,355 ms median of 3; peak RSS 308 MB; import 521 (12 %), plan 317 (7 %), validate 494 (11 %),
//     encode 2,673 (61 %), publish 136 (3 %).
//   after, final run (14:55, --runs 5, load 1.4→1.9, one core taken by another helper's benchmark throughout, so
//     auto chose 1 thread every run): wall 4,884 ms median [5,269, 4,576, 4,307, 4,884, 4,998]; peak RSS 332 MB;
//     import 920 (19 %), plan 453 (9 %), validate 11 (0 %: on the worker during the import), encode 3,277 (67 %),
//     publish 68 (1 %). The encoder's own CPU rises by ~25 % while the other benchmark runs (3,277 vs 2,673).
//   after, quietest run (14:47, --runs 5, load 1.1→1.9, auto → 2 threads in 4 runs): wall 3,323 ms median
//     [2,979, 3,074, 3,323, 5,430, 6,167]; peak RSS 336 MB; import 652 (20 %), plan 292 (9 %), validate 3 (0 %),
//     encode 2,278 (69 %), publish 10 (0 %).
//   The 1.5 s target is not met: the encoder (src/geometry, another helper's) is ~2.2–2.7 s of CPU; with it at
//   ~1 s the rest (import ~450–650 + plan ~150–300 on the main thread, then encode over both threads) projects
//   to ~1.2–1.5 s on an idle machine.
//   compile overhead pass (2026-11-29 15:10–16:00, helper "level"; load 3–5 throughout: two other helpers'
//     benchmarks and tests kept ~1.5–3 cores busy, so single runs spread 2×). Changes: workers spawned at once and
//     bundling on their own thread (cached bundle), validation posted during the walk, small objects first; a light
//     glTF reader instead of @gltf-transform's document build for plain files; callback file writes.
//     A/B against the commit before (fc2af4e, same src/geometry), children alternating, medians:
//       --workers auto, 7 runs: wall 4,988 → 3,138 ms; 9 runs: 4,315 → 3,486 ms (auto chose 1 thread in ~half of
//         the runs of both: the machine was busy); CPU 4,943 → 4,988 ms (same: the encoder dominates).
//       --workers 2, 9 runs: wall 4,233 → 3,733 ms; import 696 → 451, plan 361 → 362, encode 3,145 → 2,702.
//       --workers 2, 5 runs in the quietest window (15:55, load ~2.5 with these runs): wall 2,799 → 2,579 ms, CPU
//         5,115 → 4,916 ms; import 623 → 344, plan 273 → 279, encode 1,859 → 1,773.
//       At 16:04 (final code, load 1.6→3.6): --workers 2, 6 runs: wall 5,512 → 4,603, CPU 5,557 → 4,736;
//         auto (1 thread every run), 5 runs: wall 5,022 → 4,392, CPU 4,997 → 4,448.
//     Final `npm run bench:level -- --runs 7` (15:53, load 3.3→2.9, auto → 1 thread in 6 of 7 runs): wall 3,981 ms
//     median [3,699, 4,151, 4,295, 4,096, 3,981, 3,486, 3,289]; CPU 4,045 ms; peak RSS 317 MB; import 468 (12 %),
//     plan 468 (12 %), validate 2 (0 %), encode 2,713 (68 %), publish 38 (1 %).
//     Quietest single 2-thread runs: 2,402–2,427 ms wall (import 300–358, plan 212–328, encode 1,639–1,785).
//   Where the CPU goes (one 2-thread run, per thread from /proc): main 1.2–1.6 s, worker 1.1–1.4 s, V8's
//   background threads 1.5–2.2 s, libuv ~0.1 s. The background share is mostly TurboFan compiling the encoder
//   twice (once per isolate, plus on-stack-replacement variants): --trace-opt sums ~4.6 s of compile-job wall
//   time on a loaded machine (orderFaces ~140 ms a compile, buildShape ~75, quantiseNodes compiled 9 times). Still
//   above 1.5 s on this machine; the encoder's own speed-up (issue 3) and its compile cost are what is left.
//   2026-12-01 (another machine: 2-core Xeon VM whose speed swings ~2× within minutes — Rapier's 1M cook measured
//   1.5–4.0 s the same morning — so A/B runs alternate old and new children): the encoder moved to WebAssembly
//   (assembly/: weld, split, tree, edges, whole shapes; no JIT warm-up per isolate), plus checkIndices' deopt loop.
//     A/B against the session's start (e8ae3ea, all-JavaScript encoder), 3 runs a child, alternating:
//       slow phase: 2,249 / 2,636 / 2,651 → 1,572 / 1,681 / 1,933 ms wall (encode 1,650–1,902 → 864–1,151).
//       fast phase (the WebAssembly tree, edges and piece only): 1,561 / 1,644 / 1,726 → 1,092 / 1,167 / 1,249.
//     Final code, `--runs 7`: 1,448 ms median [1,117–1,527] (first set; import 291, plan 260, encode 812; CPU 2,739 ms;
//     peak RSS 293 MB) and 1,574 ms [1,390–1,907] (later, slow phase; import 328, plan 288, encode 861); 3-run sets
//     in the fast phase 994 and 1,040 ms (import ~200, plan ~175, encode 560–611). With the tree's SIMD scans:
//     1,410 ms median [1,307–1,657] (import 338, plan 275, encode 755; CPU 2,628 ms; peak RSS 295 MB).
//   So the 1.5 s target holds in this machine's fast phase and is missed by up to ~0.4 s in its slow one. What is
//   left: import + plan on the main thread (~0.4–0.6 s, the plan's JavaScript passes measured no faster in wasm:
//   src/tiling/cells.ts's design log), the encoder's tree (~60 % of its time), and outside this benchmark's window
//   the CLI's start (bin/compile-collision.js now runs a cached bundle: process wall 1.95 → 1.71 s for this level).
//   2026-12-01, second session (same VM). CPU, not scheduling, is the limit: both threads stay busy from the
//   import to the last file, so the wall time follows the process's CPU time (~2 × wall). Changes: the plan only
//   records runs (cells gathered on the encoding threads from the objects' arrays, which the importer puts in
//   shared memory), and the worker computes the small objects' runs during the walk; the validation report on the
//   encoder's WebAssembly weld plus assembly/topology.ts; no sha256 per resource; files written synchronously by
//   the thread that built them; guided unit sizes; a deopt loop in the plan fixed.
//     A/B against the session's start (72ef2e2), 7 pairs of fresh children, alternating: wall 1,401 → 1,240 ms
//     median, CPU 2,593 → 2,360 ms, plan 191–283 → 53–96 ms.
//     `--runs 7`: 1,151 ms median at the session's start (fast phase, before the changes); with the changes
//     1,233 ms [1,123–1,323] (CPU 2,345 ms, peak RSS 277 MB; import 253, plan 71, encode 821).
//   The machine's speed is not constant: the same code measured 1,588–1,682 ms medians with CPU 2.9–3.1 s in a
//   phase when a memory-bound reference loop also ran 20–30 % slower (the host's other tenants); with that much CPU
//   no schedule on 2 cores can finish in 1.5 s. Also seen here: after many deleted outputs, ext4 skips recently
//   deleted inodes on create (perf: find_inode_bit → recently_deleted), 448 creates then cost 150–300 ms of CPU
//   instead of ~30 ms (see src/publish.ts, Staging).
//   2026-12-02, issue #17 (incremental cache, --watch, package), measured 00:20–00:55 UTC while six other helpers'
//   test suites ran (load average 11–16 on the 2 cores: `node -e 0` took 0.5–0.8 s wall, so every wall figure here
//   is ~3–5× an idle machine's; CPU time is the steadier figure):
//     --incremental --runs 3 (with #12's level-wide seams, which every build computes): clean 6,529 ms wall median
//       [7,460, 4,856, 6,529], CPU 2,416 ms; rebuild through the cache 2,570 ms [2,570, 2,112, 5,450], CPU 1,351 ms,
//       1 of 448 cells encoded; warm rebuild in one process 2,689 ms [2,995, 2,689, 1,311], CPU 1,222 ms. Ratio 39 %
//       (fresh process) / 41 % (warm) by wall, 56 % / 51 % by CPU; goal ≤ 20 % not met. What a rebuild still pays:
//       the seams stage (1.0 s wall of 2.6 here: level-wide, recomputed from every object), the import (0.4–0.9 s),
//       the cache stage (0.2–0.3 s: keys over ~25 MB of arrays, 447 entries read and linked), publish. Before the
//       seams landed (00:28, same load): clean 11,437 ms / CPU 2,400, rebuild 5,578 / 1,150 (49 %), warm 4,567 (40 %).
//       Outputs byte-identical to the clean build in every round.
//     --process --runs 3: 1M level from outside 6,002 ms median [3,120, 6,002, 6,781] against 4,750 ms in-process
//       (sum of stages) [2,469, 4,750, 6,052]; --version 518 ms [294, 718, 518]; skatepark warm 809 ms [604–887].
//     Start-up, CPU time (user+sys, /usr/bin/time, 3 runs each, steadier than wall under this load): `node -e 0`
//       0.05 s; importing yargs + yargs/helpers 0.17–0.22 s (≈0.12–0.17 s of it yargs); `--version` through the
//       launcher 0.21–0.29 s, the cached bundle run directly 0.22–0.26 s (so the launcher's key check is ~0.01–0.03
//       s); @gltf-transform/core+extensions+functions 0.25–0.31 s (≈0.2 s over node), which every glTF compile loads
//       (src/import/gltf.ts reads the JSON through NodeIO); skatepark compile 0.38–0.45 s CPU. So a warm small compile
//       is mostly yargs and @gltf-transform's module loading; < 0.25 s needs both off the path (a lighter argument
//       parser, GLB container parsing in gltf-lite.ts) — not done in this issue.
//   2026-12-02, third session (quiet machine, no other agents; its speed swings ~1.4× between phases, so each
//   figure says which): the level-wide seams pass replaced by a match of the shapes' open corners after encoding
//   (seams stage 275–346 → 25–41 ms), cached resources no longer read unless their joins change (rebuild's cache
//   stage 176 → 85 ms), and the yargs/@gltf-transform/gl-matrix/fast-xml-parser modules bundled into the cached CLI
//   bundle (bin/compile-collision.js).
//     default, fast phase: --runs 5 902 ms median [836–946], CPU 1,648 ms; slow phase 1,311 ms [1,240–1,417].
//     --incremental: fast phase, --runs 3: clean 1,136 ms, rebuild 505–558 ms (40–49 %), warm 487 ms (43 %); slow
//       phase, --runs 5: clean 1,308, rebuild 703 (54 %), warm 565 (43 %). Goal ≤ 20 % not met. A rebuild pays the
//       import (~140–200 ms), the plan (~50), the cache's keys (~60: walking 448 jobs' structure and hashing), the
//       worker's validation and level-wide crack pass after the import (~220 ms: the main thread waits for it),
//       the seams stage (~30) and publish.
//     --process: fast phase --version 132–150 ms, skatepark 184–266 ms (median 195), 1M level from outside
//       1,070–1,350 (median 1,242; 1.02–1.08 s with /usr/bin/time in a quieter minute); slow phase --version 157,
//       skatepark 232, 1M 1,604 ms against 1,288 in-process.
//   2026-12-02, fourth session: --watch's loop (cli/watch.ts watchSession: kept workers, one CompileSession,
//   src/session.ts; an idle dry run after the first build). The warm run is now two edits: prop_17 moved 4 m right
//   after the first build (the first rebuild) and then moved 2 m (a later one); its wall time stops before the kept
//   workers close (it included their closing, ~20–60 ms).
//     Before the session (d57cf86 + the bench's two edits), slow phase: clean 1,245–1,276 ms, first rebuild 287–325
//       ms (22–26 %), later 238–253 (19–20 %); fresh process 535–554 ms (43 %).
//     Session steps, one process, first rebuild / later: memos of the import, validation, runs and keys 425–472 →
//       250–290 / 200–270 → 140–200 ms; file buffers reused (a fresh 10 MB buffer cost 15–25 ms of page faults)
//       and no closures in the walk's lookups (tsx's keepNames wraps each) import 55 → 36 ms; the terrain's digest
//       kept (~15 ms a rebuilt cell's key); the idle warm-up: first rebuild 286–363 → 242–327 ms (alternating runs).
//     Final, --runs 5: fast phase clean 1,106 ms, --watch first rebuild 181 ms (16 %), later 159 ms (14 %); next
//       set clean ~1,300, first 231 (18 %), later 158 (12 %); fresh-process rebuild 484–588 ms (44–45 %: a process
//       start, the whole import and validation of 1M triangles, which no in-memory session survives).
//     --process: 1M level from outside 1,359–1,482 ms median against 1,102–1,219 in-process (slow phase: goal
//       ≤ 1,200 not met there; 1,016–1,022 ms by hand in a fast minute), --version 141–165 ms, skatepark warm
//       205–214 ms (goal < 250 met). Of a whole run ~130 ms come before compileLevel (node ~40–70, the bundle
//       ~60–70) and ~35 after it. glob is loaded only for patterns with magic (~20 ms). The installed package now
//       runs a bundle too (scripts/build.mjs, dist/cli/main.bundle.mjs): --version 226 → 157 ms, skatepark
//       270 → 205 ms.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, NodeIO } from '@gltf-transform/core';

const DIR = join(tmpdir(), 'skate-collision-bench');
const LEVEL = join(DIR, 'level-1m.glb');
/** The same level with one prop (prop_17, 108 triangles) moved 2 m along x: the --incremental edit. */
const LEVEL_MOVED = join(DIR, 'level-1m-moved.glb');
/** prop_17 moved 4 m: the warm run's first edit (untimed as a later rebuild; timed as the first one). */
const LEVEL_MOVED_FIRST = join(DIR, 'level-1m-moved-4m.glb');
const BIN = fileURLToPath(new URL('../bin/compile-collision.js', import.meta.url));

/** A box whose six faces are each an s × s grid (12·s² triangles), wound outward. */
function subdividedBox(hx: number, hy: number, hz: number, s: number): { positions: number[]; indices: number[] } {
  const positions: number[] = [];
  const indices: number[] = [];
  // Each face: origin corner, two edge vectors (u × v points out).
  const faces: [number[], number[], number[]][] = [
    [[hx, -hy, hz], [0, 0, -2 * hz], [0, 2 * hy, 0]], [[-hx, -hy, -hz], [0, 0, 2 * hz], [0, 2 * hy, 0]],
    [[-hx, hy, hz], [2 * hx, 0, 0], [0, 0, -2 * hz]], [[-hx, -hy, -hz], [2 * hx, 0, 0], [0, 0, 2 * hz]],
    [[-hx, -hy, hz], [2 * hx, 0, 0], [0, 2 * hy, 0]], [[hx, -hy, -hz], [-2 * hx, 0, 0], [0, 2 * hy, 0]],
  ];
  for (const [o, u, v] of faces) {
    const base = positions.length / 3;
    for (let j = 0; j <= s; j++) for (let i = 0; i <= s; i++) for (let k = 0; k < 3; k++) positions.push(o[k] + (u[k] * i) / s + (v[k] * j) / s + (k === 1 ? hy : 0));
    for (let j = 0; j < s; j++) {
      for (let i = 0; i < s; i++) {
        const a = base + j * (s + 1) + i, b = a + 1, c = a + s + 1, d = c + 1;
        indices.push(a, b, c, b, d, c);
      }
    }
  }
  return { positions, indices };
}

async function makeLevel(): Promise<void> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('bench');
  const mesh = (name: string, g: { positions: number[] | Float32Array; indices: number[] | Uint32Array }, material: string) =>
    doc.createMesh(name).addPrimitive(
      doc.createPrimitive()
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(Float32Array.from(g.positions)).setBuffer(buffer))
        .setIndices(doc.createAccessor().setType('SCALAR').setArray(Uint32Array.from(g.indices)).setBuffer(buffer))
        .setMaterial(doc.getRoot().listMaterials().find((m) => m.getName() === material) ?? doc.createMaterial(material)),
    );
  const n = 400, m = 700, cell = 4;
  const pos = new Float32Array((n + 1) * (m + 1) * 3);
  for (let j = 0, w = 0; j <= m; j++) {
    for (let i = 0; i <= n; i++) {
      pos[w++] = -800 + i * cell;
      pos[w++] = 3 * Math.sin(i * 0.05) * Math.cos(j * 0.037);
      pos[w++] = -1400 + j * cell;
    }
  }
  const idx = new Uint32Array(n * m * 6);
  for (let j = 0, w = 0; j < m; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      idx.set([a, c, b, b, c, d], w);
      w += 6;
    }
  }
  scene.addChild(doc.createNode('terrain').setMesh(mesh('terrain', { positions: pos, indices: idx }, 'asphalt')));
  const props = Array.from({ length: 8 }, (_, k) => mesh(`prop${k}`, subdividedBox(0.3 + 0.1 * k, 0.5 + 0.05 * k, 0.4, 3), k % 2 ? 'concrete' : 'metal'));
  let seed = 12345;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  for (let k = 0; k < 4100; k++) {
    const node = doc.createNode(`prop_${k}`).setMesh(props[k % 8]).setTranslation([-790 + rnd() * 1580, 3, -1390 + rnd() * 2780]);
    scene.addChild(node);
  }
  mkdirSync(DIR, { recursive: true });
  writeFileSync(LEVEL, await new NodeIO().writeBinary(doc));
  const moved = doc.getRoot().listNodes().find((n) => n.getName() === 'prop_17')!;
  const t = moved.getTranslation();
  moved.setTranslation([t[0] + 4, t[1], t[2]]);
  writeFileSync(LEVEL_MOVED_FIRST, await new NodeIO().writeBinary(doc));
  moved.setTranslation([t[0] + 2, t[1], t[2]]);
  writeFileSync(LEVEL_MOVED, await new NodeIO().writeBinary(doc));
}

/**
 * Child mode for --incremental: one compile of `level` into `out` (cache on or off), timed like runOnce; with
 * `--warm`, what --watch does (cli/watch.ts watchSession: one process, kept workers, one CompileSession): a build
 * of the unmoved level and the idle warm-up --watch runs after it, then prop_17 moved 4 m (the first rebuild,
 * `firstMs`), then moved 2 m instead (a later rebuild: the figure), each an edit no build before it saw.
 */
async function runIncremental(args: string[]): Promise<void> {
  const { compileLevel } = await import('../src/compile.ts');
  const opt = (name: string): string => args[args.indexOf(name) + 1];
  const out = opt('--out');
  const cache = args.includes('--no-cache') ? false : undefined;
  const warm = args.includes('--warm');
  // --watch's own (cli/watch.ts watchSession): kept workers, one CompileSession, the idle warm-up after the first build.
  const kept = warm ? await (await import('../cli/watch.ts')).watchSession('auto') : undefined;
  const build = (level: string) => (kept ? kept.compile(level, { out, cache }) : compileLevel(level, { out, cache }, { logger: { warn: () => {} } }));
  let firstMs: number | undefined;
  if (warm) {
    await build(LEVEL);
    await kept!.warmUp(LEVEL, { out, cache });
    const t = performance.now();
    await build(LEVEL_MOVED_FIRST);
    firstMs = performance.now() - t;
  }
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await build(opt('--level'));
  const wallMs = performance.now() - t0; // before the kept workers are closed (--watch keeps them)
  const cpu = process.cpuUsage(c0);
  await kept?.close();
  process.stdout.write(`${JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, timings: r.timings, cache: r.cache ?? null, resources: r.manifest.resources.length, firstMs })}\n`);
}

interface IncResult {
  wallMs: number;
  cpuMs: number;
  timings: Record<string, number>;
  cache: { hits: number; misses: number } | null;
  resources: number;
  /** --warm: the first rebuild's wall time (prop_17 moved 4 m), before the timed one. */
  firstMs?: number;
}

/** Every file of an output directory but the cache: equal names and bytes. */
function sameOutput(a: string, b: string): boolean {
  const names = (d: string): string[] => readdirSync(d).filter((n) => n !== '.cache').sort();
  const na = names(a), nb = names(b);
  return na.length === nb.length && na.every((n, i) => n === nb[i] && readFileSync(join(a, n)).equals(readFileSync(join(b, n))));
}

/**
 * --incremental: per round, fresh child processes alternating: a clean build of the moved level (no cache), a
 * build of the original level (fills the cache), then the moved level through that cache; the ratio of the
 * medians is the figure. Also a warm rebuild in one process (the original, then the moved level: --watch's case),
 * and the outputs checked byte for byte against the clean build.
 */
function incremental(runs: number): void {
  const child = (...a: string[]): IncResult => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child-incremental', ...a], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`bench run failed: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!);
  };
  const clean: IncResult[] = [], inc: IncResult[] = [], warm: IncResult[] = [];
  let identical = true;
  for (let i = 0; i < runs; i++) {
    const a = join(DIR, `inc-clean-${process.pid}`), b = join(DIR, `inc-cached-${process.pid}`), w = join(DIR, `inc-warm-${process.pid}`);
    for (const d of [a, b, w]) rmSync(d, { recursive: true, force: true });
    clean.push(child('--level', LEVEL_MOVED, '--out', a, '--no-cache'));
    child('--level', LEVEL, '--out', b);
    inc.push(child('--level', LEVEL_MOVED, '--out', b));
    warm.push(child('--level', LEVEL_MOVED, '--out', w, '--warm'));
    identical &&= sameOutput(a, b) && sameOutput(a, w);
    for (const d of [a, b, w]) rmSync(d, { recursive: true, force: true });
  }
  const med = (xs: IncResult[], f: (r: IncResult) => number): number => median(xs.map(f));
  const c = med(clean, (r) => r.wallMs), n = med(inc, (r) => r.wallMs), m = med(warm, (r) => r.wallMs), f = med(warm, (r) => r.firstMs!);
  const stages = (xs: IncResult[]): string => Object.keys(xs[0].timings).map((k) => `${k} ${med(xs, (r) => r.timings[k] ?? 0).toFixed(0)}`).join(', ');
  const lines = [
    `incremental: ${LEVEL_MOVED} (prop_17 moved 2 m), ${runs} round(s) of fresh processes`,
    `  clean build (no cache):        wall ${c.toFixed(0)} ms median [${clean.map((r) => r.wallMs.toFixed(0)).join(', ')}], cpu ${med(clean, (r) => r.cpuMs).toFixed(0)} ms; ${stages(clean)}`,
    `  rebuild through the cache:     wall ${n.toFixed(0)} ms median [${inc.map((r) => r.wallMs.toFixed(0)).join(', ')}], cpu ${med(inc, (r) => r.cpuMs).toFixed(0)} ms; ${stages(inc)}; ${inc[0].cache!.misses} of ${inc[0].resources} rebuilt`,
    `  --watch, first rebuild:        wall ${f.toFixed(0)} ms median [${warm.map((r) => r.firstMs!.toFixed(0)).join(', ')}] (prop_17 moved 4 m, right after the first build)`,
    `  --watch, later rebuild:        wall ${m.toFixed(0)} ms median [${warm.map((r) => r.wallMs.toFixed(0)).join(', ')}], cpu ${med(warm, (r) => r.cpuMs).toFixed(0)} ms; ${stages(warm)}`,
    `  ratio rebuild / clean: ${((100 * n) / c).toFixed(0)} % (fresh process), --watch ${((100 * f) / c).toFixed(0)} % (first rebuild), ${((100 * m) / c).toFixed(0)} % (later rebuilds); goal ≤ 20 %`,
    `  outputs byte-identical to the clean build: ${identical ? 'yes' : 'NO'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * --process: the whole CLI process from outside (spawn to exit, `compile-collision LEVEL --json` into a fresh directory) beside
 * the compile's own figure (its stages' sum, from the JSON), and `--version` and a small level's warm compile.
 */
function wholeProcess(runs: number): void {
  const time = (args: string[]): { ms: number; stdout: string } => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
    return { ms, stdout: r.stdout };
  };
  time(['--version']); // the launcher's bundle cached
  const outer: number[] = [], inner: number[] = [], version: number[] = [], small: number[] = [];
  const out = join(DIR, `proc-${process.pid}`);
  const park = fileURLToPath(new URL('../samples/skatepark.glb', import.meta.url));
  for (let i = 0; i < runs; i++) {
    rmSync(out, { recursive: true, force: true });
    const r = time([LEVEL, '-o', out, '--json']);
    outer.push(r.ms);
    inner.push(Object.values(JSON.parse(r.stdout).timings as Record<string, number>).reduce((s, v) => s + v, 0));
    version.push(time(['--version']).ms);
    small.push(time([park, '-o', `${out}-park`]).ms);
  }
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}-park`, { recursive: true, force: true });
  const f = (xs: number[]): string => `${median(xs).toFixed(0)} ms median [${xs.map((x) => x.toFixed(0)).join(', ')}]`;
  process.stdout.write([
    `whole process (${runs} runs, spawn to exit):`,
    `  1M level, compile-collision (fresh output, cache on as by default): ${f(outer)}; in-process (sum of its stages): ${f(inner)}; goal ≤ 1200 ms from outside`,
    `  --version: ${f(version)}`,
    `  skatepark.glb (warm: cache on, bundle cached): ${f(small)}; goal < 250 ms`,
  ].join('\n') + '\n');
}

interface RunResult {
  wallMs: number;
  /** CPU time (user + system) of the compile, all threads: what an idle 2-core machine must at least divide by 2. */
  cpuMs: number;
  maxRssMb: number;
  timings: Record<string, number>;
  workers: number;
  triangles: number;
  resources: number;
  geometries: number;
}

/** Child mode: one compile, timed from process start of the compile call to the published directory. */
async function runOnce(workers: string): Promise<void> {
  const { compileLevel } = await import('../src/compile.ts');
  const out = join(DIR, `out-${process.pid}`);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await compileLevel(LEVEL, { out, workers: workers === 'auto' ? 'auto' : Number(workers) }, { logger: { warn: () => {} } });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const result: RunResult = {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    timings: r.timings,
    workers: r.workers,
    triangles: r.manifest.totals['collision-triangles'],
    resources: r.manifest.totals['collision-resources'],
    geometries: r.manifest.geometries,
  };
  rmSync(out, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, def: string): string => (args.includes(name) ? args[args.indexOf(name) + 1] : def);
  if (args.includes('--child')) return runOnce(opt('--workers', 'auto'));
  if (args.includes('--child-incremental')) return runIncremental(args);
  if (!existsSync(LEVEL) || !existsSync(LEVEL_MOVED) || !existsSync(LEVEL_MOVED_FIRST) || args.includes('--regenerate')) await makeLevel();
  const runs = Number(opt('--runs', '3'));
  if (args.includes('--incremental')) return incremental(runs);
  if (args.includes('--process')) return wholeProcess(runs);
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', '--workers', opt('--workers', 'auto')], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`bench run failed: ${child.stderr}`);
    results.push(JSON.parse(child.stdout.trim().split('\n').pop()!));
  }
  const r0 = results[0];
  const wall = median(results.map((r) => r.wallMs));
  const lines = [
    `level: ${LEVEL} (${r0.triangles.toLocaleString('en')} triangles kept, ${r0.geometries} geometries, ${r0.resources} cells)`,
    `runs: ${runs}, threads per run: ${results.map((r) => r.workers).join(', ')}`,
    `wall (median): ${wall.toFixed(0)} ms   [${results.map((r) => r.wallMs.toFixed(0)).join(', ')}]   target ≤ 1500 ms`,
    `cpu (median, all threads): ${median(results.map((r) => r.cpuMs)).toFixed(0)} ms`,
    `peak RSS (max): ${Math.max(...results.map((r) => r.maxRssMb)).toFixed(0)} MB`,
    'stages (median ms, share of the median wall):',
    ...Object.keys(r0.timings).map((k) => {
      const ms = median(results.map((r) => r.timings[k] ?? 0));
      return `  ${k.padEnd(9)} ${ms.toFixed(0).padStart(6)} ms  ${((100 * ms) / wall).toFixed(0).padStart(3)} %`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
