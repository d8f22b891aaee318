// The level-wide edge data in the build (rule in src/geometry/seams.ts, decision in
// docs/format-decisions.md "Seams"): every resource is encoded by the shape rule alone and lists the corners its
// shapes leave unpaired; after the last resource is built, those corners are matched over the whole level and each
// joined corner's edge value and bits are stored into its resource's bytes. The manifest reports what the cuts did
// to the level's open edges.
import { matchSeams, seamEdge, type LevelFaces, type SeamMatch } from '../geometry/seams.ts';
import { SEAM_NONE } from '../geometry/edge-rule.ts';
import { writeCornerEdge, type EdgeArrays } from '../format/resource.ts';
import { PackWriter, type PackSlice } from '../output/cache-pack.ts';
import { readStaged, sha256Of, type BuiltResource } from './build.ts';
import { checkOf, writeSpan } from '../output/file-write.ts';
import { fingerprint } from './unique.ts';

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

/**
 * The level's match over every built resource's open corners, in resource order; with `faces` (the level's
 * triangles, --seams level) open edges lying on another face join it too.
 */
export function levelMatch(built: BuiltResource[], faces?: LevelFaces[]): SeamMatch {
  return matchSeams(built.map((r) => ({ corner: r.open.corner, points: r.open.points })), faces);
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
    const arrays = edgeArraysOf(r.name, r.bytes, r.open.arrays);
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
function edgeArraysOf(name: string, bytes: Uint8Array, a: Uint32Array): EdgeArrays[] {
  const out: EdgeArrays[] = [];
  for (let s = 0; s + 3 < a.length; s += 4) {
    const e = { corners: a[s], values: a[s + 1], concave: a[s + 2], flat: a[s + 3] };
    if (e.values + 4 * e.corners > bytes.length || e.concave + (e.corners >> 3) >= bytes.length || e.flat + (e.corners >> 3) >= bytes.length) {
      throw new Error(`seams: "${name}": shape ${s / 4}'s edge data lie past its ${bytes.length} bytes`);
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

/**
 * One staged file the seams step changes: the file this build wrote (checked as written, then patched in place),
 * its open corners' places and their level-wide codes. Plain data, so a worker does it as well as the main thread.
 */
export interface PatchItem {
  name: string;
  path: string;
  check: { bytes: number; crc32: string };
  /** The corners' codes; null: the file is not changed (only copied). */
  codes: Float32Array | null;
  shape: Uint32Array;
  corner: Uint32Array;
  /** ResourceOpen.arrays: 4 words a shape. */
  arrays: Uint32Array;
  /** Take the patched file's sha256 too (the cache records it). */
  sha256: boolean;
  /** The final file is a cache entry (src/build/cache.ts wantsEntry): hashed, and appended to the work unit's pack if it has one (src/output/cache-pack.ts). */
  toCache?: boolean;
}

/** What is known of a patched file's bytes afterwards (BuiltResource's size, fingerprint, check, sha256). */
export interface FileSums {
  size: number;
  fingerprint: number;
  check: { bytes: number; crc32: string };
  sha256?: string;
}

export interface PatchResult {
  /** The patched file's sums; none when it was not changed. */
  sums?: FileSums;
  /** Where the final file went in the unit's pack (toCache); none when not asked or the write failed (then no entry is kept). */
  copied?: PackSlice;
  /** An unchanged file's sha256, taken for its entry (a changed one's is in sums). */
  sha256?: string;
}

const patchScratch = { buf: new Uint8Array(0) };

/**
 * Stores the joined corners' edge data into files this build wrote (applySeams' rule for encoder bytes: only
 * corners with a code are written), rewriting only the changed span, and sums the results. Each file is read back
 * into one buffer reused file after file (src/tiling/build.ts readStaged: plain file, size and CRC-32 checked).
 * Items marked toCache have their final bytes hashed and, given `pack` (one per work unit, created here), appended to it.
 */
export function patchUnit(items: PatchItem[], pack?: string): PatchResult[] {
  const writer = pack === undefined ? undefined : new PackWriter(pack);
  try {
    return items.map((item) => {
      const out: PatchResult = {};
      let bytes: Uint8Array | undefined;
      if (item.codes) ({ sums: out.sums, bytes } = patchFile(item, item.codes));
      if (item.toCache) {
        // A file left as encoded is hashed here, once, as the bytes the entry keeps (the encoding thread did not).
        if (!bytes) out.sha256 = sha256Of((bytes = readStaged(item.path, item.check, patchScratch)));
        if (writer) out.copied = writer.append(bytes);
      }
      return out;
    });
  } finally {
    writer?.close();
  }
}

function patchFile(item: PatchItem, codes: Float32Array): { sums: FileSums; bytes: Uint8Array } {
  const bytes = readStaged(item.path, item.check, patchScratch);
  const arrays = edgeArraysOf(item.name, bytes, item.arrays);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const span: [number, number] = [Infinity, -Infinity];
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i];
    if (code === SEAM_NONE) continue;
    const a = arrays[item.shape[i]];
    if (!a) throw new Error(`seams: "${item.name}": open corner ${i} names shape ${item.shape[i]} of ${arrays.length}`);
    const e = seamEdge(code);
    writeCornerEdge(view, a, item.corner[i], e.value, e.concave, e.flat, span);
  }
  if (span[0] < span[1]) writeSpan(item.path, bytes, span[0], span[1]);
  return { sums: { size: bytes.length, fingerprint: fingerprint(bytes), check: checkOf(bytes), sha256: item.sha256 ? sha256Of(bytes) : undefined }, bytes };
}
