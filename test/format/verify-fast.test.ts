// verifyResource clears a shape with one fast pass and walks only the others through the checks that name places
// and offsets. The fast pass must never clear a shape the checks would find something in: these tests give both
// paths the same mutated records (field-level edits of read resources, and resources read from mutated bytes) and
// require the same findings, in the same order, with the same messages and offsets.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/format/cursor.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import type { PhysicsResource } from '../../src/format/types.ts';
import { verifyResource } from '../../src/format/verify.ts';
import { prng } from '../fixtures/meshes.ts';
import { HAND_RESOURCES, layResource } from './fixtures.ts';
import { mutate, mutateRecord } from './mutate.ts';

const files = (dir: URL, max: number): Uint8Array[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.physics'))
    .sort()
    .map((f) => new Uint8Array(readFileSync(new URL(f, dir))))
    .filter((b) => b.length <= max);
/** The reference encoder's resources, the hand-laid ones (kinds 2, 3, 5, polygon faces) and goldens up to 1,000 faces. */
const corpus = [
  ...files(new URL('./reference/', import.meta.url), 50_000),
  ...Object.values(HAND_RESOURCES).map((make) => layResource(make())),
  ...files(new URL('../golden/', import.meta.url), 50_000),
];

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

const same = (res: PhysicsResource, what: string): number => {
  const fast = verifyResource(res, 'm.physics');
  const exhaustive = verifyResource(res, 'm.physics', true);
  expect(fast, what).toEqual(exhaustive);
  return exhaustive.length;
};

describe('verify: the fast pass and the exhaustive checks agree', () => {
  it('on every unmutated resource of the corpus (all clean)', () => {
    for (const b of corpus) expect(same(readPhysicsResource(b), 'unmutated')).toBe(0);
  });

  it('on 3,000 field-level mutations of read resources, naming every check', () => {
    const rand = prng(20261206);
    const checks = new Map<string, number>();
    let clean = 0;
    for (let i = 0; i < 3000; i++) {
      const res = readPhysicsResource(pick(rand, corpus));
      mutateRecord(res, rand);
      const fast = verifyResource(res, 'm.physics');
      expect(fast, `mutation ${i}`).toEqual(verifyResource(res, 'm.physics', true));
      if (fast.length === 0) clean++;
      for (const f of fast) checks.set(f.check, (checks.get(f.check) ?? 0) + 1);
    }
    // Both paths are reached: records with findings of every shape check, and mutated records that stay clean.
    expect(clean).toBeGreaterThan(200);
    for (const check of ['counts', 'bounds', 'vertex', 'corner-vertex', 'face-offsets', 'corner-index', 'mesh', 'edge-value', 'edge-bits', 'tree-containment', 'plane-offset']) {
      expect(checks.get(check) ?? 0, check).toBeGreaterThan(2);
    }
  });

  it('on resources read from 5,000 mutated files', () => {
    const rand = prng(54);
    let read = 0;
    let found = 0;
    for (let i = 0; i < 5000; i++) {
      let res: PhysicsResource;
      try {
        res = readPhysicsResource(mutate(pick(rand, corpus), rand));
      } catch (e) {
        if (e instanceof FormatError) continue;
        throw e;
      }
      read++;
      if (same(res, `file mutation ${i}`) > 0) found++;
    }
    expect(read).toBeGreaterThan(500);
    expect(found).toBeGreaterThan(50);
  });
});
