import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { EXTMeshGPUInstancing, KHRDracoMeshCompression, EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { importGltf, IMPORT_DEFAULTS, untransformedAxes } from '../../src/import/gltf.ts';
import { sanitizeName } from '../../src/model.ts';
import { liteRoot } from '../../src/import/gltf-lite.ts';
import { addNode, boxMesh, gridMesh, io, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const tmp = tempDir('sk8-import-');
afterAll(tmp.cleanup);
const warnings: string[] = [];
const logger = { warn: (m: string) => void warnings.push(m) };
const load = async (doc: ReturnType<typeof newLevel>, name: string, opts = IMPORT_DEFAULTS) =>
  importGltf(await writeLevel(doc, join(tmp.dir, name)), opts, logger);

describe('importGltf: objects, transforms, winding', () => {
  it('walks the hierarchy with world matrices and keeps winding under rotation', async () => {
    const doc = newLevel();
    const parent = addNode(doc, { name: 'parent', ...boxMesh([0, 0, 0], [1, 1, 1]), translation: [10, 0, 0] });
    addNode(doc, { name: 'child', ...gridMesh(1, 1, 1, [0, 0, 0]), parent, translation: [0, 5, 0], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] });
    const r = await load(doc, 'h.glb');
    expect(r.objects.map((o) => o.name)).toEqual(['parent', 'child']);
    const child = r.objects[1];
    // (1,0,0) rotated 90° about Y → (0,0,-1), then +(0,5,0) +(10,0,0).
    expect(Array.from(child.positions.subarray(3, 6))).toEqual([10, 5, -1].map(Math.fround));
    expect(Array.from(child.groups[0].indices)).toEqual([0, 2, 1, 1, 2, 3]);
  });

  it('flips winding under a mirroring scale', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'mirror', ...gridMesh(1, 1, 1, [0, 0, 0]), scale: [-1, 1, 1] });
    const [o] = (await load(doc, 'm.glb')).objects;
    expect(Array.from(o.groups[0].indices)).toEqual([0, 1, 2, 1, 3, 2]);
  });

  it('keeps −0.0 on the axes a node does not move (untransformedAxes), and sums the others', async () => {
    expect(untransformedAxes([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toEqual([true, true, true]);
    expect(untransformedAxes([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1])).toEqual([false, true, true]);
    // 90° about Y: x and z take each other's values, y stays.
    expect(untransformedAxes([0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1])).toEqual([false, true, false]);
    expect(untransformedAxes([2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toEqual([false, true, true]);
    const doc = newLevel();
    const g = gridMesh(1, 1, 1, [0, 0, 0]);
    g.positions = g.positions.map((x) => (x === 0 ? -0 : x));
    addNode(doc, { name: 'still', ...g });
    addNode(doc, { name: 'moved', ...g, translation: [3, 0, 0] });
    const [still, moved] = (await load(doc, 'z.glb')).objects;
    const signs = (p: Float32Array): string => Array.from(p, (x) => (Object.is(x, -0) ? '-0' : String(x))).join(' ');
    expect(signs(still.positions)).toBe('-0 -0 -0 1 -0 -0 -0 -0 1 1 -0 1');
    // x is moved (−0.0 + 3 is 3); y and z are not, and keep the file's −0.0.
    expect(signs(moved.positions)).toBe('3 -0 -0 4 -0 -0 3 -0 1 4 -0 1');
  });

  it('turns strips and fans into triangles', async () => {
    const doc = newLevel();
    const quad = [0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1];
    addNode(doc, { name: 'strip', positions: quad, mode: 5 });
    addNode(doc, { name: 'fan', positions: quad, indices: [0, 1, 3, 2], mode: 6 });
    const r = await load(doc, 'sf.glb');
    expect(Array.from(r.objects[0].groups[0].indices)).toEqual([0, 1, 2, 2, 1, 3]);
    expect(Array.from(r.objects[1].groups[0].indices)).toEqual([1, 3, 0, 3, 2, 0]);
  });

  it('makes one object per GPU instance', async () => {
    const doc = newLevel();
    const node = addNode(doc, { name: 'post', ...boxMesh([0, 0, 0], [0.1, 1, 0.1]) });
    const ext = doc.createExtension(EXTMeshGPUInstancing);
    const buffer = doc.getRoot().listBuffers()[0];
    const t = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 5, 0, 0, 10, 0, 0])).setBuffer(buffer);
    node.setExtension('EXT_mesh_gpu_instancing', ext.createInstancedMesh().setAttribute('TRANSLATION', t));
    const r = await load(doc, 'inst.glb');
    expect(r.objects.map((o) => o.name)).toEqual(['post_0', 'post_1', 'post_2']);
    expect(r.objects[2].positions[0]).toBeCloseTo(9.9, 5);
    expect(r.stats.instances).toBe(3);
  });

  it('nodes sharing a mesh share its triangle list (one per winding), each with its own world positions', async () => {
    const doc = newLevel();
    const a = addNode(doc, { name: 'a', ...boxMesh([0, 0, 0], [1, 1, 1]) });
    const mesh = a.getMesh()!;
    const scene = doc.getRoot().listScenes()[0];
    scene.addChild(doc.createNode('b').setMesh(mesh).setTranslation([5, 0, 0]));
    scene.addChild(doc.createNode('mirrored').setMesh(mesh).setScale([-1, 1, 1]));
    scene.addChild(doc.createNode('c').setMesh(mesh).setTranslation([0, 0, 9]));
    const r = await load(doc, 'shared.glb');
    const [oa, ob, om, oc] = r.objects;
    expect(ob.groups[0].indices).toBe(oa.groups[0].indices);
    expect(oc.groups[0].indices).toBe(oa.groups[0].indices);
    expect(om.groups[0].indices).not.toBe(oa.groups[0].indices); // mirrored: its winding reversed
    expect(Array.from(om.groups[0].indices.subarray(0, 3))).toEqual([0, 1, 2]);
    expect(ob.positions).not.toBe(oa.positions);
    expect(ob.positions[0] - oa.positions[0]).toBe(5);
  });

  it('names are sanitised, unique ignoring case, deterministic', async () => {
    const doc = newLevel();
    for (const n of ['Rail 01', 'rail_01', 'RAIL_01', '']) addNode(doc, { name: n, ...boxMesh([0, 0, 0], [1, 1, 1]) });
    const r = await load(doc, 'n.glb');
    expect(r.objects.map((o) => o.name)).toEqual(['Rail_01', 'rail_01_2', 'RAIL_01_3', 'node_3']);
    expect(sanitizeName('../../etc/passwd')).toBe('__.._etc_passwd');
  });

  it('sanitizeName (with its fast path for plain names) is its rule on 50,000 random names', () => {
    const reserved = /^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(?=\.|$)/i;
    const rule = (raw: string): string => raw.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_').slice(0, 96).replace(/\.+$/, (m) => '_'.repeat(m.length)).replace(reserved, '$1_') || '_';
    let seed = 7;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const alphabet = 'aZ09_.-. /\\:éCONPRNAUXLPTcom1';
    const special = ['CON', 'con.txt', 'COM1', 'aux', 'LPT9.x', 'nul.', '.', '..a', 'a'.repeat(96), 'a'.repeat(97), `${'b'.repeat(95)}.`, ''];
    for (let i = 0; i < 50_000; i++) {
      let raw = '';
      const n = Math.floor(rnd() * (rnd() < 0.1 ? 120 : 12));
      for (let k = 0; k < n; k++) raw += alphabet[Math.floor(rnd() * alphabet.length)];
      if (rnd() < 0.05) raw = special[Math.floor(rnd() * special.length)];
      if (sanitizeName(raw) !== rule(raw)) expect(sanitizeName(raw), JSON.stringify(raw)).toBe(rule(raw));
    }
  });
});

describe('importGltf: shared memory', () => {
  it("puts every object's arrays in shared memory, primitives merged and shifted in place", async () => {
    const doc = newLevel();
    const quad = { positions: [0, 0, 0, 0, 0, 1, 1, 0, 0], indices: [0, 1, 2] };
    addNode(doc, { name: 'two', ...quad, more: [{ ...quad }] });
    addNode(doc, { name: 'mirror', ...gridMesh(1, 1, 1, [0, 0, 0]), scale: [-1, 1, 1] });
    addNode(doc, { name: 'strip', positions: [0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1], mode: 5 });
    addNode(doc, { name: 'rail', positions: [0, 1, 0, 2, 1, 0], mode: 1, nodeExtras: { sk8_grind_curve: true } });
    const r = await load(doc, 'shared.glb');
    expect(r.objects.map((o) => o.name)).toEqual(['two', 'mirror', 'strip', 'grind_rail']);
    for (const o of r.objects) {
      expect(o.positions.buffer).toBeInstanceOf(SharedArrayBuffer);
      for (const g of o.groups) expect(g.indices.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
    expect(Array.from(r.objects[0].groups[0].indices)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('importGltf: modes and materials', () => {
  it('reads sk8_collision_mode and material sources in order', async () => {
    warnings.length = 0;
    const doc = newLevel();
    const g = gridMesh(1, 1, 1, [0, 0, 0]);
    addNode(doc, { name: 'skip', ...g, nodeExtras: { sk8_collision_mode: 'none' } });
    addNode(doc, { name: 'pool', ...g, meshExtras: { sk8_collision_mode: 'water' } });
    addNode(doc, { name: 'hull', ...g, nodeExtras: { sk8_collision_mode: 'hull' }, material: 'Concrete.001' });
    addNode(doc, { name: 'packed', ...g, nodeExtras: { sk8_collision_material_packed: '0xBA0' }, material: 'asphalt' });
    addNode(doc, { name: 'surf', ...g, material: { name: 'whatever', extras: { sk8_surface: 'stairs' } } });
    addNode(doc, { name: 'two', ...g, material: 'metal', more: [{ ...gridMesh(1, 1, 1, [0, 1, 0]), material: 'wood' }, { ...gridMesh(1, 1, 1, [0, 2, 0]), material: 'metal' }] });
    addNode(doc, { name: 'plain', ...g });
    addNode(doc, { name: 'glitter', ...g, material: 'Glitter' });
    const r = await load(doc, 'mat.glb');
    const by = Object.fromEntries(r.objects.map((o) => [o.name, o.groups.map((x) => x.material)]));
    expect(by.skip).toBeUndefined();
    expect(by.pool).toEqual([0x00f007a0]);
    expect(by.hull).toEqual([96]);
    expect(by.packed).toEqual([2976]);
    expect(by.surf).toEqual([47186720]);
    expect(by.two).toEqual([352, 416]);
    expect(r.objects.find((o) => o.name === 'two')!.groups[0].indices.length).toBe(12);
    expect(by.plain).toEqual([0x20]);
    // Shape modes are built by src/shapes/ (test/shapes/, test/compile/shapes.test.ts): the importer attaches the request.
    expect(r.objects.find((o) => o.name === 'hull')!.shape).toMatchObject({ mode: 'hull', spec: undefined });
    expect(r.objects.find((o) => o.name === 'hull')!.shape!.world).toHaveLength(16);
    expect(warnings.join('\n')).not.toMatch(/not built yet/);
    expect(warnings.join('\n')).toMatch(/material "Glitter" names no surface/);
    expect(by.glitter).toEqual([0x20]);
  });

  it('refuses a custom slot unless allowed', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'custom', ...gridMesh(1, 1, 1, [0, 0, 0]), nodeExtras: { sk8_collision_material_packed: 120 << 6 } });
    const path = await writeLevel(doc, join(tmp.dir, 'custom.glb'));
    await expect(importGltf(path, IMPORT_DEFAULTS, logger)).rejects.toThrow(/node 0 "custom".*material slot 120/);
    const r = await importGltf(path, { ...IMPORT_DEFAULTS, allowCustomSlots: true }, logger);
    expect(r.objects[0].groups[0].material).toBe((120 << 6) | 0x20);
  });
});

describe('importGltf: grind curves', () => {
  it('builds one round-rail prism object per run from line primitives', async () => {
    const doc = newLevel();
    // An L of loose edges (sharp corner → two runs) as LINES with shuffled segments, under a translated node.
    addNode(doc, { name: 'rail', positions: [0, 1, 0, 2, 1, 0, 1, 1, 0, 2, 1, 2], indices: [2, 1, 0, 2, 1, 3], mode: 1, nodeExtras: { sk8_grind_curve: true }, translation: [0, 0.5, 0] });
    addNode(doc, { name: 'ledge', positions: [0, 0, 5, 3, 0, 5], mode: 3, nodeExtras: { sk8_grind_curve: { enabled: true, radius: 1, surface: 'concrete' } } });
    addNode(doc, { name: 'off', positions: [0, 0, 9, 3, 0, 9], mode: 3, nodeExtras: { sk8_grind_curve: '{"enabled": false}' } });
    const r = await load(doc, 'grind.glb');
    expect(r.objects.map((o) => o.name)).toEqual(['grind_rail_0', 'grind_rail_1', 'grind_ledge']);
    expect(r.objects[0].groups[0].material).toBe(37227424);
    expect(r.objects[0].kind).toBe('grind');
    expect(r.objects[0].positions[1]).toBeCloseTo(1.5, 6); // corner 0 on the curve, node transform applied
    const ledge = r.objects[2];
    expect(ledge.groups[0].material).toBe(96);
    expect(Math.min(...Array.from(ledge.positions).filter((_, i) => i % 3 === 1))).toBeCloseTo(-0.5, 5); // radius clamped to 0.25
  });
});

describe('importGltf: containers and compression', () => {
  it('reads .gltf with an external .bin', async () => {
    const doc = newLevel();
    doc.getRoot().listBuffers()[0].setURI('level.bin');
    addNode(doc, { name: 'ext', ...boxMesh([0, 0, 0], [1, 1, 1]) });
    const r = await load(doc, 'ext.gltf');
    expect(r.objects[0].positions.length).toBe(24);
    expect(r.inputBytes.length).toBe(2);
  });

  it('decodes Draco and meshopt, and names the extension when the decoder is off', async () => {
    const draco3d = await import('draco3dgltf');
    const { MeshoptEncoder } = await import('meshoptimizer');
    await MeshoptEncoder.ready;
    for (const [ext, file, deps] of [
      [KHRDracoMeshCompression, 'draco.glb', { 'draco3d.encoder': await draco3d.createEncoderModule() }],
      [EXTMeshoptCompression, 'meshopt.glb', { 'meshopt.encoder': MeshoptEncoder }],
    ] as const) {
      const doc = newLevel();
      addNode(doc, { name: 'ground', ...gridMesh(4, 4, 1, [0, 0, 0]) });
      const e = doc.createExtension(ext as typeof KHRDracoMeshCompression).setRequired(true);
      if (ext === EXTMeshoptCompression) (e as unknown as EXTMeshoptCompression).setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.FILTER });
      const path = join(tmp.dir, file);
      await io().registerDependencies(deps).write(path, doc);
      const r = await importGltf(path, IMPORT_DEFAULTS, logger);
      expect(r.objects[0].groups[0].indices.length).toBe(4 * 4 * 6);
      const off = { ...IMPORT_DEFAULTS, decoders: { draco: false, meshopt: false } };
      await expect(importGltf(path, off, logger)).rejects.toThrow(ext === KHRDracoMeshCompression ? /KHR_draco_mesh_compression.*no Draco decoder/ : /EXT_meshopt_compression/);
    }
  });

  it('names an unsupported required extension', async () => {
    const path = join(tmp.dir, 'req.gltf');
    writeFileSync(path, JSON.stringify({ asset: { version: '2.0' }, extensionsRequired: ['EXT_made_up'], extensionsUsed: ['EXT_made_up'] }));
    await expect(importGltf(path, IMPORT_DEFAULTS, logger)).rejects.toThrow(/requires extension EXT_made_up/);
  });
});

describe('importGltf: scenes and quantized data', () => {
  it('compiles the default scene unless --scene names another', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'in_default', ...boxMesh([0, 0, 0], [1, 1, 1]) });
    const other = doc.createScene('night');
    const n = addNode(doc, { name: 'in_night', ...boxMesh([0, 0, 0], [1, 1, 1]) });
    doc.getRoot().listScenes()[0].removeChild(n);
    other.addChild(n);
    doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
    const path = await writeLevel(doc, join(tmp.dir, 'scenes.glb'));
    expect((await importGltf(path, IMPORT_DEFAULTS, logger)).objects.map((o) => o.name)).toEqual(['in_default']);
    expect((await importGltf(path, { ...IMPORT_DEFAULTS, scene: 'night' }, logger)).objects.map((o) => o.name)).toEqual(['in_night']);
    expect((await importGltf(path, { ...IMPORT_DEFAULTS, scene: '1' }, logger)).objects.map((o) => o.name)).toEqual(['in_night']);
  });

  it('un-normalises quantized (KHR_mesh_quantization) positions', async () => {
    const doc = newLevel();
    const node = addNode(doc, { name: 'q', positions: [0, 0, 0, 0, 0, 1, 1, 0, 0], scale: [4, 4, 4] });
    const acc = node.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!;
    acc.setArray(new Int16Array([0, 0, 0, 0, 0, 32767, 32767, 0, 16384])).setNormalized(true);
    doc.createExtension(KHRMeshQuantization).setRequired(true);
    const [o] = (await load(doc, 'quant.glb')).objects;
    expect(Array.from(o.positions)).toEqual([0, 0, 0, 0, 0, 4, 4, 0, Math.fround((16384 / 32767) * 4)]);
  });
});

