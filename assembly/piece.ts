// AssemblyScript source of one kind-5 shape from a welded mesh's triangle subset (src/geometry/encode.ts's
// per-piece step; ../shared/spec/physics-resource.md, "Triangle-mesh shapes"; docs/format-decisions.md, Encoder,
// "Per shape"): number the subset's vertices by first use, take their bounds and the centre, recentre in f32, drop
// faces with no area (renumbering when one was dropped), build the tree (tree.ts), put the corners in leaf order,
// build the vertex→corner CSR with each slot's neighbours, and the edge data (edges.ts). Results stay in linear
// memory for the caller to copy out; a header of pointers and counts says where (HEADER_* below).

import { build, orderScratchBytes } from './tree';
import { edges } from './edges';
import { boundsOf } from './bounds';
import { alloc, resetArena } from './arena';

@inline function fr(x: f64): f64 {
  return <f64><f32>x;
}

// Header: i32 words, then f64 values from HEADER_F64 (byte offset).
const H_FACES = 0; // kept faces (0: none kept; −1: past the u16 limits)
const H_NV = 4; // shape vertices
const H_DEPTH = 8;
const H_DROPPED = 12; // faces dropped for no area after recentring
const H_COUNTS = 16; // 5 i32: edge classes [open, flat, concave, convex, sharp concave]
const H_V = 36; // pointers: vertices (f32), CSR offsets (u16), ids (u16), corners (u16), values (f32), bits, nodes (u32)
const H_OFFSETS = 40;
const H_IDS = 44;
const H_CORNERS = 48;
const H_VALUES = 52;
const H_CONCAVE = 56;
const H_FLAT = 60;
const H_NODES = 64;
const H_BITSET_BYTES = 68;
const H_OPEN = 72; // corners the shape leaves unpaired (exportOpen): their count, then (word 76) where their list is
const HEADER_F64 = 80; // centre x, y, z, then the shape bounds min x, y, z, max x, y, z
const HEADER_BYTES = HEADER_F64 + 72;

/**
 * The shape of welded triangles subset[0 … n) (indices into tris: 3 u32 welded vertex ids each) over pos (f32 ×3
 * per welded vertex). local: one i32 per welded vertex, all −1 (left so). arena: where free memory starts.
 * exportOpen ≠ 0: the corners this shape leaves unpaired are listed (H_OPEN: per corner its stored index and its
 * welded corner, 3 × triangle + k), for the level-wide seams (src/geometry/seams.ts). Returns the header's address.
 */
export function piece(pos: usize, tris: usize, local: usize, subset: usize, n: i32, arena: usize, flatCos: f64, exportOpen: i32): usize {
  resetArena(arena);
  const h = alloc(HEADER_BYTES);
  store<i32>(h + H_OPEN, 0);
  store<u32>(h + H_OPEN + 4, 0);
  // First-use numbering over all the subset's corners.
  const used = alloc(<usize>(12 * n)), fv = alloc(<usize>(12 * n));
  let count = 0;
  for (let i = 0; i < n; i++) {
    const t = tris + (<usize>(3 * load<u32>(subset + (<usize>i << 2))) << 2);
    for (let k = 0; k < 3; k++) {
      const v = load<u32>(t + (<usize>k << 2));
      const lp = local + (<usize>v << 2);
      let id = load<i32>(lp);
      if (id < 0) { id = count; store<i32>(lp, count); store<u32>(used + (<usize>count << 2), v); count++; }
      store<u32>(fv + (<usize>(3 * i + k) << 2), <u32>id);
    }
  }
  for (let i = 0; i < count; i++) store<i32>(local + (<usize>load<u32>(used + (<usize>i << 2)) << 2), -1);
  // The used vertices gathered in first-use order, their bounds (a tie keeps the earlier value), the centre, then
  // recentred in place (f32).
  let v = alloc(<usize>(12 * count));
  for (let i = 0; i < count; i++) {
    const d = v + <usize>(12 * i), s = pos + <usize>(12 * load<u32>(used + (<usize>i << 2)));
    store<u32>(d, load<u32>(s)); store<u32>(d, load<u32>(s, 4), 4); store<u32>(d, load<u32>(s, 8), 8);
  }
  const b = h + HEADER_F64 + 24; // scratch for the used bounds; the shape bounds go there later
  boundsOf(v, 0, 0, count, b);
  const cx = fr(fr(load<f64>(b) + load<f64>(b, 24)) * 0.5), cy = fr(fr(load<f64>(b, 8) + load<f64>(b, 32)) * 0.5);
  const cz = fr(fr(load<f64>(b, 16) + load<f64>(b, 40)) * 0.5);
  store<f64>(h + HEADER_F64, cx); store<f64>(h + HEADER_F64, cy, 8); store<f64>(h + HEADER_F64, cz, 16);
  for (let i = 0; i < count; i++) {
    const o = v + <usize>(12 * i);
    store<f32>(o, <f32>(<f64>load<f32>(o) - cx));
    store<f32>(o, <f32>(<f64>load<f32>(o, 4) - cy), 4);
    store<f32>(o, <f32>(<f64>load<f32>(o, 8) - cz), 8);
  }
  // With the open corners listed: which subset entry each kept face is (keepAreas compacts fv).
  const orig: usize = exportOpen != 0 ? alloc(<usize>(4 * n)) : 0;
  const faces = keepAreas(v, fv, n, orig);
  store<i32>(h + H_DROPPED, n - faces);
  store<i32>(h + H_FACES, faces);
  if (faces == 0) return h;
  let nv = count;
  if (faces < n) {
    v = renumberKept(v, fv, faces, count);
    nv = RENUMBERED;
  }
  store<i32>(h + H_NV, nv);
  if (faces > 0xffff / 3 || nv > 0xffff) {
    store<i32>(h + H_FACES, -1);
    return h;
  }
  shape(h, v, fv, faces, nv, flatCos, exportOpen, subset, orig);
  return h;
}

