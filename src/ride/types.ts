// What a ride reports (findings, coverage, the report), its options with their defaults, and how a ride's plan and
// steps are passed between its parts (index.ts plans and steps, merge.ts applies the steps' results in order,
// threads.ts carries both between threads). Plain data: docs/ride.md says what each figure means.
import type { Cover, LanePlan } from './lanes.ts';
import { PROBES, type Probe, type ProbeShape } from './probes.ts';
import type { SimulationOptions } from './simulate.ts';

/** Findings a manifest lists at most (counts are complete). */
export const RIDE_LISTED = 1000;

export type FindingKind = 'bump' | 'snag' | 'step' | 'gap';
export const FINDING_KINDS: FindingKind[] = ['bump', 'snag', 'step', 'gap'];

export interface RideFinding {
  kind: FindingKind;
  /** World position (the files' space, metres). */
  position: [number, number, number];
  /** Resource name, part index in it, face index in the part's shape. */
  resource: string;
  part: number;
  face: number;
  /** bump: the velocity change (m/s); snag: the speed lost (m/s); step: the height difference (m); gap: its width (m). */
  size: number;
  unit: 'm/s' | 'm';
  /** The probe and speed (m/s) that found it (step and gap: none, they are measured across the seam). */
  probe?: string;
  speed?: number;
  /** Direction of travel, x and z. */
  direction?: [number, number];
  /** The stored edge data of the edge met (bump, snag): flat, concave, convex, open, or vertex (a face's corner). */
  edge?: string;
  where: 'seam' | 'lane';
}

export interface RideOptions {
  probes: Probe[];
  /** Speeds, m/s (default 3 and 8). */
  speeds: number[];
  /** Crossing points along the seams: one every this many metres of seam (default 2 m), widened to at most maxCrossings. */
  seamSpacing: number;
  /** Crossing points at most over the level (default 3,000). */
  maxCrossings: number;
  /**
   * Lanes: one every this many metres along x and along z (default 16 m) through the cells that hold walkable
   * surface, widened to at most laneMetres (lanes.ts); 0 for none.
   */
  laneSpacing: number;
  /** Lane metres at most over the level (default 20,000). */
  laneMetres: number;
  /** A lane ride's length, m (default 8). Lanes ride the first probe at the highest speed. */
  laneRide: number;
  /** A step: heights across a seam differ by more than this, m (default 0.001) … */
  stepMin: number;
  /** … and at most this, m (default 0.05): more is a ledge, authored (a kerb, a prop's top edge at a cut). */
  stepMax: number;
  /** A gap: an opening narrower than this, m (default 0.3); wider is the level's border. */
  gapMax: number;
  /** A gap's far side lies within this height of the near side, m (default 0.1). */
  gapDrop: number;
  /** A snag: a hit loses at least this share of the speed in one substep (default 0.1). */
  snagLoss: number;
  /** Face visits at most (the work budget; default 400,000,000). Past it the ride stops and says so. */
  workBudget: number;
  /** Coverage grid cell, m (default 2). */
  coverCell: number;
  /**
   * Rides proven quiet (no loud face within their reach: quiet.ts) are not simulated (default true). False simulates
   * every ride: the same findings, more time (what the tests compare).
   */
  skipQuiet: boolean;
  simulation: Partial<SimulationOptions>;
}

export const RIDE_DEFAULTS: RideOptions = {
  probes: PROBES, speeds: [3, 8], seamSpacing: 2, maxCrossings: 3000, laneSpacing: 16, laneMetres: 20_000, laneRide: 8, stepMin: 0.001, stepMax: 0.05, gapMax: 0.3, gapDrop: 0.1,
  snagLoss: 0.1, workBudget: 400_000_000, coverCell: 2, skipQuiet: true, simulation: {},
};

export interface RideCoverage {
  /** Seams found (border edges of shapes on walkable faces that are not the level's outer border), m. */
  seamMetres: number;
  /** Of those, the metres whose crossing points were ridden. */
  seamMetresRidden: number;
  crossings: number;
  /** Walkable area, m², and the share of it (0 … 1) in coverage cells a ride passed through. */
  walkableArea: number;
  walkableShare: number;
  lanesRidden: number;
  /** Lane spacing used, m (the option's, or wider to stay within laneMetres); 0: no lanes. */
  laneSpacing: number;
  /** Seam spacing used, m (the option's, or wider to stay within maxCrossings). */
  seamSpacing: number;
  /** Metres ridden by every probe, all rides. */
  metresRidden: number;
  rides: number;
  /**
   * Of those rides, the quiet ones: no face their probe could reach lets a contact keep its own normal, so they can
   * find nothing and were not simulated (quiet.ts); each counts as ridden along its line, its full length.
   */
  quietRides: number;
}

export interface RideReport {
  counts: Record<FindingKind, number>;
  findings: RideFinding[];
  coverage: RideCoverage;
  /** True when the work budget ran out; `note` says what was not ridden. */
  budgetExhausted: boolean;
  note?: string;
  options: { speeds: number[]; probes: { name: string; shape: ProbeShape }[]; seamSpacing: number; laneSpacing: number; laneRide: number; stepMin: number; stepMax: number; gapMax: number };
}

/** What one step (a seam crossing or a lane ride) did: applied in step order by RideMerge. */
export interface StepResult {
  /** Face visits it made (the work budget's measure). */
  work: number;
  /** Rides that found surface to start on (a crossing with any is ridden; a lane ride counts each). */
  rode: number;
  /** Of those, the quiet ones (not simulated: RideCoverage.quietRides). */
  quiet: number;
  /** Each ride: its path length, and its start and end x, z (5 numbers a ride). */
  rides: number[];
  /** Findings in the order found, each with its key (one kept per key: the largest). */
  finds: [RideFinding, string][];
}

/**
 * The seam edges as measured, in order, an entry each (typed arrays, not an object an edge: tens of thousands of
 * them live through the plan, and what lives through the young generation's collections grows it).
 */
export interface SeamEdges {
  /** Edges measured (fewer than listed when the measuring alone spent the work budget). */
  count: number;
  /** Each edge's work (face visits). */
  work: Float64Array;
  /** Metres of seam it counts (NaN: a border, none). */
  seam: Float64Array;
  /** Crossing steps it holds (the next ones in `steps`). */
  crossings: Uint32Array;
  /** Its gap or step finding, by edge (most have none). */
  finds: Map<number, [RideFinding, string][]>;
}

export interface RidePlan {
  edges: SeamEdges;
  /**
   * Steps, 4 numbers each: STEP_CROSSING, the seam edge (3 · face + corner), the point along it (0 … 1), 0;
   * STEP_LANE_X or _Z, the start's x, z, the lane cell; STEP_CELL (added by RideMerge), the cell's largest walkable
   * face, the rides' length, the lane cell.
   */
  steps: Float64Array;
  /** Planning stopped at an edge: the seams' measuring alone spent the work budget (the ride stops there or before). */
  stopped: boolean;
  seamSpacing: number;
  /** The coverage grid (its walkable area by cell: the lanes' plan is made over it). */
  cover: Cover;
  /** The lanes, when ridden. */
  lanes?: LanePlan;
}

/** RidePlan.steps kinds. */
export const STEP_CROSSING = 0, STEP_LANE_X = 1, STEP_LANE_Z = 2, STEP_CELL = 3;

/** A report's figure rounded to 1e-4 (0.1 mm, 0.1 mm/s): findings' sizes and directions, coverage's metres. */
export const round = (x: number): number => Math.round(x * 1e4) / 1e4;
