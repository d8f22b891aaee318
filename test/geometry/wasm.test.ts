// The WebAssembly tree builder (src/geometry/tree-wasm.ts, source assembly/tree.ts) against the face-order rule
// written out naively here — a full sort at every node, true boxes as unions over each node's faces, each node
// quantised with bvh.ts's encodeNode inside the box its parent decodes to (decodeNode) — on meshes with ties,
// −0.0, flat axes and odd counts, and on raw meshes built around the builder's own shortcuts (its radix key's
// 32 bits, its sort-run fallback, the quantiser's paired fast path); plus the build's freshness (the embedded
// module is compiled from today's source).
// The wasm edge data is held to the rule by edges.test.ts and encode.test.ts, and to the bytes by the goldens.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeNode, encodeNode, subtreeLeaves } from '../../src/geometry/bvh.ts';
import { buildTreeWasm } from '../../src/geometry/tree-wasm.ts';
import { WASM_SOURCE_SHA256 } from '../../src/geometry/wasm.generated.ts';
import { weld } from '../../src/geometry/weld.ts';
import { encodeMeshShapes } from '../../src/geometry/encode.ts';
import { encoderWasm, LARGE_IDLE_MS, releaseEncoderMemory, RETAIN_BYTES, wasmError } from '../../src/geometry/wasm.ts';
import { buildResource } from '../../src/tiling/build.ts';
import * as M from '../fixtures/meshes.ts';

interface Ref { nodes: Uint32Array; leafFaces: Uint32Array; depth: number }

/** Studio's tree by the rule's letter (see bvh.ts's header), O(n log² n): the oracle for the fast builder. */
function referenceTree(v: Float32Array, fv: Uint32Array, n: number, root: number[]): Ref {
  const box: number[][] = [], cen: number[][] = [];
  for (let f = 0; f < n; f++) {
    const b = [0, 0, 0, 0, 0, 0], c = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      const x = v[3 * fv[3 * f] + k], y = v[3 * fv[3 * f + 1] + k], z = v[3 * fv[3 * f + 2] + k];
      b[k] = Math.min(x, y, z); b[k + 3] = Math.max(x, y, z);
      c[k] = (x + y + z) / 3;
    }
    box.push(b); cen.push(c);
  }
  const byKey = (ax: number) => (a: number, b: number): number => cen[a][ax] - cen[b][ax] || box[a][0] - box[b][0] || a - b;
  const byMinX = (a: number, b: number): number => box[a][0] - box[b][0] || a - b;
  const minX = (fs: number[]): number => Math.min(...fs.map((f) => box[f][0]));
  const union = (fs: number[]): Float64Array => {
    const u = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    for (const f of fs) for (let k = 0; k < 3; k++) { u[k] = Math.min(u[k], box[f][k]); u[k + 3] = Math.max(u[k + 3], box[f][k + 3]); }
    return u;
  };
  const nodes = new Uint32Array(2 * (n - 1)), leafFaces = new Uint32Array(n);
  let depth = 0;
  const visit = (i: number, faces: number[], d: number, pbox: Float64Array): void => {
    if (faces.length === 1) { leafFaces[i - (n - 1)] = faces[0]; depth = Math.max(depth, d); return; }
    const ext = [0, 1, 2].map((a) => Math.max(...faces.map((f) => cen[f][a])) - Math.min(...faces.map((f) => cen[f][a])));
    const ax = ext[0] >= ext[1] && ext[0] >= ext[2] ? 0 : ext[1] >= ext[2] ? 1 : 2;
    const sorted = [...faces].sort(byKey(ax));
    const left = subtreeLeaves(2 * i + 1, n);
    let l = sorted.slice(0, left), r = sorted.slice(left);
    if (minX(r) < minX(l)) {
      l = sorted.slice(sorted.length - left); r = sorted.slice(0, sorted.length - left);
      if (minX(r) < minX(l)) { const s = [...faces].sort(byMinX); l = s.slice(0, left); r = s.slice(left); }
    }
    encodeNode(pbox, 0, union(l), 0, union(r), 0, nodes, 2 * i);
    const out = new Float64Array(12);
    decodeNode(pbox, 0, nodes[2 * i], nodes[2 * i + 1], out, 0, 6);
    visit(2 * i + 1, l, d + 1, out.slice(0, 6));
    visit(2 * i + 2, r, d + 1, out.slice(6, 12));
  };
  visit(0, Array.from({ length: n }, (_, f) => f), 0, new Float64Array(root));
  return { nodes, leafFaces, depth };
}

