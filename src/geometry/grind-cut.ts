// The density cut: a piece of a welded mesh denser than a target (half-edges per metre of its bbox diagonal: the
// game analyses no edge of a part over ~1,000, ../shared/spec/authoring-notes.md "What the game does with edges")
// is cut into pieces at or under it, so that its creases can be ground. Rule and reasoning: docs/format-decisions.md,
// "Density cut".
//
// - Creases stay inside pieces: the two faces of every convex crease at or above the crease angle
//   (src/format/grind-map.ts GRIND_CREASE_DEGREES, the same convexity test as the edge rule) are joined into one
//   unit, and the cut moves whole units, so a ledge is cut across and never along its lip (a lip edge keeps both of
//   its faces in one piece). A unit stops growing at UNIT_MAX_TRIANGLES (a mesh creased everywhere still cuts).
// - A piece with no such crease is not cut at all: there is nothing on it to grind, and pieces cost geometries.
// - Recursive bisection of the units at the triangle-weighted median of their centroids on the axis of largest
//   centroid extent (the u16 split's rule, src/geometry/split.ts, over units instead of triangles): deterministic,
//   pieces compact and balanced, O(n log n).
// - A piece stops when it is at or under the target and within maxFaces. A piece still over the target whose bbox
//   diagonal is under MIN_PIECE_DIAGONAL, or that holds fewer than twice MIN_PIECE_TRIANGLES, is not worth cutting
//   into parts of their own: the cut gives up there, and a whole subtree
//   that gave up everywhere is put back together as one piece (within maxFaces), so a small dense object stays one
//   part (and is warned about: --simplify is what helps it) while the rest of its mesh is cut.
// The pieces are a partition of the input's triangles, each ascending: every triangle is encoded exactly as before,
// only into another shape (the same world triangles; cut edges get their edge data from the level-wide seams).
import { isGrindCrease } from './crease.ts';

/** Half-edges per metre a part may hold after the density cut, by default: under Studio's warning (900). */
export const GRIND_DENSITY_TARGET = 800;
/** The smallest piece (bbox diagonal, metres) the density cut makes: below it cutting stops helping. */
export const MIN_PIECE_DIAGONAL = 1;
/**
 * The fewest triangles a piece the density cut makes may hold: a range over the target with fewer than twice this is
 * not cut further (a soup of long thin triangles would otherwise come apart into thousands of tiny parts that each
 * pass the density test). 256 triangles at the target make a piece ~1 m across, MIN_PIECE_DIAGONAL.
 */
export const MIN_PIECE_TRIANGLES = 256;
/** Most triangles a crease unit gathers (see the file header). */
export const UNIT_MAX_TRIANGLES = 256;


/** Half-edges per metre of the triangles' bbox diagonal (the written part's measure, before recentring). */
export function subsetDensity(pos: ArrayLike<number>, tris: ArrayLike<number>, subset: ArrayLike<number>, from = 0, to = subset.length): number {
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = from; i < to; i++) {
    const t = 3 * subset[i];
    for (let k = 0; k < 3; k++) {
      const v = 3 * tris[t + k];
      const x = pos[v], y = pos[v + 1], z = pos[v + 2];
      if (x < x0) x0 = x; if (x > x1) x1 = x;
      if (y < y0) y0 = y; if (y > y1) y1 = y;
      if (z < z0) z0 = z; if (z > z1) z1 = z;
    }
  }
  const n = to - from;
  const d = Math.hypot(x1 - x0, y1 - y0, z1 - z0);
  return n === 0 ? 0 : d > 0 ? (3 * n) / d : Infinity;
}

/** What the cut did: its pieces (ascending triangle ids each) and how many of them are still over the target. */
export interface DensityCut {
  pieces: Uint32Array[];
  dense: number;
}

/**
 * Cuts the welded triangles `subset` (ids into tris, over pos) into pieces at or under `target` half-edges per
 * metre and at most maxFaces triangles (see the file header). A subset already under the target comes back whole.
 */
