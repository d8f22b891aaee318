// The ride's probes and their distance to one written face: a skateboard wheel (sphere), a deck-sized box and a
// capsule, upright and turned to their direction of travel (they slide, they do not rotate: a ghost contact shows
// in the velocity, which is what the findings measure). Each query gives the separation (negative: penetration),
// the contact's own normal (from the face toward the probe), the face's feature touched (interior, edge or vertex)
// and the point on the face. Closest points after Ericson, Real-Time Collision Detection (5.1.5, 5.1.9); the box by
// separating axes (face normal, box axes, their cross products).
import { faceNormal, type RideWorld } from './world.ts';

export type ProbeShape =
  | { kind: 'sphere'; radius: number }
  | { kind: 'box'; /** Half extents along travel, up, across, m. */ half: [number, number, number] }
  | { kind: 'capsule'; radius: number; /** Half length of the core segment, along travel, m. */ halfLength: number };

export interface Probe {
  name: string;
  shape: ProbeShape;
}

/**
 * The probes: a wheel (sphere, radius 0.028 m: a 56 mm skateboard wheel), a deck (box 0.8 × 0.1 × 0.2 m: long
 * along travel, thin, board-wide) and a capsule (radius 0.04 m, 0.8 m long along travel: a board's rounded nose to
 * tail). Each in metres; a ride may name others.
 */
export const PROBES: Probe[] = [
  { name: 'wheel', shape: { kind: 'sphere', radius: 0.028 } },
  { name: 'deck', shape: { kind: 'box', half: [0.4, 0.05, 0.1] } },
  { name: 'capsule', shape: { kind: 'capsule', radius: 0.04, halfLength: 0.36 } },
];

/** Feature codes: FACE, an edge k (0 … 2: corner k to k + 1), a vertex k (3 + k). */
export const FEATURE_FACE = -1;

/** Gap by which another axis may fall short of the face normal's and still be the box's contact, m. */
export const BOX_TIE = 1e-9;

/** A probe's pose: centre and horizontal unit direction of travel (x, z). */
export interface Pose {
  c: Float64Array; // x y z
  fx: number;
  fz: number;
}

/** The result of one query (reused: no allocation a query). */
export class Contact {
  s = 0;
  n = new Float64Array(3);
  feature = FEATURE_FACE;
  point = new Float64Array(3);
  /** The face's unit normal (world.ts faceNormal), as contactWith worked it out. */
  face = new Float64Array(3);
}

/** The probe's reach around its centre (bounding sphere radius), m. */
export function probeReach(p: ProbeShape): number {
  if (p.kind === 'sphere') return p.radius;
  if (p.kind === 'capsule') return p.radius + p.halfLength;
  return Math.sqrt(p.half[0] * p.half[0] + p.half[1] * p.half[1] + p.half[2] * p.half[2]);
}

/** The probe's smallest dimension (the substep length at most), m. */
export function probeThickness(p: ProbeShape): number {
  if (p.kind === 'box') return Math.min(p.half[0], p.half[1], p.half[2]);
  return p.radius;
}

/** The probe's support distance along unit direction (dx, dy, dz): how far it reaches from its centre that way. */
export function support(p: ProbeShape, pose: Pose, dx: number, dy: number, dz: number): number {
  if (p.kind === 'sphere') return p.radius;
  const along = Math.abs(dx * pose.fx + dz * pose.fz);
  if (p.kind === 'capsule') return p.radius + p.halfLength * along;
  const across = Math.abs(-dx * pose.fz + dz * pose.fx);
  return p.half[0] * along + p.half[1] * Math.abs(dy) + p.half[2] * across;
}

// Scratch for the closest-point routines.
const Q = new Float64Array(3);
const S = new Float64Array(3);
// Arguments of the routines below passed in scratch: V8 boxes a double passed to (or returned from) a call it does
// not inline, and the ride makes millions of these calls (~2 GB of short-lived numbers on the 1M bench level).
/** closestOnFace's point. */
const PT = new Float64Array(3);
/** segSeg's two segments: p1, d1, p2, d2 (x y z each). */
const SEG = new Float64Array(12);
/** The contact routines' face normal (x y z) and reach. */
const NR = new Float64Array(4);
/**
 * The contact routines' face: its three world vertices (x y z each), read once a query from the world's vertices
 * through the face's corners: the routines below read them many times (the box's 13 axes).
 */
