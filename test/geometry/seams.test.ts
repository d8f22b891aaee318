// Level-wide edge data (src/geometry/seams.ts): a mesh cut by the compiler — into cells, by the u16 split, by
// material, into objects — must carry at every cut corner the edge value and bits the same mesh gets uncut, and
// leave open only what is open in the level. Meshes here use small dyadic coordinates, so recentring is exact and
// the shape's values (computed on recentred f32 vertices) and the level's (on world positions) agree bit for bit.
// Each cut piece is encoded on its own (the shape rule), its open corners matched over all pieces (matchSeams), and
// the codes stored into the pieces' shapes as the build stores them into the files.
import { describe, expect, it } from 'vitest';
import { encodeMeshShapes, type EncodedPiece } from '../../src/geometry/encode.ts';
import { carrySeamValues, matchSeams, SEAM_CARRY_ULPS, seamEdge } from '../../src/geometry/seams.ts';
import { classifyEdge, convexValue, EDGE_CONCAVE, EDGE_CONVEX, EDGE_FLAT, SEAM_NONE } from '../../src/geometry/edge-rule.ts';
import { GOLDEN_CASES, objectMesh } from '../golden/cases.ts';
import type { Mesh } from '../fixtures/meshes.ts';

type Edge = { value: number; concave: boolean; flat: boolean };

/** Every written corner of the pieces by its directed edge in world positions. */
function edgeMap(pieces: EncodedPiece[]): Map<string, Edge> {
  const out = new Map<string, Edge>();
  for (const { shape, centre } of pieces) {
    const v = (i: number): string => [0, 1, 2].map((k) => shape.vertices[3 * i + k] + centre[k]).join(',');
    const nc = shape.cornerVertices.length;
    for (let c = 0; c < nc; c++) {
      const next = c % 3 === 2 ? c - 2 : c + 1;
      const key = `${v(shape.cornerVertices[c])}>${v(shape.cornerVertices[next])}`;
      if (out.has(key)) throw new Error(`edge ${key} written twice`);
      out.set(key, {
        value: shape.edgeValues[c],
        concave: ((shape.concaveBits[c >> 3] >> (c & 7)) & 1) === 1,
        flat: ((shape.flatBits[c >> 3] >> (c & 7)) & 1) === 1,
      });
    }
  }
  return out;
}

const openCount = (m: Map<string, Edge>): number => [...m.values()].filter((e) => e.value === 1 && !e.concave && !e.flat).length;

/**
 * The uncut rule written out plainly (independent of the wasm): faces welded by position, a directed edge paired
 * when it and its reverse are each held once, Newell normals and the above test on world positions (f64).
 */
function oracle(m: Mesh): Map<string, Edge> {
  const p = (i: number): [number, number, number] => [m.positions[3 * i], m.positions[3 * i + 1], m.positions[3 * i + 2]];
  const key = (i: number): string => p(i).join(',');
  const faces: [number, number, number][] = [];
  for (let t = 0; t < m.indices.length / 3; t++) faces.push([m.indices[3 * t], m.indices[3 * t + 1], m.indices[3 * t + 2]]);
  const held = new Map<string, number[]>();
  faces.forEach((f, i) => [0, 1, 2].forEach((k) => {
    const e = `${key(f[k])}>${key(f[(k + 1) % 3])}`;
    held.set(e, [...(held.get(e) ?? []), i]);
  }));
  const normal = (f: [number, number, number]): number[] => {
    const [a, b, c] = f.map(p);
    let nx = 0, ny = 0, nz = 0;
    for (const [u, w] of [[a, b], [b, c], [c, a]]) {
      nx += (u[1] - w[1]) * (u[2] + w[2]); ny += (u[2] - w[2]) * (u[0] + w[0]); nz += (u[0] - w[0]) * (u[1] + w[1]);
    }
    const l = Math.hypot(nx, ny, nz);
    return [nx / l, ny / l, nz / l];
  };
  const centroid = (f: [number, number, number]): number[] => [0, 1, 2].map((k) => (p(f[0])[k] + p(f[1])[k] + p(f[2])[k]) / 3);
  const out = new Map<string, Edge>();
  faces.forEach((f, i) => [0, 1, 2].forEach((k) => {
    const e = `${key(f[k])}>${key(f[(k + 1) % 3])}`, r = `${key(f[(k + 1) % 3])}>${key(f[k])}`;
    const mine = held.get(e)!, theirs = held.get(r);
    if (mine.length !== 1 || theirs?.length !== 1) return void out.set(e, { value: 1, concave: false, flat: false });
    const g = faces[theirs[0]];
    const n1 = normal(f), n2 = normal(g), c2 = centroid(g), v = p(f[k]);
    const d = Math.max(-1, n1[0] * n2[0] + n1[1] * n2[1] + n1[2] * n2[2]);
    const above = (c2[0] - v[0]) * n1[0] + (c2[1] - v[1]) * n1[1] + (c2[2] - v[2]) * n1[2] >= 0;
    const cls = classifyEdge(d, above);
    out.set(e, { value: cls === EDGE_CONVEX ? convexValue(d) : 1, concave: cls === EDGE_CONCAVE, flat: cls === EDGE_FLAT });
  }));
  return out;
}

