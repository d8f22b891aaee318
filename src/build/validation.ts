// The level's validation report (src/import/validate.ts) as a build computes it: per object on worker 0 while the
// import walks the scene (or on the main thread while the workers encode), then borders and cracks over all objects.
// Context: ../shared/spec/collider-shape-contract.md ("Mesh Policy").
// In a session (src/build/session.ts) the reports and crack counts of objects whose arrays are the previous build's are
// not computed again: worker 0 keeps what it validated (src/import/validate-memo.ts), the main thread the reports
// and counts it received (ValidationKeep), and each build sends the worker only the objects it does not hold.
import { applyCrackCounts, classifyCracks, describeReport, validateMesh, type CrackCounts, type MeshReport } from '../import/validate.ts';
import { ValidationMemo } from '../import/validate-memo.ts';
import { arrayId } from '../import/memo.ts';
import type { ImportedObject, Logger } from '../model.ts';
import type { RunsMemo } from '../tiling/cells.ts';
import { cellRuns } from '../tiling/cells.ts';
import { UNIT_TRIANGLES, type ThreadPool } from '../tiling/pool.ts';

const bodies = new WeakMap<Float32Array, { groups: Uint32Array[]; key: number }[]>();
let lastKey = 0;

/** An object's session key: a number for the identity of its arrays (positions, then each group's indices). */
function objectKey(o: ImportedObject): number {
  let list = bodies.get(o.positions);
  if (!list) bodies.set(o.positions, (list = []));
  for (const b of list) {
    let same = b.groups.length === o.groups.length;
    for (let i = 0; same && i < b.groups.length; i++) same = b.groups[i] === o.groups[i].indices;
    if (same) return b.key;
  }
  const key = ++lastKey;
  list.push({ groups: o.groups.map((g) => g.indices), key });
  if (list.length > 4) list.shift();
  return key;
}

/** A report as kept: a copy the build may complete with its cracks. */
const copyReport = (r: MeshReport): MeshReport => ({ ...r, locations: { ...r.locations } });

/**
 * What a session keeps of validation between builds (main thread): the last successful build's reports and crack
 * counts by object key, which of them worker 0 of `pool` holds, and the main thread's own memo (no workers).
 * A failed build forgets it all, and the worker is told to by a new token.
 */
export class ValidationKeep {
  private generation = 0;
  pool: ThreadPool | undefined;
  remote = new Set<number>();
  reports = new Map<number, MeshReport>();
  counts = new Map<number, CrackCounts>();
  local = new ValidationMemo();

  constructor(private session: string) {}

  /** What worker 0's memo is named by (src/tiling/worker.ts 'reset'): a new one after a failure. */
  get token(): string {
    return `${this.session}:${this.generation}`;
  }

  /**
   * A build succeeded with these reports and counts; `remote`: the keys worker 0 validated or held, in its pass
   * (undefined: validated here). The memo of the other side is dropped: its last pass is not this build's.
   */
  committed(reports: Map<number, MeshReport>, counts: Map<number, CrackCounts>, remote: number[] | undefined): void {
    this.reports = reports;
    this.counts = counts;
    if (remote) {
      this.remote = new Set(remote);
      this.local = new ValidationMemo();
    } else {
      this.generation++; // the worker's memo, if any, is from an older pass: it starts anew
      this.pool = undefined;
      this.remote = new Set();
    }
  }

  forget(): void {
    this.generation++;
    this.pool = undefined;
    this.remote = new Set();
    this.reports = new Map();
    this.counts = new Map();
    this.local = new ValidationMemo();
  }
}

/** What a session gives a build's validation: the keep, and the cell runs memo. */
export interface ValidationSession {
  keep: ValidationKeep;
  runs: RunsMemo;
}

/**
 * Per-object validation reports. With workers up before the import walks the scene, objects go to worker 0 in
 * batches as they are imported (the worker is otherwise idle until encoding starts); without, the main thread
 * computes them while the workers encode. Either way the warnings are logged in object order once all reports
 * are in, so warnings and manifest are the same for any thread count. Grind prisms are skipped (open by
 * construction; their density is checked when they are built). The same batches carry the plan's cell runs of
 * the small objects (onWorker). In a session, an object the worker holds from the previous build is not sent
 * (its report is the keep's), and the crack pass names every object of the build by key, in the same order.
 */
export class Validation {
  constructor(private session?: ValidationSession) {}

  private pool: ThreadPool | undefined;
  private batch: ImportedObject[] = [];
  private batchTriangles = 0;
  private remote: Promise<[ImportedObject[], MeshReport[]]>[] = [];
  /** The worker's borders and cracks over everything posted (asked for at the end of the walk). */
  private cracks: Promise<(CrackCounts | null)[]> | undefined;
  private local = new Map<ImportedObject, MeshReport>();
  summary: Record<string, Partial<MeshReport>> = {};

