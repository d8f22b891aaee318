// AssemblyScript source of the weld by exact position (src/geometry/weld.ts gives the rules and keeps the
// JavaScript entry point: input checks, error messages, f64 → f32 rounding). Welded vertices are numbered by first
// use (triangles in order, corners in order) and keep their first use's f32 bits; −0.0 welds with 0.0. Kept
// triangles are rotated to start at their smallest welded vertex; a triangle with a repeated welded vertex or no
// f64 cross-product length is degenerate; one equal to an earlier kept triangle (same corners, same winding) is a
// repeat. The output depends only on these rules, not on the tables used to find equal keys: one probe table
// (weldVertices), or for large inputs partitions that each stay in cache (weldPartitioned; measured in
// src/geometry/weld.ts's design log).

import { alloc, allocZeroed, resetArena } from './arena';
import { u32At } from './at';

@inline export function nextPow2(n: i32): i32 {
  const m = n < 2 ? 2 : n;
  return <i32>(1 << (32 - clz<u32>(<u32>(m - 1))));
}

/** f32 bits → weld key: −0.0 taken as 0.0. */
@inline export function keyOf(bits: u32): u32 {
  return bits == 0x80000000 ? 0 : bits;
}

/** Whether f32 bits are an infinity or a NaN. */
@inline export function notFinite(bits: u32): bool {
  return (bits & 0x7f800000) == 0x7f800000;
}

/** Bucket hash of three words (weld.ts mix3): picks the slot only, equality is exact. */
@inline export function mix3(a: u32, b: u32, c: u32): u32 {
  let h = (a ^ 0x9e3779b9) * 0x85ebca6b;
  h = (h ^ (h >> 13) ^ b) * 0xc2b2ae35;
  h = (h ^ (h >> 16) ^ c) * 0x27d4eb2f;
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  return h ^ (h >> 16);
}

/** Kept triangles per smallest vertex chained for the repeat test; a hub's later ones go to a hashed table. */
const HUB_LOCAL: u32 = 16;

// Results of weld() (read by the caller through weldResult).
let R_COUNT: i32 = 0;
let R_KEPT: i32 = 0;
let R_DEGENERATE: i32 = 0;
let R_REPEATED: i32 = 0;
/** −1, or the corner whose vertex is not finite in f32. */
let R_BAD_CORNER: i32 = -1;
/** −1, or the first corner whose index is not below the vertex count (checked before anything else). */
let R_BAD_INDEX: i32 = -1;

export function weldResult(k: i32): i32 {
  return k == 0 ? R_COUNT : k == 1 ? R_KEPT : k == 2 ? R_DEGENERATE : k == 3 ? R_REPEATED : k == 4 ? R_BAD_CORNER : R_BAD_INDEX;
}

/**
 * Welds nt triangles (indices: 3 u32 each; stops first if one is not below nv) over nv input vertices (bits: their
 * f32 bit patterns, 3 per vertex). Out: outBits (3 u32 per welded vertex, room for min(nv, 3 nt)), remap (nv i32:
 * welded id, −1 unused), tris (3 u32 per kept triangle, room for nt), source (u32 input index per kept triangle).
 * arena: free memory for the tables. Results through weldResult; stops at a non-finite vertex's first use.
 */
export function weld(nv: i32, nt: i32, bits: usize, indices: usize, outBits: usize, remap: usize, tris: usize, source: usize, arena: usize): void {
  resetArena(arena);
  R_BAD_CORNER = -1;
  R_BAD_INDEX = firstBadIndex(nv, 3 * nt, indices);
  if (R_BAD_INDEX >= 0) return;
  const count = min(nv, 3 * nt) >= (nv > 2 * nt ? PART_MIN_SPLIT : PART_MIN) ? weldPartitioned(nv, nt, bits, indices, outBits, remap) : weldVertices(nv, nt, bits, indices, outBits, remap);
  R_COUNT = count;
  if (R_BAD_CORNER >= 0) return;
  keep(nt, indices, remap, outBits, count, tris, source);
}

/** The first of n u32 indices that is ≥ nv, or −1. */
function firstBadIndex(nv: i32, n: i32, indices: usize): i32 {
  for (let i = 0; i < n; i++) if (u32At(indices, i) >= <u32>nv) return i;
  return -1;
}

