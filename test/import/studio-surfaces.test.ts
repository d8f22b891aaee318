// Studio's surface names (src/import/materials.ts STUDIO_SURFACE_PRESETS): a map author who types one of ReSkate
// Studio's native preset names gets Studio's word wherever names are read — glTF material names and sk8_surface,
// the Blender add-on's menu, the forge keyword table, the GTA V material table, and to-gltf's names on the way back.
// The words are the ones public-facts.md lists from two public ports that drive Studio; the test reads that table
// when ../shared is present.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resourcesToGltf } from '../../src/export/gltf.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import { SURFACE_CATALOG } from '../../src/format/material.ts';
import { ForgeMaterials } from '../../src/import/forge/materials.ts';
import { importGltf, IMPORT_DEFAULTS } from '../../src/import/gltf.ts';
import { buildSurfaceTable, normaliseSurfaceName, STUDIO_SURFACE_PRESETS } from '../../src/import/materials.ts';
import { GTA_MATERIALS, GtaMaterials } from '../../src/import/ybn/materials.ts';
import { blenderCatalogText } from '../../scripts/blender-catalog.ts';
import { glbBytes, triangleBin, triangleJson } from '../fixtures/gltf-raw.ts';
import { sharedPath } from '../fixtures/shared.ts';

const FACTS = sharedPath('spec/public-facts.md', "studio surfaces: the spec's preset table");
const CATALOG = sharedPath('data/collision_surface_catalog.json', 'studio surfaces: the shared catalog');
const dir = mkdtempSync(join(tmpdir(), 'studio-surfaces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Studio's words as the spec writes them: name → word, from public-facts.md's preset table. */
const CHANGED = { earth: 0xda0, plastic: 0xce0, roofing: 0x8e0, wood: 0x1a0 } as const;

describe("Studio's preset names", () => {
  const table = buildSurfaceTable();

  it('give Studio\'s words, where the catalog derivation gave others (earth 0x1800E0, plastic 0x400220, roofing none)', () => {
    for (const [name, word] of Object.entries(CHANGED)) expect(`${name} 0x${table.get(name)?.toString(16)}`).toBe(`${name} 0x${word.toString(16)}`);
    expect(table.get('dirt')).toBe(0xda0); // the alias follows earth
    // Names Studio has no preset for keep the catalog's words.
    expect(table.get('wood_thick_rough')).toBe(0xe60);
    expect(table.get('roofing_asphalt')).toBe(0x8e0);
    expect(table.get('water')).toBe(0x00f007a0);
    expect(table.get('round_rail')).toBe(0x02380ba0);
  });

  it.skipIf(!FACTS)('are the table of public-facts.md, word for word (skipped: ../shared/spec absent)', () => {
    const text = readFileSync(FACTS!, 'utf8');
    const section = text.slice(text.indexOf("## ReSkate Studio's native surface presets"), text.indexOf('## Grind edges'));
    const listed = new Map<string, number>();
    for (const m of section.matchAll(/\|\s*([a-z_]+)\s*\|\s*(0x[0-9A-Fa-f]+)/g)) listed.set(m[1], Number(m[2]));
    expect(listed.size).toBe(19);
    expect(new Map(STUDIO_SURFACE_PRESETS)).toEqual(listed);
  });

  it("are values of the base grid (the catalog's network values with the physics-literal flag)", () => {
    const grid = new Set(SURFACE_CATALOG.networkIdToPackedMaterial.map((v) => (v | 0x20) >>> 0));
    for (const [name, word] of STUDIO_SURFACE_PRESETS) expect(grid.has(word) || word === 0x20, name).toBe(true);
  });

  it('a glTF material named Earth.001 / Plastic and sk8_surface roofing / wood compile to Studio\'s words', async () => {
    const j = triangleJson();
    const names = ['Earth.001', 'Plastic', 'Untyped', 'Concrete'];
    j.materials = names.map((name) => ({ name }));
    j.materials[2].extras = { sk8_surface: 'roofing' };
    j.nodes = names.map((_, i) => ({ name: `n${i}`, mesh: i, ...(i === 3 ? { extras: { sk8_surface: 'Wood' } } : {}) }));
    j.meshes = names.map((_, i) => ({ name: `m${i}`, primitives: [{ attributes: { POSITION: 0 }, indices: 1, material: i }] }));
    j.scenes = [{ nodes: [0, 1, 2, 3] }];
    const path = join(dir, 'names.glb');
    writeFileSync(path, glbBytes(JSON.stringify(j), triangleBin()));
    const warnings: string[] = [];
    const r = await importGltf(path, IMPORT_DEFAULTS, { warn: (m) => warnings.push(m) });
    expect(r.objects.map((o) => `0x${o.groups[0].material.toString(16)}`)).toEqual(['0xda0', '0xce0', '0x8e0', '0x1a0']);
    expect(warnings).toEqual([]);
  });

  it('the forge keyword table and the GTA V table give the same words as the names typed in a glTF', () => {
    const forge = new ForgeMaterials(new Map([[1n, 'CM_OakWood_Planks'], [2n, 'cm_dirt_path'], [3n, 'Plastic_Crate']]), {}, () => {}, 'forge');
    expect([1n, 2n, 3n].map((id) => forge.word(id, 'x'))).toEqual([CHANGED.wood, CHANGED.earth, CHANGED.plastic]);
    const gta = new GtaMaterials(() => {}, 'ybn');
    const type = (n: string): number => GTA_MATERIALS.findIndex(([g]) => g === n);
    expect(['SOIL', 'PLASTIC', 'ROOF_TILE', 'CONCRETE'].map((n) => gta.word(type(n), n))).toEqual([CHANGED.earth, CHANGED.plastic, CHANGED.roofing, 0x60]);
  });

  it("the Blender add-on's menu lists each under Studio's name with Studio's word (the catalog's names as aliases)", () => {
    const text = blenderCatalogText();
    for (const [name, word] of STUDIO_SURFACE_PRESETS) expect(text, name).toContain(`("${name}", 0x${word.toString(16).padStart(8, '0')})`);
    expect(text).toMatch(/"wood_thin_rough":"wood"/);
    expect(text).toMatch(/"roofing_asphalt":"roofing"/);
  });

  it("to-gltf names each material by a surface name that reads back as its word, Studio's where it has one", async () => {
    const res = readPhysicsResource(new Uint8Array(readFileSync('test/golden/multi-object.physics')));
    const box = readPhysicsResource(new Uint8Array(readFileSync('test/golden/box.physics')));
    const words = [0x1a0, 0xda0, 0x1800e0, 0x8e0, 0x60];
    expect(res.parts.length).toBe(4);
    res.parts.forEach((p, i) => (p.material = words[i]));
    box.parts.forEach((p) => (p.material = 0x60));
    const { glb } = await resourcesToGltf([
      { file: 'm.physics', bytes: writePhysicsResource(res), name: 'm', cell: null },
      { file: 'b.physics', bytes: writePhysicsResource(box), name: 'b', cell: null },
    ]);
    const json = JSON.parse(Buffer.from(glb.subarray(20, 20 + Buffer.from(glb).readUInt32LE(12))).toString('utf8'));
    const byWord = new Map<number, { name: string; extras: Record<string, string> }>(json.materials.map((m: any) => [Number(m.extras.sk8_collision_material_packed), m]));
    expect(words.map((w) => byWord.get(w)!.name)).toEqual(['wood_0x000001a0', 'Earth_0x00000da0', 'Earth_p3_0x001800e0', 'roofing_0x000008e0', 'Concrete_0x00000060']);
    const table = buildSurfaceTable();
    for (const [w, m] of byWord) {
      // A word no name gives (0x1800E0, the old earth) carries no sk8_surface_name rather than one meaning another word.
      if (m.extras.sk8_surface_name === undefined) expect(w).toBe(0x1800e0);
      else expect(table.get(normaliseSurfaceName(m.extras.sk8_surface_name))).toBe(w);
    }
  });
});

describe('the catalog in the source tree', () => {
  it('is one file: src/format/material-catalog.json', () => {
    const found: string[] = [];
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name.endsWith('.json') && /catalog/i.test(e.name)) found.push(join(d, e.name));
      }
    };
    walk('src');
    expect(found).toEqual([join('src', 'format', 'material-catalog.json')]);
  });

  it.skipIf(!CATALOG)('is the shared catalog, verbatim (skipped: ../shared/data absent)', () => {
    expect(JSON.parse(readFileSync('src/format/material-catalog.json', 'utf8'))).toEqual(JSON.parse(readFileSync(CATALOG!, 'utf8')));
  });
});
