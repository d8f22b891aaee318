// The input order that encodes back into a stored kind-5 shape (the to-gltf round trip; the encoder's rules:
// src/geometry/weld.ts, assembly/piece.ts, assembly/tree.ts, docs/format-decisions.md "Encoder"). Measured on the
// goldens by permuting and rotating their faces and re-encoding (src/format/diff.ts):
// - the stored vertex order is first use over the input triangles (after the weld rotates each to start at its
//   smallest welded vertex), so faces in file (tree-leaf) order renumber the vertices: 3 of 34 goldens survive it;
// - the stored corner rotation is the weld's: a triangle starts at its smallest welded vertex, numbered by first use
//   over the corners as given. Every golden's one-piece shape starts each face at its smallest stored vertex, so the
//   stored rotation given as input stays; in the skatepark's stairs a face starts at v + 1 and uses v: those two were
//   first used by one face with an older vertex, given rotated so v + 1 came first (done here);
// - the tree (Studio's face order) depends on the input order only where faces tie on (centroid on the split axis,
//   face-box min x) across a split, and at a node whose halves swapped the tie goes the other way.
// So the order written is: faces in leaf order as far as possible, each only once the vertices it uses for the first
// time are the next ones in stored order, and, for every tie across a split of the stored tree, the faces of the
// half that came first before those of the other (the tree's decisions recomputed here from the stored faces).
// Whether that order really encodes to the same bytes is checked by encoding it (src/export/gltf.ts).
import type { ShapeRecord } from '../format/types.ts';

/** Per face (stored order): centroid x, y, z and face-box min x, as assembly/tree.ts faceRecords computes them (f64 of f32). */
function faceKeys(s: ShapeRecord, nf: number): Float64Array {
  const k = new Float64Array(4 * nf), v = s.vertices, cv = s.cornerVertices;
  for (let f = 0; f < nf; f++) {
    const a = 3 * cv[3 * f], b = 3 * cv[3 * f + 1], c = 3 * cv[3 * f + 2];
    for (let j = 0; j < 3; j++) k[4 * f + j] = (v[a + j] + v[b + j] + v[c + j]) / 3;
    k[4 * f + 3] = Math.min(v[a], v[b], v[c]);
  }
  return k;
}

/** Precedence constraints: every face of `first` before every face of `then` (a tie the tree broke by input order). */
interface Barrier {
  first: number[];
  then: number[];
}

/**
 * The tree's decisions over the stored faces (leaf j holds face j): per inner node, the half that came first in the
 * tree's total order, and the faces tied across the cut. Returns the barriers, or why the stored faces are not in the
 * order the encoder's tree gives (then no input order reproduces them).
 */
