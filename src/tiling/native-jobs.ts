// Native kind-2/3 shapes (--native-shapes, src/shapes/native.ts) in the jobs: per object, after the object's meshes;
// in cells, in the cell of the part's position (the centroid rule of cells.ts applied to the part's centre), cells
// created where no triangle fell, and the cells kept sorted by x then z.
import type { ImportedObject } from '../model.ts';
import type { NativeGroup, ResourceJob } from './build.ts';
import { cellName } from './cells.ts';

export const nativeGroups = (o: ImportedObject): NativeGroup[] => (o.native ?? []).map((n) => ({ material: n.material, native: n }));

export function withNativeCells(jobs: ResourceJob[], objects: ImportedObject[], cellSize: number): ResourceJob[] {
  if (!objects.some((o) => o.native?.length)) return jobs;
  const byName = new Map(jobs.map((j) => [j.name, j]));
  for (const o of objects) {
    for (const g of nativeGroups(o)) {
      const x = Math.floor(g.native.position[0] / cellSize), z = Math.floor(g.native.position[2] / cellSize);
      const name = cellName(x, z);
      let job = byName.get(name);
      if (!job) byName.set(name, (job = { name, cell: [x, z], groups: [], sources: [] }));
      job.groups.push(g);
      if (!job.sources.includes(o.name)) job.sources.push(o.name);
    }
  }
  return [...byName.values()].sort((a, b) => a.cell![0] - b.cell![0] || a.cell![1] - b.cell![1]);
}
