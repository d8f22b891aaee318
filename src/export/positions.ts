// World positions for kind-5 shapes that the encoder recentres back to the stored values (the to-gltf round trip).
// The encoder (assembly/piece.ts) takes the part's position as the bounds' middle, c = f32(f32(min + max) · 0.5) per
// axis (the f32 world values widened to f64), and stores each vertex as f32(w − c), the difference taken in f64
// (exact for two f32 values) and rounded once. The written file keeps c and the stored values, not w. As
// w ↦ f32(w − c) is monotone, the f32 world values that give a stored value l back are an interval of f32 values
// (one value where |l| ≲ |w|, many where |l| is larger, e.g. a vertex near the world origin in a part centred far
// from it). A vertex that several parts store (a cell's parts, an object's pieces, neighbouring cells on a cut)
// came from one world value W, which lies in every copy's interval: copies are the same point where their
// intervals meet on all three axes (never two vertices of one part), and take one value from the intersection,
// so the weld and the level-wide seams see one point again. The bounds' extremes are then pinned so that their
// middle is c again (random-soup golden: taking f32(c + l) for both puts x one step off).
import type { Vec3 } from '../format/types.ts';
import { keyOf, valueOf } from '../geometry/f32-keys.ts';
import { convexValueFast, FLAT_COS, SEAM_CONCAVE, SEAM_FLAT, SEAM_NONE, SEAM_SHARP } from '../geometry/edge-rule.ts';

const fr = Math.fround;
// Re-exported for the tests and callers that take spans from here.
export { keyOf, valueOf };
/** Most key of a finite f32 (0x7f7fffff). */
const MAX_KEY = 0x7f7fffff;

/**
 * The keys [lo, hi] of the f32 values x with f(x) = target, f monotone non-decreasing over f32 values, around the
 * key `at` (where f(at) = target); f is searched outward by doubling steps, then halving.
 */
function spanAround(f: (x: number) => number, target: number, at: number): [number, number] {
  const edge = (dir: 1 | -1): number => {
    let good = at, step = 1;
    for (;;) {
      const k = Math.max(-MAX_KEY, Math.min(MAX_KEY, good + dir * step));
      if (k === good || f(valueOf(k)) !== target) break;
      good = k;
      step *= 2;
    }
    // good holds; good + dir · step (clamped) does not, or is the end of the range.
    let bad = good + dir * step;
    if (Math.abs(bad) > MAX_KEY) return good;
    while (Math.abs(bad - good) > 1) {
      const mid = good + dir * Math.floor(Math.abs(bad - good) / 2);
      if (f(valueOf(mid)) === target) good = mid;
      else bad = mid;
    }
    return good;
  };
  return [edge(-1), edge(1)];
}

/**
 * The keys [lo, hi] of the f32 world values w with f32(w − c) = l, or null when there is none (searched within 8
 * steps of f32(c + l), then by the monotone bounds).
 */
export function recentreSpan(c: number, l: number): [number, number] | null {
  const f = (w: number): number => fr(w - c);
  const k0 = keyOf(fr(c + l));
  for (let d = 0; d <= 8; d++) {
    for (const k of d ? [k0 - d, k0 + d] : [k0]) if (Math.abs(k) <= MAX_KEY && f(valueOf(k)) === l) return spanAround(f, l, k);
  }
  return null;
}

/**
 * The key in [lo, hi] of the value with the shortest decimal form (0 first; ties: nearest the middle). Levels are
 * authored in decimal metres (0.15, not the f32 one step below it), so where several world values give the stored
 * ones back this is the likeliest.
 */
export function simplest(lo: number, hi: number): number {
  if (lo <= 0 && hi >= 0) return 0;
  const mid = (valueOf(lo) + valueOf(hi)) / 2;
  for (let p = 1; p <= 9; p++) {
    const k = keyOf(fr(Number(mid.toPrecision(p))));
    if (k >= lo && k <= hi) return k;
  }
  return lo; // not reached: 9 digits name every f32
}

/** A part's stored vertices and position, and per vertex and axis the keys [lo, hi] of the world values that give it back. */
export interface PartSpans {
  n: number;
  local: Float32Array;
  centre: Vec3;
  /** 3 · n keys each: vertex v, axis j at 3 · v + j. */
  lo: Int32Array;
  hi: Int32Array;
}

