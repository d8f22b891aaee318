// Hand-worked and property cases of the mesh → kind-5 shape encoder (src/geometry/encode.ts).
import { describe, expect, it } from 'vitest';
import { encodeMeshShapes } from '../../src/geometry/encode.ts';
import { edgeClasses } from '../../src/format/inspect.ts';
import { nodeBoxes, type Box6 } from '../../src/format/tree.ts';
import type { ShapeRecord } from '../../src/format/types.ts';
import { box, bumpyGrid, channelL, concat, flatGrid, quarterPipe, seamSplitBox, seamSplitGrid, degenerateMesh, FIXTURES, translate } from '../fixtures/meshes.ts';

const bit = (bits: Uint8Array, c: number): number => (bits[c >> 3] >> (c & 7)) & 1;
const COS45_F32 = Math.fround(Math.SQRT1_2);

/** Corner classes read back from a shape (the codec's edgeClasses): [open-like 1.0 no bits, flat, concave, convex]. */
function classes(s: ShapeRecord): { plain: number; flat: number; concave: number; convex: number } {
  const { open, flat, concave, convex } = edgeClasses(s);
  return { plain: open, flat, concave, convex };
}

/** Faces (stored order) not inside the box of leaf node faces−1+k, following decoded boxes from the root. */
function facesOutsideLeaves(s: ShapeRecord): number[] {
  const faces = s.faceOffsets.length - 1;
  const root: Box6 = [...s.min, ...s.max] as Box6;
  const boxes = nodeBoxes(root, s.tree, faces);
  const bad: number[] = [];
  for (let k = 0; k < faces; k++) {
    const b = faces === 1 ? root : Array.from(boxes.subarray(6 * (faces - 1 + k), 6 * (faces + k)));
    for (let j = 0; j < 3; j++) {
      const v = s.cornerVertices[3 * k + j];
      for (let a = 0; a < 3; a++) {
        const x = s.vertices[3 * v + a];
        if (x < b[a] || x > b[a + 3]) { bad.push(k); j = 3; break; }
      }
    }
  }
  return bad;
}

const one = (m: { positions: Float32Array; indices: Uint32Array }) => {
  const r = encodeMeshShapes(m.positions, m.indices);
  expect(r.pieces).toHaveLength(1);
  return { ...r, shape: r.pieces[0].shape, centre: r.pieces[0].centre };
};

