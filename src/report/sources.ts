// Which source object each written face came from, for report.html's pick in a merged cell. The .physics files do
// not say (a cell's shapes mix its objects' faces in the encoder's order, and the bytes stay as Studio writes them),
// but the build still holds the imported objects when it makes the report: each written face is matched to the
// source triangle with the nearest centroid, through a hash grid over the sources' centroids (O(n) to build, a few
// buckets a face: cells four times the search radius, so a face's search ball meets 1 to 8 of them, ~2.4 on the
// 1M bench level, against 27 with cells of the radius and 8 with cells of twice it; bigger cells hold more
// centroids of a dense mesh each, and this is what a 1M-face level's report waits on). The written positions are the source's after the weld and the part offset (f32), so a face's
// centroid lies within millimetres of its source triangle's; FACE_MATCH_RADIUS bounds the search.

/** A source object as the build imported it: world positions and its groups' indices. */
export interface SourceMesh {
  name: string;
  positions: Float32Array;
  groups: { indices: Uint32Array }[];
}

/** Search radius (m) around a written face's centroid for its source triangle's; the grid's cells are 4× it. */
export const FACE_MATCH_RADIUS = 0.05;
const CELL = 4 * FACE_MATCH_RADIUS;

/**
 * Centroids of the named objects' triangles, bucketed on a grid of CELL (CSR over a power-of-two table). The table
 * keeps a 4 × 4 × 4 block of cells in 64 neighbouring slots and each bucket's centroids and owners side by side in
 * bucket order, so a search (its cells mostly in one block) reads a few cache lines instead of one per bucket.
 */
export class SourceIndex {
  /** Centroids (x, y, z) and their objects, in bucket order. */
  private readonly centroids: Float32Array;
  private readonly owner: Uint32Array;
  private readonly start: Uint32Array;
  private readonly mask: number;

  /** objects: indices into `meshes` of the objects to match against (every object of the level: built once). */
  constructor(meshes: SourceMesh[], objects: number[] = meshes.map((_, i) => i)) {
    let n = 0;
    for (const o of objects) for (const g of meshes[o].groups) n += g.indices.length / 3;
    const centroids = new Float32Array(3 * n);
    const owner = new Uint32Array(n);
    let t = 0;
    for (const o of objects) {
      const p = meshes[o].positions;
      for (const g of meshes[o].groups) {
        const ix = g.indices;
        for (let k = 0; k < ix.length; k += 3) {
          const a = 3 * ix[k], b = 3 * ix[k + 1], c = 3 * ix[k + 2];
          centroids[3 * t] = (p[a] + p[b] + p[c]) / 3;
          centroids[3 * t + 1] = (p[a + 1] + p[b + 1] + p[c + 1]) / 3;
          centroids[3 * t + 2] = (p[a + 2] + p[b + 2] + p[c + 2]) / 3;
          owner[t++] = o;
        }
      }
    }
    let size = 64;
    while (size < 2 * n) size *= 2;
    this.mask = size - 1;
    const count = new Uint32Array(size + 1);
    const bucket = new Uint32Array(n);
    for (let i = 0; i < n; i++) count[(bucket[i] = this.bucketOf(centroids[3 * i], centroids[3 * i + 1], centroids[3 * i + 2])) + 1]++;
    for (let i = 0; i < size; i++) count[i + 1] += count[i];
    this.start = count;
    this.centroids = new Float32Array(3 * n);
    this.owner = new Uint32Array(n);
    const at = count.slice(0, size);
    for (let i = 0; i < n; i++) {
      const k = at[bucket[i]]++;
      this.centroids[3 * k] = centroids[3 * i];
      this.centroids[3 * k + 1] = centroids[3 * i + 1];
      this.centroids[3 * k + 2] = centroids[3 * i + 2];
      this.owner[k] = owner[i];
    }
  }

  private cell = (v: number): number => Math.floor(v / CELL);

  /** The slot of cell (x, y, z): its 4 × 4 × 4 block's hash, then its place in the block. */
  private hash(x: number, y: number, z: number): number {
    const block = Math.imul(x >> 2, 73856093) ^ Math.imul(y >> 2, 19349663) ^ Math.imul(z >> 2, 83492791);
    return ((block << 6) | ((x & 3) << 4) | ((y & 3) << 2) | (z & 3)) & this.mask;
  }

  private bucketOf(x: number, y: number, z: number): number {
    return this.hash(this.cell(x), this.cell(y), this.cell(z));
  }

  /**
   * The object (an index into the meshes) whose triangle's centroid is nearest (x, y, z) within the radius, among
   * those `held` marks (a resource's objects; all when absent); −1: none.
   */
  nearest(x: number, y: number, z: number, held?: Uint8Array): number {
    // The cells the ball of FACE_MATCH_RADIUS around the point meets: one or two along each axis. (cell and hash
    // written out here: a 1M-face level asks ~1M times, and the method calls were a third of it.)
    const r = FACE_MATCH_RADIUS;
    const x0 = Math.floor((x - r) / CELL), x1 = Math.floor((x + r) / CELL), y0 = Math.floor((y - r) / CELL), y1 = Math.floor((y + r) / CELL);
    const z0 = Math.floor((z - r) / CELL), z1 = Math.floor((z + r) / CELL);
    let best = -1, bd = r * r;
    const c = this.centroids, start = this.start, owner = this.owner, mask = this.mask;
    for (let cx = x0; cx <= x1; cx++) for (let cy = y0; cy <= y1; cy++) for (let cz = z0; cz <= z1; cz++) {
      const block = Math.imul(cx >> 2, 73856093) ^ Math.imul(cy >> 2, 19349663) ^ Math.imul(cz >> 2, 83492791);
      const h = ((block << 6) | ((cx & 3) << 4) | ((cy & 3) << 2) | (cz & 3)) & mask; // this.hash(cx, cy, cz)
      for (let k = start[h], end = start[h + 1]; k < end; k++) {
        if (held && !held[owner[k]]) continue;
        const ex = c[3 * k] - x, ey = c[3 * k + 1] - y, ez = c[3 * k + 2] - z;
        const d = ex * ex + ey * ey + ez * ez;
        if (d <= bd) (bd = d), (best = owner[k]);
      }
    }
    return best;
  }
}

/**
 * Runs of faces by source object for one drawn shape: pairs (first face, object index), object −1 where no source
 * triangle matched. `centroid(f)` gives written face f's centroid.
 */
export function faceRuns(faces: number, centroid: (f: number, out: Float64Array) => void, index: SourceIndex, held?: Uint8Array): Int32Array {
  const out: number[] = [];
  const c = new Float64Array(3);
  let last = -2;
  for (let f = 0; f < faces; f++) {
    centroid(f, c);
    const o = index.nearest(c[0], c[1], c[2], held);
    if (o !== last) out.push(f, o), (last = o);
  }
  return Int32Array.from(out);
}
