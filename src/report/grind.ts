// The report's grind view data (page/grind.ts draws it): the grind map of the written files (src/format/grind-map.ts)
// per drawn shape — density, grindable edges, why its creases do not grind — and the grindable edges in world space,
// the first GRIND_SEGMENTS_DRAWN of them (the counts cover all).
import { GRIND_CREASE_DEGREES, GRIND_DENSITY_LIMIT, partGrind, type GrindExclusion } from '../format/grind-map.ts';
import type { PhysicsResource } from '../format/types.ts';

/** Grind edges drawn at most (6 numbers each in the page's JSON: ~2 MB at most). */
export const GRIND_SEGMENTS_DRAWN = 50_000;

export interface GrindPage {
  creaseDegrees: number;
  densityLimit: number;
  /** Per drawn shape (the geometry's shape order): density, grindable edges, creases, why none grind. */
  shapes: { density: number; edges: number; creases: number; excluded: GrindExclusion; property: string | null }[];
  /** World end points, 6 per drawn grind edge, to the millimetre. */
  segments: number[];
  edges: number;
  metres: number;
}

const mm = (v: number): number => Math.round(v * 1000) / 1000;

/** The grind view of the drawn shapes ((resource, part) each) of the read resources. */
export function grindPage(resources: PhysicsResource[], shapes: { resource: number; part: number }[]): GrindPage {
  const out: GrindPage = { creaseDegrees: GRIND_CREASE_DEGREES, densityLimit: GRIND_DENSITY_LIMIT, shapes: [], segments: [], edges: 0, metres: 0 };
  for (const s of shapes) {
    const g = partGrind(resources[s.resource], s.part, true);
    out.shapes.push({ density: Math.round(g.density), edges: g.edges, creases: g.creases, excluded: g.excluded, property: g.property });
    out.edges += g.edges;
    out.metres += g.metres;
    if (g.edges === 0) continue;
    const seg = g.segments!;
    for (let k = 0; k < seg.length && out.segments.length < 6 * GRIND_SEGMENTS_DRAWN; k++) out.segments.push(mm(seg[k]));
  }
  out.metres = Math.round(out.metres * 100) / 100;
  return out;
}
