/// <reference lib="dom" />
// report.html's 3D view (bundled with main.ts): every drawn face of every shape in one indexed mesh (positions
// merged into one buffer, u32 indices, shapes in resource order so a resource is one index range), the edges as
// line sets per edge class over the same positions (each paired edge once, every open or unpaired side), a shader
// that lights faces by their screen-space normal and hatches back faces, a CPU pick (ray against each shape's box,
// then its faces), and the framing of a finding at its own size from a side the mesh does not hide. Level of detail
// (chunks, groups, coarse meshes by vertex clustering): lod.ts.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { BORDER, chunkTables, clusteredFaces, drawsLine, faceOfKey, groupTables, len3, LOD_GRID, markOutline, OUTLINE_DIVISIONS, outlineSize, CHUNK_FACES, GROUP_CHUNKS } from './lod.ts';

export interface ShapeMeta { resource: number; part: number; material: number; min: number[]; max: number[]; vertices: number; faces: number; runs?: number }

export interface Pick {
  shape: number;
  /** Face index within its shape. */
  face: number;
  point: THREE.Vector3;
  distance: number;
  front: boolean;
  /** The hit face's edge (0–2: corner k to k + 1) nearest the point, and its class. */
  edge: number;
  edgeClass: number;
  corners: THREE.Vector3[];
}

export interface View {
  renderer: THREE.WebGLRenderer;
  /** The scene, for layers that draw over the level (page/grind.ts). */
  scene: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  controls: OrbitControls;
  render(): void;
  frames(): number;
  /** Colours for non-edge modes, one RGB (0–255) per shape; null: edge-class mode (grey faces, class lines). */
  setTint(perShape: number[][] | null): void;
  setWireframe(on: boolean): void;
  /** Show one resource alone (its index) or all (-1). */
  isolate(resource: number): void;
  isolated(): number;
  /** Faces the shown shapes hold (each drawn whole, or as its coarse mesh far away). */
  drawnFaces(): number;
  /** Faces sent to the GPU last frame (full and coarse). */
  rasterFaces(): number;
  /**
   * Shapes this frame by how they are drawn; chunks: the same over the chunks of every shape (CHUNK_FACES); groups:
   * groups of chunks drawn as their coarse mesh (GROUP_CHUNKS); mixed: shapes drawn with some chunks whole and some
   * coarse.
   */
  lod(): { coarse: number; full: number; hidden: number; offScreen: number; chunks: { coarse: number; full: number; offScreen: number }; groups: { coarse: number }; mixed: number };
  frameAll(): void;
  /** Frames a finding (2 points: an edge; more: a polygon) at its own size from an unoccluded side; marks it. */
  frameFinding(points: number[][]): void;
  /** How the last finding was framed: from a clear front side, a clear side only, or neither found. */
  framedFrom(): 'front' | 'clear' | 'none';
  /** Marks a face or edge (world points) where it is, without moving the camera. */
  mark(points: number[][]): void;
  /** Frames a box (a resource's bounds). */
  frameBox(min: number[], max: number[]): void;
  pickAt(clientX: number, clientY: number): Pick | null;
  /** A face's three corners in world space. */
  faceCorners(shape: number, face: number): THREE.Vector3[];
  /** Pixel position (CSS px, canvas-relative) of a world point. */
  project(p: number[]): [number, number];
  /** The source object (an index into the page's objects) a drawn face came from; −1: not known. */
  objectOf(shape: number, face: number): number;
  shapeFaceStart: Uint32Array;
}

/** Colours of the edge classes (flat, concave, convex, open border, crack, unpaired). */
export const EDGE_COLOURS = ['#4a7d52', '#3b8fe0', '#f09a3b', '#d8dce2', '#ff2d55', '#c64dff'];
export const MARKER_COLOUR = 0xff00ff;
/**
 * Below this size of a shape's faces on screen (px, their mean edge) the coarse mesh is drawn: in software GL (no
 * GPU) a frame's cost follows its faces, and faces under 5 px show no more than the coarse mesh does.
 */
