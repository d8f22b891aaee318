// The validation pass kept for the next process (src/import/validate-store.ts): written and read back it is the
// same pass (reports with their key order, −0 and infinite densities, open edges, values, boxes, counts, names);
// any damaged, truncated or altered file is refused, never half read; and builds through it (worker 0, fresh
// each build, as a new process's) give a clean build's output after seeded edits, while a file another user could
// have written is not read at all.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { compileLevel, type CompileResult } from '../../src/build/compile.ts';
import { importGltf } from '../../src/import/gltf.ts';
import { classifyCracks, validateMesh } from '../../src/import/validate.ts';
import { contentDigest, decodePass, encodePass, StoredValidation } from '../../src/import/validate-store.ts';
import { ValidationMemo } from '../../src/import/validate-memo.ts';
import { codeFingerprint, validationPath } from '../../src/build/unchanged.ts';
import { addNode, boxMesh, gridMesh, io, newLevel, tempDir } from '../fixtures/levels.ts';
import { editLevel, expectSameOutput, seeded, type Edit } from '../fixtures/edits.ts';
import type { Document } from '@gltf-transform/core';

const tmp = tempDir('sk8-vstore-');
afterAll(tmp.cleanup);
const quiet = { warn: () => {} };

/** Tiles meeting 0.5 mm apart (cracks along each other), boxes, a ramp shared by nodes, a flat sliver part. */
function crackLevel(): Document {
  const doc = newLevel();
  for (let k = 0; k < 6; k++) addNode(doc, { name: `tile_${k}`, ...gridMesh(4, 4, 1, [4 * k + 0.0005 * k, 0, 0]) });
  const mesh = addNode(doc, { name: 'ramp_a', ...boxMesh([2, 1, 8], [1, 1, 1]), material: 'concrete', more: [{ ...boxMesh([2, 3, 8], [1, 1, 1]), material: 'metal' }] }).getMesh()!;
  for (let k = 0; k < 3; k++) doc.getRoot().listScenes()[0].addChild(doc.createNode(`ramp_copy_${k}`).setMesh(mesh).setTranslation([6 * k, 0, 14]));
  // A part with no extent along any axis but one (a line of zero-area triangles): an infinite density; and −0.
  addNode(doc, { name: 'sliver', positions: [-0, 5, 30, 1, 5, 30, 2, 5, 30, -0, 5, 31, 1, 5, 31], indices: [0, 1, 2, 0, 3, 4, 3, 1, 4], more: [{ positions: [-0, 6, 30, -0, 6, 30, -0, 6, 30], indices: [0, 1, 2], material: 'metal' }] });
  return doc;
}

async function objectsOf(path: string) {
  const r = await importGltf(path, { decoders: { draco: false, meshopt: false } } as never, quiet, {});
  return r.objects.filter((o) => o.kind === 'mesh' && !o.shape).map((o) => ({ positions: o.positions, groups: o.groups.map((g) => g.indices), name: o.name }));
}

