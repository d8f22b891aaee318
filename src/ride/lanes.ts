// Where the ride's lanes go (docs/ride.md "Where it rides"): the coverage grid (walkable area by x/z cell, and the
// cells rides passed through), and the lane plan over it. Lanes are lines along x and along z every `spacing`
// metres; only the lane cells (spacing × spacing squares from the level's min corner) holding walkable surface are
// ridden, and the spacing is widened until those cells' lanes total at most laneMetres — so the budget follows the
// walkable area, not the level's bounding box: islands far apart share it instead of the empty space between them.
import { cellOf, takeScratch, vertexCellsOf } from './grid.ts';
import { FACE_WALKABLE, isWalkable, type RideWorld } from './world.ts';
import { wasmCover, type CoverNative } from './native.ts';

/**
 * Coverage: x/z cells holding walkable surface (each walkable face marks the cells its x/z box overlaps, its area
 * spread over them), and the cells rides passed through; the share is the walkable area in passed cells.
 */
export class Cover {
  readonly total: number;
  /** Walkable area in each cell (row-major, z rows of nx), m². */
  readonly area: Float64Array;
  private readonly hit: Uint8Array;
  /** The passes below in WebAssembly, where the areas were summed there (world-wasm.ts, native.ts; the same answers). */
  private readonly native: CoverNative | undefined;
  /** The grid: its min corner (x, z), cell edge (m) and size in cells. */
  readonly x0: number;
  readonly z0: number;
  readonly cell: number;
  readonly nx: number;
  readonly nz: number;
  constructor(w: RideWorld, cell: number) {
    const sx = w.max[0] - w.min[0], sz = w.max[2] - w.min[2];
    let c = Math.max(0.1, cell);
    while (Math.ceil(sx / c + 1) * Math.ceil(sz / c + 1) > 8_000_000) c *= 2;
    this.cell = c;
    this.x0 = w.min[0];
    this.z0 = w.min[2];
    this.nx = Math.max(1, Math.ceil(sx / c + 1e-9));
    this.nz = Math.max(1, Math.ceil(sz / c + 1e-9));
    // The same pass in WebAssembly where the world was built there (world-wasm.ts, native.ts; the same bytes).
    const native = wasmCover(w)?.(this.x0, this.z0, c, this.nx, this.nz);
    this.native = native;
    this.hit = native?.hit ?? new Uint8Array(this.nx * this.nz);
    if (native) {
      this.area = native.area;
      this.total = native.total;
      return;
    }
    // The world grid's scratch where it is left (pages already touched), zeroed, else fresh.
    const cells = this.nx * this.nz, scratch = takeScratch(8 * cells);
    this.area = scratch ? new Float64Array(scratch.buffer, scratch.byteOffset, cells).fill(0) : new Float64Array(cells);
    let total = 0;
    const P = w.vert, C = w.corner, FB = w.faceBits, area = this.area, x0 = this.x0, z0 = this.z0, nx = this.nx, nz = this.nz;
    // Each vertex's column and row (col(): the grid's cellOf over these cells), worked out once (grid.ts vertexCells;
    // the world grid's own where its cells are these).
    const place = vertexCellsOf(P, x0, z0, c, nx, nz);
    for (let t = 0; t < w.faces; t++) {
      if (!(FB[t] & FACE_WALKABLE)) continue; // isWalkable
      const o0 = 3 * C[3 * t], o1 = 3 * C[3 * t + 1], o2 = 3 * C[3 * t + 2];
      const ux = P[o1] - P[o0], uy = P[o1 + 1] - P[o0 + 1], uz = P[o1 + 2] - P[o0 + 2];
      const vx = P[o2] - P[o0], vy = P[o2 + 1] - P[o0 + 1], vz = P[o2 + 2] - P[o0 + 2];
      const a = 0.5 * Math.sqrt((uy * vz - uz * vy) ** 2 + (uz * vx - ux * vz) ** 2 + (ux * vy - uy * vx) ** 2);
      total += a;
      const p0 = 2 * C[3 * t], p1 = 2 * C[3 * t + 1], p2 = 2 * C[3 * t + 2];
      const ia = place[p0], ib = place[p1], ic = place[p2], ja = place[p0 + 1], jb = place[p1 + 1], jc = place[p2 + 1];
      if ((ia | ib | ic | ja | jb | jc) < 0) continue;
      const i0 = ia < ib ? (ia < ic ? ia : ic) : ib < ic ? ib : ic, i1 = ia > ib ? (ia > ic ? ia : ic) : ib > ic ? ib : ic;
      const j0 = ja < jb ? (ja < jc ? ja : jc) : jb < jc ? jb : jc, j1 = ja > jb ? (ja > jc ? ja : jc) : jb > jc ? jb : jc;
      // Its cells row by row, a row's first three written out (as the world grid's passes: grid.ts countCells).
      const di = i1 - i0, share = a / ((di + 1) * (j1 - j0 + 1));
      for (let k = j0 * nx + i0, last = j1 * nx + i0; k <= last; k += nx) {
        area[k] += share;
        if (di === 0) continue;
        area[k + 1] += share;
        if (di === 1) continue;
        area[k + 2] += share;
        for (let m = k + 3, end = k + di; m <= end; m++) area[m] += share;
      }
    }
    this.total = total;
  }
  private col(x: number, x0: number, n: number): number {
    return Math.min(n - 1, Math.max(0, Math.floor((x - x0) / this.cell)));
  }
  private index(x: number, z: number): number {
    return this.col(z, this.z0, this.nz) * this.nx + this.col(x, this.x0, this.nx);
  }
  /** Marks the cells along the segment from (x0, z0) to (x1, z1). */
  mark(x0: number, z0: number, x1: number, z1: number): void {
    const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, z1 - z0) / (this.cell / 2)));
    for (let i = 0; i <= n; i++) this.hit[this.index(x0 + ((x1 - x0) * i) / n, z0 + ((z1 - z0) * i) / n)] = 1;
  }
  sampled(): number {
    if (this.total <= 0) return 0;
    let s = 0;
    if (this.native?.hit) s = this.native.sampledSum();
    else for (let i = 0; i < this.hit.length; i++) if (this.hit[i]) s += this.area[i];
    return Math.round((s / this.total) * 1e4) / 1e4;
  }
  /** The cells holding walkable area (above 0). */
  occupied(): number {
    if (this.native) return this.native.occupied();
    let n = 0;
    for (let k = 0; k < this.area.length; k++) if (this.area[k] > 0) n++;
    return n;
  }
  /** laneCells' dense sums in WebAssembly (the lane grid's areas, nx × nz; valid until the next call), or undefined. */
  laneAreas(spacing: number, nx: number, nz: number): Float64Array | undefined {
    return this.native?.laneAreas(spacing, nx, nz);
  }
}


