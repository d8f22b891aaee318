// Quiet ground: where a ride cannot find anything (docs/ride.md "Quiet rides"). A ride's findings (bump, snag) are
// hits the judge keeps (index.ts), and a hit is a contact that kept its own normal (contact.ts) on a walkable face's
// edge or corner: its normal leans from the face's by at most the edge's allowance (a corner takes one of its
// face's edges': simulate.ts allowanceEdge) plus the model's slack. The judge keeps a hit that leans more than the
// surface folds there plus GHOST_SLACK.
//
// A true crest: a convex edge whose stored angle is at most the fold to the one face across it (the same edge the
// other way round, in any shape: a cut's faces are across it too) plus GHOST_SLACK less the model's slack, with no
// other surface near it: no walkable face but the two and those sharing an end of the edge (the surface round its
// ends) comes within the judge's look-ups of it (ACROSS to the side, JUDGE_REACH below, twice that above: a floor
// laid 0.2 mm over a box's top edge makes that edge a ghost the judge must still see). The judge counts a true
// crest's fold as the surface's own (crestFold), so a hit there never leans past it: never a finding.
//
// A face is loud when it is walkable and one of its edges lets a contact keep its normal (allowance above 0) and is
// not a true crest: an open edge, a convex edge with no single face across, or one storing more than it folds. A
// ride whose probe can reach no loud face cannot find anything, whatever the faces it does reach: it need not be
// simulated. The world's grid cells that list a face that may be loud (walkable, an edge with allowance above 0) are
// marked, a bit a cell (the grid lists a face in every cell its x/z box overlaps); a marked cell is judged, face by
// face from the grid's list, when a ride's box first covers it, and kept.
import { CONTACT_MODEL, EDGE_CONVEX } from './contact.ts';
import { cellOf } from './grid.ts';
import { edgeKindAt, FACE_ALLOWS, FACE_WALKABLE, faceNormal, isWalkable, type RideWorld } from './world.ts';
import { wasmFold, wasmMarks, type Fold, type NativeQuiet } from './native.ts';

/** A contact leaning at most this much further than the surface folds is not a ghost, radians (~0.1°; the judge's). */
export const GHOST_SLACK = 0.002;

/**
 * Two world vertices are one where each coordinate differs by at most this share of its size (at least 1 m): a
 * vertex two parts hold is each part's f32 vertex turned and moved, a few f32 ulps (6e-8 of the size each) apart.
 */
const SAME_VERTEX = 1e-6;

/** The judge's look-ups: the distance off a contact at which it takes the heights either side, m … */
export const ACROSS = 0.002;
/** … and how far from the contact's height it looks for them, m (and as far again above, for a surface over it). */
export const JUDGE_REACH = 0.05;
/** Margin on those bounds, m (heightAt's barycentric inclusion is 1e-9 relative). */
const CROWD_MARGIN = 1e-5;

/** FaceBits of a face that may be loud: walkable, with an edge whose allowance is above 0 (isLoud tells whether it is). */
const MAY_BE_LOUD = FACE_WALKABLE | FACE_ALLOWS;
const mayBeLoud = (w: RideWorld, t: number): boolean => (w.faceBits[t] & MAY_BE_LOUD) === MAY_BE_LOUD;

