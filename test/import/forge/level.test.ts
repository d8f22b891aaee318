// Forge placement, end to end: a level of placed spheres, capsules, boxes and a rotated, scaled compound written
// field by field (test/fixtures/forge.ts placedLevel), read from a .forge and from an extracted folder, with the
// world (skate. game space, Y up) positions computed by hand; then compiled by compileLevel.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileLevel } from '../../../src/build/compile.ts';
import { importForge } from '../../../src/import/forge/index.ts';
import { buildLevel, mul4, Z_UP_TO_Y_UP } from '../../../src/import/forge/level.ts';
import { SharedArena } from '../../../src/import/shared-arena.ts';
import { prng } from '../../fixtures/meshes.ts';
import { FORGE_MATERIAL_KEYWORDS } from '../../../src/import/forge/materials.ts';
import { buildSurfaceTable, DEFAULT_MATERIAL } from '../../../src/import/materials.ts';
import type { ImportedObject } from '../../../src/model.ts';
import { ac2DataFile, boxBody, dataFile, forgeFile, genericEntityBody, IDENTITY4, linkingEntity, placedLevel, refListBody, rotZ, sphereBody, swsEntityBody, T, translate, unityDataFile, withObjectHeader, type FixtureRecord } from '../../fixtures/forge.ts';
import { tempDir } from '../../fixtures/levels.ts';

const tmp = tempDir('sk8-forge-level-');
afterAll(tmp.cleanup);
const forgePath = join(tmp.dir, 'level_01.forge');
writeFileSync(forgePath, forgeFile([{ id: 1, name: 'level_01', bytes: dataFile(placedLevel()) }]));
const folder = join(tmp.dir, 'extracted');
for (const r of placedLevel()) {
  const d = join(folder, 'level_01', r.type.toString(16).toUpperCase().padStart(8, '0'));
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, `${Number(r.id).toString(16).toUpperCase().padStart(8, '0')}.sws`), r.body);
}

const bounds = (o: ImportedObject): { min: number[]; max: number[] } => {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < o.positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3], o.positions[i]);
    max[i % 3] = Math.max(max[i % 3], o.positions[i]);
  }
  return { min, max };
};
const near = (a: number[], b: number[], tol: number): void => a.forEach((v, k) => expect(Math.abs(v - b[k]), `${a} vs ${b}`).toBeLessThanOrEqual(tol));
/** The distinct corners of a box object, sorted. */
const corners = (o: ImportedObject): number[][] => {
  const seen = new Map<string, number[]>();
  for (let i = 0; i < o.positions.length; i += 3) {
    const p = [o.positions[i], o.positions[i + 1], o.positions[i + 2]].map((v) => Math.round(v * 1e4) / 1e4 + 0);
    seen.set(p.join(','), p);
  }
  return [...seen.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
};
const boxCorners = (x: [number, number], y: [number, number], z: [number, number]): number[][] => {
  const out: number[][] = [];
  for (const a of x) for (const b of y) for (const c of z) out.push([a, b, c]);
  return out.sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]);
};

async function load(input: string, nativeShapes = false) {
  const warnings: string[] = [];
  const r = await importForge(input, { chordError: 0.005, nativeShapes }, { warn: (m) => warnings.push(m) });
  return { ...r, warnings, byName: new Map(r.objects.map((o) => [o.name, o])) };
}