/** The spans of a part's stored vertices about its position `centre` (see the file header), or why there are none. */
export function partSpans(local: Float32Array, centre: Vec3): PartSpans | string {
  const n = local.length / 3;
  const lo = new Int32Array(3 * n), hi = new Int32Array(3 * n);
  for (let j = 0; j < 3; j++) {
    const c = centre[j];
    const memo = new Map<number, [number, number] | null>();
    for (let v = 0; v < n; v++) {
      const l = local[3 * v + j];
      let s = memo.get(l);
      if (s === undefined) memo.set(l, (s = recentreSpan(c, l)));
      if (!s) return `axis ${'xyz'[j]}: no f32 world value recentres to the stored ${l} about ${c}`;
      lo[3 * v + j] = s[0];
      hi[3 * v + j] = s[1];
    }
  }
  return { n, local, centre, lo, hi };
}

/** Grid step (metres) of the search for copies whose spans meet; a span over more than GRID_MOST cells stays alone. */
const GRID = 1 / 16;
const GRID_MOST = 64;

/** Most steps either way a coordinate is moved to give a join's stored edge data back, and samples over its span. */
const SEAM_STEPS = 48;
const SEAM_SAMPLES = 64;
/** Steps either way of each of two coordinates moved together. */
const PAIR_STEPS = 12;
/** Most sweeps over a join's coordinates. */
const SEAM_SWEEPS = 24;
/** Most combinations of a join's free coordinates tried all together. */
const SEAM_COMBOS = 4096;

/** Keys to try for a coordinate at k0 in [lo, hi]: the nearest first, then evenly over the span's values. */
function stepsAround(k0: number, lo: number, hi: number, steps = SEAM_STEPS): number[] {
  const out: number[] = [];
  for (let d = 1; d <= steps; d++) for (const k of [k0 - d, k0 + d]) if (k >= lo && k <= hi) out.push(k);
  if (hi - lo > 2 * steps && steps === SEAM_STEPS) {
    const a = valueOf(lo), b = valueOf(hi);
    for (let i = 0; i <= SEAM_SAMPLES; i++) out.push(Math.max(lo, Math.min(hi, keyOf(fr(a + ((b - a) * i) / SEAM_SAMPLES)))));
  }
  return out;
}

const middle = (a: number, b: number): number => fr(fr(a + b) * 0.5);

/**
 * The world value of key k for a vertex stored as l about position c. Key 0 is both zeros; f32(w − c) is −0.0 only
 * for w = −0.0 and c = +0.0, and a position −0.0 is the middle of −0.0 bounds only, so either gives −0.0 back
 * (negative-zero golden); else +0.0.
 */
function worldValue(k: number, l: number, c: number): number {
  return k === 0 && (Object.is(l, -0) || Object.is(c, -0)) ? -0 : valueOf(k);
}

/**
 * World values for the unrotated kind-5 parts of one export (see the file header): add every part, then solve once.
 * Deterministic: copies are joined in the order parts were added, their vertices in stored order.
 */
export class WorldSolver {
  private parts: PartSpans[] = [];
  private shapes: (SeamShape | undefined)[] = [];
  /** The pinned extremes: per part and axis its position and its low and high groups; by coordinate (3 · root + axis). */
  private extremes: { c: number; j: number; low: number[]; high: number[] }[] = [];
  private extremeOf = new Map<number, number[]>();
  private raw: { lo: Int32Array; hi: Int32Array } | null = null;

  /**
   * Adds a part (with its stored shape: the world values are then also fitted so that the level-wide seams give its
   * stored edge data back); returns its index into solve()'s results.
   */
  add(s: PartSpans, shape?: SeamShape): number {
    this.parts.push(s);
    this.shapes.push(shape);
    return this.parts.length - 1;
  }

