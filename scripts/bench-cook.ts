// Cooking benchmark: our kind-5 encoder (weld, split, tree, edges — src/geometry/encode.ts) against
// Rapier's trimesh with FIX_INTERNAL_EDGES (@dimforge/rapier3d-compat, World.createCollider) and Jolt's
// MeshShapeSettings → Create (jolt-physics, wasm-compat), on the same meshes, in one process.
// Prints per engine and mesh the median wall time over the runs, the ratio to ours, and memory.
//
//   npx tsx scripts/bench-cook.ts [--runs 5] [--sizes 80000,1000000,4000000] [--threads 2] [--no-jolt] [--no-rapier]
//
// Timed: ours = encodeMeshShapes(positions, indices) from the caller's arrays, on one thread; ours×N (--threads N,
// default min(2, cores); 1 skips it) = encodeMeshShapesOnThreads with a started pool of N − 1 workers (weld and
// split on the calling thread, pieces on all N; same bytes). Rapier and Jolt (these builds) cook on one thread;
// Rapier = createCollider on a prepared ColliderDesc (copies the arrays into wasm, merges vertices, builds topology,
// BVH and internal-edge data); Jolt = new MeshShapeSettings(vertices, triangles, materials) (its Sanitize) plus
// Create() (BVH and active edges); filling Jolt's vertex and triangle lists (wasm heap writes) is not timed. Jolt's
// prebuilt wasm heap (128 MB) aborts with OOM on the 1M terrain: it is skipped above --jolt-max (default 600,000).
// Order: per mesh, every engine warms up, then each round times every engine once in turn (a shared machine's
// drift then moves all engines alike), each timed run right after an untimed run of the same engine (so no engine
// is timed in a state another left). Memory: the process's peak RSS (a high-water mark) with the meshes built,
// after one encode of each mesh by ours (before any other engine allocates: our peak), and at the end.
//
// Figures and the design log (alternatives measured): docs/performance.md.

import { availableParallelism } from 'node:os';
import { encodeMeshShapes } from '../src/geometry/encode.ts';
import { encodeMeshShapesOnThreads } from '../src/tiling/mesh-threads.ts';
import { ThreadPool } from '../src/tiling/pool.ts';

interface Mesh { name: string; positions: Float32Array; indices: Uint32Array }

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const has = (name: string): boolean => process.argv.includes(`--${name}`);

