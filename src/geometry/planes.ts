// Face planes (../shared/spec/physics-resource.md, "PhysicsResource": a face plane is eight bytes, the normal
// octahedrally encoded as two snorm16 values, then the offset as f32). The reference encoder writes NO face planes
// for kind-5 meshes (array offset [10] is 0), so the encoder never emits these; they serve validation and reports.

const snorm16 = (v: number): number => Math.max(-32767, Math.min(32767, Math.round(v * 32767)));

/**
 * A unit normal's octahedral encoding as two snorm16 values: project onto |x| + |y| + |z| = 1; for z < 0 fold the
 * lower hemisphere over the diagonals. A zero normal encodes as (0, 0).
 */
export function octahedralEncode(nx: number, ny: number, nz: number): [number, number] {
  const s = Math.abs(nx) + Math.abs(ny) + Math.abs(nz);
  if (s === 0) return [0, 0];
  let u = nx / s, v = ny / s;
  if (nz < 0) {
    const fu = (1 - Math.abs(v)) * (u >= 0 ? 1 : -1);
    const fv = (1 - Math.abs(u)) * (v >= 0 ? 1 : -1);
    u = fu;
    v = fv;
  }
  return [snorm16(u), snorm16(v)];
}

/** The unit normal two snorm16 octahedral values decode to. */
export function octahedralDecode(a: number, b: number): [number, number, number] {
  let u = Math.max(-1, a / 32767), v = Math.max(-1, b / 32767);
  const z = 1 - Math.abs(u) - Math.abs(v);
  if (z < 0) {
    const fu = (1 - Math.abs(v)) * (u >= 0 ? 1 : -1);
    const fv = (1 - Math.abs(u)) * (v >= 0 ? 1 : -1);
    u = fu;
    v = fv;
  }
  const len = Math.hypot(u, v, z);
  return [u / len, v / len, z / len];
}

/** A triangle's plane: octahedral normal and f32 offset n·p (p its first vertex); zero normal for no area. */
export function facePlane(v: Float32Array, a: number, b: number, c: number): { normal: [number, number]; offset: number } {
  const ux = v[3 * b] - v[3 * a], uy = v[3 * b + 1] - v[3 * a + 1], uz = v[3 * b + 2] - v[3 * a + 2];
  const wx = v[3 * c] - v[3 * a], wy = v[3 * c + 1] - v[3 * a + 1], wz = v[3 * c + 2] - v[3 * a + 2];
  let nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
  const len = Math.hypot(nx, ny, nz);
  if (len === 0) return { normal: [0, 0], offset: 0 };
  nx /= len; ny /= len; nz /= len;
  return { normal: octahedralEncode(nx, ny, nz), offset: Math.fround(nx * v[3 * a] + ny * v[3 * a + 1] + nz * v[3 * a + 2]) };
}
