// The level-wide edge data in the build (issue 12; rule in src/geometry/seams.ts, decision in
// docs/format-decisions.md "Seams"): every resource is encoded by the shape rule alone and lists the corners its
// shapes leave unpaired; after the last resource is built, those corners are matched over the whole level and each
// joined corner's edge value and bits are stored into its resource's bytes. The manifest reports what the cuts did
// to the level's open edges.
import { matchSeams, seamEdge, type SeamMatch } from '../geometry/seams.ts';
import { SEAM_NONE } from '../geometry/edge-rule.ts';
import { writeCornerEdge, type EdgeArrays } from '../format/resource.ts';
import type { BuiltResource } from './build.ts';

/** 'level': corners cut apart by the compiler take the level's edge data; 'shape': each shape's own (Studio's bytes). */
export type SeamMode = 'level' | 'shape';
export const DEFAULT_SEAMS: SeamMode = 'level';

/** Corner counts over the level (manifest `seams`); null in a dry run, which encodes nothing. */
export interface SeamReport {
  mode: SeamMode;
  /**
   * Corners with no single opposite corner in the whole level (its open edges as authored). Like the two counts
   * below, a count of edge sides: an open edge has one, and each side of a non-manifold edge (three faces on it,
   * a back-to-back face) counts too, as the encoder leaves those unpaired and stores them as it stores an open edge.
   */
  authoredOpenEdges: number | null;
  /** Corners their shape left unpaired that were written with their level-wide edge data. */
  joinedAcrossCuts: number | null;
  /**
   * Corners written with no single opposite corner in their shape, over all resources: the open edges (border and
   * crack, one corner each) and the unpaired sides of non-manifold edges. report.html reads the same number from the
   * files (border + crack + unpaired) and shows the split.
   */
  openEdgesWritten: number | null;
}

/** The level's match over every built resource's open corners, in resource order. */
export function levelMatch(built: BuiltResource[]): SeamMatch {
  return matchSeams(built.map((r) => ({ corner: r.open.corner, points: r.open.points })));
}

/**
 * Stores each listed corner's edge data into r.bytes: its level-wide code (codes, 'level'), or open (null:
 * 'shape', which also undoes a join in bytes taken from the cache). Sets r.seamJoined and r.openEdges (as encoded,
 * less the joined). Returns the byte span that changed, [lo, hi) (lo ≥ hi: nothing; bytes from the cache may
 * already hold these codes), so the caller rewrites only that part of the file. asEncoded: the bytes are the
 * encoder's own (every listed corner open), so only joined corners need writing.
 */
export function applySeams(r: BuiltResource, codes: Float32Array | null, asEncoded = false): [number, number] {
  const span: [number, number] = [Infinity, -Infinity];
  const n = r.open.corner.length;
  countSeams(r, codes);
  if (n > 0 && !(asEncoded && r.seamJoined === 0)) {
    const arrays = edgeArraysOf(r);
    const view = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    for (let i = 0; i < n; i++) {
      const code = codes ? codes[i] : SEAM_NONE;
      if (asEncoded && code === SEAM_NONE) continue;
      const a = arrays[r.open.shape[i]];
      if (!a) throw new Error(`seams: "${r.name}": open corner ${i} names shape ${r.open.shape[i]} of ${arrays.length}`);
      const e = seamEdge(code);
      writeCornerEdge(view, a, r.open.corner[i], e.value, e.concave, e.flat, span);
    }
  }
  return span;
}

/** Sets r.seamJoined (the codes that are not SEAM_NONE) and r.openEdges (as encoded, less those) for these codes. */
export function countSeams(r: BuiltResource, codes: Float32Array | null): void {
  const encodedOpen = r.openEdges + r.seamJoined;
  let joined = 0;
  if (codes) for (let i = 0; i < codes.length; i++) if (codes[i] !== SEAM_NONE) joined++;
  r.seamJoined = joined;
  r.openEdges = encodedOpen - joined;
}

const SEAM_NONE_BITS = new Uint32Array(Float32Array.of(SEAM_NONE).buffer)[0];

/** Whether two code lists of n corners are the same f32 values bit for bit (null: every corner SEAM_NONE). */
export function sameCodes(a: Float32Array | null, b: Float32Array | null, n: number): boolean {
  const none = SEAM_NONE_BITS;
  const bits = (c: Float32Array | null): Uint32Array | null => (c ? new Uint32Array(c.buffer, c.byteOffset, c.length) : null);
  const x = bits(a), y = bits(b);
  if ((x && x.length < n) || (y && y.length < n)) return false;
  for (let i = 0; i < n; i++) if ((x ? x[i] : none) !== (y ? y[i] : none)) return false;
  return true;
}

/** The resource's edge arrays as its builder located them (ResourceOpen.arrays), checked against its bytes. */
function edgeArraysOf(r: BuiltResource): EdgeArrays[] {
  const a = r.open.arrays, out: EdgeArrays[] = [];
  for (let s = 0; s + 3 < a.length; s += 4) {
    const e = { corners: a[s], values: a[s + 1], concave: a[s + 2], flat: a[s + 3] };
    if (e.values + 4 * e.corners > r.bytes.length || e.concave + (e.corners >> 3) >= r.bytes.length || e.flat + (e.corners >> 3) >= r.bytes.length) {
      throw new Error(`seams: "${r.name}": shape ${s / 4}'s edge data lie past its ${r.bytes.length} bytes`);
    }
    out.push(e);
  }
  return out;
}

export function seamReport(mode: SeamMode, match: SeamMatch, built: BuiltResource[]): SeamReport {
  return {
    mode,
    authoredOpenEdges: match.openCorners,
    joinedAcrossCuts: built.reduce((n, r) => n + r.seamJoined, 0),
    openEdgesWritten: built.reduce((n, r) => n + r.openEdges, 0),
  };
}
