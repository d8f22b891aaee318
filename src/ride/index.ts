// The ride check (docs/ride.md): probes ridden over the written collision — across every seam the files hold (each
// shape's border edges on walkable faces: cell borders, part and u16 splits, resource borders, joints between
// authored objects, T-junctions) in both directions, and along sampled lanes over the walkable surface — and what
// they meet: bumps and snags (a contact on an edge the data leaves to collide, where the surface continues across),
// steps (a height mismatch across a seam) and gaps (an opening between walkable faces a wheel drops into). Reads
// only the files (world.ts); never prints, never touches the files. A work budget bounds pathological geometry.
// Here: the plan and the steps (rider); the seams found in seam-edges.ts, the steps' results applied in order in
// merge.ts, the report's and the plan's shapes in types.ts.
import { readPhysicsResource } from '../format/resource.ts';
import { EDGE_KIND_NAMES } from './contact.ts';
import { type Probe, type ProbeShape } from './probes.ts';
import { allowanceEdge, rideBound, rideWith, SIMULATION_DEFAULTS, type Hit } from './simulate.ts';
import { ACROSS, GHOST_SLACK, JUDGE_REACH, quietMap } from './quiet.ts';
import { Cover, lines, planLanes, type LanePlan } from './lanes.ts';
import { Query } from './grid.ts';
import { AT, surfaceAlong, surfaceUnder } from './surface.ts';
import { buildWorld, edgeKindAt, faceNormal, faceSource, hypot3, isWalkable, type RideResource, type RideWorld } from './world.ts';
import { RideMerge } from './merge.ts';
import { MEASURED, wasmMeasure, wasmStart } from './native.ts';
import { seamEdges } from './seam-edges.ts';
import { RIDE_DEFAULTS, round, STEP_CELL, STEP_CROSSING, STEP_LANE_X, STEP_LANE_Z, type RideFinding, type RideOptions, type RidePlan, type RideReport, type SeamEdges, type StepResult } from './types.ts';

export { buildWorld, capacityForBytes, faceSource, MIN_FILE_BYTES_PER_FACE, WorldBuilder, type RideResource, type RideWorld } from './world.ts';
export { PROBES, type Probe } from './probes.ts';
export { CONTACT_MODEL, contactNormal } from './contact.ts';
export { RideMerge } from './merge.ts';
export {
  FINDING_KINDS, RIDE_DEFAULTS, RIDE_LISTED, STEP_CELL, STEP_CROSSING, STEP_LANE_X, STEP_LANE_Z,
  type FindingKind, type RideCoverage, type RideFinding, type RideOptions, type RidePlan, type RideReport, type SeamEdges, type StepResult,
} from './types.ts';

/** Step along the far side when looking for a gap's end, m. */
const GAP_STEP = 0.01;
/** A seam ride starts this far plus the probe's half length before the seam and ends as far past it, m. */
const RUNUP = 0.15;
/** A ride's start in the rider's RIDE scratch: speed, centre, direction, length, start reach. */
const RIDE_SPEED = 0, RIDE_X = 1, RIDE_Y = 2, RIDE_Z = 3, RIDE_DX = 4, RIDE_DZ = 5, RIDE_LENGTH = 6, RIDE_REACH = 7;
/** rideBound answers the rider keeps (a crossing's probes × speeds, a lane's one). */
const BOUNDS_KEPT = 8;

/** Rides the resources (see the file header). */
export function rideResources(resources: RideResource[], options: Partial<RideOptions> = {}): RideReport {
  return rideWorld(buildWorld(resources), options);
}

/**
 * Rides the world on this thread. The ride is planned (seams measured, crossing points and lane rides listed: plan),
 * each crossing and lane ride run on its own (rider().step: what it rode and found, and its work) and the results
 * applied in order (RideMerge): the same steps and order whichever thread runs a step (threads.ts), so the report is
 * the same for any thread count.
 */
export function rideWorld(w: RideWorld, options: Partial<RideOptions> = {}): RideReport {
  const r = rider(w, options);
  const plan = r.plan();
  const merge = new RideMerge(plan, r.opt);
  for (let i = merge.next(); i >= 0; i = merge.next()) merge.apply(r.step(merge.steps, i));
  return merge.finish();
}