/** A lane cell holding walkable surface: its column (x) and row (z), walkable area (m²). */
export interface LaneCell {
  i: number;
  j: number;
  area: number;
}

export interface LanePlan {
  /** Lane spacing, m. */
  spacing: number;
  cells: LaneCell[];
  /** 1 for a cell ridden (all of them when their lanes fit in laneMetres, else the largest by area that do). */
  chosen: Uint8Array;
  /**
   * The largest walkable face whose centroid lies in cell n (−1: none): where a cell the lines miss is ridden from.
   * Found when first asked (few cells are missed), from the world's grid over the cell.
   */
  face(n: number): number;
  /** The cells in sweep order for lanes along `axis` (0: x, lane by lane in z, then along x; 2: z, the other way). */
  order(axis: 0 | 2): Uint32Array;
}

/**
 * The lane plan. Spacing: at least `spacing0`, and as fine as fits in `metres` (laneMetres) by either count — the
 * lines over the level's bounding box (2 · x extent · z extent / spacing: a level that fills its box), or the lines
 * through the lane cells holding walkable surface (each cell's stretch of the line along x through its middle and of
 * the line along z, within the level's extent: islands far apart, the empty space between them not counted).
 * Where no spacing up to the level's extent fits the occupied cells (many islands far apart: each keeps a cell however
 * wide the cells get), the first spacing is kept and the cells are taken by walkable area, largest first, while they
 * fit: the budget is shared by area. A cell whose lines miss its surface (an island between them) is ridden from its
 * largest face, along x and along z (two rides of laneRide at most: beyond laneMetres by at most that a cell).
 */