/** A rolling terrain height field of about `triangles` triangles on 1 m cells (deterministic). */
function terrain(triangles: number, name: string): Mesh {
  const w = Math.ceil(Math.sqrt(triangles / 2));
  const h = Math.ceil(triangles / 2 / w);
  const positions = new Float32Array((w + 1) * (h + 1) * 3);
  for (let j = 0, k = 0; j <= h; j++) {
    for (let i = 0; i <= w; i++, k += 3) {
      positions[k] = i;
      positions[k + 1] = Math.sin(i * 0.05) * Math.cos(j * 0.07) * 4 + (((i * 7 + j * 13) % 5) - 2) * 0.03;
      positions[k + 2] = j;
    }
  }
  const indices = new Uint32Array(w * h * 6);
  for (let j = 0, k = 0; j < h; j++) {
    for (let i = 0; i < w; i++, k += 6) {
      const a = j * (w + 1) + i;
      indices[k] = a; indices[k + 1] = a + w + 1; indices[k + 2] = a + 1;
      indices[k + 3] = a + 1; indices[k + 4] = a + w + 1; indices[k + 5] = a + w + 2;
    }
  }
  return { name, positions, indices };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MB`;

/** A cook under test: `run` cooks the mesh once (timed); `close` frees what `prepare` made. */
interface Cook {
  run(): void | Promise<void>;
  close(): void;
}

/** An engine: prepares a cook for a mesh (untimed: copies into wasm heaps, worlds), or says why it cannot. */
interface Engine {
  name: string;
  target: number; // the ratio target against ours (0: ours itself)
  warmUp: number;
  prepare(m: Mesh): Cook | string;
}

function oursEngine(): Engine {
  return {
    name: 'ours', target: 0, warmUp: WARM_UP,
    prepare: (m) => ({ run: () => { encodeMeshShapes(m.positions, m.indices); }, close: () => {} }),
  };
}

function oursThreadsEngine(pool: ThreadPool, threads: number): Engine {
  return {
    name: `ours×${threads}`, target: 0, warmUp: WARM_UP_THREADED,
    prepare: (m) => ({ run: async () => { await encodeMeshShapesOnThreads(m.positions, m.indices, {}, pool, threads); }, close: () => {} }),
  };
}

/** Warm-up calls before timing ours (1 left the first timed 80k run at ~2× the rest). */
const WARM_UP = 3;
/** Warm-up calls before timing ours×N (2 left the worker's share of an 80k grid unoptimised: 86 vs ~60 ms). */
const WARM_UP_THREADED = 6;

const peakRss = (): string => mb(process.resourceUsage().maxRSS * 1024);

async function rapierEngine(max: number): Promise<Engine> {
  const RAPIER = (await import('@dimforge/rapier3d-compat')).default;
  await RAPIER.init();
  return {
    name: 'rapier', target: 3, warmUp: 1,
    prepare: (m) => {
      const tris = m.indices.length / 3;
      if (tris > max) return `skipped (${tris} triangles > --rapier-max ${max})`;
      const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
      const desc = RAPIER.ColliderDesc.trimesh(m.positions, m.indices, RAPIER.TriMeshFlags.FIX_INTERNAL_EDGES);
      return { run: () => { world.removeCollider(world.createCollider(desc), false); }, close: () => world.free() };
    },
  };
}

async function joltEngine(max: number): Promise<Engine> {
  const initJolt = (await import('jolt-physics')).default as any;
  const J = await initJolt();
  return {
    name: 'jolt', target: 6, warmUp: 1,
    prepare: (m) => {
      const tris = m.indices.length / 3;
      if (tris > max) return `skipped (${tris} triangles > --jolt-max ${max})`;
      const verts = new J.VertexList();
      const list = new J.IndexedTriangleList();
      verts.resize(m.positions.length / 3);
      list.resize(tris);
      // Fill through the wasm heap: Float3 is 3 f32, IndexedTriangle is 5 u32 (i1, i2, i3, material, user data).
      J.HEAPF32.set(m.positions, J.getPointer(verts.at(0)) >> 2);
      const tp = J.getPointer(list.at(0)) >> 2;
      const heap = J.HEAPU32;
      for (let t = 0; t < tris; t++) {
        const o = tp + 5 * t;
        heap[o] = m.indices[3 * t]; heap[o + 1] = m.indices[3 * t + 1]; heap[o + 2] = m.indices[3 * t + 2];
        heap[o + 3] = 0; heap[o + 4] = 0;
      }
      const mats = new J.PhysicsMaterialList();
      return {
        run: () => {
          const settings = new J.MeshShapeSettings(verts, list, mats);
          const res = settings.Create();
          if (res.HasError()) throw new Error(res.GetError().c_str());
          res.Clear();
          J.destroy(settings);
        },
        close: () => { J.destroy(verts); J.destroy(list); J.destroy(mats); },
      };
    },
  };
}

interface Row { engine: Engine; times: number[]; note?: string }

/**
 * All engines on one mesh, interleaved: each warms up, then every round times each engine once, in turn, so a
 * machine that speeds up or slows down (a shared VM does: Rapier's 1M cook measured 2.3 s and 4.0 s half an hour
 * apart) moves every engine's times alike and the ratios stay fair.
 */
async function benchMesh(m: Mesh, engines: Engine[], runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  const cooks: (Cook | null)[] = [];
  for (const engine of engines) {
    let cook: Cook | string;
    try {
      cook = engine.prepare(m);
      if (typeof cook !== 'string') for (let w = 0; w < engine.warmUp; w++) await cook.run();
    } catch (e) {
      cook = `failed: ${(e as Error).message ?? e}`;
    }
    cooks.push(typeof cook === 'string' ? null : cook);
    rows.push({ engine, times: [], note: typeof cook === 'string' ? cook : undefined });
  }
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < engines.length; i++) {
      const cook = cooks[i];
      if (!cook) continue;
      // An untimed run first: each timed run then starts from its own engine's state, not from what the engine
      // before it left (ours×N's pieces on this thread leave the encoder's memory grown: 55 MB after a 1M mesh, 10
      // MB after a 4M one, which spared the next 1M run of ours its page faults but not the 4M run).
      await cook.run();
      const t = performance.now();
      await cook.run();
      rows[i].times.push(performance.now() - t);
    }
  }
  for (const c of cooks) c?.close();
  return rows;
}

async function main(): Promise<void> {
  const runs = Number(arg('runs', '5'));
  const sizes = arg('sizes', '80000,1000000,4000000').split(',').map(Number);
  const joltMax = Number(arg('jolt-max', '600000'));
  const threads = Number(arg('threads', String(Math.min(2, availableParallelism()))));
  const meshes = sizes.map((n) => terrain(n, n >= 1e6 ? `terrain-${n / 1e6}M` : `grid-${n / 1e3}k`));
  console.log(`# bench-cook: ${runs} rounds per mesh, engines interleaved in each round; medians (ms); node ${process.version}, ${new Date().toISOString()}`);
  console.log(`peak RSS with the meshes built: ${peakRss()}`);
  // Our peak memory: one encode of each mesh, before any other engine allocates.
  for (const m of meshes) encodeMeshShapes(m.positions, m.indices);
  console.log(`peak RSS after one encode of each mesh (ours): ${peakRss()}`);
  const pool = threads > 1 ? await ThreadPool.start(threads - 1) : null;
  const engines: Engine[] = [oursEngine()];
  if (pool) engines.push(oursThreadsEngine(pool, threads));
  if (!has('no-rapier')) engines.push(await rapierEngine(Number(arg('rapier-max', '4100000'))));
  if (!has('no-jolt')) engines.push(await joltEngine(joltMax));
  const medians = new Map<string, number>(); // `${engine}/${mesh}` → median
  try {
    for (const m of meshes) {
      const rows = await benchMesh(m, engines, runs);
      for (const row of rows) if (!row.note) medians.set(`${row.engine.name}/${m.name}`, median(row.times));
      for (const row of rows) console.log(formatRow(row, m, rows, threads));
    }
  } finally {
    await pool?.close();
  }
  const t1 = medians.get(`ours/${meshes.find((m) => m.indices.length / 3 >= 1e6 && m.indices.length / 3 < 2e6)?.name}`);
  const t4 = medians.get(`ours/${meshes.find((m) => m.indices.length / 3 >= 4e6)?.name}`);
  if (t1 && t4) console.log(`ours    scaling 4M/1M = ${(t4 / t1).toFixed(2)} (target ≤ 4.2)`);
  console.log(`peak RSS at the end: ${peakRss()}`);
}

