/**
 * The default solver, `z3-wasm`: z3-solver (WebAssembly), started once per
 * process and reused. Every check has a timeout; `unknown` is returned as
 * such, never as unsat. The same checks run in a browser (z3-browser.ts):
 * only the way Z3 is started differs.
 */
import type { Context } from 'z3-solver';
import type { Verdict } from './solver.js';
import { watched, type Watched } from './watchdog.js';

export type Z3Context = Context<'faial-ts'>;

let context: Promise<Z3Context> | undefined;

/** Node's Z3, started once per process. */
function z3(): Promise<Z3Context> {
  context ??= import('z3-solver').then(async ({ init }) => {
    const { Context } = await init();
    return new Context('faial-ts') as Z3Context;
  });
  return context;
}

/**
 * Starts Z3 now without waiting for it, so that its start-up (reading and
 * compiling its WebAssembly, mostly off the main thread) overlaps the
 * caller's own work; the first check waits for what is left. A failure to
 * start shows at that check.
 */
export function startZ3(): void {
  z3().catch(() => undefined);
}

/**
 * Z3's run time on nonlinear queries swings by orders of magnitude with its
 * configuration and random seed, so a check is a short portfolio run in
 * sequence, sharing the timeout: the first attempt that decides wins.
 */
const ATTEMPTS: readonly { readonly share: number; readonly logic: boolean; readonly seed: number }[] = [
  { share: 0.15, logic: true, seed: 0 },
  { share: 0.25, logic: false, seed: 0 },
  { share: 0.6, logic: true, seed: 7 },
];

/** The z3-wasm solver over the context `start` makes, started at the first check and reused. */
export function z3WasmSolver(start: () => Promise<Z3Context>): Watched {
  let context: Promise<Z3Context> | undefined;
  const z3 = (): Promise<Z3Context> => (context ??= start());
  return watched({ name: 'z3-wasm', check: (script, timeoutMs) => portfolio(z3, script, timeoutMs) });
}

async function portfolio(z3: () => Promise<Z3Context>, script: string, timeoutMs: number): Promise<Verdict> {
  const reasons: string[] = [];
  for (const attempt of ATTEMPTS) {
    // Z3 parses bit-vector sorts only under a declared logic
    if (!attempt.logic && script.includes('(_ BitVec')) continue;
    const text = attempt.logic ? script : script.replace(/^\(set-logic [^)]*\)$/m, '');
    const verdict = await checkOnce(await z3(), text, Math.max(1, Math.round(timeoutMs * attempt.share)), attempt.seed);
    if (verdict.status !== 'unknown') return verdict;
    reasons.push(verdict.reason);
  }
  return { status: 'unknown', reason: [...new Set(reasons)].join(', ') };
}

export const z3Wasm: Watched = z3WasmSolver(z3);

/** Checks an SMT-LIB script made of declarations and assertions. */
export const { check } = z3Wasm;

async function checkOnce(ctx: Z3Context, script: string, timeoutMs: number, seed: number): Promise<Verdict> {
  const solver = new ctx.Solver();
  try {
    solver.set('timeout', timeoutMs);
    solver.set('random_seed', seed);
    try {
      solver.fromString(script);
    } catch (e) {
      // A script Z3 rejects (seen once, not reproduced, under heavy load) must not become a verdict or a crash
      return { status: 'unknown', reason: `z3 rejected the query: ${(e instanceof Error ? e.message : String(e)).trim()}` };
    }
    const result = await solver.check();
    if (result === 'unsat') return { status: 'unsat' };
    if (result === 'unknown') return { status: 'unknown', reason: solver.reasonUnknown() };
    const model = solver.model();
    try {
      const values = new Map<string, bigint>();
      for (const decl of model.decls()) {
        // the model may also interpret helper functions of the solver's own; only constants are ours
        if (decl.arity() !== 0) continue;
        const value = model.get(decl);
        if (ctx.isBitVecVal(value) || ctx.isIntVal(value)) values.set(String(decl.name()), value.value());
      }
      return { status: 'sat', model: values };
    } finally {
      // released at once rather than at some later garbage collection: the WebAssembly heap is capped at 2 GB
      model.release();
    }
  } finally {
    solver.release();
  }
}