export function planLanes(w: RideWorld, cover: Cover, spacing0: number, metres: number, laneRide: number): LanePlan {
  const c = cover.cell;
  // The coverage cells holding walkable area, counted (laneCells reads them from the area itself: a level filling its
  // box holds walkable area in every cell, and a list of them all was as large as the area).
  const occupied = cover.occupied();
  const budget = Math.max(1, metres);
  const sx = w.max[0] - w.min[0], sz = w.max[2] - w.min[2];
  // A cell's lanes, m: its stretch of the x lane (when the lane's line lies within the level) and of the z lane; a
  // cell no line crosses, the two rides from its largest face.
  const cost = (cell: LaneCell, s: number): number => {
    const lx = cell.j < lines(sz, s) ? Math.max(0, Math.min(s, sx - cell.i * s)) : 0;
    const lz = cell.i < lines(sx, s) ? Math.max(0, Math.min(s, sz - cell.j * s)) : 0;
    return lx + lz || 2 * Math.min(laneRide, s);
  };
  const total = (cells: LaneCells, s: number): number => {
    let m = 0;
    for (const cell of cells.list) m += cost(cell, s);
    return m;
  };
  // The bounding-box count's spacing; the occupied cells': a first guess from their area (a cell's two lanes cover
  // spacing² of it with 2 · spacing metres), widened by the share the lanes run over the budget until they fit.
  // Not finer than a quarter of a coverage cell: a coverage cell then spans at most 5 × 5 lane cells.
  const least = Math.max(spacing0, c / 4);
  const box = Math.max(least, (2 * sx * sz) / budget);
  const first = Math.max(least, Math.min(box, (2 * occupied * c * c) / budget));
  const extent = Math.max(sx, sz, c);
  let spacing = first, cells = laneCells(cover, spacing), m = total(cells, spacing);
  for (let n = 0; m > budget && spacing < Math.min(box, extent) && n < 100; n++) {
    spacing = Math.min(box, spacing * Math.max(1.001, m / budget));
    cells = laneCells(cover, spacing);
    m = total(cells, spacing);
  }
  // The box's spacing is kept by a level that fills its box (its lanes fit by that count).
  const fits = m <= budget || spacing >= box;
  if (!fits) {
    spacing = first;
    cells = laneCells(cover, spacing);
  }
  const list = cells.list;
  const chosen = new Uint8Array(list.length);
  if (fits) chosen.fill(1);
  else {
    // Largest walkable area first (ties: sweep order), while their lanes fit.
    const byArea = list.map((_, n) => n).sort((a, b) => list[b].area - list[a].area || a - b);
    let used = 0;
    for (const n of byArea) {
      const m = cost(list[n], spacing);
      if (used + m > budget) break;
      used += m;
      chosen[n] = 1;
    }
  }
  const faces = new Int32Array(list.length).fill(-2);
  return {
    spacing, cells: list, chosen,
    face: (n) => {
      if (faces[n] === -2) faces[n] = largestFace(w, cover.x0 + list[n].i * spacing, cover.z0 + list[n].j * spacing, spacing);
      return faces[n];
    },
    order: (axis) => {
      const o = Uint32Array.from(list.keys());
      if (axis === 2) o.sort((a, b) => list[a].i - list[b].i || list[a].j - list[b].j);
      return o;
    },
  };
}

/** Lines every `s` metres from a side's start through their middles, over a side `length` m long. */
export const lines = (length: number, s: number): number => (length >= s / 2 ? Math.floor((length - s / 2) / s) + 1 : 0);

/** Lane cells held in flat arrays when the lane grid has at most this many cells, else in a map of the occupied. */
const DENSE_LANE_CELLS = 4_000_000;

/** The occupied lane cells in sweep order (row by row in z, then x), and the index of cell (i, j) in them (−1: none). */
interface LaneCells {
  list: LaneCell[];
  find(i: number, j: number): number;
}

/** For each of `n` coverage cells of `c` m along an axis, the first and last lane cell of `spacing` m it overlaps. */
function spans(n: number, c: number, spacing: number): Float64Array {
  const out = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const lo = Math.floor((k * c) / spacing);
    out[2 * k] = lo;
    out[2 * k + 1] = Math.max(lo, Math.floor(((k + 1) * c) / spacing));
  }
  return out;
}

/** The lane cells of `spacing` m the occupied coverage cells (walkable area above 0) overlap, with their walkable area. */
function laneCells(cover: Cover, spacing: number): LaneCells {
  const c = cover.cell, nx = Math.floor((cover.nx * c) / spacing) + 2, nz = Math.floor((cover.nz * c) / spacing) + 2;
  const dense = nx * nz <= DENSE_LANE_CELLS;
  // The dense sums in WebAssembly where the coverage grid is there (the same additions in the same order).
  const summed = dense ? cover.laneAreas(spacing, nx, nz) : undefined;
  const area = summed ?? (dense ? new Float64Array(nx * nz) : undefined);
  const sparse = dense ? undefined : new Map<number, number>();
  if (!summed) sumLaneCells(cover, spacing, nx, area, sparse);
  const list: LaneCell[] = [];
  if (area) {
    const index = new Int32Array(nx * nz).fill(-1);
    for (let key = 0; key < area.length; key++) {
      if (!(area[key] > 0)) continue;
      index[key] = list.length;
      list.push({ i: key % nx, j: Math.floor(key / nx), area: area[key] });
    }
    return { list, find: (i, j) => (i >= 0 && i < nx && j >= 0 && j < nz ? index[j * nx + i] : -1) };
  }
  const keys = [...sparse!.keys()].sort((a, b) => a - b);
  const index = new Map<number, number>();
  for (const key of keys) {
    index.set(key, list.length);
    list.push({ i: key % nx, j: Math.floor(key / nx), area: sparse!.get(key)! });
  }
  return { list, find: (i, j) => (i >= 0 && i < nx && j >= 0 && j < nz ? index.get(j * nx + i) ?? -1 : -1) };
}

