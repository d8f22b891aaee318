// The grind view of report.html, a layer of its own over the 3D view (src/report/grind.ts gives its data): a
// "grind" colour mode — parts shaded by density (green low, amber near Studio's warning, red over the game's
// limit), excluded surfaces grey-violet, grindable edges drawn bright on top — and a "Grind" list in the side panel:
// each over-dense part and each part whose surface excludes grinding, clickable (frames the part). Any other mode
// button hides the overlay again.
import * as THREE from 'three';
import type { View } from './view.ts';

export interface GrindData {
  creaseDegrees: number;
  densityLimit: number;
  shapes: { density: number; edges: number; creases: number; excluded: 'dense' | 'surface' | 'kind' | null; property: string | null }[];
  segments: number[];
  edges: number;
  metres: number;
}

interface ShapeInfo { resource: number; part: number; min: number[]; max: number[]; faces: number }

export interface GrindLayer {
  show(on: boolean): void;
  shown(): boolean;
  /** Items in the Grind list (over-dense parts, excluded surfaces). */
  items(): number;
}

const GRIND_EDGE_COLOUR = 0xffff3c;
const EXCLUDED_RGB = [120, 96, 150];
/** Studio warns at 900 (the page shades toward amber from there). */
const STUDIO_WARNING = 900;

/** Density → RGB: green up to half Studio's warning, amber at it, red over the game's limit. */
export function densityColour(density: number, limit: number): number[] {
  if (density > limit) return [220, 40, 40];
  const t = Math.max(0, Math.min(1, (density - STUDIO_WARNING / 2) / (STUDIO_WARNING / 2)));
  return [Math.round(60 + 180 * t), Math.round(170 - 30 * t), 70];
}

export function installGrindView(ctx: {
  data: GrindData; shapes: ShapeInfo[]; view: View; scene: THREE.Scene; modes: HTMLElement; legend: HTMLElement; panel: HTMLElement;
  resourceName: (i: number) => string; onItem?: () => void;
}): GrindLayer {
  const { data, shapes, view, scene, modes, legend, panel } = ctx;
  const geo = new THREE.BufferGeometry();
  geo.setAttribute('position', new THREE.Float32BufferAttribute(data.segments, 3));
  const lines = new THREE.LineSegments(geo, new THREE.LineBasicMaterial({ color: GRIND_EDGE_COLOUR, depthTest: false }));
  lines.renderOrder = 10;
  lines.visible = false;
  scene.add(lines);
  let on = false;
  const button = document.createElement('button');
  button.dataset.mode = 'grind';
  button.textContent = 'grind';
  button.title = `where the game can grind: convex creases of ${data.creaseDegrees}° or more, on parts under ${data.densityLimit} half-edges per metre, on surfaces that allow it`;
  const show = (next: boolean): void => {
    on = next;
    lines.visible = next;
    button.classList.toggle('on', next);
    if (next) {
      for (const b of modes.querySelectorAll('button[data-mode]')) if (b !== button) b.classList.remove('on');
      view.setTint(data.shapes.map((s) => (s.excluded === 'surface' ? EXCLUDED_RGB : densityColour(s.density, data.densityLimit))));
      legend.textContent = '';
      const key = (colour: string, text: string): void => {
        const item = document.createElement('span');
        item.className = 'key';
        const sw = document.createElement('span');
        sw.className = 'sw';
        sw.style.background = colour;
        item.append(sw, document.createTextNode(text));
        legend.append(item);
      };
      key('#ffff3c', `grindable edges ${data.edges.toLocaleString('en-US')} (${data.metres.toLocaleString('en-US')} m)`);
      key('rgb(60,170,70)', 'sparse part');
      key('rgb(240,140,70)', `near ${STUDIO_WARNING} half-edges/m (Studio warns)`);
      key('rgb(220,40,40)', `over ${data.densityLimit}: no edge analysis`);
      key(`rgb(${EXCLUDED_RGB.join(',')})`, 'surface excludes grinding');
      const note = document.createElement('div');
      note.className = 'sub';
      note.textContent = data.segments.length / 6 < data.edges ? `first ${(data.segments.length / 6).toLocaleString('en-US')} grind edges drawn` : 'parts shaded by half-edges per metre of their bbox diagonal';
      legend.append(note);
    }
    view.render();
  };
  button.addEventListener('click', () => show(true));
  // Any other colour mode takes the view back.
  modes.addEventListener('click', (e) => {
    const b = (e.target as HTMLElement).closest('button[data-mode]');
    if (b && b !== button && on) { lines.visible = false; on = false; button.classList.remove('on'); view.render(); }
  });
  const tools = modes.querySelector('#tools');
  modes.insertBefore(button, tools);

  // The Grind list: over-dense parts and excluded surfaces, each framing its part.
  const section = document.createElement('div');
  section.id = 'grind';
  const h = document.createElement('h2');
  const ol = document.createElement('ol');
  let count = 0;
  data.shapes.forEach((g, i) => {
    if (!(g.excluded === 'dense' || (g.excluded === 'surface' && g.creases > 0))) return;
    const s = shapes[i];
    const li = document.createElement('li');
    li.tabIndex = 0;
    li.dataset.grind = g.excluded;
    li.dataset.shape = String(i);
    li.textContent = g.excluded === 'dense'
      ? `too dense: ${ctx.resourceName(s.resource)} part ${s.part}: ${g.density.toLocaleString('en-US')} half-edges/m > ${data.densityLimit} (${s.faces.toLocaleString('en-US')} triangles, ${g.creases} creases lost)`
      : `surface excludes grinding: ${ctx.resourceName(s.resource)} part ${s.part}: ${g.property} (${g.creases} creases)`;
    const go = (): void => {
      show(true);
      view.frameBox(s.min, s.max);
      for (const x of ol.querySelectorAll('li.sel')) x.classList.remove('sel');
      li.classList.add('sel');
      ctx.onItem?.();
    };
    li.addEventListener('click', go);
    li.addEventListener('keydown', (e) => e.key === 'Enter' && go());
    ol.append(li);
    count++;
  });
  h.textContent = `Grind (${data.edges.toLocaleString('en-US')} grindable edges, ${data.metres.toLocaleString('en-US')} m; ${count} part(s) that lose creases)`;
  section.append(h, ol);
  panel.append(section);
  return { show, shown: () => on, items: () => count };
}
