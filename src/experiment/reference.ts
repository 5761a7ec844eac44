/**
 * Native Faial v1 (the CAV 2021 OCaml tool piping its SMT-LIB into the z3
 * binary) at the points of the synthetic families that issue 29 measured on
 * a quiet 2-core machine, whole processes, median of 3: its goals' table. The
 * benchmark prints them beside faial-ts's time. Goal 1 of the issue: as a
 * process, faial-ts takes at most v1's time + `node -e 0` + 50 ms (Node's own
 * start is the one cost v1 does not have).
 */
import type { Family } from '../gen/families.js';

export interface Reference {
  readonly family: Family;
  readonly size: number;
  /** Faial v1's whole-process time (ms) */
  readonly v1Ms: number;
}

/** From issue 29's table ("Measured side by side on a quiet 2-core machine"); the DRF kernels. */
export const V1_REFERENCE: readonly Reference[] = [
  { family: 'accesses', size: 1, v1Ms: 27 },
  { family: 'barriers', size: 1, v1Ms: 28 },
  { family: 'accesses', size: 50, v1Ms: 35 },
  { family: 'barriers', size: 50, v1Ms: 45 },
  { family: 'conditionals', size: 50, v1Ms: 39 },
  { family: 'seq-sync-loops', size: 50, v1Ms: 82 },
  { family: 'cond-barriers', size: 10, v1Ms: 2537 },
  { family: 'sync-loops', size: 10, v1Ms: 1455 },
];

/** What the issue allows faial-ts's process beyond v1's: Node's own start, and 50 ms. */
export const GOAL_SLACK_MS = 50;

export function v1Reference(family: Family, size: number): number | null {
  return V1_REFERENCE.find((r) => r.family === family && r.size === size)?.v1Ms ?? null;
}

/** Goal 1's bound for a point: v1's time + `node -e 0` (as measured where the benchmark runs) + 50 ms. */
export function goalMs(v1Ms: number, nodeStartMs: number): number {
  return v1Ms + nodeStartMs + GOAL_SLACK_MS;
}
