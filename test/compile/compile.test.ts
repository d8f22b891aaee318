// End to end: glTF levels built in the test → compileLevel → .physics read back with the codec.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileLevel, type CompileResult, type Manifest } from '../../src/build/compile.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import { KIND_MESH, type PhysicsResource } from '../../src/format/types.ts';
import { verifyPhysics } from '../../src/format/verify.ts';
import { addNode, boxMesh, gridMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const tmp = tempDir('sk8-compile-');
afterAll(tmp.cleanup);
const warnings: string[] = [];
const hooks = { logger: { warn: (m: string) => void warnings.push(m) } };
const read = (dir: string, file: string): PhysicsResource => readPhysicsResource(new Uint8Array(readFileSync(join(dir, file))));
const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));

/** A small park: ground (concrete, 2 materials), a box (wood), a handrail grind curve, a skipped helper. */
async function park(name = 'park.glb'): Promise<string> {
  const doc = newLevel();
  addNode(doc, { name: 'ground', ...gridMesh(10, 10, 2, [-10, 0, -10]), material: 'concrete', more: [{ ...gridMesh(2, 2, 1, [12, 0, 0]), material: 'asphalt' }] });
  addNode(doc, { name: 'funbox', ...boxMesh([3, 0.25, 3], [1, 0.25, 2]), material: 'Wood' });
  addNode(doc, { name: 'handrail', positions: [0, 1, 5, 2, 0.5, 5, 4, 0, 5], mode: 3, nodeExtras: { sk8_grind_curve: true } });
  addNode(doc, { name: 'camera_helper', ...boxMesh([0, 5, 0], [0.1, 0.1, 0.1]), nodeExtras: { sk8_collision_mode: 'none' } });
  return writeLevel(doc, join(tmp.dir, name));
}

