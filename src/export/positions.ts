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

/** f32 values w with f32(w − c) = l, near f32(c + l) (within 8 steps). */
function preimage(c: number, l: number): number[] {
  const out: number[] = [];
  const w0 = fr(c + l);
  for (let k = -8; k <= 8; k++) {
    const w = stepF32(w0, k);
    if (fr(w - c) === l || (fr(w - c) === 0 && l === 0)) out.push(w);
  }
  return out;
}

/**
 * World positions (f32, stored vertex order) whose recentring gives `local` back with the part position `centre`,
 * or why none were found. Vertices with the same stored value get the same world value.
 */
export function worldPositions(local: Float32Array, centre: Vec3): Float32Array | string {
  const n = local.length / 3;
  const w = new Float32Array(local.length);
  if (n === 0) return w;
  for (let j = 0; j < 3; j++) {
    const c = centre[j];
    let lo = Infinity, hi = -Infinity;
    for (let v = 0; v < n; v++) {
      const l = local[3 * v + j];
      const x = fr(c + l);
      if (fr(x - c) !== l && !(l === 0 && fr(x - c) === 0)) {
        const p = preimage(c, l);
        if (!p.length) return `axis ${'xyz'[j]}: no f32 world value recentres to the stored ${l} about ${c}`;
        w[3 * v + j] = p[0];
      } else w[3 * v + j] = x;
      if (l < lo) lo = l;
      if (l > hi) hi = l;
    }
    // The importer's sums end on the node's translation, which JSON cannot write as −0.0: a zero is +0.0.
    for (let v = 0; v < n; v++) if (w[3 * v + j] === 0) w[3 * v + j] = 0;
    const middle = (a: number, b: number): number => fr(fr(a + b) * 0.5);
    let wlo = fr(c + lo), whi = fr(c + hi);
    for (let v = 0; v < n; v++) {
      if (local[3 * v + j] === lo) wlo = w[3 * v + j];
      if (local[3 * v + j] === hi) whi = w[3 * v + j];
    }
    if (!Object.is(middle(wlo, whi), c)) {
      let found: [number, number] | null = null;
      for (const a of preimage(c, lo)) {
        for (const b of preimage(c, hi)) if (Object.is(middle(a, b), c) && a <= b) { found = [a, b]; break; }
        if (found) break;
      }
      if (!found) return `axis ${'xyz'[j]}: no world bounds give the part position ${c} back from the stored ${lo} … ${hi}`;
      for (let v = 0; v < n; v++) {
        if (local[3 * v + j] === lo) w[3 * v + j] = found[0] === 0 ? 0 : found[0];
        if (local[3 * v + j] === hi) w[3 * v + j] = found[1] === 0 ? 0 : found[1];
      }
    }
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
