// The game's binary .ymap (src/import/ybn/ymap-binary.ts): its CEntityDef / CMloInstanceDef placements read from the
// meta document as CodeWalker's public reader lays it out, giving the same placements as the .ymap.xml CodeWalker
// exports of it; interior-space collision recognised by its bounds whatever it is called; the reader bounded on
// truncated and mutated files.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { join } from 'node:path';
import { importYbn, interiorSpace, parseYbn, YBN_DEFAULTS } from '../../../src/import/ybn/index.ts';
import { META_STRUCT, readYmapBinary } from '../../../src/import/ybn/ymap-binary.ts';
import { looksInterior, matchPlacements, readYmapXml } from '../../../src/import/ybn/ymap.ts';
import { tempDir } from '../../fixtures/levels.ts';
import { boxBound, fxJoaat, twoTriangles, writeYbn, writeYmapBinary, writeYmapXml, type FxEntity } from '../../fixtures/ybn.ts';
import { sharedPath } from '../../fixtures/shared.ts';
import { prng } from '../../fixtures/meshes.ts';
import { checkYmap, mutateYmap, YMAP_FUZZ_BASES, type YmapFuzzStats } from './ymap-mutate.ts';

const tmp = tempDir('sk8-ymap-bin-');
afterAll(tmp.cleanup);
const S = Math.SQRT1_2;
const SAMPLES = sharedPath('data/ybn-samples/', 'ymap: the real map files');

/** An office interior (a name none of v_*, *_col, *_int), a second MLO, a prop, a scaled entity placing a YBN. */
const ENTITIES: FxEntity[] = [
  { type: 'CEntityDef', archetype: 'prop_bench_01', position: [5, 5, 0], rotation: [0, 0, 0, 1] },
  { type: 'CMloInstanceDef', archetype: 'ex_dt1_11_office_02b', position: [-141.5, -620.9, 168.8], rotation: [0, 0, S, S] },
  { type: 'CMloInstanceDef', archetype: 'gr_shop_int_01', position: [-50, 30, 5], rotation: [S, 0, 0, S] },
  { type: 'CEntityDef', archetype: 'ramp_01', position: [10, 0, 0], rotation: [0, 0, S, S], scaleXY: 2, scaleZ: 0.5 },
];