  /** Per part its world values (3 per stored vertex) and null, or why its position does not come back. */
  solve(): { world: Float32Array; why: string | null }[] {
    const parts = this.parts;
    const base = new Int32Array(parts.length + 1);
    parts.forEach((p, i) => (base[i + 1] = base[i] + p.n));
    const N = base[parts.length];
    const partOf = new Int32Array(N), lo = new Int32Array(3 * N), hi = new Int32Array(3 * N);
    parts.forEach((p, i) => {
      partOf.fill(i, base[i], base[i + 1]);
      lo.set(p.lo, 3 * base[i]);
      hi.set(p.hi, 3 * base[i]);
    });
    // Union-find over copies; a root's lo/hi are its group's intersection; members in a ring (next).
    const parent = Int32Array.from({ length: N }, (_, i) => i), next = Int32Array.from({ length: N }, (_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) i = parent[i] = parent[parent[i]];
      return i;
    };
    const sharesPart = (a: number, b: number): boolean => {
      for (let x = a; ; x = next[x]) {
        for (let y = b; ; y = next[y]) {
          if (partOf[x] === partOf[y]) return true;
          if (next[y] === b) break;
        }
        if (next[x] === a) return false;
      }
    };
    const join = (a: number, b: number): void => {
      const ra = find(a), rb = find(b);
      if (ra === rb) return;
      for (let j = 0; j < 3; j++) if (Math.max(lo[3 * ra + j], lo[3 * rb + j]) > Math.min(hi[3 * ra + j], hi[3 * rb + j])) return;
      if (sharesPart(ra, rb)) return;
      for (let j = 0; j < 3; j++) {
        lo[3 * ra + j] = Math.max(lo[3 * ra + j], lo[3 * rb + j]);
        hi[3 * ra + j] = Math.min(hi[3 * ra + j], hi[3 * rb + j]);
      }
      parent[rb] = ra;
      const t = next[ra];
      next[ra] = next[rb];
      next[rb] = t;
    };
    // Copies whose spans meet share a grid cell on every axis: bucketed by cell, compared within a bucket.
    const buckets = new Map<number, number[]>();
    const cell = new Int32Array(6);
    for (let i = 0; i < N; i++) {
      let cells = 1;
      for (let j = 0; j < 3; j++) {
        cell[j] = Math.floor(valueOf(lo[3 * i + j]) / GRID);
        cell[3 + j] = Math.floor(valueOf(hi[3 * i + j]) / GRID);
        cells *= cell[3 + j] - cell[j] + 1;
      }
      if (!(cells <= GRID_MOST)) continue;
      for (let x = cell[0]; x <= cell[3]; x++) for (let y = cell[1]; y <= cell[4]; y++) for (let z = cell[2]; z <= cell[5]; z++) {
        let h = Math.imul(x ^ 0x9e3779b9, 0x85ebca6b);
        h = Math.imul(h ^ (h >>> 13) ^ y, 0xc2b2ae35);
        h = Math.imul(h ^ (h >>> 16) ^ z, 0x27d4eb2f);
        const k = h ^ (h >>> 15);
        const list = buckets.get(k);
        if (list) {
          for (const o of list) if (partOf[o] !== partOf[i] && meets(o, i)) join(o, i);
          list.push(i);
        } else buckets.set(k, [i]);
      }
    }
    function meets(a: number, b: number): boolean {
      for (let j = 0; j < 3; j++) if (lo[3 * a + j] > hi[3 * b + j] || lo[3 * b + j] > hi[3 * a + j]) return false;
      return true;
    }
    // Each group's value per axis: the simplest in its intersection (W lies in it; an authored value is often round).
    const val = new Int32Array(3 * N);
    for (let i = 0; i < N; i++) {
      if (parent[i] !== i) continue;
      for (let j = 0; j < 3; j++) {
        const a = lo[3 * i + j], b = hi[3 * i + j];
        val[3 * i + j] = a === b ? a : simplest(a, b);
      }
    }
    // The bounds' extremes of every part, in order: their middle must be the part position; each group an extreme
    // touched is pinned to its value (a later part cannot move it).
    // The seams first on the whole spans (an extreme's value may then be kept), then again past the pinned extremes.
    const seams = this.shapes.some((x) => x);
    if (seams) this.fitSeams(base, find, lo, hi, val);
    const why: (string | null)[] = parts.map(() => null);
    // The spans before the extremes are pinned: a pinned extreme may still move within its own span where every
    // part it bounds keeps its position (fitSeams).
    this.raw = { lo: lo.slice(), hi: hi.slice() };
    parts.forEach((p, pi) => {
      for (let j = 0; j < 3 && p.n > 0; j++) {
        const w = this.fitExtremes(p, base[pi], j, find, lo, hi, val);
        if (w && !why[pi]) why[pi] = w;
      }
    });
    if (seams) this.fitSeams(base, find, lo, hi, val);
    return parts.map((p, pi) => {
      const world = new Float32Array(3 * p.n);
      for (let v = 0; v < p.n; v++) {
        const r = find(base[pi] + v);
        for (let j = 0; j < 3; j++) world[3 * v + j] = worldValue(val[3 * r + j], p.local[3 * v + j], p.centre[j]);
      }
      return { world, why: why[pi] };
    });
  }

