// Numbers from YBN and XML input ("YBN and XML numbers": nothing from the file is trusted): the glTF path's world extent and scale limits
// apply (a composite scale of 1e30, a vertex at 1e30, a child placed 1,000 km out: refused naming file, bound and
// numbers); a primitive the triangle limit makes coarser than --chord-error is warned about; XML values too long
// to parse cheaply are refused before parsing, and no message echoes more than a short piece of a value.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readRsc7 } from '../../../src/import/ybn/rsc7.ts';
import { prng } from '../../fixtures/meshes.ts';
import { join } from 'node:path';
import { importYbn, YBN_DEFAULTS } from '../../../src/import/ybn/index.ts';
import { checkXmlCounts, ECHO_CHARS, MAX_XML_ELEMENTS, MAX_XML_VALUE_CHARS, readBoundXml } from '../../../src/import/ybn/xml.ts';
import { tempDir } from '../../fixtures/levels.ts';
import { boxBound, capsuleBound, twoTriangles, wrapBody, writeYbn, writeYbnXml, type FxBound, type FxGeometry } from '../../fixtures/ybn.ts';
import { sharedPath } from '../../fixtures/shared.ts';

const SAMPLES = sharedPath('data/ybn-samples/', 'ybn limits: the real-sample mutants');

const tmp = tempDir('sk8-ybn-limits-');
afterAll(tmp.cleanup);

function writeBoth(name: string, bound: FxBound): [string, string] {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.ybn`), writeYbn(bound).file);
  writeFileSync(join(dir, `${name}.ybn.xml`), writeYbnXml(bound));
  return [join(dir, `${name}.ybn`), join(dir, `${name}.ybn.xml`)];
}

async function refusal(file: string, opts = YBN_DEFAULTS): Promise<string> {
  try {
    await importYbn(file, opts, { warn: () => {} });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${file} was not refused`);
}

const composite = (bound: FxBound, transform: number[]): FxBound => ({ kind: 'composite', children: [{ bound: boxBound() }, { bound, transform }] });

describe('world extent and scale, as the glTF path', () => {
  it('a composite transform scaling by 1e30: refused naming the file, the bound and the numbers (both forms)', async () => {
    for (const file of writeBoth('scale', composite(twoTriangles(), [1e30, 0, 0, 0, 1e30, 0, 0, 0, 1e30, 0, 0, 0]))) {
      const m = await refusal(file);
      expect(m).toMatch(/^ybn(-xml)?: .*scale\.ybn(\.xml)?: bound 1 \(geometry\): vertex 0 \(8, 19, 1\) is at \(8e\+30, 1e\+30, -1\.9e\+31\) in world space .*world scale \(1e\+30, 1e\+30, 1e\+30\).*beyond ±100000 m \(WORLD_EXTENT_M\)/);
    }
  });

  it('a vertex at 1e30 (the geometry centre in .ybn, the vertex itself in .ybn.xml): refused', async () => {
    const far = { ...(twoTriangles() as FxGeometry), centre: [1e30, 0, 0] } as FxGeometry;
    const [bin] = writeBoth('vertex', composite(far, [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]));
    expect(await refusal(bin)).toMatch(/bound 1 \(geometry\): vertex 0 .* is at \(1e\+30, 0, 1\) in world space.*beyond ±100000 m/);
    const dir = join(tmp.dir, 'vertex-xml');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'v.ybn.xml'), writeYbnXml(twoTriangles()).replace(/(<Vertices>\s*)-2, /, '$11e30, '));
    expect(await refusal(join(dir, 'v.ybn.xml'))).toMatch(/^ybn-xml: .*v\.ybn\.xml: bound root \(geometry\): vertex 0 \(1e\+30, 19, 1\) is at \(1e\+30, 1, -19\) in world space.*beyond ±100000 m/);
  });

  it('a scale of 1e-30, a singular transform and a child placed 1,000 km out are refused before any vertex', async () => {
    const [tiny] = writeBoth('tiny', composite(twoTriangles(), [1e-30, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]));
    expect(await refusal(tiny)).toMatch(/bound 1: composite transform .*world axis scales \(1e-30, 1, 1\).* scales an axis below 0\.000001 \(MIN_WORLD_SCALE\)/);
    const [flat] = writeBoth('flat', composite(twoTriangles(), [1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0]));
    expect(await refusal(flat)).toMatch(/bound 1: composite transform .* is a nearly singular matrix \(determinant 0\)/);
    const [out] = writeBoth('out', composite(boxBound(), [1, 0, 0, 0, 1, 0, 0, 0, 1, 1e6, 0, 0]));
    expect(await refusal(out)).toMatch(/bound 1: composite transform .*translation \(1000000, 0, 0\)\) places the child beyond ±100000 m/);
  });

  it('--native-shapes: a box part beyond the extent is refused too', async () => {
    const [bin] = writeBoth('native-far', { ...boxBound(), boxMin: [1e30, 0, 0], boxMax: [1e30 + 1e24, 1, 1] } as FxBound);
    expect(await refusal(bin, { ...YBN_DEFAULTS, nativeShapes: true })).toMatch(/bound root: box at \(1e\+30, .*reaches beyond ±100000 m/);
  });

  it('within the extent nothing changes: the ordinary fixtures still import', async () => {
    const [bin, xml] = writeBoth('ok', composite(twoTriangles(), [1, 0, 0, 0, 1, 0, 0, 0, 1, 99_000, 0, 0]));
    for (const f of [bin, xml]) expect((await importYbn(f, YBN_DEFAULTS, { warn: () => {} })).objects).toHaveLength(2);
  });
});

