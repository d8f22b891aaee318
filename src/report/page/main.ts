/// <reference lib="dom" />
// report.html's page script (bundled with three.js by src/report/index.ts; runs in the browser, from disk, with no
// network). Reads the JSON and the gzip+base64 geometry blob from the page, then builds: the 3D view (view.ts:
// merged indexed mesh, edge-class lines, pick, framing, level of detail), the findings panel (build warnings,
// validation findings and the open edges of objects not validated; filters and search), the counts with their
// sources, the top-down map (cells against the budget and pools, resources outlined, findings, hover and click),
// tables of resources and materials, totals, timings, options. window.__report exposes state for the browser tests.
import * as THREE from 'three';
import { KEY_LIGHTNESS, KEY_SATURATION, keyHue } from './palette.ts';
import { createView, EDGE_COLOURS, type Pick, type ShapeMeta } from './view.ts';
import { installGrindView, type GrindData } from './grind.ts';

interface Loc { triangle: number; points: number[][]; with?: string }
interface Resource { name: string; file: string; cell: [number, number] | null; bounds: { min: number[]; max: number[] }; parts: number; shapes: number; vertices?: number; faces: number; sourceObjects: string[]; materials?: number[] }
interface Meta {
  manifest: {
    tool: { name: string; version: string };
    input: { file: string; sha256: string };
    options: Record<string, unknown>;
    layout: string;
    geometries: number;
    totals: Record<string, number>;
    resources: Resource[];
    validation: Record<string, Record<string, unknown> & { locations?: Record<string, Loc[]> }>;
    warnings: string[];
    files?: string[];
    seams: { mode: string; authoredOpenEdges: number | null; joinedAcrossCuts: number | null; openEdgesWritten: number | null };
    /** compile --ride: the ride layer (src/ride/ RideFinding, as the manifest stores it). */
    ride?: { counts: Record<string, number>; findings: { kind: string; position: number[]; resource: string; part: number; face: number; size: number; unit: string; probe?: string; speed?: number; direction?: number[]; edge?: string }[] };
  };
  objects: { name: string; mode: string; triangles: number; materials: number[]; resource: string | null }[];
  timings: Record<string, number>;
  workers: number;
  generated: string;
  geometry: { faces: number; drawnFaces: number; stride: number; classCounts: number[]; resourceClassCounts: number[][]; openEdges: { resource: number; cls: number; points: number[][] }[]; shapes: ShapeMeta[] };
  edgeClasses: string[];
  surfaces: Record<string, string>;
  surfaceColours: Record<string, string>;
  surfaceShifted: number[];
  materials: { material: string; how: string; word: number; primitives: number }[];
  fileBytes: number[];
  blobBytes: number;
  grind?: GrindData;
}

/** Finding kinds in list order, with their labels; borderEdges is info. */
const KINDS: [string, string][] = [
  ['crackEdges', 'crack'], ['nonManifoldEdges', 'non-manifold edge'], ['inconsistentEdges', 'inconsistent winding'],
  ['degenerate', 'degenerate triangle'], ['duplicate', 'duplicate triangle'], ['reversedDuplicate', 'back-to-back pair'],
  ['borderEdges', 'border (info)'],
];
const BORDER = 3, CRACK = 4, UNPAIRED = 5;
/** One line per edge class: what it means for a board riding over it. */
const EDGE_MEANING = [
  'flat: the faces either side lie in one plane (within 0.1°); rides smooth',
  'concave: a valley between the faces (a ramp meeting the ground); rides smooth',
  'convex: a ridge (a ledge’s lip, a box’s corner); the stored value says how sharp',
  'open border: the mesh ends here (nothing on the other side); expected at a surface’s outline',
  'crack: open, but along another open edge or a face: a seam the board can catch on (fix: weld or join)',
  'unpaired (non-manifold): faces meet here but not as one pair (three faces on an edge, a back-to-back face); the file stores it as open',
];
const STOCK_POOL = 5000;
const RESKATE_POOL = 40000;
const MODES = ['edges', 'surface', 'resource', 'cell'] as const;
type Mode = (typeof MODES)[number];

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};
const fmt = (p: number[]): string => `(${p.map((v) => +v.toFixed(3)).join(', ')})`;
const n = (v: number): string => v.toLocaleString('en-US');

