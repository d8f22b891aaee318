// The level's validation report (src/import/validate.ts) as a build computes it: per object on worker 0 while the
// import walks the scene (or on the main thread while the workers encode), then borders and cracks over all objects.
// Context: ../shared/spec/collider-shape-contract.md ("Mesh Policy").
import { applyCrackCounts, classifyCracks, describeReport, validateMesh, type CrackCounts, type MeshReport } from './import/validate.ts';
import type { ImportedObject, Logger } from './import/gltf.ts';
import { UNIT_TRIANGLES, type ThreadPool } from './tiling/pool.ts';

/**
 * Per-object validation reports. With workers up before the import walks the scene, objects go to worker 0 in
 * batches as they are imported (the worker is otherwise idle until encoding starts); without, the main thread
 * computes them while the workers encode. Either way the warnings are logged in object order once all reports
 * are in, so warnings and manifest are the same for any thread count. Grind prisms are skipped (open by
 * construction; their density is checked when they are built). The same batches carry the plan's cell runs of
 * the small objects (onWorker).
 */
export class Validation {
  private pool: ThreadPool | undefined;
  private batch: ImportedObject[] = [];
  private batchTriangles = 0;
  private remote: Promise<[ImportedObject[], MeshReport[]]>[] = [];
  /** The worker's borders and cracks over everything posted (asked for at the end of the walk). */
  private cracks: Promise<CrackCounts[]> | undefined;
  private local = new Map<ImportedObject, MeshReport>();
  summary: Record<string, Partial<MeshReport>> = {};

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
  }

  /** For planCells: the worker's runs for group gi of o, if they are in. */
  readonly knownRuns = (o: ImportedObject, gi: number): Float64Array | undefined => this.runs.get(o)?.[gi];

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
    const triangles = o.groups.reduce((t, g) => t + g.indices.length / 3, 0);
    if (triangles >= UNIT_TRIANGLES) {
      this.big.push(o);
      return;
    }
    this.batch.push(o);
    this.batchTriangles += triangles;
    if (this.batchTriangles >= UNIT_TRIANGLES) this.post(this.batch.splice(0));
  }

  /** End of the walk: what is left of the small objects, then the big ones, one message each. */
  flush(): void {
    if (this.batch.length) this.post(this.batch.splice(0));
    for (const o of this.big.splice(0)) this.post([o], false);
    // Every object is with the worker now: the level-wide crack pass runs there next, while the plan runs here.
    if (this.pool && this.remote.length) {
      this.cracks = this.pool.cracks(0);
      this.cracks.catch(() => undefined);
    }
  }

  private post(objs: ImportedObject[], small = true): void {
    if (!this.pool) return;
    this.batchTriangles = 0;
    const items = objs.map((o) => ({ positions: o.positions, groups: o.groups.map((g) => g.indices), name: o.name }));
    if (small && this.runsCellSize !== undefined) {
      this.pool.cellRuns(0, items, this.runsCellSize).then((r) => objs.forEach((o, i) => this.runs.set(o, r[i])), () => undefined);
    }
    const reports = this.pool.validate(0, items).then((r): [ImportedObject[], MeshReport[]] => [objs, r]);
    reports.catch(() => undefined); // a worker that died is reported where the reports are awaited, not as unhandled
    this.remote.push(reports);
  }

  /** Main-thread part: every object no worker took. */
  runLocal(objects: ImportedObject[]): void {
    if (this.pool) return;
    for (const o of objects) {
      if (o.kind === 'mesh' && !o.shape && !this.local.has(o)) this.local.set(o, validateMesh(o.positions, o.groups.map((g) => g.indices)));
    }
  }

  async results(objects: ImportedObject[]): Promise<Map<ImportedObject, MeshReport>> {
    this.runLocal(objects);
    const out = new Map(this.local);
    const posted: ImportedObject[] = [];
    for (const [objs, reports] of await Promise.all(this.remote)) objs.forEach((o, i) => (out.set(o, reports[i]), posted.push(o)));
    // Open edges into borders and cracks, over all objects at once (a crack may lie along another object): on the
    // worker for the objects it validated, here for the others.
    if (this.cracks) (await this.cracks).forEach((c, i) => applyCrackCounts(out.get(posted[i])!, c));
    const here = objects.filter((o) => this.local.has(o));
    if (here.length) classifyCracks(here.map((o) => ({ name: o.name, positions: o.positions, groups: o.groups.map((g) => g.indices), report: out.get(o)! })));
    return out;
  }

  report(objects: ImportedObject[], reports: Map<ImportedObject, MeshReport>, logger: Logger): void {
    for (const o of objects) {
      const report = reports.get(o);
      if (!report) continue;
      const line = describeReport(o.name, report);
      if (line) logger.warn(line);
      // Every object with a finding (borders included: info), counts and the locations kept.
      const nonZero = Object.entries(report).filter(([k, v]) => typeof v === 'number' && v !== 0 && k !== 'triangles' && (k !== 'maxHalfEdgesPerMetre' || report.denseParts > 0));
      if (nonZero.length === 0) continue;
      this.summary[o.name] = { ...Object.fromEntries(nonZero.map(([k, v]) => [k, k === 'maxHalfEdgesPerMetre' ? Math.round(v as number) : v])), locations: report.locations };
    }
  }
}
