// report.html: one self-contained page in the output directory that shows the compiled collision as the game gets
// it, built from the written .physics files read back with our codec (model.ts), the manifest (totals, options,
// validation findings with locations, cells) and the build's timings. The page script (page/main.ts: three.js
// with orbit controls, the top-down map, the findings list) is bundled by esbuild once per process (and cached on
// disk by its inputs' contents), and inlined with the data: the geometry and the rest (JSON) gzip-compressed and
// base64-encoded (the page inflates them with the browser's DecompressionStream). Nothing is fetched: it opens from
// disk with no network.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { readPhysicsResource } from '../format/resource.ts';
import { MAX_RESOURCE_BYTES, readRegularFile } from '../files.ts';
import { EDGE_CLASS_NAMES, reportGeometry, REPORT_DEFAULTS, type ReportGeometry, type ReportOptions } from './model.ts';
import { levelSurfaceColours, surfaceNames } from './surfaces.ts';
import type { RideFinding } from '../ride/index.ts';
import { grindPage, type GrindPage } from './grind.ts';
import { SourceIndex, type SourceMesh } from './sources.ts';
import { farObjects, type FindingLayer } from './layers.ts';

export type { FindingLayer } from './layers.ts';

export { REPORT_DEFAULTS, type ReportOptions } from './model.ts';

export const REPORT_FILE = 'report.html';

/** What the page shows besides the geometry: the manifest as written, and the build's facts. */
export interface ReportInput {
  /** The directory holding the written .physics files (the staging directory during a build). */
  dir: string;
  /** The manifest (resources in order, files, validation, totals, options, tool). */
  manifest: {
    tool: { name: string; version: string };
    input: { file: string };
    resources: { name: string; file: string; cell: [number, number] | null; bounds: { min: number[]; max: number[] }; parts: number; shapes: number; faces: number; sourceObjects: string[] }[];
    /** compile --ride: the ride check's findings (src/ride/), listed in the findings panel as a "ride" layer. */
    ride?: { counts: Record<string, number>; findings: RideFinding[] };
  };
  /** Milliseconds per stage so far. */
  timings: Record<string, number>;
  workers: number;
  /** Each object's decision (mode, materials, resource): names what is not validated (grind prisms, shape modes). */
  objects?: { name: string; source?: string; mode: string; triangles: number; geometries?: number; materials: number[]; resource: string | null }[];
  /**
   * The validation with every location the build kept (the manifest lists the first LOCATIONS_CAP of each kind per
   * object); absent: the manifest's.
   */
  findings?: Record<string, unknown>;
  /** The imported objects (in `objects`' order): which object each face of a merged cell came from (sources.ts). */
  sources?: SourceMesh[];
  /** More findings from other passes, each kind a layer of its own (layers.ts); the page lists and places them all. */
  layers?: FindingLayer[];
  /** How each glTF material became a packed word (ImportResult.materials): the page's materials table. */
  materials?: { material: string; how: string; word: number; primitives: number }[];
}

/** The page's data besides the geometry blob (JSON in the page). */
export interface PageMeta {
  manifest: ReportInput['manifest'];
  timings: Record<string, number>;
  workers: number;
  objects: NonNullable<ReportInput['objects']>;
  findings: Record<string, unknown>;
  layers: FindingLayer[];
  /** The box "frame all" and the map show: the level without its far objects (layers.ts farObjects). */
  core: { min: number[]; max: number[] } | null;
  materials: NonNullable<ReportInput['materials']>;
  /** Each resource file's size in bytes (manifest order). */
  fileBytes: number[];
  /** The level's surface colours (surfaces.ts levelSurfaceColours) and the words shifted off their palette colour. */
  surfaceColours: Record<string, string>;
  surfaceShifted: number[];
  generated: string;
  geometry: Omit<ReportGeometry, 'shapes'> & { shapes: { resource: number; part: number; material: number; min: number[]; max: number[]; vertices: number; faces: number; runs: number }[] };
  edgeClasses: readonly string[];
  surfaces: Record<string, string>;
  /** Bytes of the geometry blob before compression. */
  blobBytes: number;
  /** The grind view (grind.ts, page/grind.ts). */
  grind: GrindPage;
}

