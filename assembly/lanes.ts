// Two records at a time in f64x2 lanes (the split's centroids, the tree's face records, the edges' face data): each
// lane's arithmetic is the scalar one (IEEE, no fused steps), so the bits are the same. An odd one out runs the
// same routine with both lanes on it.

/** Coordinate `axis` (0–2) of the f32 vertices at byte addresses a (lane 0) and b (lane 1), as f64. */
@inline export function coordPair(a: usize, b: usize, axis: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load32_lane(b + (axis << 2), v128.load32_zero(a + (axis << 2)), 1));
}
