// The ride layer of report.html (compile --ride --report) in a real headless Chromium: each ride finding of the
// manifest is listed in the findings panel, and a click frames it (the camera's target is the finding's position).
// Without a browser the test is skipped unless REQUIRE_BROWSER=1 (.ci/run).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { addNode, lazyTempDir, newLevel, writeLevel } from '../fixtures/levels.ts';
import { grid } from '../ride/helpers.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const chromium = findChromium();
const tmp = lazyTempDir('sk8-ride-report-');
afterAll(() => tmp.cleanup());

describe.skipIf(!chromium && process.env.REQUIRE_BROWSER !== '1')('report.html ride layer in Chromium', () => {
  it('lists every ride finding of the manifest and frames one when it is clicked', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'left', ...grid(4, 3, 1, -4, 0, 0), material: 'concrete' });
    addNode(doc, { name: 'right', ...grid(4, 3, 1, 0, 0, 0), material: 'concrete' });
    const glb = await writeLevel(doc, join(tmp.dir, 'two.glb'));
    const out = join(tmp.dir, 'two.collision');
    // Studio's bytes: the cut between the objects is open, so the probes bump and snag on it.
    const r = spawnSync(process.execPath, [BIN, glb, '--ride', '--report', '--seams', 'shape', '--tiling', 'cells', '--no-cache', '-o', out], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });
    expect(r.status, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const findings = manifest.ride.findings as { kind: string; position: number[] }[];
    expect(findings.length).toBeGreaterThan(0);
    const { chromium: pw } = await import('playwright-core');
    const browser = await pw.launch({ executablePath: chromium, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(join(out, 'report.html')).href);
      await page.waitForFunction(() => (window as any).__report?.ready === true, null, { timeout: 60_000 });
      const items = page.locator('#findings li[data-source="ride"]');
      expect(await items.count()).toBe(findings.length);
      expect(await items.first().textContent()).toMatch(/^ride: (bump|snag|step|gap) · collision_area_-?\d+_-?\d+\.physics · [\d.]+ m/);
      await items.first().click();
      const target: number[] = await page.evaluate(() => (window as any).__report.target());
      expect(findings.some((f) => f.position.every((v, k) => Math.abs(v - target[k]) < 1e-3))).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
