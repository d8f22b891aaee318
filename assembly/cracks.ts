// AssemblyScript source of the crack pass's two loops (src/geometry/cracks.ts gives the rule, computes the points
// and the column size, and keeps the entry point and a JavaScript path for inputs this one does not take): the
// points' column hash, every open edge against the points of the others (cracksEdges), and one mesh's faces
// against the points (cracksFaces, a mesh at a time so that only one mesh's arrays are in memory). The arithmetic
// is the JavaScript's, step for step, in f64 (IEEE, no fused steps): the same edges are flagged by the same mesh.
// The caller takes this path only when every coordinate is finite and every column index fits an i32 comfortably.

import { alloc, resetArena } from './arena';
import { f32At, f64At, i32At } from './at';

/** The rare parallel test's length: JavaScript's own Math.hypot, so the value cannot differ. */
@external("env", "hypot3")
declare function hypot3(x: f64, y: f64, z: f64): f64;

let NP: i32 = 0;
let PX: usize = 0;
let PY: usize = 0;
let PZ: usize = 0;
let PMESH: usize = 0;
let PEDGE: usize = 0;
let SIZE: f64 = 1;
let TOL: f64 = 0;
let COSMAX: f64 = 0;
let JOIN: bool = true;
/** Per mesh 4 u32: its open edges (6 f32 each), their count, their triangles (u32 each), their values (i32 each). */
let MESHES: usize = 0;
let MASK: u32 = 0;
let KEYS: usize = 0;
let USED: usize = 0;
let START: usize = 0;
let ITEMS: usize = 0;
let FOUND: usize = 0;

@inline function meshField(m: i32, k: i32): usize {
  return <usize>load<u32>(MESHES + (<usize>(4 * m + k) << 2));
}

@inline function hash(ix: i32, iz: i32): u32 {
  let h: u32 = (<u32>ix ^ 0x9e3779b9) * 0x85ebca6b;
  h = (h ^ (h >> 13) ^ <u32>iz) * 0xc2b2ae35;
  return (h ^ (h >> 16)) & MASK;
}

/**
 * The points (x, y, z f64 each; mesh and edge i32 each) and the settings; builds the column hash after `arena`.
 * Returns where its tables end (the caller's per-mesh arrays go there).
 */
