// Finding layers of report.html beyond the validation's: each kind of finding a pass makes (a far object here; a
// ride or grind check elsewhere) comes to the page as one layer, listed, counted, placed on the map and framed in
// 3D like the validation's own. A layer carries every one of its findings (the page places them all) and says what
// one finding means.
//
// Far objects: an object whose box lies more than FAR_OBJECT_GAP from every box of the level's main group (the
// group, boxes chained by gaps under FAR_OBJECT_GAP, holding the most triangles). It is almost always a stray (a
// prop left at the origin of another scene, a unit mistake), it makes the level's box huge (a 5 km box draws the
// level 2 px wide), and "frame all" and the map show the main group's box instead.

import type { SourceMesh } from './sources.ts';

export interface FindingLayer {
  /** Stable id: the list's kind filter, data-kind. */
  kind: string;
  /** The one word (or words) the page uses for a finding of this kind, everywhere. */
  label: string;
  severity: 'warn' | 'info';
  /** What one finding means and what to do about it, one line (the key's and the list's tooltip). */
  meaning: string;
  /** How many the pass found; the page lists every item, so items.length === count unless the pass says otherwise. */
  count: number;
  /** Each finding: its object, where it is (2 points: an edge; 3 or more: a polygon) and a note. */
  items: { object: string; points: number[][]; note?: string }[];
}

/** Gap (m) between an object's box and every box of the main group past which the object is a far object. */
export const FAR_OBJECT_GAP = 1000;

interface Box { name: string; min: number[]; max: number[]; triangles: number }

/** Boxes of the objects (from their positions when given, else their resource's bounds in the per-object layout). */
function objectBoxes(
  resources: { name: string; bounds: { min: number[]; max: number[] }; sourceObjects: string[] }[],
  objects: { name: string; triangles: number }[], sources?: SourceMesh[],
): Box[] {
  if (sources && sources.length === objects.length) {
    const out: Box[] = [];
    sources.forEach((s, i) => {
      const p = s.positions;
      if (p.length < 3) return;
      const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
      for (let k = 0; k < p.length; k += 3) {
        for (let a = 0; a < 3; a++) {
          const v = p[k + a];
          if (v < min[a]) min[a] = v;
          if (v > max[a]) max[a] = v;
        }
      }
      out.push({ name: s.name, min, max, triangles: objects[i].triangles });
    });
    return out;
  }
  const tris = new Map(objects.map((o) => [o.name, o.triangles]));
  return resources.map((r) => ({ name: r.sourceObjects.length === 1 ? r.sourceObjects[0] : r.name, min: r.bounds.min, max: r.bounds.max, triangles: r.sourceObjects.reduce((t, o) => t + (tris.get(o) ?? 0), 0) }));
}

const gap = (a: Box, b: Box): number => {
  let d = 0;
  for (let k = 0; k < 3; k++) {
    const g = Math.max(0, a.min[k] - b.max[k], b.min[k] - a.max[k]);
    d += g * g;
  }
  return Math.sqrt(d);
};

/**
 * The far objects as a layer, and the main group's box (null without boxes). Groups by a grid of FAR_OBJECT_GAP
 * cells over the boxes, so a level of 40,000 objects is grouped in one pass.
 */
export function farObjects(
  resources: { name: string; bounds: { min: number[]; max: number[] }; sourceObjects: string[] }[],
  objects: { name: string; triangles: number }[], sources?: SourceMesh[],
): { layer: FindingLayer; core: { min: number[]; max: number[] } | null } {
  const boxes = objectBoxes(resources, objects, sources);
  const layer: FindingLayer = {
    kind: 'farObject', label: 'far object', severity: 'warn', count: 0, items: [],
    meaning: `an object more than ${FAR_OBJECT_GAP} m from the rest of the level (a stray: moved by mistake, or a unit error); "frame all" and the map leave it out`,
  };
  if (!boxes.length) return { layer, core: null };
  // Cells of FAR_OBJECT_GAP each box covers, joined with their marked neighbours (26 of them): two boxes at most the
  // gap apart cover neighbouring cells, so they are in one group (boxes up to ~3 gaps apart may be too: never a stray
  // called far that is not).
  const G = FAR_OBJECT_GAP;
  const cellId = new Map<string, number>();
  const parent: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const join = (a: number, b: number): void => void (parent[find(a)] = find(b));
  const firstCell = boxes.map((b) => {
    const lo = b.min.map((v) => Math.floor(v / G)), hi = b.max.map((v) => Math.floor(v / G));
    let first = -1;
    const mark = (x: number, y: number, z: number): void => {
      const key = `${x},${y},${z}`;
      let id = cellId.get(key);
      if (id === undefined) cellId.set(key, (id = parent.length)), parent.push(id);
      if (first < 0) first = id;
      else join(id, first);
    };
    if ((hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1) <= 100_000) {
      for (let x = lo[0]; x <= hi[0]; x++) for (let y = lo[1]; y <= hi[1]; y++) for (let z = lo[2]; z <= hi[2]; z++) mark(x, y, z);
    } else for (const x of [lo[0], hi[0]]) for (const y of [lo[1], hi[1]]) for (const z of [lo[2], hi[2]]) mark(x, y, z); // a box past 100 km: its corners
    return first;
  });
  for (const [key, id] of cellId) {
    const [x, y, z] = key.split(',').map(Number);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
      const o = cellId.get(`${x + dx},${y + dy},${z + dz}`);
      if (o !== undefined) join(o, id);
    }
  }
  const groupOf = (i: number): number => find(firstCell[i]);
  const weight = new Map<number, number>();
  boxes.forEach((b, i) => weight.set(groupOf(i), (weight.get(groupOf(i)) ?? 0) + Math.max(1, b.triangles)));
  let main = groupOf(0);
  for (const [root, w] of weight) if (w > weight.get(main)!) main = root;
  const core = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  boxes.forEach((b, i) => {
    if (groupOf(i) !== main) return;
    for (let k = 0; k < 3; k++) (core.min[k] = Math.min(core.min[k], b.min[k])), (core.max[k] = Math.max(core.max[k], b.max[k]));
  });
  const coreBox: Box = { name: '', ...core, triangles: 0 };
  boxes.forEach((b, i) => {
    if (groupOf(i) === main) return;
    const d = gap(b, coreBox);
    layer.items.push({
      object: b.name, points: [b.min, b.max],
      note: `${Math.round(d).toLocaleString('en-US')} m from the rest of the level (box ${fmtBox(b)})`,
    });
  });
  layer.count = layer.items.length;
  return { layer, core };
}

const fmtBox = (b: Box): string => `${b.min.map((v) => Math.round(v)).join(', ')} → ${b.max.map((v) => Math.round(v)).join(', ')}`;