/** A height field of n × m quads of `cell` metres from `origin`, heights h(i, j) (dyadic in the tests). */
function terrain(n: number, m: number, cell: number, origin: [number, number, number], h: (i: number, j: number) => number): Mesh {
  const positions = new Float32Array((n + 1) * (m + 1) * 3);
  for (let j = 0; j <= m; j++) for (let i = 0; i <= n; i++) positions.set([origin[0] + i * cell, origin[1] + h(i, j), origin[2] + j * cell], 3 * (j * (n + 1) + i));
  const indices = new Uint32Array(n * m * 6);
  for (let j = 0, w = 0; j < m; j++) {
    for (let i = 0; i < n; i++, w += 6) {
      const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      indices.set((i + j) % 2 ? [a, c, b, b, c, d] : [a, c, d, a, d, b], w);
    }
  }
  return { positions, indices };
}

/** Heights with valleys, ridges and a fold: multiples of 1/16 m. */
const bent = (i: number, j: number): number => (Math.abs(i - 5) + ((i * 7 + j * 13) % 5)) / 16;

/** Triangles of m whose centroid passes the test, as their own mesh (the whole vertex array kept). */
function part(m: Mesh, keep: (cx: number, cz: number) => boolean): Mesh {
  const out: number[] = [];
  for (let t = 0; t < m.indices.length / 3; t++) {
    const ids = [0, 1, 2].map((k) => m.indices[3 * t + k]);
    const cx = ids.reduce((s, i) => s + m.positions[3 * i], 0) / 3, cz = ids.reduce((s, i) => s + m.positions[3 * i + 2], 0) / 3;
    if (keep(cx, cz)) out.push(...ids);
  }
  return { positions: m.positions, indices: Uint32Array.from(out) };
}

/** Stores codes into a piece's shape arrays (as src/tiling/seams.ts applySeams does into a file's bytes). */
function applyCodes(p: EncodedPiece, codes: Float32Array): void {
  p.open.corner.forEach((c, i) => {
    const e = seamEdge(codes[i]), bit = 1 << (c & 7);
    p.shape.edgeValues[c] = e.value;
    p.shape.concaveBits[c >> 3] = e.concave ? p.shape.concaveBits[c >> 3] | bit : p.shape.concaveBits[c >> 3] & ~bit;
    p.shape.flatBits[c >> 3] = e.flat ? p.shape.flatBits[c >> 3] | bit : p.shape.flatBits[c >> 3] & ~bit;
  });
}

/**
 * Encodes every group of every mesh on its own (objects[i] = its material groups), matches the pieces' open corners
 * over all of them and stores the codes. open: corners left open after (counted on the shapes); authored: the
 * match's count.
 */
function encodeLevel(meshes: Mesh[][], options: { maxFaces?: number } = {}): { pieces: EncodedPiece[]; joined: number; open: number; authored: number } {
  const encoded = meshes.flatMap((groups) => groups.map((g) => encodeMeshShapes(g.positions, g.indices, options)));
  const pieces = encoded.flatMap((e) => e.pieces);
  const m = matchSeams(pieces.map((p) => p.open));
  pieces.forEach((p, i) => applyCodes(p, m.codes[i]));
  const joined = m.codes.reduce((n, c) => n + c.filter((x) => x !== SEAM_NONE).length, 0);
  expect(joined).toBe(m.joined);
  return { pieces, joined, open: encoded.reduce((n, e) => n + e.stats.openEdges, 0) - joined, authored: m.openCorners };
}

