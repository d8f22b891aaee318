// report.html's level of detail (used by view.ts): the tables that cut large shapes into chunks and groups of
// chunks, each with its box, face size and mean normal, and the coarse meshes made by vertex clustering that keep a
// mesh's outline (edges no face of it runs back), so a coarse piece meets its neighbours without a gap. Pure
// functions over typed arrays; no three.js.

/** A vector's length: Math.hypot is ~8× slower in V8, and the view takes three lengths a face at load. */
export const len3 = (x: number, y: number, z: number): number => Math.sqrt(x * x + y * y + z * z);

/** The first edge class drawn for every side (open border, crack, unpaired); classes below it are drawn once a pair. */
export const BORDER = 3;

/** Whether the side from → to of class k is drawn as a line: every border side, a paired edge once (its twin runs it back). */
export const drawsLine = (k: number, from: number, to: number): boolean => k >= BORDER || from < to;

/**
 * Vertex-clustering grid (cells per axis over a shape's box) of a shape's coarse mesh: 8 keeps a 100 m cell's
 * terrain to ~1/10 of its faces (12.5 m clusters), which at "frame all" of a 2 km level are ~5 px apart.
 */
export const LOD_GRID = 8;
/** Divisions of the level's extent: a coarse mesh's clusters are no smaller than one of them. */
export const OUTLINE_DIVISIONS = 256;
/**
 * Faces per chunk of a large shape. A shape of more than twice this is cut into runs of consecutive faces (the
 * files keep a shape's faces in tree order, so a run is a compact patch: ~20 m of 2 m terrain quads), each culled
 * by its box and given its level of detail on its own: zoomed into a 200 m terrain part of 20,000 faces, the
 * patches out of view are left out and those towards the horizon drawn coarse, instead of the whole part drawn
 * whole (on the browser test's 1M level: ~10,000 faces a frame near instead of ~43,000; 256 culls ~1.5× tighter
 * than 1,024, and a frame's patches stay a few hundred).
 */
export const CHUNK_FACES = 256;
/**
 * Chunks per group: far parts of a large shape seen up close are drawn as one coarse mesh per group of this many
 * chunks, not one per chunk (each coarse mesh keeps its outline whole, ~50 faces of a 256-face chunk's coarse mesh;
 * a group's, over 16 chunks, ~a third of theirs together).
 */
export const GROUP_CHUNKS = 16;

/** The length of the open-addressing table markOutline uses for n faces. */
export const outlineSize = (faces: number): number => 1 << Math.ceil(Math.log2(Math.max(4, 6 * faces)));
const next = (c: number): number => (c % 3 === 2 ? c - 2 : c + 1);

/**
 * Marks with `stamp` in `keep` the vertices on the outline of faces [a, b) (corners idx[3a … 3b), vertices idx − base
 * < 65,536): the ends of every side no face of them runs back (open ones, and those the compiler joined across a cut).
 * Half-edges in an open-addressing table (from · 2^16 + to + 1; 0 is empty) of `table`, which must be at least
 * outlineSize(b − a) long.
 */
export function markOutline(idx: ArrayLike<number>, a: number, b: number, base: number, table: Float64Array, keep: Uint8Array | Int32Array, stamp: number): void {
  const size = outlineSize(b - a);
  table.fill(0, 0, size);
  const slot = (k: number): number => {
    let h = Math.imul(k | 0, 0x9e3779b1) >>> 0 & (size - 1);
    while (table[h] !== 0 && table[h] !== k) h = (h + 1) & (size - 1);
    return h;
  };
  for (let c = 3 * a; c < 3 * b; c++) {
    const k = (idx[c] - base) * 65536 + (idx[next(c)] - base) + 1;
    table[slot(k)] = k;
  }
  for (let c = 3 * a; c < 3 * b; c++) {
    const from = idx[c] - base, to = idx[next(c)] - base;
    if (table[slot(to * 65536 + from + 1)] === 0) keep[from] = keep[to] = stamp;
  }
}

/**
 * The faces [a, b) with each vertex replaced by its cluster's (`rep`, by vertex − base), those keeping three
 * distinct vertices, each once: keyed by their vertices rotated to the smallest first (winding kept), sorted, repeats
 * dropped, into `keys` (≥ b − a long). Returns how many; faceOfKey unpacks one.
 */
