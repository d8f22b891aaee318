// Interiors placed by the map: CodeWalker .ymap.xml placements (CMloInstanceDef: the stored
// quaternion is the orientation; CEntityDef: its conjugate), matched to YBN files by archetype name, applied to
// every vertex; checked against hand-computed world corners. Unplaced interior-looking files get a note, or a
// warning when a map was given that does not name them.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importYbn, YBN_DEFAULTS } from '../../../src/import/ybn/index.ts';
import { joaat, looksInterior, matchPlacements, readYmapXml } from '../../../src/import/ybn/ymap.ts';
import { tempDir } from '../../fixtures/levels.ts';
import { boxBound, twoTriangles, writeYbn, writeYbnXml, writeYmapXml, type FxEntity } from '../../fixtures/ybn.ts';

const tmp = tempDir('sk8-ymap-');
afterAll(tmp.cleanup);
const S = Math.SQRT1_2;

/** Two placed interiors, a CEntityDef placing a YBN (the inverse convention), and an interior no file matches. */
const ENTITIES: FxEntity[] = [
  { type: 'CMloInstanceDef', archetype: 'v_skate_a', position: [100, 200, 10], rotation: [0, 0, S, S] }, // 90° about Z
  { type: 'CMloInstanceDef', archetype: 'gr_shop_int_01', position: [-50, 30, 5], rotation: [S, 0, 0, S] }, // 90° about X
  { type: 'CEntityDef', archetype: 'v_ramp_col', position: [0, 0, 0], rotation: [0, 0, S, S] }, // stored inverse: −90° about Z
  { type: 'CMloInstanceDef', archetype: 'v_missing', position: [1, 2, 3], rotation: [0, 0, 0, 1] },
  { type: 'CEntityDef', archetype: 'prop_bench_01', position: [5, 5, 0], rotation: [0, 0, 0, 1] },
];

const dir = join(tmp.dir, 'port');
mkdirSync(dir, { recursive: true });
const files = {
  a: join(dir, 'v_skate_a.ybn'),
  b: join(dir, 'gr_shop_int_01_col.ybn'),
  bXml: join(dir, 'xml', 'gr_shop_int_01_col.ybn.xml'),
  ramp: join(dir, 'v_ramp_col.ybn'),
  lonely: join(dir, 'v_lonely.ybn'),
  world: join(dir, 'vb_20_0.ybn'),
};
writeFileSync(files.a, writeYbn(boxBound()).file);
writeFileSync(files.b, writeYbn(twoTriangles()).file);
mkdirSync(join(dir, 'xml'));
writeFileSync(files.bXml, writeYbnXml(twoTriangles()));
writeFileSync(files.ramp, writeYbn(boxBound()).file);
writeFileSync(files.lonely, writeYbn(boxBound()).file);
// World-space map collision lies where the map is (vb_20_0's box: (−1325, −1394, 1) … (−1242, −1287, 12)).
writeFileSync(files.world, writeYbn({ ...boxBound(), sphereCentre: [-1283, -1340, 5], boxMin: [-1284, -1342, 5], boxMax: [-1282, -1338, 5.5] }).file);
const placements = readYmapXml(writeYmapXml(ENTITIES), 'port_map.ymap.xml');

/** Vertices in game space (x, z, −y), rounded to 4 decimals, sorted. */
const verts = (p: Float32Array): string[] => {
  const out: string[] = [];
  for (let i = 0; i < p.length; i += 3) out.push([p[i], p[i + 1], p[i + 2]].map((v) => (Math.round(v * 1e4) / 1e4 || 0).toString()).join(' '));
  return [...new Set(out)].sort();
};
const game = (x: number, y: number, z: number): string => [x, z, -y].map((v) => (v || 0).toString()).join(' ');

