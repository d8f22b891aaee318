// Hostile YBN input, like the codec's: every truncated prefix, bad magic and page flags, pointers outside their
// segment, counts past the end, corrupted deflate, cyclic and too-deep composites → an Error naming the field
// (FormatError: stage, offset, expected and found), never a crash, a hang or a huge allocation.
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/format/cursor.ts';
import { readBoundTree } from '../../../src/import/ybn/bounds.ts';
import { parseYbn } from '../../../src/import/ybn/index.ts';
import { ResourceReader } from '../../../src/import/ybn/rsc7.ts';
import { readBoundXml } from '../../../src/import/ybn/xml.ts';
import { boxBound, compositeLevel, everyPolygon, FIXTURES, twoTriangles, wrapBody, writeYbn, writeYbnXml, type FxBound } from '../../fixtures/ybn.ts';

const noWarn = (): void => {};
const parse = (bytes: Uint8Array): unknown => parseYbn(bytes, 'hostile.ybn', noWarn);
const tree = (body: Uint8Array, systemSize: number, graphicsSize = 0): unknown =>
  readBoundTree(new ResourceReader({ body, systemSize, graphicsSize }, 'ybn: hostile.ybn'), noWarn);

/** Runs f, expecting a FormatError (or an Error with the ybn prefix); returns the message. */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect((e as Error).message).toMatch(/^ybn(-xml)?: /);
    return (e as Error).message;
  }
  throw new Error('accepted');
}

const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
const sysPtr = (b: Uint8Array, at: number): number => dv(b).getUint32(at, true) & 0x0fffffff;
const patch = (b: Uint8Array, at: number, v: number): Uint8Array => {
  const c = b.slice();
  dv(c).setUint32(at, v >>> 0, true);
  return c;
};

describe('every truncated prefix', () => {
  for (const [name, make] of Object.entries(FIXTURES)) {
    it(`${name}: of the .ybn file`, () => {
      const { file } = writeYbn(make());
      for (let n = 0; n < file.length; n++) {
        const message = refusal(() => parse(file.subarray(0, n)));
        expect(message).toMatch(n < 16 ? /RSC7 (magic|version)|page flags|needs \d+ bytes/ : /deflate body|page flags .* cannot hold/);
      }
    });
    it(`${name}: of the inflated body (a stream that ends early)`, () => {
      const { body, systemSize, graphicsSize } = writeYbn(make());
      let refused = 0;
      const limit = name === 'every_polygon' ? 4096 : body.length;
      for (let n = 0; n < limit; n++) {
        try {
          tree(body.subarray(0, n), systemSize, graphicsSize);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
          expect((e as Error).message).toMatch(/^ybn: hostile\.ybn: at 0x[0-9a-f]+: .*(needs \d+ bytes|has \d+ left)/);
          refused++;
        }
      }
      // Every prefix that cuts into the structures is refused (the unread tail is padding and unknown fields).
      expect(refused).toBeGreaterThanOrEqual(Math.min(limit, 0x70));
    });
  }

  it('a short stream is read as far as it goes, with a warning, then refused where data is missing', () => {
    const { body, systemSize, graphicsSize } = writeYbn(twoTriangles());
    const warnings: string[] = [];
    const short = wrapBody(body.subarray(0, 0x100), systemSize, graphicsSize);
    expect(() => parseYbn(short, 'short.ybn', (m) => void warnings.push(m))).toThrow(/geometry record: needs 304 bytes, the system segment has 256 left/);
    expect(warnings).toEqual([expect.stringMatching(/inflates to 256 bytes, the page flags declare \d+; reading what is there/)]);
  });
});

describe('container', () => {
  const { file } = writeYbn(boxBound());
  it('bad magic', () => {
    expect(refusal(() => parse(patch(file, 0, 0x37435352 ^ 0xff)))).toMatch(/RSC7 magic: expected "RSC7" \(0x37435352\), found "\.SC7" \(0x374353ad\); not a compiled YBN resource/);
    expect(refusal(() => parse(new TextEncoder().encode('glTF....not a ybn')))).toMatch(/found "glTF"/);
  });
  it('bad page flags: no system segment, more than the limit, more than the stream can hold, less than it holds', () => {
    expect(refusal(() => parse(patch(file, 8, 0x20000000)))).toMatch(/system page flags 0x20000000: declare a 0-byte system segment/);
    expect(refusal(() => parse(patch(file, 8, 0x2ffffffff & 0xffffffff)))).toMatch(/declare \d+ bytes, more than the 268435456-byte limit/);
    expect(refusal(() => parse(patch(file, 8, (1 << 4) | 2)))).toMatch(/declare 524288 bytes, which a \d+-byte deflate stream cannot hold/);
    const { file: big } = writeYbn(everyPolygon());
    expect(refusal(() => parse(patch(big, 8, 1 << 27)))).toMatch(/deflate body: inflates to more than the \d+ bytes the page flags declare/);
  });
  it('a corrupted deflate stream', () => {
    const { file: f } = writeYbn(compositeLevel());
    for (const at of [16, 17, 20, 40, f.length - 3]) {
      const c = f.slice();
      c[at] ^= 0xa5;
      try {
        parse(c);
      } catch (e) {
        expect((e as Error).message).toMatch(/^ybn: hostile\.ybn: at 0x[0-9a-f]+: (deflate body: (corrupt|inflates)|.*)/);
      }
    }
    const garbage = file.slice(0, 16 + 64);
    for (let i = 16; i < garbage.length; i++) garbage[i] = (i * 97 + 13) & 0xff;
    expect(refusal(() => parse(garbage))).toMatch(/deflate body: corrupt/);
    expect(refusal(() => parse(file.subarray(0, 16)))).toMatch(/deflate body: missing/);
  });
});

