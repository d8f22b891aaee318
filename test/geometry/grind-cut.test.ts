// The density cut on its own: pieces under the target, a partition of the triangles, creases kept inside, small dense
// meshes left whole.
import { describe, expect, it } from 'vitest';
import { densityCut, GRIND_DENSITY_TARGET, subsetDensity } from '../../src/geometry/grind-cut.ts';
import { encodeResource } from '../../src/geometry/resource.ts';
import { resourceGrind } from '../../src/format/grind-map.ts';
import { heightGrid } from '../fixtures/grind.ts';

const all = (n: number): Uint32Array => Uint32Array.from({ length: n }, (_, i) => i);

describe('density cut', () => {
  // The lip at x = 10 is where a plain median bisection of this grid cuts first: the cut must go around it.
  const lipAtMedian = heightGrid({ nx: 80, nz: 80, cell: 0.25, height: (x) => (x >= 10 - 1e-9 ? 0.4 : 0) });
  const pos = Float32Array.from(lipAtMedian.positions), tris = Uint32Array.from(lipAtMedian.indices);

  it('cuts into a partition of pieces at or under the target', () => {
    const cut = densityCut(pos, tris, all(tris.length / 3), GRIND_DENSITY_TARGET, 21_845);
    expect(cut.dense).toBe(0);
    expect(cut.pieces.length).toBeGreaterThan(1);
    const seen = new Uint8Array(tris.length / 3);
    for (const p of cut.pieces) {
      expect(subsetDensity(pos, tris, p)).toBeLessThanOrEqual(GRIND_DENSITY_TARGET);
      for (let i = 0; i < p.length; i++) {
        if (i) expect(p[i]).toBeGreaterThan(p[i - 1]);
        seen[p[i]]++;
      }
    }
    expect(seen.every((x) => x === 1)).toBe(true);
  });

  it('keeps the lip inside pieces where a median cut would run along it', () => {
    const res = encodeResource([{ name: 't', positions: pos, indices: tris, material: 0x60 }], { density: GRIND_DENSITY_TARGET }).resource;
    const g = resourceGrind(res);
    expect(g.parts.length).toBeGreaterThan(1);
    expect(g.edges).toBe(80);
    expect(g.metres).toBeCloseTo(20, 4);
  });

  it('leaves a small dense object whole (not worth cutting below MIN_PIECE_DIAGONAL)', () => {
    // A 0.5 m sheet of 5 mm cells: 20,000 triangles over a 0.7 m diagonal.
    const fine = heightGrid({ nx: 100, nz: 100, cell: 0.005, height: (x, z) => 0.001 * Math.sin(40 * x + 30 * z) });
    const p = Float32Array.from(fine.positions), t = Uint32Array.from(fine.indices);
    const cut = densityCut(p, t, all(t.length / 3), GRIND_DENSITY_TARGET, 21_845);
    expect(cut.pieces).toHaveLength(1);
    expect(cut.dense).toBe(1);
  });

  it('cuts nothing with density 0 (Studio\'s writer) or under the target', () => {
    const res = encodeResource([{ name: 't', positions: pos, indices: tris, material: 0x60 }]).resource;
    expect(res.parts).toHaveLength(1);
    const small = heightGrid({ nx: 4, nz: 4, cell: 1, height: () => 0 });
    const cut = densityCut(Float32Array.from(small.positions), Uint32Array.from(small.indices), all(32), GRIND_DENSITY_TARGET, 21_845);
    expect(cut.pieces).toHaveLength(1);
  });
});