function boundsOf(v: Float32Array): number[] {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < v.length; i++) { b[i % 3] = Math.min(b[i % 3], v[i]); b[3 + (i % 3)] = Math.max(b[3 + (i % 3)], v[i]); }
  return b;
}

const cases: [string, M.Mesh][] = [
  ['box', M.box()], ['flat grid 16×16', M.flatGrid(16, 16)], ['flat grid 7×3', M.flatGrid(7, 3)],
  ['bumpy 1', M.bumpyGrid(1)], ['bumpy 2', M.bumpyGrid(2)], ['bumpy 3', M.bumpyGrid(3)], ['bumpy 5', M.bumpyGrid(5)],
  ['bumpy 1,000', M.bumpyGrid(1000)], ['bumpy 2,048', M.bumpyGrid(2048, 9)],
  ['bumpy 6,000 (past the 8-bit radix)', M.bumpyGrid(6000, 5)], ['soup 700', M.randomSoup(700, 3)],
  ['soup 1,500', M.randomSoup(1500, 8)], ['negative zero', M.negativeZero()], ['stairs', M.stairs()],
  ['quarter pipe', M.quarterPipe()], ['round rail', M.roundRail()], ['channel U', M.channelU()],
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

interface Fixture { name: string; v: Float32Array; fv: Uint32Array }

function grid(w: number, h: number, height: (i: number, j: number) => number): Fixture {
  const v = new Float32Array((w + 1) * (h + 1) * 3);
  for (let j = 0, k = 0; j <= h; j++) for (let i = 0; i <= w; i++, k += 3) v.set([i * 0.5, height(i, j), j * 0.5], k);
  const fv = new Uint32Array(w * h * 6);
  for (let j = 0, k = 0; j < h; j++) {
    for (let i = 0; i < w; i++, k += 6) {
      const a = j * (w + 1) + i;
      fv.set([a, a + w + 1, a + 1, a + 1, a + w + 1, a + w + 2], k);
    }
  }
  return { name: `grid ${w}×${h}`, v, fv };
}

/** Unshared triangles: corner coordinates from `coord` (seeded), one vertex each. */
function soup(name: string, n: number, coord: (r: () => number, t: number, corner: number, axis: number) => number, seed: number): Fixture {
  const r = rng(seed), v = new Float32Array(9 * n), fv = new Uint32Array(3 * n);
  for (let t = 0; t < n; t++) for (let k = 0; k < 3; k++) {
    for (let a = 0; a < 3; a++) v[9 * t + 3 * k + a] = coord(r, t, k, a);
    fv[3 * t + k] = 3 * t + k;
  }
  return { name, v, fv };
}

/** Raw (unwelded) meshes that lean on the order's ties; see the 'tie-heavy' test. */
const tieFixtures: Fixture[] = [
  grid(40, 30, () => 0),
  grid(25, 25, (i, j) => Math.round(Math.sin(i * 0.3) * Math.cos(j * 0.2) * 8) / 4),
  // A wall at x = ±0: every min x ties, the sign of zero must not split them.
  (() => {
    const g = grid(30, 20, (i) => i * 0.25);
    for (let k = 0; k < g.v.length; k += 3) { const x = g.v[k]; g.v[k] = (k / 3) % 2 ? -0 : 0; g.v[k + 2] += x * 0; }
    return { ...g, name: 'wall at ±0' };
  })(),
  // Quarter-metre lattice soup: exact ties in centroid and in min x, faces stacked on each other.
  soup('lattice soup', 1500, (r, _t, _k, a) => Math.floor(r() * (a === 1 ? 3 : 12)) / 4, 7),
  // Slivers near x = 1, 2, 4, 8 (x = 2^c · (1 + k · 2^-23), exact in f32): centroids equal in the top 32 bits of
  // their f64 (the builder's radix key) in runs of ~150, out of centroid order in face order.
  soup('slivers', 1200, (r, t, k, a) => (a === 0 ? 2 ** (t % 4) * (1 + Math.floor(r() * 16) * 2 ** -23) : a === 1 ? 0 : k * 1e-6), 11),
  // 1,500 triangles with one centroid (1, 1, 1) and many shapes: every extent 0, so x splits them all, as one run
  // of equal keys ordered by min x alone.
  soup('one centroid', 1500, (_r, t, k, a) => {
    // Multiples of 2^-20 in [−1, 1): 3 − u − w is exact in f32, and the min x keys differ in their low bits.
    // (the same u, w for a triangle's three corners: a hash of triangle and axis, not the seeded stream)
    const u = ((Math.imul(t * 3 + a, 2654435761) >>> 11) - 2 ** 20) * 2 ** -20;
    const w = ((Math.imul(t * 3 + a, 2246822519) >>> 11) - 2 ** 20) * 2 ** -20;
    return k === 0 ? u : k === 1 ? w : 3 - u - w;
  }, 17),
  // The same near x = 1 alone: runs past 1,024 (the radix-sorted ones).
  soup('one sliver run', 2500, (r, _t, k, a) => (a === 0 ? 1 + Math.floor(r() * 16) * 2 ** -23 : a === 1 ? 0 : k * 1e-6), 13),
  // Flat triangles at y = −0.0, 0.0, 1, 2 (x, z spread less): the y order must take −0.0 and 0.0 as one centroid.
  soup('±0 floors', 900, (r, t, _k, a) => (a === 1 ? (t % 3 === 0 ? (t % 2 ? -0 : 0) : (t % 3)) : Math.floor(r() * 3) / 4), 5),
  soup('random soup', 2000, (r, _t, _k, a) => (r() - 0.5) * (a === 1 ? 4 : 60), 3),
];
for (let n = 1; n <= 40; n++) tieFixtures.push(soup(`soup of ${n}`, n, (r) => Math.floor(r() * 6) / 2 - 1, 100 + n));

describe('wasm tree', () => {
  it.each(cases)('%s: same nodes, leaf order and depth as the rule written out', (_name, m) => {
    const w = weld(m.positions, m.indices);
    const v = new Float32Array(w.positions), n = w.triangles.length / 3;
    const root = boundsOf(v);
    const got = buildTreeWasm(v, w.triangles, n, root);
    const want = referenceTree(v, w.triangles, n, root);
    expect(got.depth).toBe(want.depth);
    expect(Array.from(got.leafFaces)).toEqual(Array.from(want.leafFaces));
    expect(Array.from(got.nodes)).toEqual(Array.from(want.nodes));
  });

  it.each(tieFixtures)('tie-heavy $name: same nodes, leaf order and depth as the rule written out', ({ v, fv }) => {
    const n = fv.length / 3, root = boundsOf(v);
    const got = buildTreeWasm(v, fv, n, root);
    const want = referenceTree(v, fv, n, root);
    expect(got.depth).toBe(want.depth);
    expect(Array.from(got.leafFaces)).toEqual(Array.from(want.leafFaces));
    expect(Array.from(got.nodes)).toEqual(Array.from(want.nodes));
  });

  /** The fixture's centroid x values grouped by the top 32 bits of their f64 (the builder's radix key), face order. */
  const runsByTopKey = (name: string): number[][] => {
    const { v, fv } = tieFixtures.find((x) => x.name === name)!;
    const top = new Uint32Array(2), f64 = new Float64Array(top.buffer);
    const runs = new Map<number, number[]>();
    for (let f = 0; f < fv.length / 3; f++) {
      f64[0] = (v[3 * fv[3 * f]] + v[3 * fv[3 * f + 1]] + v[3 * fv[3 * f + 2]]) / 3;
      runs.set(top[1], [...(runs.get(top[1]) ?? []), f64[0]]);
    }
    return [...runs.values()];
  };
  const outOfOrder = (r: number[]): boolean => r.some((x, i) => i > 0 && x < r[i - 1]);

  it('the slivers fixture does hold long runs of one 32-bit centroid key, out of order by face', () => {
    const long = runsByTopKey('slivers').filter((r) => r.length > 32);
    expect(long.length).toBeGreaterThan(1);
    expect(long.some(outOfOrder)).toBe(true);
  });

  it('the one-centroid fixture does have one centroid', () => {
    const { v, fv } = tieFixtures.find((x) => x.name === 'one centroid')!;
    for (let f = 0; f < fv.length / 3; f++) {
      for (let a = 0; a < 3; a++) expect((v[3 * fv[3 * f] + a] + v[3 * fv[3 * f + 1] + a] + v[3 * fv[3 * f + 2] + a]) / 3).toBe(1);
    }
  });

  it('the one-sliver-run fixture holds a run of one 32-bit centroid key past 1,024 faces, out of order by face', () => {
    expect(runsByTopKey('one sliver run').filter((r) => r.length > 1024).some(outOfOrder)).toBe(true);
  });

  it('reuses its memory across calls of different sizes (a small tree after a large one is unchanged)', () => {
    const small = M.bumpyGrid(5), big = M.bumpyGrid(20_000);
    const run = (m: M.Mesh) => {
      const w = weld(m.positions, m.indices);
      const v = new Float32Array(w.positions);
      return buildTreeWasm(v, w.triangles, w.triangles.length / 3, boundsOf(v));
    };
    const before = run(small);
    run(big);
    const after = run(small);
    expect(Array.from(after.nodes)).toEqual(Array.from(before.nodes));
    expect(Array.from(after.leafFaces)).toEqual(Array.from(before.leafFaces));
    expect(buildTreeWasm(new Float32Array(0), new Uint32Array(0), 0, [0, 0, 0, 0, 0, 0]).nodes.length).toBe(0);
  });

  it('the embedded module was compiled from the current assembly/*.ts (else: npm run build:wasm)', () => {
    // The digest scripts/build-wasm.mjs records: files in name order, each as "name:length:" then its bytes.
    const dir = new URL('../../assembly/', import.meta.url);
    const h = createHash('sha256');
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts')).sort()) {
      const bytes = readFileSync(new URL(name, dir));
      h.update(`${name}:${bytes.length}:`).update(bytes);
    }
    expect(WASM_SOURCE_SHA256).toBe(h.digest('hex'));
  });
});

