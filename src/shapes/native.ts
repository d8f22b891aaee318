// Native shape kinds, behind --native-shapes (experimental: ReSkate Studio writes only kind 5, so whether the game
// handles what we write here is not established). ../shared/spec/physics-resource.md, "PhysicsResource": "The
// game's own small parts are convex polyhedra (kind 3: polygon faces, no edge data, no tree, zero bounds) and boxes
// with face planes (kind 2)"; a face plane is the octahedral normal and an f32 offset (src/format/plane.ts). Laid
// out as the codec reads and writes them (test/format/fixtures.ts boxShape / convexShape, the probe's files):
// vertices, the vertex → corner CSR, corner vertices, face offsets, face planes; no edge values, no tree.
// - kind 2 box: 8 vertices at ±half-extents in the box's frame (the part's rotation), 6 quads wound outward, the
//   shape's bounds ±half-extents (as the probe's box).
// - kind 3 convex: the hull's polygon faces, vertices recentred on the bounds' centre (the part position, f32, as
//   the mesh encoder does), part rotation identity, bounds zero (as the game's).
// Plane offset convention (**decision**, docs/format-decisions.md "Shapes"): n · p + offset = 0 for p on the face,
// unit n pointing out — the probe's cube (normals ±axis, offset −1 for faces at distance 1). Not yet settled by a
// game-written file.
import { encodePlane } from '../format/plane.ts';
import { KIND_BOX, KIND_CONVEX, type ShapeRecord } from '../format/types.ts';
import type { Quat, Vec3 } from './types.ts';

export interface NativeShape {
  kind: typeof KIND_BOX | typeof KIND_CONVEX;
  shape: ShapeRecord;
  /** Part position (game space) and rotation. */
  position: Vec3;
  rotation: Quat;
}

/** A native shape with the part's packed material: what an object carries instead of triangles. */
export interface NativePart extends NativeShape {
  material: number;
}

/** Box faces over the vertices i = (x: bit 0, y: bit 1, z: bit 2), wound outward, and their outward axes. */
const BOX_FACES: [number[], Vec3][] = [
  [[4, 5, 7, 6], [0, 0, 1]],
  [[1, 0, 2, 3], [0, 0, -1]],
  [[1, 3, 7, 5], [1, 0, 0]],
  [[0, 4, 6, 2], [-1, 0, 0]],
  [[2, 6, 7, 3], [0, 1, 0]],
  [[0, 1, 5, 4], [0, -1, 0]],
];

/** Shape arrays of polygon faces over `vertices` (xyz f32, already recentred); planes from unit normals and offsets. */
function polygonShape(vertices: Float32Array, faces: number[][], planes: { normal: Vec3; offset: number }[], min: Vec3, max: Vec3): ShapeRecord {
  const nv = vertices.length / 3;
  const cornerVertices = Uint16Array.from(faces.flat());
  const faceOffsets = new Uint16Array(faces.length + 1);
  faces.forEach((f, i) => (faceOffsets[i + 1] = faceOffsets[i] + f.length));
  const vertexCornerOffsets = new Uint16Array(nv + 1);
  for (const v of cornerVertices) vertexCornerOffsets[v + 1]++;
  for (let v = 0; v < nv; v++) vertexCornerOffsets[v + 1] += vertexCornerOffsets[v];
  const fill = vertexCornerOffsets.slice(0, nv);
  const cornerIdsByVertex = new Uint16Array(cornerVertices.length);
  cornerVertices.forEach((v, c) => (cornerIdsByVertex[fill[v]++] = c));
  const planeNormals = new Int16Array(2 * faces.length);
  const planeOffsets = new Float32Array(faces.length);
  planes.forEach((pl, f) => {
    const e = encodePlane(pl.normal, pl.offset);
    planeNormals[2 * f] = e.normal[0];
    planeNormals[2 * f + 1] = e.normal[1];
    planeOffsets[f] = e.offset;
  });
  return {
    min: min.map(Math.fround) as Vec3, max: max.map(Math.fround) as Vec3, word20: 0, vertices, vertexCornerOffsets, cornerIdsByVertex, cornerVertices,
    edgeValues: new Float32Array(0), concaveBits: new Uint8Array(0), flatBits: new Uint8Array(0), faceOffsets,
    planeNormals, planeOffsets, tree: new Uint32Array(0),
  };
}

