// Bounding-volume tree nodes: ../shared/spec/physics-resource.md, "Triangle-mesh shapes" (tree paragraph).
// A node (u64, stored as lo/hi u32 words) holds its children's inner planes quantised in its own box:
//   lo bits 0-9 / 10-19 / 20-29: min x / y / z, 1024 steps up from the parent's min (rounded down);
//   lo bit 30 / 31: the left child owns the inner min y / z (the right owns the inner min x, always);
//   hi bits 0-9 / 10-18 / 19-28: max x (1024 steps) / y (512) / z (1024) down from the parent's max;
//   hi bit 29 / 30 / 31 (node bits 61-63): the left child owns the inner max x / y / z.
// The child that does not own an inner plane keeps the parent's. Arithmetic in f32 exactly as the reference's
// decode_node (settled on test/format/tree-vectors.json): step = f32(f32(max − min) · q) / steps.
// Heap layout: node i's children are 2i + 1 and 2i + 2; with F faces, nodes 0..F−2 are inner and the leaf of face
// slot j is heap index F − 1 + j.

/** A box as min x, y, z, max x, y, z. */
export type Box6 = [number, number, number, number, number, number];

export const MIN_BITS = [10, 10, 10] as const;
export const MAX_BITS = [10, 9, 10] as const;
const MIN_SHIFT = [0, 10, 20];
const MAX_SHIFT = [0, 10, 19];
/** Owner bits in the lo word for min x, y, z (x has none: the right child always takes the inner min x). */
const MIN_OWNER = [-1, 30, 31];
/** Owner bits in the hi word for max x, y, z. */
const MAX_OWNER = [29, 30, 31];

const f = Math.fround;
const bit = (word: number, b: number): boolean => b >= 0 && ((word >>> b) & 1) === 1;

/** The quantised inner plane `q` steps from `from` towards `to` in a box running lo..hi. */
function plane(lo: number, hi: number, q: number, steps: number, fromMax: boolean): number {
  const t = f(f(f(hi - lo) * q) / steps);
  return fromMax ? f(hi - t) : f(lo + t);
}

/** The two child boxes node (lo, hi) gives in its parent's box. */
export function decodeNode(parent: Readonly<Box6>, lo: number, hi: number): [Box6, Box6] {
  const all = [...parent, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  decodeInto(all as unknown as Box6, 0, lo, hi, 6, 12);
  return [all.slice(6, 12) as Box6, all.slice(12, 18) as Box6];
}

/**
 * Decodes node (lo, hi) whose parent box is boxes[p..p+6) into boxes[l..l+6) (left) and boxes[r..r+6) (right), all
 * offsets into one flat array (no per-node views).
 */
function decodeInto(boxes: Box6 | Float32Array, p: number, lo: number, hi: number, l: number, r: number): void {
  for (let a = 0; a < 3; a++) {
    const min = boxes[p + a];
    const max = boxes[p + a + 3];
    const inMin = plane(min, max, (lo >>> MIN_SHIFT[a]) & ((1 << MIN_BITS[a]) - 1), 1 << MIN_BITS[a], false);
    const inMax = plane(min, max, (hi >>> MAX_SHIFT[a]) & ((1 << MAX_BITS[a]) - 1), 1 << MAX_BITS[a], true);
    const leftMin = bit(lo, MIN_OWNER[a]);
    const leftMax = bit(hi, MAX_OWNER[a]);
    boxes[l + a] = leftMin ? inMin : min;
    boxes[r + a] = leftMin ? min : inMin;
    boxes[l + a + 3] = leftMax ? inMax : max;
    boxes[r + a + 3] = leftMax ? max : inMax;
  }
}

/** Depth of a complete heap tree over `faces` leaves (0 for one face or none). */
export function treeDepth(faces: number): number {
  let depth = 0;
  for (let n = 1; n < faces; n *= 2) depth++;
  return depth;
}

/**
 * Every heap node's box, following child boxes from the root (the shape's bounds): boxes[i] for i in 0..2F−2,
 * leaves at F − 1 + j. `tree` holds F − 1 nodes as (lo, hi) pairs. Flat Float32Array of 6 per node.
 */
export function nodeBoxes(root: Readonly<Box6>, tree: Uint32Array, faces: number): Float32Array {
  const total = Math.max(0, 2 * faces - 1);
  const boxes = new Float32Array(6 * total);
  if (total === 0) return boxes;
  boxes.set(root, 0);
  for (let i = 0; i < faces - 1; i++) decodeInto(boxes, 6 * i, tree[2 * i], tree[2 * i + 1], 6 * (2 * i + 1), 6 * (2 * i + 2));
  return boxes;
}

/** A node as 16 hex digits (hi word first), as inspect prints it. */
export const nodeHex = (lo: number, hi: number): string =>
  (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
