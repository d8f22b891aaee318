// npm run samples: writes the bundled sample levels, deterministically (same bytes on every run and machine).
//  - samples/skatepark.glb: ground, quarter pipe, manual pad, stairs with a handrail grind curve, funbox with a
//    ledge (metal coping and a grind curve), a pond (water), a render-only sign (sk8_collision_mode none) and a
//    row of GPU-instanced bollards; materials by name, extras as Blender's exporter writes custom properties.
//    Its three validation warnings are deliberate (cracks where the quarter pipe and the funbox sit on the ground,
//    non-manifold stairs and funbox): a hand-built level's mistakes, for the validation and report.html to show; so
//    --strict fails on it (README, "Run"; test/cli/scripting.test.ts).
//  - samples/city-blocks.glb: a 1.2 km square of terrain and 4,400 small props (shared meshes, so the file stays
//    small): about 4,500 geometries, above the 4,003 budget, so it compiles into collision_area cells.
//  - samples/shapes.glb: one object per collision mode of the shape layer (src/shapes/): fitted box, sphere,
//    capsule, cylinder and cone, explicit sk8_shape primitives (one under a positive diagonal scale), a hull of a
//    random rock (and the convex_hull spelling), convex_parts (two closed boxes and one flat convex plate; and the
//    aggregate spelling), and triangle_mesh / mesh ground.
// glTF space is game space: Y up, metres.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, NodeIO, type Material, type Mesh, type Node } from '@gltf-transform/core';
import { ALL_EXTENSIONS, EXTMeshGPUInstancing } from '@gltf-transform/extensions';
import { prng } from '../test/fixtures/meshes.ts';

type V3 = [number, number, number];
interface Geo {
  positions: number[];
  indices: number[];
}

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'samples');

/** Axis-aligned box, 12 triangles wound outward. */
function box([cx, cy, cz]: V3, [hx, hy, hz]: V3): Geo {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) positions.push(cx + (i & 1 ? hx : -hx), cy + (i & 2 ? hy : -hy), cz + (i & 4 ? hz : -hz));
  // prettier-ignore
  const indices = [0,2,1, 1,2,3, 4,5,6, 5,7,6, 0,1,4, 1,5,4, 2,6,3, 3,6,7, 0,4,2, 2,4,6, 1,3,5, 3,7,5];
  return { positions, indices };
}

/** n×m grid on the XZ plane facing up; `height` gives y per vertex. */
function grid(n: number, m: number, cell: number, [ox, oy, oz]: V3, height: (x: number, z: number) => number = () => 0): Geo {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let j = 0; j <= m; j++) for (let i = 0; i <= n; i++) positions.push(ox + i * cell, oy + height(i, j), oz + j * cell);
  for (let j = 0; j < m; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      indices.push(a, c, b, b, c, d);
    }
  }
  return { positions, indices };
}

/** A 2D profile (x along the ramp, y up) extruded along z from z0 to z0 + width; faces point to the profile's left. */
function extrude(profile: [number, number][], x0: number, z0: number, width: number): Geo {
  const positions: number[] = [];
  const indices: number[] = [];
  for (const [x, y] of profile) positions.push(x0 + x, y, z0, x0 + x, y, z0 + width);
  for (let i = 0; i + 1 < profile.length; i++) {
    const a = 2 * i, b = a + 1, c = a + 2, d = a + 3;
    indices.push(a, b, c, c, b, d);
  }
  return { positions, indices };
}

function merge(...parts: Geo[]): Geo {
  const out: Geo = { positions: [], indices: [] };
  for (const p of parts) {
    const base = out.positions.length / 3;
    out.positions.push(...p.positions);
    out.indices.push(...p.indices.map((i) => i + base));
  }
  return out;
}

class Builder {
  doc = new Document();
  private buffer = this.doc.createBuffer();
  private scene = this.doc.createScene('level');
  private materials = new Map<string, Material>();

