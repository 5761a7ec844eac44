/**
 * `verify --jobs N`: files verified in N worker processes (src/cli/worker.ts,
 * forked from the same build as this module), outcomes returned in input
 * order. A worker that dies takes only its current file with it: that file's
 * kernels are reported in error and a fresh worker takes the next file.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { abandonedOutcome, fileOutcome, type FileJob, type FileOutcome } from './batch.js';
import { restoredFiles } from './cuda.js';

export interface WorkItem {
  readonly index: number;
  readonly job: FileJob;
}

export interface WorkResult {
  readonly index: number;
  readonly outcome: FileOutcome;
}

export function isWorkItem(m: unknown): m is WorkItem {
  return typeof m === 'object' && m !== null && 'index' in m && typeof m.index === 'number' && 'job' in m;
}

function isWorkResult(m: unknown): m is WorkResult {
  return typeof m === 'object' && m !== null && 'index' in m && typeof m.index === 'number' && 'outcome' in m;
}

/** Called after each file, with how many are done. */
export type Progress = (done: number, total: number, path: string) => void;

/** The worker next to this module: compiled JavaScript, or TypeScript through tsx when run from the sources (tests). */
function workerModule(): { path: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  // the sources (.ts), or the bundle (cli.cjs) beside the worker's own ES module
  const fromSources = extname(here) === '.ts';
  return { path: join(dirname(here), `worker${fromSources ? '.ts' : '.js'}`), execArgv: fromSources ? ['--import', 'tsx'] : [] };
}

/** What a dead worker said last about an error (Node ends a crash report with its version, which says nothing). */
function crashLine(stderr: string): string | null {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.filter((l) => /error/i.test(l)).at(-1) ?? lines.at(-1) ?? null;
}

/** The outcomes of the jobs in order, verified here one after the other. */
async function inProcess(jobs: readonly FileJob[], progress: Progress): Promise<FileOutcome[]> {
  const out: FileOutcome[] = [];
  for (const job of jobs) {
    out.push(await fileOutcome(job));
    progress(out.length, jobs.length, job.path);
  }
  return out;
}

/** Whether verifiedFiles verifies in this process rather than in workers. */
export function verifiesInProcess(workers: number, files: number): boolean {
  return workers <= 1 || files <= 1;
}

/** The outcomes of the jobs in order, verified by up to `workers` processes (here, for one). */
export async function verifiedFiles(jobs: readonly FileJob[], workers: number, progress: Progress): Promise<FileOutcome[]> {
  if (verifiesInProcess(workers, jobs.length)) return inProcess(jobs, progress);
  const module = workerModule();
  const outcomes = new Array<FileOutcome | undefined>(jobs.length);
  let next = 0;
  let done = 0;
  return new Promise((resolve) => {
    const finish = (index: number, outcome: FileOutcome): void => {
      outcomes[index] = outcome;
      done++;
      progress(done, jobs.length, jobs[index]!.path);
      if (done === jobs.length) resolve(outcomes.map((o) => o!));
    };
    const start = (): void => {
      if (next >= jobs.length) return;
      // advanced serialisation carries bigints and Maps, which results are made of
      const child: ChildProcess = fork(module.path, [], { execArgv: module.execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let current: number | null = null;
      let stderr = '';
      child.stderr?.setEncoding('utf8').on('data', (d: string) => void (stderr = (stderr + d).slice(-2000)));
      const feed = (): void => {
        if (next >= jobs.length) {
          current = null;
          child.disconnect();
          return;
        }
        current = next++;
        const item: WorkItem = { index: current, job: jobs[current]! };
        child.send(item);
      };
      child.on('message', (m: unknown) => {
        if (!isWorkResult(m) || m.index !== current) return;
        const index = m.index;
        feed();
        void restoredFiles(m.outcome, jobs[index]!.path, jobs[index]!.cuda).then((outcome) => finish(index, outcome));
      });
      const died = (how: string): void => {
        if (current === null) return;
        const lost = current;
        current = null;
        const said = crashLine(stderr);
        void abandonedOutcome(jobs[lost]!, `the worker process died (${how})${said === null ? '' : `: ${said}`}`).then((outcome) => finish(lost, outcome));
        start();
      };
      child.on('exit', (code, signal) => died(signal === null ? `exit code ${code}` : `signal ${signal}`));
      // a failed fork or a send to a dead worker: its file is lost as if it had died
      child.on('error', (e) => {
        died(e.message);
        child.kill('SIGKILL');
      });
      feed();
    };
    for (let i = 0; i < Math.min(workers, jobs.length); i++) start();
  });
}
