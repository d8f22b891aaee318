// The ride's world: every kind-5 face of the written PhysicsResources in world space (part rotation and position
// applied, ../shared/spec/physics-resource.md "PhysicsResource"), with each corner's stored edge data read back
// ("Triangle-mesh shapes": flat bit, concave bit, convex value cos(acos(d)/2), 1.0 with neither bit), whether the
// corner's edge is a border of its shape (no single opposite corner in the shape: a cut, a T-junction or the
// level's border), and a uniform grid over x/z for the probes' look-ups (grid.ts; the surface under a point:
// surface.ts). Flat typed arrays, one entry a face.
// Input is the resources as read by the codec (src/format/resource.ts): the ride checks what the game loads.
import { KIND_MESH, type PhysicsResource } from '../format/types.ts';
import { edgeAllowance, EDGE_CONCAVE, EDGE_CONVEX, EDGE_FLAT, EDGE_OPEN } from './contact.ts';
import { buildGrid, WORLD_DEFAULTS, type Grid, type WorldOptions } from './grid.ts';

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
export function worldOf(
  a: FaceArrays, faces: number, vertices: number, runs: number[], names: string[], lo: number[], hi: number[], options: Partial<WorldOptions> = {}, shared = false,
  grid: (w: RideWorld, opt: WorldOptions) => Grid = (w, opt) => buildGrid(w, opt, shared),
): RideWorld {
  const opt = { ...WORLD_DEFAULTS, ...options };
  const n = faces;
  const world: RideWorld = {
    faces: n, vert: a.vert.subarray(0, 3 * vertices), corner: a.corner.subarray(0, 3 * n), allow: a.allow.subarray(0, 3 * n),
    faceBits: a.faceBits.subarray(0, n),
    runs: Uint32Array.from(runs), names,
    min: n ? [lo[0], lo[1], lo[2]] : [0, 0, 0], max: n ? [hi[0], hi[1], hi[2]] : [0, 0, 0],
    grid: { x0: 0, z0: 0, cell: 1, nx: 0, nz: 0, start: new Uint32Array(1), items: new Uint8Array(0) },
  };
  world.grid = grid(world, opt);
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

/** Slope limit of a walkable face: its normal's y at least this (cos 45°). */
export const WALKABLE_MIN_NY = Math.cos(Math.PI / 4);

/** Whether face t is walkable: its normal's y at least WALKABLE_MIN_NY (FACE_WALKABLE). */
export const isWalkable = (w: RideWorld, t: number): boolean => (w.faceBits[t] & FACE_WALKABLE) !== 0;
