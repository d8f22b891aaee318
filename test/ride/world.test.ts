// The ride's world built a file at a time (WorldBuilder): whatever its first capacity (grown as faces come), or on
// shared memory, the same faces in the same order as buildWorld over the whole list, with the same grid.
import { afterAll, expect, test } from 'vitest';
import { lazyTempDir } from '../fixtures/levels.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildWorld, faceNormal, faceSource, hypot3, isBorder, isWalkable, WALKABLE_MIN_NY, WorldBuilder, type RideWorld } from '../../src/ride/world.ts';
import { readRideResource, type RideResource } from '../../src/ride/index.ts';
import { compileMeshes, grid, readOutput } from './helpers.ts';

const tmp = lazyTempDir('sk8-ride-world-');
afterAll(() => tmp.cleanup());

const arrays = (w: RideWorld) => ({
  faces: w.faces, names: w.names, min: w.min, max: w.max,
  ...Object.fromEntries((['vert', 'corner', 'allow', 'faceBits', 'runs'] as const).map((k) => [k, Array.from(w[k])])),
  sources: Array.from({ length: w.faces }, (_, t) => faceSource(w, t)),
  grid: { ...w.grid, start: Array.from(w.grid.start), items: Array.from(w.grid.items) },
});

test('a world built a file at a time, from any first capacity or on shared memory, is the world of the whole list', async () => {
  const out = await compileMeshes(tmp.dir, 'three', [
    { name: 'a', ...grid(6, 4, 1, -6, 0, 0) }, { name: 'b', ...grid(6, 4, 1, 0, 0, 0) }, { name: 'c', ...grid(3, 3, 1, 0, 0.5, 5) },
  ], { tiling: 'cells', seams: 'level' });
  const resources = readOutput(out);
  expect(resources.length).toBeGreaterThan(1);
  const whole = arrays(buildWorld(resources));
  // Each face's source: the resources' kind-5 parts' faces in order (all triangles here).
  const listed = resources.flatMap((r) => r.resource.parts.flatMap((p, part) =>
    p.kind === 5 ? Array.from({ length: r.resource.shapes[p.shape].faceOffsets.length - 1 }, (_, face) => ({ resource: r.name, part, face })) : []));
  expect(whole.sources).toEqual(listed);
  for (const [capacity, shared] of [[0, false], [7, false], [1e6, false], [0, true]] as const) {
    const b = new WorldBuilder(capacity, shared);
    for (const r of resources) b.add(r);
    const w = b.finish();
    expect(w.vert.buffer instanceof SharedArrayBuffer, `shared ${shared}`).toBe(shared);
    expect(arrays(w), `capacity ${capacity}, shared ${shared}`).toEqual(whole);
  }
}, 60_000);

test("hypot3 gives Math.hypot's bits (the world's normals are divided by it)", () => {
  // Seeded: magnitudes from 1e-320 (subnormal) to 1e300, signs, zeros of either sign, and the odd values.
  let seed = 12345;
  const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const value = (): number => {
    const r = random();
    if (r < 0.02) return [0, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE][Math.floor(random() * 7)];
    const scale = r < 0.1 ? 10 ** (Math.floor(random() * 620) - 320) : 10 ** (Math.floor(random() * 8) - 4);
    return (random() - 0.5) * scale;
  };
  const wrong: number[][] = [];
  let differs = 0;
  for (let n = 0; n < 200_000; n++) {
    const x = value(), y = value(), z = value();
    if (!Object.is(hypot3(x, y, z), Math.hypot(x, y, z))) wrong.push([x, y, z]);
    // The plain root does differ on some (why hypot3 exists rather than Math.sqrt).
    if (Number.isFinite(x + y + z) && Math.sqrt(x * x + y * y + z * z) !== Math.hypot(x, y, z)) differs++;
  }
  expect(wrong.slice(0, 5)).toEqual([]);
  expect(differs).toBeGreaterThan(0);
});

