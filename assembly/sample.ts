// Floyd–Rivest sampling for selection (Floyd & Rivest 1975, "Algorithm 489"), shared by the tree's face order
// (tree.ts) and the spatial split (split.ts): to place the rank-k element of a long range, first select rank k
// within a sample window around k; that element is the pivot, so one partition leaves only a short range around k
// (~1.5 n comparisons instead of quickselect's ~3 n). The window only chooses pivots, never a result.

/** Ranges longer than this select a sample first (measured 150–2,400 in JavaScript: within noise; 600 kept). */
export const SAMPLE_SELECT_MIN: i32 = 600;

/** The sample window's ends for the range [left, right] (inclusive) and rank k: set by sampleWindow. */
export let WINDOW_LO: i32 = 0;
export let WINDOW_HI: i32 = 0;

/** About n^(2/3) elements around k, shifted by a standard deviation towards the range's middle. */
export function sampleWindow(left: i32, right: i32, k: i32): void {
  const n = <f64>(right - left + 1), m = <f64>(k - left + 1), z = Math.log(n), s = 0.5 * Math.exp((2 * z) / 3);
  const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
  WINDOW_LO = max(left, <i32>Math.floor(<f64>k - (m * s) / n + sd));
  WINDOW_HI = min(right, <i32>Math.floor(<f64>k + ((n - m) * s) / n + sd));
}
