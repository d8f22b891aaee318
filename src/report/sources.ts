// Which source object each written face came from, for report.html's pick in a merged cell. The .physics files do
// not say (a cell's shapes mix its objects' faces in the encoder's order, and the bytes stay as Studio writes them),
// but the build still holds the imported objects when it makes the report: each written face is matched to the
// source triangle with the nearest centroid, through a hash grid over the sources' centroids (O(n) to build, a few
// buckets a face). The written positions are the source's after the weld and the part offset (f32), so a face's
// centroid lies within millimetres of its source triangle's; FACE_MATCH_RADIUS bounds the search.

/** A source object as the build imported it: world positions and its groups' indices. */
export interface SourceMesh {
  name: string;
  positions: Float32Array;
  groups: { indices: Uint32Array }[];
}

/** Search radius (m) around a written face's centroid for its source triangle's; also the grid's cell size. */
export const FACE_MATCH_RADIUS = 0.05;

/** Centroids of the named objects' triangles, bucketed on a FACE_MATCH_RADIUS grid (CSR over a power-of-two table). */
export class SourceIndex {
  private readonly centroids: Float32Array;
  private readonly owner: Uint32Array;
  private readonly start: Uint32Array;
  private readonly order: Uint32Array;
  private readonly mask: number;

  /** objects: indices into `meshes` of the objects to match against (every object of the level: built once). */
  constructor(meshes: SourceMesh[], objects: number[] = meshes.map((_, i) => i)) {
    let n = 0;
    for (const o of objects) for (const g of meshes[o].groups) n += g.indices.length / 3;
    this.centroids = new Float32Array(3 * n);
    this.owner = new Uint32Array(n);
    let t = 0;
    for (const o of objects) {
      const p = meshes[o].positions;
      for (const g of meshes[o].groups) {
        const ix = g.indices;
        for (let k = 0; k < ix.length; k += 3) {
          const a = 3 * ix[k], b = 3 * ix[k + 1], c = 3 * ix[k + 2];
          this.centroids[3 * t] = (p[a] + p[b] + p[c]) / 3;
          this.centroids[3 * t + 1] = (p[a + 1] + p[b + 1] + p[c + 1]) / 3;
          this.centroids[3 * t + 2] = (p[a + 2] + p[b + 2] + p[c + 2]) / 3;
          this.owner[t++] = o;
        }
      }
    }
    let size = 1;
    while (size < 2 * n) size *= 2;
    this.mask = size - 1;
    const count = new Uint32Array(size + 1);
    const bucket = new Uint32Array(n);
    for (let i = 0; i < n; i++) count[(bucket[i] = this.bucketOf(this.centroids[3 * i], this.centroids[3 * i + 1], this.centroids[3 * i + 2])) + 1]++;
    for (let i = 0; i < size; i++) count[i + 1] += count[i];
    this.start = count;
    this.order = new Uint32Array(n);
    const at = count.slice(0, size);
    for (let i = 0; i < n; i++) this.order[at[bucket[i]]++] = i;
  }

  private cell = (v: number): number => Math.floor(v / FACE_MATCH_RADIUS);

  private hash(x: number, y: number, z: number): number {
    return (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & this.mask;
  }

  private bucketOf(x: number, y: number, z: number): number {
    return this.hash(this.cell(x), this.cell(y), this.cell(z));
  }

  /**
   * The object (an index into the meshes) whose triangle's centroid is nearest (x, y, z) within the radius, among
   * those `held` marks (a resource's objects; all when absent); −1: none.
   */
  nearest(x: number, y: number, z: number, held?: Uint8Array): number {
    const cx = this.cell(x), cy = this.cell(y), cz = this.cell(z);
    let best = -1, bd = FACE_MATCH_RADIUS * FACE_MATCH_RADIUS;
    const c = this.centroids;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
      const h = this.hash(cx + dx, cy + dy, cz + dz);
      for (let k = this.start[h]; k < this.start[h + 1]; k++) {
        const i = this.order[k];
        if (held && !held[this.owner[i]]) continue;
        const ex = c[3 * i] - x, ey = c[3 * i + 1] - y, ez = c[3 * i + 2] - z;
        const d = ex * ex + ey * ey + ez * ez;
        if (d <= bd) (bd = d), (best = this.owner[i]);
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
