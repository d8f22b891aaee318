// The ride's world: every kind-5 face of the written PhysicsResources in world space (part rotation and position
// applied, ../shared/spec/physics-resource.md "PhysicsResource"), with each corner's stored edge data read back
// ("Triangle-mesh shapes": flat bit, concave bit, convex value cos(acos(d)/2), 1.0 with neither bit), whether the
// corner's edge is a border of its shape (no single opposite corner in the shape: a cut, a T-junction or the
// level's border), and a uniform grid over x/z for the probes' look-ups. Flat typed arrays, one entry a face.
// Input is the resources as read by the codec (src/format/resource.ts): the ride checks what the game loads.
import { KIND_MESH, type PhysicsResource } from '../format/types.ts';
import { edgeAllowance, EDGE_CONCAVE, EDGE_CONVEX, EDGE_FLAT, EDGE_OPEN } from './contact.ts';

export interface RideWorld {
  faces: number;
  /**
   * World vertices, x y z each (f64 of the stored f32 arithmetic): each kind-5 part's shape vertices turned by the
   * part's rotation and moved by its position, part by part (not welded across parts: a face's corners are the
   * values its part gives them, whatever another part holds).
   */
  vert: Float64Array;
  /** Per corner, three a face: its vertex (x at vert[3 · corner]). */
  corner: Uint32Array;
  /** Per corner: the deviation from the face normal a contact on this edge may keep, radians (contact.ts). */
  allow: Float32Array;
  /**
   * Per face, bits (FaceBits): each corner's edge kind as stored and whether its edge is a shape border, whether the
   * face is walkable and whether a contact may keep its own normal on one of its edges. The face's unit normal is not
   * stored: faceNormal works it out from the corners when asked, to the same bits.
   */
  faceBits: Uint16Array;
  /**
   * Where the faces came from, by runs of consecutive faces of one part: 4 numbers a run (its first world face, its
   * resource (index into `names`), its part in that resource, the face in that part's shape of its first face),
   * runs in face order (faceSource).
   */
  runs: Uint32Array;
  names: string[];
  min: [number, number, number];
  max: [number, number, number];
  grid: Grid;
}

/**
 * RideWorld.faceBits, a face's u16: corner k's edge kind (EDGE_FLAT … EDGE_OPEN: edge from corner k to k + 1) in
 * bits 2k and 2k + 1 (edgeKindAt); corner k's border flag (1 when no single corner of the same shape runs the edge the
 * other way: a shape border) in bit BORDER_BIT + k (isBorder); FACE_WALKABLE (faceNormal's y at least
 * WALKABLE_MIN_NY: isWalkable); FACE_ALLOWS (an edge whose allowance is above 0: a contact there may keep its own
 * normal). The hot filters (heightAt, the quiet map, the coverage, the seams) read these two bytes a face, not a
 * normal's 24.
 */
export const BORDER_BIT = 6;
/** FaceBits: any corner a border. */
export const FACE_BORDERS = 7 << BORDER_BIT;
/** FaceBits: walkable. */
export const FACE_WALKABLE = 1 << 9;
/** FaceBits: an edge's allowance above 0. */
export const FACE_ALLOWS = 1 << 10;

/** Corner e's (3 · face + k) edge kind as stored: EDGE_FLAT, EDGE_CONCAVE, EDGE_CONVEX or EDGE_OPEN. */
export const edgeKindAt = (w: RideWorld, e: number): number => {
  const t = (e / 3) | 0;
  return (w.faceBits[t] >> (2 * (e - 3 * t))) & 3;
};
/** Whether corner e's edge is a border of its shape (FaceBits). */
export const isBorder = (w: RideWorld, e: number): boolean => {
  const t = (e / 3) | 0;
  return ((w.faceBits[t] >> (BORDER_BIT + e - 3 * t)) & 1) === 1;
};

/**
 * Faces by x/z cell: CSR (start has cells + 1 entries: byte offsets into items). A cell's faces are in ascending
 * order, each stored as its distance from the one before less one (from −1 for the first) in LEB128 (7 bits a
 * byte, low first, the high bit set on all but the last): a cell's faces are mostly neighbours in one part, one
 * byte each, where a u32 took four. Read (inline in the hot loops) as:
 *
 *     let t = -1;
 *     for (let e = start[c], end = start[c + 1]; e < end; ) {
 *       let b = items[e++], d = b & 0x7f;
 *       for (let m = 0x80; b > 0x7f; m *= 0x80) { b = items[e++]; d += (b & 0x7f) * m; }
 *       t += d + 1; // the next face
 *     }
 */
export interface Grid {
  x0: number;
  z0: number;
  cell: number;
  nx: number;
  nz: number;
  start: Uint32Array;
  items: Uint8Array;
}

/** Bytes the grid stores a face distance `d` (the gap less one) in. */
const varintBytes = (d: number): number => (d < 0x80 ? 1 : d < 0x4000 ? 2 : d < 0x200000 ? 3 : d < 0x10000000 ? 4 : 5);

export interface WorldOptions {
  /** Grid cell edge at most, m (0.1 … 100; default 2): finer where faces are dense; widened so the grid has at most maxCells cells. */
  cell: number;
  /** Grid cells at most (default 4,000,000). */
  maxCells: number;
}
/** Faces a grid cell holds on average, at most (a flat level's two triangles a quad: FACES_PER_CELL / 2 quads). */
const FACES_PER_CELL = 4;

export const WORLD_DEFAULTS: WorldOptions = { cell: 2, maxCells: 4_000_000 };