/** Each corner's border flag as the world holds it (FaceBits). */
const borders = (w: RideWorld): number[] => Array.from({ length: 3 * w.faces }, (_, e) => (isBorder(w, e) ? 1 : 0));

/** Each triangle corner's border flag as the world defines it, walked the plain way: 1 unless exactly one corner the
 * shape's vertex → corner index lists at the edge's far vertex goes on to this corner's vertex. */
function bordersByWalk(resources: RideResource[]): number[] {
  const out: number[] = [];
  for (const { resource: r } of resources) {
    for (const p of r.parts) {
      if (p.kind !== 5 || p.shape >= r.shapes.length) continue;
      const s = r.shapes[p.shape], nv = s.vertices.length / 3, corners = s.cornerVertices.length;
      const next = new Array<number>(corners).fill(0xffff);
      for (let f = 0; f + 1 < s.faceOffsets.length; f++) {
        const lo = s.faceOffsets[f], hi = Math.min(s.faceOffsets[f + 1], corners);
        for (let c = lo; c < hi; c++) next[c] = s.cornerVertices[c + 1 < hi ? c + 1 : lo];
      }
      const indexed = s.vertexCornerOffsets.length === nv + 1;
      for (let f = 0; f + 1 < s.faceOffsets.length; f++) {
        const c0 = s.faceOffsets[f];
        if (s.faceOffsets[f + 1] - c0 !== 3 || c0 + 3 > corners) continue;
        for (let k = 0; k < 3; k++) {
          const v = s.cornerVertices[c0 + k], to = s.cornerVertices[c0 + ((k + 1) % 3)];
          if (v >= nv) { out.push(0); continue; }
          let n = 0;
          if (indexed && to < nv) for (let m = s.vertexCornerOffsets[to]; m < s.vertexCornerOffsets[to + 1]; m++) if (next[s.cornerIdsByVertex[m]] === v) n++;
          out.push(n === 1 ? 0 : 1);
        }
      }
    }
  }
  return out;
}

test("a corner is a border unless exactly one corner of its shape runs its edge the other way, by the shape's index as stored", async () => {
  // A grid with a hole (open edges inside), a separate grid (cut edges between them), and a fan of four faces on one
  // edge (non-manifold: two corners each way).
  const g = grid(5, 4, 1, 0, 0, 0);
  const holed = { ...g, indices: g.indices.filter((_, n) => Math.floor(n / 6) !== 7) };
  const fan = { positions: [0, 1, 10, 1, 1, 10, 0.5, 1, 11, 0.5, 1, 9, 0.5, 2, 10.5, 0.5, 0, 10.5], indices: [0, 1, 2, 1, 0, 3, 0, 1, 4, 1, 0, 5] };
  const out = await compileMeshes(tmp.dir, 'borders', [{ name: 'a', ...holed }, { name: 'b', ...grid(2, 2, 1, 5, 0, 0) }, { name: 'fan', ...fan }], { seams: 'shape' });
  const resources = readOutput(out);
  const w = buildWorld(resources);
  const border = borders(w);
  expect(border).toEqual(bordersByWalk(resources));
  expect(border.some((b) => b === 0) && border.some((b) => b === 1)).toBe(true);
  // The same rule where the index is off (as a hostile file could have it before verify): ids past the corners,
  // an offset past the ids, an id listed twice.
  const odd = resources.map((r) => {
    const res = structuredClone(r.resource);
    for (const s of res.shapes) {
      const ids = s.cornerIdsByVertex;
      if (ids.length > 4) { ids[0] = 0xffff; ids[1] = s.cornerVertices.length; ids[3] = ids[2]; }
      const o = s.vertexCornerOffsets;
      if (o.length > 2) o[o.length - 1] = Math.min(0xffff, ids.length + 5);
    }
    return { name: r.name, resource: res };
  });
  const wo = buildWorld(odd);
  const want = bordersByWalk(odd);
  expect(borders(wo)).toEqual(want);
  expect(want).not.toEqual(bordersByWalk(resources));
}, 60_000);