/** Builds the page (see the file header). Throws with the file's name when a written resource cannot be read. */
export async function buildReport(input: ReportInput, options: Partial<ReportOptions> = {}): Promise<string> {
  const fileBytes: number[] = [];
  const resources = input.manifest.resources.map((r) => {
    try {
      const bytes = readRegularFile(join(input.dir, r.file), MAX_RESOURCE_BYTES, 'error', 'a PhysicsResource');
      fileBytes.push(bytes.byteLength);
      return readPhysicsResource(bytes);
    } catch (e) {
      throw new Error(`report: ${r.file}: ${(e as Error).message}`);
    }
  });
  const objectIndex = new Map((input.objects ?? []).map((o, i) => [o.name, i]));
  const sources = input.sources;
  // One index over every object's triangles (an object may span many cells), asked with each cell's objects.
  let index: SourceIndex | undefined;
  const geometry = reportGeometry(resources, { ...REPORT_DEFAULTS, ...options }, (ri) => {
    const held = input.manifest.resources[ri].sourceObjects.map((o) => objectIndex.get(o)).filter((i): i is number => i !== undefined);
    if (held.length === 1) return held[0];
    if (!held.length || !sources || sources.length !== objectIndex.size) return undefined;
    index ??= new SourceIndex(sources);
    const mask = new Uint8Array(sources.length);
    for (const i of held) mask[i] = 1;
    return { index, held: mask };
  });
  const far = farObjects(input.manifest.resources, input.objects ?? [], sources);
  const { blob, shapes } = packGeometry(geometry);
  // Compressed on libuv's thread pool while the rest of the page is made here.
  const data = deflated(blob);
  data.catch(() => undefined); // awaited below; a throw before that must not leave it unhandled
  const materials = new Set([...geometry.shapes.map((s) => s.material), ...(input.objects ?? []).flatMap((o) => o.materials), ...(input.materials ?? []).map((u) => u.word)]);
  const palette = levelSurfaceColours(materials);
  const names = surfaceNames();
  const meta: PageMeta = {
    manifest: input.manifest,
    timings: input.timings,
    workers: input.workers,
    objects: (input.objects ?? []).map(({ name, source, mode, triangles, geometries, materials, resource }) => ({ name, source, mode, triangles, geometries, materials, resource })),
    findings: input.findings ?? (input.manifest as { validation?: Record<string, unknown> }).validation ?? {},
    layers: [...(far.layer.count ? [far.layer] : []), ...(input.layers ?? [])],
    core: far.core,
    materials: input.materials ?? [],
    fileBytes,
    surfaceColours: palette.colours,
    surfaceShifted: palette.shifted,
    generated: new Date().toISOString(),
    geometry: { ...geometry, shapes },
    edgeClasses: EDGE_CLASS_NAMES,
    surfaces: Object.fromEntries([...materials].map((m) => [String(m), names(m)])),
    blobBytes: blob.byteLength,
    grind: grindPage(resources, geometry.shapes),
  };
  const metaData = deflated(Buffer.from(JSON.stringify(meta)));
  const script = await pageScript();
  return html(meta, await metaData, await data, script);
}

/**
 * gzip level of the page's data (zlib 1–9). On the 1M bench level's 12.3 MB of packed geometry: level 5 makes
 * 1.75 MB in ~200 ms, level 6 1.66 MB in ~360 ms, level 9 1.49 MB in ~3.5 s; the meta JSON (3.5 MB) 0.40 MB at 5 or 6.
 */
const GZIP_LEVEL = 5;
const gzipAsync = promisify(gzip);
const deflated = async (data: Uint8Array): Promise<string> => (await gzipAsync(data, { level: GZIP_LEVEL })).toString('base64');

/**
 * The shapes' arrays, arranged to compress (page/main.ts decodeGeometry undoes it): four sections, each over every
 * shape in order — vertices (u16, each coordinate less the vertex before's), faces (u16, each corner less the
 * corner before), classes (u8), object runs (i32) — the u16 sections as their low bytes then their high bytes, the
 * i32 one as four byte planes. Deltas and planes make gzip ~1.6× smaller on a 1M-face level than the plain arrays.
 */