describe('forge placement', () => {
  it('Z-up → Y-up is a proper rotation: (x, y, z) → (x, z, −y)', () => {
    const m = Z_UP_TO_Y_UP;
    expect(mul4(m, [1, 2, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).slice(0, 4)).toEqual([1, 3, -2, 1]);
    const det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
    expect(det).toBe(1);
  });

  for (const [what, input] of [['.forge', forgePath], ['extracted folder', folder]] as const) {
    it(`${what}: every shape lands where the hand computation puts it`, async () => {
      const r = await load(input);
      // Extracted files are named by their ids (the extractor's name for a record without one), entities too.
      expect([...r.byName.keys()].sort()).toEqual(
        (what === '.forge' ? ['level_01_ball_ent_ball', 'level_01_compound_ent_part_ball', 'level_01_compound_ent_part_box', 'level_01_crate_ent_crate', 'level_01_pipe_ent_pipe'] :
          ['extracted_00000010_00000101', 'extracted_00000013_00000106', 'extracted_00000013_00000105', 'extracted_00000012_00000103', 'extracted_00000011_00000102']).sort(),
      );
      const get = (suffix: string): ImportedObject => [...r.byName.entries()].find(([k]) => k.endsWith(suffix))![1];
      const ball = what === '.forge' ? get('_ball_ent_ball') : get('00000101');
      // Sphere (0, 0, 1) r 0.5 under translate (10, 20, 0): forge (10, 20, 1) → game (10, 1, −20).
      const bb = bounds(ball);
      near(bb.min, [9.5, 0.5, -20.5], 0.006);
      near(bb.max, [10.5, 1.5, -19.5], 0.006);
      // Capsule (0,0,0)–(2,0,0) r 0.25 under 90° about Z then (0, 0, 5): ends forge (0,0,5), (0,2,5) → game (0,5,0), (0,5,−2).
      const pipe = bounds(what === '.forge' ? get('_pipe') : get('00000102'));
      near(pipe.min, [-0.25, 4.75, -2.25], 0.006);
      near(pipe.max, [0.25, 5.25, 0.25], 0.006);
      // Box half (1, 2, 3), matrix translate (4, 5, 6): forge x 3..5, y 3..7, z 3..9 → game x 3..5, y 3..9, z −7..−3.
      expect(corners(what === '.forge' ? get('_crate') : get('00000103'))).toEqual(boxCorners([3, 5], [3, 9], [-7, -3]));
      // Compound box: (±1)³ × Scales (2, 1, 3) → x ±2, y ±1, z ±3; + (2, 0, 0) → x 0..4; 90° about Z: (x, y) → (−y, x):
      // x −1..1, y 0..4; + (100, 0, 0) → x 99..101, y 0..4, z −3..3 → game x 99..101, y −3..3, z −4..0.
      expect(corners(what === '.forge' ? get('_part_box') : get('00000105'))).toEqual(boxCorners([99, 101], [-3, 3], [-4, 0]));
      // Compound sphere r 1 × 1.5 at (0, 0, 10): rotated about Z it stays; + (100, 0, 0) → game (100, 10, 0), r 1.5.
      const pb = bounds(what === '.forge' ? get('_part_ball') : get('00000106'));
      near(pb.min, [98.5, 8.5, -1.5], 0.006);
      near(pb.max, [101.5, 11.5, 1.5], 0.006);
    });
  }

  it('counts records read, refused and skipped by type, and names the heuristic, the MeshShape and the unmapped material', async () => {
    const r = await load(forgePath);
    expect(r.forge.records.read).toEqual({ Entity: 4, SphereShape: 2, CapsuleShape: 1, BoxShape: 2, ReferenceListShape: 1 });
    expect(r.forge.records.refused).toEqual({ Entity: 1 });
    expect(r.forge.records.skipped).toEqual({ CollisionMaterial: 2, MeshShape: 1 });
    expect(r.forge.unplacedShapes).toBe(0);
    expect(r.forge.objectsByEntity.compound_ent.sort()).toEqual(['level_01_compound_ent_part_ball', 'level_01_compound_ent_part_box']);
    const w = r.warnings.join('\n');
    expect(w).toMatch(/1 Entity record\(s\) refused .*"busy_ent" .*expected component count 0/);
    expect(w).toMatch(/1 MeshShape record\(s\) skipped/);
    expect(w).toMatch(/4 entity → shape link\(s\) found by looking for shape ids in the fields of each exactly-read Entity that can hold a reference \(its uninterpreted bytes: .*\): a heuristic/);
    expect(w).toMatch(/CollisionMaterial 0x201 "CM_Mystery" matches no entry .*default surface 0x20/);
    // CM_Concrete_Smooth → concrete by the keyword table; the capsule's unmapped one → the default.
    const table = buildSurfaceTable();
    expect(r.byName.get('level_01_crate_ent_crate')!.groups[0].material).toBe(table.get('concrete'));
    expect(r.byName.get('level_01_pipe_ent_pipe')!.groups[0].material).toBe(DEFAULT_MATERIAL);
  });

  it('a compound no entity links leaves it and its children unplaced, counted with one note', async () => {
    const file = join(tmp.dir, 'orphans.forge');
    writeFileSync(file, forgeFile([{ id: 1, name: 'orphans', bytes: dataFile(placedLevel().filter((r) => r.name !== 'compound_ent')) }]));
    const r = await load(file);
    expect(r.forge.unplacedShapes).toBe(3);
    expect(r.objects).toHaveLength(3);
    expect(r.warnings.join('\n')).toMatch(/3 shape\(s\) that no exactly-read Entity links, directly or through a compound, were not placed/);
  });

  it('a Scales fourth lane ≠ 1 is warned; a sphere scaled unevenly is refused by the shape layer, warned and skipped', async () => {
    const file = join(tmp.dir, 'odd.forge');
    writeFileSync(file, forgeFile([{ id: 1, name: 'odd', bytes: dataFile([
      { id: 0x20, type: T.Entity, name: 'e', body: linkingEntity(0x20, IDENTITY4, [0x30]) },
      { id: 0x30, type: T.ReferenceListShape, name: 'list', body: refListBody([0x31, 0x31], [IDENTITY4, IDENTITY4], [[1, 1, 1, 2], [1, 2, 1, 1]]) },
      { id: 0x31, type: T.SphereShape, name: 'ball', body: sphereBody([0, 0, 0], 1) },
    ]) }]));
    const r = await load(file);
    expect(r.objects.map((o) => o.name)).toEqual(['odd_e_ball']);
    const w = r.warnings.join('\n');
    expect(w).toMatch(/child 0: Scales fourth lane 2 is not 1; its meaning is not established/);
    expect(w).toMatch(/sphere under a non-uniform scale \(1, 2, 1\) would be an ellipsoid.*; skipped/);
  });

  it('--forge-materials overrides the table by name or id, and a bad surface is refused', async () => {
    const map = join(tmp.dir, 'map.json');
    writeFileSync(map, JSON.stringify({ cm_mystery: 'metal', '0x200': 'wood_thick_rough' }));
    const r = await importForge(forgePath, { chordError: 0.005, materials: map }, { warn: () => {} });
    const table = buildSurfaceTable();
    const by = new Map(r.objects.map((o) => [o.name, o]));
    expect(by.get('level_01_pipe_ent_pipe')!.groups[0].material).toBe(table.get('metal'));
    expect(by.get('level_01_crate_ent_crate')!.groups[0].material).toBe(table.get('wood_thick_rough'));
    writeFileSync(map, JSON.stringify({ x: 'lava' }));
    await expect(importForge(forgePath, { chordError: 0.005, materials: map }, { warn: () => {} })).rejects.toThrow(/forge-materials: .*"x": "lava" is not a skate\. surface/);
  });

  it('every keyword surface is a skate. surface, and docs/forge.md lists each keyword with it', () => {
    const table = buildSurfaceTable();
    const doc = readFileSync(new URL('../../../docs/forge.md', import.meta.url), 'utf8');
    const rows = doc.split('\n').filter((l) => l.startsWith('| ') && l.includes('`'));
    for (const [k, s] of FORGE_MATERIAL_KEYWORDS) {
      expect(table.has(s), `${k} → ${s}`).toBe(true);
      // A row's cells pair keywords and surfaces ("sand / gravel" with "`sand` / `gravel`").
      const paired = rows.some((l) => {
        const cells = l.split('|').map((c) => c.trim());
        return cells.some((c, i) => {
          const keys = c.split('/').map((x) => x.split(',').map((y) => y.trim()));
          const surfaces = (cells[i + 1] ?? '').split('/').map((x) => x.trim());
          return keys.some((ks, j) => ks.includes(k) && surfaces[j] === `\`${s}\``);
        });
      });
      expect(paired, `docs/forge.md: keyword ${k} → \`${s}\``).toBe(true);
    }
  });

  it('version 27 (Unity generation): 64-bit ids, the generic Entity profile, a box placed by a rotated entity', async () => {
    const box = 0x1234_5678_9abcn;
    const file = join(tmp.dir, 'unity.forge');
    writeFileSync(file, forgeFile([{ id: 0x77n << 32n, name: 'unity', bytes: unityDataFile([
      { id: 0x99n << 32n, type: T.Entity, name: 'gate', body: genericEntityBody(rotZ(90, [1, 2, 3]), { linkIds: [box] }) },
      { id: box, type: T.BoxShape, name: 'post', body: boxBody([0.5, 1, 2]) },
    ]) }], 27));
    const r = await load(file);
    expect(r.forge.records.read).toEqual({ Entity: 1, BoxShape: 1 });
    // Box ±0.5, ±1, ±2 turned 90° about Z: x ±1, y ±0.5, z ±2; + (1, 2, 3): x 0..2, y 1.5..2.5, z 1..5 →
    // game x 0..2, y 1..5, z −2.5..−1.5.
    expect(corners(r.byName.get('unity_gate_post')!)).toEqual(boxCorners([0, 2], [1, 5], [-2.5, -1.5]));
  });

  it('--native-shapes: boxes become kind-2 parts at the placed centre', async () => {
    const r = await load(forgePath, true);
    const crate = r.byName.get('level_01_crate_ent_crate')!;
    expect(crate.native).toHaveLength(1);
    near(crate.native![0].position, [4, 6, -5], 1e-6);
    expect(crate.groups).toEqual([]);
  });

  it('compiles through compileLevel: resources written, the manifest counts the records', async () => {
    const out = join(tmp.dir, 'out');
    const r = await compileLevel(forgePath, { out, workers: 1, cache: false });
    expect(r.manifest.totals['collision-objects']).toBe(5);
    expect(r.manifest.forge?.records.refused).toEqual({ Entity: 1 });
    expect(r.manifest.forge?.objectsByEntity.ball_ent).toEqual(['level_01_ball_ent_ball']);
    expect(r.manifest.resources.length).toBeGreaterThan(0);
  });

  it('a compound of 6 to 9 children places every child (90 bytes a child, 40 once)', async () => {
    for (const n of [6, 9]) {
      const file = join(tmp.dir, `wide${n}.forge`);
      const kids = Array.from({ length: n }, (_, i) => 0x40 + i);
      writeFileSync(file, forgeFile([{ id: 1, name: `wide${n}`, bytes: dataFile([
        { id: 0x20, type: T.Entity, name: 'e', body: linkingEntity(0x20, IDENTITY4, [0x30]) },
        { id: 0x30, type: T.ReferenceListShape, name: 'row', body: refListBody(kids, kids.map((_, i) => translate(3 * i, 0, 0)), kids.map(() => [1, 1, 1, 1])) },
        ...kids.map((id, i) => ({ id, type: T.SphereShape, name: `b${i}`, body: sphereBody([0, 0, 0], 1) })),
      ]) }]));
      const r = await load(file);
      expect(r.forge.records.refused, `${n} children`).toEqual({});
      expect(r.objects.map((o) => o.name).sort(), `${n} children`).toEqual(kids.map((_, i) => `wide${n}_e_b${i}`).sort());
      // The last child at translate (3(n − 1), 0, 0): forge x → game x.
      const last = bounds(r.byName.get(`wide${n}_e_b${n - 1}`)!);
      near(last.min, [3 * (n - 1) - 1, -1, -1], 0.006);
    }
  });

  it('a shape whose id is the bits of 1.0f is not placed by the 1.0 in 3,000 entities\' matrices', async () => {
    const ONE = 0x3f800000; // Math.fround(1) as u32
    const file = join(tmp.dir, 'ones.forge');
    const entities = Array.from({ length: 3000 }, (_, i) => ({ id: 0x10000 + i, type: T.Entity, name: `e${i}`, body: linkingEntity(0x10000 + i, rotZ(0, [i, 0, 0]), i === 0 ? [0x31] : []) }));
    writeFileSync(file, forgeFile([{ id: 1, name: 'ones', bytes: dataFile([
      ...entities,
      { id: ONE, type: T.SphereShape, name: 'stray', body: sphereBody([0, 0, 0], 1) },
      { id: 0x31, type: T.BoxShape, name: 'crate', body: boxBody([1, 1, 1]) },
    ]) }]));
    const r = await load(file);
    expect(r.forge.records.read.Entity).toBe(3000);
    expect(r.objects.map((o) => o.name)).toEqual(['ones_e0_crate']);
    expect(r.forge.unplacedShapes).toBe(1);
  });

  it('the generic profile links from link, Run and action bytes, not from its matrix', async () => {
    const file = join(tmp.dir, 'unity-ones.forge');
    const ONE64 = 0x3f800000n; // the low word 1.0f of the matrix, zero above: equal to a u64 read across two floats
    writeFileSync(file, forgeFile([{ id: 0x77n << 32n, name: 'u', bytes: unityDataFile([
      { id: 0x99n << 32n, type: T.Entity, name: 'gate', body: genericEntityBody(rotZ(0, [0, 0, 0]), { linkIds: [0x5n] }) },
      { id: ONE64, type: T.SphereShape, name: 'stray', body: sphereBody([0, 0, 0], 1) },
      { id: 0x5n, type: T.BoxShape, name: 'post', body: boxBody([0.5, 1, 2]) },
    ]) }], 27));
    const r = await load(file);
    expect(r.objects.map((o) => o.name)).toEqual(['unity-ones_gate_post']);
  });

  it('shape bodies with the AC2-era object header (0x01, u32 id, u32 class), from a folder: ids from the header, placed', async () => {
    const dir = join(tmp.dir, 'ac2-era');
    const recs = [
      { type: T.Entity, name: 'ent', body: linkingEntity(0x20, translate(5, 0, 0), [0x30]) },
      { type: T.ReferenceListShape, name: 'pair', body: withObjectHeader(T.ReferenceListShape, 0x30, refListBody([0x31, 0x32], [IDENTITY4, translate(0, 0, 4)], [[1, 1, 1, 1], [1, 1, 1, 1]])) },
      { type: T.SphereShape, name: 'ball', body: withObjectHeader(T.SphereShape, 0x31, sphereBody([0, 0, 0], 0.5)) },
      { type: T.BoxShape, name: 'crate', body: withObjectHeader(T.BoxShape, 0x32, boxBody([1, 1, 1]), 'header+table') },
    ];
    for (const r of recs) {
      const d = join(dir, 'level', r.type.toString(16).toUpperCase().padStart(8, '0'));
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, `${r.name}.sws`), r.body);
    }
    const r = await load(dir);
    expect(r.forge.records.refused).toEqual({});
    expect(r.objects.map((o) => o.name).sort()).toEqual(['ac2-era_ent_ball', 'ac2-era_ent_crate']);
    near(bounds(r.byName.get('ac2-era_ent_crate')!).min, [4, 3, -1], 1e-5);
  });

  it('nested compounds: the placed shapes are counted before any is placed (5^7 spheres from 4.3 KB refused at once)', async () => {
    const nest = (depth: number): FixtureRecord[] => {
      const recs: FixtureRecord[] = [{ id: 0x100, type: T.SphereShape, name: 'b', body: sphereBody([0, 0, 0], 1) }];
      for (let d = 1; d <= depth; d++) {
        recs.push({ id: 0x100 + d, type: T.ReferenceListShape, name: `l${d}`, body: refListBody(Array(5).fill(0x100 + d - 1), Array.from({ length: 5 }, (_, i) => translate(i * 3 ** d, 0, 0)), Array(5).fill([1, 1, 1, 1])) });
      }
      return [...recs, { id: 0x10, type: T.Entity, name: 'e', body: linkingEntity(0x10, IDENTITY4, [0x100 + depth]) }];
    };
    const file = join(tmp.dir, 'nest7.forge');
    writeFileSync(file, forgeFile([{ id: 1, name: 'nest', bytes: dataFile(nest(7)) }]));
    const size = readFileSync(file).length;
    const t0 = performance.now();
    await expect(load(file)).rejects.toThrow(new RegExp(`^forge: .*nest7\\.forge: the level's entity links expand to 78125 shapes \\(compound children counted each time they are placed\\), more than the cap of ${10_000 + Math.floor(size / 4)} \\(10000 \\+ one per 4 bytes of the ${size}-byte input, at most 200000\\); refusing before placing any$`));
    expect(performance.now() - t0).toBeLessThan(2000);
    // A cycle is refused by name, before anything is placed.
    const cyc = nest(2);
    cyc[0] = { id: 0x100, type: T.ReferenceListShape, name: 'loop', body: refListBody([0x102], [IDENTITY4], [[1, 1, 1, 1]]) };
    const file2 = join(tmp.dir, 'cycle.forge');
    writeFileSync(file2, forgeFile([{ id: 1, name: 'cycle', bytes: dataFile(cyc) }]));
    await expect(load(file2)).rejects.toThrow(/ReferenceListShape "l\d" \(id 0x10\d, data file "cycle"\): lists itself through its children \(a cycle of ReferenceListShapes\)/);
  });

  it('references that place nothing (ids no record has, nested 40^4 times) count against the cap too', async () => {
    const recs: FixtureRecord[] = [];
    let child = 0xdead; // no record has this id
    for (let d = 1; d <= 4; d++) {
      recs.push({ id: 0x200 + d, type: T.ReferenceListShape, name: `l${d}`, body: refListBody(Array(40).fill(child), Array(40).fill(IDENTITY4), Array(40).fill([1, 1, 1, 1])) });
      child = 0x200 + d;
    }
    recs.push({ id: 0x10, type: T.Entity, name: 'e', body: linkingEntity(0x10, IDENTITY4, [0x204]) });
    const file = join(tmp.dir, 'hollow.forge');
    writeFileSync(file, forgeFile([{ id: 1, name: 'hollow', bytes: dataFile(recs) }]));
    const t0 = performance.now();
    await expect(load(file)).rejects.toThrow(/the level's entity links expand to more than 200000 shapes .*refusing before placing any$/);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('the triangles of the placed primitives are counted before any is made (256 spheres of radius 10 m)', async () => {
    const recs: FixtureRecord[] = [{ id: 0x300, type: T.SphereShape, name: 'big', body: sphereBody([0, 0, 0], 10) }];
    for (let d = 1; d <= 4; d++) {
      recs.push({ id: 0x300 + d, type: T.ReferenceListShape, name: `l${d}`, body: refListBody(Array(4).fill(0x300 + d - 1), Array.from({ length: 4 }, (_, i) => translate(25 * i * 4 ** (d - 1), 0, 0)), Array(4).fill([1, 1, 1, 1])) });
    }
    recs.push({ id: 0x10, type: T.Entity, name: 'e', body: linkingEntity(0x10, IDENTITY4, [0x304]) });
    const file = join(tmp.dir, 'big-balls.forge');
    writeFileSync(file, forgeFile([{ id: 1, name: 'big', bytes: dataFile(recs) }]));
    const t0 = performance.now();
    await expect(load(file)).rejects.toThrow(/^forge: \S+big-balls\.forge: the level's primitives tessellate to more than 5000000 triangles \(--chord-error 0\.005 m\); refusing before placing any$/);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('the same level in ACExplorer\'s AC2 layout (version 25 and 26) places the same objects at the same places', async () => {
    const listed = await load(forgePath);
    for (const version of [25, 26] as const) {
      const file = join(tmp.dir, `acx${version}.forge`);
      const f = forgeFile([{ id: 1, name: 'level_01', bytes: ac2DataFile(placedLevel(), { version, checkList: 2 }) }]);
      new DataView(f.buffer).setUint32(9, version, true);
      let bytes = f;
      if (version === 25) {
        // Version 25: the data file starts 440 bytes after its indexed offset.
        const dv = new DataView(f.buffer);
        const table = Number(dv.getBigUint64(Number(dv.getBigUint64(21 + 32, true)) + 8, true));
        const at = Number(dv.getBigUint64(table, true));
        bytes = new Uint8Array(f.length + 440);
        bytes.set(f.subarray(0, at));
        bytes.set(f.subarray(at), at + 440);
      }
      writeFileSync(file, bytes);
      const r = await load(file);
      expect(r.forge.records.refused, `version ${version}`).toEqual(listed.forge.records.refused);
      const rename = (n: string): string => n.replace(/^acx\d+_/, 'level_01_');
      expect([...r.byName.keys()].map(rename).sort(), `version ${version}`).toEqual([...listed.byName.keys()].sort());
      for (const [name, o] of r.byName) expect(Array.from(o.positions), name).toEqual(Array.from(listed.byName.get(rename(name))!.positions));
    }
  });

  it('no warning repeats the forge: stage', async () => {
    const file = join(tmp.dir, 'odd2.forge');
    writeFileSync(file, forgeFile([{ id: 1, name: 'odd', bytes: dataFile([
      { id: 0x20, type: T.Entity, name: 'e', body: linkingEntity(0x20, IDENTITY4, [0x30]) },
      { id: 0x30, type: T.ReferenceListShape, name: 'list', body: refListBody([0x31, 0x31], [IDENTITY4, IDENTITY4], [[1, 1, 1, 2], [1, 2, 1, 1]]) },
      { id: 0x31, type: T.SphereShape, name: 'ball', body: sphereBody([0, 0, 0], 1) },
    ]) }]));
    const r = await load(file);
    expect(r.warnings.length).toBeGreaterThan(2);
    for (const w of r.warnings) expect(w.split(`forge: ${file}`).length - 1, w).toBe(1);
    expect(r.warnings.join('\n')).toMatch(/^forge: \S+odd2\.forge: entity "e" list_1\/SphereShape "ball" .*: sphere under a non-uniform scale/m);
  });

  it('a data file refused is warned with the stage once, and a level of only refused data files says why', async () => {
    const file = join(tmp.dir, 'halfbad.forge');
    const bad = dataFile(placedLevel()).slice(0, 30);
    writeFileSync(file, forgeFile([{ id: 1, name: 'good', bytes: dataFile(placedLevel()) }, { id: 2, name: 'bad', bytes: bad }]));
    const r = await load(file);
    const w = r.warnings.find((x) => x.includes('data file(s) not read'))!;
    expect(w).toMatch(/^forge: \S+halfbad\.forge: 1 data file\(s\) not read, e\.g\. data file 2 "bad": at 0x/);
    expect(w.split(`forge: ${file}`).length - 1, w).toBe(1);
    expect(w).not.toMatch(/e\.g\. forge: /);
    const only = join(tmp.dir, 'allbad.forge');
    writeFileSync(only, forgeFile([{ id: 2, name: 'bad', bytes: bad }]));
    await expect(load(only)).rejects.toThrow(/^forge: \S+allbad\.forge: no data file could be read \(1 refused; the first: data file 2 "bad": at 0x[0-9a-f]+: /);
  });

  it('a level that places nothing says why: the counts and the first refusal', async () => {
    const file = join(tmp.dir, 'refused.forge');
    writeFileSync(file, forgeFile([{ id: 1, name: 'refused', bytes: dataFile([
      { id: 0x14, type: T.Entity, name: 'busy', body: swsEntityBody(0x14, IDENTITY4, { components: 1 }) },
      { id: 0x31, type: T.SphereShape, name: 'ball', body: sphereBody([0, 0, 0], 1).subarray(0, 30) },
    ]) }]));
    await expect(load(file)).rejects.toThrow(/^forge: \S+refused\.forge: no shape placed \(0 records read \(0 entities\), 2 refused, 0 skipped; 0 shapes unplaced; the first record refused: "busy" \(id 0x14, data file "refused"\): Entity: at 0x4a: expected component count 0/);
    const none = join(tmp.dir, 'unlinked.forge');
    writeFileSync(none, forgeFile([{ id: 1, name: 'unlinked', bytes: dataFile([{ id: 0x31, type: T.SphereShape, name: 'ball', body: sphereBody([0, 0, 0], 1) }]) }]));
    await expect(load(none)).rejects.toThrow(/no shape placed \(1 records read \(0 entities\), 0 refused, 0 skipped; 1 shapes unplaced; no Entity was read, and only entities place shapes\)/);
  });

  it('300 seeded mutations of the level\'s record bodies: built, or refused with a forge: error, never anything else', () => {
    const rand = prng(0x2727);
    const base = placedLevel();
    const words = [0, 1, 0x101, 0x104, 0x7f7fffff, 0xff800000, 0x7fc00000, 0x3f800000, 0xbf800000, 0x501502f9];
    let built = 0;
    for (let i = 0; i < 300; i++) {
      const recs = base.map((r) => ({ ...r, body: r.body.slice(), source: 'fuzz' }));
      for (let s = 0, n = 1 + Math.floor(rand() * 4); s < n; s++) {
        const b = recs[Math.floor(rand() * recs.length)].body;
        if (b.length < 4) continue;
        const at = Math.floor(rand() * (b.length - 3));
        if (rand() < 0.4) b[at] ^= 1 << Math.floor(rand() * 8);
        else new DataView(b.buffer).setUint32(at, words[Math.floor(rand() * words.length)], true);
      }
      try {
        const r = buildLevel(recs.map((r) => ({ ...r, id: BigInt(r.id) })), {
          stem: 'fuzz', stage: 'forge: fuzz', profile: 'sws', tessellation: { chordError: 0.01 }, nativeShapes: i % 2 === 0, materials: {}, logger: { warn: () => {} }, arena: new SharedArena(),
        });
        for (const o of r.objects) expect(o.positions.every(Number.isFinite), `mutation ${i}: ${o.name}`).toBe(true);
        built++;
      } catch (e) {
        expect((e as Error).message, `mutation ${i}`).toMatch(/^forge: fuzz: /);
      }
    }
    expect(built).toBeGreaterThan(150);
  });
});

describe('a rebuild of a forge level with nothing changed (src/build/unchanged.ts)', () => {
  it('is skipped; a changed --forge-materials map under the same name is not', async () => {
    const map = join(tmp.dir, 'unchanged-map.json');
    const out = join(tmp.dir, 'unchanged.collision');
    writeFileSync(map, JSON.stringify({ cm_mystery: 'metal' }));
    const opts = { out, workers: 1, forge: { materials: map } };
    const quiet = { logger: { warn: () => {} } };
    const first = await compileLevel(forgePath, opts, quiet);
    expect(first.unchanged).toBeUndefined();
    expect((await compileLevel(forgePath, opts, quiet)).unchanged).toBe(true);
    writeFileSync(map, JSON.stringify({ cm_mystery: 'wood_thick_rough' }));
    const r = await compileLevel(forgePath, opts, quiet);
    expect(r.unchanged).toBeUndefined();
    expect(r.manifest.resources.map((x) => x.materials)).not.toEqual(first.manifest.resources.map((x) => x.materials));
  });
});
