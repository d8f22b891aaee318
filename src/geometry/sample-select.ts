// Floyd–Rivest sampling for selection (Floyd & Rivest 1975, "Algorithm 489"): to place the rank-k element of a
// large range, first select rank k within a small sample window around k; that element is the pivot, so one
// partition leaves only a short range around k (~1.5 n comparisons instead of quickselect's ~3 n). Shared by the
// tree's face order (bvh.ts) and the spatial split (split.ts); each keeps its own comparator and swap.

/** Ranges longer than this select a sample first (measured 150–2,400: within noise; 600 kept). */
export const SAMPLE_SELECT_MIN = 600;

/**
 * The sample window [out[0], out[1]] (inclusive) around rank k for the range [left, right] (inclusive): about
 * n^(2/3) elements, shifted by a standard deviation towards the range's middle.
 */
export function sampleWindow(left: number, right: number, k: number, out: Int32Array): void {
  const n = right - left + 1, m = k - left + 1, z = Math.log(n), s = 0.5 * Math.exp((2 * z) / 3);
  const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
  out[0] = Math.max(left, Math.floor(k - (m * s) / n + sd));
  out[1] = Math.min(right, Math.floor(k + ((n - m) * s) / n + sd));
}
