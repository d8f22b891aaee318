// The grind map over encoded resources: the crease angle, concave corners, surfaces that exclude edges, density.
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../src/geometry/resource.ts';
import { GRIND_CREASE_DEGREES, GRIND_DENSITY_LIMIT, halfEdgeDensity, resourceGrind, surfaceExcludesGrind } from '../../src/format/grind-map.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import { foldedSheet, heightGrid, ledgeTerrain } from '../fixtures/grind.ts';

const CONCRETE = 0x60;
const GRASS = 0x260;
const encode = (m: { positions: number[]; indices: number[] }, material = CONCRETE) =>
  encodeResource([{ name: 'm', positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices), material }]).resource;
// The map is read from the bytes as written, as the compiler and inspect read it.
const written = (m: { positions: number[]; indices: number[] }, material = CONCRETE) => readPhysicsResource(writePhysicsResource(encode(m, material)));

describe('grind map', () => {
  it('grinds a 31° convex fold and not a 29° one', () => {
    expect(GRIND_CREASE_DEGREES).toBe(30);
    const at31 = resourceGrind(written(foldedSheet(31)), true);
    expect(at31.edges).toBe(4);
    expect(at31.metres).toBeCloseTo(2, 5);
    const seg = at31.parts[0].segments!;
    for (let k = 0; k < seg.length; k += 3) expect(seg[k]).toBeCloseTo(2, 5); // every grind edge lies on the fold, x = 2
    expect(resourceGrind(written(foldedSheet(29))).edges).toBe(0);
  });
  it('does not grind a concave fold of any angle', () => {
    const valley = heightGrid({ nx: 8, nz: 4, cell: 0.5, height: (x) => (x > 2 ? (x - 2) * Math.tan(1) : 0) });
    expect(resourceGrind(written(valley)).edges).toBe(0);
  });
  it('grinds a concrete ledge and not a grass one (ExcludeFromEdgeGeneration)', () => {
    const ledge = heightGrid({ nx: 16, nz: 8, cell: 0.5, height: (x) => (x >= 3.5 && x <= 4.5 ? 0.4 : 0) });
    const concrete = resourceGrind(written(ledge, CONCRETE));
    expect(concrete.edges).toBe(16); // two lips of 4 m, 8 edges each
    expect(concrete.metres).toBeCloseTo(8, 5);
    expect(surfaceExcludesGrind(GRASS)).toBe('ExcludeFromEdgeGeneration');
    expect(surfaceExcludesGrind(CONCRETE)).toBeNull();
    const grass = resourceGrind(written(ledge, GRASS));
    expect(grass.edges).toBe(0);
    expect(grass.parts[0]).toMatchObject({ creases: 16, excluded: 'surface', property: 'ExcludeFromEdgeGeneration' });
  });
  it('measures density as Studio does and drops a part over the limit', () => {
    expect(halfEdgeDensity(300, [0, 0, 0], [3, 4, 0])).toBe(60);
    const res = written(ledgeTerrain());
    const g = resourceGrind(res);
    expect(g.parts).toHaveLength(1);
    expect(g.parts[0].density).toBeCloseTo(38_400 / Math.hypot(20, 20, 0.4), 3);
    expect(g.parts[0].density).toBeGreaterThan(GRIND_DENSITY_LIMIT);
    expect(g.parts[0]).toMatchObject({ creases: 160, edges: 0, excluded: 'dense' });
  });
});