/** A kind-2 box part for a box primitive (centre, rotation, half-extents). */
export function nativeBox(centre: Vec3, rotation: Quat, half: Vec3): NativeShape {
  const h = half.map(Math.fround) as Vec3;
  const vertices = new Float32Array(24);
  for (let i = 0; i < 8; i++) vertices.set([i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]], 3 * i);
  const planes = BOX_FACES.map(([, n]) => ({ normal: n, offset: -(Math.abs(n[0]) * h[0] + Math.abs(n[1]) * h[1] + Math.abs(n[2]) * h[2]) }));
  const shape = polygonShape(vertices, BOX_FACES.map(([f]) => f), planes, [-h[0], -h[1], -h[2]], h);
  return { kind: KIND_BOX, shape, position: centre.map(Math.fround) as Vec3, rotation: rotation.map(Math.fround) as Quat };
}

/**
 * A kind-3 convex part from polygon faces over `points` (xyz f32 game space; faces index them, wound outward).
 * Throws when the polygon count or corners pass the u16 fields.
 */
export function nativeConvex(points: Float32Array, polygonOffsets: ArrayLike<number>, polygonVertices: ArrayLike<number>, where: string): NativeShape {
  const faces: number[][] = [];
  const remap = new Map<number, number>();
  for (let f = 0; f + 1 < polygonOffsets.length; f++) {
    const face: number[] = [];
    for (let k = polygonOffsets[f]; k < polygonOffsets[f + 1]; k++) {
      const v = polygonVertices[k];
      if (!remap.has(v)) remap.set(v, remap.size);
      face.push(remap.get(v)!);
    }
    faces.push(face);
  }
  checkCounts(remap.size, faces, where);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const v of remap.keys()) for (let a = 0; a < 3; a++) {
    min[a] = Math.min(min[a], points[3 * v + a]);
    max[a] = Math.max(max[a], points[3 * v + a]);
  }
  const centre = [0, 1, 2].map((a) => Math.fround(Math.fround(min[a] + max[a]) * 0.5)) as Vec3;
  const vertices = new Float32Array(remap.size * 3);
  for (const [v, i] of remap) for (let a = 0; a < 3; a++) vertices[3 * i + a] = Math.fround(points[3 * v + a] - centre[a]);
  return { kind: KIND_CONVEX, shape: convexShape(vertices, faces), position: centre, rotation: [0, 0, 0, 1] };
}

/**
 * A kind-3 part from a stored record (src/shapes/stored.ts): the vertices as given (f32, already relative to the
 * part position), the faces over them in their order, the planes computed from them as nativeConvex does.
 */
export function storedConvex(vertices: Float32Array, faces: number[][], position: Vec3, where: string): NativeShape {
  checkCounts(vertices.length / 3, faces, where);
  return { kind: KIND_CONVEX, shape: convexShape(vertices, faces), position: position.map(Math.fround) as Vec3, rotation: [0, 0, 0, 1] };
}

function checkCounts(nv: number, faces: number[][], where: string): void {
  const corners = faces.reduce((s, f) => s + f.length, 0);
  if (nv > 0xffff || corners > 0xffff || faces.length > 0xffff) {
    throw new Error(`shapes: ${where}: a ${faces.length}-face hull does not fit one kind-3 shape (u16 counts); compile without --native-shapes`);
  }
}

/** The kind-3 shape of polygon faces over stored vertices: Newell's plane per face, bounds zero (as the game's). */
function convexShape(vertices: Float32Array, faces: number[][]): ShapeRecord {
  const planes = faces.map((face) => {
    // Newell's normal over the stored (recentred) vertices.
    let nx = 0, ny = 0, nz = 0;
    for (let k = 0; k < face.length; k++) {
      const a = face[k], b = face[(k + 1) % face.length];
      const ax = vertices[3 * a], ay = vertices[3 * a + 1], az = vertices[3 * a + 2], bx = vertices[3 * b], by = vertices[3 * b + 1], bz = vertices[3 * b + 2];
      nx += (ay - by) * (az + bz);
      ny += (az - bz) * (ax + bx);
      nz += (ax - bx) * (ay + by);
    }
    const l = Math.hypot(nx, ny, nz);
    const n: Vec3 = [nx / l, ny / l, nz / l];
    let d = 0;
    for (const v of face) d += n[0] * vertices[3 * v] + n[1] * vertices[3 * v + 1] + n[2] * vertices[3 * v + 2];
    return { normal: n, offset: -d / face.length };
  });
  return polygonShape(vertices, faces, planes, [0, 0, 0], [0, 0, 0]);
}
