/** The `cvc5` binary (Debian's package, 1.0 or later) as a child process. */
import { CVC5_UNITS_PER_Z3_UNIT, outOfResources, outOfTime } from './budget.js';
import { PLAIN, processSolver } from './process.js';
import type { Solver } from './solver.js';

/**
 * `rlimit` Z3 units per check, as cvc5 counts them (--rlimit-per: each
 * check-sat on its own); --tlimit-per is the safety net, at which cvc5
 * answers unknown (timeout).
 */
export function cvc5(rlimit: number): Solver {
  const units = Math.round(rlimit * CVC5_UNITS_PER_Z3_UNIT);
  return processSolver('cvc5', {
    argv: (ms) => ['cvc5', '--lang=smt2', `--rlimit-per=${units}`, `--tlimit-per=${ms}`],
    input: PLAIN.input,
    verdict: (stdout, script, timing) => {
      const verdict = PLAIN.verdict(stdout, script, timing);
      if (verdict.status !== 'unknown') return verdict;
      if (verdict.reason === 'resourceout') return { status: 'unknown', reason: outOfResources(rlimit) };
      if (verdict.reason === 'timeout') return { status: 'unknown', reason: outOfTime(timing.timeoutMs) };
      return verdict;
    },
  });
}