/** A resource to ride: its name (manifest name or file name) and the record read from its bytes. */
export interface RideResource {
  name: string;
  resource: PhysicsResource;
}

/** Faces a resource gives the world at most: its kind-5 parts' faces (a shape two parts name counts twice). */
export function resourceFaces(r: PhysicsResource): number {
  let n = 0;
  for (const p of r.parts) if (p.kind === KIND_MESH && p.shape < r.shapes.length) n += Math.max(0, r.shapes[p.shape].faceOffsets.length - 1);
  return n;
}

/** Vertices a resource gives the world at most: its kind-5 parts' shape vertices, and one at the origin a part for corners past them. */
export function resourceVertices(r: PhysicsResource): number {
  let n = 0;
  for (const p of r.parts) if (p.kind === KIND_MESH && p.shape < r.shapes.length) n += r.shapes[p.shape].vertices.length / 3 + 1;
  return n;
}

/**
 * The faces and vertices writeFaces writes for a resource, exactly, by its rules: a kind-5 part (of a shape the
 * resource has) gives its shape's vertices, its triangle faces (three corner offsets apart, within the corners),
 * and one vertex more, at the origin, when one of those faces has a corner past the shape's vertices. A worker
 * writes a file's faces at the offset these give (src/ride/threads.ts): a test holds them to writeFaces' own.
 */
export function countFaces(r: Pick<PhysicsResource, 'parts'> & { shapes: Pick<PhysicsResource['shapes'][number], 'vertices' | 'cornerVertices' | 'faceOffsets'>[] }): Written {
  let faces = 0, vertices = 0;
  for (const p of r.parts) {
    if (p.kind !== KIND_MESH || p.shape >= r.shapes.length) continue;
    const s = r.shapes[p.shape], offsets = s.faceOffsets, cv = s.cornerVertices, corners = cv.length, nv = s.vertices.length / 3;
    let origin = false;
    for (let f = 0; f + 1 < offsets.length; f++) {
      const c0 = offsets[f];
      if (offsets[f + 1] - c0 !== 3 || c0 + 3 > corners) continue;
      faces++;
      if (!origin && (cv[c0] >= nv || cv[c0 + 1] >= nv || cv[c0 + 2] >= nv)) origin = true;
    }
    vertices += Math.ceil(nv) + (origin ? 1 : 0); // writeFaces writes vertex v for each v < nv
  }
  return { faces, vertices };
}

/**
 * File bytes a kind-5 face takes at least in a resource verify passes: three corners (u16 vertex, f32 edge value),
 * its u16 face offset and a tree node (u64; faces − 1 of them): 28. A capacity estimate only (parts that share a
 * shape give the world its faces more than once; the builder grows then).
 */
export const MIN_FILE_BYTES_PER_FACE = 28;
/** File bytes a vertex takes at least: its f32 x y z and its u16 corner offset (14). A capacity estimate, as above. */
export const MIN_FILE_BYTES_PER_VERTEX = 14;

/**
 * Faces and vertices to size a builder for, from the bytes of the files it will be given (MIN_FILE_BYTES_PER_FACE,
 * _VERTEX), each at most 8,000,000 (~0.8 GB of address space): files of many GiB give an estimate, not an
 * allocation; a world past it grows.
 */
export const capacityForBytes = (bytes: number): { faces: number; vertices: number } => ({
  faces: Math.min(8_000_000, bytes / MIN_FILE_BYTES_PER_FACE), vertices: Math.min(8_000_000, bytes / MIN_FILE_BYTES_PER_VERTEX),
});

/** The world's vertex and per-face arrays (RideWorld's), filled from vertex 0 and face 0 on. */
export type FaceArrays = Pick<RideWorld, 'vert' | 'corner' | 'allow' | 'faceBits'>;

/** Arrays for `faces` faces and `vertices` vertices; `shared`: on SharedArrayBuffers (worker threads read them in place). */
export function faceArrays(faces: number, vertices: number, shared = false): FaceArrays {
  const buf = (bytes: number): ArrayBuffer | SharedArrayBuffer => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  return {
    vert: new Float64Array(buf(24 * vertices)), corner: new Uint32Array(buf(12 * faces)), allow: new Float32Array(buf(12 * faces)),
    faceBits: new Uint16Array(buf(2 * faces)),
  };
}

/** Faces and vertices written (writeFaces). */
export interface Written {
  faces: number;
  vertices: number;
}

/**
 * Builds the world a resource at a time (add), so a caller reading files can let each file's bytes and record go
 * once its faces are in: the world's arrays, not every record beside them, set the peak. Faces are kept in the
 * order added (resource, part, face), which is the world's face order whichever way it is built.
 *
 * `faces` and `vertices` size the arrays up front; past them they grow by half again (a copy). A generous estimate
 * costs address space, not memory: the arrays are zero-filled on demand, page by page, and the pages never
 * written (past the last face) are never resident.
 */
