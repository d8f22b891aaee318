// The report's key palette, one rule for every writer: the page (main.ts here, bundled with three.js; this file is
// in page/ so the bundle cache key, which hashes page/*.ts, follows it) and the glTF export (src/export/gltf.ts base
// colours via src/report/surfaces.ts keyColourRgb). Pure numbers, no imports.

/** HSL saturation and lightness of every key colour (sRGB). */
export const KEY_SATURATION = 0.55;
export const KEY_LIGHTNESS = 0.55;

/** Hue (0 … 1) of an integer key: golden-ratio hashing spreads neighbouring keys apart. */
export function keyHue(k: number): number {
  return ((Math.imul(k + 1, 0x9e3779b1) >>> 0) % 360) / 360;
}