export class QuietMap {
  /** Faces that may be loud. */
  readonly candidates: number;
  /**
   * By grid cell, a bit each (row-major as the grid, 32 a word): the cells listing a face that may be loud (the
   * world's grid lists a face in every cell its x/z box overlaps) that are not judged yet. Most cells list none: a
   * ride's box is looked at a word of cells at a time.
   */
  private readonly pending: Int32Array;
  /** By grid cell, a bit each: the cells judged to list a loud face. */
  private readonly loud: Int32Array;
  /** By face, 2 bits (4 faces a byte): 0 not yet judged, 1 quiet, 2 loud (judged when a ride's box first holds it). */
  private readonly faceState: Uint8Array;
  /** Folds found from the face across, by corner, until asked for. */
  private readonly across = new Map<number, number>();
  private readonly slack = GHOST_SLACK - CONTACT_MODEL.angleSlack;
  /** foldAcross, or the same in WebAssembly where the world was built there (world-wasm.ts, native.ts). */
  private readonly fold: Fold;
  /**
   * The judging below (quietInBox, isLoud, crestFold and their state) in WebAssembly, for the map that took the marks
   * of a world built there (world-wasm.ts, native.ts, assembly/ride-quiet.ts: the same answers in the same call orders); else
   * undefined, and this class judges.
   */
  private readonly native: NativeQuiet | undefined;
  constructor(private readonly w: RideWorld) {
    this.fold = wasmFold(w) ?? ((t, k, across) => foldAcross(w, t, k, across));
    const g = w.grid, words = w.faces ? (g.nx * g.nz + 31) >>> 5 : 0;
    // The marks in WebAssembly where the world was built there (world-wasm.ts, native.ts; the same bits), else here a chunk of
    // faces a call: the function is compiled for its loop after a few calls, not once the loop has run long in a
    // process that runs it once.
    const native = w.faces ? wasmMarks(w)?.() : undefined;
    let count = 0, pending: Int32Array;
    if (native) ({ pending, count } = native);
    else {
      pending = new Int32Array(words);
      for (let t = 0; t < w.faces; t += MARK_CHUNK) count += markCells(w, pending, t, Math.min(w.faces, t + MARK_CHUNK));
    }
    this.candidates = count;
    this.pending = count ? pending : new Int32Array(0);
    this.native = native?.quiet(this.slack);
    this.loud = new Int32Array(count && !this.native ? words : 0);
    this.faceState = new Uint8Array(count && !this.native ? (w.faces + 3) >>> 2 : 0);
    this.box = this.native?.box ?? new Float64Array(4);
  }

  /**
   * Whether no loud face is listed in the grid cells the x/z box [x0, x1] × [z0, z1] overlaps (a box past the grid
   * is clamped to it, as the probes' look-ups are: those cells hold every face beyond). The cells are judged row by
   * row, in order, up to the first loud one.
   */
  quiet(x0: number, z0: number, x1: number, z1: number): boolean {
    const b = this.box;
    b[0] = x0; b[1] = z0; b[2] = x1; b[3] = z1;
    return this.quietInBox();
  }

  /**
   * quiet's box (x0, z0, x1, z1), written by a caller of quietInBox: the ride asks ~35,000 times a level, and V8 boxes
   * each double passed to a call it does not inline (a new number on the heap each).
   */
  readonly box: Float64Array;

  /** quiet() of the x/z box in `box`. */
  quietInBox(): boolean {
    if (this.native) return this.native.quietInBox() !== 0;
    const x0 = this.box[0], z0 = this.box[1], x1 = this.box[2], z1 = this.box[3];
    if (this.candidates === 0) return true;
    // NaN bounds (a start out of range) are never quiet.
    if (!(x0 <= x1 && z0 <= z1)) return false;
    const g = this.w.grid, P = this.pending, L = this.loud;
    const i0 = cellOf(g, x0, 0), i1 = cellOf(g, x1, 0), j0 = cellOf(g, z0, 1), j1 = cellOf(g, z1, 1);
    for (let j = j0; j <= j1; j++) {
      for (let c = j * g.nx + i0, end = j * g.nx + i1; c <= end; c++) {
        // The next cell from c on that is pending or loud: the lowest bit set in its word from c's on.
        const word = c >>> 5, bits = (P[word] | L[word]) >>> (c & 31);
        if (bits === 0) {
          c = ((word + 1) << 5) - 1;
          continue;
        }
        c += 31 - Math.clz32(bits & -bits);
        if (c > end) break;
        if ((L[c >>> 5] >>> (c & 31)) & 1 || this.judgeCell(c)) return false;
      }
    }
    return true;
  }

  /** Judges the faces that may be loud in cell c (in face order, to the first loud one); whether one is loud. */
  private judgeCell(c: number): boolean {
    const g = this.w.grid, items = g.items, FB = this.w.faceBits;
    let loud = false, t = -1;
    for (let e = g.start[c], end = g.start[c + 1]; e < end && !loud; ) {
      // The cell's next face (grid.ts Grid).
      let by = items[e++], gap = by & 0x7f;
      for (let m = 0x80; by > 0x7f; m *= 0x80) { by = items[e++]; gap += (by & 0x7f) * m; }
      t += gap + 1;
      if ((FB[t] & MAY_BE_LOUD) === MAY_BE_LOUD && this.isLoud(t)) loud = true;
    }
    this.pending[c >>> 5] &= ~(1 << (c & 31));
    if (loud) this.loud[c >>> 5] |= 1 << (c & 31);
    return loud;
  }

