// The build's grind findings as warnings (the manifest's `grind` section holds them whole; src/manifest.ts): each
// written part over the game's density limit, with its place, so the author learns before the game does that its
// creases will not grind (rule: src/format/grind-map.ts). A dense part with no crease at or over the crease angle loses
// nothing to grind: the manifest lists it, no warning is given.
import { GRIND_DENSITY_LIMIT } from './format/grind-map.ts';
import type { BuiltResource } from './tiling/build.ts';

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
          `> ${GRIND_DENSITY_LIMIT}: the game analyses none of its edges, so its ${d.creases} crease(s) will not grind`,
      );
    }
  }
  if (more) lines.push(`grind: ${more} more part(s) over ${GRIND_DENSITY_LIMIT} half-edges per metre (manifest.json grind.denseParts lists all)`);
  return lines;
}