describe('byte-mutated real files', () => {
  // The case: real files with one float's exponent byte changed (a child transform, a geometry's quantum
  // or centre) compiled to collision 1.6e10 … 8.5e37 m out. Each mutant is now refused or stays within ±100 km.
  it.skipIf(!SAMPLES)('40 mutants of two real samples: refused naming the limit, or within ±100 km', async () => {
    let refused = 0;
    for (const stem of ['m24_2_garment_factory_1', 'vb_20_0']) {
      const file = readFileSync(join(SAMPLES!, `${stem}.ybn`));
      const res = readRsc7(file, 'ybn', () => {});
      const dv = new DataView(res.body.buffer, res.body.byteOffset);
      const at = (off: number): number => dv.getUint32(off, true) - 0x50000000;
      const n = dv.getUint16(0xa0, true);
      const transforms = at(0x78);
      const children = Array.from({ length: n }, (_, i) => at(at(0x70) + 8 * i));
      for (let k = 0; k < 20; k++) {
        const rand = prng(0x5eed + 97 * k + stem.length);
        const body = res.body.slice();
        const c = Math.floor(rand() * n);
        // The high byte of one float: transform column 3 (translation) or 0 (an axis), quantum, or centre.
        const places = [transforms + 64 * c + 48, transforms + 64 * c, children[c] + 0x90, children[c] + 0xa0];
        const where = places[Math.floor(rand() * places.length)] + 4 * Math.floor(rand() * 3) + 3;
        body[where] = 0x50 + Math.floor(rand() * 0x2f); // exponent 2^33 … 2^127
        const dir = join(tmp.dir, `mut-${stem}-${k}`);
        mkdirSync(dir, { recursive: true });
        const path = join(dir, `${stem}.ybn`);
        writeFileSync(path, wrapBody(body, res.systemSize, res.graphicsSize));
        try {
          const r = await importYbn(path, YBN_DEFAULTS, { warn: () => {} });
          for (const o of r.objects) for (const v of o.positions) expect(Math.abs(v), `${stem} mutant ${k} (byte 0x${where.toString(16)}): ${o.name}`).toBeLessThanOrEqual(100_000);
        } catch (e) {
          refused++;
          expect((e as Error).message, `${stem} mutant ${k}`).toMatch(/WORLD_EXTENT_M|MIN_WORLD_SCALE|nearly singular|not finite|triangles; refusing/);
        }
      }
    }
    expect(refused).toBeGreaterThan(20); // most mutants put collision far out
  });
});

