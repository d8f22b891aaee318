// Compile sessions (src/build/session.ts, what --watch keeps): after seeded random edits — move, material, delete, add,
// one vertex moved, undo — each build in one session writes exactly the files and bytes of a clean build without a
// session (manifest, validation report and warnings included), with kept workers and without, and after a build
// that failed half way.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Document } from '@gltf-transform/core';
import { compileLevel, type CompileResult } from '../../src/build/compile.ts';
import { CompileSession } from '../../src/build/session.ts';
import { ThreadPool } from '../../src/tiling/pool.ts';
import { addNode, boxMesh, gridMesh, io, newLevel, tempDir } from '../fixtures/levels.ts';
import { editLevel, expectSameOutput, seeded, type Edit } from '../fixtures/edits.ts';
import { compositeLevel, writeYbn } from '../fixtures/ybn.ts';

const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));
const tmp = tempDir('sk8-session-');
afterAll(tmp.cleanup);

/** A level with multi-primitive meshes shared by nodes, and near misses between objects (cracks to classify). */
function crackLevel(): Document {
  const doc = newLevel();
  for (let k = 0; k < 6; k++) {
    // Tiles that meet 0.5 mm apart: their open edges lie along each other (cracks).
    addNode(doc, { name: `tile_${k}`, ...gridMesh(4, 4, 1, [4 * k + 0.0005 * k, 0, 0]) });
  }
  const mesh = addNode(doc, { name: 'ramp_a', ...boxMesh([2, 1, 8], [1, 1, 1]), material: 'concrete', more: [{ ...boxMesh([2, 3, 8], [1, 1, 1]), material: 'metal' }] }).getMesh()!;
  for (let k = 0; k < 3; k++) doc.getRoot().listScenes()[0].addChild(doc.createNode(`ramp_copy_${k}`).setMesh(mesh).setTranslation([6 * k, 0, 14]));
  return doc;
}

const quiet = { warn: () => {} };

/** A test directory, a session and a kept worker for body; the worker closed after it. */
async function inSession(name: string, body: (dir: string, session: CompileSession, pool: ThreadPool) => Promise<void>): Promise<void> {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  const pool = ThreadPool.spawn(1);
  try {
    await body(dir, new CompileSession(), pool);
  } finally {
    await pool.close();
  }
}

const levels: [string, () => Promise<Document>][] = [
  ['skatepark', () => io().read(join(SAMPLES, 'skatepark.glb'))],
  ['city-blocks', () => io().read(join(SAMPLES, 'city-blocks.glb'))],
  ['cracks', async () => crackLevel()],
];

describe.each(levels)('a session on %s', (name, load) => {
  it.each([
    ['kept workers', true],
    ['no workers', false],
  ])('each build equals a clean build after random edits (%s)', { timeout: 240_000 }, async (_, kept) => {
    const dir = join(tmp.dir, `${name}-${kept ? 'pool' : 'main'}`);
    const level = join(dir, 'level.glb');
    const doc = await load();
    mkdirSync(dir, { recursive: true });
    await io().write(level, doc);
    const original = readFileSync(level);
    const session = new CompileSession();
    const pool = kept ? ThreadPool.spawn(1) : undefined;
    const warned: string[] = [];
    // With kept workers, every third build runs on the main thread alone (the session's validation moves over).
    let n = 0;
    const build = (out: string, withSession: boolean): Promise<CompileResult> => {
      const alone = !kept || (withSession && n++ % 3 === 2);
      return compileLevel(level, { out, workers: alone ? 1 : 2, ...(withSession ? {} : { cache: false }) }, { logger: { warn: (m) => warned.push(m) }, ...(withSession ? { session, pool: alone ? undefined : pool } : {}) });
    };
    try {
      const out = join(dir, 'session');
      await build(out, true);
      // --watch's warm-up (cli/watch.ts watchSession): a dry run in the session, which writes nothing.
      const dry = await compileLevel(level, { out, dryRun: true, workers: kept ? 2 : 1 }, { logger: { warn: () => {} }, session, pool });
      expect(dry.dryRun).toBeDefined();
      const rnd = seeded(name.length * 7919 + (kept ? 1 : 0));
      const edits: Edit[] = ['move', 'vertex', 'material', 'none', 'delete', 'add', 'move', 'vertex'];
      const done: string[] = [];
      for (const [k, kind] of edits.entries()) {
        done.push(editLevel(doc, kind, rnd));
        await io().write(level, doc);
        const r = await build(out, true);
        const clean = await build(join(dir, `clean-${k}`), false);
        const what = done.join(', ');
        expectSameOutput(out, join(dir, `clean-${k}`), what);
        expect(r.manifest.validation, what).toEqual(clean.manifest.validation);
        expect(r.manifest.warnings, what).toEqual(clean.manifest.warnings);
        // The session took most arrays from the build before (an edit changes one object's).
        expect(session.import.stats.reused, what).toBeGreaterThan(0);
      }
      // Undone: the original file again gives the first build's output.
      writeFileSync(level, original);
      await build(out, true);
      await build(join(dir, 'clean-undo'), false);
      expectSameOutput(out, join(dir, 'clean-undo'), 'undo');
    } finally {
      await pool?.close();
    }
  });
});

