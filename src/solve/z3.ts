/**
 * z3-wasm: Z3 compiled to WebAssembly (z3-solver), loaded once per process
 * and no system dependency. Each check runs the query's script, as the z3
 * binary would read it, in a fresh Z3 context deleted right after: nothing
 * an earlier check left in Z3 changes the next (in one shared context the
 * same query spent up to 4.6 times more resource units, depending on what
 * had been asked before), and no context waits for the garbage collector,
 * which does not see their memory (a few hundred filled the 2 GB heap).
 * The same checks run in a browser (z3-browser.ts): only the way Z3 is
 * started differs.
 */
import type { Z3LowLevel, Z3_context } from 'z3-solver';
import { CANCELED, DEFAULT_RLIMIT, isOutOfResources, isOutOfTime, outOfResources, outOfTime } from './budget.js';
import { spentOf } from './answer.js';
import type { Solver, Verdict } from './solver.js';
import { watchdog, type Watchdog, type Watched } from './watchdog.js';
import { PREPROCESSED, RESEEDED, STANDARD, z3Script, z3Verdict, type Z3Strategy } from './z3-script.js';

/** Z3's low-level API, through which a check runs a whole SMT-LIB script. */
export type Z3Api = Z3LowLevel['Z3'];

/**
 * The parts of z3-solver's Emscripten module a check uses to hand Z3 its
 * script (z3-solver types the module as `any`).
 */
export interface Z3Module {
  readonly HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(address: number): void;
  async_call(f: (context: Z3_context, script: number) => void, context: Z3_context, script: number): Promise<string>;
  _async_Z3_eval_smtlib2_string(context: Z3_context, script: number): void;
}

/** A started Z3: its API and the module under it. */
export interface Z3Runtime {
  readonly Z3: Z3Api;
  readonly em: Z3Module;
}

/**
 * A started Z3 and the queue its checks wait in: the WebAssembly module runs
 * one call at a time, so every check of one Z3 waits its turn there, under a
 * watchdog.
 */
export interface Z3Engine {
  readonly runtime: () => Promise<Z3Runtime>;
  readonly queue: Watchdog;
}

/** The engine over the Z3 `start` gives, started at the first check and reused. */
export function z3Engine(start: () => Promise<Z3Runtime>): Z3Engine {
  let runtime: Promise<Z3Runtime> | undefined;
  return { runtime: () => (runtime ??= start()), queue: watchdog('z3-wasm') };
}

/** Node's Z3, one per process. */
const node = z3Engine(() => import('z3-solver').then(async ({ init }) => runtimeOf(await init())));

/** The runtime of what z3-solver's `init` gives. */
export function runtimeOf(started: { readonly Z3: Z3Api; readonly em: unknown }): Z3Runtime {
  return { Z3: started.Z3, em: started.em as Z3Module };
}

/**
 * Z3's output for the script, evaluated on a thread of its own. z3-solver's
 * `eval_smtlib2_string` passes the script on the JavaScript call's stack,
 * which is given back when the call returns, while the thread reads it
 * whenever it starts: beside two busy processes, about 3 checks in 1,000
 * read a script partly overwritten, and answered unknown (a check cut short,
 * or a command rejected) where the same check otherwise ran out of its units.
 * The script is copied to memory of its own, freed once Z3 has answered.
 */
async function evaluated(em: Z3Module, context: Z3_context, script: string): Promise<string> {
  const bytes = new TextEncoder().encode(script);
  const address = em._malloc(bytes.length + 1);
  // read after the allocation, which may have grown the memory and replaced the view
  em.HEAPU8.set(bytes, address);
  em.HEAPU8[address + bytes.length] = 0;
  try {
    return await em.async_call(em._async_Z3_eval_smtlib2_string, context, address);
  } finally {
    em._free(address);
  }
}

/** How often an interrupt is said again until Z3 has stopped. */
const INTERRUPT_REPEAT_MS = 20;

/**
 * Z3's output for a script, in a context of its own, and how long Z3 took
 * (not counting its start-up); an abort interrupts Z3, which then answers unknown.
 */
async function evaluate(engine: Z3Engine, text: string, signal: AbortSignal | undefined): Promise<{ readonly out: string; readonly elapsedMs: number } | null> {
  const { Z3, em } = await engine.runtime();
  // aborted while Z3 was starting: its 'abort' event has passed
  if (signal?.aborted) return null;
  const config = Z3.mk_config();
  const context = Z3.mk_context_rc(config);
  Z3.del_config(config);
  // Z3 clears an interrupt when its check begins (the resource limit's push),
  // so one that comes while the script is still being read is lost: it is
  // said again until the evaluation returns
  let repeat: ReturnType<typeof setInterval> | undefined;
  const stop = (): void => {
    Z3.interrupt(context);
    repeat ??= setInterval(() => Z3.interrupt(context), INTERRUPT_REPEAT_MS);
  };
  signal?.addEventListener('abort', stop);
  const started = performance.now();
  try {
    const out = await evaluated(em, context, text);
    return { out, elapsedMs: performance.now() - started };
  } finally {
    signal?.removeEventListener('abort', stop);
    clearInterval(repeat);
    Z3.del_context(context);
  }
}

