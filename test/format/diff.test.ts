// The golden diff helper: its layout covers every byte exactly once and its report names the record that differs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeLayout, describeNode, diffResources } from '../../src/format/diff.ts';

const golden = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../golden/${name}.physics`, import.meta.url)));

describe('describeLayout', () => {
  it('tiles the multi-shape golden exactly: every byte in one region, in order', () => {
    const bytes = golden('multi-object');
    const { regions, problem } = describeLayout(bytes);
    expect(problem).toBeUndefined();
    let pos = 0;
    for (const r of regions) {
      expect(r.at, r.name).toBe(pos);
      pos += r.size;
    }
    expect(pos).toBe(bytes.length);
    const names = regions.map((r) => r.name);
    expect(names).toContain('body');
    expect(names).toContain('part[3].material');
    expect(names).toContain('shape[2].tree[0]');
    expect(names).toContain('shape[3].faceOffsets');
    // The 8 zero bytes after the last tree are fill, and they are the file's end.
    const last = regions[regions.length - 1];
    expect(last.name).toMatch(/^fill/);
    expect(Array.from(bytes.subarray(last.at))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('reports a truncated resource as a problem, not a crash', () => {
    const { problem } = describeLayout(golden('box').subarray(0, 0x40));
    expect(problem).toMatch(/hexdiff/);
  });
});

describe('diffResources', () => {
  it('is empty for identical bytes', () => {
    expect(diffResources(golden('box'), golden('box'))).toEqual([]);
  });

  it('names the tree node and decodes its fields', () => {
    const a = golden('bumpy-100');
    const b = a.slice();
    const node5 = describeLayout(a).regions.find((r) => r.name === 'shape[0].tree[5]')!;
    b[node5.at] ^= 1;
    const out = diffResources(a, b).join('\n');
    expect(out).toContain('shape[0].tree[5]');
    expect(out).toMatch(/min q\(/);
    expect(out).not.toContain('shape[0].tree[4]');
  });

  it('names a part word and shows both values', () => {
    const a = golden('multi-object');
    const b = a.slice();
    const mat = describeLayout(a).regions.find((r) => r.name === 'part[2].material')!;
    new DataView(b.buffer).setUint32(mat.at, 0x20, true);
    const out = diffResources(a, b).join('\n');
    expect(out).toContain('part[2].material');
    expect(out).toContain('expected 352 (0x160)');
    expect(out).toContain('actual   32 (0x20)');
  });

  it('matches records by name when everything after a body shifts', () => {
    const out = diffResources(golden('box'), golden('box-studio-header')).join('\n');
    expect(out).toContain('body: only in actual');
    expect(out).toContain('header.word08');
    expect(out).not.toContain('shape[0].vertices'); // same bytes, other offset: not a difference
  });

  it('describes node words field by field', () => {
    expect(describeNode(1n | (1n << 30n) | (511n << 42n) | (1n << 63n))).toBe(
      '0x8007fc0040000001 min q(1,0,0) own(y1,z0) max q(0,511,0) own(x0,y0,z1)',
    );
  });
});