  /** Whether face t is loud (see the file header). */
  isLoud(t: number): boolean {
    if (this.native) return this.native.isLoud(t) !== 0;
    const w = this.w, A = w.allow, S = this.faceState;
    if (S.length === 0 || !mayBeLoud(w, t)) return false;
    const state = (S[t >>> 2] >>> (2 * (t & 3))) & 3;
    if (state) return state === 2;
    let loud = false;
    for (let k = 0; k < 3 && !loud; k++) if (A[3 * t + k] > 0 && this.crestFold(3 * t + k) < 0) loud = true;
    S[t >>> 2] |= (loud ? 2 : 1) << (2 * (t & 3));
    return loud;
  }

  /** The fold at corner 3 · t + k (its edge) when that edge is a true crest, radians; else −1. */
  crestFold(corner: number): number {
    if (this.native) return this.native.crestFold(corner);
    const w = this.w, t = (corner / 3) | 0, k = corner - 3 * t;
    if (edgeKindAt(w, corner) !== EDGE_CONVEX) return -1;
    // The fold across an edge is the same from either face (the same faces near it, the same two normals): found
    // from one, kept for the other.
    let fold = this.across.get(corner);
    if (fold === undefined) {
      fold = this.fold(t, k, ACROSS_CORNER);
      if (fold >= 0) this.across.set(ACROSS_CORNER[0], fold);
    } else this.across.delete(corner);
    return fold >= 0 && w.allow[corner] <= fold + this.slack ? fold : -1;
  }
}

/** Faces markCells takes a call at a time. */
const MARK_CHUNK = 1 << 16;

/**
 * Sets the bits of the grid cells that list a face of [from, to) that may be loud: each such face's cells, the
 * columns and rows of its x/z box (as the world's grid lists it: a face with a NaN coordinate in none). Returns how
 * many faces may be loud.
 */
function markCells(w: RideWorld, bits: Int32Array, from: number, to: number): number {
  const g = w.grid, V = w.vert, C = w.corner, FB = w.faceBits, nx = g.nx;
  let count = 0;
  for (let t = from; t < to; t++) {
    if ((FB[t] & MAY_BE_LOUD) !== MAY_BE_LOUD) continue;
    count++;
    const a = 3 * C[3 * t], b = 3 * C[3 * t + 1], c = 3 * C[3 * t + 2];
    const i0 = cellOf(g, Math.min(V[a], V[b], V[c]), 0), i1 = cellOf(g, Math.max(V[a], V[b], V[c]), 0);
    const j0 = cellOf(g, Math.min(V[a + 2], V[b + 2], V[c + 2]), 1), j1 = cellOf(g, Math.max(V[a + 2], V[b + 2], V[c + 2]), 1);
    for (let j = j0; j <= j1; j++) for (let i = i0, k = j * nx + i0; i <= i1; i++, k++) bits[k >>> 5] |= 1 << (k & 31);
  }
  return count;
}

/** The unbounded sides of the grid's border cells (constants: a unary minus met late stops optimized code). */
const NEG_INF = -Infinity, POS_INF = Infinity;

/** foldAcross's stamps by face (grown to the world's faces), and the last stamp given. */
let FOLD_SEEN = new Uint16Array(0), foldStamp = 0;

/** The corner across (3 · face + edge) foldAcross found. */
const ACROSS_CORNER = new Int32Array(1);
/** foldAcross's two face normals (faceNormal). */
const FOLD_NORMALS = new Float64Array(6);

/**
 * The fold between face t and the one face across its edge k (a face with a corner running the edge the other way,
 * found in the grid cells round the edge, which list every face near it), radians; −1 when there is none, more than
 * one, it is degenerate, or another walkable surface comes near the edge (see the file header).
 */