export function clusteredFaces(idx: ArrayLike<number>, a: number, b: number, base: number, rep: ArrayLike<number>, keys: Float64Array): number {
  let nk = 0;
  for (let t = a; t < b; t++) {
    let x = rep[idx[3 * t] - base], y = rep[idx[3 * t + 1] - base], z = rep[idx[3 * t + 2] - base];
    if (x === y || y === z || x === z) continue;
    if (y < x && y < z) [x, y, z] = [y, z, x];
    else if (z < x && z < y) [x, y, z] = [z, x, y];
    keys[nk++] = (x * 65536 + y) * 65536 + z;
  }
  const kept = keys.subarray(0, nk).sort();
  let u = 0;
  for (let i = 0; i < nk; i++) if (i === 0 || kept[i] !== kept[i - 1]) keys[u++] = kept[i];
  return u;
}

/** Writes face key k's three vertices plus v0 into out at `at`. */
export function faceOfKey(k: number, v0: number, out: { [i: number]: number }, at: number): void {
  out[at] = v0 + Math.floor(k / 4294967296);
  out[at + 1] = v0 + (Math.floor(k / 65536) % 65536);
  out[at + 2] = v0 + (k % 65536);
}

/** A run of faces of a shape (chunks: CHUNK_FACES; groups: GROUP_CHUNKS chunks) with its box, face size and normal. */
export interface ChunkTables {
  /** Per shape, its first chunk (shapes + 1). */
  shapeChunkStart: Uint32Array;
  /** Per chunk its first face (global), chunks + 1. */
  chunkFace: Uint32Array;
  /** Per chunk: box (min xyz, max xyz), mean first-edge length, mean of its faces' unit normals. */
  chunkBox: Float32Array;
  chunkEdge: Float32Array;
  chunkNormal: Float32Array;
  /** Per edge class, per chunk, where its lines start in that class's line list (chunks + 1). */
  lineChunkStart: Uint32Array[];
  /** Faces of the shapes cut into more than one chunk. */
  chunkedFaces: number;
}

/**
 * The chunks of every shape (a shape of more than 2 × CHUNK_FACES faces in runs of about CHUNK_FACES, else one), over
 * the merged index and positions; `classes` per corner, `classCount` edge classes (line lists in face order).
 */
export function chunkTables(shapeFaces: ArrayLike<number>, shapeFaceStart: Uint32Array, index: Uint32Array, position: Float32Array, classes: Uint8Array, classCount: number): ChunkTables {
  const n = shapeFaces.length;
  const shapeChunkStart = new Uint32Array(n + 1);
  for (let si = 0; si < n; si++) shapeChunkStart[si + 1] = shapeChunkStart[si] + (shapeFaces[si] > 2 * CHUNK_FACES ? Math.ceil(shapeFaces[si] / CHUNK_FACES) : 1);
  const chunks = shapeChunkStart[n];
  const chunkFace = new Uint32Array(chunks + 1);
  const chunkBox = new Float32Array(6 * chunks), chunkEdge = new Float32Array(chunks), chunkNormal = new Float32Array(3 * chunks);
  const lineChunkStart = Array.from({ length: classCount }, () => new Uint32Array(chunks + 1));
  let chunkedFaces = 0;
  for (let si = 0; si < n; si++) {
    const faces = shapeFaces[si], c0 = shapeChunkStart[si], m = shapeChunkStart[si + 1] - c0, f0 = shapeFaceStart[si];
    if (m > 1) chunkedFaces += faces;
    for (let j = 0; j < m; j++) {
      const a = f0 + Math.floor((j * faces) / m), b = f0 + Math.floor(((j + 1) * faces) / m), ci = c0 + j;
      chunkFace[ci] = a;
      chunkFace[ci + 1] = b;
      let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity, edgeSum = 0, mx = 0, my = 0, mz = 0;
      for (let c = 3 * a; c < 3 * b; c++) {
        const p = 3 * index[c], x = position[p], y = position[p + 1], z = position[p + 2];
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
        if (z < z0) z0 = z;
        if (z > z1) z1 = z;
        if (c % 3 === 0) {
          const q = 3 * index[c + 1], r = 3 * index[c + 2];
          const ux = position[q] - x, uy = position[q + 1] - y, uz = position[q + 2] - z;
          const wx = position[r] - x, wy = position[r + 1] - y, wz = position[r + 2] - z;
          edgeSum += len3(ux, uy, uz);
          const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx, nl = len3(nx, ny, nz);
          if (nl > 0) (mx += nx / nl), (my += ny / nl), (mz += nz / nl);
        }
      }
      // The mean of the faces' unit normals: its length is 1 for a flat patch, less the more they turn.
      if (b > a) chunkNormal.set([mx / (b - a), my / (b - a), mz / (b - a)], 3 * ci);
      if (b === a) (x0 = y0 = z0 = x1 = y1 = z1 = 0);
      chunkBox.set([x0, y0, z0, x1, y1, z1], 6 * ci);
      chunkEdge[ci] = b > a ? edgeSum / (b - a) : 0;
      // Lines of the chunk's faces: the line lists are in face order, so each chunk's are a range.
      for (let k = 0; k < classCount; k++) lineChunkStart[k][ci + 1] = lineChunkStart[k][ci];
      for (let c = 3 * a; c < 3 * b; c++) {
        const k = classes[c];
        if (drawsLine(k, index[c], index[next(c)])) lineChunkStart[k][ci + 1] += 2;
      }
    }
  }
  return { shapeChunkStart, chunkFace, chunkBox, chunkEdge, chunkNormal, lineChunkStart, chunkedFaces };
}

