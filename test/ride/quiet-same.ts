// The quiet map judged in WebAssembly (assembly/ride-quiet.ts, for the first map of a world WasmWorldBuilder built)
// against the JavaScript QuietMap (the rule) on the same records: the same answers from the same calls in the same
// order — every face's isLoud, every corner's crestFold in several orders (so that a fold found from one corner is
// both taken from the table by the corner across and asked for again), and thousands of seeded boxes (NaN, inverted,
// past the grid, huge) with folds and faces asked in between — and the same marks left pending after.
import { expect } from 'vitest';
import { buildWorld, type RideResource, type RideWorld } from '../../src/ride/world.ts';
import { WasmWorldBuilder } from '../../src/ride/world-wasm.ts';
import { QuietMap } from '../../src/ride/quiet.ts';

const wasmWorld = (resources: RideResource[]): RideWorld => {
  const b = new WasmWorldBuilder();
  for (const r of resources) b.add(r);
  return b.finish();
};

/** A JavaScript map and a WebAssembly one over the same records (the second judged in WebAssembly: checked). */
function pair(resources: RideResource[]): [QuietMap, QuietMap, RideWorld] {
  const w = buildWorld(resources), js = new QuietMap(w), wasm = new QuietMap(wasmWorld(resources));
  expect((js as unknown as { native: unknown }).native).toBeUndefined();
  if (w.faces > 0) expect((wasm as unknown as { native: unknown }).native).toBeDefined();
  return [js, wasm, w];
}

const pending = (q: QuietMap): string => {
  const p = (q as unknown as { pending: Int32Array }).pending;
  return Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('base64');
};

/** Compares the two maps on `resources` (see the file header); returns what was asked and found, for the caller's expectations. */
export function sameQuiet(resources: RideResource[], label: string, boxes = 4000, window = Infinity): { folds: number; loud: number; quiet: number; boxes: number; corners: number } {
  const differ: string[] = [];
  const same = (what: string, a: unknown, b: unknown): void => {
    if (!Object.is(a, b) && differ.length < 5) differ.push(`${what}: ${String(a)} against ${String(b)}`);
  };
  let seed = 12345;
  const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  let folds = 0, loud = 0, quiet = 0;

  // Every face's isLoud, in order and then again (the states kept), with faces past either end.
  {
    const [js, wasm, w] = pair(resources);
    expect(wasm.candidates, label).toBe(js.candidates);
    for (let t = -1; t <= w.faces; t++) {
      const a = js.isLoud(t);
      same(`isLoud(${t})`, wasm.isLoud(t), a);
      if (a) loud++;
    }
    for (let t = w.faces; t >= -1; t--) same(`isLoud(${t}) again`, wasm.isLoud(t), js.isLoud(t));
  }
  // Every corner's crestFold (of a big world, those of a window of `window` corners, as many faces' worth either side
  // of the faces' middle) in three orders on three fresh pairs: up, down, and seeded (with repeats); each order twice
  // over (the table's folds taken, asked again, and kept again).
  const corners = 3 * buildWorld(resources).faces, n = Math.min(corners, window), c0 = 3 * Math.floor((corners - n) / 6);
  const orders: number[][] = [
    Array.from({ length: n + 2 }, (_, i) => c0 + i - 1),
    Array.from({ length: n + 2 }, (_, i) => c0 + n - i),
    Array.from({ length: 2 * n }, () => c0 + Math.floor(random() * n)),
  ];
  for (const order of orders) {
    const [js, wasm] = pair(resources);
    for (let round = 0; round < 2; round++) {
      for (const c of order) {
        const a = js.crestFold(c);
        same(`crestFold(${c}), round ${round}`, wasm.crestFold(c), a);
        if (a >= 0) folds++;
      }
    }
  }
  // Seeded boxes (quiet and quietInBox), with folds and faces asked in between, in the same order.
  {
    const [js, wasm, w] = pair(resources);
    const lo = [w.min[0], w.min[2]], span = [w.max[0] - w.min[0], w.max[2] - w.min[2]];
    const odd = [NaN, Infinity, -Infinity, 1e300, -1e300, -0];
    for (let n = 0; n < boxes; n++) {
      const b = [0, 1].map((k) => lo[k] - 5 + random() * (span[k] + 10));
      const size = [0, 1].map(() => [0, 0.05, 1, 5, 50][Math.floor(random() * 5)] * random());
      const box = [b[0], b[1], b[0] + size[0], b[1] + size[1]];
      if (n % 13 === 0) box[Math.floor(random() * 4)] = odd[Math.floor(random() * odd.length)];
      if (n % 17 === 0) [box[0], box[2]] = [box[2], box[0]]; // inverted
      if (n % 19 === 0) { box[0] -= 1e6; box[2] += 1e6; } // past the grid either way
      if (n % 23 === 0) { box[1] += 1e4; box[3] += 1e4; } // past its far side
      let a: boolean, g: boolean;
      if (n % 2 === 0) {
        a = js.quiet(box[0], box[1], box[2], box[3]);
        g = wasm.quiet(box[0], box[1], box[2], box[3]);
      } else {
        js.box.set(box);
        wasm.box.set(box);
        a = js.quietInBox();
        g = wasm.quietInBox();
      }
      same(`quiet(${box})`, g, a);
      if (a) quiet++;
      if (n % 7 === 0 && corners) { const c = Math.floor(random() * corners); same(`crestFold(${c}) between boxes`, wasm.crestFold(c), js.crestFold(c)); }
      if (n % 11 === 0 && w.faces) { const t = Math.floor(random() * w.faces); same(`isLoud(${t}) between boxes`, wasm.isLoud(t), js.isLoud(t)); }
    }
    same('the marks left pending', pending(wasm), pending(js));
  }
  expect(differ, label).toEqual([]);
  return { folds, loud, quiet, boxes, corners };
}