export function treeBarriers(s: ShapeRecord): Barrier[] | string {
  const n = Math.max(0, s.faceOffsets.length - 1);
  if (n < 2) return [];
  const key = faceKeys(s, n);
  const leaves = new Int32Array(2 * n - 1);
  for (let i = 2 * n - 2; i >= 0; i--) leaves[i] = i >= n - 1 ? 1 : leaves[2 * i + 1] + leaves[2 * i + 2];
  const barriers: Barrier[] = [];
  // Faces under each node, gathered bottom-up would cost n log n memory; recurse with explicit lists instead.
  const facesUnder = (i: number): number[] => {
    const out: number[] = [];
    const st = [i];
    while (st.length) {
      const x = st.pop()!;
      if (x >= n - 1) out.push(x - (n - 1));
      else st.push(2 * x + 2, 2 * x + 1);
    }
    return out;
  };
  const axisOf = (fs: number[]): number => {
    if (fs.length === 1) return 0;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const f of fs) for (let j = 0; j < 3; j++) {
      const c = key[4 * f + j];
      if (c < lo[j]) lo[j] = c;
      if (c > hi[j]) hi[j] = c;
    }
    const ex = hi[0] - lo[0], ey = hi[1] - lo[1], ez = hi[2] - lo[2];
    return ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
  };
  const minX = (fs: number[]): number => fs.reduce((m, f) => Math.min(m, key[4 * f + 3]), Infinity);
  /** Compares faces by (slot ax, min x), or by min x alone when ax is 3. */
  const cmp = (ax: number) => (a: number, b: number): number => {
    const d = key[4 * a + ax] - key[4 * b + ax];
    if (d !== 0) return d;
    return key[4 * a + 3] - key[4 * b + 3];
  };
  /** `early` (as a set) must be the first early.length faces of early ∪ late under c, up to ties; the ties recorded. */
  const split = (early: number[], late: number[], c: (a: number, b: number) => number, node: number): string | null => {
    let top = early[0];
    for (const f of early) if (c(f, top) > 0) top = f;
    let bottom = late[0];
    for (const f of late) if (c(f, bottom) < 0) bottom = f;
    const d = c(top, bottom);
    if (d > 0) return `tree node ${node}: faces ${top} and ${bottom} are on the wrong sides of the split`;
    if (d < 0) return null;
    barriers.push({ first: early.filter((f) => c(f, top) === 0), then: late.filter((f) => c(f, top) === 0) });
    return null;
  };
  const stack: [number, number[], number][] = [[0, facesUnder(0), -1]];
  while (stack.length) {
    const [i, fs, given] = stack.pop()!;
    if (fs.length === 1) continue;
    const axis = given >= 0 ? given : axisOf(fs);
    const L = facesUnder(2 * i + 1), R = facesUnder(2 * i + 2);
    const left = leaves[2 * i + 1];
    const c = cmp(axis);
    let why: string | null;
    if (fs.length === 2) {
      // first/second by (axis, min x, index), then swapped when the second starts lower in x.
      const [a, b] = [L[0], R[0]];
      if (key[4 * a + 3] !== key[4 * b + 3]) why = key[4 * a + 3] < key[4 * b + 3] ? null : `tree node ${i}: leaf order against min x`;
      else why = split([a], [b], c, i);
    } else {
      const sorted = fs.slice().sort(c);
      const swap = minX(sorted.slice(left)) < minX(sorted.slice(0, left));
      if (!swap) why = split(L, R, c, i);
      else {
        const cut = fs.length - left;
        if (minX(sorted.slice(0, cut)) < minX(sorted.slice(cut))) why = split(L, R, cmp(3), i);
        else why = split(R, L, c, i);
      }
    }
    if (why) return why;
    stack.push([2 * i + 2, R, -1], [2 * i + 1, L, -1]);
  }
  return barriers;
}

/**
 * An input order of the stored faces (indices into the shape's faces, each written with its stored corner rotation)
 * (with `shared`, the vertices a split shares with its other pieces: faces starting at one are left to mergePieces)
 * that numbers the vertices by first use in stored order and keeps the tree's tie-breaks, or why there is none that
 * this finds: faces in leaf order where the constraints allow (a binary heap of the faces that may come next).
 */
