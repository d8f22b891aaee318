// Face planes (../shared/spec/physics-resource.md, "PhysicsResource": a face plane is eight bytes, the normal
// octahedrally encoded as two snorm16 values, then the offset as f32; the convention is the codec's,
// src/format/plane.ts). The reference encoder writes NO face planes for kind-5 meshes (array offset [10] is 0), so the
// encoder never emits these; they serve validation and reports.

import { encodeNormal } from '../format/plane.ts';

/** A triangle's plane over xyz positions `v`: octahedral unit normal and f32 offset n·a; (0, 0) and 0 for no area. */
export function facePlane(v: Float32Array, a: number, b: number, c: number): { normal: [number, number]; offset: number } {
  const ux = v[3 * b] - v[3 * a], uy = v[3 * b + 1] - v[3 * a + 1], uz = v[3 * b + 2] - v[3 * a + 2];
  const wx = v[3 * c] - v[3 * a], wy = v[3 * c + 1] - v[3 * a + 1], wz = v[3 * c + 2] - v[3 * a + 2];
  let nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
  const len = Math.hypot(nx, ny, nz);
  if (len === 0) return { normal: [0, 0], offset: 0 };
  nx /= len; ny /= len; nz /= len;
  return { normal: encodeNormal(nx, ny, nz), offset: Math.fround(nx * v[3 * a] + ny * v[3 * a + 1] + nz * v[3 * a + 2]) };
}

/** Every face's plane of a shape (vertices and corner vertices as stored): snorm16 pairs and f32 offsets. */
export function facePlanes(v: Float32Array, corners: ArrayLike<number>): { normals: Int16Array; offsets: Float32Array } {
  const faces = corners.length / 3;
  const normals = new Int16Array(2 * faces);
  const offsets = new Float32Array(faces);
  for (let f = 0; f < faces; f++) {
    const p = facePlane(v, corners[3 * f], corners[3 * f + 1], corners[3 * f + 2]);
    normals[2 * f] = p.normal[0];
    normals[2 * f + 1] = p.normal[1];
    offsets[f] = p.offset;
  }
  return { normals, offsets };
}
