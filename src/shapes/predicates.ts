// Exact orientation predicates over f32 coordinates, for the convex hull (hull.ts): a float64 evaluation with a
// forward error bound (Shewchuk's static filter, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
// Geometric Predicates", 1997: errbound (7 + 56ε)ε and (3 + 16ε)ε times the permanent), and, when the sign is not
// certain, exact integer arithmetic: every f32 value is an integer times 2^-149, so scaled by 2^149 it is an exact
// BigInt. Coplanar and collinear inputs (the sign 0) are therefore decided exactly, which is what keeps the hull
// convex on hostile point sets.

const EPS = 2 ** -53;
const O3D_BOUND = (7 + 56 * EPS) * EPS;
const O2D_BOUND = (3 + 16 * EPS) * EPS;
const F32_SCALE = 2 ** 149;

/** Exact BigInt of an f32 value × 2^149 (an integer for every f32). */
function big(v: number): bigint {
  if (v === 0) return 0n;
  const a = Math.abs(v);
  // v · 2^149 can exceed the double range (v up to 3.4e38): split off a power of two that keeps it exact.
  const s = a < 2 ** 800 / F32_SCALE ? BigInt(a * F32_SCALE) : BigInt(a) << 149n;
  return v < 0 ? -s : s;
}

/**
 * Sign of ((b − a) × (c − a)) · (d − a): positive when d is above the plane of a, b, c (counter-clockwise seen
 * from above), 0 when the four points are coplanar. Coordinates must be f32 values (exactness relies on it).
 * Points are read from `p` at 3 · index.
 */
export function orient3d(p: ArrayLike<number>, a: number, b: number, c: number, d: number): number {
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
  const bx = p[3 * b] - ax, by = p[3 * b + 1] - ay, bz = p[3 * b + 2] - az;
  const cx = p[3 * c] - ax, cy = p[3 * c + 1] - ay, cz = p[3 * c + 2] - az;
  const dx = p[3 * d] - ax, dy = p[3 * d + 1] - ay, dz = p[3 * d + 2] - az;
  const t1 = cy * dz - cz * dy, t2 = cz * dx - cx * dz, t3 = cx * dy - cy * dx;
  const det = bx * t1 + by * t2 + bz * t3;
  const perm = Math.abs(bx) * (Math.abs(cy * dz) + Math.abs(cz * dy)) + Math.abs(by) * (Math.abs(cz * dx) + Math.abs(cx * dz)) + Math.abs(bz) * (Math.abs(cx * dy) + Math.abs(cy * dx));
  // The differences above are rounded too: the bound is taken with slack for them (2× Shewchuk's constant, whose
  // proof covers rounded differences with d as the origin).
  const bound = 2 * O3D_BOUND * perm;
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return orient3dExact(p, a, b, c, d);
}

export function orient3dExact(p: ArrayLike<number>, a: number, b: number, c: number, d: number): number {
  const A = [big(p[3 * a]), big(p[3 * a + 1]), big(p[3 * a + 2])];
  const B = [big(p[3 * b]) - A[0], big(p[3 * b + 1]) - A[1], big(p[3 * b + 2]) - A[2]];
  const C = [big(p[3 * c]) - A[0], big(p[3 * c + 1]) - A[1], big(p[3 * c + 2]) - A[2]];
  const D = [big(p[3 * d]) - A[0], big(p[3 * d + 1]) - A[1], big(p[3 * d + 2]) - A[2]];
  const det = B[0] * (C[1] * D[2] - C[2] * D[1]) + B[1] * (C[2] * D[0] - C[0] * D[2]) + B[2] * (C[0] * D[1] - C[1] * D[0]);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

/**
 * Sign of (b − a) × (c − a) in the plane of coordinates (u, v) = (axis u, axis v): positive when a, b, c turn
 * counter-clockwise. f32 coordinates, exact.
 */
export function orient2d(p: ArrayLike<number>, u: number, v: number, a: number, b: number, c: number): number {
  const au = p[3 * a + u], av = p[3 * a + v];
  const bu = p[3 * b + u] - au, bv = p[3 * b + v] - av, cu = p[3 * c + u] - au, cv = p[3 * c + v] - av;
  const l = bu * cv, r = bv * cu;
  const det = l - r;
  const bound = 2 * O2D_BOUND * (Math.abs(l) + Math.abs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  const A = [big(au), big(av)];
  const B = [big(p[3 * b + u]) - A[0], big(p[3 * b + v]) - A[1]];
  const C = [big(p[3 * c + u]) - A[0], big(p[3 * c + v]) - A[1]];
  const e = B[0] * C[1] - B[1] * C[0];
  return e > 0n ? 1 : e < 0n ? -1 : 0;
}