export function densityCut(pos: ArrayLike<number>, tris: ArrayLike<number>, subset: Uint32Array, target: number, maxFaces: number): DensityCut {
  if (subsetDensity(pos, tris, subset) <= target && subset.length <= maxFaces) return { pieces: [subset], dense: 0 };
  const n = subset.length;
  const { root: unitOf, creases } = creaseUnits(pos, tris, subset);
  // No crease to grind: cutting would gain nothing and cost geometries; the part stays Studio's (and is reported).
  if (creases === 0) return { pieces: [subset], dense: 1 };
  // Units: compact ids, triangle counts, centroid sums, vertex bounds.
  const id = new Int32Array(n).fill(-1);
  let units = 0;
  for (let i = 0; i < n; i++) if (unitOf[i] === i) id[i] = units++;
  const count = new Uint32Array(units);
  const centre = new Float64Array(3 * units);
  const box = new Float64Array(6 * units);
  for (let u = 0; u < units; u++) box.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], 6 * u);
  for (let i = 0; i < n; i++) {
    const u = id[unitOf[i]];
    count[u]++;
    const t = 3 * subset[i];
    for (let k = 0; k < 3; k++) {
      const v = 3 * tris[t + k];
      for (let j = 0; j < 3; j++) {
        const x = pos[v + j];
        centre[3 * u + j] += x / 3;
        if (x < box[6 * u + j]) box[6 * u + j] = x;
        if (x > box[6 * u + 3 + j]) box[6 * u + 3 + j] = x;
      }
    }
  }
  for (let u = 0; u < units; u++) for (let j = 0; j < 3; j++) centre[3 * u + j] /= count[u];
  const order = new Uint32Array(units);
  for (let u = 0; u < units; u++) order[u] = u;
  // Ranges of `order` that become pieces, and whether each is still over the target.
  const ranges: Array<[number, number, boolean]> = [];
  const stats = (lo: number, hi: number): { tris: number; diagonal: number } => {
    let tcount = 0;
    const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let i = lo; i < hi; i++) {
      const u = order[i];
      tcount += count[u];
      for (let j = 0; j < 3; j++) {
        if (box[6 * u + j] < b[j]) b[j] = box[6 * u + j];
        if (box[6 * u + 3 + j] > b[3 + j]) b[3 + j] = box[6 * u + 3 + j];
      }
    }
    return { tris: tcount, diagonal: Math.hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]) };
  };
  const cut = (lo: number, hi: number): void => {
    const s = stats(lo, hi);
    const over = s.diagonal > 0 ? (3 * s.tris) / s.diagonal > target : true;
    const small = s.diagonal < MIN_PIECE_DIAGONAL || s.tris < 2 * MIN_PIECE_TRIANGLES;
    if ((!over && s.tris <= maxFaces) || hi - lo === 1 || (over && small && s.tris <= maxFaces)) {
      ranges.push([lo, hi, over]);
      return;
    }
    const mid = bisect(order, lo, hi, centre, count, s.tris);
    const first = ranges.length;
    cut(lo, mid);
    cut(mid, hi);
    // A subtree that gave up everywhere is one piece again (it was no better cut; fewer geometries).
    if (ranges.slice(first).every((r) => r[2]) && ranges.length - first > 1 && s.tris <= maxFaces) {
      ranges.length = first;
      ranges.push([lo, hi, true]);
    }
  };
  cut(0, units);
  // Triangles by unit position in `order`, then each range's triangles ascending.
  const rank = new Uint32Array(units);
  for (let i = 0; i < units; i++) rank[order[i]] = i;
  const rangeOfRank = new Uint32Array(units);
  ranges.forEach(([lo, hi], r) => rangeOfRank.fill(r, lo, hi));
  const sizes = new Uint32Array(ranges.length);
  const pieceOf = new Uint32Array(n);
  for (let i = 0; i < n; i++) sizes[(pieceOf[i] = rangeOfRank[rank[id[unitOf[i]]]])]++;
  const pieces = Array.from(sizes, (s) => new Uint32Array(s));
  const fill = new Uint32Array(ranges.length);
  for (let i = 0; i < n; i++) pieces[pieceOf[i]][fill[pieceOf[i]]++] = subset[i]; // subset ascending → pieces ascending
  return { pieces, dense: ranges.filter((r) => r[2]).length };
}

/**
 * Sorts order[lo, hi) by unit centroid on the widest axis (ties by unit id) and returns the split point where the
 * triangles before it first reach half the range's `total`, kept strictly inside the range.
 */