describe('per-object resources below the budget', () => {
  let r: CompileResult;
  it('compiles one resource per object, named after it', async () => {
    r = await compileLevel(await park(), {}, hooks);
    expect(r.outDir).toBe(join(tmp.dir, 'park.collision'));
    expect(readdirSync(r.outDir).filter((f) => f !== '.cache').sort()).toEqual(['funbox.physics', 'grind_handrail.physics', 'ground.physics', 'manifest.json']);
    expect(r.manifest.layout).toBe('objects');
  });
  it('writes parts per (object, material) with the packed words', () => {
    const ground = read(r.outDir, 'ground.physics');
    expect(ground.parts.map((p) => p.material)).toEqual([96, 160]);
    expect(ground.shapes.map((s) => s.faceOffsets.length - 1)).toEqual([200, 8]);
    expect(ground.parts.every((p) => p.kind === KIND_MESH)).toBe(true);
    const box = read(r.outDir, 'funbox.physics');
    expect(box.parts.map((p) => p.material)).toEqual([416]);
    expect(box.shapes[0].vertices.length / 3).toBe(8);
    expect(Array.from(box.parts[0].position)).toEqual([3, 0.25, 3]);
    const rail = read(r.outDir, 'grind_handrail.physics');
    expect(rail.parts.map((p) => p.material)).toEqual([37227424]);
    expect(rail.shapes[0].faceOffsets.length - 1).toBe(16); // collinear points: Douglas–Peucker keeps one segment
  });
  it('reports reskate_cli totals and per-resource facts in the manifest', () => {
    const m = manifestOf(r.outDir);
    expect(m).toEqual(r.manifest);
    expect(m.totals).toEqual({
      'collision-objects': 3, 'collision-triangles': 200 + 8 + 12 + 16, 'collision-resources': 3,
      'collision-parts': 4, 'unique-collision-files': 3, 'unique-collision-triangles': 236,
      // The funbox's 12 box edges (90°: 4·2 + 4·0.5 + 4·4 = 26 m) and the handrail prism's 8 sides (45°) along its
      // 4.12 m segment; the flat ground has none.
      'grindable-edges': 20, 'grindable-metres': 58.98,
    });
    expect(m.grind).toEqual({ creaseDegrees: 30, densityLimit: 1000, lostCreases: 0, denseParts: [], cut: { added: 0, dense: 0 } });
    const ground = m.resources.find((x) => x.name === 'ground')!;
    expect(ground).toMatchObject({ file: 'ground.physics', cell: null, parts: 2, shapes: 2, faces: 208, sourceObjects: ['ground'], materials: [96, 160] });
    expect(ground.bounds).toEqual({ min: [-10, 0, -10], max: [14, 0, 10] });
    expect(m.input.file).toBe('park.glb');
    expect(m.input.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(m.validation.ground).toMatchObject({ openEdges: 40 + 8, borderEdges: 40 + 8 }); // both grids' borders
    expect(m.validation.ground.crackEdges).toBeUndefined(); // zero counts are left out
    expect(m.validation.ground.locations?.borderEdges).toHaveLength(48);
    // Borders are info: the outline of an open ground is expected, so no warning names it.
    expect(m.warnings.some((w) => /object "ground"/.test(w))).toBe(false);
  });
  it('every resource passes verify', () => {
    for (const f of readdirSync(r.outDir).filter((x) => x.endsWith('.physics'))) expect(verifyPhysics(new Uint8Array(readFileSync(join(r.outDir, f))), f)).toEqual([]);
  });
  it('compiles twice to identical bytes', async () => {
    const again = await compileLevel(r.input, { out: join(tmp.dir, 'again') }, hooks);
    for (const f of readdirSync(r.outDir).filter((f) => f !== '.cache')) expect(readFileSync(join(again.outDir, f)).equals(readFileSync(join(r.outDir, f)))).toBe(true);
  });
});

/** Many small boxes spread over a 300 m square around the origin (negative cells included). */
async function scatter(name: string, n: number): Promise<string> {
  const doc = newLevel();
  for (let i = 0; i < n; i++) {
    const x = ((i * 37) % 300) - 150 + 0.5, z = ((i * 53) % 300) - 150 + 0.5;
    addNode(doc, { name: `crate_${i}`, ...boxMesh([x, 0.5, z], [0.4, 0.5, 0.4]), material: i % 3 ? 'concrete' : 'metal' });
  }
  addNode(doc, { name: 'floor', ...gridMesh(30, 30, 10, [-150, 0, -150]), material: 'asphalt' });
  return writeLevel(doc, join(tmp.dir, name));
}

describe('collision_area cells at or above the budget', () => {
  let r: CompileResult;
  let level: string;
  it('merges into cells named collision_area_<x>_<z>, origin at world (0, 0)', async () => {
    level = await scatter('scatter.glb', 120);
    r = await compileLevel(level, { budget: 100, workers: 1 }, hooks);
    expect(r.manifest.layout).toBe('cells');
    const names = r.manifest.resources.map((x) => x.name);
    expect(names).toEqual(['-2', '-1', '0', '1'].flatMap((x) => ['-2', '-1', '0', '1'].map((z) => `collision_area_${x}_${z}`)));
    expect(r.manifest.resources.find((x) => x.name === 'collision_area_-2_-2')!.cell).toEqual([-2, -2]);
  });
  it('puts every triangle in the cell of its centroid and loses none', () => {
    let faces = 0;
    const outside: string[] = [];
    for (const res of r.manifest.resources) {
      const pr = read(r.outDir, res.file);
      const [cx, cz] = res.cell!;
      for (const part of pr.parts) {
        const s = pr.shapes[part.shape];
        for (let f = 0; f + 1 < s.faceOffsets.length; f++, faces++) {
          let x = 0, z = 0;
          for (let c = s.faceOffsets[f]; c < s.faceOffsets[f + 1]; c++) {
            x += s.vertices[3 * s.cornerVertices[c]] + part.position[0];
            z += s.vertices[3 * s.cornerVertices[c] + 2] + part.position[2];
          }
          const inside = x / 3 >= cx * 100 - 1e-3 && x / 3 < (cx + 1) * 100 + 1e-3 && z / 3 >= cz * 100 - 1e-3 && z / 3 < (cz + 1) * 100 + 1e-3;
          if (!inside) outside.push(`${res.name} face ${f}: centroid (${x / 3}, ${z / 3})`);
        }
      }
    }
    expect(outside).toEqual([]);
    expect(faces).toBe(120 * 12 + 30 * 30 * 2);
    expect(r.manifest.totals['collision-objects']).toBe(121);
    expect(r.manifest.totals['collision-triangles']).toBe(faces);
  });
  it('every cell passes verify (round trip, invariants, faces inside their leaves)', () => {
    for (const res of r.manifest.resources) expect(verifyPhysics(new Uint8Array(readFileSync(join(r.outDir, res.file))), res.file)).toEqual([]);
  });
  it('gives one part per material in a cell and lists the source objects', () => {
    const c = r.manifest.resources.find((x) => x.name === 'collision_area_0_0')!;
    expect(new Set(c.materials)).toEqual(new Set([96, 352, 160]));
    expect(c.parts).toBe(3);
    expect(c.sourceObjects).toContain('floor');
    expect(c.sourceObjects.every((s) => s === 'floor' || s.startsWith('crate_'))).toBe(true);
  });
  it('is byte-identical for 1 and 3 workers', async () => {
    const w3 = await compileLevel(level, { budget: 100, workers: 3, out: join(tmp.dir, 'w3') }, hooks);
    expect(w3.workers).toBe(3);
    for (const f of readdirSync(r.outDir).filter((f) => f !== '.cache')) expect(readFileSync(join(w3.outDir, f)).equals(readFileSync(join(r.outDir, f)))).toBe(true);
  });
  it('honours --cell-size and writes a streaming plan when merged geometry still exceeds the budget', async () => {
    const s = await compileLevel(level, { budget: 10, cellSize: 200, out: join(tmp.dir, 'plan') }, hooks);
    expect(s.manifest.resources.map((x) => x.name)).toEqual(['collision_area_-1_-1', 'collision_area_-1_0', 'collision_area_0_-1', 'collision_area_0_0']);
    expect(s.manifest.geometries).toBeGreaterThanOrEqual(10);
    const plan = JSON.parse(readFileSync(join(s.outDir, 'streaming-plan.json'), 'utf8'));
    expect(plan.cells.reduce((t: number, c: { geometries: number }) => t + c.geometries, 0)).toBe(s.manifest.geometries);
    expect(s.manifest.warnings.some((w) => /stream it by cell/.test(w))).toBe(true);
  });
});

describe('atomic publish', () => {
  it('keeps the previous output when a rebuild fails, and replaces it when one succeeds', async () => {
    const level = await park('atomic.glb');
    const first = await compileLevel(level, {}, hooks);
    const before = readFileSync(join(first.outDir, 'ground.physics'));
    writeFileSync(level, 'broken');
    await expect(compileLevel(level, {}, hooks)).rejects.toThrow(/gltf: /);
    expect(readFileSync(join(first.outDir, 'ground.physics')).equals(before)).toBe(true);
    await park('atomic.glb');
    await compileLevel(level, { tiling: 'cells' }, hooks);
    expect(readdirSync(first.outDir).some((f) => f.startsWith('collision_area_'))).toBe(true);
    expect(existsSync(join(first.outDir, 'ground.physics'))).toBe(false);
    expect(readdirSync(tmp.dir).filter((f) => /\.(tmp|old)-/.test(f))).toEqual([]);
  });
  it('refuses to replace a directory that is not its own output', async () => {
    const mine = join(tmp.dir, 'precious');
    mkdirSync(mine);
    writeFileSync(join(mine, 'thesis.txt'), 'do not delete');
    await expect(compileLevel(await park('p2.glb'), { out: mine }, hooks)).rejects.toThrow(/not a compile-collision output/);
    expect(readFileSync(join(mine, 'thesis.txt'), 'utf8')).toBe('do not delete');
  });
});

describe('budget switch', () => {
  it('goes to cells when the object count reaches the budget', async () => {
    const level = await scatter('few.glb', 9);
    const below = await compileLevel(level, { budget: 11, out: join(tmp.dir, 'below') }, hooks);
    expect(below.manifest.layout).toBe('objects');
    expect(below.manifest.geometries).toBe(9 * 1 + 1);
    const at = await compileLevel(level, { budget: 10, out: join(tmp.dir, 'at') }, hooks);
    expect(at.manifest.layout).toBe('cells');
  });
  it('splits a part past 21,845 faces into several shapes and counts each', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'terrain', ...gridMesh(150, 80, 1, [0, 0, 0]) });
    const r = await compileLevel(await writeLevel(doc, join(tmp.dir, 'big.glb')), {}, hooks);
    const res = read(r.outDir, 'terrain.physics');
    expect(res.shapes.length).toBeGreaterThanOrEqual(2);
    expect(res.shapes.every((s) => s.faceOffsets.length - 1 <= 21845)).toBe(true);
    expect(r.manifest.geometries).toBe(res.shapes.length);
    expect(r.manifest.totals['collision-triangles']).toBe(24000);
  });
});