  /**
   * The level-wide seams over the parts' stored shapes (corners their shape leaves unpaired, matched across parts by
   * group, classified as assembly/seams.ts does on the world values): where a join's stored edge data does not come
   * back, one coordinate at a time of the pair's four vertices is stepped within its span (pinned extremes stay)
   * while fewer of the joins those vertices take part in differ. W gives every stored join back; the stored convex
   * values pin the world values nearly as well as W itself does.
   */
  private fitSeams(base: Int32Array, find: (i: number) => number, lo: Int32Array, hi: Int32Array, val: Int32Array): void {
    const corners: { part: number; c: number; a: number; b: number; t: number }[] = [];
    this.shapes.forEach((s, pi) => {
      if (!s) return;
      const cv = s.cornerVertices, held = new Map<number, number>();
      const edge = (c: number): [number, number, number] => {
        const f = c - (c % 3);
        return [cv[c], cv[f + ((c % 3) + 1) % 3], cv[f + ((c % 3) + 2) % 3]];
      };
      for (let c = 0; c < cv.length; c++) {
        const [a, b] = edge(c);
        held.set(a * 65536 + b, held.has(a * 65536 + b) ? -1 : c);
      }
      for (let c = 0; c < cv.length; c++) {
        const [a, b, t] = edge(c);
        const o = held.get(b * 65536 + a);
        if (held.get(a * 65536 + b)! >= 0 && o !== undefined && o >= 0 && edge(o)[2] !== t) continue; // paired in its shape
        corners.push({ part: pi, c, a: find(base[pi] + a), b: find(base[pi] + b), t: find(base[pi] + t) });
      }
    });
    const N = base[base.length - 1] + 1;
    const held = new Map<number, number>();
    corners.forEach((k, i) => held.set(k.a * N + k.b, held.has(k.a * N + k.b) ? -1 : i));
    const pairs: [number, number][] = [];
    corners.forEach((k, i) => {
      const o = held.get(k.b * N + k.a);
      if (o === undefined || o < 0 || held.get(k.a * N + k.b)! < 0 || o < i || corners[o].t === k.t) return;
      pairs.push([i, o]);
    });
    const pt = (r: number): number[] => [valueOf(val[3 * r]), valueOf(val[3 * r + 1]), valueOf(val[3 * r + 2])];
    // The keys a coordinate may take (null: none but its own), and whether the parts it bounds keep their positions.
    const span = (at: number): [number, number] | null => {
      if (lo[at] < hi[at]) return [lo[at], hi[at]];
      return this.raw && this.extremeOf.has(at) && this.raw.lo[at] < this.raw.hi[at] ? [this.raw.lo[at], this.raw.hi[at]] : null;
    };
    const holds = (at: number): boolean => {
      for (const e of this.extremeOf.get(at) ?? []) {
        const x = this.extremes[e];
        let a = Infinity, b = -Infinity;
        for (const r of x.low) a = Math.min(a, val[3 * r + x.j]);
        for (const r of x.high) b = Math.max(b, val[3 * r + x.j]);
        if (!Object.is(middle(valueOf(a), valueOf(b)), x.c)) return false;
      }
      return true;
    };
    // A join's cost: 0 when its stored edge data comes back; else 1 plus how far its convex values are off (so a
    // step towards the stored values counts before they are reached).
    const costOf = (p: [number, number]): number => {
      const x = corners[p[0]], y = corners[p[1]], sx = this.shapes[x.part]!, sy = this.shapes[y.part]!;
      const codes = seamCodes(pt(x.a), pt(x.b), pt(x.t), pt(y.t)) ?? [SEAM_NONE, SEAM_NONE];
      if (storedAs(sx, x.c, codes[0]) && storedAs(sy, y.c, codes[1])) return 0;
      const off = (s: SeamShape, c: number, code: number): number => (code >= 0 && !storedAs(s, c, code) ? Math.abs(s.edgeValues[c] - code) : storedAs(s, c, code) ? 0 : 1);
      return 1 + Math.min(1, off(sx, x.c, codes[0]) + off(sy, y.c, codes[1]));
    };
    const good = (p: [number, number]): boolean => costOf(p) === 0;
    const of = new Map<number, number[]>();
    pairs.forEach((p, i) => {
      const x = corners[p[0]];
      for (const r of new Set([x.a, x.b, x.t, corners[p[1]].t])) of.set(r, [...(of.get(r) ?? []), i]);
    });
    const bad = (r: number): number => of.get(r)!.reduce((n, i) => n + costOf(pairs[i]), 0);
    for (let round = 0; round < 3; round++) {
      let fixed = 0, left = 0;
      pairs.forEach((p) => {
        if (good(p)) return;
        const x = corners[p[0]];
        // One coordinate at a time, sweeps repeated while the joins around get closer to their stored data.
        for (let sweep = 0, moved = true; sweep < SEAM_SWEEPS && moved && !good(p); sweep++) {
          moved = false;
          for (const r of new Set([x.a, x.b, x.t, corners[p[1]].t])) {
            for (let j = 0; j < 3 && !good(p); j++) {
              const at = 3 * r + j, sp = span(at);
              if (!sp) continue;
              let now = bad(r);
              for (const k of stepsAround(val[at], sp[0], sp[1])) {
                const before = val[at];
                val[at] = k;
                const n = holds(at) ? bad(r) : Infinity;
                if (n < now) { now = n; moved = true; }
                else val[at] = before;
                if (good(p)) break;
              }
            }
          }
        }
        // Then two coordinates at once, each over its nearest steps.
        const coords: number[] = [];
        for (const r of new Set([x.a, x.b, x.t, corners[p[1]].t])) for (let j = 0; j < 3; j++) if (span(3 * r + j)) coords.push(3 * r + j);
        for (let u = 0; u < coords.length && !good(p); u++) {
          for (let v = u + 1; v < coords.length && !good(p); v++) {
            const cu = coords[u], cv = coords[v], ku = val[cu], kv = val[cv], su = span(cu)!, sv = span(cv)!;
            const ru = Math.floor(cu / 3), rv = Math.floor(cv / 3);
            const now = bad(ru) + bad(rv);
            let done = false;
            for (const a of stepsAround(ku, su[0], su[1], PAIR_STEPS)) {
              for (const b of stepsAround(kv, sv[0], sv[1], PAIR_STEPS)) {
                val[cu] = a;
                val[cv] = b;
                if (good(p) && holds(cu) && holds(cv) && bad(ru) + bad(rv) < now) { done = true; break; }
              }
              if (done) break;
            }
            if (!done) { val[cu] = ku; val[cv] = kv; }
          }
        }
        // Few values left over all the free coordinates: every combination (the stored join is among them if
        // every copy was found).
        let combos = 1;
        for (const at of coords) combos *= span(at)![1] - span(at)![0] + 1;
        if (!good(p) && coords.length && combos <= SEAM_COMBOS) {
          const keep = coords.map((at) => val[at]), roots = [...new Set(coords.map((at) => Math.floor(at / 3)))];
          const now = roots.reduce((n, r) => n + bad(r), 0);
          let found = false;
          for (let i = 0; i < combos && !found; i++) {
            let rest = i;
            for (const at of coords) {
              const [a, b] = span(at)!;
              val[at] = a + (rest % (b - a + 1));
              rest = Math.floor(rest / (b - a + 1));
            }
            found = good(p) && coords.every(holds) && roots.reduce((n, r) => n + bad(r), 0) < now;
          }
          if (!found) coords.forEach((at, k) => (val[at] = keep[k]));
        }
        if (good(p)) fixed++;
        else left++;
      });
      if (left === 0 || fixed === 0) break;
    }
  }

