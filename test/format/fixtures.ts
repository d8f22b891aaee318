// Hand-laid PhysicsResources for the codec tests, written field by field with the byte Writer (not through
// writePhysicsResource), in the reference encoder's layout as observed (test/format/reference/, docs/format-decisions.md):
// header, body, shape table, part table, then arrays grouped across shapes. An independent second statement of
// the layout: the reader must decode these and the writer must reproduce them.
import { Writer, alignUp } from '../../src/format/cursor.ts';
import { encodeNormal } from '../../src/format/plane.ts';

export interface HandEdge {
  value: number;
  concave?: boolean;
  flat?: boolean;
}

export interface HandShape {
  min: [number, number, number];
  max: [number, number, number];
  vertices: [number, number, number][];
  faces: number[][];
  edges?: HandEdge[];
  /** u64 nodes as [lo, hi]. */
  tree?: [number, number][];
  planes?: { normal: [number, number, number]; offset: number }[];
}

export interface HandPart {
  kind: number;
  shape: number;
  position: [number, number, number];
  ids: [number, number, number];
  material: number;
}

export interface HandResource {
  word08: number;
  body: Uint8Array;
  shapes: HandShape[];
  parts: HandPart[];
}

/** Field positions this file writes at (asserted against the codec's tables in the size test). */
export const HAND = { header: 0x38, shape: 0x54, part: 72, offsetsInShape: 0x24 } as const;

interface Arr {
  shape: number;
  slot: number;
  bytes: number;
  align: number;
  emit: (w: Writer) => void;
}

/** The arrays of each shape in the reference's order and alignment. */
function arrays(shapes: HandShape[]): Arr[][] {
  const groups: Arr[][] = [[], [], [], [], [], [], [], []];
  shapes.forEach((s, i) => {
    const corners = s.faces.flat();
    const nV = s.vertices.length;
    // CSR vertex -> corners: count, prefix-sum, fill (corners in ascending order per vertex).
    const offsets = new Array<number>(nV + 1).fill(0);
    for (const v of corners) offsets[v + 1]++;
    for (let v = 0; v < nV; v++) offsets[v + 1] += offsets[v];
    const next = offsets.slice();
    const ids = new Array<number>(corners.length);
    corners.forEach((v, c) => (ids[next[v]++] = c));
    const faceOffsets = [0];
    for (const f of s.faces) faceOffsets.push(faceOffsets[faceOffsets.length - 1] + f.length);
    const u16s = (xs: number[]) => (w: Writer) => xs.forEach((x) => w.u16(x));
    const bits = (pick: (e: HandEdge) => boolean | undefined) => (w: Writer) => {
      for (let word = 0; word < Math.ceil(corners.length / 32); word++) {
        let v = 0;
        for (let b = 0; b < 32; b++) if (s.edges![word * 32 + b] && pick(s.edges![word * 32 + b])) v |= 1 << b;
        w.u32(v >>> 0);
      }
    };
    const bitBytes = 4 * Math.ceil(corners.length / 32);
    groups[0].push({ shape: i, slot: 0, bytes: 12 * nV, align: 4, emit: (w) => s.vertices.flat().forEach((x) => w.f32(x)) });
    groups[1].push({ shape: i, slot: 1, bytes: 2 * (nV + 1), align: 2, emit: u16s(offsets) });
    groups[2].push({ shape: i, slot: 2, bytes: 2 * ids.length, align: 2, emit: u16s(ids) });
    groups[3].push({ shape: i, slot: 3, bytes: 2 * corners.length, align: 2, emit: u16s(corners) });
    if (s.edges) {
      groups[4].push({ shape: i, slot: 4, bytes: 4 * corners.length, align: 4, emit: (w) => s.edges!.forEach((e) => w.f32(e.value)) });
      groups[4].push({ shape: i, slot: 5, bytes: bitBytes, align: 4, emit: bits((e) => e.concave) });
      groups[4].push({ shape: i, slot: 6, bytes: bitBytes, align: 4, emit: bits((e) => e.flat) });
    }
    groups[5].push({ shape: i, slot: 7, bytes: 2 * faceOffsets.length, align: 2, emit: u16s(faceOffsets) });
    if (s.planes) {
      const emit = (w: Writer) =>
        s.planes!.forEach((p) => {
          const [u, v] = encodeNormal(...p.normal);
          w.i16(u).i16(v).f32(p.offset);
        });
      groups[6].push({ shape: i, slot: 10, bytes: 8 * s.planes.length, align: 4, emit });
    }
    if (s.tree?.length) {
      groups[7].push({ shape: i, slot: 11, bytes: 8 * s.tree.length, align: 8, emit: (w) => s.tree!.forEach(([lo, hi]) => w.u32(lo).u32(hi)) });
    }
  });
  return groups;
}