function packGeometry(g: ReportGeometry): { blob: Uint8Array; shapes: PageMeta['geometry']['shapes'] } {
  let nv = 0, nc = 0, nr = 0;
  for (const s of g.shapes) (nv += s.vertices.length), (nc += s.faces.length), (nr += s.objects.length);
  const verts = new Uint16Array(nv), corners = new Uint16Array(nc), classes = new Uint8Array(nc), runs = new Int32Array(nr);
  let v = 0, c = 0, r = 0;
  for (const s of g.shapes) {
    for (let i = 0; i < s.vertices.length; i++) verts[v + i] = s.vertices[i] - (i >= 3 ? s.vertices[i - 3] : 0);
    for (let i = 0; i < s.faces.length; i++) corners[c + i] = s.faces[i] - (i >= 1 ? s.faces[i - 1] : 0);
    classes.set(s.classes, c);
    runs.set(s.objects, r);
    (v += s.vertices.length), (c += s.faces.length), (r += s.objects.length);
  }
  const blob = new Uint8Array(2 * nv + 2 * nc + nc + 4 * nr);
  let at = 0;
  const planes = (a: Uint8Array, width: number): void => {
    const n = a.length / width;
    for (let k = 0; k < width; k++) for (let i = 0; i < n; i++) blob[at + k * n + i] = a[i * width + k];
    at += a.length;
  };
  planes(new Uint8Array(verts.buffer), 2);
  planes(new Uint8Array(corners.buffer), 2);
  blob.set(classes, at);
  at += classes.length;
  planes(new Uint8Array(runs.buffer), 4);
  const shapes = g.shapes.map((s) => ({ resource: s.resource, part: s.part, material: s.material, min: s.min, max: s.max, vertices: s.vertices.length / 3, faces: s.faces.length / 3, runs: s.objects.length }));
  return { blob, shapes };
}


const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function html(meta: PageMeta, metaData: string, data: string, script: string): string {
  const title = `Collision report: ${meta.manifest.input.file}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; connect-src data: blob:">
<title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<div id="app"><p id="loading">Loading the collision…</p></div>
<script type="application/octet-stream" id="report-meta">${metaData}</script>
<script type="application/octet-stream" id="report-geometry">${data}</script>
<script>${script.replace(/<\/script/gi, '<\\/script')}</script>
</body>
</html>
`;
}

const PAGE_CSS = `
body { margin: 0; font: 13px/1.4 system-ui, sans-serif; background: #15171a; color: #e4e6ea; }
h1 { font-size: 17px; margin: 0 0 4px; } h2 { font-size: 14px; margin: 14px 0 6px; }
header { padding: 8px 14px; border-bottom: 1px solid #2c3036; height: 54px; box-sizing: border-box; overflow: hidden; }
header h1 { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; } header .sub { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-size: 12px; }
.sub { color: #9aa1ab; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 380px; gap: 0; height: calc(100vh - 54px); min-height: 420px; border-bottom: 1px solid #2c3036; }
main > div { min-height: 0; }
#view { position: relative; height: 100%; }
#view canvas { width: 100%; height: 100%; display: block; }
#modes { position: absolute; top: 8px; left: 8px; display: flex; gap: 4px; flex-wrap: wrap; }
#modes button { background: #23272d; color: #e4e6ea; border: 1px solid #3a4048; border-radius: 4px; padding: 4px 8px; cursor: pointer; }
#modes button.on { background: #3b6fd8; border-color: #3b6fd8; }
#tools { display: flex; gap: 4px; margin-left: 8px; } #tools select { background: #23272d; color: #e4e6ea; border: 1px solid #3a4048; border-radius: 4px; max-width: 160px; }
#tools button { background: #23272d; color: #e4e6ea; border: 1px solid #3a4048; border-radius: 4px; padding: 4px 8px; cursor: pointer; } #tools button.on { background: #3b6fd8; }
#pick { position: absolute; top: 40px; right: 8px; max-width: 48%; background: #000c; padding: 6px 8px; border-radius: 4px; white-space: pre-wrap; font-size: 11px; display: none; pointer-events: none; }
#legend { position: absolute; bottom: 6px; left: 6px; background: #15171ad9; padding: 3px 6px; border-radius: 4px; max-width: min(46%, 420px); max-height: 32%; overflow: auto; font-size: 11px; line-height: 1.35; }
#legend summary { cursor: pointer; color: #9aa1ab; }
#legend .key { white-space: nowrap; margin-right: 6px; display: inline-block; }
span.sw { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 2px; vertical-align: -1px; border-radius: 2px; }
#map-key { margin: 4px 0 8px; } #map-key span.sw { margin-left: 10px; }
#note { position: absolute; top: 40px; left: 8px; background: #5a4a12cc; padding: 4px 8px; border-radius: 4px; display: none; }
aside { border-left: 1px solid #2c3036; height: 100%; box-sizing: border-box; overflow: auto; padding: 0 10px 10px; }
#findings ol { list-style: none; padding: 0; margin: 0; }
#findings li { padding: 4px 6px; border-radius: 3px; cursor: pointer; border-bottom: 1px solid #23272d; }
#findings li:hover { background: #23272d; } #findings li.sel { background: #3b3f7a; }
#findings li.info { color: #9aa1ab; }
#findings li:focus { outline: 2px solid #3b6fd8; outline-offset: -2px; }
#filters { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin: 6px 0; position: sticky; top: 0; background: #15171a; padding: 4px 0; z-index: 1; }
#filters select, #filters input { background: #23272d; color: #e4e6ea; border: 1px solid #3a4048; border-radius: 4px; padding: 3px 4px; font: inherit; max-width: 170px; }
#filters select:focus, #filters input:focus { outline: 2px solid #3b6fd8; }
.kind { font-weight: 600; }
section { padding: 0 14px 10px; }
table { border-collapse: collapse; } th { color: #9aa1ab; font-weight: 600; border-bottom: 1px solid #2c3036; } td, th { padding: 2px 10px 2px 0; text-align: left; vertical-align: top; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
#map-wrap { position: relative; display: inline-block; }
#map { background: #1b1e22; border: 1px solid #2c3036; }
#tip { position: absolute; pointer-events: none; background: #000d; padding: 6px 8px; border-radius: 4px; display: none; white-space: pre; }
.bar { height: 10px; background: #2c3036; border-radius: 3px; width: 320px; position: relative; margin: 2px 0 6px; }
.bar i { position: absolute; left: 0; top: 0; bottom: 0; background: #3b6fd8; border-radius: 3px; }
.bar.over i { background: #d8493b; }
ul.warn { margin: 0; padding-left: 18px; color: #f0c674; }
`;