  /**
   * The extremes of one part's axis j pinned again within their spans before any part was pinned (this.raw), where
   * the groups an earlier part pinned leave no pair whose middle is c: a vertex several parts bound (a corner on a
   * cell cut) was pinned by the first of them to a value its other parts cannot use. Taken only where every part
   * those groups bound keeps its middle. Returns whether it pinned them.
   */
  private repin(c: number, j: number, loRoots: Set<number>, hiRoots: Set<number>, prefA: number, prefB: number, lo: Int32Array, hi: Int32Array, val: Int32Array): boolean {
    const raw = this.raw;
    if (!raw) return false;
    const span = (r: number): [number, number] => [raw.lo[3 * r + j], raw.hi[3 * r + j]];
    let gs = -1, hs = -1;
    for (const r of loRoots) if (gs < 0 || span(r)[1] < span(gs)[1]) gs = r;
    for (const r of hiRoots) if (hs < 0 || span(r)[0] > span(hs)[0]) hs = r;
    const earlier = new Set<number>();
    for (const r of [...loRoots, ...hiRoots]) for (const e of this.extremeOf.get(3 * r + j) ?? []) earlier.add(e);
    const tried = new Map<number, number>();
    const at = (r: number): number => tried.get(r) ?? val[3 * r + j];
    for (const [a, b] of boundsAcross(c, ...span(gs), ...span(hs), prefA, prefB)) {
      tried.clear();
      let fits = true;
      for (const r of loRoots) tried.set(r, r === gs ? a : Math.max(val[3 * r + j], a));
      for (const r of hiRoots) tried.set(r, r === hs ? b : Math.min(tried.get(r) ?? val[3 * r + j], b));
      for (const [r, k] of tried) if (k < span(r)[0] || k > span(r)[1]) fits = false;
      for (const e of earlier) {
        if (!fits) break;
        const x = this.extremes[e];
        let mn = Infinity, mx = -Infinity;
        for (const r of x.low) mn = Math.min(mn, at(r));
        for (const r of x.high) mx = Math.max(mx, at(r));
        if (!Object.is(middle(valueOf(mn), valueOf(mx)), x.c)) fits = false;
      }
      if (!fits) continue;
      for (const [r, k] of tried) {
        val[3 * r + j] = k;
        lo[3 * r + j] = hi[3 * r + j] = k;
      }
      return true;
    }
    return false;
  }