/**
 * Welded ids in first-use order through one probe table of (id + 1) slots, keys compared against outBits. A slot's
 * bits above those id + 1 needs hold the same bits of the key's hash (a tag): a slot whose tag differs is passed
 * without reading that vertex's bits (a random load into outBits).
 */
function weldVertices(nv: i32, nt: i32, bits: usize, indices: usize, outBits: usize, remap: usize): i32 {
  memory.fill(remap, 0xff, <usize>nv << 2);
  const most = min(nv, 3 * nt);
  const cap = nextPow2(2 * most), mask = <u32>(cap - 1);
  const idBits = 32 - clz<u32>(<u32>most + 1);
  const idMask: u32 = idBits >= 32 ? 0xffffffff : (<u32>1 << <u32>idBits) - 1, tagMask = ~idMask;
  const table = allocZeroed(<usize>cap << 2);
  let count = 0;
  for (let i = 0; i < 3 * nt; i++) {
    const v = u32At(indices, i);
    const rp = remap + (<usize>v << 2);
    if (load<i32>(rp) >= 0) continue;
    const vp = bits + <usize>(12 * v);
    const bx = load<u32>(vp), by = load<u32>(vp, 4), bz = load<u32>(vp, 8);
    if (notFinite(bx) || notFinite(by) || notFinite(bz)) { R_BAD_CORNER = i; return count; }
    const kx = keyOf(bx), ky = keyOf(by), kz = keyOf(bz);
    const hash = mix3(kx, ky, kz), tag = hash & tagMask;
    let h = hash & mask;
    for (;;) {
      const sp = table + (<usize>h << 2);
      const w = load<u32>(sp);
      if (w == 0) {
        store<u32>(sp, (<u32>count + 1) | tag);
        const o = outBits + <usize>(12 * count); // the first use's bits (a −0.0 stays −0.0)
        store<u32>(o, bx); store<u32>(o, by, 4); store<u32>(o, bz, 8);
        store<i32>(rp, count++);
        break;
      }
      if ((w & tagMask) == tag) {
        const id = <i32>(w & idMask) - 1;
        const o = outBits + <usize>(12 * id);
        if (keyOf(load<u32>(o)) == kx && keyOf(load<u32>(o, 4)) == ky && keyOf(load<u32>(o, 8)) == kz) {
          store<i32>(rp, id);
          break;
        }
      }
      h = (h + 1) & mask;
    }
  }
  return count;
}

/**
 * Inputs of at least this many possible vertices (min(nv, 3 nt)) weld through partitions (weldPartitioned): one
 * probe table for them all would be past the caches (4 bytes a slot, 2 slots a vertex: 4 MB at 2^19 vertices).
 */
const PART_MIN: i32 = 1 << 19;
/** The same for inputs with more vertices than an indexed surface has (nv > 2 nt: split vertices, each position repeated; the one table's repeat probes hit cached slots, so it pays off later). */
const PART_MIN_SPLIT: i32 = 1 << 20;
/** A partition's vertices on average (its records and probe table then stay in a core's cache), and their count's cap. */
const PART_LOG: i32 = 13;
const PART_MAX_BITS: i32 = 8;

/**
 * weldVertices' numbering, through partitions: the used vertices listed in first-use order (each checked finite at
 * its first use, as weldVertices does), their keys scattered by the hash's top bits into ≤ 2^PART_MAX_BITS
 * partitions (sequential write streams), each partition welded with a small probe table (its entries in list
 * order, so a key's first entry is its first use), then the list numbered in order: a new id at each key's first
 * entry. Same ids, same first-use bits as weldVertices.
 */
