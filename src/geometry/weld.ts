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
// - Inputs past DIRECT_MAX vertices weld through partitions (weldPartitioned): the used vertices in first-use
//   order, their keys scattered by hash top bits into ≤ 256 partitions (sequential write streams), each welded with
//   a probe table that stays cached, then numbered in first-use order; a 64 KB direct-mapped cache of recent keys
//   settles repeats of a position in neighbouring triangles before the scatter. Against the chained version:
//   weld at 1M 0.49× on the terrain (165 → 81 ms), 0.82× on its split-vertex copy (every corner its own vertex,
//   530 → 436 ms). Below DIRECT_MAX the one table is as fast or faster (80k terrain 0.88–1.0×, but the
//   split-vertex 80k copy 1.1–1.3× slower through partitions), so small inputs keep it. That one table now holds
//   4-byte slots (id + 1; the keys compared against the welded bits, which are recent and cached), not (id + 1,
//   hash) pairs: half the table, 512 KB at 80k: weld 0.86–0.89× on the 80k terrain, 0.83–0.86× on its split-vertex
//   copy, 0.85× at 200k, unchanged at 750 triangles.
// - Internal arrays (remap, vertex table, chain heads, lengths and links) of up to 2^19 values kept between calls
//   (retainedI32; ≤ 10 MB retained): weld 0.92–1.00× at 80k, 0.94–0.95× split-vertex, 0.87–0.91× at 750
//   triangles (the level compile's meshes). The outputs stay fresh. Tried: 2,048 entries a
//   partition without a cap on their number (up to 2,048 write streams): split-vertex 1M 1.03×, 80k 1.32×.
//   Also tried, not kept: the zero-area test inlined by hand into keepLoop (1M: 1.06×, 1.01×); dropping the unused
//   `source` array (4 MB at 1M: 1.00×); the one table at load ≤ ¾ instead of ½ (80k 0.83×, 30k 1.23×: noise).

/** Scratch arrays of up to RETAIN_MAX values are kept between calls (≤ 2 MB each; see retainedI32). */
const RETAIN_MAX = 1 << 19;
const RETAINED: Int32Array[] = [0, 1, 2, 3, 4].map(() => new Int32Array(0));

/**
 * n values of scratch Int32 array k (0: remap, 1: vertex table, 2: chain heads, 3: chain lengths, 4: chain links),
 * contents undefined: kept and reused up to RETAIN_MAX, where a fresh array's first touch costs more than its use
 * (zeroed pages faulted in); fresh above.
 */
function retainedI32(k: number, n: number): Int32Array {
  if (n > RETAIN_MAX) return new Int32Array(n);
  if (RETAINED[k].length < n) RETAINED[k] = new Int32Array(Math.max(n, 1024));
  return RETAINED[k].subarray(0, n);
}

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
 * and the welded positions' bits; returns the welded vertex count. `table`: mask + 1 zeroed Int32 slots, each a
 * welded id + 1 (0: empty); a probe compares the keys against the welded vertex's bits.
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
    let h = mix3(kx, ky, kz) & mask;
    for (;;) {
      const w = table[h];
      if (w === 0) {
        table[h] = count + 1;
        // The first use's bits (a -0.0 stays -0.0).
        outBits[3 * count] = bx; outBits[3 * count + 1] = by; outBits[3 * count + 2] = bz;
        remap[v] = count++;
        break;
      }
      if (keyOf(outBits[3 * w - 3]) === kx && keyOf(outBits[3 * w - 2]) === ky && keyOf(outBits[3 * w - 1]) === kz) {
        remap[v] = w - 1;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return count;
}

/** Inputs with at most this many vertices (used or not) weld through one probe table of the whole mesh (≤ 4 MB). */
const DIRECT_MAX = 1 << 18;
/** Target entries per partition of weldVertices: its probe table (8 bytes a slot, load ≤ ½) stays within L1/L2. */
const PARTITION_ENTRIES = 4096;
/** At most 2^MAX_LOG_PARTITIONS partitions: more write streams than this thrash the scatter. */
const MAX_LOG_PARTITIONS = 8;

/**
 * The used input vertices in first-use order into `order`, their place there into remap (as a mark); throws for a
 * non-finite one at its first use. Returns how many.
 */
function firstUses(positions: ArrayLike<number>, bits: Uint32Array, indices: Uint32Array, remap: Int32Array, order: Int32Array): number {
  let n = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    if (remap[v] >= 0) continue;
    if (notFinite(bits[3 * v]) || notFinite(bits[3 * v + 1]) || notFinite(bits[3 * v + 2])) throw notFiniteError(positions, v, i);
    remap[v] = n;
    order[n++] = v;
  }
  return n;
}

/** Slots of the recent-keys cache (direct-mapped, 16 bytes each: 64 KB). */
const RECENT_SLOTS = 4096;

/**
 * Each used vertex's hash into `hashes`; a vertex whose key a recent one had (a direct-mapped cache of the last
 * key per slot: split-vertex meshes repeat a position in neighbouring triangles) gets rep = that place, and −1
 * otherwise. Counts the others per partition (by the hash's top bits) into starts[p + 1].
 */
function hashKeys(bits: Uint32Array, order: Int32Array, n: number, logP: number, hashes: Int32Array, rep: Int32Array, starts: Int32Array): void {
  const shift = 32 - logP, recent = new Int32Array(4 * RECENT_SLOTS);
  for (let i = 0; i < n; i++) {
    const v = 3 * order[i];
    const kx = keyOf(bits[v]), ky = keyOf(bits[v + 1]), kz = keyOf(bits[v + 2]);
    const h = mix3(kx, ky, kz) | 0;
    hashes[i] = h;
    const c = 4 * (h & (RECENT_SLOTS - 1));
    if (recent[c + 3] !== 0 && recent[c] === kx && recent[c + 1] === ky && recent[c + 2] === kz) {
      rep[i] = recent[c + 3] - 1; // an earlier place with this key; numberClasses follows it to the class's id
      continue;
    }
    recent[c] = kx; recent[c + 1] = ky; recent[c + 2] = kz; recent[c + 3] = i + 1;
    rep[i] = -1;
    starts[logP === 0 ? 1 : (h >>> shift) + 1]++;
  }
}

