// Weld a triangle soup by exact position, as ReSkate Studio welds one collision object
// (../shared/spec/physics-resource.md, "Triangle-mesh shapes"; rules taken from the reference encoder's output,
// docs/format-decisions.md "Encoder"). DCC exporters split vertices at UV and normal seams; welding on positions
// (not indices) is what keeps those seams from becoming open edges, i.e. ghost bumps.
//
// Rules (observed on the reference encoder, run as a black box):
// - positions are taken as f32; two vertices are one when their f32 coordinates are equal, -0.0 equal to 0.0;
// - welded vertices are numbered by first use (triangles in order, corners in order) and keep the first use's value;
//   vertices no triangle uses are not numbered;
// - a triangle with two corners on one welded vertex, or whose f64 cross product has zero length, is dropped
//   (`degenerate`);
// - each kept triangle is rotated to start at its smallest welded vertex (winding kept);
// - a triangle equal to an earlier kept one after rotation (same corners, same winding) is dropped (`repeated`);
//   its reversal is a different triangle and is kept.

export interface Welded {
  /** Welded positions, xyz f32 per vertex, in first-use order. */
  positions: Float32Array;
  /** Kept triangles, three welded vertex ids each, rotated to start at the smallest. */
  triangles: Uint32Array;
  /** Input triangle index of each kept triangle. */
  source: Uint32Array;
  /** Input triangles dropped for a repeated welded vertex or no area. */
  degenerate: number;
  /** Input triangles dropped as a repeat of an earlier kept triangle. */
  repeated: number;
}

const nextPow2 = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(2, n)));

/** The f32 bit patterns of the positions: a view of a Float32Array's own memory, or the f64 values rounded to f32. */
function positionBits(positions: Float32Array | Float64Array): Uint32Array {
  const p = positions instanceof Float32Array ? positions : new Float32Array(positions);
  return new Uint32Array(p.buffer, p.byteOffset, p.length);
}

/** f32 bits → weld key: -0.0 taken as 0.0. */
const keyOf = (bits: number): number => (bits === 0x80000000 ? 0 : bits);
/** Whether f32 bits are an infinity or a NaN (exponent all ones). */
const notFinite = (bits: number): boolean => (bits & 0x7f800000) === 0x7f800000;

/**
 * Hash of three u32 words (multiply-xorshift rounds and murmur3's finaliser, so that f32 bit patterns with all-zero
 * low mantissa bits — integer and half-integer coordinates — still spread over the low bits the table uses). Only
 * picks the bucket: equality is exact.
 */
function mix3(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Throws for an index past the positions. */
function validate(positions: ArrayLike<number>, indices: Uint32Array): void {
  if (positions.length % 3 !== 0) throw new Error(`weld: positions length ${positions.length} is not a multiple of 3`);
  if (indices.length % 3 !== 0) throw new Error(`weld: indices length ${indices.length} is not a multiple of 3`);
  const nv = positions.length / 3;
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= nv) throw new Error(`weld: triangle ${(i / 3) | 0}: index ${indices[i]} ≥ vertex count ${nv}`);
  }
}

/** Throws for vertex v (used by corner i) whose f32 position is not finite. */
function notFiniteError(positions: ArrayLike<number>, v: number, i: number): Error {
  const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
  return new Error(`weld: triangle ${(i / 3) | 0}: vertex ${v} position (${x}, ${y}, ${z}) is not finite in f32`);
}

// Design log (weld, issue 3 performance):
// - v1: keys via a one-float scratch (store f32, load u32) per coordinate; a vertex table of ids plus a separate
//   key array (two cache misses per probe); the repeat table of kept indices compared against the triangle array
//   (two more misses per triangle, the table scattered over 16 MB at 1M triangles).
// - now: the f32 bits are read from one Uint32Array view (a Float64Array input is rounded to f32 once), finiteness
//   is an exponent test on them, the vertex table holds (id + 1, full hash) in one 8-byte slot (zero = empty, so no
//   fill pass; the welded vertex's bits are read only on a full-hash match — against (id + 1, x, y, z) 16-byte
//   slots: weld 0.84–0.98× at 4M, 0.82–0.91× at 1M; those in turn against v1: 0.57×), and the repeat table holds
//   (a + 1, b, c) slots placed at a · spread plus a hashed offset inside a 4,096-slot window, hubs past 64
//   triangles hashed over all of it. Tried: repeat-table slots of 3 words instead of 4 (no change at 4M).
// - now (2026-11-29; A/B in one process, terrain, medians): repeats are looked up in a chain per smallest vertex
//   (head per welded vertex, next per kept triangle: the chained triangles are recent, so cached), past HUB_LOCAL
//   triangles in a hashed table allocated only then. The 4 × nextPow2(2n) Int32 table was 4 MB at 80k triangles and
//   32 MB at 1M, and on this machine random access past ~1 MB costs 100–300 ns (500k random inserts: 33 ms into
//   1 MB, 140–230 ms into 8 MB). The loops live in loop-only functions (weldLoop, keepLoop) returning plain numbers:
//   on-stack-replaced code compiled before the code after a loop had run deopted on every call ("insufficient type
//   feedback" at the return). Weld 0.54× at 80k (18.5 → 10.0 ms), 0.77× at 1M (230 → 177 ms), where the vertex
//   table (8 MB at 500k vertices, ~150 ms) is now most of it.

