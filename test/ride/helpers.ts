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
