/**
 * The solver behind every check. Queries are plain SMT-LIB 2 (declarations
 * and assertions, as printScript writes them), so any SMT-LIB solver decides
 * them: Z3 as WebAssembly in this process (the default: no system
 * dependency), or a solver binary run as a child process on the query text.
 * Whichever runs, `unknown` and timeouts stay unknown, never unsat, and
 * verify re-checks every model before it becomes a witness. This module is
 * the interface only, with no back end behind it, so that code that runs in
 * a browser can import it (the back ends are chosen in backends.ts).
 */

export type Verdict =
  | { readonly status: 'sat'; readonly model: ReadonlyMap<string, bigint> }
  | { readonly status: 'unsat' }
  | { readonly status: 'unknown'; readonly reason: string };

export interface Solver {
  /** as the command line names it */
  readonly name: string;
  /** Checks an SMT-LIB script made of declarations and assertions. */
  check(script: string, timeoutMs: number): Promise<Verdict>;
}

/** A solver as data, so that it can be sent to a worker process. */
export type SolverChoice =
  | { readonly kind: 'z3-wasm' }
  | { readonly kind: 'z3' }
  | { readonly kind: 'cvc5' }
  | { readonly kind: 'command'; readonly command: string };

export const SOLVER_NAMES = ['z3-wasm', 'z3', 'cvc5'] as const;
export type SolverName = (typeof SOLVER_NAMES)[number];

export const DEFAULT_SOLVER: SolverChoice = { kind: 'z3-wasm' };

/** Milliseconds a check may take unless the user says otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000;
