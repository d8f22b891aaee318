// Per-object mesh validation report (warnings with counts), following the mesh policy of
// ../shared/spec/collider-shape-contract.md ("Mesh Policy": exact-position duplicates welded only in a temporary
// topology view; degenerate and duplicate faces, non-manifold edges, inconsistent winding, open edges) and the
// density rule of ../shared/spec/authoring-notes.md (> 900 half-edges per metre of bbox diagonal: no edge
// analysis in game). Nothing here changes the mesh: the encoder applies its own weld and drop policy; the report
// borrows its weld (in WebAssembly) as the temporary topology view, and counts in assembly/topology.ts.
//
// Design log
// - 2026-11-29: edge lists as one array of (other vertex · 2 + direction), half-edges unrolled per triangle (no
//   c % 3): all objects of the 1M bench level, fresh process each, 7 runs at load ~4: cold 659 → 692 ms, warm
//   298 → 278 ms median (same reports). Not kept. Cold is 2.3× warm here: the order the objects arrive in was
//   worth more (compile.ts posts objects of 25,000+ triangles after the small ones: 668 → 476 ms).
// - 2026-11-29: JIT warm-up on a worker waiting for the import's first objects (100 validations of a 128-triangle
//   grid, ~75 ms cold): with the objects already in small-first order, the validation after it went 517 → 444 ms
//   (9 fresh processes): it pays for itself only in idle time (the worker waits ~60–450 ms for its first batch),
//   worth ~35–70 ms of wall at most; not measurable in the bench's spread. Not kept.
// - 2026-12-01: the checks in WebAssembly: the encoder's own weld (assembly/weld.ts: the same exact-position weld,
//   degenerate and repeat rules) and assembly/topology.ts (back-to-back pairs, edge counts, part extents) replace
//   the JavaScript weld, duplicate and edge passes. Same reports on 8,820 meshes (every object of the 1M bench level
//   and both samples, 300 random meshes of few positions, a 2,000-triangle fan). The bench level's objects in one
//   fresh process, small first: cold 142 + 124 → 67 + 94 ms (props + terrain), warm ~90 + 105 → 42 + 66. Bench,
//   fresh children alternating, 2 threads: wall 1,052–1,382 → 975–1,112 ms, CPU 2,022–2,677 → 1,824–2,073 ms.

import { classifyOpenEdges, UNCHECKED, type CrackMesh, type CrackOptions } from '../geometry/cracks.ts';
import { encoderWasm, WasmLayout, withEncoder } from '../geometry/wasm.ts';
import { runWeld, takeWeldRegions } from '../geometry/weld.ts';
import { concatU32 } from './shared-arena.ts';

