// The kind-5 tree builder in WebAssembly (source: assembly/tree.ts, compiled at `npm install` by
// scripts/build-wasm.mjs into tree-wasm.generated.ts). Same tree as bvh.ts's JavaScript description; this file lays
// out the wasm linear memory for one shape, copies the vertices and corners in and the nodes and leaf order out.
// Spec: ../shared/spec/physics-resource.md, "Triangle-mesh shapes"; decisions: docs/format-decisions.md, Encoder.

import type { Tree } from './bvh.ts';
import { TREE_WASM_BASE64 } from './tree-wasm.generated.ts';

interface TreeExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  build(n: number, v: number, fv: number, box: number, ord: number, tb: number, bx: number, leaves: number, stack: number, nodes: number, leaf: number): number;
}

let EXPORTS: TreeExports | null = null;

/** The module, compiled and instantiated on first use (~13 KB; synchronous: a few ms). */
function treeModule(): TreeExports {
  if (!EXPORTS) {
    const bytes = Buffer.from(TREE_WASM_BASE64, 'base64');
    const abort = (): never => { throw new Error('tree: wasm abort'); };
    EXPORTS = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { abort } }).exports as unknown as TreeExports;
  }
  return EXPORTS;
}

/** Stack entries of the split phase (node, lo, hi, depth, axis): ≤ log2(faces) + 2 pending, 80 is ample. */
const STACK_I32 = 5 * 80;
const WASM_PAGE = 65_536;
const align8 = (x: number): number => (x + 7) & ~7;

/**
 * Studio's tree over `faces` faces of the f32 vertices `v` (corners `faceVerts`, 3 per face), root box `root`
 * (the shape bounds: min x, y, z, max x, y, z).
 */
export function buildTreeWasm(v: Float32Array, faceVerts: Uint32Array, faces: number, root: ArrayLike<number>): Tree {
  const n = faces;
  if (n === 0) return { nodes: new Uint32Array(0), leafFaces: new Uint32Array(0), depth: 0 };
  const w = treeModule();
  const nodeCount = 2 * n - 1;
  let at = align8(w.heapBase());
  const take = (bytes: number): number => { const p = at; at = align8(at + bytes); return p; };
  const pv = take(4 * v.length), pfv = take(12 * n), pbox = take(48 * n), pord = take(40 * n);
  const ptb = take(48 * nodeCount), pbx = take(48 * nodeCount), pleaves = take(4 * nodeCount), pstack = take(4 * STACK_I32);
  const pnodes = take(8 * (n - 1)), pleaf = take(4 * n);
  const have = w.memory.buffer.byteLength;
  if (at > have) w.memory.grow(Math.ceil((at - have) / WASM_PAGE));
  const buf = w.memory.buffer;
  new Float32Array(buf, pv, v.length).set(v);
  new Uint32Array(buf, pfv, 3 * n).set(faceVerts.subarray(0, 3 * n));
  const rb = new Float64Array(buf, pbx, 6);
  for (let k = 0; k < 6; k++) rb[k] = root[k];
  const depth = w.build(n, pv, pfv, pbox, pord, ptb, pbx, pleaves, pstack, pnodes, pleaf);
  return {
    nodes: new Uint32Array(buf, pnodes, 2 * (n - 1)).slice(),
    leafFaces: new Uint32Array(buf, pleaf, n).slice(),
    depth,
  };
}
