// f32 values as ordered integer keys: consecutive f32 values are consecutive keys, so a distance in steps (units in
// the last place) is a difference of keys. Used by the round trip's world-value spans (src/export/positions.ts), the
// carried seam values (seams.ts) and the grind-curve search (src/export/grind.ts).
const kf = new Float32Array(1), ki = new Int32Array(kf.buffer);

/** The f32 x as an ordered integer: consecutive f32 values are consecutive keys, −0.0 and +0.0 both 0. */
export function keyOf(x: number): number {
  kf[0] = x;
  const b = ki[0];
  return b < 0 ? -(b & 0x7fffffff) : b;
}

/** The f32 of key k (0: +0.0). */
export function valueOf(k: number): number {
  ki[0] = k < 0 ? (-k | 0x80000000) : k;
  return kf[0];
}
