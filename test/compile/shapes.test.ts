// Shape modes through the compiler: samples/shapes.glb (one object per mode) regenerates byte for
// byte and compiles; kind-5 primitives have zero open edges and their analytic bounds within the chord bound;
// hulls have only convex or flat edges; --native-shapes writes kind 2 / 3 that verify and round-trip (also in
// cells, and through worker threads); the same bytes for any thread count; refusals name the node.
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleBytes } from '../../scripts/make-samples.ts';
import { compileLevel } from '../../src/build/compile.ts';
import { edgeClasses, planeAgreement } from '../../src/format/inspect.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import { verifyPhysics } from '../../src/format/verify.ts';
import { addNode, boxMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const SAMPLE = fileURLToPath(new URL('../../samples/shapes.glb', import.meta.url));
const tmp = tempDir('sk8-shapes-');
afterAll(tmp.cleanup);
const quiet = { logger: { warn: () => {} } };
const read = (dir: string, name: string) => readPhysicsResource(new Uint8Array(readFileSync(join(dir, `${name}.physics`))));
const kinds = (dir: string, name: string): number[] => read(dir, name).parts.map((p) => p.kind);

describe('samples/shapes.glb', () => {
  it('regenerates to the committed bytes', async () => {
    expect(Buffer.from(await sampleBytes('shapes.glb')).equals(readFileSync(SAMPLE))).toBe(true);
  });

  it('compiles every mode as kind 5 by default: closed primitives within their analytic bounds, convex hulls, one part per convex part', async () => {
    const out = join(tmp.dir, 'k5');
    const r = await compileLevel(SAMPLE, { out, workers: 1 }, quiet);
    const by = Object.fromEntries(r.manifest.resources.map((x) => [x.name, x]));
    const prims = ['crate_box', 'ball_sphere', 'bollard_capsule', 'post_cylinder', 'cone_cone', 'bollard_explicit', 'drum_explicit', 'cap_explicit'];
    for (const name of [...prims, 'rock_hull', 'rock_convex_hull', 'stack_convex_parts', 'stack_aggregate', 'ground', 'ramp_mesh']) {
      expect(kinds(out, name).every((k) => k === 5), name).toBe(true);
    }
    for (const name of [...prims, 'rock_hull', 'rock_convex_hull']) {
      const res = read(out, name);
      expect(res.shapes.length, name).toBe(1);
      const e = edgeClasses(res.shapes[0]);
      expect({ name, open: e.open, concave: e.concave }).toEqual({ name, open: 0, concave: 0 });
    }
    // Analytic bounds (from the sample's parameters) against what was written: inside (f32 slack) and within 5 mm.
    const analytic: Record<string, [number[], number[]]> = {
      ball_sphere: [[-3.6, 0, -6.6], [-2.4, 1.2, -5.4]], // fitted: largest half-extent 0.6 of a 0.6 blob
      bollard_explicit: [[-0.15, 0, -3.15], [0.15, 1, -2.85]], // capsule r 0.15, length 0.7, centre (0, 0.5, 0)
      drum_explicit: [[2.4, 0, -3.6], [3.6, 0.9, -2.4]], // cylinder r 0.3 under scale (2, 1, 2)
      cap_explicit: [[5.6, 0, -3.4], [6.4, 0.6, -2.6]], // cone r 0.4, height 0.6
      post_cylinder: [[2.9, 0, -6.1], [3.1, 2, -5.9]], // fitted to a 0.2 × 2 × 0.2 post
    };
    for (const [name, [lo, hi]] of Object.entries(analytic)) {
      for (let a = 0; a < 3; a++) {
        const got = by[name].bounds;
        expect(got.min[a], `${name} min ${a}`).toBeGreaterThanOrEqual(lo[a] - 1e-6);
        expect(got.min[a] - lo[a], `${name} min ${a}`).toBeLessThanOrEqual(0.005);
        expect(got.max[a], `${name} max ${a}`).toBeLessThanOrEqual(hi[a] + 1e-6);
        expect(hi[a] - got.max[a], `${name} max ${a}`).toBeLessThanOrEqual(0.005);
      }
    }
    expect(by.stack_convex_parts.parts).toBe(3);
    expect(by.stack_aggregate.parts).toBe(3);
    expect(r.manifest.geometries).toBe(r.manifest.resources.reduce((s, x) => s + x.shapes, 0));
    expect(r.manifest.options.shapes).toEqual({ chordError: 0.005, hullParts: false, nativeShapes: false });
    for (const f of readdirSync(out).filter((x) => x.endsWith('.physics'))) expect(verifyPhysics(new Uint8Array(readFileSync(join(out, f))), f)).toEqual([]);
  });

  it('--native-shapes: boxes kind 2, hulls and convex parts kind 3 (the flat plate stays kind 5); every file verifies and round-trips; planes face out', async () => {
    const out = join(tmp.dir, 'native');
    const r = await compileLevel(SAMPLE, { out, workers: 1, shapes: { nativeShapes: true } }, quiet);
    expect(r.manifest.options.shapes.nativeShapes).toBe('experimental');
    expect(kinds(out, 'crate_box')).toEqual([2]);
    expect(kinds(out, 'rock_hull')).toEqual([3]);
    expect(kinds(out, 'stack_convex_parts')).toEqual([5, 3, 3]);
    expect(kinds(out, 'ball_sphere')).toEqual([5]);
    for (const f of readdirSync(out).filter((x) => x.endsWith('.physics'))) {
      const bytes = new Uint8Array(readFileSync(join(out, f)));
      expect(verifyPhysics(bytes, f), f).toEqual([]);
      const res = readPhysicsResource(bytes);
      expect(Buffer.from(writePhysicsResource({ ...res, layout: undefined })).equals(Buffer.from(bytes)), f).toBe(true);
      res.parts.forEach((p) => {
        if (p.kind === 5) return;
        const s = res.shapes[p.shape];
        const agree = planeAgreement(s);
        const faces = s.faceOffsets.length - 1;
        expect(agree, f).toMatchObject({ along: faces, offsetMinus: faces });
      });
    }
    // The rotated crate's manifest bounds hold its rotated corners: a 30° yaw of a unit cube.
    const crate = r.manifest.resources.find((x) => x.name === 'crate_box')!;
    const e = 0.5 * (Math.cos(Math.PI / 6) + Math.sin(Math.PI / 6));
    expect(crate.bounds.max[0] - -6).toBeCloseTo(e, 5);
  });

  it('same bytes for 1 and 3 threads, and twice; natives in cells too', async () => {
    const a = join(tmp.dir, 'a'), b = join(tmp.dir, 'b'), c = join(tmp.dir, 'cells');
    await compileLevel(SAMPLE, { out: a, workers: 1, shapes: { nativeShapes: true } }, quiet);
    await compileLevel(SAMPLE, { out: b, workers: 3, shapes: { nativeShapes: true } }, quiet);
    const files = readdirSync(a).filter((x) => x.endsWith('.physics')).sort();
    expect(readdirSync(b).filter((x) => x.endsWith('.physics')).sort()).toEqual(files);
    for (const f of files) expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
    const r = await compileLevel(SAMPLE, { out: c, workers: 3, tiling: 'cells', cellSize: 50, shapes: { nativeShapes: true } }, quiet);
    const all = r.manifest.resources.flatMap((x) => read(c, x.name).parts.map((p) => p.kind));
    expect(all.filter((k) => k === 2).length).toBe(1);
    expect(all.filter((k) => k === 3).length).toBe(6); // 2 hulls + 2 × 2 closed parts
    for (const x of r.manifest.resources) expect(verifyPhysics(new Uint8Array(readFileSync(join(c, x.file))), x.file)).toEqual([]);
  });
});

describe('shape modes refuse by name', () => {
  const cube = boxMesh([0, 0.5, 0], [0.5, 0.5, 0.5]);

  it('a primitive under a shearing hierarchy names the node', async () => {
    const doc = newLevel();
    const parent = doc.createNode('parent').setScale([1, 3, 1]);
    doc.getRoot().listScenes()[0].addChild(parent);
    addNode(doc, { name: 'leaning_box', ...cube, nodeExtras: { sk8_collision_mode: 'box' }, rotation: [0, 0, Math.sin(Math.PI / 12), Math.cos(Math.PI / 12)], parent });
    const file = await writeLevel(doc, join(tmp.dir, 'shear.glb'));
    await expect(compileLevel(file, { out: join(tmp.dir, 'shear') }, quiet)).rejects.toThrow(/shapes: object "leaning_box" \(node 1 "leaning_box"\): the transform shears the shape/);
  });

  it('a convex part that breaks the contract is an error, or with hullParts its hull and a warning', async () => {
    const doc = newLevel();
    // An L-shaped block: closed, but with a reflex crease.
    const l = { positions: [0, 0, 0, 2, 0, 0, 2, 0, 1, 1, 0, 1, 1, 0, 2, 0, 0, 2, 0, 1, 0, 2, 1, 0, 2, 1, 1, 1, 1, 1, 1, 1, 2, 0, 1, 2], indices: [] as number[] };
    const ring = [0, 1, 2, 3, 4, 5];
    // bottom (faces −y) and top (+y) fans from vertex 0 / 6 of the L (the L is star-shaped from its corner 3? no: fan
    // from vertex 0 covers it since every vertex is visible from 0), walls as quads.
    for (let k = 1; k + 1 < 6; k++) l.indices.push(0, ring[k], ring[k + 1]);
    for (let k = 1; k + 1 < 6; k++) l.indices.push(6, 6 + ring[k + 1], 6 + ring[k]);
    for (let k = 0; k < 6; k++) {
      const a = ring[k], b = ring[(k + 1) % 6];
      l.indices.push(a, 6 + a, b, b, 6 + a, 6 + b);
    }
    addNode(doc, { name: 'ell', ...l, nodeExtras: { sk8_collision_mode: 'convex_parts' } });
    const file = await writeLevel(doc, join(tmp.dir, 'ell.glb'));
    await expect(compileLevel(file, { out: join(tmp.dir, 'ell') }, quiet)).rejects.toThrow(/convex_parts: object "ell" \(node 0 "ell"\): part 0 \(from triangle 0\): .*(reflex|inward|fold)/);
    const warnings: string[] = [];
    const r = await compileLevel(file, { out: join(tmp.dir, 'ell-hull'), shapes: { hullParts: true } }, { logger: { warn: (m) => warnings.push(m) } });
    expect(warnings.some((w) => /convex_parts: object "ell".*compiled as its hull \(--hull-parts\)/.test(w))).toBe(true);
    expect(r.manifest.resources[0].parts).toBe(1);
  });

  it('a hull of collinear points and an sk8_shape that contradicts the mode', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'wire', positions: [0, 0, 0, 1, 0, 0, 2, 0, 0], indices: [0, 1, 2], nodeExtras: { sk8_collision_mode: 'convex_hull' } });
    const file = await writeLevel(doc, join(tmp.dir, 'wire.glb'));
    await expect(compileLevel(file, { out: join(tmp.dir, 'wire') }, quiet)).rejects.toThrow(/hull: object "wire" \(node 0 "wire"\): all 3 distinct collision vertices lie on one line/);
    const doc2 = newLevel();
    addNode(doc2, { name: 'odd', ...cube, nodeExtras: { sk8_collision_mode: 'hull', sk8_shape: { type: 'sphere', radius: 1 } } });
    const file2 = await writeLevel(doc2, join(tmp.dir, 'odd.glb'));
    await expect(compileLevel(file2, { out: join(tmp.dir, 'odd') }, quiet)).rejects.toThrow(/sk8_shape is a sphere but sk8_collision_mode is "hull"/);
  });
});

