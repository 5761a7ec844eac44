/**
 * What a check may spend. The budget is a number of resource units (Z3's
 * rlimit): a count of the solver's own steps, the same on every machine and
 * under any load, so the verdict of a query depends only on the query, the
 * solver and the budget. Wall-clock time is a safety net only, far above
 * what the budget takes, against a solver that does not stop.
 */

/**
 * Resource units per check (`--rlimit`). Calibrated on the examples
 * (bench/rlimit.js, docs/solvers.md "Budgets"): the queries z3-wasm decides take at
 * most 5.5 million units (a bitonic sort query), most under 20 000; the
 * default is 3.6 times the largest, and z3-wasm alone gives its first
 * strategy half of it, still 1.8 times the largest.
 */
export const DEFAULT_RLIMIT = 20_000_000;

/**
 * The wall-clock safety net per check (`--timeout`), in milliseconds: far
 * above what the default budget takes (at most about a minute on a quiet
 * machine, on the slowest queries; several minutes on a machine loaded ten
 * times over), so that it stops only a solver that does not stop by itself.
 */
export const DEFAULT_TIMEOUT_MS = 600_000;

/**
 * cvc5 counts its resources in other units than Z3 (rewrite steps, SAT
 * conflicts, …): on the 256 example queries both decide it counts 0.61 of
 * Z3's units (median), so it gets that share of the budget, for about the
 * same work.
 */
export const CVC5_UNITS_PER_Z3_UNIT = 0.6;

/** The verdict of a check whose answer was no longer wanted. */
export const CANCELED = { status: 'unknown', reason: 'canceled: another solver answered first' } as const;

/** The reason of an unknown that ran out of its resource units. */
export function outOfResources(rlimit: number): string {
  return `resource limit reached (${rlimit} units)`;
}

/** The reason of an unknown that the wall-clock safety net stopped. */
export function outOfTime(timeoutMs: number): string {
  return `wall-clock safety net reached (${timeoutMs} ms)`;
}

export const isOutOfResources = (reason: string): boolean => reason.startsWith('resource limit reached');

export const isOutOfTime = (reason: string): boolean => reason.startsWith('wall-clock safety net reached');
