// Validation kept from one build of a level to the next (src/build/session.ts), on the thread that validates (worker 0,
// or the main thread without workers). An object's report depends on its own arrays only, so it is kept by their
// identity (the session's key: the import hands the same arrays again only for the same inputs, and never writes
// them). Borders and cracks depend on the neighbours too: a rebuild classifies again only the open edges near a
// mesh that changed (its triangles, old or new, grown by more than the tolerance) and those of new meshes; every
// other edge keeps its value, mapped to the same mesh's place in this build (src/geometry/cracks.ts `known`). When
// the meshes kept are not in the same order as before, or too many changed, the whole pass runs again.
import { classifyOpenEdges, CRACK_DEFAULTS, SAMPLES, UNCHECKED, UNKNOWN } from '../geometry/cracks.ts';
import { countCracks, crackMesh, validateMesh, type CrackCounts, type MeshReport } from './validate.ts';

/** Above this many meshes changed (added, removed or edited), the crack pass runs whole. */
export const MAX_CHANGED_MESHES = 64;

/** Margin (m) beyond the crack tolerance around a changed triangle: rounding in the distance tests never crosses it. */
const BOX_MARGIN = 1e-4;

/** An object to validate: its session key and arrays. */
export interface MemoItem {
  key: number;
  positions: Float32Array;
  groups: Uint32Array[];
}

/** An object of this build's crack pass: its key (validated in this build or kept) and name. */
interface Entry {
  key: number;
  name: string;
}

/** What the memo keeps of one mesh. */
export interface Kept {
  /**
   * Its arrays; undefined for a mesh of a pass restored from another process (src/import/validate-store.ts) that no
   * object of this build has claimed yet (same content, so validate() hands it this build's arrays): as a changed
   * mesh of the pass, its box then stands for its triangles.
   */
  positions?: Float32Array;
  groups?: Uint32Array[];
  /** validateMesh's report, open-edge list included (never handed out: copies are). */
  report: MeshReport;
  /** The positions' box (x0, y0, z0, x1, y1, z1), or null for none. */
  box: Float64Array | null;
  /** Its name in the last crack pass, and each open edge's value then (−1, or a mesh's place in that pass). */
  name?: string;
  hits?: Int32Array;
  /** Its borders and cracks as last counted (what a null of cracks() stands for). */
  counts?: CrackCounts;
}

/** A crack pass as kept: its meshes in order, by key (what src/import/validate-store.ts writes and reads back). */
export interface KeptPass {
  order: number[];
  kept: Map<number, Kept>;
}

/** A report for the caller: a copy it may complete (cracks) without touching the kept one. */
const handOut = ({ open: _o, ...r }: MeshReport): MeshReport => ({ ...r, locations: { ...r.locations } });

function boxOf(p: Float32Array): Float64Array | null {
  if (p.length === 0) return null;
  const b = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  for (let i = 0; i < p.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = p[i + a];
      if (v < b[a]) b[a] = v;
      if (v > b[3 + a]) b[3 + a] = v;
    }
  }
  return b;
}

export class ValidationMemo {
  constructor(private limits: AreaLimits = AREA_LIMITS) {}

  private kept = new Map<number, Kept>();
  /** Keys of the last crack pass, in its order. */
  private order: number[] = [];
  /** Of the last crack pass: whether it ran incrementally, and how many edges it classified (tests, bench). */
  /** The last pass: incremental or whole, edges classified of all, boxes every point was tested against (ChangedArea). */
  readonly stats = { incremental: false, classified: 0, edges: 0, areaBoxes: 0 };

  /** The item's report (without its open-edge list): the kept one for its key, else computed and kept. */
  validate(item: MemoItem): MeshReport {
    let k = this.kept.get(item.key);
    if (!k) {
      k = { positions: item.positions, groups: item.groups, report: validateMesh(item.positions, item.groups), box: boxOf(item.positions) };
      this.kept.set(item.key, k);
    } else if (!k.positions) {
      k.positions = item.positions; // a restored mesh: these arrays are its content
      k.groups = item.groups;
    }
    return handOut(k.report);
  }

  /** The last crack pass (its meshes, for src/import/validate-store.ts to write). */
  pass(): KeptPass {
    return { order: this.order, kept: this.kept };
  }

  /** A memo holding a pass another process kept (nothing claimed yet: see Kept.positions). */
  static restored(pass: KeptPass, limits?: AreaLimits): ValidationMemo {
    const m = new ValidationMemo(limits);
    m.order = pass.order;
    m.kept = pass.kept;
    return m;
  }

  /** cracks(), with each null replaced by the counts of the previous pass (kept here). */
  cracksWhole(keys: ArrayLike<number>, names: string[]): CrackCounts[] {
    return this.cracks(keys, names).map((c, i) => {
      const counts = c ?? this.kept.get(keys[i])!.counts;
      if (!counts) throw new Error(`validate: no crack counts kept for "${names[i]}"`);
      return counts;
    });
  }