export function cracksBegin(np: i32, px: usize, py: usize, pz: usize, pMesh: usize, pEdge: usize, size: f64, tol: f64, cosMax: f64, join: i32, meshes: usize, arena: usize): usize {
  resetArena(arena);
  NP = np; PX = px; PY = py; PZ = pz; PMESH = pMesh; PEDGE = pEdge;
  SIZE = size; TOL = tol; COSMAX = cosMax; JOIN = join != 0; MESHES = meshes;
  let cap: i32 = 2;
  while (cap < 2 * np) cap <<= 1;
  MASK = <u32>(cap - 1);
  KEYS = alloc(<usize>cap << 3);
  USED = alloc(<usize>cap);
  memory.fill(USED, 0, <usize>cap);
  START = alloc(<usize>(cap + 1) << 2);
  memory.fill(START, 0, <usize>(cap + 1) << 2);
  const slotOf = alloc(<usize>np << 2);
  for (let p = 0; p < np; p++) {
    const ix = <i32>Math.floor(f64At(px, p) / size), iz = <i32>Math.floor(f64At(pz, p) / size);
    let h = hash(ix, iz);
    while (load<u8>(USED + <usize>h) && (load<i32>(KEYS + (<usize>h << 3)) != ix || load<i32>(KEYS + (<usize>h << 3), 4) != iz)) h = (h + 1) & MASK;
    if (!load<u8>(USED + <usize>h)) {
      store<u8>(USED + <usize>h, 1);
      store<i32>(KEYS + (<usize>h << 3), ix);
      store<i32>(KEYS + (<usize>h << 3), iz, 4);
    }
    store<u32>(slotOf + (<usize>p << 2), h);
    const c = START + (<usize>(h + 1) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  for (let h = 0; h < cap; h++) {
    const c = START + (<usize>(h + 1) << 2);
    store<i32>(c, load<i32>(c) + load<i32>(c - 4));
  }
  const fill = alloc(<usize>cap << 2);
  memory.copy(fill, START, <usize>cap << 2);
  ITEMS = alloc(<usize>np << 2);
  for (let p = 0; p < np; p++) {
    const f = fill + (<usize>load<u32>(slotOf + (<usize>p << 2)) << 2);
    const at = load<i32>(f);
    store<i32>(ITEMS + (<usize>at << 2), p);
    store<i32>(f, at + 1);
  }
  FOUND = alloc(<usize>np << 2);
  return alloc(0);
}

/** The points inside [x0, x1] × [z0, z1] into FOUND (at most `most`), as cracks.ts's ColumnHash.gather. */
function gather(x0: f64, z0: f64, x1: f64, z1: f64, most: i32): i32 {
  const s = SIZE;
  const fx0 = Math.floor(x0 / s), fx1 = Math.floor(x1 / s), fz0 = Math.floor(z0 / s), fz1 = Math.floor(z1 / s);
  let n = 0;
  if ((fx1 - fx0 + 1) * (fz1 - fz0 + 1) > <f64>NP) {
    for (let p = 0; p < NP && n < most; p++) {
      const x = f64At(PX, p), z = f64At(PZ, p);
      if (x >= x0 && x <= x1 && z >= z0 && z <= z1) { store<i32>(FOUND + (<usize>n << 2), p); n++; }
    }
    return n;
  }
  const ix0 = <i32>fx0, ix1 = <i32>fx1, iz0 = <i32>fz0, iz1 = <i32>fz1;
  for (let ix = ix0; ix <= ix1; ix++) {
    for (let iz = iz0; iz <= iz1; iz++) {
      let h = hash(ix, iz);
      while (load<u8>(USED + <usize>h)) {
        if (load<i32>(KEYS + (<usize>h << 3)) == ix && load<i32>(KEYS + (<usize>h << 3), 4) == iz) {
          const end = load<i32>(START + (<usize>(h + 1) << 2));
          for (let k = load<i32>(START + (<usize>h << 2)); k < end; k++) {
            const p = i32At(ITEMS, k);
            const x = f64At(PX, p), z = f64At(PZ, p);
            if (!(x >= x0 && x <= x1 && z >= z0 && z <= z1)) continue;
            store<i32>(FOUND + (<usize>n << 2), p);
            if (++n == most) return n;
          }
          break;
        }
        h = (h + 1) & MASK;
      }
    }
  }
  return n;
}


/** The value slot of point p's edge. */
@inline function slotOfPoint(p: i32): usize {
  return meshField(i32At(PMESH, p), 3) + (<usize>i32At(PEDGE, p) << 2);
}

/** Open edge j of o (f32 ends) runs exactly the reverse of open edge i of e (cracks.ts joinedEdge). */
function joinedEdge(e: usize, i: i32, o: usize, j: i32): bool {
  return f32At(o, 6 * j) == f32At(e, 6 * i + 3) && f32At(o, 6 * j + 1) == f32At(e, 6 * i + 4) && f32At(o, 6 * j + 2) == f32At(e, 6 * i + 5) &&
    f32At(o, 6 * j + 3) == f32At(e, 6 * i) && f32At(o, 6 * j + 4) == f32At(e, 6 * i + 1) && f32At(o, 6 * j + 5) == f32At(e, 6 * i + 2);
}

/** Every open edge of meshes [from, to) against the points of the other open edges (cracks.ts, the first loop). */
export function cracksEdges(from: i32, to: i32): void {
  const tol = TOL;
  for (let mi = from; mi < to; mi++) {
    const e = meshField(mi, 0), ne = <i32>meshField(mi, 1);
    for (let i = 0; i < ne; i++) {
      const ax = f32At(e, 6 * i), ay = f32At(e, 6 * i + 1), az = f32At(e, 6 * i + 2);
      const dx = f32At(e, 6 * i + 3) - ax, dy = f32At(e, 6 * i + 4) - ay, dz = f32At(e, 6 * i + 5) - az;
      const len2 = dx * dx + dy * dy + dz * dz;
      if (len2 == 0) continue;
      const len = Math.sqrt(len2);
      const n = gather(Math.min(ax, ax + dx) - tol, Math.min(az, az + dz) - tol, Math.max(ax, ax + dx) + tol, Math.max(az, az + dz) + tol, NP);
      for (let q = 0; q < n; q++) {
        const p = i32At(FOUND, q);
        const pm = i32At(PMESH, p), j = i32At(PEDGE, p);
        if (pm == mi && j == i) continue;
        const w = slotOfPoint(p);
        if (load<i32>(w) >= 0) continue;
        const x = f64At(PX, p), y = f64At(PY, p), z = f64At(PZ, p);
        const t = ((x - ax) * dx + (y - ay) * dy + (z - az) * dz) / len2;
        if (!(t > 0 && t < 1)) continue;
        const qx = ax + t * dx - x, qy = ay + t * dy - y, qz = az + t * dz - z;
        if (qx * qx + qy * qy + qz * qz > tol * tol) continue;
        const o = meshField(pm, 0);
        const ex = f32At(o, 6 * j + 3) - f32At(o, 6 * j), ey = f32At(o, 6 * j + 4) - f32At(o, 6 * j + 1), ez = f32At(o, 6 * j + 5) - f32At(o, 6 * j + 2);
        const elen = hypot3(ex, ey, ez);
        if (elen == 0 || Math.abs(dx * ex + dy * ey + dz * ez) < COSMAX * len * elen) continue;
        if (JOIN && pm != mi && joinedEdge(e, i, o, j)) continue;
        store<i32>(w, mi);
      }
    }
  }
}

/** The face (a, b, c) of another mesh runs open edge i of e in reverse (cracks.ts joinedFace). */
function joinedFace(e: usize, i: i32, ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64, cx: f64, cy: f64, cz: f64): bool {
  const fx = f32At(e, 6 * i), fy = f32At(e, 6 * i + 1), fz = f32At(e, 6 * i + 2);
  const tx = f32At(e, 6 * i + 3), ty = f32At(e, 6 * i + 4), tz = f32At(e, 6 * i + 5);
  return (ax == tx && ay == ty && az == tz && bx == fx && by == fy && bz == fz) ||
    (bx == tx && by == ty && bz == tz && cx == fx && cy == fy && cz == fz) ||
    (cx == tx && cy == ty && cz == tz && ax == fx && ay == fy && az == fz);
}

@inline function isCorner(x: f64, y: f64, z: f64, ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64, cx: f64, cy: f64, cz: f64): bool {
  return (x == ax && y == ay && z == az) || (x == bx && y == by && z == bz) || (x == cx && y == cy && z == cz);
}

/** The face t (corners a, b, c) of mesh m has both end points of its open edge i (cracks.ts ownFace). */
function ownFace(m: i32, i: i32, t: i32, ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64, cx: f64, cy: f64, cz: f64): bool {
  if (load<i32>(meshField(m, 2) + (<usize>i << 2)) == t) return true;
  const e = meshField(m, 0);
  return isCorner(f32At(e, 6 * i), f32At(e, 6 * i + 1), f32At(e, 6 * i + 2), ax, ay, az, bx, by, bz, cx, cy, cz) &&
    isCorner(f32At(e, 6 * i + 3), f32At(e, 6 * i + 4), f32At(e, 6 * i + 5), ax, ay, az, bx, by, bz, cx, cy, cz);
}

/**
 * Mesh mi's nt faces (idx: 3 u32 each over pos: nv × 3 f32) against the points (cracks.ts, the second loop): 1
 * when done, 0 when no point lies under its X/Z box grown by the tolerance (cracks.ts nearAnyPoint: nothing to do),
 * −1, flagging nothing, when a coordinate is not finite or beyond ±limit on X or Z, or an index is past nv: then
 * the caller runs the JavaScript loop for this mesh.
 */
export function cracksFaces(mi: i32, pos: usize, nv: i32, idx: usize, nt: i32, limit: f64): i32 {
  let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  for (let v = 0; v < nv; v++) {
    const p = pos + <usize>(12 * v);
    const x = <f64>load<f32>(p), y = <f64>load<f32>(p, 4), z = <f64>load<f32>(p, 8);
    if (!(Math.abs(x) <= limit && Math.abs(z) <= limit && y - y == 0)) return -1;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  for (let k = 0; k < 3 * nt; k++) if (load<u32>(idx + (<usize>k << 2)) >= <u32>nv) return -1;
  if (!(x0 <= x1) || gather(x0 - TOL, z0 - TOL, x1 + TOL, z1 + TOL, 1) == 0) return 0;
  facesLoop(mi, pos, idx, nt);
  return 1;
}

function facesLoop(mi: i32, pos: usize, idx: usize, nt: i32): void {
  const tol = TOL;
  for (let t = 0; t < nt; t++) {
    const i0 = pos + <usize>(12 * load<u32>(idx + (<usize>(3 * t) << 2)));
    const i1 = pos + <usize>(12 * load<u32>(idx + (<usize>(3 * t + 1) << 2)));
    const i2 = pos + <usize>(12 * load<u32>(idx + (<usize>(3 * t + 2) << 2)));
    const ax = <f64>load<f32>(i0), ay = <f64>load<f32>(i0, 4), az = <f64>load<f32>(i0, 8);
    const bx = <f64>load<f32>(i1), by = <f64>load<f32>(i1, 4), bz = <f64>load<f32>(i1, 8);
    const cx = <f64>load<f32>(i2), cy = <f64>load<f32>(i2, 4), cz = <f64>load<f32>(i2, 8);
    const x0 = Math.min(Math.min(ax, bx), cx) - tol, z0 = Math.min(Math.min(az, bz), cz) - tol;
    const x1 = Math.max(Math.max(ax, bx), cx) + tol, z1 = Math.max(Math.max(az, bz), cz) + tol;
    const n = gather(x0, z0, x1, z1, NP);
    if (n == 0) continue;
    const ux = bx - ax, uy = by - ay, uz = bz - az, vx = cx - ax, vy = cy - ay, vz = cz - az;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const n2 = nx * nx + ny * ny + nz * nz;
    if (n2 == 0) continue;
    const nlen = Math.sqrt(n2);
    const y0 = Math.min(Math.min(ay, by), cy) - tol, y1 = Math.max(Math.max(ay, by), cy) + tol;
    for (let q = 0; q < n; q++) {
      const p = i32At(FOUND, q);
      const w = slotOfPoint(p);
      const py = f64At(PY, p);
      if (load<i32>(w) >= 0 || py < y0 || py > y1) continue;
      const qx = f64At(PX, p) - ax, qy = py - ay, qz = f64At(PZ, p) - az;
      const dist = (qx * nx + qy * ny + qz * nz) / nlen;
      if (Math.abs(dist) > tol) continue;
      const s1 = (uy * qz - uz * qy) * nx + (uz * qx - ux * qz) * ny + (ux * qy - uy * qx) * nz;
      const s2 = (qy * vz - qz * vy) * nx + (qz * vx - qx * vz) * ny + (qx * vy - qy * vx) * nz;
      if (s1 < 0 || s2 < 0 || s1 + s2 > n2) continue;
      const pm = i32At(PMESH, p), j = i32At(PEDGE, p);
      if (pm == mi && ownFace(mi, j, t, ax, ay, az, bx, by, bz, cx, cy, cz)) continue;
      if (JOIN && pm != mi && joinedFace(meshField(pm, 0), j, ax, ay, az, bx, by, bz, cx, cy, cz)) continue;
      store<i32>(w, mi);
    }
  }
}