/** Lays `r` out byte by byte. */
export function layResource(r: HandResource): Uint8Array {
  const shapeTable = HAND.header + r.body.length;
  const partTable = shapeTable + HAND.shape * r.shapes.length;
  let pos = partTable + HAND.part * r.parts.length;
  const groups = arrays(r.shapes);
  const at = new Map<string, number>();
  let planeTail = 0;
  groups.forEach((g, gi) => {
    if (gi === 7 && g.length) pos = alignUp(pos, 8);
    for (const a of g) {
      pos = alignUp(pos, a.align);
      at.set(`${a.shape}/${a.slot}`, pos);
      pos += a.bytes;
    }
    if (gi === 6 && g.length) planeTail = pos + 56;
  });
  const size = Math.max(pos + (groups[7].length ? 8 : 0), planeTail);
  const w = new Writer(size, 'fixture');
  w.u32(2).u32(0x69af7015).u32(r.word08).u32(r.parts.length).u32(0).u32(0).u32(r.shapes.length).u32(0).u32(0);
  w.u32(HAND.header - 0x24).u32(shapeTable - 0x28).u32(partTable - 0x2c).u32(partTable - 0x30);
  w.u32(partTable + HAND.part * r.parts.length - 0x34);
  w.raw(r.body);
  r.shapes.forEach((s, i) => {
    const base = shapeTable + HAND.shape * i;
    w.seek(base);
    [...s.min, ...s.max].forEach((x) => w.f32(x));
    const corners = s.faces.flat().length;
    w.u16(s.vertices.length).u16(corners).u16(s.faces.length).u16(s.tree?.length ?? 0).u32(0);
    for (let k = 0; k < 12; k++) {
      const p = at.get(`${i}/${k}`);
      w.u32(p === undefined ? 0 : p - (base + HAND.offsetsInShape + 4 * k));
    }
  });
  r.parts.forEach((p, i) => {
    w.seek(partTable + HAND.part * i);
    w.f32(0).f32(0).f32(0).f32(1);
    p.position.forEach((x) => w.f32(x));
    w.f32(1).u32(0).u32(p.kind);
    p.ids.forEach((x) => w.u32(x));
    w.u32(0).u32(p.shape).u32(0).u32(p.material).u32(0x800);
  });
  for (const g of groups) for (const a of g) a.emit(w.seek(at.get(`${a.shape}/${a.slot}`)!));
  return w.bytes;
}

const CUBE: [number, number, number][] = [
  [-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1],
];

/** A kind-2 box: the unit cube as six quads with their face planes (the probe's `boxplanes`). */
export const boxShape = (): HandShape => ({
  min: [-1, -1, -1],
  max: [1, 1, 1],
  vertices: CUBE,
  faces: [[4, 5, 6, 7], [1, 0, 3, 2], [5, 1, 2, 6], [0, 4, 7, 3], [7, 6, 2, 3], [0, 1, 5, 4]],
  planes: [[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]].map((n) => ({
    normal: n as [number, number, number],
    offset: -1,
  })),
});

/** A kind-3 convex pyramid: a quad base and four triangles, planes, zero bounds (the probe's `convex`). */
export const convexShape = (): HandShape => ({
  min: [0, 0, 0],
  max: [0, 0, 0],
  vertices: [[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1], [0, 2, 0]],
  faces: [[0, 1, 2, 3], [0, 4, 1], [1, 4, 2], [2, 4, 3], [3, 4, 0]],
  planes: [[0, -1, 0], [0, 0.447, -0.894], [0.894, 0.447, 0], [0, 0.447, 0.894], [-0.894, 0.447, 0]].map((n) => ({
    normal: n as [number, number, number],
    offset: Math.fround(-0.894),
  })),
});

/**
 * A kind-5 mesh: a unit quad in the XZ plane as two triangles. The shared diagonal is flat (both corners holding
 * it), the four border edges open (1.0); one tree node, all zero: both leaves keep the root box.
 */
export const quadMesh = (): HandShape => ({
  min: [-0.5, 0, -0.5],
  max: [0.5, 0, 0.5],
  vertices: [[-0.5, 0, -0.5], [0.5, 0, -0.5], [0.5, 0, 0.5], [-0.5, 0, 0.5]],
  faces: [[0, 2, 1], [0, 3, 2]],
  edges: [{ value: 1, flat: true }, { value: 1 }, { value: 1 }, { value: 1 }, { value: 1 }, { value: 1, flat: true }],
  tree: [[0, 0]],
});

/** A 0x4c-byte body with a recognisable pattern (a stand-in for Studio's template). */
export const studioBody = (): Uint8Array => Uint8Array.from({ length: 0x4c }, (_, i) => i ^ 0x5a);

const part = (kind: number, shape: number, material = 0x20): HandPart => ({ kind, shape, position: [1, 2, 3], ids: [shape + 1, 7, 9], material });

export const HAND_RESOURCES: Record<string, () => HandResource> = {
  'box part': () => ({ word08: 0, body: new Uint8Array(0), shapes: [boxShape()], parts: [part(2, 0)] }),
  'convex part': () => ({ word08: 0, body: new Uint8Array(0), shapes: [convexShape()], parts: [part(3, 0)] }),
  'quad mesh, no body': () => ({ word08: 0, body: new Uint8Array(0), shapes: [quadMesh()], parts: [part(5, 0, 0x60)] }),
  'quad mesh, Studio body': () => ({ word08: 1, body: studioBody(), shapes: [quadMesh()], parts: [part(5, 0, 0x60)] }),
  'mesh + convex + box, Studio body': () => ({
    word08: 1,
    body: studioBody(),
    shapes: [quadMesh(), convexShape(), boxShape()],
    parts: [part(5, 0), part(3, 1, 0xba0), part(2, 2, 47186720), part(5, 0xffffffff, 0)],
  }),
};
