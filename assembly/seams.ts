// AssemblyScript source of the level-wide edge data (src/geometry/seams.ts gives the rule and keeps the entry
// point; ../shared/spec/physics-resource.md, "Triangle-mesh shapes"; docs/format-decisions.md, "Seams"). Over every
// collision triangle of a level, before any cut into parts, shapes, resources or cells: an exact-position weld
// (−0.0 = 0.0), then the shape rule's pairing (a corner's edge a→b pairs when a→b and b→a are each held by exactly
// one corner of the level) and its classification, written per input corner as one f32 code (SEAM_* below, or the
// convex value). The per-shape step (edges.ts) takes a code only for a corner its own shape leaves unpaired.

import { alloc, allocZeroed, resetArena } from './arena';
import { convexValueFast, SEAM_CONCAVE, SEAM_FLAT, SEAM_NONE, SEAM_SHARP } from './edges';
import { keyOf, mix3, nextPow2, notFinite, u32At } from './weld';
// (the weld's own key, hash and finiteness rules: the level-wide weld must weld exactly as each shape's does)

/** Vertices with more corners than this pair on sorted lists (as edges.ts HUB_VALENCE). */
const HUB_VALENCE: i32 = 32;

// Results of seams() (read through seamsResult).
let R_OPEN: i32 = 0;
let R_PAIRS: i32 = 0;
let R_DEGENERATE: i32 = 0;
/** −1, or the first corner whose index is not below its group's vertex count. */
let R_BAD_CORNER: i32 = -1;

export function seamsResult(k: i32): i32 {
  return k == 0 ? R_OPEN : k == 1 ? R_PAIRS : k == 2 ? R_DEGENERATE : R_BAD_CORNER;
}


@inline function i32At(p: usize, i: i32): i32 {
  return load<i32>(p + (<usize>i << 2));
}

@inline function prevCorner(c: i32): i32 {
  return c % 3 == 0 ? c + 2 : c - 1;
}

@inline function nextCorner(c: i32): i32 {
  return c % 3 == 2 ? c - 2 : c + 1;
}

/**
 * The level's codes. In: bits (the f32 bit patterns of all nv vertices, 3 u32 each, objects one after another),
 * indices (3 u32 per triangle, nt triangles, each group's indices into its own object's vertices; rewritten here
 * to welded ids), groups (ng records of 4 u32: end triangle, first vertex, vertex count, material word). Out: codes
 * (3 f32 per triangle). Only pairs the build can cut apart are classified (cuttable; the others keep SEAM_NONE, as
 * their shape pairs them itself): cellSize (metres, 0: no cells) and maxFaces (the encoder's u16 split) say where
 * it cuts. arena: free memory for the tables. Counts through seamsResult.
 */
export function seams(nv: i32, bits: usize, nt: i32, indices: usize, ng: i32, groups: usize, codes: usize, arena: usize, flatCos: f64, cellSize: f64, maxFaces: i32): void {
  resetArena(arena);
  FLAT_COS = flatCos;
  R_OPEN = 0; R_PAIRS = 0; R_DEGENERATE = 0; R_BAD_CORNER = -1;
  const nc = 3 * nt;
  for (let c = 0; c < nc; c += CHUNK) fillCodes(codes, c, min(nc, c + CHUNK));
  // Global vertex numbers, checked against each group's object.
  let t0 = 0;
  for (let g = 0; g < ng; g++) {
    const rec = groups + <usize>(16 * g);
    const end = <i32>load<u32>(rec), base = load<u32>(rec, 4), count = load<u32>(rec, 8);
    for (let c = 3 * t0; c < 3 * end; c += CHUNK) {
      const bad = rebase(indices, c, min(3 * end, c + CHUNK), base, count);
      if (bad >= 0) { R_BAD_CORNER = bad; return; }
    }
    t0 = end;
  }
  const cut = cuttable(nt, bits, indices, ng, groups, cellSize, maxFaces);
  const pos = alloc(<usize>(12 * nv)), remap = alloc(<usize>nv << 2);
  const nw = weldAll(nv, bits, pos, remap);
  for (let c = 0; c < nc; c += CHUNK) remapCorners(indices, remap, c, min(nc, c + CHUNK));
  // Degenerate triangles (a repeated welded vertex, no f64 cross product, a non-finite vertex) take no part.
  const live = allocZeroed(<usize>nt);
  for (let t = 0; t < nt; t += CHUNK) R_DEGENERATE += markLive(indices, pos, live, t, min(nt, t + CHUNK));
  // Vertex → corner CSR (edges.ts's pairing, u32 vertices; each slot's next and previous vertex read from indices).
  const start = allocZeroed(<usize>(nw + 1) << 2);
  for (let t = 0; t < nt; t += CHUNK) countCorners(indices, live, start, t, min(nt, t + CHUNK));
  for (let v = 0; v < nw; v++) {
    const sp = start + (<usize>v << 2);
    store<u32>(sp, load<u32>(sp, 4) + load<u32>(sp), 4);
  }
  const total = <i32>u32At(start, nw);
  const fill = alloc(<usize>nw << 2);
  memory.copy(fill, start, <usize>nw << 2);
  const ids = alloc(<usize>total << 2);
  for (let c = 0; c < nc; c += CHUNK) fillCorners(indices, live, fill, ids, c, min(nc, c + CHUNK));
  const twin = allocZeroed(<usize>nc << 2);
  const group = alloc(<usize>nt << 2);
  t0 = 0;
  for (let g = 0; g < ng; g++) {
    const end = <i32>load<u32>(groups + <usize>(16 * g));
    for (let t = t0; t < end; t++) store<u32>(group + (<usize>t << 2), <u32>g);
    t0 = end;
  }
  pairAll(nw, start, ids, indices, twin, group, live);
  // Codes for the pairs a cut may separate; a repeat's corner (twin not mutual) classified on its own.
  let open = 0;
  for (let c = 0; c < nc; c += CHUNK) open += classifyRange(pos, indices, twin, live, cut, codes, c, min(nc, c + CHUNK));
  R_OPEN = open;
}