  /** Pins the extremes of part p's axis j so that their middle is its position (see solve), or says why it cannot. */
  private fitExtremes(p: PartSpans, at: number, j: number, find: (i: number) => number, lo: Int32Array, hi: Int32Array, val: Int32Array): string | null {
    const c = p.centre[j];
    let lmin = Infinity, lmax = -Infinity;
    for (let v = 0; v < p.n; v++) {
      lmin = Math.min(lmin, p.local[3 * v + j]);
      lmax = Math.max(lmax, p.local[3 * v + j]);
    }
    const loRoots = new Set<number>(), hiRoots = new Set<number>();
    for (let v = 0; v < p.n; v++) {
      const l = p.local[3 * v + j];
      if (l === lmin) loRoots.add(find(at + v));
      if (l === lmax) hiRoots.add(find(at + v));
    }
    const pin = (r: number, k: number): void => {
      val[3 * r + j] = k;
      lo[3 * r + j] = hi[3 * r + j] = k;
    };
    const fail = `axis ${'xyz'[j]}: no world bounds give the part position ${c} back from the stored ${lmin} … ${lmax}`;
    if (lmin === lmax) {
      // Every vertex one value: the middle of it with itself is it, so it must be c (−0.0 for a position −0.0: key 0
      // stands for both zeros, and solve() gives −0.0 back where the part's position is −0.0).
      const k = keyOf(c), w = Object.is(c, -0) ? -0 : valueOf(k);
      if (!Object.is(middle(w, w), c)) return fail;
      for (const r of loRoots) if (k < lo[3 * r + j] || k > hi[3 * r + j]) return fail;
      for (const r of loRoots) pin(r, k);
      return null;
    }
    // The low extreme a may be any value in [lo of g*, U] (g*: the low group with the least upper end U), the other
    // low groups then taking at least a; the high extreme b likewise in [L, hi of h*].
    let gs = -1, hs = -1, prefA = Infinity, prefB = -Infinity;
    for (const r of loRoots) {
      if (gs < 0 || hi[3 * r + j] < hi[3 * gs + j]) gs = r;
      prefA = Math.min(prefA, val[3 * r + j]);
    }
    for (const r of hiRoots) {
      if (hs < 0 || lo[3 * r + j] > lo[3 * hs + j]) hs = r;
      prefB = Math.max(prefB, val[3 * r + j]);
    }
    const a0 = lo[3 * gs + j], a1 = hi[3 * gs + j], b0 = lo[3 * hs + j], b1 = hi[3 * hs + j];
    const ok = (a: number, b: number): boolean => Object.is(middle(valueOf(a), valueOf(b)), c);
    let found: [number, number] | null = ok(prefA, prefB) ? [prefA, prefB] : null;
    // Otherwise one extreme stepped away from its preferred value, the other solved for (the middle is monotone in each).
    for (let d = 0; d <= 64 && !found; d++) {
      for (const a of d ? [prefA - d, prefA + d] : [prefA]) {
        if (found || a < a0 || a > a1) continue;
        const b = solveFor((b) => middle(valueOf(a), valueOf(b)), c, b0, b1, prefB);
        if (b !== null) found = [a, b];
      }
      for (const b of d ? [prefB - d, prefB + d] : [prefB]) {
        if (found || b < b0 || b > b1) continue;
        const a = solveFor((a) => middle(valueOf(a), valueOf(b)), c, a0, a1, prefA);
        if (a !== null) found = [a, b];
      }
    }
    // Else the low extremes that leave a high one in its span (a + b near 2c: a within [2c − b1, 2c − b0]), wherever
    // they lie: a vertex near the world origin in a part centred far from it has a span of thousands of steps.
    if (!found) found = boundsAcross(c, a0, a1, b0, b1, prefA, prefB).next().value ?? null;
    if (found) {
      const [a, b] = found;
      for (const r of loRoots) pin(r, r === gs ? a : Math.max(val[3 * r + j], a));
      for (const r of hiRoots) pin(r, r === hs ? b : Math.min(val[3 * r + j], b));
    } else if (!this.repin(c, j, loRoots, hiRoots, prefA, prefB, lo, hi, val)) return fail;
    const e = this.extremes.push({ c, j, low: [...loRoots], high: [...hiRoots] }) - 1;
    for (const r of new Set([...loRoots, ...hiRoots])) this.extremeOf.set(3 * r + j, [...(this.extremeOf.get(3 * r + j) ?? []), e]);
    return null;
  }
}