describe('pointers and counts', () => {
  const comp = writeYbn(compositeLevel());
  const quad = writeYbn(twoTriangles());
  const poly = writeYbn(everyPolygon());

  it('pointers outside their segment, of another base, with a high word', () => {
    const { body, systemSize } = comp;
    const children = sysPtr(body, 0x70);
    expect(refusal(() => tree(patch(body, children, 0x50000000 + systemSize + 16), systemSize))).toMatch(/child 0 pointer 0x5[0-9a-f]+: system offset 0x[0-9a-f]+ is outside the 0x[0-9a-f]+-byte system segment/);
    expect(refusal(() => tree(patch(body, children, 0x70000010), systemSize))).toMatch(/child 0 pointer: expected a system \(0x5…\) or graphics \(0x6…\) address, found 0x70000010/);
    expect(refusal(() => tree(patch(body, children + 4, 1), systemSize))).toMatch(/child 0 pointer: expected a 32-bit resource address, found high word 0x1/);
    expect(refusal(() => tree(patch(body, children, 0x60000000), systemSize))).toMatch(/graphics offset 0x0 is outside the 0x0-byte graphics segment/);
    expect(refusal(() => tree(patch(body, 0x90, 0x50000000 + systemSize - 8), systemSize))).toMatch(/bound root \(composite\): child flags \(4 × 8 bytes\): needs 32 bytes, the system segment has 8 left/);
    // The BVH geometry's vertices live in the graphics segment.
    expect(refusal(() => tree(patch(poly.body, 0xb0, 0x60000000 + poly.graphicsSize), poly.systemSize, poly.graphicsSize))).toMatch(/quantized vertices pointer 0x6[0-9a-f]+: graphics offset .* outside the 0x[0-9a-f]+-byte graphics segment/);
    // A span that starts inside the system segment but runs past its end.
    expect(refusal(() => tree(patch(quad.body, 0xb0, 0x50000000 + quad.systemSize - 8), quad.systemSize))).toMatch(/quantized vertices \(4 × 6 bytes\): needs 24 bytes, the system segment has 8 left/);
  });

  it('counts past the end, refused before anything is allocated', () => {
    const { body, systemSize } = quad;
    expect(refusal(() => tree(patch(body, 0xd0, 60_000), systemSize))).toMatch(/quantized vertices \(60000 × 6 bytes\): needs 360000 bytes/);
    expect(refusal(() => tree(patch(body, 0xd4, 0xffffffff), systemSize))).toMatch(/polygon count 4294967295 is more than 65535/);
    expect(refusal(() => tree(patch(body, 0xd4, 40_000), systemSize))).toMatch(/polygons \(40000 × 16 bytes\): needs 640000 bytes/);
    expect(refusal(() => tree(patch(body, 0x120, 0xff), systemSize))).toMatch(/materials \(255 × 8 bytes\): needs 2040 bytes/);
    expect(refusal(() => tree(patch(body, 0xb0, 0), systemSize))).toMatch(/quantized vertices: null pointer with a count of 4/);
    const c = comp;
    expect(refusal(() => tree(patch(c.body, 0xa0, 0xffff | (0xffff << 16)), c.systemSize))).toMatch(/child bound pointers \(65535 × 8 bytes\): needs 524280 bytes/);
  });

  it('a vertex index past the vertex count names the polygon; the triangle flag bit is not an index bit', () => {
    const { body, systemSize } = quad;
    const polys = sysPtr(body, 0x88);
    // Polygon 1's first word 0x8000 | 0 is fine; 0x7fff (masked) is not a vertex.
    expect(refusal(() => tree(patch(body, polys + 16 + 4, 0x7fff), systemSize))).toMatch(/polygon 1 \(triangle\) vertex 1: vertex 32767 ≥ vertex count 4/);
    const p = poly;
    const sphere = sysPtr(p.body, 0x88) + 32;
    expect(refusal(() => tree(patch(p.body, sphere, 0xffff0001), p.systemSize, p.graphicsSize))).toMatch(/polygon 2 \(sphere\) centre: vertex 65535 ≥ vertex count 40001/);
    const bad = p.body.slice();
    dv(bad).setFloat32(sphere + 4, Number.NaN, true);
    expect(refusal(() => tree(bad, p.systemSize, p.graphicsSize))).toMatch(/polygon 2 \(sphere\) radius NaN is not a finite non-negative number/);
  });

  it('a non-finite child transform', () => {
    const { body, systemSize } = comp;
    const transforms = sysPtr(body, 0x78);
    const bad = body.slice();
    dv(bad).setFloat32(transforms + 48, Number.POSITIVE_INFINITY, true);
    expect(refusal(() => tree(bad, systemSize))).toMatch(/bound root \(composite\): child 0 transform is not finite/);
  });
});

