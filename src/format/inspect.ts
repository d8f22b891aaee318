// What `compile-collision inspect` shows of a PhysicsResource (../shared/spec/physics-resource.md): a summary
// (header words, parts with kind / decoded material / position, shapes with counts, bounds, tree depth and edge
// classes) and a complete JSON dump (typed arrays as plain arrays, tree nodes as hex strings, the layout hints).
// Returns text; never prints.
import { hex } from './cursor.ts';
import { type DecodedMaterial, decodeMaterial, describeMaterial } from './material.ts';
import { defaultLayout } from './layout.ts';
import { KIND_NAMES } from './part.ts';
import { decodeNormal } from './plane.ts';
import { readPhysicsResource } from './resource.ts';
import { nodeHex, treeDepth } from './tree.ts';
import { KIND_MESH, NO_SHAPE, type PhysicsResource, type ShapeRecord, faceCount } from './types.ts';
import { type GrindExclusion, type PartGrind, partGrind } from './grind-map.ts';

export interface EdgeClasses {
  flat: number;
  concave: number;
  convex: number;
  /** Value 1.0 with neither bit: no face across, or none that pairs (and sharp concave creases, see the decisions). */
  open: number;
}

/** Counts corners by edge class from the stored value and bits. */
export function edgeClasses(s: ShapeRecord): EdgeClasses {
  const e: EdgeClasses = { flat: 0, concave: 0, convex: 0, open: 0 };
  const bit = (b: Uint8Array, c: number): number => (b.length ? (b[c >> 3] >> (c & 7)) & 1 : 0);
  for (let c = 0; c < s.edgeValues.length; c++) {
    if (bit(s.flatBits, c)) e.flat++;
    else if (bit(s.concaveBits, c)) e.concave++;
    else if (s.edgeValues[c] !== 1) e.convex++;
    else e.open++;
  }
  return e;
}

/**
 * How the stored face planes relate to the faces' own geometry, under our octahedral convention
 * (src/format/plane.ts): normals along / against the face's winding normal (Newell), and which offset sign puts the
 * face's first vertex on the plane. Meant to settle the unmeasured convention on a game-written file.
 */
export interface PlaneAgreement {
  along: number;
  against: number;
  other: number;
  /** n · v = offset (within 1e-3 of the shape's extent). */
  offsetPlus: number;
  /** n · v = −offset. */
  offsetMinus: number;
}

export const PLANE_AGREEMENT_COS = 0.999;

export function planeAgreement(s: ShapeRecord): PlaneAgreement {
  const a: PlaneAgreement = { along: 0, against: 0, other: 0, offsetPlus: 0, offsetMinus: 0 };
  const faces = Math.min(faceCount(s), s.planeOffsets.length);
  let extent = 1;
  for (let k = 0; k < s.vertices.length; k++) extent = Math.max(extent, Math.abs(s.vertices[k]));
  for (let f = 0; f < faces; f++) {
    const n = newell(s, f);
    const p = decodeNormal(s.planeNormals[2 * f], s.planeNormals[2 * f + 1]);
    const dot = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
    if (dot >= PLANE_AGREEMENT_COS) a.along++;
    else if (dot <= -PLANE_AGREEMENT_COS) a.against++;
    else a.other++;
    const v = 3 * s.cornerVertices[s.faceOffsets[f]];
    const d = p[0] * s.vertices[v] + p[1] * s.vertices[v + 1] + p[2] * s.vertices[v + 2];
    if (Math.abs(d - s.planeOffsets[f]) <= 1e-3 * extent) a.offsetPlus++;
    if (Math.abs(d + s.planeOffsets[f]) <= 1e-3 * extent) a.offsetMinus++;
  }
  return a;
}

/** Face `f`'s unit normal by Newell's method (zero for a face with no area). */
function newell(s: ShapeRecord, f: number): [number, number, number] {
  const n: [number, number, number] = [0, 0, 0];
  const first = s.faceOffsets[f];
  const end = s.faceOffsets[f + 1];
  for (let c = first; c < end; c++) {
    const p = 3 * s.cornerVertices[c];
    const q = 3 * s.cornerVertices[c + 1 < end ? c + 1 : first];
    const [px, py, pz, qx, qy, qz] = [s.vertices[p], s.vertices[p + 1], s.vertices[p + 2], s.vertices[q], s.vertices[q + 1], s.vertices[q + 2]];
    n[0] += (py - qy) * (pz + qz);
    n[1] += (pz - qz) * (px + qx);
    n[2] += (px - qx) * (py + qy);
  }
  const len = Math.hypot(...n) || 1;
  return [n[0] / len, n[1] / len, n[2] / len];
}

export interface ShapeSummary {
  index: number;
  vertices: number;
  faces: number;
  corners: number;
  treeNodes: number;
  treeDepth: number;
  planes: number;
  min: number[];
  max: number[];
  edges: EdgeClasses | null;
  planeAgreement: PlaneAgreement | null;
}

