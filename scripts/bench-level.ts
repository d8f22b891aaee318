// npm run bench:level [-- --runs N --workers auto|N --tiles N] [--incremental | --process]
// A 1M-triangle level from .glb to published collision_area tiles: wall time, peak RSS and each stage's share, and
// the floor beside it (reading the GLB and writing the same files). --tiles N: the level tiled N × N (N = 4: 16M).
// The level (generated once into the OS temp dir, not timed): 560,000-triangle terrain on 400 × 700 quads of 4 m
// plus 4,100 props (8 shared meshes of 108 triangles, one node each): 1,002,800 triangles, ~4,130 geometries,
// above the 4,003 budget, so it compiles into 100 m cells. Each run is a fresh child process (cold JIT, as a user
// gets it); peak RSS is that process's maxRSS, workers included.
//
// Figures and the design log (alternatives measured): docs/performance.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/** The bench level tiled `tiles` × `tiles` side by side (1,600 m × 2,800 m apart; nodes re-created, meshes shared). */
const tiledLevel = (tiles: number): string => (tiles === 1 ? LEVEL : join(DIR, `level-${tiles * tiles}m.glb`));

async function makeLevel(tiles = 1): Promise<void> {
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
  const terrain = mesh('terrain', { positions: pos, indices: idx }, 'asphalt');
  const props = Array.from({ length: 8 }, (_, k) => mesh(`prop${k}`, subdividedBox(0.3 + 0.1 * k, 0.5 + 0.05 * k, 0.4, 3), k % 2 ? 'concrete' : 'metal'));
  for (let tj = 0; tj < tiles; tj++) {
    for (let ti = 0; ti < tiles; ti++) {
      // Tile (0, 0) is the 1M level itself, names and all; the others are suffixed with their tile.
      const dx = 1600 * ti, dz = 2800 * tj, tag = ti || tj ? `@${ti}_${tj}` : '';
      scene.addChild(doc.createNode(`terrain${tag}`).setMesh(terrain).setTranslation([dx, 0, dz]));
      let seed = 12345;
      const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
      for (let k = 0; k < 4100; k++) {
        const node = doc.createNode(`prop_${k}${tag}`).setMesh(props[k % 8]).setTranslation([dx - 790 + rnd() * 1580, 3, dz - 1390 + rnd() * 2780]);
        scene.addChild(node);
      }
    }
  }
  mkdirSync(DIR, { recursive: true });
  writeFileSync(tiledLevel(tiles), await new NodeIO().writeBinary(doc));
  if (tiles !== 1) return;
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
  const { compileLevel } = await import('../src/build/compile.ts');
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
 * build of the original level (fills the cache), then the moved level through that cache, then the same again
 * (nothing changed: proven, not rebuilt); the ratios of the medians are the figures (each timed from compileLevel's
 * call to its return, as runOnce: the process's start is not in them). Also a warm rebuild in one process (the original, then the moved level: --watch's case),
 * and the outputs checked byte for byte against the clean build.
 */
function incremental(runs: number): void {
  const child = (...a: string[]): IncResult => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child-incremental', ...a], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`bench run failed: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!);
  };
  const clean: IncResult[] = [], inc: IncResult[] = [], same: IncResult[] = [], warm: IncResult[] = [];
  let identical = true;
  for (let i = 0; i < runs; i++) {
    const a = join(DIR, `inc-clean-${process.pid}`), b = join(DIR, `inc-cached-${process.pid}`), w = join(DIR, `inc-warm-${process.pid}`);
    for (const d of [a, b, w]) rmSync(d, { recursive: true, force: true });
    clean.push(child('--level', LEVEL_MOVED, '--out', a, '--no-cache'));
    child('--level', LEVEL, '--out', b);
    inc.push(child('--level', LEVEL_MOVED, '--out', b));
    same.push(child('--level', LEVEL_MOVED, '--out', b)); // nothing changed since: proven, not rebuilt (src/build/unchanged.ts)
    warm.push(child('--level', LEVEL_MOVED, '--out', w, '--warm'));
    identical &&= sameOutput(a, b) && sameOutput(a, w);
    for (const d of [a, b, w]) rmSync(d, { recursive: true, force: true });
  }
  const med = (xs: IncResult[], f: (r: IncResult) => number): number => median(xs.map(f));
  const c = med(clean, (r) => r.wallMs), n = med(inc, (r) => r.wallMs), u = med(same, (r) => r.wallMs), m = med(warm, (r) => r.wallMs), f = med(warm, (r) => r.firstMs!);
  const stages = (xs: IncResult[]): string => Object.keys(xs[0].timings).map((k) => `${k} ${med(xs, (r) => r.timings[k] ?? 0).toFixed(0)}`).join(', ');
  const lines = [
    `incremental: ${LEVEL_MOVED} (prop_17 moved 2 m), ${runs} round(s) of fresh processes`,
    `  clean build (no cache):        wall ${c.toFixed(0)} ms median [${clean.map((r) => r.wallMs.toFixed(0)).join(', ')}], cpu ${med(clean, (r) => r.cpuMs).toFixed(0)} ms; ${stages(clean)}`,
    `  rebuild through the cache:     wall ${n.toFixed(0)} ms median [${inc.map((r) => r.wallMs.toFixed(0)).join(', ')}], cpu ${med(inc, (r) => r.cpuMs).toFixed(0)} ms; ${stages(inc)}; ${inc[0].cache!.misses} of ${inc[0].resources} rebuilt`,
    `  nothing changed since:         wall ${u.toFixed(0)} ms median [${same.map((r) => r.wallMs.toFixed(0)).join(', ')}], cpu ${med(same, (r) => r.cpuMs).toFixed(0)} ms (proven, not rebuilt: ${same.every((r) => 'unchanged' in r.timings) ? 'every round' : 'NOT every round'})`,
    `  --watch, first rebuild:        wall ${f.toFixed(0)} ms median [${warm.map((r) => r.firstMs!.toFixed(0)).join(', ')}] (prop_17 moved 4 m, right after the first build)`,
    `  --watch, later rebuild:        wall ${m.toFixed(0)} ms median [${warm.map((r) => r.wallMs.toFixed(0)).join(', ')}], cpu ${med(warm, (r) => r.cpuMs).toFixed(0)} ms; ${stages(warm)}`,
    `  ratio to clean: one moved prop ${((100 * n) / c).toFixed(0)} % (fresh process), nothing changed ${((100 * u) / c).toFixed(0)} % (fresh process); --watch ${((100 * f) / c).toFixed(0)} % (first rebuild), ${((100 * m) / c).toFixed(0)} % (later rebuilds); goal ≤ 25 %`,
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
async function runOnce(workers: string, tiles: number, keep: string | undefined): Promise<void> {
  const { compileLevel } = await import('../src/build/compile.ts');
  const out = keep ?? join(DIR, `out-${process.pid}`);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  // From 6 × 6 tiles on, the level's geometries exceed ReSkate's pool (40,000): built anyway, streamed by cell.
  const r = await compileLevel(tiledLevel(tiles), { out, workers: workers === 'auto' ? 'auto' : Number(workers), allowPoolOverflow: tiles > 4 }, { logger: { warn: () => {} } });
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
  if (!keep) rmSync(out, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/**
 * The floor a build of `level` is held against: reading its GLB and writing the same files (`out`'s bytes, loaded
 * beforehand, untimed) into a fresh directory, each through a temporary name and a rename, as publish does.
 */
function floorMs(level: string, out: string): number {
  const files = readdirSync(out).filter((n) => n !== '.cache').map((n) => ({ n, bytes: readFileSync(join(out, n)) }));
  const dest = join(DIR, `floor-${process.pid}`);
  rmSync(dest, { recursive: true, force: true });
  const t0 = performance.now();
  readFileSync(level);
  mkdirSync(dest);
  for (const f of files) {
    writeFileSync(join(dest, `.${f.n}.tmp`), f.bytes);
    renameSync(join(dest, `.${f.n}.tmp`), join(dest, f.n));
  }
  const ms = performance.now() - t0;
  rmSync(dest, { recursive: true, force: true });
  return ms;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, def: string): string => (args.includes(name) ? args[args.indexOf(name) + 1] : def);
  const tiles = Number(opt('--tiles', '1'));
  if (!Number.isInteger(tiles) || tiles < 1 || tiles > 16) throw new Error(`--tiles ${opt('--tiles', '1')}: a whole number 1-16`);
  if (args.includes('--child')) return runOnce(opt('--workers', 'auto'), tiles, args.includes('--keep') ? opt('--keep', '') : undefined);
  if (args.includes('--child-incremental')) return runIncremental(args);
  if (!existsSync(LEVEL) || !existsSync(LEVEL_MOVED) || !existsSync(LEVEL_MOVED_FIRST) || args.includes('--regenerate')) await makeLevel();
  if (!existsSync(tiledLevel(tiles)) || (tiles > 1 && args.includes('--regenerate'))) await makeLevel(tiles);
  const runs = Number(opt('--runs', '3'));
  if (args.includes('--incremental')) return incremental(runs);
  if (args.includes('--process')) return wholeProcess(runs);
  const results: RunResult[] = [];
  const kept = join(DIR, `kept-${process.pid}`);
  for (let i = 0; i < runs; i++) {
    // The last run's output is kept for the floor (the same files' bytes), then removed.
    const keep = i === runs - 1 ? ['--keep', kept] : [];
    rmSync(kept, { recursive: true, force: true });
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', '--workers', opt('--workers', 'auto'), '--tiles', String(tiles), ...keep], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (child.status !== 0) throw new Error(`bench run failed: ${child.stderr}`);
    results.push(JSON.parse(child.stdout.trim().split('\n').pop()!));
  }
  const floors = Array.from({ length: 3 }, () => floorMs(tiledLevel(tiles), kept));
  rmSync(kept, { recursive: true, force: true });
  const floor = median(floors);
  const r0 = results[0];
  const wall = median(results.map((r) => r.wallMs));
  const perTri = (ms: number): string => `${((1e6 * ms) / r0.triangles).toFixed(0)} ns/tri`;
  const lines = [
    `level: ${tiledLevel(tiles)} (${r0.triangles.toLocaleString('en')} triangles kept, ${r0.geometries} geometries, ${r0.resources} cells)`,
    `runs: ${runs}, threads per run: ${results.map((r) => r.workers).join(', ')}`,
    `wall (median): ${wall.toFixed(0)} ms   [${results.map((r) => r.wallMs.toFixed(0)).join(', ')}]   ${perTri(wall)}`,
    `floor (read the GLB, write the same ${r0.resources + 1} files by rename; median of 3): ${floor.toFixed(0)} ms   [${floors.map((x) => x.toFixed(0)).join(', ')}]; wall / floor ${(wall / floor).toFixed(2)}`,
    `cpu (median, all threads): ${median(results.map((r) => r.cpuMs)).toFixed(0)} ms`,
    `peak RSS (max): ${Math.max(...results.map((r) => r.maxRssMb)).toFixed(0)} MB`,
    'stages (median ms, share of the median wall):',
    ...Object.keys(r0.timings).map((k) => {
      const ms = median(results.map((r) => r.timings[k] ?? 0));
      return `  ${k.padEnd(9)} ${ms.toFixed(0).padStart(6)} ms  ${((100 * ms) / wall).toFixed(0).padStart(3)} %  ${perTri(ms).padStart(12)}`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
