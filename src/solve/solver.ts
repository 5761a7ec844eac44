/**
 * The solver behind every check. Queries are plain SMT-LIB 2 (declarations
 * and assertions, as printScript writes them), so any SMT-LIB solver decides
 * them: Z3 as WebAssembly in this process (no system dependency), a solver
 * binary run as a child process on the query text, or a portfolio racing
 * several of them (the default of the command line).
 *
 * A check's budget is a resource limit (Z3's rlimit, cvc5's --rlimit-per),
 * fixed when the solver is made: the same on every machine, so the same
 * query gets the same verdict whatever the load. The time given to each check
 * is only a safety net against a solver that does not stop. Whichever runs,
 * `unknown` stays unknown, never unsat, and verify re-checks every model
 * before it becomes a witness. This module is the interface only, with no
 * back end behind it, so that code that runs in a browser can import it (the
 * back ends are chosen in backends.ts).
 */
export type Verdict =
  | { readonly status: 'sat'; readonly model: ReadonlyMap<string, bigint> }
  | { readonly status: 'unsat' }
  | { readonly status: 'unknown'; readonly reason: string };

export interface CheckOptions {
  /**
   * The same question in the bit-vector encoding, for a query written over
   * the integers (null when there is none); printed only when a portfolio
   * races the two encodings.
   */
  readonly bitVectors?: () => string | null;
  /** Aborted once the answer is no longer wanted (another member of a portfolio answered): the check stops and says unknown. */
  readonly signal?: AbortSignal;
  /** Whether the query is over nonlinear integer arithmetic, where solvers' times differ by orders of magnitude (a portfolio races sooner). */
  readonly nonlinear?: boolean;
}

export interface Solver {
  /** as the command line names it */
  readonly name: string;
  /**
   * Checks an SMT-LIB script made of declarations and assertions within the
   * solver's resource limit; `timeoutMs` is the wall-clock safety net.
   */
  check(script: string, timeoutMs: number, options?: CheckOptions): Promise<Verdict>;
}

/** A solver as data, so that it can be sent to a worker process. */
export type SolverChoice =
  | { readonly kind: 'portfolio'; readonly members: readonly MemberName[] }
  | { readonly kind: 'z3-wasm' }
  | { readonly kind: 'z3' }
  | { readonly kind: 'cvc5' }
  | { readonly kind: 'command'; readonly command: string };

export const SOLVER_NAMES = ['portfolio', 'z3-wasm', 'z3', 'cvc5'] as const;
export type SolverName = (typeof SOLVER_NAMES)[number];

/** The members a portfolio can race (src/solve/members.ts), by the names `--portfolio` takes. */
export const MEMBER_NAMES = ['z3-wasm', 'z3-wasm:solve-eqs', 'z3-wasm:seed7', 'z3-wasm:bv', 'z3', 'cvc5'] as const;
export type MemberName = (typeof MEMBER_NAMES)[number];

/**
 * The default members, in order (the first starts alone, the others after
 * its head start): on the examples, the seed-7 strategy and the z3 binary decide the
 * hardest queries sooner than the first member, and cvc5 is the one solver
 * of another family (docs/solvers.md, "Portfolio"). The binaries take part when they
 * are installed.
 */
export const DEFAULT_MEMBERS: readonly MemberName[] = ['z3-wasm', 'z3-wasm:seed7', 'z3', 'cvc5'];

/** The binary a member runs, if it is one. */
export function binaryOf(name: MemberName): 'z3' | 'cvc5' | null {
  return name === 'z3' || name === 'cvc5' ? name : null;
}

/** Whether a choice's verdicts are bounded by resources (the same everywhere) or only by time (a `--solver-cmd` solver). */
export function boundOf(choice: SolverChoice): 'resources' | 'time' {
  return choice.kind === 'command' ? 'time' : 'resources';
}

export { DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS } from './budget.js';
