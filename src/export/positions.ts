// World positions for a kind-5 shape that the encoder recentres back to the stored values (issue #25, round trip).
// The encoder (assembly/piece.ts) takes the part's position as the bounds' middle, c = f32(f32(min + max) · 0.5) per
// axis, and stores each vertex as f32(w − c). The written file keeps c and the stored values, not w: f32(c + l) is a
// w that gives l back, but where several f32 values round to the same l, the original extremes may have been
// others and the middle comes out one step off (random-soup golden: x off by 4.8e-7). So the extremes are searched
// among the values that give their stored l back until the middle is c again.
import type { Vec3 } from '../format/types.ts';

const fr = Math.fround;
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);

/** The f32 k steps away from x (k may be negative; through zero as the bit patterns go). */
function stepF32(x: number, k: number): number {
  f32[0] = x;
  let b = u32[0];
  for (let i = 0; i < Math.abs(k); i++) {
    const up = k > 0;
    if (f32[0] === 0) { u32[0] = up ? 1 : 0x80000001; b = u32[0]; continue; }
    b = (f32[0] > 0) === up ? b + 1 : b - 1;
    u32[0] = b;
  }
  return f32[0];
}

/** f32 values w with f32(w − c) = l, near f32(c + l) (within 8 steps), nearest first. */
function preimage(c: number, l: number): number[] {
  const ok = (w: number): boolean => fr(w - c) === l;
  const w0 = fr(c + l);
  const out: number[] = ok(w0) ? [w0] : [];
  for (let k = 1; k <= 8; k++) for (const w of [stepF32(w0, -k), stepF32(w0, k)]) if (ok(w)) out.push(w);
  return out;
}

/**
 * The world points chosen so far over a whole export (exact f32 triples): a vertex another part also has (a cell's
 * parts, an object's split pieces meet at cuts) must come back at one point, or the seams and the weld see two.
 */
export type WorldPoints = Map<string, [number, number, number]>;

const pointKey = (x: number, y: number, z: number): string => `${x},${y},${z}`;

/**
 * World positions (f32, stored vertex order) whose recentring gives `local` back with the part position `centre`,
 * or why none were found. Where a stored value has several such world values, one already chosen for another part
 * (`points`) is taken, so shared vertices stay shared.
 */
export function worldPositions(local: Float32Array, centre: Vec3, points: WorldPoints = new Map()): Float32Array | string {
  const n = local.length / 3;
  const w = new Float32Array(local.length);
  if (n === 0) return w;
  const forced: [number, number, number, number][] = []; // per axis: lo, hi and their world values (NaN: free)
  for (let j = 0; j < 3; j++) {
    const c = centre[j];
    let lo = Infinity, hi = -Infinity;
    for (let v = 0; v < n; v++) {
      const l = local[3 * v + j];
      if (l < lo) lo = l;
      if (l > hi) hi = l;
    }
    const middle = (a: number, b: number): number => fr(fr(a + b) * 0.5);
    const plo = preimage(c, lo), phi = preimage(c, hi);
    if (!plo.length || !phi.length) return `axis ${'xyz'[j]}: no f32 world value recentres to the stored ${plo.length ? hi : lo} about ${c}`;
    // The importer's sums end on the node's translation, which JSON cannot write as −0.0: a zero is +0.0.
    const z = (x: number): number => (x === 0 ? 0 : x);
    if (Object.is(middle(z(plo[0]), z(phi[0])), c)) forced.push([lo, hi, NaN, NaN]);
    else {
      let found: [number, number] | null = null;
      for (const a of plo) {
        for (const b of phi) if (Object.is(middle(z(a), z(b)), c) && a <= b) { found = [z(a), z(b)]; break; }
        if (found) break;
      }
      if (!found) return `axis ${'xyz'[j]}: no world bounds give the part position ${c} back from the stored ${lo} … ${hi}`;
      forced.push([lo, hi, found[0], found[1]]);
    }
  }
  const cand: number[][] = [[], [], []];
  for (let v = 0; v < n; v++) {
    for (let j = 0; j < 3; j++) {
      const l = local[3 * v + j], [lo, hi, flo, fhi] = forced[j];
      if (l === lo && !Number.isNaN(flo)) cand[j] = [flo];
      else if (l === hi && !Number.isNaN(fhi)) cand[j] = [fhi];
      else {
        cand[j] = preimage(centre[j], l).map((x) => (x === 0 ? 0 : x));
        if (!cand[j].length) return `axis ${'xyz'[j]}: no f32 world value recentres to the stored ${l} about ${centre[j]}`;
      }
    }
    let hit: [number, number, number] | undefined;
    for (const x of cand[0]) {
      for (const y of cand[1]) {
        for (const zz of cand[2]) if ((hit = points.get(pointKey(x, y, zz)))) break;
        if (hit) break;
      }
      if (hit) break;
    }
    const p: [number, number, number] = hit ?? [cand[0][0], cand[1][0], cand[2][0]];
    if (!hit) points.set(pointKey(p[0], p[1], p[2]), p);
    w[3 * v] = p[0];
    w[3 * v + 1] = p[1];
    w[3 * v + 2] = p[2];
  }
  return w;
}

/**
 * Values to write under a node translated by t so the importer (f32 of t + x, src/import/gltf.ts) gives `world` back,
 * or null when some vertex cannot be written that way (then the node goes at the origin with world values).
 */
export function relativeTo(world: Float32Array, t: Vec3): Float32Array | null {
  const out = new Float32Array(world.length);
  for (let i = 0; i < world.length; i++) {
    const x = fr(world[i] - t[i % 3]);
    if (!Object.is(fr(x + t[i % 3]), world[i]) && !(x === 0 && world[i] === 0)) return null;
    out[i] = x;
  }
  return out;
}