export class WorldBuilder {
  private a: FaceArrays;
  private faceCap: number;
  private vertCap: number;
  private n = 0;
  private nv = 0;
  private readonly runs: number[] = [];
  private readonly names: string[] = [];
  private readonly lo = [Infinity, Infinity, Infinity];
  private readonly hi = [-Infinity, -Infinity, -Infinity];
  /** `shared`: the world's arrays on SharedArrayBuffers (for worker threads: threads.ts). */
  constructor(faces = 0, private readonly shared = false, vertices = faces) {
    this.faceCap = Math.max(0, Math.floor(faces));
    this.vertCap = Math.max(0, Math.floor(vertices));
    this.a = faceArrays(this.faceCap, this.vertCap, shared);
  }
  /** Appends the resource's triangle faces (non-triangle faces and non-mesh parts are skipped). */
  add({ name, resource: r }: RideResource): void {
    this.reserve(this.n + resourceFaces(r), this.nv + resourceVertices(r));
    const w = writeFaces(r, this.names.length, this.a, { faces: this.n, vertices: this.nv }, this.lo, this.hi, this.runs);
    this.n = w.faces;
    this.nv = w.vertices;
    this.names.push(name);
  }
  /**
   * Appends a resource's faces written elsewhere (writeFaces into faceArrays from face and vertex 0, with resource
   * 0 in its runs, on a worker thread): its corners' vertices and its runs' faces and resource are moved here.
   */
  addFaces(name: string, written: Written, a: FaceArrays, runs: ArrayLike<number>, lo: ArrayLike<number>, hi: ArrayLike<number>): void {
    const { faces, vertices } = written;
    this.reserve(this.n + faces, this.nv + vertices);
    const n = this.n, nv = this.nv, b = this.a;
    b.vert.set(a.vert.subarray(0, 3 * vertices), 3 * nv);
    for (let c = 0, o = 3 * n; c < 3 * faces; c++) b.corner[o + c] = a.corner[c] + nv;
    b.allow.set(a.allow.subarray(0, 3 * faces), 3 * n); b.faceBits.set(a.faceBits.subarray(0, faces), n);
    for (let k = 0; k < runs.length; k += 4) this.runs.push(runs[k] + n, this.names.length, runs[k + 2], runs[k + 3]);
    for (let k = 0; k < 3; k++) {
      if (lo[k] < this.lo[k]) this.lo[k] = lo[k];
      if (hi[k] > this.hi[k]) this.hi[k] = hi[k];
    }
    this.n += faces;
    this.nv += vertices;
    this.names.push(name);
  }
  private reserve(faces: number, vertices: number): void {
    if (faces > this.faceCap || vertices > this.vertCap) {
      this.grow(faces > this.faceCap ? Math.max(faces, Math.ceil(this.faceCap * 1.5)) : this.faceCap, vertices > this.vertCap ? Math.max(vertices, Math.ceil(this.vertCap * 1.5)) : this.vertCap);
    }
  }
  private grow(faces: number, vertices: number): void {
    const b = faceArrays(faces, vertices, this.shared), n = this.n;
    b.vert.set(this.a.vert.subarray(0, 3 * this.nv)); b.corner.set(this.a.corner.subarray(0, 3 * n));
    b.allow.set(this.a.allow.subarray(0, 3 * n)); b.faceBits.set(this.a.faceBits.subarray(0, n));
    this.a = b;
    this.faceCap = faces;
    this.vertCap = vertices;
  }
  /** The world of the faces added, with its grid. */
  finish(options: Partial<WorldOptions> = {}): RideWorld {
    return worldOf(this.a, this.n, this.nv, this.runs, this.names, this.lo, this.hi, options, this.shared);
  }
}

/**
 * The world of `faces` faces and `vertices` vertices written into `a` (from 0 on), their runs (4 numbers a run, in
 * face order), the resources' names and the faces' bounds, with its grid (on shared memory when `shared`).
 */
export function worldOf(a: FaceArrays, faces: number, vertices: number, runs: number[], names: string[], lo: number[], hi: number[], options: Partial<WorldOptions> = {}, shared = false): RideWorld {
  const opt = { ...WORLD_DEFAULTS, ...options };
  const n = faces;
  const world: RideWorld = {
    faces: n, vert: a.vert.subarray(0, 3 * vertices), corner: a.corner.subarray(0, 3 * n), allow: a.allow.subarray(0, 3 * n),
    faceBits: a.faceBits.subarray(0, n),
    runs: Uint32Array.from(runs), names,
    min: n ? [lo[0], lo[1], lo[2]] : [0, 0, 0], max: n ? [hi[0], hi[1], hi[2]] : [0, 0, 0],
    grid: { x0: 0, z0: 0, cell: 1, nx: 0, nz: 0, start: new Uint32Array(1), items: new Uint8Array(0) },
  };
  world.grid = buildGrid(world, opt, shared);
  return world;
}

/** Builds the world from resources read by the codec. Non-triangle faces and non-mesh parts are skipped. */
export function buildWorld(resources: RideResource[], options: Partial<WorldOptions> = {}): RideWorld {
  const b = new WorldBuilder(resources.reduce((s, r) => s + resourceFaces(r.resource), 0), false, resources.reduce((s, r) => s + resourceVertices(r.resource), 0));
  for (const r of resources) b.add(r);
  return b.finish(options);
}

/** Where world face t came from: its resource's name, its part in it, its face in the part's shape (a search of the runs). */
export function faceSource(w: RideWorld, t: number): { resource: string; part: number; face: number } {
  const R = w.runs;
  let lo = 0, hi = R.length / 4 - 1;
  // The last run starting at or before t.
  while (lo < hi) {
    const m = (lo + hi + 1) >> 1;
    if (R[4 * m] <= t) lo = m;
    else hi = m - 1;
  }
  return { resource: w.names[R[4 * lo + 1]], part: R[4 * lo + 2], face: R[4 * lo + 3] + (t - R[4 * lo]) };
}

