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

/** Most world values kept per stored value and axis (nearest f32(c + l) first). */
const KEEP = 4;

/** Per vertex and axis, the f32 world values that recentre to the stored value (at most KEEP, nearest first). */
export interface Candidates {
  n: number;
  /** 3 · n · KEEP values: vertex v, axis j, k-th at (3 · v + j) · KEEP + k. */
  values: Float32Array;
  /** 3 · n counts. */
  count: Uint8Array;
  /** The stored values, and per axis the part position and the extreme world pairs that give it back. */
  local: Float32Array;
  axes: { centre: number; lo: number; hi: number; pairs: [number, number][] }[];
}

/**
 * The candidates of a part's stored vertices about its position `centre`, the bounds' extremes pinned so that the
 * encoder's middle comes back as `centre`; or why there are none.
 */
export function worldCandidates(local: Float32Array, centre: Vec3): Candidates | string {
  const n = local.length / 3;
  const values = new Float32Array(3 * n * KEEP), count = new Uint8Array(3 * n);
  const axes: Candidates['axes'] = [];
  // The importer's sums end on the node's translation, which JSON cannot write as −0.0: a zero is +0.0.
  const z = (x: number): number => (x === 0 ? 0 : x);
  for (let j = 0; j < 3 && n > 0; j++) {
    const c = centre[j];
    let lo = Infinity, hi = -Infinity;
    for (let v = 0; v < n; v++) {
      const l = local[3 * v + j];
      if (l < lo) lo = l;
      if (l > hi) hi = l;
    }
    const middle = (a: number, b: number): number => fr(fr(a + b) * 0.5);
    const plo = preimage(c, lo).map(z), phi = preimage(c, hi).map(z);
    if (!plo.length || !phi.length) return `axis ${'xyz'[j]}: no f32 world value recentres to the stored ${plo.length ? hi : lo} about ${c}`;
    // Extreme pairs that give the middle back; the extremes may then take only values from those pairs.
    const okLo = new Set<number>(), okHi = new Set<number>(), pairs: [number, number][] = [];
    for (const a of plo) for (const b of phi) if (a <= b && Object.is(middle(a, b), c)) { okLo.add(a); okHi.add(b); pairs.push([a, b]); }
    axes.push({ centre: c, lo, hi, pairs });
    if (!okLo.size) return `axis ${'xyz'[j]}: no world bounds give the part position ${c} back from the stored ${lo} … ${hi}`;
    for (let v = 0; v < n; v++) {
      const l = local[3 * v + j];
      let list = l === lo ? [...okLo] : l === hi ? [...okHi] : preimage(c, l).map(z);
      if (lo === hi) list = pairs.filter(([a, b]) => a === b).map(([a]) => a);
      if (!list.length) return `axis ${'xyz'[j]}: no f32 world value recentres to the stored ${l} about ${c}`;
      const at = 3 * v + j;
      count[at] = Math.min(KEEP, list.length);
      for (let k = 0; k < count[at]; k++) values[at * KEEP + k] = list[k];
    }
  }
  return { n, values, count, local, axes };
}

const kf = new Float32Array(3), ku = new Uint32Array(kf.buffer);
/** A 32-bit hash of a world point's three f32 bit patterns (a collision only biases a count). */
function pointKey(x: number, y: number, z: number): number {
  kf[0] = x; kf[1] = y; kf[2] = z;
  // Mixed in sequence: a sum of per-coordinate products lets sign flips cancel ((−ε, −ε) and (ε, ε) collided).
  let h = Math.imul(ku[0] ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ ku[1], 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ ku[2], 0x27d4eb2f);
  return (h ^ (h >>> 15)) | 0;
}

/**
 * How many stored vertices over a whole export could be each world point: a vertex shared by parts (a cell's parts,
 * an object's pieces, neighbouring cells) must come back at one point, or the weld and the seams see two, so each
 * vertex takes its candidate point that the most vertices could be.
 */
export class WorldPoints {
  private counts = new Map<number, number>();

  /** Counts a part's candidate points. */
  add(c: Candidates): void {
    this.each(c, (v, x, y, z) => {
      const k = pointKey(x, y, z);
      this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    });
  }

  /** World positions: per vertex its most shared candidate point (the nearest on a tie). */
  choose(c: Candidates): Float32Array {
    const w = new Float32Array(3 * c.n), best = new Int32Array(c.n).fill(-1);
    this.each(c, (v, x, y, z) => {
      const k = this.counts.get(pointKey(x, y, z)) ?? 0;
      if (k > best[v]) {
        best[v] = k;
        w[3 * v] = x;
        w[3 * v + 1] = y;
        w[3 * v + 2] = z;
      }
    });
    // The extremes were chosen one by one: where their middle is not the part position, the first pair that gives
    // it back (keeping the low value chosen when a pair has it).
    c.axes.forEach((ax, j) => {
      let lo = Infinity, hi = -Infinity;
      for (let v = 0; v < c.n; v++) {
        lo = Math.min(lo, w[3 * v + j]);
        hi = Math.max(hi, w[3 * v + j]);
      }
      if (ax.pairs.some(([a, b]) => a === lo && b === hi)) return;
      const [a, b] = ax.pairs.find(([x]) => x === lo) ?? ax.pairs[0];
      for (let v = 0; v < c.n; v++) {
        if (c.local[3 * v + j] === ax.lo) w[3 * v + j] = a;
        if (c.local[3 * v + j] === ax.hi) w[3 * v + j] = b;
      }
    });
    return w;
  }

  private each(c: Candidates, f: (v: number, x: number, y: number, z: number) => void): void {
    const { values: val, count } = c;
    for (let v = 0; v < c.n; v++) {
      const a = 3 * v;
      for (let i = 0; i < count[a]; i++) {
        for (let j = 0; j < count[a + 1]; j++) {
          for (let k = 0; k < count[a + 2]; k++) f(v, val[a * KEEP + i], val[(a + 1) * KEEP + j], val[(a + 2) * KEEP + k]);
        }
      }
    }
  }
}

/** World positions of one part on its own (see worldCandidates), or why there are none. */
export function worldPositions(local: Float32Array, centre: Vec3): Float32Array | string {
  const c = worldCandidates(local, centre);
  if (typeof c === 'string') return c;
  const points = new WorldPoints();
  points.add(c);
  return points.choose(c);
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