describe('composite structure', () => {
  it('cycles: a child pointing at its own composite, or at an ancestor', () => {
    const { body, systemSize } = writeYbn(compositeLevel());
    const children = sysPtr(body, 0x70);
    expect(refusal(() => tree(patch(body, children + 8, 0x50000000), systemSize))).toMatch(/bound root \(composite\): child 1 points back to the composite at 0x0 that contains it \(a cycle\)/);
    const nested = sysPtr(body, children + 16);
    const nestedChildren = sysPtr(body, nested + 0x70);
    expect(refusal(() => tree(patch(body, nestedChildren, 0x50000000), systemSize))).toMatch(/bound 2 \(composite\): child 0 points back to the composite at 0x0/);
    expect(refusal(() => tree(patch(body, nestedChildren, 0x50000000 + nested), systemSize))).toMatch(/bound 2 \(composite\): child 0 points back to the composite at 0x[0-9a-f]+ that contains it/);
  });

  it('nesting deeper than 16 composites', () => {
    let b: FxBound = boxBound();
    for (let i = 0; i < 20; i++) b = { kind: 'composite', children: [{ bound: b }] };
    const { body, systemSize } = writeYbn(b);
    expect(refusal(() => tree(body, systemSize))).toMatch(/composites nested more than 16 deep/);
    expect(refusal(() => readBoundXml(writeYbnXml(b), 'ybn-xml: deep.ybn.xml', noWarn))).toMatch(/composites nested more than 16 deep/);
  });

  it('shared children that expand past the bound limit (a lattice: 2^16 paths from 16 records)', () => {
    // Composite k (k = 0..15) at 0x100·k has two child pointers, both to composite k + 1; composite 16 is a box.
    const body = new Uint8Array(0x100 * 17 + 0x100);
    const d = dv(body);
    for (let k = 0; k <= 16; k++) {
      const at = 0x100 * k;
      d.setUint8(at + 0x10, k === 16 ? 3 : 10);
      if (k === 16) continue;
      d.setUint32(at + 0x70, 0x50000000 + at + 0xc0, true);
      d.setUint16(at + 0xa0, 2, true);
      d.setUint16(at + 0xa2, 2, true);
      d.setUint32(at + 0xc0, 0x50000000 + at + 0x100, true);
      d.setUint32(at + 0xc8, 0x50000000 + at + 0x100, true);
    }
    const t0 = performance.now();
    expect(refusal(() => tree(body, body.length))).toMatch(/more than 100000 bounds|nested more than 16 deep/);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});

describe('XML', () => {
  const xml = writeYbnXml(compositeLevel());
  const read = (text: string): unknown => readBoundXml(text, 'ybn-xml: hostile.ybn.xml', noWarn);
  it('not well-formed, no <Bounds>, a bad number, an index past the vertices, a bad transform', () => {
    expect(refusal(() => read(xml.slice(0, xml.length / 2)))).toMatch(/not well-formed XML at line \d+, column \d+/);
    expect(refusal(() => read('<BoundsFile><Nothing/></BoundsFile>'))).toMatch(/<BoundsFile> holds no <Bounds> element/);
    expect(refusal(() => read(xml.replace('<SphereRadius value="0"', '<SphereRadius value="zero"')))).toMatch(/<SphereRadius> value "zero" is not a finite number/);
    expect(refusal(() => read(xml.replace('v3="3"', 'v3="9"')))).toMatch(/bound 0 \(geometry\): polygon 1 <Triangle>: v3: vertex 9 ≥ vertex count 4/);
    expect(refusal(() => read(xml.replace(/<CompositeTransform>\n[^<]*<\/CompositeTransform>/, '<CompositeTransform>1 2 3</CompositeTransform>')))).toMatch(/<CompositeTransform> has 3 numbers, expected 16/);
    expect(refusal(() => read(xml.replace('<Item type="Box">', '<Item>')))).toMatch(/bound 1: <Item> has no type attribute/);
  });
  it('every truncated prefix (by 7-character steps) is refused with a message', () => {
    for (let n = 0; n < xml.length - 20; n += 7) refusal(() => read(xml.slice(0, n)));
  });
});