describe('a session across levels and importers', () => {
  it('alternating a GTA V .ybn and shapes.glb (shape modes) in one session, each build equals a clean build', { timeout: 120_000 }, async () => {
    await inSession('mixed', async (dir, session, pool) => {
      const ybn = join(dir, 'level.ybn');
      writeFileSync(ybn, writeYbn(compositeLevel()).file);
      for (const [k, level] of [ybn, join(SAMPLES, 'shapes.glb'), ybn, join(SAMPLES, 'shapes.glb')].entries()) {
        const out = join(dir, level.endsWith('.ybn') ? 'ybn' : 'shapes');
        await compileLevel(level, { out, workers: 2 }, { logger: quiet, session, pool });
        await compileLevel(level, { out: join(dir, `clean-${k}`), cache: false }, { logger: quiet });
        expectSameOutput(out, join(dir, `clean-${k}`), level);
      }
    });
  });
});

describe('a session moving between the main thread and a worker', () => {
  it('an object added beside another on a worker build and removed on the next main-thread build leaves no stale cracks', { timeout: 120_000 }, async () => {
    await inSession('sides', async (dir, session, pool) => {
      const level = join(dir, 'level.glb');
      const doc = crackLevel();
      const steps: [string, boolean][] = [['alone', false], ['with a neighbour', true], ['alone again', false]];
      for (const [k, [what, onWorker]] of steps.entries()) {
        const extra = doc.getRoot().listNodes().find((n) => n.getName() === 'neighbour');
        if (what === 'with a neighbour') addNode(doc, { name: 'neighbour', ...gridMesh(4, 4, 1, [24.0003, 0, 0]) });
        else extra?.dispose();
        await io().write(level, doc);
        const r = await compileLevel(level, { out: join(dir, 'out'), workers: onWorker ? 2 : 1 }, { logger: quiet, session, ...(onWorker ? { pool } : {}) });
        const clean = await compileLevel(level, { out: join(dir, `clean-${k}`), workers: 1, cache: false }, { logger: quiet });
        expect(r.manifest.validation, what).toEqual(clean.manifest.validation);
        expectSameOutput(join(dir, 'out'), join(dir, `clean-${k}`), what);
      }
    });
  });
});

describe('a session across a failed build', () => {
  it('a build that fails half way (strict, after validation) leaves the next one exact', { timeout: 120_000 }, async () => {
    await inSession('failed', async (dir, session, pool) => {
      const level = join(dir, 'level.glb');
      const doc = crackLevel();
      await io().write(level, doc);
      const hooks = { logger: quiet, session, pool };
      await compileLevel(level, { out: join(dir, 'a'), workers: 2 }, hooks);
      doc.getRoot().listNodes().find((n) => n.getName() === 'tile_2')!.setTranslation([0.3, 0, 0]);
      await io().write(level, doc);
      // The cracks make warnings: strict fails after the worker's crack pass ran on its memo.
      await expect(compileLevel(level, { out: join(dir, 'a'), workers: 2, strict: true }, hooks)).rejects.toThrow(/strict/);
      doc.getRoot().listNodes().find((n) => n.getName() === 'tile_4')!.setTranslation([0, 0.0002, 0]);
      await io().write(level, doc);
      const r = await compileLevel(level, { out: join(dir, 'a'), workers: 2 }, hooks);
      const clean = await compileLevel(level, { out: join(dir, 'clean'), workers: 2, cache: false }, { logger: { warn: () => {} } });
      expectSameOutput(join(dir, 'a'), join(dir, 'clean'), 'after a failure');
      expect(r.manifest.validation).toEqual(clean.manifest.validation);
    });
  });
});
