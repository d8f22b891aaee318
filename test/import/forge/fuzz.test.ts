// Seeded mutation fuzzing of whole .forge files through the importer's two stages (readForgeRecords: index, data
// files, streams; placeForgeLevel: records, links, compounds, tessellation): every truncated prefix and seeded
// mutations of forges in each layout are either built into finite objects or refused with an Error carrying the
// forge stage prefix — never a TypeError, a RangeError, a hang or an allocation the input does not pay for.
// Iteration i uses its own generator seeded from (seed, i), so a failure replays alone
// (npx tsx scripts/fuzz.ts --forge --seed 20261205 runs the same sequence further).
import { describe, expect, it } from 'vitest';
import { prng } from '../../fixtures/meshes.ts';
import { checkForge, FORGE_FUZZ_BASES as bases, mutateForge, type ForgeFuzzStats as Stats } from './mutate.ts';

describe('forge: seeded mutation fuzz of whole files', () => {
  it('every base builds', () => {
    for (const [name, b] of bases) {
      const stats: Stats = { built: 0, refused: 0, failures: [], slowest: 0 };
      checkForge(b, stats, name);
      expect(stats.failures, name).toEqual([]);
      expect(stats.built, name).toBe(1);
    }
  });

  it('every truncated prefix of the two-data-file AC2-layout forge: built from what is whole, or refused with the forge stage', () => {
    const [, base] = bases[1];
    const stats: Stats = { built: 0, refused: 0, failures: [], slowest: 0 };
    for (let n = 0; n < base.length; n++) checkForge(base.subarray(0, n), stats, `prefix ${n}`);
    expect(stats.failures).toEqual([]);
    expect(stats.slowest).toBeLessThan(1000);
  });

  it('2,000 seeded mutations: built or refused with the forge stage, each within a second', () => {
    const stats: Stats = { built: 0, refused: 0, failures: [], slowest: 0 };
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    for (let i = 0; i < 2000; i++) {
      const rand = prng((20261205 * 0x9e3779b1) ^ i);
      const [name, base] = bases[Math.floor(rand() * bases.length)];
      checkForge(mutateForge(base, rand), stats, `mutation ${i} of ${name}`);
      if (i % 100 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    expect(stats.failures).toEqual([]);
    expect(stats.built).toBeGreaterThan(300);
    expect(stats.refused).toBeGreaterThan(300);
    expect(stats.slowest).toBeLessThan(1000);
    expect(rssPeak - rssBefore).toBeLessThan(512 * 2 ** 20);
  });
});