describe('header form', () => {
  it("uses the game's form by default and copies a Studio template's word and body when given", async () => {
    const level = await park('form.glb');
    const game = await compileLevel(level, { out: join(tmp.dir, 'form-game') }, hooks);
    const g = read(game.outDir, 'funbox.physics');
    expect(g.word08).toBe(0);
    expect(g.body.length).toBe(0);
    const body = Uint8Array.from({ length: 0x4c }, (_, i) => (i * 7) & 0xff);
    const template = join(tmp.dir, 'studio.physics');
    writeFileSync(template, writePhysicsResource({ ...g, word08: 1, body }));
    const studio = await compileLevel(level, { out: join(tmp.dir, 'form-studio'), studioTemplate: template }, hooks);
    const st = read(studio.outDir, 'funbox.physics');
    expect(st.word08).toBe(1);
    expect(Array.from(st.body)).toEqual(Array.from(body));
    expect(st.shapes).toEqual(g.shapes);
    expect(studio.manifest.options.header).toBe('studio');
    await expect(compileLevel(level, { out: join(tmp.dir, 'form-bad'), studioTemplate: join(game.outDir, 'funbox.physics') }, hooks)).rejects.toThrow(/body is 0 bytes, Studio's is 76/);
    expect(existsSync(join(tmp.dir, 'form-bad'))).toBe(false);
  });
});

describe('objects without usable triangles', () => {
  it('writes no resource for an all-degenerate object and says so', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'ok', ...boxMesh([0, 0, 0], [1, 1, 1]) });
    addNode(doc, { name: 'sliver', positions: [0, 0, 0, 1, 0, 0, 2, 0, 0], indices: [0, 1, 2] });
    const r = await compileLevel(await writeLevel(doc, join(tmp.dir, 'sliver.glb')), {}, hooks);
    expect(readdirSync(r.outDir).filter((f) => f !== '.cache').sort()).toEqual(['manifest.json', 'ok.physics']);
    expect(r.manifest.warnings).toContain('encode: "sliver": no triangle with area; no resource written');
    expect(r.manifest.validation.sliver).toMatchObject({ degenerate: 1 });
  });
});

