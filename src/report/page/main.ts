/// <reference lib="dom" />
// report.html's page script (bundled with three.js by src/report/index.ts; runs in the browser, from disk, with no
// network). Reads the JSON and the gzip+base64 geometry blob from the page, then builds: the 3D view (view.ts:
// merged indexed mesh, edge-class lines, pick, framing, level of detail), the findings panel (build warnings,
// validation findings and the open edges of objects not validated; filters and search), the counts with their
// sources, the top-down map (cells against the budget and pools, resources outlined, findings, hover and click),
// tables of resources and materials, totals, timings, options. window.__report exposes state for the browser tests.
import * as THREE from 'three';
import { KEY_LIGHTNESS, KEY_SATURATION, keyHue } from './palette.ts';
import { createView, EDGE_COLOURS, type Pick } from './view.ts';
import { installGrindView } from './grind.ts';
import { drawMap } from './map.ts';
import type { Loc, Meta, Resource } from './meta.ts';

/** The validation's finding kinds in list order, with the one word the page uses for each; borderEdges is info. */
const KINDS: [string, string][] = [
  ['crackEdges', 'crack'], ['nonManifoldEdges', 'non-manifold edge'], ['inconsistentEdges', 'inconsistent winding'],
  ['degenerate', 'degenerate triangle'], ['duplicate', 'duplicate triangle'], ['reversedDuplicate', 'back-to-back pair'],
  ['borderEdges', 'border'],
];
/** What a finding of the kinds whose place the file does not show means, said where it is framed. */
const NOTES: Record<string, string> = {
  degenerate: 'it has no area, so the file leaves it out: nothing is drawn here, the marker shows where it was in the input',
  duplicate: 'it repeats another triangle, so the file keeps one copy: the marker shows both',
};
/** Below this width (m) a triangle whose own edges lie along each other is one sliver, not that many cracks. */
const SLIVER_WIDTH = 0.001;
/** Below this size (m) a triangle whose three edges are all borders is a stray triangle. */
const TINY_TRIANGLE = 0.01;
const uniquePoints = (pts: number[][]): number[][] => {
  const out: number[][] = [];
  for (const p of pts) if (!out.some((q) => q[0] === p[0] && q[1] === p[1] && q[2] === p[2])) out.push(p);
  return out;
};
/** A triangle's longest edge and its height over that edge (its width). */
const triangleSize = (p: number[][]): { long: number; wide: number } => {
  const d = (a: number[], b: number[]): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  const long = Math.max(d(p[0], p[1]), d(p[1], p[2]), d(p[2], p[0]));
  const u = [0, 1, 2].map((k) => p[1][k] - p[0][k]), v = [0, 1, 2].map((k) => p[2][k] - p[0][k]);
  const area2 = Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]);
  return { long, wide: long > 0 ? area2 / long : 0 };
};
/** A length for a sentence: metres, centimetres or millimetres. */
const size = (m: number): string => (m >= 1 ? `${+m.toFixed(2)} m` : m >= 0.01 ? `${+(m * 100).toFixed(1)} cm` : `${+(m * 1000).toFixed(2)} mm`);
const BORDER = 3, CRACK = 4, UNPAIRED = 5;
/** One line per edge class: what it means for a board riding over it. */
const EDGE_MEANING = [
  'flat: the faces either side lie in one plane (within 0.1°); rides smooth',
  'concave: a valley between the faces (a ramp meeting the ground); rides smooth',
  'convex: a ridge (a ledge’s lip, a box’s corner); the stored value says how sharp',
  'border: the mesh ends here (nothing on the other side); expected at a surface’s outline',
  'crack: open, but along another open edge or a face: a seam the board can catch on (fix: weld or join)',
  'non-manifold: faces meet here but not as one pair (three faces on an edge, a back-to-back face); the file stores it as open',
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

/**
 * The geometry blob as src/report/index.ts packGeometry wrote it (sections of deltas in byte planes) back into
 * each shape's arrays one after another (vertices u16, faces u16, classes u8 padded to 2 bytes, object runs i32):
 * what createView reads.
 */
function decodeGeometry(packed: ArrayBuffer, shapes: { vertices: number; faces: number; runs?: number }[]): ArrayBuffer {
  const src = new Uint8Array(packed);
  let nv = 0, nc = 0, nr = 0;
  for (const s of shapes) (nv += 3 * s.vertices), (nc += 3 * s.faces), (nr += s.runs ?? 0);
  const unplane = (at: number, n: number, width: number): Uint8Array => {
    const out = new Uint8Array(n * width);
    for (let k = 0; k < width; k++) for (let i = 0; i < n; i++) out[i * width + k] = src[at + k * n + i];
    return out;
  };
  const verts = new Uint16Array(unplane(0, nv, 2).buffer);
  const corners = new Uint16Array(unplane(2 * nv, nc, 2).buffer);
  const classes = src.subarray(2 * nv + 2 * nc, 2 * nv + 3 * nc);
  const runs = new Int32Array(unplane(2 * nv + 3 * nc, nr, 4).buffer);
  let size = 0;
  for (const s of shapes) size += 6 * s.vertices + 6 * s.faces + ((3 * s.faces + 1) & ~1) + 4 * (s.runs ?? 0);
  const out = new ArrayBuffer(size);
  const bytes = new Uint8Array(out);
  let at = 0, v = 0, c = 0, r = 0;
  for (const s of shapes) {
    const ov = new Uint16Array(out, at, 3 * s.vertices);
    for (let i = 0; i < ov.length; i++) ov[i] = verts[v + i] + (i >= 3 ? ov[i - 3] : 0);
    at += 6 * s.vertices;
    const of = new Uint16Array(out, at, 3 * s.faces);
    for (let i = 0; i < of.length; i++) of[i] = corners[c + i] + (i >= 1 ? of[i - 1] : 0);
    at += 6 * s.faces;
    bytes.set(classes.subarray(c, c + 3 * s.faces), at);
    at += (3 * s.faces + 1) & ~1;
    bytes.set(new Uint8Array(runs.buffer, 4 * r, 4 * (s.runs ?? 0)), at);
    at += 4 * (s.runs ?? 0);
    (v += 3 * s.vertices), (c += 3 * s.faces), (r += s.runs ?? 0);
  }
  return out;
}

/** The surface's colour: the level's fixed palette entry (src/report/surfaces.ts levelSurfaceColours). */
let surfaceColours: Record<string, string> = {};
const surfaceColour = (word: number): THREE.Color => new THREE.Color(surfaceColours[String(word)] ?? '#888888');

/** Stable distinct colour for an integer key. */
function keyColour(k: number): THREE.Color {
  return new THREE.Color().setHSL(keyHue(k), KEY_SATURATION, KEY_LIGHTNESS);
}

async function main(): Promise<void> {
  // The data as JSON, gzip-compressed like the geometry (a 1M-object level's tables and layers are megabytes of text).
  const meta: Meta = JSON.parse(new TextDecoder().decode(await inflate(document.getElementById('report-meta')!.textContent!)));
  surfaceColours = meta.surfaceColours;
  const steps: Record<string, number> = {};
  const step = (name: string): void => void (steps[name] = performance.now());
  step('start');
  const blob = decodeGeometry(await inflate(document.getElementById('report-geometry')!.textContent!), meta.geometry.shapes);
  step('inflated');
  const m = meta.manifest;
  const app = document.getElementById('app')!;
  app.textContent = '';

  // Header: what was built, by which tool.
  const header = el('header');
  header.append(el('h1', {}, `${m.input.file}: compiled collision`));
  // Why the layout is what it is: the level as one resource per object, against the budget (the build's estimate).
  const before = meta.objects.reduce((t, o) => t + (o.geometries ?? 0), 0);
  const cellCount = new Set(m.resources.map((r) => (r.cell ? r.cell.join(',') : r.name))).size;
  const why = m.layout === 'cells' && before > 0
    ? `as one resource per object: ${n(before)} geometries, ${before >= Number(m.options.budget) ? `over the budget (${n(Number(m.options.budget))})` : `under the budget (${n(Number(m.options.budget))}), cells asked for`}: merged into ${n(cellCount)} cells of ${String(m.options.cellSize)} m, now ${n(m.geometries)} geometries`
    : m.layout === 'cells' ? `collision_area cells of ${String(m.options.cellSize)} m · ${n(m.geometries)} geometries (budget ${n(Number(m.options.budget))})` : `one resource per object · ${n(m.geometries)} geometries (budget ${n(Number(m.options.budget))})`;
  header.append(el('div', { class: 'sub', id: 'layout-why' }, `${m.tool.name} ${m.tool.version} · input sha256 ${m.input.sha256.slice(0, 16)}… · ${why} · report made ${meta.generated}`));
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
  const view3d = createView(canvas, view, blob, g.shapes, meta.core);
  step('view');
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
      meta.edgeClasses.forEach((name, i) => key(EDGE_COLOURS[i], name, EDGE_MEANING[i]));
      legendBody.append(el('div', { class: 'sub' }, 'each edge as the written files store it; hover for meanings; the counts are in the findings panel'));
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
  const decimationNote = g.stride > 1 || g.drawnFaces < g.faces ? `Showing ${n(g.drawnFaces)} of ${n(g.faces)} faces: 1 face in ${g.stride} of each shape, and every face with an open or crack edge (the level is too large to draw whole). Counts and findings cover all faces.` : '';
  if (decimationNote) {
    note.style.display = 'block';
    note.textContent = decimationNote;
  }

  // Tools: frame all, wireframe, isolate a resource (an object in the per-object layout).
  const tools = el('div', { id: 'tools' });
  const frameAllButton = el('button', { id: 'frame-all', title: 'frame the whole level (reset the camera)' }, 'frame all');
  frameAllButton.addEventListener('click', () => {
    view3d.frameAll();
    note.textContent = decimationNote;
    note.style.display = decimationNote ? 'block' : 'none';
  });
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
    const oi = view3d.objectOf(p.shape, p.face), o = meta.objects[oi];
    const objs = o ? `object ${o.name} (${o.mode}, ${n(o.triangles)} triangles)${r.sourceObjects.length > 1 ? `, one of ${n(r.sourceObjects.length)} objects merged in this cell` : ''}`
      : r.sourceObjects.length === 1 ? `object ${r.sourceObjects[0]}` : `one of ${n(r.sourceObjects.length)} objects merged in this cell (no source triangle matched this face): ${r.sourceObjects.slice(0, 4).join(', ')}${r.sourceObjects.length > 4 ? ' …' : ''}`;
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
  // Every finding placed: the validation's (meta.findings: every warn-level location the build kept; the manifest
  // lists the first 100), the open edges of objects the validation does not see (from the files), and each layer's
  // (a far object; other passes'). One word per kind everywhere (KINDS, the layers' labels).
  interface Entry { kind: string; label: string; object: string; loc: Loc; info: boolean; source: 'validation' | 'file' | 'layer' | 'ride'; resource: number; modes?: string; note?: string; meaning?: string; stands?: number; ride?: string }
  const entries: Entry[] = [];
  const counts = new Map<string, number>();
  const resourceOf = new Map<string, number>();
  m.resources.forEach((r, i) => r.sourceObjects.forEach((o) => resourceOf.has(o) || resourceOf.set(o, i)));
  const validation = meta.findings as Meta['manifest']['validation'];
  for (const [kind, label] of KINDS) {
    for (const [object, v] of Object.entries(validation)) {
      const count = Number(v[kind] ?? 0);
      if (count) counts.set(kind, (counts.get(kind) ?? 0) + count);
      const locs = v.locations?.[kind] ?? [];
      // A sliver (a triangle under SLIVER_WIDTH wide) counts its own edges as cracks, each along the other: one
      // entry for the triangle, which says how many cracks it stands for.
      const byTriangle = new Map<number, Loc[]>();
      if (kind === 'crackEdges' || kind === 'borderEdges') for (const l of locs) byTriangle.set(l.triangle, [...(byTriangle.get(l.triangle) ?? []), l]);
      const merged = new Set<number>();
      for (const [t, ls] of byTriangle) {
        if (ls.length < 2 && kind === 'crackEdges') continue;
        const pts = uniquePoints(ls.flatMap((l) => l.points));
        if (pts.length !== 3) continue;
        const { long, wide } = triangleSize(pts);
        if (kind === 'crackEdges' && wide < SLIVER_WIDTH && ls.length >= 2) {
          entries.push({ kind: 'sliver', label: 'sliver triangle', object, loc: { triangle: t, points: pts }, info: false, source: 'validation', resource: resourceOf.get(object) ?? -1, stands: ls.length,
            note: `${size(long)} long, ${size(wide)} wide: its edges lie along each other, so the validation counts it as ${ls.length} cracks (fix: remove it or weld it away)` });
          merged.add(t);
        } else if (kind === 'borderEdges' && ls.length === 3 && long < TINY_TRIANGLE) {
          entries.push({ kind: 'tinyTriangle', label: 'stray triangle', object, loc: { triangle: t, points: pts }, info: false, source: 'validation', resource: resourceOf.get(object) ?? -1, stands: 3,
            note: `${size(long)} across, touching nothing: counted as 3 borders (fix: delete it)` });
          merged.add(t);
        }
      }
      for (const loc of locs) if (!merged.has(loc.triangle)) entries.push({ kind, label, object, loc, info: kind === 'borderEdges', source: 'validation', resource: resourceOf.get(object) ?? -1, note: NOTES[kind] });
    }
  }
  // What the validation did not see (grind prisms, shape-mode objects: made by the compiler, closed or convex by
  // contract): the open and non-manifold edges of the written files of resources with no validated object, listed
  // from the files, as info: a warning names none of them, and the author does not model them.
  const modeOf = new Map(meta.objects.map((o) => [o.name, o.mode]));
  const unvalidated = m.resources.map((r) => !r.sourceObjects.some((o) => o in validation));
  const fileCounts = new Map<string, number>();
  const FILE_KIND = 'madeShapeEdge', FILE_LABEL = 'open edge of a made shape';
  for (const cls of [CRACK, UNPAIRED, BORDER]) {
    m.resources.forEach((r, ri) => {
      if (!unvalidated[ri]) return;
      const c = g.resourceClassCounts[ri]?.[cls] ?? 0;
      if (c) fileCounts.set(FILE_KIND, (fileCounts.get(FILE_KIND) ?? 0) + c);
    });
    for (const e of g.openEdges) {
      if (e.cls !== cls || !unvalidated[e.resource]) continue;
      const r = m.resources[e.resource];
      const modes = [...new Set(r.sourceObjects.map((o) => modeOf.get(o) ?? '?'))].join(', ');
      entries.push({ kind: FILE_KIND, label: FILE_LABEL, object: r.sourceObjects.length === 1 ? r.sourceObjects[0] : r.name, loc: { triangle: -1, points: e.points }, info: true, source: 'file', resource: e.resource, modes,
        note: `${modes}: made by the compiler, not validated; ${cls === CRACK ? 'it lies along another face' : cls === UNPAIRED ? 'faces meet here but not as one pair' : 'the shape ends here'}` });
    }
  }
  // The ride layer (compile --ride): what the probes met in the written files, at the point of contact; listed
  // as a 0.5 m stroke along the direction of travel so a click frames it at a probe's scale.
  for (const [k, c] of Object.entries(m.ride?.counts ?? {})) if (c) counts.set(`ride-${k}`, c);
  for (const f of m.ride?.findings ?? []) {
    const d = f.direction ?? [1, 0], p = f.position;
    const points = [[p[0] - 0.25 * d[0], p[1], p[2] - 0.25 * d[1]], [p[0] + 0.25 * d[0], p[1], p[2] + 0.25 * d[1]]];
    const by = f.probe ? ` · ${f.probe} at ${f.speed} m/s` : '';
    entries.push({
      kind: `ride-${f.kind}`, label: `ride: ${f.kind}`, object: f.resource, loc: { triangle: -1, points, with: undefined }, info: false, source: 'ride',
      resource: m.resources.findIndex((r) => r.file === f.resource), ride: `${f.size} ${f.unit} at ${fmt(p)} · part ${f.part} face ${f.face}${f.edge ? ` · ${f.edge} edge` : ''}${by}`,
    });
  }
  // Layers: each kind of finding another pass makes (src/report/layers.ts), placed like the validation's.
  const objectResource = (name: string): number => resourceOf.get(name) ?? m.resources.findIndex((r) => r.name === name);
  for (const layer of meta.layers) {
    counts.set(layer.kind, layer.count);
    for (const it of layer.items) entries.push({ kind: layer.kind, label: layer.label, object: it.object, loc: { triangle: -1, points: it.points }, info: layer.severity === 'info', source: 'layer', resource: objectResource(it.object), note: it.note, meaning: layer.meaning });
  }
  const rideKinds = Object.keys(m.ride?.counts ?? {}).map((k) => `ride-${k}`);
  const labelOf = new Map<string, string>([...KINDS, ...meta.layers.map((l): [string, string] => [l.kind, l.label]), ...rideKinds.map((k): [string, string] => [k, `ride: ${k.slice(5)}`])]);
  const warnKinds = [...KINDS.filter(([k]) => k !== 'borderEdges').map(([k]) => k), ...meta.layers.filter((l) => l.severity === 'warn').map((l) => l.kind), ...rideKinds];
  const fi = el('div', { id: 'findings' });
  const warnTotal = warnKinds.reduce((t, k) => t + (counts.get(k) ?? 0), 0);
  fi.append(el('h2', {}, `Findings: ${n(warnTotal)} to fix${counts.get('borderEdges') ? `, ${n(counts.get('borderEdges')!)} borders (info)` : ''}`));
  const summary = el('div', { class: 'sub', id: 'summary' });
  // Never cleaner than the build: the clean message only when the build printed no warning and counted nothing.
  summary.textContent = warnKinds.filter((k) => counts.get(k)).map((k) => `${labelOf.get(k)}: ${n(counts.get(k)!)}`).join(' · ') ||
    (m.warnings.length ? `Nothing to fix was located, but the build warned ${m.warnings.length} time(s): see the build warnings.` : 'No findings: every object is clean.');
  for (const k of warnKinds) if (counts.get(k)) summary.setAttribute(`data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, String(counts.get(k)));
  fi.append(summary);
  const ol = el('ol', { id: 'finding-list' });
  const items: HTMLLIElement[] = [];
  const viewNote = (text: string | null): void => {
    note.textContent = text ?? decimationNote;
    note.style.display = note.textContent ? 'block' : 'none';
  };
  entries.forEach((e, i) => {
    const p = e.loc.points;
    const shape = e.kind === 'farObject' ? `box ${fmt(p[0])}–${fmt(p[1])}` : p.length === 2 ? `edge ${fmt(p[0])}–${fmt(p[1])}` : `triangle ${p.map(fmt).join(' ')}`;
    const li = el('li', { 'data-finding': String(i), 'data-source': e.source, 'data-kind': e.kind, class: e.info ? 'info' : '', title: e.meaning ?? e.note ?? '' });
    li.tabIndex = 0;
    const where = e.source === 'file' ? `${m.resources[e.resource].file}` : e.loc.triangle >= 0 ? `source triangle ${e.loc.triangle}` : '';
    if (e.ride) li.append(el('span', { class: 'kind' }, e.label), document.createTextNode(` · ${e.object} · ${e.ride}`));
    else li.append(el('span', { class: 'kind' }, e.label), document.createTextNode(` · "${e.object}"${e.note && e.source !== 'validation' ? ` · ${e.note}` : e.stands ? ` · ${e.note}` : ''} · ${shape}${where ? ` · ${where}` : ''}${e.loc.with ? ` · along "${e.loc.with}"` : ''}`));
    li.addEventListener('click', () => {
      for (const s of ol.querySelectorAll('li.sel')) s.classList.remove('sel');
      li.classList.add('sel');
      if (e.kind === 'farObject') view3d.frameBox(p[0], p[1]);
      else frame(p);
      viewNote(e.kind === 'degenerate' || e.kind === 'duplicate' ? `${e.label} of "${e.object}": ${e.note}` : e.kind === 'farObject' ? `far object "${e.object}": ${e.note}` : null);
      showOnMap(p);
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
  // Where the build kept fewer locations than it counted: borders past the first 100 of an object (info), or a
  // warn-level kind past the build's safety bound.
  for (const [kind, label] of KINDS) {
    for (const [object, v] of Object.entries(validation)) {
      const count = Number(v[kind] ?? 0), listed = v.locations?.[kind]?.length ?? 0;
      if (count > listed) ol.append(el('li', { class: 'cut', 'data-kind': kind, 'data-object': object, 'data-info': String(kind === 'borderEdges') }, `${label} · "${object}": ${n(listed)} placed of ${n(count)} (${kind === 'borderEdges' ? 'borders are info: the build keeps the first 100 of each object' : 'the build keeps at most this many of a kind per object'}; all ${n(count)} are counted above)`));
    }
  }
  const listedOpen = m.resources.map(() => 0);
  for (const e of g.openEdges) listedOpen[e.resource]++;
  m.resources.forEach((r, ri) => {
    if (!unvalidated[ri]) return;
    const count = [BORDER, CRACK, UNPAIRED].reduce((t, c) => t + (g.resourceClassCounts[ri]?.[c] ?? 0), 0);
    const listed = listedOpen[ri];
    if (count > listed) ol.append(el('li', { class: 'cut', 'data-kind': FILE_KIND, 'data-object': r.sourceObjects.length === 1 ? r.sourceObjects[0] : r.name, 'data-info': 'true' }, `${FILE_LABEL} · ${r.file}: ${n(listed)} placed of ${n(count)}`));
  });
  // Composite children of a GTA V file the build left out (not solid for a skater): no place in the output.
  const leftOut = el('ol', { id: 'left-out' });
  for (const c of m.ybn?.skippedChildren ?? []) leftOut.append(el('li', { class: 'info' }, `YBN child left out · ${c.file} child ${c.bound}: ${c.reason} (not solid for a skater; --ybn-keep ${c.reason} compiles it)`));
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
  const fSeverity = select('f-severity', 'severity', [['all', 'to fix + info'], ['warn', 'to fix only'], ['info', 'info only']]);
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
    fShown.textContent = `${n(shown)} shown of ${n(entries.length)} listed${sev === 'warn' && entries.some((e) => e.info) ? ' (borders are info: choose "to fix + info" to see them)' : ''}`;
  };
  for (const c of [fSeverity, fKind, fObject, fResource]) c.addEventListener('change', applyFilters);
  fSearch.addEventListener('input', applyFilters);
  applyFilters();
  fi.append(filters, ol);
  if (leftOut.childElementCount) fi.append(el('h2', {}, `Left out of the build (${leftOut.childElementCount})`), leftOut);
  // Every warning of the build, after the list (a long one must not push the list down): placed (a click frames
  // the resource of the object or node it names) or unplaced; collapsed when there are many.
  const objectBySource = new Map(meta.objects.filter((o) => o.source).map((o) => [o.source!, o.name]));
  const wl = el('ol', { id: 'build-warnings' });
  for (const w of m.warnings) {
    const named = [...w.matchAll(/object "([^"]+)"/g)].map((x) => x[1]);
    const byNode: string[] = [];
    for (const x of w.matchAll(/node \d+ "[^"]*"/g)) if (objectBySource.has(x[0]) && !named.includes(objectBySource.get(x[0])!)) byNode.push(objectBySource.get(x[0])!);
    named.push(...byNode);
    const res = m.resources.find((r) => named.some((o) => r.sourceObjects.includes(o) || r.name === o));
    const li = el('li', { class: `warn ${res ? 'placed' : 'unplaced'}`, title: w });
    li.append(el('span', { class: 'kind' }, res ? 'warning' : 'warning (unplaced)'), document.createTextNode(` · ${byNode.length ? `object ${byNode.map((o) => `"${o}"`).join(', ')} · ` : ''}${w}`));
    if (res) {
      li.tabIndex = 0;
      li.addEventListener('click', () => view3d.frameBox(res.bounds.min, res.bounds.max));
    }
    wl.append(li);
  }
  if (m.warnings.length) {
    const box = el('details', { id: 'build-warnings-box' });
    if (m.warnings.length <= 3) box.setAttribute('open', '');
    box.append(el('summary', {}, `Build warnings (${m.warnings.length}, as the build printed them)`), wl);
    fi.append(box);
  }
  aside.append(fi);
  step('findings');

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
  const mapView = drawMap(map, tip, m, meta.core, entries, (ri) => {
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
  if (m.layout === 'cells') dot('rgba(59,111,216,0.6)', 'a cell: the more geometries (the number), the brighter its blue');
  below.append(mapKey);
  step('map');

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
  rt.append(head(['resource', 'objects (mode)', 'triangles', 'parts', 'shapes', 'surfaces', 'file', 'bytes', 'findings to fix']));
  const toFix = m.resources.map(() => 0);
  for (const e of entries) if (!e.info && e.resource >= 0) toFix[e.resource] += e.stands ?? 1;
  m.resources.forEach((r, ri) => {
    const tr = el('tr', { 'data-resource': String(ri) });
    const objs = r.sourceObjects.slice(0, 6).map((o) => `${o}${modeOf.get(o) && modeOf.get(o) !== 'triangle_mesh' ? ` (${modeOf.get(o)})` : ''}`).join(', ') + (r.sourceObjects.length > 6 ? ` … (${r.sourceObjects.length})` : '');
    tr.append(el('td', {}, r.cell ? `${r.name} (cell ${r.cell.join(',')})` : r.name), el('td', {}, objs), el('td', { class: 'n' }, n(r.faces)), el('td', { class: 'n' }, n(r.parts)), el('td', { class: 'n' }, n(r.shapes)),
      surfaceCell(r.materials ?? []), el('td', {}, r.file), el('td', { class: 'n' }, n(meta.fileBytes[ri] ?? 0)), el('td', { class: 'n' }, n(toFix[ri])));
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

  // ---- Counts, each once, with its source ----------------------------------------------------------------------
  // Every number here is the manifest's (and the terminal's, which prints the manifest): the validation's sums over
  // objects, the seams' three open-edge counts, the warnings. Nothing is counted a second way from the files.
  const sm = m.seams;
  const vCount = (k: string): number => counts.get(k) ?? 0;
  below.append(el('h2', {}, 'Counts, and where each comes from'));
  const countRows: [string, string, number | string, string][] = [
    ...KINDS.map(([k, label]): [string, string, number, string] => [k, `${label}s${k === 'borderEdges' ? ' (info)' : ''}`, vCount(k), `validation, summed over objects (manifest validation.*.${k})`]),
    ...meta.layers.map((l): [string, string, number, string] => [l.kind, `${l.label}s${l.severity === 'info' ? ' (info)' : ''}`, l.count, l.meaning]),
    ['authored', 'open edges as authored (edge sides, non-manifold included)', sm.authoredOpenEdges ?? '—', 'manifest seams.authoredOpenEdges; the terminal\u2019s "as authored"'],
    ['joined', 'open edges joined across the compiler\u2019s cuts', sm.joinedAcrossCuts ?? '—', 'manifest seams.joinedAcrossCuts; the terminal\u2019s "joined across cuts"'],
    ['written', 'open edges written', sm.openEdgesWritten ?? '—', 'manifest seams.openEdgesWritten; the terminal\u2019s "written"'],
    ['madeShapeEdge', 'open edges of made shapes (info: grind prisms, shape modes; not validated)', fileCounts.get(FILE_KIND) ?? 0, 'the written files of resources with no validated object'],
    ['warnings', 'build warnings', m.warnings.length, 'manifest warnings (all in the findings panel)'],
  ];
  const ct = el('table', { id: 'counts' });
  for (const [key, what, value, source] of countRows) {
    const tr = el('tr', { 'data-count': key });
    tr.append(el('td', {}, what), el('td', { class: 'n' }, typeof value === 'number' ? n(value) : value), el('td', { class: 'sub' }, source));
    ct.append(tr);
  }
  below.append(ct);

  below.append(el('h2', {}, 'Totals'));
  below.append(table(Object.entries(m.totals).map(([k, v]) => [k, n(v)])));
  below.append(el('h2', {}, 'Edge classes (the colours of the 3D view)'));
  below.append(table(meta.edgeClasses.map((name, i) => [name, EDGE_MEANING[i].replace(/^[^:]*: /, '')])));
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

  step('tables');
  setMode('edges');
  // Time to the first frame: from the start of navigation to the first picture finished (a pixel read back).
  const gl = view3d.renderer.getContext();
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  const firstFrameMs = performance.now();
  step('drawn');
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
    view: view3d, timing: { firstFrameMs, buildMs: firstFrameMs - firstFrame, steps }, orbit, lastPick: () => lastPick && { ...lastPick, text: pickBox.textContent },
    drawnFaces: () => view3d.drawnFaces(), totalFaces: g.faces, describePick, shapes: g.shapes, finding: (i: number) => entries[i] && { ...entries[i] },
    applyFilters, shownFindings: () => items.filter((li) => !li.hidden).length,
    ready: true, objects: meta.objects, findings: entries.filter((e) => e.source === 'validation').length, fileFindings: entries.filter((e) => e.source === 'file').length, warnings: m.warnings.length,
    totals: { validation: Object.fromEntries(counts), files: Object.fromEntries(fileCounts), edgeSides: g.classCounts }, camera, controls, frames: () => frames, setMode, render,
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

main().catch((e) => {
  const p = document.getElementById('loading') ?? document.body.appendChild(document.createElement('p'));
  p.textContent = `The report could not be shown: ${(e as Error).message}`;
  console.error(e);
});
