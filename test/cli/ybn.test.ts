// compile-collision on GTA V collision, as a user runs it: .ybn and .ybn.xml levels, globs, hi@/ma@ notes,
// --ybn-detail, --chord-error, a broken file named in the message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../fixtures/levels.ts';
import { boxBound, compositeLevel, flaggedLevel, REAL_FLAGS, TOOL_FLAGS, twoTriangles, writeYbn, writeYbnXml, writeYmapBinary, writeYmapXml, type FxBound } from '../fixtures/ybn.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const tmp = tempDir('sk8-cli-ybn-');
afterAll(tmp.cleanup);
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });

beforeAll(() => {
  mkdirSync(join(tmp.dir, 'port'), { recursive: true });
  writeFileSync(join(tmp.dir, 'port/vb_34_skate.ybn'), writeYbn(compositeLevel()).file);
  writeFileSync(join(tmp.dir, 'port/vb_34_skate.ybn.xml'), writeYbnXml(compositeLevel()));
  writeFileSync(join(tmp.dir, 'port/hi@vb_34_skate.ybn'), writeYbn(boxBound()).file);
  writeFileSync(join(tmp.dir, 'broken.ybn'), 'RSC7 but not really');
  writeFileSync(join(tmp.dir, 'flagged.ybn'), writeYbn(flaggedLevel()).file);
  mkdirSync(join(tmp.dir, 'mlo'));
  writeFileSync(join(tmp.dir, 'mlo/v_skate_a.ybn'), writeYbn(boxBound()).file);
  writeFileSync(join(tmp.dir, 'mlo/gr_shop_int_01_col.ybn'), writeYbn(twoTriangles()).file);
  writeFileSync(join(tmp.dir, 'mlo/v_lonely.ybn'), writeYbn(boxBound()).file);
  const S = Math.SQRT1_2;
  writeFileSync(join(tmp.dir, 'mlo/map.ymap.xml'), writeYmapXml([
    { type: 'CMloInstanceDef', archetype: 'v_skate_a', position: [100, 200, 10], rotation: [0, 0, S, S] },
    { type: 'CMloInstanceDef', archetype: 'gr_shop_int_01', position: [-50, 30, 5], rotation: [S, 0, 0, S] },
    { type: 'CMloInstanceDef', archetype: 'v_missing', position: [1, 2, 3], rotation: [0, 0, 0, 1] },
  ]));
  mkdirSync(join(tmp.dir, 'alone'));
  writeFileSync(join(tmp.dir, 'alone/v_lonely.ybn'), writeYbn(boxBound()).file);
});

