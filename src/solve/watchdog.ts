/**
 * A limit on how long a check may take beyond its own timeout. Z3's
 * WebAssembly build has, in long fuzz campaigns, started a check that never
 * came back; its checks share one lock, so every later check would wait
 * behind it forever. Past the limit the check is `unknown`, and so is every
 * later check of the same solver, at once: "no answer" is a sound verdict, a
 * hang is none.
 */
import type { Solver, Verdict } from './solver.js';

export interface Watchdog {
  /**
   * Runs `job` after every earlier job has ended, so that time spent waiting
   * is not counted; it is unknown when it has not ended within twice its
   * timeout (room for the solver's own overrun) plus the slack.
   */
  run(timeoutMs: number, job: () => Promise<Verdict>): Promise<Verdict>;
  /** Why the solver no longer answers, once a check has gone past its limit. */
  readonly stuck: () => string | null;
}

/** `slackMs` covers start-up and a loaded machine. */
export function watchdog(name: string, slackMs = 60_000): Watchdog {
  let stuck: string | null = null;
  let previous: Promise<unknown> = Promise.resolve();
  const timed = async (timeoutMs: number, job: () => Promise<Verdict>): Promise<Verdict> => {
    if (stuck !== null) return { status: 'unknown', reason: stuck };
    const limitMs = 2 * timeoutMs + slackMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<Verdict>((resolve) => {
      timer = setTimeout(() => {
        stuck = `${name} stopped answering: an earlier check did not return within ${limitMs} ms`;
        resolve({ status: 'unknown', reason: `${name} did not return within ${limitMs} ms` });
      }, limitMs);
    });
    try {
      return await Promise.race([job(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
  const run = (timeoutMs: number, job: () => Promise<Verdict>): Promise<Verdict> => {
    const mine = previous.then(() => timed(timeoutMs, job));
    previous = mine.catch(() => undefined);
    return mine;
  };
  return { run, stuck: () => stuck };
}

/** A solver whose checks go through a watchdog. */
export interface Watched extends Solver {
  readonly stuck: () => string | null;
}
