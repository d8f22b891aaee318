// The crack pass's WebAssembly loops (assembly/cracks.ts) against its JavaScript ones (src/geometry/cracks.ts
// classifyOpenEdgesJs, the rule as written): the same value for every open edge of seeded random levels built to
// hit every test the rule makes — edges along edges (T-junctions, near misses, reversed twins), points on and just
// off faces, degenerate edges and faces, a mesh's own faces, known values — and for the inputs the WebAssembly
// path hands back (a vertex not finite or far out, a bad index, a far open edge).
import { describe, expect, it } from 'vitest';
import { classifyOpenEdges, classifyOpenEdgesJs, CRACK_BUDGET, CRACK_PATHS, UNCHECKED, UNKNOWN, type CrackMesh, type CrackOptions } from '../../src/geometry/cracks.ts';
import { countCracks } from '../../src/import/validate.ts';
import { prng } from '../fixtures/meshes.ts';

const rng = prng;

/** A mesh's open edges as the validation lists them: each edge used by one triangle, as that triangle runs it. */
function withOpenEdges(positions: Float32Array, groups: Uint32Array[]): CrackMesh {
  const uses = new Map<string, number[]>();
  let t = 0;
  for (const g of groups) {
    for (let c = 0; c < g.length; c += 3, t++) {
      for (let k = 0; k < 3; k++) {
        const a = g[c + k], b = g[c + ((k + 1) % 3)];
        const key = a < b ? `${a},${b}` : `${b},${a}`;
        const list = uses.get(key) ?? [];
        list.push(a, b, t);
        uses.set(key, list);
      }
    }
  }
  const ends: number[] = [], tri: number[] = [];
  for (const list of uses.values()) {
    if (list.length !== 3) continue;
    const [a, b, tt] = list;
    ends.push(positions[3 * a], positions[3 * a + 1], positions[3 * a + 2], positions[3 * b], positions[3 * b + 1], positions[3 * b + 2]);
    tri.push(tt);
  }
  return { positions, groups, open: new Float32Array(ends), openTriangle: new Uint32Array(tri) };
}

/** A random level of a few meshes on a coarse lattice (so edges meet, cross and lie along each other), some jittered by about the tolerance. */
function level(seed: number, tol: number): CrackMesh[] {
  const r = rng(seed);
  const meshes: CrackMesh[] = [];
  const count = 1 + Math.floor(r() * 10);
  const snap = (x: number): number => Math.round(x * 4) / 4;
  const jitter = (): number => (r() < 0.3 ? (r() - 0.5) * 4 * tol : 0);
  for (let m = 0; m < count; m++) {
    const kind = r();
    const pos: number[] = [];
    const groups: number[][] = [[]];
    if (kind < 0.4) {
      // A grid patch, maybe tilted, with holes (open edges inside) and a random material split.
      const w = 1 + Math.floor(r() * 5), h = 1 + Math.floor(r() * 5), ox = snap(r() * 6 - 3), oz = snap(r() * 6 - 3), y0 = snap(r() * 2), tilt = r() < 0.5 ? 0 : snap(r()) / 4;
      const step = r() < 0.5 ? 1 : 0.5;
      for (let j = 0; j <= h; j++) for (let i = 0; i <= w; i++) pos.push(ox + i * step + jitter(), y0 + tilt * i + jitter(), oz + j * step + jitter());
      if (r() < 0.3) groups.push([]);
      for (let j = 0; j < h; j++) {
        for (let i = 0; i < w; i++) {
          if (r() < 0.15) continue;
          const a = j * (w + 1) + i, g = groups[Math.floor(r() * groups.length)];
          if (r() < 0.5) g.push(a, a + w + 1, a + 1, a + 1, a + w + 1, a + w + 2);
          else g.push(a, a + w + 2, a + 1, a, a + w + 1, a + w + 2);
        }
      }
    } else if (kind < 0.7) {
      // Loose triangles on the lattice: T-junctions, overlaps, degenerate ones, repeats.
      const n = 1 + Math.floor(r() * 12);
      for (let t = 0; t < n; t++) {
        const b = pos.length / 3;
        const x = snap(r() * 6 - 3), y = snap(r() * 2), z = snap(r() * 6 - 3);
        pos.push(x + jitter(), y, z + jitter());
        pos.push(x + snap(r() * 2 - 1), y + (r() < 0.7 ? 0 : snap(r() - 0.5)), z + snap(r() * 2 - 1) + jitter());
        pos.push(x + snap(r() * 2 - 1) + jitter(), y + jitter(), z + snap(r() * 2 - 1));
        groups[0].push(b, b + 1, b + 2);
        if (r() < 0.1) groups[0].push(b, b + 1, b + 2);
        if (r() < 0.1) groups[0].push(b, b, b + 1);
      }
    } else if (meshes.length > 0) {
      // A twin of an earlier mesh's open edges: each reversed (joined across meshes), or moved by about the tolerance.
      const src = meshes[Math.floor(r() * meshes.length)];
      const e = src.open;
      for (let i = 0; i < e.length / 6 && i < 20; i++) {
        const b = pos.length / 3, d = r() < 0.5 ? 0 : (r() - 0.5) * 3 * tol;
        pos.push(e[6 * i + 3] + d, e[6 * i + 4], e[6 * i + 5], e[6 * i], e[6 * i + 1] + d, e[6 * i + 2]);
        pos.push((e[6 * i] + e[6 * i + 3]) / 2, e[6 * i + 1] + (r() < 0.5 ? 0 : 0.5), (e[6 * i + 2] + e[6 * i + 5]) / 2 + 0.5);
        groups[0].push(b, b + 1, b + 2);
      }
    }
    if (pos.length === 0) pos.push(0, 0, 0, 1, 0, 0, 0, 0, 1), groups[0].push(0, 1, 2);
    meshes.push(withOpenEdges(new Float32Array(pos), groups.map((g) => new Uint32Array(g))));
  }
  return meshes;
}

