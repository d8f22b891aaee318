// The golden cases: which fixture meshes go into one PhysicsResource, with which part settings and header form.
// Shared by scripts/golden-update.ts (runs the reference encoder, writes <case>.physics and <case>.json) and
// test/golden.test.ts (runs our encoder on the same objects and requires the same bytes).
// Header forms: 'game' = word08 0 and no body (the game's own resources, and the crate's own tests);
// 'studio' = word08 1 and a 0x4c-byte body. Studio's real body template is not public (docs/format-decisions.md),
// so the studio form uses PLACEHOLDER_BODY, which only proves the body is copied verbatim.
import { FIXTURES, type Mesh } from '../fixtures/meshes.ts';

export interface GoldenObject {
  /** Key of FIXTURES. */
  fixture: string;
  /** Object name (defaults to the fixture name). */
  name?: string;
  material: number;
  ids: [number, number, number];
  /** Only triangles [from, to) of the fixture (used to state a split explicitly). */
  triangles?: [number, number];
}

export interface GoldenCase {
  name: string;
  what: string;
  header: 'game' | 'studio';
  objects: GoldenObject[];
  /**
   * Reference only: cut each welded object into consecutive batches of this many triangles, one shape each (the
   * crate's mesh_shape refuses more than 21,845 and does not split; see format-decisions.md "Limits"). Our encoder
   * gets the whole object and must split by itself.
   */
  referenceSplit?: number;
}

/** 0x4c bytes `i & 0xff`: a stand-in for Studio's template body, which we do not have. */
export const PLACEHOLDER_BODY = Uint8Array.from({ length: 0x4c }, (_, i) => i & 0xff);
export const HEADER_FORMS = { game: { word08: 0, body: new Uint8Array(0) }, studio: { word08: 1, body: PLACEHOLDER_BODY } };

const CONCRETE = 96;
const ASPHALT = 160;
const METAL = 352;
const METAL_RAIL = 2976;
const DEFAULT = 0x20;

const one = (name: string, fixture: string, what: string, material = CONCRETE, header: 'game' | 'studio' = 'game'): GoldenCase => ({
  name,
  what,
  header,
  objects: [{ fixture, material, ids: [1, 2, 3] }],
});

