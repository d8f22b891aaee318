// One palette (src/report/page/palette.ts): the glTF export's linear base colours (keyColourRgb) are the colours the
// report page's keyColour makes with three.js (its components drawn as sRGB), converted to linear, so a scene and its report agree.
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { keyColourRgb } from '../../src/report/surfaces.ts';
import { KEY_LIGHTNESS, KEY_SATURATION, keyHue } from '../../src/report/page/palette.ts';

describe('key palette', () => {
  it('keyColourRgb is the page colour three.js makes, for 200 keys', () => {
    for (let k = 0; k < 200; k++) {
      // The page draws three's components as sRGB display values; glTF base colours are linear.
      const c = new THREE.Color().setHSL(keyHue(k), KEY_SATURATION, KEY_LIGHTNESS).convertSRGBToLinear();
      const got = keyColourRgb(k);
      expect(got[0], `key ${k}`).toBeCloseTo(c.r, 6);
      expect(got[1], `key ${k}`).toBeCloseTo(c.g, 6);
      expect(got[2], `key ${k}`).toBeCloseTo(c.b, 6);
    }
  });
});