/**
 * Math.hypot(x, y, z) as V8 computes it (the arguments normalized by the largest, their squares Kahan-summed, the
 * root scaled back), bit for bit: the builtin stays a call in optimized code (its arguments gathered into an array
 * each time), ~10 % of the world's faces' time; Math.sqrt(x * x + y * y + z * z) differs from it in the last bit on
 * some faces, and the world's normals are kept as they were (a test holds the two to the same bits).
 */
export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  let max = 0;
  if (ax > max) max = ax;
  if (ay > max) max = ay;
  if (az > max) max = az;
  if (max === Infinity) return Infinity;
  if (x !== x || y !== y || z !== z) return NaN;
  if (max === 0) return 0;
  let sum = 0, compensation = 0, n = ax / max, summand = n * n - compensation, preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  n = ay / max; summand = n * n - compensation; preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  n = az / max; summand = n * n - compensation; preliminary = sum + summand;
  return Math.sqrt(preliminary) * max;
}

/**
 * Face t's unit normal (right-handed winding: (B − A) × (C − A) over its hypot3), or zero for a degenerate face (length
 * 1e-12 or less, or NaN), into out[o … o + 2]. Worked out when asked, not stored (24 bytes a face, most never asked
 * for): every reader gets the bits a stored normal had, as this is the one place they are computed (a test holds
 * them to the plain formula on real outputs and hostile faces).
 */