/** Kinds of finding with locations; all warn except borderEdges (the outline of an open surface). */
export const FINDING_KINDS = ['crackEdges', 'nonManifoldEdges', 'inconsistentEdges', 'degenerate', 'duplicate', 'reversedDuplicate', 'borderEdges'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** Locations of borders (info: a surface's outline) kept per object, and what manifest.json lists of every kind (counts stay exact). */
export const LOCATIONS_CAP = 100;

/**
 * Locations of each warn-level kind kept per object (count; the report places every one). A safety bound on memory
 * for a hostile input, far past a real level's (a real GTA V file: ~130 an object); past it the report says so.
 */
export const WARN_LOCATIONS_CAP = 100_000;

/**
 * Where a finding is: world positions (an edge's two end points, from → to as its triangle runs it, or a
 * triangle's three corners), the source triangle (index over the object's triangles, material groups in order)
 * and, for a crack along another object, that object.
 */
export interface FindingLocation {
  triangle: number;
  points: number[][];
  with?: string;
}

/** All of an object's open edges, for the level-wide crack pass (classifyOpenEdges). */
export interface OpenEdgeList {
  /** from xyz, to xyz per edge. */
  ends: Float32Array;
  /** Source triangle of each edge. */
  triangle: Uint32Array;
}

/** Counts for one object; all zero means clean. */
export interface MeshReport {
  triangles: number;
  /** Triangles with a repeated welded vertex or zero area. */
  degenerate: number;
  /** Triangles repeating an earlier one with the same corners and winding (the encoder drops them). */
  duplicate: number;
  /** Triangles repeating an earlier one with reversed winding (two-sided sheets; kept). */
  reversedDuplicate: number;
  /** Edges used by a single triangle (borderEdges + crackEdges). */
  openEdges: number;
  /** Open edges along no other open edge or face: the outline of an open surface (info). Set by classifyCracks. */
  borderEdges: number;
  /** Open edges along another open edge or a face, not welded to it: a bump under the board. Set by classifyCracks. */
  crackEdges: number;
  /**
   * Open edges the level-wide crack pass did not classify (neither border nor crack): its work was past its budget
   * (src/geometry/cracks.ts CRACK_BUDGET). Set by classifyCracks.
   */
  uncheckedEdges: number;
  /** Edges used by three or more triangles. */
  nonManifoldEdges: number;
  /** Edges whose two triangles run it in the same direction (flipped neighbour). */
  inconsistentEdges: number;
  /** Parts (material groups) above the density limit. */
  denseParts: number;
  /** Highest half-edges per metre over the object's parts. */
  maxHalfEdgesPerMetre: number;
  /** The first LOCATIONS_CAP locations of each kind found (cracks and borders once classifyCracks has run). */
  locations: Partial<Record<FindingKind, FindingLocation[]>>;
  /** Every open edge, until classifyCracks has split them (then dropped). */
  open?: OpenEdgeList;
}

export const DENSITY_LIMIT = 900;

/**
 * Validates one object: positions xyz (world space), and its triangle index lists grouped by material. Open
 * edges are all borders until classifyCracks has compared them with every object's open edges and faces.
 */
export function validateMesh(positions: Float32Array, groups: Uint32Array[], cap = WARN_LOCATIONS_CAP): MeshReport {
  const total = groups.reduce((s, g) => s + g.length / 3, 0);
  const report: MeshReport = {
    triangles: total, degenerate: 0, duplicate: 0, reversedDuplicate: 0, openEdges: 0, borderEdges: 0, crackEdges: 0, uncheckedEdges: 0,
    nonManifoldEdges: 0, inconsistentEdges: 0, denseParts: 0, maxHalfEdgesPerMetre: 0, locations: {},
  };
  const indices = concatU32(groups);
  return withEncoder(`validate: ${total} triangles`, () => {
    // The encoder's weld is the policy's temporary topology view: welded by exact position, degenerate and
    // repeated triangles dropped (and counted); the rest are distinct and rotated to their smallest vertex.
    const m = new WasmLayout(encoderWasm());
    const r = takeWeldRegions(m, positions.length / 3, total);
    const welded = runWeld(m, r, positions, indices);
    let from = 0;
    for (const g of groups) {
      m.w.groupExtent(r.bits, r.indices, from, (from += g.length));
      const density = halfEdgeDensity(g.length, m.w.extentResult(0), m.w.extentResult(1), m.w.extentResult(2));
      report.maxHalfEdgesPerMetre = Math.max(report.maxHalfEdgesPerMetre, density);
      if (density > DENSITY_LIMIT) report.denseParts++;
    }
    report.degenerate = welded.degenerate;
    report.duplicate = welded.repeated;
    // No kind has more than three per kept triangle: the lists' room (28 bytes a location) follows the mesh.
    m.w.topology(welded.kept, r.tris, welded.count, m.end(), Math.min(cap, 3 * welded.kept));
    report.reversedDuplicate = m.w.topologyResult(0);
    report.openEdges = report.borderEdges = m.w.topologyResult(1);
    report.nonManifoldEdges = m.w.topologyResult(2);
    report.inconsistentEdges = m.w.topologyResult(3);
    locate(m, r, welded, report, positions, indices, cap);
    return report;
  });
}

/** Reads the weld's and topology's lists out of wasm memory into the report's locations and open edges. */
function locate(
  m: WasmLayout, r: ReturnType<typeof takeWeldRegions>, welded: ReturnType<typeof runWeld>, report: MeshReport,
  positions: Float32Array, indices: Uint32Array, cap: number,
): void {
  const buf = m.w.memory.buffer;
  const wpos = new Float32Array(buf, r.out, 3 * welded.count);
  const source = new Uint32Array(buf, r.source, welded.kept);
  const at = (v: number): number[] => [wpos[3 * v], wpos[3 * v + 1], wpos[3 * v + 2]];
  const corners = (t: number): number[][] => [0, 1, 2].map((k) => {
    const v = indices[3 * t + k];
    return [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]];
  });
  const edges = (k: number, n: number): FindingLocation[] => {
    const list = new Int32Array(buf, m.w.topologyOut(k), 3 * n);
    return Array.from({ length: n }, (_, i) => ({ triangle: source[list[3 * i + 2]], points: [at(list[3 * i]), at(list[3 * i + 1])] }));
  };
  const loc = report.locations;
  if (report.nonManifoldEdges) loc.nonManifoldEdges = edges(2, Math.min(cap, report.nonManifoldEdges));
  if (report.inconsistentEdges) loc.inconsistentEdges = edges(3, Math.min(cap, report.inconsistentEdges));
  if (report.reversedDuplicate) {
    const list = new Int32Array(buf, m.w.topologyOut(0), Math.min(cap, report.reversedDuplicate));
    loc.reversedDuplicate = Array.from(list, (kt) => ({ triangle: source[kt], points: corners(source[kt]) }));
  }
  if (welded.degenerate + welded.repeated > 0) {
    // The dropped triangles are those no kept one came from; the weld's own rule tells the two kinds apart.
    const kept = new Uint8Array(indices.length / 3);
    for (const t of source) kept[t] = 1;
    const remap = new Int32Array(buf, r.remap, positions.length / 3);
    const degenerate: FindingLocation[] = [], duplicate: FindingLocation[] = [];
    for (let t = 0; t < kept.length && (degenerate.length < cap || duplicate.length < cap); t++) {
      if (kept[t]) continue;
      const [a, b, c] = [remap[indices[3 * t]], remap[indices[3 * t + 1]], remap[indices[3 * t + 2]]];
      const list = a === b || b === c || a === c || zeroArea(wpos, a, b, c) ? degenerate : duplicate;
      if (list.length < cap) list.push({ triangle: t, points: corners(t) });
    }
    if (degenerate.length) loc.degenerate = degenerate;
    if (duplicate.length) loc.duplicate = duplicate;
  }
  const n = report.openEdges;
  if (n === 0) {
    report.open = NO_OPEN_EDGES;
    return;
  }
  const list = new Int32Array(buf, m.w.topologyOut(1), 3 * n);
  const ends = new Float32Array(6 * n), triangle = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const a = list[3 * i], b = list[3 * i + 1];
    ends[6 * i] = wpos[3 * a]; ends[6 * i + 1] = wpos[3 * a + 1]; ends[6 * i + 2] = wpos[3 * a + 2];
    ends[6 * i + 3] = wpos[3 * b]; ends[6 * i + 4] = wpos[3 * b + 1]; ends[6 * i + 5] = wpos[3 * b + 2];
    triangle[i] = source[list[3 * i + 2]];
  }
  report.open = { ends, triangle };
}