const TRI = new Float64Array(9);

/**
 * Closest point of the face (TRI) to point PT into Q; returns the feature: FEATURE_FACE, edge k, or 3 + vertex k.
 */
function closestOnFace(): number {
  const px = PT[0], py = PT[1], pz = PT[2];
  const p = TRI, o = 0;
  const ax = p[o], ay = p[o + 1], az = p[o + 2], bx = p[o + 3], by = p[o + 4], bz = p[o + 5], cx = p[o + 6], cy = p[o + 7], cz = p[o + 8];
  const abx = bx - ax, aby = by - ay, abz = bz - az, acx = cx - ax, acy = cy - ay, acz = cz - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) {
    Q[0] = ax; Q[1] = ay; Q[2] = az;
    return 3;
  }
  const bpx = px - bx, bpy = py - by, bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) {
    Q[0] = bx; Q[1] = by; Q[2] = bz;
    return 4;
  }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    Q[0] = ax + v * abx; Q[1] = ay + v * aby; Q[2] = az + v * abz;
    return 0;
  }
  const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) {
    Q[0] = cx; Q[1] = cy; Q[2] = cz;
    return 5;
  }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const u = d2 / (d2 - d6);
    Q[0] = ax + u * acx; Q[1] = ay + u * acy; Q[2] = az + u * acz;
    return 2;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const u = (d4 - d3) / (d4 - d3 + (d5 - d6));
    Q[0] = bx + u * (cx - bx); Q[1] = by + u * (cy - by); Q[2] = bz + u * (cz - bz);
    return 1;
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom, u = vc * denom;
  Q[0] = ax + abx * v + acx * u; Q[1] = ay + aby * v + acy * u; Q[2] = az + abz * v + acz * u;
  return FEATURE_FACE;
}

/** Closest points of segments p1q1 and p2q2: parameters into S[0], S[1], the squared distance into S[2]. */
function segSeg(): void {
  const p1x = SEG[0], p1y = SEG[1], p1z = SEG[2], d1x = SEG[3], d1y = SEG[4], d1z = SEG[5];
  const p2x = SEG[6], p2y = SEG[7], p2z = SEG[8], d2x = SEG[9], d2y = SEG[10], d2z = SEG[11];
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z, e = d2x * d2x + d2y * d2y + d2z * d2z, f = d2x * rx + d2y * ry + d2z * rz;
  let s: number, t: number;
  if (a <= 1e-18 && e <= 1e-18) { s = 0; t = 0; }
  else if (a <= 1e-18) { s = 0; t = clamp01(f / e); }
  else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= 1e-18) { t = 0; s = clamp01(-c / a); }
    else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z, denom = a * e - b * b;
      s = denom > 1e-18 ? clamp01((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) { t = 0; s = clamp01(-c / a); }
      else if (t > 1) { t = 1; s = clamp01((b - c) / a); }
    }
  }
  S[0] = s; S[1] = t;
  const x = p1x + d1x * s - (p2x + d2x * t), y = p1y + d1y * s - (p2y + d2y * t), z = p1z + d1z * s - (p2z + d2z * t);
  S[2] = x * x + y * y + z * z;
}

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/**
 * The probe's contact with face t: fills `out` and returns true when the face is in front of the probe's centre
 * (faces are one-sided) and the separation is below `reach`; false otherwise.
 */
export function contactWith(w: RideWorld, t: number, p: ProbeShape, pose: Pose, reach: number, out: Contact): boolean {
  CONTACT_REACH[0] = reach;
  return contactWithin(w, t, p, pose, out);
}

/**
 * contactWith's reach for contactWithin, set once for the many faces a substep asks at one reach: V8 boxes a double
 * passed to a call it does not inline (a new number on the heap a face).
 */
export const CONTACT_REACH = new Float64Array(1);