function weldPartitioned(nv: i32, nt: i32, bits: usize, indices: usize, outBits: usize, remap: usize): i32 {
  memory.fill(remap, 0xff, <usize>nv << 2);
  const most = min(nv, 3 * nt);
  // The first-use list: remap[v] is v's place in it for now.
  const first = alloc(<usize>most << 2);
  let n = 0;
  for (let i = 0; i < 3 * nt; i++) {
    const v = u32At(indices, i);
    const rp = remap + (<usize>v << 2);
    if (load<i32>(rp) >= 0) continue;
    const vp = bits + <usize>(12 * v);
    if (notFinite(load<u32>(vp)) || notFinite(load<u32>(vp, 4)) || notFinite(load<u32>(vp, 8))) { R_BAD_CORNER = i; return 0; }
    store<i32>(rp, n);
    store<u32>(first + (<usize>n << 2), v);
    n++;
  }
  const logN = 32 - clz<u32>(<u32>n);
  const pb = max(1, min(PART_MAX_BITS, logN - PART_LOG)), shift = 32 - pb, parts = 1 << pb;
  // Each entry's partition, and the partitions' starts.
  const part = alloc(<usize>n << 1), start = allocZeroed(<usize>(parts + 1) << 2);
  for (let k = 0; k < n; k++) {
    const vp = bits + <usize>(12 * u32At(first, k));
    const p = mix3(keyOf(load<u32>(vp)), keyOf(load<u32>(vp, 4)), keyOf(load<u32>(vp, 8))) >> shift;
    store<u16>(part + (<usize>k << 1), <u16>p);
    const sp = start + (<usize>(p + 1) << 2);
    store<u32>(sp, load<u32>(sp) + 1);
  }
  let largest: u32 = 0;
  for (let p = 0; p < parts; p++) {
    const c = load<u32>(start + (<usize>(p + 1) << 2));
    if (c > largest) largest = c;
    store<u32>(start + (<usize>(p + 1) << 2), c + load<u32>(start + (<usize>p << 2)));
  }
  // Records (k, key x, y, z) by partition, in list order within each.
  const rec = alloc(<usize>n << 4), fill = alloc(<usize>parts << 2);
  memory.copy(fill, start, <usize>parts << 2);
  for (let k = 0; k < n; k++) {
    const vp = bits + <usize>(12 * u32At(first, k));
    const fp = fill + (<usize>load<u16>(part + (<usize>k << 1)) << 2);
    const at = load<u32>(fp);
    store<u32>(fp, at + 1);
    const o = rec + (<usize>at << 4);
    store<u32>(o, <u32>k); store<u32>(o, keyOf(load<u32>(vp)), 4); store<u32>(o, keyOf(load<u32>(vp, 4)), 8); store<u32>(o, keyOf(load<u32>(vp, 8)), 12);
  }
  // Per partition: an entry whose key an earlier entry has gets that entry's place (dup[k]); −1: its key's first.
  const dup = alloc(<usize>n << 2);
  memory.fill(dup, 0xff, <usize>n << 2);
  const table = alloc(<usize>nextPow2(2 * <i32>largest) << 2); // the largest partition's table; each uses its own size
  for (let p = 0; p < parts; p++) {
    const lo = load<u32>(start + (<usize>p << 2)), hi = load<u32>(start + (<usize>(p + 1) << 2));
    if (hi - lo < 2) continue;
    const size = nextPow2(2 * <i32>(hi - lo)), m = <u32>(size - 1);
    memory.fill(table, 0, <usize>size << 2);
    for (let r = lo; r < hi; r++) {
      const o = rec + (<usize>r << 4);
      const kx = load<u32>(o, 4), ky = load<u32>(o, 8), kz = load<u32>(o, 12);
      let h = mix3(kx, ky, kz) & m;
      for (;;) {
        const sp = table + (<usize>h << 2);
        const w = load<u32>(sp);
        if (w == 0) { store<u32>(sp, r - lo + 1); break; }
        const q = rec + (<usize>(lo + w - 1) << 4);
        if (load<u32>(q, 4) == kx && load<u32>(q, 8) == ky && load<u32>(q, 12) == kz) {
          store<u32>(dup + (<usize>load<u32>(o) << 2), load<u32>(q));
          break;
        }
        h = (h + 1) & m;
      }
    }
  }
  // Numbering in list order: ids as weldVertices gives them; remap[v] becomes v's welded id.
  let count = 0;
  for (let k = 0; k < n; k++) {
    const v = u32At(first, k);
    const d = load<i32>(dup + (<usize>k << 2));
    if (d < 0) {
      const vp = bits + <usize>(12 * v), o = outBits + <usize>(12 * count); // the first use's bits (a −0.0 stays −0.0)
      store<u32>(o, load<u32>(vp)); store<u32>(o, load<u32>(vp, 4), 4); store<u32>(o, load<u32>(vp, 8), 8);
      store<i32>(remap + (<usize>v << 2), count++);
    } else {
      store<i32>(remap + (<usize>v << 2), load<i32>(remap + (<usize>u32At(first, d) << 2)));
    }
  }
  return count;
}