/**
 * Loops run in calls of this many items. The pass is one call from JavaScript, and V8 runs a wasm function's
 * first calls in its baseline compiler (Liftoff) until the optimised code is ready, which a call in progress never
 * switches to: one long loop ran entirely in baseline code (~100 ms more of CPU on the 1M bench level).
 */
const CHUNK: i32 = 16384;

function fillCodes(codes: usize, from: i32, to: i32): void {
  for (let c = from; c < to; c++) store<f32>(codes + (<usize>c << 2), SEAM_NONE);
}

/** Corner indices [from, to) rebased by `base`; the first one not below `count`, or −1. */
function rebase(indices: usize, from: i32, to: i32, base: u32, count: u32): i32 {
  for (let c = from; c < to; c++) {
    const p = indices + (<usize>c << 2);
    const v = load<u32>(p);
    if (v >= count) return c;
    store<u32>(p, v + base);
  }
  return -1;
}

function remapCorners(indices: usize, remap: usize, from: i32, to: i32): void {
  for (let c = from; c < to; c++) {
    const p = indices + (<usize>c << 2);
    store<u32>(p, load<u32>(remap + (<usize>load<u32>(p) << 2)));
  }
}

/** Flags triangles [from, to) that are level faces LIVE; returns how many are not. */
function markLive(indices: usize, pos: usize, live: usize, from: i32, to: i32): i32 {
  let degenerate = 0;
  for (let t = from; t < to; t++) {
    const p = indices + <usize>(12 * t);
    const a = load<u32>(p), b = load<u32>(p, 4), c = load<u32>(p, 8);
    if (a == b || b == c || a == c || !hasArea(pos, a, b, c)) { degenerate++; continue; }
    store<u8>(live + <usize>t, LIVE);
  }
  return degenerate;
}

function countCorners(indices: usize, live: usize, start: usize, from: i32, to: i32): void {
  for (let t = from; t < to; t++) {
    if (load<u8>(live + <usize>t) == 0) continue;
    for (let k = 0; k < 3; k++) {
      const sp = start + (<usize>(u32At(indices, 3 * t + k) + 1) << 2);
      store<u32>(sp, load<u32>(sp) + 1);
    }
  }
}

function fillCorners(indices: usize, live: usize, fill: usize, ids: usize, from: i32, to: i32): void {
  for (let c = from; c < to; c++) {
    if (load<u8>(live + <usize>(c / 3)) == 0) continue;
    const fp = fill + (<usize>u32At(indices, c) << 2);
    const k = load<u32>(fp);
    store<u32>(fp, k + 1);
    store<u32>(ids + (<usize>k << 2), <u32>c);
  }
}

