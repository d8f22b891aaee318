// The ride's results applied in order (docs/ride.md "Threads"): the plan's seam edges and each step's result
// (a seam crossing or a lane ride, run on any thread), summed and kept as one thread riding them in turn would.
import type { Cover } from './lanes.ts';
import { FINDING_KINDS, round, STEP_CELL, STEP_CROSSING, type RideCoverage, type RideFinding, type RideOptions, type RidePlan, type RideReport, type StepResult } from './types.ts';

/**
 * Applies a plan's seam edges and step results in order, as one thread riding them in turn would: the budget is
 * checked before each seam edge and each step against the work of all before it, findings are kept one per key
 * (the largest; the first of equals), sums are added in step order. next() says which step's result it needs next
 * (−1: none, the ride is over), apply() takes it.
 */
export class RideMerge {
  private readonly found = new Map<string, RideFinding>();
  private readonly cover: Cover;
  readonly coverage: RideCoverage;
  /** The steps known so far: the plan's, then the lane cells the lines missed (added once the lanes are in). */
  steps: Float64Array;
  private work = 0;
  private exhausted = false;
  private edge = 0;
  /** Crossing steps of the current edge still to apply. */
  private inEdge = 0;
  /** The next step to apply. */
  private at = 0;
  /** Lane cells a lane ride found surface in; whether the missed cells' steps were added. */
  private readonly laneRode: Uint8Array;
  private cellsAdded = false;
  constructor(private readonly plan: RidePlan, private readonly opt: RideOptions) {
    this.cover = plan.cover;
    this.steps = plan.steps;
    this.laneRode = new Uint8Array(plan.lanes?.cells.length ?? 0);
    this.coverage = {
      seamMetres: 0, seamMetresRidden: 0, crossings: 0, walkableArea: this.cover.total, walkableShare: 0, lanesRidden: 0,
      laneSpacing: round(plan.lanes?.spacing ?? 0), seamSpacing: round(plan.seamSpacing), metresRidden: 0, rides: 0, quietRides: 0,
    };
  }
  private budgetLeft(): boolean {
    if (this.work > this.opt.workBudget) this.exhausted = true;
    return !this.exhausted;
  }
  private addFinds(finds: [RideFinding, string][]): void {
    for (const [f, key] of finds) {
      const had = this.found.get(key);
      if (!had || had.size < f.size) this.found.set(key, f);
    }
  }
  /**
   * The step whose result is needed next, or −1 when the ride is over (all applied, or the budget spent). Steps
   * below `known()` can be run ahead of it.
   */
  next(): number {
    const edges = this.plan.edges;
    while (!this.exhausted) {
      if (this.inEdge > 0) return this.budgetLeft() ? this.at : -1;
      if (this.edge < edges.count) {
        if (!this.budgetLeft()) return -1;
        const e = this.edge++;
        this.work += edges.work[e];
        if (!Number.isNaN(edges.seam[e])) this.coverage.seamMetres += edges.seam[e];
        const finds = edges.finds.get(e);
        if (finds) this.addFinds(finds);
        this.inEdge = edges.crossings[e];
        continue;
      }
      // The plan stopped at an edge the budget had been spent by (the measuring alone spent it).
      if (this.plan.stopped) this.exhausted = true;
      else if (this.at < this.steps.length / 4) return this.budgetLeft() ? this.at : -1;
      else if (!this.cellsAdded) this.addCells();
      else break;
    }
    return -1;
  }
  /** Steps known so far (more may follow once these are applied: the lane cells the lines missed). */
  known(): number {
    return this.steps.length / 4;
  }
  /** The lane cells no lane ride found surface in, ridden from their largest walkable face: steps after the lanes. */
  private addCells(): void {
    this.cellsAdded = true;
    const lanes = this.plan.lanes;
    if (!lanes) return;
    const length = Math.min(this.opt.laneRide, lanes.spacing), more: number[] = [];
    for (let c = 0; c < lanes.cells.length; c++) {
      if (!lanes.chosen[c] || this.laneRode[c] || lanes.face(c) < 0) continue;
      more.push(STEP_CELL, lanes.face(c), length, c);
    }
    if (!more.length) return;
    const steps = new Float64Array(this.steps.length + more.length);
    steps.set(this.steps);
    steps.set(more, this.steps.length);
    this.steps = steps;
  }
  apply(r: StepResult): void {
    const c = this.coverage, n = this.at++, kind = this.steps[4 * n];
    if (kind === STEP_CROSSING) {
      this.inEdge--;
      c.crossings++;
    }
    this.work += r.work;
    c.quietRides += r.quiet;
    for (let k = 0; k < r.rides.length; k += 5) {
      c.rides++;
      c.metresRidden += r.rides[k];
      this.cover.mark(r.rides[k + 1], r.rides[k + 2], r.rides[k + 3], r.rides[k + 4]);
    }
    this.addFinds(r.finds);
    if (kind === STEP_CROSSING) {
      if (r.rode) c.seamMetresRidden += this.plan.seamSpacing;
    } else {
      c.lanesRidden += r.rode;
      if (r.rode && kind !== STEP_CELL) this.laneRode[this.steps[4 * n + 3]] = 1;
    }
  }
  finish(): RideReport {
    const { opt, coverage } = this;
    coverage.seamMetresRidden = Math.min(coverage.seamMetresRidden, coverage.seamMetres);
    const exhausted = this.exhausted;
    coverage.walkableShare = this.cover.sampled();
    const findings = [...this.found.values()].sort((a, b) => FINDING_KINDS.indexOf(a.kind) - FINDING_KINDS.indexOf(b.kind) || b.size - a.size);
    const counts = { bump: 0, snag: 0, step: 0, gap: 0 };
    for (const f of findings) counts[f.kind]++;
    coverage.seamMetres = round(coverage.seamMetres);
    coverage.seamMetresRidden = round(coverage.seamMetresRidden);
    coverage.metresRidden = round(coverage.metresRidden);
    coverage.walkableArea = round(coverage.walkableArea);
    return {
      counts, findings, coverage, budgetExhausted: exhausted,
      ...(exhausted ? { note: `work budget of ${opt.workBudget} face visits spent: the rest of the level was not ridden (coverage says how much was)` } : {}),
      options: {
        speeds: opt.speeds, probes: opt.probes.map((p) => ({ name: p.name, shape: p.shape })), seamSpacing: opt.seamSpacing,
        laneSpacing: opt.laneSpacing, laneRide: opt.laneRide, stepMin: opt.stepMin, stepMax: opt.stepMax, gapMax: opt.gapMax,
      },
    };
  }
}