export function foldAcross(w: RideWorld, t: number, k: number, acrossCorner: Int32Array): number {
  const V = w.vert, C = w.corner, g = w.grid, items = g.items;
  const va = C[3 * t + k], vb = C[3 * t + ((k + 1) % 3)], a = 3 * va, b = 3 * vb;
  const ax = V[a], ay = V[a + 1], az = V[a + 2], bx = V[b], by = V[b + 1], bz = V[b + 2];
  // SAME_VERTEX of each end's coordinates.
  const tax = SAME_VERTEX * Math.max(1, Math.abs(ax)), tay = SAME_VERTEX * Math.max(1, Math.abs(ay)), taz = SAME_VERTEX * Math.max(1, Math.abs(az));
  const tbx = SAME_VERTEX * Math.max(1, Math.abs(bx)), tby = SAME_VERTEX * Math.max(1, Math.abs(by)), tbz = SAME_VERTEX * Math.max(1, Math.abs(bz));
  const r = ACROSS + CROWD_MARGIN;
  const xlo = Math.min(ax, bx) - r, xhi = Math.max(ax, bx) + r, zlo = Math.min(az, bz) - r, zhi = Math.max(az, bz) + r;
  const ylo = Math.min(ay, by) - JUDGE_REACH - CROWD_MARGIN, yhi = Math.max(ay, by) + 2 * JUDGE_REACH + CROWD_MARGIN;
  const i0 = cellOf(g, xlo, 0), i1 = cellOf(g, xhi, 0), j0 = cellOf(g, zlo, 1), j1 = cellOf(g, zhi, 1);
  let across = -1;
  const ex = bx - ax, ez = bz - az;
  // A face listed in several of the cells is read once (a stamp a face: the same answer each time it is met).
  if (FOLD_SEEN.length < w.faces) FOLD_SEEN = new Uint16Array(w.faces);
  if (++foldStamp === 0x10000) {
    FOLD_SEEN.fill(0);
    foldStamp = 1;
  }
  const seen = FOLD_SEEN, stamp = foldStamp;
  // The edge's line in x/z: a face whose corners all lie further than `off` to one side of it can be none of the
  // faces below (the face across or one running the edge: corners at its ends, within the tolerances; one near it:
  // within r), whatever its place in the edge's box. `off` doubles those distances, far above the rounding of the
  // look-ups at a level's coordinates; an edge with no horizontal length has no such line (hl 0: no face is left).
  const hl = Math.sqrt(ex * ex + ez * ez), lx = hl > 0 ? ex / hl : 0, lz = hl > 0 ? ez / hl : 0;
  const off = hl > 0 ? 2 * (r + tax + taz + tbx + tbz) : POS_INF, offBelow = -off;
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      // Only the cells the edge passes within r of (a long edge's box holds many it does not): the faces near it,
      // across it and round its ends are listed there. The clamped border cells reach out to infinity.
      const cx0 = i === 0 ? NEG_INF : g.x0 + i * g.cell - r, cx1 = i === g.nx - 1 ? POS_INF : g.x0 + (i + 1) * g.cell + r;
      const cz0 = j === 0 ? NEG_INF : g.z0 + j * g.cell - r, cz1 = j === g.nz - 1 ? POS_INF : g.z0 + (j + 1) * g.cell + r;
      const B = MEETS;
      B[0] = ax; B[1] = az; B[2] = ex; B[3] = ez; B[4] = cx0; B[5] = cz0; B[6] = cx1; B[7] = cz1;
      if (!segmentMeetsBox()) continue;
      const cell = j * g.nx + i;
      let u = -1;
      for (let e = g.start[cell], end = g.start[cell + 1]; e < end; ) {
        // The cell's next face (grid.ts Grid).
        let byte = items[e++], gap = byte & 0x7f;
        for (let m = 0x80; byte > 0x7f; m *= 0x80) { byte = items[e++]; gap += (byte & 0x7f) * m; }
        u += gap + 1;
        if (u === t || seen[u] === stamp) continue;
        seen[u] = stamp;
        const u0 = C[3 * u], u1 = C[3 * u + 1], u2 = C[3 * u + 2], p0 = 3 * u0, p1 = 3 * u1, p2 = 3 * u2;
        // Clear of the edge's box (grown by the judge's reach to the side): neither across, round its ends, nor near.
        const x0 = V[p0], x1 = V[p1], x2 = V[p2], z0 = V[p0 + 2], z1 = V[p1 + 2], z2 = V[p2 + 2];
        if ((x0 > x1 ? (x0 > x2 ? x0 : x2) : x1 > x2 ? x1 : x2) < xlo || (x0 < x1 ? (x0 < x2 ? x0 : x2) : x1 < x2 ? x1 : x2) > xhi) continue;
        if ((z0 > z1 ? (z0 > z2 ? z0 : z2) : z1 > z2 ? z1 : z2) < zlo || (z0 < z1 ? (z0 < z2 ? z0 : z2) : z1 < z2 ? z1 : z2) > zhi) continue;
        // Wholly to one side of the edge's line (a long slanted edge's box holds many such faces).
        const s0 = (x0 - ax) * lz - (z0 - az) * lx, s1 = (x1 - ax) * lz - (z1 - az) * lx, s2 = (x2 - ax) * lz - (z2 - az) * lx;
        if ((s0 > off && s1 > off && s2 > off) || (s0 < offBelow && s1 < offBelow && s2 < offBelow)) continue;
        // Each corner: whether it is the edge's start or end (the same vertex of one part, or a vertex at its place;
        // inline: a call V8 does not inline boxes its numbers).
        const y0 = V[p0 + 1], y1 = V[p1 + 1], y2 = V[p2 + 1];
        const isA0 = u0 === va || (Math.abs(x0 - ax) <= tax && Math.abs(y0 - ay) <= tay && Math.abs(z0 - az) <= taz);
        const isA1 = u1 === va || (Math.abs(x1 - ax) <= tax && Math.abs(y1 - ay) <= tay && Math.abs(z1 - az) <= taz);
        const isA2 = u2 === va || (Math.abs(x2 - ax) <= tax && Math.abs(y2 - ay) <= tay && Math.abs(z2 - az) <= taz);
        const isB0 = u0 === vb || (Math.abs(x0 - bx) <= tbx && Math.abs(y0 - by) <= tby && Math.abs(z0 - bz) <= tbz);
        const isB1 = u1 === vb || (Math.abs(x1 - bx) <= tbx && Math.abs(y1 - by) <= tby && Math.abs(z1 - bz) <= tbz);
        const isB2 = u2 === vb || (Math.abs(x2 - bx) <= tbx && Math.abs(y2 - by) <= tby && Math.abs(z2 - bz) <= tbz);
        // Across: a corner at the end whose next is at the start (the edge the other way round); more than one, or
        // another face running the edge the same way, and the edge is not a crest of two faces.
        const m = isB0 && isA1 ? 0 : isB1 && isA2 ? 1 : isB2 && isA0 ? 2 : -1;
        if (m >= 0) {
          if (across >= 0) return -1;
          across = u;
          acrossCorner[0] = 3 * u + m;
          continue;
        }
        if ((isA0 && isB1) || (isA1 && isB2) || (isA2 && isB0)) return -1;
        // The surface round the edge's ends, a face the judge never finds (not walkable), or one out of its reach.
        if (isA0 || isA1 || isA2 || isB0 || isB1 || isB2 || !isWalkable(w, u)) continue;
        if ((y0 > y1 ? (y0 > y2 ? y0 : y2) : y1 > y2 ? y1 : y2) < ylo || (y0 < y1 ? (y0 < y2 ? y0 : y2) : y1 < y2 ? y1 : y2) > yhi) continue;
        if (segmentNearTriangle(ax, az, bx, bz, x0, z0, x1, z1, x2, z2, r * r)) return -1;
      }
    }
  }
  if (across < 0) return -1;
  const N = FOLD_NORMALS;
  faceNormal(V, C, across, N, 3);
  if (N[3] === 0 && N[4] === 0 && N[5] === 0) return -1;
  faceNormal(V, C, t, N);
  const d = N[0] * N[3] + N[1] * N[4] + N[2] * N[5];
  return Math.acos(Math.max(-1, Math.min(1, d)));
}

