// The grind view of report.html in a real headless Chromium: the "grind" mode draws grindable edges bright and shades
// parts by density; its list names the over-dense part and the part whose surface excludes grinding, and a click
// frames the part. Skipped without a browser unless REQUIRE_BROWSER=1 (as test/report/report.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { compileLevel, type CompileResult } from '../../src/build/compile.ts';
import { addNode, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';
import { foldedSheet, heightGrid, ledgeTerrain } from '../fixtures/grind.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';

const chromium = findChromium();
const tmp = tempDir('sk8-grind-report-');
afterAll(tmp.cleanup);

describe.skipIf(!chromium)('report.html grind view in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let build: CompileResult;
  const errors: string[] = [];

  beforeAll(async () => {
    const doc = newLevel();
    addNode(doc, { name: 'terrain', ...ledgeTerrain([-10, 0, -10]), material: 'concrete' });
    addNode(doc, { name: 'grass_ledge', ...heightGrid({ nx: 16, nz: 8, cell: 0.5, origin: [14, 0, 0], height: (x) => (x >= 3.5 && x <= 4.5 ? 0.4 : 0) }), material: 'grass' });
    addNode(doc, { name: 'fold', ...foldedSheet(45, [14, 0, -6]), material: 'concrete' });
    // Studio's writer: the terrain stays one part over the limit.
    build = await compileLevel(await writeLevel(doc, join(tmp.dir, 'grind.glb')), { report: true, grindDensity: 'off' }, { logger: { warn: () => undefined } });
    const { chromium: pw } = await import('playwright-core');
    browser = await pw.launch({ executablePath: chromium, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(build.outDir, 'report.html')).href);
    await page.waitForFunction(() => (window as any).__report?.ready === true, null, { timeout: 60_000 });
  }, 120_000);
  afterAll(async () => browser?.close());

  /** Canvas pixels that are the grind edges' bright yellow. */
  const yellow = (): Promise<number> =>
    page.evaluate(() => {
      (window as any).__report.render();
      const src = document.getElementById('three') as HTMLCanvasElement;
      const c = document.createElement('canvas');
      c.width = src.width;
      c.height = src.height;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(src, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] > 230 && d[i + 1] > 230 && d[i + 2] < 110) n++;
      return n;
    });

  it('draws the grindable edges bright in the grind mode only, and another mode takes it back', async () => {
    expect(await yellow()).toBe(0);
    await page.click('#modes button[data-mode="grind"]');
    expect(await page.locator('#modes button[data-mode="grind"]').getAttribute('class')).toBe('on');
    expect(await page.evaluate(() => (window as any).__grindView.shown())).toBe(true);
    expect(await yellow()).toBeGreaterThan(4); // the 2 m fold, one pixel wide, in a 34 m scene
    expect(await page.locator('#legend-body').textContent()).toMatch(/grindable edges 4 \(2 m\)/);
    await page.click('#modes button[data-mode="surface"]');
    expect(await page.evaluate(() => (window as any).__grindView.shown())).toBe(false);
    expect(await yellow()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('lists the over-dense part and the excluded surface; a click frames the part', async () => {
    const items = page.locator('#grind li');
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toMatch(/^too dense: terrain part 0: 1,358 half-edges\/m > 1000 \(12,800 triangles, 160 creases lost\)/);
    expect(await items.nth(1).textContent()).toMatch(/^surface excludes grinding: grass_ledge part 0: ExcludeFromEdgeGeneration \(16 creases\)/);
    await items.nth(0).click();
    const t: number[] = await page.evaluate(() => (window as any).__report.target());
    expect(t[0]).toBeGreaterThan(-10.5);
    expect(t[0]).toBeLessThan(10.5);
    expect(t[2]).toBeGreaterThan(-10.5);
    expect(t[2]).toBeLessThan(10.5);
    expect(await page.evaluate(() => (window as any).__grindView.shown())).toBe(true);
    expect(errors).toEqual([]);
  });
});