  /**
   * Borders and cracks of this build's objects (keys and names, in the order of a build without the memo; each
   * validated this build or kept): null where the counts are those of the previous pass (the caller keeps them),
   * else the counts. Then only these objects are kept.
   */
  cracks(keys: ArrayLike<number>, names: string[]): (CrackCounts | null)[] {
    const cur: Entry[] = Array.from(keys, (key, i) => ({ key, name: names[i] }));
    for (const it of cur) if (!this.kept.has(it.key)) throw new Error(`validate: no report kept for "${it.name}" (${it.key})`);
    const place = new Map(cur.map((it, i) => [it.key, i]));
    const before = new Map(this.order.map((key, i) => [key, i]));
    const kept = cur.map((it) => this.kept.get(it.key)!);
    const known = place.size === cur.length ? this.known(cur, place, before, kept) : undefined;
    const meshes = kept.map((k, i) => {
      if (!k.positions || !k.groups) throw new Error(`validate: no arrays for "${cur[i].name}" (${cur[i].key})`);
      return crackMesh(k.positions, k.groups, k.report);
    });
    const { with: hits } = classifyOpenEdges(meshes, {}, known);
    const out = cur.map((it, i) => {
      const k = kept[i];
      const same = known !== undefined && before.has(it.key) && k.counts !== undefined && !known[i].includes(UNKNOWN) && sameNames(hits[i], i, names, cur, this.kept);
      if (same) return null;
      return (k.counts = countCracks(k.report.open!, hits[i], i, names));
    });
    let edges = 0;
    cur.forEach((it, i) => {
      kept[i].name = it.name;
      kept[i].hits = hits[i];
      edges += hits[i].length;
    });
    this.stats.incremental = known !== undefined;
    this.stats.edges = edges;
    this.stats.classified = known ? known.reduce((s, w) => s + w.filter((v) => v === UNKNOWN).length, 0) : edges;
    this.order = cur.map((it) => it.key);
    this.kept = new Map(cur.map((it, i) => [it.key, kept[i]]));
    return out;
  }

  /**
   * The values every edge keeps (UNKNOWN: classify again), or undefined to classify all: nothing before, the kept
   * meshes in another order, or more than MAX_CHANGED_MESHES changed.
   */
  private known(cur: Entry[], place: Map<number, number>, before: Map<number, number>, kept: Kept[]): Int32Array[] | undefined {
    if (this.order.length === 0) return undefined;
    let last = -1;
    for (const it of cur) {
      const b = before.get(it.key);
      if (b === undefined) continue;
      if (b < last) return undefined;
      last = b;
    }
    const changed = [...cur.filter((it) => !before.has(it.key)).map((it) => this.kept.get(it.key)!), ...this.order.filter((key) => !place.has(key)).map((key) => this.kept.get(key)!)];
    if (changed.length > MAX_CHANGED_MESHES) return undefined;
    const grow = 2 * CRACK_DEFAULTS.tolerance + BOX_MARGIN;
    const area = new ChangedArea(changed, grow, this.limits);
    this.stats.areaBoxes = area.boxCount;
    const near = (x: number, y: number, z: number): boolean => area.near(x, y, z);
    return cur.map((it, mi) => {
      const k = kept[mi];
      const e = k.report.open?.ends ?? new Float32Array(0);
      const n = e.length / 6;
      const out = new Int32Array(n).fill(UNKNOWN);
      if (!before.has(it.key) || !k.hits || k.hits.length !== n) return out;
      for (let i = 0; i < n; i++) {
        let dirty = false;
        for (const f of SAMPLES) {
          if (near(e[6 * i] + f * (e[6 * i + 3] - e[6 * i]), e[6 * i + 1] + f * (e[6 * i + 4] - e[6 * i + 1]), e[6 * i + 2] + f * (e[6 * i + 5] - e[6 * i + 2]))) dirty = true;
        }
        if (dirty) continue;
        const v = k.hits[i];
        if (v === UNCHECKED) continue; // not classified last pass: classify now
        if (v < 0) out[i] = -1;
        else {
          const to = place.get(this.order[v]);
          if (to !== undefined) out[i] = to;
        }
      }
      return out;
    });
  }
}

/** The dirty test's grid limits (ChangedArea); tests lower them to take the coarser paths. */
export interface AreaLimits {
  /** Most X/Z cells one triangle marks; a bigger one is kept as a box (tested against every point). */
  cellsPerTriangle: number;
  /** Most cells marked in all (a Set of numbers: ~50 MB at most). */
  cells: number;
  /** Most changed triangles marked. Past this or `cells`, the changed meshes' own boxes are the area. */
  triangles: number;
  /**
   * Most triangles kept as boxes: every point of the pass is tested against each (near), so past this the changed
   * meshes' own boxes (at most 2 × MAX_CHANGED_MESHES) are the area. Without it, 4,000 changed triangles much larger
   * than the rest tested each of 450,000 points against each of 4,000 boxes.
   */
  boxes: number;
}

export const AREA_LIMITS: AreaLimits = { cellsPerTriangle: 4096, cells: 1_000_000, triangles: 250_000, boxes: 256 };
/** Cell keys: (ix + bias) · 2^26 + (iz + bias), exact below 2^52 (|ix|, |iz| < 2^25: 100 km at cells ≥ 8 mm). */
const CELL_BIAS = 2 ** 25;
const cellKey = (ix: number, iz: number): number => (ix + CELL_BIAS) * 2 ** 26 + (iz + CELL_BIAS);

