// verifyResource clears a shape with one fast pass and walks only the others through the checks that name places
// and offsets. The fast pass must never clear a shape the checks would find something in: these tests give both
// paths the same mutated records (field-level edits of read resources, and resources read from mutated bytes) and
// require the same findings, in the same order, with the same messages and offsets.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/format/cursor.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import type { PhysicsResource, ShapeRecord } from '../../src/format/types.ts';
import { verifyResource } from '../../src/format/verify.ts';
import { prng } from '../fixtures/meshes.ts';
import { HAND_RESOURCES, layResource } from './fixtures.ts';
import { mutate } from './mutate.ts';

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

type Rand = () => number;
const int = (rand: Rand, n: number): number => Math.floor(rand() * n);
const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[int(rand, xs.length)];

/** A float nudged by a few units in its last place (f32), the kind of change the tree's slack is about. */
const nudge = (v: number, rand: Rand): number => v + (Math.abs(v) || 1e-30) * 2 ** -23 * (int(rand, 9) - 4);

function editFloat(a: Float32Array | number[], rand: Rand): void {
  if (a.length === 0) return;
  const k = int(rand, a.length);
  const values = [Number.NaN, Infinity, -Infinity, 0, -0, 1, 1.5, -1e-30, 1e38, -1e38, a[int(rand, a.length)]];
  a[k] = rand() < 0.5 ? nudge(a[k], rand) : pick(rand, values);
}

function editInt(a: Uint16Array | Int16Array | Uint8Array | Uint32Array, rand: Rand): void {
  if (a.length === 0) return;
  const k = int(rand, a.length);
  const bits = a instanceof Uint8Array ? 8 : a instanceof Uint32Array ? 32 : 16;
  switch (int(rand, 4)) {
    case 0: {
      const j = int(rand, a.length);
      [a[k], a[j]] = [a[j], a[k]];
      break;
    }
    case 1:
      a[k] ^= 1 << int(rand, bits);
      break;
    case 2:
      a[k] += int(rand, 5) - 2;
      break;
    default:
      a[k] = pick(rand, [0, 1, a.length, a[int(rand, a.length)], 2 ** (bits - 1), 2 ** bits - 1]);
  }
}

/** One to three field edits of a read resource's shapes (and now and then an array cut short or dropped). */
function mutateRecord(res: PhysicsResource, rand: Rand): void {
  if (res.shapes.length === 0) return;
  const planed = res.shapes.filter((s) => s.planeOffsets.length > 0);
  for (let n = 1 + int(rand, 3); n > 0; n--) {
    const which = int(rand, 14);
    // Few shapes have face planes (kinds 2 and 3): their edits go to one that has.
    const s: ShapeRecord = which === 10 && planed.length ? pick(rand, planed) : pick(rand, res.shapes);
    if (which === 13) {
      // Structure: an array cut short or dropped (the counts check).
      const key = pick(rand, ['edgeValues', 'vertexCornerOffsets', 'cornerIdsByVertex', 'flatBits', 'tree', 'planeOffsets'] as const);
      const a = s[key];
      (s as unknown as Record<string, ArrayLike<number>>)[key] = a.subarray(0, rand() < 0.5 ? 0 : int(rand, a.length));
      continue;
    }
    switch (which) {
      case 0: editFloat(s.min, rand); break;
      case 1: editFloat(s.max, rand); break;
      case 2: case 3: editFloat(s.vertices, rand); break;
      case 4: editInt(s.vertexCornerOffsets, rand); break;
      case 5: editInt(s.cornerIdsByVertex, rand); break;
      case 6: editInt(s.cornerVertices, rand); break;
      case 7: editFloat(s.edgeValues, rand); break;
      case 8: editInt(rand() < 0.5 ? s.concaveBits : s.flatBits, rand); break;
      case 9: editInt(s.faceOffsets, rand); break;
      case 10: rand() < 0.5 ? editInt(s.planeNormals, rand) : editFloat(s.planeOffsets, rand); break;
      default: editInt(s.tree, rand);
    }
  }
}

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