describe('findings with locations', () => {
  /** Ground, a ramp deck 0.5 mm off the ground's east side (a crack in both), and a closed box on it. */
  async function cracked(name: string): Promise<string> {
    const doc = newLevel();
    addNode(doc, { name: 'ground', ...gridMesh(4, 4, 1, [0, 0, 0]), material: 'concrete' });
    addNode(doc, { name: 'deck', ...gridMesh(2, 4, 1, [4.0005, 0, 0]), material: 'wood' });
    addNode(doc, { name: 'crate', ...boxMesh([2, 0.5, 2], [0.5, 0.5, 0.5]), material: 'wood' });
    return writeLevel(doc, join(tmp.dir, name));
  }
  it('warns for cracks across objects with the first location, the same on the worker and the main thread', async () => {
    const file = await cracked('cracked.glb');
    const one = await compileLevel(file, { workers: 1, out: join(tmp.dir, 'cracked-1') }, hooks);
    const two = await compileLevel(file, { workers: 2, out: join(tmp.dir, 'cracked-2') }, hooks);
    expect(two.workers).toBeGreaterThanOrEqual(1);
    expect(two.manifest.validation).toEqual(one.manifest.validation);
    expect(two.manifest.warnings).toEqual(one.manifest.warnings);
    const v = one.manifest.validation;
    expect(v.ground).toMatchObject({ openEdges: 16, crackEdges: 4, borderEdges: 12 });
    expect(v.deck).toMatchObject({ openEdges: 12, crackEdges: 4, borderEdges: 8 });
    expect(v.crate).toBeUndefined();
    expect(v.ground.locations!.crackEdges!.every((l) => l.with === 'deck' && l.points.every((p) => p[0] === 4))).toBe(true);
    const line = one.manifest.warnings.find((w) => w.startsWith('validate: object "ground"'))!;
    expect(line).toMatch(/4 cracks .*first: edge \(4, 0, \d\)–\(4, 0, \d\) of triangle \d+, along "deck"/);
  });
});
