/**
 * A solver binary as a Solver: one child process per check, reading the
 * standalone script on stdin (or from a temporary file named by a `{file}`
 * argument), killed when the check's time is up or its answer is no longer
 * wanted. A timeout, a crash or an answer we cannot read is `unknown`; only a
 * binary that cannot be started at all throws (SolverUnavailable), since no
 * verdict can come from it.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { verdictOfAnswer } from './answer.js';
import { CANCELED, outOfTime } from './budget.js';
import { declaredSymbols, standaloneScript } from './script.js';
import type { Solver, Verdict } from './solver.js';

export const FILE_PLACEHOLDER = '{file}';

/** A solver binary that cannot be started: a setup problem, not a verdict. */
export class SolverUnavailable extends Error {}

/**
 * Solvers enforce their own limit a little late (they poll), and a killed
 * one leaves no reason; the kill comes this long after the limit they were given.
 */
const KILL_GRACE_MS = 500;

interface Finished {
  readonly stdout: string;
  readonly stderr: string;
  readonly killed: 'time' | 'abort' | null;
  readonly exit: string;
}

function run(argv: readonly string[], input: string | null, killAfterMs: number, name: string, signal: AbortSignal | undefined): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    let killed: Finished['killed'] = null;
    const kill = (why: 'time' | 'abort'): void => {
      killed ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('time'), killAfterMs);
    const abort = (): void => kill('abort');
    signal?.addEventListener('abort', abort);
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => void (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => void (stderr += d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      done();
      const why = e.code === 'ENOENT' ? `'${argv[0]}' was not found` : e.message;
      reject(new SolverUnavailable(`cannot start the solver ${name}: ${why}`));
    });
    child.on('close', (code, signalName) => {
      done();
      resolve({ stdout, stderr, killed, exit: signalName === null ? `exit code ${code}` : `signal ${signalName}` });
    });
    // a solver that exits before reading all its input is answered by 'close', not by this
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/** How one solver binary is run: its command line, what it reads, how its answer is read. */
export interface Dialect {
  /** the command line of one check; `{file}` in it stands for a temporary file holding the input, which is then not piped */
  readonly argv: (timeoutMs: number) => readonly string[];
  readonly input: (script: string, timeoutMs: number) => string;
  readonly verdict: (stdout: string, script: string, timing: { readonly timeoutMs: number; readonly elapsedMs: number }) => Verdict;
}

/** The standalone script, then the reason of an unknown (ignored otherwise); the verdict as answered. */
export const PLAIN: Pick<Dialect, 'input' | 'verdict'> = {
  input: (script) => `${standaloneScript(script)}\n(get-info :reason-unknown)\n`,
  verdict: (stdout, script) => verdictOfAnswer(stdout, declaredSymbols(script).length > 0),
};

/** The verdict of a finished process: its answer, unless it had to be killed. */
function verdictOf(done: Finished, dialect: Dialect, script: string, timing: { timeoutMs: number; elapsedMs: number }): Verdict {
  if (done.killed === 'abort') return CANCELED;
  if (done.killed === 'time') return { status: 'unknown', reason: `${outOfTime(timing.timeoutMs)}: the solver process was killed` };
  const verdict = dialect.verdict(done.stdout, script, timing);
  if (verdict.status === 'unknown' && verdict.reason.startsWith('no answer')) {
    const said = done.stderr.trim().split('\n')[0];
    return { status: 'unknown', reason: `${verdict.reason} (${done.exit}${said ? `: ${said}` : ''})` };
  }
  return verdict;
}

export function processSolver(name: string, dialect: Dialect): Solver {
  return {
    name,
    async check(script, timeoutMs, options) {
      const signal = options?.signal;
      if (signal?.aborted) return CANCELED;
      const text = dialect.input(script, timeoutMs);
      const argv = dialect.argv(timeoutMs);
      const started = performance.now();
      const timing = (): { timeoutMs: number; elapsedMs: number } => ({ timeoutMs, elapsedMs: performance.now() - started });
      if (!argv.includes(FILE_PLACEHOLDER)) {
        const done = await run(argv, text, timeoutMs + KILL_GRACE_MS, name, signal);
        return verdictOf(done, dialect, script, timing());
      }
      const dir = await mkdtemp(join(tmpdir(), 'faial-smt-'));
      try {
        const file = join(dir, 'query.smt2');
        await writeFile(file, text);
        const withFile = argv.map((a) => (a === FILE_PLACEHOLDER ? file : a));
        const done = await run(withFile, null, timeoutMs + KILL_GRACE_MS, name, signal);
        return verdictOf(done, dialect, script, timing());
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Whether a program of this name is on the PATH (a portfolio takes the z3 and cvc5 binaries when they are there). */
export function installed(program: string, path: string = process.env['PATH'] ?? ''): boolean {
  return path.split(delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
