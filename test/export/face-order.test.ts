// src/export/face-order.ts and positions.ts on their own: the tree's decisions recomputed from stored faces, the
// refusal of faces no input order gives, and world values that recentre to the stored ones.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeOrder, treeBarriers } from '../../src/export/face-order.ts';
import { worldPositions } from '../../src/export/positions.ts';
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

  it('a −0.0 part position is refused (glTF cannot write −0.0)', () => {
    const { s, position } = shape('negative-zero');
    expect(Object.is(position[1], -0)).toBe(true);
    expect(worldPositions(s.vertices, position)).toMatch(/^axis y: /);
  });
});