/** A closed object's open-edge list (most objects': one shared, never written, instead of two empty arrays each). */
const NO_OPEN_EDGES: OpenEdgeList = Object.freeze({ ends: new Float32Array(0), triangle: new Uint32Array(0) });

/** The weld's zero-area test: (b − a) × (c − a) of the welded f32 positions, in f64, has length 0. */
function zeroArea(p: Float32Array, a: number, b: number, c: number): boolean {
  const ux = p[3 * b] - p[3 * a], uy = p[3 * b + 1] - p[3 * a + 1], uz = p[3 * b + 2] - p[3 * a + 2];
  const vx = p[3 * c] - p[3 * a], vy = p[3 * c + 1] - p[3 * a + 1], vz = p[3 * c + 2] - p[3 * a + 2];
  return uy * vz - uz * vy === 0 && uz * vx - ux * vz === 0 && ux * vy - uy * vx === 0;
}

/** An object as classifyCracks sees it: its name, its mesh, and its report from validateMesh. */
export interface CrackObject {
  name: string;
  positions: Float32Array;
  groups: Uint32Array[];
  report: MeshReport;
}

/**
 * Splits every report's open edges into borders and cracks over all objects at once (src/geometry/cracks.ts: a
 * crack lies along another open edge or a face of the same object or of another), sets the counts and the first
 * `cap` locations of each, and drops the open-edge lists. Reports without their lists are left as they are.
 */
