import { describe, expect, it } from 'vitest';
import { convexValue, convexValueFast } from '../../src/geometry/edges.ts';
import { prng } from '../fixtures/meshes.ts';

describe('convexValueFast', () => {
  it('equals convexValue bit for bit (random d, d near ±1, f32 d, the ends)', () => {
    const rnd = prng(7);
    const ds = [-1, 1, 0, -0, 0.5, -0.5, Math.cos((0.1 * Math.PI) / 180), -1 + 1e-12, 1 - 1e-12];
    for (let i = 0; i < 200_000; i++) {
      const u = rnd();
      ds.push(u * 2 - 1, -1 + u * 1e-6, 1 - u * 1e-3, Math.fround(u * 2 - 1));
    }
    // d whose half-angle cosine lies on an f32 rounding midpoint: the guarded fallback must decide these.
    const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
    for (let i = 0; i < 2000; i++) {
      f32[0] = rnd();
      const lo = f32[0];
      u32[0]++;
      const mid = (lo + f32[0]) / 2;
      ds.push(2 * mid * mid - 1);
    }
    let mismatches = 0;
    for (const d of ds) if (!Object.is(convexValueFast(d), convexValue(d))) mismatches++;
    expect(mismatches).toBe(0);
  });
});
