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

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The f32 bits of `v` with -0.0 taken as 0.0 (the weld key). */
function keyBits(v: number): number {
  f32[0] = v;
  const b = u32[0];
  return b === 0x80000000 ? 0 : b;
}

const nextPow2 = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(2, n)));

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

/** Throws unless vertex v (used by corner i) has a finite f32 position. */
function checkFinite(x: number, y: number, z: number, v: number, i: number): void {
  if (!Number.isFinite(Math.fround(x)) || !Number.isFinite(Math.fround(y)) || !Number.isFinite(Math.fround(z))) {
    throw new Error(`weld: triangle ${(i / 3) | 0}: vertex ${v} position (${x}, ${y}, ${z}) is not finite in f32`);
  }
}

/**
 * Maps every input vertex a triangle uses to its welded id (first-use order). Returns the welded positions and
 * the per-input-vertex map (−1 for unused vertices).
 */
function weldVertices(positions: ArrayLike<number>, indices: Uint32Array): { out: Float32Array; remap: Int32Array; count: number } {
  const nv = positions.length / 3;
  const remap = new Int32Array(nv).fill(-1);
  const cap = nextPow2(Math.min(nv, indices.length) * 2);
  const table = new Int32Array(cap).fill(-1);
  const mask = cap - 1;
  const out = new Float32Array(Math.min(nv, indices.length) * 3);
  const keys = new Uint32Array(Math.min(nv, indices.length) * 3);
  let count = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    if (remap[v] >= 0) continue;
    const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
    checkFinite(x, y, z, v, i);
    const kx = keyBits(x), ky = keyBits(y), kz = keyBits(z);
    let h = mix3(kx, ky, kz) & mask;
    for (;;) {
      const w = table[h];
      if (w < 0) {
        table[h] = count;
        keys[3 * count] = kx; keys[3 * count + 1] = ky; keys[3 * count + 2] = kz;
        out[3 * count] = x; out[3 * count + 1] = y; out[3 * count + 2] = z;
        remap[v] = count++;
        break;
      }
      if (keys[3 * w] === kx && keys[3 * w + 1] === ky && keys[3 * w + 2] === kz) {
        remap[v] = w;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return { out: out.subarray(0, count * 3), remap, count };
}

/** Twice the triangle's area: the f64 length of (b − a) × (c − a) over f32 positions (Studio's area test). */
export function crossLength(p: Float32Array, a: number, b: number, c: number): number {
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
  const ux = p[3 * b] - ax, uy = p[3 * b + 1] - ay, uz = p[3 * b + 2] - az;
  const vx = p[3 * c] - ax, vy = p[3 * c + 1] - ay, vz = p[3 * c + 2] - az;
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  return Math.sqrt(cx * cx + cy * cy + cz * cz);
}

/** `indices` over `positions` welded (see the file header). Throws for bad indices or non-finite positions. */
export function weld(positions: Float32Array | Float64Array, indices: Uint32Array): Welded {
  validate(positions, indices);
  const { out, remap } = weldVertices(positions, indices);
  const nt = indices.length / 3;
  const tris = new Uint32Array(indices.length);
  const source = new Uint32Array(nt);
  // Repeats are found in an open-addressing table of the kept (rotated) triples: O(1) expected per triangle, also
  // around a fan's hub, where every triangle shares the smallest vertex.
  const cap = nextPow2(nt * 2);
  const seen = new Int32Array(cap).fill(-1);
  const mask = cap - 1;
  let kept = 0, degenerate = 0, repeated = 0;
  for (let t = 0; t < nt; t++) {
    const i0 = remap[indices[3 * t]], i1 = remap[indices[3 * t + 1]], i2 = remap[indices[3 * t + 2]];
    if (i0 === i1 || i1 === i2 || i0 === i2 || crossLength(out, i0, i1, i2) === 0) {
      degenerate++;
      continue;
    }
    let a = i0, b = i1, c = i2;
    if (i1 < i0 && i1 < i2) { a = i1; b = i2; c = i0; }
    else if (i2 < i0 && i2 < i1) { a = i2; b = i0; c = i1; }
    let h = mix3(a, b, c) & mask;
    let k = seen[h];
    while (k >= 0 && (tris[3 * k] !== a || tris[3 * k + 1] !== b || tris[3 * k + 2] !== c)) {
      h = (h + 1) & mask;
      k = seen[h];
    }
    if (k >= 0) {
      repeated++;
      continue;
    }
    seen[h] = kept;
    tris[3 * kept] = a; tris[3 * kept + 1] = b; tris[3 * kept + 2] = c;
    source[kept++] = t;
  }
  return { positions: out, triangles: tris.slice(0, 3 * kept), source: source.slice(0, kept), degenerate, repeated };
}
