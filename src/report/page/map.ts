/// <reference lib="dom" />
// report.html's top-down map (main.ts places it): cells against the budget and pools, resources outlined,
// findings as dots, hover and click.
import type { Loc, Meta } from './meta.ts';

/** The level from above (X right, Z down): cells with their geometries, resources outlined, findings as dots. */
export function drawMap(map: HTMLCanvasElement, tip: HTMLElement, m: Meta['manifest'], core: Meta['core'], entries: { info: boolean; loc: Loc; object: string; label: string }[], onPick: (resource: number) => void): { show(points: number[][] | null): void } {
  const ctx = map.getContext('2d', { willReadFrequently: true })!; // drawn once, read back: a canvas in memory, not on the GPU
  const res = m.resources;
  let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  // The level without its far objects (they are findings of their own): a stray 5 km away must not shrink it to a dot.
  if (core) [x0, x1, z0, z1] = [core.min[0], core.max[0], core.min[2], core.max[2]];
  else for (const r of res) (x0 = Math.min(x0, r.bounds.min[0])), (x1 = Math.max(x1, r.bounds.max[0])), (z0 = Math.min(z0, r.bounds.min[2])), (z1 = Math.max(z1, r.bounds.max[2]));
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
