// Names for packed material words on the report page: the material slot's sound id from the surface catalog
// (src/import/materials.ts, ../shared/data/collision_surface_catalog.json), with the word in hex.
import { materialSlot, propertySlot, SURFACE_CATALOG } from '../import/materials.ts';
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

/** An sRGB channel (0–1) as linear light, what glTF's baseColorFactor holds. */
const srgbToLinear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

/**
 * Linear RGB of the report page's colour for an integer key (src/report/page/palette.ts, the rule the page's keyColour
 * uses), for writers outside the page (src/export/gltf.ts baseColor): HSL → sRGB → linear.
 */
export function keyColourRgb(k: number): [number, number, number] {
  return hslRgb(keyHue(k), KEY_SATURATION, KEY_LIGHTNESS).map(srgbToLinear) as [number, number, number];
}

/**
 * The report's fixed surface palette (docs/cli.md "Collision report"): a packed word's colour depends on the word
 * alone, so a surface has the same colour in every report. Hue from the material slot by the golden angle
 * (slot × 137.508°, so neighbouring slots land far apart), turned by 47° per property slot; saturation 0.62 and
 * lightness 0.56, 0.42 or 0.70 by slot mod 3. In HSL, as sRGB "#rrggbb".
 */
export function surfaceColour(word: number): string {
  const slot = materialSlot(word), prop = propertySlot(word);
  return hslHex(((slot * 137.508 + prop * 47) % 360) / 360, 0.62, [0.56, 0.42, 0.7][slot % 3]);
}

/** surfaceColour as linear RGB (0–1), for writers outside the page (src/export/gltf.ts baseColorFactor). */
export function surfaceColourLinear(word: number): [number, number, number] {
  const hex = surfaceColour(word);
  return [1, 3, 5].map((i) => srgbToLinear(parseInt(hex.slice(i, i + 2), 16) / 255)) as [number, number, number];
}

/** Fallbacks for a word whose palette colour lies too near an earlier one of the same level: fixed, in order. */
const SHIFTS: [number, number, number][] = [[0.5, 0, 0], [0, 0, 0.2], [0, 0, -0.2], [0.25, 0, 0.12], [0.75, 0, -0.12], [0.12, -0.3, 0], [0.62, -0.3, 0.15]];

/** Least distance in sRGB (0–255 per channel, Euclidean) at which two surfaces of one level count as distinct. */
export const MIN_SURFACE_DISTANCE = 72;

/**
 * The colours of one level's surfaces: each word its palette colour (surfaceColour), in increasing word order;
 * a word whose colour lies within MIN_SURFACE_DISTANCE of an earlier word's takes the first fixed shift that does
 * not (else the farthest one), so no two surfaces of a level share a colour. `shifted` names those words.
 */
export function levelSurfaceColours(words: Iterable<number>): { colours: Record<string, string>; shifted: number[] } {
  const colours: Record<string, string> = {};
  const shifted: number[] = [];
  const taken: number[][] = [];
  const rgb = (hex: string): number[] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const nearest = (c: number[]): number => taken.reduce((d, t) => Math.min(d, Math.hypot(c[0] - t[0], c[1] - t[1], c[2] - t[2])), Infinity);
  for (const w of [...new Set(words)].sort((a, b) => a - b)) {
    let hex = surfaceColour(w);
    if (nearest(rgb(hex)) < MIN_SURFACE_DISTANCE) {
      const slot = materialSlot(w), prop = propertySlot(w);
      const h = ((slot * 137.508 + prop * 47) % 360) / 360, l = [0.56, 0.42, 0.7][slot % 3];
      const options = SHIFTS.map(([dh, ds, dl]) => hslHex((h + dh) % 1, Math.max(0.15, 0.62 + ds), Math.min(0.85, Math.max(0.25, l + dl))));
      const free = options.find((o) => nearest(rgb(o)) >= MIN_SURFACE_DISTANCE && !Object.values(colours).includes(o));
      hex = free ?? options.reduce((a, b) => (nearest(rgb(b)) > nearest(rgb(a)) ? b : a));
      shifted.push(w);
    }
    colours[String(w)] = hex;
    taken.push(rgb(hex));
  }
  return { colours, shifted };
}

/** HSL (each 0–1) → sRGB channels (0–1), CSS's rule (three.js Color.setHSL gives the same). */
function hslRgb(h: number, s: number, l: number): [number, number, number] {
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
  const hue = (t: number): number => {
    t = (t + 1) % 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [hue(h + 1 / 3), hue(h), hue(h - 1 / 3)];
}

function hslHex(h: number, s: number, l: number): string {
  return `#${hslRgb(h, s, l).map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('')}`;
}
