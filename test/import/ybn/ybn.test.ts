// YBN import: fixtures written field by field (test/fixtures/ybn.ts) → objects; the XML twins give identical
// objects and identical compiled bytes; geometry, primitives, composites, materials, names, detail copies.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileLevel } from '../../../src/build/compile.ts';
import { expandInputs } from '../../../cli/inputs.ts';
import type { ImportedObject } from '../../../src/model.ts';
import { buildSurfaceTable } from '../../../src/import/materials.ts';
import { tessellate } from '../../../src/shapes/index.ts';
import { readPhysicsResource } from '../../../src/format/resource.ts';
import { KIND_BOX, KIND_MESH } from '../../../src/format/types.ts';
import { importYbn, YBN_DEFAULTS, ybnStem } from '../../../src/import/ybn/index.ts';
import { GTA_MATERIALS } from '../../../src/import/ybn/materials.ts';
import { readBoundTree } from '../../../src/import/ybn/bounds.ts';
import type { CompositeBound } from '../../../src/import/ybn/model.ts';
import { boundObjects } from '../../../src/import/ybn/objects.ts';
import { ResourceReader } from '../../../src/import/ybn/rsc7.ts';
import { readBoundXml } from '../../../src/import/ybn/xml.ts';
import { SharedArena } from '../../../src/import/shared-arena.ts';
import { pageFlagsSize } from '../../../src/import/ybn/rsc7.ts';
import { tempDir } from '../../fixtures/levels.ts';
import {
  boxBound, compositeLevel, everyPolygon, FIXTURES, GROUND_FLAGS, MAT, pageFlags, rotZ, twoTriangles, writeYbn, writeYbnXml, type FxBound, type FxGeometry,
} from '../../fixtures/ybn.ts';

const tmp = tempDir('sk8-ybn-');
afterAll(tmp.cleanup);

/** Writes `<name>.ybn` and `<name>.ybn.xml` into a directory of their own; returns both paths. */
function writeBoth(name: string, bound: FxBound, dir = join(tmp.dir, name)): [string, string] {
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, `${name}.ybn`);
  const xml = join(dir, `${name}.ybn.xml`);
  writeFileSync(bin, writeYbn(bound).file);
  writeFileSync(xml, writeYbnXml(bound));
  return [bin, xml];
}

async function load(file: string, opts = YBN_DEFAULTS): Promise<{ objects: ImportedObject[]; warnings: string[] }> {
  const warnings: string[] = [];
  const r = await importYbn(file, opts, { warn: (m) => void warnings.push(m) });
  return { objects: r.objects, warnings };
}

const plain = (objects: ImportedObject[]) =>
  objects.map((o) => ({ name: o.name, positions: Array.from(o.positions), groups: o.groups.map((g) => ({ material: g.material, indices: Array.from(g.indices) })) }));

const table = buildSurfaceTable();
const word = (surface: string): number => table.get(surface)!;