let bundled: Promise<string> | undefined;

/** The page script as the published package ships it, beside the compiled report module (scripts/build.mjs). */
export const PAGE_BUNDLE = 'page.bundle.js';

/** The page script (page/main.ts with three.js), minified; bundled once per process, cached on disk by content. */
export function pageScript(): Promise<string> {
  bundled ??= bundlePage();
  bundled.catch(() => (bundled = undefined));
  return bundled;
}

async function bundlePage(): Promise<string> {
  const here = dirname(fileURLToPath(import.meta.url));
  // The published package ships the page already bundled (scripts/bundle-compiler.mjs, PAGE_BUNDLE): beside this
  // module in the compiler folder (dist/compiler/, the add-on's compiler/), and there too for the library
  // (dist/src/report/ → dist/compiler/). No esbuild at run time.
  for (const p of [join(here, PAGE_BUNDLE), join(here, '..', '..', 'compiler', PAGE_BUNDLE)]) if (existsSync(p)) return readFileSync(p, 'utf8');
  // The report module may run from the launcher's bundle (bin/compile-collision.js): the sources stay in src/.
  const pageDir = existsSync(join(here, 'page', 'main.ts')) ? join(here, 'page') : join(here, '..', '..', 'src', 'report', 'page');
  const root = join(pageDir, '..', '..', '..');
  const h = createHash('sha256').update('legalComments:eof\0'); // the bundle's options: a change is a new key
  for (const f of readdirSync(pageDir).filter((n) => n.endsWith('.ts')).sort()) h.update(f).update(readFileSync(join(pageDir, f)));
  for (const pkg of ['three', 'esbuild']) h.update(readFileSync(join(root, 'node_modules', pkg, 'package.json')));
  const key = h.digest('hex').slice(0, 24);
  const cacheDir = join(root, 'node_modules', '.cache', 'skate-collision');
  const cached = join(cacheDir, `report-page-${key}.js`);
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [join(pageDir, 'main.ts')], bundle: true, minify: true, format: 'iife', target: 'es2020',
    // Third-party licence comments (three.js's MIT notice) kept at the end: scripts/bundle-compiler.mjs PAGE_OPTIONS.
    write: false, logLevel: 'silent', legalComments: 'eof', absWorkingDir: root,
  });
  const text = out.outputFiles[0].text;
  try {
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, cached);
  } catch {
    // a read-only install still builds reports, only without the cache
  }
  return text;
}
