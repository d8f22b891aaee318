// verify's fast all-clear pass in WebAssembly (assembly/verify-clean.ts), for src/format/verify.ts to take as its
// `fast` option: the shape's arrays copied into an instance of the encoder module of its own (one a thread, its
// memory kept and reused: a shape needs a few MB at most), then one call that answers "all clear" or "not sure". Not
// sure is never a finding: verify then runs its JavaScript pass and checks, which decide and word every finding, so
// findings cannot change; the wasm pass may only ever clear a shape the JavaScript pass clears (a test holds it to
// that). Why: verify and the ride run the pass once a process over every face of a level, where JavaScript runs its
// first files unoptimized (~65 ms of a 1M-face ride); the same loops compiled ahead run at full speed from the first.
// Lives here, not in src/format/ (which lies beneath the encoder's module): the callers hand it to verify.
import { KIND_MESH, type ShapeRecord } from '../format/types.ts';
import { encoderInstance, WASM_PAGE } from './wasm.ts';

interface VerifyWasm {
  memory: WebAssembly.Memory;
  heapBase(): number;
  verifyClean(
    v: number, vLen: number, cv: number, corners: number, fo: number, foLen: number, ev: number, mesh: number,
    cb: number, cbLen: number, fb: number, fbLen: number, vco: number, vcoLen: number, ids: number, idsLen: number,
    tree: number, treeLen: number, po: number, poLen: number,
    minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, boxes: number,
  ): number;
}

const align8 = (n: number): number => (n + 7) & ~7;
let W: VerifyWasm | null = null;

function instance(): VerifyWasm {
  W ??= encoderInstance<VerifyWasm>('verify');
  return W;
}

/** Where each array lies in the memory (its bytes' address), in the order of `arrays` below. */
const at = new Array<number>(10).fill(0);

/**
 * True only when src/format/verify.ts shapeClean clears the shape (false: not sure). For a record that passed
 * checkShapeRecord with finite bounds (verify asks it only then).
 */
export function wasmShapeClean(s: ShapeRecord, kind: number | undefined): boolean {
  try {
    return clean(s, kind);
  } catch {
    // The memory not grown (out of memory) or a trap (it should have none): not sure, and a fresh instance next time.
    W = null;
    return false;
  }
}

function clean(s: ShapeRecord, kind: number | undefined): boolean {
  const V = s.vertices, cv = s.cornerVertices, fo = s.faceOffsets, ev = s.edgeValues, cb = s.concaveBits, fb = s.flatBits;
  const vco = s.vertexCornerOffsets, ids = s.cornerIdsByVertex, tree = s.tree, po = s.planeOffsets;
  // The codec's array types only (anything else: not sure), and what the pass takes as given.
  if (!(V instanceof Float32Array && cv instanceof Uint16Array && fo instanceof Uint16Array && ev instanceof Float32Array &&
    cb instanceof Uint8Array && fb instanceof Uint8Array && vco instanceof Uint16Array && ids instanceof Uint16Array &&
    tree instanceof Uint32Array && po instanceof Float32Array)) return false;
  const corners = cv.length, mesh = kind === KIND_MESH;
  if (V.length % 3 !== 0 || (mesh && ev.length !== corners)) return false;
  if (mesh && cb.length !== 0 && fb.length !== 0 && (8 * cb.length < corners || 8 * fb.length < corners)) return false;
  if (tree.length % 2 !== 0 || (vco.length !== 0 && vco.length !== V.length / 3 + 1)) return false;
  const faces = Math.max(0, fo.length - 1);
  const arrays = [V, cv, fo, mesh ? ev : undefined, cb, fb, vco, ids, tree, po];
  // The arrays that view one buffer (a read file's: the codec's borrow) go in as one span, the others one by one.
  const shared = V.buffer;
  let lo = Infinity, hi = 0, own = 0, sum = 0;
  for (let k = 0; k < 10; k++) {
    const a = arrays[k];
    if (!a || a.byteLength === 0) continue;
    sum += a.byteLength;
    if (a.buffer === shared) {
      lo = Math.min(lo, a.byteOffset);
      hi = Math.max(hi, a.byteOffset + a.byteLength);
    } else own += align8(a.byteLength);
  }
  // A span much wider than its arrays (arrays far apart in a big buffer): each array by itself instead.
  const span = hi > lo && hi - lo <= 2 * sum + 4096;
  const w = instance();
  const boxes = align8(w.heapBase());
  // 16 bytes readable past the boxes and past the arrays: the pass reads a box's max and a vertex four f32 at a time.
  const spanAt = boxes + align8(24 * Math.max(1, 2 * faces - 1) + 16);
  const spanBase = spanAt + (span ? lo & 7 : 0);
  const ownAt = align8(spanBase + (span ? hi - lo : 0));
  const end = ownAt + (span ? own : align8(sum) + 80) + 16;
  const have = w.memory.buffer.byteLength;
  if (end > have) w.memory.grow(Math.ceil((end - have) / WASM_PAGE));
  const mem = new Uint8Array(w.memory.buffer);
  if (span) mem.set(new Uint8Array(shared, lo, hi - lo), spanBase);
  let o = ownAt;
  for (let k = 0; k < 10; k++) {
    const a = arrays[k];
    if (!a || a.byteLength === 0) { at[k] = 0; continue; }
    if (span && a.buffer === shared) { at[k] = spanBase + (a.byteOffset - lo); continue; }
    mem.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), o);
    at[k] = o;
    o += align8(a.byteLength);
  }
  return w.verifyClean(
    at[0], V.length, at[1], corners, at[2], fo.length, at[3], mesh ? 1 : 0, at[4], cb.length, at[5], fb.length,
    at[6], vco.length, at[7], ids.length, at[8], tree.length, at[9], po.length,
    s.min[0], s.min[1], s.min[2], s.max[0], s.max[1], s.max[2], boxes,
  ) === 1;
}