describe('compile-collision LEVEL.ybn', () => {
  it('builds a .ybn like a glTF: summary, <stem>.collision, exit 0', () => {
    const r = run('port/vb_34_skate.ybn', '--workers', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/collision-objects\s+5/);
    expect(r.stdout).toMatch(/bound 2_2: kind 15 \(cloth\) skipped/);
    expect(readdirSync(join(tmp.dir, 'port/vb_34_skate.collision')).filter((f) => f.endsWith('.physics')).sort()).toEqual([
      'vb_34_skate_0.physics', 'vb_34_skate_1.physics', 'vb_34_skate_2_0.physics', 'vb_34_skate_2_3.physics', 'vb_34_skate_3.physics',
    ]);
  });

  it('a glob takes .ybn and .ybn.xml, notes the hi@ copy it skips, and both forms write the same bytes', () => {
    // Both forms have the stem vb_34_skate: one output directory for two levels is refused before any build.
    const clash = run('port/*', '-o', 'all', '--workers', '1');
    expect(clash.status).toBe(2);
    expect(clash.stderr).toMatch(/port\/vb_34_skate\.ybn and port\/vb_34_skate\.ybn\.xml would all be written to \S*all\/vb_34_skate\.collision/);
    expect(existsSync(join(tmp.dir, 'all'))).toBe(false);
    const r = run('port/*.ybn', '-o', 'all', '--workers', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/note: port\/hi@vb_34_skate\.ybn skipped: a hi@\/ma@ file is the vehicle\/weapon detail copy/);
    expect(readdirSync(join(tmp.dir, 'all'))).toContain('manifest.json'); // one level left: -o is its directory
    const a = run('port/vb_34_skate.ybn', '-o', 'bin', '--workers', '1');
    const b = run('port/vb_34_skate.ybn.xml', '-o', 'xml', '--workers', '1');
    expect([a.status, b.status]).toEqual([0, 0]);
    for (const f of readdirSync(join(tmp.dir, 'bin')).filter((x) => x.endsWith('.physics'))) {
      expect(Buffer.compare(readFileSync(join(tmp.dir, 'bin', f)), readFileSync(join(tmp.dir, 'xml', f))), f).toBe(0);
    }
  });

  it('only hi@ copies given: the usage error says they were skipped and what compiles them (also under --quiet)', () => {
    for (const extra of [[], ['--quiet']]) {
      const r = run('port/hi@vb_34_skate.ybn', '-o', 'detail-none', ...extra);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/no level to compile: port\/hi@vb_34_skate\.ybn is a hi@\/ma@ detail copy \(vehicles and weapons\); --ybn-detail compiles it/);
      expect(r.stderr).not.toMatch(/only \.ymap/);
    }
  });

  it('--ybn-detail compiles the hi@ copy', () => {
    const r = run('port/hi@vb_34_skate.ybn', '--ybn-detail', '-o', 'detail');
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(join(tmp.dir, 'detail'))).toContain('hi_vb_34_skate.physics');
  });

  it('--ybn-detail compiles in one step a hi@ copy whose every child no ped meets, saying so', () => {
    const box = (x: number): FxBound => ({ ...boxBound(), sphereCentre: [x, 0, 0.25], boxMin: [x - 1, -2, 0], boxMax: [x + 1, 2, 0.5] });
    const level: FxBound = { kind: 'composite', children: [{ bound: box(0), flags: [...REAL_FLAGS.weapon] }, { bound: box(10), flags: [...TOOL_FLAGS.vehicleOnly] }] };
    writeFileSync(join(tmp.dir, 'hi@po1_05_4.ybn'), writeYbn(level).file);
    const r = run('hi@po1_05_4.ybn', '--ybn-detail', '-o', 'detail-probes', '--workers', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ybn: 2 children of hi@\/ma@ detail copies compiled \(--ybn-detail/);
    const m = JSON.parse(readFileSync(join(tmp.dir, 'detail-probes/manifest.json'), 'utf8'));
    expect(m.totals['collision-objects']).toBe(2);
    expect(m.ybn.keptChildren.map((c: { reason: string; by: string }) => `${c.reason} ${c.by}`)).toEqual(['probes --ybn-detail', 'vehicles --ybn-detail']);
  });

  it('--chord-error (the shape layer\'s) sets how finely YBN primitives are tessellated', () => {
    const fine = run('port/vb_34_skate.ybn', '-o', 'fine', '--workers', '1', '--json');
    const coarse = run('port/vb_34_skate.ybn', '-o', 'coarse', '--workers', '1', '--json', '--chord-error', '0.05');
    expect([fine.status, coarse.status]).toEqual([0, 0]);
    const tris = (r: typeof fine): number => JSON.parse(r.stdout).manifest.totals['collision-triangles'];
    expect(tris(coarse)).toBeLessThan(tris(fine));
  });

  it('a broken .ybn exits 1 naming the file and the field; a bad --chord-error exits 2', () => {
    const r = run('broken.ybn');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/compile-collision: ybn: broken\.ybn: at 0x[0-9a-f]+: .*(page flags|deflate body)/);
    const bad = run('port/vb_34_skate.ybn', '--chord-error', '2');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--chord-error expects a number of metres from 0\.0001 to 0\.5; got "2"/);
  });

  it('children not solid for a skater: counted in the summary, named with --verbose, kept with --ybn-keep; a bad reason exits 2', () => {
    const r = run('flagged.ybn', '-o', 'flagged', '--workers', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/collision-objects\s+2\b/);
    expect(r.stdout).toContain('ybn: 4 composite children not solid for a skater, not compiled (stairs 1, river 1, foliage 1, probes 1; --ybn-keep stairs,river,foliage,probes compiles them)');
    expect(r.stdout).not.toMatch(/bound 1: stairs/);
    const v = run('flagged.ybn', '-o', 'flagged', '--workers', '1', '--verbose');
    expect(v.stdout).toContain('flagged.ybn: bound 1: stairs (type 0x40000000, include 0x3e00200)');
    expect(v.stdout).toContain('flagged.ybn: bound 5: probes (type 0x80000002, include 0x610000)');
    const k = run('flagged.ybn', '-o', 'kept', '--workers', '1', '--ybn-keep', 'stairs,foliage', '--json');
    expect(k.status, k.stderr).toBe(0);
    const m = JSON.parse(k.stdout).manifest;
    expect(m.totals['collision-objects']).toBe(4);
    expect(m.ybn.skipped).toEqual({ stairs: 0, river: 1, foliage: 0, cover: 0, vehicles: 0, probes: 1 });
    expect(run('flagged.ybn', '-o', 'all', '--ybn-keep', 'all', '--json').stdout).toMatch(/"collision-objects": 6/);
    const bad = run('flagged.ybn', '--ybn-keep', 'stairs,ramps');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--ybn-keep expects a comma list of stairs, river, foliage, cover, vehicles, probes or all; got "ramps"/);
  });

  it('a port folder with the game\'s binary .ymap: an interior named like none is placed by it; an unreadable one is named', () => {
    mkdirSync(join(tmp.dir, 'office'));
    writeFileSync(join(tmp.dir, 'office/ex_dt1_11_office_02b.ybn'), writeYbn(boxBound()).file);
    writeFileSync(join(tmp.dir, 'office/ex_dt1_11.ymap'), writeYmapBinary([
      { type: 'CMloInstanceDef', archetype: 'ex_dt1_11_office_02b', position: [100, 200, 10], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] },
    ]));
    const r = run('office', '-o', 'office-out', '--workers', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/placed by "hash_[0-9a-f]{8}" \(CMloInstanceDef 0 in ex_dt1_11\.ymap at \(100, 200, 10\)\)/);
    const m = JSON.parse(readFileSync(join(tmp.dir, 'office-out/manifest.json'), 'utf8'));
    expect(m.resources[0].bounds).toEqual({ min: [98, 10, -201], max: [102, 10.5, -199] });
    writeFileSync(join(tmp.dir, 'office/ex_dt1_11.ymap'), 'RSC7 cut short');
    const bad = run('office', '-o', 'office-bad', '--workers', '1');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/compile-collision: ymap: office\/ex_dt1_11\.ymap: at 0x[0-9a-f]+: /);
  });

  it('a port folder with its .ymap.xml: interiors placed, an unplaced interior and an unmatched archetype warned, by name', () => {
    const r = run('mlo', '-o', 'mlo-out', '--workers', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('compile-collision: warning: interior "v_missing" (CMloInstanceDef 2 in map.ymap.xml at (1, 2, 3)) names no YBN among the inputs; not placed');
    expect(r.stdout).toContain('placed by "v_skate_a" (CMloInstanceDef 0 in map.ymap.xml at (100, 200, 10))');
    expect(r.stdout).toMatch(/v_lonely\.ybn looks like MLO interior collision .*no placement in map\.ymap\.xml names it/);
    const m = JSON.parse(readFileSync(join(tmp.dir, 'mlo-out/v_skate_a.collision/manifest.json'), 'utf8'));
    // 90° about Z, then + (100, 200, 10), in game axes (x, z, −y).
    expect(m.resources[0].bounds).toEqual({ min: [98, 10, -201], max: [102, 10.5, -199] });
    const g = JSON.parse(readFileSync(join(tmp.dir, 'mlo-out/gr_shop_int_01_col.collision/manifest.json'), 'utf8'));
    expect(g.resources[0].bounds).toEqual({ min: [-42, 24, -29], max: [-38, 26, -29] });
    // The same with --ymap and the YBN files named one by one.
    const y = run('mlo/v_skate_a.ybn', '--ymap', 'mlo/map.ymap.xml', '-o', 'one', '--workers', '1', '--json');
    expect(y.status, y.stderr).toBe(0);
    expect(JSON.parse(y.stdout).manifest.resources[0].bounds).toEqual({ min: [98, 10, -201], max: [102, 10.5, -199] });
  });

  it('without any placement an interior-looking file gets one note (not a warning); a broken .ymap.xml exits 1 naming it', () => {
    const r = run('alone/v_lonely.ybn', '-o', 'lonely', '--workers', '1', '--strict');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.match(/note: v_lonely\.ybn looks like MLO interior collision/g)).toHaveLength(1);
    writeFileSync(join(tmp.dir, 'bad.ymap.xml'), '<CMapData><entities><Item type="CMloInstanceDef"><archetypeName>v_lonely</archetypeName><position x="a" y="0" z="0"/></Item></entities></CMapData>');
    const bad = run('alone/v_lonely.ybn', '--ymap', 'bad.ymap.xml', '-o', 'bad');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/compile-collision: ymap-xml: bad\.ymap\.xml: entity 0 \(CMloInstanceDef\) "v_lonely": <position> x "a" is not a finite number/);
  });
});
