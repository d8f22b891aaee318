// One output resource: a job (a collision object, or a collision_area cell) → PhysicsResource bytes and the
// numbers the manifest reports. Pure (no I/O), so it runs the same on the main thread and in a worker; a job's
// bytes depend only on the job, which is what makes output identical for any worker count.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeResource, type MeshObject } from '../geometry/resource.ts';
import { writePhysicsResource } from '../format/resource.ts';
import { gatherGroup, type CellGroupPlan } from './cells.ts';

/** Options handed to the encoder unchanged (header word 0x08, Studio body, part ids; see docs/format-decisions.md). */
export type EncodeOptions = NonNullable<Parameters<typeof encodeResource>[1]>;

/** One material's mesh, ready for the encoder. */
export interface MeshGroup {
  material: number;
  positions: Float32Array;
  indices: Uint32Array;
  /** Level-wide corner codes (src/geometry/seams.ts; 3 per triangle), or none (`--seams shape`). */
  seams?: Float32Array;
}

/** A group as jobs carry it: a mesh (per-object resources) or a cell's planned runs, gathered where it is encoded. */
export type JobGroup = MeshGroup | CellGroupPlan;

export const isPlanned = (g: JobGroup): g is CellGroupPlan => 'runs' in g;
export const groupTriangles = (g: JobGroup): number => (isPlanned(g) ? g.triangles : g.indices.length / 3);
export const jobTriangles = (job: ResourceJob): number => job.groups.reduce((s, g) => s + groupTriangles(g), 0);

export interface ResourceJob {
  name: string;
  /** Cell indices for collision_area tiles; null for per-object resources. */
  cell: [number, number] | null;
  groups: JobGroup[];
  /** Source object names. */
  sources: string[];
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export interface BuiltResource {
  name: string;
  file: string;
  cell: [number, number] | null;
  bytes: Uint8Array;
  parts: number;
  shapes: number;
  vertices: number;
  faces: number;
  /** Triangles handed to the encoder (before it drops degenerate and repeated ones). */
  inputTriangles: number;
  bounds: Bounds;
  /** Packed material words, one per part group, in part order (deduplicated). */
  materials: number[];
  sources: string[];
  /** Corners written with no opposite corner in their shape (open edges, sharp concave folds not counted). */
  openEdges: number;
  /** Corners that took their level-wide edge data (joined across a cut; 0 without seam codes). */
  seamJoined: number;
}

export const resourceFile = (name: string): string => `${name}.physics`;

/**
 * Writes a built resource into dir as resourceFile(name), synchronously, on the thread that built it (so each
 * encoding thread pays for its own files); a resource without parts gets no file. Throws "publish: <path>: ...".
 */
export function writeResource(dir: string, r: BuiltResource): void {
  if (r.parts === 0) return;
  const path = join(dir, resourceFile(r.name));
  try {
    writeFileSync(path, r.bytes);
  } catch (e) {
    throw new Error(`publish: ${path}: ${(e as Error).message}`);
  }
}

export function buildResource(job: ResourceJob, options?: EncodeOptions): BuiltResource {
  const objects: MeshObject[] = job.groups.map((g) => {
    const { positions, indices, seams } = isPlanned(g) ? gatherGroup(g) : g;
    const o: MeshObject = { name: job.name, positions, indices, material: g.material };
    if (seams) o.seams = seams;
    return o;
  });
  let encoded: ReturnType<typeof encodeResource>;
  try {
    encoded = encodeResource(objects, options);
  } catch (e) {
    throw new Error(`encode: resource "${job.name}": ${(e as Error).message}`);
  }
  const res = encoded.resource;
  const bytes = writePhysicsResource(res);
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  let vertices = 0;
  let faces = 0;
  for (const part of res.parts) {
    const s = res.shapes[part.shape];
    if (!s) continue;
    for (let j = 0; j < 3; j++) {
      min[j] = Math.min(min[j], Math.fround(part.position[j] + s.min[j]));
      max[j] = Math.max(max[j], Math.fround(part.position[j] + s.max[j]));
    }
  }
  for (const s of res.shapes) {
    vertices += s.vertices.length / 3;
    faces += Math.max(0, s.faceOffsets.length - 1);
  }
  return {
    name: job.name,
    file: resourceFile(job.name),
    cell: job.cell,
    bytes,
    parts: res.parts.length,
    shapes: res.shapes.length,
    vertices,
    faces,
    inputTriangles: jobTriangles(job),
    bounds: { min, max },
    materials: [...new Set(res.parts.map((p) => p.material))],
    sources: job.sources,
    openEdges: encoded.stats.objects.reduce((n, o) => n + o.stats.openEdges, 0),
    seamJoined: encoded.stats.objects.reduce((n, o) => n + o.stats.seamJoined, 0),
  };
}