/** One engine's line: median, runs, and for another engine its ratio to ours (and to ours×N) by medians. */
function formatRow(row: Row, m: Mesh, rows: Row[], threads: number): string {
  const head = `${row.engine.name.padEnd(7)} ${m.name.padEnd(14)} ${String(m.indices.length / 3).padStart(8)} tris`;
  if (row.note) return `${head}  ${row.note}`;
  const med = median(row.times);
  let line = `${head}  median ${med.toFixed(0).padStart(6)} ms  runs [${row.times.map((t) => t.toFixed(0)).join(' ')}]`;
  if (row.engine.target > 0) {
    const ours = rows.find((r) => r.engine.name === 'ours' && !r.note);
    const oursT = rows.find((r) => r.engine.name === `ours×${threads}` && !r.note);
    if (ours) {
      // Each round ran the engines back to back: its own ratio shows how far the machine's swings move the median's.
      const perRound = row.times.map((t, i) => t / ours.times[i]).sort((a, b) => a - b);
      line += `  ours ${(med / median(ours.times)).toFixed(2)}× faster (rounds ${perRound[0].toFixed(2)}–${perRound[perRound.length - 1].toFixed(2)}×)`;
    }
    if (oursT) line += `, ours×${threads} ${(med / median(oursT.times)).toFixed(2)}×`;
    line += ` (target for ours ≥ ${row.engine.target})`;
  }
  return line;
}

await main();