  material(name: string, extras?: Record<string, unknown>): Material {
    let m = this.materials.get(name);
    if (!m) {
      m = this.doc.createMaterial(name);
      if (extras) m.setExtras(extras);
      this.materials.set(name, m);
    }
    return m;
  }

  mesh(name: string, prims: { geo: Geo; material?: Material; mode?: number }[], extras?: Record<string, unknown>): Mesh {
    const mesh = this.doc.createMesh(name);
    for (const { geo, material, mode } of prims) {
      const pos = this.doc.createAccessor().setType('VEC3').setArray(Float32Array.from(geo.positions)).setBuffer(this.buffer);
      const prim = this.doc.createPrimitive().setAttribute('POSITION', pos);
      if (geo.indices.length) {
        const big = geo.positions.length / 3 > 65535;
        const idx = big ? Uint32Array.from(geo.indices) : Uint16Array.from(geo.indices);
        prim.setIndices(this.doc.createAccessor().setType('SCALAR').setArray(idx).setBuffer(this.buffer));
      }
      if (material) prim.setMaterial(material);
      if (mode !== undefined) prim.setMode(mode as 4);
      mesh.addPrimitive(prim);
    }
    if (extras) mesh.setExtras(extras);
    return mesh;
  }

  node(name: string, mesh: Mesh | undefined, opts: { t?: V3; r?: [number, number, number, number]; extras?: Record<string, unknown>; parent?: Node } = {}): Node {
    const node = this.doc.createNode(name);
    if (mesh) node.setMesh(mesh);
    if (opts.t) node.setTranslation(opts.t);
    if (opts.r) node.setRotation(opts.r);
    if (opts.extras) node.setExtras(opts.extras);
    if (opts.parent) opts.parent.addChild(node);
    else this.scene.addChild(node);
    return node;
  }

  accessor(type: 'VEC3' | 'VEC4', values: number[]) {
    return this.doc.createAccessor().setType(type).setArray(Float32Array.from(values)).setBuffer(this.buffer);
  }
}

const LINE_STRIP = 3;