describe('wasm memory', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps up to RETAIN_BYTES between calls, and a larger memory until no call has used it for LARGE_IDLE_MS', () => {
    releaseEncoderMemory(); // no real timer of an earlier test's left to fire under this one
    vi.useFakeTimers();
    // A flat 800 × 800 grid (1,280,000 triangles): weld, split and pieces take ~100 MB of linear memory.
    const n = 800;
    const positions = new Float32Array(3 * (n + 1) * (n + 1));
    for (let j = 0, k = 0; j <= n; j++) for (let i = 0; i <= n; i++, k += 3) { positions[k] = i; positions[k + 2] = j; }
    const indices = new Uint32Array(6 * n * n);
    for (let j = 0, k = 0; j < n; j++) {
      for (let i = 0; i < n; i++, k += 6) {
        const a = j * (n + 1) + i;
        indices.set([a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2], k);
      }
    }
    encodeMeshShapes(M.box().positions, M.box().indices);
    const small = encoderWasm();
    expect(small.memory.buffer.byteLength).toBeLessThanOrEqual(RETAIN_BYTES);
    expect(vi.getTimerCount()).toBe(0); // nothing to let go
    const first = encodeMeshShapes(positions, indices);
    expect(first.stats.faces).toBe(2 * n * n);
    const grown = encoderWasm();
    expect(grown).toBe(small); // grew in place
    const size = grown.memory.buffer.byteLength;
    expect(size).toBeGreaterThan(RETAIN_BYTES);
    vi.advanceTimersByTime(LARGE_IDLE_MS - 1);
    // The next big mesh within the idle time reuses the memory: no growth, same bytes.
    const second = encodeMeshShapes(positions, indices);
    expect(encoderWasm()).toBe(grown);
    expect(grown.memory.buffer.byteLength).toBe(size);
    expect(Buffer.from(second.pieces[0].shape.vertices.buffer).equals(Buffer.from(first.pieces[0].shape.vertices.buffer))).toBe(true);
    // A small call restarts the idle time too (the memory is in use).
    vi.advanceTimersByTime(LARGE_IDLE_MS - 1);
    encodeMeshShapes(M.box().positions, M.box().indices);
    vi.advanceTimersByTime(LARGE_IDLE_MS - 1);
    expect(encoderWasm()).toBe(grown);
    vi.advanceTimersByTime(1);
    const after = encoderWasm();
    expect(after).not.toBe(grown); // idle for LARGE_IDLE_MS: dropped
    expect(after.memory.buffer.byteLength).toBeLessThanOrEqual(RETAIN_BYTES);
    encodeMeshShapes(M.box().positions, M.box().indices);
    expect(encoderWasm()).toBe(after); // a small call keeps its instance, with no timer
    expect(vi.getTimerCount()).toBe(0);
    // The compile's resource build lets it go at once, before the resource's bytes are written.
    const built = buildResource({ name: 'big', cell: null, groups: [{ material: 0, positions, indices }], sources: ['big'] });
    expect(built.shapes).toBe(first.pieces.length);
    const next = encoderWasm();
    expect(next).not.toBe(after);
    expect(next.memory.buffer.byteLength).toBeLessThanOrEqual(RETAIN_BYTES);
    expect(vi.getTimerCount()).toBe(0);
    // Every other call lets it go at once: a kept memory, then a small weld (the validation's, the seams' calls).
    encodeMeshShapes(positions, indices);
    expect(encoderWasm().memory.buffer.byteLength).toBeGreaterThan(RETAIN_BYTES);
    expect(vi.getTimerCount()).toBe(1);
    weld(M.box().positions, M.box().indices);
    expect(encoderWasm().memory.buffer.byteLength).toBeLessThanOrEqual(RETAIN_BYTES);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('wasm errors', () => {
  it('reword running out of linear memory, pass every other error through', () => {
    const trap = new WebAssembly.RuntimeError('unreachable');
    const grow = new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    for (const e of [trap, grow]) {
      const out = wasmError(e, 'encode: 60000000 triangles') as Error;
      expect(out.message).toMatch(/^encode: 60000000 triangles: out of WebAssembly memory .*split the mesh/);
    }
    const other = new Error('weld: triangle 0: index 9 ≥ vertex count 3');
    expect(wasmError(other, 'encode')).toBe(other);
  });

  it('an encoder call that fails leaves the encoder usable (input errors keep their message)', () => {
    expect(() => encodeMeshShapes(new Float32Array(9), new Uint32Array([0, 1, 5]))).toThrow(/^weld: triangle 0: index 5 ≥ vertex count 3$/);
    expect(encodeMeshShapes(M.box().positions, M.box().indices).stats.faces).toBe(12);
  });
});
