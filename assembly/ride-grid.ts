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