/**
 * Keys a ∈ [a0, a1], b ∈ [b0, b1] whose middle is c, a nearest prefA first (each b nearest prefB). The middle is
 * f32(f32(a + b) · 0.5), so a + b must round to 2c: the a worth trying are those with 2c − a within [b0, b1] (in
 * value, a step either side for the rounding), and for each the b is solved for. The a tried are that range's keys
 * nearest prefA, its two ends and its middle, so a wide range costs a few dozen solves, not one per key.
 */
function* boundsAcross(c: number, a0: number, a1: number, b0: number, b1: number, prefA: number, prefB: number): Generator<[number, number]> {
  const t = 2 * c;
  const lo = Math.max(a0, keyOf(fr(t - valueOf(Math.min(MAX_KEY, b1 + 1)))) - 1);
  const hi = Math.min(a1, keyOf(fr(t - valueOf(Math.max(-MAX_KEY, b0 - 1)))) + 1);
  if (lo > hi) return;
  const near = Math.max(lo, Math.min(hi, prefA));
  const tries = new Set<number>([lo, hi, Math.floor((lo + hi) / 2)]);
  for (let d = 0; d <= 16; d++) for (const a of [near - d, near + d]) if (a >= lo && a <= hi) tries.add(a);
  for (const a of [...tries].sort((x, y) => Math.abs(x - prefA) - Math.abs(y - prefA) || x - y)) {
    const b = solveFor((b) => middle(valueOf(a), valueOf(b)), c, b0, b1, prefB);
    if (b !== null) yield [a, b];
  }
}

/** The key in [k0, k1] nearest `pref` with f(key) = target (Object.is), f monotone non-decreasing; or null. */
function solveFor(f: (k: number) => number, target: number, k0: number, k1: number, pref: number): number | null {
  // First key with f ≥ target, and last with f ≤ target.
  let a = k0, b = k1 + 1;
  while (a < b) {
    const m = Math.floor((a + b) / 2);
    if (f(m) >= target) b = m;
    else a = m + 1;
  }
  if (a > k1 || !Object.is(f(a), target)) return null;
  let lo2 = a, hi2 = k1;
  while (lo2 < hi2) {
    const m = Math.ceil((lo2 + hi2) / 2);
    if (f(m) <= target) lo2 = m;
    else hi2 = m - 1;
  }
  return Math.max(a, Math.min(lo2, pref));
}

/** World positions of one part on its own (see WorldSolver), or why there are none. */
export function worldPositions(local: Float32Array, centre: Vec3): Float32Array | string {
  const s = partSpans(local, centre);
  if (typeof s === 'string') return s;
  const solver = new WorldSolver();
  solver.add(s);
  const [r] = solver.solve();
  return r.why ?? r.world;
}

