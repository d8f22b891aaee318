// Per-object mesh validation report (warnings with counts), following the mesh policy of
// ../shared/spec/collider-shape-contract.md ("Mesh Policy": exact-position duplicates welded only in a temporary
// topology view; degenerate and duplicate faces, non-manifold edges, inconsistent winding, open edges) and the
// density rule of ../shared/spec/authoring-notes.md (> 900 half-edges per metre of bbox diagonal: no edge
// analysis in game). Nothing here changes the mesh: the encoder applies its own weld and drop policy.
//
// Design log
// - 2026-11-29: edge lists as one array of (other vertex · 2 + direction), half-edges unrolled per triangle (no
//   c % 3): all objects of the 1M bench level, fresh process each, 7 runs at load ~4: cold 659 → 692 ms, warm
//   298 → 278 ms median (same reports). Not kept. Cold is 2.3× warm here: the order the objects arrive in was
//   worth more (compile.ts posts objects of 25,000+ triangles after the small ones: 668 → 476 ms).
// - 2026-11-29: JIT warm-up on a worker waiting for the import's first objects (100 validations of a 128-triangle
//   grid, ~75 ms cold): with the objects already in small-first order, the validation after it went 517 → 444 ms
//   (9 fresh processes): it pays for itself only in idle time (the worker waits ~60–450 ms for its first batch),
//   worth ~35–70 ms of wall at most; not measurable in the bench's spread. Not kept.

/** Counts for one object; all zero means clean. */
export interface MeshReport {
  triangles: number;
  /** Triangles with a repeated welded vertex or zero area. */
  degenerate: number;
  /** Triangles repeating an earlier one with the same corners and winding (the encoder drops them). */
  duplicate: number;
  /** Triangles repeating an earlier one with reversed winding (two-sided sheets; kept). */
  reversedDuplicate: number;
  /** Edges used by a single triangle: a possible bump under a skateboard. */
  openEdges: number;
  /** Edges used by three or more triangles. */
  nonManifoldEdges: number;
  /** Edges whose two triangles run it in the same direction (flipped neighbour). */
  inconsistentEdges: number;
  /** Parts (material groups) above the density limit. */
  denseParts: number;
  /** Highest half-edges per metre over the object's parts. */
  maxHalfEdgesPerMetre: number;
}

export const DENSITY_LIMIT = 900;

/**
 * Reusable work arrays: validation runs once per object, and a level has thousands of small ones, for which
 * allocating a dozen zeroed typed arrays each cost more than the checks. `take` returns a view of at least n
 * elements (contents undefined unless the caller fills them); views of different names never overlap.
 */
class Scratch {
  private arrays = new Map<string, Int32Array>();

  take(name: string, n: number): Int32Array {
    let a = this.arrays.get(name);
    if (!a || a.length < n) this.arrays.set(name, (a = new Int32Array(Math.max(n, 2 * (a?.length ?? 0), 1024))));
    return a.subarray(0, n);
  }
}

const shared = new Scratch();

/**
 * Welds positions (xyz f32) by exact value, -0 and 0 together: returns each vertex's welded id (ids in
 * first-use order) and the welded count. Open addressing over the three coordinate bit patterns.
 */
export function weldExact(positions: Float32Array): { ids: Uint32Array; count: number } {
  const { ids, count } = weldInto(positions, new Scratch());
  return { ids: Uint32Array.from(ids), count };
}

