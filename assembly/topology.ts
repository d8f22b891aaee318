// AssemblyScript source of the validation report's topology counts (src/import/validate.ts gives the rules and
// keeps the entry point): over a welded mesh's kept triangles (assembly/weld.ts: distinct, each rotated to start
// at its smallest vertex), the back-to-back pairs and the edges used once, more than twice, or twice in the same
// direction. Counts are exact; with them come the edges (welded vertex pair, from → to as a triangle runs it, and
// that kept triangle) and the back-to-back triangles, every open edge and at most `cap` of each other kind, read
// through topologyOut. Which edges are kept under the cap follows the loops' order (vertex order), which is fixed.

import { alloc, allocZeroed, resetArena } from './arena';
import { boundsOf } from './bounds';
import { i32At } from './at';

/** Buckets (triangles sharing a smallest vertex) up to this size are searched pairwise; larger ones hashed. */
const PAIRWISE_MAX: i32 = 16;

// Results of topology() (read through topologyResult).
let R_REVERSED: i32 = 0;
let R_OPEN: i32 = 0;
let R_NON_MANIFOLD: i32 = 0;
let R_INCONSISTENT: i32 = 0;

export function topologyResult(k: i32): i32 {
  return k == 0 ? R_REVERSED : k == 1 ? R_OPEN : k == 2 ? R_NON_MANIFOLD : R_INCONSISTENT;
}

// Where topology() left its lists (read through topologyOut): open, non-manifold and inconsistent edges as
// (from, to, kept triangle) i32 triples, back-to-back pairs as one kept triangle id each (the one whose second
// corner is below its third).
let O_OPEN: usize = 0;
let O_NON_MANIFOLD: usize = 0;
let O_INCONSISTENT: usize = 0;
let O_REVERSED: usize = 0;
let CAP: i32 = 0;

export function topologyOut(k: i32): usize {
  return k == 0 ? O_REVERSED : k == 1 ? O_OPEN : k == 2 ? O_NON_MANIFOLD : O_INCONSISTENT;
}

@inline function setI32(p: usize, i: i32, v: i32): void {
  store<i32>(p + (<usize>i << 2), v);
}

@inline function nextPow2(n: i32): i32 {
  const m = n < 2 ? 2 : n;
  return <i32>(1 << (32 - clz<u32>(<u32>(m - 1))));
}

/**
 * nt kept triangles (tris: 3 i32 each, first corner the smallest) over nv welded vertices; arena: free memory
 * for the tables. Results through topologyResult.
 */
export function topology(nt: i32, tris: usize, nv: i32, arena: usize, cap: i32): void {
  resetArena(arena);
  CAP = cap;
  N_REVERSED = 0;
  O_REVERSED = alloc(<usize>max(cap, 1) << 2);
  O_NON_MANIFOLD = alloc(<usize>(12 * max(cap, 1)));
  O_INCONSISTENT = alloc(<usize>(12 * max(cap, 1)));
  R_REVERSED = reversedPairs(nt, tris, nv);
  edgeCounts(nt, tris, nv);
}

/**
 * Pairs (a, b, c) and (a, c, b) both kept: triangles grouped by first corner (CSR), then per group each looks
 * for its reversal, pairwise in small groups and through a hash of (b, c) in large ones; each pair is met twice.
 */
function reversedPairs(nt: i32, tris: usize, nv: i32): i32 {
  const start = allocZeroed(<usize>(nv + 1) << 2);
  for (let t = 0; t < nt; t++) {
    const a = i32At(tris, 3 * t);
    setI32(start, a + 1, i32At(start, a + 1) + 1);
  }
  for (let v = 0; v < nv; v++) setI32(start, v + 1, i32At(start, v + 1) + i32At(start, v));
  const fill = alloc(<usize>nv << 2);
  memory.copy(fill, start, <usize>nv << 2);
  const order = alloc(<usize>nt << 2);
  for (let t = 0; t < nt; t++) {
    const a = i32At(tris, 3 * t);
    const k = i32At(fill, a);
    setI32(fill, a, k + 1);
    setI32(order, k, t);
  }
  let meets = 0;
  let table: usize = 0, tableCap = 0;
  for (let v = 0; v < nv; v++) {
    const s0 = i32At(start, v), s1 = i32At(start, v + 1);
    if (s1 - s0 < 2) continue;
    if (s1 - s0 <= PAIRWISE_MAX) {
      for (let i = s0; i < s1; i++) {
        const ti = tris + <usize>(12 * i32At(order, i));
        const b = load<i32>(ti, 4), c = load<i32>(ti, 8);
        for (let j = s0; j < s1; j++) {
          const tj = tris + <usize>(12 * i32At(order, j));
          if (load<i32>(tj, 4) == c && load<i32>(tj, 8) == b) {
            if (b < c) recordReversed(i32At(order, i));
            meets++;
          }
        }
      }
      continue;
    }
    const cap = nextPow2(2 * (s1 - s0));
    if (cap > tableCap) (table = alloc(<usize>cap << 3)), (tableCap = cap);
    meets = hashedMeets(tris, order, s0, s1, table, cap, meets);
  }
  return meets >> 1;
}