/**
 * Values to write under a node translated by t so the importer (f32 of t + x, src/import/gltf.ts) gives `world` back,
 * or null when some vertex cannot be written that way (then the node goes at the origin with world values).
 */
export function relativeTo(world: Float32Array, t: Vec3): Float32Array | null {
  const out = new Float32Array(world.length);
  for (let i = 0; i < world.length; i++) {
    // An axis the node does not move is taken as written (src/import/gltf.ts untransformedAxes): −0.0 stays.
    if (t[i % 3] === 0) {
      out[i] = world[i];
      continue;
    }
    const x = fr(world[i] - t[i % 3]);
    if (!Object.is(fr(x + t[i % 3]), world[i]) && !(x === 0 && world[i] === 0)) return null;
    out[i] = x;
  }
  return out;
}

/** A stored shape's topology and edge data, for the seams' repair (WorldSolver.solve). */
export interface SeamShape {
  cornerVertices: Uint16Array;
  edgeValues: Float32Array;
  concaveBits: Uint8Array;
  flatBits: Uint8Array;
}

/** Newell's unit normal and centroid of the face (p, q, r) relative to o, as assembly/seams.ts faceOf computes them. */
function faceOf(p: number[], q: number[], r: number[], o: number[], out: Float64Array): void {
  const px = p[0] - o[0], py = p[1] - o[1], pz = p[2] - o[2];
  const qx = q[0] - o[0], qy = q[1] - o[1], qz = q[2] - o[2];
  const rx = r[0] - o[0], ry = r[1] - o[1], rz = r[2] - o[2];
  let nx = 0, ny = 0, nz = 0;
  nx += (py - qy) * (pz + qz); ny += (pz - qz) * (px + qx); nz += (px - qx) * (py + qy);
  nx += (qy - ry) * (qz + rz); ny += (qz - rz) * (qx + rx); nz += (qx - rx) * (qy + ry);
  nx += (ry - py) * (rz + pz); ny += (rz - pz) * (rx + px); nz += (rx - px) * (ry + py);
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (len > 0) { out[0] = nx / len; out[1] = ny / len; out[2] = nz / len; }
  else out[0] = out[1] = out[2] = 0;
  out[3] = (px + qx + rx) / 3; out[4] = (py + qy + ry) / 3; out[5] = (pz + qz + rz) / 3;
}

const F = new Float64Array(6), G = new Float64Array(6);
/**
 * The level-wide codes of the pair (c: a → b, third t; o: b → a, third u), as assembly/seams.ts classify gives them
 * (origin a), or null when a face has no normal (both stay open).
 */
export function seamCodes(a: number[], b: number[], t: number[], u: number[]): [number, number] | null {
  faceOf(a, b, t, a, F);
  faceOf(b, a, u, a, G);
  const [fx, fy, fz, fcx, fcy, fcz] = F, [gx, gy, gz, gcx, gcy, gcz] = G;
  if ((fx === 0 && fy === 0 && fz === 0) || (gx === 0 && gy === 0 && gz === 0)) return null;
  const dot = fx * gx + fy * gy + fz * gz;
  if (dot >= FLAT_COS) return [SEAM_FLAT, SEAM_FLAT];
  const d = dot < -1 ? -1 : dot;
  const bx = b[0] - a[0], by = b[1] - a[1], bz = b[2] - a[2];
  const aboveC = gcx * fx + gcy * fy + gcz * fz >= 0;
  const aboveO = (fcx - bx) * gx + (fcy - by) * gy + (fcz - bz) * gz >= 0;
  const value = !aboveC || !aboveO ? fr(convexValueFast(d)) : 1;
  return [aboveC ? (d > 0 ? SEAM_CONCAVE : SEAM_SHARP) : value, aboveO ? (d > 0 ? SEAM_CONCAVE : SEAM_SHARP) : value];
}

/** Whether the code's stored edge data (value and bits) is what shape s holds at corner c. */
function storedAs(s: SeamShape, c: number, code: number): boolean {
  const bit = (bits: Uint8Array, k: number): number => (bits[k >> 3] >> (k & 7)) & 1;
  const value = code >= 0 ? code : 1;
  return Object.is(s.edgeValues[c], value) && bit(s.concaveBits, c) === +(code === SEAM_CONCAVE) && bit(s.flatBits, c) === +(code === SEAM_FLAT);
}
