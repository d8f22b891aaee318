// Composite child flags: the bit table, the rule that decides which children are solid for a
// skater, both file forms reading the same words, --ybn-keep, the counts in manifest.json, the real samples.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLevel } from '../../../src/build/compile.ts';
import { childSkipReason, COLLISION_FLAG_NAMES, FLAG, flagNames, parseFlagNames, SKIP_REASONS } from '../../../src/import/ybn/flags.ts';
import { importYbn, YBN_DEFAULTS } from '../../../src/import/ybn/index.ts';
import { readBoundXml } from '../../../src/import/ybn/xml.ts';
import type { CompositeBound } from '../../../src/import/ybn/model.ts';
import { tempDir } from '../../fixtures/levels.ts';
import { boxBound, flaggedLevel, gameChildrenLevel, REAL_FLAGS, TOOL_FLAGS, writeYbn, writeYbnXml, type FxBound } from '../../fixtures/ybn.ts';
import { sharedPath } from '../../fixtures/shared.ts';

const tmp = tempDir('sk8-ybn-flags-');
afterAll(tmp.cleanup);
const SAMPLES = sharedPath('data/ybn-samples/', "ybn flags: the real samples' counts");

function writeBoth(name: string): [string, string] {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.ybn`), writeYbn(flaggedLevel()).file);
  writeFileSync(join(dir, `${name}.ybn.xml`), writeYbnXml(flaggedLevel()));
  return [join(dir, `${name}.ybn`), join(dir, `${name}.ybn.xml`)];
}

describe('the flag table and the rule', () => {
  it('names the 32 bits as CodeWalker and Sollumz do', () => {
    expect(COLLISION_FLAG_NAMES).toHaveLength(32);
    expect([FLAG.MAP_WEAPON, FLAG.PED, FLAG.FOLIAGE, FLAG.MAP_RIVER, FLAG.MAP_STAIRS, FLAG.MAP_DEEP_SURFACE]).toEqual([1 << 1, 0x200, 1 << 19, 1 << 27, 2 ** 30, 2 ** 31]);
    expect(flagNames(0x80000002)).toBe('MAP_WEAPON, MAP_DEEP_SURFACE');
    expect(flagNames(0)).toBe('NONE');
  });

  it('the real samples\' words: ground solid, stairs / river / foliage / weapon-only not, no flags solid', () => {
    expect(childSkipReason([...REAL_FLAGS.ground])).toBeNull();
    expect(childSkipReason([0x3c, 0x7f3bec0])).toBeNull();
    expect(childSkipReason([0x1e, 0x7f3be40])).toBeNull();
    expect(childSkipReason([...REAL_FLAGS.stairs])).toBe('stairs');
    expect(childSkipReason([...REAL_FLAGS.river])).toBe('river');
    expect(childSkipReason([...REAL_FLAGS.foliage])).toBe('foliage');
    expect(childSkipReason([...REAL_FLAGS.weapon])).toBe('probes');
    expect(childSkipReason([0x3e, FLAG.TEST_CAMERA | FLAG.TEST_AI])).toBe('probes');
    expect(childSkipReason([0x3e, FLAG.VEHICLE_BOX])).toBe('vehicles'); // only a vehicle's body meets it
    expect(childSkipReason(null)).toBeNull();
  });

  it('XML flag text ↔ words for every real word; an unknown name is refused naming it (cut to 80 characters)', () => {
    for (const [t, i] of Object.values(REAL_FLAGS)) {
      expect(parseFlagNames(flagNames(t), 'x')).toBe(t);
      expect(parseFlagNames(flagNames(i), 'x')).toBe(i);
    }
    expect(parseFlagNames('', 'x')).toBe(0);
    expect(() => parseFlagNames('MAP_WEAPON, MAP_SKATEPARK', 'ybn-xml: a.ybn.xml: bound 3: <CompositeFlags1>')).toThrow(/bound 3: <CompositeFlags1>: unknown collision flag "MAP_SKATEPARK"/);
    expect(() => parseFlagNames('X'.repeat(10_000), 'w')).toThrow(/"X{80}…"/);
  });

  it('XML reads <CompositeFlags1> as the type word and <CompositeFlags2> as the include word, like the binary', () => {
    const root = readBoundXml(writeYbnXml(flaggedLevel()), 'ybn-xml: f', () => {}) as CompositeBound;
    expect(root.children.map((c) => c.flags)).toEqual((flaggedLevel() as { children: { flags: number[] }[] }).children.map((c) => c.flags));
  });
});

describe('children as the game uses them (the words the tools write)', () => {
  it("Sollumz's presets: General and Stair mesh are solid; Stair plane, Water surface, Leaves, Deep surface are not", () => {
    expect(childSkipReason([...TOOL_FLAGS.general])).toBeNull();
    expect(childSkipReason([...TOOL_FLAGS.stairMesh])).toBeNull(); // the steps: a staircase, not a ramp
    expect(childSkipReason([...TOOL_FLAGS.stairMeshAll])).toBeNull();
    expect(childSkipReason([...TOOL_FLAGS.stairPlane])).toBe('stairs');
    expect(TOOL_FLAGS.stairPlane).toEqual(REAL_FLAGS.stairs); // the real samples' ramp is Sollumz's Stair plane
    expect(childSkipReason([...TOOL_FLAGS.water])).toBe('river');
    expect(childSkipReason([...TOOL_FLAGS.bush])).toBe('foliage');
    expect(childSkipReason([...TOOL_FLAGS.deep])).toBe('probes');
  });

  it('a child no ped meets is dropped: vehicle-only curbs as vehicles, AI-cover walls as cover', () => {
    expect(childSkipReason([...TOOL_FLAGS.vehicleOnly])).toBe('vehicles');
    expect(childSkipReason([...TOOL_FLAGS.cover])).toBe('cover');
    expect(childSkipReason([TOOL_FLAGS.cover[0], TOOL_FLAGS.cover[1] | FLAG.TEST_VEHICLE_WHEEL])).toBe('cover');
    // Cover among the other map bits is map ground that also hides the AI: its include decides.
    expect(childSkipReason([0x3e, REAL_FLAGS.ground[1]])).toBeNull();
  });

  it('a composite of them, both forms: the steps compiled, ramp / curb / cover wall dropped and listed with reasons', async () => {
    const dir = join(tmp.dir, 'game');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'game.ybn'), writeYbn(gameChildrenLevel()).file);
    writeFileSync(join(dir, 'game.ybn.xml'), writeYbnXml(gameChildrenLevel()));
    for (const f of ['game.ybn', 'game.ybn.xml']) {
      const r = await importYbn(join(dir, f), YBN_DEFAULTS, { warn: () => {} });
      expect(r.objects.map((o) => o.name), f).toEqual(['game_0', 'game_1', 'game_2']);
      expect(r.objects[1].groups[0].indices.length / 3).toBe(16); // 4 steps, every tread and riser
      expect(r.ybn.skipped).toEqual({ stairs: 1, river: 0, foliage: 0, cover: 1, vehicles: 1, probes: 0 });
      expect(r.ybn.skippedChildren.map((c) => `${c.bound} ${c.reason}`)).toEqual(['3 stairs', '4 vehicles', '5 cover']);
    }
    const kept = await importYbn(join(dir, 'game.ybn'), { ...YBN_DEFAULTS, keep: ['vehicles', 'cover'] }, { warn: () => {} });
    expect(kept.objects.map((o) => o.name)).toEqual(['game_0', 'game_1', 'game_2', 'game_4', 'game_5']);
    expect(kept.ybn.keptChildren.map((c) => `${c.bound} ${c.reason} ${c.by}`)).toEqual(['4 vehicles --ybn-keep', '5 cover --ybn-keep']);
    expect(kept.ybn.skippedChildren.map((c) => `${c.bound} ${c.reason}`)).toEqual(['3 stairs']);
  });

  it('--ybn-detail compiles a hi@ detail copy whose children no ped meets, each listed as kept by --ybn-detail', async () => {
    const dir = join(tmp.dir, 'detail');
    mkdirSync(dir, { recursive: true });
    const box = (x: number): FxBound => ({ ...boxBound(), sphereCentre: [x, 0, 0.25], boxMin: [x - 1, -2, 0], boxMax: [x + 1, 2, 0.5] });
    const level: FxBound = { kind: 'composite', children: [{ bound: box(0), flags: [...REAL_FLAGS.weapon] }, { bound: box(10), flags: [...TOOL_FLAGS.vehicleOnly] }, { bound: box(20), flags: [...TOOL_FLAGS.stairPlane] }] };
    writeFileSync(join(dir, 'hi@vb_20_0.ybn'), writeYbn(level).file);
    const r = await compileLevel(join(dir, 'hi@vb_20_0.ybn'), { out: join(dir, 'out'), workers: 1, ybn: { detail: true } });
    expect(r.manifest.totals['collision-objects']).toBe(2);
    expect(r.manifest.ybn!.keptChildren.map((c) => `${c.bound} ${c.reason} ${c.by}`)).toEqual(['0 probes --ybn-detail', '1 vehicles --ybn-detail']);
    expect(r.manifest.ybn!.skippedChildren.map((c) => `${c.bound} ${c.reason}`)).toEqual(['2 stairs']); // a ramp stays a ramp
    // The same file under a map name: the map rule, nothing kept.
    writeFileSync(join(dir, 'vb_20_0.ybn'), writeYbn(level).file);
    await expect(compileLevel(join(dir, 'vb_20_0.ybn'), { out: join(dir, 'out2'), workers: 1, ybn: { detail: true } })).rejects.toThrow(/no collision triangles .*stairs 1, vehicles 1, probes 1; --ybn-keep compiles them/);
  });
});

describe('children not solid for a skater', () => {
  it('are not compiled, in both forms; counted per reason and named', async () => {
    const [bin, xml] = writeBoth('flagged');
    for (const file of [bin, xml]) {
      const r = await importYbn(file, YBN_DEFAULTS, { warn: () => {} });
      expect(r.objects.map((o) => o.name), file).toEqual(['flagged_0', 'flagged_4']);
      expect(r.ybn.skipped).toEqual({ stairs: 1, river: 1, foliage: 1, cover: 0, vehicles: 0, probes: 1 });
      expect(r.ybn.skippedChildren.map((c) => `${c.bound} ${c.reason} ${c.type} ${c.include}`)).toEqual([
        '1 stairs 0x40000000 0x3e00200', '2 river 0x8000000 0x3e00000', '3 foliage 0x80000 0x5f33ec4', '5 probes 0x80000002 0x610000',
      ]);
    }
  });

  it('--ybn-keep (YbnOptions.keep) compiles the reasons it names', async () => {
    const [bin] = writeBoth('kept');
    const some = await importYbn(bin, { ...YBN_DEFAULTS, keep: ['stairs', 'probes'] }, { warn: () => {} });
    expect(some.objects.map((o) => o.name)).toEqual(['kept_0', 'kept_1', 'kept_4', 'kept_5']);
    expect(some.ybn.skipped).toEqual({ stairs: 0, river: 1, foliage: 1, cover: 0, vehicles: 0, probes: 0 });
    const all = await importYbn(bin, { ...YBN_DEFAULTS, keep: [...SKIP_REASONS] }, { warn: () => {} });
    expect(all.objects).toHaveLength(6);
  });

  it('manifest.json "ybn" carries --ybn-keep, the counts and the children; no warning for them', async () => {
    const [bin] = writeBoth('manifest');
    const r = await compileLevel(bin, { out: join(tmp.dir, 'manifest-out'), workers: 1, ybn: { detail: false, keep: ['river'] } });
    expect(r.manifest.ybn).toMatchObject({ keep: ['river'], skipped: { stairs: 1, river: 0, foliage: 1, cover: 0, vehicles: 0, probes: 1 } });
    expect(r.manifest.ybn!.skippedChildren.map((c) => c.bound)).toEqual(['1', '3', '5']);
    expect(r.manifest.warnings.filter((w) => /stairs|foliage|probes/.test(w))).toEqual([]);
  });

  it('a file whose every child is skipped: the error says so and names --ybn-keep', async () => {
    const dir = join(tmp.dir, 'only-stairs');
    mkdirSync(dir, { recursive: true });
    const level: FxBound = { kind: 'composite', children: [{ bound: boxBound(), flags: [...REAL_FLAGS.stairs] }] };
    writeFileSync(join(dir, 'stairs.ybn'), writeYbn(level).file);
    await expect(compileLevel(join(dir, 'stairs.ybn'), { out: join(dir, 'out'), workers: 1 })).rejects.toThrow(
      /no collision triangles \(1 bounds, 0 with collision, 1 skipped, 1 of them composite children not solid for a skater \(stairs 1; --ybn-keep compiles them\)\)/,
    );
  });

  it.skipIf(!SAMPLES)('the four real samples: counts per reason', async () => {
    const want: Record<string, object> = {
      hei_ch3_08_17: { stairs: 1, river: 1, foliage: 1, cover: 0, vehicles: 0, probes: 1 },
      po1_05_4: { stairs: 0, river: 0, foliage: 1, cover: 0, vehicles: 0, probes: 0 },
      vb_20_0: { stairs: 1, river: 0, foliage: 0, cover: 0, vehicles: 0, probes: 0 },
      m24_2_garment_factory_1: { stairs: 0, river: 0, foliage: 0, cover: 0, vehicles: 0, probes: 0 },
    };
    for (const [stem, counts] of Object.entries(want)) {
      const r = await importYbn(join(SAMPLES!, `${stem}.ybn`), YBN_DEFAULTS, { warn: () => {} });
      expect(r.ybn.skipped, stem).toEqual(counts);
    }
    const hei = await importYbn(join(SAMPLES!, 'hei_ch3_08_17.ybn'), YBN_DEFAULTS, { warn: () => {} });
    expect(hei.ybn.skippedChildren.map((c) => `${c.reason} ${c.type}/${c.include}`).sort()).toEqual([
      'foliage 0x80000/0x5f33ec4', 'probes 0x80000002/0x610000', 'river 0x8000000/0x3e00000', 'stairs 0x40000000/0x3e00200',
    ]);
  });
});