/**
 * Weld keys (x, y, z, first-use place, hash) of the used vertices not settled by hashKeys, scattered stably into
 * 2^logP partitions by their hash's top bits (each partition's entries stay in first-use order); `starts` holds the
 * counts per partition and becomes each partition's first entry (P + 1 values). Writes are P sequential streams
 * instead of one random probe per vertex over a table of the whole mesh.
 */
function partitionKeys(bits: Uint32Array, order: Int32Array, n: number, logP: number, hashes: Int32Array, rep: Int32Array, starts: Int32Array): Int32Array {
  const P = 1 << logP, shift = 32 - logP;
  for (let p = 0; p < P; p++) starts[p + 1] += starts[p];
  const fill = starts.slice(0, P);
  const rec = new Int32Array(5 * starts[P]);
  for (let i = 0; i < n; i++) {
    if (rep[i] >= 0) continue;
    const v = 3 * order[i], h = hashes[i];
    const o = 5 * fill[logP === 0 ? 0 : h >>> shift]++;
    rec[o] = keyOf(bits[v]); rec[o + 1] = keyOf(bits[v + 1]); rec[o + 2] = keyOf(bits[v + 2]); rec[o + 3] = i; rec[o + 4] = h;
  }
  return rec;
}

/**
 * For each first-use place i, `rep[i]`: the first place holding the same weld key (i itself for the first). One
 * partition at a time, with a probe table `table` of (entry + 1, hash) pairs sized for the largest partition.
 */
function representatives(rec: Int32Array, starts: Int32Array, P: number, rep: Int32Array, table: Int32Array): void {
  for (let p = 0; p < P; p++) {
    const s = starts[p], e = starts[p + 1];
    const cap = nextPow2(2 * (e - s)), mask = cap - 1;
    table.fill(0, 0, 2 * cap);
    for (let j = s; j < e; j++) {
      const o = 5 * j, h = rec[o + 4];
      for (let q = h & mask; ; q = (q + 1) & mask) {
        const w = table[2 * q];
        if (w === 0) {
          table[2 * q] = j + 1; table[2 * q + 1] = h;
          rep[rec[o + 3]] = rec[o + 3];
          break;
        }
        const m = 5 * (w - 1);
        if (table[2 * q + 1] === h && rec[m] === rec[o] && rec[m + 1] === rec[o + 1] && rec[m + 2] === rec[o + 2]) {
          rep[rec[o + 3]] = rec[m + 3];
          break;
        }
      }
    }
  }
}

/**
 * Welded ids in first-use order of the key classes: remap for every used input vertex, the class's first use's
 * bits into outBits. Returns the welded vertex count.
 */
function numberClasses(bits: Uint32Array, order: Int32Array, n: number, rep: Int32Array, remap: Int32Array, outBits: Uint32Array): number {
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = order[i], r = rep[i];
    if (r === i) {
      // The first use's bits (a -0.0 stays -0.0).
      outBits[3 * count] = bits[3 * v]; outBits[3 * count + 1] = bits[3 * v + 1]; outBits[3 * count + 2] = bits[3 * v + 2];
      rep[i] = count;
      remap[v] = count++;
    } else {
      // r < i (a class's first place, or an earlier place hashKeys saw): its id is already in rep[r].
      rep[i] = rep[r];
      remap[v] = rep[r];
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
  const remap = retainedI32(0, nv).fill(-1);
  const most = Math.min(nv, indices.length);
  const out = new Float32Array(most * 3);
  const outBits = new Uint32Array(out.buffer);
  let count: number;
  if (most <= DIRECT_MAX) {
    const cap = nextPow2(most * 2);
    count = weldLoop(positions, bits, indices, remap, retainedI32(1, cap).fill(0), cap - 1, outBits);
  } else {
    count = weldPartitioned(positions, bits, indices, remap, outBits);
  }
  return { out: out.subarray(0, count * 3), remap, count };
}

/** weldLoop's result through partitions (see partitionKeys): for inputs whose probe table would not stay cached. */
function weldPartitioned(positions: ArrayLike<number>, bits: Uint32Array, indices: Uint32Array, remap: Int32Array, outBits: Uint32Array): number {
  const order = new Int32Array(outBits.length / 3);
  const n = firstUses(positions, bits, indices, remap, order);
  const logP = Math.min(MAX_LOG_PARTITIONS, Math.max(0, Math.ceil(Math.log2(n / PARTITION_ENTRIES))));
  const P = 1 << logP;
  const starts = new Int32Array(P + 1);
  const hashes = new Int32Array(n), rep = new Int32Array(n);
  hashKeys(bits, order, n, logP, hashes, rep, starts);
  const rec = partitionKeys(bits, order, n, logP, hashes, rep, starts);
  let largest = 0;
  for (let p = 0; p < P; p++) largest = Math.max(largest, starts[p + 1] - starts[p]);
  representatives(rec, starts, P, rep, new Int32Array(2 * nextPow2(2 * largest)));
  return numberClasses(bits, order, n, rep, remap, outBits);
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
  const r: Repeats = { head: retainedI32(2, count).fill(0), length: new Uint32Array(retainedI32(3, count).fill(0).buffer, 0, count), next: retainedI32(4, nt), hub: null };
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