export function faceNormal(V: Float64Array, C: Uint32Array, t: number, out: Float64Array, o = 0): void {
  const A = 3 * C[3 * t], B = 3 * C[3 * t + 1], D = 3 * C[3 * t + 2];
  const ux = V[B] - V[A], uy = V[B + 1] - V[A + 1], uz = V[B + 2] - V[A + 2];
  const vx = V[D] - V[A], vy = V[D + 1] - V[A + 1], vz = V[D + 2] - V[A + 2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const len = hypot3(nx, ny, nz);
  if (len > 1e-12) {
    out[o] = nx / len;
    out[o + 1] = ny / len;
    out[o + 2] = nz / len;
  } else {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
  }
}
/** writeFaces' normal. */
const NORMAL = new Float64Array(3);

/** edgeAllowance of the kinds whose allowance the stored value does not change (flat, concave, open), by kind. */
const ALLOWANCE = new Float32Array(4);
for (const k of [EDGE_FLAT, EDGE_CONCAVE, EDGE_OPEN]) ALLOWANCE[k] = edgeAllowance(k, 1);

/** writeFaces's scratch, kept between calls (one a thread): each corner's next vertex round its face, and by the vertex → corner index. */
let nextScratch = new Uint16Array(1024), indexedNext = new Int32Array(1024);

/**
 * Writes resource `ri`'s triangle faces into `a` from face `at.faces` and its parts' vertices from vertex
 * `at.vertices`, widening the bounds lo/hi by the faces' vertices and adding a run (first face, ri, part, face in
 * the shape) to `runs` where the faces written stop following on from the last. Returns the face and vertex after
 * the last written. `a` has room for resourceFaces(r) and resourceVertices(r) more. Sets every entry of the faces
 * and vertices it writes (a worker writes into arrays it wrote before).
 */
export function writeFaces(r: PhysicsResource, ri: number, a: FaceArrays, at: Written, min: number[], max: number[], runs: number[]): Written {
  const { vert, corner, allow, faceBits } = a;
  let t = at.faces, nw = at.vertices;
  // The bounds in locals (a corner at a time, in face order: the same comparisons as a vertex at a time would make).
  let lx = min[0], ly = min[1], lz = min[2], hx = max[0], hy = max[1], hz = max[2];
  const parts = r.parts, shapes = r.shapes;
  let convexValue = NaN, convexAllowance = 0;
  for (let pi = 0; pi < parts.length; pi++) {
    const p = parts[pi];
    if (p.kind !== KIND_MESH || p.shape >= shapes.length) continue;
    const s = shapes[p.shape];
    const offsets = s.faceOffsets, cv = s.cornerVertices, sv = s.vertices;
    const nf = Math.max(0, offsets.length - 1);
    const nv = sv.length / 3;
    // The part's world vertices from `base` on (rotated by the part's quaternion, then moved); a corner past the
    // shape's vertices is at the origin (one more vertex).
    const base = nw;
    const q = p.rotation, qx = q[0], qy = q[1], qz = q[2], qw = q[3], px = p.position[0], py = p.position[1], pz = p.position[2];
    for (let v = 0; v < nv; v++) {
      const x = sv[3 * v], y = sv[3 * v + 1], z = sv[3 * v + 2];
      const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
      vert[3 * nw] = x + qw * tx + (qy * tz - qz * ty) + px;
      vert[3 * nw + 1] = y + qw * ty + (qz * tx - qx * tz) + py;
      vert[3 * nw + 2] = z + qw * tz + (qx * ty - qy * tx) + pz;
      nw++;
    }
    let origin = -1;
    const corners = cv.length;
    // Each corner's next vertex round its face (0xffff where the face offsets do not cover it).
    if (nextScratch.length < corners) nextScratch = new Uint16Array(Math.max(corners, 2 * nextScratch.length));
    const next = nextScratch;
    next.fill(0xffff, 0, corners);
    for (let f = 0; f < nf; f++) {
      const lo = offsets[f], hi = Math.min(offsets[f + 1], corners);
      if (hi - lo === 3) {
        next[lo] = cv[lo + 1]; next[lo + 1] = cv[lo + 2]; next[lo + 2] = cv[lo];
      } else for (let c = lo; c < hi; c++) next[c] = cv[c + 1 < hi ? c + 1 : lo];
    }
    const flatBits = s.flatBits, concaveBits = s.concaveBits, values = s.edgeValues;
    const hasBits = flatBits.length > 0 && concaveBits.length > 0, hasValues = values.length === corners;
    const cornerOffsets = s.vertexCornerOffsets, cornerIds = s.cornerIdsByVertex;
    const indexed = cornerOffsets.length === nv + 1;
    // The next vertex of each corner the vertex → corner index lists, in its order (−1 for an index past the
    // corners): a corner's twins are then counted along one array.
    const listed = cornerIds.length;
    if (indexedNext.length < listed) indexedNext = new Int32Array(Math.max(listed, 2 * indexedNext.length));
    const after = indexedNext;
    if (indexed) for (let m = 0; m < listed; m++) { const id = cornerIds[m]; after[m] = id < corners ? next[id] : -1; }
    let follows = false;
    for (let f = 0; f < nf; f++) {
      const c0 = offsets[f];
      if (offsets[f + 1] - c0 !== 3 || c0 + 3 > corners) { follows = false; continue; } // kind-5 faces are triangles
      if (!follows) runs.push(t, ri, pi, f);
      follows = true;
      let bits = 0;
      for (let k = 0; k < 3; k++) {
        const c = c0 + k, v = cv[c], e = 3 * t + k;
        if (v >= nv) {
          if (origin < 0) {
            origin = nw++;
            vert[3 * origin] = 0; vert[3 * origin + 1] = 0; vert[3 * origin + 2] = 0;
          }
          corner[e] = origin;
          allow[e] = 0; // EDGE_FLAT (0), no border
          continue;
        }
        corner[e] = base + v;
        const o = 3 * (base + v), x = vert[o], y = vert[o + 1], z = vert[o + 2];
        if (x < lx) lx = x;
        if (x > hx) hx = x;
        if (y < ly) ly = y;
        if (y > hy) hy = y;
        if (z < lz) lz = z;
        if (z > hz) hz = z;
        let kind: number;
        if (hasBits && (flatBits[c >> 3] >> (c & 7)) & 1) kind = EDGE_FLAT;
        else if (hasBits && (concaveBits[c >> 3] >> (c & 7)) & 1) kind = EDGE_CONCAVE;
        else if (hasValues && values[c] !== 1) kind = EDGE_CONVEX;
        else kind = EDGE_OPEN;
        bits |= kind << (2 * k);
        if (kind === EDGE_CONVEX) {
          // A level's convex edges store a few values between them: the last one's allowance kept.
          const value = values[c];
          if (value !== convexValue) {
            convexValue = value;
            convexAllowance = edgeAllowance(EDGE_CONVEX, value);
          }
          allow[e] = convexAllowance;
        } else allow[e] = ALLOWANCE[kind];
        if (allow[e] > 0) bits |= FACE_ALLOWS;
        // A border unless exactly one corner of the shape runs the edge the other way: of the corners at the edge's
        // far vertex (the shape's vertex → corner index), those whose next vertex is this corner's.
        const to = cv[k < 2 ? c + 1 : c0];
        let twins = 0;
        if (indexed && to < nv) for (let m = cornerOffsets[to], end = Math.min(cornerOffsets[to + 1], listed); m < end; m++) if (after[m] === v) twins++;
        if (twins !== 1) bits |= 1 << (BORDER_BIT + k);
      }
      faceNormal(vert, corner, t, NORMAL);
      if (NORMAL[1] >= WALKABLE_MIN_NY) bits |= FACE_WALKABLE;
      faceBits[t] = bits;
      t++;
    }
  }
  min[0] = lx; min[1] = ly; min[2] = lz;
  max[0] = hx; max[1] = hy; max[2] = hz;
  return { faces: t, vertices: nw };
}

/**
 * Each vertex's grid column and row (cellOf of its x and of its z: two entries a vertex), or −1 for a NaN
 * coordinate. x → cellOf(x) never decreases, so the column of a face's least x is the least of its vertices'
 * columns: a vertex's is worked out once, not once a face. A face with a −1 lies in no cell (as cellOf's NaN left it).
 */
export function vertexCells(V: Float64Array, x0: number, z0: number, cell: number, nx: number, nz: number): Int32Array {
  const vertices = V.length / 3, place = new Int32Array(2 * vertices);
  for (let v = 0; v < vertices; v++) {
    const i = Math.floor((V[3 * v] - x0) / cell), j = Math.floor((V[3 * v + 2] - z0) / cell);
    place[2 * v] = i < 0 ? 0 : i >= nx ? nx - 1 : i === i ? i : -1;
    place[2 * v + 1] = j < 0 ? 0 : j >= nz ? nz - 1 : j === j ? j : -1;
  }
  return place;
}

/**
 * What the grid's build leaves for the coverage grid (lanes.ts Cover) to take instead of allocating afresh: its
 * vertices' columns and rows (vertexCellsOf: the same numbers where the cells are the same) and its per-cell scratch
 * (takeScratch: pages already touched; a first touch of fresh memory costs ~4–15 µs a page on a 2-core VM, ~70–250 ms
 * over a 67 MB world). Each is taken once; what is not taken is let go when the next grid is built (at most one
 * grid's: 8 bytes a cell and 8 a vertex; the world's vertices are only referred to weakly, to know them again).
 */
let leftPlace: { place: Int32Array; vert: WeakRef<Float64Array>; key: number[] } | undefined;
let leftScratch: ArrayBuffer | undefined;

/** vertexCells(V, x0, z0, cell, nx, nz): the last grid's own (taken: once) when it was built over these vertices and cells. */
export function vertexCellsOf(V: Float64Array, x0: number, z0: number, cell: number, nx: number, nz: number): Int32Array {
  const l = leftPlace, key = [x0, z0, cell, nx, nz];
  leftPlace = undefined;
  if (l && l.vert.deref() === V && key.every((k, n) => Object.is(k, l.key[n]))) return l.place;
  return vertexCells(V, x0, z0, cell, nx, nz);
}

/** The last grid's per-cell scratch (taken: once) when it holds at least `bytes`, else undefined. */
export function takeScratch(bytes: number): ArrayBuffer | undefined {
  const b = leftScratch;
  leftScratch = undefined;
  return b && b.byteLength >= bytes ? b : undefined;
}

/** Faces the grid's passes take a call at a time. */
const GRID_CHUNK = 1 << 16;

/** A face's entry in cell at[m]'s count (first pass): its gap's bytes added, the cell's last face + 1 set. */
function tally(at: Uint32Array, m: number, t: number): void {
  const d = t - at[m];
  at[m] = t + 1;
  at[m + 1] += d < 0x80 ? 1 : varintBytes(d);
}

/** A face's entry written into cell at[m]'s bytes (second pass): its gap, LEB128, from at[m + 1] on. */
function put(at: Uint32Array, items: Uint8Array, m: number, t: number): void {
  let d = t - at[m], e = at[m + 1];
  at[m] = t + 1;
  for (; d > 0x7f; d >>>= 7) items[e++] = (d & 0x7f) | 0x80; // d < 2³²: a face index's distance
  items[e] = d;
  at[m + 1] = e + 1;
}

// Both passes walk a face's cells row by row, the first three of a row written out: most faces span one to three
// columns (the cell follows the faces' density: a level of fine faces gets fine cells), and a loop of one to three
// turns whose count changes face to face mispredicted its exit (the 1M-face bench level, 56% of its faces 3 × 3
// cells and 35% one: ~17% of each pass). The same cells in the same order as a plain loop: the same bytes.

/** The grid's first pass over faces [from, to): each cell's bytes (at[2k + 1]) and its last face + 1 (at[2k]). */
function countCells(C: Uint32Array, place: Int32Array, at: Uint32Array, nx: number, from: number, to: number): void {
  for (let t = from; t < to; t++) {
    const a = 2 * C[3 * t], b = 2 * C[3 * t + 1], c = 2 * C[3 * t + 2];
    const ia = place[a], ib = place[b], ic = place[c], ja = place[a + 1], jb = place[b + 1], jc = place[c + 1];
    if ((ia | ib | ic | ja | jb | jc) < 0) continue; // a NaN column or row (−1): no cells
    const i0 = ia < ib ? (ia < ic ? ia : ic) : ib < ic ? ib : ic, i1 = ia > ib ? (ia > ic ? ia : ic) : ib > ic ? ib : ic;
    const j0 = ja < jb ? (ja < jc ? ja : jc) : jb < jc ? jb : jc, j1 = ja > jb ? (ja > jc ? ja : jc) : jb > jc ? jb : jc;
    // Its cells row by row (m: 2 × the cell).
    const di = i1 - i0;
    for (let m = 2 * (j0 * nx + i0), last = m + 2 * (j1 - j0) * nx; m <= last; m += 2 * nx) {
      tally(at, m, t);
      if (di === 0) continue;
      tally(at, m + 2, t);
      if (di === 1) continue;
      tally(at, m + 4, t);
      for (let r = m + 6, end = m + 2 * di; r <= end; r += 2) tally(at, r, t);
    }
  }
}

/** The grid's second pass over faces [from, to): each face written into its cells' bytes from at[2k + 1] on. */
function fillCells(C: Uint32Array, place: Int32Array, at: Uint32Array, items: Uint8Array, nx: number, from: number, to: number): void {
  for (let t = from; t < to; t++) {
    const a = 2 * C[3 * t], b = 2 * C[3 * t + 1], c = 2 * C[3 * t + 2];
    const ia = place[a], ib = place[b], ic = place[c], ja = place[a + 1], jb = place[b + 1], jc = place[c + 1];
    if ((ia | ib | ic | ja | jb | jc) < 0) continue;
    const i0 = ia < ib ? (ia < ic ? ia : ic) : ib < ic ? ib : ic, i1 = ia > ib ? (ia > ic ? ia : ic) : ib > ic ? ib : ic;
    const j0 = ja < jb ? (ja < jc ? ja : jc) : jb < jc ? jb : jc, j1 = ja > jb ? (ja > jc ? ja : jc) : jb > jc ? jb : jc;
    const di = i1 - i0;
    for (let m = 2 * (j0 * nx + i0), last = m + 2 * (j1 - j0) * nx; m <= last; m += 2 * nx) {
      put(at, items, m, t);
      if (di === 0) continue;
      put(at, items, m + 2, t);
      if (di === 1) continue;
      put(at, items, m + 4, t);
      for (let r = m + 6, end = m + 2 * di; r <= end; r += 2) put(at, items, r, t);
    }
  }
}

function buildGrid(w: RideWorld, opt: WorldOptions, shared = false): Grid {
  leftPlace = undefined;
  leftScratch = undefined;
  if (w.faces === 0) return w.grid;
  const sx = w.max[0] - w.min[0], sz = w.max[2] - w.min[2];
  // About FACES_PER_CELL faces a cell on average (a level of fine faces gets fine cells), within [0.1, opt.cell].
  const dense = Math.sqrt((Math.max(sx, 0.1) * Math.max(sz, 0.1)) / Math.max(1, w.faces)) * Math.sqrt(FACES_PER_CELL / 2);
  let cell = Math.min(100, Math.max(0.1, Math.min(opt.cell, dense)));
  while (Math.ceil(sx / cell + 1e-9) * Math.ceil(sz / cell + 1e-9) > opt.maxCells) cell *= 2;
  const nx = Math.max(1, Math.ceil(sx / cell + 1e-9)), nz = Math.max(1, Math.ceil(sz / cell + 1e-9));
  const u32 = (n: number): Uint32Array => new Uint32Array(shared ? new SharedArrayBuffer(4 * n) : new ArrayBuffer(4 * n));
  const cells = nx * nz, faces = w.faces;
  const g: Grid = { x0: w.min[0], z0: w.min[2], cell, nx, nz, start: u32(cells + 1), items: new Uint8Array(0) };
  const start = g.start, C = w.corner;
  // Two passes over the faces: count each cell's bytes, then fill (a function each, called a chunk of faces at a
  // time: each is compiled for its own loop, once, in a process that runs it once). A face's cells: the columns and
  // rows of its vertices' least and greatest x and z (vertexCells). Per cell, side by side (one cache line for both):
  // the face after its last listed (0: none yet), and its bytes (first pass) or where its next goes (second).
  const place = vertexCells(w.vert, g.x0, g.z0, cell, nx, nz), at = new Uint32Array(2 * cells);
  for (let t = 0; t < faces; t += GRID_CHUNK) countCells(C, place, at, nx, t, Math.min(faces, t + GRID_CHUNK));
  // Each cell's start, a running sum (start[k] not read back: ~1 ms of a fresh process's 6–10).
  for (let k = 0, s = 0; k < cells; k++) {
    const bytes = at[2 * k + 1];
    at[2 * k] = 0;
    at[2 * k + 1] = s;
    s += bytes;
    start[k + 1] = s;
  }
  g.items = new Uint8Array(shared ? new SharedArrayBuffer(start[cells]) : new ArrayBuffer(start[cells]));
  for (let t = 0; t < faces; t += GRID_CHUNK) fillCells(C, place, at, g.items, nx, t, Math.min(faces, t + GRID_CHUNK));
  leftPlace = { place, vert: new WeakRef(w.vert), key: [g.x0, g.z0, cell, nx, nz] };
  leftScratch = at.buffer;
  return g;
}

/** The grid column (axis 0: x) or row (axis 1: z) of a coordinate, clamped to the grid. */
export function cellOf(g: Grid, x: number, axis: 0 | 1): number {
  const i = Math.floor((x - (axis === 0 ? g.x0 : g.z0)) / g.cell);
  const n = axis === 0 ? g.nx : g.nz;
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/**
 * Per-query scratch: a stamp per face so a face listed in several cells is visited once (u16: cleared once every
 * STAMPS queries); `work` counts visits.
 */
export class Query {
  readonly seen: Uint16Array;
  stamp = 0;
  work = 0;
  /** surfaceAt's answer: the surface's height, and the faces the look-up visited. */
  readonly height = new Float64Array(1);
  visits = 0;
  constructor(w: RideWorld) {
    this.seen = new Uint16Array(w.faces);
  }
}

/** Query stamps between clearings of Query.seen (its u16 range). */
export const STAMPS = 0xffff;

/** Calls visit(face) once for each face listed in the grid cells overlapping the x/z box. Returns the faces visited. */
export function facesNear(w: RideWorld, lx: number, lz: number, hx: number, hz: number, q: Query, visit: (t: number) => void): number {
  const g = w.grid, seen = q.seen, items = g.items;
  if (++q.stamp === STAMPS) {
    seen.fill(0);
    q.stamp = 1;
  }
  const stamp = q.stamp;
  if (w.faces === 0 || hx < g.x0 || hz < g.z0 || lx > g.x0 + g.nx * g.cell || lz > g.z0 + g.nz * g.cell) return 0;
  const i0 = cellOf(g, lx, 0), i1 = cellOf(g, hx, 0), j0 = cellOf(g, lz, 1), j1 = cellOf(g, hz, 1);
  let n = 0;
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const c = j * g.nx + i;
      let t = -1;
      for (let e = g.start[c], end = g.start[c + 1]; e < end; ) {
        let by = items[e++], gap = by & 0x7f;
        for (let m = 0x80; by > 0x7f; m *= 0x80) { by = items[e++]; gap += (by & 0x7f) * m; }
        t += gap + 1;
        if (seen[t] === stamp) continue;
        seen[t] = stamp;
        n++;
        visit(t);
      }
    }
  }
  q.work += n;
  return n;
}