/** Codes of corners [from, to) whose pair a cut may separate; returns the open corners among them. */
function classifyRange(pos: usize, indices: usize, twin: usize, live: usize, cut: usize, codes: usize, from: i32, to: i32): i32 {
  let open = 0;
  for (let c = from; c < to; c++) {
    const o = i32At(twin, c) - 1;
    if (o < 0) {
      if (load<u8>(live + <usize>(c / 3)) == LIVE) open++;
      continue;
    }
    if (o < c && i32At(twin, o) == c + 1) continue;
    R_PAIRS++;
    if (cutApart(cut, c / 3, o / 3)) classify(pos, indices, c, o, codes);
  }
  return open;
}

/** Per-triangle flags (live): a level face; a level face that repeats an earlier one of its group. */
const LIVE: u8 = 1;
const REPEAT: u8 = 3;

/** A piece key's flag: its shape may be split at the u16 limit (so any of its pairs may be cut). */
const SPLIT_BIT: u32 = 0x80000000;

/**
 * Where the build cuts, as one key per triangle (u32): triangles with different keys may end in different shapes,
 * and a key with SPLIT_BIT set may itself be split. Without cells (cellSize 0) the key is the group (an object's
 * material: one part, split past maxFaces triangles). With cells, it numbers the (group, cell) pairs (cell as
 * src/tiling/cells.ts: floor of the f64 centroid of the f32 corners over cellSize, x and z), and the split test is
 * on the cell's part for that material (a cell merges objects): more than maxFaces triangles.
 */
function cuttable(nt: i32, bits: usize, indices: usize, ng: i32, groups: usize, cellSize: f64, maxFaces: i32): usize {
  const key = alloc(<usize>nt << 2);
  if (cellSize <= 0) {
    let t0 = 0;
    for (let g = 0; g < ng; g++) {
      const end = <i32>load<u32>(groups + <usize>(16 * g));
      const k = <u32>g | (end - t0 > maxFaces ? SPLIT_BIT : 0);
      for (let t = t0; t < end; t++) store<u32>(key + (<usize>t << 2), k);
      t0 = end;
    }
    return key;
  }
  // Pieces (group, cell x, cell z) and parts (material, cell x, cell z), each numbered in a table of 16-byte slots
  // (a, x, z, id + 1); a piece's part and a part's triangle count alongside. Runs of triangles mostly share a piece.
  const cap = nextPow2(2 * min(nt, KEYS_MAX)), mask = <u32>(cap - 1);
  const pieces = allocZeroed(<usize>cap << 4), parts = allocZeroed(<usize>cap << 4);
  const partOf = alloc(<usize>cap << 2), count = allocZeroed(<usize>cap << 2);
  K_PIECES = 0; K_PARTS = 0; K_G = -1; K_X = 0; K_Z = 0; K_KEY = 0;
  let t0 = 0;
  for (let g = 0; g < ng; g++) {
    const rec = groups + <usize>(16 * g);
    const end = <i32>load<u32>(rec), material = load<u32>(rec, 12);
    for (let t = t0; t < end; t += CHUNK) {
      if (!keyRange(bits, indices, key, g, material, t, min(end, t + CHUNK), cellSize, pieces, parts, partOf, count, mask, cap)) return everything(key, nt);
    }
    t0 = end;
  }
  for (let t = 0; t < nt; t++) {
    const kp = key + (<usize>t << 2);
    const k = load<u32>(kp);
    if (<i32>load<u32>(count + (<usize>load<u32>(partOf + (<usize>k << 2)) << 2)) > maxFaces) store<u32>(kp, k | SPLIT_BIT);
  }
  return key;
}

// cuttable's numbering so far (keyRange): pieces and parts numbered, the last triangle's group, cell and key.
let K_PIECES: i32 = 0;
let K_PARTS: i32 = 0;
let K_G: i32 = -1;
let K_X: i32 = 0;
let K_Z: i32 = 0;
let K_KEY: u32 = 0;

