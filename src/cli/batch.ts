/**
 * Verifying one file as `faial-ts verify` does, from data alone, so that the
 * same code runs in this process (--jobs 1) and in a worker process. It never
 * throws: a kernel whose verification fails inside faial-ts becomes that
 * kernel's `error` entry, a file that cannot be read or parsed a file error,
 * and the run goes on with the next kernel.
 */
import { readFile } from 'node:fs/promises';
import { error, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Launch } from '../encode/query.js';
import type { KernelMap } from '../map/map.js';
import { solverOf, type SolverChoice } from '../solve/solver.js';
import { sourceFile, type SourceFile, type Span } from '../syntax/source.js';
import { withBarrierChecks } from '../verify/barriers.js';
import { checkedKernels, type Checked, type CheckStage, type FileResult } from '../verify/pipeline.js';
import { replayAlarms } from '../verify/replay.js';
import type { KernelResult } from '../verify/result.js';
import { verifyKernel, type VerifyOptions } from '../verify/verify.js';
import { StageClock } from '../util/clock.js';
import { launchFor } from './options.js';

export interface FileJob {
  readonly path: string;
  /** only the kernel of this name */
  readonly kernel: string | null;
  /** the command line's launch facts; each kernel takes those about its own parameters */
  readonly launch: Launch;
  readonly timeoutMs: number;
  readonly maxRaces: number;
  readonly solver: SolverChoice;
  readonly barriers: boolean;
  readonly replay: boolean;
}

export interface FileOutcome {
  readonly file: FileResult;
  /** confirmed alarms the interpreter did not reproduce (--replay): verifier bugs */
  readonly replayFailures: readonly string[];
  /** milliseconds spent on the whole file before verification (each kernel's stats have the rest) */
  readonly checking: Readonly<Record<CheckStage, number>>;
}

const NOT_CHECKED: FileOutcome['checking'] = { parse: 0, typing: 0 };

function checkingTimes(clock: StageClock<CheckStage>): FileOutcome['checking'] {
  return { parse: clock.milliseconds('parse'), typing: clock.milliseconds('typing') };
}

const INTERNAL_ERROR = 'E0900';

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e)).replace(/^internal error: /, '');

function internalError(file: SourceFile, span: Span, message: string): Diagnostic {
  return error(INTERNAL_ERROR, file, span, `internal error: ${message}`, {
    hints: ['this is a bug in faial-ts, or a solver that misbehaved; please report it with the input file'],
  });
}

/** Where the kernel's name is: the diagnostic points there rather than framing the whole kernel. */
function nameSpan(map: KernelMap): Span {
  const at = map.file.text.indexOf(map.name, map.span.start);
  return at < 0 || at >= map.span.end ? map.span : { start: at, end: at + map.name.length };
}

/** The `error` entry of a kernel whose verification did not finish. */
export function kernelError(map: KernelMap, message: string): KernelResult {
  return {
    file: map.file,
    kernel: map.name,
    span: map.span,
    status: 'error',
    wellTyped: map.violations.length === 0,
    violations: map.violations,
    races: [],
    divergences: [],
    vacuous: false,
    unknowns: [],
    errors: [internalError(map.file, nameSpan(map), message)],
    stats: { accesses: map.accesses.length, phases: 0, arrays: 0, queries: 0, milliseconds: 0, stages: { phases: 0, encoding: 0, solving: 0, witnesses: 0 } },
  };
}

/** checkedKernels, with an exception of its own turned into a diagnostic on the file. */
export function checkedSafely(path: string, text: string, kernel: string | null, clock?: StageClock<CheckStage>): Checked {
  try {
    return checkedKernels(path, text, kernel ?? undefined, clock);
  } catch (e) {
    return { ok: false, diagnostics: [internalError(sourceFile(path, text), { start: 0, end: 0 }, messageOf(e))] };
  }
}

async function kernelOutcome(map: KernelMap, job: FileJob): Promise<{ result: KernelResult; replayFailures: string[] }> {
  const launch = launchFor(map.params, job.launch);
  const options: VerifyOptions = { launch, timeoutMs: job.timeoutMs, maxRaces: job.maxRaces, solver: solverOf(job.solver) };
  try {
    const verified = await verifyKernel(map, options);
    const checked = job.barriers ? await withBarrierChecks(map, verified, options) : verified;
    const replayed = job.replay ? await replayAlarms(map, checked, { launch, timeoutMs: job.timeoutMs }) : { result: checked, failures: [] };
    return { result: replayed.result, replayFailures: replayed.failures };
  } catch (e) {
    return { result: kernelError(map, messageOf(e)), replayFailures: [] };
  }
}

export async function fileOutcome(job: FileJob): Promise<FileOutcome> {
  let text: string;
  try {
    text = await readFile(job.path, 'utf8');
  } catch (e) {
    const diagnostic = internalError(sourceFile(job.path, ''), { start: 0, end: 0 }, `cannot read the file: ${messageOf(e)}`);
    return { file: { ok: false, path: job.path, diagnostics: [diagnostic] }, replayFailures: [], checking: NOT_CHECKED };
  }
  const clock = new StageClock<CheckStage>();
  const checked = checkedSafely(job.path, text, job.kernel, clock);
  const checking = checkingTimes(clock);
  if (!checked.ok) return { file: { ok: false, path: job.path, diagnostics: checked.diagnostics }, replayFailures: [], checking };
  const kernels: KernelResult[] = [];
  const replayFailures: string[] = [];
  for (const map of checked.kernels) {
    const outcome = await kernelOutcome(map, job);
    kernels.push(outcome.result);
    replayFailures.push(...outcome.replayFailures);
  }
  return { file: { ok: true, path: job.path, kernels }, replayFailures, checking };
}

/** The outcome of a file whose worker died: every kernel of it in error, with the reason. */
export async function abandonedOutcome(job: FileJob, why: string): Promise<FileOutcome> {
  const text = await readFile(job.path, 'utf8').catch(() => '');
  const checked = checkedSafely(job.path, text, job.kernel);
  const message = `verification stopped: ${why}`;
  if (!checked.ok || checked.kernels.length === 0) {
    return { file: { ok: false, path: job.path, diagnostics: [internalError(sourceFile(job.path, text), { start: 0, end: 0 }, message)] }, replayFailures: [], checking: NOT_CHECKED };
  }
  return { file: { ok: true, path: job.path, kernels: checked.kernels.map((m) => kernelError(m, message)) }, replayFailures: [], checking: NOT_CHECKED };
}