/** Slope limit of a walkable face: its normal's y at least this (cos 45°). */
export const WALKABLE_MIN_NY = Math.cos(Math.PI / 4);

/** Whether face t is walkable: its normal's y at least WALKABLE_MIN_NY (FACE_WALKABLE). */
export const isWalkable = (w: RideWorld, t: number): boolean => (w.faceBits[t] & FACE_WALKABLE) !== 0;

/**
 * The height of face t's plane at (x, z) when (x, z) lies on the face's x/z projection (barycentric, inclusive within
 * 1e-9 relative), else NaN (outside, or a face edge-on from above). heightAt's and surfaceAlong's one rule.
 */
function heightOnFace(V: Float64Array, C: Uint32Array, t: number, x: number, z: number): number {
  const A = 3 * C[3 * t], B = 3 * C[3 * t + 1], Cc = 3 * C[3 * t + 2];
  const ax = V[A], az = V[A + 2], bx = V[B], bz = V[B + 2], cx = V[Cc], cz = V[Cc + 2];
  const d = (bz - cz) * (ax - cx) + (cx - bx) * (az - cz);
  if (Math.abs(d) < 1e-14) return NaN;
  const l1 = ((bz - cz) * (x - cx) + (cx - bx) * (z - cz)) / d;
  const l2 = ((cz - az) * (x - cx) + (ax - cx) * (z - cz)) / d;
  const l3 = 1 - l1 - l2;
  const e = -1e-9;
  if (l1 < e || l2 < e || l3 < e) return NaN;
  return l1 * V[A + 1] + l2 * V[B + 1] + l3 * V[Cc + 1];
}

