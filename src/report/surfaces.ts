// Names for packed material words on the report page: the material slot's sound id from the surface catalog
// (src/import/materials.ts, ../shared/data/collision_surface_catalog.json), with the word in hex.
import { materialSlot, SURFACE_CATALOG } from '../import/materials.ts';
import { KEY_LIGHTNESS, KEY_SATURATION, keyHue } from './page/palette.ts';

/** word → "concrete (0x60)", or "slot 140 (0x2320)" for a slot the catalog does not name. */
export function surfaceNames(): (word: number) => string {
  const sounds = SURFACE_CATALOG.materialSoundIds;
  return (word) => {
    const slot = materialSlot(word);
    const name = sounds[slot];
    return `${name ? name : `slot ${slot}`} (0x${(word >>> 0).toString(16)})`;
  };
}

/**
 * Linear RGB of the report page's colour for an integer key (src/report/page/palette.ts, the rule the page's keyColour
 * uses), for writers outside the page (src/export/gltf.ts baseColor): HSL → sRGB → linear.
 */
export function keyColourRgb(k: number): [number, number, number] {
  const h = keyHue(k);
  const s = KEY_SATURATION, l = KEY_LIGHTNESS;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
  const hue = (t: number): number => {
    t = (t + 1) % 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  const lin = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return [lin(hue(h + 1 / 3)), lin(hue(h)), lin(hue(h - 1 / 3))];
}
