// The report's fixed surface palette (src/report/surfaces.ts): a word's colour depends on the word alone, and one
// level's surfaces never share a colour.
import { describe, expect, it } from 'vitest';
import { SURFACE_CATALOG } from '../../src/import/materials.ts';
import { levelSurfaceColours, MIN_SURFACE_DISTANCE, surfaceColour } from '../../src/report/surfaces.ts';

const rgb = (hex: string): number[] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const distance = (a: string, b: string): number => Math.hypot(...rgb(a).map((v, k) => v - rgb(b)[k]));

describe('the surface palette', () => {
  it('gives a word the same colour whatever else the level holds', () => {
    expect(surfaceColour(0x60)).toMatch(/^#[0-9a-f]{6}$/);
    expect(surfaceColour(0x60)).toBe(surfaceColour(0x60));
    const a = levelSurfaceColours([0x60, 0x160]).colours, b = levelSurfaceColours([0x1a0, 0x60, 0xf007a0]).colours;
    expect(a['96']).toBe(surfaceColour(0x60));
    expect(b['96']).toBe(surfaceColour(0x60));
  });
  it('never gives two surfaces of one level one colour: every catalog word at once, all distinct', () => {
    const words = [...new Set(SURFACE_CATALOG.networkIdToPackedMaterial.map((v) => (v | 0x20) >>> 0))];
    expect(words.length).toBeGreaterThan(50);
    const { colours } = levelSurfaceColours(words);
    expect(new Set(Object.values(colours)).size).toBe(words.length);
  });
  it('keeps a small level\'s surfaces at least MIN_SURFACE_DISTANCE apart (the skatepark\'s seven words)', () => {
    const words = [0x60, 0x160, 0x1a0, 0xba0, 0xf007a0, 0x2380ba0, 0x2d00320];
    const { colours, shifted } = levelSurfaceColours(words);
    const list = Object.values(colours);
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) expect(distance(list[i], list[j])).toBeGreaterThanOrEqual(MIN_SURFACE_DISTANCE);
    for (const w of words) if (!shifted.includes(w)) expect(colours[String(w)]).toBe(surfaceColour(w));
  });
});
