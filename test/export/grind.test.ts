// Grind prisms of a compile output back to their curves (src/export/grind.ts): authored curves under
// node transforms whose sums are not f32 values (a parent moved by decimal metres, turned), open and closed, split at
// a sharp corner; each either comes back as a line mesh with sk8_grind_curve that the recompile builds into the same
// prism, or stays triangles with a note. Either way the recompiled files are the same bytes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { afterAll, describe, expect, it } from 'vitest';
import { compileLevel } from '../../src/build/compile.ts';
import { resourcesToGltf } from '../../src/export/gltf.ts';
import { recoverGrindCurve } from '../../src/export/grind.ts';
import { readRecordedBuild, recordedBuild, recordedCompileOptions } from '../../src/export/recorded.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import { chainRuns, grindPrisms, prismIndices } from '../../src/import/grind.ts';
import { addNode, boxMesh, gridMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const tmp = tempDir('sk8-grind-rt-');
afterAll(() => tmp.cleanup());
const quiet = { warn: () => {} };
const LINE_STRIP = 3, LINE_LOOP = 2;

/** A level of grind curves as authors make them: decimal transforms, parents, a loop, a corner, a turned parent. */
function level() {
  const doc = newLevel();
  addNode(doc, { name: 'ground', ...gridMesh(4, 4, 5, [-10, 0, -10]) });
  // A stair rail 0.9 m above the nosings, under a parent moved by decimal metres (the points are f64 sums).
  const stairs = addNode(doc, { name: 'stairs', ...boxMesh([0, 0.4, 0], [1.5, 0.4, 1.5]), translation: [-4.3, 0.15, -12.7] });
  const rail: number[] = [];
  for (let s = 0; s <= 5; s++) rail.push(-s * 0.3, 0.9 + s * 0.17, 1.2);
  rail.push(-3.5, 1.75, 1.2);
  addNode(doc, { name: 'rail', positions: rail, mode: LINE_STRIP, parent: stairs, nodeExtras: { sk8_grind_curve: { enabled: true, radius: 0.025 } } });
  // A closed ring rail (12 points, 30° turns: no sharp corner), radius 0.04, moved by decimals.
  const ring: number[] = [];
  for (let k = 0; k < 12; k++) ring.push(1.5 * Math.cos((k * Math.PI) / 6), 0.45, 1.5 * Math.sin((k * Math.PI) / 6));
  addNode(doc, { name: 'ring', positions: ring, mode: LINE_LOOP, translation: [20.25, 0.5, 3.1], nodeExtras: { sk8_grind_curve: { radius: 0.04, surface: 'metal_rail' } } });
  // An L-shaped ledge edge: split at its 90° corner into two prisms (grind_ledge_0, grind_ledge_1).
  addNode(doc, { name: 'ledge', positions: [0, 0.6, 0, 3, 0.6, 0, 3, 0.6, 2.5], mode: LINE_STRIP, translation: [-15.5, 0, 7.25], nodeExtras: { sk8_grind_curve: true } });
  // Under a turned parent (30° about y): the points are sums of products.
  const kicker = addNode(doc, { name: 'kicker', ...boxMesh([0, 0.25, 0], [1, 0.25, 2]), translation: [8.4, 0, -6.6], rotation: [0, Math.sin(Math.PI / 12), 0, Math.cos(Math.PI / 12)] });
  addNode(doc, { name: 'coping', positions: [1, 0.5, -2, 1, 0.5, 2], mode: LINE_STRIP, parent: kicker, nodeExtras: { sk8_grind_curve: true } });
  // An author's mesh named like a prism: not a prism, left alone.
  addNode(doc, { name: 'grind_box', ...boxMesh([5, 0.5, 5], [0.5, 0.5, 0.5]) });
  return doc;
}

describe('to-gltf: grind prisms back to curves', () => {
  for (const seams of ['level', 'shape'] as const) {
    it(`--seams ${seams}: the curves come back as line meshes the recompile builds into the same bytes`, async () => {
      const src = await writeLevel(level(), join(tmp.dir, `grinds-${seams}.glb`));
      const a = join(tmp.dir, `a-${seams}`), b = join(tmp.dir, `b-${seams}`);
      const first = await compileLevel(src, { out: a, tiling: 'objects', seams, workers: 1, cache: false, report: false }, { logger: quiet });
      const grinds = (o: { name: string; mode: string }[]) => o.filter((x) => x.mode === 'grind_curve').map((x) => x.name).sort();
      expect(grinds(first.objects)).toEqual(['grind_coping', 'grind_ledge_0', 'grind_ledge_1', 'grind_rail', 'grind_ring']);
      const m = first.manifest;
      const inputs = m.resources.map((r) => ({ file: r.file, bytes: new Uint8Array(readFileSync(join(a, r.file))), name: r.name, cell: r.cell, sourceObjects: r.sourceObjects, grind: true }));
      const head = readPhysicsResource(inputs[0].bytes);
      const { glb, notes } = await resourcesToGltf(inputs, {}, recordedBuild(m, { word08: head.word08, body: head.body }));
      const path = join(tmp.dir, `rt-${seams}.glb`);
      writeFileSync(path, glb);
      const doc = await new NodeIO().read(path);
      const curves = doc.getRoot().listNodes().filter((x) => (x.getExtras() as any)?.sk8_grind_curve);
      const prisms = doc.getRoot().listNodes().filter((x) => (x.getExtras() as any)?.sk8_grind_prism);
      const noted = notes.filter((x) => /grind prism: its curve does not come back/.test(x.notes.join('\n'))).map((x) => x.file);
      // Every prism is a curve again or said not to be; these all come back (the rail and ring by the f32 offsets
      // about a whole-metre translation, the coping under its turned parent too).
      expect(curves.length + noted.length).toBe(5);
      expect(noted).toEqual([]);
      expect(prisms.map((x) => x.getName())).toEqual([]);
      const radius = Object.fromEntries(curves.map((x) => [x.getName(), (x.getExtras() as any).sk8_grind_curve.radius]));
      expect(radius).toEqual({ rail: 0.025, ring: 0.04, ledge_0: 0.03, ledge_1: 0.03, coping: 0.03 });
      for (const c of curves) expect(c.getMesh()!.listPrimitives().map((q) => q.getMode())).toEqual([1]);
      // The author's grind_box is a mesh again, with no note.
      expect(notes.find((x) => x.file === 'grind_box.physics')!.notes.join('\n')).not.toMatch(/grind/);
      const again = await compileLevel(path, { out: b, workers: 1, cache: false, report: false, ...recordedCompileOptions(readRecordedBuild(path)!, path) }, { logger: quiet });
      expect(grinds(again.objects)).toEqual(grinds(first.objects));
      const files = (d: string) => readdirSync(d).filter((f) => f.endsWith('.physics')).sort();
      expect(files(b)).toEqual(files(a));
      for (const f of files(a)) expect(Buffer.compare(readFileSync(join(a, f)), readFileSync(join(b, f))), f).toBe(0);
    }, 60_000);
  }

  it('random curves under decimal, parented, turned and f32 transforms: each a curve again or noted, every file the same bytes', async () => {
    let seed = 7;
    const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const dec = (x: number, d: number) => Number(x.toFixed(d));
    const doc = newLevel();
    addNode(doc, { name: 'ground', ...boxMesh([0, -0.5, 0], [50, 0.5, 50]) });
    for (let c = 0; c < 8; c++) {
      const kind = c % 4, n = 2 + Math.floor(rnd() * 8), pts: number[] = [];
      let x = 0, y = 0.5 + rnd(), z = 0;
      for (let i = 0; i < n; i++) {
        pts.push(kind === 3 ? Math.fround(x + rnd() * 1e-3) : dec(x, 2), dec(y, 2), kind === 3 ? Math.fround(z) : dec(z, 2));
        [x, y, z] = [x + 0.3 + rnd(), y + (rnd() - 0.5) * 0.3, z + (rnd() - 0.5) * 0.8];
      }
      const t: [number, number, number] = kind === 3 ? [Math.fround(rnd() * 80 - 40), Math.fround(rnd()), Math.fround(rnd() * 80 - 40)] : [dec(rnd() * 80 - 40, 2), dec(rnd(), 2), dec(rnd() * 80 - 40, 2)];
      const nodeExtras = { sk8_grind_curve: { enabled: true, radius: [0.03, 0.025, 0.05, 0.02][c % 4] } };
      if (kind === 1 || kind === 2) {
        const a = rnd() * Math.PI;
        const parent = addNode(doc, { name: `p${c}`, ...boxMesh([0, 0.2, 0], [0.2, 0.2, 0.2]), translation: t, rotation: kind === 2 ? [0, Math.sin(a / 2), 0, Math.cos(a / 2)] : undefined });
        addNode(doc, { name: `c${c}`, positions: pts, mode: LINE_STRIP, parent, translation: [dec(rnd(), 1), 0, dec(rnd(), 1)], nodeExtras });
      } else addNode(doc, { name: `c${c}`, positions: pts, mode: LINE_STRIP, translation: t, nodeExtras });
    }
    const src = await writeLevel(doc, join(tmp.dir, 'random.glb'));
    const a = join(tmp.dir, 'random-a'), b = join(tmp.dir, 'random-b');
    const first = await compileLevel(src, { out: a, tiling: 'objects', workers: 1, cache: false, report: false }, { logger: quiet });
    const m = first.manifest;
    const inputs = m.resources.map((r) => ({ file: r.file, bytes: new Uint8Array(readFileSync(join(a, r.file))), name: r.name, cell: r.cell, sourceObjects: r.sourceObjects, grind: true }));
    const head = readPhysicsResource(inputs[0].bytes);
    const { glb, notes } = await resourcesToGltf(inputs, {}, recordedBuild(m, { word08: head.word08, body: head.body }));
    const path = join(tmp.dir, 'random-rt.glb');
    writeFileSync(path, glb);
    const doc2 = await new NodeIO().read(path);
    const curves = doc2.getRoot().listNodes().filter((x) => (x.getExtras() as any)?.sk8_grind_curve).length;
    const noted = notes.filter((x) => /grind prism: its curve does not come back/.test(x.notes.join('\n'))).length;
    const prisms = first.objects.filter((o) => o.mode === 'grind_curve').length;
    expect(prisms).toBeGreaterThanOrEqual(8);
    expect(curves + noted).toBe(prisms);
    await compileLevel(path, { out: b, workers: 1, cache: false, report: false, ...recordedCompileOptions(readRecordedBuild(path)!, path) }, { logger: quiet });
    const files = (d: string) => readdirSync(d).filter((f) => f.endsWith('.physics')).sort();
    expect(files(b)).toEqual(files(a));
    for (const f of files(a)) expect(Buffer.compare(readFileSync(join(a, f)), readFileSync(join(b, f))), f).toBe(0);
  }, 60_000);

  it('recoverGrindCurve: null for counts that are no prism, a reason where no rebuild encodes back', () => {
    const pts = Float64Array.from([0, 1, 0, 2, 1, 0, 4, 1.5, 0]);
    const [p] = grindPrisms(chainRuns(pts, Uint32Array.from([0, 1, 1, 2])));
    const world = Float32Array.from(p.positions);
    // Stored order is the weld's first use over the faces: permute the ring-order positions so.
    const order: number[] = [];
    for (const v of p.indices) if (!order.includes(v)) order.push(v);
    const stored = new Float32Array(world.length);
    order.forEach((v, s) => stored.set(world.subarray(3 * v, 3 * v + 3), 3 * s));
    const faces = p.indices.length / 3;
    expect(faces).toBe(prismIndices(3, false).length / 3);
    expect(recoverGrindCurve(stored.subarray(0, stored.length - 3), faces, () => 0)).toBeNull();
    expect(recoverGrindCurve(stored, faces + 1, () => 0)).toBeNull();
    expect(recoverGrindCurve(stored, faces, () => 5)).toMatch(/encoded to the stored one within \d+ builds and 200 encodes|build no prism that encodes to the stored one/);
    // A check that wants exactly the prism built from these f32 points and radius 0.03: found at once, no offsets.
    const want = (q: Float32Array) => (q.every((x, i) => Object.is(x, world[i])) ? 0 : 1);
    const got = recoverGrindCurve(stored, faces, want);
    expect(got && typeof got === 'object' ? [got.radius, got.translation, Array.from(got.points)] : got).toEqual([0.03, [0, 0, 0], Array.from(pts, Math.fround)]);
  });
});
