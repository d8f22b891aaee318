// Workers kept across builds (CompileHooks.pool, what --watch does): each build on them gives the bytes and the
// validation report of a build that starts its own, also after a build that failed half way on them.
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLevel } from '../../src/build/compile.ts';
import { ThreadPool } from '../../src/tiling/pool.ts';
import { addNode, gridMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));
const tmp = tempDir('sk8-kept-');
afterAll(tmp.cleanup);
const hooks = { logger: { warn: () => {} } };

const outputOf = (dir: string): Map<string, string> =>
  new Map(readdirSync(dir).filter((n) => n.endsWith('.physics')).sort().map((n) => [n, readFileSync(join(dir, n)).toString('hex')]));

describe('workers kept across builds', () => {
  it('builds on one pool equal builds on their own, after a failed build too', { timeout: 120_000 }, async () => {
    const pool = ThreadPool.spawn(1);
    try {
      const city = join(SAMPLES, 'city-blocks.glb'), park = join(SAMPLES, 'skatepark.glb');
      const a = await compileLevel(city, { out: join(tmp.dir, 'a'), workers: 2, cache: false }, { ...hooks, pool });
      // skatepark has crack warnings: --strict fails it after its objects were validated on the pool's worker.
      await expect(compileLevel(park, { out: join(tmp.dir, 'fail'), workers: 2, strict: true, cache: false }, { ...hooks, pool })).rejects.toThrow(/strict/);
      // A level that fails in the import after its first objects (small ones, over a unit of triangles together)
      // went to the worker: they must not reach the next build's crack pass (they lie where city-blocks is).
      const doc = newLevel();
      for (let k = 0; k < 40; k++) addNode(doc, { name: `tile_${k}`, ...gridMesh(20, 20, 1, [-100 + 20 * (k % 8), 0, -100 + 20 * Math.floor(k / 8)]) });
      addNode(doc, { name: 'rail_03', positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 99] });
      const bad = await writeLevel(doc, join(tmp.dir, 'bad.glb'));
      await expect(compileLevel(bad, { out: join(tmp.dir, 'bad'), workers: 2, cache: false }, { ...hooks, pool })).rejects.toThrow(/rail_03/);
      const b = await compileLevel(city, { out: join(tmp.dir, 'b'), workers: 2, cache: false }, { ...hooks, pool });
      const own = await compileLevel(city, { out: join(tmp.dir, 'own'), workers: 2, cache: false }, hooks);
      for (const r of [a, b]) {
        expect(r.manifest.validation).toEqual(own.manifest.validation);
        expect(r.manifest.seams).toEqual(own.manifest.seams);
      }
      expect(outputOf(join(tmp.dir, 'b'))).toEqual(outputOf(join(tmp.dir, 'own')));
      expect(outputOf(join(tmp.dir, 'a'))).toEqual(outputOf(join(tmp.dir, 'own')));
      // The pool is the caller's: still running after the builds.
      expect(await pool.reset(0)).toBeNull();
    } finally {
      await pool.close();
    }
  });
});
