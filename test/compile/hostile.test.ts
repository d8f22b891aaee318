// Hostile glTFs: each must fail with a clear message (stage prefix, the element and the numbers), and leave no
// output directory and no temporary sibling behind.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Logger } from '@gltf-transform/core';
import { KHRDracoMeshCompression } from '@gltf-transform/extensions';
import { compileLevel } from '../../src/build/compile.ts';
import { addNode, boxMesh, gridMesh, io, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';
import { buildSurfaceTable, DEFAULT_MATERIAL } from '../../src/import/materials.ts';
import { glbBytes, triangleBin, triangleJson as triangleGltf } from '../fixtures/gltf-raw.ts';

const tmp = tempDir('sk8-hostile-');
afterAll(tmp.cleanup);
const quiet = { logger: { warn: () => {} } };

/** One triangle: 3 f32x3 positions then 3 u32 indices (48 bytes), in a .gltf with a data-URI buffer. */
function triangleJson(): { json: any; bin: Uint8Array } {
  return { json: triangleGltf(), bin: triangleBin() };
}

/** `text` edits the JSON text after serialising (JSON.stringify cannot write 1e999, which parses to Infinity). */
function writeGltf(name: string, edit: (j: any, bin: Uint8Array) => void, text: (t: string) => string = (t) => t): string {
  const { json, bin } = triangleJson();
  edit(json, bin);
  if (json.buffers?.[0] && json.buffers[0].uri === undefined) json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  const path = join(tmp.dir, name);
  writeFileSync(path, text(JSON.stringify(json)));
  return path;
}

const dataUri = (b: Uint8Array): string => `data:application/octet-stream;base64,${Buffer.from(b).toString('base64')}`;

/** A GLB's JSON and binary chunk, edited and written back as a GLB. */
function patchGlb(bytes: Uint8Array, path: string, edit: (json: any, bin: Uint8Array) => void): string {
  const view = Buffer.from(bytes);
  const jsonLength = view.readUInt32LE(12);
  const json = JSON.parse(view.subarray(20, 20 + jsonLength).toString());
  const bin = new Uint8Array(view.subarray(20 + jsonLength + 8));
  edit(json, bin);
  writeFileSync(path, glbBytes(JSON.stringify(json), bin));
  return path;
}

/** A GLB of a ground grid, Draco-compressed (draco) or meshopt-compressed (meshopt), as bytes. */
async function compressedGlb(kind: 'draco' | 'meshopt'): Promise<Uint8Array> {
  const doc = newLevel();
  addNode(doc, { name: 'ground', ...gridMesh(8, 8, 1, [0, 0, 0]) });
  if (kind === 'draco') {
    doc.createExtension(KHRDracoMeshCompression).setRequired(true);
    const draco3d = await import('draco3dgltf');
    return io().registerDependencies({ 'draco3d.encoder': await draco3d.createEncoderModule() }).writeBinary(doc);
  }
  const { MeshoptEncoder } = await import('meshoptimizer');
  await MeshoptEncoder.ready;
  const { meshopt } = await import('@gltf-transform/functions');
  doc.setLogger(new Logger(Logger.Verbosity.SILENT));
  await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  return io().registerDependencies({ 'meshopt.encoder': MeshoptEncoder }).writeBinary(doc);
}

async function groundGlb(name: string): Promise<string> {
  const doc = newLevel();
  addNode(doc, { name: 'ground', ...gridMesh(8, 8, 1, [0, 0, 0]) });
  return writeLevel(doc, join(tmp.dir, name));
}

type Case = [string, () => Promise<string> | string, RegExp, object?];

const cases: Case[] = [
  ['NaN position', () => writeGltf('nan.gltf', (_, b) => void (new Float32Array(b.buffer, 0, 9)[4] = NaN)), /node 0 "tri" mesh 0 "tri" primitive 0: POSITION 1 is \(0, NaN, 1\), not finite/],
  ['NaN position after one past the world extent (input errors first)', () => writeGltf('nan-far.gltf', (_, b) => void ((new Float32Array(b.buffer, 0, 9)[0] = 200_000), (new Float32Array(b.buffer, 0, 9)[4] = NaN))), /node 0 "tri" mesh 0 "tri" primitive 0: POSITION 1 is \(0, NaN, 1\), not finite/],
  ['Infinity position', () => writeGltf('inf.gltf', (_, b) => void (new Float32Array(b.buffer, 0, 9)[0] = Infinity)), /POSITION 0 is \(Infinity, 0, 0\), not finite/],
  ['transform overflowing f32', () => writeGltf('scale.gltf', (j) => void (j.nodes[0].scale = [1e39, 1e39, 1e39])), /node 0 "tri" mesh 0 "tri" primitive 0: POSITION 1 \(0, 0, 1\) is at \(0, 0, 1e\+39\) in world space \(world scale \(1e\+39, 1e\+39, 1e\+39\)\), beyond ±100000 m \(WORLD_EXTENT_M\)/],
  // Spec-invalid input that used to become silent wrong collision.
  ['POSITION as UNSIGNED_INT', () => writeGltf('pos-uint.gltf', (j) => void (j.accessors[0].componentType = 5125)), /gltf: .*pos-uint\.gltf: mesh 0 "tri" primitive 0: POSITION accessor 0 has componentType 5125 \(UNSIGNED_INT\); glTF allows FLOAT \(BYTE and SHORT only with KHR_mesh_quantization\)/],
  ['sparse index past the count', () => writeGltf('sparse.gltf', (j) => {
    const extra = new Uint8Array(16);
    new Uint32Array(extra.buffer, 0, 1)[0] = 7;
    new Float32Array(extra.buffer, 4, 3).set([5, 5, 5]);
    j.buffers.push({ byteLength: 16, uri: dataUri(extra) });
    j.bufferViews.push({ buffer: 1, byteOffset: 0, byteLength: 4 }, { buffer: 1, byteOffset: 4, byteLength: 12 });
    j.accessors[0].sparse = { count: 1, indices: { bufferView: 2, componentType: 5125 }, values: { bufferView: 3 } };
  }), /sparse\.gltf: accessor 0: sparse index 7 \(entry 0\) ≥ count 3/],
  ['sparse indices not increasing', () => writeGltf('sparse-order.gltf', (j) => {
    const extra = new Uint8Array(32);
    new Uint32Array(extra.buffer, 0, 2).set([2, 1]);
    j.buffers.push({ byteLength: 32, uri: dataUri(extra) });
    j.bufferViews.push({ buffer: 1, byteOffset: 0, byteLength: 8 }, { buffer: 1, byteOffset: 8, byteLength: 24 });
    j.accessors[0].sparse = { count: 2, indices: { bufferView: 2, componentType: 5125 }, values: { bufferView: 3 } };
  }), /accessor 0: sparse index 1 \(entry 1\) does not increase \(after 2\)/],
  ['default scene 5 of 1', () => writeGltf('scene5.gltf', (j) => void (j.scene = 5)), /scene5\.gltf: scene 5 \(the default scene\) does not exist \(1 scenes\)/],
  ['default scene -1', () => writeGltf('scene-1.gltf', (j) => void (j.scene = -1)), /scene -1 \(the default scene\) does not exist \(1 scenes\)/],
  ['node scale 1e30', () => writeGltf('scale30.gltf', (j) => void (j.nodes[0].scale = [1e30, 1e30, 1e30])), /node 0 "tri" mesh 0 "tri" primitive 0: POSITION 1 \(0, 0, 1\) is at \(0, 0, 1e\+30\) in world space .*beyond ±100000 m/],
  ['node translation past the world extent', () => writeGltf('far.gltf', (j) => void (j.nodes[0].translation = [0, 0, 150_000])), /POSITION 0 \(0, 0, 0\) is at \(0, 0, 150000\) in world space \(world scale \(1, 1, 1\)\), beyond ±100000 m/],
  ['node scale 1e-30', () => writeGltf('scale-30.gltf', (j) => void (j.nodes[0].scale = [1e-30, 1e-30, 1e-30])), /node 0 "tri" mesh 0 "tri": world transform scales the axes by \[1e-30, 1e-30, 1e-30\]; below 0\.000001 \(MIN_WORLD_SCALE\) the triangles have no area/],
  ['scale flattening an axis', () => writeGltf('flatten.gltf', (j) => void (j.nodes[0].scale = [1, 0, 1])), /node 0 "tri" mesh 0 "tri": world transform .* is a singular matrix \(determinant 0\)/],
  ['singular node matrix', () => writeGltf('matrix.gltf', (j) => void (j.nodes[0].matrix = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])), /node 0 "tri": matrix \[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1\] is a singular matrix \(determinant 0\)/],
  ['infinite scale (1e999 in the JSON)', () => writeGltf('inf-scale.gltf', (j) => void (j.nodes[0].scale = [7777, 1, 1]), (t) => t.replace('7777', '1e999')), /node 0 "tri": scale \[Infinity, 1, 1\] is not finite/],
  ['infinite rotation (NaN matrix)', () => writeGltf('inf-rot.gltf', (j) => void (j.nodes[0].rotation = [7777, 0, 0, 1]), (t) => t.replace('7777', '-1e999')), /node 0 "tri": rotation \[-Infinity, 0, 0, 1\] is not finite/],
  ['a parent scale of 1e-30', () => writeGltf('parent.gltf', (j) => {
    j.nodes = [{ name: 'root', scale: [1e-20, 1e-20, 1e-20], children: [1] }, { name: 'tri', mesh: 0, scale: [1e-10, 1e-10, 1e-10] }];
  }), /node 1 "tri" mesh 0 "tri": world transform scales the axes by \[1e-30, 1e-30, 1e-30\]/],
  ['null as the whole JSON', () => (writeFileSync(join(tmp.dir, 'null.gltf'), 'null'), join(tmp.dir, 'null.gltf')), /^gltf: .*null\.gltf: the JSON is null, not a glTF object$/],
  ['an array as the whole JSON', () => (writeFileSync(join(tmp.dir, 'array.gltf'), '[1]'), join(tmp.dir, 'array.gltf')), /array\.gltf: the JSON is an array, not a glTF object/],
  ['null as a GLB JSON chunk', () => {
    writeFileSync(join(tmp.dir, 'null-chunk.glb'), glbBytes('null'));
    return join(tmp.dir, 'null-chunk.glb');
  }, /^gltf: .*null-chunk\.glb: the JSON chunk is null, not a glTF object$/],
  ['Draco data that is not Draco', async () => patchGlb(await compressedGlb('draco'), join(tmp.dir, 'draco-junk.glb'), (_, bin) => bin.fill(0)),
    /draco-junk\.glb: mesh 0 "ground" primitive 0: KHR_draco_mesh_compression bufferView 0: \d+ bytes are not Draco triangle-mesh data/],
  ['Draco data that fails to decode', async () => patchGlb(await compressedGlb('draco'), join(tmp.dir, 'draco-body.glb'), (j, bin) => {
    const v = j.bufferViews[j.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.bufferView];
    bin.fill(0xff, (v.byteOffset ?? 0) + 12, (v.byteOffset ?? 0) + v.byteLength); // header kept, body garbage
  }), /draco-body\.glb: mesh 0 "ground" primitive 0: KHR_draco_mesh_compression bufferView 0: Draco decoding failed \(/],
  ['Draco attribute id not in the data', async () => patchGlb(await compressedGlb('draco'), join(tmp.dir, 'draco-attr.glb'), (j) => {
    j.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.attributes.POSITION = 9;
  }), /draco-attr\.glb: node 0 "ground" mesh 0 "ground" primitive 0: index 0 \(at 0\) ≥ vertex count 0/], // @gltf-transform decodes it to no vertices
  ['meshopt data that is malformed', async () => patchGlb(await compressedGlb('meshopt'), join(tmp.dir, 'meshopt-junk.glb'), (_, bin) => bin.fill(0)),
    /meshopt-junk\.glb: bufferView 0 \(EXT_meshopt_compression TRIANGLES NONE, \d+ × 2 bytes, read by mesh 0 "ground" primitive 0 indices\): Malformed buffer data: -\d/],
  ['meshopt count past its bufferView', async () => patchGlb(await compressedGlb('meshopt'), join(tmp.dir, 'meshopt-count.glb'), (j) => {
    j.bufferViews[1].extensions.EXT_meshopt_compression.count *= 1000;
  }), /meshopt-count\.glb: bufferView 1: meshopt count 81000 × byteStride 8 does not fit its 648 bytes/],
  ['meshopt fallback declaring gigabytes', async () => patchGlb(await compressedGlb('meshopt'), join(tmp.dir, 'meshopt-huge.glb'), (j) => {
    const v = j.bufferViews[1];
    v.byteLength = 2 ** 31;
    j.buffers[v.buffer].byteLength = 2 ** 31 + 1024;
    v.extensions.EXT_meshopt_compression.count = 2 ** 28;
  }), /meshopt-huge\.glb: bufferView 1: meshopt data decoding to \d+ bytes exceeds what a \d+-byte file can hold/],
  ['instance scaled to zero', () => writeGltf('inst-zero.gltf', (j) => {
    j.extensionsUsed = ['EXT_mesh_gpu_instancing'];
    j.accessors.push({ componentType: 5126, count: 2, type: 'VEC3' }); // zero-filled: scale 0
    j.nodes[0].extensions = { EXT_mesh_gpu_instancing: { attributes: { SCALE: 2 } } };
  }), /node 0 "tri" mesh 0 "tri" instance 0: world transform .* is a singular matrix \(determinant 0\)/],
  ['index out of range', () => writeGltf('index.gltf', (_, b) => void (new Uint32Array(b.buffer, 36, 3)[2] = 70211)), /node 0 "tri" mesh 0 "tri" primitive 0: index 70211 \(at 2\) ≥ vertex count 3/],
  ['missing external buffer', () => writeGltf('missing.gltf', (j) => void (j.buffers[0].uri = 'level-missing.bin')), /level-missing\.bin/],
  ['truncated GLB', async () => {
    const p = await groundGlb('trunc-src.glb');
    const bytes = readFileSync(p);
    const out = join(tmp.dir, 'truncated.glb');
    writeFileSync(out, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    return out;
  }, /truncated\.glb: GLB truncated: header says \d+ bytes, file has \d+/],
  ['empty file', () => (writeFileSync(join(tmp.dir, 'empty.glb'), ''), join(tmp.dir, 'empty.glb')), /empty\.glb: empty file \(0 bytes\)/],
  ['GLB header lies about its length', async () => {
    const bytes = Buffer.from(readFileSync(await groundGlb('len-src.glb')));
    bytes.writeUInt32LE(0x7fffffff, 12); // JSON chunk length
    writeFileSync(join(tmp.dir, 'len.glb'), bytes);
    return join(tmp.dir, 'len.glb');
  }, /len\.glb: GLB chunk 0 \(2147483647 bytes at 20\) runs past the end/],
  ['not JSON', () => (writeFileSync(join(tmp.dir, 'junk.gltf'), '{"asset": {"version": "2.0"'), join(tmp.dir, 'junk.gltf')), /gltf: .*junk\.gltf: /],
  ['glTF 1.0', () => writeGltf('v1.gltf', (j) => void (j.asset.version = '1.0')), /asset\.version is "1\.0", only glTF 2\.0/],
  ['zero triangles', () => writeGltf('points.gltf', (j) => void (j.meshes[0].primitives[0].mode = 0)), /no collision triangles \(1 nodes, 1 with meshes/],
  ['cyclic node tree', () => writeGltf('cycle.gltf', (j) => {
    j.nodes = [{ name: 'a', mesh: 0, children: [1] }, { name: 'b', children: [2] }, { name: 'c', children: [1] }];
  }), /node 1 has two parents|cyclic/],
  ['node that is its own child', () => writeGltf('self.gltf', (j) => void (j.nodes[0].children = [0])), /node 0 is its own child/],
  ['absurdly deep node tree', () => writeGltf('deep.gltf', (j) => {
    j.nodes = Array.from({ length: 400 }, (_, i) => (i < 399 ? { children: [i + 1] } : { mesh: 0 }));
  }), /nested 257 levels deep \(limit 256\)/],
  ['huge accessor count', () => writeGltf('huge.gltf', (j) => void (j.accessors[0].count = 1_000_000_000)), /accessor 0: count 1000000000 × stride 12 .* bufferView 0 has 36/],
  ['huge accessor without data', () => writeGltf('zero-filled.gltf', (j) => {
    delete j.accessors[0].bufferView;
    j.accessors[0].count = 2_000_000_000;
  }), /accessor 0: count 2000000000 × 12 bytes without data exceeds/],
  ['bufferView past its buffer', () => writeGltf('view.gltf', (j) => void (j.bufferViews[1].byteLength = 4096)), /bufferView 1: bytes 36\.\.4132 run past buffer 0 \(48 bytes\)/],
  ['buffer shorter than declared', () => writeGltf('short.gltf', (j) => void (j.buffers[0].byteLength = 4800)), /buffer 0: declares 4800 bytes but 48 are present/],
  ['float indices', () => writeGltf('float-index.gltf', (j) => void (j.accessors[1].componentType = 5126)), /primitive 0: indices accessor 1 is SCALAR of component type 5126, not unsigned integer SCALAR/],
  ['accessor naming a missing bufferView', () => writeGltf('noview.gltf', (j) => void (j.accessors[1].bufferView = 9)), /accessor 1: bufferView 9 does not exist/],
  ['node naming a missing mesh', () => writeGltf('nomesh.gltf', (j) => void (j.nodes[0].mesh = 5)), /node 0: mesh 5 does not exist/],
  ['unsupported required extension', () => writeGltf('ext.gltf', (j) => {
    j.extensionsRequired = j.extensionsUsed = ['EXT_teleport'];
  }), /requires extension EXT_teleport/],
  ['material slot outside the grid', () => writeGltf('slot.gltf', (j) => void (j.nodes[0].extras = { sk8_collision_material_packed: 200 << 6 })), /material slot 200 ≥ 116.*--allow-custom-slots/],
  ['only degenerate triangles', () => writeGltf('flat.gltf', (_, b) => void new Float32Array(b.buffer, 0, 9).set([0, 0, 0, 1, 0, 0, 2, 0, 0])), /every collision triangle is degenerate/],
  ['instancing past the object limit', () => writeGltf('inst.gltf', (j) => {
    // A zero-filled translation accessor (allowed by the data check) of 1,000,000 instances of the triangle.
    j.extensionsUsed = ['EXT_mesh_gpu_instancing'];
    j.accessors.push({ componentType: 5126, count: 1_000_000, type: 'VEC3' });
    j.nodes[0].extensions = { EXT_mesh_gpu_instancing: { attributes: { TRANSLATION: 2 } } };
  }), /more than 500000 mesh objects \(1000000 instance\(s\) here\)/],
  ['node reuse past the triangle limit', () => writeGltf('reuse.gltf', (j) => {
    // One triangle strip of 1,000,000 zero-filled vertices, reused by 110 nodes: 110M triangles.
    j.accessors.push({ componentType: 5126, count: 1_000_000, type: 'VEC3' });
    j.meshes.push({ primitives: [{ attributes: { POSITION: 2 }, mode: 5 }] });
    j.nodes = Array.from({ length: 110 }, () => ({ mesh: 1 }));
    j.scenes[0].nodes = j.nodes.map((_: unknown, i: number) => i);
  }), /the scene expands to more than 100000000 triangles \(999998 × 1 instance\(s\) here\)/],
  ['unknown scene', () => writeGltf('scene.gltf', () => {}), /no scene "nope" \(scenes: 0\)/, { scene: 'nope' }],
  ['Draco without decoder', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'ground', ...gridMesh(4, 4, 1, [0, 0, 0]) });
    doc.createExtension(KHRDracoMeshCompression).setRequired(true);
    const draco3d = await import('draco3dgltf');
    const p = join(tmp.dir, 'draco.glb');
    await io().registerDependencies({ 'draco3d.encoder': await draco3d.createEncoderModule() }).write(p, doc);
    return p;
  }, /uses KHR_draco_mesh_compression \(Draco compression\) but no Draco decoder is available/, { decoders: { draco: false, meshopt: true } }],
];

