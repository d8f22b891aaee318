// JIT warm-up of the encoder: a fresh thread runs the encoder's first few thousand triangles in V8's interpreter
// while TurboFan compiles it (measured in a cold process on 2,200-triangle cells: the first cell ~240 ms, steady
// ~5 ms after ~15 cells; 200 cells took 1.36–1.81 s cold against 0.64–0.95 s after this warm-up). Encoding
// small procedural meshes through every step — weld, spatial split, tree, edges, resource layout and writer —
// moves that cost to a moment when the thread would otherwise idle (a worker while the main thread imports the
// level). The result is thrown away; nothing is shared, so outputs never depend on it.

import { writePhysicsResource } from '../format/resource.ts';
import { encodeResource } from './resource.ts';

/** Rounds of warm-up work (each ~4,000 triangles: the budget above which V8 had optimised the hot loops). */
export const WARM_UP_ROUNDS = 8;

/**
 * A w × w grid of 1 m quads (2 triangles each) with a bumpy surface and a 0.5 m step across the middle, so the
 * edge classes flat, convex and concave all occur; vertices are shared (the weld's repeat paths run too).
 */
export function warmUpMesh(w: number): { positions: Float32Array; indices: Uint32Array } {
  const positions = new Float32Array((w + 1) * (w + 1) * 3);
  for (let j = 0, k = 0; j <= w; j++) {
    for (let i = 0; i <= w; i++, k += 3) {
      positions[k] = i;
      positions[k + 1] = (i > w / 2 ? 0.5 : 0) + 0.05 * Math.sin(i * 0.7) * Math.cos(j * 1.3);
      positions[k + 2] = j;
    }
  }
  const indices = new Uint32Array(w * w * 6);
  for (let j = 0, k = 0; j < w; j++) {
    for (let i = 0; i < w; i++, k += 6) {
      const a = j * (w + 1) + i;
      indices[k] = a; indices[k + 1] = a + w + 1; indices[k + 2] = a + 1;
      indices[k + 3] = a + 1; indices[k + 4] = a + w + 1; indices[k + 5] = a + w + 2;
    }
  }
  return { positions, indices };
}

/** Encodes and lays out throw-away meshes `rounds` times (see the file header). Returns the bytes written (for tests). */
export function warmUpEncoder(rounds: number = WARM_UP_ROUNDS): number {
  const m = warmUpMesh(44); // 3,872 triangles
  let bytes = 0;
  for (let r = 0; r < rounds; r++) {
    const objects = [{ name: 'warm-up', positions: m.positions, indices: m.indices, material: 0x20 }];
    // Every other round splits into pieces (the spatial split's selection), as large objects and cells do.
    const { resource } = encodeResource(objects, r % 2 ? { maxFaces: 1000 } : {});
    bytes += writePhysicsResource(resource).length;
  }
  return bytes;
}