/**
 * Where the changed meshes (old and new) are, for the dirty test: each triangle's box grown by `grow`, marked on
 * an X/Z grid of about the triangles' size (a point in an unmarked cell is farther than the tolerance from every
 * changed face and edge). A mesh's whole box made every edge dirty when the change was spread over the level (one
 * of 1,000 objects of scattered triangles moved: the whole pass ran again, 1.7 s).
 */
class ChangedArea {
  private cells = new Set<number>();
  /** x0, y0, z0, x1, y1, z1 per box, grown: triangles too big for the grid, or every changed mesh when it is full. */
  private boxes: number[] = [];
  private size: number;

  constructor(meshes: Kept[], private grow: number, private limits: AreaLimits) {
    const extents: number[] = [];
    let total = 0;
    for (const k of meshes) for (const g of k.groups ?? []) total += g.length / 3;
    const step = Math.max(1, Math.floor(total / 1024));
    let t = 0;
    for (const k of meshes) {
      const p = k.positions;
      if (!p || !k.groups) continue;
      for (const g of k.groups) {
        for (let c = 0; c < g.length; c += 3, t++) {
          if (t % step !== 0) continue;
          const a = 3 * g[c], b = 3 * g[c + 1], d = 3 * g[c + 2];
          extents.push(Math.max(Math.max(p[a], p[b], p[d]) - Math.min(p[a], p[b], p[d]), Math.max(p[a + 2], p[b + 2], p[d + 2]) - Math.min(p[a + 2], p[b + 2], p[d + 2])));
        }
      }
    }
    extents.sort((x, y) => x - y);
    const median = extents.length ? extents[extents.length >> 1] : 1;
    this.size = Math.max(4 * grow, Number.isFinite(median) ? median : 1);
    // A change that big dirties most of a level anyway: the meshes' boxes are as good.
    if (total > limits.triangles || !this.mark(meshes)) {
      this.cells.clear();
      this.boxes = [];
      const r = grow;
      for (const k of meshes) if (k.box) this.boxes.push(k.box[0] - r, k.box[1] - r, k.box[2] - r, k.box[3] + r, k.box[4] + r, k.box[5] + r);
    }
  }

  /** Marks every changed triangle (a mesh without its arrays: its box); false when that would pass the limit of cells. */
  private mark(meshes: Kept[]): boolean {
    const s = this.size, r = this.grow;
    for (const k of meshes) {
      const p = k.positions;
      if (!p || !k.groups) {
        const b = k.box;
        if (b) this.boxes.push(b[0] - r, b[1] - r, b[2] - r, b[3] + r, b[4] + r, b[5] + r);
        continue;
      }
      for (const g of k.groups) {
        for (let c = 0; c < g.length; c += 3) {
          const a = 3 * g[c], b = 3 * g[c + 1], d = 3 * g[c + 2];
          const x0 = Math.min(p[a], p[b], p[d]) - r, x1 = Math.max(p[a], p[b], p[d]) + r;
          const z0 = Math.min(p[a + 2], p[b + 2], p[d + 2]) - r, z1 = Math.max(p[a + 2], p[b + 2], p[d + 2]) + r;
          const ix0 = Math.floor(x0 / s), ix1 = Math.floor(x1 / s), iz0 = Math.floor(z0 / s), iz1 = Math.floor(z1 / s);
          if ((ix1 - ix0 + 1) * (iz1 - iz0 + 1) > this.limits.cellsPerTriangle) {
            const y0 = Math.min(p[a + 1], p[b + 1], p[d + 1]) - r, y1 = Math.max(p[a + 1], p[b + 1], p[d + 1]) + r;
            this.boxes.push(x0, y0, z0, x1, y1, z1);
            if (this.boxes.length > 6 * this.limits.boxes) return false;
            continue;
          }
          for (let ix = ix0; ix <= ix1; ix++) for (let iz = iz0; iz <= iz1; iz++) this.cells.add(cellKey(ix, iz));
          if (this.cells.size > this.limits.cells) return false;
        }
      }
    }
    return true;
  }

  get boxCount(): number {
    return this.boxes.length / 6;
  }

  near(x: number, y: number, z: number): boolean {
    const s = this.size;
    if (this.cells.has(cellKey(Math.floor(x / s), Math.floor(z / s)))) return true;
    const b = this.boxes;
    for (let i = 0; i < b.length; i += 6) if (x >= b[i] && x <= b[i + 3] && y >= b[i + 1] && y <= b[i + 4] && z >= b[i + 2] && z <= b[i + 5]) return true;
    return false;
  }
}

/** Whether every other mesh that edge values of mesh i name has the name it had in the last pass. */
function sameNames(hits: Int32Array, i: number, names: string[], cur: Entry[], kept: Map<number, Kept>): boolean {
  for (const w of hits) if (w >= 0 && w !== i && kept.get(cur[w].key)?.name !== names[w]) return false;
  return true;
}