async function inflate(b64: string): Promise<ArrayBuffer> {
  const bin = atob(b64.trim());
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

/** The surface's colour: the level's fixed palette entry (src/report/surfaces.ts levelSurfaceColours). */
let surfaceColours: Record<string, string> = {};
const surfaceColour = (word: number): THREE.Color => new THREE.Color(surfaceColours[String(word)] ?? '#888888');

/** Stable distinct colour for an integer key. */
function keyColour(k: number): THREE.Color {
  return new THREE.Color().setHSL(keyHue(k), KEY_SATURATION, KEY_LIGHTNESS);
}

async function main(): Promise<void> {
  const meta: Meta = JSON.parse(document.getElementById('report-meta')!.textContent!);
  surfaceColours = meta.surfaceColours;
  const blob = await inflate(document.getElementById('report-geometry')!.textContent!);
  const m = meta.manifest;
  const app = document.getElementById('app')!;
  app.textContent = '';

  // Header: what was built, by which tool.
  const header = el('header');
  header.append(el('h1', {}, `${m.input.file}: compiled collision`));
  header.append(el('div', { class: 'sub' }, `${m.tool.name} ${m.tool.version} · input sha256 ${m.input.sha256.slice(0, 16)}… · ${m.layout === 'cells' ? `collision_area cells of ${String(m.options.cellSize)} m` : 'one resource per object'} · ${n(m.geometries)} geometries (budget ${n(Number(m.options.budget))}) · report made ${meta.generated}`));
  app.append(header);

  const mainEl = el('main');
  const left = el('div');
  const view = el('div', { id: 'view' });
  const canvas = el('canvas', { id: 'three' });
  view.append(canvas);
  const modes = el('div', { id: 'modes' });
  view.append(modes);
  const note = el('div', { id: 'note' });
  view.append(note);
  const legend = el('details', { id: 'legend', open: '' });
  legend.append(el('summary', {}, 'Key'));
  const legendBody = el('div', { id: 'legend-body' });
  legend.append(legendBody);
  view.append(legend);
  left.append(view);
  const aside = el('aside');
  mainEl.append(left, aside);
  app.append(mainEl);

  // ---- 3D view -------------------------------------------------------------------------------------------------
  const g = meta.geometry;
  const view3d = createView(canvas, view, blob, g.shapes);
  const { camera, controls, render } = view3d;
  const frames = view3d.frames;
  const firstFrame = performance.now();

  // Colour modes.
  const cellOf = (r: Resource): string => (r.cell ? `${r.cell[0]},${r.cell[1]}` : r.name);
  const cellIds = new Map<string, number>();
  for (const r of m.resources) if (!cellIds.has(cellOf(r))) cellIds.set(cellOf(r), cellIds.size);
  const materials = [...new Set(g.shapes.map((s) => s.material))].sort((a, b) => a - b);
  let mode: Mode = 'edges';
  const setMode = (next: Mode): void => {
    mode = next;
    view3d.setTint(next === 'edges' ? null : g.shapes.map((s) => {
      const c = next === 'surface' ? surfaceColour(s.material) : next === 'resource' ? keyColour(s.resource) : keyColour(cellIds.get(cellOf(m.resources[s.resource]))!);
      return [Math.round(c.r * 255), Math.round(c.g * 255), Math.round(c.b * 255)];
    }));
    for (const b of modes.querySelectorAll('button')) b.classList.toggle('on', b.dataset.mode === next);
    legendBody.textContent = '';
    const key = (colour: string, text: string, title = text): void => {
      const item = el('span', { class: 'key', title });
      item.append(el('span', { class: 'sw', style: `background:${colour}` }), document.createTextNode(text));
      legendBody.append(item);
    };
    if (next === 'edges') {
      meta.edgeClasses.forEach((name, i) => key(EDGE_COLOURS[i], `${name} ${n(g.classCounts[i])}`, EDGE_MEANING[i]));
      legendBody.append(el('div', { class: 'sub' }, 'edge sides in the written files (open ones: one per edge); hover for meanings, table below'));
    } else if (next === 'surface') {
      for (const mat of materials) key(meta.surfaceColours[String(mat)] ?? '#888', meta.surfaces[String(mat)] ?? String(mat));
      legendBody.append(el('div', { class: 'sub' }, `fixed palette: the same surface has the same colour in every report${meta.surfaceShifted.length ? ` (${meta.surfaceShifted.length} shifted off it here, to stay distinct)` : ''}`));
    } else {
      const groups = next === 'resource' ? m.resources.map((r, i): [string, number] => [r.name, i]) : [...cellIds].map(([c, i]): [string, number] => [m.layout === 'cells' ? `cell ${c}` : c, i]);
      for (const [label, i] of groups.slice(0, 40)) key(`#${keyColour(i).getHexString()}`, label);
      legendBody.append(el('div', { class: 'sub' }, `${n(groups.length)} ${next === 'resource' ? 'resources' : m.layout === 'cells' ? 'cells' : 'resources (no cells: per-object layout)'}, one colour each${groups.length > 40 ? ' (first 40 keyed; pick a face for its name)' : ''}; colours are by order, not fixed across reports`));
    }
    legendBody.append(el('div', { class: 'sub' }, 'back faces (the side a face\u2019s winding turns away): pink, hatched'));
  };
  for (const md of MODES) {
    const b = el('button', { 'data-mode': md }, md === 'edges' ? 'edge class' : md === 'surface' ? 'surface material' : md);
    b.addEventListener('click', () => setMode(md));
    modes.append(b);
  }
  if (g.stride > 1 || g.drawnFaces < g.faces) {
    note.style.display = 'block';
    note.textContent = `Showing ${n(g.drawnFaces)} of ${n(g.faces)} faces: 1 face in ${g.stride} of each shape, and every face with an open or crack edge (the level is too large to draw whole). Counts and findings cover all faces.`;
  }

  // Tools: frame all, wireframe, isolate a resource (an object in the per-object layout).
  const tools = el('div', { id: 'tools' });
  const frameAllButton = el('button', { id: 'frame-all', title: 'frame the whole level (reset the camera)' }, 'frame all');
  frameAllButton.addEventListener('click', () => view3d.frameAll());
  const wireButton = el('button', { id: 'wireframe', 'aria-pressed': 'false', title: 'draw every edge, flat ones too' }, 'wireframe');
  wireButton.addEventListener('click', () => {
    const on = wireButton.getAttribute('aria-pressed') !== 'true';
    wireButton.setAttribute('aria-pressed', String(on));
    wireButton.classList.toggle('on', on);
    view3d.setWireframe(on);
  });
  const isolateSelect = el('select', { id: 'isolate', 'aria-label': 'show one resource alone', title: m.layout === 'cells' ? 'show one cell alone' : 'show one object alone' });
  isolateSelect.append(el('option', { value: '-1' }, m.layout === 'cells' ? 'all cells' : 'all objects'));
  m.resources.forEach((r, i) => isolateSelect.append(el('option', { value: String(i) }, r.cell ? `cell ${r.cell.join(',')} (${r.name})` : r.name)));
  isolateSelect.addEventListener('change', () => {
    const ri = Number(isolateSelect.value);
    view3d.isolate(ri);
    if (ri >= 0) view3d.frameBox(m.resources[ri].bounds.min, m.resources[ri].bounds.max);
  });
  tools.append(frameAllButton, wireButton, isolateSelect);
  modes.append(tools);

  // Pick: hover shows what is under the pointer, a click keeps it and marks the face.
  const pickBox = el('div', { id: 'pick', role: 'status', 'aria-live': 'polite' });
  view.append(pickBox);
  const glTFOf = (word: number): string => [...new Set(meta.materials.filter((u) => u.word === word).map((u) => u.material))].join(', ');
  const describePick = (p: Pick): string => {
    const s = g.shapes[p.shape], r = m.resources[s.resource];
    const objs = r.sourceObjects.length === 1 ? `object ${r.sourceObjects[0]}${modeOf.get(r.sourceObjects[0]) ? ` (${modeOf.get(r.sourceObjects[0])})` : ''}` : `one of ${n(r.sourceObjects.length)} objects merged in this cell (the file does not say which): ${r.sourceObjects.slice(0, 4).join(', ')}${r.sourceObjects.length > 4 ? ' …' : ''}`;
    const gl = glTFOf(s.material);
    return [
      objs,
      `resource ${r.name} (${r.file})${r.cell ? ` · cell ${r.cell.join(',')}` : ''} · part ${s.part}`,
      `surface ${meta.surfaces[String(s.material)] ?? s.material}${gl ? ` ← glTF material ${gl}` : ''}`,
      `nearest edge: ${EDGE_MEANING[p.edgeClass]}`,
      `at ${fmt(p.point.toArray())} · ${p.front ? 'front face' : 'BACK face (seen from behind its winding)'} · face ${p.face} of shape ${p.shape}`,
    ].join('\n');
  };
  let pinned = false, hoverQueued = false, lastMove: MouseEvent | null = null, downAt: [number, number] | null = null;
  canvas.addEventListener('pointerdown', (ev) => (downAt = [ev.clientX, ev.clientY]));
  canvas.addEventListener('mousemove', (ev) => {
    lastMove = ev;
    if (pinned || hoverQueued || ev.buttons) return;
    hoverQueued = true;
    requestAnimationFrame(() => {
      hoverQueued = false;
      const p = lastMove && view3d.pickAt(lastMove.clientX, lastMove.clientY);
      pickBox.textContent = p ? describePick(p) : '';
      pickBox.style.display = p ? 'block' : 'none';
    });
  });
  canvas.addEventListener('click', (ev) => {
    if (downAt && Math.hypot(ev.clientX - downAt[0], ev.clientY - downAt[1]) > 4) return; // a drag, not a click
    const p = view3d.pickAt(ev.clientX, ev.clientY);
    pinned = !!p;
    pickBox.textContent = p ? `${describePick(p)}\n(click empty space to let go)` : '';
    pickBox.style.display = p ? 'block' : 'none';
    if (p) {
      lastPick = p;
      view3d.mark(p.corners.map((v) => v.toArray()));
      selectNearest(p.point.toArray());
    }
  });
  let lastPick: Pick | null = null;
  let selectNearest = (_p: number[]): void => {};
  let showOnMap = (_pts: number[][] | null): void => {};
  const frame = (pts: number[][]): void => view3d.frameFinding(pts);

  // ---- Findings list -------------------------------------------------------------------------------------------
  interface Entry { kind: string; label: string; object: string; loc: Loc; info: boolean; source: 'validation' | 'file' | 'ride'; resource: number; modes?: string; ride?: string }
  const entries: Entry[] = [];
  const counts = new Map<string, number>();
  const resourceOf = new Map<string, number>();
  m.resources.forEach((r, i) => r.sourceObjects.forEach((o) => resourceOf.has(o) || resourceOf.set(o, i)));
  for (const [kind, label] of KINDS) {
    for (const [object, v] of Object.entries(m.validation)) {
      const count = Number(v[kind] ?? 0);
      if (count) counts.set(kind, (counts.get(kind) ?? 0) + count);
      for (const loc of v.locations?.[kind] ?? []) entries.push({ kind, label, object, loc, info: kind === 'borderEdges', source: 'validation', resource: resourceOf.get(object) ?? -1 });
    }
  }
  // What the validation did not see (grind prisms, shape-mode objects: not validated as input meshes): the open
  // and unpaired edges the written files of resources with no validated object hold, listed from the files.
  const modeOf = new Map(meta.objects.map((o) => [o.name, o.mode]));
  const unvalidated = m.resources.map((r) => !r.sourceObjects.some((o) => o in m.validation));
  const FILE_KINDS: Record<number, [string, string]> = { [CRACK]: ['fileCrack', 'crack (file)'], [UNPAIRED]: ['fileUnpaired', 'unpaired (file)'], [BORDER]: ['fileBorder', 'border (file, info)'] };
  const fileCounts = new Map<string, number>();
  for (const cls of [CRACK, UNPAIRED, BORDER]) {
    const [kind, label] = FILE_KINDS[cls];
    m.resources.forEach((r, ri) => {
      if (!unvalidated[ri]) return;
      const c = g.resourceClassCounts[ri]?.[cls] ?? 0;
      if (c) fileCounts.set(kind, (fileCounts.get(kind) ?? 0) + c);
    });
    for (const e of g.openEdges) {
      if (e.cls !== cls || !unvalidated[e.resource]) continue;
      const r = m.resources[e.resource];
      const modes = [...new Set(r.sourceObjects.map((o) => modeOf.get(o) ?? '?'))].join(', ');
      entries.push({ kind, label, object: r.sourceObjects.length === 1 ? r.sourceObjects[0] : r.name, loc: { triangle: -1, points: e.points, with: undefined }, info: cls === BORDER, source: 'file', resource: e.resource, modes });
    }
  }
  // The ride layer (compile --ride): what the probes met in the written files, at the point of contact; listed
  // as a 0.5 m stroke along the direction of travel so a click frames it at a probe's scale.
  for (const f of m.ride?.findings ?? []) {
    const d = f.direction ?? [1, 0], p = f.position;
    const points = [[p[0] - 0.25 * d[0], p[1], p[2] - 0.25 * d[1]], [p[0] + 0.25 * d[0], p[1], p[2] + 0.25 * d[1]]];
    const by = f.probe ? ` · ${f.probe} at ${f.speed} m/s` : '';
    entries.push({
      kind: `ride-${f.kind}`, label: `ride: ${f.kind}`, object: f.resource, loc: { triangle: -1, points, with: undefined }, info: false, source: 'ride',
      resource: m.resources.findIndex((r) => r.file === f.resource), ride: `${f.size} ${f.unit} at ${fmt(p)} · part ${f.part} face ${f.face}${f.edge ? ` · ${f.edge} edge` : ''}${by}`,
    });
  }
  const fi = el('div', { id: 'findings' });
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const fileTotal = [...fileCounts.values()].reduce((a, b) => a + b, 0);
  fi.append(el('h2', {}, `Findings: ${n(total)} from the validation (input edges and triangles)${fileTotal ? ` + ${n(fileTotal)} from the written files of objects not validated` : ''}; ${n(entries.length)} listed with a place`));
  const summary = el('div', { class: 'sub', id: 'summary' });
  // Never cleaner than the build: the clean message only when the build printed no warning and counted nothing.
  summary.textContent = KINDS.filter(([k]) => counts.get(k)).map(([k, label]) => `${label}: ${n(counts.get(k)!)}`).join(' · ') ||
    (m.warnings.length ? `No located findings, but the build warned ${m.warnings.length} time(s): see below.` : 'No findings: every object is clean.');
  fi.append(summary);
  // Every warning of the build, in the panel: placed (click frames the resource of the object it names) or unplaced.
  const wl = el('ol', { id: 'build-warnings' });
  for (const w of m.warnings) {
    const named = [...w.matchAll(/(?:object|node) "([^"]+)"/g)].map((x) => x[1]);
    const res = m.resources.find((r) => named.some((o) => r.sourceObjects.includes(o) || r.name === o));
    const li = el('li', { class: `warn ${res ? 'placed' : 'unplaced'}` });
    li.append(el('span', { class: 'kind' }, res ? 'warning' : 'warning (unplaced)'), document.createTextNode(` · ${w}`));
    if (res) {
      li.tabIndex = 0;
      li.addEventListener('click', () => view3d.frameBox(res.bounds.min, res.bounds.max));
    }
    wl.append(li);
  }
  if (m.warnings.length) fi.append(el('h2', {}, `Build warnings (${m.warnings.length}, as the build printed them)`), wl);
  const ol = el('ol', { id: 'finding-list' });
  const items: HTMLLIElement[] = [];
  entries.forEach((e, i) => {
    const shape = e.loc.points.length === 2 ? `edge ${fmt(e.loc.points[0])}–${fmt(e.loc.points[1])}` : `triangle ${e.loc.points.map(fmt).join(' ')}`;
    const li = el('li', { 'data-finding': String(i), 'data-source': e.source, 'data-kind': e.kind, class: e.info ? 'info' : '' });
    li.tabIndex = 0;
    const where = e.source === 'file' ? `${m.resources[e.resource].file} (${e.modes}: not validated)` : `source triangle ${e.loc.triangle}`;
    if (e.ride) li.append(el('span', { class: 'kind' }, e.label), document.createTextNode(` · ${e.object} · ${e.ride}`));
    else li.append(el('span', { class: 'kind' }, e.label), document.createTextNode(` · "${e.object}" · ${shape} · ${where}${e.loc.with ? ` · along "${e.loc.with}"` : ''}`));
    li.addEventListener('click', () => {
      for (const s of ol.querySelectorAll('li.sel')) s.classList.remove('sel');
      li.classList.add('sel');
      frame(e.loc.points);
      showOnMap(e.loc.points);
    });
    li.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') (ev.preventDefault(), li.click());
      else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        const shown = [...ol.querySelectorAll<HTMLLIElement>('li[data-finding]:not([hidden])')];
        shown[shown.indexOf(li) + (ev.key === 'ArrowDown' ? 1 : -1)]?.focus();
      }
    });
    ol.append(li);
    items.push(li);
  });
  // Where the manifest's list stops short of its count (it keeps the first locations of each kind and object).
  for (const [kind, label] of KINDS) {
    for (const [object, v] of Object.entries(m.validation)) {
      const count = Number(v[kind] ?? 0), listed = v.locations?.[kind]?.length ?? 0;
      if (count > listed) ol.append(el('li', { class: 'cut', 'data-kind': kind, 'data-object': object, 'data-info': String(kind === 'borderEdges') }, `${label} · "${object}": list cut here, ${n(listed)} listed of ${n(count)} (the manifest keeps the first ${n(listed)}; all ${n(count)} are counted above)`));
    }
  }
  for (const cls of [CRACK, UNPAIRED, BORDER]) {
    const [kind, label] = FILE_KINDS[cls];
    m.resources.forEach((r, ri) => {
      const count = unvalidated[ri] ? g.resourceClassCounts[ri]?.[cls] ?? 0 : 0;
      const listed = g.openEdges.filter((e) => e.resource === ri && e.cls === cls).length;
      if (count > listed) ol.append(el('li', { class: 'cut', 'data-kind': kind, 'data-object': r.sourceObjects.length === 1 ? r.sourceObjects[0] : r.name, 'data-info': String(cls === BORDER) }, `${label} · ${r.file}: list cut here, ${n(listed)} listed of ${n(count)}`));
    });
  }
  // A face picked in 3D selects the nearest listed finding within 1 m of the point, if it is shown.
  selectNearest = (p) => {
    let best = -1, bd = 1;
    entries.forEach((e, i) => {
      if (items[i].hidden) return;
      const d = Math.min(...e.loc.points.map((q) => Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2])));
      if (d < bd) (bd = d), (best = i);
    });
    if (best < 0) return;
    for (const s of ol.querySelectorAll('li.sel')) s.classList.remove('sel');
    items[best].classList.add('sel');
    items[best].scrollIntoView({ block: 'nearest' });
    showOnMap(entries[best].loc.points);
  };

  // Filters: severity, kind, object, resource or cell, and a search on object names; borders (info) hidden at first
  // when there is anything at warn level. Native controls, so all reachable and usable with the keyboard.
  const filters = el('div', { id: 'filters', role: 'search' });
  const select = (id: string, label: string, options: [string, string][]): HTMLSelectElement => {
    const sel = el('select', { id, 'aria-label': label, title: label });
    for (const [v, t] of options) sel.append(el('option', { value: v }, t));
    filters.append(sel);
    return sel;
  };
  const uniq = <T,>(xs: T[]): T[] => [...new Set(xs)];
  const warned = entries.some((e) => !e.info) || m.warnings.length > 0;
  const fSeverity = select('f-severity', 'severity', [['all', 'warn + info'], ['warn', 'warn only'], ['info', 'info only']]);
  const kindsShown = uniq(entries.map((e) => e.kind));
  const fKind = select('f-kind', 'kind', [['all', 'every kind'], ...kindsShown.map((k): [string, string] => [k, entries.find((e) => e.kind === k)!.label])]);
  const fObject = select('f-object', 'object', [['all', 'every object'], ...uniq(entries.map((e) => e.object)).sort().map((o): [string, string] => [o, o])]);
  const resName = (ri: number): string => (ri < 0 ? 'no resource' : m.resources[ri].cell ? `cell ${m.resources[ri].cell!.join(',')} (${m.resources[ri].name})` : m.resources[ri].name);
  const fResource = select('f-resource', m.layout === 'cells' ? 'cell' : 'resource', [['all', m.layout === 'cells' ? 'every cell' : 'every resource'], ...uniq(entries.map((e) => e.resource)).sort((a, b) => a - b).map((ri): [string, string] => [String(ri), resName(ri)])]);
  const fSearch = el('input', { id: 'f-search', type: 'search', placeholder: 'object name…', 'aria-label': 'search object names' });
  filters.append(fSearch);
  const fShown = el('span', { id: 'f-shown', class: 'sub', 'aria-live': 'polite' });
  filters.append(fShown);
  fSeverity.value = warned && entries.some((e) => e.info) ? 'warn' : 'all';
  const applyFilters = (): void => {
    const sev = fSeverity.value, kind = fKind.value, obj = fObject.value, res = fResource.value, q = fSearch.value.trim().toLowerCase();
    const pass = (info: boolean, k: string, object: string, ri: number | null): boolean =>
      (sev === 'all' || (sev === 'info') === info) && (kind === 'all' || kind === k) && (obj === 'all' || obj === object) &&
      (res === 'all' || ri === null || String(ri) === res) && (!q || object.toLowerCase().includes(q));
    let shown = 0;
    entries.forEach((e, i) => {
      const ok = pass(e.info, e.kind, e.object, e.resource);
      items[i].hidden = !ok;
      if (ok) shown++;
    });
    for (const li of ol.querySelectorAll<HTMLLIElement>('li.cut')) li.hidden = !pass(li.dataset.info === 'true', li.dataset.kind!, li.dataset.object!, null);
    fShown.textContent = `${n(shown)} shown of ${n(entries.length)} listed${sev === 'warn' && entries.some((e) => e.info) ? ' (borders are info: choose "warn + info" to see them)' : ''}`;
  };
  for (const c of [fSeverity, fKind, fObject, fResource]) c.addEventListener('change', applyFilters);
  fSearch.addEventListener('input', applyFilters);
  applyFilters();
  fi.append(filters, ol);
  aside.append(fi);

  // ---- Below: map, totals, timings, options, warnings ----------------------------------------------------------
  const below = el('section');
  app.append(below);
  below.append(el('h2', {}, 'Top-down map'));
  const geos = m.geometries;
  for (const [label, limit] of [['budget', Number(m.options.budget)], ['stock physics pool', STOCK_POOL], ["ReSkate's pool", RESKATE_POOL]] as [string, number][]) {
    below.append(el('div', { class: 'sub' }, `${n(geos)} geometries of ${label} ${n(limit)}${geos >= limit ? ' — reached' : ''}`));
    const bar = el('div', { class: `bar${geos >= limit ? ' over' : ''}` });
    bar.append(el('i', { style: `width:${Math.min(100, (100 * geos) / limit).toFixed(1)}%` }));
    below.append(bar);
  }
  const wrap = el('div', { id: 'map-wrap' });
  const map = el('canvas', { id: 'map', width: '760', height: '560' });
  const tip = el('div', { id: 'tip' });
  wrap.append(map, tip);
  below.append(wrap);
  // A map click frames the cell (or resource) in 3D and narrows the list to its findings (the filter shows it).
  const mapView = drawMap(map, tip, m, entries, (ri) => {
    const r = m.resources[ri];
    view3d.frameBox(r.bounds.min, r.bounds.max);
    if ([...fResource.options].some((o) => o.value === String(ri))) {
      fResource.value = String(ri);
      applyFilters();
    }
    view.scrollIntoView({ block: 'nearest' });
  });
  showOnMap = (pts) => mapView.show(pts);
  const mapKey = el('div', { id: 'map-key', class: 'sub' });
  const dot = (c: string, t: string): void => {
    mapKey.append(el('span', { class: 'sw', style: `background:${c}` }), document.createTextNode(t));
  };
  dot('#ff2d55', 'a finding at warn level (its first point)');
  dot('#9aa1ab', 'a border (info)');
  dot('transparent;border:1px solid #b9bec6', "a resource's bounds");
  if (m.layout === 'cells') dot('rgba(59,111,216,0.6)', 'a cell, darker with more geometries (the number)');
  below.append(mapKey);

  // ---- Objects and resources; materials ----------------------------------------------------------------------
  const swatch = (word: number): HTMLElement => el('span', { class: 'sw', style: `background:${meta.surfaceColours[String(word)] ?? '#888'}` });
  const surfaceCell = (words: number[]): HTMLTableCellElement => {
    const td = el('td');
    for (const w of words) td.append(swatch(w), document.createTextNode(`${meta.surfaces[String(w)] ?? w} `));
    return td;
  };
  below.append(el('h2', {}, `Objects and resources (${n(m.resources.length)} resources from ${n(meta.objects.length || m.resources.reduce((s, r) => s + r.sourceObjects.length, 0))} objects)`));
  const rt = el('table', { id: 'resources' });
  const head = (cols: string[]): HTMLTableRowElement => {
    const tr = el('tr');
    for (const c of cols) tr.append(el('th', {}, c));
    return tr;
  };
  rt.append(head(['resource', 'objects (mode)', 'triangles', 'parts', 'shapes', 'surfaces', 'file', 'bytes', 'open edges']));
  m.resources.forEach((r, ri) => {
    const tr = el('tr', { 'data-resource': String(ri) });
    const objs = r.sourceObjects.slice(0, 6).map((o) => `${o}${modeOf.get(o) && modeOf.get(o) !== 'triangle_mesh' ? ` (${modeOf.get(o)})` : ''}`).join(', ') + (r.sourceObjects.length > 6 ? ` … (${r.sourceObjects.length})` : '');
    const rc = g.resourceClassCounts[ri] ?? [];
    tr.append(el('td', {}, r.cell ? `${r.name} (cell ${r.cell.join(',')})` : r.name), el('td', {}, objs), el('td', { class: 'n' }, n(r.faces)), el('td', { class: 'n' }, n(r.parts)), el('td', { class: 'n' }, n(r.shapes)),
      surfaceCell(r.materials ?? []), el('td', {}, r.file), el('td', { class: 'n' }, n(meta.fileBytes[ri] ?? 0)), el('td', { class: 'n' }, n((rc[BORDER] ?? 0) + (rc[CRACK] ?? 0) + (rc[UNPAIRED] ?? 0))));
    rt.append(tr);
  });
  below.append(rt);
  below.append(el('h2', {}, `Materials: glTF material → surface → packed word (${n(meta.materials.length)})`));
  const mt = el('table', { id: 'materials' });
  mt.append(head(['glTF material', 'chosen by', 'surface', 'packed word', 'primitives']));
  for (const u of [...meta.materials].sort((a, b) => a.material.localeCompare(b.material) || a.word - b.word)) {
    const tr = el('tr');
    const surface = el('td');
    surface.append(swatch(u.word), document.createTextNode((meta.surfaces[String(u.word)] ?? String(u.word)).replace(/ \(0x[0-9a-f]+\)$/, '')));
    tr.append(el('td', {}, u.material), el('td', {}, u.how), surface, el('td', {}, `0x${(u.word >>> 0).toString(16).padStart(8, '0')}`), el('td', { class: 'n' }, n(u.primitives)));
    mt.append(tr);
  }
  if (!meta.materials.length) {
    const tr = el('tr');
    tr.append(el('td', { colspan: '5', class: 'sub' }, 'No glTF materials recorded (not a glTF input).'));
    mt.append(tr);
  }
  below.append(mt);

  // ---- One set of counts, each with its source --------------------------------------------------------------------
  const cc = g.classCounts;
  const fileOpen = cc[BORDER] + cc[CRACK] + cc[UNPAIRED];
  const sm = m.seams;
  const agree = sm.openEdgesWritten === null || sm.openEdgesWritten === fileOpen;
  const notValidated = (cls: number): number => m.resources.reduce((s, _, ri) => s + (unvalidated[ri] ? g.resourceClassCounts[ri]?.[cls] ?? 0 : 0), 0);
  const vCount = (k: string): number => counts.get(k) ?? 0;
  below.append(el('h2', {}, 'Open edges: one set of counts, and where each comes from'));
  const countRows: [string, string, number | string, string][] = [
    ['written', 'open edges in the written files (border + crack + unpaired)', `${n(fileOpen)} = ${n(cc[BORDER])} + ${n(cc[CRACK])} + ${n(cc[UNPAIRED])}`, `the .physics files, read back by this report; manifest seams.openEdgesWritten ${sm.openEdgesWritten === null ? '—' : n(sm.openEdgesWritten)}${agree ? ' (equal)' : ' (DIFFERS: see note)'}`],
    ['authored', 'open edges as authored (level-wide, before the cuts)', sm.authoredOpenEdges ?? '—', 'manifest seams.authoredOpenEdges'],
    ['joined', 'corners joined across the compiler\'s cuts', sm.joinedAcrossCuts ?? '—', 'manifest seams.joinedAcrossCuts'],
    ['validated-open', 'open edges of the validated input objects (border + crack)', `${n(vCount('borderEdges') + vCount('crackEdges'))} = ${n(vCount('borderEdges'))} + ${n(vCount('crackEdges'))}`, 'manifest validation (input edges, welded level-wide)'],
    ['unvalidated-open', 'open edges in files of objects not validated (grind prisms, shapes)', `${n(notValidated(BORDER) + notValidated(CRACK))} = ${n(notValidated(BORDER))} + ${n(notValidated(CRACK))}`, 'the written files of resources with no validated object'],
    ['non-manifold', 'non-manifold edges of the input (validation) · unpaired sides in the files', `${n(vCount('nonManifoldEdges'))} · ${n(cc[UNPAIRED])}`, 'manifest validation · the files (each side of a non-manifold edge or back-to-back face)'],
    ['warnings', 'build warnings', m.warnings.length, 'manifest warnings (all in the findings panel)'],
  ];
  const ct = el('table', { id: 'counts' });
  for (const [key, what, value, source] of countRows) {
    const tr = el('tr', { 'data-count': key });
    tr.append(el('td', {}, what), el('td', { class: 'n' }, typeof value === 'number' ? n(value) : value), el('td', { class: 'sub' }, source));
    ct.append(tr);
  }
  below.append(ct);
  if (!agree) below.append(el('p', { class: 'warn', id: 'count-note' }, `The files hold ${n(fileOpen)} open or unpaired edge sides, the manifest counts ${n(sm.openEdgesWritten!)} written: corners joined across a cut as a sharp fold store what an open edge stores (1.0, no bits), so the files cannot tell them apart.`));
  below.append(el('p', { class: 'sub' }, `The validation's open edges (${n(vCount('borderEdges') + vCount('crackEdges'))}) plus those of objects it does not see (${n(notValidated(BORDER) + notValidated(CRACK))}) make the files' open edges (${n(cc[BORDER] + cc[CRACK])}) when no cut leaves a seam open; a border in the input may be a crack in the files when it lies along another object.`));

  below.append(el('h2', {}, 'Totals'));
  below.append(table(Object.entries(m.totals).map(([k, v]) => [k, n(v)])));
  below.append(el('h2', {}, 'Edge classes (edge sides, from the written files)'));
  below.append(table(meta.edgeClasses.map((name, i) => [name, n(g.classCounts[i]), EDGE_MEANING[i].replace(/^[^:]*: /, '')])));
  below.append(el('h2', {}, 'Timings'));
  below.append(table([...Object.entries(meta.timings).map(([k, v]) => [k, `${v.toFixed(0)} ms`]), ['threads', String(meta.workers)]]));
  below.append(el('h2', {}, 'Options'));
  below.append(table(Object.entries(m.options).map(([k, v]) => [k, JSON.stringify(v)])));
  below.append(el('h2', {}, `Warnings (${m.warnings.length})`));
  const ul = el('ul', { class: 'warn' });
  for (const w of m.warnings) ul.append(el('li', {}, w));
  below.append(ul);
  below.append(el('p', { class: 'sub' }, `${m.tool.name} ${m.tool.version}. Drawn from the written .physics files (${n(g.faces)} faces in ${n(m.resources.length)} resources, ${n(meta.blobBytes)} bytes of geometry before compression).`));

  // The grind view: a layer of its own (page/grind.ts), its list after the findings.
  if (meta.grind) {
    const grind = installGrindView({ data: meta.grind, shapes: g.shapes, view: view3d, scene: view3d.scene, modes, legend: legendBody, panel: aside, resourceName: (i) => m.resources[i].name });
    (window as unknown as { __grindView: unknown }).__grindView = grind;
  }

  setMode('edges');
  // Time to the first frame: from the start of navigation to the first picture finished (a pixel read back).
  const gl = view3d.renderer.getContext();
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  const firstFrameMs = performance.now();
  /** Frame times (ms) orbiting the target once in `steps` steps, each drawn and finished. */
  const orbit = (steps: number): number[] => {
    const out: number[] = [];
    const offset = camera.position.clone().sub(controls.target);
    for (let i = 1; i <= steps; i++) {
      const t0 = performance.now();
      camera.position.copy(controls.target).add(offset.clone().applyAxisAngle(new THREE.Vector3(0, 1, 0), (2 * Math.PI * i) / steps));
      camera.lookAt(controls.target);
      controls.update();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
      out.push(performance.now() - t0);
    }
    return out;
  };
  (window as unknown as { __report: unknown }).__report = {
    view: view3d, timing: { firstFrameMs, buildMs: firstFrameMs - firstFrame }, orbit, lastPick: () => lastPick && { ...lastPick, text: pickBox.textContent },
    drawnFaces: () => view3d.drawnFaces(), totalFaces: g.faces, describePick, shapes: g.shapes, finding: (i: number) => entries[i] && { ...entries[i] },
    applyFilters, shownFindings: () => items.filter((li) => !li.hidden).length,
    ready: true, findings: entries.filter((e) => e.source === 'validation').length, fileFindings: entries.filter((e) => e.source === 'file').length, warnings: m.warnings.length,
    totals: { filesOpen: fileOpen, border: cc[BORDER], crack: cc[CRACK], unpaired: cc[UNPAIRED], validation: Object.fromEntries(counts), files: Object.fromEntries(fileCounts) }, camera, controls, frames: () => frames, setMode, render,
    target: () => controls.target.toArray(), position: () => camera.position.toArray(),
  };
}