describe('importGltf: light reader (gltf-lite.ts)', () => {
  /** Everything the walk produces: objects (names, sources, positions, groups), stats and warnings. */
  const digest = async (path: string, scene: string | undefined, reader: 'auto' | 'gltf-transform') => {
    const seen: string[] = [];
    const r = await importGltf(path, { ...IMPORT_DEFAULTS, scene, reader }, { warn: (m) => void seen.push(m) });
    const objects = r.objects.map((o) => ({ ...o, positions: Array.from(o.positions), groups: o.groups.map((g) => ({ material: g.material, indices: Array.from(g.indices) })) }));
    return { objects, stats: r.stats, warnings: seen };
  };

  it('gives what @gltf-transform gives: hierarchy, TRS, mirroring, strips, fans, materials, extras, grinds, scenes', async () => {
    const doc = newLevel();
    const parent = addNode(doc, { name: 'Parent 1', ...boxMesh([0, 0, 0], [1, 2, 1]), translation: [10, 0.5, -3], rotation: [0, 0.3826834, 0, 0.9238795], material: 'concrete' });
    addNode(doc, { name: 'child', ...gridMesh(3, 2, 1.5, [0, 0, 0]), parent, scale: [-1, 2, 1], material: { name: 'x', extras: { sk8_surface: 'metal' } } });
    addNode(doc, { name: 'PARENT_1', positions: [0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1], mode: 5, nodeExtras: { sk8_collision_mode: 'hull' }, more: [{ positions: [0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0], indices: [0, 1, 2, 3], mode: 6, material: 'grass' }] });
    addNode(doc, { name: 'water', ...boxMesh([0, -1, 0], [5, 0.5, 5]), meshExtras: { sk8_collision_mode: 'water' } });
    addNode(doc, { name: 'skip', ...boxMesh([0, 0, 0], [1, 1, 1]), nodeExtras: { sk8_collision_mode: 'none' } });
    addNode(doc, { name: 'packed', ...boxMesh([3, 0, 0], [1, 1, 1]), meshExtras: { sk8_collision_material_packed: 0x00080140 }, material: 'no such surface' });
    const rail = addNode(doc, { name: 'rail', positions: [0, 1, 0, 2, 1, 0, 4, 1.2, 0], indices: [0, 1, 1, 2], mode: 1, nodeExtras: { sk8_grind_curve: { radius: 0.05 } } });
    rail.setTranslation([1, 0, 1]);
    const night = doc.createScene('night');
    night.addChild(doc.createNode('lamp').setMesh(doc.getRoot().listMeshes()[0]).setTranslation([0, 3, 0]));
    for (const name of ['lite.glb', 'lite.gltf']) {
      const path = await writeLevel(doc, join(tmp.dir, name));
      const json = name.endsWith('.glb') ? await io().binaryToJSON(readFileSync(path)) : await io().readAsJSON(path);
      expect(liteRoot(json)).toBeDefined(); // the light reader covers this file: the comparison is not vacuous
      for (const scene of [undefined, 'night']) {
        const lite = await digest(path, scene, 'auto');
        expect(lite.objects.length).toBeGreaterThan(0);
        expect(lite).toEqual(await digest(path, scene, 'gltf-transform'));
      }
    }
  });
});
