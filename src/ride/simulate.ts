// One ride: a probe sliding frictionless under gravity over the written faces, the way a rigid body rides a mesh in
// an engine with speculative contacts (Jolt's model): each substep gathers every face within reach of the probe,
// each contact takes its normal from the contact model (contact.ts), and the velocity is kept from closing any
// contact's gap faster than the gap allows in one substep (inelastic, no friction). A contact that keeps its own
// normal (an edge the data leaves open, or convex) and changes the velocity is a hit: the caller decides whether
// it is a ghost (the surface continues across) or real geometry.
import { contactNormal, CONTACT_MODEL, type ContactModel } from './contact.ts';
import { Contact, CONTACT_REACH, contactWithin, FEATURE_FACE, type Pose, type ProbeShape, probeReach, probeThickness } from './probes.ts';
import { cellOf, Query, STAMPS } from './grid.ts';
import { faceNormal, type RideWorld } from './world.ts';
import { wasmSim } from './native.ts';

export interface SimulationOptions {
  /** Gravity, m/s² along −y (default 9.81, range 0 … 100). */
  gravity: number;
  /** Base step rate, Hz (default 60); substeps keep each move under the probe's thickness. */
  hz: number;
  /** Extra reach of a speculative contact beyond the substep's move, m (default 0.001). */
  skin: number;
  /** Velocity passes a substep over the contacts (default 4). */
  iterations: number;
  /** A hit changes the velocity by at least this, m/s (default 0.01). */
  hitImpulse: number;
  /** Contacts kept a substep at most (default 256; more are dropped, the shallowest first is not guaranteed). */
  maxContacts: number;
}

export const SIMULATION_DEFAULTS: SimulationOptions = { gravity: 9.81, hz: 60, skin: 0.001, iterations: 4, hitImpulse: 0.01, maxContacts: 256 };

/** A contact that kept its own normal and changed the velocity. */
export interface Hit {
  /** World face, its feature (edge k, or 3 + vertex k), the point on it. */
  face: number;
  feature: number;
  point: [number, number, number];
  normal: [number, number, number];
  /** Velocity change it made, m/s; the horizontal speed before and after the substep; the upward kick, m/s. */
  impulse: number;
  speedBefore: number;
  speedAfter: number;
  kick: number;
  time: number;
}

export interface RideResult {
  position: [number, number, number];
  velocity: [number, number, number];
  /** Path length ridden, m; time, s. */
  distance: number;
  time: number;
  hits: Hit[];
  /** Whether it ended in the air more than 1 s (left the surface) . */
  fell: boolean;
  /** Face visits made (the work). */
  work: number;
}

export interface RideStart {
  probe: ProbeShape;
  /** Centre, m. */
  position: [number, number, number];
  velocity: [number, number, number];
  /** Stop after this long, s, or this path length, m (whichever first). */
  duration: number;
  distance?: number;
}

// Contact pool for one substep.
const POOL: Contact[] = [];
const FACE = new Int32Array(1024);
const KEPT = new Uint8Array(1024);
const IMP = new Float64Array(1024);
const EFF = new Float64Array(3 * 1024);
const TMP = new Float64Array(3);

/** Rides one probe from its start; see the file header. `q` is the world's query scratch. */
export function ride(w: RideWorld, q: Query, start: RideStart, options: Partial<SimulationOptions> = {}, model: ContactModel = CONTACT_MODEL): RideResult {
  return rideWith(w, q, start, { ...SIMULATION_DEFAULTS, ...options }, model);
}

/**
 * ride() with every option given: the rider merges its options once, not once a ride (a level written with --seams
 * shape simulates ~32,000 rides).
 */
export function rideWith(w: RideWorld, q: Query, start: RideStart, opt: SimulationOptions, model: ContactModel = CONTACT_MODEL): RideResult {
  // A world built in WebAssembly rides there (assembly/ride-sim.ts: this function's steps, the same result bit for bit).
  const native = wasmSim(w)?.(q, start, opt, model);
  return native ?? rideJS(w, q, start, opt, model);
}