  /** Session: every object of the crack pass in its order (small ones as the walk makes them, then the big). */
  private order: ImportedObject[] = [];
  private keys = new Map<ImportedObject, number>();
  /** Session: this build's reports and counts by key, the keep's once the build succeeds. */
  private nextReports = new Map<number, MeshReport>();
  private nextCounts = new Map<number, CrackCounts>();

  private keyOf(o: ImportedObject): number {
    let k = this.keys.get(o);
    if (k === undefined) this.keys.set(o, (k = objectKey(o)));
    return k;
  }

  /** Cell runs the worker computed for small objects (at runsCellSize), taken by the plan when in by then. */
  private runs = new Map<ImportedObject, Float64Array[]>();
  private runsCellSize: number | undefined;

  /**
   * Workers started (at least one, maybe not up yet): objects go to the first. With a cell size, each batch of
   * small objects is also planned there (cellRuns, posted before the batch's validation so it comes back first):
   * the per-triangle pass of the plan done in the worker's idle time during the walk. The plan computes whatever
   * is not back yet itself, with the same result.
   */
  onWorker(pool: ThreadPool, cellSize?: number): void {
    this.pool = pool;
    this.runsCellSize = cellSize;
    const keep = this.session?.keep;
    if (keep && keep.pool !== pool) {
      keep.pool = pool; // a worker of another pool holds nothing of this session
      keep.remote = new Set();
    }
  }

  /**
   * The cell plan is made: the worker's runs are not needed again (a plan by cells is never redone), so they are let
   * go, and any still on their way are dropped (the 64M bench level: one small array for each of 262,464 objects).
   */
  releaseRuns(): void {
    this.runs.clear();
    this.runsCellSize = undefined;
  }

  /**
   * For planCells: the runs of group gi of o at cellSize — the worker's if they are in; in a session, the previous
   * build's for the same arrays, else computed here and kept.
   */
  knownRuns(cellSize: number): (o: ImportedObject, gi: number) => Float64Array | undefined {
    const memo = this.session?.runs;
    if (!memo) return (o, gi) => (cellSize === this.runsCellSize ? this.runs.get(o)?.[gi] : undefined);
    return (o, gi) => {
      const idx = o.groups[gi].indices;
      const kept = memo.get(o.positions, idx, cellSize);
      if (kept) return kept;
      const r = (cellSize === this.runsCellSize ? this.runs.get(o)?.[gi] : undefined) ?? cellRuns(o.positions, idx, cellSize);
      memo.set(o.positions, idx, cellSize, r);
      return r;
    };
  }

  /**
   * Objects of a unit's triangles or more wait for the end of the walk, so the worker validates the small ones
   * first: their many short calls get the validation's functions optimised before a big object's long loops run
   * (which otherwise run interpreted until each loop's on-stack replacement is compiled). Bench level, validation
   * in walk order against small first, fresh process each, 7 runs: 668 → 476 ms median (the 560,000-triangle
   * terrain alone 351 → 194 ms). A level of big objects only loses the walk's time on the worker (it waits).
   */
  private big: ImportedObject[] = [];

  add(o: ImportedObject): void {
    if (!this.pool || o.kind === 'grind' || o.shape) return; // shape objects: validated as what they become
    let triangles = 0;
    for (const g of o.groups) triangles += g.indices.length / 3;
    if (triangles >= UNIT_TRIANGLES) {
      this.big.push(o);
      return;
    }
    const keep = this.session?.keep;
    if (keep) {
      this.order.push(o);
      if (keep.remote.has(this.keyOf(o))) return; // the worker holds it
    }
    this.batch.push(o);
    this.batchTriangles += triangles;
    if (this.batchTriangles >= UNIT_TRIANGLES) this.post(this.batch.splice(0));
  }

  /** End of the walk: what is left of the small objects, then the big ones, one message each. */
  flush(): void {
    if (this.batch.length) this.post(this.batch.splice(0));
    const keep = this.session?.keep;
    for (const o of this.big.splice(0)) {
      if (keep) this.order.push(o);
      if (!keep?.remote.has(this.keyOf(o))) this.post([o], false);
    }
    // Every object is with the worker now: the level-wide crack pass runs there next, while the plan runs here.
    if (this.pool && keep && this.order.length) this.cracks = this.pool.cracks(0, this.order.map((o) => this.keyOf(o)), this.order.map((o) => o.name));
    else if (this.pool && this.remote.length) this.cracks = this.pool.cracks(0);
    this.cracks?.catch(() => undefined);
  }