/** cuttable's keys for triangles [from, to) of group g; false when the tables are full (more than KEYS_MAX). */
function keyRange(bits: usize, indices: usize, key: usize, g: i32, material: u32, from: i32, to: i32, cellSize: f64, pieces: usize, parts: usize, partOf: usize, count: usize, mask: u32, cap: i32): bool {
  for (let t = from; t < to; t++) {
    const ip = indices + <usize>(12 * t);
    const a = bits + <usize>(12 * load<u32>(ip)), b = bits + <usize>(12 * load<u32>(ip, 4)), c = bits + <usize>(12 * load<u32>(ip, 8));
    const x = cellOf(<f64>load<f32>(a) + <f64>load<f32>(b) + <f64>load<f32>(c), cellSize);
    const z = cellOf(<f64>load<f32>(a, 8) + <f64>load<f32>(b, 8) + <f64>load<f32>(c, 8), cellSize);
    if (g != K_G || x != K_X || z != K_Z) {
      if (K_PIECES >= cap - 1 || K_PARTS >= cap - 1) return false;
      const before = K_PIECES;
      K_KEY = numbered(pieces, mask, <u32>g, x, z, K_PIECES);
      if (<i32>K_KEY == before) {
        K_PIECES++;
        const part = numbered(parts, mask, material, x, z, K_PARTS);
        if (<i32>part == K_PARTS) K_PARTS++;
        store<u32>(partOf + (<usize>K_KEY << 2), part);
      }
      K_G = g; K_X = x; K_Z = z;
    }
    store<u32>(key + (<usize>t << 2), K_KEY);
    const cp = count + (<usize>load<u32>(partOf + (<usize>K_KEY << 2)) << 2);
    store<u32>(cp, load<u32>(cp) + 1);
  }
  return true;
}

/** Keys (pieces, parts) numbered by cuttable at most; past it every pair is classified (never wrong, slower). */
const KEYS_MAX: i32 = 1 << 16;

/** Every triangle its own splittable key: every pair classified. */
function everything(key: usize, nt: i32): usize {
  for (let t = 0; t < nt; t++) store<u32>(key + (<usize>t << 2), SPLIT_BIT);
  return key;
}

/** The number of (a, x, z) in the table (slots: a, x, z, id + 1), given number `next` when new. */
function numbered(table: usize, mask: u32, a: u32, x: i32, z: i32, next: i32): u32 {
  let h = mix3(a, <u32>x, <u32>z) & mask;
  for (;;) {
    const sp = table + (<usize>h << 4);
    const id = load<u32>(sp, 12);
    if (id == 0) {
      store<u32>(sp, a); store<i32>(sp, x, 4); store<i32>(sp, z, 8); store<u32>(sp, <u32>next + 1, 12);
      return <u32>next;
    }
    if (load<u32>(sp) == a && load<i32>(sp, 4) == x && load<i32>(sp, 8) == z) return id - 1;
    h = (h + 1) & mask;
  }
  return 0; // not reached: the table always has a free slot (cuttable stops before it fills)
}

/** The cell index of a centroid coordinate sum (cells.ts centroidCell), clamped into i32 (the plan refuses those). */
@inline function cellOf(sum: f64, cellSize: f64): i32 {
  const v = Math.floor(sum / 3 / cellSize);
  return v >= 2147483647 ? 2147483647 : v <= -2147483648 ? -2147483648 : v != v ? 0 : <i32>v;
}

/** Whether triangles t and u may end in different shapes (so their pair needs the level's edge data). */
@inline function cutApart(key: usize, t: i32, u: i32): bool {
  const k = u32At(key, t);
  return k != u32At(key, u) || (k & SPLIT_BIT) != 0;
}

/** remap[i] = welded id of input vertex i (numbered in vertex order); the welded values (first one's bits) to pos. */
function weldAll(nv: i32, bits: usize, pos: usize, remap: usize): i32 {
  const cap = nextPow2(2 * nv), mask = <u32>(cap - 1);
  const table = allocZeroed(<usize>cap << 2);
  let count = 0;
  for (let i = 0; i < nv; i += CHUNK) count = weldRange(bits, pos, remap, table, mask, i, min(nv, i + CHUNK), count);
  return count;
}