export function encodeOrder(s: ShapeRecord, shared?: Uint8Array): { order: Uint32Array; rotation: Uint8Array } | string {
  const nf = Math.max(0, s.faceOffsets.length - 1), nv = s.vertices.length / 3, cv = s.cornerVertices;
  // A face starting at vertex v + 1 that also uses v: the weld numbered v + 1 first, so the two were first used by one
  // face with one older vertex, given rotated to start at v + 1 (flip[v]). Any other face not starting at its
  // smallest vertex cannot come from the weld's rotation.
  const flip = new Uint8Array(nv + 1), keep = new Uint8Array(nv + 1);
  for (let f = 0; f < nf; f++) {
    if (s.faceOffsets[f] !== 3 * f || s.faceOffsets[f + 1] !== 3 * f + 3) return `face ${f} is not a triangle`;
    const a = cv[3 * f], b = cv[3 * f + 1], c = cv[3 * f + 2];
    // A vertex the split shares with another piece may be numbered by that piece first (mergePieces checks it).
    if (shared?.[a]) continue;
    for (const u of [b, c]) {
      if (u === a - 1) flip[u] = 1;
      else if (u === a + 1) keep[a] = 1;
      else if (u < a) return `face ${f} does not start at its smallest vertex (${a}, ${b}, ${c}), which the weld's rotation gives`;
    }
  }
  for (let v = 0; v < nv; v++) if (flip[v] && keep[v]) return `vertices ${v} and ${v + 1} must each be numbered before the other (faces starting at either use both)`;
  const barriers = treeBarriers(s);
  if (typeof barriers === 'string') return `faces are not in the encoder's tree order (${barriers})`;
  // Faces waiting on barriers; barriers waiting on faces.
  const waits = new Int32Array(nf), left = barriers.map((b) => b.first.length), holds: number[][] = Array.from({ length: nf }, () => []);
  barriers.forEach((b, k) => {
    for (const f of b.then) waits[f]++;
    for (const f of b.first) holds[f].push(k);
  });
  const seen = new Uint8Array(nv), used = new Uint8Array(nf);
  const start = new Uint32Array(nv + 1);
  for (let c = 0; c < 3 * nf; c++) start[cv[c] + 1]++;
  for (let v = 0; v < nv; v++) start[v + 1] += start[v];
  const fill = start.slice(0, nv), byVertex = new Uint32Array(3 * nf);
  for (let c = 0; c < 3 * nf; c++) byVertex[fill[cv[c]]++] = (c / 3) | 0;
  let next = 0; // the next vertex to be used for the first time
  const fits = (f: number): boolean => {
    if (waits[f] !== 0) return false;
    let x = next;
    for (let j = 0; j < 3; j++) {
      const v = cv[3 * f + j];
      if (!seen[v]) {
        if (v !== x) return false;
        x++;
      }
    }
    const k = x - next;
    if (k === 0) return true;
    // A flipped pair is first used by one face with exactly one older vertex.
    if (flip[x - 1]) return false;
    if (k === 3 && (flip[next] || flip[next + 1])) return false;
    return true;
  };
  const heap: number[] = [];
  const queued = new Uint8Array(nf);
  const push = (f: number): void => {
    if (queued[f] || used[f] || !fits(f)) return;
    queued[f] = 1;
    let i = heap.push(f) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p] <= heap[i]) break;
      [heap[p], heap[i]] = [heap[i], heap[p]];
      i = p;
    }
  };
  const pop = (): number => {
    const top = heap[0], last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && heap[l] < heap[m]) m = l;
        if (r < heap.length && heap[r] < heap[m]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i], heap[m]];
        i = m;
      }
    }
    queued[top] = 0;
    return top;
  };
  const look = (v: number): void => {
    for (let k = start[v]; k < start[v + 1]; k++) push(byVertex[k]);
  };
  if (nv > 0) look(0);
  const order = new Uint32Array(nf);
  for (let done = 0; done < nf; ) {
    if (!heap.length) return `no input order found: after ${done} of ${nf} faces none can come next (vertex ${next} first used, tree ties kept)`;
    const f = pop();
    if (used[f] || !fits(f)) continue;
    used[f] = 1;
    order[done++] = f;
    const fresh: number[] = [];
    for (let j = 0; j < 3; j++) {
      const v = cv[3 * f + j];
      if (!seen[v]) {
        seen[v] = 1;
        fresh.push(v);
      }
    }
    while (next < nv && seen[next]) next++;
    for (const k of holds[f]) {
      if (--left[k] !== 0) continue;
      for (const g of barriers[k].then) if (--waits[g] === 0) push(g);
    }
    for (const v of fresh) look(v);
    if (next < nv) look(next);
    // A face whose vertices were all seen before this one: it may be waiting only on a barrier, pushed above.
  }
  if (next < nv) return `vertex ${next} is used by no face`;
  // Rotations: the face first using a flipped pair (older x, v, v + 1) is given as (v + 1, x, v); then the weld's
  // numbering (first use over the given corners) must put every face's stored first corner first.
  const rotation = new Uint8Array(nf), weld = new Int32Array(nv).fill(-1);
  let count = 0;
  for (let k = 0; k < nf; k++) {
    const f = order[k];
    if (flip[cv[3 * f + 1]] && cv[3 * f + 2] === cv[3 * f + 1] + 1 && weld[cv[3 * f + 1]] < 0 && weld[cv[3 * f]] >= 0) rotation[f] = 2;
    for (let j = 0; j < 3; j++) {
      const v = cv[3 * f + ((j + rotation[f]) % 3)];
      if (weld[v] < 0) weld[v] = count++;
    }
  }
  for (let f = 0; f < nf && !shared; f++) {
    const a = weld[cv[3 * f]];
    if (a > weld[cv[3 * f + 1]] || a > weld[cv[3 * f + 2]]) return `face ${f} (${cv[3 * f]}, ${cv[3 * f + 1]}, ${cv[3 * f + 2]}) does not start at its first-numbered vertex in any order found`;
  }
  return { order, rotation };
}

