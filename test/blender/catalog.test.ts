// The Blender add-on's enums (blender/skate_collision/catalog.py) are generated from the compiler's source by
// scripts/blender-catalog.ts: this fails when the file is stale (a mode, a surface or a shape key changed in src/
// without `npm run blender:catalog`), and checks a few entries against the compiler's own tables.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blenderCatalogText, CATALOG_PY } from '../../scripts/blender-catalog.ts';
import { buildSurfaceTable } from '../../src/import/materials.ts';

describe('blender/skate_collision/catalog.py', () => {
  const text = readFileSync(CATALOG_PY, 'utf8');

  it('is what scripts/blender-catalog.ts writes from the source (run npm run blender:catalog when this fails)', () => {
    expect(text).toBe(blenderCatalogText());
  });

  it('lists every surface name of the compiler, each with its word, and every mode', () => {
    const table = buildSurfaceTable();
    for (const [name, word] of table) {
      const own = new RegExp(`\\("${name}", 0x${word.toString(16).padStart(8, '0')}\\)`).test(text);
      const alias = new RegExp(`"${name}":"[a-z_]+"`).test(text);
      expect(own || alias, name).toBe(true);
    }
    expect(text).toMatch(/MODES = \["triangle_mesh","none","water","sphere","capsule","box","cylinder","cone","hull","convex_parts"\]/);
    expect(text).toContain('("concrete", 0x00000060)');
  });
});