/** contactWith at the reach in CONTACT_REACH[0]. */
export function contactWithin(w: RideWorld, t: number, p: ProbeShape, pose: Pose, out: Contact): boolean {
  const reach = CONTACT_REACH[0];
  const V = w.vert, C = w.corner, c = pose.c, fn = out.face;
  faceNormal(V, C, t, fn);
  const nx = fn[0], ny = fn[1], nz = fn[2];
  if (nx === 0 && ny === 0 && nz === 0) return false;
  const A = 3 * C[3 * t], B = 3 * C[3 * t + 1], D = 3 * C[3 * t + 2];
  const plane = (c[0] - V[A]) * nx + (c[1] - V[A + 1]) * ny + (c[2] - V[A + 2]) * nz;
  if (plane < 0) return false; // behind the face
  // support(p, pose, nx, ny, nz), inline (a call boxes its doubles).
  let reachOut: number;
  if (p.kind === 'sphere') reachOut = p.radius;
  else {
    const along = Math.abs(nx * pose.fx + nz * pose.fz);
    if (p.kind === 'capsule') reachOut = p.radius + p.halfLength * along;
    else reachOut = p.half[0] * along + p.half[1] * Math.abs(ny) + p.half[2] * Math.abs(-nx * pose.fz + nz * pose.fx);
  }
  if (plane - reachOut > reach) return false;
  NR[0] = nx; NR[1] = ny; NR[2] = nz; NR[3] = reach;
  TRI[0] = V[A]; TRI[1] = V[A + 1]; TRI[2] = V[A + 2]; TRI[3] = V[B]; TRI[4] = V[B + 1]; TRI[5] = V[B + 2];
  TRI[6] = V[D]; TRI[7] = V[D + 1]; TRI[8] = V[D + 2];
  if (p.kind === 'sphere') return pointContact(c, p, out);
  if (p.kind === 'capsule') return capsuleContact(p, pose, out);
  return boxContact(p.half, pose, out);
}

function pointContact(c: Float64Array, sp: { radius: number }, out: Contact): boolean {
  const r = sp.radius;
  const x = c[0], y = c[1], z = c[2], nx = NR[0], ny = NR[1], nz = NR[2], reach = NR[3];
  PT[0] = x; PT[1] = y; PT[2] = z;
  const f = closestOnFace();
  const dx = x - Q[0], dy = y - Q[1], dz = z - Q[2];
  const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (d - r > reach) return false;
  out.point[0] = Q[0]; out.point[1] = Q[1]; out.point[2] = Q[2];
  if (d < 1e-12 || f === FEATURE_FACE) {
    out.n[0] = nx; out.n[1] = ny; out.n[2] = nz;
    out.s = (f === FEATURE_FACE ? d : 0) - r;
    out.feature = FEATURE_FACE;
    return true;
  }
  out.n[0] = dx / d; out.n[1] = dy / d; out.n[2] = dz / d;
  out.s = d - r;
  out.feature = f;
  return true;
}