/**
 * Studio's area test on the recentred f32 values, in f64: faces keeping an area move to the front of fv (orig,
 * when not 0: each kept face's index before).
 */
function keepAreas(v: usize, fv: usize, faces: i32, orig: usize): i32 {
  let kept = 0;
  for (let f = 0; f < faces; f++) {
    const t = fv + (<usize>(3 * f) << 2);
    const ia = load<u32>(t), ib = load<u32>(t, 4), ic = load<u32>(t, 8);
    const a = v + <usize>(12 * ia), b = v + <usize>(12 * ib), c = v + <usize>(12 * ic);
    const ax = <f64>load<f32>(a), ay = <f64>load<f32>(a, 4), az = <f64>load<f32>(a, 8);
    const ux = <f64>load<f32>(b) - ax, uy = <f64>load<f32>(b, 4) - ay, uz = <f64>load<f32>(b, 8) - az;
    const wx = <f64>load<f32>(c) - ax, wy = <f64>load<f32>(c, 4) - ay, wz = <f64>load<f32>(c, 8) - az;
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    if (nx * nx + ny * ny + nz * nz == 0) continue;
    if (orig != 0) store<i32>(orig + (<usize>kept << 2), f);
    if (kept != f) {
      const o = fv + (<usize>(3 * kept) << 2);
      store<u32>(o, ia); store<u32>(o, ib, 4); store<u32>(o, ic, 8);
    }
    kept++;
  }
  return kept;
}

/** renumberKept's vertex count. */
let RENUMBERED: i32 = 0;

/** After faces were dropped: vertices renumbered by first use over the kept faces (fv rewritten); new values. */
function renumberKept(v: usize, fv: usize, faces: i32, count: i32): usize {
  const map = alloc(<usize>(4 * count)), out = alloc(<usize>(12 * count));
  for (let i = 0; i < count; i++) store<i32>(map + (<usize>i << 2), -1);
  let n = 0;
  for (let c = 0; c < 3 * faces; c++) {
    const p = fv + (<usize>c << 2);
    const old = load<u32>(p);
    const mp = map + (<usize>old << 2);
    if (load<i32>(mp) < 0) {
      store<i32>(mp, n);
      const s = v + <usize>(12 * old), d = out + <usize>(12 * n);
      store<u32>(d, load<u32>(s)); store<u32>(d, load<u32>(s, 4), 4); store<u32>(d, load<u32>(s, 8), 8);
      n++;
    }
    store<u32>(p, <u32>load<i32>(mp));
  }
  RENUMBERED = n;
  return out;
}

/**
 * Tree, leaf-ordered corners, CSR and edges of the recentred piece (v: nv vertices, fv: faces corners); with
 * exportOpen ≠ 0 the unpaired corners are listed, each traced to its welded triangle through orig and subset
 * (piece's arguments).
 */
