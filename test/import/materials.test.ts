import { describe, expect, it } from 'vitest';
import { BASE_GRID_SLOTS, buildSurfaceTable, finalMaterialWord, materialSlot, normaliseSurfaceName, parsePackedMaterial, propertySlot } from '../../src/import/materials.ts';

describe('surface table derived from the catalog', () => {
  const t = buildSurfaceTable();
  it('gives the values authoring-notes.md lists', () => {
    expect(t.get('concrete')).toBe(96);
    expect(t.get('asphalt')).toBe(160);
    expect(t.get('metal')).toBe(352);
    expect(t.get('metal_rail')).toBe(2976);
    expect(materialSlot(t.get('metal_rail')!)).toBe(46);
    expect(t.get('stairs')).toBe(47186720);
    expect(t.get('water')).toBe(0x00f007a0);
    expect(t.get('default')).toBe(0x20);
  });
  it('round rail is metal rail with property slot 71', () => {
    const r = t.get('round_rail')!;
    expect(materialSlot(r)).toBe(46);
    expect(propertySlot(r)).toBe(71);
    expect(r & 0x3f).toBe(0x20);
  });
  it('every value carries the physics-literal flag and a base-grid slot', () => {
    for (const [, v] of t) {
      expect(v & 0x20).toBe(0x20);
      expect(materialSlot(v)).toBeLessThan(BASE_GRID_SLOTS);
    }
    expect(t.get('wood')).toBe(t.get('wood_thin_rough'));
    expect(t.get('grass')).toBe(9 * 64 + 32);
  });
});

describe('names and packed words', () => {
  it('normalises Blender material names', () => {
    expect(normaliseSurfaceName('Concrete.001')).toBe('concrete');
    expect(normaliseSurfaceName(' Metal Rail ')).toBe('metal_rail');
    expect(normaliseSurfaceName('metal-rail')).toBe('metal_rail');
  });
  it('parses numbers, decimal and hex strings; refuses the rest', () => {
    expect(parsePackedMaterial(96)).toBe(96);
    expect(parsePackedMaterial('0x00F007A0')).toBe(0xf007a0);
    expect(parsePackedMaterial('2976')).toBe(2976);
    expect(parsePackedMaterial(-1)).toBeUndefined();
    expect(parsePackedMaterial(1.5)).toBeUndefined();
    expect(parsePackedMaterial('metal')).toBeUndefined();
    expect(parsePackedMaterial(2 ** 32)).toBeUndefined();
  });
  it('adds 0x20 and refuses slots ≥ 116 unless allowed', () => {
    expect(finalMaterialWord(64, false, 'x')).toBe(96);
    const custom = 116 << 6;
    expect(() => finalMaterialWord(custom, false, 'node "a"')).toThrow(/material slot 116 ≥ 116.*--allow-custom-slots/);
    expect(finalMaterialWord(custom, true, 'x')).toBe(custom | 0x20);
  });
});