function table(rows: string[][]): HTMLTableElement {
  const t = el('table');
  for (const r of rows) {
    const tr = el('tr');
    r.forEach((c, i) => tr.append(el('td', i === 1 ? { class: 'n' } : i > 1 ? { class: 'sub' } : {}, c)));
    t.append(tr);
  }
  return t;
}

/** The level from above (X right, Z down): cells with their geometries, resources outlined, findings as dots. */
function drawMap(map: HTMLCanvasElement, tip: HTMLElement, m: Meta['manifest'], entries: { info: boolean; loc: Loc; object: string; label: string }[], onPick: (resource: number) => void): { show(points: number[][] | null): void } {
  const ctx = map.getContext('2d')!;
  const res = m.resources;
  let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  for (const r of res) (x0 = Math.min(x0, r.bounds.min[0])), (x1 = Math.max(x1, r.bounds.max[0])), (z0 = Math.min(z0, r.bounds.min[2])), (z1 = Math.max(z1, r.bounds.max[2]));
  const cs = Number(m.options.cellSize) || 100;
  if (m.layout === 'cells') {
    x0 = Math.floor(x0 / cs) * cs; z0 = Math.floor(z0 / cs) * cs; x1 = Math.ceil(x1 / cs) * cs; z1 = Math.ceil(z1 / cs) * cs;
  }
  const pad = 14;
  const scale = Math.min((map.width - 2 * pad) / Math.max(1e-6, x1 - x0), (map.height - 2 * pad) / Math.max(1e-6, z1 - z0));
  const X = (x: number): number => pad + (x - x0) * scale, Z = (z: number): number => pad + (z - z0) * scale;
  ctx.fillStyle = '#1b1e22';
  ctx.fillRect(0, 0, map.width, map.height);
  const maxShapes = Math.max(1, ...res.map((r) => r.shapes));
  if (m.layout === 'cells') {
    for (const r of res) {
      if (!r.cell) continue;
      const a = r.shapes / maxShapes;
      ctx.fillStyle = `rgba(59, 111, 216, ${0.15 + 0.7 * a})`;
      ctx.fillRect(X(r.cell[0] * cs), Z(r.cell[1] * cs), cs * scale, cs * scale);
      if (cs * scale > 26) {
        ctx.fillStyle = '#e4e6ea';
        ctx.font = '10px system-ui';
        ctx.fillText(String(r.shapes), X(r.cell[0] * cs) + 3, Z(r.cell[1] * cs) + 12);
      }
    }
    ctx.strokeStyle = '#3a4048';
    ctx.lineWidth = 1;
    for (let x = x0; x <= x1 + 1e-9; x += cs) (ctx.beginPath(), ctx.moveTo(X(x), Z(z0)), ctx.lineTo(X(x), Z(z1)), ctx.stroke());
    for (let z = z0; z <= z1 + 1e-9; z += cs) (ctx.beginPath(), ctx.moveTo(X(x0), Z(z)), ctx.lineTo(X(x1), Z(z)), ctx.stroke());
  }
  ctx.strokeStyle = '#b9bec6';
  for (const r of res) ctx.strokeRect(X(r.bounds.min[0]), Z(r.bounds.min[2]), Math.max(1, (r.bounds.max[0] - r.bounds.min[0]) * scale), Math.max(1, (r.bounds.max[2] - r.bounds.min[2]) * scale));
  for (const e of entries) {
    const p = e.loc.points[0];
    ctx.fillStyle = e.info ? '#9aa1ab' : '#ff2d55';
    ctx.fillRect(X(p[0]) - 1.5, Z(p[2]) - 1.5, 3, 3);
  }
  ctx.fillStyle = '#9aa1ab';
  ctx.font = '10px system-ui';
  ctx.fillText(`x ${+x0.toFixed(1)} → ${+x1.toFixed(1)} m, z ${+z0.toFixed(1)} ↓ ${+z1.toFixed(1)} m${m.layout === 'cells' ? `; cells of ${cs} m, geometries per cell shaded (most: ${maxShapes})` : ''}`, pad, map.height - 3);
  const base = ctx.getImageData(0, 0, map.width, map.height);
  const hitsAt = (ev: MouseEvent): typeof res => {
    const rect = map.getBoundingClientRect();
    const x = x0 + ((ev.clientX - rect.left) * (map.width / rect.width) - pad) / scale;
    const z = z0 + ((ev.clientY - rect.top) * (map.height / rect.height) - pad) / scale;
    return res.filter((r) => x >= r.bounds.min[0] && x <= r.bounds.max[0] && z >= r.bounds.min[2] && z <= r.bounds.max[2])
      .sort((a, b) => (a.bounds.max[0] - a.bounds.min[0]) * (a.bounds.max[2] - a.bounds.min[2]) - (b.bounds.max[0] - b.bounds.min[0]) * (b.bounds.max[2] - b.bounds.min[2]));
  };
  // A click frames the cell (or resource) under it in the 3D view.
  map.addEventListener('click', (ev) => {
    const hit = hitsAt(ev)[0];
    if (hit) onPick(res.indexOf(hit));
  });
  map.addEventListener('mousemove', (ev) => {
    const rect = map.getBoundingClientRect();
    const hits = hitsAt(ev);
    if (!hits.length) {
      tip.style.display = 'none';
      return;
    }
    const r = hits[0];
    const objs = r.sourceObjects.length > 4 ? `${r.sourceObjects.slice(0, 4).join(', ')} … (${r.sourceObjects.length})` : r.sourceObjects.join(', ');
    tip.textContent = `${r.name}${r.cell ? `  cell ${r.cell[0]}, ${r.cell[1]}` : ''}\ntriangles ${r.faces.toLocaleString('en-US')}  shapes ${r.shapes}  parts ${r.parts}\nobjects: ${objs}${hits.length > 1 ? `\n(+${hits.length - 1} more here)` : ''}`;
    tip.style.display = 'block';
    tip.style.left = `${ev.clientX - rect.left + 14}px`;
    tip.style.top = `${ev.clientY - rect.top + 10}px`;
  });
  map.addEventListener('mouseleave', () => (tip.style.display = 'none'));
  return {
    // The selected finding on the map: a ring round it over the static picture.
    show(points) {
      ctx.putImageData(base, 0, 0);
      if (!points) return;
      const cx = points.reduce((t, p) => t + p[0], 0) / points.length, cz = points.reduce((t, p) => t + p[2], 0) / points.length;
      ctx.strokeStyle = '#ff00ff';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(X(cx), Z(cz), 9, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.lineWidth = 1;
      map.dataset.selected = `${+cx.toFixed(3)},${+cz.toFixed(3)}`;
    },
  };
}

main().catch((e) => {
  const p = document.getElementById('loading') ?? document.body.appendChild(document.createElement('p'));
  p.textContent = `The report could not be shown: ${(e as Error).message}`;
  console.error(e);
});
