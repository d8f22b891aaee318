// The ride's contact model: how a contact on a written face uses the face's stored edge data (decision in
// docs/ride.md "Contact model"; edge data: ../shared/spec/physics-resource.md "Triangle-mesh shapes"). The game's
// own contact code is not public; this is the welding that engines with precomputed edge data do (Jolt's active
// edges, Bullet's triangle-info maps, Havok-style welding), in one function over one set of constants:
//
// - a contact inside the face takes the face normal;
// - on a flat or concave edge (flat or concave bit) it takes the face normal: the face continues across the edge;
// - on a convex edge (a stored value v < 1: the faces fold by θ = 2·acos v) it keeps its own normal when that lies
//   within θ of the face normal, else the face normal;
// - on an open edge (value 1.0, neither bit) it keeps its own normal: the edge collides as a full edge. (A sharp
//   concave fold of 90° or more stores the same bytes; a probe meets its other face first, so that is harmless.)
// - on a vertex it takes the rule of the face's edge there that the contact's normal leaves the face through.

export const EDGE_FLAT = 0;
export const EDGE_CONCAVE = 1;
export const EDGE_CONVEX = 2;
export const EDGE_OPEN = 3;
export const EDGE_KIND_NAMES = ['flat', 'concave', 'convex', 'open'] as const;

export interface ContactModel {
  /** Slack on a convex edge's stored angle, radians (f32 storage of the cosine; default 1e-3, range 0 … 0.1). */
  angleSlack: number;
  /** A contact normal within this angle of the face normal is a face contact, radians (default 1e-6). */
  faceAngle: number;
}

export const CONTACT_MODEL: ContactModel = { angleSlack: 1e-3, faceAngle: 1e-6 };
const FACE_COS = Math.cos(CONTACT_MODEL.faceAngle);
/** The cosine of the model's face angle, as contactNormal takes it. */
export const faceCos = (model: ContactModel): number => (model === CONTACT_MODEL ? FACE_COS : Math.cos(model.faceAngle));

/** The deviation from the face normal a contact on an edge of this kind may keep, radians. */
export function edgeAllowance(kind: number, value: number): number {
  if (kind === EDGE_FLAT || kind === EDGE_CONCAVE) return 0;
  if (kind === EDGE_CONVEX) return 2 * Math.acos(Math.max(-1, Math.min(1, value)));
  return Math.PI;
}

/**
 * The normal a contact takes. `n` (unit, from the face toward the probe) is the contact's own normal, `face` the
 * face's unit normal, `allowed` the feature's allowance (edgeAllowance; for a vertex, that of the edge the normal leaves through;
 * 0 for the face's interior). Writes the normal into `out` and returns true when the contact kept its own normal
 * (an edge contact the edge data allows: what a ghost bump is made of when the edge is open on a continuous surface).
 */
export function contactNormal(n: ArrayLike<number>, face: ArrayLike<number>, allowed: number, out: Float64Array, model: ContactModel = CONTACT_MODEL): boolean {
  const c = n[0] * face[0] + n[1] * face[1] + n[2] * face[2];
  // Inside the face, or nothing allowed: no acos needed.
  const inside = allowed === 0 || c >= (model === CONTACT_MODEL ? FACE_COS : Math.cos(model.faceAngle));
  if (inside || Math.acos(Math.max(-1, Math.min(1, c))) > allowed + model.angleSlack) {
    out[0] = face[0]; out[1] = face[1]; out[2] = face[2];
    return false;
  }
  out[0] = n[0]; out[1] = n[1]; out[2] = n[2];
  return true;
}