function capsuleContact(p: { radius: number; halfLength: number }, pose: Pose, out: Contact): boolean {
  const nx = NR[0], ny = NR[1], nz = NR[2], reach = NR[3];
  const c = pose.c, h = p.halfLength;
  const ax = c[0] - pose.fx * h, ay = c[1], az = c[2] - pose.fz * h;
  const dx = 2 * pose.fx * h, dy = 0, dz = 2 * pose.fz * h;
  const P = TRI, o = 0;
  // The segment through the face: the deepest end's penetration along the face normal.
  const sa = (ax - P[o]) * nx + (ay - P[o + 1]) * ny + (az - P[o + 2]) * nz;
  const sb = sa + dx * nx + dy * ny + dz * nz;
  if ((sa < 0) !== (sb < 0)) {
    const k = sa / (sa - sb);
    PT[0] = ax + k * dx; PT[1] = ay + k * dy; PT[2] = az + k * dz;
    const f = closestOnFace();
    if (f === FEATURE_FACE) {
      out.n[0] = nx; out.n[1] = ny; out.n[2] = nz;
      out.s = Math.min(sa, sb) - p.radius;
      out.feature = FEATURE_FACE;
      out.point[0] = Q[0]; out.point[1] = Q[1]; out.point[2] = Q[2];
      return true;
    }
  }
  // Otherwise the closest of: each end against the face, the segment against each edge.
  let best = Infinity, bx = 0, by = 0, bz = 0, qx = 0, qy = 0, qz = 0, feature = FEATURE_FACE;
  for (let e = 0; e < 2; e++) {
    const px = ax + e * dx, py = ay + e * dy, pz = az + e * dz;
    PT[0] = px; PT[1] = py; PT[2] = pz;
    const f = closestOnFace();
    const d2 = (px - Q[0]) ** 2 + (py - Q[1]) ** 2 + (pz - Q[2]) ** 2;
    if (d2 < best) { best = d2; bx = px; by = py; bz = pz; qx = Q[0]; qy = Q[1]; qz = Q[2]; feature = f; }
  }
  for (let k = 0; k < 3; k++) {
    const i = o + 3 * k, j = o + 3 * ((k + 1) % 3);
    const ex = P[j] - P[i], ey = P[j + 1] - P[i + 1], ez = P[j + 2] - P[i + 2];
    SEG[0] = ax; SEG[1] = ay; SEG[2] = az; SEG[3] = dx; SEG[4] = dy; SEG[5] = dz;
    SEG[6] = P[i]; SEG[7] = P[i + 1]; SEG[8] = P[i + 2]; SEG[9] = ex; SEG[10] = ey; SEG[11] = ez;
    segSeg();
    const d2 = S[2];
    if (d2 < best - 1e-15) {
      best = d2;
      bx = ax + dx * S[0]; by = ay + dy * S[0]; bz = az + dz * S[0];
      qx = P[i] + ex * S[1]; qy = P[i + 1] + ey * S[1]; qz = P[i + 2] + ez * S[1];
      feature = S[1] <= 0 ? 3 + k : S[1] >= 1 ? 3 + ((k + 1) % 3) : k;
    }
  }
  const d = Math.sqrt(best);
  if (d - p.radius > reach) return false;
  out.point[0] = qx; out.point[1] = qy; out.point[2] = qz;
  if (d < 1e-12) {
    out.n[0] = nx; out.n[1] = ny; out.n[2] = nz;
    out.s = -p.radius;
    out.feature = FEATURE_FACE;
    return true;
  }
  out.n[0] = (bx - qx) / d; out.n[1] = (by - qy) / d; out.n[2] = (bz - qz) / d;
  out.s = d - p.radius;
  // A normal along the face's is a face contact whichever feature gave the distance (a segment parallel to it).
  out.feature = out.n[0] * nx + out.n[1] * ny + out.n[2] * nz > 1 - 1e-12 ? FEATURE_FACE : feature;
  return true;
}

// The box's axes (travel, up, across: x y z each). Module scratch: no allocation.
const E = new Float64Array(9);

/**
 * The box's contact by separating axes: up to 13 (the face normal, one-sided; the 3 box axes; the 9 cross products
 * of a box axis and a face edge), each in one pass of the loop below (no call an axis: V8 boxes the doubles of a
 * call it does not inline), the largest separation kept.
 */
