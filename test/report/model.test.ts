// The report's geometry from written resources (src/report/model.ts): edge classes read from the stored bits and
// values, open corners split into borders and cracks across shapes, decimation past the cap.
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../src/geometry/resource.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import { EDGE_BORDER, EDGE_CONCAVE, EDGE_CONVEX, EDGE_CRACK, EDGE_FLAT, EDGE_UNPAIRED, OPEN_LISTED, reportGeometry } from '../../src/report/model.ts';
import { boxMesh, gridMesh } from '../fixtures/levels.ts';

/** A resource as the compiler writes it and the report reads it back: through the bytes. */
const written = (objects: { positions: number[]; indices: number[] }[]) =>
  readPhysicsResource(writePhysicsResource(encodeResource(objects.map((o, i) => ({ name: `o${i}`, positions: Float32Array.from(o.positions), indices: Uint32Array.from(o.indices), material: 0x20 + 64 * i }))).resource));

describe('reportGeometry', () => {
  it('a closed box: 12 flat corners (the diagonals), 24 convex, none open; world positions restored', () => {
    const b = boxMesh([10, 1, -5], [1, 1, 1]);
    const g = reportGeometry([written([b])]);
    expect(g.faces).toBe(12);
    expect(g.classCounts).toEqual([12, 0, 24, 0, 0, 0]);
    expect(g.shapes[0].min).toEqual([9, 0, -6]);
    expect(g.shapes[0].max).toEqual([11, 2, -4]);
  });
  it('a lone quad: 4 border corners; two quads 0.5 mm apart in two resources: the facing sides are cracks', () => {
    const q = gridMesh(1, 1, 1, [0, 0, 0]);
    expect(reportGeometry([written([q])]).classCounts).toEqual([2, 0, 0, 4, 0, 0]);
    const r = gridMesh(1, 1, 1, [1.0005, 0, 0]);
    const g = reportGeometry([written([q]), written([r])]);
    expect(g.classCounts[EDGE_CRACK]).toBe(2);
    expect(g.classCounts[EDGE_BORDER]).toBe(6);
    expect(g.shapes.map((s) => s.resource)).toEqual([0, 1]);
  });
  it('two resources meeting exactly with the seam written open (as --seams shape writes it): cracks, not borders', () => {
    // The input's validation counts such a seam as joined (the level-wide weld pairs it); a written file that still
    // holds it open is open for the game, so the report shows the bump.
    const g = reportGeometry([written([gridMesh(1, 1, 1, [0, 0, 0])]), written([gridMesh(1, 1, 1, [1, 0, 0])])]);
    expect(g.classCounts[EDGE_CRACK]).toBe(2);
    expect(g.classCounts[EDGE_BORDER]).toBe(6);
  });
  it('three faces on one edge: its three sides are unpaired (not a concave fold); with the open sides they make the encoder\'s open count', () => {
    // Edge 0→1 is held by one face, 1→0 by two: no single pair, so the encoder stores all three sides as open
    // (1.0, no bits) and counts them in openEdges; a sharp fold's single pair stores the same bytes but is paired.
    const fin = { positions: [0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1], indices: [0, 1, 2, 1, 0, 3, 1, 0, 4] };
    const enc = encodeResource([{ name: 'fin', positions: Float32Array.from(fin.positions), indices: Uint32Array.from(fin.indices), material: 0x20 }]);
    const g = reportGeometry([readPhysicsResource(writePhysicsResource(enc.resource))]);
    expect(g.classCounts[EDGE_UNPAIRED]).toBe(3);
    expect(g.classCounts[EDGE_CONCAVE]).toBe(0);
    expect(g.classCounts[EDGE_BORDER] + g.classCounts[EDGE_CRACK]).toBe(6);
    const encodedOpen = enc.stats.objects.reduce((n, o) => n + o.stats.openEdges, 0);
    expect(g.classCounts[EDGE_BORDER] + g.classCounts[EDGE_CRACK] + g.classCounts[EDGE_UNPAIRED]).toBe(encodedOpen);
    expect(g.resourceClassCounts[0]).toEqual(g.classCounts);
    expect(g.openEdges.filter((e) => e.cls === EDGE_UNPAIRED).map((e) => e.points.flat().sort()).length).toBe(3);
  });
  it('lists the first OPEN_LISTED open edges of each class and resource, in world space', () => {
    const grid = gridMesh(60, 60, 1, [5, 0, 0]); // 240 border sides
    const g = reportGeometry([written([grid])]);
    const listed = g.openEdges.filter((e) => e.cls === EDGE_BORDER);
    expect(listed.length).toBe(OPEN_LISTED);
    for (const e of listed) for (const p of e.points) expect(p[0]).toBeGreaterThanOrEqual(5);
  });
  it('a concave fold and a convex ridge', () => {
    // An L channel's floor and a wall at 45° up (concave), and a roof ridge (convex).
    const valley = { positions: [0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1, 2, 1, 0, 2, 1, 1], indices: [0, 2, 1, 1, 2, 3, 1, 3, 4, 4, 3, 5] };
    const g = reportGeometry([written([valley])]);
    expect(g.classCounts[EDGE_CONCAVE]).toBe(2);
    const ridge = { positions: [0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 2, 0, 0, 2, 0, 1], indices: [0, 2, 1, 1, 2, 3, 1, 3, 4, 4, 3, 5] };
    expect(reportGeometry([written([ridge])]).classCounts[EDGE_CONVEX]).toBe(2);
    expect(reportGeometry([written([ridge])]).classCounts[EDGE_FLAT]).toBe(4);
  });
  it('past the cap draws every k-th face and every face with an open corner, and counts all', () => {
    const grid = gridMesh(60, 60, 1, [0, 0, 0]); // 7,200 faces, 240 on the border
    const g = reportGeometry([written([grid])], { maxTriangles: 1000 });
    expect(g.faces).toBe(7200);
    expect(g.stride).toBe(8);
    const border = 4 * 60;
    expect(g.drawnFaces).toBeGreaterThanOrEqual(border);
    expect(g.drawnFaces).toBeLessThan(7200 / 8 + border + 1);
    expect(g.classCounts[EDGE_BORDER]).toBe(border);
    const all = reportGeometry([written([grid])]);
    expect(all.stride).toBe(1);
    expect(all.drawnFaces).toBe(7200);
  });
});
