// The level-wide edge data in the build (issue 12; rule in src/geometry/seams.ts, decision in
// docs/format-decisions.md "Seams"): computed once after the import over every collision object, before the layout
// cuts the level into resources and cells; each job then carries its groups' corner codes (an input of the job,
// like its triangles), and the manifest reports what the cuts did to the level's open edges.
import type { ImportedObject } from '../import/gltf.ts';
import { SharedArena } from '../import/shared-arena.ts';
import { levelSeams, type LevelSeams, type SeamCuts } from '../geometry/seams.ts';
import type { BuiltResource } from './build.ts';

/** 'level': corners cut apart by the compiler take the level's edge data; 'shape': each shape's own (Studio's bytes). */
export type SeamMode = 'level' | 'shape';
export const DEFAULT_SEAMS: SeamMode = 'level';

/** Corner counts over the level (manifest `seams`). */
export interface SeamReport {
  mode: SeamMode;
  /** Corners with no single opposite corner in the whole level (its open edges as authored). */
  authoredOpenEdges: number;
  /** Corners their shape left unpaired that were written with their level-wide edge data. */
  joinedAcrossCuts: number;
  /** Corners written with no opposite corner in their shape, over all resources. */
  openEdgesWritten: number;
}

/**
 * The level's corner codes, in shared memory (workers read them in place); codes[object][group]. cuts: the build's
 * cell size (0 when it never tiles) and the encoder's maxFaces.
 */
export function seamsOf(objects: ImportedObject[], cuts: SeamCuts): LevelSeams {
  const arena = new SharedArena();
  const meshes = objects.map((o) => ({ name: o.name, positions: o.positions, groups: o.groups.map((g) => g.indices), materials: o.groups.map((g) => g.material) }));
  return levelSeams(meshes, cuts, (n) => arena.f32(n));
}

export function seamReport(mode: SeamMode, level: LevelSeams, built: BuiltResource[]): SeamReport {
  return {
    mode,
    authoredOpenEdges: level.openCorners,
    joinedAcrossCuts: built.reduce((n, r) => n + r.seamJoined, 0),
    openEdgesWritten: built.reduce((n, r) => n + r.openEdges, 0),
  };
}
