/**
 * A z3-wasm strategy in a child process of its own, so that strategies run
 * at the same time (one WebAssembly Z3 runs one check at a time). The
 * process starts at its first check and serves the later ones. A check no
 * longer wanted is interrupted there (Z3 stops within milliseconds); a
 * process that dies, or does not answer within the check's time plus a
 * grace, takes its checks with it (unknown) and is replaced at the next one.
 *
 * The process does not keep this one alive: its channel holds the event loop
 * only while a check is out, so the command line exits when its work is done,
 * and the child, disconnected, exits too.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CANCELED, outOfTime } from './budget.js';
import type { Solver, Verdict } from './solver.js';
import type { Z3Strategy } from './z3-script.js';

export interface WasmCheck {
  readonly kind: 'check';
  readonly id: number;
  readonly script: string;
  readonly timeoutMs: number;
  readonly strategy: Z3Strategy;
  readonly rlimit: number;
}

export interface WasmAbort {
  readonly kind: 'abort';
  readonly id: number;
}

export interface WasmReply {
  readonly id: number;
  readonly verdict: Verdict;
}

const isObject = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null;

export function isWasmCheck(m: unknown): m is WasmCheck {
  return isObject(m) && m['kind'] === 'check' && typeof m['id'] === 'number' && typeof m['script'] === 'string';
}

export function isWasmAbort(m: unknown): m is WasmAbort {
  return isObject(m) && m['kind'] === 'abort' && typeof m['id'] === 'number';
}

function isWasmReply(m: unknown): m is WasmReply {
  return isObject(m) && typeof m['id'] === 'number' && isObject(m['verdict']);
}

/** Start-up of Z3 in a new process on a loaded machine, and Z3's own overrun of its limit. */
const GRACE_MS = 30_000;

/**
 * How long a process may take to give up a check no longer wanted: Z3 stops
 * within milliseconds when interrupted, but an interrupt that comes before
 * the check has started can be lost, and the next check would wait behind it.
 */
const GIVE_UP_MS = 5_000;

/** The worker module next to this one: compiled JavaScript, or TypeScript through tsx when run from the sources (tests). */
function workerModule(): { path: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  // the sources (.ts), or the bundle (cli.cjs) beside the worker's own ES module
  const fromSources = extname(here) === '.ts';
  return { path: join(dirname(here), `wasm-worker${fromSources ? '.ts' : '.js'}`), execArgv: fromSources ? ['--import', 'tsx'] : [] };
}

interface Worker {
  readonly child: ChildProcess;
  readonly pending: Map<number, (v: Verdict) => void>;
  /** checks no longer wanted that the process has not given up yet, with the timer that kills it if it does not */
  readonly abandoned: Map<number, ReturnType<typeof setTimeout>>;
}

/** The worker processes alive, killed when this process exits: a member still busy with a check the race no longer wants must not outlive the run. */
const alive = new Set<ChildProcess>();
let killedOnExit = false;

function started(onGone: (w: Worker) => void): Worker {
  const { path, execArgv } = workerModule();
  // advanced serialisation carries a model's bigints and Map
  const child = fork(path, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  const worker: Worker = { child, pending: new Map(), abandoned: new Map() };
  alive.add(child);
  if (!killedOnExit) {
    killedOnExit = true;
    process.on('exit', () => {
      for (const c of alive) c.kill('SIGKILL');
    });
  }
  child.unref();
  child.channel?.unref();
  child.on('message', (m: unknown) => {
    if (!isWasmReply(m)) return;
    clearTimeout(worker.abandoned.get(m.id));
    worker.abandoned.delete(m.id);
    worker.pending.get(m.id)?.(m.verdict);
  });
  const gone = (how: string): void => {
    alive.delete(child);
    onGone(worker);
    for (const timer of worker.abandoned.values()) clearTimeout(timer);
    for (const settle of [...worker.pending.values()]) settle({ status: 'unknown', reason: `the z3-wasm process ended (${how})` });
  };
  child.on('exit', (code, signal) => gone(signal === null ? `exit code ${code}` : `signal ${signal}`));
  child.on('error', (e) => {
    gone(e.message);
    child.kill('SIGKILL');
  });
  return worker;
}

/** One z3-wasm strategy, `rlimit` units per check, in a process of its own. */
export function z3WasmProcess(strategy: Z3Strategy, rlimit: number): Solver {
  let current: Worker | null = null;
  let nextId = 0;
  const workerNow = (): Worker => {
    current ??= started((w) => {
      if (current === w) current = null;
    });
    return current;
  };
  return {
    name: strategy.name,
    check(script, timeoutMs, options) {
      const signal = options?.signal;
      if (signal?.aborted) return Promise.resolve(CANCELED);
      const worker = workerNow();
      const id = nextId++;
      return new Promise<Verdict>((resolve) => {
        const timer = setTimeout(() => {
          settle({ status: 'unknown', reason: `${outOfTime(timeoutMs)}: the z3-wasm process was killed` });
          worker.child.kill('SIGKILL');
        }, timeoutMs + GRACE_MS);
        const abort = (): void => {
          if (worker.child.connected) worker.child.send({ kind: 'abort', id } satisfies WasmAbort);
          // unref: a process left working keeps nobody waiting once the run is over
          worker.abandoned.set(id, setTimeout(() => worker.child.kill('SIGKILL'), GIVE_UP_MS).unref());
          settle(CANCELED);
        };
        function settle(verdict: Verdict): void {
          if (!worker.pending.delete(id)) return;
          clearTimeout(timer);
          signal?.removeEventListener('abort', abort);
          if (worker.pending.size === 0) worker.child.channel?.unref();
          resolve(verdict);
        }
        worker.pending.set(id, settle);
        signal?.addEventListener('abort', abort);
        worker.child.channel?.ref();
        worker.child.send({ kind: 'check', id, script, timeoutMs, strategy, rlimit } satisfies WasmCheck);
      });
    },
  };
}
