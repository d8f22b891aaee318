// Smaller gaps on real files : a capsule bound's stored half height (0x70, <CapsuleHalfHeight>)
// sets its length; a standalone capsule or disc with margin 0 says why nothing was compiled.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importYbn, YBN_DEFAULTS } from '../../../src/import/ybn/index.ts';
import { tempDir } from '../../fixtures/levels.ts';
import { capsuleBound, discBound, writeYbn, writeYbnXml, type FxBound } from '../../fixtures/ybn.ts';

const tmp = tempDir('sk8-ybn-capsule-');
afterAll(tmp.cleanup);

function writeBoth(name: string, bound: FxBound): [string, string] {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.ybn`), writeYbn(bound).file);
  writeFileSync(join(dir, `${name}.ybn.xml`), writeYbnXml(bound));
  return [join(dir, `${name}.ybn`), join(dir, `${name}.ybn.xml`)];
}

/** Extent along game Z (GTA V's local Y, the capsule's axis, is game −Z). */
function zExtent(p: Float32Array): number {
  let lo = Infinity, hi = -Infinity;
  for (let i = 2; i < p.length; i += 3) (lo = Math.min(lo, p[i])), (hi = Math.max(hi, p[i]));
  return hi - lo;
}

describe('capsule half height', () => {
  it('stored (0x70 / <CapsuleHalfHeight> 2 m): the capsule is 2 × (2 + 0.1) m long, not from the bounding sphere (1 m)', async () => {
    for (const file of writeBoth('half', { ...capsuleBound(), capsuleHalfHeight: 2 } as FxBound)) {
      const [o] = (await importYbn(file, YBN_DEFAULTS, { warn: () => {} })).objects;
      expect(zExtent(o.positions), file).toBeCloseTo(4.2, 4);
    }
  });

  it('not stored (0, or no element): sphere radius − margin, as before (2 × (1 + 0.1) m)', async () => {
    for (const file of writeBoth('nohalf', capsuleBound())) {
      const [o] = (await importYbn(file, YBN_DEFAULTS, { warn: () => {} })).objects;
      expect(zExtent(o.positions), file).toBeCloseTo(2.2, 4);
    }
  });

  it('a negative stored value is warned about and not used', async () => {
    const warnings: string[] = [];
    const [bin] = writeBoth('neg', { ...capsuleBound(), capsuleHalfHeight: -3 } as FxBound);
    const [o] = (await importYbn(bin, YBN_DEFAULTS, { warn: (m) => void warnings.push(m) })).objects;
    expect(zExtent(o.positions)).toBeCloseTo(2.2, 4);
    expect(warnings).toEqual([expect.stringMatching(/bound root \(capsule\): capsule half height -3 at 0x70 is not a finite positive number; using sphere radius − margin/)]);
  });
});

describe('margin 0', () => {
  const refusal = async (file: string): Promise<string> => importYbn(file, YBN_DEFAULTS, { warn: () => {} }).then(() => '', (e: Error) => e.message);

  it('a standalone capsule with margin 0: the error says a capsule\'s radius is its margin', async () => {
    for (const file of writeBoth('cap0', { ...capsuleBound(), margin: 0 } as FxBound)) {
      expect(await refusal(file), file).toMatch(/: nothing to compile: bound root \(capsule\): margin 0: a capsule bound's radius is its margin, so it has no volume \(radius 1\.1/);
    }
  });

  it('a standalone disc with margin 0: the error says a disc\'s half thickness is its margin', async () => {
    for (const file of writeBoth('disc0', { ...discBound(), margin: 0 } as FxBound)) {
      expect(await refusal(file), file).toMatch(/: nothing to compile: bound root \(disc\): margin 0: a disc bound's half thickness is its margin/);
    }
  });

  it('a composite child with margin 0: the same reason as a warning, the rest compiles', async () => {
    const warnings: string[] = [];
    const level: FxBound = { kind: 'composite', children: [{ bound: capsuleBound() }, { bound: { ...capsuleBound(), margin: 0 } as FxBound }] };
    const r = await importYbn(writeBoth('child0', level)[0], YBN_DEFAULTS, { warn: (m) => void warnings.push(m) });
    expect(r.objects).toHaveLength(1);
    expect(warnings).toEqual([expect.stringMatching(/bound 1 \(capsule\): margin 0: a capsule bound's radius is its margin, so it has no volume .*; skipped$/)]);
  });
});
