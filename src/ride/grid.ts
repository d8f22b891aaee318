// The ride world's uniform grid over x/z (docs/ride.md "The world"): each cell lists the faces whose x/z box overlaps
// it, a CSR of LEB128 face gaps, built in two passes over the faces (count, fill) from each vertex's column and row;
// and the per-query scratch (Query) the probes' look-ups walk it with. Pure functions over the world's typed arrays.
import type { RideWorld } from './world.ts';

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
let leftScratch: Uint8Array | undefined;

/** vertexCells(V, x0, z0, cell, nx, nz): the last grid's own (taken: once) when it was built over these vertices and cells. */
export function vertexCellsOf(V: Float64Array, x0: number, z0: number, cell: number, nx: number, nz: number): Int32Array {
  const l = leftPlace, key = [x0, z0, cell, nx, nz];
  leftPlace = undefined;
  if (l && l.vert.deref() === V && key.every((k, n) => Object.is(k, l.key[n]))) return l.place;
  return vertexCells(V, x0, z0, cell, nx, nz);
}

/** The last grid's per-cell scratch (taken: once; 8-aligned) when it holds at least `bytes`, else undefined. */
export function takeScratch(bytes: number): Uint8Array | undefined {
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

/** The grid's cells over a world of faces (buildGrid's): its min corner, cell edge and columns and rows. */
export function gridCells(w: Pick<RideWorld, 'faces' | 'min' | 'max'>, opt: WorldOptions): Pick<Grid, 'x0' | 'z0' | 'cell' | 'nx' | 'nz'> {
  const sx = w.max[0] - w.min[0], sz = w.max[2] - w.min[2];
  // About FACES_PER_CELL faces a cell on average (a level of fine faces gets fine cells), within [0.1, opt.cell].
  const dense = Math.sqrt((Math.max(sx, 0.1) * Math.max(sz, 0.1)) / Math.max(1, w.faces)) * Math.sqrt(FACES_PER_CELL / 2);
  let cell = Math.min(100, Math.max(0.1, Math.min(opt.cell, dense)));
  while (Math.ceil(sx / cell + 1e-9) * Math.ceil(sz / cell + 1e-9) > opt.maxCells) cell *= 2;
  const nx = Math.max(1, Math.ceil(sx / cell + 1e-9)), nz = Math.max(1, Math.ceil(sz / cell + 1e-9));
  return { x0: w.min[0], z0: w.min[2], cell, nx, nz };
}

/**
 * What a grid's build leaves for the coverage grid (vertexCellsOf, takeScratch): its vertices' columns and rows over
 * the world's vertices `V`, and its per-cell scratch (8 bytes a cell, 8-aligned).
 */
export function leaveForCover(g: Pick<Grid, 'x0' | 'z0' | 'cell' | 'nx' | 'nz'>, V: Float64Array, place: Int32Array, scratch: Uint8Array): void {
  leftPlace = { place, vert: new WeakRef(V), key: [g.x0, g.z0, g.cell, g.nx, g.nz] };
  leftScratch = scratch;
}

/** Forgets what the last grid left (a new grid is being built). */
export function forgetLeft(): void {
  leftPlace = undefined;
  leftScratch = undefined;
}

export function buildGrid(w: RideWorld, opt: WorldOptions, shared = false): Grid {
  forgetLeft();
  if (w.faces === 0) return w.grid;
  const { x0, z0, cell, nx, nz } = gridCells(w, opt);
  const u32 = (n: number): Uint32Array => new Uint32Array(shared ? new SharedArrayBuffer(4 * n) : new ArrayBuffer(4 * n));
  const cells = nx * nz, faces = w.faces;
  const g: Grid = { x0, z0, cell, nx, nz, start: u32(cells + 1), items: new Uint8Array(0) };
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
  leaveForCover(g, w.vert, place, new Uint8Array(at.buffer));
  return g;
}

/** The grid column (axis 0: x) or row (axis 1: z) of a coordinate, clamped to the grid. */
export function cellOf(g: Grid, x: number, axis: 0 | 1): number {
  const i = Math.floor((x - (axis === 0 ? g.x0 : g.z0)) / g.cell);
  const n = axis === 0 ? g.nx : g.nz;
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/** The walk of one grid cell for the surface under a point (assembly/ride-fold.ts rideSurface); its height and visits in `io`. */
export interface NativeSurface {
  at(c: number, x: number, z: number, y: number, reach: number, top: number): number;
  io: Float64Array;
}

/**
 * Per-query scratch: a stamp per face so a face listed in several cells is visited once (u16: cleared once every
 * STAMPS queries); `work` counts visits.
 */
export class Query {
  readonly seen: Uint16Array;
  stamp = 0;
  work = 0;
  /** surface.ts's look-up in WebAssembly for this query's world where it was built there (world-wasm.ts, native.ts), null where not; set on first use. */
  native: NativeSurface | null | undefined = undefined;
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