describe('encodeMeshShapes: hand-worked cases', () => {
  it('the 1×2×3 box centred on (20, 30, 0): 8 vertices, 24 convex corners at cos 45°, 12 flat, recentred', () => {
    const { shape, centre, stats } = one(box());
    expect(centre).toEqual([20, 30, 0]);
    expect(shape.min).toEqual([-0.5, -1, -1.5]);
    expect(shape.max).toEqual([0.5, 1, 1.5]);
    expect(shape.vertices.length / 3).toBe(8);
    expect(shape.cornerVertices.length).toBe(36);
    expect(shape.tree.length / 2).toBe(11);
    expect(classes(shape)).toEqual({ plain: 0, flat: 12, concave: 0, convex: 24 });
    for (let c = 0; c < 36; c++) if (!bit(shape.flatBits, c)) expect(shape.edgeValues[c]).toBe(COS45_F32);
    expect(stats).toMatchObject({ inputTriangles: 12, weldedVertices: 8, faces: 12, degenerateDropped: 0, duplicatesDropped: 0, shapes: 1, openEdges: 0 });
    expect(stats.edges).toEqual({ flat: 12, concave: 0, convex: 24, open: 0, concaveSharp: 0 });
    // Every vertex is in 3 faces of a cube corner split into triangles: 4 to 6 corners; CSR covers all 36 corners.
    expect(shape.vertexCornerOffsets[8]).toBe(36);
    const seen = new Set(shape.cornerIdsByVertex);
    expect(seen.size).toBe(36);
    for (let v = 0; v < 8; v++)
      for (let k = shape.vertexCornerOffsets[v]; k < shape.vertexCornerOffsets[v + 1]; k++) expect(shape.cornerVertices[shape.cornerIdsByVertex[k]]).toBe(v);
    expect(shape.planeNormals.length).toBe(0); // kind-5 meshes carry no face planes
  });

  it('flat grids: interior edges flat, border edges 1.0 with no bits', () => {
    const { shape, stats } = one(flatGrid(4, 3));
    // 4×3 cells: 24 faces, 72 corners; border edges = 2·(4+3) = 14; interior edge pairs: 72 − 14 = 58 corners.
    expect(classes(shape)).toEqual({ plain: 14, flat: 58, concave: 0, convex: 0 });
    expect(stats.edges.open).toBe(14);
    expect(stats.edges.flat).toBe(58);
  });

  it('a shallow concave step sets concave bits with value 1.0; a 90° channel stores neither bit', () => {
    // Floor then a 20° ramp going up +X: the crease is concave (neighbour above), d = cos 20° > 0.
    const t = Math.tan((20 * Math.PI) / 180);
    const pos = new Float32Array([0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 2, t, 0, 2, t, 1]);
    const idx = new Uint32Array([0, 3, 2, 0, 2, 1, 1, 2, 5, 1, 5, 4]);
    const { shape, stats } = one({ positions: pos, indices: idx });
    expect(stats.edges.concave).toBe(2);
    const c = classes(shape);
    expect(c.concave).toBe(2);
    for (let k = 0; k < 12; k++) if (bit(shape.concaveBits, k)) expect(shape.edgeValues[k]).toBe(1);
    const l = one(channelL());
    expect(l.stats.edges.concaveSharp).toBeGreaterThan(0);
    expect(classes(l.shape).concave).toBe(0);
    expect(one(quarterPipe()).stats.edges.concave).toBeGreaterThan(0);
  });

  it('a seam-split mesh encodes to the same shape as the pre-welded one', () => {
    expect(one(seamSplitBox()).shape).toEqual(one(box()).shape);
    const split = one(seamSplitGrid());
    expect(split.stats.edges.open).toBe(one(FIXTURES['seam-split-grid']()).stats.edges.open);
    expect(split.stats.weldedVertices).toBeLessThan(FIXTURES['seam-split-grid']().positions.length / 3);
  });

  it('a large split-vertex mesh encodes like its indexed form', () => {
    // 100,352 triangles, every corner its own vertex (301,056, a probe table of 2^20 slots): welded in first-use
    // order it must give the indexed grid's shapes exactly.
    const g = bumpyGrid(100_352, 3);
    const positions = new Float32Array(3 * g.indices.length);
    for (let c = 0; c < g.indices.length; c++) positions.set(g.positions.subarray(3 * g.indices[c], 3 * g.indices[c] + 3), 3 * c);
    const soup = encodeMeshShapes(positions, Uint32Array.from(g.indices.keys()));
    const indexed = encodeMeshShapes(g.positions, g.indices);
    expect(soup.stats).toEqual({ ...indexed.stats });
    expect(soup.pieces.length).toBe(indexed.pieces.length);
    // Byte comparison (toEqual over these arrays takes seconds).
    const bytes = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    soup.pieces.forEach((p, i) => {
      const q = indexed.pieces[i];
      expect(p.centre).toEqual(q.centre);
      for (const [k, v] of Object.entries(p.shape)) {
        const w = q.shape[k as keyof ShapeRecord];
        if (ArrayBuffer.isView(v)) expect(bytes(v).equals(bytes(w as ArrayBufferView)), k).toBe(true);
        else expect(v).toEqual(w);
      }
    });
  });

  it('degenerate and duplicate triangles are counted, dropped, and never give NaN', () => {
    const m = degenerateMesh();
    const { shape, stats } = one(m);
    expect(stats.inputTriangles).toBe(m.indices.length / 3);
    expect(stats.degenerateDropped).toBeGreaterThan(0);
    expect(stats.duplicatesDropped).toBeGreaterThan(0);
    expect(stats.faces).toBe(stats.inputTriangles - stats.degenerateDropped - stats.duplicatesDropped);
    for (const x of [...shape.vertices, ...shape.edgeValues, ...shape.min, ...shape.max]) expect(Number.isFinite(x)).toBe(true);
  });

  it('a fan around one hub (valence past HUB_VALENCE): interior edges paired, rim open; a second sheet on the hub breaks pairing', () => {
    const n = 500;
    const pos = [0, 0, 0];
    for (let i = 0; i < n; i++) pos.push(Math.cos((2 * Math.PI * i) / n) * 10, (i % 3) * 0.01, Math.sin((2 * Math.PI * i) / n) * 10);
    const idx: number[] = [];
    for (let i = 0; i < n; i++) idx.push(0, 1 + ((i + 1) % n), 1 + i);
    const disk = one({ positions: new Float32Array(pos), indices: new Uint32Array(idx) });
    expect(disk.stats.openEdges).toBe(n); // the rim; every spoke is paired
    // Two more triangles on spoke 0–1, one each way round: each direction is now held twice, so it is not paired.
    pos.push(0, -3, 0);
    idx.push(0, 1, n + 1, 1, 0, n + 1);
    const sheet = one({ positions: new Float32Array(pos), indices: new Uint32Array(idx) });
    expect(sheet.stats.openEdges).toBeGreaterThan(n);
  });

  it('only degenerate triangles: no shape', () => {
    const r = encodeMeshShapes(new Float32Array([0, 0, 0, 1, 0, 0, 2, 0, 0]), new Uint32Array([0, 1, 2, 0, 0, 1]));
    expect(r.pieces).toHaveLength(0);
    expect(r.stats).toMatchObject({ degenerateDropped: 2, shapes: 0, faces: 0 });
  });

  it('bad input is an error naming the triangle and the numbers', () => {
    expect(() => encodeMeshShapes(new Float32Array(9), new Uint32Array([0, 1, 3]))).toThrow(/triangle 0: index 3 ≥ vertex count 3/);
    expect(() => encodeMeshShapes(new Float32Array([0, 0, NaN, 1, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 2]))).toThrow(/not finite/);
    expect(() => encodeMeshShapes(new Float64Array([0, 0, 1e300, 1, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 2]))).toThrow(/not finite in f32/);
  });

  it('names the first index past the vertices, before any non-finite vertex', () => {
    const pos = new Float32Array([NaN, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(() => encodeMeshShapes(pos, new Uint32Array([0, 1, 2, 2, 1, 0, 1, 7, 2, 9, 0, 1]))).toThrow(/^weld: triangle 2: index 7 ≥ vertex count 3$/);
    expect(() => encodeMeshShapes(pos, new Uint32Array([1, 2, 0, 0xffffffff, 1, 2]))).toThrow(/^weld: triangle 1: index 4294967295 ≥ vertex count 3$/);
    expect(() => encodeMeshShapes(pos, new Uint32Array([1, 2, 0]))).toThrow(/not finite/);
  });
});

describe('encodeMeshShapes: tree', () => {
  it.each([3, 5, 7, 1000, 2048, 21845])('bumpy grid of %i faces: every face inside the box of its leaf', (n) => {
    const { shape, stats } = one(bumpyGrid(n));
    expect(shape.faceOffsets.length - 1).toBe(n);
    expect(shape.tree.length / 2).toBe(n - 1);
    expect(facesOutsideLeaves(shape)).toEqual([]);
    expect(stats.maxTreeDepth).toBe(Math.ceil(Math.log2(n)));
  });

  it('a random soup (swaps and min-x fallbacks exercised): every face inside its leaf box', () => {
    const r = FIXTURES['split-vertices-soup']();
    const m = { positions: r.positions, indices: r.indices.slice(0, 3 * 4000) };
    expect(facesOutsideLeaves(one(m).shape)).toEqual([]);
  });
});

describe('encodeMeshShapes: u16 limits', () => {
  it('30,000 faces split into spatially compact shapes within the limits, every face kept', () => {
    const m = FIXTURES['split-faces-30000']();
    const r = encodeMeshShapes(m.positions, m.indices);
    expect(r.stats.shapes).toBe(2);
    expect(r.pieces.reduce((n, p) => n + p.shape.faceOffsets.length - 1, 0)).toBe(30000);
    for (const p of r.pieces) {
      expect(p.shape.faceOffsets.length - 1).toBeLessThanOrEqual(21845);
      expect(p.shape.vertices.length / 3).toBeLessThanOrEqual(65535);
      expect(facesOutsideLeaves(p.shape)).toEqual([]);
    }
    // Spatial: the two pieces' boxes (world space) overlap by at most a cell along the split axis.
    const lo = (p: (typeof r.pieces)[0], a: number) => p.centre[a] + p.shape.min[a];
    const hi = (p: (typeof r.pieces)[0], a: number) => p.centre[a] + p.shape.max[a];
    const [p, q] = r.pieces;
    const overlap = [0, 2].map((a) => Math.min(hi(p, a), hi(q, a)) - Math.max(lo(p, a), lo(q, a)));
    expect(Math.min(...overlap)).toBeLessThanOrEqual(1.01);
  });

  it("66,000 vertices in 22,000 disconnected triangles: each shape ≤ 65,535 vertices and ≤ 21,845 faces", () => {
    const m = FIXTURES['split-vertices-soup']();
    const r = encodeMeshShapes(m.positions, m.indices);
    expect(r.stats.shapes).toBe(2);
    for (const p of r.pieces) {
      expect(p.shape.vertices.length / 3).toBeLessThanOrEqual(65535);
      expect(p.shape.faceOffsets.length - 1).toBeLessThanOrEqual(21845);
    }
  });

  it("'sequential' split: consecutive runs of maxFaces welded triangles", () => {
    const m = bumpyGrid(1000);
    const r = encodeMeshShapes(m.positions, m.indices, { maxFaces: 300, split: 'sequential' });
    expect(r.pieces.map((p) => p.shape.faceOffsets.length - 1)).toEqual([300, 300, 300, 100]);
    // A prefix of the welded list is welded the same on its own: the first piece is the first 300 triangles' shape.
    const first = encodeMeshShapes(m.positions, m.indices.slice(0, 900));
    expect(r.pieces[0]).toEqual(first.pieces[0]);
  });

  it('maxFaces outside 1…21,845 is refused', () => {
    const m = box();
    expect(() => encodeMeshShapes(m.positions, m.indices, { maxFaces: 30000 })).toThrow(/maxFaces 30000/);
  });
});

describe('encodeMeshShapes: determinism', () => {
  it('encoding twice gives identical shapes; Float64Array input equals Float32Array input', () => {
    const m = concat(bumpyGrid(2048, 3), translate(box(), [5, 0, 5]));
    const a = encodeMeshShapes(m.positions, m.indices);
    const b = encodeMeshShapes(m.positions, m.indices);
    expect(b).toEqual(a);
    const c = encodeMeshShapes(Float64Array.from(m.positions), m.indices);
    expect(c).toEqual(a);
  });
});
