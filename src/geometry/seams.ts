// Level-wide edge data (issue 12; ../shared/spec/physics-resource.md, "Triangle-mesh shapes"; decision and reasoning
// in docs/format-decisions.md, "Seams"). The spec's edge rule is per corner: a corner's edge value and bits come
// from the single face across its edge. Shape by shape, every place where the compiler cuts the level — part per
// material, the u16 split, resource per object, collision_area cell — leaves corners with no opposite face in their
// shape, stored as open edges (ghost bumps). levelSeams runs the same rule once over every collision triangle of the
// level, before any cut: exact-position weld (f32 bits, −0.0 = 0.0) over all objects, pairing (a→b and b→a each
// held by exactly one corner of the level; 3+ faces on an edge: no pair), the classification on world positions.
// Each input corner gets one f32 code (edge-rule.ts SEAM_*, or the convex value); the encoder's per-shape step takes
// it only for corners its own shape leaves unpaired (assembly/edges.ts joinSeams), so within a shape the bytes are
// the reference encoder's.
//
// Level faces: every triangle of every collision object (grind prisms included; render-only and `none` objects are
// not collision objects), except degenerate ones (a repeated welded vertex, a zero f64 cross product, a non-finite
// vertex). A triangle repeated in one object counts twice here (its edges are then not a single pair), which the
// encoder, dropping the repeat, stores as open: the same as shape by shape. The computation is in WebAssembly
// (assembly/seams.ts); FLAT_COS and the convex value's slow path come from JavaScript, as for the shapes.

import { FLAT_COS } from './edge-rule.ts';
import { MAX_SHAPE_FACES } from './encode.ts';
import { encoderWasm, WasmLayout, withEncoder } from './wasm.ts';

export interface SeamMesh {
  /** For messages. */
  name: string;
  /** xyz f32 per vertex, world (game) space. */
  positions: Float32Array;
  /** Triangle lists (3 vertex indices each) over positions, one per material group. */
  groups: Uint32Array[];
  /** Each group's packed material word (cells merge one material's groups); default 0. */
  materials?: number[];
}

export interface LevelSeams {
  /** Per mesh, per group: 3 codes per triangle, corner order as the group's indices (views into one array). */
  codes: Float32Array[][];
  /** Corners of level faces with no single opposite corner in the level: the level's open edges as authored. */
  openCorners: number;
  /** Paired edges (each two corners). */
  pairs: number;
  /** Triangles that take no part (degenerate). */
  degenerate: number;
}

/** Where the build cuts (so which pairs need the level's edge data; the others are left to their shape). */
export interface SeamCuts {
  /** collision_area cell edge in metres; 0 when the level is not cut into cells. */
  cellSize: number;
  /** Most faces in one shape (the encoder's u16 split, EncodeOptions.maxFaces). */
  maxFaces: number;
}
export const SEAM_CUTS_DEFAULTS: SeamCuts = { cellSize: 0, maxFaces: MAX_SHAPE_FACES };

/**
 * The level's codes (see the file header). Every corner whose pair the build may cut apart gets its code: the two
 * triangles in different groups (objects or materials) or cells (`cuts.cellSize`), or in a group or cell material
 * of more than `cuts.maxFaces` triangles (the u16 split); pairs no cut separates keep SEAM_NONE (their shape pairs
 * them itself). `make` allocates the one code array (e.g. in shared memory, so worker threads read it in place).
 * Throws "seams: <mesh> group G triangle T: index I ≥ vertex count N" for a bad index.
 */
export function levelSeams(meshes: SeamMesh[], cuts: Partial<SeamCuts> = {}, make: (length: number) => Float32Array = (n) => new Float32Array(n)): LevelSeams {
  const c = { ...SEAM_CUTS_DEFAULTS, ...cuts };
  if (!(c.cellSize >= 0) || !Number.isInteger(c.maxFaces) || c.maxFaces < 1) throw new Error(`seams: cell size ${c.cellSize} or maxFaces ${c.maxFaces} out of range`);
  let nv = 0, nt = 0, ng = 0;
  for (const m of meshes) {
    if (m.positions.length % 3 !== 0) throw new Error(`seams: ${m.name}: positions length ${m.positions.length} is not a multiple of 3`);
    nv += m.positions.length / 3;
    for (const g of m.groups) {
      if (g.length % 3 !== 0) throw new Error(`seams: ${m.name}: indices length ${g.length} is not a multiple of 3`);
      nt += g.length / 3;
      ng++;
    }
  }
  const all = make(3 * nt);
  const r = withEncoder(`seams: ${nt} triangles`, () => seamsInWasm(meshes, nv, nt, ng, all, c));
  const codes: Float32Array[][] = [];
  let at = 0;
  for (const m of meshes) {
    codes.push(m.groups.map((g) => all.subarray(at, (at += g.length))));
  }
  return { codes, ...r };
}

function seamsInWasm(meshes: SeamMesh[], nv: number, nt: number, ng: number, out: Float32Array, cuts: SeamCuts): Omit<LevelSeams, 'codes'> {
  const m = new WasmLayout(encoderWasm());
  const pBits = m.take(12 * nv), pIdx = m.take(12 * nt), pGroups = m.take(16 * ng), pCodes = m.take(12 * nt);
  const buf = m.commit();
  const groups = new Uint32Array(buf, pGroups, 4 * ng);
  let v = 0, t = 0, g = 0;
  for (const mesh of meshes) {
    const p = mesh.positions;
    new Uint32Array(buf, pBits + 4 * 3 * v, p.length).set(new Uint32Array(p.buffer, p.byteOffset, p.length));
    mesh.groups.forEach((idx, k) => {
      new Uint32Array(buf, pIdx + 4 * 3 * t, idx.length).set(idx);
      t += idx.length / 3;
      groups[4 * g] = t;
      groups[4 * g + 1] = v;
      groups[4 * g + 2] = p.length / 3;
      groups[4 * g + 3] = mesh.materials?.[k] ?? 0;
      g++;
    });
    v += p.length / 3;
  }
  const w = m.w;
  w.seams(nv, pBits, nt, pIdx, ng, pGroups, pCodes, m.end(), FLAT_COS, cuts.cellSize, cuts.maxFaces);
  const bad = w.seamsResult(3);
  if (bad >= 0) throw badIndex(meshes, bad);
  out.set(new Float32Array(w.memory.buffer, pCodes, 3 * nt));
  return { openCorners: w.seamsResult(0), pairs: w.seamsResult(1), degenerate: w.seamsResult(2) };
}

/** The error for level corner c, whose index is past its mesh's vertices. */
function badIndex(meshes: SeamMesh[], c: number): Error {
  let t = (c / 3) | 0;
  for (const m of meshes) {
    for (let g = 0; g < m.groups.length; g++) {
      const n = m.groups[g].length / 3;
      if (t < n) return new Error(`seams: ${m.name} group ${g} triangle ${t}: index ${m.groups[g][3 * t + (c % 3)]} ≥ vertex count ${m.positions.length / 3}`);
      t -= n;
    }
  }
  return new Error(`seams: corner ${c}: index past its vertices`);
}