describe('--native-shapes limits', () => {
  it('a hull too big for one kind-3 shape stays kind 5 with a warning', async () => {
    const doc = newLevel();
    // 30,000 points on a sphere: ~60,000 hull faces, 180,000 corners: past the u16 corner count.
    const pts: number[] = [];
    const idx: number[] = [];
    for (let i = 0; i < 30000; i++) {
      const y = 1 - (2 * (i + 0.5)) / 30000, r = Math.sqrt(1 - y * y), a = i * 2.399963229728653;
      pts.push(r * Math.cos(a), y, r * Math.sin(a));
      if (i + 2 < 30000) idx.push(i, i + 1, i + 2);
    }
    addNode(doc, { name: 'ball', positions: pts, indices: idx, nodeExtras: { sk8_collision_mode: 'hull' } });
    const file = await writeLevel(doc, join(tmp.dir, 'ball.glb'));
    const warnings: string[] = [];
    const out = join(tmp.dir, 'ball');
    await compileLevel(file, { out, workers: 1, shapes: { nativeShapes: true } }, { logger: { warn: (m) => warnings.push(m) } });
    expect(warnings.some((w) => /shapes: object "ball" .*does not fit one kind-3 shape \(u16 counts\); written as a kind-5 mesh instead/.test(w))).toBe(true);
    expect(kinds(out, 'ball').every((k) => k === 5)).toBe(true);
  });
});