async function placed(file: string, opts = {}) {
  const m = matchPlacements([file], placements);
  const warnings: string[] = [];
  const r = await importYbn(file, { ...YBN_DEFAULTS, placement: { ymaps: ['port_map.ymap.xml'], placements: m.byFile.get(file)! }, ...opts }, { warn: (w) => void warnings.push(w) });
  return { ...r, warnings };
}

describe('.ymap.xml placements', () => {
  it('reads both entity kinds: position, stored rotation, world orientation (MLO as stored, entity conjugated)', () => {
    expect(placements.map((p) => `${p.kind} ${p.archetype}`)).toEqual(ENTITIES.map((e) => `${e.type} ${e.archetype}`));
    expect(placements[0].orientation.map((v) => +v.toFixed(6))).toEqual([0, 0, +S.toFixed(6), +S.toFixed(6)]);
    expect(placements[2].orientation.map((v) => +v.toFixed(6) || 0)).toEqual([0, 0, -S.toFixed(6), +S.toFixed(6)]);
  });

  it('matches archetypes to files by stem, stem without _col, or hash_XXXXXXXX; lists interiors naming no file', () => {
    expect(joaat('adder')).toBe(0xb779a091);
    const m = matchPlacements(Object.values(files), [...placements, { ...placements[0], archetype: `hash_${joaat('v_lonely').toString(16).toUpperCase()}` }]);
    expect(m.byFile.get(files.a)!.map((p) => p.archetype)).toEqual(['v_skate_a']);
    expect(m.byFile.get(files.b)!.map((p) => p.archetype)).toEqual(['gr_shop_int_01']);
    expect(m.byFile.get(files.bXml)!.map((p) => p.archetype)).toEqual(['gr_shop_int_01']);
    expect(m.byFile.get(files.lonely)!).toHaveLength(1);
    expect(m.unmatched.map((p) => p.archetype)).toEqual(['v_missing']);
    expect(m.unmatchedEntities).toBe(1);
    expect([files.a, files.b, files.ramp, files.lonely, files.world].map(looksInterior)).toEqual([true, true, true, true, false]);
  });

  it('interior A (box, 90° about Z, at (100, 200, 10)): world corners as computed by hand', async () => {
    const r = await placed(files.a);
    // Local x ∈ [−1, 1], y ∈ [−2, 2], z ∈ [0, 0.5]; R(90° Z): (x, y, z) → (−y, x, z); + (100, 200, 10).
    const want: string[] = [];
    for (const x of [-1, 1]) for (const y of [-2, 2]) for (const z of [0, 0.5]) want.push(game(100 - y, 200 + x, 10 + z));
    expect(verts(r.objects[0].positions).filter((v) => want.includes(v)).sort()).toEqual(want.sort());
    const b = bbox(r.objects[0].positions);
    expect(b).toEqual({ min: [98, 10, -201], max: [102, 10.5, -199] });
    expect(r.ybn.placedBy).toEqual(['"v_skate_a" (CMloInstanceDef 0 in port_map.ymap.xml at (100, 200, 10))']);
    expect(r.warnings).toEqual([]);
  });

  it('interior B (geometry, 90° about X, at (−50, 30, 5)), .ybn and .ybn.xml: every vertex as computed by hand', async () => {
    // Vertices (8|12, 19|21, 1); R(90° X): (x, y, z) → (x, −z, y); + (−50, 30, 5).
    const want = [[8, 19], [12, 19], [12, 21], [8, 21]].map(([x, y]) => game(x - 50, -1 + 30, y + 5)).sort();
    for (const f of [files.b, files.bXml]) expect(verts((await placed(f)).objects[0].positions), f).toEqual(want);
  });

  it('a CEntityDef stores the inverse rotation: (0, 0, sin 45°, cos 45°) turns by −90° about Z', async () => {
    const b = bbox((await placed(files.ramp)).objects[0].positions);
    // R(−90° Z): (x, y, z) → (y, −x, z): x ∈ [−2, 2], y ∈ [−1, 1].
    expect(b).toEqual({ min: [-2, 0, -1], max: [2, 0.5, 1] });
  });

  it('several placements of one interior: one copy each, named by entity index; skipped children counted once', async () => {
    const twice = readYmapXml(writeYmapXml([ENTITIES[0], { ...ENTITIES[0], position: [0, 0, 0] }]), 'two.ymap.xml');
    const r = await importYbn(files.a, { ...YBN_DEFAULTS, placement: { ymaps: ['two.ymap.xml'], placements: twice } }, { warn: () => {} });
    expect(r.objects.map((o) => o.name)).toEqual(['v_skate_a_0', 'v_skate_a_1']);
    expect(r.ybn.placedBy).toHaveLength(2);
  });

  it('an interior-looking file: a warning when the given map does not name it, one note when no map was given; world files neither', async () => {
    const lonely = await placed(files.lonely);
    expect(lonely.warnings).toEqual([expect.stringMatching(/v_lonely\.ybn looks like MLO interior collision .*no placement in port_map\.ymap\.xml names it \(CMloInstanceDef archetypeName "v_lonely"\); compiled in interior space/)]);
    const notes: string[] = [];
    const bare = await importYbn(files.lonely, YBN_DEFAULTS, { warn: (w) => void notes.push(w) });
    expect(notes).toEqual([]);
    expect(bare.ybn.notes).toEqual([expect.stringMatching(/^v_lonely\.ybn looks like MLO interior collision .*: compiled where it sits; give the \.ymap or \.ymap\.xml that places it \(--ymap/)]);
    const world = await importYbn(files.world, YBN_DEFAULTS, { warn: () => {} });
    expect(world.ybn.notes).toEqual([]);
  });

  it('a placement beyond ±100 km or a bad rotation is refused naming the entity', async () => {
    const far = readYmapXml(writeYmapXml([{ ...ENTITIES[0], position: [2e5, 0, 0] }]), 'far.ymap.xml');
    await expect(importYbn(files.a, { ...YBN_DEFAULTS, placement: { ymaps: ['far.ymap.xml'], placements: far } }, { warn: () => {} })).rejects.toThrow(/bound root, placed by "v_skate_a" \(entity 0\): .*beyond ±100000 m/);
    expect(() => readYmapXml(writeYmapXml([{ ...ENTITIES[0], rotation: [0, 0, 0, 0] }]), 'z.ymap.xml')).toThrow(/ymap-xml: z\.ymap\.xml: entity 0 \(CMloInstanceDef\) "v_skate_a": <rotation> is a zero quaternion/);
    // Every prefix of a real-shaped map cut mid-element says where it ends, never the parser's stack dump.
    const text = writeYmapXml(ENTITIES);
    for (const cut of [text.indexOf('<archetypeName>') + 20, text.indexOf('<position') + 5, Math.floor(text.length * 0.8)]) {
      expect(() => readYmapXml(text.slice(0, cut), 'cut.ymap.xml')).toThrow(/ymap-xml: cut\.ymap\.xml: not well-formed XML at line \d+, column \d+: (the file ends inside <CMapData>.*\(not closed: cut short\?\)|[^[]*$)/);
    }
    expect(() => readYmapXml(writeYmapXml([ENTITIES[0]]).replace('x="100"', 'x="far"'), 'n.ymap.xml')).toThrow(/entity 0 \(CMloInstanceDef\) "v_skate_a": <position> x "far" is not a finite number/);
    expect(() => readYmapXml('<Nope/>', 'r.ymap.xml')).toThrow(/no <CMapData> root element/);
  });
});

function bbox(p: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) for (let k = 0; k < 3; k++) (min[k] = Math.min(min[k], p[i + k])), (max[k] = Math.max(max[k], p[i + k]));
  const r = (v: number): number => Math.round(v * 1e4) / 1e4 || 0;
  return { min: min.map(r), max: max.map(r) };
}