export function classifyCracks(objects: CrackObject[], options: Partial<CrackOptions> = {}, cap = WARN_LOCATIONS_CAP): CrackCounts[] {
  const meshes: CrackMesh[] = objects.map((o) => crackMesh(o.positions, o.groups, o.report));
  const { with: hits } = classifyOpenEdges(meshes, options);
  const names = objects.map((o) => o.name);
  return objects.map((o, i) => {
    if (!o.report.open) return crackCounts(o.report);
    applyCrackCounts(o.report, countCracks(o.report.open, hits[i], i, names, cap));
    return crackCounts(o.report);
  });
}

/** An object as classifyOpenEdges sees it: its faces and its report's open edges (none when the list is gone). */
export function crackMesh(positions: Float32Array, groups: Uint32Array[], report: MeshReport): CrackMesh {
  const open = report.open ?? NO_OPEN_EDGES;
  return { positions, groups, open: open.ends, openTriangle: open.triangle };
}

/**
 * Object i's borders and cracks from its open edges and their classification (hits: per edge, −1 or the object it
 * lies along; names: every object's, for a crack along another), with the first `cap` locations of each.
 */
export function countCracks(open: OpenEdgeList, hits: Int32Array, i: number, names: string[], cap = WARN_LOCATIONS_CAP): CrackCounts {
  const border: FindingLocation[] = [], crack: FindingLocation[] = [];
  let cracks = 0, unchecked = 0;
  const p = open.ends;
  const borderCap = Math.min(cap, LOCATIONS_CAP); // borders are info, and many: the first few of each object
  hits.forEach((w, e) => {
    if (w === UNCHECKED) {
      unchecked++;
      return;
    }
    if (w >= 0) cracks++;
    const list = w >= 0 ? crack : border;
    if (list.length >= (w >= 0 ? cap : borderCap)) return;
    const l: FindingLocation = { triangle: open.triangle[e], points: [[p[6 * e], p[6 * e + 1], p[6 * e + 2]], [p[6 * e + 3], p[6 * e + 4], p[6 * e + 5]]] };
    if (w >= 0 && w !== i) l.with = names[w];
    list.push(l);
  });
  const locations: CrackCounts['locations'] = {};
  if (crack.length) locations.crackEdges = crack;
  if (border.length) locations.borderEdges = border;
  const counts: CrackCounts = { crackEdges: cracks, borderEdges: hits.length - cracks - unchecked, locations };
  if (unchecked) counts.uncheckedEdges = unchecked;
  return counts;
}

/** What classifyCracks sets in a report (a worker that ran it sends these back: src/tiling/worker.ts). */
export interface CrackCounts {
  crackEdges: number;
  borderEdges: number;
  /** Open edges not classified (the pass was past its budget); absent when none. */
  uncheckedEdges?: number;
  locations: Pick<MeshReport['locations'], 'crackEdges' | 'borderEdges'>;
}

