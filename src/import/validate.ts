// Per-object mesh validation report (warnings with counts), following the mesh policy of
// ../shared/spec/collider-shape-contract.md ("Mesh Policy": exact-position duplicates welded only in a temporary
// topology view; degenerate and duplicate faces, non-manifold edges, inconsistent winding, open edges) and the
// density rule of ../shared/spec/authoring-notes.md (> 900 half-edges per metre of bbox diagonal: no edge
// analysis in game). Nothing here changes the mesh: the encoder applies its own weld and drop policy.

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
 * Welds positions (xyz f32) by exact value, -0 and 0 together: returns each vertex's welded id (ids in
 * first-use order) and the welded count. Open addressing over the three coordinate bit patterns.
 */
export function weldExact(positions: Float32Array): { ids: Uint32Array; count: number } {
  const n = positions.length / 3;
  // Int32 view: signed values stay small integers in V8 (a Uint32 view yields doubles above 2^31).
  const bits = new Int32Array(positions.buffer, positions.byteOffset, positions.length);
  let size = 1;
  while (size < 2 * n) size <<= 1;
  const table = new Int32Array(size).fill(-1);
  const ids = new Uint32Array(n);
  const firstOf = new Uint32Array(n); // welded id → representative vertex
  let count = 0;
  const norm = (b: number): number => (b === -0x80000000 ? 0 : b); // -0.0 → 0.0
  for (let v = 0; v < n; v++) {
    const x = norm(bits[3 * v]), y = norm(bits[3 * v + 1]), z = norm(bits[3 * v + 2]);
    let h = Math.imul(x ^ (x >>> 16), 0x85ebca6b) ^ y;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ z;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = (h ^ (h >>> 13)) & (size - 1);
    for (;;) {
      const slot = table[h];
      if (slot < 0) {
        table[h] = count;
        firstOf[count] = v;
        ids[v] = count++;
        break;
      }
      const r = firstOf[slot];
      if (norm(bits[3 * r]) === x && norm(bits[3 * r + 1]) === y && norm(bits[3 * r + 2]) === z) {
        ids[v] = slot;
        break;
      }
      h = (h + 1) & (size - 1);
    }
  }
  return { ids, count };
}

/** Validates one object: positions xyz, and its triangle index lists grouped by material. */
export function validateMesh(positions: Float32Array, groups: Uint32Array[]): MeshReport {
  const { ids, count } = weldExact(positions);
  const total = groups.reduce((s, g) => s + g.length / 3, 0);
  const report: MeshReport = {
    triangles: total, degenerate: 0, duplicate: 0, reversedDuplicate: 0, openEdges: 0,
    nonManifoldEdges: 0, inconsistentEdges: 0, denseParts: 0, maxHalfEdgesPerMetre: 0,
  };
  // Welded triangles, rotated to start at their smallest vertex (equal rotations compare equal).
  const tris = new Uint32Array(total * 3);
  let t = 0;
  for (const g of groups) {
    const density = partDensity(positions, g);
    report.maxHalfEdgesPerMetre = Math.max(report.maxHalfEdgesPerMetre, density);
    if (density > DENSITY_LIMIT) report.denseParts++;
    for (let i = 0; i < g.length; i += 3) {
      const a = ids[g[i]], b = ids[g[i + 1]], c = ids[g[i + 2]];
      if (a === b || b === c || a === c || zeroArea(positions, g[i], g[i + 1], g[i + 2])) {
        report.degenerate++;
        continue;
      }
      const o = 3 * t++;
      if (a < b && a < c) (tris[o] = a), (tris[o + 1] = b), (tris[o + 2] = c);
      else if (b < c) (tris[o] = b), (tris[o + 1] = c), (tris[o + 2] = a);
      else (tris[o] = c), (tris[o + 1] = a), (tris[o + 2] = b);
    }
  }
  const kept = dropDuplicates(tris.subarray(0, 3 * t), count, report);
  countEdges(kept, count, report);
  return report;
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
function dropDuplicates(tris: Uint32Array, vertexCount: number, report: MeshReport): Uint32Array {
  const n = tris.length / 3;
  const start = new Uint32Array(vertexCount + 1);
  for (let i = 0; i < n; i++) start[tris[3 * i] + 1]++;
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const order = new Uint32Array(n);
  const fill = start.slice(0, vertexCount);
  for (let i = 0; i < n; i++) order[fill[tris[3 * i]]++] = i;
  const drop = new Uint8Array(n);
  const second = new Uint32Array(n);
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
  const out = new Uint32Array((n - report.duplicate) * 3);
  let w = 0;
  for (let i = 0; i < n; i++) if (!drop[i]) out.set(tris.subarray(3 * i, 3 * i + 3), 3 * w++);
  return out;
}

/**
 * Undirected edges by their smaller vertex (CSR), then within a vertex's list grouped by the other vertex with a
 * mark array (no sorting): per edge the number of uses and how many run from the smaller vertex.
 */
function countEdges(tris: Uint32Array, vertexCount: number, report: MeshReport): void {
  const h = tris.length; // one half-edge per corner: corner c runs to the next corner of its face
  const start = new Uint32Array(vertexCount + 1);
  for (let c = 0; c < h; c++) {
    const a = tris[c], b = tris[c % 3 === 2 ? c - 2 : c + 1];
    start[(a < b ? a : b) + 1]++;
  }
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  // Per half-edge, in its smaller vertex's list: the other vertex, and 1 when it runs from the smaller one.
  const other = new Uint32Array(h);
  const fwd = new Uint8Array(h);
  const fill = start.slice(0, vertexCount);
  for (let c = 0; c < h; c++) {
    const a = tris[c], b = tris[c % 3 === 2 ? c - 2 : c + 1];
    const k = a < b ? fill[a]++ : fill[b]++;
    other[k] = a < b ? b : a;
    fwd[k] = a < b ? 1 : 0;
  }
  const mark = new Int32Array(vertexCount).fill(-1);
  const slot = new Uint32Array(vertexCount);
  const uses = new Uint32Array(64);
  const forward = new Uint32Array(64);
  let scratchUses = uses, scratchFwd = forward;
  for (let v = 0; v < vertexCount; v++) {
    const s0 = start[v], s1 = start[v + 1];
    if (s1 - s0 > scratchUses.length) (scratchUses = new Uint32Array(s1 - s0)), (scratchFwd = new Uint32Array(s1 - s0));
    let n = 0;
    for (let k = s0; k < s1; k++) {
      const o = other[k];
      if (mark[o] !== v) {
        mark[o] = v;
        slot[o] = n;
        scratchUses[n] = 0;
        scratchFwd[n++] = 0;
      }
      scratchUses[slot[o]]++;
      scratchFwd[slot[o]] += fwd[k];
    }
    for (let e = 0; e < n; e++) {
      if (scratchUses[e] === 1) report.openEdges++;
      else if (scratchUses[e] > 2) report.nonManifoldEdges++;
      else if (scratchFwd[e] !== 1) report.inconsistentEdges++;
    }
  }
}

/** First position in order[s..e) (sorted by key) whose key is ≥ k. */
function lowerBound(order: Uint32Array, s: number, e: number, key: Uint32Array, k: number): number {
  while (s < e) {
    const m = (s + e) >>> 1;
    if (key[order[m]] < k) s = m + 1;
    else e = m;
  }
  return s;
}

/** Sorts order[s..e) by key[order[i]], ties by order value: insertion sort for the usual short buckets. */
function sortRange(order: Uint32Array, s: number, e: number, key: Uint32Array): void {
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
