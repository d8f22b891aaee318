// Seeded mutation fuzzing of the YBN readers (binary body, whole .ybn file, XML): each mutated input is either
// refused with an Error carrying the ybn stage prefix, or read and built into objects without throwing anything
// else. Iteration i uses its own generator seeded from (seed, i), so a failure replays alone.
import { describe, expect, it } from 'vitest';
import { readBoundTree } from '../../../src/import/ybn/bounds.ts';
import { parseYbn } from '../../../src/import/ybn/index.ts';
import type { Bound } from '../../../src/import/ybn/model.ts';
import { boundObjects } from '../../../src/import/ybn/objects.ts';
import { ResourceReader } from '../../../src/import/ybn/rsc7.ts';
import { SharedArena } from '../../../src/import/shared-arena.ts';
import { prng } from '../../fixtures/meshes.ts';
import { boxBound, compositeLevel, FIXTURES, twoTriangles, writeYbn, writeYbnXml, type FxBound } from '../../fixtures/ybn.ts';

const INTERESTING = [0, 1, 2, 3, 4, 8, 10, 15, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x10000, 0x50000000, 0x5000fff0, 0x60000000, 0x7fffffff, 0xffffffff];

/** Mutations land in [0, limit) (a body's structures, not its page padding); truncation anywhere. */
function mutate(base: Uint8Array, rand: () => number, pointerBase: number, limit = base.length): Uint8Array {
  let b = base.slice();
  const int = (n: number): number => Math.floor(rand() * n);
  const at4 = (): number => 4 * int(Math.min(limit, b.length) / 4);
  const steps = 1 + int(3);
  for (let s = 0; s < steps && b.length > 0; s++) {
    const dv = new DataView(b.buffer);
    switch (int(8)) {
      case 0:
        b[at4() + int(4)] ^= 1 << int(8);
        break;
      case 1:
        b[at4() + int(4)] = int(256);
        break;
      case 2: {
        const at = at4();
        if (at + 4 <= b.length) dv.setUint32(at, INTERESTING[int(INTERESTING.length)], true);
        break;
      }
      case 3: {
        // Repoint an existing pointer-looking word near where it pointed.
        const at = 8 * int(b.length / 8);
        if (at + 4 <= b.length && dv.getUint32(at, true) >>> 28 === pointerBase) dv.setUint32(at, (dv.getUint32(at, true) + 16 * (int(9) - 4)) >>> 0, true);
        break;
      }
      case 4: {
        const at = at4() + 2 * int(2);
        if (at + 2 <= b.length) dv.setUint16(at, INTERESTING[int(INTERESTING.length)] & 0xffff, true);
        break;
      }
      case 5:
        b = b.slice(0, int(b.length));
        break;
      case 6: {
        const n = 1 + int(32);
        b.copyWithin(int(b.length), int(b.length), int(b.length) + n);
        break;
      }
      default: {
        const at = at4();
        b.fill(rand() < 0.5 ? 0 : 0xff, at, at + 1 + int(16));
      }
    }
  }
  return b;
}

interface Stats {
  accepted: number;
  refused: number;
  failures: string[];
}

function build(root: Bound): void {
  boundObjects(root, { stem: 'fuzz', stage: 'ybn: fuzz.ybn', tessellation: { chordError: 0.05 }, logger: { warn: () => {} }, arena: new SharedArena() });
}

function check(f: () => Bound, stats: Stats, i: number): void {
  try {
    build(f());
    stats.accepted++;
  } catch (e) {
    const m = (e as Error).message;
    if (e instanceof Error && /^ybn(-xml)?: /.test(m) && !(e instanceof TypeError) && !(e instanceof RangeError)) stats.refused++;
    else stats.failures.push(`${i}: ${(e as Error).name}: ${m}`);
  }
}

const small: FxBound[] = [boxBound(), twoTriangles(), compositeLevel(), ...['sphere', 'capsule', 'disc', 'cylinder'].map((k) => FIXTURES[k]())];
const layouts = small.map((b) => writeYbn(b));
/** Where each body's written bytes end (the rest is page padding, which nothing reads). */
const used = layouts.map((l) => {
  let end = l.body.length;
  while (end > 0 && l.body[end - 1] === 0) end--;
  return end;
});

describe('seeded mutation fuzz', () => {
  it('3,000 mutated bodies: clean refusals or objects', () => {
    const stats: Stats = { accepted: 0, refused: 0, failures: [] };
    const t0 = performance.now();
    for (let i = 0; i < 3000; i++) {
      const rand = prng((20261201 * 0x9e3779b1) ^ i);
      const k = Math.floor(rand() * layouts.length);
      const l = layouts[k];
      const body = mutate(l.body, rand, 5, used[k]);
      check(() => readBoundTree(new ResourceReader({ body, systemSize: l.systemSize, graphicsSize: l.graphicsSize }, 'ybn: fuzz.ybn'), () => {}), stats, i);
    }
    expect(stats.failures).toEqual([]);
    expect(stats.accepted).toBeGreaterThan(300);
    expect(stats.refused).toBeGreaterThan(300);
    expect(performance.now() - t0).toBeLessThan(45_000);
  });

  it('2,000 mutated .ybn files (header, page flags, deflate stream)', () => {
    const stats: Stats = { accepted: 0, refused: 0, failures: [] };
    for (let i = 0; i < 2000; i++) {
      const rand = prng((7 * 0x9e3779b1) ^ i);
      const l = layouts[Math.floor(rand() * layouts.length)];
      const file = mutate(l.file, rand, 0);
      check(() => parseYbn(file, 'fuzz.ybn', () => {}), stats, i);
    }
    expect(stats.failures).toEqual([]);
    expect(stats.refused).toBeGreaterThan(1000);
  });

  it('2,000 mutated .ybn.xml texts', () => {
    const texts = small.map((b) => new TextEncoder().encode(writeYbnXml(b)));
    const stats: Stats = { accepted: 0, refused: 0, failures: [] };
    for (let i = 0; i < 2000; i++) {
      const rand = prng((11 * 0x9e3779b1) ^ i);
      const text = mutate(texts[Math.floor(rand() * texts.length)], rand, 0);
      check(() => parseYbn(text, 'fuzz.ybn.xml', () => {}), stats, i);
    }
    expect(stats.failures).toEqual([]);
    expect(stats.accepted).toBeGreaterThan(100);
    expect(stats.refused).toBeGreaterThan(100);
  });
});
