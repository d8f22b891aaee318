// The grind map: which stored edges the game can grind, read from a written PhysicsResource as the game gets it.
// Facts: ../shared/spec/authoring-notes.md, "What the game does with edges" — the game makes grind edges only from
// creases of about 30° or more, and drops the edge analysis of a part with more than about 1,000 half-edges per
// metre of its bounding-box diagonal (Studio warns at 900: triangle index count / bbox diagonal); public-facts.md,
// "Grind edges and part density" — surfaces whose property row carries ExcludeFromEdgeGeneration or
// ExcludeFromGrinding get none. The stored edge rule (physics-resource.md, "Triangle-mesh shapes"): a convex edge
// between two faces of one shape stores cos(θ/2), θ the angle between the face normals, with neither bit set.
//
// Rules (docs/format-decisions.md, "Grind map"): an edge is grindable when both its faces are in the same part
// (the game analyses one part at a time: a crease cut apart between two parts is not one crease to it), its stored
// value is convex with θ ≥ GRIND_CREASE_DEGREES, the part's density is at most GRIND_DENSITY_LIMIT, and the part's
// surface excludes neither edges nor grinding. Concave creases are corners (the inside of a step), never grind
// edges; flat and open edges are not creases. Only kind-5 triangle meshes carry edge data; boxes and convex parts
// (kind 2/3) are counted with no grind edges. Pure functions over the record's typed arrays.
import { surfaceProperties } from './material.ts';
import { KIND_MESH, NO_SHAPE, type PartRecord, type PhysicsResource, type ShapeRecord } from './types.ts';

/** Crease angle (degrees between the two face normals) from which the game makes grind edges: authoring-notes.md. */
export const GRIND_CREASE_DEGREES = 30;
/** Half-edges (triangle indices) per metre of bbox diagonal above which a part gets no edge analysis in game. */
export const GRIND_DENSITY_LIMIT = 1000;
/** ReSkate Studio's warning ("too detailed to grind") on the same measure. */
export const STUDIO_DENSITY_WARNING = 900;
/** Property-row names that take a surface's grind edges away (the catalog's intrinsic properties). */
export const GRIND_EXCLUDING_PROPERTIES = ['ExcludeFromEdgeGeneration', 'ExcludeFromGrinding'] as const;

/** The stored convex value cos(θ/2) at θ = GRIND_CREASE_DEGREES (with a hair of slack for the f32 store). */
const CREASE_VALUE_MAX = Math.cos(((GRIND_CREASE_DEGREES - 1e-4) * Math.PI) / 360);

/** Half-edges per metre of the box's diagonal (Infinity for a box of no size holding any). */
export function halfEdgeDensity(indexCount: number, min: ArrayLike<number>, max: ArrayLike<number>): number {
  const dx = max[0] - min[0];
  const dy = max[1] - min[1];
  const dz = max[2] - min[2];
  const diagonal = Math.sqrt(dx * dx + dy * dy + dz * dz);
  return indexCount === 0 ? 0 : diagonal > 0 ? indexCount / diagonal : Infinity;
}

/** Why a part's creases do not grind, or null when they do. */
export type GrindExclusion = 'dense' | 'surface' | 'kind' | null;

/** The surface's property row names a property that takes grind edges away. */
export function surfaceExcludesGrind(packed: number): string | null {
  const props = surfaceProperties(packed);
  return GRIND_EXCLUDING_PROPERTIES.find((p) => props.includes(p)) ?? null;
}

/** One shape's creases at or above the crease angle, each undirected edge once: local end points and count. */
export interface ShapeCreases {
  /** Convex creases ≥ GRIND_CREASE_DEGREES inside the shape. */
  edges: number;
  /** Their summed length in metres. */
  metres: number;
  /** 6 f32 per crease: its two ends in the shape's (recentred) space. */
  segments: Float32Array;
}

const bit = (b: Uint8Array, c: number): number => (b.length ? (b[c >> 3] >> (c & 7)) & 1 : 0);

/**
 * The shape's stored convex creases at or above the crease angle whose two faces are both in the shape. Reads the
 * edge values and bits as stored, the corner → face ranges and the vertex → corner CSR (no hashing, O(corners ·
 * valence)). A shape with no edge data has none.
 */
