// The grind map in a build: manifest totals and findings, the warning with its place, inspect --json per part.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import { resourceGrind } from '../../src/format/grind-map.ts';
import { encodeResource } from '../../src/geometry/resource.ts';
import { GRIND_DENSITY_TARGET } from '../../src/geometry/grind-cut.ts';
import { layoutLine } from '../../cli/summary.ts';
import { compileLevel, type CompileResult } from '../../src/build/compile.ts';
import { addNode, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';
import { denseBox, foldedSheet, ledgeTerrain } from '../fixtures/grind.ts';

const tmp = tempDir('sk8-grind-');
afterAll(tmp.cleanup);
const root = new URL('../../', import.meta.url).pathname;

async function level(name: string): Promise<string> {
  const doc = newLevel();
  addNode(doc, { name: 'terrain', ...ledgeTerrain([-40, 0, -40]), material: 'concrete' });
  addNode(doc, { name: 'fold31', ...foldedSheet(31, [10, 0, 10]), material: 'concrete' });
  addNode(doc, { name: 'fold29', ...foldedSheet(29, [20, 0, 10]), material: 'concrete' });
  return writeLevel(doc, join(tmp.dir, name));
}

describe('grind map in the manifest', () => {
  let r: CompileResult;
  const warnings: string[] = [];
  it('reports the dense terrain part with its place and density, and the fold that grinds', async () => {
    r = await compileLevel(await level('studio.glb'), { grindDensity: 'off' }, { logger: { warn: (m) => void warnings.push(m) } });
    const m = r.manifest;
    expect(m.totals['grindable-edges']).toBe(4);
    expect(m.totals['grindable-metres']).toBe(2);
    expect(m.resources.find((x) => x.name === 'fold31')).toMatchObject({ 'grindable-edges': 4, 'grindable-metres': 2 });
    expect(m.resources.find((x) => x.name === 'fold29')).toMatchObject({ 'grindable-edges': 0 });
    expect(m.grind!.lostCreases).toBe(160);
    expect(m.grind!.denseParts).toEqual([{
      resource: 'terrain', part: 0, density: 1358, faces: 12_800, creases: 160, material: 0x60, at: [-30, 0.2, -30],
      bounds: { min: [-40, 0, -40], max: [-20, 0.4, -20] }, sourceObjects: ['terrain'],
    }]);
    expect(warnings.some((w) => /^grind: "terrain" part 0 \(12800 triangles around \(-30\.00, 0\.20, -30\.00\)\): 1358 half-edges per metre > 1000/.test(w))).toBe(true);
  });
  it('inspect --json gives each part its density and grindable edge count', () => {
    const j = (file: string) => JSON.parse(spawnSync(process.execPath, ['bin/compile-collision.js', 'inspect', join(r.outDir, file), '--json'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 }).stdout);
    expect(j('terrain.physics').summary.parts[0]).toMatchObject({ density: 1357.5, grindableEdges: 0, grindExcluded: 'dense' });
    expect(j('fold31.physics').summary.parts[0]).toMatchObject({ grindableEdges: 4, grindExcluded: null });
  });
});

const readRes = (dir: string, file: string) => readPhysicsResource(new Uint8Array(readFileSync(join(dir, file))));

/**
 * Every written face as the source triangle it stores: each stored vertex l of a part centred at c must be the encoder's
 * f32(W − c) of a source vertex W (found by its place to the millimetre), so equal lists mean the same world
 * triangles, bit for bit. Triangles as their source vertex ids, rotated to the smallest first, sorted.
 */
function worldTriangles(dir: string, source: { positions: number[] }): string[] {
  const byPlace = new Map<string, number>();
  const p = Float32Array.from(source.positions);
  const place = (x: number, y: number, z: number): string => `${Math.round(x * 1000)},${Math.round(y * 1000)},${Math.round(z * 1000)}`;
  for (let v = 0; v < p.length / 3; v++) byPlace.set(place(p[3 * v], p[3 * v + 1], p[3 * v + 2]), v);
  const out: string[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.physics'))) {
    const res = readRes(dir, f);
    for (const part of res.parts) {
      const s = res.shapes[part.shape];
      const c = part.position;
      for (let k = 0; k < s.cornerVertices.length; k += 3) {
        const ids = [0, 1, 2].map((j) => {
          const v = 3 * s.cornerVertices[k + j];
          const l = [s.vertices[v], s.vertices[v + 1], s.vertices[v + 2]];
          const w = byPlace.get(place(c[0] + l[0], c[1] + l[1], c[2] + l[2]));
          // Plain checks, not expect: 38,400 corners.
          if (w === undefined) throw new Error(`${f}: a vertex at no source vertex`);
          for (let a = 0; a < 3; a++) if (Math.fround(p[3 * w + a] - c[a]) !== l[a]) throw new Error(`${f}: vertex ${w} not stored as f32(W − c)`);
          return w!;
        });
        const r = ids.indexOf(Math.min(...ids));
        out.push([0, 1, 2].map((j) => ids[(r + j) % 3]).join(' '));
      }
    }
  }
  return out.sort();
}

describe('the density cut', () => {
  const terrain = ledgeTerrain([-40, 0, -40]);
  let cut: CompileResult;
  let studio: CompileResult;
  const warned: string[] = [];
  const oneTerrain = async (name: string): Promise<string> => {
    const doc = newLevel();
    addNode(doc, { name: 'terrain', ...terrain, material: 'concrete' });
    return writeLevel(doc, join(tmp.dir, name));
  };
  it('cuts the dense terrain into parts under the target, both lips grindable along their whole length', async () => {
    expect(GRIND_DENSITY_TARGET).toBeLessThan(900);
    cut = await compileLevel(await oneTerrain('cut.glb'), {}, { logger: { warn: (m) => void warned.push(m) } });
    const res = readRes(cut.outDir, 'terrain.physics');
    const g = resourceGrind(res);
    expect(g.parts.length).toBeGreaterThan(1);
    for (const p of g.parts) expect(p.density).toBeLessThanOrEqual(GRIND_DENSITY_TARGET);
    expect(g.edges).toBe(160);
    expect(g.metres).toBeCloseTo(40, 4);
    expect(cut.manifest.totals['grindable-metres']).toBe(40);
    expect(cut.manifest.grind).toMatchObject({ denseParts: [], lostCreases: 0, cut: { added: g.parts.length - 1, dense: 0 } });
    expect(cut.manifest.options.grindDensity).toBe(GRIND_DENSITY_TARGET);
    expect(layoutLine(cut)).toBe(`1 objects < budget 4,003 → one resource per object (${g.parts.length} geometries, ${g.parts.length - 1} of them from cutting dense parts for grinding)`);
    expect(warned.filter((w) => w.startsWith('grind:'))).toEqual([]);
    expect(warned.some((w) => /too dense to grind as authored \(1358 > 900 half-edges per metre\): cut into parts at or under 800/.test(w))).toBe(true);
    // The cuts are seams like any other: with --seams level no open edge is made.
    expect(cut.manifest.seams.openEdgesWritten).toBe(cut.manifest.seams.authoredOpenEdges);
  });
  it('writes the same world triangles as --grind-density off, which writes Studio\'s bytes and warns', async () => {
    const warnings: string[] = [];
    studio = await compileLevel(await oneTerrain('studio-one.glb'), { grindDensity: 'off' }, { logger: { warn: (m) => void warnings.push(m) } });
    const expected = writePhysicsResource(encodeResource([{ name: 'terrain', positions: Float32Array.from(terrain.positions), indices: Uint32Array.from(terrain.indices), material: 0x60 }]).resource);
    expect(Buffer.compare(readFileSync(join(studio.outDir, 'terrain.physics')), Buffer.from(expected))).toBe(0);
    expect(warnings.some((w) => /too dense to grind \(1358 > 900 half-edges per metre\)$/.test(w))).toBe(true);
    expect(warnings.some((w) => /^grind: "terrain" part 0/.test(w))).toBe(true);
    const a = worldTriangles(cut.outDir, terrain);
    expect(a).toHaveLength(12_800);
    expect(a).toEqual(worldTriangles(studio.outDir, terrain));
  });
  it('keeps a lip that crosses a cell border grindable on both sides', async () => {
    const doc = newLevel();
    const across = ledgeTerrain([-40, 0, -10]); // the lips run along z through the cell border at z = 0
    addNode(doc, { name: 'terrain', ...across, material: 'concrete' });
    const r = await compileLevel(await writeLevel(doc, join(tmp.dir, 'cells.glb')), { tiling: 'cells', cellSize: 50 }, { logger: { warn: () => undefined } });
    expect(r.manifest.resources.length).toBe(2);
    for (const res of r.manifest.resources) expect(res['grindable-metres']).toBe(20);
    expect(r.manifest.totals['grindable-metres']).toBe(40);
    expect(r.manifest.grind!.denseParts).toEqual([]);
  });
});

describe('--simplify', () => {
  const statue = denseBox(0.5, 40); // 19,200 triangles in a 1 m box: too dense at any size worth a part
  const build = async (name: string, simplify?: number): Promise<{ r: CompileResult; warnings: string[] }> => {
    const doc = newLevel();
    addNode(doc, { name: 'statue', positions: Array.from(statue.positions), indices: Array.from(statue.indices), material: 'concrete' });
    addNode(doc, { name: 'fold', ...foldedSheet(45, [10, 0, 10]), material: 'concrete' });
    const warnings: string[] = [];
    const r = await compileLevel(await writeLevel(doc, join(tmp.dir, name)), simplify === undefined ? {} : { simplify }, { logger: { warn: (m) => void warnings.push(m) } });
    return { r, warnings };
  };
  it('without it, the statue stays dense and warns with its place and the way out', async () => {
    const { r, warnings } = await build('statue.glb');
    expect(r.manifest.grind!.denseParts.map((d) => d.resource)).toEqual(['statue']);
    expect(warnings.some((w) => /^grind: "statue" part 0 \(19200 triangles around \(0\.00, 0\.00, 0\.00\)\).*--simplify METRES/.test(w))).toBe(true);
    expect(r.manifest.resources.find((x) => x.name === 'statue')!['grindable-edges']).toBe(0);
    expect(r.manifest.options.simplify).toBeUndefined();
  });
  it('simplifies the statue within the error, its 12 edges grindable; the fold under the limit is untouched', async () => {
    const plain = await build('statue-plain.glb');
    const { r } = await build('statue-simple.glb', 0.005);
    expect(r.manifest.options.simplify).toBe(0.005); // recorded: the files depend on it
    const s = r.manifest.grind!.simplified!;
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ object: 'statue', material: 0x60, triangles: [19_200, expect.any(Number)] });
    expect(s[0].triangles[1]).toBeLessThan(200);
    expect(s[0].error).toBeLessThanOrEqual(0.005);
    expect(r.manifest.grind!.denseParts).toEqual([]);
    expect(r.manifest.resources.find((x) => x.name === 'statue')!['grindable-metres']).toBe(12);
    expect(Buffer.compare(readFileSync(join(r.outDir, 'fold.physics')), readFileSync(join(plain.r.outDir, 'fold.physics')))).toBe(0);
  });
});