/** The ride's parts over one world: plan (on one thread) and step (on any); see rideWorld. */
export function rider(w: RideWorld, options: Partial<RideOptions> = {}): { opt: RideOptions; plan: () => RidePlan; step: (steps: Float64Array, i: number) => StepResult } {
  const opt = { ...RIDE_DEFAULTS, ...options };
  const sim = { ...SIMULATION_DEFAULTS, ...opt.simulation };
  const q = new Query(w);
  /** The step (or seam edge) being run: where rides and findings go. */
  let cur: StepResult = { work: 0, rode: 0, quiet: 0, rides: [], finds: [] };
  const quiet = quietMap(w);
  const add = (f: RideFinding, key: string): void => {
    cur.finds.push([f, key]);
  };
  /**
   * The step's bump and snag findings by key (its kind, face and feature as one number: 2 · (8 · face + feature + 1),
   * + 1 for a snag), each its place in cur.finds. The merge keeps a key's largest finding, the first of equals, in the
   * steps' order (RideMerge); a step keeps the same of its own, in the place its key first came, so that the findings
   * a step's rides meet again (a crossing's probes and speeds meet the same edge) are not built to be dropped: on a
   * level written with --seams shape, 56,000 of 66,000.
   */
  const hitAt = new Map<number, number>();
  const faceOf = (t: number): Pick<RideFinding, 'resource' | 'part' | 'face'> => faceSource(w, t);

  /** A probe resting on the walkable surface at (x, z) near height y, or null where there is none. */
  /** Face normals (faceNormal): a start's face; the judge's hit face and a face round it. */
  const FN = new Float64Array(6);
  /** startAt's result: the start's centre and velocity (scratch: a ride copies them). */
  const startP: [number, number, number] = [0, 0, 0], startV: [number, number, number] = [0, 0, 0];
  /**
   * The last two start look-ups (x, z, y, reach; the face, its height, the look-up's visits): a crossing's ride
   * starts from the same point at each speed. A repeat takes the answer and counts the look-up's work again.
   */
  const lastAt = new Float64Array(8), lastFace = new Int32Array(2), lastH = new Float64Array(2), lastVisits = new Int32Array(2);
  let lastNext = 0, lastKept = 0;
  /**
   * A ride's start, passed to rideFrom and startAt in this scratch (RIDE_*), not as arguments: V8 boxes each double
   * passed to a call it does not inline (a new number on the heap each), and a level's ride makes ~35,000 of these.
   */
  /**
   * startAt, boundOf and the quiet box of rideFrom in WebAssembly (native.ts wasmStart: a quiet ride is one call)
   * where the world and its quiet map are there and every probe is plain numbers; RIDE is then its input. The probes
   * as it takes them: kind (0 sphere, 1 capsule, 2 box), then radius and half length, or the box's half extents.
   */
  const probeRows = new Float64Array(4 * opt.probes.length);
  const plain = opt.probes.every(({ shape: s }, p) => {
    const row = s.kind === 'sphere' ? [0, s.radius, 0, 0] : s.kind === 'capsule' ? [1, s.radius, s.halfLength, 0] : [2, ...(s.half ?? [])];
    probeRows.set(row.slice(0, 4), 4 * p);
    return row.length === 4 && row.every((x) => typeof x === 'number');
  });
  const native = plain ? wasmStart(w) : undefined;
  const RIDE = native ? native.start.io.subarray(0, 8) : new Float64Array(8);
  const setRide = (speed: number, x: number, y: number, z: number, dx: number, dz: number, length: number, reach: number): void => {
    RIDE[RIDE_SPEED] = speed; RIDE[RIDE_X] = x; RIDE[RIDE_Y] = y; RIDE[RIDE_Z] = z;
    RIDE[RIDE_DX] = dx; RIDE[RIDE_DZ] = dz; RIDE[RIDE_LENGTH] = length; RIDE[RIDE_REACH] = reach;
  };
  /** A lane's and a missed cell's speed: the highest. */
  const topSpeed = Math.max(...opt.speeds);
  /** startAt: the ride's probe at RIDE's start. */
  const startAt = (probe: ProbeShape): boolean => {
    const speed = RIDE[RIDE_SPEED], x = RIDE[RIDE_X], y = RIDE[RIDE_Y], z = RIDE[RIDE_Z], dx = RIDE[RIDE_DX], dz = RIDE[RIDE_DZ], reach = RIDE[RIDE_REACH];
    let face: number, hy: number;
    const m = lastKept > 0 && Object.is(lastAt[0], x) && Object.is(lastAt[1], z) && Object.is(lastAt[2], y) && Object.is(lastAt[3], reach) ? 0
      : lastKept > 1 && Object.is(lastAt[4], x) && Object.is(lastAt[5], z) && Object.is(lastAt[6], y) && Object.is(lastAt[7], reach) ? 1 : -1;
    if (m >= 0) {
      face = lastFace[m];
      hy = lastH[m];
      q.work += lastVisits[m];
    } else {
      AT[0] = x; AT[1] = z; AT[2] = y; AT[3] = reach;
      face = surfaceUnder(w, q);
      hy = q.height[0];
      const o = lastNext;
      lastNext = 1 - o;
      lastKept = Math.min(2, lastKept + 1);
      lastAt[4 * o] = x; lastAt[4 * o + 1] = z; lastAt[4 * o + 2] = y; lastAt[4 * o + 3] = reach;
      lastFace[o] = face; lastH[o] = hy; lastVisits[o] = q.visits;
    }
    if (face < 0) return false;
    faceNormal(w.vert, w.corner, face, FN);
    const nx = FN[0], ny = FN[1], nz = FN[2];
    // The probe's support along the face normal (probes.ts support, its pose turned to (dx, dz)), inline: a call
    // boxes the doubles it is passed and returns.
    let reachOut: number;
    if (probe.kind === 'sphere') reachOut = probe.radius;
    else {
      const along = Math.abs(nx * dx + nz * dz);
      if (probe.kind === 'capsule') reachOut = probe.radius + probe.halfLength * along;
      else reachOut = probe.half[0] * along + probe.half[1] * Math.abs(ny) + probe.half[2] * Math.abs(-nx * dz + nz * dx);
    }
    const lift = reachOut + 1e-5;
    const along = dx * nx + dz * nz;
    let vx = dx - along * nx, vy = -along * ny, vz = dz - along * nz;
    const len = hypot3(vx, vy, vz); // Math.hypot's bits; the builtin gathers its arguments into an array a call
    startP[0] = x + nx * lift; startP[1] = hy + ny * lift; startP[2] = z + nz * lift;
    startV[0] = vx * (speed / len); startV[1] = vy * (speed / len); startV[2] = vz * (speed / len);
    return true;
  };

  /**
   * Whether the point lies under a walkable surface continuous across it: the top walkable surface 2 mm to either
   * side (along the horizontal (nx, nz)) within 0.05 m above it, at one height (within stepMin), more than stepMin
   * above the point.
   */
  const buriedUnder = (p: [number, number, number], nx: number, nz: number): boolean => {
    AT[0] = p[0] + nx * ACROSS; AT[1] = p[2] + nz * ACROSS; AT[2] = p[1] + JUDGE_REACH; AT[3] = JUDGE_REACH;
    const a = surfaceUnder(w, q, true), ay = q.height[0];
    AT[0] = p[0] - nx * ACROSS; AT[1] = p[2] - nz * ACROSS; AT[2] = p[1] + JUDGE_REACH; AT[3] = JUDGE_REACH;
    const b = surfaceUnder(w, q, true), by = q.height[0];
    return a >= 0 && b >= 0 && Math.abs(ay - by) <= opt.stepMin && ay - p[1] > opt.stepMin;
  };

  /** The hits of one ride, classified: a ghost where the surface continues across the contact, else real geometry. */
  const judge = (hits: Hit[], probe: Probe, speed: number, dx: number, dz: number, where: 'seam' | 'lane'): void => {
    for (const h of hits) {
      // A ghost is an edge of the walkable surface the probe rides on: a hit on a wall's or an underside's edge is
      // real geometry (a prop standing on the ground, whose ground continues under it).
      if (!isWalkable(w, h.face)) continue;
      let nx = h.normal[0], nz = h.normal[2];
      const l = Math.hypot(nx, nz);
      if (l < 1e-6) { nx = -dx; nz = -dz; } else { nx /= l; nz /= l; }
      // The surface either side (heightAt's answers, without an object each: surfaceUnder).
      AT[0] = h.point[0] + nx * ACROSS; AT[1] = h.point[2] + nz * ACROSS; AT[2] = h.point[1]; AT[3] = JUDGE_REACH;
      const a = surfaceUnder(w, q), ay = q.height[0];
      AT[0] = h.point[0] - nx * ACROSS; AT[1] = h.point[2] - nz * ACROSS; AT[2] = h.point[1]; AT[3] = JUDGE_REACH;
      const b = surfaceUnder(w, q), by = q.height[0];
      // On the surface: walkable faces either side at its height. Else buried: under a walkable surface that runs
      // on over it at one height (a ramp's foot sunk into the ground), which the probe rides and never leaves to
      // reach the edge — a ghost the speculative contact meets anyway (Jolt's one body too). Else a border, a step
      // or a wall, or a contact off the surface: real geometry.
      const on = a >= 0 && b >= 0 && Math.abs(ay - by) <= opt.stepMin && Math.abs(ay - h.point[1]) <= opt.stepMin;
      if (!on && !buriedUnder(h.point, nx, nz)) continue;
      // A contact normal the surface's own fold gives (within the faces either side) is real: a crest rides so. A
      // ghost leans further than the surface bends (an open edge on a flat joint, a convex edge whose other side
      // continues flush).
      // The fold: the largest between the hit face and the faces round the contact (across it, and to either side
      // along the edge: at a vertex several faces meet, and a crest there bends by the most of them).
      const N = FN;
      faceNormal(w.vert, w.corner, h.face, N);
      let fold = 0;
      // Across (nx, nz), then along the edge either way (−nz, nx) and (nz, −nx).
      for (let m = 0; m < 3; m++) {
        const ux = m === 0 ? nx : m === 1 ? -nz : nz, uz = m === 0 ? nz : m === 1 ? nx : -nx;
        AT[0] = h.point[0] + ux * ACROSS; AT[1] = h.point[2] + uz * ACROSS; AT[2] = h.point[1]; AT[3] = JUDGE_REACH;
        const c = surfaceUnder(w, q);
        if (c < 0) continue;
        faceNormal(w.vert, w.corner, c, N, 3);
        fold = Math.max(fold, Math.acos(Math.max(-1, Math.min(1, N[0] * N[3] + N[1] * N[4] + N[2] * N[5]))));
      }
      // A true crest's fold (quiet.ts) is the surface's own, measured at the edge whatever faces lie 2 mm off it.
      if (h.feature >= 0) fold = Math.max(fold, quiet.crestFold(3 * h.face + allowanceEdge(w, h.face, h.feature, h.normal)));
      const lean = Math.acos(Math.max(-1, Math.min(1, N[0] * h.normal[0] + N[1] * h.normal[1] + N[2] * h.normal[2])));
      if (lean <= fold + GHOST_SLACK) continue;
      const lost = h.speedBefore - h.speedAfter;
      const snag = lost >= opt.snagLoss * h.speedBefore;
      const k = h.feature < 3 ? h.feature : h.feature - 3;
      const size = round(snag ? lost : h.impulse);
      const local = 2 * (8 * h.face + h.feature + 1) + (snag ? 1 : 0), at = hitAt.get(local);
      // Kept as RideMerge keeps: replaced only by a larger one.
      if (at !== undefined && !(cur.finds[at][0].size < size)) continue;
      const f: RideFinding = {
        kind: snag ? 'snag' : 'bump', position: h.point, ...faceOf(h.face), size, unit: 'm/s',
        probe: probe.name, speed, direction: [round(dx), round(dz)], edge: h.feature < 3 ? EDGE_KIND_NAMES[edgeKindAt(w, 3 * h.face + k)] : 'vertex', where,
      };
      const key = `${snag ? 'snag' : 'bump'}:${h.face}:${h.feature}`;
      if (at === undefined) {
        hitAt.set(local, cur.finds.length);
        add(f, key);
      } else cur.finds[at] = [f, key];
    }
  };

  /** rideBound of the last probes, speeds and lengths asked (probe index, speed, length, bound: BOUNDS_KEPT of them). */
  const bounds = new Float64Array(4 * BOUNDS_KEPT);
  let boundsKept = 0, boundsNext = 0;
  /** rideBound of probe p at RIDE's speed and length, kept: a ride's few probes, speeds and lengths repeat. */
  const boundOf = (p: number, probe: ProbeShape): number => {
    const speed = RIDE[RIDE_SPEED], length = RIDE[RIDE_LENGTH];
    for (let k = 0; k < boundsKept; k++) {
      if (bounds[4 * k] === p && Object.is(bounds[4 * k + 1], speed) && Object.is(bounds[4 * k + 2], length)) return k;
    }
    const k = boundsNext;
    boundsNext = (boundsNext + 1) % BOUNDS_KEPT;
    boundsKept = Math.min(BOUNDS_KEPT, boundsKept + 1);
    bounds[4 * k] = p; bounds[4 * k + 1] = speed; bounds[4 * k + 2] = length;
    bounds[4 * k + 3] = rideBound(probe, speed, length / speed + 0.5, length, sim);
    return k;
  };
  const QB = quiet.box;
  // The WebAssembly start's rare turns, each a function of its own: code a call has not yet run, inlined into
  // rideFrom's optimized code, would throw that code away the first time it runs (most rides are quiet).
  /** rideBound kept for the WebAssembly start (it was not), and the start asked again. */
  const keepBound = (p: number, probe: ProbeShape, skip: number): number => {
    const { start, rider } = native!, speed = RIDE[RIDE_SPEED], length = RIDE[RIDE_LENGTH];
    start.bound(rider, p, speed, length, rideBound(probe, speed, length / speed + 0.5, length, sim));
    return start.at(rider, p, skip);
  };
  /** The WebAssembly start's centre and velocity into startP and startV (a ride to be simulated). */
  const takeStart = (): void => {
    const io = native!.start.io;
    startP[0] = io[12]; startP[1] = io[13]; startP[2] = io[14];
    startV[0] = io[15]; startV[1] = io[16]; startV[2] = io[17];
  };

  /** Rides probe p (of opt.probes) from RIDE's start (its speed, position, direction, length and start reach). */
  const rideFrom = (p: number, where: 'seam' | 'lane'): boolean => {
    const probe = opt.probes[p];
    let quietRide: boolean;
    if (native) {
      const { start, rider } = native, io = start.io, row = 4 * p, skip = opt.skipQuiet ? 1 : 0;
      io[8] = probeRows[row]; io[9] = probeRows[row + 1]; io[10] = probeRows[row + 2]; io[11] = probeRows[row + 3];
      let s = start.at(rider, p, skip);
      if (s === 3) s = keepBound(p, probe.shape, skip);
      q.work += io[18];
      if (s === 0) return false;
      quietRide = s === 1;
      if (!quietRide) takeStart();
    } else {
      if (!startAt(probe.shape)) return false;
      const R = bounds[4 * boundOf(p, probe.shape) + 3];
      QB[0] = startP[0] - R; QB[1] = startP[2] - R; QB[2] = startP[0] + R; QB[3] = startP[2] + R;
      quietRide = opt.skipQuiet && quiet.quietInBox();
    }
    const speed = RIDE[RIDE_SPEED], x = RIDE[RIDE_X], z = RIDE[RIDE_Z], dx = RIDE[RIDE_DX], dz = RIDE[RIDE_DZ], length = RIDE[RIDE_LENGTH];
    const duration = length / speed + 0.5;
    // Quiet: no loud face within the ride's reach of its start (quiet.ts); it finds nothing, so it is not simulated
    // and counts as ridden along its line.
    if (quietRide) {
      cur.rides.push(length, x, z, x + dx * length, z + dz * length);
      cur.quiet++;
      return true;
    }
    const r = rideWith(w, q, { probe: probe.shape, position: startP, velocity: startV, duration, distance: length }, sim);
    cur.rides.push(r.distance, x, z, r.position[0], r.position[2]);
    judge(r.hits, probe, speed, dx, dz, where);
    return true;
  };

  const OVER = new Float64Array(6);
  /**
   * Whether a probe ridden across the seam at (cx, cy, cz) along ±(ix, iz) would hang over the level's outer border:
   * walkable surface is looked for under its footprint's corners and the middles of its ends (half its width to either
   * side of the path, from its rear at the start to its nose at the end). Where there is none, the probe meets the
   * border there (an open edge with nothing beyond: real, not a ghost), not the seam. The crossing (cx, cy, cz), the
   * direction (ix, iz) and the runup are OVER's 0 … 5 (a scratch, as RIDE).
   */
  const overBorder = (probe: ProbeShape): boolean => {
    const cx = OVER[0], cy = OVER[1], cz = OVER[2], ix = OVER[3], iz = OVER[4], runup = OVER[5];
    const reachAlong = runup + probeLength(probe) / 2, half = probeWidth(probe) / 2;
    // a: −reachAlong, 0, reachAlong; b: −half, 0, half (not 0 where a is: the crossing itself). Counted, not from
    // arrays: no allocation a call.
    for (let m = -1; m <= 1; m++) {
      const a = m === 0 ? 0 : m * reachAlong;
      for (let n = -1; n <= 1; n++) {
        if (m === 0 && n === 0) continue;
        const b = n === 0 ? 0 : n * half;
        // Walkable surface rises at most 45°: within this height of the crossing over this distance.
        const reach = Math.abs(a) + Math.abs(b) + opt.gapDrop;
        AT[0] = cx + a * ix - b * iz; AT[1] = cz + a * iz + b * ix; AT[2] = cy; AT[3] = reach;
        if (surfaceUnder(w, q) < 0) return true;
      }
    }
    return false;
  };

  const P = w.vert, C = w.corner;
  /**
   * Seam edge ek's start (offset into P), its vector, lengths, and the inward horizontal direction (into its face),
   * into EDGE (scratch, not an object an edge): i, ex, ey, ez, len, hl, ix, iz.
   */
  const EDGE = new Float64Array(8);
  const edgeOf = (ek: number): void => {
    const t = (ek / 3) | 0, k = ek % 3;
    const i = 3 * C[3 * t + k], j = 3 * C[3 * t + ((k + 1) % 3)], o = 3 * C[3 * t + ((k + 2) % 3)];
    const ex = P[j] - P[i], ey = P[j + 1] - P[i + 1], ez = P[j + 2] - P[i + 2];
    const len = Math.sqrt(ex * ex + ey * ey + ez * ez), hl = Math.sqrt(ex * ex + ez * ez);
    // Inward (into face t), horizontal: perpendicular to the edge, toward the face's third vertex.
    let ix = -ez / hl, iz = ex / hl;
    if ((P[o] - P[i]) * ix + (P[o + 2] - P[i + 2]) * iz < 0) { ix = -ix; iz = -iz; }
    EDGE[0] = i; EDGE[1] = ex; EDGE[2] = ey; EDGE[3] = ez; EDGE[4] = len; EDGE[5] = hl; EDGE[6] = ix; EDGE[7] = iz;
  };

  /**
   * Seam edge ek measured across in its middle (plan), into MEASURE: its length, inward direction (ix, iz) and middle
   * (px, py, pz); the top walkable surface just inside (near, nearY) and just across (far, farY); where nothing is
   * across, how far on walkable surface resumes within gapMax (d: surfaceAlong; NaN, none). q.work counts the look-ups.
   */
  const MEASURE = new Float64Array(MEASURED);
  const measureEdge = (ek: number): void => {
    edgeOf(ek);
    const i = EDGE[0], ex = EDGE[1], ey = EDGE[2], ez = EDGE[3], len = EDGE[4], ix = EDGE[6], iz = EDGE[7];
    // Each side's height is its top surface: an edge buried under another walkable surface (a ramp's foot sunk into
    // the ground, a rail's end in a post's top) is no step: a board rides the surface over it (a speculative contact
    // may still meet it: judge, buriedUnder).
    const px = P[i] + 0.5 * ex, py = P[i + 1] + 0.5 * ey, pz = P[i + 2] + 0.5 * ez;
    AT[0] = px + ix * ACROSS; AT[1] = pz + iz * ACROSS; AT[2] = py; AT[3] = 0.05;
    const near = surfaceUnder(w, q, true), nearY = q.height[0];
    AT[0] = px - ix * ACROSS; AT[1] = pz - iz * ACROSS; AT[2] = py; AT[3] = opt.gapDrop;
    const far = surfaceUnder(w, q, true), farY = q.height[0];
    const d = far < 0 ? surfaceAlong(w, px, pz, -ix, -iz, py, opt.gapDrop, GAP_STEP, opt.gapMax + 1e-9, q) : NaN;
    const m = MEASURE;
    m[0] = len; m[1] = ix; m[2] = iz; m[3] = px; m[4] = py; m[5] = pz; m[6] = near; m[7] = nearY; m[8] = far; m[9] = farY; m[10] = d;
  };

  const plan = (): RidePlan => {
    // Seams: each border edge of a walkable face once (by its ends, to 0.1 mm), crossed at points along it: one every
    // seamSpacing metres, widened so that the level has at most maxCrossings.
    const { edges, total: seamTotal } = seamEdges(w);
    const spacing = Math.max(opt.seamSpacing, seamTotal / Math.max(1, opt.maxCrossings));
    const ev: SeamEdges = {
      count: 0, work: new Float64Array(edges.length), seam: new Float64Array(edges.length).fill(NaN), crossings: new Uint32Array(edges.length), finds: new Map(),
    };
    const steps: number[] = [];
    let stopped = false;
    // Crossing points are taken along the continuous seams as a whole: a point every `spacing` metres of them (carried
    // from edge to edge in face order, so short edges share points).
    let carry = spacing / 2;
    cur = { work: 0, rode: 0, quiet: 0, rides: [], finds: [] };
    hitAt.clear();
    // The edges' look-ups in WebAssembly a chunk of edges at a time where the world is there (the same answers and
    // work: assembly/ride-plan.ts rideMeasure), else measureEdge's, an edge at a time.
    const native = wasmMeasure(w);
    let M: Float64Array = MEASURE, from = 0, to = 0;
    for (let e = 0; e < edges.length; e++) {
      const ek = edges[e];
      // The measuring alone has spent the budget: the ride stops at this edge or before (RideMerge says where).
      if (q.work > opt.workBudget) { stopped = true; break; }
      const work0 = q.work;
      ev.count++;
      const t = (ek / 3) | 0, k = ek % 3;
      let at = 0;
      if (native) {
        if (e >= to) {
          from = e;
          to = Math.min(edges.length, e + native.chunk);
          M = native.at(edges, from, to, ACROSS, 0.05, opt.gapDrop, GAP_STEP, opt.gapMax + 1e-9);
        }
        at = MEASURED * (e - from);
        q.work += M[at + 11];
      } else measureEdge(ek);
      const len = M[at], ix = M[at + 1], iz = M[at + 2], px = M[at + 3], py = M[at + 4], pz = M[at + 5];
      const near = M[at + 6], nearY = M[at + 7], far = M[at + 8], farY = M[at + 9], d = M[at + 10];
      // Every seam edge is measured across in its middle: the level's border (nothing within gapMax), a gap, a step,
      // or continuous, which is ridden at the crossing points that fall on it.
      measure: {
        if (far < 0) {
          // Nothing just across: a gap when walkable surface resumes within gapMax (d), else the level's border.
          if (d === d) {
            ev.seam[e] = len;
            add({ kind: 'gap', position: [px, py, pz], ...faceOf(t), size: round(d), unit: 'm', direction: [round(-ix), round(-iz)], where: 'seam' }, `gap:${t}:${k}`);
          }
          break measure;
        }
        ev.seam[e] = len;
        const base = near >= 0 ? nearY : py;
        if (Math.abs(farY - base) > opt.stepMin) {
          if (Math.abs(farY - base) > opt.stepMax) break measure; // a ledge: neither a step nor ridden across
          add({ kind: 'step', position: [px, py, pz], ...faceOf(t), size: round(Math.abs(farY - base)), unit: 'm', direction: [round(-ix), round(-iz)], where: 'seam' }, `step:${t}:${k}`);
          break measure;
        }
        for (; carry < len; carry += spacing) {
          steps.push(STEP_CROSSING, ek, carry / len, 0);
          ev.crossings[e]++;
        }
        carry -= len;
      }
      ev.work[e] = q.work - work0;
      if (cur.finds.length) {
        ev.finds.set(e, cur.finds);
        cur.finds = [];
      }
    }

    // Lanes: along x and along z every `spacing` metres, in the lane cells (spacing × spacing, from the level's min
    // corner) that hold walkable surface, a ride of laneRide metres wherever the top walkable surface is found, with
    // the first probe at the highest speed. A cell the lines through it find no surface in (an island smaller than the
    // spacing, between the lines) is ridden from its largest walkable face instead (RideMerge adds those steps once
    // the lanes are in). Planned in lanes.ts.
    const cover = new Cover(w, opt.coverCell);
    let lanes: LanePlan | undefined;
    if (opt.laneSpacing > 0 && w.faces > 0 && opt.probes.length > 0) {
      lanes = planLanes(w, cover, opt.laneSpacing, opt.laneMetres, opt.laneRide);
      const s = lanes.spacing;
      for (const axis of [0, 2] as const) {
        if (stopped) break;
        const other = axis === 0 ? 2 : 0;
        // Lanes whose line lies within the level, and rides that start within it.
        const across = w.max[other] - w.min[other], length = w.max[axis] - w.min[axis];
        const rows = lines(across, s);
        const starts = length > 0 ? Math.ceil(length / opt.laneRide) : 0;
        // Lane by lane (the row across the travel), then along it: the order of a sweep over the whole level.
        const order = lanes.order(axis);
        for (let n = 0; n < order.length; n++) {
          const c = order[n];
          if (!lanes.chosen[c]) continue;
          const along = axis === 0 ? lanes.cells[c].i : lanes.cells[c].j, row = axis === 0 ? lanes.cells[c].j : lanes.cells[c].i;
          // Counted from the extents, not by adding the spacing to a position: far out (1e20 m) an addition of a few
          // metres leaves the position as it was.
          if (row >= rows) continue;
          const u = w.min[other] + s / 2 + row * s;
          const lo = Math.max(0, Math.ceil((along * s) / opt.laneRide - 1e-9)), hi = Math.min(starts, Math.ceil(((along + 1) * s) / opt.laneRide - 1e-9));
          for (let j = lo; j < hi; j++) {
            const at = w.min[axis] + j * opt.laneRide;
            steps.push(axis === 0 ? STEP_LANE_X : STEP_LANE_Z, axis === 0 ? at : u, axis === 0 ? u : at, c);
          }
        }
      }
    }
    return { edges: ev, steps: Float64Array.from(steps), stopped, seamSpacing: spacing, cover, lanes };
  };

  /** Runs step i of `steps` (RidePlan.steps): a seam crossing, ridden by every probe at every speed both ways, or a lane ride. */
  const step = (steps: Float64Array, n: number): StepResult => {
    const work0 = q.work;
    const kind = steps[4 * n];
    // Its rides' numbers in a plain array grown by push: a typed array a step was slower to make (past 64 bytes its
    // store is allocated outside the heap: ~1 µs a step, ~6 ms on the 1M bench level's 5,300 steps).
    cur = { work: 0, rode: 0, quiet: 0, rides: [], finds: [] };
    hitAt.clear();
    let rode = 0;
    if (kind === STEP_LANE_X || kind === STEP_LANE_Z) {
      setRide(topSpeed, steps[4 * n + 1], w.max[1] + 1, steps[4 * n + 2], kind === STEP_LANE_X ? 1 : 0, kind === STEP_LANE_X ? 0 : 1, opt.laneRide, Infinity);
      if (rideFrom(0, 'lane')) rode++;
    } else if (kind === STEP_CELL) {
      // A cell the lines missed: a ride along x and one along z from the centroid of its largest walkable face.
      const t = steps[4 * n + 1], length = steps[4 * n + 2];
      const a = 3 * C[3 * t], b = 3 * C[3 * t + 1], c = 3 * C[3 * t + 2];
      const x = (P[a] + P[b] + P[c]) / 3, y = (P[a + 1] + P[b + 1] + P[c + 1]) / 3, z = (P[a + 2] + P[b + 2] + P[c + 2]) / 3;
      for (let along = 0; along < 2; along++) {
        setRide(topSpeed, x, y, z, along === 0 ? 1 : 0, along === 0 ? 0 : 1, length, 0.05);
        if (rideFrom(0, 'lane')) rode++;
      }
    } else {
      const f = steps[4 * n + 2];
      edgeOf(steps[4 * n + 1]);
      const i = EDGE[0], ex = EDGE[1], ey = EDGE[2], ez = EDGE[3], hl = EDGE[5], ix = EDGE[6], iz = EDGE[7];
      const cx = P[i] + f * ex, cy = P[i + 1] + f * ey, cz = P[i + 2] + f * ez;
      for (let p = 0; p < opt.probes.length; p++) {
        const probe = opt.probes[p];
        const runup = probeLength(probe.shape) / 2 + RUNUP;
        // A probe that would hang over the level's outer border here is moved along the seam by its half width plus
        // 1 mm, away from the border, while it stays on this edge; else it is not ridden across this crossing.
        let at = f;
        OVER[0] = cx; OVER[1] = cy; OVER[2] = cz; OVER[3] = ix; OVER[4] = iz; OVER[5] = runup;
        if (overBorder(probe.shape)) {
          const d = (probeWidth(probe.shape) / 2 + 0.001) / hl;
          at = NaN;
          for (let side = 0; side < 2; side++) {
            const g = side === 0 ? f - d : f + d;
            if (g < 0 || g > 1) continue;
            OVER[0] = P[i] + g * ex; OVER[1] = P[i + 1] + g * ey; OVER[2] = P[i + 2] + g * ez;
            if (overBorder(probe.shape)) continue;
            at = g;
            break;
          }
          if (Number.isNaN(at)) continue;
        }
        const mx = P[i] + at * ex, my = P[i + 1] + at * ey, mz = P[i + 2] + at * ez;
        for (let s = 0; s < opt.speeds.length; s++) {
          const speed = opt.speeds[s];
          // Out of face t across the seam, and back.
          setRide(speed, mx + ix * runup, my, mz + iz * runup, -ix, -iz, 2 * runup, 0.05);
          if (rideFrom(p, 'seam')) rode++;
          setRide(speed, mx - ix * runup, my, mz - iz * runup, ix, iz, 2 * runup, 0.05);
          if (rideFrom(p, 'seam')) rode++;
        }
      }
    }
    cur.rode = rode;
    cur.work = q.work - work0;
    return cur;
  };
  return { opt, plan, step };
}

function probeLength(p: ProbeShape): number {
  if (p.kind === 'sphere') return 2 * p.radius;
  if (p.kind === 'capsule') return 2 * (p.radius + p.halfLength);
  return 2 * Math.max(p.half[0], p.half[2]);
}

/** A probe's width across its travel, m. */
function probeWidth(p: ProbeShape): number {
  if (p.kind === 'sphere' || p.kind === 'capsule') return 2 * p.radius;
  return 2 * p.half[2];
}

/** A resource to ride from a file's bytes, read by the codec; throws its FormatError (field, offset) on bad bytes. */
export function readRideResource(name: string, bytes: Uint8Array): RideResource {
  return { name, resource: readPhysicsResource(bytes) };
}