export interface GroupTables {
  /** Per shape its first group (shapes + 1); per group its first chunk (groups + 1); box, face-weighted edge and normal. */
  shapeGroupStart: Uint32Array;
  groupChunk: Uint32Array;
  groupBox: Float32Array;
  groupEdge: Float32Array;
  groupNormal: Float32Array;
}

/** Groups of GROUP_CHUNKS consecutive chunks of a shape: box, face-weighted mean edge and mean normal. */
export function groupTables(t: ChunkTables): GroupTables {
  const { shapeChunkStart, chunkFace, chunkBox, chunkEdge, chunkNormal } = t;
  const n = shapeChunkStart.length - 1;
  const shapeGroupStart = new Uint32Array(n + 1);
  for (let si = 0; si < n; si++) shapeGroupStart[si + 1] = shapeGroupStart[si] + Math.ceil((shapeChunkStart[si + 1] - shapeChunkStart[si]) / GROUP_CHUNKS);
  const groups = shapeGroupStart[n];
  const groupChunk = new Uint32Array(groups + 1);
  const groupBox = new Float32Array(6 * groups), groupEdge = new Float32Array(groups), groupNormal = new Float32Array(3 * groups);
  for (let si = 0; si < n; si++) {
    for (let gi = shapeGroupStart[si], c = shapeChunkStart[si]; gi < shapeGroupStart[si + 1]; gi++) {
      const c1 = Math.min(shapeChunkStart[si + 1], c + GROUP_CHUNKS);
      groupChunk[gi] = c;
      groupChunk[gi + 1] = c1;
      const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
      let e = 0, nx = 0, ny = 0, nz = 0;
      const faces = chunkFace[c1] - chunkFace[c];
      for (let ci = c; ci < c1; ci++) {
        for (let k = 0; k < 3; k++) (b[k] = Math.min(b[k], chunkBox[6 * ci + k])), (b[k + 3] = Math.max(b[k + 3], chunkBox[6 * ci + 3 + k]));
        const w = faces ? (chunkFace[ci + 1] - chunkFace[ci]) / faces : 0;
        e += w * chunkEdge[ci];
        (nx += w * chunkNormal[3 * ci]), (ny += w * chunkNormal[3 * ci + 1]), (nz += w * chunkNormal[3 * ci + 2]);
      }
      groupBox.set(b, 6 * gi);
      groupEdge[gi] = e;
      groupNormal.set([nx, ny, nz], 3 * gi);
      c = c1;
    }
  }
  return { shapeGroupStart, groupChunk, groupBox, groupEdge, groupNormal };
}