/** weldAll over vertices [from, to), `count` welded so far; returns the count after them. */
function weldRange(bits: usize, pos: usize, remap: usize, table: usize, mask: u32, from: i32, to: i32, count: i32): i32 {
  for (let i = from; i < to; i++) {
    const vp = bits + <usize>(12 * i);
    const bx = load<u32>(vp), by = load<u32>(vp, 4), bz = load<u32>(vp, 8);
    const kx = keyOf(bx), ky = keyOf(by), kz = keyOf(bz);
    let h = mix3(kx, ky, kz) & mask;
    for (;;) {
      const sp = table + (<usize>h << 2);
      const w = load<i32>(sp);
      if (w == 0) {
        store<i32>(sp, count + 1);
        const o = pos + <usize>(12 * count);
        store<u32>(o, bx); store<u32>(o, by, 4); store<u32>(o, bz, 8);
        store<i32>(remap + (<usize>i << 2), count++);
        break;
      }
      const o = pos + <usize>(12 * (w - 1));
      if (keyOf(load<u32>(o)) == kx && keyOf(load<u32>(o, 4)) == ky && keyOf(load<u32>(o, 8)) == kz) {
        store<i32>(remap + (<usize>i << 2), w - 1);
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return count;
}

/** Whether the welded triangle (a, b, c) has finite vertices and a non-zero f64 cross product (the weld's rule). */
function hasArea(pos: usize, a: u32, b: u32, c: u32): bool {
  const pa = pos + <usize>(12 * a), pb = pos + <usize>(12 * b), pc = pos + <usize>(12 * c);
  if (notFinite(load<u32>(pa)) || notFinite(load<u32>(pa, 4)) || notFinite(load<u32>(pa, 8))) return false;
  if (notFinite(load<u32>(pb)) || notFinite(load<u32>(pb, 4)) || notFinite(load<u32>(pb, 8))) return false;
  if (notFinite(load<u32>(pc)) || notFinite(load<u32>(pc, 4)) || notFinite(load<u32>(pc, 8))) return false;
  const ax = <f64>load<f32>(pa), ay = <f64>load<f32>(pa, 4), az = <f64>load<f32>(pa, 8);
  const ux = <f64>load<f32>(pb) - ax, uy = <f64>load<f32>(pb, 4) - ay, uz = <f64>load<f32>(pb, 8) - az;
  const vx = <f64>load<f32>(pc) - ax, vy = <f64>load<f32>(pc, 4) - ay, vz = <f64>load<f32>(pc, 8) - az;
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  return cx * cx + cy * cy + cz * cz != 0;
}

/** In-place heapsort of u64 run [s, e) (distinct values: any correct sort gives the same order). */
function sortRun(p: usize, s: i32, e: i32): void {
  const n = e - s;
  const base = p + (<usize>s << 3);
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(base, i, n);
  for (let end = n - 1; end > 0; end--) {
    const t = load<u64>(base);
    store<u64>(base, load<u64>(base + (<usize>end << 3)));
    store<u64>(base + (<usize>end << 3), t);
    siftDown(base, 0, end);
  }
}

function siftDown(base: usize, i: i32, n: i32): void {
  const x = load<u64>(base + (<usize>i << 3));
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && load<u64>(base + (<usize>(c + 1) << 3)) > load<u64>(base + (<usize>c << 3))) c++;
    const y = load<u64>(base + (<usize>c << 3));
    if (y <= x) break;
    store<u64>(base + (<usize>i << 3), y);
    i = c;
  }
  store<u64>(base + (<usize>i << 3), x);
}

/** First index in sorted u64 run [s, e) whose vertex (high word) is ≥ b. */
function lowerBound(list: usize, s: i32, e: i32, b: u32): i32 {
  const key = <u64>b << 32;
  while (s < e) {
    const m = (s + e) >> 1;
    if (load<u64>(list + (<usize>m << 3)) < key) s = m + 1;
    else e = m;
  }
  return s;
}

@inline function vertexAt(list: usize, i: i32): u32 {
  return <u32>(load<u64>(list + (<usize>i << 3)) >> 32);
}

@inline function cornerAt(list: usize, i: i32): i32 {
  return <i32>(<u32>load<u64>(list + (<usize>i << 3)));
}

/** Position of vertex b in sorted run [s, e) when it is there exactly once, else −1. */
function onceIn(list: usize, s: i32, e: i32, b: u32): i32 {
  const i = lowerBound(list, s, e, b);
  if (i >= e || vertexAt(list, i) != b) return -1;
  return i + 1 < e && vertexAt(list, i + 1) == b ? -1 : i;
}

/**
 * twin[c] = 1 + the corner across c's edge a→b, else 0, each undirected edge looked at once in its smaller vertex's
 * run (outgoing edges by next, incoming by previous). An edge held once each way pairs (the common case, inline).
 * Any other edge goes to resolveEdge: its own group (object material) first — what that group's uncut shape
 * pairs, repeats of one triangle counted once, as the encoder drops them — then the level. A run longer than
 * HUB_VALENCE (a fan's hub) is read from sorted lists, so a hub costs O(v log v), not O(v²).
 */
function pairAll(nw: i32, start: usize, ids: usize, tri: usize, twin: usize, group: usize, flags: usize): void {
  HUB_ROOM = 0;
  let most = 0;
  for (let a = 0; a < nw; a++) most = max(most, i32At(start, a + 1) - i32At(start, a));
  const lo = alloc(<usize>(4 * min(most, EDGE_FACES_MAX + 1))), li = alloc(<usize>(4 * min(most, EDGE_FACES_MAX + 1)));
  for (let a = 0; a < nw; a += CHUNK) pairRange(<u32>a, <u32>min(nw, a + CHUNK), start, ids, tri, twin, group, flags, lo, li);
}

/** Hub lists (pairRange): their room in entries, and where they are. */
let HUB_ROOM: i32 = 0;
let HUB_OUTS: usize = 0;
let HUB_INS: usize = 0;

/** pairAll for vertices [from, to). */
function pairRange(from: u32, to: u32, start: usize, ids: usize, tri: usize, twin: usize, group: usize, flags: usize, lo: usize, li: usize): void {
  for (let a: u32 = from; a < to; a++) {
    const s = i32At(start, a), e = i32At(start, a + 1);
    if (e - s > HUB_VALENCE) {
      if (e - s > HUB_ROOM) { HUB_ROOM = 2 * (e - s); HUB_OUTS = alloc(<usize>HUB_ROOM << 3); HUB_INS = alloc(<usize>HUB_ROOM << 3); }
      const outs = HUB_OUTS, ins = HUB_INS;
      for (let k = s; k < e; k++) {
        const c = <i32>u32At(ids, k);
        store<u64>(outs + (<usize>(k - s) << 3), (<u64>u32At(tri, nextCorner(c)) << 32) | <u64>c);
        store<u64>(ins + (<usize>(k - s) << 3), (<u64>u32At(tri, prevCorner(c)) << 32) | <u64>prevCorner(c));
      }
      pairHub(a, e - s, outs, ins, twin, tri, group, flags, lo, li);
      continue;
    }
    for (let k = s; k < e; k++) {
      const ck = <i32>u32At(ids, k);
      // Edge a→b, b > a, seen from its outgoing side. (Edges held only incoming here are open; a repeated
      // triangle, rotated to start at its smallest vertex, always has an edge seen from this side, which flags it.)
      const b = u32At(tri, nextCorner(ck));
      if (b <= a) continue;
      let nOut = 0, nIn = 0, j = 0;
      for (let q = s; q < e; q++) {
        const cq = <i32>u32At(ids, q);
        if (u32At(tri, nextCorner(cq)) == b) nOut++;
        if (u32At(tri, prevCorner(cq)) == b) { nIn++; j = q; }
      }
      if (nOut == 1 && nIn == 1) {
        const o = prevCorner(<i32>u32At(ids, j));
        if (backToBack(ck, o, tri, group)) continue;
        store<i32>(twin + (<usize>ck << 2), o + 1);
        store<i32>(twin + (<usize>o << 2), ck + 1);
      } else if (nOut + nIn > 1 && firstWith(ids, tri, s, e, b) == k) {
        resolveEdge(true, b, s, e, ids, tri, twin, group, flags, lo, li, 0, 0);
      }
    }
  }
}

/**
 * Corners c and o (holding an edge each way) of two faces of different groups that are each other's reverse (the
 * same three vertices): two objects or parts laid back to back, face to face. Not paired across groups — they
 * stay as each shape writes them (within one group, its own shape's rule pairs them, as today).
 */
@inline function backToBack(c: i32, o: i32, tri: usize, group: usize): bool {
  return u32At(tri, prevCorner(c)) == u32At(tri, prevCorner(o)) && u32At(group, c / 3) != u32At(group, o / 3);
}

/** Most faces on one edge that resolveEdge sorts out; past it the edge stays open (non-manifold beyond doubt). */
const EDGE_FACES_MAX: i32 = 256;

/** The first slot of run [s, e) holding edge a→b (its next vertex is b). */
function firstWith(ids: usize, tri: usize, s: i32, e: i32, b: u32): i32 {
  for (let q = s; q < e; q++) if (u32At(tri, nextCorner(<i32>u32At(ids, q))) == b) return q;
  return -1;
}

/**
 * Edge {a, b} held other than once each way. The corners holding a→b (list lo) and b→a (list li) are gathered
 * from run [s, e) when `gather`, else already in them (nlo, nli: their lengths; pairHub). A corner whose (group, third vertex) repeats an
 * earlier one of its list is a repeated triangle's (flagged REPEAT). A corner then pairs with the first corner of
 * the other list in its own group when its group holds the edge once each way; else, when its group holds it once
 * one way only, with the single corner of the other list when the whole level holds it once each way.
 */
function resolveEdge(gather: bool, b: u32, s: i32, e: i32, ids: usize, tri: usize, twin: usize, group: usize, flags: usize, lo: usize, li: usize, nlo: i32, nli: i32): void {
  if (gather) {
    nlo = 0; nli = 0;
    for (let q = s; q < e; q++) {
      const c = <i32>u32At(ids, q);
      if (u32At(tri, nextCorner(c)) == b) {
        if (nlo >= EDGE_FACES_MAX) return;
        store<i32>(lo + (<usize>nlo << 2), c);
        nlo++;
      }
      if (u32At(tri, prevCorner(c)) == b) {
        if (nli >= EDGE_FACES_MAX) return;
        store<i32>(li + (<usize>nli << 2), prevCorner(c));
        nli++;
      }
    }
  }
  const lOut = distinct(lo, nlo, tri, group, flags), lIn = distinct(li, nli, tri, group, flags);
  match(lo, nlo, li, nli, lOut, lIn, tri, group, flags, twin);
  match(li, nli, lo, nlo, lIn, lOut, tri, group, flags, twin);
}

@inline function groupOf(group: usize, c: i32): u32 {
  return u32At(group, c / 3);
}

@inline function isRepeat(flags: usize, c: i32): bool {
  return load<u8>(flags + <usize>(c / 3)) == REPEAT;
}

/** Flags the repeats in list [0, n) (same group and third vertex as an earlier entry); returns the others' count. */
function distinct(list: usize, n: i32, tri: usize, group: usize, flags: usize): i32 {
  let d = 0;
  for (let i = 0; i < n; i++) {
    const c = i32At(list, i), g = groupOf(group, c), t = u32At(tri, prevCorner(c));
    let seen = false;
    for (let j = 0; j < i && !seen; j++) {
      const o = i32At(list, j);
      seen = groupOf(group, o) == g && u32At(tri, prevCorner(o)) == t;
    }
    if (seen) store<u8>(flags + <usize>(c / 3), REPEAT);
    else d++;
  }
  return d;
}

/** Each corner of `mine` paired with one of `other` by resolveEdge's rule (lMine, lOther: the lists' distinct counts). */
function match(mine: usize, nm: i32, other: usize, no: i32, lMine: i32, lOther: i32, tri: usize, group: usize, flags: usize, twin: usize): void {
  for (let i = 0; i < nm; i++) {
    const c = i32At(mine, i), g = groupOf(group, c);
    let gm = 0, go = 0, first = -1, any = -1;
    for (let j = 0; j < nm; j++) { const x = i32At(mine, j); if (!isRepeat(flags, x) && groupOf(group, x) == g) gm++; }
    for (let j = 0; j < no; j++) {
      const x = i32At(other, j);
      if (isRepeat(flags, x)) continue;
      if (any < 0) any = x;
      if (groupOf(group, x) == g) { go++; if (first < 0) first = x; }
    }
    let o = -1;
    if (gm == 1 && go == 1) o = first;
    else if (gm == 1 && go == 0 && lMine == 1 && lOther == 1 && !backToBack(c, any, tri, group)) o = any;
    store<i32>(twin + (<usize>c << 2), o + 1);
  }
}

/**
 * pairAll on a hub's n corners: outgoing (next << 32 | corner) and incoming (previous << 32 | corner before) lists,
 * sorted, so each edge's corners are one stretch of each list; edges other than once each way go to resolveEdge.
 */
function pairHub(a: u32, n: i32, outs: usize, ins: usize, twin: usize, tri: usize, group: usize, flags: usize, lo: usize, li: usize): void {
  sortRun(outs, 0, n);
  sortRun(ins, 0, n);
  let i = 0, j = 0;
  // Merge the two sorted lists by vertex: each b > a once.
  while (i < n || j < n) {
    const bo = i < n ? vertexAt(outs, i) : 0xffffffff, bi = j < n ? vertexAt(ins, j) : 0xffffffff;
    const b = bo < bi ? bo : bi;
    let i1 = i, j1 = j;
    while (i1 < n && vertexAt(outs, i1) == b) i1++;
    while (j1 < n && vertexAt(ins, j1) == b) j1++;
    if (b > a) {
      const nOut = i1 - i, nIn = j1 - j;
      if (nOut == 1 && nIn == 1) {
        const c = cornerAt(outs, i), o = cornerAt(ins, j);
        if (!backToBack(c, o, tri, group)) {
          store<i32>(twin + (<usize>c << 2), o + 1);
          store<i32>(twin + (<usize>o << 2), c + 1);
        }
      } else if (nOut > 0 && nOut + nIn > 1 && nOut <= EDGE_FACES_MAX && nIn <= EDGE_FACES_MAX) {
        // Sorted by (vertex, corner): the corners in input order, as the run scan gathers them.
        for (let k = 0; k < nOut; k++) store<i32>(lo + (<usize>k << 2), cornerAt(outs, i + k));
        for (let k = 0; k < nIn; k++) store<i32>(li + (<usize>k << 2), cornerAt(ins, j + k));
        resolveEdge(false, b, 0, 0, 0, tri, twin, group, flags, lo, li, nOut, nIn);
      }
    }
    i = i1; j = j1;
  }
}

// Face data of one pair, relative to the shared vertex a (f64 differences of f32 values are exact).
let NX: f64 = 0, NY: f64 = 0, NZ: f64 = 0, CX: f64 = 0, CY: f64 = 0, CZ: f64 = 0;

/** Newell's unit normal (zero for no length) and centroid of the face holding corner c, relative to (ox, oy, oz). */
function faceOf(pos: usize, indices: usize, c: i32, ox: f64, oy: f64, oz: f64): void {
  const f = c - c % 3;
  const p = pos + <usize>(12 * u32At(indices, f)), q = pos + <usize>(12 * u32At(indices, f + 1)), r = pos + <usize>(12 * u32At(indices, f + 2));
  const px = <f64>load<f32>(p) - ox, py = <f64>load<f32>(p, 4) - oy, pz = <f64>load<f32>(p, 8) - oz;
  const qx = <f64>load<f32>(q) - ox, qy = <f64>load<f32>(q, 4) - oy, qz = <f64>load<f32>(q, 8) - oz;
  const rx = <f64>load<f32>(r) - ox, ry = <f64>load<f32>(r, 4) - oy, rz = <f64>load<f32>(r, 8) - oz;
  let nx: f64 = 0, ny: f64 = 0, nz: f64 = 0;
  nx += (py - qy) * (pz + qz); ny += (pz - qz) * (px + qx); nz += (px - qx) * (py + qy);
  nx += (qy - ry) * (qz + rz); ny += (qz - rz) * (qx + rx); nz += (qx - rx) * (qy + ry);
  nx += (ry - py) * (rz + pz); ny += (rz - pz) * (rx + px); nz += (rx - px) * (ry + py);
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (len > 0) { NX = nx / len; NY = ny / len; NZ = nz / len; }
  else { NX = 0; NY = 0; NZ = 0; }
  CX = (px + qx + rx) / 3; CY = (py + qy + ry) / 3; CZ = (pz + qz + rz) / 3;
}

/** The shape rule (edges.ts classifyAll) for the pair (c, o), both corners' codes written. */
function classify(pos: usize, indices: usize, c: i32, o: i32, codes: usize): void {
  const a = pos + <usize>(12 * u32At(indices, c)), b = pos + <usize>(12 * u32At(indices, o));
  const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8);
  faceOf(pos, indices, c, ax, ay, az);
  const fx = NX, fy = NY, fz = NZ, fcx = CX, fcy = CY, fcz = CZ;
  faceOf(pos, indices, o, ax, ay, az);
  const gx = NX, gy = NY, gz = NZ, gcx = CX, gcy = CY, gcz = CZ;
  if ((fx == 0 && fy == 0 && fz == 0) || (gx == 0 && gy == 0 && gz == 0)) return;
  const cp = codes + (<usize>c << 2), op = codes + (<usize>o << 2);
  const dot = fx * gx + fy * gy + fz * gz;
  if (dot >= FLAT_COS) { store<f32>(cp, SEAM_FLAT); store<f32>(op, SEAM_FLAT); return; }
  const d = dot < -1 ? -1 : dot;
  // This corner's vertex is a (the origin) for c and b for o.
  const bx = <f64>load<f32>(b) - ax, by = <f64>load<f32>(b, 4) - ay, bz = <f64>load<f32>(b, 8) - az;
  const aboveC = gcx * fx + gcy * fy + gcz * fz >= 0;
  const aboveO = (fcx - bx) * gx + (fcy - by) * gy + (fcz - bz) * gz >= 0;
  const value = !aboveC || !aboveO ? <f32>convexValueFast(d) : <f32>1;
  store<f32>(cp, aboveC ? (d > 0 ? SEAM_CONCAVE : SEAM_SHARP) : value);
  store<f32>(op, aboveO ? (d > 0 ? SEAM_CONCAVE : SEAM_SHARP) : value);
}

/** cos(0.1°), passed in from JavaScript (edge-rule.ts FLAT_COS) with each call. */
let FLAT_COS: f64 = 1;