/** rideWith in JavaScript (the rule: assembly/ride-sim.ts repeats it). */
export function rideJS(w: RideWorld, q: Query, start: RideStart, opt: SimulationOptions, model: ContactModel = CONTACT_MODEL): RideResult {
  const max = Math.min(opt.maxContacts, FACE.length);
  while (POOL.length < max) POOL.push(new Contact());
  const p = start.probe;
  // Copies of the start (not Float64Array.from: the builtin's iteration, a ride).
  const c = new Float64Array(3), v = new Float64Array(3);
  c[0] = start.position[0]; c[1] = start.position[1]; c[2] = start.position[2];
  v[0] = start.velocity[0]; v[1] = start.velocity[1]; v[2] = start.velocity[2];
  const h0 = Math.sqrt(v[0] * v[0] + v[2] * v[2]);
  const pose: Pose = { c, fx: h0 > 1e-9 ? v[0] / h0 : 1, fz: h0 > 1e-9 ? v[2] / h0 : 0 };
  const reachR = probeReach(p), thick = probeThickness(p);
  const hits: Hit[] = [];
  const work0 = q.work;
  let time = 0, dist = 0, air = 0;
  const baseDt = 1 / opt.hz;
  const stopAt = start.distance ?? Infinity;
  while (time < start.duration - 1e-12 && dist < stopAt) {
    const speed = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    const subs = Math.max(1, Math.ceil((speed * baseDt) / thick));
    const dt = baseDt / subs;
    for (let s = 0; s < subs; s++) {
      v[1] -= opt.gravity * dt;
      const move = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * dt;
      const reach = move + opt.skin;
      const r = reachR + reach;
      let n = 0;
      // The faces in the grid cells the probe's reach overlaps (inline: this is the hot loop), each once.
      const g = w.grid;
      if (w.faces > 0) {
        const i0 = cellOf(g, c[0] - r, 0), i1 = cellOf(g, c[0] + r, 0), j0 = cellOf(g, c[2] - r, 1), j1 = cellOf(g, c[2] + r, 1);
        if (++q.stamp === STAMPS) { q.seen.fill(0); q.stamp = 1; }
        const stamp = q.stamp, seen = q.seen, items = g.items, V = w.vert, C = w.corner;
        // The faces the probe cannot reach (cull, below): outside [lo, hi] along the axes U (world x or the travel
        // axis), y and V (world z or across).
        cullBounds(p, c, pose, reach);
        CONTACT_REACH[0] = reach;
        const kind = CULL[9], ux = CULL[10], uz = CULL[11], vx = -uz, vz = ux;
        const ulo = CULL[0], uhi = CULL[1], ylo = CULL[2], yhi = CULL[3], vlo = CULL[4], vhi = CULL[5];
        for (let j = j0; j <= j1; j++) {
          for (let i = i0; i <= i1; i++) {
            const cell = j * g.nx + i;
            let t = -1;
            for (let e = g.start[cell], end = g.start[cell + 1]; e < end && n < max; ) {
              // The cell's next face (grid.ts Grid).
              let by = items[e++], gap = by & 0x7f;
              for (let m = 0x80; by > 0x7f; m *= 0x80) { by = items[e++]; gap += (by & 0x7f) * m; }
              t += gap + 1;
              if (seen[t] === stamp) continue;
              seen[t] = stamp;
              q.work++;
              const o0 = 3 * C[3 * t], o1 = 3 * C[3 * t + 1], o2 = 3 * C[3 * t + 2];
              const a = V[o0 + 1], b = V[o1 + 1], d = V[o2 + 1];
              if ((a > b ? (a > d ? a : d) : b > d ? b : d) < ylo || (a < b ? (a < d ? a : d) : b < d ? b : d) > yhi) continue;
              {
                const x0 = V[o0], z0 = V[o0 + 2], x1 = V[o1], z1 = V[o1 + 2], x2 = V[o2], z2 = V[o2 + 2];
                const u0 = kind ? x0 * ux + z0 * uz : x0, u1 = kind ? x1 * ux + z1 * uz : x1, u2 = kind ? x2 * ux + z2 * uz : x2;
                if ((u0 > u1 ? (u0 > u2 ? u0 : u2) : u1 > u2 ? u1 : u2) < ulo || (u0 < u1 ? (u0 < u2 ? u0 : u2) : u1 < u2 ? u1 : u2) > uhi) continue;
                const v0 = kind ? x0 * vx + z0 * vz : z0, v1 = kind ? x1 * vx + z1 * vz : z1, v2 = kind ? x2 * vx + z2 * vz : z2;
                if ((v0 > v1 ? (v0 > v2 ? v0 : v2) : v1 > v2 ? v1 : v2) < vlo || (v0 < v1 ? (v0 < v2 ? v0 : v2) : v1 < v2 ? v1 : v2) > vhi) continue;
              }
              const k = POOL[n];
              if (!contactWithin(w, t, p, pose, k)) continue;
              // The feature's allowance (allowanceEdge), inline: a double a call returns is boxed where the call is not inlined.
              const allowed = k.feature === FEATURE_FACE ? 0 : w.allow[3 * t + allowanceEdge(w, t, k.feature, k.n)];
              const kept = contactNormal(k.n, k.face, allowed, TMP, model);
              FACE[n] = t;
              KEPT[n] = kept && k.feature !== FEATURE_FACE ? 1 : 0;
              IMP[n] = 0;
              EFF[3 * n] = TMP[0]; EFF[3 * n + 1] = TMP[1]; EFF[3 * n + 2] = TMP[2];
              n++;
            }
          }
        }
      }
      const hBefore = Math.sqrt(v[0] * v[0] + v[2] * v[2]), vyBefore = v[1];
      for (let it = 0; it < opt.iterations; it++) {
        let changed = false;
        for (let i = 0; i < n; i++) {
          const nx = EFF[3 * i], ny = EFF[3 * i + 1], nz = EFF[3 * i + 2];
          const target = -Math.max(POOL[i].s, 0) / dt;
          const vn = v[0] * nx + v[1] * ny + v[2] * nz;
          if (vn < target - 1e-12) {
            const dv = target - vn;
            v[0] += dv * nx; v[1] += dv * ny; v[2] += dv * nz;
            IMP[i] += dv;
            changed = true;
          }
        }
        if (!changed) break;
      }
      // Penetration: the deepest contact's depth out along its normal (resting contacts stay at zero gap).
      let deep = -1, depth = 0;
      for (let i = 0; i < n; i++) if (POOL[i].s < depth) { depth = POOL[i].s; deep = i; }
      if (deep >= 0) {
        c[0] -= depth * EFF[3 * deep]; c[1] -= depth * EFF[3 * deep + 1]; c[2] -= depth * EFF[3 * deep + 2];
        // The push is part of the centre's path: the path length bounds how far a ride can take the probe (rideBound).
        dist -= depth;
      }
      const hAfter = Math.sqrt(v[0] * v[0] + v[2] * v[2]);
      for (let i = 0; i < n; i++) {
        if (!KEPT[i] || IMP[i] < opt.hitImpulse) continue;
        const k = POOL[i];
        hits.push({
          face: FACE[i], feature: k.feature, point: [k.point[0], k.point[1], k.point[2]], normal: [EFF[3 * i], EFF[3 * i + 1], EFF[3 * i + 2]],
          impulse: IMP[i], speedBefore: hBefore, speedAfter: hAfter, kick: Math.max(0, v[1] - Math.max(0, vyBefore)), time,
        });
      }
      air = n === 0 ? air + dt : 0;
      c[0] += v[0] * dt; c[1] += v[1] * dt; c[2] += v[2] * dt;
      dist += Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) * dt;
      time += dt;
      const hv = Math.sqrt(v[0] * v[0] + v[2] * v[2]);
      if (hv > 1e-9) { pose.fx = v[0] / hv; pose.fz = v[2] / hv; }
    }
    if (air > 1) break;
  }
  return { position: [c[0], c[1], c[2]], velocity: [v[0], v[1], v[2]], distance: dist, time, hits, fell: air > 1, work: q.work - work0 };
}