export const GOLDEN_CASES: GoldenCase[] = [
  one('box', 'box', 'the 1×2×3 box centred on (20, 30, 0): 8 vertices, every edge convex 90° or flat'),
  one('box-studio-header', 'box', 'the box with word08 1 and a 0x4c-byte (placeholder) body', CONCRETE, 'studio'),
  one('seam-split-box', 'seam-split-box', 'the box with every face its own 4 vertices: must equal the box bytes'),
  one('flat-grid-1x1', 'flat-grid-1x1', 'two triangles: one flat interior edge, one tree node'),
  one('flat-grid-4x3', 'flat-grid-4x3', 'flat grid: interior edges flat, border edges open', ASPHALT),
  one('flat-grid-16x16', 'flat-grid-16x16', '512 flat triangles, power-of-two face count', ASPHALT),
  one('bumpy-1', 'bumpy-1', 'one triangle: no tree, file ends after the face offsets'),
  one('bumpy-2', 'bumpy-2', 'two triangles: one node'),
  one('bumpy-3', 'bumpy-3', 'non-power-of-two: 3 faces'),
  one('bumpy-5', 'bumpy-5', 'non-power-of-two: 5 faces'),
  one('bumpy-7', 'bumpy-7', 'non-power-of-two: 7 faces'),
  one('bumpy-100', 'bumpy-100', '100 faces'),
  one('bumpy-1000', 'bumpy-1000', '1,000 faces'),
  one('bumpy-2048', 'bumpy-2048', "2,048 faces (the spec's test grid size)"),
  one('bumpy-5000', 'bumpy-5000', '5,000 faces'),
  one('bumpy-21845', 'bumpy-21845', '21,845 faces: exactly the u16 corner limit'),
  one('channel-l', 'channel-l', 'concave 90° crease (stored like an open edge)'),
  one('channel-u', 'channel-u', 'two concave 90° creases'),
  one('channel-v', 'channel-v', 'sharp concave crease, d < 0'),
  one('stairs', 'stairs', 'convex noses (cos 45°), concave 90° feet', 47186720),
  one('quarter-pipe', 'quarter-pipe', 'shallow concave facets (concave bit), convex coping'),
  one('round-rail', 'round-rail', '12-sided tube: shallow convex edges', METAL),
  one('grind-prism-straight', 'grind-prism-straight', "Studio's 8-sided open grind prism, straight", METAL_RAIL),
  one('grind-prism-curved', 'grind-prism-curved', 'grind prism along a rising 90° arc (mitred rings)', METAL_RAIL),
  one('seam-split-grid', 'seam-split-grid', 'bumpy grid exported with every cell its own 4 vertices'),
  one('degenerate', 'degenerate', 'repeated index, collinear, weld-degenerate, exact/rotated/reversed duplicates, −0.0', DEFAULT),
  one('negative-zero', 'negative-zero', '−0.0 first, +0.0 later at the same places: weld keeps the first value, centre 0 keeps the sign'),
  one('rotated-box', 'rotated-box', 'box turned 30° about (1,2,3): convex values other than cos 45°, no axis-aligned faces'),
  one('random-soup', 'random-soup', '300 random triangles, some sharing edges: irregular tree, random owner bits'),
  one('far-away-grid', 'far-away-grid', '200 faces 7 km from the origin: f32 recentring precision'),
  {
    name: 'many-objects',
    what: 'eight objects in one resource (each its own shape and part, materials and ids differ)',
    header: 'game',
    objects: ['channel-v', 'bumpy-5', 'flat-grid-1x1', 'rotated-box', 'bumpy-1', 'grind-prism-straight', 'degenerate', 'bumpy-7'].map(
      (fixture, i) => ({ fixture, material: 0x20 + 64 * i, ids: [i, 100 + i, 1000 + i] as [number, number, number] }),
    ),
  },
  {
    name: 'empty-object-between',
    what: 'an object with no triangle left after welding between two others: no shape, no part, indices stay dense',
    header: 'game',
    objects: [
      { fixture: 'box', material: CONCRETE, ids: [1, 0, 0] },
      { fixture: 'all-degenerate', material: METAL, ids: [2, 0, 0] },
      { fixture: 'bumpy-3', material: ASPHALT, ids: [3, 0, 0] },
    ],
  },
  {
    name: 'multi-object',
    what: 'four objects → four shapes and parts in one resource (array grouping across shapes), studio header',
    header: 'studio',
    objects: [
      { fixture: 'box', material: CONCRETE, ids: [10, 11, 12] },
      { fixture: 'stairs', material: 47186720, ids: [20, 21, 22] },
      { fixture: 'round-rail', material: METAL, ids: [30, 31, 32] },
      { fixture: 'bumpy-3', material: ASPHALT, ids: [40, 41, 42] },
    ],
  },
  {
    name: 'mixed-tree-notree',
    what: 'shapes with and without a tree: tree offset 0 for the 1-face shape, u16 arrays at 2 mod 4, 2 pad bytes',
    header: 'game',
    objects: [
      { fixture: 'bumpy-3', material: CONCRETE, ids: [1, 0, 0] },
      { fixture: 'bumpy-1', material: CONCRETE, ids: [2, 0, 0] },
      { fixture: 'bumpy-2', material: CONCRETE, ids: [3, 0, 0] },
    ],
  },
  {
    name: 'split-faces-30000',
    what: '30,000 faces in one object → two shapes: welded triangles 0..21,844 and 21,845..29,999 (consecutive batches)',
    header: 'game',
    objects: [{ fixture: 'split-faces-30000', material: CONCRETE, ids: [1, 2, 3] }],
    referenceSplit: 21845,
  },
];

/** The mesh of a golden object: its fixture, or a triangle range of it (vertex array kept whole). */
export function objectMesh(o: GoldenObject): Mesh {
  const make = FIXTURES[o.fixture];
  if (!make) throw new Error(`golden: unknown fixture "${o.fixture}"`);
  const m = make();
  if (!o.triangles) return m;
  const [from, to] = o.triangles;
  return { positions: m.positions, indices: m.indices.slice(3 * from, 3 * to) };
}