/** The crack level's objects validated and cracked in a memo keyed by content digest, and its pass as bytes. */
async function storedPass(code = 'code-1') {
  const dir = join(tmp.dir, `unit-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir, { recursive: true });
  const level = join(dir, 'level.glb');
  await io().write(level, crackLevel());
  const items = await objectsOf(level);
  const keys = new Map<string, number>(), digests = new Map<number, string>();
  const keyOf = (d: string): number => {
    let k = keys.get(d);
    if (k === undefined) keys.set(d, (k = keys.size + 1)), digests.set(k, d);
    return k;
  };
  const memo = new ValidationMemo();
  const order = items.map((it) => keyOf(contentDigest(it.positions, it.groups)));
  items.forEach((it, i) => memo.validate({ key: order[i], positions: it.positions, groups: it.groups }));
  memo.cracksWhole(order, items.map((it) => it.name));
  const encode = (): Uint8Array => encodePass(memo.pass(), (k) => digests.get(k), code)!;
  return { bytes: encode(), memo, items, keyOf, encode };
}

describe('a stored pass', () => {
  it('reads back as the pass it was: reports (key order, −0, ∞), open edges, values, boxes, counts, names', async () => {
    const { bytes, memo, items } = await storedPass();
    const keys = new Map<string, number>();
    const back = decodePass(bytes, 'code-1', (d) => keys.get(d) ?? (keys.set(d, keys.size + 100), keys.size + 99));
    const pass = memo.pass();
    expect(back.order.length).toBe(pass.order.length);
    const reports = items.map((it) => validateMesh(it.positions, it.groups));
    expect(reports.some((r) => r.maxHalfEdgesPerMetre === Infinity)).toBe(true);
    expect(reports.some((r) => Object.values(r.locations).some((l) => l?.some((loc) => loc.points.some((p) => Object.is(p[0], -0)))))).toBe(true);
    pass.order.forEach((key, i) => {
      const a = pass.kept.get(key)!, b = back.kept.get(back.order[i])!;
      expect(Object.keys(b.report)).toEqual(Object.keys(a.report));
      expect(b.report).toEqual(a.report);
      expect(b.hits).toEqual(a.hits);
      expect(b.box).toEqual(a.box);
      expect(b.counts).toEqual(a.counts);
      expect(b.name).toBe(a.name);
      // toEqual compares numbers with Object.is: a −0 read back as 0 fails.
    });
    // Through the worker's side: a first build's pass, then the same objects from it: the same bytes (determinism),
    // every report taken and no edge classified again.
    const first = new StoredValidation(undefined, 'code-1');
    first.validate(items);
    first.cracks();
    const written = first.encode()!;
    expect(first.encode()).toBeUndefined(); // handed out once
    const again = new StoredValidation(written, 'code-1');
    again.validate(items);
    again.cracks();
    expect(Buffer.from(again.encode()!).equals(Buffer.from(written))).toBe(true);
    expect(again.stats.incremental).toBe(true);
    expect(again.stats.classified).toBe(0);
    expect(again.stats.edges).toBeGreaterThan(0);
  });

  it('another code fingerprint, every truncated prefix and seeded byte flips are refused', async () => {
    const { bytes } = await storedPass();
    const keyOf = (() => {
      let n = 0;
      return () => ++n;
    })();
    expect(() => decodePass(bytes, 'code-2', keyOf)).toThrow(/other code/);
    for (let len = 0; len < bytes.length; len += Math.max(1, Math.floor(bytes.length / 997))) expect(() => decodePass(bytes.subarray(0, len), 'code-1', keyOf)).toThrow(/^validate: /);
    const rnd = seeded(42);
    for (let i = 0; i < 300; i++) {
      const b = Uint8Array.from(bytes);
      b[Math.floor(rnd() * b.length)] ^= 1 << Math.floor(rnd() * 8);
      expect(() => decodePass(b, 'code-1', keyOf)).toThrow(/^validate: /);
    }
  });

  it('altered and then re-signed (the digest made to match): refused or read whole, never a crash', async () => {
    const { bytes, items } = await storedPass();
    const rnd = seeded(7);
    let refused = 0;
    for (let i = 0; i < 400; i++) {
      const b = Buffer.from(bytes);
      for (let k = 0; k < 1 + Math.floor(rnd() * 4); k++) b[40 + Math.floor(rnd() * (b.length - 40))] = Math.floor(rnd() * 256);
      createHash('sha256').update(b.subarray(40)).digest().copy(b, 8);
      let n = 0;
      try {
        decodePass(b, 'code-1', () => ++n);
      } catch (e) {
        expect((e as Error).message).toMatch(/^validate: |JSON|Unexpected|position/);
        refused++;
      }
      // The worker's side takes whatever reads and validates this build's objects against it without throwing.
      const s = new StoredValidation(b, 'code-1');
      s.validate(items);
      expect(() => s.cracks()).not.toThrow();
    }
    expect(refused).toBeGreaterThan(0);
  });
});

describe('contentDigest', () => {
  it('is the same with the index lists\' digests taken from the caller\'s map by id, and differs for any other content', async () => {
    const { items } = await storedPass();
    const known = new Map<number, Buffer>();
    const ids = items.map((it) => it.groups.map((_, g) => (it.name.startsWith('ramp_') ? 1000 + g : Math.random())));
    items.forEach((it, i) => expect(contentDigest(it.positions, it.groups, ids[i], known)).toBe(contentDigest(it.positions, it.groups)));
    expect(known.size).toBeGreaterThan(0);
    const [a] = items;
    const moved = Float32Array.from(a.positions);
    moved[4] += 1e-3;
    expect(contentDigest(moved, a.groups)).not.toBe(contentDigest(a.positions, a.groups));
    expect(contentDigest(a.positions, [a.groups[0].slice(3)])).not.toBe(contentDigest(a.positions, a.groups));
    expect(contentDigest(a.positions, [...a.groups, new Uint32Array(0)])).not.toBe(contentDigest(a.positions, a.groups));
  });
});

describe('past MAX_STORED_MESHES', () => {
  it('the objects so far go on to the plain crack pass with the same counts', async () => {
    const { items } = await storedPass();
    const store = new StoredValidation(undefined, 'code-1');
    store.validate(items.slice(0, 5));
    const plain = store.plain();
    for (const it of items.slice(5)) plain.push({ item: { ...it }, report: validateMesh(it.positions, it.groups) });
    const counts = classifyCracks(plain.map(({ item, report }) => ({ ...item, report })));
    const whole = new StoredValidation(undefined, 'code-1');
    whole.validate(items);
    expect(counts).toEqual(whole.cracks());
    expect(counts.some((c) => c.crackEdges > 0)).toBe(true);
  });
});

// Worker 0 validates through the pass (workers 2); without a worker the main thread validates plainly.
describe('builds through the stored pass', () => {
  const build = (level: string, out: string, cache = true): Promise<CompileResult> => compileLevel(level, { out, workers: 2, ...(cache ? {} : { cache: false }) }, { logger: quiet });

  it('after seeded edits each build equals a clean one (validation report and warnings included), and writes its pass', { timeout: 240_000 }, async () => {
    const dir = join(tmp.dir, 'edits');
    mkdirSync(dir, { recursive: true });
    const level = join(dir, 'level.glb');
    const doc = crackLevel();
    await io().write(level, doc);
    const out = join(dir, 'out');
    await build(level, out);
    const pass = validationPath(join(out, '.cache'), out);
    expect(readFileSync(pass).length).toBeGreaterThan(0);
    const rnd = seeded(2026);
    const edits: Edit[] = ['move', 'vertex', 'material', 'none', 'delete', 'add', 'move', 'move', 'vertex'];
    const done: string[] = [];
    for (const [k, kind] of edits.entries()) {
      done.push(editLevel(doc, kind, rnd));
      await io().write(level, doc);
      const before = readFileSync(pass);
      const r = await build(level, out);
      const clean = await build(level, join(dir, `clean-${k}`), false);
      const what = done.join(', ');
      expect(r.manifest.validation, what).toEqual(clean.manifest.validation);
      expect(r.manifest.warnings, what).toEqual(clean.manifest.warnings);
      expectSameOutput(out, join(dir, `clean-${k}`), what);
      if (!r.unchanged) expect(readFileSync(pass).equals(before), what).toBe(kind === 'none');
    }
  });

  it('a pass file not ours is not read; ours is (a forged report shows only then)', { timeout: 120_000 }, async () => {
    const dir = join(tmp.dir, 'forged');
    mkdirSync(dir, { recursive: true });
    const level = join(dir, 'level.glb');
    await io().write(level, crackLevel());
    const out = join(dir, 'out');
    const first = await build(level, out);
    const clean = first.manifest.warnings;
    // A pass claiming 99 degenerate triangles for tile_0, signed and of this code: what someone could plant.
    const forge = await storedPass(codeFingerprint());
    expect(forge.items[0].name).toBe('tile_0');
    forge.memo.pass().kept.get(forge.keyOf(contentDigest(forge.items[0].positions, forge.items[0].groups)))!.report.degenerate = 99;
    const forged0 = forge.encode();
    const path = validationPath(join(out, '.cache'), out);
    // The build record blanked, so the next build does not just prove nothing changed (and repeat what it said).
    const noShortcut = (): void => {
      for (const f of readdirSync(join(out, '.cache'))) if (/^build-[0-9a-f]+\.json$/.test(f)) writeFileSync(join(out, '.cache', f), '{}');
    };
    const plant = (mode: number): void => {
      writeFileSync(path, forged0);
      chmodSync(path, mode);
      noShortcut();
    };
    const forged = (r: CompileResult): boolean => r.manifest.warnings.some((w) => /tile_0.*99 degenerate/.test(w));
    if (typeof process.getuid === 'function') {
      plant(0o666);
      expect((await build(level, out)).manifest.warnings).toEqual(clean);
      plant(0o620);
      expect((await build(level, out)).manifest.warnings).toEqual(clean);
      plant(0o644);
      expect(forged(await build(level, out))).toBe(true); // ours: taken on its word (its digest and code checked)
    }
    // Damaged: refused, everything validated again.
    writeFileSync(path, readFileSync(path).subarray(0, 100));
    noShortcut();
    expect((await build(level, out)).manifest.warnings).toEqual(clean);
  });
});