const inputs: string[] = [];

describe('hostile glTFs: clear error, no output', () => {
  it('has at least 15 cases', () => expect(cases.length).toBeGreaterThanOrEqual(15));
  for (const [title, make, message, extra] of cases) {
    it(title, async () => {
      const input = await make();
      if (!extra) inputs.push(input);
      const out = join(tmp.dir, `out-${title.replace(/\W+/g, '-')}`);
      await expect(compileLevel(input, { out, ...extra }, quiet)).rejects.toThrow(message);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(tmp.dir).filter((f) => f.includes('.tmp-') || f.includes('.old-'))).toEqual([]);
    });
  }
});

describe('hostile glTFs through the CLI', () => {
  it('exits 1 with one message per level and writes no output directory', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(15);
    const bin = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
    const r = spawnSync(process.execPath, [bin, ...inputs], { cwd: tmp.dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(inputs.length);
    for (const [i, input] of inputs.entries()) expect(lines[i]).toContain(input);
    expect(readdirSync(tmp.dir).filter((f) => f.endsWith('.collision') || /\.(tmp|old)-/.test(f))).toEqual([]);
  });
});

describe('warnings say what is written', () => {
  it('a grind radius out of range warns with both values; an unknown grind surface names the word written', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'ground', ...gridMesh(4, 4, 1, [0, 0, 0]) });
    addNode(doc, { name: 'rail', positions: [0, 1, 0, 2, 1, 0], mode: 3, nodeExtras: { sk8_grind_curve: { radius: 1e9, surface: 'glitter' } } });
    addNode(doc, { name: 'thin', positions: [0, 1, 2, 2, 1, 2], mode: 3, nodeExtras: { sk8_grind_curve: { radius: 1e-9 } } });
    addNode(doc, { name: 'box', ...boxMesh([0, 3, 0], [0.5, 0.5, 0.5]), nodeExtras: { sk8_surface: 'sparkle' } });
    const warnings: string[] = [];
    const r = await compileLevel(await writeLevel(doc, join(tmp.dir, 'grind-warn.glb')), { out: join(tmp.dir, 'grind-warn') }, { logger: { warn: (m) => void warnings.push(m) } });
    const roundRail = buildSurfaceTable().get('round_rail')!;
    const hex = (w: number): string => `0x${w.toString(16).padStart(8, '0')}`;
    expect(warnings).toContain('grind: rail.glb: node 1 "rail" mesh 1 "rail": radius 1000000000 m is outside 0.005–0.25 m; using 0.25 m'.replace('rail.glb', join(tmp.dir, 'grind-warn.glb')));
    expect(warnings.some((w) => /node 2 "thin" .*radius 1e-9 m is outside 0\.005–0\.25 m; using 0\.005 m/.test(w))).toBe(true);
    expect(warnings.some((w) => w.includes(`surface "glitter" is not in the material grid; using the grind default (round rail) ${hex(roundRail)}`))).toBe(true);
    expect(r.manifest.resources.find((x) => x.name === 'grind_rail')!.materials).toEqual([roundRail]);
    expect(warnings.some((w) => w.includes(`surface "sparkle" is not in the material grid; using the default ${hex(DEFAULT_MATERIAL)}`))).toBe(true);
    expect(r.manifest.resources.find((x) => x.name === 'box')!.materials).toEqual([DEFAULT_MATERIAL]);
    const rail = readFileSync(join(r.outDir, 'grind_rail.physics'));
    expect(rail.length).toBeGreaterThan(0);
  });
});

