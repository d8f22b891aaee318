// The quiet map judged in WebAssembly (assembly/ride-quiet.ts) against the JavaScript QuietMap on the samples as the
// compiler writes them, with Studio's open cuts (--seams shape: loud faces everywhere) and welded (--seams level: true
// crests, most ground quiet): the same answers call for call (quiet-same.ts; the hostile records are in
// world-wasm.test.ts). And edges whose fold one side finds and the other does not, forty of them: the fold found from
// one corner is the one the corner across answers, once (the table's semantics, through its growth, are observable).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { compileLevel } from '../../src/build/compile.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { buildWorld } from '../../src/ride/world.ts';
import { QuietMap } from '../../src/ride/quiet.ts';
import { compileMeshes, readOutput } from './helpers.ts';
import { sameQuiet } from './quiet-same.ts';

const tmp = lazyTempDir('sk8-ride-quiet-wasm-');
afterAll(() => tmp.cleanup());

const sample = async (name: string, seams: 'shape' | 'level') => {
  const out = join(tmp.dir, `${name}-${seams}.collision`);
  await compileLevel(fileURLToPath(new URL(`../../samples/${name}.glb`, import.meta.url)), { out, workers: 1, cache: false, seams }, { logger: { warn: () => {} } });
  return readOutput(out);
};

test.each([['city-blocks', 'shape'], ['city-blocks', 'level'], ['skatepark', 'shape']] as const)('the %s sample (--seams %s): the quiet map in WebAssembly answers as the JavaScript one', async (name, seams) => {
  const q = sameQuiet(await sample(name, seams), `${name} ${seams}`, 20_000, 30_000);
  expect(q.folds).toBeGreaterThan(100);
  expect(q.loud).toBeGreaterThan(0);
  expect(q.quiet).toBeGreaterThan(0);
  expect(q.quiet).toBeLessThan(q.boxes);
}, 60_000);

test('a fold one side of an edge finds and the other does not: the corner across answers the fold found, once; in WebAssembly as in JavaScript', async () => {
  // Forty lids (the first resource) over walls (the last) as objects of their own at x, z ~1000, each wall's top 0.5 mm
  // off its lid's edge (within SAME_VERTEX there: the same edge), and a walkable plate beside it 1.8 mm from the
  // wall's top, 2.3 mm from the lid's edge: from the lid the fold is found (the plate out of reach), from the wall not.
  const N = 40, lids: number[] = [], walls: number[] = [], plates: number[] = [], li: number[] = [], wi: number[] = [], pi: number[] = [];
  for (let i = 0; i < N; i++) {
    const x = 1000 + 4 * i;
    let o = lids.length / 3; lids.push(x, 1.1, 1000, x + 2, 1.1, 1000, x + 2, 1.1, 1002, x, 1.1, 1002); li.push(o, o + 2, o + 1, o, o + 3, o + 2);
    o = walls.length / 3; walls.push(x, 0.1, 1000, x + 2, 0.1, 1000, x + 2, 1.1, 1000, x, 1.1, 1000); wi.push(o, o + 2, o + 1, o, o + 3, o + 2);
    o = plates.length / 3; plates.push(x + 0.5, 1.08, 999.99, x + 1.5, 1.08, 999.99, x + 1.5, 1.08, 999.9977, x + 0.5, 1.08, 999.9977); pi.push(o, o + 2, o + 1, o, o + 3, o + 2);
  }
  const out = await compileMeshes(tmp.dir, 'one-side', [{ name: 'lids', positions: lids, indices: li }, { name: 'walls', positions: walls, indices: wi }, { name: 'plates', positions: plates, indices: pi }], { tiling: 'objects', seams: 'level' });
  const res = readOutput(out);
  expect(res.map((r) => r.name)).toEqual(['lids.physics', 'plates.physics', 'walls.physics']);
  // Every open edge stored convex (1.4 rad: a true crest at the lids' 90°); the walls moved 0.5 mm out.
  const value = Math.fround(Math.cos(0.7));
  for (const r of res) {
    for (const s of r.resource.shapes) {
      for (let c = 0; c < s.edgeValues.length; c++) if (s.edgeValues[c] === 1 && !((s.flatBits[c >> 3] >> (c & 7)) & 1) && !((s.concaveBits[c >> 3] >> (c & 7)) & 1)) s.edgeValues[c] = value;
      if (r.name === 'walls.physics') for (let v = 2; v < s.vertices.length; v += 3) s.vertices[v] -= 5e-4;
    }
  }
  // The rule: asked up (the lids first), each wall's top answers its lid's fold; asked down, none does.
  const w = buildWorld(res), up = new QuietMap(w), down = new QuietMap(w), corners = 3 * w.faces;
  const a = Array.from({ length: corners }, (_, c) => up.crestFold(c)), b: number[] = [];
  for (let c = corners - 1; c >= 0; c--) b[c] = down.crestFold(c);
  expect(a.filter((f) => f >= 0).length).toBe(2 * N);
  expect(b.filter((f) => f >= 0).length).toBe(N);
  expect(a.filter((f, c) => f !== b[c]).length).toBe(N);
  // Asked down again: each wall's top first, its fold taken already, finds none itself; the lids' are kept once more:
  // the walls' tops then answer them, once.
  const again: number[] = [];
  for (let c = corners - 1; c >= 0; c--) again[c] = up.crestFold(c);
  expect(again).toEqual(b);
  const tops = a.flatMap((f, c) => (f !== b[c] ? [c] : []));
  expect(tops.map((c) => up.crestFold(c))).toEqual(tops.map((c) => a[c]));
  expect(tops.map((c) => up.crestFold(c))).toEqual(tops.map(() => -1));
  sameQuiet(res, 'one side', 4000);
});