export interface PartSummary {
  index: number;
  kind: number;
  kindName: string;
  shape: number | null;
  position: number[];
  rotation: number[];
  material: DecodedMaterial;
  ids: number[];
  flags: number;
  /** Half-edges per metre of the shape's bbox diagonal (src/format/grind-map.ts); 0 for a part with no mesh. */
  density: number;
  /** Edges the game can grind on this part, and why there are none where creases are lost (null: nothing lost). */
  grindableEdges: number;
  grindExcluded: GrindExclusion;
}

export interface ResourceSummary {
  bytes: number;
  version: number;
  word08: number;
  word14: number;
  word20: number;
  bodyBytes: number;
  /** How the stored layout compares with the reference encoder's (null for a record not read from bytes). */
  layout: LayoutComparison | null;
  parts: PartSummary[];
  shapes: ShapeSummary[];
}

export interface LayoutComparison {
  /** Arrays stored somewhere other than where the reference encoder puts them. */
  movedArrays: number;
  /** Non-zero bytes outside every record (padding other tools filled). */
  fillBytes: number;
  /** Stored size minus the reference layout's size. */
  extraBytes: number;
}

/** The stored layout against defaultLayout: zero everywhere means the reference encoder's own layout. */
export function compareLayout(res: PhysicsResource): LayoutComparison {
  const l = res.layout!;
  const d = defaultLayout(res);
  let movedArrays = 0;
  l.arrays.forEach((a, i) => a.forEach((x, k) => (movedArrays += x !== d.arrays[i]?.[k] ? 1 : 0)));
  if (l.partTable !== d.partTable) movedArrays++;
  const fillBytes = l.fill.reduce((n, f) => n + f.bytes.byteLength, 0);
  return { movedArrays, fillBytes, extraBytes: l.size - d.size };
}

export function summarize(res: PhysicsResource, bytes: number): ResourceSummary {
  return {
    bytes,
    version: res.version,
    word08: res.word08,
    word14: res.word14,
    word20: res.word20,
    bodyBytes: res.body.byteLength,
    layout: res.layout ? compareLayout(res) : null,
    parts: res.parts.map((p, index) => ({
      ...grindOf(partGrind(res, index)),
      index,
      kind: p.kind,
      kindName: KIND_NAMES[p.kind] ?? 'unknown',
      shape: p.shape === NO_SHAPE ? null : p.shape,
      position: [...p.position],
      rotation: [...p.rotation],
      material: decodeMaterial(p.material),
      ids: [...p.ids],
      flags: p.flags,
    })),
    shapes: res.shapes.map((s, index) => ({
      index,
      vertices: s.vertices.length / 3,
      faces: faceCount(s),
      corners: s.cornerVertices.length,
      treeNodes: s.tree.length / 2,
      treeDepth: s.tree.length ? treeDepth(faceCount(s)) : 0,
      planes: s.planeOffsets.length,
      min: [...s.min],
      max: [...s.max],
      edges: s.edgeValues.length ? edgeClasses(s) : null,
      planeAgreement: s.planeOffsets.length ? planeAgreement(s) : null,
    })),
  };
}

const grindOf = (g: PartGrind): { density: number; grindableEdges: number; grindExcluded: GrindExclusion } => ({
  density: Math.round(g.density * 10) / 10,
  grindableEdges: g.edges,
  grindExcluded: g.creases > 0 || g.excluded === 'dense' ? g.excluded : null,
});

const num = (v: number): string => (Number.isInteger(v) ? String(v) : v.toPrecision(7).replace(/\.?0+$/, ''));
const vec = (v: readonly number[]): string => `(${v.map(num).join(', ')})`;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Header word 0x08 in words: 0 in the game's own files, 1 in what ReSkate Studio writes (docs/format-decisions.md). */
export function headerForm(word08: number, bodyBytes: number): string {
  if (word08 === 0 && bodyBytes === 0) return "the game's own form (header word 0x08 = 0, no body)";
  if (word08 === 1) return `ReSkate Studio's form (header word 0x08 = 1, ${bodyBytes}-byte body)`;
  return `an unknown form (header word 0x08 = ${word08}, ${bodyBytes}-byte body)`;
}

/** "40 bytes longer than Studio's layout" / "40 bytes short of Studio's layout" / "the same size as Studio's layout". */
export const sizeDelta = (extra: number): string =>
  extra === 0 ? "the same size as Studio's layout" : extra > 0 ? `${plural(extra, 'byte')} longer than Studio's layout` : `${plural(-extra, 'byte')} short of Studio's layout`;

