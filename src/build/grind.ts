// The build's grind findings as warnings (the manifest's `grind` section holds them whole; src/build/manifest.ts): each
// written part over the game's density limit, with its place, so the author learns before the game does that its
// creases will not grind (rule: src/format/grind-map.ts). A dense part with no crease at or over the crease angle loses
// nothing to grind: the manifest lists it, no warning is given.
import { GRIND_DENSITY_LIMIT } from '../format/grind-map.ts';
import { checkSimplify, simplifyGroup } from '../geometry/simplify.ts';
import type { ImportedObject } from '../model.ts';
import type { BuiltResource } from '../tiling/build.ts';

/** Dense parts named one by one up to this many; the rest are counted in one more line. */
export const DENSE_WARNINGS_SHOWN = 10;

const xyz = (v: number[]): string => `(${v.map((x) => x.toFixed(2)).join(', ')})`;

/** One line per written part over the density limit that holds creases (the first DENSE_WARNINGS_SHOWN), then a count of the rest. */
export function densePartWarnings(built: BuiltResource[]): string[] {
  const lines: string[] = [];
  let more = 0;
  for (const r of built) {
    for (const d of r.grind?.dense ?? []) {
      if (d.creases === 0) continue;
      if (lines.length >= DENSE_WARNINGS_SHOWN) { more++; continue; }
      const at = d.min.map((v, j) => (v + d.max[j]) / 2);
      lines.push(
        `grind: "${r.name}" part ${d.part} (${d.faces} triangles around ${xyz(at)}): ${Math.round(d.density)} half-edges per metre ` +
          `> ${GRIND_DENSITY_LIMIT}: the game analyses none of its edges, so its ${d.creases} crease(s) will not grind ` +
          `(too dense to cut into parts worth having: --simplify METRES)`,
      );
    }
  }
  if (more) lines.push(`grind: ${more} more part(s) over ${GRIND_DENSITY_LIMIT} half-edges per metre (manifest.json grind.denseParts lists all)`);
  return lines;
}

/** One simplified object group, as the manifest's grind.simplified lists it. */
export interface SimplifiedEntry {
  object: string;
  material: number;
  triangles: [number, number];
  /** Half-edges per metre before and after. */
  density: [number, number];
  /** Absolute error reached, metres (at most the --simplify value). */
  error: number;
}

/**
 * --simplify: every mesh object's group over the density limit that the density cut (at `cutTarget`, 0: off) cannot
 * fix, simplified in place within `metres` (grind prisms and shape-mode objects are made by us and left alone); the
 * list of what changed, per object group.
 */
export async function simplifyObjects(objects: ImportedObject[], metres: number, cutTarget = 0): Promise<SimplifiedEntry[]> {
  checkSimplify(metres);
  const out: SimplifiedEntry[] = [];
  for (const o of objects) {
    if (o.kind !== 'mesh') continue;
    for (const g of o.groups) {
      const s = await simplifyGroup(o.positions, g.indices, metres, cutTarget);
      if (!s) continue;
      g.indices = s.indices;
      out.push({
        object: o.name, material: g.material, triangles: [s.before, s.after],
        density: [Math.round(s.densityBefore), Math.round(s.densityAfter)], error: Math.round(s.error * 1e6) / 1e6,
      });
    }
  }
  return out;
}