/** Kept triangles per smallest vertex chained for the repeat test; later ones of a hub go to a hashed table. */
const HUB_LOCAL = 16;

/**
 * The slot holding (a, b, c) in the hub table (stride 4: a + 1, b, c), or −1 − the empty slot where it goes.
 * Starts at `h` (linear probing).
 */
function findTriple(seen: Int32Array, mask: number, h: number, a: number, b: number, c: number): number {
  for (;;) {
    const o = 4 * h, k = seen[o];
    if (k === 0) return -1 - h;
    if (k === a + 1 && seen[o + 1] === b && seen[o + 2] === c) return h;
    h = (h + 1) & mask;
  }
}

/**
 * Maps every input vertex a triangle uses to its welded id (first-use order): fills remap (−1 for unused vertices)
 * and the welded positions' bits; returns the welded vertex count. `table`: 2 × (mask + 1) zeroed Int32 slots.
 * A loop-only function: nothing after the loop needs type feedback that an on-stack-replaced copy would lack.
 */
function weldLoop(positions: ArrayLike<number>, bits: Uint32Array, indices: Uint32Array, remap: Int32Array, table: Int32Array, mask: number, outBits: Uint32Array): number {
  let count = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    if (remap[v] >= 0) continue;
    const bx = bits[3 * v], by = bits[3 * v + 1], bz = bits[3 * v + 2];
    if (notFinite(bx) || notFinite(by) || notFinite(bz)) throw notFiniteError(positions, v, i);
    const kx = keyOf(bx), ky = keyOf(by), kz = keyOf(bz);
    const hash = mix3(kx, ky, kz) | 0;
    let h = hash & mask;
    for (;;) {
      const o = 2 * h;
      const w = table[o];
      if (w === 0) {
        table[o] = count + 1; table[o + 1] = hash;
        // The first use's bits (a -0.0 stays -0.0).
        outBits[3 * count] = bx; outBits[3 * count + 1] = by; outBits[3 * count + 2] = bz;
        remap[v] = count++;
        break;
      }
      // Same hash: compare the keys (only then is the welded vertex's memory read).
      if (table[o + 1] === hash && keyOf(outBits[3 * w - 3]) === kx && keyOf(outBits[3 * w - 2]) === ky && keyOf(outBits[3 * w - 1]) === kz) {
        remap[v] = w - 1;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return count;
}

/**
 * Maps every input vertex a triangle uses to its welded id (first-use order). Returns the welded positions and
 * the per-input-vertex map (−1 for unused vertices).
 */
function weldVertices(positions: ArrayLike<number>, bits: Uint32Array, indices: Uint32Array): { out: Float32Array; remap: Int32Array; count: number } {
  const nv = bits.length / 3;
  const remap = new Int32Array(nv).fill(-1);
  const most = Math.min(nv, indices.length);
  const cap = nextPow2(most * 2);
  const table = new Int32Array(2 * cap); // (id + 1, full hash); id + 1 = 0: empty
  const out = new Float32Array(most * 3);
  const count = weldLoop(positions, bits, indices, remap, table, cap - 1, new Uint32Array(out.buffer));
  return { out: out.subarray(0, count * 3), remap, count };
}

/** Twice the triangle's area: the f64 length of (b − a) × (c − a) over f32 positions (Studio's area test). */
export function crossLength(p: Float32Array, a: number, b: number, c: number): number {
  return Math.sqrt(crossLengthSquared(p, a, b, c));
}

/** crossLength squared (0 exactly when the length is: the test needs no square root). */
function crossLengthSquared(p: Float32Array, a: number, b: number, c: number): number {
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
  const ux = p[3 * b] - ax, uy = p[3 * b + 1] - ay, uz = p[3 * b + 2] - az;
  const vx = p[3 * c] - ax, vy = p[3 * c + 1] - ay, vz = p[3 * c + 2] - az;
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  return cx * cx + cy * cy + cz * cz;
}

/** Repeat-test state: per welded vertex the latest chained kept triangle + 1 and the chain's length; per kept
 * triangle the previous one of its chain; the hub table, allocated when a vertex first passes HUB_LOCAL. */
interface Repeats {
  head: Int32Array;
  length: Uint32Array;
  next: Int32Array;
  hub: Int32Array | null;
}

/** Whether kept triangle (a, b, c) (a smallest) repeats an earlier kept one; if not, records it as kept number t. */
function repeatOrAdd(r: Repeats, tris: Uint32Array, t: number, a: number, b: number, c: number, remaining: number): boolean {
  for (let k = r.head[a] - 1; k >= 0; k = r.next[k]) if (tris[3 * k + 1] === b && tris[3 * k + 2] === c) return true;
  if (r.length[a] < HUB_LOCAL) {
    r.next[t] = r.head[a] - 1;
    r.head[a] = t + 1;
    r.length[a]++;
    return false;
  }
  // A hub: its later triangles go to a hashed table (bounded by the triangles still to come), not a longer chain.
  if (!r.hub) r.hub = new Int32Array(4 * nextPow2(2 * remaining));
  const mask = r.hub.length / 4 - 1;
  const slot = findTriple(r.hub, mask, mix3(a, b, c) & mask, a, b, c);
  if (slot >= 0) return true;
  const o = 4 * (-1 - slot);
  r.hub[o] = a + 1; r.hub[o + 1] = b; r.hub[o + 2] = c;
  return false;
}

/**
 * The kept triangles (rotated to start at the smallest welded vertex) into tris and their input index into
 * source; returns [kept, degenerate, repeated] in `counts`.
 */
function keepLoop(indices: Uint32Array, remap: Int32Array, out: Float32Array, r: Repeats, tris: Uint32Array, source: Uint32Array, counts: Int32Array): void {
  const nt = indices.length / 3;
  let kept = 0, degenerate = 0, repeated = 0;
  for (let t = 0; t < nt; t++) {
    const i0 = remap[indices[3 * t]], i1 = remap[indices[3 * t + 1]], i2 = remap[indices[3 * t + 2]];
    if (i0 === i1 || i1 === i2 || i0 === i2 || crossLengthSquared(out, i0, i1, i2) === 0) {
      degenerate++;
      continue;
    }
    let a = i0, b = i1, c = i2;
    if (i1 < i0 && i1 < i2) { a = i1; b = i2; c = i0; }
    else if (i2 < i0 && i2 < i1) { a = i2; b = i0; c = i1; }
    if (repeatOrAdd(r, tris, kept, a, b, c, nt - t)) {
      repeated++;
      continue;
    }
    tris[3 * kept] = a; tris[3 * kept + 1] = b; tris[3 * kept + 2] = c;
    source[kept++] = t;
  }
  counts[0] = kept; counts[1] = degenerate; counts[2] = repeated;
}

/** `indices` over `positions` welded (see the file header). Throws for bad indices or non-finite positions. */
export function weld(positions: Float32Array | Float64Array, indices: Uint32Array): Welded {
  validate(positions, indices);
  const { out, remap, count } = weldVertices(positions, positionBits(positions), indices);
  const nt = indices.length / 3;
  const tris = new Uint32Array(indices.length);
  const source = new Uint32Array(nt);
  // Repeats are found among the kept triangles of the same smallest vertex: a short chain per vertex (welded ids
  // follow first use, so the chained triangles are recent and cached), a hashed table past HUB_LOCAL (a fan's hub).
  const r: Repeats = { head: new Int32Array(count), length: new Uint32Array(count), next: new Int32Array(nt), hub: null };
  const counts = new Int32Array(3);
  keepLoop(indices, remap, out, r, tris, source, counts);
  const kept = counts[0];
  return {
    positions: out,
    triangles: kept === nt ? tris : tris.slice(0, 3 * kept),
    source: kept === nt ? source : source.slice(0, kept),
    degenerate: counts[1],
    repeated: counts[2],
  };
}
