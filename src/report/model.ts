// What report.html draws, taken from the written .physics files read back with our codec (src/format/resource.ts),
// so the page shows what the game gets: every kind-5 shape's faces in world space (part rotation and position
// applied), each corner's edge class from the stored bits and values (../shared/spec/physics-resource.md,
// "Triangle-mesh shapes"), open corners split into borders and cracks by the validation's own rule
// (src/geometry/cracks.ts) over all shapes of all resources, and the shape's material and resource.
//
// Edge classes from the stored data: the flat bit → flat; the concave bit → concave; a value other than 1.0 →
// convex; value 1.0 and neither bit → a sharp concave fold when another corner of the shape runs the edge the
// other way and the pair is single (the encoder's rule stores 1.0 there); unpaired when corners run it the other way
// but not as one single pair (a non-manifold edge or a back-to-back face: the encoder leaves these unpaired and
// counts them open, manifest seams.openEdgesWritten); else open: a border, or a crack when it lies along another
// open edge or a face (an open edge at a shape, resource or cell seam is what the game sees as open too). Each open
// or unpaired corner is one side of one edge, so its count is a count of edges (the validation's unit).
//
// Size: every face is drawn up to ReportOptions.maxTriangles (4M); past it the page draws every k-th face of each
// shape and every face with an open corner, and says so. Positions go to the page quantised to u16 over each
// shape's box (≤ 1.5 mm over a 100 m cell), indices as u16 (a shape has at most 65,535 vertices): ~12 bytes a drawn
// face before compression.

import { classifyOpenEdges, type CrackMesh } from '../geometry/cracks.ts';
import { faceRuns, type SourceIndex } from './sources.ts';
import { KIND_MESH, type PhysicsResource } from '../format/types.ts';

export const EDGE_FLAT = 0;
export const EDGE_CONCAVE = 1;
export const EDGE_CONVEX = 2;
export const EDGE_BORDER = 3;
export const EDGE_CRACK = 4;
export const EDGE_UNPAIRED = 5;
export const EDGE_CLASS_NAMES = ['flat', 'concave', 'convex', 'border', 'crack', 'non-manifold'] as const;

export interface ReportOptions {
  /**
   * Faces drawn at most (count, ≥ 1,000); past it the page decimates and says so. Default 4,000,000: every level
   * the pools can hold (40,000 geometries) up to ~4M faces is drawn whole (the page draws merged indexed buffers).
   */
  maxTriangles: number;
}

export const REPORT_DEFAULTS: ReportOptions = { maxTriangles: 4_000_000 };

/** One drawn shape: quantised vertices, u16 faces, a class per corner, its part's material and its resource. */
export interface DrawnShape {
  resource: number;
  /** The part's index in its resource. */
  part: number;
  material: number;
  /** World box of the shape's vertices. */
  min: [number, number, number];
  max: [number, number, number];
  /** u16 per coordinate over [min, max]. */
  vertices: Uint16Array;
  /** Three vertex indices a drawn face. */
  faces: Uint16Array;
  /** Edge class of each drawn face's three corners. */
  classes: Uint8Array;
  /** Runs of drawn faces by source object: pairs (first drawn face, object index; −1 unknown). Empty: not known. */
  objects: Int32Array;
}

/**
 * Which source objects a resource's faces came from: one object's index (every face), an index to match each face
 * against (sources.ts), or undefined (not known).
 */
export type FaceOwners = (resource: number) => number | { index: SourceIndex; held: Uint8Array } | undefined;

export interface ReportGeometry {
  shapes: DrawnShape[];
  /** Faces in the files, and drawn. */
  faces: number;
  drawnFaces: number;
  /** Every k-th face drawn (1: all). */
  stride: number;
  /** Corners per edge class (EDGE_CLASS_NAMES) over all faces (not only the drawn ones). */
  classCounts: number[];
  /** The same per resource (manifest order). */
  resourceClassCounts: number[][];
  /** Open and unpaired corners' edges in world space, the first OPEN_LISTED of each class and resource. */
  openEdges: OpenEdge[];
}

/** One open (border, crack) or unpaired corner's edge as written: a finding the files show. */
export interface OpenEdge {
  resource: number;
  cls: number;
  /** The edge's ends, from → to as its face runs it. */
  points: [number[], number[]];
}

/** Open edges listed per class and resource (the manifest's validation keeps as many locations per kind and object). */
export const OPEN_LISTED = 100;