function boxContact(half: [number, number, number], pose: Pose, out: Contact): boolean {
  const nx = NR[0], ny = NR[1], nz = NR[2], reach = NR[3];
  const P = TRI, o = 0, c = pose.c;
  // Box axes: travel (fx, 0, fz), up (0, 1, 0), across (−fz, 0, fx).
  E[0] = pose.fx; E[1] = 0; E[2] = pose.fz; E[3] = 0; E[4] = 1; E[5] = 0; E[6] = -pose.fz; E[7] = 0; E[8] = pose.fx;
  const h0 = half[0], h1 = half[1], h2 = half[2];
  const c0 = c[0], c1 = c[1], c2 = c[2];
  let bestS = -Infinity, bnx = 0, bny = 0, bnz = 0, face = false;
  for (let m = 0; m < 13; m++) {
    let ax: number, ay: number, az: number;
    if (m === 0) {
      ax = nx; ay = ny; az = nz;
    } else if (m < 4) {
      // Separated beyond reach already after the face normal and the box axes: the other axes can only raise the
      // separation (the faces round the box, not under it).
      ax = E[3 * (m - 1)]; ay = E[3 * (m - 1) + 1]; az = E[3 * (m - 1) + 2];
    } else {
      if (m === 4 && bestS > reach) return false;
      const j = ((m - 4) / 3) | 0, k = (m - 4) % 3;
      const i = o + 3 * j, n = o + 3 * ((j + 1) % 3);
      const ex = P[n] - P[i], ey = P[n + 1] - P[i + 1], ez = P[n + 2] - P[i + 2];
      const ux = E[3 * k], uy = E[3 * k + 1], uz = E[3 * k + 2];
      ax = uy * ez - uz * ey; ay = uz * ex - ux * ez; az = ux * ey - uy * ex;
    }
    const oneSided = m === 0;
    const len = Math.sqrt(ax * ax + ay * ay + az * az);
    if (len < 1e-9) continue;
    ax /= len; ay /= len; az /= len;
    const cc = c0 * ax + c1 * ay + c2 * az;
    const r = h0 * Math.abs(E[0] * ax + E[2] * az) + h1 * Math.abs(ay) + h2 * Math.abs(E[6] * ax + E[8] * az);
    const t0 = P[o] * ax + P[o + 1] * ay + P[o + 2] * az, t1 = P[o + 3] * ax + P[o + 4] * ay + P[o + 5] * az, t2 = P[o + 6] * ax + P[o + 7] * ay + P[o + 8] * az;
    const lo = t0 < t1 ? (t0 < t2 ? t0 : t2) : t1 < t2 ? t1 : t2, hi = t0 > t1 ? (t0 > t2 ? t0 : t2) : t1 > t2 ? t1 : t2;
    const above = cc - r - hi; // box on the axis's positive side
    const below = lo - (cc + r); // box on its negative side
    let sep: number, sign: number;
    if (oneSided || above >= below) { sep = above; sign = 1; }
    else { sep = below; sign = -1; }
    // The separation is the largest gap. An axis tied with the face normal (tried first) within BOX_TIE takes
    // over: a box touching a face's edge exactly is an edge contact, which the contact model then welds (or not).
    if (sep > bestS + (face ? -BOX_TIE : 1e-12)) {
      bestS = sep; bnx = sign * ax; bny = sign * ay; bnz = sign * az; face = oneSided;
    }
  }
  if (bestS > reach) return false;
  out.s = bestS;
  out.n[0] = bnx; out.n[1] = bny; out.n[2] = bnz;
  // The face's feature toward the box: its vertices furthest along the normal.
  const d0 = P[o] * bnx + P[o + 1] * bny + P[o + 2] * bnz, d1 = P[o + 3] * bnx + P[o + 4] * bny + P[o + 5] * bnz, d2 = P[o + 6] * bnx + P[o + 7] * bny + P[o + 8] * bnz;
  const top = Math.max(d0, d1, d2), eps = 1e-7 * (1 + Math.abs(top));
  const on0 = top - d0 <= eps, on1 = top - d1 <= eps, on2 = top - d2 <= eps;
  const count = +on0 + +on1 + +on2;
  if (face || count === 3 || bnx * nx + bny * ny + bnz * nz > 1 - 1e-12) out.feature = FEATURE_FACE;
  else if (count === 2) out.feature = on0 && on1 ? 0 : on1 && on2 ? 1 : 2;
  else out.feature = 3 + (on0 ? 0 : on1 ? 1 : 2);
  if (out.feature >= 0 && out.feature < 3) {
    // On an edge: the point of it nearest the box's centre.
    const i = o + 3 * out.feature, j = o + 3 * ((out.feature + 1) % 3);
    const ex = P[j] - P[i], ey = P[j + 1] - P[i + 1], ez = P[j + 2] - P[i + 2];
    const k = clamp01(((c[0] - P[i]) * ex + (c[1] - P[i + 1]) * ey + (c[2] - P[i + 2]) * ez) / (ex * ex + ey * ey + ez * ez || 1));
    out.point[0] = P[i] + k * ex; out.point[1] = P[i + 1] + k * ey; out.point[2] = P[i + 2] + k * ez;
  } else {
    PT[0] = c[0]; PT[1] = c[1]; PT[2] = c[2];
    closestOnFace();
    out.point[0] = Q[0]; out.point[1] = Q[1]; out.point[2] = Q[2];
    if (out.feature >= 3) {
      const v = o + 3 * (out.feature - 3);
      out.point[0] = P[v]; out.point[1] = P[v + 1]; out.point[2] = P[v + 2];
    }
  }
  return true;
}