describe('level-wide passes have a work budget', () => {
  /** A soup of large overlapping triangles: `triangles` random corners from `points` random points in a 300 m box. */
  function soup(triangles: number, points: number, seed: number): { positions: number[]; indices: number[] } {
    let s = seed >>> 0;
    const r = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const positions = Array.from({ length: 3 * points }, () => r() * 300 - 150);
    const indices = Array.from({ length: 3 * triangles }, () => Math.floor(r() * points));
    return { positions, indices };
  }

  it('a 20,000-triangle soup validates in seconds: the crack pass past its budget is skipped and says how many edges it did not check', async () => {
    // Before the budget the crack pass tested every point of ~60,000 open edges under every face: ~70 s here.
    const doc = newLevel();
    addNode(doc, { name: 'soup', ...soup(20_000, 6_000, 7) });
    const input = await writeLevel(doc, join(tmp.dir, 'soup.glb'));
    const warnings: string[] = [];
    const t0 = performance.now();
    const r = await compileLevel(input, { out: join(tmp.dir, 'soup'), workers: 1 }, { logger: { warn: (m) => void warnings.push(m) } });
    expect(performance.now() - t0).toBeLessThan(15_000);
    const v = r.manifest.validation.soup;
    expect(v.uncheckedEdges).toBeGreaterThan(50_000);
    expect(v.crackEdges).toBeUndefined(); // none classified, none claimed
    expect(warnings.join('\n')).toMatch(/validate: object "soup": .*\d+ open edges not checked for cracks \(the level-wide crack pass was past its work budget/);
    // The seams' T-junction pass too (every edge against every edge in a few huge cells: minutes before its budget).
    expect(warnings.join('\n')).toMatch(/seams: \d+ open corners not checked for T-junctions and near-flush joints \(the pass would compare more than its work budget/);
    // And the pass for open edges lying on another object's face (every edge under every face).
    expect(warnings.join('\n')).toMatch(/seams: \d+ open corners not checked for lying on another object's face \(the pass would consider more than its work budget/);
  }, 20_000);
});
