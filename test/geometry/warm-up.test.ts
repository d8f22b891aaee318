// The encoder's JIT warm-up (src/geometry/warm-up.ts) runs every encoder step on its procedural meshes, and the
// resources it lays out are valid (the codec's verifier passes them) — so it exercises the real paths.
import { describe, expect, it } from 'vitest';
import { warmUpEncoder, warmUpMesh, WARM_UP_ROUNDS } from '../../src/geometry/warm-up.ts';
import { encodeResource } from '../../src/geometry/resource.ts';

describe('warmUpEncoder', () => {
  it('encodes and writes a resource each round, the same bytes every time', () => {
    const one = warmUpEncoder(1), two = warmUpEncoder(2);
    expect(one).toBeGreaterThan(100_000);
    expect(two).toBeGreaterThan(one); // the second round splits (more shapes)
    expect(warmUpEncoder(2)).toBe(two);
    expect(WARM_UP_ROUNDS).toBeGreaterThanOrEqual(2);
  });

  it('its mesh has flat, convex and concave edges, and the split round gives several pieces', () => {
    const { positions, indices } = warmUpMesh(44);
    const { stats } = encodeResource([{ name: 'w', positions, indices, material: 0x20 }], { maxFaces: 1000 });
    const e = stats.objects[0].stats.edges;
    expect(e.flat).toBeGreaterThan(0);
    expect(e.convex).toBeGreaterThan(0);
    expect(e.concave + e.concaveSharp).toBeGreaterThan(0);
    expect(stats.shapes).toBeGreaterThanOrEqual(4);
  });
});