/** (b − a) × (c − a) squared length in f64 over the welded f32 positions (0 exactly when the length is). */
@inline function crossLengthSquared(p: usize, a: i32, b: i32, c: i32): f64 {
  const pa = p + <usize>(12 * a), pb = p + <usize>(12 * b), pc = p + <usize>(12 * c);
  const ax = <f64>load<f32>(pa), ay = <f64>load<f32>(pa, 4), az = <f64>load<f32>(pa, 8);
  const ux = <f64>load<f32>(pb) - ax, uy = <f64>load<f32>(pb, 4) - ay, uz = <f64>load<f32>(pb, 8) - az;
  const vx = <f64>load<f32>(pc) - ax, vy = <f64>load<f32>(pc, 4) - ay, vz = <f64>load<f32>(pc, 8) - az;
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  return cx * cx + cy * cy + cz * cz;
}

/** The kept triangles, rotated to start at the smallest welded vertex, and their input index. */
function keep(nt: i32, indices: usize, remap: usize, pos: usize, count: i32, tris: usize, source: usize): void {
  // Repeats: a chain per smallest vertex (head: latest kept triangle + 1; next per kept triangle), past HUB_LOCAL
  // triangles a hashed table of (a + 1, b, c, −) slots made on first need.
  const head = allocZeroed(<usize>count << 2), length = allocZeroed(<usize>count << 2), next = alloc(<usize>nt << 2);
  let hub: usize = 0, hubMask: u32 = 0;
  let kept = 0, degenerate = 0, repeated = 0;
  for (let t = 0; t < nt; t++) {
    const ip = indices + <usize>(12 * t);
    const i0 = load<i32>(remap + (<usize>load<u32>(ip) << 2));
    const i1 = load<i32>(remap + (<usize>load<u32>(ip, 4) << 2));
    const i2 = load<i32>(remap + (<usize>load<u32>(ip, 8) << 2));
    if (i0 == i1 || i1 == i2 || i0 == i2 || crossLengthSquared(pos, i0, i1, i2) == 0) {
      degenerate++;
      continue;
    }
    let a = i0, b = i1, c = i2;
    if (i1 < i0 && i1 < i2) { a = i1; b = i2; c = i0; }
    else if (i2 < i0 && i2 < i1) { a = i2; b = i0; c = i1; }
    // Repeat test: the chain of a, then (a hub) the hashed table.
    let seen = false;
    const hp = head + (<usize>a << 2);
    for (let k = load<i32>(hp) - 1; k >= 0; k = load<i32>(next + (<usize>k << 2))) {
      const o = tris + <usize>(12 * k);
      if (load<i32>(o, 4) == b && load<i32>(o, 8) == c) { seen = true; break; }
    }
    if (!seen) {
      const lp = length + (<usize>a << 2);
      if (load<u32>(lp) < HUB_LOCAL) {
        store<i32>(next + (<usize>kept << 2), load<i32>(hp) - 1);
        store<i32>(hp, kept + 1);
        store<u32>(lp, load<u32>(lp) + 1);
      } else {
        if (hub == 0) {
          const cap = nextPow2(2 * (nt - t));
          hub = allocZeroed(<usize>cap << 4);
          hubMask = <u32>(cap - 1);
        }
        let h = mix3(<u32>a, <u32>b, <u32>c) & hubMask;
        for (;;) {
          const o = hub + (<usize>h << 4);
          const k = load<i32>(o);
          if (k == 0) { store<i32>(o, a + 1); store<i32>(o, b, 4); store<i32>(o, c, 8); break; }
          if (k == a + 1 && load<i32>(o, 4) == b && load<i32>(o, 8) == c) { seen = true; break; }
          h = (h + 1) & hubMask;
        }
      }
    }
    if (seen) {
      repeated++;
      continue;
    }
    const o = tris + <usize>(12 * kept);
    store<i32>(o, a); store<i32>(o, b, 4); store<i32>(o, c, 8);
    store<u32>(source + (<usize>kept << 2), <u32>t);
    kept++;
  }
  R_KEPT = kept;
  R_DEGENERATE = degenerate;
  R_REPEATED = repeated;
}