export function skatepark(): Document {
  const b = new Builder();
  const concrete = b.material('Concrete.001'); // Blender's duplicate suffix: still "concrete"
  const smooth = b.material('park_smooth', { sk8_surface: 'concrete' });
  const wood = b.material('Wood');
  const stairs = b.material('steps', { sk8_surface: 'stairs' });

  b.node('ground', b.mesh('ground', [{ geo: grid(24, 24, 2, [-24, 0, -24]), material: concrete }]));

  // Quarter pipe along z (8 m wide): flat ground meets a 3 m-radius transition at x = 16, vertical at x = 19,
  // a 1 m deck and the back wall. Profile left to right, so faces point up and out (see extrude).
  const qp: [number, number][] = [];
  for (let k = 0; k <= 12; k++) {
    const a = (k / 12) * (Math.PI / 2);
    qp.push([16 + 3 * Math.sin(a), 3 - 3 * Math.cos(a)]);
  }
  qp.push([20, 3], [20, 0]);
  b.node('quarter_pipe', b.mesh('quarter_pipe', [{ geo: extrude(qp, 0, -4, 8), material: smooth }]));

  // Manual pad: 4 × 0.3 × 2 m block.
  b.node('manual_pad', b.mesh('manual_pad', [{ geo: box([0, 0.15, 0], [2, 0.15, 1]), material: smooth }]), { t: [-8, 0, 6] });

  // Stairs: 5 steps of 0.3 m run and 0.17 m rise, 3 m wide, climbing toward −x; a landing on top.
  const steps: Geo[] = [];
  for (let s = 0; s < 5; s++) steps.push(box([-s * 0.3 - 0.15, (s + 1) * 0.085, 0], [0.15, (s + 1) * 0.085, 1.5]));
  steps.push(box([-1.5 - 1, 0.425, 0], [1, 0.425, 1.5]));
  const stairNode = b.node('stairs', b.mesh('stairs', [{ geo: merge(...steps), material: stairs }]), { t: [-4, 0, -12] });
  // Handrail: 0.9 m above the nosings along the stair, as loose edges (a LINE_STRIP) flagged sk8_grind_curve.
  const rail: number[] = [];
  for (let s = 0; s <= 5; s++) rail.push(-s * 0.3, 0.9 + s * 0.17, 1.2);
  rail.push(-1.5 - 2, 0.9 + 0.85, 1.2);
  b.node('handrail', b.mesh('handrail_curve', [{ geo: { positions: rail, indices: [] }, mode: LINE_STRIP }]), {
    parent: stairNode,
    extras: { sk8_grind_curve: { enabled: true, radius: 0.025 } },
  });
  b.node('handrail_posts', b.mesh('handrail_posts', [{ geo: merge(box([0, 0.45, 1.2], [0.025, 0.45, 0.025]), box([-3.5, 0.875, 1.2], [0.025, 0.875, 0.025])), material: b.material('metal') }]), { parent: stairNode });

  // Funbox: a 1.5 m × 0.6 m × 4 m table with kickers, a 0.4 m ledge on top with metal coping and a grind curve.
  const up = extrude([[0, 0], [1.5, 0.6]], -2.25, 0, 4);
  const down = extrude([[0, 0.6], [1.5, 0]], 0.75, 0, 4);
  const funbox = b.node('funbox', b.mesh('funbox', [{ geo: merge(box([0, 0.3, 2], [0.75, 0.3, 2]), up, down), material: wood }]), { t: [4, 0, 8] });
  b.node('ledge', b.mesh('ledge', [
    { geo: box([0, 0.8, 2], [0.25, 0.2, 1.8]), material: concrete },
  ]), { parent: funbox });
  b.node('ledge_coping', b.mesh('ledge_coping', [{ geo: box([0.25, 1.0, 2], [0.02, 0.005, 1.8]) }]), { parent: funbox, extras: { sk8_collision_material_packed: 352 } });
  b.node('ledge_grind', b.mesh('ledge_grind', [{ geo: { positions: [0.25, 1.0, 0.2, 0.25, 1.0, 3.8], indices: [] }, mode: LINE_STRIP }]), {
    parent: funbox,
    extras: { sk8_grind_curve: { enabled: true, radius: 0.03, surface: 'metal_rail' } },
  });

  // Pond (water) and a render-only sign.
  b.node('pond', b.mesh('pond', [{ geo: grid(4, 4, 1, [-20, -0.5, 14]) }]), { extras: { sk8_collision_mode: 'water' } });
  b.node('sign_render_only', b.mesh('sign', [{ geo: box([0, 2, 0], [1, 0.5, 0.05]) }]), { t: [0, 0, -22], extras: { sk8_collision_mode: 'none' } });

  // Bollards along the west edge, as one GPU-instanced mesh (EXT_mesh_gpu_instancing).
  const bollards = b.node('bollard', b.mesh('bollard', [{ geo: box([0, 0.4, 0], [0.1, 0.4, 0.1]), material: b.material('metal') }]), { t: [-22, 0, 0] });
  const inst = b.doc.createExtension(EXTMeshGPUInstancing).setRequired(true);
  const t: number[] = [];
  for (let k = 0; k < 6; k++) t.push(0, 0, -10 + 4 * k);
  bollards.setExtension('EXT_mesh_gpu_instancing', inst.createInstancedMesh().setAttribute('TRANSLATION', b.accessor('VEC3', t)));
  return b.doc;
}

