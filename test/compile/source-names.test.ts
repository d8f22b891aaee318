// The manifest's sourceNames: every object the compiler renamed (cleaned to a file-safe name, made unique ignoring
// case, a grind prism or a GPU instance) maps back to the input's node name, so a finding can be taken back to the
// author's object (the Blender add-on's Go To) without guessing how names were cleaned.
import { afterAll, describe, expect, it } from 'vitest';
import { compileLevel } from '../../src/build/compile.ts';
import { addNode, boxMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const tmp = tempDir('sk8-source-names-');
afterAll(tmp.cleanup);
const hooks = { logger: { warn: () => undefined } };

describe('manifest sourceNames', () => {
  it('names the source of every renamed object, and only those', async () => {
    const doc = newLevel();
    const names = ['Rail 1', 'Rail_1', 'Wall', 'wall', 'CON', 'Kicker.', 'plain'];
    names.forEach((name, i) => addNode(doc, { name, ...boxMesh([4 * i, 0.5, 0], [1, 0.5, 1]) }));
    addNode(doc, { name: 'hand rail', positions: [0, 1, 5, 2, 0.5, 5, 4, 0, 5], mode: 3, nodeExtras: { sk8_grind_curve: true } });
    const r = await compileLevel(await writeLevel(doc, `${tmp.dir}/names.glb`), { report: false }, hooks);
    expect(r.manifest.sourceNames).toEqual({
      Rail_1: 'Rail 1', Rail_1_2: 'Rail_1', wall_2: 'wall', CON_: 'CON', Kicker_: 'Kicker.', grind_hand_rail: 'hand rail',
    });
    expect(r.manifest.resources.flatMap((x) => x.sourceObjects)).toEqual(expect.arrayContaining(['Rail_1', 'Rail_1_2', 'wall_2', 'plain']));
  });

  it('is absent when no object was renamed', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'ground', ...boxMesh([0, 0, 0], [1, 1, 1]) });
    const r = await compileLevel(await writeLevel(doc, `${tmp.dir}/plain.glb`), { report: false }, hooks);
    expect(r.manifest.sourceNames).toBeUndefined();
  });
});