/** One piece of a mesh the encoder split at the u16 limits: its stored triangles in its own encode order. */
export interface Piece {
  /** The piece's triangles as given (its encodeOrder order and rotations), over its own stored vertices. */
  tris: Uint32Array;
  /** The stored first corner of each given triangle (the weld must number it first). */
  first: Uint32Array;
  /** World positions of its stored vertices (f32, 3 a vertex). */
  world: Float32Array;
}

/**
 * The pieces' triangles interleaved into one input (indices into the pieces' vertices one after another) that the
 * encoder splits back into the same pieces with the same bytes: each piece keeps its own order (the split keeps a
 * piece's triangles in input order), and the weld, which numbers the vertices of the whole input by first use (a
 * vertex on a cut is one welded vertex in two pieces), must number every triangle's stored first corner before its
 * other two. Greedy: the piece furthest behind whose next triangle can come; or why none can.
 */
export function mergePieces(pieces: Piece[]): Uint32Array | string {
  const total = pieces.reduce((s, p) => s + p.world.length / 3, 0);
  const gid = new Int32Array(total), key = new Map<string, number>();
  let at = 0;
  for (const p of pieces) {
    for (let v = 0; v < p.world.length / 3; v++) {
      const k = `${p.world[3 * v]},${p.world[3 * v + 1]},${p.world[3 * v + 2]}`;
      let g = key.get(k);
      if (g === undefined) key.set(k, (g = key.size));
      gid[at + v] = g;
    }
    at += p.world.length / 3;
  }
  const base = pieces.map((_, i) => pieces.slice(0, i).reduce((s, p) => s + p.world.length / 3, 0));
  const weld = new Int32Array(key.size).fill(-1);
  let numbered = 0;
  const ptr = new Uint32Array(pieces.length);
  const out = new Uint32Array(pieces.reduce((s, p) => s + p.tris.length, 0));
  let o = 0;
  // before[u]: the vertices some triangle (of any piece) needs numbered before u (its first corner, u another).
  const before: number[][] = Array.from({ length: key.size }, () => []);
  pieces.forEach((p, pi) => {
    for (let t = 0; t < p.tris.length / 3; t++) {
      const s = gid[base[pi] + p.first[t]];
      for (let j = 0; j < 3; j++) {
        const u = gid[base[pi] + p.tris[3 * t + j]];
        if (u !== s) before[u].push(s);
      }
    }
  });
  const can = (pi: number): boolean => {
    const p = pieces[pi], t = ptr[pi];
    const c = [0, 1, 2].map((j) => gid[base[pi] + p.tris[3 * t + j]]);
    const s = gid[base[pi] + p.first[t]];
    for (const u of c) if (u !== s && weld[u] >= 0 && (weld[s] < 0 || weld[u] < weld[s])) return false;
    if (weld[s] < 0) {
      for (const u of c) {
        if (weld[u] >= 0) continue;
        if (u !== s) return false; // the first new corner given must be s
        break;
      }
    }
    // A vertex numbered now must not pass one that another triangle needs numbered first.
    for (let j = 0; j < 3; j++) {
      const u = c[j];
      if (weld[u] >= 0) continue;
      for (const x of before[u]) if (weld[x] < 0 && (c.indexOf(x) < 0 || c.indexOf(x) > j)) return false;
    }
    return true;
  };
  for (let done = 0; done < out.length / 3; done++) {
    // The piece furthest behind (by the share of its triangles given) that can go on: an input that cut across
    // the pieces (a grid in rows) went through them at an even pace.
    let pi = -1, least = Infinity;
    for (let q = 0; q < pieces.length; q++) {
      const n = pieces[q].tris.length / 3;
      if (ptr[q] >= n || ptr[q] / n >= least || !can(q)) continue;
      pi = q;
      least = ptr[q] / n;
    }
    if (pi < 0) return `pieces of a split mesh: after ${done} of ${out.length / 3} triangles none can come next with the weld numbering each one's first corner first`;
    const p = pieces[pi], t = ptr[pi]++;
    for (let j = 0; j < 3; j++) {
      const v = base[pi] + p.tris[3 * t + j];
      out[o++] = v;
      if (weld[gid[v]] < 0) weld[gid[v]] = numbered++;
    }
  }
  return out;
}