function bisect(order: Uint32Array, lo: number, hi: number, centre: Float64Array, count: Uint32Array, total: number): number {
  const e = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = lo; i < hi; i++) {
    const u = order[i];
    for (let j = 0; j < 3; j++) {
      const c = centre[3 * u + j];
      if (c < e[j]) e[j] = c;
      if (c > e[3 + j]) e[3 + j] = c;
    }
  }
  const ext = [e[3] - e[0], e[4] - e[1], e[5] - e[2]];
  const axis = ext[0] >= ext[1] && ext[0] >= ext[2] ? 0 : ext[1] >= ext[2] ? 1 : 2;
  const part = order.subarray(lo, hi);
  part.sort((a, b) => centre[3 * a + axis] - centre[3 * b + axis] || a - b);
  let acc = 0;
  let mid = lo;
  while (mid < hi - 1 && acc + count[order[mid]] <= total / 2) acc += count[order[mid++]];
  return Math.max(lo + 1, mid);
}

/**
 * Union-find over the subset's triangles (positions in `subset`): the two faces of each convex crease at or over
 * the crease angle joined, up to UNIT_MAX_TRIANGLES a unit. Returns each triangle's root (a root is its own).
 * Edges are found by a CSR of half-edges by their smaller vertex, so no hashing; an edge run by other than exactly
 * two faces, in opposite directions, is no crease (as the edge rule stores it open).
 */
function creaseUnits(pos: ArrayLike<number>, tris: ArrayLike<number>, subset: Uint32Array): { root: Int32Array; creases: number } {
  const n = subset.length;
  const parent = new Int32Array(n);
  const size = new Uint32Array(n).fill(1);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  // Local vertex numbering (first use).
  const local = new Int32Array(pos.length / 3).fill(-1);
  const lv = new Uint32Array(3 * n);
  let nv = 0;
  for (let i = 0; i < 3 * n; i++) {
    const v = tris[3 * subset[(i / 3) | 0] + (i % 3)];
    if (local[v] < 0) local[v] = nv++;
    lv[i] = local[v];
  }
  let creases = 0;
  const start = new Uint32Array(nv + 1);
  for (let i = 0; i < 3 * n; i++) start[Math.min(lv[i], lv[i - (i % 3) + ((i % 3) + 1) % 3]) + 1]++;
  for (let v = 0; v < nv; v++) start[v + 1] += start[v];
  const slot = start.slice(0, nv);
  const half = new Uint32Array(3 * n); // corner ids, bucketed by their edge's smaller vertex
  for (let i = 0; i < 3 * n; i++) half[slot[Math.min(lv[i], lv[i - (i % 3) + ((i % 3) + 1) % 3])]++] = i;
  for (let v = 0; v < nv; v++) {
    for (let p = start[v]; p < start[v + 1]; p++) {
      const c = half[p];
      const other = lv[c - (c % 3) + ((c % 3) + 1) % 3];
      const a = lv[c];
      // Every half-edge on the same undirected edge.
      let mates = 0, opposite = -1, same = 0;
      for (let q = start[v]; q < start[v + 1]; q++) {
        if (q === p) continue;
        const d = half[q];
        const da = lv[d], db = lv[d - (d % 3) + ((d % 3) + 1) % 3];
        if (da === other && db === a) { mates++; opposite = d; } else if (da === a && db === other) same++;
      }
      if (mates !== 1 || same !== 0 || opposite < c) continue;
      const t1 = (c / 3) | 0, t2 = (opposite / 3) | 0;
      const f = 3 * subset[t1];
      if (!isGrindCrease(pos, tris, subset[t1], subset[t2], tris[f + (c % 3)], tris[f + ((c % 3) + 1) % 3])) continue;
      creases++;
      const r1 = find(t1), r2 = find(t2);
      if (r1 === r2 || size[r1] + size[r2] > UNIT_MAX_TRIANGLES) continue;
      // The smaller root id stays the root, so roots are positions and a root is its own parent.
      const [lo, hi] = r1 < r2 ? [r1, r2] : [r2, r1];
      parent[hi] = lo;
      size[lo] += size[hi];
    }
  }
  for (let i = 0; i < n; i++) parent[i] = find(i);
  return { root: parent, creases };
}