/** A face's unit normal by the plain formula the world once stored (Math.hypot, whose bits hypot3 gives). */
function plainNormal(w: RideWorld, t: number): number[] {
  const V = w.vert, [a, b, c] = [0, 1, 2].map((k) => 3 * w.corner[3 * t + k]);
  const u = [0, 1, 2].map((i) => V[b + i] - V[a + i]), v = [0, 1, 2].map((i) => V[c + i] - V[a + i]);
  const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const len = Math.hypot(n[0], n[1], n[2]);
  return len > 1e-12 ? n.map((x) => x / len) : [0, 0, 0];
}

test("faceNormal gives the plain formula's bits, and a face's walkable bit what its normal's y says, on real and hostile faces", async () => {
  const out = await compileMeshes(tmp.dir, 'normals', [
    { name: 'ground', ...grid(4, 4, 1, -2, 0, -2) },
    // A curved ramp (slopes either side of 45°), a wall and a face upside down.
    { name: 'ramp', positions: Array.from({ length: 24 }, (_, n) => { const i = n >> 1, s = n & 1; return [i * 0.3, 0.02 * i * i * i, 3 + s]; }).flat(), indices: Array.from({ length: 11 }, (_, i) => [2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2]).flat() },
    { name: 'wall', positions: [0, 0, -3, 1, 0, -3, 1, 1, -3, 0, 1, -3], indices: [0, 1, 2, 0, 2, 3] },
    { name: 'under', positions: [5, 1, 5, 6, 1, 5, 6, 1.1, 6], indices: [0, 2, 1] },
  ], { seams: 'level' });
  const real = [...readOutput(out), readRideResource('kinds', new Uint8Array(readFileSync(fileURLToPath(new URL('../../samples/kinds.physics', import.meta.url)))))];
  // Hostile: the same shapes with vertices made NaN, infinite, huge (the cross product overflows), tiny (it
  // underflows: degenerate), moved onto another (degenerate), and a part moved 1e30 m away.
  const odd = real.map((r) => {
    const res = structuredClone(r.resource);
    res.shapes.forEach((s, n) => {
      const V = s.vertices, count = V.length / 3;
      if (count < 8) return;
      V[0] = NaN; V[4] = Infinity; V.set([3e38, 1e38, -3e38], 6); V.set([1e-30, 0, 1e-30], 9); V.set([V[18], V[19], V[20]], 15);
      if (n === 0 && count > 12) V.set([2e-45, -2e-45, 3e-45], 21); // subnormal f32s
    });
    if (res.parts.length) res.parts[res.parts.length - 1].position = [1e30, -1e30, 1e30];
    return { name: r.name, resource: res };
  });
  const n = new Float64Array(4);
  const seen = { walkable: 0, steep: 0, zero: 0, huge: 0 };
  for (const [label, resources] of [['real', real], ['hostile', odd]] as const) {
    const w = buildWorld(resources);
    for (let t = 0; t < w.faces; t++) {
      const want = plainNormal(w, t);
      faceNormal(w.vert, w.corner, t, n, 1);
      const got = [n[1], n[2], n[3]];
      expect(got.map((x, i) => Object.is(x, want[i])), `${label} face ${t}: ${got} for ${want}`).toEqual([true, true, true]);
      expect(isWalkable(w, t), `${label} face ${t}`).toBe(want[1] >= WALKABLE_MIN_NY);
      if (want[1] >= WALKABLE_MIN_NY) seen.walkable++;
      else if (want[1] > 0) seen.steep++;
      if (want.every((x) => x === 0)) seen.zero++;
      if ([0, 1, 2].some((k) => Math.abs(w.vert[3 * w.corner[3 * t + k]]) > 1e29)) seen.huge++;
    }
  }
  expect(Object.values(seen).every((c) => c > 0), JSON.stringify(seen)).toBe(true);
}, 60_000);