/**
 * segmentMeetsBox's arguments: ax, az, ex, ez, x0, z0, x1, z1 (a scratch, not arguments: V8 boxes each double passed
 * to a call it does not inline, and foldAcross asks a cell at a time).
 */
const MEETS = new Float64Array(8);

/** Whether the segment from (ax, az) along (ex, ez) meets the box [x0, x1] × [z0, z1] (slabs; touching counts): MEETS. */
function segmentMeetsBox(): boolean {
  const B = MEETS, ax = B[0], az = B[1], ex = B[2], ez = B[3], x0 = B[4], z0 = B[5], x1 = B[6], z1 = B[7];
  let lo = 0, hi = 1;
  if (ex === 0) {
    if (ax < x0 || ax > x1) return false;
  } else {
    let s = (x0 - ax) / ex, t = (x1 - ax) / ex;
    if (s > t) { const u = s; s = t; t = u; }
    if (s > lo) lo = s;
    if (t < hi) hi = t;
  }
  if (ez === 0) {
    if (az < z0 || az > z1) return false;
  } else {
    let s = (z0 - az) / ez, t = (z1 - az) / ez;
    if (s > t) { const u = s; s = t; t = u; }
    if (s > lo) lo = s;
    if (t < hi) hi = t;
  }
  return lo <= hi;
}

