// src/export/face-order.ts and positions.ts on their own: the tree's decisions recomputed from stored faces, the
// refusal of faces no input order gives, and world values that recentre to the stored ones.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeOrder, treeBarriers } from '../../src/export/face-order.ts';
import { keyOf, partSpans, recentreSpan, valueOf, worldPositions, WorldSolver } from '../../src/export/positions.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import type { ShapeRecord } from '../../src/format/types.ts';

const shape = (name: string): { s: ShapeRecord; position: [number, number, number] } => {
  const r = readPhysicsResource(new Uint8Array(readFileSync(`test/golden/${name}.physics`)));
  return { s: r.shapes[0], position: r.parts[0].position };
};

/** The shape with faces f and g exchanged in the stored (leaf) order. */
function swapFaces(s: ShapeRecord, f: number, g: number): ShapeRecord {
  const cv = s.cornerVertices.slice();
  for (let j = 0; j < 3; j++) [cv[3 * f + j], cv[3 * g + j]] = [cv[3 * g + j], cv[3 * f + j]];
  return { ...s, cornerVertices: cv };
}

describe('face order', () => {
  it('the box: its tree broke ties by input order (barriers), and the order found uses every face once', () => {
    const { s } = shape('box');
    const b = treeBarriers(s);
    expect(typeof b).not.toBe('string');
    expect((b as unknown[]).length).toBeGreaterThan(0);
    const o = encodeOrder(s);
    if (typeof o === 'string') throw new Error(o);
    expect([...o.order].sort((x, y) => x - y)).toEqual([...Array(12).keys()]);
  });

  it('faces in an order the tree cannot give are refused, naming the node', () => {
    const { s } = shape('bumpy-100');
    expect(treeBarriers(swapFaces(s, 0, 99))).toMatch(/^tree node \d+: /);
    expect(encodeOrder(swapFaces(s, 0, 99))).toMatch(/not in the encoder's tree order/);
  });

  it('a face starting away from its smallest vertex (not v + 1 after v) is refused', () => {
    const { s } = shape('bumpy-3');
    const cv = s.cornerVertices.slice();
    // rotate face 2 to start at its largest vertex
    const f = [cv[6], cv[7], cv[8]];
    const k = f.indexOf(Math.max(...f));
    for (let j = 0; j < 3; j++) cv[6 + j] = f[(k + j) % 3];
    const r = encodeOrder({ ...s, cornerVertices: cv });
    expect(typeof r === 'string' && /does not start at its smallest vertex|numbered before the other|first-numbered/.test(r)).toBe(true);
  });
});

describe('world positions', () => {
  for (const name of ['random-soup', 'far-away-grid', 'box']) {
    it(`${name}: every stored value and the part position come back through the encoder's recentring`, () => {
      const { s, position } = shape(name);
      const w = worldPositions(s.vertices, position);
      if (typeof w === 'string') throw new Error(w);
      const fr = Math.fround;
      for (let j = 0; j < 3; j++) {
        let lo = Infinity, hi = -Infinity;
        for (let v = 0; v < w.length / 3; v++) {
          lo = Math.min(lo, w[3 * v + j]);
          hi = Math.max(hi, w[3 * v + j]);
        }
        const c = fr(fr(lo + hi) * 0.5);
        expect(c).toBe(position[j]);
        for (let v = 0; v < w.length / 3; v++) expect(fr(w[3 * v + j] - c)).toBe(s.vertices[3 * v + j]);
      }
    });
  }

  it('a −0.0 part position comes back as −0.0 world values, and −0.0 stored about +0.0 as −0.0', () => {
    const { s, position } = shape('negative-zero');
    expect(Object.is(position[1], -0)).toBe(true);
    const w = worldPositions(s.vertices, position);
    expect(typeof w).not.toBe('string');
    const world = w as Float32Array;
    const fr = Math.fround;
    for (let v = 0; v < world.length / 3; v++) {
      // Every y −0.0 (their middle −0.0 again); x −0.0 where it was stored −0.0 about the centre +0.0.
      expect(Object.is(world[3 * v + 1], -0)).toBe(true);
      for (const j of [0, 2]) expect(Object.is(fr(world[3 * v + j] - position[j]), s.vertices[3 * v + j])).toBe(true);
    }
    expect(Array.from(world).filter((x) => Object.is(x, -0)).length).toBeGreaterThan(world.length / 3);
  });

  it('the world values that recentre to a stored value are exactly the span found (its ends and one past them checked)', () => {
    const fr = Math.fround;
    // Near the origin in a part centred far away many values give one stored value back; near the centre one does.
    for (const [c, w] of [[fr(-3.5), fr(1.2e-7)], [fr(50.25), fr(0.0375)], [fr(50.25), fr(49.1)], [fr(-490.5), fr(-0.2195)]]) {
      const l = fr(w - c);
      const span = recentreSpan(c, l)!;
      expect(span[0]).toBeLessThanOrEqual(keyOf(w));
      expect(span[1]).toBeGreaterThanOrEqual(keyOf(w));
      for (const k of span) expect(fr(valueOf(k) - c)).toBe(l);
      expect(fr(valueOf(span[0] - 1) - c)).not.toBe(l);
      expect(fr(valueOf(span[1] + 1) - c)).not.toBe(l);
    }
  });

  it('a vertex two parts store (two cells on a cut) comes back as one world value from both copies\' spans, each recentring to its stored value', () => {
    const fr = Math.fround;
    // The shared point W between a part centred near x −3 and one near x +6: each stores W's x to a few f32 steps,
    // and on its own each part would take another value for it (checked first, so the join is what is tested).
    const W = [fr(1 + 2 * 1.19e-7), fr(0.15), fr(2)];
    const partA = [fr(-7), fr(0.15), fr(2), ...W, fr(-3), fr(1), fr(2)];
    const partB = [...W, fr(9), fr(0.15), fr(2), fr(3), fr(1), fr(2)];
    const centre = (v: number[]): [number, number, number] => [0, 1, 2].map((j) => {
      const xs = [0, 1, 2].map((i) => v[3 * i + j]);
      return fr(fr(Math.min(...xs) + Math.max(...xs)) * 0.5);
    }) as [number, number, number];
    const parts = [partA, partB].map((v) => {
      const c = centre(v);
      return { c, local: Float32Array.from(v, (x, i) => fr(x - c[i % 3])) };
    });
    const alone = parts.map((p) => worldPositions(p.local, p.c) as Float32Array);
    expect(alone[0][3]).not.toBe(alone[1][0]);
    const solver = new WorldSolver();
    for (const p of parts) {
      const s = partSpans(p.local, p.c);
      if (typeof s === 'string') throw new Error(s);
      solver.add(s);
    }
    const [a, b] = solver.solve();
    expect(a.why).toBeNull();
    expect(b.why).toBeNull();
    expect(Array.from(a.world.subarray(3, 6))).toEqual(Array.from(b.world.subarray(0, 3)));
    [a, b].forEach((r, p) => {
      for (let i = 0; i < 9; i++) expect(fr(r.world[i] - parts[p].c[i % 3])).toBe(parts[p].local[i]);
      for (let j = 0; j < 3; j++) expect(fr(fr(Math.min(r.world[j], r.world[3 + j], r.world[6 + j]) + Math.max(r.world[j], r.world[3 + j], r.world[6 + j])) * 0.5)).toBe(parts[p].c[j]);
    });
  });
});