function crackCounts(r: MeshReport): CrackCounts {
  const locations: CrackCounts['locations'] = {};
  if (r.locations.crackEdges) locations.crackEdges = r.locations.crackEdges;
  if (r.locations.borderEdges) locations.borderEdges = r.locations.borderEdges;
  const counts: CrackCounts = { crackEdges: r.crackEdges, borderEdges: r.borderEdges, locations };
  if (r.uncheckedEdges) counts.uncheckedEdges = r.uncheckedEdges;
  return counts;
}

/** Puts a worker's CrackCounts into the main thread's copy of the report. */
export function applyCrackCounts(r: MeshReport, c: CrackCounts): void {
  r.crackEdges = c.crackEdges;
  r.borderEdges = c.borderEdges;
  r.uncheckedEdges = c.uncheckedEdges ?? 0;
  Object.assign(r.locations, c.locations);
  delete r.open;
}


/**
 * Triangle index count over the bounding-box diagonal of the part's used vertices (authoring-notes' measure): 0
 * for an empty part, Infinity for one with no extent.
 */
export function halfEdgeDensity(indexCount: number, dx: number, dy: number, dz: number): number {
  if (indexCount === 0) return 0;
  const diag = Math.hypot(dx, dy, dz);
  return diag > 0 ? indexCount / diag : Infinity;
}

/** A position as the summary prints it: millimetres, so a 0.5 mm gap shows. */
const fmt = (p: number[]): string => `(${p.map((v) => (Math.round(v * 1000) / 1000).toString()).join(', ')})`;

/** Where a location is, in words: "edge (x, y, z)–(x, y, z) of triangle 12" or "triangle 3 at (…) (…) (…)". */
export function describeLocation(l: FindingLocation): string {
  const shape = l.points.length === 2 ? `edge ${fmt(l.points[0])}–${fmt(l.points[1])} of triangle ${l.triangle}` : `triangle ${l.triangle} at ${l.points.map(fmt).join(' ')}`;
  return l.with ? `${shape}, along "${l.with}"` : shape;
}

/** What each warning kind is called in the summary. */
export const FINDING_NAMES: Record<FindingKind, string> = {
  crackEdges: 'cracks (open edges along another edge or face, not welded)',
  nonManifoldEdges: 'non-manifold edges',
  inconsistentEdges: 'edges with inconsistent winding',
  degenerate: 'degenerate triangles',
  duplicate: 'duplicate triangles',
  reversedDuplicate: 'back-to-back triangle pairs',
  borderEdges: 'border edges',
};

/**
 * One line for the warnings list, each warning kind with its first location; undefined when nothing warns.
 * Border edges (the outline of an open surface) are expected and only counted in the manifest.
 */
export function describeReport(name: string, r: MeshReport, cut?: number): string | undefined {
  const items: string[] = [];
  for (const kind of FINDING_KINDS) {
    const n = r[kind];
    if (kind === 'borderEdges' || !n) continue;
    const first = r.locations[kind]?.[0];
    items.push(`${n} ${FINDING_NAMES[kind]}${first ? ` (first: ${describeLocation(first)})` : ''}`);
  }
  if (r.uncheckedEdges > 0) {
    items.push(`${r.uncheckedEdges} open edges not checked for cracks (the level-wide crack pass was past its work budget: large faces over many open edges; docs/validation.md, "Work budget")`);
  }
  if (r.denseParts > 0) {
    // With the density cut on (src/geometry/grind-cut.ts) the written parts are what the grind findings judge: here
    // the object as authored, and what the build does about it.
    items.push(cut === undefined
      ? `${r.denseParts} part(s) too dense to grind (${Math.round(r.maxHalfEdgesPerMetre)} > ${DENSITY_LIMIT} half-edges per metre)`
      : `${r.denseParts} part(s) too dense to grind as authored (${Math.round(r.maxHalfEdgesPerMetre)} > ${DENSITY_LIMIT} half-edges per metre): cut into parts at or under ${cut} where they hold creases (--grind-density off: Studio's one part)`);
  }
  return items.length ? `validate: object "${name}": ${items.join('; ')}` : undefined;
}