describe('primitives coarser than --chord-error', () => {
  it('a 1,000 m capsule: the glTF path\'s warning (triangle limit, the error reached, where)', async () => {
    const big: FxBound = { ...capsuleBound(), margin: 1000, sphereRadius: 1001, boxMin: [-1000, -1001, -1000], boxMax: [1000, 1001, 1000] } as FxBound;
    for (const file of writeBoth('capsule', big)) {
      const warnings: string[] = [];
      await importYbn(file, YBN_DEFAULTS, { warn: (m) => void warnings.push(m) });
      const w = warnings.filter((x) => /chord error/.test(x));
      expect(w, file).toHaveLength(1);
      expect(w[0]).toMatch(/bound root \(capsule\): the capsule needs more than 21845 triangles for a 5 mm chord error; tessellated to (\d+) mm instead \(at \(0, 0, 1\) in the bound's space\)/);
      expect(Number(/tessellated to (\d+)/.exec(w[0])![1])).toBeGreaterThan(100);
    }
  });

  it('a 0.10 m rail capsule at the default 5 mm: no warning', async () => {
    const warnings: string[] = [];
    await importYbn(writeBoth('rail', capsuleBound())[0], YBN_DEFAULTS, { warn: (m) => void warnings.push(m) });
    expect(warnings).toEqual([]);
  });
});

describe('XML: memory per input byte and echoed values', () => {
  it('a 40 MB line is refused before parsing, within a second, with a short message naming line and column', () => {
    const text = writeYbnXml(twoTriangles()).replace('<Vertices>', `<Vertices>${'1 '.repeat(20_000_000)}`);
    const t0 = performance.now();
    let message = '';
    try {
      readBoundXml(text, 'ybn-xml: big.ybn.xml', () => {});
    } catch (e) {
      message = (e as Error).message;
    }
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(message).toMatch(new RegExp(`^ybn-xml: big\\.ybn\\.xml: line \\d+, column \\d+: a value \\(number, name or line\\) of more than ${MAX_XML_VALUE_CHARS} characters`));
    expect(message.length).toBeLessThan(400);
  });

  it('a 40 MB attribute value is refused the same way', () => {
    const text = writeYbnXml(boxBound()).replace('<Margin value="', `<Margin value="${'9'.repeat(40_000_000)}`);
    expect(() => readBoundXml(text, 'ybn-xml: m', () => {})).toThrow(/line 9, column \d+: a value .*refused before parsing/);
  });

  it('a bad value under the cap is echoed cut to 80 characters with its length', () => {
    const junk = 'x'.repeat(4000);
    let message = '';
    try {
      readBoundXml(writeYbnXml(boxBound()).replace('<Margin value="0.03999999910593033"', `<Margin value="${junk}"`), 'ybn-xml: e', () => {});
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe(`ybn-xml: e: bound root (box): <Margin> value "${'x'.repeat(ECHO_CHARS)}"… (4000 characters) is not a finite number`);
  });

  it('a long unknown type name is cut in the warning', () => {
    const warnings: string[] = [];
    const root = readBoundXml(writeYbnXml(boxBound()).replace('type="Box"', `type="${'P'.repeat(3000)}"`), 'ybn-xml: t', (m) => void warnings.push(m));
    expect('typeName' in root && (root as { typeName: string }).typeName.length).toBe(ECHO_CHARS + 1);
  });
});

describe('XML: bounded before reading and before parsing', () => {
  it('a .ybn.xml over 64 MiB is refused before it is read (a 149 MB one reached 1 GB before its error)', async () => {
    const big = join(tmp.dir, 'big.ybn.xml');
    writeFileSync(big, '');
    truncateSync(big, (64 << 20) + 1); // sparse: nothing is written, nothing may be read
    const message = await refusal(big);
    expect(message).toMatch(/^ybn-xml: .*big\.ybn\.xml: 67108865 bytes, more than a \.ybn\.xml may hold \(MAX_YBN_XML_BYTES, 64 MiB/);
  });

  it('a <Polygons> of 65,536 triangles or a <Vertices> of 65,536 lines is refused before parsing, naming the line', () => {
    const base = writeYbnXml(twoTriangles());
    const tri = '<Triangle m="0" v1="0" v2="1" v3="2" f1="0" f2="0" f3="0" />\n';
    for (const [text, what] of [
      [base.replace('<Polygons>', `<Polygons>\n${tri.repeat(65_536)}`), /<Polygons> holds more than 65535 polygons \(indices are 16-bit\); refused before parsing/],
      [base.replace('<Vertices>', `<Vertices>\n${'0, 0, 0\n\n'.repeat(65_536)}`), /<Vertices> holds more than 65535 lines \(indices are 16-bit\); refused before parsing/],
    ] as [string, RegExp][]) {
      let message = '';
      try {
        readBoundXml(text, 'ybn-xml: many.ybn.xml', () => {});
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/^ybn-xml: many\.ybn\.xml: line \d+: /);
      expect(message).toMatch(what);
    }
    // 65,535 blank-separated lines are fine for the count (blank lines are not vertices).
    expect(() => checkXmlCounts(`<Vertices>\n${'0, 0, 0\n\n'.repeat(65_535)}</Vertices>`, 'x', 5_000_000)).not.toThrow();
  });

  it('more elements than MAX_XML_ELEMENTS, or more polygons in all than the triangle cap, are refused before parsing', () => {
    expect(() => checkXmlCounts('<a>' + '<b/>'.repeat(MAX_XML_ELEMENTS) + '</a>', 'ybn-xml: e.ybn.xml', 5_000_000)).toThrow(/^ybn-xml: e\.ybn\.xml: line 1: more than 1500000 elements \(MAX_XML_ELEMENTS\); refused before parsing/);
    const geo = `<Polygons>${'<Triangle/>'.repeat(60)}</Polygons>`;
    expect(() => checkXmlCounts(`<B>${geo.repeat(3)}</B>`, 'ybn-xml: t.ybn.xml', 150)).toThrow(/more than 150 polygons in all \(MAX_YBN_TRIANGLES\)/);
  });
});
