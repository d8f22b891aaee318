// The level's edge data through the build (src/tiling/seams.ts): codes planned into cells with their triangles'
// runs (gathered on the encoding thread) and written where a cell border cuts the level.
import { describe, expect, it } from 'vitest';
import type { ImportedObject } from '../../src/import/gltf.ts';
import { planCells } from '../../src/tiling/cells.ts';
import { buildResource, type ResourceJob } from '../../src/tiling/build.ts';
import { seamReport, seamsOf } from '../../src/tiling/seams.ts';
import { runJobs } from '../../src/tiling/pool.ts';

/** A bumpy n × n grid of 10 m quads centred on the origin (dyadic heights), one material. */
function grid(name: string, n: number, material: number, x0 = -n * 5): ImportedObject {
  const positions = new Float32Array((n + 1) * (n + 1) * 3);
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.set([x0 + 10 * i, ((i * 5 + j * 3) % 7) / 8, -n * 5 + 10 * j], 3 * (j * (n + 1) + i));
  const idx: number[] = [];
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
    idx.push(a, c, b, b, c, d);
  }
  return { name, source: name, kind: 'mesh', positions, groups: [{ material, indices: Uint32Array.from(idx) }] };
}

const jobsOf = (objects: ImportedObject[], size: number, codes?: Float32Array[][]): ResourceJob[] =>
  planCells(objects, size, undefined, codes).map((c) => ({ name: c.name, cell: [c.x, c.z], sources: c.sources, groups: c.groups }));

describe('seams in the build', () => {
  it('a grid over four cells writes only its border open; without codes the borders between cells are open', () => {
    const objects = [grid('terrain', 8, 96)];
    const level = seamsOf(objects, { cellSize: 50, maxFaces: 21845 });
    expect(level.openCorners).toBe(32);
    const withCodes = jobsOf(objects, 50, level.codes).map((j) => buildResource(j));
    expect(withCodes.length).toBe(4);
    expect(seamReport('level', level, withCodes)).toEqual({ mode: 'level', authoredOpenEdges: 32, joinedAcrossCuts: 32, openEdgesWritten: 32 });
    const without = jobsOf(objects, 50).map((j) => buildResource(j));
    expect(seamReport('shape', level, without)).toEqual({ mode: 'shape', authoredOpenEdges: 32, joinedAcrossCuts: 0, openEdgesWritten: 64 });
  });

  it('two objects and two materials in one cell merge, and across cells keep their codes; same bytes on 1 and 3 threads', async () => {
    const objects = [grid('a', 6, 96), grid('b', 6, 160, 30), grid('c', 6, 96, 90)];
    const level = seamsOf(objects, { cellSize: 50, maxFaces: 21845 });
    const jobs = jobsOf(objects, 50, level.codes);
    const one = await runJobs(jobs, { threads: 1 });
    const three = await runJobs(jobs, { threads: 3 });
    expect(three.map((r) => Buffer.from(r.bytes).toString('hex'))).toEqual(one.map((r) => Buffer.from(r.bytes).toString('hex')));
    const report = seamReport('level', level, one);
    expect(report.openEdgesWritten).toBe(report.authoredOpenEdges);
    expect(report.joinedAcrossCuts).toBeGreaterThan(0);
    // The codes depend on where the build cuts: without cells, pairs inside one object's material are left to it.
    const objectsOnly = seamsOf(objects, { cellSize: 0, maxFaces: 21845 });
    expect(objectsOnly.openCorners).toBe(level.openCorners);
    expect(objectsOnly.codes[0][0].filter((c) => c !== -1).length).toBeLessThan(level.codes[0][0].filter((c) => c !== -1).length);
  });
});
