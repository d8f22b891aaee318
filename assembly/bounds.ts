// The min/max box of f32 vertices, shared by the encoder's pieces (assembly/piece.ts: a shape's bounds) and the
// validation report (assembly/topology.ts: a part's extents).

/**
 * min x, y, z, max x, y, z (6 f64 at out) of vertices [from, to) at v (3 f32 each), or with indices ≠ 0 of the
 * vertices that u32 entries [from, to) of indices name; a tie keeps the earlier value. An empty range gives
 * +Infinity mins and −Infinity maxes.
 */
export function boundsOf(v: usize, indices: usize, from: i32, to: i32, out: usize): void {
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = from; i < to; i++) {
    const p = v + <usize>(12 * (indices ? load<u32>(indices + (<usize>i << 2)) : <u32>i));
    const x = <f64>load<f32>(p), y = <f64>load<f32>(p, 4), z = <f64>load<f32>(p, 8);
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  store<f64>(out, x0); store<f64>(out, y0, 8); store<f64>(out, z0, 16);
  store<f64>(out, x1, 24); store<f64>(out, y1, 32); store<f64>(out, z1, 40);
}
