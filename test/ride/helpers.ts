// Shared by the ride tests: a level compiled from meshes, its written files read back as the ride reads them, and
// the Jolt slide (a frictionless box sliding over a mesh) on our engine.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileLevel, type CompileOptions } from '../../src/build/compile.ts';
import { readRideResource, type RideResource } from '../../src/ride/index.ts';
import { ride, type RideResult } from '../../src/ride/simulate.ts';
import { Query } from '../../src/ride/grid.ts';
import { type RideWorld } from '../../src/ride/world.ts';
import { addNode, newLevel, writeLevel } from '../fixtures/levels.ts';

export interface MeshSpec {
  name: string;
  positions: number[];
  indices: number[];
  material?: string | { name?: string; extras?: Record<string, unknown> };
  nodeExtras?: Record<string, unknown>;
}

/** Writes the meshes as a level into dir, compiles it with the options, returns the output folder. */
export async function compileMeshes(dir: string, name: string, meshes: MeshSpec[], opts: Partial<CompileOptions> = {}): Promise<string> {
  const doc = newLevel();
  for (const m of meshes) addNode(doc, { ...m, material: m.material ?? 'concrete' });
  const level = await writeLevel(doc, join(dir, `${name}.glb`));
  const out = join(dir, `${name}.collision`);
  await compileLevel(level, { out, workers: 1, cache: false, ...opts }, { logger: { warn: () => {} } });
  return out;
}

/** The .physics files of a folder, read by the codec. */
export function readOutput(dir: string): RideResource[] {
  return readdirSync(dir).filter((f) => f.endsWith('.physics')).sort().map((f) => readRideResource(f, new Uint8Array(readFileSync(join(dir, f)))));
}

/** Every corner's edge data made open (1.0, neither bit): what the file would say with no edge data at all. */
export function stripEdges(resources: RideResource[]): RideResource[] {
  return resources.map((r) => {
    const res = structuredClone(r.resource);
    for (const s of res.shapes) {
      s.flatBits.fill(0);
      s.concaveBits.fill(0);
      s.edgeValues.fill(1);
    }
    return { name: r.name, resource: res };
  });
}

/** Jolt's slide on our engine: the box of half extent 0.1 m from `from` (resting) at `speed` along +x for `seconds` at 60 Hz. */
export function slide(w: RideWorld, from: [number, number, number], speed = 3, seconds = 2, dir: [number, number] = [1, 0]): RideResult {
  return ride(w, new Query(w), {
    probe: { kind: 'box', half: [0.1, 0.1, 0.1] }, position: [from[0], from[1] + 0.1, from[2]],
    velocity: [speed * dir[0], 0, speed * dir[1]], duration: seconds,
  }, { hz: 60 });
}

/** Flat n × m quad grid of `cell` m quads at height y from (x0, z0), two triangles a quad, facing up. */
export function grid(n: number, m: number, cell: number, x0: number, y: number, z0: number): { positions: number[]; indices: number[] } {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let j = 0; j <= m; j++) for (let i = 0; i <= n; i++) positions.push(x0 + i * cell, y, z0 + j * cell);
  for (let j = 0; j < m; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      indices.push(a, c, b, b, c, d);
    }
  }
  return { positions, indices };
}

/** A closed box (12 triangles, wound outward) from (x0, y0, z0) to (x1, y1, z1). */
export function box(name: string, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number) {
  const positions = [x0, y0, z0, x1, y0, z0, x1, y0, z1, x0, y0, z1, x0, y1, z0, x1, y1, z0, x1, y1, z1, x0, y1, z1];
  const indices = [0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1, 1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0];
  return { name, positions, indices };
}

/** Hostile records: the verify-free worst a reader could be handed, mutation `kind` (0–8) on every shape; `took` counts the shapes it changed. */
export function hostile(resources: RideResource[], kind: number, took: number[]): RideResource[] {
  let n = 0;
  return resources.map((r) => {
    const res = structuredClone(r.resource);
    for (const s of res.shapes) {
      const V = s.vertices, nv = V.length / 3, corners = s.cornerVertices.length;
      const before = JSON.stringify(s, (_, x) => (ArrayBuffer.isView(x) ? Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('base64') : x));
      switch (kind) {
        case 0: // NaN, infinite, huge (the cross product overflows), tiny (degenerate) and coincident vertices
          if (nv >= 8) { V[0] = NaN; V[4] = Infinity; V.set([3e38, 1e38, -3e38], 6); V.set([1e-30, 0, 1e-30], 9); V.set([V[18], V[19], V[20]], 15); }
          break;
        case 1: // corners past the vertices (the part's origin vertex), a face of four corners, a face offset past the corners
          if (corners >= 12) { s.cornerVertices[1] = nv + 3; s.cornerVertices[7] = 0xffff; }
          if (s.faceOffsets.length > 4) { s.faceOffsets[2] = s.faceOffsets[2] + 1; s.faceOffsets[s.faceOffsets.length - 1] = 0xffff; }
          break;
        case 2: // no flat bits (no bits read at all), edge values not one a corner (none read)
          s.flatBits = new Uint8Array(0);
          s.edgeValues = s.edgeValues.subarray(0, Math.max(0, corners - 1));
          break;
        case 3: // bits shorter than the corners (a missing byte reads as clear), convex values of every sort
          s.flatBits = s.flatBits.subarray(0, 1); s.concaveBits = s.concaveBits.subarray(0, 1);
          for (let c = 0; c < corners; c++) s.edgeValues[c] = [0.5, NaN, -3, 2, 0.999, 1, -0, Infinity][c % 8];
          break;
        case 4: // the vertex → corner index off: ids past the corners, an offset past the ids, an id listed twice; or none
          if (s.cornerIdsByVertex.length > 4) { const ids = s.cornerIdsByVertex; ids[0] = 0xffff; ids[1] = corners; ids[3] = ids[2]; }
          if (s.vertexCornerOffsets.length > 2) s.vertexCornerOffsets[s.vertexCornerOffsets.length - 1] = 0xffff;
          break;
        case 5:
          s.vertexCornerOffsets = s.vertexCornerOffsets.subarray(1);
          break;
        case 6: // subnormal f32s, a face offset going back
          if (nv >= 8) V.set([2e-45, -2e-45, 3e-45], 21);
          if (s.faceOffsets.length > 6) s.faceOffsets[4] = s.faceOffsets[3] - 2;
          break;
        case 8: // every other shape's vertices an f32 ulp or so off (the face across in another part found by its place)
          if (n++ % 2 === 0) for (let i = 0; i < V.length; i++) V[i] = Math.fround(V[i] + 2e-7);
          break;
        default:
          break;
      }
      const after = JSON.stringify(s, (_, x) => (ArrayBuffer.isView(x) ? Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('base64') : x));
      if (after !== before) took[kind]++;
    }
    if (kind === 7) {
      res.parts.forEach((p, k) => {
        if (k % 3 === 0) p.position = [1e30, -1e30, 1e30];
        if (k % 3 === 1) p.shape = res.shapes.length + 3; // a part naming a shape the resource does not have
        if (k % 3 === 2) p.rotation = [0.3, -0.5, 0.1, 0.8]; // not unit
      });
      // a part naming the shape another part names (its faces twice), turned by a rotation not of unit length
      if (res.parts.length) res.parts.push({ ...structuredClone(r.resource.parts[0]), rotation: [0.3, -0.5, 0.1, 0.8] });
      took[kind] += res.parts.length;
    }
    return { name: r.name, resource: res };
  });
}
