// Box polygons (src/import/ybn/shapes.ts fitBox): every written corner lies within the stored corners' own
// precision (boxTolerance: quantum steps, f32 rounding) of the stored corner, on seeded quantized boxes with thin
// sides, long thin boxes, near-cubes; four corners that are no box are warned about; the real samples (when
// ../shared is there) have no box moved by more than 1 cm.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { parseYbn } from '../../../src/import/ybn/index.ts';
import { boxTolerance, isComposite, isGeometry, POLY, type Bound, type Vec3 } from '../../../src/import/ybn/model.ts';
import { boundObjects } from '../../../src/import/ybn/objects.ts';
import { fitBox } from '../../../src/import/ybn/shapes.ts';
import { SharedArena } from '../../../src/import/shared-arena.ts';
import { quatToMat3 } from '../../../src/shapes/index.ts';
import { prng } from '../../fixtures/meshes.ts';
import { readBoundTree } from '../../../src/import/ybn/bounds.ts';
import { ResourceReader } from '../../../src/import/ybn/rsc7.ts';
import { writeYbn, type FxBound } from '../../fixtures/ybn.ts';
import { sharedPath } from '../../fixtures/shared.ts';

const SAMPLES = sharedPath('data/ybn-samples/', 'ybn box fit: the real samples');

/** The written box's corner nearest to each stored corner: the largest of those four distances. */
function writtenMisfit(corners: Vec3[], box: ReturnType<typeof fitBox>['box']): number {
  if (!box || box.family !== 'box') return Infinity;
  const m = quatToMat3(box.rotation);
  let worst = 0;
  for (const q of corners) {
    let best = Infinity;
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
      const c = [0, 1, 2].map((k) => box.centre[k] + sx * box.halfExtents[0] * m[k] + sy * box.halfExtents[1] * m[3 + k] + sz * box.halfExtents[2] * m[6 + k]);
      best = Math.min(best, Math.hypot(c[0] - q[0], c[1] - q[1], c[2] - q[2]));
    }
    worst = Math.max(worst, best);
  }
  return worst;
}

/** A random rotation (normalized random quaternion) as three axis images. */
function randomFrame(rnd: () => number): [Vec3, Vec3, Vec3] {
  const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
  const n = Math.hypot(...q);
  const m = quatToMat3(q.map((x) => x / n) as [number, number, number, number]);
  return [[m[0], m[1], m[2]], [m[3], m[4], m[5]], [m[6], m[7], m[8]]];
}

/**
 * A box with full edges `size` along a random frame, its four stored corners (p1 = 000, p2 = 011, p3 = 110,
 * p4 = 101, CodeWalker's order, the edges permuted so the thin side may come first) quantized as a geometry
 * stores them: int16 steps of `quantum` about `centre`, rounded to f32, plus the f32 centre.
 */
function storedCorners(rnd: () => number, size: Vec3, quantum: Vec3, centre: Vec3): Vec3[] {
  const [a, b, c] = randomFrame(rnd);
  const perm = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]][Math.floor(rnd() * 4)];
  const edges = perm.map((k) => [a, b, c][k].map((x) => x * size[k]) as Vec3);
  const origin: Vec3 = [(rnd() - 0.5) * 40, (rnd() - 0.5) * 40, (rnd() - 0.5) * 10];
  const at = (s: number[]): Vec3 => [0, 1, 2].map((k) => origin[k] + s[0] * edges[0][k] + s[1] * edges[1][k] + s[2] * edges[2][k]) as Vec3;
  return [at([0, 0, 0]), at([0, 1, 1]), at([1, 1, 0]), at([1, 0, 1])].map(
    (p) => [0, 1, 2].map((k) => Math.fround(Math.round(p[k] / quantum[k]) * Math.fround(quantum[k])) + Math.fround(centre[k])) as Vec3,
  );
}

