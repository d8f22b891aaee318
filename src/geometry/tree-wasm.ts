// The kind-5 tree builder in WebAssembly (source: assembly/tree.ts; module: wasm.ts). Same tree as bvh.ts's
// header describes; this file lays out the linear memory for one shape, copies the vertices and corners in and
// the nodes and leaf order out. Spec: ../shared/spec/physics-resource.md, "Triangle-mesh shapes"; decisions:
// docs/format-decisions.md, Encoder.

import type { Tree } from './bvh.ts';
import { encoderWasm, WasmLayout, withEncoder } from './wasm.ts';

/** Stack entries of the split phase (node, lo, hi, depth): ≤ log2(faces) + 2 pending, 100 is ample. */
const STACK_I32 = 4 * 100;

/**
 * Studio's tree over `faces` faces of the f32 vertices `v` (corners `faceVerts`, 3 per face), root box `root`
 * (the shape bounds: min x, y, z, max x, y, z).
 */
export function buildTreeWasm(v: Float32Array, faceVerts: Uint32Array, faces: number, root: ArrayLike<number>): Tree {
  return withEncoder(`tree: ${faces} faces`, () => treeCopy(v, faceVerts, faces, root));
}

function treeCopy(v: Float32Array, faceVerts: Uint32Array, faces: number, root: ArrayLike<number>): Tree {
  const n = faces;
  if (n === 0) return { nodes: new Uint32Array(0), leafFaces: new Uint32Array(0), depth: 0 };
  const w = encoderWasm();
  const m = new WasmLayout(w);
  const nodeCount = 2 * n - 1;
  const pv = m.take(4 * v.length), pfv = m.take(12 * n), pbox = m.take(48 * n), pord = m.take(w.orderScratchBytes(n));
  const ptb = m.take(48 * nodeCount), pbx = m.take(48 * nodeCount), pleaves = m.take(4 * nodeCount), pstack = m.take(4 * STACK_I32);
  const pnodes = m.take(8 * (n - 1)), pleaf = m.take(4 * n);
  const buf = m.commit();
  new Float32Array(buf, pv, v.length).set(v);
  new Uint32Array(buf, pfv, 3 * n).set(faceVerts.subarray(0, 3 * n));
  const rb = new Float64Array(buf, pbx, 6);
  for (let k = 0; k < 6; k++) rb[k] = root[k];
  const depth = w.build(n, pv, pfv, pbox, pord, ptb, pbx, pleaves, pstack, pnodes, pleaf);
  return { nodes: new Uint32Array(buf, pnodes, 2 * (n - 1)).slice(), leafFaces: new Uint32Array(buf, pleaf, n).slice(), depth };
}