const same = (a: Int32Array[], b: Int32Array[]): boolean => a.length === b.length && a.every((x, i) => x.length === b[i].length && x.every((v, k) => v === b[i][k]));

describe('crack pass: WebAssembly against JavaScript', () => {
  it('gives every open edge the same value on 600 seeded levels, with and without known values', () => {
    const before = { ...CRACK_PATHS };
    let flagged = 0, border = 0, along = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const opts: Partial<CrackOptions> = { tolerance: [0.001, 0.05, 0.3][seed % 3], maxAngle: seed % 4 === 0 ? 45 : 10, joinExactAcrossMeshes: seed % 5 !== 0 };
      const meshes = level(seed, opts.tolerance!);
      const js = classifyOpenEdgesJs(meshes, opts).with;
      const wasm = classifyOpenEdges(meshes, opts).with;
      if (!same(js, wasm)) throw new Error(`seed ${seed}: ${JSON.stringify(js.map((x) => [...x]))} ≠ ${JSON.stringify(wasm.map((x) => [...x]))}`);
      js.forEach((w, mi) => w.forEach((v) => (v < 0 ? border++ : (flagged++, v !== mi && along++))));
      // Known values: a random part of the edges kept, the rest classified again.
      const r = rng(seed * 7919);
      const known = js.map((w) => Int32Array.from(w, (v) => (r() < 0.5 ? UNKNOWN : r() < 0.2 ? (v < 0 ? 0 : -1) : v)));
      const kjs = classifyOpenEdgesJs(meshes, opts, known).with, kwasm = classifyOpenEdges(meshes, opts, known).with;
      if (!same(kjs, kwasm)) throw new Error(`seed ${seed} (known): results differ`);
    }
    // The levels reach every outcome, and the WebAssembly path ran (not its JavaScript fallback).
    expect(flagged).toBeGreaterThan(500);
    expect(border).toBeGreaterThan(500);
    expect(along).toBeGreaterThan(50);
    expect(CRACK_PATHS.wasm - before.wasm).toBeGreaterThan(1000);
    expect(CRACK_PATHS.js - before.js).toBe(0);
    expect(CRACK_PATHS.jsMeshes - before.jsMeshes).toBe(0);
  });

  it('hands a mesh with a vertex not finite or far out, or a bad index, to JavaScript, and a far open edge the whole pass: same values', () => {
    const cases: [string, (m: CrackMesh[]) => void, 'mesh' | 'pass'][] = [
      ['NaN vertex', (m) => (m[0].positions = Float32Array.of(...m[0].positions, NaN, 0, 0)), 'mesh'],
      ['far vertex', (m) => (m[0].positions = Float32Array.of(...m[0].positions, 3e38, 0, 0)), 'mesh'],
      ['infinite vertex', (m) => (m[0].positions = Float32Array.of(...m[0].positions, 0, 0, -Infinity)), 'mesh'],
      ['bad index', (m) => (m[0].groups = [Uint32Array.of(...m[0].groups[0], 0, 1, 1_000_000)]), 'mesh'],
      ['far open edge', (m) => (m[0].open = Float32Array.of(...m[0].open, 1e30, 0, 0, 1e30, 0, 1)) && (m[0].openTriangle = Uint32Array.of(...m[0].openTriangle, 0)), 'pass'],
      ['NaN open edge', (m) => (m[0].open = Float32Array.of(...m[0].open, NaN, 0, 0, 1, 0, 1)) && (m[0].openTriangle = Uint32Array.of(...m[0].openTriangle, 0)), 'pass'],
    ];
    for (const [what, spoil, path] of cases) {
      for (let seed = 1; seed <= 40; seed++) {
        const meshes = level(seed, 0.05);
        if (meshes[0].groups[0].length === 0) continue;
        spoil(meshes);
        const before = { ...CRACK_PATHS };
        const wasm = classifyOpenEdges(meshes, { tolerance: 0.05 }).with;
        const js = classifyOpenEdgesJs(meshes, { tolerance: 0.05 }).with;
        if (!same(js, wasm)) throw new Error(`${what}, seed ${seed}: results differ`);
        if (path === 'mesh') expect(CRACK_PATHS.jsMeshes - before.jsMeshes, what).toBe(1);
        else expect(CRACK_PATHS.js - before.js, what).toBe(1);
      }
    }
  });
});