describe('level-wide edge data', () => {
  it('a flat grid cut into 4 cells has no open corner at the cuts', () => {
    const grid = terrain(8, 8, 1, [-4, 0, -4], () => 0);
    const cells = [[-1, -1], [-1, 1], [1, -1], [1, 1]].map(([sx, sz]) => part(grid, (x, z) => Math.sign(x) === sx && Math.sign(z) === sz));
    const r = encodeLevel(cells.map((c) => [c]));
    expect(r.authored).toBe(32); // the grid's border: 8 quads a side
    expect(r.open).toBe(32);
    expect(r.joined).toBe(2 * (8 + 8));
    expect(edgeMap(r.pieces)).toEqual(edgeMap(encodeMeshShapes(grid.positions, grid.indices).pieces));
    // Without the codes the cuts are open.
    const shapeWise = cells.reduce((n, c) => n + encodeMeshShapes(c.positions, c.indices).stats.openEdges, 0);
    expect(shapeWise).toBe(32 + 32);
  });

  it('a bent terrain across a cell border: every corner equals the uncut encoding and the plain rule', () => {
    const t = terrain(10, 6, 1, [-5, 1, 2], bent);
    const uncut = edgeMap(encodeMeshShapes(t.positions, t.indices).pieces);
    expect(uncut).toEqual(oracle(t));
    const r = encodeLevel([[part(t, (x) => x < 0)], [part(t, (x) => x >= 0)]]);
    const cut = edgeMap(r.pieces);
    expect(cut).toEqual(uncut);
    expect(r.joined).toBe(12); // 6 quads along the border, both sides
    // The border carries real classes, not only flat ones.
    const classes = new Set([...cut.values()].map((e) => (e.flat ? 'flat' : e.concave ? 'concave' : e.value < 1 ? 'convex' : 'open')));
    expect([...classes].sort()).toEqual(['concave', 'convex', 'flat', 'open']);
  });

  it('a 30,000-face mesh split in two by the u16 limit: every corner as the plain rule gives it', () => {
    const t = terrain(150, 100, 1, [-75, 0, -50], bent);
    const r = encodeLevel([[t]]);
    expect(r.pieces.length).toBe(2);
    expect(r.joined).toBeGreaterThan(100);
    expect(r.open).toBe(r.authored);
    expect(r.authored).toBe(2 * (150 + 100));
    expect(edgeMap(r.pieces)).toEqual(oracle(t));
    const shapeWise = encodeMeshShapes(t.positions, t.indices);
    expect(shapeWise.stats.openEdges).toBe(r.authored + r.joined);
  });

  it('an object with two materials joins its parts', () => {
    const t = terrain(6, 6, 1, [0, 0, 0], bent);
    const a = part(t, (x, z) => x + z < 6), b = part(t, (x, z) => x + z >= 6);
    const r = encodeLevel([[a, b]]);
    expect(r.joined).toBeGreaterThan(0);
    expect(r.open).toBe(r.authored);
    expect(edgeMap(r.pieces)).toEqual(oracle(t));
  });

  it('two objects sharing an edge by position (their own vertex arrays) are joined', () => {
    const left = terrain(4, 4, 1, [0, 0, 0], bent);
    const right = terrain(4, 4, 1, [4, 0, 0], (i, j) => bent(i + 4, j));
    const whole = terrain(8, 4, 1, [0, 0, 0], bent);
    const r = encodeLevel([[left], [right]]);
    expect(r.joined).toBe(8);
    expect(r.open).toBe(r.authored);
    expect(r.authored).toBe(2 * (8 + 4));
    expect(edgeMap(r.pieces)).toEqual(oracle(whole));
  });

  it('objects that touch only at a vertex, or overlap face to face, are unchanged', () => {
    const a = terrain(3, 3, 1, [0, 0, 0], bent);
    const corner = terrain(3, 3, 1, [3, 0, 3], bent); // shares the point (3, y, 3) only
    const copy = terrain(3, 3, 1, [0, 0, 0], bent); // the same faces again (same winding)
    const flipped: Mesh = { positions: copy.positions, indices: copy.indices.map((_, i, x) => x[i - (i % 3) + [0, 2, 1][i % 3]]) }; // back to back
    for (const other of [corner, copy, flipped]) {
      const r = encodeLevel([[a], [other]]);
      const alone = [a, other].flatMap((m) => encodeMeshShapes(m.positions, m.indices).pieces);
      expect(r.pieces).toEqual(alone);
      expect(r.open).toBe(r.authored);
      expect(r.joined).toBe(0);
    }
    // Back to back, the two borders hold each other's reverse edges: not paired across objects (faces that are
    // each other's reverse), so both borders stay open as authored.
    expect(encodeLevel([[a], [flipped]]).authored).toBe(2 * 12);
  });

  it('mirrored winding across objects: same-direction edges are not paired', () => {
    const left = terrain(4, 4, 1, [0, 0, 0], bent);
    const r0 = terrain(4, 4, 1, [4, 0, 0], (i, j) => bent(i + 4, j));
    const mirrored: Mesh = { positions: r0.positions, indices: r0.indices.map((_, i, x) => x[i - (i % 3) + [0, 2, 1][i % 3]]) };
    const r = encodeLevel([[left], [mirrored]]);
    expect(r.joined).toBe(0);
    expect(r.pieces).toEqual([left, mirrored].flatMap((m) => encodeMeshShapes(m.positions, m.indices).pieces));
    expect(r.authored).toBe(2 * 2 * (4 + 4));
  });

  it('a single unsplit single-material object encodes to the same shapes in both modes (the goldens\u2019 meshes)', () => {
    const objects = GOLDEN_CASES.flatMap((c) => c.objects).filter((o) => o.fixture !== 'split-faces-30000');
    expect(objects.length).toBeGreaterThan(30);
    for (const o of objects) {
      const m = objectMesh(o);
      const level = encodeLevel([[m]]);
      const shape = encodeMeshShapes(m.positions, m.indices);
      expect(level.pieces, o.fixture).toEqual(shape.pieces);
      expect(level.joined, o.fixture).toBe(0);
    }
  });

  it('a shape lists exactly its unpaired corners; past maxFaces the split pieces join all but the level\u2019s border', () => {
    const t = terrain(4, 4, 1, [0, 0, 0], bent);
    const one = encodeMeshShapes(t.positions, t.indices);
    expect(one.pieces.length).toBe(1);
    expect(one.pieces[0].open.corner.length).toBe(one.stats.openEdges);
    expect(matchSeams(one.pieces.map((p) => p.open))).toMatchObject({ openCorners: 16, joined: 0 });
    const split = encodeLevel([[t]], { maxFaces: 8 });
    expect(split.pieces.length).toBe(4);
    expect(split.authored).toBe(16);
    expect(split.open).toBe(16);
    expect(split.joined).toBe(encodeMeshShapes(t.positions, t.indices, { maxFaces: 8 }).stats.openEdges - 16);
    expect(edgeMap(split.pieces)).toEqual(oracle(t));
  });

  it('an open corner\u2019s points are its edge and third vertex in world space; a malformed list is refused', () => {
    const t = terrain(1, 1, 1, [2, 3, 4], () => 0);
    const p = encodeMeshShapes(t.positions, t.indices).pieces[0];
    expect(p.open.corner.length).toBe(4);
    for (let i = 0; i < 4; i++) {
      const c = p.open.corner[i], next = c % 3 === 2 ? c - 2 : c + 1;
      const world = (v: number): number[] => [0, 1, 2].map((k) => p.shape.vertices[3 * v + k] + p.centre[k]);
      expect([...p.open.points.subarray(9 * i, 9 * i + 3)]).toEqual(world(p.shape.cornerVertices[c]));
      expect([...p.open.points.subarray(9 * i + 3, 9 * i + 6)]).toEqual(world(p.shape.cornerVertices[next]));
    }
    expect(() => matchSeams([{ corner: new Uint32Array(2), points: new Float32Array(9) }])).toThrow('seams: 9 point values for 2 corners');
  });
});