/** Every directed edge appears once and its reverse once: closed, welded, consistently wound. */
function expectClosed(positions: Float32Array, indices: Uint32Array): void {
  const edges = new Map<string, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const key = `${indices[t + k]},${indices[t + ((k + 1) % 3)]}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of edges) {
    const [a, b] = key.split(',');
    expect(n, `edge ${key}`).toBe(1);
    expect(edges.get(`${b},${a}`), `reverse of ${key}`).toBe(1);
  }
  expect(signedVolume(positions, indices)).toBeGreaterThan(0); // outward
}

function signedVolume(p: Float32Array, idx: Uint32Array): number {
  let v = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t], idx[t + 1], idx[t + 2]].map((i) => [p[3 * i], p[3 * i + 1], p[3 * i + 2]]);
    v += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  }
  return v / 6;
}

function bbox(p: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) {
    min[i % 3] = Math.min(min[i % 3], p[i]);
    max[i % 3] = Math.max(max[i % 3], p[i]);
  }
  return { min, max };
}

const allIndices = (o: ImportedObject): Uint32Array => Uint32Array.from(o.groups.flatMap((g) => Array.from(g.indices)));

describe('RSC7 page flags', () => {
  it('decodes the size fields (base page 0x200 << bits 0–3, nine count fields)', () => {
    expect(pageFlagsSize(0)).toBe(0);
    expect(pageFlagsSize(1 << 27)).toBe(0x200); // one page
    expect(pageFlagsSize((1 << 27) | 1)).toBe(0x400); // one page of 0x400
    expect(pageFlagsSize(1 << 4)).toBe(256 * 0x200);
    expect(pageFlagsSize(0x7f << 17)).toBe(127 * 16 * 0x200);
    expect(pageFlagsSize(0xf0000000)).toBe(0); // version bits carry no size
    for (const size of [512, 1024, 5 * 512, 100_000, 1_000_000]) expect(pageFlagsSize(pageFlags(size, 2))).toBe(Math.ceil(size / 512) * 512);
  });
});

describe('fixtures: binary and XML twins', () => {
  for (const name of Object.keys(FIXTURES)) {
    it(`${name}: .ybn and .ybn.xml import to identical objects`, async () => {
      const [bin, xml] = writeBoth(name, FIXTURES[name]());
      const a = await load(bin);
      const b = await load(xml);
      expect(a.objects.length).toBeGreaterThan(0);
      expect(plain(b.objects)).toEqual(plain(a.objects));
      expect(b.warnings.map((w) => w.replace(/^ybn-xml: .*?\.ybn\.xml/, ''))).toEqual(a.warnings.map((w) => w.replace(/^ybn: .*?\.ybn/, '')));
    });
  }

  it('every fixture: both forms compile to identical .physics bytes', async () => {
    const hooks = { logger: { warn: () => {} } };
    for (const name of Object.keys(FIXTURES)) {
      const [bin, xml] = writeBoth(`bytes_${name}`, FIXTURES[name]());
      const a = await compileLevel(bin, { out: join(tmp.dir, `bytes_${name}-bin`), workers: 1 }, hooks);
      const b = await compileLevel(xml, { out: join(tmp.dir, `bytes_${name}-xml`), workers: 1 }, hooks);
      const files = readdirSync(a.outDir).filter((f) => f.endsWith('.physics')).sort();
      expect(files.length, name).toBeGreaterThan(0);
      expect(readdirSync(b.outDir).filter((f) => f.endsWith('.physics')).sort(), name).toEqual(files);
      for (const f of files) expect(Buffer.compare(readFileSync(join(a.outDir, f)), readFileSync(join(b.outDir, f))), `${name}/${f}`).toBe(0);
    }
  });

  it('XML: the geometry centre may be given as <BoundingBoxCenter x y z w> (CodeWalker reads both)', async () => {
    const text = writeYbnXml(twoTriangles()).replace(/<GeometryCenter x="([^"]*)" y="([^"]*)" z="([^"]*)" \/>/, '<BoundingBoxCenter x="$1" y="$2" z="$3" w="0" />');
    expect(text).toContain('<BoundingBoxCenter');
    const dir = join(tmp.dir, 'bbc');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'bbc.ybn.xml'), text);
    const [o] = (await load(join(dir, 'bbc.ybn.xml'))).objects;
    expect(Array.from(o.positions.subarray(0, 3))).toEqual([8, 1, -19].map(Math.fround));
  });

  it('both forms compile to identical bytes (every .physics file, and the manifest apart from the input)', async () => {
    const [bin, xml] = writeBoth('park', compositeLevel());
    const hooks = { logger: { warn: () => {} } };
    const a = await compileLevel(bin, { out: join(tmp.dir, 'park-bin'), workers: 1 }, hooks);
    const b = await compileLevel(xml, { out: join(tmp.dir, 'park-xml'), workers: 1 }, hooks);
    const files = readdirSync(a.outDir).filter((f) => f.endsWith('.physics')).sort();
    expect(files).toEqual(['park_0.physics', 'park_1.physics', 'park_2_0.physics', 'park_2_3.physics', 'park_3.physics']);
    expect(readdirSync(b.outDir).filter((f) => f.endsWith('.physics')).sort()).toEqual(files);
    for (const f of files) expect(Buffer.compare(readFileSync(join(a.outDir, f)), readFileSync(join(b.outDir, f))), f).toBe(0);
    expect(b.manifest.resources).toEqual(a.manifest.resources);
    expect(a.manifest.totals['collision-objects']).toBe(5);
  });

  it('compiles the same through the pipeline in cells (tiles, budget) as through objects', async () => {
    const [bin] = writeBoth('tiled', compositeLevel());
    const r = await compileLevel(bin, { out: join(tmp.dir, 'tiled-out'), tiling: 'cells', workers: 1 }, { logger: { warn: () => {} } });
    expect(r.manifest.layout).toBe('cells');
    expect(r.manifest.resources.every((x) => x.name.startsWith('collision_area_'))).toBe(true);
    const objects = (await load(bin)).objects;
    expect(r.manifest.totals['collision-triangles']).toBe(objects.reduce((n, o) => n + allIndices(o).length / 3, 0));
  });
});

describe('geometry', () => {
  it('two triangles: quantized vertices + centre, Z-up → Y-up (x, z, −y), winding kept (up stays up)', async () => {
    const [bin] = writeBoth('quad', twoTriangles());
    const [o] = (await load(bin)).objects;
    expect(o.name).toBe('quad');
    // int16 (-2000, -1000, 0) × quantum 0.001 → (-2, -1, 0), + centre (10, 20, 1) → (8, 19, 1) → game (8, 1, -19).
    expect(Array.from(o.positions.subarray(0, 3))).toEqual([8, 1, -19].map(Math.fround));
    expect(o.groups).toHaveLength(1);
    expect(o.groups[0].material).toBe(word('asphalt')); // TARMAC
    // The second triangle's vertex words carry bit 15 (flags): masked, so it indexes vertices 0, 2, 3.
    expect(Array.from(o.groups[0].indices)).toEqual([0, 1, 2, 0, 2, 3]);
    const [a, b, c] = [0, 1, 2].map((i) => Array.from(o.positions.subarray(3 * i, 3 * i + 3)));
    const n = [(b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]), (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]), (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])];
    expect(n[1]).toBeGreaterThan(0); // GTA +Z is game +Y
  });

  it('BVH geometry with every polygon kind: triangles, sphere, capsule, box, cylinder; bit 15 masked only on triangles', async () => {
    const [bin] = writeBoth('poly', everyPolygon());
    const { objects, warnings } = await load(bin);
    expect(warnings).toEqual([]);
    expect(objects).toHaveLength(1);
    const [o] = objects;
    expect(o.groups.map((g) => g.material)).toEqual([word('concrete'), word('wood_thick_rough'), word('metal_rail')]);
    const [concrete, wood, rail] = o.groups;
    // The shape layer's meshes of the same primitives (GTA space; the polygons' vertices × quantum 0.01).
    const id: [number, number, number, number] = [0, 0, 0, 1];
    const cyl = tessellate({ family: 'cylinder', centre: [13, 0, 0.75], rotation: id, radius: 0.25, length: 1.5 });
    const cap = tessellate({ family: 'capsule', centre: [8, 1.5, 1], rotation: id, radius: 0.1, length: 3 });
    const sph = tessellate({ family: 'sphere', centre: [6, 6, 0.5], rotation: id, radius: 0.5 });
    expect(concrete.indices.length / 3).toBe(2 + cyl.indices.length / 3); // ramp + cylinder
    expect(rail.indices.length / 3).toBe(cap.indices.length / 3);
    expect(cap.segments).toBe(16); // a 0.10 m rail at the default 5 mm chord error (README)
    expect(wood.indices.length / 3).toBe(sph.indices.length / 3 + 12); // sphere + box
    // The sphere's centre is vertex 40,000 (bit 15 set): read whole, the sphere sits at GTA (6, 6, 0.5).
    let onSphere = 0;
    for (let i = 0; i < o.positions.length; i += 3) {
      const p = Array.from(o.positions.subarray(i, i + 3));
      if (Math.abs(Math.hypot(p[0] - 6, p[1] - 0.5, p[2] + 6) - 0.5) < 1e-5) onSphere++;
    }
    expect(onSphere).toBe(sph.positions.length / 3);
    // Triangle words 0x8000|0 etc. index vertices 0, 1, 2: the ramp's first triangle is at GTA (0,0,0), (4,0,0), (4,4,2).
    expect(Array.from(o.positions.subarray(0, 9))).toEqual([0, 0, 0, 4, 0, 0, 4, 2, -4].map(Math.fround));
    // Only vertices a triangle uses stay points of the mesh: 4 ramp vertices, then the primitives' own.
    expect(o.positions.length / 3).toBe(4 + (cap.positions.length + 3 * 8 + sph.positions.length + cyl.positions.length) / 3);
  });

  it('box polygon: four corners pairwise apart span the box (0.5 × 1 × 1 m here)', async () => {
    const g = everyPolygon() as FxGeometry;
    g.polys = [g.polys[4]]; // the box alone
    const [bin] = writeBoth('boxpoly', g);
    const [o] = (await load(bin)).objects;
    expectClosed(o.positions, allIndices(o));
    expect(signedVolume(o.positions, allIndices(o))).toBeCloseTo(1 * 1 * 1, 5);
    const { min, max } = bbox(o.positions);
    expect(min.map((v) => +v.toFixed(4) + 0)).toEqual([10, 0, -1]);
    expect(max.map((v) => +v.toFixed(4) + 0)).toEqual([11, 1, 0]);
  });
});

describe('primitive bounds: the shape layer\'s closed, welded, outward meshes, the size CodeWalker reads', () => {
  const cases: [string, number, { min: number[]; max: number[] }][] = [
    // name, volume of the exact solid, game-space bbox
    ['box', 2 * 4 * 0.5, { min: [-1, 0, -2], max: [1, 0.5, 2] }],
    ['sphere', (4 / 3) * Math.PI * 0.75 ** 3, { min: [0.25, 2.25, -2.75], max: [1.75, 3.75, -1.25] }],
    ['capsule', Math.PI * 0.01 * 2 + (4 / 3) * Math.PI * 0.001, { min: [-0.1, 0.9, -1.1], max: [0.1, 1.1, 1.1] }],
    ['disc', Math.PI * 0.25 * 0.1, { min: [-0.05, 0, -0.5], max: [0.05, 1, 0.5] }],
    ['cylinder', Math.PI * 0.09 * 2, { min: [-0.3, -0.3, -1], max: [0.3, 0.3, 1] }],
  ];
  for (const [name, volume, box] of cases) {
    it(name, async () => {
      const [bin] = writeBoth(`prim_${name}`, FIXTURES[name]());
      const [o] = (await load(bin)).objects;
      const idx = allIndices(o);
      expectClosed(o.positions, idx);
      // Vertices on the surface, within 5 mm of it: within a few percent of the solid's volume.
      expect(signedVolume(o.positions, idx) / volume).toBeGreaterThan(name === 'box' ? 0.99999 : 0.9);
      expect(signedVolume(o.positions, idx) / volume).toBeLessThanOrEqual(1.00001);
      const b = bbox(o.positions);
      for (let k = 0; k < 3; k++) {
        expect(b.min[k]).toBeCloseTo(box.min[k], 4);
        expect(b.max[k]).toBeCloseTo(box.max[k], 4);
      }
    });
  }

  it('the chord error sets the tessellation (the shape layer\'s)', async () => {
    const [bin] = writeBoth('seg', FIXTURES.cylinder());
    const fine = (await load(bin)).objects[0];
    const coarse = (await load(bin, { ...YBN_DEFAULTS, chordError: 0.05 })).objects[0];
    expect(allIndices(coarse).length).toBeLessThan(allIndices(fine).length);
    expect(allIndices(coarse).length / 3).toBe(tessellate({ family: 'cylinder', centre: [0, 0, 0], rotation: [0, 0, 0, 1], radius: 0.3, length: 2 }, { chordError: 0.05 }).indices.length / 3);
    await expect(load(bin, { ...YBN_DEFAULTS, chordError: 0 })).rejects.toThrow(/chord error 0 m is outside 0\.0001 … 0\.5 m/);
  });
});

describe('--native-shapes (experimental): YBN boxes as kind-2 parts', () => {
  it('a box bound under a rotated child transform becomes one placed box part; both forms write the same bytes', async () => {
    const [bin, xml] = writeBoth('native', compositeLevel());
    const hooks = { logger: { warn: () => {} } };
    const a = await compileLevel(bin, { out: join(tmp.dir, 'native-bin'), workers: 1, shapes: { nativeShapes: true } }, hooks);
    const b = await compileLevel(xml, { out: join(tmp.dir, 'native-xml'), workers: 1, shapes: { nativeShapes: true } }, hooks);
    const box = readPhysicsResource(new Uint8Array(readFileSync(join(a.outDir, 'native_1.physics'))));
    expect(box.parts.map((p) => p.kind)).toEqual([KIND_BOX]);
    // GTA centre (0, 0, 0.25) turned 30° about Z, + (0, 50, 2) → (0, 50, 2.25) → game (0, 2.25, −50).
    expect(box.parts[0].position.map((v) => +v.toFixed(4) + 0)).toEqual([0, 2.25, -50]);
    expect(box.shapes[0].max.map((v) => +v.toFixed(4))).toEqual([1, 2, 0.25]);
    expect(box.parts[0].material).toBe(word('concrete'));
    for (const f of readdirSync(a.outDir).filter((x) => x.endsWith('.physics'))) {
      expect(Buffer.compare(readFileSync(join(a.outDir, f)), readFileSync(join(b.outDir, f))), f).toBe(0);
    }
    // The other primitives stay kind-5 meshes (the format has no kind for them).
    const capsule = readPhysicsResource(new Uint8Array(readFileSync(join(a.outDir, 'native_2_0.physics'))));
    expect(capsule.parts.map((p) => p.kind)).toEqual([KIND_MESH]);
  });

  it('a box polygon becomes a box part next to the geometry\'s mesh parts', async () => {
    const [bin] = writeBoth('nativepoly', everyPolygon());
    const r = await compileLevel(bin, { out: join(tmp.dir, 'nativepoly-out'), workers: 1, shapes: { nativeShapes: true } }, { logger: { warn: () => {} } });
    const res = readPhysicsResource(new Uint8Array(readFileSync(join(r.outDir, 'nativepoly.physics'))));
    expect(res.parts.filter((p) => p.kind === KIND_BOX)).toHaveLength(1);
    expect(res.parts.filter((p) => p.kind === KIND_MESH).length).toBeGreaterThan(0);
    const boxPart = res.parts.find((p) => p.kind === KIND_BOX)!;
    // The box polygon spans GTA x 10..11, y 0..1, z 0..1 → centre game (10.5, 0.5, −0.5).
    expect(boxPart.position.map((v) => +v.toFixed(4) + 0)).toEqual([10.5, 0.5, -0.5]);
    expect(boxPart.material).toBe(word('wood_thick_rough'));
  });
});

describe('composites', () => {
  it('names <stem>_<child path>; nested composites; null slots and cloth skipped (named in the warning)', async () => {
    const [bin] = writeBoth('vb_34_skate', compositeLevel());
    const { objects, warnings } = await load(bin);
    expect(objects.map((o) => o.name)).toEqual(['vb_34_skate_0', 'vb_34_skate_1', 'vb_34_skate_2_0', 'vb_34_skate_2_3', 'vb_34_skate_3']);
    expect(warnings).toEqual([expect.stringMatching(/^ybn: .*vb_34_skate\.ybn: bound 2_2: kind 15 \(cloth\) skipped$/)]);
  });

  it('unknown kinds are skipped with a warning naming the bound and its kind (binary kind 7, XML type "Plank")', async () => {
    const { body, systemSize } = writeYbn(compositeLevel());
    const d = new DataView(body.buffer);
    const child1 = d.getUint32(d.getUint32(0x70, true) - 0x50000000 + 8, true) - 0x50000000;
    d.setUint8(child1 + 0x10, 7);
    const warnings: string[] = [];
    const root = readBoundTree(new ResourceReader({ body, systemSize, graphicsSize: 0 }, 'ybn: k.ybn'), (m) => void warnings.push(m));
    const built = boundObjects(root, { stem: 'k', stage: 'ybn: k.ybn', tessellation: {}, logger: { warn: (m) => void warnings.push(m) }, arena: new SharedArena() });
    expect(built.objects.map((o) => o.name)).toEqual(['k_0', 'k_2_0', 'k_2_3', 'k_3']);
    expect(warnings).toEqual(['ybn: k.ybn: bound 1: kind 7 (unknown) skipped', 'ybn: k.ybn: bound 2_2: kind 15 (cloth) skipped']);
    const xmlWarnings: string[] = [];
    const xmlRoot = readBoundXml(writeYbnXml(compositeLevel()).replace('<Item type="Box">', '<Item type="Plank">'), 'ybn-xml: k.ybn.xml', () => {});
    boundObjects(xmlRoot, { stem: 'k', stage: 'ybn-xml: k.ybn.xml', tessellation: {}, logger: { warn: (m) => void xmlWarnings.push(m) }, arena: new SharedArena() });
    expect(xmlWarnings[0]).toBe('ybn-xml: k.ybn.xml: bound 1: type "Plank" (unknown) skipped');
  });

  it('reads each child\'s type and include words (bounds-checked)', () => {
    const { body, systemSize } = writeYbn(compositeLevel());
    const root = readBoundTree(new ResourceReader({ body, systemSize, graphicsSize: 0 }, 'ybn: f.ybn'), () => {});
    expect(root.kind).toBe(10);
    expect((root as CompositeBound).children.map((c) => c.flags)).toEqual([GROUND_FLAGS, GROUND_FLAGS, GROUND_FLAGS, GROUND_FLAGS]);
  });

  it('applies child transforms (axis images, translation in the fourth column), composed through nesting', async () => {
    const [bin] = writeBoth('xf', compositeLevel());
    const { objects } = await load(bin);
    // Child 0: quad vertex (8, 19, 1), rotated 90° about Z → (−19, 8, 1), + (100, 0, 0) → (81, 8, 1) → game (81, 1, −8).
    const quad = objects[0];
    expect(Array.from(quad.positions.subarray(0, 3)).map((v) => +v.toFixed(4))).toEqual([81, 1, -8]);
    // Child 2_3: sphere at (1, 2, 3), translated (−3, 0, 0) → (−2, 2, 3); parent rotZ(−60) + (−20, 10, 0).
    const a = (-60 * Math.PI) / 180;
    const want = [-2 * Math.cos(a) - 2 * Math.sin(a) - 20, -2 * Math.sin(a) + 2 * Math.cos(a) + 10, 3];
    const b = bbox(objects[3].positions);
    const centre = [0, 1, 2].map((k) => (b.min[k] + b.max[k]) / 2);
    expect(centre[0]).toBeCloseTo(want[0], 4);
    expect(centre[1]).toBeCloseTo(want[2], 4);
    expect(centre[2]).toBeCloseTo(-want[1], 4);
    // Child 3: a Y-axis cylinder turned 90° about X stands along Z in GTA space: along Y in the game.
    const cyl = bbox(objects[4].positions);
    expect(cyl.max[1] - cyl.min[1]).toBeCloseTo(2, 4);
    expect(cyl.max[0] - cyl.min[0]).toBeCloseTo(0.6, 4);
  });

  it('reads the older XML form of a child transform (CompositePosition, CompositeRotation quaternion, CompositeScale)', async () => {
    const level = compositeLevel();
    const text = writeYbnXml(level);
    // Child 0 is rotZ(90) + (100, 0, 0): the same as the quaternion (0, 0, sin 45°, cos 45°).
    const legacy = text.replace(/<CompositeTransform>\n[^<]*<\/CompositeTransform>/, `<CompositePosition x="100" y="0" z="0" />\n<CompositeRotation x="0" y="0" z="${Math.SQRT1_2}" w="${Math.SQRT1_2}" />\n<CompositeScale x="1" y="1" z="1" />`);
    expect(legacy).not.toBe(text);
    const dir = join(tmp.dir, 'legacy');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'legacy.ybn.xml'), legacy);
    const [o] = (await load(join(dir, 'legacy.ybn.xml'))).objects;
    expect(Array.from(o.positions.subarray(0, 3)).map((v) => +v.toFixed(4) + 0)).toEqual([81, 1, -8]);
  });

  it('keeps winding outward under a mirroring child transform', async () => {
    const mirrored: FxBound = { kind: 'composite', children: [{ bound: boxBound(), transform: [-1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0] }] };
    const [bin] = writeBoth('mirror', mirrored);
    const [o] = (await load(bin)).objects;
    expectClosed(o.positions, allIndices(o));
  });

  it('reads 0xA2 as the child count when it is a smaller non-zero count, else 0xA0 with a warning', async () => {
    const two: FxBound = { kind: 'composite', children: [{ bound: boxBound() }, { bound: FIXTURES.sphere() }], secondCount: 1 };
    const [bin] = writeBoth('count2', two);
    expect((await load(bin)).objects.map((o) => o.name)).toEqual(['count2_0']);
    const zero = { ...two, secondCount: 0 };
    writeFileSync(bin, writeYbn(zero).file);
    const r = await load(bin);
    expect(r.objects.map((o) => o.name)).toEqual(['count2_0', 'count2_1']);
    expect(r.warnings).toEqual([expect.stringMatching(/bound root \(composite\): child count at 0xA2 is 0, at 0xA0 2; reading 2 children/)]);
  });
});

describe('materials', () => {
  it('every surface the table names exists in the material grid', () => {
    for (const [name, surface] of GTA_MATERIALS) if (surface) expect(table.get(surface), `${name} → ${surface}`).toBeDefined();
    expect(GTA_MATERIALS[MAT.concrete][0]).toBe('CONCRETE');
    expect(GTA_MATERIALS[MAT.metalRailing][0]).toBe('METAL_RAILING');
  });

  it('the YBN port guide (docs/ybn-ports.md) lists exactly this mapping', () => {
    const readme = readFileSync(new URL('../../../docs/ybn-ports.md', import.meta.url), 'utf8');
    const rows = readme.split('\n').slice(readme.split('\n').findIndex((l) => l.startsWith('| skate. surface |')) + 2);
    const listed = new Map<string, string | null>();
    for (const row of rows) {
      if (!row.startsWith('|')) break;
      const [surface, names] = row.split('|').slice(1, 3).map((c) => c.trim());
      for (const n of names.split(', ')) listed.set(n.replace(/`/g, ''), surface.startsWith('`') ? surface.replace(/`/g, '') : null);
    }
    expect(listed).toEqual(new Map(GTA_MATERIALS.map(([n, s]) => [n, s])));
  });

  it('FLAG_STAIRS on a material record or a primitive bound gives the stairs surface, in both forms', async () => {
    const g = twoTriangles() as FxGeometry;
    g.materials = [MAT.concrete, MAT.concrete];
    g.stairsMaterials = [1];
    g.polys = [{ ...g.polys[0], m: 0 }, { ...g.polys[1], m: 1 }];
    const level: FxBound = { kind: 'composite', children: [{ bound: g }, { bound: { ...boxBound(), stairs: true } }] };
    const [bin, xml] = writeBoth('stairs', level);
    for (const file of [bin, xml]) {
      const { objects, warnings } = await load(file);
      expect(warnings).toEqual([]);
      expect(objects[0].groups.map((x) => x.material)).toEqual([word('concrete'), word('stairs')]);
      expect(objects[1].groups.map((x) => x.material)).toEqual([word('stairs')]);
    }
    expect(word('stairs')).toBe(47186720 | 0x20);
  });

  it('unmapped types fall back to the default surface with one warning per type', async () => {
    const g = twoTriangles() as FxGeometry;
    const foam = GTA_MATERIALS.findIndex(([n]) => n === 'FOAM');
    g.materials = [foam, MAT.outside];
    g.polys = [{ ...g.polys[0], m: 0 }, { ...g.polys[1], m: 1 }, { kind: 'tri', v: [1, 2, 3], m: 0 }];
    const [bin, xml] = writeBoth('unmapped', g);
    for (const file of [bin, xml]) {
      const { objects, warnings } = await load(file);
      expect(objects[0].groups.map((x) => x.material)).toEqual([0x20]);
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(/GTA V material \d+ \(FOAM\) has no skate\. surface; using the default surface 0x20/);
      expect(warnings[1]).toMatch(/material type 250 is not in GTA V's materials\.dat/);
    }
  });
});

describe('files and names', () => {
  it('stems drop .ybn and .ybn.xml', () => {
    expect(ybnStem('/a/b/vb_34_skate.ybn')).toBe('vb_34_skate');
    expect(ybnStem('x/vb_34_skate.YBN.XML')).toBe('vb_34_skate');
  });

  it('hi@/ma@ detail copies: left out of the inputs (listed as skipped) and refused unless detail is set', async () => {
    const dir = join(tmp.dir, 'detail');
    mkdirSync(dir, { recursive: true });
    const [plainFile] = writeBoth('vb_34_0', boxBound(), dir);
    const [hi] = writeBoth('hi@vb_34_0', boxBound(), dir);
    const r = await expandInputs([join(dir, '*.ybn')]);
    expect(r.files).toEqual([plainFile]);
    expect(r.skipped).toEqual([hi]);
    expect((await expandInputs([join(dir, '*.ybn')], { ybnDetail: true })).files).toEqual([hi, plainFile].sort());
    expect((await expandInputs([join(dir, '*')])).files).toEqual([plainFile, `${plainFile}.xml`]);
    await expect(load(hi)).rejects.toThrow(/hi@\/ma@ file is the detail copy .* pass --ybn-detail/);
    expect((await load(hi, { ...YBN_DEFAULTS, detail: true })).objects.map((o) => o.name)).toEqual(['hi_vb_34_0']);
  });

  it('a file with nothing to collide with is refused with the bound counts', async () => {
    const [bin] = writeBoth('empty', { kind: 'composite', children: [{ bound: { kind: 'cloth' } }, { bound: null }] });
    await expect(compileLevel(bin, { workers: 1 }, { logger: { warn: () => {} } })).rejects.toThrow(/compile: .*empty\.ybn: no collision triangles \(2 bounds, 0 with collision, 1 skipped\)/);
  });

  it('a compiled YBN level is written next to it as <stem>.collision', async () => {
    const [bin] = writeBoth('outdir', boxBound());
    const r = await compileLevel(bin, { workers: 1 }, { logger: { warn: () => {} } });
    expect(r.outDir).toBe(join(tmp.dir, 'outdir', 'outdir.collision'));
    expect(r.manifest.input.file).toBe('outdir.ybn');
  });

  it('rotZ helper is a proper rotation (fixture sanity)', () => {
    const m = rotZ(90);
    expect(m[0]).toBeCloseTo(0);
    expect(m[1]).toBeCloseTo(1);
  });
});
