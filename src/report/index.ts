// report.html: one self-contained page in the output directory that shows the compiled collision as the game gets
// it, built from the written .physics files read back with our codec (model.ts), the manifest (totals, options,
// validation findings with locations, cells) and the build's timings. The page script (page/main.ts: three.js
// with orbit controls, the top-down map, the findings list) is bundled by esbuild once per process (and cached on
// disk by its inputs' contents), and inlined with the data: the geometry gzip-compressed and base64-encoded (the
// page inflates it with the browser's DecompressionStream), the rest as JSON. Nothing is fetched: it opens from
// disk with no network.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readPhysicsResource } from '../format/resource.ts';
import { MAX_RESOURCE_BYTES, readRegularFile } from '../files.ts';
import { EDGE_CLASS_NAMES, reportGeometry, REPORT_DEFAULTS, type ReportGeometry, type ReportOptions } from './model.ts';
import { levelSurfaceColours, surfaceNames } from './surfaces.ts';
import type { RideFinding } from '../ride/index.ts';
import { grindPage, type GrindPage } from './grind.ts';

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
  objects?: { name: string; mode: string; triangles: number; materials: number[]; resource: string | null }[];
  /** How each glTF material became a packed word (ImportResult.materials): the page's materials table. */
  materials?: { material: string; how: string; word: number; primitives: number }[];
}

/** The page's data besides the geometry blob (JSON in the page). */
export interface PageMeta {
  manifest: ReportInput['manifest'];
  timings: Record<string, number>;
  workers: number;
  objects: NonNullable<ReportInput['objects']>;
  materials: NonNullable<ReportInput['materials']>;
  /** Each resource file's size in bytes (manifest order). */
  fileBytes: number[];
  /** The level's surface colours (surfaces.ts levelSurfaceColours) and the words shifted off their palette colour. */
  surfaceColours: Record<string, string>;
  surfaceShifted: number[];
  generated: string;
  geometry: Omit<ReportGeometry, 'shapes'> & { shapes: { resource: number; part: number; material: number; min: number[]; max: number[]; vertices: number; faces: number }[] };
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
  const geometry = reportGeometry(resources, { ...REPORT_DEFAULTS, ...options });
  const { blob, shapes } = packGeometry(geometry);
  const materials = new Set([...geometry.shapes.map((s) => s.material), ...(input.objects ?? []).flatMap((o) => o.materials), ...(input.materials ?? []).map((u) => u.word)]);
  const palette = levelSurfaceColours(materials);
  const names = surfaceNames();
  const meta: PageMeta = {
    manifest: input.manifest,
    timings: input.timings,
    workers: input.workers,
    objects: (input.objects ?? []).map(({ name, mode, triangles, materials, resource }) => ({ name, mode, triangles, materials, resource })),
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
  const script = await pageScript();
  const data = gzipSync(blob, { level: 6 }).toString('base64');
  return html(meta, data, script);
}

/** The shapes' arrays one after another (vertices u16, faces u16, classes u8, each padded to 2 bytes). */
function packGeometry(g: ReportGeometry): { blob: Uint8Array; shapes: PageMeta['geometry']['shapes'] } {
  let size = 0;
  for (const s of g.shapes) size += s.vertices.byteLength + s.faces.byteLength + ((s.classes.byteLength + 1) & ~1);
  const blob = new Uint8Array(size);
  let at = 0;
  const put = (a: Uint8Array | Uint16Array): void => {
    blob.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    at += (a.byteLength + 1) & ~1;
  };
  const shapes = g.shapes.map((s) => {
    put(s.vertices);
    put(s.faces);
    put(s.classes);
    return { resource: s.resource, part: s.part, material: s.material, min: s.min, max: s.max, vertices: s.vertices.length / 3, faces: s.faces.length / 3 };
  });
  return { blob, shapes };
}

/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function html(meta: PageMeta, data: string, script: string): string {
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
<script type="application/json" id="report-meta">${scriptJson(meta)}</script>
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
