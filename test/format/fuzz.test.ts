import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HAND_RESOURCES, layResource } from './fixtures.ts';
import { fuzz } from './mutate.ts';

/** Hand-laid resources plus the reference encoder's small outputs (the 86 KB grid is left to scripts/fuzz.ts). */
const dir = new URL('./reference/', import.meta.url);
const corpus = [
  ...Object.values(HAND_RESOURCES).map((make) => layResource(make())),
  ...readdirSync(dir)
    .filter((f) => f.endsWith('.physics'))
    .map((f) => new Uint8Array(readFileSync(new URL(f, dir))))
    .filter((b) => b.length < 8192),
];

describe('seeded mutation fuzz', () => {
  it('10,000 mutated resources: only clean refusals or exact round trips', () => {
    const stats = fuzz(corpus, 10_000, 20261129);
    expect(stats.failures.map((f) => `${f.iteration}: ${f.error}`)).toEqual([]);
    expect(stats.accepted + stats.refused).toBe(10_000);
    // The mutations must reach past the header: some accepted, refusals in shapes, parts and the layout check.
    expect(stats.accepted).toBeGreaterThan(500);
    expect(stats.foreignLayout).toBeGreaterThan(200);
    expect(Object.keys(stats.byStage)).toEqual(expect.arrayContaining(['header', 'shape N', 'part N', 'layout']));
  });
});
