// What the build decided for each collision object (CompileResult.objects, the CLI's --verbose, report.html):
// its mode, triangles, estimated geometries, materials and the resource holding it.
import type { ImportedObject } from '../model.ts';
import { buildSurfaceTable } from '../import/materials.ts';
import { objectGeometries } from '../tiling/jobs.ts';
import type { ObjectDecision } from './options.ts';

let waterWord: number | undefined;
function objectMode(o: ImportedObject, modes: Map<string, string>): string {
  const shaped = modes.get(o.name);
  if (shaped) return shaped;
  if (o.kind === 'grind') return 'grind_curve';
  waterWord ??= buildSurfaceTable().get('water');
  return o.groups.length > 0 && o.groups.every((g) => g.material === waterWord) ? 'water' : 'triangle_mesh';
}

/** Each object's decision; a resource's sources name the objects it holds. */
export function decisions(objects: ImportedObject[], resources: { name: string; sources?: string[]; sourceObjects?: string[] }[], modes: Map<string, string>): ObjectDecision[] {
  const holder = new Map<string, string>();
  for (const r of resources) for (const s of r.sourceObjects ?? r.sources ?? []) if (!holder.has(s)) holder.set(s, r.name);
  return objects.map((o) => ({
    name: o.name,
    source: o.source,
    mode: objectMode(o, modes),
    triangles: o.groups.reduce((t, g) => t + g.indices.length / 3, 0),
    geometries: objectGeometries(o),
    materials: [...o.groups.map((g) => g.material), ...(o.native ?? []).map((p) => p.material)],
    resource: holder.get(o.name) ?? null,
  }));
}
