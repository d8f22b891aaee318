// The import's session memo (src/import/memo.ts): accessor data matched by every byte, arrays handed out once per
// build and found again by the next, and an import through the memo equal to a fresh import, build after build.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { importGltf, IMPORT_DEFAULTS } from '../../src/import/gltf.ts';
import type { ImportedObject } from '../../src/model.ts';
import { ImportMemo } from '../../src/import/memo.ts';
import { addNode, boxMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const tmp = tempDir('sk8-memo-');
afterAll(tmp.cleanup);

const bytes = (n: number, f: (i: number) => number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => f(i) & 0xff);

describe('ImportMemo tokens', () => {
  it('the same kind and bytes (in another buffer) get the token of the build before; one byte changed anywhere does not', () => {
    const memo = new ImportMemo();
    const data = bytes(4096, (i) => i * 7);
    memo.begin();
    const t = memo.token({ kind: '5126:VEC3:340', bytes: data });
    memo.commit();
    memo.begin();
    expect(memo.token({ kind: '5126:VEC3:340', bytes: data.slice() })).toBe(t);
    const edited = data.slice();
    edited[1500] ^= 1; // far from the start, middle and end the lookup key samples
    expect(memo.token({ kind: '5126:VEC3:340', bytes: edited })).not.toBe(t);
    expect(memo.token({ kind: '5125:SCALAR:1024', bytes: data })).not.toBe(t);
    memo.commit();
  });

  it('positions are handed to one object a build; the next build finds them again, by the exact matrix', () => {
    const memo = new ImportMemo();
    const m = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, -0, 1]);
    const a = new Float32Array(3), b = new Float32Array(3);
    memo.begin();
    expect(memo.findPositions(1, m)).toBeUndefined();
    memo.keepPositions(1, m, a);
    expect(memo.findPositions(1, m)).toBeUndefined(); // kept this build, not handed out twice
    memo.keepPositions(1, m, b); // a second node with the same mesh and matrix
    memo.commit();
    memo.begin();
    expect(memo.findPositions(1, Float64Array.from(m))).toBe(a);
    expect(memo.findPositions(1, m)).toBe(b);
    expect(memo.findPositions(1, m)).toBeUndefined();
    // −0 and 0 differ in the products: not the same matrix; nor another accessor's token.
    const z = Float64Array.from(m);
    z[14] = 0;
    memo.commit();
    memo.begin();
    expect(memo.findPositions(1, z)).toBeUndefined();
    expect(memo.findPositions(2, m)).toBeUndefined();
    expect(memo.findPositions(1, m)).toBe(a);
  });
});

describe('importGltf with a memo', () => {
  const strip = (objs: ImportedObject[]) => objs.map((o) => ({ ...o, positions: Array.from(o.positions), groups: o.groups.map((g) => ({ material: g.material, indices: Array.from(g.indices) })) }));

  it('equals a fresh import build after build, multi-primitive meshes shared by nodes included, and reuses the unchanged', async () => {
    const doc = newLevel();
    const mesh = addNode(doc, { name: 'ramp', ...boxMesh([0, 1, 0], [1, 1, 1]), material: 'concrete', more: [{ ...boxMesh([0, 3, 0], [1, 1, 1]), material: 'metal' }] }).getMesh()!;
    for (let k = 0; k < 4; k++) doc.getRoot().listScenes()[0].addChild(doc.createNode(`copy_${k}`).setMesh(mesh).setTranslation([4 * k, 0, 9]));
    addNode(doc, { name: 'mirrored', ...boxMesh([0, 0, 0], [1, 2, 1]), scale: [-1, 1, 1], translation: [0, 0, -9] });
    const file = join(tmp.dir, 'level.glb');
    const memo = new ImportMemo();
    for (let build = 0; build < 4; build++) {
      if (build === 2) doc.getRoot().listNodes().find((n) => n.getName() === 'copy_1')!.setTranslation([4, 0.5, 9]);
      await writeLevel(doc, file);
      const withMemo = await importGltf(file, IMPORT_DEFAULTS, { warn: () => {} }, { memo });
      const plain = await importGltf(file, IMPORT_DEFAULTS, { warn: () => {} });
      expect(strip(withMemo.objects)).toEqual(strip(plain.objects));
      if (build === 0) expect(memo.stats.reused).toBe(0);
      // Every array again but the moved copy's: two primitives' positions and lists, and their concatenation.
      else expect(memo.stats.made).toBe(build === 2 ? 5 : 0);
    }
  });
});
