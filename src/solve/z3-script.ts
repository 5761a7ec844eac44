/**
 * What Z3 reads and says, for z3-wasm and the z3 binary alike: the query as
 * a standalone script behind its limits and strategy, and the verdict of the
 * answer, with an unknown's reason said in terms of the budget (Z3 says
 * "canceled" or "max. resource limit exceeded" depending on its version).
 */
import { spentOf, verdictOfAnswer } from './answer.js';
import { outOfResources, outOfTime } from './budget.js';
import { declaredSymbols, standaloneScript } from './script.js';
import type { Verdict } from './solver.js';

/**
 * A way to run Z3 on a query: the tactic its check-sat-using applies. Never
 * Z3's own choice (a plain check-sat): Z3's built-in strategies for integer
 * arithmetic (qflia, qfnia) give their sub-tactics a few seconds of
 * wall-clock time each (try_for), so their answer, and the units they spend,
 * depend on the machine's load. These tactics hold no clock: only the
 * resource limit stops them.
 */
export interface Z3Strategy {
  readonly name: string;
  readonly tactic: string;
  /** the tactic for a query over bit-vectors, where it is another one */
  readonly bitVectorTactic?: string;
}

/**
 * Z3's SMT core on an integer query as it is: on the examples the fastest,
 * and by far (docs/solvers.md, "Budgets"); `qfbv` on a bit-vector query (NATIVE).
 */
export const STANDARD: Z3Strategy = { name: 'z3-wasm', tactic: 'smt', bitVectorTactic: 'qfbv' };
/** Equalities solved and substituted first (two threads' copies of one value become one). */
export const PREPROCESSED: Z3Strategy = { name: 'z3-wasm:solve-eqs', tactic: '(then simplify propagate-values solve-eqs elim-uncnstr smt)' };
/** The SMT core with another random seed: its search on nonlinear queries swings with the seed. */
export const RESEEDED: Z3Strategy = { name: 'z3-wasm:seed7', tactic: '(using-params smt :random_seed 7)' };

/**
 * The z3 binary's: `qfbv` (simplify, bit-blast, SAT) on bit-vector queries.
 * On the examples' 126 bit-vector queries (`npm run bench:tactics`) the
 * Debian z3 4.8.12 takes 13.4 s with it against 28.5 s with `smt`, the
 * slowest query 0.25 s against 2.8 s. z3-wasm 5.2 takes 26 s either way on
 * all of them, but on those the simplifier and the search leave to a solver
 * `qfbv` is the faster (bitonic sort without its inner barrier: 2.3 s of
 * solving against 1.1 s), so STANDARD takes it too, and RESEEDED, a
 * portfolio's second member, keeps `smt`. `qfbv` holds no clock either: the
 * one thing it measures is Z3's own memory (a cheaper path above 300 MB).
 */
export const NATIVE: Z3Strategy = { name: 'z3', tactic: 'smt', bitVectorTactic: 'qfbv' };

/** Whether the script's constants are bit-vectors (the query's bit-vector encoding). */
export const overBitVectors = (script: string): boolean => /^\(declare-const \S+ \(_ BitVec \d+\)\)$/m.test(script);

/**
 * The script Z3 runs: its limits, the standalone query checked with the
 * strategy's tactic, then the reason of an unknown and the units spent.
 * `timeoutMs` is null when the safety net is enforced from outside (the
 * binary's -t option).
 */
export function z3Script(script: string, strategy: Z3Strategy, rlimit: number, timeoutMs: number | null): string {
  return [
    `(set-option :rlimit ${rlimit})`,
    ...(timeoutMs === null ? [] : [`(set-option :timeout ${timeoutMs})`]),
    standaloneScript(script, `(check-sat-using ${strategy.bitVectorTactic !== undefined && overBitVectors(script) ? strategy.bitVectorTactic : strategy.tactic})`),
    '(get-info :reason-unknown)',
    '(get-info :rlimit)',
    '',
  ].join('\n');
}

/** The verdict in Z3's output for `script`; an unknown that spent its units, or its time, says so. */
export function z3Verdict(stdout: string, script: string, rlimit: number, timedOut: { readonly timeoutMs: number; readonly elapsedMs: number }): Verdict {
  const verdict = verdictOfAnswer(stdout, declaredSymbols(script).length > 0);
  if (verdict.status !== 'unknown') return verdict;
  const spent = spentOf(stdout);
  if (spent !== null && spent >= rlimit) return { status: 'unknown', reason: outOfResources(rlimit) };
  // Z3 says "timeout" or "canceled" when its timeout stops it
  if (/timeout|canceled/.test(verdict.reason) && timedOut.elapsedMs >= timedOut.timeoutMs) return { status: 'unknown', reason: outOfTime(timedOut.timeoutMs) };
  return verdict;
}
