/**
 * The members a portfolio (`--solver portfolio`, the default) can race, by
 * the names `--portfolio` takes: z3-wasm strategies (src/solve/z3-script.ts),
 * z3-wasm on the query's bit-vector encoding, and the z3 and cvc5 binaries.
 * The first z3-wasm member runs in this process, the other ones each in a
 * process of its own; the binaries start a process per check. Every member
 * gets the same resource limit. One portfolio per process, members and
 * limit, so that its member processes serve every check.
 */
import { cvc5 } from './cvc5.js';
import { portfolio, type Member } from './portfolio.js';
import { installed } from './process.js';
import { DEFAULT_MEMBERS, binaryOf, type MemberName, type Solver } from './solver.js';
import { z3WasmProcess } from './wasm-process.js';
import { z3Binary } from './z3-binary.js';
import { PREPROCESSED, RESEEDED, STANDARD, type Z3Strategy } from './z3-script.js';
import { z3WasmStrategy } from './z3.js';

/** The default members whose binaries are installed. */
export function defaultMembers(): MemberName[] {
  return DEFAULT_MEMBERS.filter((m) => {
    const binary = binaryOf(m);
    return binary === null || installed(binary);
  });
}

/**
 * How long the first member works alone: most queries are decided by it
 * within milliseconds, and racing them would only load the machine.
 */
export const HEAD_START_MS = 500;
/**
 * The same on a nonlinear integer query. On the examples z3-wasm decides
 * most of those that reach a solver within it too, and takes seconds on
 * some that cvc5 decides in a tenth of a second (a grid-stride loop's
 * block-level query: 2.5 s against 0.15 s).
 */
export const NONLINEAR_HEAD_START_MS = 150;

const WASM: Record<Exclude<MemberName, 'z3' | 'cvc5'>, { readonly strategy: Z3Strategy; readonly encoding: Member['encoding'] }> = {
  'z3-wasm': { strategy: STANDARD, encoding: 'own' },
  'z3-wasm:solve-eqs': { strategy: PREPROCESSED, encoding: 'own' },
  'z3-wasm:seed7': { strategy: RESEEDED, encoding: 'own' },
  'z3-wasm:bv': { strategy: STANDARD, encoding: 'bit-vectors' },
};

function membersOf(names: readonly MemberName[], rlimit: number): Member[] {
  let inProcess = false;
  return names.map((name): Member => {
    if (name === 'z3') return { name, solver: z3Binary(rlimit), encoding: 'own' };
    if (name === 'cvc5') return { name, solver: cvc5(rlimit), encoding: 'own' };
    const { strategy, encoding } = WASM[name];
    const here = !inProcess;
    inProcess = true;
    return { name, solver: here ? z3WasmStrategy(strategy, rlimit) : z3WasmProcess(strategy, rlimit), encoding };
  });
}

const made = new Map<string, Solver>();

/** The portfolio of these members; `answering` (a test seam, src/solve/portfolio.ts): the member whose answer is taken. */
export function racingPortfolio(names: readonly MemberName[], rlimit: number, answering?: MemberName): Solver {
  const key = `${names.join(',')} ${rlimit} ${answering ?? ''}`;
  let solver = made.get(key);
  if (solver === undefined) {
    const at = answering === undefined ? undefined : names.indexOf(answering);
    if (at === -1) throw new Error(`${answering} is not a member of the portfolio (${names.join(', ')})`);
    solver = portfolio(membersOf(names, rlimit), HEAD_START_MS, NONLINEAR_HEAD_START_MS, at);
    made.set(key, solver);
  }
  return solver;
}
