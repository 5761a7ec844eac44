/**
 * Verifying one file as `faial-ts verify` does, from data alone, so that the
 * same job runs in this process (--jobs 1) and in a worker process: the file
 * is read here, and src/api verifies its text.
 */
import { readFile } from 'node:fs/promises';
import type { Launch } from '../core/launch.js';
import { sourceFile } from '../core/source.js';
import { solverOf } from '../solve/backends.js';
import type { SolverChoice } from '../solve/solver.js';
import { abandonedOutcome as abandonedText, NOT_CHECKED, verifyFile, type FileOutcome } from '../api/verify.js';
import { internalError, messageOf } from '../api/check.js';

export type { FileOutcome } from '../api/verify.js';

export interface FileJob {
  readonly path: string;
  /** only the kernel of this name */
  readonly kernel: string | null;
  /** the command line's launch facts; each kernel takes those about its own parameters */
  readonly launch: Launch;
  /** the wall-clock safety net per query */
  readonly timeoutMs: number;
  /** resource units per query */
  readonly rlimit: number;
  readonly maxRaces: number;
  readonly solver: SolverChoice;
  readonly barriers: boolean;
  readonly replay: boolean;
}

export async function fileOutcome(job: FileJob): Promise<FileOutcome> {
  let text: string;
  try {
    text = await readFile(job.path, 'utf8');
  } catch (e) {
    const diagnostic = internalError(sourceFile(job.path, ''), { start: 0, end: 0 }, `cannot read the file: ${messageOf(e)}`);
    return { file: { ok: false, path: job.path, diagnostics: [diagnostic] }, replayFailures: [], checking: NOT_CHECKED };
  }
  return verifyFile(job.path, text, job, solverOf(job.solver, job.rlimit));
}

/** The outcome of a file whose worker died: every kernel of it in error, with the reason. */
export async function abandonedOutcome(job: FileJob, why: string): Promise<FileOutcome> {
  const text = await readFile(job.path, 'utf8').catch(() => '');
  return abandonedText(job.path, text, job.kernel, why);
}