export function shapeCreases(s: ShapeRecord, wantSegments = true): ShapeCreases {
  const corners = s.cornerVertices.length;
  const out: number[] = [];
  let edges = 0;
  let metres = 0;
  if (s.edgeValues.length !== corners || corners === 0) return { edges, metres, segments: new Float32Array(0) };
  // next[c]: the corner after c in its face (the edge c runs is cornerVertices[c] → cornerVertices[next[c]]).
  // Triangle meshes (3 corners a face, the encoder's faceOffsets) need no table.
  const faces = s.faceOffsets.length - 1;
  let next: Uint32Array | null = null;
  if (!(faces * 3 === corners && s.faceOffsets[faces] === corners)) {
    next = new Uint32Array(corners);
    for (let f = 0; f < faces; f++) {
      const a = s.faceOffsets[f];
      const b = Math.min(s.faceOffsets[f + 1], corners);
      for (let c = a; c < b; c++) next[c] = c + 1 < b ? c + 1 : a;
    }
  }
  const after = (c: number): number => (next ? next[c] : c % 3 === 2 ? c - 2 : c + 1);
  const v = s.vertices;
  const off = s.vertexCornerOffsets;
  const ids = s.cornerIdsByVertex;
  const values = s.edgeValues;
  for (let c = 0; c < corners; c++) {
    if (!(values[c] <= CREASE_VALUE_MAX) || bit(s.flatBits, c) || bit(s.concaveBits, c)) continue;
    const a = s.cornerVertices[c];
    const b = s.cornerVertices[after(c)];
    // The opposite corner: one of b's corners whose edge runs back to a. Exactly one, and counted from the lower id.
    let opposite = -1;
    let count = 0;
    for (let k = off[b]; k < off[b + 1]; k++) {
      const o = ids[k];
      if (s.cornerVertices[after(o)] === a) { opposite = o; count++; }
    }
    if (count !== 1 || opposite < c) continue;
    const dx = v[3 * b] - v[3 * a];
    const dy = v[3 * b + 1] - v[3 * a + 1];
    const dz = v[3 * b + 2] - v[3 * a + 2];
    edges++;
    metres += Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (wantSegments) out.push(v[3 * a], v[3 * a + 1], v[3 * a + 2], v[3 * b], v[3 * b + 1], v[3 * b + 2]);
  }
  return { edges, metres, segments: new Float32Array(out) };
}

/** One part in the grind map. */
export interface PartGrind {
  part: number;
  kind: number;
  material: number;
  /** Triangle indices (3 a face) per metre of the shape's bbox diagonal; 0 for a part with no mesh. */
  density: number;
  /** Creases ≥ the crease angle in the part (grindable or not). */
  creases: number;
  /** Grindable edges and metres: the creases, unless the part is excluded. */
  edges: number;
  metres: number;
  /** Why none of its creases grind: over the density limit, an excluding surface, not a triangle mesh. */
  excluded: GrindExclusion;
  /** The excluding property of its surface, when there is one. */
  property: string | null;
  /** World bounds of the part (the shape's bounds placed at the part; a mesh part is never rotated). */
  min: [number, number, number];
  max: [number, number, number];
  /** 6 per crease, world space (when asked for). */
  segments?: Float32Array;
}

export interface ResourceGrind {
  edges: number;
  metres: number;
  parts: PartGrind[];
}

/** Rotates v by the unit quaternion q (x, y, z, w). */
function rotate(q: readonly number[], x: number, y: number, z: number): [number, number, number] {
  const [qx, qy, qz, qw] = q;
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

/** The grind map of one part of `res` (see the file header). */
export function partGrind(res: PhysicsResource, index: number, wantSegments = false): PartGrind {
  const p: PartRecord = res.parts[index];
  const s = p.shape === NO_SHAPE ? undefined : res.shapes[p.shape];
  const property = surfaceExcludesGrind(p.material);
  const at = p.position;
  const min: [number, number, number] = [at[0], at[1], at[2]];
  const max: [number, number, number] = [at[0], at[1], at[2]];
  const mesh = p.kind === KIND_MESH && s !== undefined;
  if (mesh) for (let j = 0; j < 3; j++) { min[j] = at[j] + s.min[j]; max[j] = at[j] + s.max[j]; }
  const density = mesh ? halfEdgeDensity(s.cornerVertices.length, s.min, s.max) : 0;
  const found = mesh ? shapeCreases(s, wantSegments) : { edges: 0, metres: 0, segments: new Float32Array(0) };
  const excluded: GrindExclusion = !mesh ? 'kind' : density > GRIND_DENSITY_LIMIT ? 'dense' : property ? 'surface' : null;
  const out: PartGrind = {
    part: index, kind: p.kind, material: p.material >>> 0, density, creases: found.edges,
    edges: excluded ? 0 : found.edges, metres: excluded ? 0 : found.metres, excluded, property, min, max,
  };
  if (wantSegments) {
    const seg = found.segments;
    const identity = p.rotation[0] === 0 && p.rotation[1] === 0 && p.rotation[2] === 0;
    for (let k = 0; k < seg.length; k += 3) {
      const r = identity ? [seg[k], seg[k + 1], seg[k + 2]] : rotate(p.rotation, seg[k], seg[k + 1], seg[k + 2]);
      seg[k] = at[0] + r[0]; seg[k + 1] = at[1] + r[1]; seg[k + 2] = at[2] + r[2];
    }
    out.segments = seg;
  }
  return out;
}

/** The grind map of every part of a resource. */
export function resourceGrind(res: PhysicsResource, wantSegments = false): ResourceGrind {
  const parts = res.parts.map((_, i) => partGrind(res, i, wantSegments));
  return { edges: parts.reduce((n, p) => n + p.edges, 0), metres: parts.reduce((n, p) => n + p.metres, 0), parts };
}