/**
 * The walkable surface under (x, z) nearest to height y within ±reach (`top`: the highest within ±reach, the one a
 * board meets where one surface runs over another's buried edge): its height and face, or null. Faces are taken by
 * their x/z projection (barycentric, inclusive within 1e-9 relative), the height on their plane.
 */
export function heightAt(w: RideWorld, x: number, z: number, y: number, reach: number, q: Query, top = false): { y: number; face: number } | null {
  const face = surfaceAt(w, x, z, y, reach, q, top);
  return face < 0 ? null : { y: q.height[0], face };
}

/**
 * heightAt without an object a call (the ride asks this some 150,000 times on the 1M bench level): the face, or −1
 * for none; its height in q.height[0], the faces the look-up visited (its work, added to q.work) in q.visits.
 */
export function surfaceAt(w: RideWorld, x: number, z: number, y: number, reach: number, q: Query, top = false): number {
  let best = -1, bestY = 0, bestD = Infinity;
  // facesNear's walk inline (no closure a call), in the same order, over the one cell under the point: a cell lists
  // a face once (ascending), so no stamps are needed to visit each once.
  const g = w.grid, items = g.items;
  q.visits = 0;
  if (w.faces === 0 || x < g.x0 || z < g.z0 || x > g.x0 + g.nx * g.cell || z > g.z0 + g.nz * g.cell) return -1;
  const V = w.vert, C = w.corner, FB = w.faceBits;
  let visits = 0;
  const c = cellOf(g, z, 1) * g.nx + cellOf(g, x, 0);
  let t = -1;
  for (let k = g.start[c], end = g.start[c + 1]; k < end; ) {
    // The cell's next face (Grid).
    let by = items[k++], gap = by & 0x7f;
    for (let m = 0x80; by > 0x7f; m *= 0x80) { by = items[k++]; gap += (by & 0x7f) * m; }
    t += gap + 1;
    visits++;
    if (!(FB[t] & FACE_WALKABLE)) continue; // isWalkable
    const h = heightOnFace(V, C, t, x, z);
    if (h !== h) continue;
    const dist = Math.abs(h - y);
    if (dist <= reach && (top ? best < 0 || h > bestY : dist < bestD)) {
      bestD = dist;
      bestY = h;
      best = t;
    }
  }
  q.work += visits;
  q.visits = visits;
  q.height[0] = bestY;
  return best;
}

