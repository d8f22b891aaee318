// The round-trip contract : compile(to-gltf(output)) == output, byte for byte.
// - Goldens (the reference encoder's files, not compile outputs: part ids 1/2/3 and one object per part): the GLB
//   read by the compiler's importer, its objects encoded into one resource (encodeResource, as the goldens were
//   made) with the part ids and header form the GLB's extras carry, gives the golden's bytes. The ones that cannot
//   (listed in NOT_EXACT with the reason) are said so in to-gltf's notes, and keep their triangles.
// - Compile outputs (each sample in each tiling and seams mode, shapes.glb with --native-shapes too): to-gltf of the
//   output (manifest order, its options recorded), compiled with the recorded options, gives the same files byte for
//   byte and the same manifest totals (but collision-objects in a cell build: the GLB's objects are the cells'
//   parts). Where it cannot (KNOWN below), every differing file has a note saying so and keeps its triangles.
// - shapes.glb with --native-shapes through the CLI as a user runs it (compile, to-gltf, compile --recorded-options,
//   diff), and kind-3 records / convex_parts objects made so that they cannot come back: a note each.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { afterAll, describe, expect, it } from 'vitest';
import { resourcesToGltf, type ToGltfInput } from '../../src/export/gltf.ts';
import { readRecordedBuild, recordedBuild, recordedCompileOptions } from '../../src/export/recorded.ts';
import { compileLevel, type CompileOptions } from '../../src/build/compile.ts';
import { readdirSync } from 'node:fs';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import { diffResources } from '../../src/format/diff.ts';
import { verifyPhysics } from '../../src/format/verify.ts';
import { encodeResource } from '../../src/geometry/resource.ts';
import { importGltf, IMPORT_DEFAULTS } from '../../src/import/gltf.ts';
import { GOLDEN_CASES, objectMesh } from '../golden/cases.ts';