function shape(h: usize, v: usize, fv: usize, faces: i32, nv: i32, flatCos: f64, exportOpen: i32, subset: usize, orig: usize): void {
  // Shape bounds over the recentred vertices: the tree's root box.
  const bounds = h + HEADER_F64 + 24;
  boundsOf(v, 0, 0, nv, bounds);
  const nodeCount = <usize>(2 * faces - 1);
  const box = alloc(<usize>(48 * faces)), ord = alloc(orderScratchBytes(faces)), tb = alloc(48 * nodeCount), bx = alloc(48 * nodeCount);
  const leaves = alloc(4 * nodeCount), stack = alloc(4 * 400), nodes = alloc(<usize>(8 * (faces - 1))), leaf = alloc(<usize>(4 * faces));
  memory.copy(bx, bounds, 48);
  store<i32>(h + H_DEPTH, build(faces, v, fv, box, ord, tb, bx, leaves, stack, nodes, leaf));
  // Corners in leaf order.
  const nc = 3 * faces;
  const corners = alloc(<usize>(2 * nc));
  for (let j = 0; j < faces; j++) {
    const s = fv + (<usize>(3 * load<u32>(leaf + (<usize>j << 2))) << 2), d = corners + <usize>(6 * j);
    store<u16>(d, <u16>load<u32>(s)); store<u16>(d, <u16>load<u32>(s, 4), 2); store<u16>(d, <u16>load<u32>(s, 8), 4);
  }
  // Vertex → corner CSR (count, prefix sum, fill), each slot's (next << 16 | previous vertex) alongside.
  const start = alloc(<usize>(4 * (nv + 1)));
  memory.fill(start, 0, <usize>(4 * (nv + 1)));
  for (let c = 0; c < nc; c++) {
    const p = start + (<usize>(<i32>load<u16>(corners + (<usize>c << 1)) + 1) << 2);
    store<u32>(p, load<u32>(p) + 1);
  }
  for (let i = 0; i < nv; i++) {
    const p = start + (<usize>i << 2);
    store<u32>(p, load<u32>(p, 4) + load<u32>(p), 4);
  }
  const offsets = alloc(<usize>(2 * (nv + 1)));
  for (let i = 0; i <= nv; i++) store<u16>(offsets + (<usize>i << 1), <u16>load<u32>(start + (<usize>i << 2)));
  const ids = alloc(<usize>(2 * nc)), nb = alloc(<usize>(4 * nc));
  for (let c = 0; c < nc; c += 3) {
    const p = <u32>load<u16>(corners + (<usize>c << 1)), q = <u32>load<u16>(corners + (<usize>(c + 1) << 1)), r = <u32>load<u16>(corners + (<usize>(c + 2) << 1));
    slot(start, ids, nb, p, c, (q << 16) | r);
    slot(start, ids, nb, q, c + 1, (r << 16) | p);
    slot(start, ids, nb, r, c + 2, (p << 16) | q);
  }
  const bitsetBytes = 4 * ((nc + 31) >> 5);
  const twin = alloc(<usize>(4 * nc)), fd = alloc(<usize>(48 * faces)), out = alloc(<usize>(4 * nc)), inc = alloc(<usize>(4 * nc));
  const pairs = alloc(<usize>(2 * nc)), values = alloc(<usize>(4 * nc)), concave = alloc(<usize>bitsetBytes), flat = alloc(<usize>bitsetBytes);
  edges(nv, nc, flatCos, v, corners, offsets, ids, nb, twin, fd, out, inc, pairs, values, concave, flat, bitsetBytes, h + H_COUNTS);
  if (exportOpen != 0) listOpen(h, nc, twin, leaf, subset, orig);
  store<u32>(h + H_V, <u32>v); store<u32>(h + H_OFFSETS, <u32>offsets); store<u32>(h + H_IDS, <u32>ids);
  store<u32>(h + H_CORNERS, <u32>corners); store<u32>(h + H_VALUES, <u32>values); store<u32>(h + H_CONCAVE, <u32>concave);
  store<u32>(h + H_FLAT, <u32>flat); store<u32>(h + H_NODES, <u32>nodes); store<i32>(h + H_BITSET_BYTES, bitsetBytes);
}

@inline function slot(start: usize, ids: usize, nb: usize, vertex: u32, c: i32, neighbours: u32): void {
  const sp = start + (<usize>vertex << 2);
  const k = load<u32>(sp);
  store<u32>(sp, k + 1);
  store<u16>(ids + (<usize>k << 1), <u16>c);
  store<u32>(nb + (<usize>k << 2), neighbours);
}

/**
 * The corners edges() left unpaired (twin 0), as (stored corner, 3 × welded triangle + k) u32 pairs: corner k of
 * stored face j is corner k of its welded triangle (the order is kept from the weld on), which is
 * subset[orig[leaf[j]]].
 */
function listOpen(h: usize, nc: i32, twin: usize, leaf: usize, subset: usize, orig: usize): void {
  let n = 0;
  for (let c = 0; c < nc; c++) if (load<i32>(twin + (<usize>c << 2)) == 0) n++;
  const list = alloc(<usize>(8 * max(n, 1)));
  let w = 0;
  for (let c = 0; c < nc; c++) {
    if (load<i32>(twin + (<usize>c << 2)) != 0) continue;
    const j = c / 3;
    const f = load<i32>(orig + (<usize>load<u32>(leaf + (<usize>j << 2)) << 2));
    const t = load<u32>(subset + (<usize>f << 2));
    store<u32>(list + (<usize>w << 3), <u32>c);
    store<u32>(list + (<usize>w << 3), 3 * t + <u32>(c - 3 * j), 4);
    w++;
  }
  store<i32>(h + H_OPEN, n);
  store<u32>(h + H_OPEN + 4, <u32>list);
}
