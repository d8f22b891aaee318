// Validation kept from one build of a level to the next (src/session.ts), on the thread that validates (worker 0,
// or the main thread without workers). An object's report depends on its own arrays only, so it is kept by their
// identity (the session's key: the import hands the same arrays again only for the same inputs, and never writes
// them). Borders and cracks depend on the neighbours too: a rebuild classifies again only the open edges near a
// mesh that changed (its box, old or new, grown by more than the tolerance) and those of new meshes; every other
// edge keeps its value, mapped to the same mesh's place in this build (src/geometry/cracks.ts `known`). When the
// meshes kept are not in the same order as before, or too many changed, the whole pass runs again.
import { classifyOpenEdges, CRACK_DEFAULTS, SAMPLES, UNKNOWN } from '../geometry/cracks.ts';
import { countCracks, crackMesh, validateMesh, type CrackCounts, type MeshReport } from './validate.ts';

/** Above this many meshes changed (added, removed or edited), the crack pass runs whole (the box test is per pair). */
export const MAX_CHANGED_MESHES = 64;

/** Margin (m) beyond the crack tolerance around a changed mesh's box: rounding in the distance tests never crosses it. */
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

interface Kept {
  positions: Float32Array;
  groups: Uint32Array[];
  /** validateMesh's report, open-edge list included (never handed out: copies are). */
  report: MeshReport;
  /** The positions' box (x0, y0, z0, x1, y1, z1), or null for none. */
  box: Float64Array | null;
  /** Its name in the last crack pass, and each open edge's value then (−1, or a mesh's place in that pass). */
  name?: string;
  hits?: Int32Array;
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
  private kept = new Map<number, Kept>();
  /** Keys of the last crack pass, in its order. */
  private order: number[] = [];
  /** Of the last crack pass: whether it ran incrementally, and how many edges it classified (tests, bench). */
  readonly stats = { incremental: false, classified: 0, edges: 0 };

  /** The item's report (without its open-edge list): the kept one for its key, else computed and kept. */
  validate(item: MemoItem): MeshReport {
    let k = this.kept.get(item.key);
    if (!k) {
      k = { positions: item.positions, groups: item.groups, report: validateMesh(item.positions, item.groups), box: boxOf(item.positions) };
      this.kept.set(item.key, k);
    }
    return handOut(k.report);
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
    const meshes = kept.map((k) => crackMesh(k.positions, k.groups, k.report));
    const { with: hits } = classifyOpenEdges(meshes, {}, known);
    const out = cur.map((it, i) => {
      const k = kept[i];
      const same = known !== undefined && before.has(it.key) && !known[i].includes(UNKNOWN) && sameNames(hits[i], i, names, cur, this.kept);
      return same ? null : countCracks(k.report.open!, hits[i], i, names);
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
    const boxes = changed.flatMap((k) => (k.box ? [k.box] : []));
    const near = (x: number, y: number, z: number): boolean => {
      for (const b of boxes) if (x >= b[0] - grow && x <= b[3] + grow && y >= b[1] - grow && y <= b[4] + grow && z >= b[2] - grow && z <= b[5] + grow) return true;
      return false;
    };
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

/** Whether every other mesh that edge values of mesh i name has the name it had in the last pass. */
function sameNames(hits: Int32Array, i: number, names: string[], cur: Entry[], kept: Map<number, Kept>): boolean {
  for (const w of hits) if (w >= 0 && w !== i && kept.get(cur[w].key)?.name !== names[w]) return false;
  return true;
}
