// verify's fast all-clear pass in WebAssembly (src/geometry/verify-wasm.ts, assembly/verify-clean.ts) may only clear
// a shape that verify's JavaScript pass (shapeClean) clears, and verify's findings must be the same with it and
// without it. Asked of every shape of compiled outputs, the sample, the reference encoder's files, the goldens and
// the hand-laid resources, and of thousands of seeded mutations of them: bit-level edits of vertices, edge values,
// bits, face offsets, corner vertices, the vertex → corner index (an unused vertex's list too), the tree, the
// bounds and plane offsets (NaN with payloads, infinities, −0, subnormals, a unit in the last place either way),
// arrays cut short, parts of another kind, and resources read from mutated files; each shape also with its arrays
// on buffers of their own (the pass's other way in). Extra folders of .physics files: VERIFY_WASM_DIRS (paths split
// by the platform's delimiter).
import { readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError } from '../../src/format/cursor.ts';
import { readPhysicsResource } from '../../src/format/resource.ts';
import { checkShapeRecord } from '../../src/format/shape.ts';
import { KIND_MESH, type PhysicsResource, type ShapeRecord } from '../../src/format/types.ts';
import { shapeClean, verifyResource } from '../../src/format/verify.ts';
import { wasmShapeClean } from '../../src/geometry/verify-wasm.ts';
import { prng } from '../fixtures/meshes.ts';
import { lazyTempDir } from '../fixtures/levels.ts';
import { HAND_RESOURCES, layResource } from '../format/fixtures.ts';
import { mutate, mutateRecord } from '../format/mutate.ts';
import { compileMeshes, grid } from '../ride/helpers.ts';

const tmp = lazyTempDir('sk8-verify-wasm-');
afterAll(() => tmp.cleanup());

const physicsIn = (dir: string, max = Infinity): Uint8Array[] =>
  readdirSync(dir).filter((f) => f.endsWith('.physics')).sort()
    .map((f) => new Uint8Array(readFileSync(join(dir, f)))).filter((b) => b.length <= max);
const here = (rel: string): string => fileURLToPath(new URL(rel, import.meta.url));

let corpus: Uint8Array[] | undefined;
/** Compiled outputs (a level by cells, objects apart), the sample, the reference's files, goldens, hand-laid resources. */
async function files(): Promise<Uint8Array[]> {
  if (corpus) return corpus;
  const cells = await compileMeshes(tmp.dir, 'cells', [
    { name: 'a', ...grid(6, 4, 1, -6, 0, 0) }, { name: 'b', ...grid(6, 4, 1, 0, 0, 0) }, { name: 'c', ...grid(3, 3, 1, 0, 0.5, 5) },
    { name: 'ramp', positions: Array.from({ length: 24 }, (_, n) => { const i = n >> 1, s = n & 1; return [i * 0.3, 0.02 * i * i * i, 3 + s]; }).flat(), indices: Array.from({ length: 11 }, (_, i) => [2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2]).flat() },
    { name: 'wall', positions: [0, 0, -3, 1, 0, -3, 1, 1, -3, 0, 1, -3], indices: [0, 1, 2, 0, 2, 3] },
    { name: 'big', ...grid(40, 30, 0.25, 20, 1, 20) },
  ], { tiling: 'cells', seams: 'level' });
  const objects = await compileMeshes(tmp.dir, 'objects', [
    { name: 'lid', positions: [20.3, 1.1, 10.7, 22.3, 1.1, 10.7, 22.3, 1.1, 13.3, 20.3, 1.1, 13.3], indices: [0, 2, 1, 0, 3, 2] },
    { name: 'floor', ...grid(9, 7, 0.5, -3, -1, -8) },
  ], { tiling: 'objects', seams: 'level' });
  const extra = (process.env.VERIFY_WASM_DIRS ?? '').split(delimiter).filter(Boolean).flatMap((d) => physicsIn(d));
  corpus = [
    ...physicsIn(cells), ...physicsIn(objects), new Uint8Array(readFileSync(here('../../samples/kinds.physics'))),
    ...physicsIn(here('../format/reference/'), 50_000), ...physicsIn(here('../golden/'), 50_000),
    ...Object.values(HAND_RESOURCES).map((make) => layResource(make())), ...extra,
  ];
  return corpus;
}

const kindsOf = (res: PhysicsResource): Map<number, number> => {
  const kinds = new Map<number, number>();
  for (const p of res.parts) if (!kinds.has(p.shape)) kinds.set(p.shape, p.kind);
  return kinds;
};

/** The shape with every array on a buffer of its own (the pass copies those one by one). */
const apart = (s: ShapeRecord): ShapeRecord => ({
  ...s, vertices: s.vertices.slice(), vertexCornerOffsets: s.vertexCornerOffsets.slice(), cornerIdsByVertex: s.cornerIdsByVertex.slice(),
  cornerVertices: s.cornerVertices.slice(), edgeValues: s.edgeValues.slice(), concaveBits: s.concaveBits.slice(), flatBits: s.flatBits.slice(),
  faceOffsets: s.faceOffsets.slice(), planeNormals: s.planeNormals.slice(), planeOffsets: s.planeOffsets.slice(), tree: s.tree.slice(),
});