function weldInto(positions: Float32Array, scratch: Scratch): { ids: Int32Array; count: number } {
  const n = positions.length / 3;
  // Int32 view: signed values stay small integers in V8 (a Uint32 view yields doubles above 2^31).
  const bits = new Int32Array(positions.buffer, positions.byteOffset, positions.length);
  let size = 1;
  while (size < 2 * n) size <<= 1;
  const table = scratch.take('table', size).fill(-1);
  const ids = scratch.take('ids', n);
  const firstOf = scratch.take('firstOf', n); // welded id → representative vertex
  let count = 0;
  const mask = size - 1;
  for (let v = 0; v < n; v++) {
    let x = bits[3 * v], y = bits[3 * v + 1], z = bits[3 * v + 2];
    if (x === -0x80000000) x = 0; // -0.0 → 0.0
    if (y === -0x80000000) y = 0;
    if (z === -0x80000000) z = 0;
    let h = Math.imul(x ^ (x >>> 16), 0x85ebca6b) ^ y;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ z;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = (h ^ (h >>> 13)) & mask;
    for (;;) {
      const slot = table[h];
      if (slot < 0) {
        table[h] = count;
        firstOf[count] = v;
        ids[v] = count++;
        break;
      }
      const r = 3 * firstOf[slot];
      if (norm(bits[r]) === x && norm(bits[r + 1]) === y && norm(bits[r + 2]) === z) {
        ids[v] = slot;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return { ids, count };
}

const norm = (b: number): number => (b === -0x80000000 ? 0 : b); // -0.0 → 0.0

/** Validates one object: positions xyz, and its triangle index lists grouped by material. */
export function validateMesh(positions: Float32Array, groups: Uint32Array[]): MeshReport {
  const scratch = shared;
  const { ids, count } = weldInto(positions, scratch);
  const total = groups.reduce((s, g) => s + g.length / 3, 0);
  const report: MeshReport = {
    triangles: total, degenerate: 0, duplicate: 0, reversedDuplicate: 0, openEdges: 0,
    nonManifoldEdges: 0, inconsistentEdges: 0, denseParts: 0, maxHalfEdgesPerMetre: 0,
  };
  // Welded triangles, rotated to start at their smallest vertex (equal rotations compare equal).
  const tris = scratch.take('tris', total * 3);
  let t = 0;
  for (const g of groups) {
    const density = partDensity(positions, g);
    report.maxHalfEdgesPerMetre = Math.max(report.maxHalfEdgesPerMetre, density);
    if (density > DENSITY_LIMIT) report.denseParts++;
    t = weldedTriangles(positions, g, ids, tris, t, report);
  }
  const kept = dropDuplicates(tris.subarray(0, 3 * t), count, report, scratch);
  countEdges(kept, count, report, scratch);
  return report;
}

/** Appends a group's non-degenerate triangles, welded and rotated, to tris at triangle t; returns the new count. */
function weldedTriangles(p: Float32Array, g: Uint32Array, ids: Int32Array, tris: Int32Array, t: number, report: MeshReport): number {
  for (let i = 0; i < g.length; i += 3) {
    const i0 = g[i], i1 = g[i + 1], i2 = g[i + 2];
    const a = ids[i0], b = ids[i1], c = ids[i2];
    if (a === b || b === c || a === c || zeroArea(p, i0, i1, i2)) {
      report.degenerate++;
      continue;
    }
    const o = 3 * t++;
    if (a < b && a < c) (tris[o] = a), (tris[o + 1] = b), (tris[o + 2] = c);
    else if (b < c) (tris[o] = b), (tris[o + 1] = c), (tris[o + 2] = a);
    else (tris[o] = c), (tris[o + 1] = a), (tris[o + 2] = b);
  }
  return t;
}

function zeroArea(p: Float32Array, i: number, j: number, k: number): boolean {
  const ux = p[3 * j] - p[3 * i], uy = p[3 * j + 1] - p[3 * i + 1], uz = p[3 * j + 2] - p[3 * i + 2];
  const vx = p[3 * k] - p[3 * i], vy = p[3 * k + 1] - p[3 * i + 1], vz = p[3 * k + 2] - p[3 * i + 2];
  return uy * vz - uz * vy === 0 && uz * vx - ux * vz === 0 && ux * vy - uy * vx === 0;
}

/** Triangle index count over its bounding-box diagonal (authoring-notes' measure). */
export function partDensity(p: Float32Array, idx: Uint32Array): number {
  if (idx.length === 0) return 0;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = 0; i < idx.length; i++) {
    const v = 3 * idx[i];
    const x = p[v], y = p[v + 1], z = p[v + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  const diag = Math.hypot(x1 - x0, y1 - y0, z1 - z0);
  return diag > 0 ? idx.length / diag : Infinity;
}

/**
 * Groups triangles by smallest vertex (CSR), then compares within a group: a same-rotation repeat is a
 * duplicate (dropped from the topology view), a reversed repeat is counted and kept.
 */
function dropDuplicates(tris: Int32Array, vertexCount: number, report: MeshReport, scratch: Scratch): Int32Array {
  const n = tris.length / 3;
  const start = scratch.take('start', vertexCount + 1).fill(0);
  for (let i = 0; i < n; i++) start[tris[3 * i] + 1]++;
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const order = scratch.take('order', n);
  const fill = scratch.take('fill', vertexCount);
  fill.set(start.subarray(0, vertexCount));
  for (let i = 0; i < n; i++) order[fill[tris[3 * i]]++] = i;
  const drop = scratch.take('drop', n).fill(0);
  const second = scratch.take('second', n);
  for (let i = 0; i < n; i++) second[i] = tris[3 * i + 1];
  let reversedMatches = 0;
  for (let v = 0; v < vertexCount; v++) {
    const s0 = start[v], s1 = start[v + 1];
    if (s1 - s0 < 2) continue;
    sortRange(order, s0, s1, second);
    // Same rotation: equal second and third vertex; the earliest in the bucket's order is kept.
    for (let a = s0; a < s1; a++) {
      const i = order[a];
      if (drop[i]) continue;
      for (let b = a + 1; b < s1 && second[order[b]] === second[i]; b++) {
        const j = order[b];
        if (!drop[j] && tris[3 * j + 2] === tris[3 * i + 2]) {
          drop[j] = 1;
          report.duplicate++;
        }
      }
    }
    // Reversed: second and third swapped; each pair is met from both sides.
    for (let a = s0; a < s1; a++) {
      const i = order[a];
      if (drop[i]) continue;
      for (let b = lowerBound(order, s0, s1, second, tris[3 * i + 2]); b < s1 && second[order[b]] === tris[3 * i + 2]; b++) {
        const j = order[b];
        if (!drop[j] && tris[3 * j + 2] === second[i]) reversedMatches++;
      }
    }
  }
  report.reversedDuplicate = reversedMatches >> 1;
  if (report.duplicate === 0) return tris;
  const out = new Int32Array((n - report.duplicate) * 3);
  let w = 0;
  for (let i = 0; i < n; i++) if (!drop[i]) out.set(tris.subarray(3 * i, 3 * i + 3), 3 * w++);
  return out;
}

/**
 * Undirected edges by their smaller vertex (CSR), then within a vertex's list grouped by the other vertex with a
 * mark array (no sorting): per edge the number of uses and how many run from the smaller vertex.
 */
function countEdges(tris: Int32Array, vertexCount: number, report: MeshReport, scratch: Scratch): void {
  const h = tris.length; // one half-edge per corner: corner c runs to the next corner of its face
  const start = scratch.take('start', vertexCount + 1).fill(0);
  for (let c = 0; c < h; c += 3) {
    const a = tris[c], b = tris[c + 1], d = tris[c + 2];
    start[(a < b ? a : b) + 1]++;
    start[(b < d ? b : d) + 1]++;
    start[(d < a ? d : a) + 1]++;
  }
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  // Per half-edge, in its smaller vertex's list: the other vertex, and 1 when it runs from the smaller one.
  const other = scratch.take('other', h);
  const fwd = scratch.take('fwd', h);
  const fill = scratch.take('fill', vertexCount);
  fill.set(start.subarray(0, vertexCount));
  for (let c = 0; c < h; c++) {
    const a = tris[c], b = tris[c % 3 === 2 ? c - 2 : c + 1];
    const k = a < b ? fill[a]++ : fill[b]++;
    other[k] = a < b ? b : a;
    fwd[k] = a < b ? 1 : 0;
  }
  const mark = scratch.take('mark', vertexCount).fill(-1);
  const slot = scratch.take('slot', vertexCount);
  let uses = scratch.take('uses', 64), forward = scratch.take('forward', 64);
  for (let v = 0; v < vertexCount; v++) {
    const s0 = start[v], s1 = start[v + 1];
    if (s1 - s0 > uses.length) (uses = scratch.take('uses', s1 - s0)), (forward = scratch.take('forward', s1 - s0));
    let n = 0;
    for (let k = s0; k < s1; k++) {
      const o = other[k];
      if (mark[o] !== v) {
        mark[o] = v;
        slot[o] = n;
        uses[n] = 0;
        forward[n++] = 0;
      }
      uses[slot[o]]++;
      forward[slot[o]] += fwd[k];
    }
    for (let e = 0; e < n; e++) {
      if (uses[e] === 1) report.openEdges++;
      else if (uses[e] > 2) report.nonManifoldEdges++;
      else if (forward[e] !== 1) report.inconsistentEdges++;
    }
  }
}

/** First position in order[s..e) (sorted by key) whose key is ≥ k. */
function lowerBound(order: Int32Array, s: number, e: number, key: Int32Array, k: number): number {
  while (s < e) {
    const m = (s + e) >>> 1;
    if (key[order[m]] < k) s = m + 1;
    else e = m;
  }
  return s;
}

/** Sorts order[s..e) by key[order[i]], ties by order value: insertion sort for the usual short buckets. */
function sortRange(order: Int32Array, s: number, e: number, key: Int32Array): void {
  if (e - s > 32) {
    const part = Array.from(order.subarray(s, e)).sort((x, y) => key[x] - key[y] || x - y);
    order.set(part, s);
    return;
  }
  for (let i = s + 1; i < e; i++) {
    const x = order[i];
    let j = i - 1;
    while (j >= s && (key[order[j]] > key[x] || (key[order[j]] === key[x] && order[j] > x))) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = x;
  }
}

/** One line for the warnings list; undefined when the object is clean (open edges alone are reported too). */
export function describeReport(name: string, r: MeshReport): string | undefined {
  const items: string[] = [];
  const add = (n: number, what: string): void => {
    if (n > 0) items.push(`${n} ${what}`);
  };
  add(r.degenerate, 'degenerate triangles');
  add(r.duplicate, 'duplicate triangles');
  add(r.reversedDuplicate, 'back-to-back triangle pairs');
  add(r.nonManifoldEdges, 'non-manifold edges');
  add(r.inconsistentEdges, 'edges with inconsistent winding');
  add(r.openEdges, 'open edges');
  if (r.denseParts > 0) {
    items.push(`${r.denseParts} part(s) too dense to grind (${Math.round(r.maxHalfEdgesPerMetre)} > ${DENSITY_LIMIT} half-edges per metre)`);
  }
  return items.length ? `validate: object "${name}": ${items.join(', ')}` : undefined;
}
