// The ride's world built a file at a time (WorldBuilder): whatever its first capacity (grown as faces come), or on
// shared memory, the same faces in the same order as buildWorld over the whole list, with the same grid.
import { afterAll, expect, test } from 'vitest';
import { lazyTempDir } from '../fixtures/levels.ts';
import { buildWorld, faceSource, WorldBuilder, type RideWorld } from '../../src/ride/world.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-world-');
afterAll(() => tmp.cleanup());

const arrays = (w: RideWorld) => ({
  faces: w.faces, names: w.names, min: w.min, max: w.max,
  ...Object.fromEntries((['vert', 'corner', 'normal', 'edgeKind', 'allow', 'border', 'runs'] as const).map((k) => [k, Array.from(w[k])])),
  sources: Array.from({ length: w.faces }, (_, t) => faceSource(w, t)),
  grid: { ...w.grid, start: Array.from(w.grid.start), items: Array.from(w.grid.items) },
});

test('a world built a file at a time, from any first capacity or on shared memory, is the world of the whole list', async () => {
  const out = await compileMeshes(tmp.dir, 'three', [
    { name: 'a', ...grid(6, 4, 1, -6, 0, 0) }, { name: 'b', ...grid(6, 4, 1, 0, 0, 0) }, { name: 'c', ...grid(3, 3, 1, 0, 0.5, 5) },
  ], { tiling: 'cells', seams: 'level' });
  const resources = readOutput(out);
  expect(resources.length).toBeGreaterThan(1);
  const whole = arrays(buildWorld(resources));
  // Each face's source: the resources' kind-5 parts' faces in order (all triangles here).
  const listed = resources.flatMap((r) => r.resource.parts.flatMap((p, part) =>
    p.kind === 5 ? Array.from({ length: r.resource.shapes[p.shape].faceOffsets.length - 1 }, (_, face) => ({ resource: r.name, part, face })) : []));
  expect(whole.sources).toEqual(listed);
  for (const [capacity, shared] of [[0, false], [7, false], [1e6, false], [0, true]] as const) {
    const b = new WorldBuilder(capacity, shared);
    for (const r of resources) b.add(r);
    const w = b.finish();
    expect(w.vert.buffer instanceof SharedArrayBuffer, `shared ${shared}`).toBe(shared);
    expect(arrays(w), `capacity ${capacity}, shared ${shared}`).toEqual(whole);
  }
}, 60_000);