/** Back-to-back pairs recorded so far (each pair once: by its triangle whose second corner is below its third). */
let N_REVERSED: i32 = 0;

/** The next back-to-back pair is kept triangle t's, kept while under the cap. */
@inline function recordReversed(t: i32): void {
  if (N_REVERSED < CAP) setI32(O_REVERSED, N_REVERSED, t);
  N_REVERSED++;
}

/** A large group: (b, c) of each triangle into a table of cap (b + 1, c) slots, then each reversal looked up. */
function hashedMeets(tris: usize, order: usize, s0: i32, s1: i32, table: usize, cap: i32, meets: i32): i32 {
  memory.fill(table, 0, <usize>cap << 3);
  const mask = <u32>(cap - 1);
  for (let i = s0; i < s1; i++) {
    const ti = tris + <usize>(12 * i32At(order, i));
    const b = load<i32>(ti, 4), c = load<i32>(ti, 8);
    let h = slotOf(b, c) & mask;
    while (load<i32>(table + (<usize>h << 3)) != 0) h = (h + 1) & mask; // kept triangles are distinct: no match
    store<i32>(table + (<usize>h << 3), b + 1);
    store<i32>(table + (<usize>h << 3), c, 4);
  }
  for (let i = s0; i < s1; i++) {
    const ti = tris + <usize>(12 * i32At(order, i));
    const b = load<i32>(ti, 4), c = load<i32>(ti, 8);
    let h = slotOf(c, b) & mask;
    for (;;) {
      const o = table + (<usize>h << 3);
      const k = load<i32>(o);
      if (k == 0) break;
      if (k == c + 1 && load<i32>(o, 4) == b) {
        if (b < c) recordReversed(i32At(order, i));
        meets++;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return meets;
}

@inline function slotOf(b: i32, c: i32): u32 {
  let h = (<u32>b ^ 0x9e3779b9) * 0x85ebca6b;
  h = (h ^ (h >> 13) ^ <u32>c) * 0xc2b2ae35;
  return h ^ (h >> 16);
}

/**
 * Undirected edges grouped by their smaller vertex (CSR of half-edges: the other vertex · 2 + 1 when the
 * half-edge runs from the smaller one), then within a vertex's list grouped by the other vertex with a mark array.
 */
function edgeCounts(nt: i32, tris: usize, nv: i32): void {
  const h = 3 * nt;
  const start = allocZeroed(<usize>(nv + 1) << 2);
  for (let t = 0; t < nt; t++) {
    const p = tris + <usize>(12 * t);
    const a = load<i32>(p), b = load<i32>(p, 4), c = load<i32>(p, 8);
    const ab = min(a, b) + 1, bc = min(b, c) + 1, ca = min(c, a) + 1;
    setI32(start, ab, i32At(start, ab) + 1);
    setI32(start, bc, i32At(start, bc) + 1);
    setI32(start, ca, i32At(start, ca) + 1);
  }
  for (let v = 0; v < nv; v++) setI32(start, v + 1, i32At(start, v + 1) + i32At(start, v));
  const fill = alloc(<usize>nv << 2);
  memory.copy(fill, start, <usize>nv << 2);
  const half = alloc(<usize>h << 2);
  const halfTri = alloc(<usize>h << 2);
  for (let t = 0; t < nt; t++) {
    const p = tris + <usize>(12 * t);
    const a = load<i32>(p), b = load<i32>(p, 4), c = load<i32>(p, 8);
    placeHalfEdge(fill, half, halfTri, a, b, t);
    placeHalfEdge(fill, half, halfTri, b, c, t);
    placeHalfEdge(fill, half, halfTri, c, a, t);
  }
  const mark = alloc(<usize>nv << 2);
  memory.fill(mark, 0xff, <usize>nv << 2);
  const slot = alloc(<usize>nv << 2);
  // Per distinct edge of the current vertex: its uses, its uses running from v, the other vertex and the first
  // use's triangle and direction (four i32).
  let maxRun = 0;
  for (let v = 0; v < nv; v++) maxRun = max(maxRun, i32At(start, v + 1) - i32At(start, v));
  const tally = alloc(<usize>max(maxRun, 1) << 4);
  // Open edges: at most one per half-edge; the list is taken after the tables, so only what is written is touched.
  O_OPEN = alloc(<usize>(12 * max(h, 1)));
  let open = 0, nonManifold = 0, inconsistent = 0;
  for (let v = 0; v < nv; v++) {
    const s0 = i32At(start, v), s1 = i32At(start, v + 1);
    let n = 0;
    for (let k = s0; k < s1; k++) {
      const e = i32At(half, k);
      const o = e >> 1;
      if (i32At(mark, o) != v) {
        setI32(mark, o, v);
        setI32(slot, o, n);
        const np = tally + (<usize>n << 4);
        store<i64>(np, 0);
        store<i32>(np, e, 8);
        store<i32>(np, i32At(halfTri, k), 12);
        n++;
      }
      const tp = tally + (<usize>i32At(slot, o) << 4);
      store<i32>(tp, load<i32>(tp) + 1);
      store<i32>(tp, load<i32>(tp, 4) + (e & 1), 4);
    }
    for (let k = 0; k < n; k++) {
      const tp = tally + (<usize>k << 4);
      const uses = load<i32>(tp), forward = load<i32>(tp, 4);
      if (uses == 1) recordEdge(O_OPEN, open++, v, load<i32>(tp, 8), load<i32>(tp, 12));
      else if (uses > 2) {
        if (nonManifold < CAP) recordEdge(O_NON_MANIFOLD, nonManifold, v, load<i32>(tp, 8), load<i32>(tp, 12));
        nonManifold++;
      } else if (forward != 1) {
        if (inconsistent < CAP) recordEdge(O_INCONSISTENT, inconsistent, v, load<i32>(tp, 8), load<i32>(tp, 12));
        inconsistent++;
      }
    }
  }
  R_OPEN = open;
  R_NON_MANIFOLD = nonManifold;
  R_INCONSISTENT = inconsistent;
}

/** The half-edge from → to of kept triangle t, in its smaller vertex's list. */
@inline function placeHalfEdge(fill: usize, half: usize, halfTri: usize, from: i32, to: i32, t: i32): void {
  const lo = min(from, to);
  const k = i32At(fill, lo);
  setI32(fill, lo, k + 1);
  setI32(half, k, from < to ? (to << 1) | 1 : (from << 1));
  setI32(halfTri, k, t);
}

/** Entry k of an edge list: the edge of v and (e >> 1) as its triangle t runs it (e & 1: from v). */
@inline function recordEdge(list: usize, k: i32, v: i32, e: i32, t: i32): void {
  const p = list + <usize>(12 * k);
  const o = e >> 1;
  store<i32>(p, e & 1 ? v : o);
  store<i32>(p, e & 1 ? o : v, 4);
  store<i32>(p, t, 8);
}

// Extents of the last groupExtent() call (read through extentResult).
let E_X: f64 = 0;
let E_Y: f64 = 0;
let E_Z: f64 = 0;

export function extentResult(k: i32): f64 {
  return k == 0 ? E_X : k == 1 ? E_Y : E_Z;
}

/**
 * The bounding box extents (max − min per axis, f64 over f32 positions) of the vertices used by indices [from, to)
 * (u32 each, over pos: 3 f32 per vertex). The same comparisons as validate.ts's density measure had in JavaScript.
 */
export function groupExtent(pos: usize, indices: usize, from: i32, to: i32): void {
  boundsOf(pos, indices, from, to, BOX);
  E_X = load<f64>(BOX, 24) - load<f64>(BOX);
  E_Y = load<f64>(BOX, 32) - load<f64>(BOX, 8);
  E_Z = load<f64>(BOX, 40) - load<f64>(BOX, 16);
}

/** groupExtent's box (6 f64, static). */
const BOX: usize = memory.data(48, 8);
