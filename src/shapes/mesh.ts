// A primitive as an importer's triangle mesh: game-space f32 positions (rounded once, as the glTF importer's are)
// and outward triangles, ready to be an ImportedObject group. The bound is tessellate's (src/shapes/tessellate.ts)
// plus the f32 rounding of each vertex.
import { tessellate, type TessellateOptions } from './tessellate.ts';
import type { Primitive } from './types.ts';

export interface PrimitiveMesh {
  positions: Float32Array;
  indices: Uint32Array;
  /** The distance bound the mesh meets, metres (before f32 rounding). */
  chordError: number;
  /** maxTriangles made it coarser than asked (chordError is then above the option). */
  limited: boolean;
  segments: number;
}

export function primitiveMesh(p: Primitive, options: Partial<TessellateOptions> = {}): PrimitiveMesh {
  const t = tessellate(p, options);
  return { positions: Float32Array.from(t.positions), indices: t.indices, chordError: t.chordError, limited: t.limited, segments: t.segments };
}