interface Tally { shapes: number; clear: number; notClear: number; asked: number }

/**
 * Every shape of `res`: the wasm pass (asked where verify asks it: after the record and bounds checks) clears it
 * exactly when the JavaScript pass does, its arrays in place and apart; then verify's findings with and without it.
 */
function agree(res: PhysicsResource, what: string, t: Tally): void {
  const kinds = kindsOf(res);
  res.shapes.forEach((s, i) => {
    const kind = kinds.get(i);
    const js = shapeClean(s, kind);
    let asked: boolean | undefined;
    const withWasm = shapeClean(s, kind, (r, k) => (asked = wasmShapeClean(r, k)));
    t.shapes++;
    if (js) t.clear++;
    else t.notClear++;
    if (asked !== undefined) {
      t.asked++;
      if (asked) expect(js, `${what} shape ${i}: cleared by the wasm pass, not by shapeClean`).toBe(true);
      // The pass is shapeClean's loops: the same answer (a "not sure" where shapeClean clears would only cost time).
      expect(asked, `${what} shape ${i}: wasm pass ${asked}, shapeClean ${js}`).toBe(js);
      expect(wasmShapeClean(apart(s), kind), `${what} shape ${i} (arrays apart)`).toBe(asked);
    }
    expect(withWasm, `${what} shape ${i}`).toBe(js);
  });
  const file = 'm.physics';
  expect(verifyResource(res, file, false, { fast: wasmShapeClean }), what).toEqual(verifyResource(res, file));
}

type Rand = () => number;
const int = (rand: Rand, n: number): number => Math.floor(rand() * n);
const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[int(rand, xs.length)];
const F32_BITS = [0x7fc00000, 0xffc00000, 0x7fc00001, 0x7f800001, 0x7f800000, 0xff800000, 0x80000000, 0x00000000, 0x00000001,
  0x80000001, 0x007fffff, 0x3f800000, 0x3f800001, 0x3f7fffff, 0xbf800000, 0x7f7fffff, 0xff7fffff];

/** One bit-level edit of a float array: a special value, a bit flipped, a unit in the last place either way. */
function editBits(a: Float32Array, rand: Rand): void {
  if (a.length === 0) return;
  const u = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const k = int(rand, a.length);
  const r = int(rand, 3);
  if (r === 0) u[k] = pick(rand, F32_BITS);
  else if (r === 1) u[k] ^= 1 << int(rand, 32);
  else u[k] = (u[k] + (rand() < 0.5 ? 1 : -1)) >>> 0;
}

/** A vertex of a random face moved a unit in the last place out (or in) along one axis: the containment's edge. */
function ulpVertex(s: ShapeRecord, rand: Rand): void {
  const faces = s.faceOffsets.length - 1;
  if (faces < 1 || s.vertices.length === 0) return;
  const f = int(rand, faces), c = s.faceOffsets[f] + int(rand, Math.max(1, s.faceOffsets[f + 1] - s.faceOffsets[f]));
  const v = s.cornerVertices[c];
  if (3 * v + 2 >= s.vertices.length) return;
  const u = new Uint32Array(s.vertices.buffer, s.vertices.byteOffset, s.vertices.length);
  const k = 3 * v + int(rand, 3);
  u[k] = (u[k] + int(rand, 5) - 2) >>> 0;
}

