// The ride world's grid built in WebAssembly (src/ride/world-wasm.ts lays it out after the world's arrays): the same
// cells, bytes and order as src/ride/grid.ts buildGrid (it stays the rule; a test holds the two to the same bytes):
// each vertex's column and row, then two passes over the faces (count each cell's bytes, fill them: LEB128 face
// gaps), each face's cells row by row. Why WebAssembly: see assembly/ride-world.ts.

/**
 * vertexCells: vertices [from, vertices)' (f64 x y z at vert) column and row (two i32 at place): floor((x − x0) /
 * cell) clamped to [0, nx), of z likewise, −1 for NaN.
 */
export function rideGridPlace(vert: usize, from: i32, vertices: i32, x0: f64, z0: f64, cell: f64, nx: i32, nz: i32, place: usize): void {
  const fx = <f64>nx, fz = <f64>nz;
  for (let v = from; v < vertices; v++) {
    const o = vert + (<usize>(3 * v) << 3), p = place + (<usize>v << 3);
    const i = Math.floor((load<f64>(o) - x0) / cell), j = Math.floor((load<f64>(o, 16) - z0) / cell);
    store<i32>(p, i < 0 ? 0 : i >= fx ? nx - 1 : i == i ? <i32>i : -1);
    store<i32>(p, j < 0 ? 0 : j >= fz ? nz - 1 : j == j ? <i32>j : -1, 4);
  }
}

@inline function min3(a: i32, b: i32, c: i32): i32 {
  return a < b ? (a < c ? a : c) : b < c ? b : c;
}
@inline function max3(a: i32, b: i32, c: i32): i32 {
  return a > b ? (a > c ? a : c) : b > c ? b : c;
}

/** LEB128 bytes of a gap less one. */
@inline function varintBytes(d: u32): u32 {
  return d < 0x80 ? 1 : d < 0x4000 ? 2 : d < 0x200000 ? 3 : d < 0x10000000 ? 4 : 5;
}

/**
 * The first pass over faces [from, faces) (u32 corners at corner, place as rideGridPlace left it): per cell, side by
 * side at at (two u32 a cell, zero on entry), its last face + 1 and its bytes.
 */
export function rideGridCount(corner: usize, from: i32, faces: i32, place: usize, at: usize, nx: i32): void {
  for (let t: u32 = <u32>from; t < <u32>faces; t++) {
    const c = corner + (<usize>(3 * t) << 2);
    const a = place + (<usize>load<u32>(c) << 3), b = place + (<usize>load<u32>(c, 4) << 3), d = place + (<usize>load<u32>(c, 8) << 3);
    const ia = load<i32>(a), ib = load<i32>(b), ic = load<i32>(d), ja = load<i32>(a, 4), jb = load<i32>(b, 4), jc = load<i32>(d, 4);
    if ((ia | ib | ic | ja | jb | jc) < 0) continue; // a NaN column or row: no cells
    const i0 = min3(ia, ib, ic), i1 = max3(ia, ib, ic), j0 = min3(ja, jb, jc), j1 = max3(ja, jb, jc);
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const m = at + (<usize>(j * nx + i) << 3);
        const g = t - load<u32>(m);
        store<u32>(m, t + 1);
        store<u32>(m, load<u32>(m, 4) + varintBytes(g), 4);
      }
    }
  }
}

/**
 * Between the passes: each cell's start (u32 at start, cells + 1 of them, start[0] left as it is: 0) as a running
 * sum of its bytes, and at reset for the second pass (last face + 1 to 0, bytes to where the cell's next goes).
 * Returns the bytes of all cells.
 */
export function rideGridStarts(at: usize, cells: i32, start: usize): u32 {
  let s: u32 = 0;
  for (let k = 0; k < cells; k++) {
    const m = at + (<usize>k << 3), bytes = load<u32>(m, 4);
    store<u32>(m, 0);
    store<u32>(m, s, 4);
    s += bytes;
    store<u32>(start + (<usize>(k + 1) << 2), s);
  }
  return s;
}

/**
 * rideGridCount for the faces from a split on (a second thread counts them while the first counts those before):
 * the same per cell at `at` (zero on entry: `cells` of them zeroed here first, with `first`), except that a cell's
 * first face here is not counted but kept at `first` (u32 a cell: the face + 1; 0 none): its gap follows the last
 * face before the split, known when both halves are counted (rideGridStartsSplit).
 */