  private post(objs: ImportedObject[], small = true): void {
    if (!this.pool) return;
    this.batchTriangles = 0;
    const item = (o: ImportedObject) => ({ positions: o.positions, groups: o.groups.map((g) => g.indices), name: o.name });
    const cs = this.runsCellSize;
    const memo = this.session?.runs;
    const needRuns = cs === undefined || !small ? [] : memo ? objs.filter((o) => o.groups.some((g) => !memo.get(o.positions, g.indices, cs))) : objs;
    if (needRuns.length) {
      this.pool.cellRuns(0, needRuns.map(item), cs!).then((r) => this.runsCellSize === cs && needRuns.forEach((o, i) => this.runs.set(o, r[i])), () => undefined);
    }
    const sent = this.session ? objs.map((o) => ({ key: this.keyOf(o), positions: o.positions, groups: o.groups.map((g) => g.indices) })) : objs.map((o) => ({ ...item(o), ids: o.groups.map((g) => arrayId(g.indices)) }));
    const reports = this.pool.validate(0, sent).then((r): [ImportedObject[], MeshReport[]] => [objs, r]);
    reports.catch(() => undefined); // a worker that died is reported where the reports are awaited, not as unhandled
    this.remote.push(reports);
  }

  /** Crack counts (null: the previous build's for this object), kept for the next build. */
  private countsOf(o: ImportedObject, c: CrackCounts | null): CrackCounts {
    const key = this.keyOf(o);
    const counts = c ?? this.session!.keep.counts.get(key);
    if (!counts) throw new Error(`validate: no crack counts for "${o.name}"`);
    this.nextCounts.set(key, counts);
    return counts;
  }

  /** The build succeeded: what it validated is what the next build of the session starts from. */
  commit(): void {
    const s = this.session;
    if (!s) return;
    s.keep.committed(this.nextReports, this.nextCounts, this.pool ? this.order.map((o) => this.keyOf(o)) : undefined);
  }

  /** Main-thread part: every object no worker took. */
  runLocal(objects: ImportedObject[]): void {
    if (this.pool) return;
    const memo = this.session?.keep.local;
    for (const o of objects) {
      if (o.kind !== 'mesh' || o.shape || this.local.has(o)) continue;
      const groups = o.groups.map((g) => g.indices);
      this.local.set(o, memo ? memo.validate({ key: this.keyOf(o), positions: o.positions, groups }) : validateMesh(o.positions, groups));
    }
  }

  async results(objects: ImportedObject[]): Promise<Map<ImportedObject, MeshReport>> {
    this.runLocal(objects);
    const out = new Map(this.local);
    const keep = this.session?.keep;
    const posted: ImportedObject[] = [];
    for (const [objs, reports] of await Promise.all(this.remote)) objs.forEach((o, i) => (out.set(o, reports[i]), posted.push(o)));
    if (keep && this.pool) {
      // The worker's reports this build and the keep's for the objects it held; kept as they came, for the next build.
      for (const o of this.order) {
        const key = this.keyOf(o);
        // Kept as received (the worker's, or the keep's: never written), handed out as a copy the cracks complete.
        const r = out.get(o) ?? keep.reports.get(key);
        if (!r) throw new Error(`validate: no report for "${o.name}"`);
        this.nextReports.set(key, r);
        out.set(o, copyReport(r));
      }
    }
    // Open edges into borders and cracks, over all objects at once (a crack may lie along another object): on the
    // worker for the objects it validated, here for the others.
    const crackOrder = keep ? this.order : posted;
    if (this.cracks) (await this.cracks).forEach((c, i) => applyCrackCounts(out.get(crackOrder[i])!, keep ? this.countsOf(crackOrder[i], c) : c!));
    const here = objects.filter((o) => this.local.has(o));
    if (here.length && keep) {
      // The memo's pass in the objects' order, as classifyCracks' below.
      keep.local.cracks(here.map((o) => this.keyOf(o)), here.map((o) => o.name)).forEach((c, i) => applyCrackCounts(out.get(here[i])!, this.countsOf(here[i], c)));
    } else if (here.length) classifyCracks(here.map((o) => ({ name: o.name, positions: o.positions, groups: o.groups.map((g) => g.indices), report: out.get(o)! })));
    return out;
  }

  /** `cut`: the density cut's target when it is on (the dense-part item says what the build does about it). */
  report(objects: ImportedObject[], reports: Map<ImportedObject, MeshReport>, logger: Logger, cut?: number): void {
    for (const o of objects) {
      const report = reports.get(o);
      if (!report) continue;
      const line = describeReport(o.name, report, cut);
      if (line) logger.warn(line);
      // Every object with a finding (borders included: info), counts and the locations kept (in the report's order).
      let entry: Record<string, unknown> | undefined;
      for (const k in report) {
        const v = (report as unknown as Record<string, unknown>)[k];
        if (typeof v !== 'number' || v === 0 || k === 'triangles' || (k === 'maxHalfEdgesPerMetre' && report.denseParts === 0)) continue;
        (entry ??= {})[k] = k === 'maxHalfEdgesPerMetre' ? Math.round(v) : v;
      }
      if (!entry) continue;
      entry.locations = report.locations;
      this.summary[o.name] = entry as Partial<MeshReport>;
    }
  }
}