/** One to three targeted edits of a read resource's shapes (beside mutateRecord's). */
function mutateBits(res: PhysicsResource, rand: Rand): void {
  if (res.shapes.length === 0) return;
  for (let n = 1 + int(rand, 3); n > 0; n--) {
    const s = pick(rand, res.shapes);
    switch (int(rand, 13)) {
      case 0: case 1: editBits(s.vertices, rand); break;
      case 2: case 3: ulpVertex(s, rand); break;
      case 4: editBits(s.edgeValues, rand); break;
      case 5: {
        // a bit set in both bitsets, or in the padding past the last corner
        const c = rand() < 0.7 ? int(rand, s.cornerVertices.length) : s.cornerVertices.length + int(rand, 8);
        if ((c >> 3) < s.concaveBits.length && (c >> 3) < s.flatBits.length) { s.concaveBits[c >> 3] |= 1 << (c & 7); s.flatBits[c >> 3] |= 1 << (c & 7); }
        break;
      }
      case 6: if (s.tree.length) s.tree[int(rand, s.tree.length)] ^= 1 << int(rand, 32); break;
      case 7: {
        // a bound a unit in the last place (or a special value) either way
        const b = rand() < 0.5 ? s.min : s.max, a = int(rand, 3);
        const u = new Uint32Array(Float32Array.of(b[a]).buffer);
        if (rand() < 0.8) u[0] = (u[0] + (rand() < 0.5 ? 1 : -1)) >>> 0;
        else u[0] = pick(rand, F32_BITS);
        b[a] = new Float32Array(u.buffer)[0];
        break;
      }
      case 8: editBits(s.planeOffsets, rand); break;
      case 9: {
        const a = pick(rand, [s.faceOffsets, s.cornerVertices, s.vertexCornerOffsets, s.cornerIdsByVertex]);
        if (a.length) a[int(rand, a.length)] += rand() < 0.5 ? 1 : -1;
        break;
      }
      case 10: {
        // an array cut short (a whole vertex, or a corner's worth)
        const key = pick(rand, ['vertices', 'cornerVertices', 'faceOffsets', 'edgeValues', 'cornerIdsByVertex', 'vertexCornerOffsets', 'tree', 'planeOffsets'] as const);
        const a = s[key];
        const cut = key === 'vertices' ? 3 : key === 'tree' ? 2 : 1;
        (s as unknown as Record<string, ArrayLike<number>>)[key] = a.subarray(0, Math.max(0, a.length - cut));
        break;
      }
      case 11: {
        // A vertex no corner names (its list empty), added at the end; half the time the offset of its list raised
        // past the last (the lists' offsets then descend there, and only that says so: every id still lies in its
        // vertex's list).
        const n = s.vertices.length / 3, off = s.vertexCornerOffsets;
        if (n < 1 || n >= 65535 || off.length !== n + 1) break;
        const V = new Float32Array(3 * n + 3);
        V.set(s.vertices);
        V.set(s.vertices.subarray(0, 3), 3 * n);
        const O = new Uint16Array(n + 2);
        O.set(off);
        O[n + 1] = off[n];
        if (rand() < 0.5) O[n] = off[n] + 1;
        s.vertices = V;
        s.vertexCornerOffsets = O;
        break;
      }
      default: {
        // a part of another kind (a mesh's arrays checked as another kind's, or the other way round)
        const p = pick(rand, res.parts);
        if (p) p.kind = p.kind === KIND_MESH ? pick(rand, [2, 3, 0]) : KIND_MESH;
      }
    }
  }
}

describe('verify: the fast pass in WebAssembly clears only what the JavaScript pass clears', () => {
  it('on every shape of real and laid-out resources (all clear)', async () => {
    const t: Tally = { shapes: 0, clear: 0, notClear: 0, asked: 0 };
    for (const [i, b] of (await files()).entries()) agree(readPhysicsResource(b, { borrow: true }), `file ${i}`, t);
    expect(t.notClear).toBe(0);
    expect(t.asked).toBe(t.shapes);
    expect(t.shapes).toBeGreaterThan(30);
  });

  it('on 3,000 targeted edits and 2,000 field-level mutations of read resources', async () => {
    const corpus = await files();
    const rand = prng(20261207);
    const t: Tally = { shapes: 0, clear: 0, notClear: 0, asked: 0 };
    for (let i = 0; i < 5000; i++) {
      const res = readPhysicsResource(pick(rand, corpus));
      if (i < 3000) mutateBits(res, rand);
      else mutateRecord(res, rand);
      agree(res, `mutation ${i}`, t);
    }
    // Both answers, many times over, where the pass is asked (the record and bounds checks passed).
    expect(t.clear).toBeGreaterThan(2000);
    expect(t.notClear).toBeGreaterThan(2000);
    expect(t.asked - t.clear).toBeGreaterThan(1000);
  });

  it('on resources read from 3,000 mutated files', async () => {
    const corpus = await files();
    const rand = prng(77);
    const t: Tally = { shapes: 0, clear: 0, notClear: 0, asked: 0 };
    let read = 0;
    for (let i = 0; i < 3000; i++) {
      let res: PhysicsResource;
      try {
        res = readPhysicsResource(mutate(pick(rand, corpus), rand), { borrow: true });
      } catch (e) {
        if (e instanceof FormatError) continue;
        throw e;
      }
      read++;
      agree(res, `file mutation ${i}`, t);
    }
    expect(read).toBeGreaterThan(300);
    expect(t.notClear).toBeGreaterThan(30);
  });

  it('answers not sure, never throws, when the pass fails, and works again after', async () => {
    const res = readPhysicsResource((await files())[0], { borrow: true });
    const s = res.shapes[0], kind = kindsOf(res).get(0);
    expect(wasmShapeClean(s, kind)).toBe(true);
    const failing = { ...s, get min(): never { throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded'); } } as ShapeRecord;
    expect(wasmShapeClean(failing, kind)).toBe(false);
    expect(wasmShapeClean(s, kind)).toBe(true);
  });

  it('is asked only after the record checks: a record that fails them is never handed to it', () => {
    const res = readPhysicsResource(layResource(Object.values(HAND_RESOURCES)[0]()));
    const s = res.shapes[0];
    s.vertices = s.vertices.subarray(0, s.vertices.length - 1);
    expect(() => checkShapeRecord(s, 'shape')).toThrow(FormatError);
    let asked = false;
    expect(shapeClean(s, KIND_MESH, () => (asked = true))).toBe(false);
    expect(asked).toBe(false);
  });
});