export function rideGridCountAfter(corner: usize, from: i32, faces: i32, place: usize, at: usize, nx: i32, first: usize, cells: i32): void {
  if (cells > 0) {
    memory.fill(at, 0, <usize>cells << 3);
    memory.fill(first, 0, <usize>cells << 2);
  }
  for (let t: u32 = <u32>from; t < <u32>faces; t++) {
    const c = corner + (<usize>(3 * t) << 2);
    const a = place + (<usize>load<u32>(c) << 3), b = place + (<usize>load<u32>(c, 4) << 3), d = place + (<usize>load<u32>(c, 8) << 3);
    const ia = load<i32>(a), ib = load<i32>(b), ic = load<i32>(d), ja = load<i32>(a, 4), jb = load<i32>(b, 4), jc = load<i32>(d, 4);
    if ((ia | ib | ic | ja | jb | jc) < 0) continue; // a NaN column or row: no cells
    const i0 = min3(ia, ib, ic), i1 = max3(ia, ib, ic), j0 = min3(ja, jb, jc), j1 = max3(ja, jb, jc);
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const k = j * nx + i, m = at + (<usize>k << 3), last = load<u32>(m);
        if (last == 0) store<u32>(first + (<usize>k << 2), t + 1);
        else store<u32>(m, load<u32>(m, 4) + varintBytes(t - last), 4);
        store<u32>(m, t + 1);
      }
    }
  }
}

/**
 * rideGridStarts for faces counted in two halves (rideGridCount before the split at `at`, rideGridCountAfter from it
 * at `after` and `first`): each cell's start as a running sum of both halves' bytes (the second's first gap from the
 * first's last face), `at` reset for the first half's fill (0, the cell's start) and `after` for the second's (the
 * first half's last face + 1, the cell's start + the first half's bytes): rideGridFill over each half then writes the
 * bytes one pass over all faces writes. Returns the bytes of all cells.
 */
export function rideGridStartsSplit(at: usize, after: usize, first: usize, cells: i32, start: usize): u32 {
  let s: u32 = 0;
  for (let k = 0; k < cells; k++) {
    const m = at + (<usize>k << 3), n = after + (<usize>k << 3), last = load<u32>(m), bytes = load<u32>(m, 4), f = load<u32>(first + (<usize>k << 2));
    let later = load<u32>(n, 4);
    if (f != 0) later += varintBytes(f - 1 - last);
    store<u32>(m, 0);
    store<u32>(m, s, 4);
    store<u32>(n, last);
    store<u32>(n, s + bytes, 4);
    s += bytes + later;
    store<u32>(start + (<usize>(k + 1) << 2), s);
  }
  return s;
}

/** The second pass: each face written into its cells' bytes (items), its gap from the cell's last, LEB128. */
export function rideGridFill(corner: usize, from: i32, faces: i32, place: usize, at: usize, items: usize, nx: i32): void {
  for (let t: u32 = <u32>from; t < <u32>faces; t++) {
    const c = corner + (<usize>(3 * t) << 2);
    const a = place + (<usize>load<u32>(c) << 3), b = place + (<usize>load<u32>(c, 4) << 3), d = place + (<usize>load<u32>(c, 8) << 3);
    const ia = load<i32>(a), ib = load<i32>(b), ic = load<i32>(d), ja = load<i32>(a, 4), jb = load<i32>(b, 4), jc = load<i32>(d, 4);
    if ((ia | ib | ic | ja | jb | jc) < 0) continue;
    const i0 = min3(ia, ib, ic), i1 = max3(ia, ib, ic), j0 = min3(ja, jb, jc), j1 = max3(ja, jb, jc);
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const m = at + (<usize>(j * nx + i) << 3);
        let g = t - load<u32>(m), e = load<u32>(m, 4);
        store<u32>(m, t + 1);
        for (; g > 0x7f; g >>= 7) { store<u8>(items + <usize>e, (g & 0x7f) | 0x80); e++; }
        store<u8>(items + <usize>e, <u8>g);
        store<u32>(m, e + 1, 4);
      }
    }
  }
}

/**
 * The coverage grid's pass (src/ride/lanes.ts Cover: the rule) over faces [from, to): each walkable face's area
 * (half its cross product's length) added to `total` and spread evenly over the cells of its x/z box (place as
 * rideGridPlace left it for the coverage grid's cells), into `area` (f64 a cell, zeroed by the caller), in face
 * order. Returns the total so far.
 */
