/** Binary search in a sorted array of numbers. */

/** The index of the last element at most `x` in `sorted` (ascending, its first element at most `x`). */
export function lastIndexAtMost(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