describe('crack pass: work budget', () => {
  it('past its budget classifies nothing: every edge to classify is UNCHECKED (neither border nor crack), and counted so', () => {
    const meshes = level(3, 0.001).filter((m) => m.open.length);
    const full = classifyOpenEdges(meshes);
    expect(full.unchecked).toBeUndefined();
    const saved = { ...CRACK_BUDGET };
    try {
      Object.assign(CRACK_BUDGET, { base: 0, perItem: 0 });
      const r = classifyOpenEdges(meshes);
      expect(r.unchecked!.work).toBeGreaterThan(0);
      expect(r.unchecked!.budget).toBe(0);
      for (const w of r.with) expect([...w].every((v) => v === UNCHECKED)).toBe(true);
      // Known values are kept as they are: only the UNKNOWN ones go unchecked.
      const known = full.with.map((w) => Int32Array.from(w, (v, i) => (i % 2 ? UNKNOWN : v)));
      const k = classifyOpenEdges(meshes, {}, known);
      k.with.forEach((w, mi) => w.forEach((v, i) => expect(v).toBe(i % 2 ? UNCHECKED : full.with[mi][i])));
      const m = meshes[0];
      const counts = countCracks({ ends: m.open, triangle: m.openTriangle }, r.with[0], 0, meshes.map((_, i) => `m${i}`));
      expect(counts).toMatchObject({ crackEdges: 0, borderEdges: 0, uncheckedEdges: m.open.length / 6 });
    } finally {
      Object.assign(CRACK_BUDGET, saved);
    }
  });

  it('its estimate is linear: 1,000 large overlapping faces over 3,000 open edges are refused before any point is tested', () => {
    // Each face's X/Z box covers a third of the box of points: ~1,000 × 3,000 tests a loop, past 200 a face or point.
    const r = prng(11);
    const n = 1000;
    const positions = new Float32Array(Array.from({ length: 9 * n }, () => r() * 300));
    const groups = [Uint32Array.from({ length: 3 * n }, (_, i) => i)];
    const mesh = withOpenEdges(positions, groups);
    const saved = { ...CRACK_BUDGET };
    try {
      Object.assign(CRACK_BUDGET, { base: 0 });
      const t0 = performance.now();
      const res = classifyOpenEdges([mesh]);
      expect(res.unchecked).toBeDefined();
      expect(res.unchecked!.budget).toBe(200 * (n + 9 * n));
      expect(performance.now() - t0).toBeLessThan(500);
    } finally {
      Object.assign(CRACK_BUDGET, saved);
    }
  });
});