/** A check's verdict and the resource units Z3 says it spent (null when it said nothing). */
export interface Measured {
  readonly verdict: Verdict;
  readonly spent: number | null;
}

async function measured(engine: Z3Engine, script: string, strategy: Z3Strategy, rlimit: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Measured> {
  if (signal?.aborted) return { verdict: CANCELED, spent: null };
  let answer: { readonly out: string; readonly elapsedMs: number } | null;
  try {
    answer = await evaluate(engine, z3Script(script, strategy, rlimit, timeoutMs), signal);
  } catch (e) {
    // an exception in Z3's thread: no verdict, no crash
    return { verdict: { status: 'unknown', reason: `z3 failed on the query: ${(e instanceof Error ? e.message : String(e)).trim()}` }, spent: null };
  }
  if (answer === null || signal?.aborted) return { verdict: CANCELED, spent: null };
  return { verdict: z3Verdict(answer.out, script, rlimit, { timeoutMs, elapsedMs: answer.elapsedMs }), spent: spentOf(answer.out) };
}

/** One check with one strategy, and the units it spent: for the calibration benchmark (bench/rlimit.js). */
export async function measuredCheck(script: string, strategy: Z3Strategy, rlimit: number, timeoutMs: number): Promise<Measured> {
  let spent: number | null = null;
  const verdict = await node.queue.run(timeoutMs, async () => {
    const m = await measured(node, script, strategy, rlimit, timeoutMs, undefined);
    spent = m.spent;
    return m.verdict;
  });
  return { verdict, spent };
}

const checkOnce = async (engine: Z3Engine, script: string, strategy: Z3Strategy, rlimit: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Verdict> =>
  (await measured(engine, script, strategy, rlimit, timeoutMs, signal)).verdict;

/** One strategy of z3-wasm, `rlimit` units per check: a member of a portfolio. */
export function z3WasmStrategy(strategy: Z3Strategy, rlimit: number, engine: Z3Engine = node): Solver {
  return {
    name: strategy.name,
    check: (script, timeoutMs, options) => engine.queue.run(timeoutMs, () => checkOnce(engine, script, strategy, rlimit, timeoutMs, options?.signal)),
  };
}

/**
 * Alone (`--solver z3-wasm`, and where no portfolio runs), z3-wasm tries its
 * strategies in turn, each with a share of the units: the first that decides
 * wins. Shares of units, not of time, so that the same query gets the same
 * verdict on any machine.
 */
const ATTEMPTS: readonly { readonly strategy: Z3Strategy; readonly share: number }[] = [
  { strategy: STANDARD, share: 0.5 },
  { strategy: PREPROCESSED, share: 0.25 },
  { strategy: RESEEDED, share: 0.25 },
];

export function z3WasmSolver(rlimit: number, engine: Z3Engine = node): Solver {
  const attempts = ATTEMPTS.map((a) => ({ solver: z3WasmStrategy(a.strategy, Math.max(1, Math.round(rlimit * a.share)), engine) }));
  return {
    name: 'z3-wasm',
    async check(script, timeoutMs, options) {
      const deadline = performance.now() + timeoutMs;
      const reasons: string[] = [];
      for (const { solver } of attempts) {
        const left = Math.round(deadline - performance.now());
        const verdict = left < 1 ? { status: 'unknown' as const, reason: outOfTime(left) } : await solver.check(script, left, options);
        if (verdict.status !== 'unknown') return verdict;
        // the safety net is the check's, not the attempt's
        if (isOutOfTime(verdict.reason)) return { status: 'unknown', reason: outOfTime(timeoutMs) };
        reasons.push(verdict.reason);
      }
      const all = [...new Set(reasons)];
      // each attempt ran out of its share: the check ran out of its units
      if (all.every(isOutOfResources)) return { status: 'unknown', reason: outOfResources(rlimit) };
      return { status: 'unknown', reason: all.join(', ') };
    },
  };
}

/**
 * z3-wasm with the default budget: for checks outside `verify` (inferring
 * phases, printing queries), tests and the browser; `stuck` says why this
 * process's Z3 no longer answers, once a check has hung.
 */
export const z3Wasm: Watched = { ...z3WasmSolver(DEFAULT_RLIMIT), stuck: node.queue.stuck };

/** Checks an SMT-LIB script made of declarations and assertions. */
export const { check } = z3Wasm;