export function cityBlocks(): Document {
  const b = new Builder();
  const rnd = prng(20261129);
  const asphalt = b.material('asphalt');
  const concrete = b.material('concrete');
  const metal = b.material('metal');
  const size = 1200;
  // Terrain: 120 × 120 quads of 10 m with gentle hills, centred on the origin (negative cells too).
  const hill = (i: number, j: number): number => 2 * Math.sin(i * 0.21) * Math.cos(j * 0.17);
  b.node('terrain', b.mesh('terrain', [{ geo: grid(120, 120, 10, [-size / 2, 0, -size / 2], hill), material: asphalt }]));
  const props = [
    b.mesh('crate', [{ geo: box([0, 0.5, 0], [0.5, 0.5, 0.5]), material: concrete }]),
    b.mesh('bench', [{ geo: merge(box([0, 0.45, 0], [1, 0.05, 0.25]), box([-0.9, 0.2, 0], [0.05, 0.2, 0.2]), box([0.9, 0.2, 0], [0.05, 0.2, 0.2])), material: concrete }]),
    b.mesh('barrier', [{ geo: box([0, 0.4, 0], [1.5, 0.4, 0.2]), material: concrete }, { geo: box([0, 0.85, 0], [1.5, 0.05, 0.05]), material: metal }]),
    b.mesh('planter', [{ geo: box([0, 0.35, 0], [0.8, 0.35, 0.8]), material: concrete }]),
  ];
  for (let k = 0; k < 4400; k++) {
    const x = Math.round((rnd() - 0.5) * (size - 20) * 10) / 10;
    const z = Math.round((rnd() - 0.5) * (size - 20) * 10) / 10;
    const mesh = props[Math.floor(rnd() * props.length)];
    const yaw = Math.round(rnd() * 8) * (Math.PI / 8);
    b.node(`${mesh.getName()}_${String(k).padStart(4, '0')}`, mesh, { t: [x, 0, z], r: [0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2)] });
  }
  return b.doc;
}

/** A closed UV-sphere-like blob (rings of `n` around Y), wound outward: a mesh to fit primitives to. */
function blob(n: number, r: [number, number, number], c: V3 = [0, 0, 0]): Geo {
  const positions: number[] = [c[0], c[1] + r[1], c[2]];
  const rings = n / 2 - 1;
  for (let k = 1; k <= rings; k++) {
    const t = (k * Math.PI) / (rings + 1);
    for (let j = 0; j < n; j++) {
      const f = (2 * Math.PI * j) / n;
      positions.push(c[0] + r[0] * Math.sin(t) * Math.cos(f), c[1] + r[1] * Math.cos(t), c[2] + r[2] * Math.sin(t) * Math.sin(f));
    }
  }
  positions.push(c[0], c[1] - r[1], c[2]);
  const indices: number[] = [];
  const ring = (k: number, j: number): number => 1 + (k - 1) * n + (j % n);
  for (let j = 0; j < n; j++) indices.push(0, ring(1, j + 1), ring(1, j));
  for (let k = 1; k < rings; k++) for (let j = 0; j < n; j++) indices.push(ring(k, j), ring(k, j + 1), ring(k + 1, j), ring(k, j + 1), ring(k + 1, j + 1), ring(k + 1, j));
  const last = positions.length / 3 - 1;
  for (let j = 0; j < n; j++) indices.push(ring(rings, j), ring(rings, j + 1), last);
  return { positions, indices };
}