/** Squared distance in the plane between point (px, pz) and segment (ax, az)–(bx, bz). */
function pointSegment2(px: number, pz: number, ax: number, az: number, bx: number, bz: number): number {
  const ex = bx - ax, ez = bz - az, l = ex * ex + ez * ez;
  const s = l > 0 ? Math.max(0, Math.min(1, ((px - ax) * ex + (pz - az) * ez) / l)) : 0;
  const dx = ax + s * ex - px, dz = az + s * ez - pz;
  return dx * dx + dz * dz;
}

/** Whether segments (a, b) and (c, d) in the plane cross or touch. */
function segmentsCross(ax: number, az: number, bx: number, bz: number, cx: number, cz: number, dx: number, dz: number): boolean {
  const o1 = (bx - ax) * (cz - az) - (bz - az) * (cx - ax), o2 = (bx - ax) * (dz - az) - (bz - az) * (dx - ax);
  const o3 = (dx - cx) * (az - cz) - (dz - cz) * (ax - cx), o4 = (dx - cx) * (bz - cz) - (dz - cz) * (bx - cx);
  // On one line: whether their extents overlap (the distances below tell the rest).
  if (o1 === 0 && o2 === 0) {
    return Math.max(ax, bx) >= Math.min(cx, dx) && Math.max(cx, dx) >= Math.min(ax, bx) && Math.max(az, bz) >= Math.min(cz, dz) && Math.max(cz, dz) >= Math.min(az, bz);
  }
  return ((o1 <= 0 && o2 >= 0) || (o1 >= 0 && o2 <= 0)) && ((o3 <= 0 && o4 >= 0) || (o3 >= 0 && o4 <= 0));
}

/** Whether an end of segment (a, b) lies in triangle (p, q, r) in the plane (either winding; on its edge counts). */
function endInTriangle(x: number, z: number, px: number, pz: number, qx: number, qz: number, rx: number, rz: number): boolean {
  const d1 = (qx - px) * (z - pz) - (qz - pz) * (x - px), d2 = (rx - qx) * (z - qz) - (rz - qz) * (x - qx), d3 = (px - rx) * (z - rz) - (pz - rz) * (x - rx);
  return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
}

/**
 * Whether segment (a, b) and triangle (p, q, r) in the plane come within sqrt(r2) of each other (overlapping: 0).
 * Answers a yes or no, not the distance: a number a call returns is boxed where V8 does not inline it.
 */
function segmentNearTriangle(ax: number, az: number, bx: number, bz: number, px: number, pz: number, qx: number, qz: number, rx: number, rz: number, r2: number): boolean {
  if (endInTriangle(ax, az, px, pz, qx, qz, rx, rz) || endInTriangle(bx, bz, px, pz, qx, qz, rx, rz)) return true;
  if (segmentsCross(ax, az, bx, bz, px, pz, qx, qz) || segmentsCross(ax, az, bx, bz, qx, qz, rx, rz) || segmentsCross(ax, az, bx, bz, rx, rz, px, pz)) return true;
  return (
    pointSegment2(ax, az, px, pz, qx, qz) <= r2 || pointSegment2(ax, az, qx, qz, rx, rz) <= r2 || pointSegment2(ax, az, rx, rz, px, pz) <= r2 ||
    pointSegment2(bx, bz, px, pz, qx, qz) <= r2 || pointSegment2(bx, bz, qx, qz, rx, rz) <= r2 || pointSegment2(bx, bz, rx, rz, px, pz) <= r2 ||
    pointSegment2(px, pz, ax, az, bx, bz) <= r2 || pointSegment2(qx, qz, ax, az, bx, bz) <= r2 || pointSegment2(rx, rz, ax, az, bx, bz) <= r2
  );
}

/** The world's quiet map, made once a world (the ride's rider and each worker thread's ask for it). */
const MAPS = new WeakMap<RideWorld, QuietMap>();
export function quietMap(w: RideWorld): QuietMap {
  let m = MAPS.get(w);
  if (!m) MAPS.set(w, (m = new QuietMap(w)));
  return m;
}
