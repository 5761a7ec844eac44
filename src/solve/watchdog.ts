/**
 * A limit on how long a check may take beyond its own timeout. Z3's
 * WebAssembly build has, in long fuzz campaigns, started a check that never
 * came back; its checks share one lock, so every later check would wait
 * behind it forever. Past the limit the check is `unknown`, and so is every
 * later check of the same solver, at once: "no answer" is a sound verdict, a
 * hang is none.
 */
import type { Solver, Verdict } from './solver.js';

export interface Watched extends Solver {
  /** Why the solver no longer answers, once a check has gone past its limit. */
  readonly stuck: () => string | null;
}

/**
 * How long a check may run: twice its timeout (room for the solver's own
 * overrun) plus `slackMs` (start-up, a loaded machine). Checks run one after
 * another, so that time spent waiting for the solver's lock is not counted.
 */
export function watched(solver: Solver, slackMs = 60_000): Watched {
  let stuck: string | null = null;
  let previous: Promise<unknown> = Promise.resolve();
  const timed = async (script: string, timeoutMs: number): Promise<Verdict> => {
    if (stuck !== null) return { status: 'unknown', reason: stuck };
    const limitMs = 2 * timeoutMs + slackMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<Verdict>((resolve) => {
      timer = setTimeout(() => {
        stuck = `${solver.name} stopped answering: an earlier check did not return within ${limitMs} ms`;
        resolve({ status: 'unknown', reason: `${solver.name} did not return within ${limitMs} ms` });
      }, limitMs);
    });
    try {
      return await Promise.race([solver.check(script, timeoutMs), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
  const check = (script: string, timeoutMs: number): Promise<Verdict> => {
    const mine = previous.then(() => timed(script, timeoutMs));
    previous = mine.catch(() => undefined);
    return mine;
  };
  return { name: solver.name, check, stuck: () => stuck };
}