export function rideCover(vert: usize, corner: usize, bits: usize, from: i32, to: i32, place: usize, area: usize, nx: i32, total: f64): f64 {
  for (let t = from; t < to; t++) {
    if ((<u32>load<u16>(bits + (<usize>t << 1)) & (1 << 9)) == 0) continue; // FACE_WALKABLE
    const c = corner + (<usize>(3 * t) << 2);
    const q0 = load<u32>(c), q1 = load<u32>(c, 4), q2 = load<u32>(c, 8);
    const o0 = vert + (<usize>(3 * q0) << 3), o1 = vert + (<usize>(3 * q1) << 3), o2 = vert + (<usize>(3 * q2) << 3);
    const ux = load<f64>(o1) - load<f64>(o0), uy = load<f64>(o1, 8) - load<f64>(o0, 8), uz = load<f64>(o1, 16) - load<f64>(o0, 16);
    const vx = load<f64>(o2) - load<f64>(o0), vy = load<f64>(o2, 8) - load<f64>(o0, 8), vz = load<f64>(o2, 16) - load<f64>(o0, 16);
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const a = 0.5 * Math.sqrt(cx * cx + cy * cy + cz * cz);
    total += a;
    const a0 = place + (<usize>q0 << 3), a1 = place + (<usize>q1 << 3), a2 = place + (<usize>q2 << 3);
    const ia = load<i32>(a0), ib = load<i32>(a1), ic = load<i32>(a2), ja = load<i32>(a0, 4), jb = load<i32>(a1, 4), jc = load<i32>(a2, 4);
    if ((ia | ib | ic | ja | jb | jc) < 0) continue;
    const i0 = min3(ia, ib, ic), i1 = max3(ia, ib, ic), j0 = min3(ja, jb, jc), j1 = max3(ja, jb, jc);
    const share = a / (<f64>(i1 - i0 + 1) * <f64>(j1 - j0 + 1));
    const di = i1 - i0, dj = j1 - j0;
    if (di <= 1 && dj <= 1 && share - share == 0) {
      // A box of at most 2 × 2 cells (most faces), its four cells written whatever its shape: a cell outside the box
      // is its own column or row again, given 0 (x + 0 is x: no cell is −0, and the share is finite), so the branches
      // on the box's shape, taken face to face at random, are not there to mispredict.
      const m00 = area + (<usize>(j0 * nx + i0) << 3), m01 = m00 + (<usize>di << 3);
      const m10 = m00 + (<usize>(dj * nx) << 3), m11 = m10 + (<usize>di << 3);
      const sx = di != 0 ? share : 0, sz = dj != 0 ? share : 0, sxz = di != 0 && dj != 0 ? share : 0;
      store<f64>(m00, load<f64>(m00) + share);
      store<f64>(m01, load<f64>(m01) + sx);
      store<f64>(m10, load<f64>(m10) + sz);
      store<f64>(m11, load<f64>(m11) + sxz);
      continue;
    }
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const m = area + (<usize>(j * nx + i) << 3);
        store<f64>(m, load<f64>(m) + share);
      }
    }
  }
  return total;
}

/** cellOf (src/ride/grid.ts) as f64: NaN stays NaN (a box with a NaN bound covers no cell; the fold search's too). */
@inline export function cellAt(x: f64, o: f64, cell: f64, n: i32): f64 {
  const i = Math.floor((x - o) / cell);
  return i < 0 ? 0 : i >= <f64>n ? <f64>(n - 1) : i;
}

/**
 * The quiet map's marks (src/ride/quiet.ts markCells: the rule) over faces [from, to): the bit (out: 32 a word) of
 * every grid cell in the x/z box of a face that may be loud (walkable, with an edge whose allowance is above 0).
 * Returns how many such faces.
 */
export function rideMarkCells(vert: usize, corner: usize, bits: usize, from: i32, to: i32, out: usize, x0: f64, z0: f64, cell: f64, nx: i32, nz: i32): i32 {
  const MAY_BE_LOUD: u32 = (1 << 9) | (1 << 10);
  let count = 0;
  for (let t = from; t < to; t++) {
    if ((<u32>load<u16>(bits + (<usize>t << 1)) & MAY_BE_LOUD) != MAY_BE_LOUD) continue;
    count++;
    const c = corner + (<usize>(3 * t) << 2);
    const a = vert + (<usize>(3 * load<u32>(c)) << 3), b = vert + (<usize>(3 * load<u32>(c, 4)) << 3), d = vert + (<usize>(3 * load<u32>(c, 8)) << 3);
    const xa = load<f64>(a), xb = load<f64>(b), xd = load<f64>(d), za = load<f64>(a, 16), zb = load<f64>(b, 16), zd = load<f64>(d, 16);
    const fi0 = cellAt(Math.min(Math.min(xa, xb), xd), x0, cell, nx), fi1 = cellAt(Math.max(Math.max(xa, xb), xd), x0, cell, nx);
    const fj0 = cellAt(Math.min(Math.min(za, zb), zd), z0, cell, nz), fj1 = cellAt(Math.max(Math.max(za, zb), zd), z0, cell, nz);
    if (!(fi0 == fi0 && fi1 == fi1 && fj0 == fj0 && fj1 == fj1)) continue;
    const i0 = <i32>fi0, i1 = <i32>fi1, j0 = <i32>fj0, j1 = <i32>fj1;
    for (let j = j0; j <= j1; j++) {
      for (let i = i0, k = j * nx + i0; i <= i1; i++, k++) {
        const w = out + (<usize>(k >>> 5) << 2);
        store<i32>(w, load<i32>(w) | (1 << (k & 31)));
      }
    }
  }
  return count;
}
