// --forge-materials maps (src/import/forge/materials.ts readForgeMaterialMap, ForgeMaterials): a surface is named
// as everywhere else names are read (Studio's names in any case, spaces or hyphens, Blender's .001), and an id
// however it is spelled (0x1A2B, 0x00001a2b).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ForgeMaterials, readForgeMaterialMap } from '../../../src/import/forge/materials.ts';

const dir = mkdtempSync(join(tmpdir(), 'forge-map-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mapFile = (o: unknown): string => {
  const f = join(dir, `m${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(f, JSON.stringify(o));
  return f;
};

describe('--forge-materials', () => {
  it("takes surface names as glTF material names are read: Studio's words in any spelling", () => {
    const map = readForgeMaterialMap(mapFile({ CM_A: 'Earth', CM_B: 'Metal Rail', CM_C: 'roofing.001', CM_D: 'PLASTIC', '0x00001A2B': 'wood', '0X10': 'Metal-Grate' }));
    const names = new Map([[1n, 'CM_A'], [2n, 'CM_B'], [3n, 'CM_C'], [4n, 'CM_D'], [0x1a2bn, 'unnamed'], [16n, 'x']]);
    const warnings: string[] = [];
    const m = new ForgeMaterials(names, map, (w) => warnings.push(w), 'forge');
    expect([1n, 2n, 3n, 4n, 0x1a2bn, 16n].map((id) => `0x${m.word(id, 'o').toString(16)}`)).toEqual(['0xda0', '0xba0', '0x8e0', '0xce0', '0x1a0', '0x660']);
    expect(warnings).toEqual([]);
    expect(() => readForgeMaterialMap(mapFile({ CM_A: 'Eartth' }))).toThrow(/"Eartth" is not a skate\. surface/);
  });
});