describe('binary .ymap', () => {
  it('structure names hash as the parser writes them (case kept)', () => {
    expect(META_STRUCT).toEqual({ CMapData: 3545841574, CEntityDef: 3461354627, CMloInstanceDef: 164374718 });
    expect(META_STRUCT.CMapData).toBe(fxJoaat('CMapData', false));
  });

  it('gives the placements its .ymap.xml gives: kind, position, rotation, transform; archetypes as hash_XXXXXXXX', () => {
    const warnings: string[] = [];
    const bin = readYmapBinary(writeYmapBinary(ENTITIES), 'ex_dt1_11.ymap', (w) => warnings.push(w));
    const xml = readYmapXml(writeYmapXml(ENTITIES), 'ex_dt1_11.ymap.xml');
    expect(warnings).toEqual([]);
    expect(bin.map((p) => `${p.index} ${p.kind} ${p.archetype}`)).toEqual(ENTITIES.map((e, i) => `${i} ${e.type} hash_${fxJoaat(e.archetype).toString(16).padStart(8, '0')}`));
    for (const [i, p] of bin.entries()) {
      const q = xml[i];
      expect(p.position.map((v) => +v.toFixed(3))).toEqual(q.position.map((v) => +v.toFixed(3)));
      expect(p.orientation.map((v) => +v.toFixed(6))).toEqual(q.orientation.map((v) => +v.toFixed(6)));
      expect(Array.from(p.transform, (v) => +v.toFixed(3))).toEqual(Array.from(q.transform, (v) => +v.toFixed(3)));
    }
    // Both name the same YBN files.
    const files = ['port/ex_dt1_11_office_02b.ybn', 'port/gr_shop_int_01_col.ybn', 'port/ramp_01.ybn'];
    const names = (ps: typeof bin) => [...matchPlacements(files, ps).byFile].map(([f, l]) => `${f} ${l.map((p) => p.index).join(',')}`);
    expect(names(bin)).toEqual(names(xml));
  });

  it('a map without entities has no placements; a file that is not one is refused naming what it found', () => {
    expect(readYmapBinary(writeYmapBinary([]), 'empty.ymap', () => {})).toEqual([]);
    expect(() => readYmapBinary(writeYbn(boxBound()).file, 'bound.ymap', () => {})).toThrow(/^ymap: bound\.ymap: at 0x[0-9a-f]+: /);
    expect(() => readYmapBinary(new TextEncoder().encode('<CMapData/>'), 'text.ymap', () => {})).toThrow(/ymap: text\.ymap: at 0x0: RSC7 magic: .*not a compiled YMAP resource/);
  });

  it('hostile structure: overlapping blocks, references looping back into the map or its pointer list, a zero rotation: each an error at its offset', () => {
    const good = writeYmapBinary(ENTITIES.slice(0, 2));
    const body = new Uint8Array(inflateRawSync(good.subarray(16)));
    const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
    const tableAt = view(body).getUint32(0x30, true) - 0x50000000;
    const count = view(body).getUint16(0x4c, true);
    const rootId = view(body).getInt32(0x1c, true);
    const blocks = Array.from({ length: count }, (_, i) => ({
      hash: view(body).getUint32(tableAt + 16 * i, true),
      at: Number(view(body).getBigUint64(tableAt + 16 * i + 8, true) - 0x50000000n),
    }));
    const root = blocks[rootId - 1];
    const listRef = view(body).getUint32(root.at + 0x60, true);
    const listAt = blocks[(listRef & 0xfff) - 1].at + (listRef >>> 12);
    const entityAt = blocks.find((b) => b.hash === META_STRUCT.CEntityDef)!.at;
    const read = (edit: (b: DataView) => void): (() => unknown) => {
      const b = new Uint8Array(body);
      edit(view(b));
      return () => readYmapBinary(new Uint8Array([...good.subarray(0, 16), ...deflateRawSync(b)]), 'h.ymap', () => {});
    };
    // Every block's pointer on the first block's bytes: the map read from an entity's (0 entities), before.
    expect(read((v) => blocks.forEach((_, i) => v.setBigUint64(tableAt + 16 * i + 8, BigInt(0x50000000 + blocks[0].at), true)))).toThrow(
      /^ymap: h\.ymap: at 0x[0-9a-f]+: data block 2 \(\d+ bytes at 0x[0-9a-f]+\) overlaps data block 1 /,
    );
    // Entity 0's reference names the pointer list itself, or the map: a loop, not an entity (skipped in silence before).
    expect(read((v) => v.setUint32(listAt, listRef, true))).toThrow(/^ymap: h\.ymap: at 0x[0-9a-f]+: entity 0: reference 0x[0-9a-f]+ names block \d+, the map's entity pointer list, not an entity/);
    expect(read((v) => v.setUint32(listAt, rootId, true))).toThrow(/^ymap: h\.ymap: at 0x[0-9a-f]+: entity 0: reference 0x[0-9a-f]+ names block \d+, the CMapData root, not an entity/);
    // A zero rotation: the offset of the rotation (it had none).
    expect(read((v) => [0, 4, 8, 12].forEach((k) => v.setFloat32(entityAt + 0x30 + k, 0, true)))).toThrow(
      new RegExp(`^ymap: h\\.ymap: at 0x${(entityAt + 0x30).toString(16)}: entity 0 \\(CEntityDef "hash_[0-9a-f]{8}"\\): rotation is a zero quaternion`),
    );
  });

  it('truncated prefixes and seeded mutations: placements or a ymap: error, never anything else', () => {
    const good = writeYmapBinary(ENTITIES);
    const tries: Uint8Array[] = [];
    for (let n = 0; n < good.length; n += Math.max(1, good.length >> 5)) tries.push(good.slice(0, n));
    // The meta document mutated after inflating (a mutated stream mostly fails to inflate), deflated again.
    let seed = 49;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const body = inflateRawSync(good.subarray(16));
    for (let k = 0; k < 300; k++) {
      const b = new Uint8Array(body);
      // Mostly the meta header, the block table and the structures (the first 0x700 bytes hold them all).
      for (let j = 0; j < 1 + Math.floor(rand() * 4); j++) b[Math.floor(rand() * Math.min(b.length, 0x700))] ^= 1 << Math.floor(rand() * 8);
      tries.push(new Uint8Array([...good.subarray(0, 16), ...deflateRawSync(b)]));
    }
    let read = 0;
    for (const t of tries) {
      try {
        readYmapBinary(t, 'm.ymap', () => {});
        read++;
      } catch (e) {
        expect((e as Error).message).toMatch(/^ymap: m\.ymap: /);
      }
    }
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(tries.length);
  });
});

describe('binary .ymap under seeded structure-aware mutations (npm run fuzz -- --ymap for long runs)', () => {
  it('300 files: counts, references, pointers and floats set to hostile values: read or a ymap: error, each in bounded time', () => {
    const stats: YmapFuzzStats = { read: 0, refused: 0, failures: [], slowest: 0 };
    for (let i = 0; i < 300; i++) {
      const rand = prng((49 * 0x9e3779b1) ^ i);
      const [name, base] = YMAP_FUZZ_BASES[Math.floor(rand() * YMAP_FUZZ_BASES.length)];
      checkYmap(mutateYmap(base, rand), stats, `iteration ${i} (${name})`);
    }
    expect(stats.failures).toEqual([]);
    expect(stats.read).toBeGreaterThan(0);
    expect(stats.refused).toBeGreaterThan(50);
  });
});

describe('interior space from the content', () => {
  const dir = join(tmp.dir, 'port');
  mkdirSync(dir, { recursive: true });
  // An office interior modelled around its own origin, named like no interior (Bob74-style ex_* offices).
  const office = join(dir, 'ex_dt1_11_office_02b.ybn');
  writeFileSync(office, writeYbn({ ...twoTriangles(), centre: [0, 0, 0], boxMin: [-2, -1, 0], boxMax: [2, 1, 0] } as never).file);

  it('a file whose bounds lie around the origin is taken for interior space, whatever its name', () => {
    expect(looksInterior(office)).toBe(false);
    expect(interiorSpace(parseYbn(writeYbn(boxBound()).file, 'b.ybn', () => {}))).toBe('(-1, -2, 0) … (1, 2, 0.5)');
    expect(interiorSpace(parseYbn(writeYbn({ ...boxBound(), boxMin: [-1284, -1342, 5], boxMax: [-1282, -1338, 5.5] }).file, 'w.ybn', () => {}))).toBeUndefined();
  });

  it.skipIf(!SAMPLES)('the four real map files are world space (skipped: ../shared/data absent)', () => {
    for (const f of ['hei_ch3_08_17', 'po1_05_4', 'vb_20_0', 'm24_2_garment_factory_1']) {
      expect(interiorSpace(parseYbn(new Uint8Array(readFileSync(join(SAMPLES!, `${f}.ybn`))), `${f}.ybn`, () => {})), f).toBeUndefined();
    }
  });

  it('a world-space level built around the origin, beside a map that does not name it: a note, never a warning (--strict passes)', async () => {
    // A skate level authored around (0, 0, 0) and exported as a YBN, or a world tile over the origin: its bounds
    // look like interior space, but the content alone is no proof. Only a name that says interior makes it a warning.
    const park = join(dir, 'sk8_park_0.ybn');
    writeFileSync(park, writeYbn({ ...boxBound(), boxMin: [-40, -60, -2], boxMax: [40, 60, 8] }).file);
    const warnings: string[] = [];
    const r = await importYbn(park, { ...YBN_DEFAULTS, placement: { ymaps: ['props.ymap'], placements: [] } }, { warn: (w) => void warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(r.ybn.notes).toEqual([expect.stringMatching(/^sk8_park_0\.ybn its bounds \(-40, -60, -2\) … \(40, 60, 8\) lie around the origin, as MLO interior collision does \(or a level built around 0, 0, 0\).*no placement in props\.ymap names it .*compiled where it sits/)]);
  });

  it('unplaced: one note saying why; placed by the binary .ymap beside it: where the game puts it', async () => {
    const bare = await importYbn(office, YBN_DEFAULTS, { warn: () => {} });
    expect(bare.ybn.notes).toEqual([expect.stringMatching(/^ex_dt1_11_office_02b\.ybn its bounds \(-2, -1, 0\) … \(2, 1, 0\) lie around the origin, as MLO interior collision does \(or a level built around 0, 0, 0\).*give the \.ymap or \.ymap\.xml that places it/)]);
    const placements = readYmapBinary(writeYmapBinary(ENTITIES), 'ex_dt1_11.ymap', () => {});
    const mine = matchPlacements([office], placements).byFile.get(office)!;
    expect(mine.map((p) => p.index)).toEqual([1]);
    const warnings: string[] = [];
    const r = await importYbn(office, { ...YBN_DEFAULTS, placement: { ymaps: ['ex_dt1_11.ymap'], placements: mine } }, { warn: (w) => void warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(r.ybn.notes).toEqual([]);
    expect(r.ybn.placedBy[0]).toMatch(/^"hash_[0-9a-f]{8}" \(CMloInstanceDef 1 in ex_dt1_11\.ymap at \(-141\.5, -620\.9, 168\.8\)\)$/);
    // 90° about Z at (−141.5, −620.9, 168.8): local x ∈ [−2, 2], y ∈ [−1, 1] → world x ∈ [−142.5, −140.5], y ∈ [−622.9, −618.9].
    const p = r.objects[0].positions;
    const xs = [], ys = [];
    for (let i = 0; i < p.length; i += 3) (xs.push(p[i]), ys.push(-p[i + 2]));
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)].map((v) => +v.toFixed(3))).toEqual([-142.5, -140.5, -622.9, -618.9]);
  });
});
