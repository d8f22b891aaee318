// The seams a ride crosses (docs/ride.md "Where it rides"): each border edge of a walkable face once, found by its
// ends rounded to 0.1 mm in a hash table (typed arrays, not a string and an object an edge).
import { BORDER_BIT, FACE_BORDERS, FACE_WALKABLE, type RideWorld } from './world.ts';
import { wasmSeams } from './native.ts';

/** A coordinate rounded to 0.1 mm as a seam edge's end is keyed (NaN as 0.5, which no rounding gives; −0 as 0). */
const keyOf = (x: number): number => {
  const r = Math.round(x * 1e4);
  return r === r ? r + 0 : 0.5;
};
const HASH = new Float64Array(1);
const HASH_BITS = new Uint32Array(HASH.buffer);

/** Faces borderCorners takes a call at a time. */
const BORDER_CHUNK = 1 << 16;

/**
 * The border corners (3 · face + corner) of the walkable faces of [from, to), in order, written into `out` from
 * `count` on (FaceBits); the count after them, or −1 when they do not fit.
 */
function borderCorners(FB: Uint16Array, from: number, to: number, out: Uint32Array, count: number): number {
  for (let t = from; t < to; t++) {
    const bits = FB[t];
    if (!(bits & FACE_BORDERS) || !(bits & FACE_WALKABLE)) continue;
    if (count + 3 > out.length) return -1;
    for (let k = 0; k < 3; k++) if ((bits >> (BORDER_BIT + k)) & 1) out[count++] = 3 * t + k;
  }
  return count;
}

/**
 * The seam edges (3 · face + corner, in face order): each border corner's edge of a walkable face, once by its ends
 * rounded to 0.1 mm either way round (the first), less those without horizontal length; and their total length.
 * The ends' keys go in a hash table on typed arrays (not strings: tens of thousands of them would live through the
 * young generation's collections, and grow it).
 */
export function seamEdges(w: RideWorld): { edges: Uint32Array; total: number } {
  // In WebAssembly where the world was built there (world-wasm.ts, native.ts; the same edges and total).
  return wasmSeams(w)?.() ?? seamEdgesOf(w);
}

/** seamEdges in JavaScript: the rule. */
export function seamEdgesOf(w: RideWorld): { edges: Uint32Array; total: number } {
  const P = w.vert, C = w.corner, faces = w.faces;
  // The border corners of walkable faces, in order: a chunk of faces a call (borderCorners), again with more room
  // where a chunk's do not fit.
  let corners = new Uint32Array(1024), count = 0;
  for (let t = 0; t < faces; ) {
    const to = Math.min(faces, t + BORDER_CHUNK), n = borderCorners(w.faceBits, t, to, corners, count);
    if (n < 0) {
      const grown = new Uint32Array(2 * corners.length);
      grown.set(corners.subarray(0, count));
      corners = grown;
      continue;
    }
    count = n;
    t = to;
  }
  let size = 1;
  while (size < 2 * count) size *= 2;
  const table = new Int32Array(size).fill(-1), keys = new Float64Array(6 * count), edges = new Uint32Array(count);
  const key = new Float64Array(6);
  let kept = 0, stored = 0, total = 0;
  for (let n = 0; n < count; n++) {
    const ek = corners[n], k = ek % 3;
    const i = 3 * C[ek], j = 3 * C[k < 2 ? ek + 1 : ek - 2];
    const ax = keyOf(P[i]), ay = keyOf(P[i + 1]), az = keyOf(P[i + 2]), bx = keyOf(P[j]), by = keyOf(P[j + 1]), bz = keyOf(P[j + 2]);
    // Either way round: the lesser end first.
    const swap = ax > bx || (ax === bx && (ay > by || (ay === by && az > bz)));
    key[0] = swap ? bx : ax; key[1] = swap ? by : ay; key[2] = swap ? bz : az;
    key[3] = swap ? ax : bx; key[4] = swap ? ay : by; key[5] = swap ? az : bz;
    let h = 0x811c9dc5;
    for (let m = 0; m < 6; m++) {
      HASH[0] = key[m];
      h = Math.imul(h ^ HASH_BITS[0], 0x01000193);
      h = Math.imul(h ^ HASH_BITS[1], 0x01000193);
    }
    let slot = (h ^ (h >>> 15)) & (size - 1), found = false;
    for (; table[slot] >= 0; slot = (slot + 1) & (size - 1)) {
      const o = 6 * table[slot];
      if (keys[o] === key[0] && keys[o + 1] === key[1] && keys[o + 2] === key[2] && keys[o + 3] === key[3] && keys[o + 4] === key[4] && keys[o + 5] === key[5]) {
        found = true;
        break;
      }
    }
    if (found) continue;
    table[slot] = stored;
    const o = 6 * stored++;
    keys[o] = key[0]; keys[o + 1] = key[1]; keys[o + 2] = key[2]; keys[o + 3] = key[3]; keys[o + 4] = key[4]; keys[o + 5] = key[5];
    if (Math.abs(P[j] - P[i]) + Math.abs(P[j + 2] - P[i + 2]) < 1e-6) continue;
    edges[kept++] = ek;
    total += Math.sqrt((P[j] - P[i]) ** 2 + (P[j + 1] - P[i + 1]) ** 2 + (P[j + 2] - P[i + 2]) ** 2);
  }
  return { edges: edges.subarray(0, kept), total };
}
