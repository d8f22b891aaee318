// report.html of both samples in a real headless Chromium (playwright-core driving Debian's chromium): loads from
// disk with no network request and no console error, the canvas is drawn (pixels read back), the findings list has
// one entry per location in the manifest, clicking a finding moves the camera onto it, every colour mode renders,
// the map shows hover info. Screenshots go to test-output/report/ (gitignored). Without a browser the tests are
// skipped with one line saying so, unless REQUIRE_BROWSER=1 (.ci/run), which makes that a failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { compileLevel, type CompileResult } from '../../src/build/compile.ts';
import { lazyTempDir, tempDir, writeBigLevel } from '../fixtures/levels.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHOTS = join(ROOT, 'test-output', 'report');
const chromium = findChromium();
const required = process.env.REQUIRE_BROWSER === '1';
if (!chromium && !required) console.log('report browser tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');

describe('a browser for the report tests', () => {
  it.runIf(required)('is installed when REQUIRE_BROWSER=1', () => {
    expect(chromium, 'REQUIRE_BROWSER=1 but no Chromium at CHROMIUM_PATH or /usr/bin/chromium').toBeDefined();
  });
});

const tmp = lazyTempDir('sk8-report-');
const hooks = { logger: { warn: () => {} } };

describe.skipIf(!chromium).each(['skatepark', 'city-blocks'])('report.html of %s in Chromium', (sample) => {
  let browser: Browser;
  let page: Page;
  let build: CompileResult;
  const errors: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    build = await compileLevel(join(ROOT, 'samples', `${sample}.glb`), { out: join(tmp.dir, sample), report: true }, hooks);
    const { chromium: pw } = await import('playwright-core');
    browser = await pw.launch({ executablePath: chromium, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => !r.url().startsWith('file:') && !r.url().startsWith('data:') && !r.url().startsWith('blob:') && requests.push(r.url()));
    await page.goto(pathToFileURL(join(build.outDir, 'report.html')).href);
    await page.waitForFunction(() => (window as any).__report?.ready === true, null, { timeout: 60_000 });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    if (sample === 'city-blocks') tmp.cleanup();
  });

  /** Fraction of canvas pixels unlike the background, and the number of distinct colours (coarse). */
  const pixels = (): Promise<{ drawn: number; colours: number }> =>
    page.evaluate(() => {
      (window as any).__report.render();
      const src = document.getElementById('three') as HTMLCanvasElement;
      const c = document.createElement('canvas');
      c.width = 300;
      c.height = Math.round((300 * src.height) / src.width);
      const ctx = c.getContext('2d')!;
      ctx.drawImage(src, 0, 0, c.width, c.height);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let drawn = 0;
      const seen = new Set<number>();
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i] - 0x1b) + Math.abs(d[i + 1] - 0x1e) + Math.abs(d[i + 2] - 0x22) > 24) drawn++;
        seen.add(((d[i] >> 4) << 8) | ((d[i + 1] >> 4) << 4) | (d[i + 2] >> 4));
      }
      return { drawn: drawn / (d.length / 4), colours: seen.size };
    });

  it('is one file in the output, listed in the manifest, opened with no network and no console error', async () => {
    expect(build.manifest.files).toContain('report.html');
    const size = statSync(join(build.outDir, 'report.html')).size;
    console.log(`report.html of ${sample}: ${(size / 2 ** 20).toFixed(2)} MB`);
    expect(size).toBeLessThan(10 * 2 ** 20);
    expect(readFileSync(join(build.outDir, 'report.html'), 'utf8')).not.toMatch(/(src|href)=["']https?:/);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('draws the level (the canvas is not blank) and writes a screenshot', async () => {
    const p = await pixels();
    expect(p.drawn).toBeGreaterThan(0.05);
    expect(p.colours).toBeGreaterThan(8);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${sample}.png`) });
  });

  it('places every finding the validation counted (the manifest lists the first 100 of each kind per object)', async () => {
    const m = build.manifest;
    const warnKinds = ['crackEdges', 'nonManifoldEdges', 'inconsistentEdges', 'degenerate', 'duplicate', 'reversedDuplicate'];
    const counted = Object.values(m.validation).reduce((s, v) => s + warnKinds.reduce((t, k) => t + Number((v as any)[k] ?? 0), 0), 0);
    // Each placed entry, a sliver standing for the cracks it is counted as.
    const placed = await page.$$eval('#finding-list li[data-finding][data-source="validation"]:not(.info)', (ls) => ls.length);
    const stands = await page.evaluate(() => { let t = 0; for (let i = 0; (window as any).__report.finding(i); i++) { const e = (window as any).__report.finding(i); if (e.source === 'validation' && !e.info) t += e.stands ?? 1; } return t; });
    expect(stands).toBe(counted);
    expect(placed).toBeLessThanOrEqual(counted);
    expect(await page.locator('#findings li.cut:not([data-info="true"])').count()).toBe(0);
    for (const v of Object.values(m.validation)) for (const list of Object.values(v.locations ?? {})) expect((list as unknown[]).length).toBeLessThanOrEqual(100);
  });

  it('shows every warning of the build in the findings panel, and no clean message when the build warned', async () => {
    const shown = await page.locator('#build-warnings li').allTextContents();
    expect(shown.length).toBe(build.manifest.warnings.length);
    for (const w of build.manifest.warnings) expect(shown.some((t) => t.includes(w))).toBe(true);
    const text = await page.locator('#findings').textContent();
    if (build.manifest.warnings.length > 0) expect(text).not.toContain('every object is clean');
  });

  it('shows each count once, equal to the manifest\'s (and so the terminal\'s), with one word per kind', async () => {
    const t = await page.evaluate(() => (window as any).__report.totals);
    const m = build.manifest;
    const kinds = ['crackEdges', 'nonManifoldEdges', 'inconsistentEdges', 'degenerate', 'duplicate', 'reversedDuplicate', 'borderEdges'];
    const num = (s: string | null): number => Number(s!.replace(/,/g, ''));
    for (const k of kinds) {
      const sum = Object.values(m.validation).reduce((s, v) => s + Number((v as any)[k] ?? 0), 0);
      expect(t.validation[k] ?? 0, k).toBe(sum);
      expect(num(await page.locator(`#counts tr[data-count="${k}"] td.n`).textContent()), k).toBe(sum);
      if (sum && k !== 'borderEdges') expect(await page.locator('#summary').getAttribute(`data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`), k).toBe(String(sum));
    }
    for (const [key, v] of [['authored', m.seams.authoredOpenEdges], ['joined', m.seams.joinedAcrossCuts], ['written', m.seams.openEdgesWritten], ['warnings', m.warnings.length]] as const) {
      expect(num(await page.locator(`#counts tr[data-count="${key}"] td.n`).textContent()), key).toBe(v);
    }
    // Every number in the summary line is a manifest count; the key names colours, not counts.
    const summary = (await page.locator('#summary').textContent())!;
    const sums = new Set(kinds.map((k) => Object.values(m.validation).reduce((s, v) => s + Number((v as any)[k] ?? 0), 0)));
    for (const x of summary.match(/\d[\d,]*/g) ?? []) expect(sums.has(num(x)), `${x} in "${summary}"`).toBe(true);
    expect(await page.locator('#legend-body').textContent()).not.toMatch(/\d{2,}/);
    // The words: "crack" is only the validation's crack; "unpaired" and "open border" are gone.
    const all = (await page.locator('body').textContent())!;
    expect(all).not.toMatch(/unpaired|open border|crack \(file\)/);
    if (sample === 'skatepark') {
      // The grind prisms are not validated: their open sides are info, not cracks. Of their 32 open sides 8 lie on
      // the ledge's faces and are written with its edge data (--seams level: open edges lying on a face), 24 stay open.
      expect(t.validation).toMatchObject({ borderEdges: 144, crackEdges: 4 });
      expect(t.files).toMatchObject({ madeShapeEdge: 24 });
      expect(summary).toMatch(/^crack: 4\b/);
      expect(await page.locator('#findings li[data-source="file"]:not(.info)').count()).toBe(0);
    }
  });

  it('filters the findings by severity, kind, object, resource and object-name search; borders hidden at first when warned; keyboard reachable', async () => {
    const shown = (): Promise<number> => page.evaluate(() => (window as any).__report.shownFindings());
    const visibleKinds = (): Promise<string[]> => page.$$eval('#finding-list li[data-finding]:not([hidden])', (ls) => [...new Set(ls.map((l) => (l as HTMLElement).dataset.kind!))]);
    const all = await page.locator('#finding-list li[data-finding]').count();
    const warnLevel = Object.values(build.manifest.validation).some((v) => Object.entries(v).some(([k, c]) => k !== 'borderEdges' && k !== 'openEdges' && k !== 'locations' && Number(c) > 0));
    if (sample === 'skatepark') {
      expect(warnLevel).toBe(true);
      expect(await page.inputValue('#f-severity')).toBe('warn');
      const first = await shown();
      expect(first).toBeLessThan(all);
      expect(await visibleKinds()).not.toContain('borderEdges');
      await page.selectOption('#f-severity', 'all');
      expect(await shown()).toBe(all);
      await page.selectOption('#f-kind', 'crackEdges');
      expect(await visibleKinds()).toEqual(['crackEdges']);
      expect(await shown()).toBe(4);
      await page.selectOption('#f-kind', 'all');
      await page.selectOption('#f-object', 'stairs');
      expect(await page.$$eval('#finding-list li[data-finding]:not([hidden])', (ls) => ls.every((l) => l.textContent!.includes('"stairs"')))).toBe(true);
      await page.selectOption('#f-object', 'all');
      const ri = build.manifest.resources.findIndex((r) => r.name === 'funbox');
      await page.selectOption('#f-resource', String(ri));
      expect(await page.$$eval('#finding-list li[data-finding]:not([hidden])', (ls) => ls.every((l) => l.textContent!.includes('"funbox"')))).toBe(true);
      await page.selectOption('#f-resource', 'all');
      // The search box is reached with Tab, and typing in it changes the list.
      await page.locator('body').focus();
      let reached = false;
      for (let i = 0; i < 80 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate(() => document.activeElement?.id === 'f-search');
      }
      expect(reached).toBe(true);
      await page.keyboard.type('quarter');
      expect(await page.locator('#f-shown').textContent()).toMatch(/^\d+ shown of/);
      const q = await shown();
      expect(q).toBeGreaterThan(0);
      expect(q).toBeLessThan(all);
      expect(await page.$$eval('#finding-list li[data-finding]:not([hidden])', (ls) => ls.every((l) => l.textContent!.includes('"quarter_pipe"')))).toBe(true);
      // A finding is opened with Enter.
      let focused: string | null | undefined = null;
      for (let i = 0; i < 20 && !focused; i++) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate(() => document.activeElement?.getAttribute('data-finding'));
      }
      expect(focused).toBeTruthy();
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.className)).toMatch(/sel/);
      await page.fill('#f-search', '');
      await page.selectOption('#f-severity', 'warn');
      expect(await shown()).toBe(first);
    } else {
      // Borders only (info): nothing at warn level, so all are shown.
      expect(warnLevel).toBe(false);
      expect(await shown()).toBe(all);
      await page.selectOption('#f-severity', 'warn');
      expect(await shown()).toBe(0);
      await page.selectOption('#f-severity', 'all');
    }
  });

  it('tables every resource (triangles, parts, surfaces, file, bytes) and every glTF material → surface → word', async () => {
    const m = build.manifest;
    const rows = page.locator('#resources tr[data-resource]');
    expect(await rows.count()).toBe(m.resources.length);
    for (const i of [0, m.resources.length - 1]) {
      const r = m.resources[i];
      const text = (await rows.nth(i).textContent())!;
      expect(text).toContain(r.file);
      expect(text).toContain(r.faces.toLocaleString('en-US'));
      expect(text).toContain(statSync(join(build.outDir, r.file)).size.toLocaleString('en-US'));
    }
    const mats = await page.locator('#materials tr').allTextContents();
    expect(mats.length).toBeGreaterThan(1);
    if (sample === 'skatepark') {
      // park_smooth has sk8_surface "concrete" on its glTF material: that rule, the surface and its word.
      expect(mats.some((t) => t.includes('park_smooth') && t.includes('sk8_surface "concrete" on the material') && t.includes('0x00000060'))).toBe(true);
    }
  });

  it('at 1024×700: the key keeps to a small corner, the 3D view fills its column and stays put while the list scrolls', async () => {
    const small = await browser.newPage({ viewport: { width: 1024, height: 700 } });
    try {
      await small.goto(pathToFileURL(join(build.outDir, 'report.html')).href);
      await small.waitForFunction(() => (window as any).__report?.ready === true, null, { timeout: 60_000 });
      for (const mode of ['edges', 'surface', 'resource', 'cell']) {
        await small.click(`#modes button[data-mode="${mode}"]`);
        const [legend, view] = await Promise.all([small.locator('#legend').boundingBox(), small.locator('#view').boundingBox()]);
        expect((legend!.width * legend!.height) / (view!.width * view!.height), mode).toBeLessThan(0.2);
      }
      const [view, aside] = await Promise.all([small.locator('#view').boundingBox(), small.locator('aside').boundingBox()]);
      expect(Math.abs(view!.y + view!.height - (aside!.y + aside!.height))).toBeLessThan(2); // no band under the view
      expect(view!.y + view!.height).toBeLessThanOrEqual(701);
      await small.locator('aside').evaluate((a) => (a.scrollTop = a.scrollHeight));
      expect(await small.locator('aside').evaluate((a) => a.scrollTop)).toBeGreaterThan(0);
      expect(await small.locator('#view').boundingBox()).toEqual(view);
      mkdirSync(SHOTS, { recursive: true });
      await small.screenshot({ path: join(SHOTS, `${sample}-1024.png`) });
    } finally {
      await small.close();
    }
  });

  /** Pixels of the marker's own colour (opaque, depth-tested: what the mesh does not hide). */
  const markerPixels = (): Promise<number> =>
    page.evaluate(() => {
      (window as any).__report.render();
      const src = document.getElementById('three') as HTMLCanvasElement;
      const c = document.createElement('canvas');
      c.width = src.width;
      c.height = src.height;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(src, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let k = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 70 && d[i + 2] > 200) k++;
      return k;
    });
  /** Screen length (px) of a segment, and the canvas height. */
  const screenLength = (pts: number[][]): Promise<{ length: number; height: number }> =>
    page.evaluate((p) => {
      const v = (window as any).__report.view;
      const [a, b] = [v.project(p[0]), v.project(p[1])];
      return { length: Math.hypot(a[0] - b[0], a[1] - b[1]), height: (document.getElementById('three') as HTMLCanvasElement).clientHeight };
    }, pts);

  it('frames a clicked finding at its own size from a side the mesh does not hide: its edge covers many pixels', async () => {
    await page.click('#modes button[data-mode="edges"]');
    const item = page.locator('#finding-list li[data-finding]:not([hidden])').first();
    await item.click();
    const i = Number(await item.getAttribute('data-finding'));
    const pts: number[][] = await page.evaluate((k) => (window as any).__report.finding(k).loc.points, i);
    expect(await page.evaluate(() => (window as any).__report.target())).toEqual([0, 1, 2].map((k) => pts.reduce((t, p) => t + p[k], 0) / pts.length));
    const { length, height } = await screenLength(pts.length === 2 ? pts : [pts[0], pts[1]]);
    expect(length).toBeGreaterThan(0.4 * height);
    const seen = await markerPixels();
    console.log(`${sample}: finding ${i} framed: ${length.toFixed(0)} px long on a ${height} px view, ${seen} marker pixels unhidden`);
    expect(seen).toBeGreaterThan(1500);
    // The map marks the selected finding too.
    expect(await page.locator('#map').getAttribute('data-selected')).toBeTruthy();
    // A 2 cm crack is framed as large as a 2 m one.
    const tiny = [[pts[0][0], pts[0][1], pts[0][2]], [pts[0][0] + 0.02, pts[0][1], pts[0][2]]];
    await page.evaluate((t) => (window as any).__report.view.frameFinding(t), tiny);
    expect((await screenLength(tiny)).length).toBeGreaterThan(0.4 * height);
    expect(await markerPixels()).toBeGreaterThan(1500);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${sample}-framed.png`) });
  });

  it('picking a face reports its object, resource, part, surface, nearest edge class, position and side', async () => {
    const pickFace = async (ri: number): Promise<string> => {
      const text = await page.evaluate(async (r) => {
        const rep = (window as any).__report;
        const si = rep.shapes.findIndex((s: { resource: number }) => s.resource === r);
        const corners = rep.view.faceCorners(si, 0).map((v: any) => [v.x, v.y, v.z]);
        rep.view.frameFinding(corners);
        const centre = [0, 1, 2].map((k) => (corners[0][k] + corners[1][k] + corners[2][k]) / 3);
        return rep.view.project(centre);
      }, ri);
      const box = (await page.locator('#three').boundingBox())!;
      await page.mouse.click(box.x + text[0], box.y + text[1]);
      return (await page.locator('#pick').textContent()) ?? '';
    };
    const m = build.manifest;
    const perObject = m.layout === 'objects';
    for (const ri of [0, m.resources.length - 1, Math.floor(m.resources.length / 2)]) {
      const r = m.resources[ri];
      const text = await pickFace(ri);
      // Every layout names the face's own object, its mode and triangle count.
      const named = /^object (\S+) \(([a-z_]+), ([\d,]+) triangles\)/.exec(text);
      expect(named, text).not.toBeNull();
      expect(r.sourceObjects).toContain(named![1]);
      if (!perObject) expect(text).toContain(`objects merged in this cell`);
      expect(text).toContain(`resource ${r.name} (${r.file})`);
      expect(text).toMatch(/part \d+/);
      expect(text).toMatch(/surface .*\(0x[0-9a-f]+\)/);
      expect(text).toMatch(/nearest edge: (flat|concave|convex|open border|crack|unpaired)/);
      expect(text).toMatch(/at \(-?[\d.]+, -?[\d.]+, -?[\d.]+\)/);
      expect(text).toMatch(/front face|BACK face/);
      expect(await markerPixels()).toBeGreaterThan(50); // the clicked face is marked
    }
    // From under the ground the ground shows its back.
    const ground = m.resources.findIndex((r) => r.name === 'ground' || r.name === 'terrain' || r.cell !== null);
    const b = m.resources[ground].bounds;
    const side = async (y: number): Promise<string> => {
      await page.evaluate(([bb, yy]) => {
        const rep = (window as any).__report;
        const x = bb.min[0] + 0.37 * (bb.max[0] - bb.min[0]), z = bb.min[2] + 0.41 * (bb.max[2] - bb.min[2]);
        rep.view.isolate(-1);
        rep.camera.position.set(x + 0.01, (bb.min[1] + bb.max[1]) / 2 + (yy as number), z + 0.01);
        rep.controls.target.set(x, (bb.min[1] + bb.max[1]) / 2, z);
        rep.controls.update();
        rep.render();
      }, [b, y] as const);
      const box = (await page.locator('#three').boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      return (await page.locator('#pick').textContent()) ?? '';
    };
    if (sample === 'skatepark') {
      expect(await side(-5)).toContain('BACK face');
      expect(await side(40)).toContain('front face');
    }
  });

  it('wireframe, frame all and isolate', async () => {
    const start = await page.evaluate(() => { (window as any).__report.view.frameAll(); return (window as any).__report.position(); });
    const shot = (): Promise<string> => page.evaluate(() => { (window as any).__report.render(); return (document.getElementById('three') as HTMLCanvasElement).toDataURL(); });
    const before = await shot();
    await page.click('#wireframe');
    expect(await page.getAttribute('#wireframe', 'aria-pressed')).toBe('true');
    expect(await shot()).not.toBe(before);
    await page.click('#wireframe');
    const m = build.manifest;
    const ri = m.resources.reduce((best, r, i) => (r.faces < m.resources[best].faces && r.faces > 0 ? i : best), 0);
    await page.selectOption('#isolate', String(ri));
    expect(await page.evaluate(() => (window as any).__report.drawnFaces())).toBe(m.resources[ri].faces);
    await page.selectOption('#isolate', '-1');
    expect(await page.evaluate(() => (window as any).__report.drawnFaces())).toBe(build.manifest.totals['collision-triangles']);
    await page.click('#frame-all');
    expect(await page.evaluate(() => (window as any).__report.position())).toEqual(start);
  });

  it('frames a finding when it is clicked: the camera moves and its target is the location', async () => {
    const before = await page.evaluate(() => (window as any).__report.position());
    const item = page.locator('#findings li[data-finding]').first();
    await item.click();
    const after = await page.evaluate(() => ({ pos: (window as any).__report.position(), target: (window as any).__report.target() }));
    expect(after.pos).not.toEqual(before);
    const first = Object.values(build.manifest.validation).flatMap((v) => ['crackEdges', 'nonManifoldEdges', 'inconsistentEdges', 'degenerate', 'duplicate', 'reversedDuplicate', 'borderEdges'].flatMap((k) => (v.locations as any)?.[k] ?? []));
    expect(first.length).toBeGreaterThan(0);
    expect(await item.getAttribute('class')).toMatch(/sel/);
    // The camera looks at the centre of one of the listed locations (list order: kind, then object).
    const centres = first.map((l: { points: number[][] }) => [0, 1, 2].map((k) => l.points.reduce((s, p) => s + p[k], 0) / l.points.length));
    expect(centres.some((c: number[]) => c.every((v, k) => Math.abs(v - after.target[k]) < 1e-3))).toBe(true);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${sample}-finding.png`) });
  });

  it('renders each colour mode', async () => {
    const seen: string[] = [];
    for (const mode of ['edges', 'surface', 'resource', 'cell']) {
      await page.click(`#modes button[data-mode="${mode}"]`);
      expect(await page.locator(`#modes button[data-mode="${mode}"]`).getAttribute('class')).toBe('on');
      const p = await pixels();
      expect(p.drawn).toBeGreaterThan(0.02);
      seen.push(await page.evaluate(() => (document.getElementById('three') as HTMLCanvasElement).toDataURL().length.toString()));
    }
    expect(new Set(seen).size).toBeGreaterThan(1); // the modes do not all draw the same picture
    expect(errors).toEqual([]);
  });

  it('shows name, triangles and shapes of a resource when the map is hovered', async () => {
    const r = build.manifest.resources.reduce((a, b) => (b.faces > a.faces ? b : a));
    await page.locator('#map').scrollIntoViewIfNeeded();
    const box = await page.locator('#map').boundingBox();
    expect(box).not.toBeNull();
    // Scan the map for a point over the largest resource (the page's own projection is internal: probe a grid).
    let text = '';
    for (let y = 0.1; y < 1 && !text.includes(r.name); y += 0.1) {
      for (let x = 0.1; x < 1 && !text.includes(r.name); x += 0.1) {
        await page.mouse.move(box!.x + x * box!.width, box!.y + y * box!.height);
        text = (await page.locator('#tip').textContent()) ?? '';
      }
    }
    expect(text).toContain(r.name);
    expect(text).toContain(`triangles ${r.faces.toLocaleString('en-US')}`);
    expect(text).toContain(`shapes ${r.shapes}`);
    // A click there frames that resource in 3D (its box's middle becomes the target).
    const at = await page.evaluate(() => (window as any).__report.target());
    await page.mouse.down();
    await page.mouse.up();
    const target = await page.evaluate(() => (window as any).__report.target());
    expect(target).not.toEqual(at);
    const hovered = build.manifest.resources.find((x) => x.name === text.split('\n')[0].split('  ')[0])!;
    expect(target.map((v: number) => +v.toFixed(3))).toEqual([0, 1, 2].map((k) => +((hovered.bounds.min[k] + hovered.bounds.max[k]) / 2).toFixed(3)));
    const ri = build.manifest.resources.indexOf(hovered);
    if (await page.locator(`#f-resource option[value="${ri}"]`).count()) expect(await page.inputValue('#f-resource')).toBe(String(ri));
    await page.selectOption('#f-resource', 'all');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${sample}-map.png`) });
  });
});

describe.skipIf(!chromium)('a report past the face cap', () => {
  it('draws a decimated level and says so on the page', async () => {
    const { buildReport } = await import('../../src/report/index.ts');
    const dir = tempDir('sk8-report-cap-');
    try {
      const r = await compileLevel(join(ROOT, 'samples', 'city-blocks.glb'), { out: join(dir.dir, 'city') }, hooks);
      const page = await buildReport({ dir: r.outDir, manifest: r.manifest, timings: r.timings, workers: r.workers }, { maxTriangles: 20_000 });
      const file = join(dir.dir, 'capped.html');
      (await import('node:fs')).writeFileSync(file, page);
      const { chromium: pw } = await import('playwright-core');
      const browser = await pw.launch({ executablePath: chromium, args: CHROMIUM_ARGS });
      try {
        const p = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        const errors: string[] = [];
        p.on('pageerror', (e) => errors.push(e.message));
        await p.goto(pathToFileURL(file).href);
        await p.waitForFunction(() => (window as any).__report?.ready === true, null, { timeout: 60_000 });
        const note = await p.locator('#note').textContent();
        expect(note).toMatch(/^Showing [\d,]+ of 120,240 faces: 1 face in 7 of each shape, and every face with an open or crack edge/);
        expect(await p.locator('#note').isVisible()).toBe(true);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    } finally {
      dir.cleanup();
    }
  }, 180_000);
});

describe.skipIf(!chromium)('report.html of shapes.glb', () => {
  it('lists the open edges of the shape-mode objects the validation does not see, and its counts equal the manifest\'s', async () => {
    const dir = tempDir('sk8-report-shapes-');
    const { chromium: pw } = await import('playwright-core');
    const browser = await pw.launch({ executablePath: chromium, args: CHROMIUM_ARGS });
    try {
      const r = await compileLevel(join(ROOT, 'samples', 'shapes.glb'), { out: join(dir.dir, 'out'), report: true }, hooks);
      const p = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      await p.goto(pathToFileURL(join(r.outDir, 'report.html')).href);
      await p.waitForFunction(() => (window as any).__report?.ready === true, null, { timeout: 60_000 });
      const t = await p.evaluate(() => (window as any).__report.totals);
      // 10 open edges on the two convex stacks (made shapes: info), besides the validation's own.
      expect(t).toMatchObject({ files: { madeShapeEdge: 10 } });
      await p.selectOption('#f-severity', 'all');
      const file = await p.locator('#finding-list li[data-source="file"]').allTextContents();
      expect(file.length).toBe(10);
      for (const name of ['stack_convex_parts', 'stack_aggregate']) expect(file.filter((x) => x.includes(`"${name}"`)).length).toBe(5);
    } finally {
      await browser.close();
      dir.cleanup();
    }
  }, 180_000);
});

describe.skipIf(!chromium)('report.html of a 1,000,000-triangle level', () => {
  // The goals (npm run bench:report measures them on the bench level; docs/performance.md): ready ≤ 3 s, orbit
  // ≥ 10 frames/s at "frame all" and ≥ 20 zoomed in, page ≤ 4 MB. The machine running the suite is shared (2 cores,
  // often a load of 10+), so the times are asserted relaxed (a quarter of the goal), and the faces drawn a frame
  // (what sets the time) bounded; the page's size is exact and asserted as it is.
  it('draws every face (coarse far away, whole near), culls what is off-screen, and is ready and orbits within the (relaxed) goals', async () => {
    const dir = tempDir('sk8-report-big-');
    const { chromium: pw } = await import('playwright-core');
    const { measureReport } = await import('../../scripts/bench-report.ts');
    const browser = await pw.launch({ executablePath: chromium, args: CHROMIUM_ARGS });
    try {
      const level = await writeBigLevel(join(dir.dir, 'big.glb'));
      const r = await compileLevel(level, { out: join(dir.dir, 'out'), report: true }, hooks);
      expect(r.manifest.totals['collision-triangles']).toBe(1_000_000);
      const file = join(r.outDir, 'report.html');
      const p = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const errors: string[] = [];
      p.on('pageerror', (e) => errors.push(e.message));
      const figures = await measureReport(p, file, 8);
      const state = await p.evaluate(() => {
        const rep = (window as any).__report;
        rep.view.frameAll();
        return { drawn: rep.drawnFaces(), total: rep.totalFaces, lod: rep.view.lod(), note: document.getElementById('note')!.style.display };
      });
      expect(state.total).toBe(1_000_000);
      expect(state.drawn).toBe(1_000_000); // no shape left out, no face dropped
      expect(state.note).not.toBe('block'); // not decimated
      expect(state.lod.hidden + state.lod.offScreen).toBe(0);
      // The whole level in edge-class mode is not blank: faces drawn (coarse), borders on top.
      const drawn = await p.evaluate(() => {
        const src = document.getElementById('three') as HTMLCanvasElement;
        const c = document.createElement('canvas');
        c.width = 280;
        c.height = 200;
        const ctx = c.getContext('2d')!;
        ctx.drawImage(src, 0, 0, c.width, c.height);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let k = 0;
        for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - 0x1b) + Math.abs(d[i + 1] - 0x1e) + Math.abs(d[i + 2] - 0x22) > 24) k++;
        return k / (d.length / 4);
      });
      expect(drawn).toBeGreaterThan(0.1);
      // Near a finding the shapes around it are drawn whole, with their edge classes; the rest is culled.
      await p.selectOption('#f-severity', 'all');
      await p.locator('#finding-list li[data-finding]').first().click();
      const near = await p.evaluate(() => (window as any).__report.view.lod());
      expect(near.full).toBeGreaterThan(0);
      expect(near.offScreen).toBeGreaterThan(0);
      // Looking along the 2 km of ground from its middle, 4 m above it: the parts are cut into chunks, those near
      // drawn whole, those far coarse (within one part too), those behind left out; the ground seen at a grazing
      // angle is foreshortened, so only ~40 chunks are whole (~300 if their faces' size ignored the angle); far
      // groups of chunks are one coarse mesh each: ~35,000 faces a frame (~64,000 with a coarse mesh per chunk).
      const low = await p.evaluate(() => {
        const rep = (window as any).__report;
        rep.view.frameFinding([[-10, 0, 0], [10, 0, 0]]);
        rep.camera.position.set(-30, 4, 0);
        rep.controls.update();
        rep.render();
        return { ...rep.view.lod(), raster: rep.view.rasterFaces() };
      });
      expect(low.chunks.full).toBeGreaterThan(0);
      expect(low.chunks.coarse).toBeGreaterThan(0);
      expect(low.chunks.offScreen).toBeGreaterThan(0);
      expect(low.mixed).toBeGreaterThan(0);
      expect(low.chunks.full).toBeLessThan(100);
      expect(low.groups.coarse).toBeGreaterThan(0);
      expect(low.raster).toBeLessThan(50_000);
      const bytes = statSync(file).size;
      console.log(`1M-triangle level, report.html in headless Chromium (SwiftShader), 1400×1000: ready ${figures.readyMs.toFixed(0)} ms; orbit at frame all ${figures.fpsAll.toFixed(1)} fps (${figures.rasterAll.toLocaleString('en-US')} faces a frame), near ${figures.fpsNear.toFixed(1)} fps (${figures.rasterNear.toLocaleString('en-US')}); html ${(bytes / 2 ** 20).toFixed(2)} MB`);
      expect(figures.readyMs).toBeLessThan(4 * 3000);
      expect(figures.fpsAll).toBeGreaterThan(10 / 4);
      // Zoomed in, only the chunks of the two terrain parts in view are drawn: ~10,000 faces (the parts whole were
      // ~43,000 and orbited at half the speed).
      expect(figures.rasterNear).toBeLessThan(15_000);
      expect(figures.fpsNear).toBeGreaterThan(20 / 4);
      expect(bytes).toBeLessThanOrEqual(4 * 2 ** 20);
      expect(errors).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await p.screenshot({ path: join(SHOTS, 'big-level.png') });
    } finally {
      await browser.close();
      dir.cleanup();
    }
  }, 400_000);
});