const dir = mkdtempSync(join(tmpdir(), 'roundtrip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { warn: () => {} };

/** Goldens no glTF can give back exactly, and the note that must say so. */
const NOT_EXACT: Record<string, RegExp> = {
  // One object split at the u16 limits, as a lone file: its parts become two objects (see the next test for it as a
  // compile output's resource, one object, which comes back exactly).
  'split-faces-30000': /part 1: face \d+ does not start at its smallest vertex/,
};

async function toGlb(name: string, bytes: Uint8Array) {
  const { glb, notes } = await resourcesToGltf([{ file: `${name}.physics`, bytes, name, cell: null }]);
  const path = join(dir, `${name}.glb`);
  writeFileSync(path, glb);
  return { path, notes: notes[0].notes };
}

describe('round trip: goldens', () => {
  for (const c of GOLDEN_CASES) {
    it(`${c.name}: GLB → importer → encoder gives the golden's bytes${NOT_EXACT[c.name] ? ' (not exact: said in a note)' : ''}`, async () => {
      const bytes = new Uint8Array(readFileSync(`test/golden/${c.name}.physics`));
      const { path, notes } = await toGlb(c.name, bytes);
      const doc = await new NodeIO().read(path);
      const group = doc.getRoot().listScenes()[0].listChildren()[0];
      const phys = (group.getExtras() as any).sk8_physics;
      const parts = group.listChildren().map((n) => (n.getExtras() as any).sk8_part);
      const imported = await importGltf(path, IMPORT_DEFAULTS, quiet);
      expect(imported.objects.length).toBe(parts.length);
      const objects = imported.objects.map((o, i) => ({
        name: o.name, positions: o.positions, indices: o.groups[0].indices, material: o.groups[0].material, ids: parts[i].ids,
      }));
      const header = { word08: Number(phys.word08), body: Uint8Array.from(Buffer.from(phys.body, 'hex')) };
      const again = writePhysicsResource(encodeResource(objects, { header }).resource);
      const diff = diffResources(bytes, again);
      if (NOT_EXACT[c.name]) {
        expect(diff.length).toBeGreaterThan(0);
        expect(notes.join('\n')).toMatch(NOT_EXACT[c.name]);
      } else {
        expect(diff.join('\n')).toBe('');
        expect(notes.join('\n')).not.toMatch(/re-encodes|no input order|not in the encoder's tree order|does not start/);
      }
    });
  }
});

describe('round trip: an object split at the u16 limits', () => {
  it('the split-faces-30000 mesh as the compiler splits it (spatial), as a compile output\'s resource: its pieces come back interleaved into one mesh that the encoder splits into the same bytes', async () => {
    const c = GOLDEN_CASES.find((x) => x.name === 'split-faces-30000')!;
    const mesh = objectMesh(c.objects[0]);
    const made = encodeResource([{ name: 'split', positions: mesh.positions, indices: mesh.indices, material: c.objects[0].material }]).resource;
    expect(made.parts.length).toBe(2);
    const bytes = writePhysicsResource(made);
    const { glb, notes } = await resourcesToGltf([{ file: 'split.physics', bytes, name: 'split', cell: null, sourceObjects: ['split'] }]);
    expect(notes[0].notes.join('\n')).toBe('');
    const path = join(dir, 'split.glb');
    writeFileSync(path, glb);
    const imported = await importGltf(path, IMPORT_DEFAULTS, quiet);
    expect(imported.objects.length).toBe(1);
    const o = imported.objects[0];
    const again = encodeResource(o.groups.map((g) => ({ name: o.name, positions: o.positions, indices: g.indices, material: g.material })));
    expect(diffResources(bytes, writePhysicsResource(again.resource)).join('\n')).toBe('');
  });
});

/** Samples × layouts whose outputs do not all round-trip, and the note each differing file must carry. */
const KNOWN: Record<string, RegExp> = {};

/** Most files a known exception may differ in (measured; more is a regression). */
const MOST_DIFFERING: Record<string, number> = {};

const CONFIGS: [string, 'objects' | 'cells', 'level' | 'shape', boolean][] = [];
for (const tiling of ['objects', 'cells'] as const) for (const seams of ['level', 'shape'] as const) {
  CONFIGS.push(['skatepark', tiling, seams, false], ['shapes', tiling, seams, false], ['shapes', tiling, seams, true]);
  // city-blocks' object layout is 4,401 resources (30 s a round trip here): its cells only.
  if (tiling === 'cells') CONFIGS.push(['city-blocks', tiling, seams, false]);
}

describe('round trip: compile outputs', () => {
  for (const [sample, tiling, seams, native] of CONFIGS) {
    const tag = `${sample} ${tiling} ${seams}${native ? ' native' : ''}`;
    it(`${tag}: to-gltf, compiled with the recorded options, gives the same files${KNOWN[tag] ? ' (known exceptions noted)' : ''}`, async () => {
      const a = join(dir, `${tag.replace(/ /g, '-')}-a`), b = join(dir, `${tag.replace(/ /g, '-')}-b`);
      const opts: Partial<CompileOptions> = { out: a, tiling, seams, workers: 1, cache: false, report: false, shapes: { nativeShapes: native } };
      const first = await compileLevel(`samples/${sample}.glb`, opts, { logger: quiet });
      const m = first.manifest;
      const inputs: ToGltfInput[] = m.resources.map((r) => ({
        file: r.file, bytes: new Uint8Array(readFileSync(join(a, r.file))), name: r.name, cell: r.cell, sourceObjects: r.sourceObjects, grind: true,
      }));
      const head = readPhysicsResource(inputs[0].bytes);
      const rec = recordedBuild(m, { word08: head.word08, body: head.body });
      const { glb, notes } = await resourcesToGltf(inputs, {}, rec);
      const path = join(dir, `${tag.replace(/ /g, '-')}.glb`);
      writeFileSync(path, glb);
      const again = await compileLevel(path, { out: b, workers: 1, cache: false, report: false, ...recordedCompileOptions(readRecordedBuild(path)!, path) }, { logger: quiet });
      const files = (d: string) => readdirSync(d).filter((f) => f.endsWith('.physics')).sort();
      const differing: string[] = [];
      for (const f of files(a)) {
        const other = join(b, f);
        const d = files(b).includes(f) ? diffResources(new Uint8Array(readFileSync(join(a, f))), new Uint8Array(readFileSync(other))) : ['missing'];
        if (d.length) differing.push(f);
      }
      const noteOf = new Map(notes.map((x) => [x.file, x.notes.join('\n')]));
      if (!KNOWN[tag]) {
        expect(differing).toEqual([]);
        expect(files(b)).toEqual(files(a));
        const { 'collision-objects': _a, ...ta } = m.totals;
        const { 'collision-objects': _b, ...tb } = again.manifest.totals;
        expect(tb).toEqual(ta);
        if (tiling === 'objects') expect(again.manifest.totals['collision-objects']).toBe(m.totals['collision-objects']);
        expect(again.manifest.options).toEqual({ ...m.options, tiling });
        expect(again.manifest.layout).toBe(m.layout);
      } else {
        expect(differing.length).toBeGreaterThan(0);
        if (MOST_DIFFERING[tag] !== undefined) expect(differing.length).toBeLessThanOrEqual(MOST_DIFFERING[tag]);
        for (const f of differing) expect(noteOf.get(f) ?? '', f).toMatch(KNOWN[tag]);
      }
      // Every triangle survives either way.
      expect(again.manifest.totals['collision-triangles']).toBe(m.totals['collision-triangles']);
      // A grind prism of an object build comes back as its curve (a line mesh with sk8_grind_curve), which the
      // recompile builds into the same prism: the same objects are grind curves again.
      const grinds = (o: { name: string; mode: string }[]) => o.filter((x) => x.mode === 'grind_curve').map((x) => x.name).sort();
      if (tiling === 'objects') {
        const doc = await new NodeIO().read(path);
        const curves = doc.getRoot().listNodes().filter((x) => (x.getExtras() as any)?.sk8_grind_curve);
        expect(curves.length).toBe(grinds(first.objects).length);
        expect(curves.every((x) => x.getMesh()!.listPrimitives().every((q) => q.getMode() === 1))).toBe(true);
        expect(grinds(again.objects)).toEqual(grinds(first.objects));
        if (sample === 'skatepark') expect(grinds(first.objects)).toEqual(['grind_handrail', 'grind_ledge_grind']);
      }
    }, 60_000);
  }
});

describe('round trip: a resource the compiler did not write (samples/kinds.physics: Studio form, kinds 5, 3, 2, a part with no shape)', () => {
  it('keeps parts, kinds (with --native-shapes), materials and unknown words; verify holds on every recompiled file', async () => {
    const bytes = new Uint8Array(readFileSync('samples/kinds.physics'));
    const res = readPhysicsResource(bytes);
    const { glb, notes } = await resourcesToGltf([{ file: 'kinds.physics', bytes, name: 'kinds', cell: null }]);
    const path = join(dir, 'kinds.glb');
    writeFileSync(path, glb);
    // Unknown words in extras: the header form on the group, every part's words on its node (the shapeless part too).
    const doc = await new NodeIO().read(path);
    const group = doc.getRoot().listScenes()[0].listChildren()[0];
    const phys = (group.getExtras() as any).sk8_physics;
    expect(phys.word08).toBe('0x00000001');
    expect(phys.body).toBe(Buffer.from(res.body).toString('hex'));
    const parts = group.listChildren().map((n) => (n.getExtras() as any).sk8_part).sort((a, b) => a.index - b.index);
    expect(parts.map((p) => p.ids)).toEqual(res.parts.map((p) => p.ids));
    expect(parts.map((p) => p.kind)).toEqual(res.parts.map((p) => p.kind));
    expect(notes[0].notes.join('\n')).toMatch(/part 1: kind 3 is written as its stored record[\s\S]*part 2: kind 2 is written as its stored record/);
    // Not the compiler's records (its kind-3 planes and kind-2 vertices are the harness's): said per part.
    expect(notes[0].notes.join('\n')).toMatch(/part 1: its kind-3 record does not give the stored planeOffsets back/);
    expect(notes[0].notes.join('\n')).toMatch(/part 2: its kind-2 record does not give the stored vertices back/);
    // Recompiled with --native-shapes and the Studio header it carries: kinds and material words come back.
    const out = join(dir, 'kinds-out');
    const header = { word08: Number(phys.word08), body: Uint8Array.from(Buffer.from(phys.body, 'hex')) };
    const r = await compileLevel(path, { out, tiling: 'objects', workers: 1, cache: false, report: false, shapes: { nativeShapes: true }, encode: { header } }, { logger: quiet });
    const back = r.manifest.resources.map((m) => readPhysicsResource(new Uint8Array(readFileSync(join(out, m.file)))));
    const got = back.flatMap((x) => x.parts.map((p) => [p.kind, p.material]));
    for (const p of res.parts.filter((q) => q.shape !== 0xffffffff)) expect(got).toContainEqual([p.kind, p.material]);
    for (const m of r.manifest.resources) {
      const file = join(out, m.file);
      const findings = verifyPhysics(new Uint8Array(readFileSync(file)), file);
      expect(findings, m.file).toEqual([]);
    }
    // Its kind-5 faces are not in the encoder's tree order (the harness wrote them so): said, and the same
    // vertices and face count come back, in Studio's form.
    expect(notes[0].notes.join('\n')).toMatch(/part 0: faces are not in the encoder's tree order/);
    const mesh = back.find((x) => x.parts[0].kind === 5)!;
    const points = (v: Float32Array, at: number[]) => Array.from({ length: v.length / 3 }, (_, i) => [0, 1, 2].map((j) => Math.fround(v[3 * i + j] + at[j]))).map(String).sort();
    expect(points(mesh.shapes[0].vertices, mesh.parts[0].position)).toEqual(points(res.shapes[0].vertices, res.parts[0].position));
    expect(mesh.shapes[0].faceOffsets.length).toBe(res.shapes[0].faceOffsets.length);
    expect(mesh.word08).toBe(1);
  }, 60_000);
});

describe('round trip through the CLI: samples/shapes.glb with --native-shapes (kind-2 boxes, kind-3 hulls, convex_parts objects)', () => {
  const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/compile-collision.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });
  for (const tiling of ['objects', 'cells'] as const) for (const seams of ['level', 'shape'] as const) {
    it(`${tiling}, --seams ${seams}: compile, to-gltf (no notes), compile --recorded-options, diff: every file identical`, () => {
      const a = join(dir, `cli-${tiling}-${seams}-a`), b = join(dir, `cli-${tiling}-${seams}-b`), glb = join(dir, `cli-${tiling}-${seams}.glb`);
      const quietBuild = ['-q', '--no-cache', '--no-report', '--workers', '1'];
      const first = cli('samples/shapes.glb', '-o', a, '--native-shapes', '--tiling', tiling, '--seams', seams, ...quietBuild);
      expect(first.status, first.stderr).toBe(0);
      const kinds = readdirSync(a).filter((f) => f.endsWith('.physics')).flatMap((f) => readPhysicsResource(new Uint8Array(readFileSync(join(a, f)))).parts.map((p) => p.kind));
      expect(new Set(kinds)).toEqual(new Set([2, 3, 5]));
      const t = cli('to-gltf', a, '-o', glb);
      expect(t.status, t.stderr).toBe(0);
      expect(t.stderr).not.toMatch(/note:/);
      const c = cli(glb, '-o', b, '--recorded-options', ...quietBuild);
      expect(c.status, c.stderr).toBe(0);
      const d = cli('diff', a, b);
      const files = readdirSync(a).filter((f) => f.endsWith('.physics')).length;
      // Only the input differs (the GLB, not the level): listed, and diff exits 0, every resource identical.
      expect(d.stdout).toBe(`input file: "shapes.glb" → "cli-${tiling}-${seams}.glb"\ninput: built from different bytes (sha256 differs)\n0 added, 0 removed, 0 changed, ${files} identical resources\nthe resources are identical: only the manifests differ\n`);
      expect(d.status).toBe(0);
    }, 60_000);
  }
});

describe('round trip: native records and convex_parts objects that cannot come back (a note each)', () => {
  const output = async (tag: string) => {
    const out = join(dir, `native-notes-${tag}`);
    const r = await compileLevel('samples/shapes.glb', { out, tiling: 'objects', workers: 1, cache: false, report: false, shapes: { nativeShapes: true } }, { logger: quiet });
    const m = r.manifest.resources.find((x) => x.name === 'stack_convex_parts')!;
    const rec = m && recordedBuild(r.manifest);
    return { bytes: new Uint8Array(readFileSync(join(out, m.file))), m, rec, hull: new Uint8Array(readFileSync(join(out, 'rock_hull.physics'))) };
  };

  it('two convex parts made to share a face weld into one part as convex_parts finds them: said', async () => {
    const { bytes, m, rec } = await output('weld');
    const res = readPhysicsResource(bytes);
    // Part 1 is a 1 × 0.6 × 1 block at (1, 0.3, 3): part 2 made the same block at x 2 meets it along the face x = 1.5.
    expect(res.parts.map((p) => p.kind)).toEqual([5, 3, 3]);
    res.parts[2].shape = res.parts[1].shape;
    res.parts[2].position = [2, res.parts[1].position[1], res.parts[1].position[2]];
    const moved = writePhysicsResource(res);
    const { notes } = await resourcesToGltf([{ file: m.file, bytes: moved, name: m.name, cell: null, sourceObjects: m.sourceObjects }], {}, rec);
    expect(notes[0].notes.join('\n')).toMatch(/as one convex_parts object its mesh splits into 2 parts, not the 3 stored/);
    const { notes: asStored } = await resourcesToGltf([{ file: m.file, bytes, name: m.name, cell: null, sourceObjects: m.sourceObjects }], {}, rec);
    expect(asStored[0].notes).toEqual([]);
  });

  it('a turned kind-3 part (the compiler writes them unrotated): its record does not give the rotation back, said', async () => {
    const { hull, rec } = await output('turned');
    const res = readPhysicsResource(hull);
    res.parts[0].rotation = [0, Math.fround(Math.SQRT1_2), 0, Math.fround(Math.SQRT1_2)];
    const { notes } = await resourcesToGltf([{ file: 'rock_hull.physics', bytes: writePhysicsResource(res), name: 'rock_hull', cell: null, sourceObjects: ['rock_hull'] }], {}, rec);
    expect(notes[0].notes.join('\n')).toMatch(/part 0: its kind-3 record does not give the stored rotation back/);
  });
});
