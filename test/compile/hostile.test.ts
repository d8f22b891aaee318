// Hostile glTFs: each must fail with a clear message (stage prefix, the element and the numbers), and leave no
// output directory and no temporary sibling behind.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KHRDracoMeshCompression } from '@gltf-transform/extensions';
import { compileLevel } from '../../src/compile.ts';
import { addNode, gridMesh, io, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const tmp = tempDir('sk8-hostile-');
afterAll(tmp.cleanup);
const quiet = { logger: { warn: () => {} } };

/** One triangle: 3 f32x3 positions then 3 u32 indices (48 bytes), in a .gltf with a data-URI buffer. */
function triangleJson(): { json: any; bin: Uint8Array } {
  const bin = new Uint8Array(48);
  new Float32Array(bin.buffer, 0, 9).set([0, 0, 0, 0, 0, 1, 1, 0, 0]);
  new Uint32Array(bin.buffer, 36, 3).set([0, 1, 2]);
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: 'tri', mesh: 0 }],
    meshes: [{ name: 'tri', primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 0, 1] },
      { bufferView: 1, componentType: 5125, count: 3, type: 'SCALAR' },
    ],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 36 }, { buffer: 0, byteOffset: 36, byteLength: 12 }],
    buffers: [{ byteLength: 48 }],
  };
  return { json, bin };
}

function writeGltf(name: string, edit: (j: any, bin: Uint8Array) => void): string {
  const { json, bin } = triangleJson();
  edit(json, bin);
  if (json.buffers?.[0] && json.buffers[0].uri === undefined) json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  const path = join(tmp.dir, name);
  writeFileSync(path, JSON.stringify(json));
  return path;
}

async function groundGlb(name: string): Promise<string> {
  const doc = newLevel();
  addNode(doc, { name: 'ground', ...gridMesh(8, 8, 1, [0, 0, 0]) });
  return writeLevel(doc, join(tmp.dir, name));
}

type Case = [string, () => Promise<string> | string, RegExp, object?];

const cases: Case[] = [
  ['NaN position', () => writeGltf('nan.gltf', (_, b) => void (new Float32Array(b.buffer, 0, 9)[4] = NaN)), /node 0 "tri" mesh 0 "tri" primitive 0: POSITION 1 is \(0, NaN, 1\), not finite/],
  ['Infinity position', () => writeGltf('inf.gltf', (_, b) => void (new Float32Array(b.buffer, 0, 9)[0] = Infinity)), /POSITION 0 is \(Infinity, 0, 0\), not finite/],
  ['transform overflowing f32', () => writeGltf('scale.gltf', (j) => void (j.nodes[0].scale = [1e39, 1e39, 1e39])), /POSITION \d+ leaves the f32 range/],
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
  }), /more than 250000 mesh objects \(1000000 instance\(s\) here\)/],
  ['node reuse past the triangle limit', () => writeGltf('reuse.gltf', (j) => {
    // One triangle strip of 1,000,000 zero-filled vertices, reused by 60 nodes: 60M triangles.
    j.accessors.push({ componentType: 5126, count: 1_000_000, type: 'VEC3' });
    j.meshes.push({ primitives: [{ attributes: { POSITION: 2 }, mode: 5 }] });
    j.nodes = Array.from({ length: 60 }, () => ({ mesh: 1 }));
    j.scenes[0].nodes = j.nodes.map((_: unknown, i: number) => i);
  }), /the scene expands to more than 50000000 triangles \(999998 × 1 instance\(s\) here\)/],
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
    const r = spawnSync(process.execPath, [bin, ...inputs], { cwd: tmp.dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(inputs.length);
    for (const [i, input] of inputs.entries()) expect(lines[i]).toContain(input);
    expect(readdirSync(tmp.dir).filter((f) => f.endsWith('.collision') || /\.(tmp|old)-/.test(f))).toEqual([]);
  });
});