/** The summary as text, one line per part and per shape. */
export function formatSummary(s: ResourceSummary): string {
  const lines = [
    `PhysicsResource (format version ${s.version}), ${plural(s.bytes, 'byte')}: ${plural(s.parts.length, 'part')}, ${plural(s.shapes.length, 'shape')}`,
    `header: ${headerForm(s.word08, s.bodyBytes)}`,
  ];
  // The spec documents words 0x14 and 0x20 only as zero: say so when they are not.
  if (s.word14 !== 0 || s.word20 !== 0) lines.push(`header words 0x14 = ${s.word14} and 0x20 = ${s.word20} (meaning unknown; zero in every known file)`);
  const l = s.layout;
  if (l) {
    // "The reference encoder" is frostbite-formats, which reproduces ReSkate Studio's writer byte for byte.
    const same = l.movedArrays === 0 && l.fillBytes === 0 && l.extraBytes === 0;
    lines.push(
      same
        ? 'layout: records placed exactly where ReSkate Studio (and our compiler) put them'
        : `layout: not where ReSkate Studio puts them (${plural(l.movedArrays, 'array or table', 'arrays or tables')} elsewhere, ` +
            `${plural(l.fillBytes, 'non-zero padding byte')}, ${sizeDelta(l.extraBytes)}); a rewrite keeps it as found`,
    );
  }
  for (const p of s.parts) {
    lines.push(
      `part ${p.index}: ${p.kindName} (kind ${p.kind}), shape ${p.shape ?? 'none'}, position ${vec(p.position)}, ` +
        `rotation ${vec(p.rotation)}, material ${describeMaterial(p.material)}, ids ${p.ids.join('/')}, flags ${hex(p.flags)}` +
        (p.kind === KIND_MESH ? `, ${num(p.density)} half-edges per metre, ${plural(p.grindableEdges, 'grindable edge')}${p.grindExcluded ? ` (${p.grindExcluded === 'dense' ? 'too dense' : p.grindExcluded === 'surface' ? 'surface excludes grinding' : 'no edge data'})` : ''}` : ''),
    );
  }
  for (const sh of s.shapes) {
    const edges = sh.edges
      ? `edges flat ${sh.edges.flat} / concave ${sh.edges.concave} / convex ${sh.edges.convex} / open ${sh.edges.open}`
      : 'no edge data';
    lines.push(
      `shape ${sh.index}: ${sh.vertices} vertices, ${sh.faces} faces, ${sh.corners} corners, bounds ${vec(sh.min)}..${vec(sh.max)}, ` +
        `tree ${sh.treeNodes} nodes depth ${sh.treeDepth}, ${sh.planes} planes, ${edges}`,
    );
    const pa = sh.planeAgreement;
    if (pa) {
      lines.push(
        `  planes vs faces: normal along winding ${pa.along}, against ${pa.against}, other ${pa.other}; ` +
          `n·v = offset ${pa.offsetPlus}, n·v = −offset ${pa.offsetMinus}`,
      );
    }
  }
  return lines.join('\n');
}

/** A complete plain-data dump of the record: typed arrays as arrays, tree nodes as 16-digit hex strings. */
export function resourceToJson(res: PhysicsResource): unknown {
  const plain = (a: ArrayLike<number>): number[] => Array.from(a);
  return {
    version: res.version,
    word08: res.word08,
    word14: res.word14,
    word20: res.word20,
    body: plain(res.body),
    parts: res.parts.map((p) => ({ ...p, materialDecoded: decodeMaterial(p.material) })),
    shapes: res.shapes.map((s) => ({
      min: s.min,
      max: s.max,
      word20: s.word20,
      vertices: plain(s.vertices),
      vertexCornerOffsets: plain(s.vertexCornerOffsets),
      cornerIdsByVertex: plain(s.cornerIdsByVertex),
      cornerVertices: plain(s.cornerVertices),
      edgeValues: plain(s.edgeValues),
      concaveBits: plain(s.concaveBits),
      flatBits: plain(s.flatBits),
      faceOffsets: plain(s.faceOffsets),
      planeNormals: plain(s.planeNormals),
      planeOffsets: plain(s.planeOffsets),
      tree: Array.from({ length: s.tree.length / 2 }, (_, i) => nodeHex(s.tree[2 * i], s.tree[2 * i + 1])),
    })),
    layout: res.layout
      ? { ...res.layout, fill: res.layout.fill.map((f) => ({ at: f.at, bytes: plain(f.bytes) })) }
      : null,
  };
}

export interface InspectOptions {
  /** Print the complete JSON dump (summary included) instead of the text summary. */
  json: boolean;
}

/** `inspect`'s output for one resource's bytes; throws FormatError on a resource the reader refuses. */
export function inspectPhysics(bytes: Uint8Array, opts: InspectOptions): string {
  const res = readPhysicsResource(bytes);
  const summary = summarize(res, bytes.byteLength);
  if (!opts.json) return formatSummary(summary);
  // Compact: a large shape holds hundreds of thousands of numbers. NaN and ±Infinity become strings.
  return JSON.stringify({ summary, resource: resourceToJson(res) }, (_, v) =>
    typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
  );
}
