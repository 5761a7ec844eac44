/** The `z3` binary (Debian's package, 4.8 or later) as a child process. */
import { processSolver } from './process.js';
import type { Solver } from './solver.js';
import { NATIVE, z3Script, z3Verdict } from './z3-script.js';

/**
 * `rlimit` units per check, set in the script, and the tactics of
 * {@link NATIVE};
 * -t: is the safety net Z3 answers unknown at, -T: a hard stop behind it.
 */
export function z3Binary(rlimit: number): Solver {
  return processSolver('z3', {
    argv: (ms) => ['z3', '-in', '-smt2', `-t:${ms}`, `-T:${Math.ceil(ms / 1000) + 1}`],
    input: (script) => z3Script(script, NATIVE, rlimit, null),
    verdict: (stdout, script, timing) => z3Verdict(stdout, script, rlimit, timing),
  });
}