describe('box polygons: the nearest box to the four stored corners', () => {
  const families: [string, (r: () => number) => Vec3][] = [
    ['a thin side (kerb: 2 cm)', (r) => [1 + r() * 60, 0.5 + r() * 3, 0.015 + r() * 0.02]],
    ['long thin boxes (rails)', (r) => [20 + r() * 40, 0.02 + r() * 0.1, 0.02 + r() * 0.1]],
    ['near-cubes', (r) => [1 + r() * 0.01, 1 + r() * 0.01, 1 + r() * 0.01]],
    ['anything', (r) => [0.05 + r() * 30, 0.05 + r() * 30, 0.05 + r() * 30]],
  ];
  for (const [name, size] of families) {
    it(`${name}: 3,000 seeded quantized boxes, every written corner within the corners' precision`, () => {
      const rnd = prng(name.length * 7919);
      let worstSteps = 0;
      for (let i = 0; i < 3000; i++) {
        const quantum: Vec3 = [0.0005 + rnd() * 0.007, 0.0005 + rnd() * 0.004, 0.0001 + rnd() * 0.002];
        const centre: Vec3 = [(rnd() - 0.5) * 4000, (rnd() - 0.5) * 4000, rnd() * 100];
        const corners = storedCorners(rnd, size(rnd), quantum, centre);
        const fit = fitBox(corners[0], corners[1], corners[2], corners[3]);
        const tol = boxTolerance(quantum, Math.max(...corners.flat().map(Math.abs)));
        const moved = writtenMisfit(corners, fit.box);
        expect(moved, `box ${i}`).toBeLessThanOrEqual(tol);
        expect(fit.misfit, `box ${i}: misfit is what moved`).toBeCloseTo(moved, 9);
        worstSteps = Math.max(worstSteps, moved / Math.hypot(...quantum));
      }
      expect(worstSteps).toBeLessThan(1.5); // the margin BOX_FIT_QUANTA documents
    });
  }

  it('the real 56.4 × 2.33 × 0.021 m box shape, thin side first: no corner moves by metres', () => {
    // e1 = the 2.1 cm side, quantized at 6 mm / 3.7 mm / 1.6 mm (po1_05_4's child 0 quantum)
    const rnd = prng(56);
    const quantum: Vec3 = [0.006327, 0.00368, 0.001619];
    let worst = 0;
    for (let i = 0; i < 500; i++) {
      const [a, b, c] = randomFrame(rnd);
      const edges = [c.map((x) => x * 0.021), a.map((x) => x * 56.4), b.map((x) => x * 2.33)];
      const at = (s: number[]): Vec3 => [0, 1, 2].map((k) => Math.round((s[0] * edges[0][k] + s[1] * edges[1][k] + s[2] * edges[2][k]) / quantum[k]) * quantum[k]) as Vec3;
      const corners = [at([0, 0, 0]), at([0, 1, 1]), at([1, 1, 0]), at([1, 0, 1])];
      worst = Math.max(worst, writtenMisfit(corners, fitBox(corners[0], corners[1], corners[2], corners[3]).box));
    }
    expect(worst).toBeLessThan(boxTolerance(quantum, 60));
  });

  it('four corners that are no box: a warning naming the bound, the polygon, the misfit and the bound in metres', () => {
    // corner 4 pulled 5 cm off: a sheared parallelepiped
    const g: FxBound = {
      kind: 'geometry', quantum: [0.001, 0.001, 0.001], centre: [0, 0, 0],
      verts: [0, 0, 0, 0, 2000, 1000, 4000, 2000, 0, 4000, 50, 1000, 0, 0, 0],
      polys: [{ kind: 'box', v: [0, 1, 2, 3] }], materials: [1], boxMin: [0, 0, 0], boxMax: [4, 2, 1],
    };
    const warnings: string[] = [];
    const { file, ...layout } = writeYbn(g);
    void file;
    const root = readBoundTree(new ResourceReader(layout, 'ybn: t.ybn'), (m) => warnings.push(m));
    const { objects } = boundObjects(root, { stem: 't', stage: 'ybn: t.ybn', tessellation: {}, logger: { warn: (m) => void warnings.push(m) }, arena: new SharedArena() });
    expect(objects.length).toBe(1);
    expect(warnings.join('\n')).toMatch(/ybn: t\.ybn: bound root \(geometry\): 1 box polygon\(s\) whose four corners are not a box within their precision, written as the nearest box: polygon 0 misfit 0\.0\d+ m \(bound 0\.003\d m\)/);
  });

  it.skipIf(!SAMPLES)('the four real samples: no box polygon written more than 1 cm from its stored corners, no misfit warning', () => {
    const counts: Record<string, [number, number]> = {};
    for (const f of ['po1_05_4', 'hei_ch3_08_17', 'vb_20_0', 'm24_2_garment_factory_1']) {
      const warnings: string[] = [];
      const root = parseYbn(readFileSync(join(SAMPLES!, `${f}.ybn`)), `${f}.ybn`, (m) => warnings.push(m));
      let boxes = 0, moved = 0;
      const walk = (b: Bound): void => {
        if (isComposite(b)) return b.children.forEach((c) => c.bound && walk(c.bound));
        if (!isGeometry(b)) return;
        for (let p = 0; p < b.polyMaterials.length; p++) {
          if (b.polys[5 * p] !== POLY.box) continue;
          boxes++;
          const c = [1, 2, 3, 4].map((k) => [0, 1, 2].map((j) => b.vertices[3 * b.polys[5 * p + k] + j] + b.centre[j]) as Vec3);
          if (writtenMisfit(c, fitBox(c[0], c[1], c[2], c[3]).box) > 0.01) moved++;
        }
      };
      walk(root);
      counts[f] = [boxes, moved];
      boundObjects(root, { stem: f, stage: f, tessellation: {}, logger: { warn: (m) => void warnings.push(m) }, arena: new SharedArena() });
      expect(warnings.filter((w) => /not a box/.test(w)), f).toEqual([]);
    }
    // before this reading: 238, 61, 103 and 1 boxes moved by more than 1 cm (worst 3.60 m)
    expect(counts).toEqual({ po1_05_4: [1197, 0], hei_ch3_08_17: [821, 0], vb_20_0: [1001, 0], m24_2_garment_factory_1: [13, 0] });
  });
});