const LOD_PX = 5;
/** The same for a shape whose coarse mesh is empty (drawn whole or not at all). */
const LOD_EMPTY_PX = 1.5;
/** From this spacing (px) a shape's flat, concave and convex edge lines are drawn (its open ones always). */
const LINE_PX = 6;
export function createView(canvas: HTMLCanvasElement, container: HTMLElement, blob: ArrayBuffer, shapes: ShapeMeta[], core: { min: number[]; max: number[] } | null = null): View {
  // ---- Merged buffers --------------------------------------------------------------------------------------------
  let nv = 0, nf = 0;
  for (const s of shapes) (nv += s.vertices), (nf += s.faces);
  const position = new Float32Array(3 * nv);
  const index = new Uint32Array(3 * nf);
  const classes = new Uint8Array(3 * nf);
  const tint = new Uint8Array(3 * nv);
  const shapeVertStart = new Uint32Array(shapes.length + 1), shapeFaceStart = new Uint32Array(shapes.length + 1);
  const lineCounts = EDGE_COLOURS.map(() => 0);
  let off = 0;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  // Level of detail: each shape also as a coarse mesh by vertex clustering (a LOD_GRID³ grid over its box, each
  // cell's first vertex standing for it, the shape's outline vertices kept, faces that keep three distinct vertices
  // kept once, winding kept): a closed surface, not a sieve, drawn when the shape's faces are under LOD_PX pixels
  // apart on screen.
  const coarse: number[] = [];
  const levelSpan = (() => {
    const l = [Infinity, Infinity, Infinity], h = [-Infinity, -Infinity, -Infinity];
    for (const s of shapes) for (let k = 0; k < 3; k++) (l[k] = Math.min(l[k], s.min[k])), (h[k] = Math.max(h[k], s.max[k]));
    return Math.max(1e-3, h[0] - l[0], h[1] - l[1], h[2] - l[2]);
  })();
  /** The smallest cluster of a coarse mesh (m): the level's extent over OUTLINE_DIVISIONS. */
  const outlineStep = Math.max(levelSpan / OUTLINE_DIVISIONS, 1e-3);
  const objectRuns: Int32Array[] = [];
  const meanEdge = new Float64Array(shapes.length);
  const shapeCoarseStart = new Uint32Array(shapes.length + 1);
  let outline = new Float64Array(0);
  shapes.forEach((s, si) => {
    const verts = new Uint16Array(blob, off, 3 * s.vertices);
    off += (verts.byteLength + 1) & ~1;
    const faces = new Uint16Array(blob, off, 3 * s.faces);
    off += (faces.byteLength + 1) & ~1;
    const cls = new Uint8Array(blob, off, 3 * s.faces);
    off += (cls.byteLength + 1) & ~1;
    // Runs of faces by source object (pairs: first face, object), i32 at an offset that may not be 4-aligned.
    objectRuns.push(new Int32Array(blob.slice(off, off + 4 * (s.runs ?? 0))));
    off += 4 * (s.runs ?? 0);
    const v0 = shapeVertStart[si], f0 = shapeFaceStart[si];
    const span = [0, 1, 2].map((k) => (s.max[k] - s.min[k]) / 65535);
    for (let k = 0; k < 3; k++) (lo[k] = Math.min(lo[k], s.min[k])), (hi[k] = Math.max(hi[k], s.max[k]));
    for (let v = 0; v < s.vertices; v++) for (let k = 0; k < 3; k++) position[3 * (v0 + v) + k] = s.min[k] + verts[3 * v + k] * span[k];
    for (let c = 0; c < 3 * s.faces; c++) {
      index[3 * f0 + c] = v0 + faces[c];
      const k = (classes[3 * f0 + c] = cls[c]);
      if (drawsLine(k, faces[c], faces[c % 3 === 2 ? c - 2 : c + 1])) lineCounts[k]++;
    }
    // The shape's faces' size: the mean length of their first edges (a cell of small props has small faces over a
    // large box: its box says nothing of them).
    let edgeSum = 0;
    for (let t = 0; t < s.faces; t++) {
      const p = 3 * (v0 + faces[3 * t]), q = 3 * (v0 + faces[3 * t + 1]);
      edgeSum += len3(position[p] - position[q], position[p + 1] - position[q + 1], position[p + 2] - position[q + 2]);
    }
    meanEdge[si] = s.faces ? edgeSum / s.faces : 0;
    shapeVertStart[si + 1] = v0 + s.vertices;
    shapeFaceStart[si + 1] = f0 + s.faces;
    // The shape's outline keeps its vertices, so the coarse mesh still meets its neighbours' without a gap.
    if (outline.length < outlineSize(s.faces)) outline = new Float64Array(outlineSize(s.faces));
    const keep = new Uint8Array(s.vertices);
    markOutline(faces, 0, s.faces, 0, outline, keep, 1);
    // Clusters per axis: LOD_GRID over the shape's box, no smaller than the outline's world step (a shape of a few
    // small props is one cluster: nothing of it is drawn far away, see LOD_EMPTY_PX).
    const grid = [0, 1, 2].map((k) => Math.max(1, Math.min(LOD_GRID, Math.ceil((s.max[k] - s.min[k]) / outlineStep))));
    const cellOf = new Map<number, number>(), rep = new Uint32Array(s.vertices);
    for (let v = 0; v < s.vertices; v++) {
      if (keep[v]) {
        rep[v] = v;
        continue;
      }
      const key = ((verts[3 * v] * grid[0]) >> 16) * LOD_GRID * LOD_GRID + ((verts[3 * v + 1] * grid[1]) >> 16) * LOD_GRID + ((verts[3 * v + 2] * grid[2]) >> 16);
      let r = cellOf.get(key);
      if (r === undefined) cellOf.set(key, (r = v));
      rep[v] = r;
    }
    const keys = new Float64Array(s.faces);
    for (let i = 0, u = clusteredFaces(faces, 0, s.faces, 0, rep, keys); i < u; i++) faceOfKey(keys[i], v0, coarse, coarse.length);
    shapeCoarseStart[si + 1] = coarse.length;
  });
  // Lines per class, in shape and face order (so a shape's, and a chunk's, are a range: lineChunkStart below).
  const lineIndex = lineCounts.map((c) => new Uint32Array(2 * c));
  const lineAt = EDGE_COLOURS.map(() => 0);
  const faceCount = (resource: number): number => shapes.reduce((t, s) => t + (s.resource === resource ? s.faces : 0), 0);
  shapes.forEach((_, si) => {
    const f0 = shapeFaceStart[si], f1 = shapeFaceStart[si + 1];
    for (let c = 3 * f0; c < 3 * f1; c++) {
      const k = classes[c];
      const from = index[c], to = index[c % 3 === 2 ? c - 2 : c + 1];
      if (!drawsLine(k, from, to)) continue;
      lineIndex[k][lineAt[k]++] = from;
      lineIndex[k][lineAt[k]++] = to;
    }
  });

  // Chunks of large shapes (lod.ts CHUNK_FACES) and groups of chunks (GROUP_CHUNKS), each with its box, face size
  // and mean normal; a shape's chunks, and groups, are consecutive.
  const chunked = chunkTables(shapes.map((s) => s.faces), shapeFaceStart, index, position, classes, EDGE_COLOURS.length);
  const { shapeChunkStart, chunkFace, chunkBox, chunkEdge, chunkNormal, lineChunkStart, chunkedFaces } = chunked;
  const chunks = shapeChunkStart[shapes.length];
  const { shapeGroupStart, groupChunk, groupBox, groupEdge, groupNormal } = groupTables(chunked);
  const groups = shapeGroupStart[shapes.length];
  // Chunks' and groups' coarse meshes are made when a shape is first seen up close (buildChunkCoarse), into room
  // kept after the shapes' coarse meshes: half the chunked faces, which clustering never comes near (a chunk that
  // does not fit is drawn whole, a group that does not fit chunk by chunk).
  const coarseEnd = index.length + coarse.length;
  const chunkCoarseStart = new Int32Array(chunks).fill(-1), chunkCoarseEnd = new Int32Array(chunks).fill(-1);
  const groupCoarseStart = new Int32Array(groups).fill(-1), groupCoarseEnd = new Int32Array(groups).fill(-1);
  const chunkCoarseMade = new Uint8Array(shapes.length);
  let chunkCoarseAt = coarseEnd;

  const posAttr = new THREE.BufferAttribute(position, 3);
  const geo = new THREE.BufferGeometry();
  geo.setAttribute('position', posAttr);
  geo.setAttribute('tint', new THREE.BufferAttribute(tint, 3, true));
  const both = new Uint32Array(coarseEnd + 3 * Math.ceil(chunkedFaces / 2));
  both.set(index);
  both.set(coarse, index.length);
  const indexAttr = new THREE.BufferAttribute(both, 1);
  geo.setIndex(indexAttr);
  geo.boundingSphere = new THREE.Sphere(new THREE.Vector3((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2), Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2 || 1);
  const faceMaterial = new THREE.ShaderMaterial({
    glslVersion: THREE.GLSL3,
    side: THREE.DoubleSide,
    polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1, // the edge lines win the depth test
    uniforms: { tinted: { value: 0 } },
    vertexShader: `
      in vec3 tint;
      out vec3 vTint; out vec3 vView;
      void main() {
        vTint = tint;
        vec4 mv = modelViewMatrix * vec4(position, 1.0);
        vView = mv.xyz;
        gl_Position = projectionMatrix * mv;
      }`,
    fragmentShader: `
      uniform int tinted;
      in vec3 vTint; in vec3 vView;
      out vec4 outColour;
      void main() {
        vec3 nrm = normalize(cross(dFdx(vView), dFdy(vView)));
        float light = 0.35 + 0.65 * abs(nrm.z);
        vec3 c = (tinted == 1 ? vTint : vec3(0.62)) * light;
        // A back face (the side its winding turns away): pink, hatched, so a flipped face shows as one.
        if (!gl_FrontFacing) {
          c = mix(c, vec3(0.86, 0.25, 0.55), 0.6);
          if (mod(gl_FragCoord.x + gl_FragCoord.y, 8.0) < 3.0) c *= 0.55;
        }
        outColour = vec4(c, 1.0);
      }`,
  });
  const mesh = new THREE.Mesh(geo, [faceMaterial]);
  mesh.frustumCulled = false;
  const scene = new THREE.Scene();
  scene.background = new THREE.Color('#1b1e22');
  scene.add(mesh);
  const lines = lineIndex.map((li, k) => {
    const lg = new THREE.BufferGeometry();
    lg.setAttribute('position', posAttr);
    lg.setIndex(new THREE.BufferAttribute(li, 1));
    const l = new THREE.LineSegments(lg, [new THREE.LineBasicMaterial({ color: EDGE_COLOURS[k] })]);
    l.frustumCulled = false;
    l.renderOrder = 1;
    scene.add(l);
    return l;
  });

  // No multisampling: software GL (no GPU) pays for every sample, and the edge lines read well without it.
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  const centre = new THREE.Vector3((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
  const size = Math.max(1, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const camera = new THREE.PerspectiveCamera(50, 1, Math.max(0.01, size / 20000), size * 20);
  const controls = new OrbitControls(camera, canvas);
  let frames = 0;
  const render = (): void => {
    const w = container.clientWidth, h = container.clientHeight;
    if (canvas.width !== Math.floor(w * renderer.getPixelRatio()) || canvas.height !== Math.floor(h * renderer.getPixelRatio())) {
      renderer.setSize(w, h, false);
      camera.aspect = w / Math.max(1, h);
      camera.updateProjectionMatrix();
    }
    updateLod(h);
    renderer.render(scene, camera);
    frames++;
  };
  controls.addEventListener('change', render);
  window.addEventListener('resize', render);

  let tinted = false, wireframe = false, only = -1;
  const showLines = (): void => {
    lines.forEach((l, k) => (l.visible = k >= BORDER || wireframe || (!tinted && k > 0)));
  };
  showLines();
  const centres = shapes.map((s) => new THREE.Vector3((s.min[0] + s.max[0]) / 2, (s.min[1] + s.max[1]) / 2, (s.min[2] + s.max[2]) / 2));
  const radii = shapes.map((s) => Math.hypot(s.max[0] - s.min[0], s.max[1] - s.min[1], s.max[2] - s.min[2]) / 2);
  /**
   * Per shape this frame: 0 hidden (isolated away), 1 coarse, 2 full faces (some of its chunks), class lines when 3,
   * 4 off-screen; per chunk of a shape drawn in chunks, the same (1: the chunk's coarse mesh).
   */
  const lod = new Uint8Array(shapes.length), chunkLod = new Uint8Array(chunks), byChunk = new Uint8Array(shapes.length);
  /** Per group this frame: 1 when drawn as its coarse mesh (its chunks' chunkLod 1). */
  const groupCoarse = new Uint8Array(groups);
  let rasterFaces = 0;
  const frustum = new THREE.Frustum(), sphere = new THREE.Sphere(), box = new THREE.Box3(), viewProjection = new THREE.Matrix4();
  /**
   * Each shape's level of detail from its faces' spacing on screen, a shape wholly outside the view left out (so a
   * view zoomed into one cell draws that cell's neighbourhood, not the level); a large shape not coarse as a whole
   * decided chunk by chunk the same way; the draw groups from it.
   */
  const updateLod = (viewHeight: number): void => {
    const pxPerUnit = viewHeight / 2 / Math.tan(THREE.MathUtils.degToRad(camera.fov / 2));
    camera.updateMatrixWorld();
    frustum.setFromProjectionMatrix(viewProjection.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
    const eye = camera.position;
    shapes.forEach((s, si) => {
      const c0 = shapeChunkStart[si], c1 = shapeChunkStart[si + 1];
      byChunk[si] = 0;
      groupCoarse.fill(0, shapeGroupStart[si], shapeGroupStart[si + 1]);
      if (only >= 0 && s.resource !== only) return void chunkLod.fill((lod[si] = 0), c0, c1);
      if (!frustum.intersectsSphere(sphere.set(centres[si], radii[si] + 1e-3))) return void chunkLod.fill((lod[si] = 4), c0, c1);
      const d = Math.max(1e-6, eye.distanceTo(centres[si]) - radii[si]);
      const spacing = meanEdge[si] * (pxPerUnit / d);
      // A shape whose coarse mesh is empty (small props merged in a cell: every face inside one cluster) is drawn
      // whole down to faces of LOD_EMPTY_PX, then left out (it is a few pixels across).
      const empty = shapeCoarseStart[si + 1] === shapeCoarseStart[si];
      lod[si] = spacing < (empty ? LOD_EMPTY_PX : LOD_PX) ? 1 : spacing < LINE_PX ? 2 : 3;
      if (lod[si] === 1 || c1 - c0 === 1) return void chunkLod.fill(lod[si], c0, c1);
      byChunk[si] = 1;
      let best = 0;
      // Its faces' size on screen: their edge at the box's distance, foreshortened by the angle the patch is seen
      // at (the square root of the area's factor: one side of a face shrinks, the other not) — a patch seen
      // edge-on towards the horizon covers a fraction of a pixel a face. A patch whose faces turn is counted as
      // facing the camera by as much as they turn (two sides of a wall: not foreshortened at all). The box, not a
      // sphere: a flat patch's sphere reaches far above and below it. −1: off-screen.
      const onScreen = (boxes: Float32Array, normals: Float32Array, edges: Float32Array, i: number): number => {
        box.min.fromArray(boxes, 6 * i).subScalar(1e-3);
        box.max.fromArray(boxes, 6 * i + 3).addScalar(1e-3);
        if (!frustum.intersectsBox(box)) return -1;
        const nx = normals[3 * i], ny = normals[3 * i + 1], nz = normals[3 * i + 2];
        const vx = eye.x - (box.min.x + box.max.x) / 2, vy = eye.y - (box.min.y + box.max.y) / 2, vz = eye.z - (box.min.z + box.max.z) / 2;
        const facing = Math.abs(nx * vx + ny * vy + nz * vz) / Math.max(1e-9, len3(vx, vy, vz));
        const seen = Math.min(1, facing + 2 * (1 - len3(nx, ny, nz)));
        return edges[i] * (pxPerUnit / Math.max(1e-6, box.distanceToPoint(eye))) * Math.sqrt(seen);
      };
      for (let gi = shapeGroupStart[si]; gi < shapeGroupStart[si + 1]; gi++) {
        const g0 = groupChunk[gi], g1 = groupChunk[gi + 1];
        const gs = onScreen(groupBox, groupNormal, groupEdge, gi);
        groupCoarse[gi] = gs >= 0 && gs < LOD_PX && g1 - g0 > 1 ? 1 : 0;
        if (gs < 0 || groupCoarse[gi]) {
          chunkLod.fill(gs < 0 ? 4 : 1, g0, g1);
          if (gs >= 0) best = Math.max(best, 1);
          continue;
        }
        for (let ci = g0; ci < g1; ci++) {
          const cs = onScreen(chunkBox, chunkNormal, chunkEdge, ci);
          chunkLod[ci] = cs < 0 ? 4 : cs < LOD_PX ? 1 : cs < LINE_PX ? 2 : 3;
          if (cs >= 0) best = Math.max(best, chunkLod[ci]);
        }
      }
      if (!chunkCoarseMade[si] && chunkLod.subarray(c0, c1).includes(1)) buildChunkCoarse(si);
      lod[si] = best || 4;
    });
    geo.clearGroups();
    rasterFaces = 0;
    const add = (g: THREE.BufferGeometry, start: number, end: number): void => {
      if (end <= start) return;
      const last = g.groups[g.groups.length - 1];
      if (last && last.start + last.count === start) last.count += end - start;
      else g.addGroup(start, end - start, 0);
    };
    shapes.forEach((_, si) => {
      if (lod[si] === 0 || lod[si] === 4) return;
      if (!byChunk[si]) {
        if (lod[si] === 1) add(geo, index.length + shapeCoarseStart[si], index.length + shapeCoarseStart[si + 1]);
        else add(geo, 3 * shapeFaceStart[si], 3 * shapeFaceStart[si + 1]);
        return;
      }
      for (let gi = shapeGroupStart[si]; gi < shapeGroupStart[si + 1]; gi++) {
        if (groupCoarse[gi] && groupCoarseStart[gi] >= 0) {
          add(geo, groupCoarseStart[gi], groupCoarseEnd[gi]);
          continue;
        }
        for (let ci = groupChunk[gi]; ci < groupChunk[gi + 1]; ci++) {
          const l = chunkLod[ci];
          if (l === 4) continue;
          if (l === 1 && chunkCoarseStart[ci] >= 0) add(geo, chunkCoarseStart[ci], chunkCoarseEnd[ci]);
          else add(geo, 3 * chunkFace[ci], 3 * chunkFace[ci + 1]);
        }
      }
    });
    for (const g of geo.groups) rasterFaces += g.count / 3;
    lines.forEach((l, k) => {
      l.geometry.clearGroups();
      // Open, crack and unpaired edges always (every shown chunk); the others only where their faces are apart.
      shapes.forEach((_, si) => {
        if (lod[si] === 0 || lod[si] === 4) return;
        for (let ci = shapeChunkStart[si]; ci < shapeChunkStart[si + 1]; ci++) {
          if (chunkLod[ci] === 4 || (k < BORDER && chunkLod[ci] < 3)) continue;
          add(l.geometry, lineChunkStart[k][ci], lineChunkStart[k][ci + 1]);
        }
      });
    });
  };
  /**
   * The coarse meshes of each chunk and each group of shape si, as the shape's own (vertex clustering, a LOD_GRID³
   * grid over the box, clusters no smaller than outlineStep), each keeping its outline (edges no face of it runs
   * back): a coarse chunk or group meets its whole or coarse neighbours, and the next shape's, without a gap.
   */
  const table = new Float64Array(outlineSize(CHUNK_FACES * GROUP_CHUNKS));
  const repOf = new Int32Array(65536), keepMark = new Int32Array(65536).fill(-1), repMark = new Int32Array(65536).fill(-1);
  /** The coarse mesh of faces [a, b) of the shape whose vertices start at v0, appended to the index; null: no room. */
  const coarseOf = (v0: number, a: number, b: number, bounds: ArrayLike<number>, stamp: number): [number, number] | null => {
    markOutline(index, a, b, v0, table, keepMark, stamp);
    const [x0, y0, z0, x1, y1, z1] = [0, 1, 2, 3, 4, 5].map((k) => bounds[k]);
    const cells = [x1 - x0, y1 - y0, z1 - z0].map((e) => Math.max(1, Math.min(LOD_GRID, Math.ceil(e / outlineStep))));
    const cellRep = new Int32Array(cells[0] * cells[1] * cells[2]).fill(-1);
    const cell = (e: number, lo: number, span: number, n: number): number => Math.max(0, Math.min(n - 1, span > 0 ? Math.floor(((e - lo) / span) * n) : 0));
    for (let c = 3 * a; c < 3 * b; c++) {
      const v = index[c] - v0;
      if (repMark[v] === stamp) continue;
      repMark[v] = stamp;
      if (keepMark[v] === stamp) {
        repOf[v] = v;
        continue;
      }
      const p = 3 * index[c];
      const key = (cell(position[p], x0, x1 - x0, cells[0]) * cells[1] + cell(position[p + 1], y0, y1 - y0, cells[1])) * cells[2] + cell(position[p + 2], z0, z1 - z0, cells[2]);
      if (cellRep[key] < 0) cellRep[key] = v;
      repOf[v] = cellRep[key];
    }
    const keys = new Float64Array(b - a);
    const out = clusteredFaces(index, a, b, v0, repOf, keys);
    if (chunkCoarseAt + 3 * out > both.length) return null;
    const start = chunkCoarseAt;
    for (let i = 0; i < out; i++, chunkCoarseAt += 3) faceOfKey(keys[i], v0, both, chunkCoarseAt);
    if (chunkCoarseAt > start) indexAttr.addUpdateRange(start, chunkCoarseAt - start);
    return [start, chunkCoarseAt];
  };
  const buildChunkCoarse = (si: number): void => {
    chunkCoarseMade[si] = 1;
    const v0 = shapeVertStart[si];
    for (let ci = shapeChunkStart[si]; ci < shapeChunkStart[si + 1]; ci++) {
      const r = coarseOf(v0, chunkFace[ci], chunkFace[ci + 1], chunkBox.subarray(6 * ci, 6 * ci + 6), ci);
      if (r) [chunkCoarseStart[ci], chunkCoarseEnd[ci]] = r;
    }
    for (let gi = shapeGroupStart[si]; gi < shapeGroupStart[si + 1]; gi++) {
      if (groupChunk[gi + 1] - groupChunk[gi] < 2) continue;
      const r = coarseOf(v0, chunkFace[groupChunk[gi]], chunkFace[groupChunk[gi + 1]], groupBox.subarray(6 * gi, 6 * gi + 6), chunks + gi);
      if (r) [groupCoarseStart[gi], groupCoarseEnd[gi]] = r;
    }
    indexAttr.needsUpdate = true;
  };

  // ---- Picking --------------------------------------------------------------------------------------------------
  const ray = new THREE.Raycaster();
  const boxes = shapes.map((s) => new THREE.Box3(new THREE.Vector3(...s.min), new THREE.Vector3(...s.max)).expandByScalar(1e-4));
  const a = new THREE.Vector3(), b = new THREE.Vector3(), c = new THREE.Vector3(), hit = new THREE.Vector3();
  const corner = (i: number, out: THREE.Vector3): THREE.Vector3 => out.fromArray(position, 3 * index[i]);
  /** The nearest face the ray meets (beyond minDistance), over the shown shapes. */
  const cast = (r: THREE.Ray, minDistance = 0, maxDistance = Infinity): Pick | null => {
    let best: Pick | null = null;
    shapes.forEach((s, si) => {
      if (only >= 0 && s.resource !== only) return;
      if (!r.intersectsBox(boxes[si])) return;
      for (let f = shapeFaceStart[si]; f < shapeFaceStart[si + 1]; f++) {
        corner(3 * f, a), corner(3 * f + 1, b), corner(3 * f + 2, c);
        if (!r.intersectTriangle(a, b, c, false, hit)) continue;
        const d = hit.distanceTo(r.origin);
        if (d <= minDistance || d >= maxDistance || (best && d >= best.distance)) continue;
        const n = new THREE.Vector3().subVectors(b, a).cross(new THREE.Vector3().subVectors(c, a));
        // Nearest edge: edge k runs corner k → k + 1; its distance to the point along the face.
        const pts = [a.clone(), b.clone(), c.clone()];
        let edge = 0, ed = Infinity;
        for (let k = 0; k < 3; k++) {
          const seg = new THREE.Line3(pts[k], pts[(k + 1) % 3]);
          const dd = seg.closestPointToPoint(hit, true, new THREE.Vector3()).distanceTo(hit);
          if (dd < ed) (ed = dd), (edge = k);
        }
        best = { shape: si, face: f - shapeFaceStart[si], point: hit.clone(), distance: d, front: n.dot(r.direction) < 0, edge, edgeClass: classes[3 * f + edge], corners: pts };
      }
    });
    return best;
  };
  const pickAt = (clientX: number, clientY: number): Pick | null => {
    const rect = canvas.getBoundingClientRect();
    ray.setFromCamera(new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1), camera);
    return cast(ray.ray);
  };

  // ---- Framing and the marker ---------------------------------------------------------------------------------
  const marker = new THREE.Group();
  scene.add(marker);
  const place = (pos: THREE.Vector3, target: THREE.Vector3, dist: number): void => {
    camera.near = Math.max(1e-4, dist / 200);
    camera.far = Math.max(size * 20, dist * 20);
    camera.updateProjectionMatrix();
    camera.position.copy(pos);
    controls.target.copy(target);
    controls.update();
    render();
  };
  // "Frame all" frames the level without its far objects (core: src/report/layers.ts), all of it without one.
  const coreCentre = core ? new THREE.Vector3((core.min[0] + core.max[0]) / 2, (core.min[1] + core.max[1]) / 2, (core.min[2] + core.max[2]) / 2) : centre;
  const coreSize = core ? Math.max(1, core.max[0] - core.min[0], core.max[1] - core.min[1], core.max[2] - core.min[2]) : size;
  const coreRadius = core ? Math.hypot(core.max[0] - core.min[0], core.max[1] - core.min[1], core.max[2] - core.min[2]) / 2 : Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2;
  const frameAll = (): void => {
    marker.clear();
    // The box's sphere fits the narrower of the two fields of view, seen from above at one side.
    const half = THREE.MathUtils.degToRad(camera.fov / 2), aspect = Math.max(0.1, container.clientWidth / Math.max(1, container.clientHeight));
    const fit = Math.min(half, Math.atan(Math.tan(half) * aspect));
    const dist = Math.max(coreSize * 0.5, coreRadius / Math.sin(fit));
    const dir = new THREE.Vector3(0.55, 0.6, 0.75).normalize();
    place(coreCentre.clone().addScaledVector(dir, dist), coreCentre, dist);
  };
  /** Sides to look from, in order: the current one, from above, around at 45° and level, from below. */
  const sides = (): THREE.Vector3[] => {
    const out = [camera.position.clone().sub(controls.target).normalize(), new THREE.Vector3(0, 1, 0)];
    for (const el of [Math.PI / 4, 0.15, -Math.PI / 4]) for (let i = 0; i < 8; i++) out.push(new THREE.Vector3(Math.cos(i * Math.PI / 4) * Math.cos(el), Math.sin(el), Math.sin(i * Math.PI / 4) * Math.cos(el)));
    out.push(new THREE.Vector3(0, -1, 0));
    return out.filter((d) => d.lengthSq() > 0.5);
  };
  let lastSide: 'front' | 'clear' | 'none' = 'none';
  const frameFinding = (pts: number[][]): void => {
    const vs = pts.map((p) => new THREE.Vector3(p[0], p[1], p[2]));
    const mid = vs.reduce((s, v) => s.add(v), new THREE.Vector3()).multiplyScalar(1 / vs.length);
    const r = Math.max(0.01, ...vs.map((v) => v.distanceTo(mid)));
    // The finding spans ~70% of the view's height (its own size: a 2 cm crack fills the view as a 2 m one does).
    const dist = r / Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)) / 0.7;
    // Probes: the middle and the ends (or corners), pulled a little off the mesh they lie on.
    const probes = [mid, ...vs.map((v) => v.clone().lerp(mid, 0.15))];
    // A side is clear when nothing lies between the probes and the camera; it is the front when the first face the
    // camera's ray meets at the finding is seen from its front (no face there: an edge seen edge-on, or a triangle
    // the file left out). The first clear front side wins, else the first clear side.
    let chosen: THREE.Vector3 | null = null, clearOnly: THREE.Vector3 | null = null;
    for (const d of sides()) {
      const clear = probes.every((p) => {
        const from = p.clone().addScaledVector(d, r * 0.02 + 1e-4);
        return !cast(new THREE.Ray(from, d.clone()), 0, dist);
      });
      if (!clear) continue;
      const eye = mid.clone().addScaledVector(d, dist);
      const seen = [mid, ...vs.map((v) => v.clone().lerp(mid, 0.3))].map((p) => cast(new THREE.Ray(eye, p.clone().sub(eye).normalize()), 0, dist * 1.05 + r));
      const front = seen.every((h) => !h || h.front);
      if (front) {
        chosen = d;
        break;
      }
      clearOnly ??= d;
    }
    lastSide = chosen ? 'front' : clearOnly ? 'clear' : 'none';
    chosen ??= clearOnly ?? sides()[0];
    drawMarker(vs, r);
    place(mid.clone().addScaledVector(chosen, dist), mid, dist);
  };
  const drawMarker = (vs: THREE.Vector3[], r: number): void => {
    marker.clear();
    const seen = new THREE.MeshBasicMaterial({ color: MARKER_COLOUR });
    // Through the mesh only as a faint outline: the same tubes drawn again without the depth test, translucent.
    const ghost = new THREE.MeshBasicMaterial({ color: MARKER_COLOUR, transparent: true, opacity: 0.22, depthTest: false, depthWrite: false });
    const segs = vs.length === 2 ? [[vs[0], vs[1]]] : vs.map((v, i) => [v, vs[(i + 1) % vs.length]]);
    const radius = r * 0.035;
    for (const [p, q] of segs) {
      const len = p.distanceTo(q);
      const tube = new THREE.CylinderGeometry(radius, radius, Math.max(len, 1e-6), 10, 1);
      for (const mat of [seen, ghost]) {
        const t = new THREE.Mesh(tube, mat);
        t.position.copy(p).lerp(q, 0.5);
        t.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), q.clone().sub(p).normalize());
        t.renderOrder = mat === ghost ? 3 : 2;
        marker.add(t);
      }
    }
    const dot = new THREE.SphereGeometry(radius * 2.2, 12, 8);
    for (const v of vs) for (const mat of [seen, ghost]) marker.add(new THREE.Mesh(dot, mat).translateX(v.x).translateY(v.y).translateZ(v.z));
  };
  const frameBox = (min: number[], max: number[]): void => {
    const bmin = new THREE.Vector3(...min), bmax = new THREE.Vector3(...max);
    const mid = bmin.clone().lerp(bmax, 0.5), r = Math.max(0.05, bmin.distanceTo(bmax) / 2);
    const dist = r / Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)) / 0.9;
    const dir = camera.position.clone().sub(controls.target).normalize();
    marker.clear();
    place(mid.clone().addScaledVector(dir.lengthSq() > 0.5 ? dir : new THREE.Vector3(0.5, 0.7, 0.5).normalize(), dist), mid, dist);
  };

  frameAll();
  return {
    renderer, scene, camera, controls, render, frames: () => frames, shapeFaceStart,
    setTint(perShape) {
      tinted = perShape !== null;
      faceMaterial.uniforms.tinted.value = tinted ? 1 : 0;
      if (perShape) {
        shapes.forEach((_, si) => {
          const col = perShape[si];
          for (let v = shapeVertStart[si]; v < shapeVertStart[si + 1]; v++) tint.set(col, 3 * v);
        });
        geo.getAttribute('tint').needsUpdate = true;
      }
      showLines();
      render();
    },
    setWireframe(on) {
      wireframe = on;
      showLines();
      render();
    },
    isolate(resource) {
      only = resource;
      render();
    },
    isolated: () => only,
    drawnFaces: () => (only < 0 ? index.length / 3 : faceCount(only)),
    rasterFaces: () => rasterFaces,
    lod: () => ({
      coarse: [...lod].filter((x) => x === 1).length, full: [...lod].filter((x) => x === 2 || x === 3).length, hidden: [...lod].filter((x) => x === 0).length, offScreen: [...lod].filter((x) => x === 4).length,
      chunks: { coarse: [...chunkLod].filter((x) => x === 1).length, full: [...chunkLod].filter((x) => x === 2 || x === 3).length, offScreen: [...chunkLod].filter((x) => x === 4).length },
      groups: { coarse: [...groupCoarse].filter((x, gi) => x === 1 && groupCoarseStart[gi] >= 0).length },
      mixed: shapes.filter((_, si) => {
        const l = chunkLod.subarray(shapeChunkStart[si], shapeChunkStart[si + 1]);
        return byChunk[si] === 1 && l.includes(1) && (l.includes(2) || l.includes(3));
      }).length,
    }),
    frameAll() {
      frameAll();
    },
    frameFinding, frameBox, pickAt,
    framedFrom: () => lastSide,
    mark(points) {
      const vs = points.map((p) => new THREE.Vector3(p[0], p[1], p[2]));
      const mid = vs.reduce((t, v) => t.add(v), new THREE.Vector3()).multiplyScalar(1 / vs.length);
      drawMarker(vs, Math.max(0.01, ...vs.map((v) => v.distanceTo(mid))) * 0.5);
      render();
    },
    objectOf(si, f) {
      const runs = objectRuns[si];
      let lo = 0, hi = runs.length / 2 - 1, o = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (runs[2 * mid] <= f) (o = runs[2 * mid + 1]), (lo = mid + 1);
        else hi = mid - 1;
      }
      return o;
    },
    faceCorners: (si, f) => [0, 1, 2].map((k) => corner(3 * (shapeFaceStart[si] + f) + k, new THREE.Vector3())),
    project(p) {
      const v = new THREE.Vector3(p[0], p[1], p[2]).project(camera);
      const rect = canvas.getBoundingClientRect();
      return [((v.x + 1) / 2) * rect.width, ((1 - v.y) / 2) * rect.height];
    },
  };
}
