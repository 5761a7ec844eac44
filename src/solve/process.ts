/**
 * A solver binary as a Solver: one child process per check, reading the
 * standalone script on stdin (or from a temporary file named by a `{file}`
 * argument), killed when the check's time is up. A timeout, a crash or an
 * answer we cannot read is `unknown`; only a binary that cannot be started
 * at all throws (SolverUnavailable), since no verdict can come from it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verdictOfAnswer } from './answer.js';
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
  readonly killed: boolean;
  readonly exit: string;
}

function run(argv: readonly string[], input: string | null, killAfterMs: number, name: string): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, killAfterMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => void (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => void (stderr += d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const why = e.code === 'ENOENT' ? `'${argv[0]}' was not found` : e.message;
      reject(new SolverUnavailable(`cannot start the solver ${name}: ${why}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, killed, exit: signal === null ? `exit code ${code}` : `signal ${signal}` });
    });
    // a solver that exits before reading all its input is answered by 'close', not by this
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/** The verdict of a finished process: its answer, unless it had to be killed. */
function verdictOf(done: Finished, expectsModel: boolean): Verdict {
  if (done.killed) return { status: 'unknown', reason: 'timeout (the solver process was killed)' };
  const verdict = verdictOfAnswer(done.stdout, expectsModel);
  if (verdict.status === 'unknown' && verdict.reason.startsWith('no answer')) {
    const said = done.stderr.trim().split('\n')[0];
    return { status: 'unknown', reason: `${verdict.reason} (${done.exit}${said ? `: ${said}` : ''})` };
  }
  return verdict;
}

/**
 * `argvOf(timeoutMs)` is the command line for one check; `{file}` in it
 * stands for a temporary file holding the script, which is then not piped.
 */
export function processSolver(name: string, argvOf: (timeoutMs: number) => readonly string[]): Solver {
  return {
    name,
    async check(script, timeoutMs) {
      // get-info after the values: the reason of an unknown, ignored otherwise
      const text = `${standaloneScript(script)}\n(get-info :reason-unknown)\n`;
      const expectsModel = declaredSymbols(script).length > 0;
      const argv = argvOf(timeoutMs);
      if (!argv.includes(FILE_PLACEHOLDER)) return verdictOf(await run(argv, text, timeoutMs + KILL_GRACE_MS, name), expectsModel);
      const dir = await mkdtemp(join(tmpdir(), 'faial-smt-'));
      try {
        const file = join(dir, 'query.smt2');
        await writeFile(file, text);
        const withFile = argv.map((a) => (a === FILE_PLACEHOLDER ? file : a));
        return verdictOf(await run(withFile, null, timeoutMs + KILL_GRACE_MS, name), expectsModel);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
