// Seeded mutations of the game's binary .ymap for the reader (src/import/ybn/ymap-binary.ts), shared by its test and
// `npm run fuzz -- --ymap`. The RSC7 stream is inflated, mutated and deflated again (a mutated deflate stream mostly
// fails to inflate, which tests nothing past the header): bit flips over the meta header, the block table and the
// structures, and hostile values written where the layout keeps counts, indices, references and pointers (0, 1,
// 0xFFFF, 0xFFFFFFFF, a reference to each block, a pointer to each block's start). Every result must be read, or
// refused with `ymap: <file>: ` and nothing else, each in bounded time.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { readYmapBinary } from '../../../src/import/ybn/ymap-binary.ts';
import type { FxEntity } from '../../fixtures/ybn.ts';
import { writeYmapBinary } from '../../fixtures/ybn.ts';

const S = Math.SQRT1_2;
/** Bases: no entity, one of each kind, a prop, a scaled entity; and 40 interiors (a longer pointer list). */
export const YMAP_FUZZ_BASES: [string, Uint8Array][] = [
  ['empty', writeYmapBinary([])],
  ['four', writeYmapBinary([
    { type: 'CEntityDef', archetype: 'prop_bench_01', position: [5, 5, 0], rotation: [0, 0, 0, 1] },
    { type: 'CMloInstanceDef', archetype: 'ex_dt1_11_office_02b', position: [-141.5, -620.9, 168.8], rotation: [0, 0, S, S] },
    { type: 'CMloInstanceDef', archetype: 'gr_shop_int_01', position: [-50, 30, 5], rotation: [S, 0, 0, S] },
    { type: 'CEntityDef', archetype: 'ramp_01', position: [10, 0, 0], rotation: [0, 0, S, S], scaleXY: 2, scaleZ: 0.5 },
  ])],
  ['forty', writeYmapBinary(Array.from({ length: 40 }, (_, i): FxEntity => ({ type: 'CMloInstanceDef', archetype: `v_int_${i}`, position: [i, -i, 2], rotation: [0, 0, 0, 1] })))],
];

/** One mutated file of `base`. */
export function mutateYmap(base: Uint8Array, rand: () => number): Uint8Array {
  const body = new Uint8Array(inflateRawSync(base.subarray(16)));
  const v = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const pick = (n: number): number => Math.floor(rand() * n);
  const tableAt = (v.getUint32(0x30, true) - 0x50000000) >>> 0;
  const count = v.getUint16(0x4c, true);
  // Places the layout keeps numbers: the meta header's, each table entry's, each block's words.
  const fields: number[] = [0x1c, 0x30, 0x4c];
  const starts: number[] = [];
  for (let i = 0; i < count && tableAt + 16 * i + 16 <= body.length; i++) {
    fields.push(tableAt + 16 * i + 4, tableAt + 16 * i + 8);
    const at = Number(v.getBigUint64(tableAt + 16 * i + 8, true) - 0x50000000n);
    const length = v.getUint32(tableAt + 16 * i + 4, true);
    if (at >= 0 && at + length <= body.length) {
      starts.push(at);
      for (let k = 0; k + 4 <= Math.min(length, 0x100); k += 4) fields.push(at + k);
    }
  }
  for (let j = 0, n = 1 + pick(4); j < n; j++) {
    if (rand() < 0.5) {
      body[pick(Math.min(body.length, 0x800))] ^= 1 << pick(8);
      continue;
    }
    const at = fields[pick(fields.length)];
    if (at + 4 > body.length) continue;
    const choice = pick(6);
    if (choice === 0) v.setUint32(at, [0, 1, 0xffff, 0xffffffff, 0x7fffffff][pick(5)], true);
    else if (choice === 1) v.setUint32(at, (1 + pick(count + 2)) | (pick(64) << 12), true); // a reference to some block
    else if (choice === 2 && starts.length && at + 8 <= body.length) v.setBigUint64(at, BigInt(0x50000000 + starts[pick(starts.length)]), true); // a pointer to some block
    else if (choice === 3) v.setUint16(at, [0, 1, 0xffff, 0x8000][pick(4)], true);
    else if (choice === 4) v.setFloat32(at, [NaN, Infinity, 0, -0, 3e38, 1e-45][pick(6)], true);
    else v.setUint32(at, v.getUint32(fields[pick(fields.length)] ?? 0, true), true); // another field's value
  }
  const head = new Uint8Array(base.subarray(0, 16));
  if (rand() < 0.05) new DataView(head.buffer).setUint32(8 + 4 * pick(2), (rand() * 2 ** 32) >>> 0, true); // page flags
  const out = new Uint8Array([...head, ...deflateRawSync(body)]);
  return rand() < 0.1 ? out.subarray(0, pick(out.length)) : out;
}

export interface YmapFuzzStats { read: number; refused: number; failures: string[]; slowest: number }

/** Reads one file; a result or a `ymap: <file>: ` error, within 250 ms; anything else is a failure. */
export function checkYmap(bytes: Uint8Array, stats: YmapFuzzStats, label: string): void {
  const t = performance.now();
  try {
    const placements = readYmapBinary(bytes, 'f.ymap', () => {});
    for (const p of placements) {
      if (![...p.position, ...p.transform].every(Number.isFinite)) throw new Error(`${label}: a placement with a number that is not finite`);
    }
    stats.read++;
  } catch (e) {
    const m = (e as Error).message;
    if (!m.startsWith('ymap: f.ymap: ')) stats.failures.push(`${label}: ${m.slice(0, 200)}`);
    else stats.refused++;
  }
  const ms = performance.now() - t;
  stats.slowest = Math.max(stats.slowest, ms);
  if (ms > 250) stats.failures.push(`${label}: ${ms.toFixed(0)} ms`);
}