/** surfaceAlong's scratch: the walkable faces of the grid cell last read (one a thread). */
let cellFaces = new Int32Array(256);

/**
 * The first of the points (x + dx · d, z + dz · d), d = step, step + step, … while d ≤ to (added up so), over which
 * a walkable surface lies within ±reach of height y: its d, or NaN where none does. The answer and the work
 * (q.work) heightAt gives asked point by point (its test, inline); a grid cell's faces are read once for all the
 * points in it.
 */
export function surfaceAlong(w: RideWorld, x: number, z: number, dx: number, dz: number, y: number, reach: number, step: number, to: number, q: Query): number {
  const g = w.grid, items = g.items, V = w.vert, C = w.corner, FB = w.faceBits;
  if (w.faces === 0) return NaN;
  let cell = -1, listed = 0, walkable = 0;
  for (let d = step; d <= to; d += step) {
    const px = x + dx * d, pz = z + dz * d;
    if (px < g.x0 || pz < g.z0 || px > g.x0 + g.nx * g.cell || pz > g.z0 + g.nz * g.cell) continue;
    const c = cellOf(g, pz, 1) * g.nx + cellOf(g, px, 0);
    if (c !== cell) {
      // The cell's faces (Grid), its walkable ones kept.
      cell = c;
      listed = 0;
      walkable = 0;
      let t = -1;
      for (let k = g.start[c], end = g.start[c + 1]; k < end; ) {
        let by = items[k++], gap = by & 0x7f;
        for (let m = 0x80; by > 0x7f; m *= 0x80) { by = items[k++]; gap += (by & 0x7f) * m; }
        t += gap + 1;
        listed++;
        if (!(FB[t] & FACE_WALKABLE)) continue;
        if (walkable === cellFaces.length) {
          const grown = new Int32Array(2 * walkable);
          grown.set(cellFaces);
          cellFaces = grown;
        }
        cellFaces[walkable++] = t;
      }
    }
    q.work += listed;
    for (let n = 0; n < walkable; n++) {
      const h = heightOnFace(V, C, cellFaces[n], px, pz);
      if (Math.abs(h - y) <= reach) return d; // NaN: not on the face
    }
  }
  return NaN;
}