/**
 * How far from its start (x, y and z each) a ride can take a face within the probe's reach, m: a face further than this
 * can give it no contact. The ride stops at the first step (1/hz) that ends past `distance` of path or `duration`;
 * the path counts every move of the centre (velocity and push out of penetration); the speed grows by gravity at most
 * (a contact takes speed, never adds it: its target is a closing speed of at most zero); a push is at most the probe's
 * reach (one-sided faces: the centre is in front of the face) and a step has at most ceil(speed / hz / thickness)
 * substeps. Infinity without a distance.
 */
export function rideBound(p: ProbeShape, speed: number, duration: number, distance: number | undefined, opt: SimulationOptions = SIMULATION_DEFAULTS): number {
  if (distance === undefined || !Number.isFinite(distance) || !Number.isFinite(duration) || !Number.isFinite(speed)) return Infinity;
  const dt = 1 / opt.hz, reach = probeReach(p);
  const vmax = Math.abs(speed) + Math.abs(opt.gravity) * (duration + dt);
  const step = vmax * dt + Math.ceil((vmax * dt) / probeThickness(p)) * reach;
  // The centre's furthest, then a face's contact reach beyond it (the probe, a substep's move, the skin).
  return distance + step + reach + vmax * dt + opt.skin + CULL_MARGIN;
}