describe('the match in buckets (big levels: matchSeams past MATCH_BUCKET_CORNERS)', () => {
  it('gives every corner the code, and the counts, of one call over all of them', () => {
    // Triangles on a small lattice (many shared edges, some held 3+ times, back-to-back pairs, −0.0 against 0.0),
    // each corner listed, the lists cut at random.
    let seed = 7;
    const rnd = (): number => ((seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
    const v = (): number[] => [Math.floor(rnd() * 5), rnd() < 0.5 ? (rnd() < 0.5 ? -0 : 0) : Math.floor(rnd() * 3), Math.floor(rnd() * 5)];
    const tris: number[][][] = [];
    for (let t = 0; t < 1200; t++) {
      const [a, b, c] = [v(), v(), v()];
      if (a.join() === b.join() || b.join() === c.join() || a.join() === c.join()) continue;
      tris.push([a, b, c]);
      if (rnd() < 0.1) tris.push([b, a, c]); // back to back: never paired
    }
    const corners = tris.flatMap(([a, b, c]) => [[...a, ...b, ...c], [...b, ...c, ...a], [...c, ...a, ...b]]);
    const lists: { corner: Uint32Array; points: Float32Array }[] = [];
    for (let at = 0; at < corners.length;) {
      const n = Math.min(corners.length - at, 1 + Math.floor(rnd() * 40));
      lists.push({ corner: Uint32Array.from({ length: n }, (_, i) => i), points: Float32Array.from(corners.slice(at, at + n).flat()) });
      at += n;
    }
    const one = matchSeams(lists, undefined, Infinity);
    expect(one.joined).toBeGreaterThan(100);
    expect(one.openCorners).toBeGreaterThan(100);
    for (const bucket of [1, 5, 64, 1000]) {
      const m = matchSeams(lists, undefined, bucket);
      expect([m.joined, m.openCorners], `bucket ${bucket}`).toEqual([one.joined, one.openCorners]);
      m.codes.forEach((c, i) => expect(Buffer.from(c.buffer, c.byteOffset, c.byteLength).equals(Buffer.from(one.codes[i].buffer, one.codes[i].byteOffset, one.codes[i].byteLength)), `bucket ${bucket} list ${i}`).toBe(true));
    }
  });
});

describe('carried seam values (a round trip: src/geometry/seams.ts carrySeamValues)', () => {
  // Two triangles folded 45° down along x (a ridge, convex), each its own piece: the cut joins them with a convex value.
  const s = Math.SQRT1_2;
  const pieceA = encodeMeshShapes(Float32Array.of(0, 0, 0, 1, 0, 0, 0.5, 0, -1), Uint32Array.of(0, 1, 2)).pieces[0];
  const pieceB = encodeMeshShapes(Float32Array.of(1, 0, 0, 0, 0, 0, 0.5, -s, s), Uint32Array.of(0, 1, 2)).pieces[0];
  const lists = [pieceA.open, pieceB.open];
  const matched = () => matchSeams(lists).codes.map((c) => c.slice());
  const cornerOn = (l: number, a: number[], b: number[]) => {
    const p = lists[l].points;
    for (let i = 0; i < lists[l].corner.length; i++) if ([0, 1, 2].every((k) => p[9 * i + k] === a[k] && p[9 * i + 3 + k] === b[k])) return i;
    throw new Error('no such corner');
  };
  const up = (v: number, n: number) => {
    const f = new Float32Array([v]), u = new Uint32Array(f.buffer);
    u[0] += n;
    return f[0];
  };

  it('a joined corner takes the value carried for its edge within SEAM_CARRY_ULPS, and only that corner', () => {
    const codes = matched();
    const i = cornerOn(0, [0, 0, 0], [1, 0, 0]), j = cornerOn(1, [1, 0, 0], [0, 0, 0]);
    const v = codes[0][i];
    expect(v).toBeGreaterThanOrEqual(0);
    const want = up(v, 90);
    expect(carrySeamValues(lists, codes, [0, 0, 0, 1, 0, 0, want])).toBe(1);
    expect(codes[0][i]).toBe(want);
    expect(codes[1][j]).toBe(matched()[1][j]);
    // −0.0 in the carried edge is the same point as 0.0.
    const again = matched();
    expect(carrySeamValues(lists, again, [-0, 0, -0, 1, -0, 0, want])).toBe(1);
  });

  it('must not fire: a value further than SEAM_CARRY_ULPS (an edited join), another edge, or a corner that is not a convex join', () => {
    const i = cornerOn(0, [0, 0, 0], [1, 0, 0]);
    const codes = matched();
    const v = codes[0][i];
    expect(carrySeamValues(lists, codes, [0, 0, 0, 1, 0, 0, up(v, SEAM_CARRY_ULPS + 1)])).toBe(0);
    expect(carrySeamValues(lists, codes, [0, 0, 0, 1, 0, 1e-6, up(v, 2)])).toBe(0);
    expect(codes[0][i]).toBe(v);
    // The reverse edge b → a is the corner across the cut, not this one.
    const j = cornerOn(1, [1, 0, 0], [0, 0, 0]);
    expect(carrySeamValues(lists, codes, [1, 0, 0, 0, 0, 0, up(codes[1][j], 2)])).toBe(1);
    expect(codes[0][i]).toBe(v);
    // An open corner (SEAM_NONE) or a class code never takes a carried value.
    const open = matched();
    const k = cornerOn(0, [1, 0, 0], [0.5, 0, -1]);
    expect(open[0][k]).toBe(SEAM_NONE);
    expect(carrySeamValues(lists, open, [1, 0, 0, 0.5, 0, -1, 0.5])).toBe(0);
    expect(open[0][k]).toBe(SEAM_NONE);
  });
});
