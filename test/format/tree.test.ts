import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Box6, decodeNode, nodeBoxes, nodeHex, treeDepth } from '../../src/format/tree.ts';

const bits = (h: string): number => new Float32Array(new Uint32Array([parseInt(h, 16)]).buffer)[0];
const hexOf = (v: number): string => new Uint32Array(new Float32Array([v]).buffer)[0].toString(16).padStart(8, '0');
const { vectors } = JSON.parse(readFileSync(new URL('./tree-vectors.json', import.meta.url), 'utf8')) as {
  vectors: { parent: string[]; node: string; children: string[] }[];
};

describe('decodeNode against the reference decode_node', () => {
  it('has the committed vectors', () => expect(vectors.length).toBeGreaterThanOrEqual(300));
  it('matches every vector bit for bit', () => {
    const bad: string[] = [];
    for (const v of vectors) {
      const parent = v.parent.map(bits) as Box6;
      const lo = parseInt(v.node.slice(8), 16);
      const hi = parseInt(v.node.slice(0, 8), 16);
      const [l, r] = decodeNode(parent, lo, hi);
      const got = [...l, ...r].map(hexOf);
      if (got.join() !== v.children.join()) bad.push(`${v.node}: got ${got.join(' ')} want ${v.children.join(' ')}`);
    }
    expect(bad).toEqual([]);
  });
  it('puts the owner bits where the spec says', () => {
    const unit: Box6 = [0, 0, 0, 1, 1, 1];
    const q = (256 | (256 << 10) | (256 << 20)) >>> 0;
    const qh = (256 | (128 << 10) | (256 << 19)) >>> 0;
    expect(decodeNode(unit, q, qh)).toEqual([unit, [0.25, 0.25, 0.25, 0.75, 0.75, 0.75]]);
    expect(decodeNode(unit, (q | (1 << 30)) >>> 0, qh)[0]).toEqual([0, 0.25, 0, 1, 1, 1]);
    expect(decodeNode(unit, (q | (1 << 31)) >>> 0, qh)[0]).toEqual([0, 0, 0.25, 1, 1, 1]);
    expect(decodeNode(unit, q, (qh | (1 << 29)) >>> 0)[0]).toEqual([0, 0, 0, 0.75, 1, 1]);
    expect(decodeNode(unit, q, (qh | (1 << 31)) >>> 0)[1]).toEqual([0.25, 0.25, 0.25, 0.75, 0.75, 1]);
  });
});

describe('tree helpers', () => {
  it('depth of a complete heap tree', () => {
    expect([0, 1, 2, 3, 4, 5, 12, 2048, 2049].map(treeDepth)).toEqual([0, 0, 1, 2, 2, 3, 4, 11, 12]);
  });
  it('node boxes: root is the bounds, children decoded per node', () => {
    const boxes = nodeBoxes([0, 0, 0, 1, 1, 1], new Uint32Array([512, 0]), 2);
    expect(Array.from(boxes)).toEqual([0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0.5, 0, 0, 1, 1, 1]);
  });
  it('prints nodes hi word first', () => expect(nodeHex(0x10, 0xabc)).toBe('00000abc00000010'));
});
