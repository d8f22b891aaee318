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

import { encoderWasm, WasmLayout, withEncoder } from '../geometry/wasm.ts';
import { runWeld, takeWeldRegions } from '../geometry/weld.ts';
import { concatU32 } from './shared-arena.ts';

/** Counts for one object; all zero means clean. */
export interface MeshReport {
  triangles: number;
  /** Triangles with a repeated welded vertex or zero area. */
  degenerate: number;
  /** Triangles repeating an earlier one with the same corners and winding (the encoder drops them). */
  duplicate: number;
  /** Triangles repeating an earlier one with reversed winding (two-sided sheets; kept). */
  reversedDuplicate: number;
  /** Edges used by a single triangle: a possible bump under a skateboard. */
  openEdges: number;
  /** Edges used by three or more triangles. */
  nonManifoldEdges: number;
  /** Edges whose two triangles run it in the same direction (flipped neighbour). */
  inconsistentEdges: number;
  /** Parts (material groups) above the density limit. */
  denseParts: number;
  /** Highest half-edges per metre over the object's parts. */
  maxHalfEdgesPerMetre: number;
}

export const DENSITY_LIMIT = 900;

/** Validates one object: positions xyz, and its triangle index lists grouped by material. */
export function validateMesh(positions: Float32Array, groups: Uint32Array[]): MeshReport {
  const total = groups.reduce((s, g) => s + g.length / 3, 0);
  const report: MeshReport = {
    triangles: total, degenerate: 0, duplicate: 0, reversedDuplicate: 0, openEdges: 0,
    nonManifoldEdges: 0, inconsistentEdges: 0, denseParts: 0, maxHalfEdgesPerMetre: 0,
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
    m.w.topology(welded.kept, r.tris, welded.count, m.end());
    report.reversedDuplicate = m.w.topologyResult(0);
    report.openEdges = m.w.topologyResult(1);
    report.nonManifoldEdges = m.w.topologyResult(2);
    report.inconsistentEdges = m.w.topologyResult(3);
    return report;
  });
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

/** One line for the warnings list; undefined when the object is clean (open edges alone are reported too). */
export function describeReport(name: string, r: MeshReport): string | undefined {
  const items: string[] = [];
  const add = (n: number, what: string): void => {
    if (n > 0) items.push(`${n} ${what}`);
  };
  add(r.degenerate, 'degenerate triangles');
  add(r.duplicate, 'duplicate triangles');
  add(r.reversedDuplicate, 'back-to-back triangle pairs');
  add(r.nonManifoldEdges, 'non-manifold edges');
  add(r.inconsistentEdges, 'edges with inconsistent winding');
  add(r.openEdges, 'open edges');
  if (r.denseParts > 0) {
    items.push(`${r.denseParts} part(s) too dense to grind (${Math.round(r.maxHalfEdgesPerMetre)} > ${DENSITY_LIMIT} half-edges per metre)`);
  }
  return items.length ? `validate: object "${name}": ${items.join(', ')}` : undefined;
}
