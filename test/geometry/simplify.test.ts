// --simplify's simplifier: a dense 1 m box (the "statue" the density cut cannot help) comes down under the game's
// limit with its 12 edges still grindable, within the error; a group under the limit is never touched.
import { describe, expect, it } from 'vitest';
import { simplifyGroup } from '../../src/geometry/simplify.ts';
import { encodeResource } from '../../src/geometry/resource.ts';
import { GRIND_DENSITY_LIMIT, resourceGrind } from '../../src/format/grind-map.ts';
import { denseBox } from '../fixtures/grind.ts';

describe('simplify', () => {
  it('brings a dense 1 m box under the limit, its 12 edges still grindable, within the error', async () => {
    const box = denseBox(0.5, 40); // 19,200 triangles over a 1.73 m diagonal: ~33,000 half-edges per metre
    const s = (await simplifyGroup(box.positions, box.indices, 0.005))!;
    expect(s.before).toBe(19_200);
    expect(s.densityBefore).toBeGreaterThan(30_000);
    expect(s.densityAfter).toBeLessThan(GRIND_DENSITY_LIMIT);
    expect(s.error).toBeLessThanOrEqual(0.005);
    const g = resourceGrind(encodeResource([{ name: 'box', positions: box.positions, indices: s.indices, material: 0x60 }]).resource);
    expect(g.parts[0].excluded).toBeNull();
    expect(g.metres).toBeCloseTo(12, 4);
    // Every kept vertex is an input vertex: the indices name the input's own positions.
    for (const v of s.indices) expect(v).toBeLessThan(box.positions.length / 3);
  });
  it('never changes a group under the limit', async () => {
    const box = denseBox(5, 4); // 192 triangles over 17 m
    expect(await simplifyGroup(box.positions, box.indices, 0.01)).toBeNull();
  });
});