/**
 * laneCells' sums: each occupied coverage cell's area spread evenly over the lane cells (nx a row) it overlaps, into
 * `area` (dense) or `sparse`, row by row, a row's cells in order (assembly/ride-plan.ts rideLaneCells: the same).
 */
function sumLaneCells(cover: Cover, spacing: number, nx: number, area: Float64Array | undefined, sparse: Map<number, number> | undefined): void {
  const c = cover.cell;
  // Each coverage column's lane columns i0 … i1 and each row's lane rows j0 … j1 (the same for every cell in it).
  const cols = spans(cover.nx, c, spacing), rows = spans(cover.nz, c, spacing);
  const A = cover.area, cnx = cover.nx;
  // Row by row, the cells holding walkable area in order (k ascending).
  for (let cj = 0; cj < cover.nz; cj++) {
    const j0 = rows[2 * cj], j1 = rows[2 * cj + 1];
    // Dense, one lane row over this coverage row: a run of coverage cells in one lane cell (lane cells are usually
    // many coverage cells wide: the 1M-face bench level's, 224) is summed in a local and written back when the run
    // ends: the same additions in the same order, without a store and load of the sum per cell (the share of a cell
    // within one lane cell is its area: a / 1).
    if (area && j0 === j1) {
      let key = -1, sum = 0;
      for (let ci = 0, k = cj * cnx; ci < cnx; ci++, k++) {
        const a = A[k];
        if (!(a > 0)) continue;
        const i0 = cols[2 * ci], i1 = cols[2 * ci + 1];
        if (i0 === i1) {
          const at = j0 * nx + i0;
          if (at !== key) {
            if (key >= 0) area[key] = sum;
            key = at;
            sum = area[at];
          }
          sum += a;
          continue;
        }
        if (key >= 0) area[key] = sum;
        key = -1;
        const share = a / (i1 - i0 + 1);
        for (let i = i0; i <= i1; i++) area[j0 * nx + i] += share;
      }
      if (key >= 0) area[key] = sum;
      continue;
    }
    for (let ci = 0, k = cj * cnx; ci < cnx; ci++, k++) {
      if (!(A[k] > 0)) continue;
      const i0 = cols[2 * ci], i1 = cols[2 * ci + 1];
      const share = A[k] / ((i1 - i0 + 1) * (j1 - j0 + 1));
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          const key = j * nx + i;
          if (area) area[key] += share;
          else sparse!.set(key, (sparse!.get(key) ?? 0) + share);
        }
      }
    }
  }
}

/** The largest walkable face whose centroid lies in the x/z square [x0, x0 + size) × [z0, z0 + size), or −1. */
function largestFace(w: RideWorld, x0: number, z0: number, size: number): number {
  const g = w.grid, P = w.vert, C = w.corner;
  if (w.faces === 0) return -1;
  let best = -1, bestArea = -1;
  const i0 = cellOf(g, x0, 0), i1 = cellOf(g, x0 + size, 0), j0 = cellOf(g, z0, 1), j1 = cellOf(g, z0 + size, 1);
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const cell = j * g.nx + i;
      let t = -1;
      for (let e = g.start[cell], end = g.start[cell + 1]; e < end; ) {
        // The cell's next face (grid.ts Grid).
        let by = g.items[e++], gap = by & 0x7f;
        for (let m = 0x80; by > 0x7f; m *= 0x80) { by = g.items[e++]; gap += (by & 0x7f) * m; }
        t += gap + 1;
        if (!isWalkable(w, t)) continue;
        const o0 = 3 * C[3 * t], o1 = 3 * C[3 * t + 1], o2 = 3 * C[3 * t + 2];
        const x = (P[o0] + P[o1] + P[o2]) / 3, z = (P[o0 + 2] + P[o1 + 2] + P[o2 + 2]) / 3;
        if (Math.floor((x - x0) / size) !== 0 || Math.floor((z - z0) / size) !== 0) continue;
        const ux = P[o1] - P[o0], uy = P[o1 + 1] - P[o0 + 1], uz = P[o1 + 2] - P[o0 + 2];
        const vx = P[o2] - P[o0], vy = P[o2 + 1] - P[o0 + 1], vz = P[o2 + 2] - P[o0 + 2];
        const a = (uy * vz - uz * vy) ** 2 + (uz * vx - ux * vz) ** 2 + (ux * vy - uy * vx) ** 2;
        // The first of equal areas in face order (a face listed in several grid cells is met more than once).
        if (a > bestArea || (a === bestArea && t < best)) {
          bestArea = a;
          best = t;
        }
      }
    }
  }
  return best;
}
