// to-gltf (src/export/gltf.ts): a resource's parts, triangles, materials and unknown words survive into the GLB,
// and the compiler's importer reads the GLB back to the same world-space triangles and material words.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resourcesToGltf } from '../../src/export/gltf.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import { faceCount } from '../../src/format/types.ts';
import { importGltf, IMPORT_DEFAULTS } from '../../src/import/gltf.ts';
import { quatToMat3 } from '../../src/shapes/frame.ts';

const dir = mkdtempSync(join(tmpdir(), 'to-gltf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The resource's triangles in world space, each as 9 rounded numbers, sorted (order-free comparison). */
function worldTriangles(bytes: Uint8Array): string[] {
  const res = readPhysicsResource(bytes);
  const out: string[] = [];
  for (const p of res.parts) {
    const s = res.shapes[p.shape];
    const m = quatToMat3(p.rotation);
    const at = (v: number): number[] => [0, 1, 2].map((j) => Math.fround(p.position[j] + m[j] * s.vertices[3 * v] + m[3 + j] * s.vertices[3 * v + 1] + m[6 + j] * s.vertices[3 * v + 2]));
    for (let f = 0; f < faceCount(s); f++) {
      const a = s.faceOffsets[f];
      out.push([s.cornerVertices[a], s.cornerVertices[a + 1], s.cornerVertices[a + 2]].flatMap(at).map((x) => x.toFixed(4)).join(','));
    }
  }
  return out.sort();
}

describe('to-gltf', () => {
  for (const name of ['box', 'quarter-pipe', 'multi-object']) {
    it(`${name}.physics: importer reads back the same triangles, materials and part words`, async () => {
      const bytes = new Uint8Array(readFileSync(`test/golden/${name}.physics`));
      const res = readPhysicsResource(bytes);
      const { glb, notes } = await resourcesToGltf([{ file: `${name}.physics`, bytes, name, cell: null }]);
      const path = join(dir, `${name}.glb`);
      writeFileSync(path, glb);
      const imported = await importGltf(path, IMPORT_DEFAULTS, { warn: () => {} });
      // One object per part, each with its part's material word.
      expect(imported.objects.length).toBe(res.parts.length);
      expect(imported.objects.map((o) => o.groups[0].material)).toEqual(res.parts.map((p) => p.material));
      const got: string[] = [];
      for (const o of imported.objects) {
        const ix = o.groups[0].indices;
        for (let t = 0; t < ix.length; t += 3) got.push([ix[t], ix[t + 1], ix[t + 2]].flatMap((v) => [0, 1, 2].map((j) => o.positions[3 * v + j].toFixed(4))).join(','));
      }
      expect(got.sort()).toEqual(worldTriangles(bytes));
      // Part ids are not the compiler's (0/0/0): said in a note, kept in extras.
      if (res.parts.some((p) => p.ids.some((x) => x !== 0))) expect(notes[0].notes.join('\n')).toMatch(/ids/);
    });
  }

  it('refuses a file the codec refuses, naming it', async () => {
    const bytes = new Uint8Array(readFileSync('test/golden/box.physics')).slice(0, 100);
    await expect(resourcesToGltf([{ file: 'cut.physics', bytes, name: 'cut', cell: null }])).rejects.toThrow(/^to-gltf: cut\.physics: not readable as a PhysicsResource: .*0x/);
  });
});