/** Rotates v by the unit quaternion q (x, y, z, w). */
function rotate(q: [number, number, number, number], x: number, y: number, z: number): [number, number, number] {
  const [qx, qy, qz, qw] = q;
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

interface WorldShape {
  resource: number;
  part: number;
  material: number;
  world: Float32Array;
  /** Vertex of each corner, three corners a face. */
  corners: Uint32Array;
  classes: Uint8Array;
  open: number[];
}

/** The geometry of the resources (in the manifest's order) for the page; see the file header. */
export function reportGeometry(resources: PhysicsResource[], options: Partial<ReportOptions> = {}, owners?: FaceOwners): ReportGeometry {
  const opt = { ...REPORT_DEFAULTS, ...options };
  const shapes: WorldShape[] = [];
  resources.forEach((res, ri) => {
    res.parts.forEach((part, pi) => {
      if (part.kind !== KIND_MESH || part.shape >= res.shapes.length) return;
      const s = res.shapes[part.shape];
      const nv = s.vertices.length / 3;
      const world = new Float32Array(3 * nv);
      const identity = part.rotation[0] === 0 && part.rotation[1] === 0 && part.rotation[2] === 0;
      const [px, py, pz] = part.position, sv = s.vertices;
      for (let v = 0; v < nv; v++) {
        if (identity) {
          world[3 * v] = sv[3 * v] + px;
          world[3 * v + 1] = sv[3 * v + 1] + py;
          world[3 * v + 2] = sv[3 * v + 2] + pz;
          continue;
        }
        const [x, y, z] = rotate(part.rotation, sv[3 * v], sv[3 * v + 1], sv[3 * v + 2]);
        world[3 * v] = x + px;
        world[3 * v + 1] = y + py;
        world[3 * v + 2] = z + pz;
      }
      const nf = Math.max(0, s.faceOffsets.length - 1);
      const corners = new Uint32Array(3 * nf);
      const classes = new Uint8Array(3 * nf);
      const open: number[] = [];
      let triangles = true;
      for (let f = 0; f < nf; f++) if (s.faceOffsets[f + 1] - s.faceOffsets[f] !== 3) triangles = false;
      if (!triangles) return; // kind-5 faces are triangles; anything else is not ours to draw
      const flat = s.flatBits, concave = s.concaveBits, values = s.edgeValues, cv = s.cornerVertices;
      const hasBits = flat.length > 0 && concave.length > 0, hasValues = values.length > 0;
      let twins = 0;
      for (let f = 0; f < nf; f++) {
        const c0 = 3 * f; // faces are triangles (checked above), so face f's corners start at 3f
        for (let k = 0; k < 3; k++) {
          const c = c0 + k, next = k === 2 ? c0 : c + 1;
          const from = cv[c], to = cv[next];
          corners[c] = from;
          let cls: number;
          if (hasBits && (flat[c >> 3] >> (c & 7)) & 1) cls = EDGE_FLAT;
          else if (hasBits && (concave[c >> 3] >> (c & 7)) & 1) cls = EDGE_CONCAVE;
          else if (hasValues && values[c] !== 1) cls = EDGE_CONVEX;
          else if ((twins = runs(s.vertexCornerOffsets, s.cornerIdsByVertex, cv, to, from)) > 0) {
            cls = twins === 1 && runs(s.vertexCornerOffsets, s.cornerIdsByVertex, cv, from, to) === 1 ? EDGE_CONCAVE : EDGE_UNPAIRED;
          } else {
            cls = EDGE_BORDER;
            open.push(c);
          }
          classes[c] = cls;
        }
      }
      shapes.push({ resource: ri, part: pi, material: part.material, world, corners, classes, open });
    });
  });
  // Open corners into borders and cracks, across every shape.
  const meshes: CrackMesh[] = shapes.map((s) => {
    const ends = new Float32Array(6 * s.open.length);
    const tri = new Uint32Array(s.open.length);
    s.open.forEach((ci, i) => {
      const f = (ci / 3) | 0, a = s.corners[ci], b = s.corners[3 * f + ((ci % 3) + 1) % 3];
      ends.set(s.world.subarray(3 * a, 3 * a + 3), 6 * i);
      ends.set(s.world.subarray(3 * b, 3 * b + 3), 6 * i + 3);
      tri[i] = f;
    });
    return { positions: s.world, groups: [s.corners], open: ends, openTriangle: tri };
  });
  const { with: hits } = classifyOpenEdges(meshes, { joinExactAcrossMeshes: false }); // what the files hold: open is open
  shapes.forEach((s, i) => s.open.forEach((ci, k) => hits[i][k] >= 0 && (s.classes[ci] = EDGE_CRACK)));

  const resourceClassCounts = resources.map(() => EDGE_CLASS_NAMES.map(() => 0));
  const openEdges: OpenEdge[] = [];
  const at = (w: Float32Array, v: number): number[] => [w[3 * v], w[3 * v + 1], w[3 * v + 2]];
  for (const s of shapes) {
    const rc = resourceClassCounts[s.resource];
    for (let c = 0; c < s.classes.length; c++) {
      const k = s.classes[c];
      rc[k]++;
      if (k >= EDGE_BORDER && rc[k] <= OPEN_LISTED) {
        const b = s.corners[c % 3 === 2 ? c - 2 : c + 1];
        openEdges.push({ resource: s.resource, cls: k, points: [at(s.world, s.corners[c]), at(s.world, b)] });
      }
    }
  }

  const faces = shapes.reduce((n, s) => n + s.corners.length / 3, 0);
  const stride = Math.max(1, Math.ceil(faces / Math.max(1000, opt.maxTriangles)));
  const classCounts = EDGE_CLASS_NAMES.map(() => 0);
  let drawnFaces = 0;
  const drawn = shapes.map((s): DrawnShape => {
    const cls = s.classes, corners = s.corners;
    for (let c = 0; c < cls.length; c++) classCounts[cls[c]]++;
    const nf = corners.length / 3;
    const keep = new Uint32Array(nf);
    let kept = 0;
    for (let f = 0; f < nf; f++) {
      if (f % stride === 0 || cls[3 * f] >= EDGE_BORDER || cls[3 * f + 1] >= EDGE_BORDER || cls[3 * f + 2] >= EDGE_BORDER) keep[kept++] = f;
    }
    drawnFaces += kept;
    const out = new Uint16Array(3 * kept), classes = new Uint8Array(3 * kept);
    for (let i = 0; i < kept; i++) {
      const c = 3 * keep[i];
      out[3 * i] = corners[c]; out[3 * i + 1] = corners[c + 1]; out[3 * i + 2] = corners[c + 2];
      classes[3 * i] = cls[c]; classes[3 * i + 1] = cls[c + 1]; classes[3 * i + 2] = cls[c + 2];
    }
    const w = s.world, nv = w.length / 3;
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (let i = 0; i < w.length; i += 3) {
      const x = w[i], y = w[i + 1], z = w[i + 2];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
    }
    const min: [number, number, number] = [x0, y0, z0], max: [number, number, number] = [x1, y1, z1];
    const q = new Uint16Array(3 * nv);
    const sx = x1 > x0 ? 65535 / (x1 - x0) : 0, sy = y1 > y0 ? 65535 / (y1 - y0) : 0, sz = z1 > z0 ? 65535 / (z1 - z0) : 0;
    for (let i = 0; i < w.length; i += 3) {
      q[i] = Math.round((w[i] - x0) * sx);
      q[i + 1] = Math.round((w[i + 1] - y0) * sy);
      q[i + 2] = Math.round((w[i + 2] - z0) * sz);
    }
    const who = owners?.(s.resource);
    const objects = who === undefined ? new Int32Array(0) : typeof who === 'number' ? Int32Array.of(0, who) : faceRuns(kept, (i, c) => {
      const f = keep[i], a = 3 * corners[3 * f], b = 3 * corners[3 * f + 1], d = 3 * corners[3 * f + 2];
      c[0] = (w[a] + w[b] + w[d]) / 3;
      c[1] = (w[a + 1] + w[b + 1] + w[d + 1]) / 3;
      c[2] = (w[a + 2] + w[b + 2] + w[d + 2]) / 3;
    }, who.index, who.held);
    return { resource: s.resource, part: s.part, material: s.material, min, max, vertices: q, faces: out, classes, objects };
  });
  return { shapes: drawn, faces, drawnFaces, stride, classCounts, resourceClassCounts, openEdges };
}

/** How many corners of vertex `from` start the edge from → to (their face's next corner is on `to`). */
function runs(offsets: Uint16Array, ids: Uint16Array, cornerVertices: Uint16Array, from: number, to: number): number {
  let count = 0;
  for (let k = offsets[from]; k < offsets[from + 1]; k++) {
    const c = ids[k];
    // Corners are in face order, three a face (checked by the caller): the next corner of c's face.
    const next = c % 3 === 2 ? c - 2 : c + 1;
    if (cornerVertices[next] === to) count++;
  }
  return count;
}
