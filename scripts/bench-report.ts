// npm run bench:report [-- --runs N --level FILE.glb --shots DIR]
// report.html of the 1M-triangle bench level (scripts/bench-level.ts makes it: terrain and 4,100 props in 100 m
// cells) in headless Chromium (playwright-core driving Debian's chromium, SwiftShader: no GPU): the page's size,
// the time from navigation to ready (first frame drawn and read back), and frames per second orbiting the level
// once at "frame all" and zoomed into a finding (~20 m), each frame drawn and finished (a pixel read back). Each
// run opens the page in a fresh browser page. Figures: docs/performance.md ("report.html").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileLevel } from '../src/build/compile.ts';
import { CHROMIUM_ARGS, findChromium } from '../test/report/browser.ts';

const LEVEL = join(tmpdir(), 'skate-collision-bench', 'level-1m.glb');

/** What one opening of the page measured (the browser test asserts on the same figures, relaxed). */
export interface ReportFigures {
  readyMs: number;
  /** Frames per second orbiting at "frame all", and zoomed in near a finding. */
  fpsAll: number;
  fpsNear: number;
  /** Faces rasterised per frame at "frame all" and near, and the shapes drawn whole near. */
  rasterAll: number;
  rasterNear: number;
}

/** Opens report.html in `page` and measures it (ready time, orbit fps at frame all and near a finding). */
export async function measureReport(page: import('playwright-core').Page, file: string, steps = 16): Promise<ReportFigures> {
  const t0 = Date.now();
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => (window as any).__report?.ready === true, null, { timeout: 120_000 });
  const readyMs = await page.evaluate(() => (window as any).__report.timing.firstFrameMs);
  void t0;
  const fps = (times: number[]): number => 1000 / (times.reduce((a, b) => a + b, 0) / times.length);
  await page.evaluate(() => (window as any).__report.view.frameAll());
  const all: number[] = await page.evaluate((n) => (window as any).__report.orbit(n), steps);
  const rasterAll = await page.evaluate(() => (window as any).__report.view.rasterFaces());
  // Near: a point on the level framed ~20 m across (a finding's size, or a click's).
  await page.evaluate(() => {
    const rep = (window as any).__report;
    const s = rep.shapes[Math.floor(rep.shapes.length / 2)];
    const c = [0, 1, 2].map((k) => (s.min[k] + s.max[k]) / 2);
    rep.view.frameFinding([[c[0] - 10, c[1], c[2]], [c[0] + 10, c[1], c[2]]]);
  });
  const near: number[] = await page.evaluate((n) => (window as any).__report.orbit(n), steps);
  const rasterNear = await page.evaluate(() => (window as any).__report.view.rasterFaces());
  return { readyMs, fpsAll: fps(all), fpsNear: fps(near), rasterAll, rasterNear };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, def: string): string => (args.includes(name) ? args[args.indexOf(name) + 1] : def);
  const runs = Number(opt('--runs', '3'));
  let level = opt('--level', LEVEL);
  if (!existsSync(level)) {
    const made = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./bench-level.ts', import.meta.url)), '--runs', '1'], { stdio: 'inherit' });
    if (made.status !== 0 || !existsSync(LEVEL)) throw new Error('bench:report: the bench level could not be made (npm run bench:level)');
    level = LEVEL;
  }
  const chromium = findChromium();
  if (!chromium) throw new Error('bench:report: no Chromium (apt-get install chromium, or set CHROMIUM_PATH)');
  const out = join(tmpdir(), `skate-collision-bench-report-${process.pid}`);
  try {
    const t = Date.now();
    const r = await compileLevel(level, { out, report: true }, { logger: { warn: () => {} } });
    const file = join(r.outDir, 'report.html');
    const bytes = statSync(file).size;
    console.log(`level: ${level} (${r.manifest.totals['collision-triangles'].toLocaleString('en')} triangles, ${r.manifest.resources.length} cells); compile with the report ${Date.now() - t} ms (report stage ${r.timings.report?.toFixed(0)} ms)`);
    console.log(`report.html: ${(bytes / 2 ** 20).toFixed(2)} MB`);
    const { chromium: pw } = await import('playwright-core');
    const browser = await pw.launch({ executablePath: chromium, args: CHROMIUM_ARGS });
    try {
      const rows: ReportFigures[] = [];
      for (let i = 0; i < runs; i++) {
        const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
        rows.push(await measureReport(page, file));
        const shots = opt('--shots', '');
        if (shots && i === 0) {
          mkdirSync(shots, { recursive: true });
          await page.screenshot({ path: join(shots, 'bench-report-near.png') });
          await page.evaluate(() => (window as any).__report.view.frameAll());
          await page.screenshot({ path: join(shots, 'bench-report-all.png') });
        }
        await page.close();
        const x = rows[i];
        console.log(`run ${i + 1}: ready ${x.readyMs.toFixed(0)} ms; orbit at frame all ${x.fpsAll.toFixed(1)} fps (${x.rasterAll.toLocaleString('en')} faces a frame); near a finding ${x.fpsNear.toFixed(1)} fps (${x.rasterNear.toLocaleString('en')} faces)`);
      }
      const med = (f: (x: ReportFigures) => number): number => rows.map(f).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
      console.log(`median of ${runs}: ready ${med((x) => x.readyMs).toFixed(0)} ms, frame all ${med((x) => x.fpsAll).toFixed(1)} fps, near ${med((x) => x.fpsNear).toFixed(1)} fps, page ${(bytes / 2 ** 20).toFixed(2)} MB`);
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