export function shapes(): Document {
  const b = new Builder();
  const concrete = b.material('concrete');
  const metal = b.material('metal');
  const wood = b.material('Wood');
  const mode = (m: string) => ({ sk8_collision_mode: m });
  b.node('ground', b.mesh('ground', [{ geo: grid(12, 12, 2, [-12, 0, -12]), material: concrete }]), { extras: mode('triangle_mesh') });
  b.node('ramp_mesh', b.mesh('ramp', [{ geo: extrude([[0, 0], [2, 0.8]], 0, 0, 2), material: concrete }]), { t: [-10, 0, 8], extras: mode('mesh') });
  // Fitted primitives (the mode on the object, the mesh's local bounds).
  b.node('crate_box', b.mesh('crate', [{ geo: box([0, 0.5, 0], [0.5, 0.5, 0.5]), material: wood }]), { t: [-6, 0, -6], r: [0, Math.sin(Math.PI / 12), 0, Math.cos(Math.PI / 12)], extras: mode('box') });
  b.node('ball_sphere', b.mesh('ball', [{ geo: blob(12, [0.6, 0.6, 0.6], [0, 0.6, 0]), material: metal }]), { t: [-3, 0, -6], extras: mode('sphere') });
  b.node('bollard_capsule', b.mesh('bollard_fit', [{ geo: blob(10, [0.15, 0.6, 0.15], [0, 0.6, 0]), material: metal }]), { t: [0, 0, -6], extras: mode('capsule') });
  b.node('post_cylinder', b.mesh('post', [{ geo: box([0, 1, 0], [0.1, 1, 0.1]), material: metal }]), { t: [3, 0, -6], extras: mode('cylinder') });
  b.node('cone_cone', b.mesh('cone', [{ geo: box([0, 0.4, 0], [0.3, 0.4, 0.3]), material: concrete }]), { t: [6, 0, -6], extras: mode('cone') });
  // Explicit parameters in sk8_shape (object-local; the node's scale (2, 1, 2) applies).
  const pad = b.mesh('pad', [{ geo: box([0, 0.5, 0], [0.5, 0.5, 0.5]), material: metal }]);
  b.node('bollard_explicit', pad, { t: [0, 0, -3], extras: { sk8_shape: { type: 'capsule', radius: 0.15, length: 0.7, axis: 'y', centre: [0, 0.5, 0] } } });
  const scaled = b.node('drum_explicit', pad, { t: [3, 0, -3], extras: { sk8_shape: JSON.stringify({ type: 'cylinder', radius: 0.3, height: 0.9, centre: [0, 0.45, 0] }) } });
  scaled.setScale([2, 1, 2]);
  b.node('cap_explicit', pad, { t: [6, 0, -3], extras: { sk8_collision_mode: 'cone', sk8_shape: { type: 'cone', radius: 0.4, height: 0.6, centre: [0, 0.3, 0] } } });
  // Hulls of a lumpy rock (random points on a blob).
  const rnd = prng(15);
  const rock = blob(10, [0.8, 0.5, 0.6], [0, 0.5, 0]);
  rock.positions = rock.positions.map((v) => v * (0.85 + 0.3 * rnd()));
  b.node('rock_hull', b.mesh('rock', [{ geo: rock, material: concrete }]), { t: [-6, 0, 3], extras: mode('hull') });
  b.node('rock_convex_hull', b.mesh('rock', [{ geo: rock, material: concrete }]), { t: [-3, 0, 3], extras: mode('convex_hull') });
  // Convex parts: two closed boxes and one flat convex plate, one resource.
  const plate = { positions: [0, 1.2, 0, 1, 1.2, 0, 1.3, 1.2, 0.8, 0.5, 1.2, 1.3, -0.3, 1.2, 0.8], indices: [0, 3, 1, 1, 3, 2, 0, 4, 3] };
  const parts = merge(box([0, 0.3, 0], [0.5, 0.3, 0.5]), box([1.5, 0.5, 0], [0.4, 0.5, 0.4]), plate);
  b.node('stack_convex_parts', b.mesh('stack', [{ geo: parts, material: wood }]), { t: [1, 0, 3], extras: mode('convex_parts') });
  b.node('stack_aggregate', b.mesh('stack', [{ geo: parts, material: wood }]), { t: [5, 0, 3], extras: mode('aggregate') });
  return b.doc;
}

export const SAMPLES = { 'skatepark.glb': skatepark, 'city-blocks.glb': cityBlocks, 'shapes.glb': shapes } as const;

/** The sample's .glb bytes (deterministic). */
export async function sampleBytes(name: keyof typeof SAMPLES): Promise<Uint8Array> {
  return new NodeIO().registerExtensions(ALL_EXTENSIONS).writeBinary(SAMPLES[name]());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(OUT, { recursive: true });
  for (const name of Object.keys(SAMPLES) as (keyof typeof SAMPLES)[]) {
    const bytes = await sampleBytes(name);
    writeFileSync(join(OUT, name), bytes);
    process.stdout.write(`samples/${name}: ${bytes.byteLength} bytes\n`);
  }
}
