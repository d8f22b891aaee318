// The session's validation memo (src/import/validate-memo.ts): over seeded random edit sequences of a level of
// small open pieces lying near each other (cracks between objects), its reports and crack counts equal a fresh
// validateMesh + classifyCracks every time, classifying only the edges near a change when few meshes changed.
import { describe, expect, it } from 'vitest';
import { classifyOpenEdges, UNKNOWN } from '../../src/geometry/cracks.ts';
import { AREA_LIMITS, ValidationMemo } from '../../src/import/validate-memo.ts';
import { classifyCracks, crackMesh, validateMesh, type CrackCounts } from '../../src/import/validate.ts';
import { gridMesh } from '../fixtures/levels.ts';

interface Piece {
  key: number;
  name: string;
  positions: Float32Array;
  groups: Uint32Array[];
}

let nextKey = 0;
const piece = (name: string, x: number, z: number, y = 0, n = 2): Piece => {
  const g = gridMesh(n, n, 1, [x, y, z]);
  return { key: ++nextKey, name, positions: Float32Array.from(g.positions), groups: [Uint32Array.from(g.indices)] };
};

/** What a build without the memo reports: counts per piece, in order. */
function fresh(pieces: Piece[]): CrackCounts[] {
  return classifyCracks(pieces.map((p) => ({ name: p.name, positions: p.positions, groups: p.groups, report: validateMesh(p.positions, p.groups) })));
}

describe('classifyOpenEdges with known values', () => {
  it('classifying any subset again, the others given, equals the full pass', () => {
    const pieces = Array.from({ length: 12 }, (_, i) => piece(`p${i}`, (i % 4) * 2.0005, Math.floor(i / 4) * 2 + (i % 3) * 0.0004, (i % 2) * 0.0003));
    const meshes = pieces.map((p) => crackMesh(p.positions, p.groups, validateMesh(p.positions, p.groups)));
    const full = classifyOpenEdges(meshes).with;
    expect(full.some((w) => w.some((v) => v >= 0))).toBe(true); // there are cracks to find
    let seed = 99;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    for (let round = 0; round < 20; round++) {
      const known = full.map((w) => Int32Array.from(w, (v) => (rnd() < 0.3 ? UNKNOWN : v)));
      expect(classifyOpenEdges(meshes, {}, known).with).toEqual(full);
    }
  });
});

describe('ValidationMemo', () => {
  it.each([
    ['the grid of changed triangles', AREA_LIMITS],
    ['every triangle kept as a box', { ...AREA_LIMITS, cellsPerTriangle: 0 }],
    ["the changed meshes' boxes", { ...AREA_LIMITS, triangles: 0 }],
  ])('equals a fresh validation and crack pass over random edits, and classifies only near the change (%s)', (_, limits) => {
    let seed = 4242;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    // A 6 × 6 layout of pieces 2.0005 m apart (their facing sides are cracks), some raised a little.
    let level: Piece[] = Array.from({ length: 36 }, (_, i) => piece(`p${i}`, (i % 6) * 2.0005, Math.floor(i / 6) * 2.0005, i % 5 === 0 ? 0.0004 : 0));
    const memo = new ValidationMemo(limits);
    let previous = new Map<number, CrackCounts>();
    let incremental = 0;
    for (let step = 0; step < 40; step++) {
      const kind = step === 0 ? 'none' : ['move', 'add', 'remove', 'rename', 'move', 'swap'][Math.floor(rnd() * 6)];
      const i = Math.floor(rnd() * level.length);
      if (kind === 'move') level[i] = { ...piece(level[i].name, 0, 0), positions: level[i].positions.map((v, k) => (k % 3 === 0 ? v + (rnd() < 0.5 ? 0.0003 : 0.4) : v)) };
      else if (kind === 'add') level.splice(i, 0, piece(`n${step}`, 2.0005 * Math.floor(rnd() * 6), 2.0005 * Math.floor(rnd() * 6) + 1, 0.0002));
      else if (kind === 'remove') level.splice(i, 1);
      else if (kind === 'rename') level[i] = { ...level[i], name: `${level[i].name}_r` }; // same arrays, same key
      else if (kind === 'swap' && i + 1 < level.length) level = [...level.slice(0, i), level[i + 1], level[i], ...level.slice(i + 2)];
      const reports = level.map((p) => memo.validate(p));
      const counts = memo.cracks(level.map((p) => p.key), level.map((p) => p.name));
      const expected = fresh(level);
      const got = counts.map((c, k) => c ?? previous.get(level[k].key)!);
      expect(got, `step ${step} (${kind})`).toEqual(expected);
      for (const [k, r] of reports.entries()) {
        const v = validateMesh(level[k].positions, level[k].groups);
        delete v.open;
        expect(r).toEqual(v);
      }
      if (memo.stats.incremental) {
        incremental++;
        expect(memo.stats.classified).toBeLessThan(memo.stats.edges);
      }
      previous = new Map(level.map((p, k) => [p.key, got[k]]));
    }
    expect(incremental).toBeGreaterThan(20);
  });

  it('refuses a crack pass naming an object it never validated', () => {
    const memo = new ValidationMemo();
    expect(() => memo.cracks([12345], ['ghost'])).toThrow(/no report kept for "ghost"/);
  });
});

describe('ValidationMemo: the changed area is bounded', () => {
  it('600 changed triangles far larger than the rest: every point is tested against a bounded number of boxes', () => {
    // Mesh A: 400 triangles of 1 cm and 300 of ~1 km (the area's cells are ~1 cm, so each big one would be a box).
    const a = (dx: number): Piece => {
      const pos: number[] = [], idx: number[] = [];
      for (let i = 0; i < 700; i++) {
        const s = i < 400 ? 0.01 : 1000, x = (i % 32) + dx, z = Math.floor(i / 32);
        idx.push(pos.length / 3, pos.length / 3 + 1, pos.length / 3 + 2);
        pos.push(x, 0, z, x + s, 0, z, x, 0, z + s);
      }
      return { key: ++nextKey, name: 'a', positions: Float32Array.from(pos), groups: [Uint32Array.from(idx)] };
    };
    // Mesh B, far off: 2,000 separate small triangles.
    const pos: number[] = [], idx: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const x = 20_000 + (i % 50) * 0.5, z = Math.floor(i / 50) * 0.5;
      idx.push(3 * i, 3 * i + 1, 3 * i + 2);
      pos.push(x, 0, z, x + 0.2, 0, z, x, 0, z + 0.2);
    }
    const b: Piece = { key: ++nextKey, name: 'b', positions: Float32Array.from(pos), groups: [Uint32Array.from(idx)] };
    const memo = new ValidationMemo();
    let level = [a(0), b];
    for (const p of level) memo.validate(p);
    memo.cracks(level.map((p) => p.key), level.map((p) => p.name));
    level = [a(0.001), b]; // A moved: its old and new triangles are the change
    for (const p of level) memo.validate(p);
    const counts = memo.cracks(level.map((p) => p.key), level.map((p) => p.name));
    expect(memo.stats.incremental).toBe(true);
    // 600 triangle boxes before (each point tested against each); now past AREA_LIMITS.boxes, the two meshes' boxes.
    expect(memo.stats.areaBoxes).toBeGreaterThan(0);
    expect(memo.stats.areaBoxes).toBeLessThanOrEqual(AREA_LIMITS.boxes);
    expect(counts[1]).toBeNull(); // far from the change: B keeps its counts
    expect(counts).toEqual(fresh(level).map((c, i) => (i === 1 ? null : c)));
  });
});