/**
 * Margin of the cull over the narrow phase's own limits, m: a face culled lies further than this beyond where the
 * narrow phase would still give a contact, so culling never drops a contact the narrow phase keeps (rounding there
 * is ~1e-13 m at the coordinates of a level).
 */
const CULL_MARGIN = 1e-6;
/** The cull's bounds: U lo, hi, y lo, hi, V lo, hi, (unused ×3), axes kind (0: world x/z, 1: travel/across), U's x, z. */
const CULL = new Float64Array(12);

/**
 * Bounds outside which a face cannot give the probe a contact within `reach` (contactWith would return false):
 * along axes the narrow phase itself separates by, so a face outside them is one it would reject. The sphere and
 * the capsule: the box of the centre (the core segment) grown by the radius and the reach, in world x, y, z (their
 * contact is by true distance, which is at least the gap along any axis). The box: its own axes (travel, up,
 * across), three of the separating axes its contact tries: a face beyond half an extent plus the reach along one
 * of them is separated by more than the reach on it, and boxContact returns false.
 */
function cullBounds(p: ProbeShape, c: Float64Array, pose: Pose, reach: number): void {
  if (p.kind === 'box') {
    const h = p.half, fx = pose.fx, fz = pose.fz;
    const cu = c[0] * fx + c[2] * fz, cv = -c[0] * fz + c[2] * fx;
    const ru = h[0] + reach + CULL_MARGIN, ry = h[1] + reach + CULL_MARGIN, rv = h[2] + reach + CULL_MARGIN;
    CULL[0] = cu - ru; CULL[1] = cu + ru; CULL[2] = c[1] - ry; CULL[3] = c[1] + ry; CULL[4] = cv - rv; CULL[5] = cv + rv;
    CULL[9] = 1; CULL[10] = fx; CULL[11] = fz;
    return;
  }
  const R = p.radius + reach + CULL_MARGIN;
  const ex = p.kind === 'capsule' ? Math.abs(pose.fx) * p.halfLength : 0, ez = p.kind === 'capsule' ? Math.abs(pose.fz) * p.halfLength : 0;
  CULL[0] = c[0] - ex - R; CULL[1] = c[0] + ex + R; CULL[2] = c[1] - R; CULL[3] = c[1] + R; CULL[4] = c[2] - ez - R; CULL[5] = c[2] + ez + R;
  CULL[9] = 0; CULL[10] = 1; CULL[11] = 0;
}

/**
 * The edge (0 … 2) of face t whose allowance a contact on `feature` takes (the allowance of a contact's feature: 0
 * inside, the edge's on an edge): on a vertex, the edge at the vertex the contact's normal leaves the face through (its
 * outward side faces the normal more): a vertex where a welded seam meets the level's border is met across the seam,
 * not across the border.
 */
export function allowanceEdge(w: RideWorld, t: number, feature: number, n: ArrayLike<number>): number {
  if (feature < 3) return feature;
  const k = feature - 3, before = (k + 2) % 3;
  return outwardDot(w, t, k, n) >= outwardDot(w, t, before, n) ? k : before;
}

/** outwardDot's face normal. */
const OUTWARD = new Float64Array(3);

/** n · the outward direction of face t's edge e (corner e to e + 1) in the face's plane (edge × face normal). */
function outwardDot(w: RideWorld, t: number, e: number, n: ArrayLike<number>): number {
  const P = w.vert, i = 3 * w.corner[3 * t + e], j = 3 * w.corner[3 * t + ((e + 1) % 3)];
  const ex = P[j] - P[i], ey = P[j + 1] - P[i + 1], ez = P[j + 2] - P[i + 2];
  faceNormal(P, w.corner, t, OUTWARD);
  const fx = OUTWARD[0], fy = OUTWARD[1], fz = OUTWARD[2];
  const ox = ey * fz - ez * fy, oy = ez * fx - ex * fz, oz = ex * fy - ey * fx;
  return (ox * n[0] + oy * n[1] + oz * n[2]) / (Math.sqrt(ox * ox + oy * oy + oz * oz) || 1);
}

export { Query };
