// The plan's resource jobs (src/build/compile.ts encodeStage, dryRunStage): one per object with triangles or native
// shapes, or one per collision_area cell (cells.ts, native parts by native-jobs.ts); their geometries as the budget
// counts them (estimateShapes: a lower bound, the encoder's split may add shapes); and the jobs' arrays in shared
// memory for the encoding threads.
import type { ImportedObject } from '../model.ts';
import { isShared, SharedArena } from '../import/shared-arena.ts';
import { estimateShapes } from './budget.ts';
import { groupTriangles, isNative, isPlanned, type MeshGroup, type ResourceJob } from './build.ts';
import { planCells, type KnownRuns } from './cells.ts';
import { nativeGroups, withNativeCells } from './native-jobs.ts';

/** Estimated geometries of planned jobs (a lower bound: the encoder's split may add shapes). */
export const jobsGeometries = (jobs: ResourceJob[]): number => jobs.reduce((s, j) => s + jobGeometries(j), 0);

export const jobGeometries = (j: ResourceJob): number => j.groups.reduce((t, g) => t + (isNative(g) ? 1 : estimateShapes(groupTriangles(g))), 0);

/** An object's geometries as the layout choice counts them (encodeStage's estimate): native parts one each. */
export const objectGeometries = (o: ImportedObject): number => (o.native?.length ?? 0) + o.groups.reduce((t, g) => t + estimateShapes(g.indices.length / 3), 0);

/** One job per object with triangles or native shapes. */
export function objectJobs(objects: ImportedObject[]): ResourceJob[] {
  const jobs: ResourceJob[] = [];
  objects.forEach((o) => {
    if (!o.groups.some((g) => g.indices.length > 0) && !o.native?.length) return;
    const groups = o.groups.map((g): MeshGroup => ({ material: g.material, positions: o.positions, indices: g.indices }));
    jobs.push({ name: o.name, cell: null, sources: [o.name], groups: [...groups, ...nativeGroups(o)] });
  });
  return jobs;
}

export function cellJobs(objects: ImportedObject[], cellSize: number, known: KnownRuns): ResourceJob[] {
  return withNativeCells(planCells(objects, cellSize, known).map((c) => ({ name: c.name, cell: [c.x, c.z], sources: c.sources, groups: c.groups })), objects, cellSize);
}

/** The jobs with every array they read in shared memory (the importer's already are: then nothing is copied). */
export function sharedJobs(jobs: ResourceJob[]): ResourceJob[] {
  const arena = new SharedArena();
  const copies = new Map<ArrayBufferView, Float32Array | Uint32Array>();
  const share = <T extends Float32Array | Uint32Array>(a: T): T => {
    if (isShared(a)) return a;
    let c = copies.get(a);
    if (!c) copies.set(a, (c = a instanceof Float32Array ? arena.copyF32(a) : arena.copyU32(a)));
    return c as T;
  };
  return jobs.map((j) => ({
    ...j,
    groups: j.groups.map((g) =>
      isPlanned(g)
        ? { ...g, sources: g.sources.map((s) => ({ positions: share(s.positions), indices: share(s.indices) })) }
        : isNative(g)
          ? g
          : { material: g.material, positions: share(g.positions), indices: share(g.indices) },
    ),
  }));
}