describe('sk8_shape on a node without a mesh (a Blender empty)', () => {
  it('becomes its primitive, placed by the node, with the node\'s surface', async () => {
    const doc = newLevel();
    addNode(doc, { name: 'ground', positions: [0, 0, 0, 0, 0, 1, 1, 0, 0], indices: [0, 1, 2] });
    const empty = doc.createNode('bollard_empty').setTranslation([4, 0, 2]).setExtras({ sk8_shape: { type: 'capsule', radius: 0.2, length: 0.6, centre: [0, 0.5, 0] }, sk8_surface: 'metal' });
    doc.getRoot().listScenes()[0].addChild(empty);
    const file = await writeLevel(doc, join(tmp.dir, 'empty.glb'));
    const out = join(tmp.dir, 'empty');
    const r = await compileLevel(file, { out, workers: 1 }, quiet);
    const res = r.manifest.resources.find((x) => x.name === 'bollard_empty')!;
    expect(res.materials).toEqual([352]);
    expect(res.bounds.min[1]).toBeCloseTo(0, 5);
    expect(res.bounds.max[1]).toBeCloseTo(1, 5);
    expect(res.bounds.max[0]).toBeCloseTo(4.2, 5);
    expect(edgeClasses(read(out, 'bollard_empty').shapes[0]).open).toBe(0);
  });
});
