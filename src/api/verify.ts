/**
 * Verifying one file's text, as `faial-ts verify` does, from data alone: the
 * same code runs in the CLI's process, in its worker processes and in the
 * browser. It never throws: a kernel whose verification fails inside faial-ts
 * becomes that kernel's `error` entry, a file that cannot be parsed a file
 * error, and the run goes on with the next kernel.
 */
import { launchFor, type Launch } from '../core/launch.js';
import { sourceFile, type Span } from '../core/source.js';
import type { KernelMap } from '../map/map.js';
import type { Solver } from '../solve/solver.js';
import { withBarrierChecks } from '../verify/barriers.js';
import { replayAlarms } from '../verify/replay.js';
import type { FileResult, KernelResult } from '../verify/result.js';
import { verifyKernel, type VerifyOptions } from '../verify/verify.js';
import { StageClock } from '../util/clock.js';
import { BCU_ONLY, checkedKernels, checkedSafely, internalError, isCudaPath, messageOf, type CheckStage, type FrontEnds, type RejectedKernel } from './check.js';
import { headerNotice, launchWithHeader } from './cuda.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../core/source.js';

export interface VerifyFileOptions {
  /** only the kernel of this name */
  readonly kernel: string | null;
  /** the caller's launch facts; each kernel takes those about its own parameters */
  readonly launch: Launch;
  readonly timeoutMs: number;
  readonly maxRaces: number;
  readonly barriers: boolean;
  readonly replay: boolean;
  /** false: a CUDA file's test header gives no launch sizes (its macros and warp size still apply); absent: it does */
  readonly headerSizes?: boolean;
}

export interface FileOutcome {
  readonly file: FileResult;
  /** confirmed alarms the interpreter did not reproduce (--replay): verifier bugs */
  readonly replayFailures: readonly string[];
  /** milliseconds spent on the whole file before verification (each kernel's stats have the rest) */
  readonly checking: Readonly<Record<CheckStage, number>>;
}

export const NOT_CHECKED: FileOutcome['checking'] = { parse: 0, typing: 0 };

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
    stats: { accesses: map.accesses.length, phases: 0, arrays: 0, queries: 0, withoutSolver: 0, milliseconds: 0, stages: { phases: 0, encoding: 0, solving: 0, witnesses: 0 } },
  };
}

/** The `error` entry of a kernel the front end rejected (an unsupported construct, a syntax error in it). */
export function rejectedResult(file: SourceFile, r: RejectedKernel): KernelResult {
  return {
    file,
    kernel: r.name,
    span: r.span,
    status: 'error',
    wellTyped: false,
    violations: [],
    races: [],
    divergences: [],
    vacuous: false,
    unknowns: [],
    errors: [r.diagnostic],
    stats: { accesses: 0, phases: 0, arrays: 0, queries: 0, withoutSolver: 0, milliseconds: 0, stages: { phases: 0, encoding: 0, solving: 0, witnesses: 0 } },
  };
}

/** Kernel results in the order the file defines the kernels. */
export function inFileOrder(results: readonly KernelResult[]): KernelResult[] {
  return [...results].sort((a, b) => a.span.start - b.span.start);
}

async function kernelOutcome(map: KernelMap, options: VerifyFileOptions, solver: Solver): Promise<{ result: KernelResult; replayFailures: string[] }> {
  const launch = launchFor(map.params, options.launch);
  const verifyOptions: VerifyOptions = { launch, timeoutMs: options.timeoutMs, maxRaces: options.maxRaces, solver };
  try {
    const verified = await verifyKernel(map, verifyOptions);
    const checked = options.barriers ? await withBarrierChecks(map, verified, verifyOptions) : verified;
    const replayed = options.replay ? await replayAlarms(map, checked, verifyOptions) : { result: checked, failures: [] };
    return { result: await withLockstepCheck(map, replayed.result, verifyOptions), replayFailures: replayed.failures };
  } catch (e) {
    return { result: kernelError(map, messageOf(e)), replayFailures: [] };
  }
}

/**
 * A kernel proved DRF with lockstep warps, verified again with independent
 * threads: where it races or diverges then, it is DRF only on GPUs before
 * sm_70, and the report says so rather than let the proof stand for today's.
 */
async function withLockstepCheck(map: KernelMap, result: KernelResult, options: VerifyOptions): Promise<KernelResult> {
  if (options.launch.warpSize === undefined || (result.status !== 'drf' && result.status !== 'benign')) return result;
  const { warpSize: _lockstep, ...independent } = options.launch;
  const without = await verifyKernel(map, { ...options, launch: independent });
  return without.status === 'racy' || without.status === 'divergent' ? { ...result, lockstepOnly: true } : result;
}

/** Called before each kernel is verified, for a caller that shows progress. */
export type KernelStarted = (kernel: string, index: number, total: number) => void;

/** Every kernel of a file's text verified in turn with the given solver. */
export async function verifyFile(path: string, text: string, options: VerifyFileOptions, solver: Solver, frontEnds: FrontEnds = BCU_ONLY, started: KernelStarted = () => undefined): Promise<FileOutcome> {
  const clock = new StageClock<CheckStage>();
  const checked = checkedSafely(path, text, options.kernel, clock, frontEnds);
  const checking = { parse: clock.milliseconds('parse'), typing: clock.milliseconds('typing') };
  if (!checked.ok) return { file: { ok: false, path, diagnostics: checked.diagnostics }, replayFailures: [], checking };
  const { launch, notice } = fileLaunch(path, text, options.launch, options.headerSizes);
  const kernels: KernelResult[] = [];
  const replayFailures: string[] = [];
  for (const [i, map] of checked.kernels.entries()) {
    started(map.name, i, checked.kernels.length);
    const outcome = await kernelOutcome(map, { ...options, launch }, solver);
    kernels.push(outcome.result);
    replayFailures.push(...outcome.replayFailures);
  }
  kernels.push(...checked.rejected.map((r) => rejectedResult(checked.file, r)));
  const said = [...(notice === null ? [] : [notice]), ...checked.notices];
  const notices = said.length > 0 ? { notices: said } : {};
  return { file: { ok: true, path, kernels: inFileOrder(kernels), ...notices }, replayFailures, checking };
}

/** The launch a file is verified with: the caller's, completed by a CUDA file's GPUVerify test header, and the note that says what the header gave (null when it gave nothing). */
export function fileLaunch(path: string, text: string, given: Launch, headerSizes = true): { launch: Launch; notice: Diagnostic | null } {
  if (!isCudaPath(path)) return { launch: given, notice: null };
  const { launch, header } = launchWithHeader(given, text, headerSizes);
  return { launch, notice: header === null ? null : headerNotice(path, text, given, header) };
}

/** The outcome of a file whose verification was cut short (a worker that died): every kernel of it in error, with the reason. */
export function abandonedOutcome(path: string, text: string, kernel: string | null, why: string, frontEnds: FrontEnds = BCU_ONLY): FileOutcome {
  const checked = checkedSafely(path, text, kernel, undefined, frontEnds);
  const message = `verification stopped: ${why}`;
  if (!checked.ok || checked.kernels.length === 0) {
    return { file: { ok: false, path, diagnostics: [internalError(sourceFile(path, text), { start: 0, end: 0 }, message)] }, replayFailures: [], checking: NOT_CHECKED };
  }
  return { file: { ok: true, path, kernels: checked.kernels.map((m) => kernelError(m, message)) }, replayFailures: [], checking: NOT_CHECKED };
}

/** Every kernel of a file's text verified with the same options; bad input is the file's diagnostics. */
export async function verifyText(path: string, text: string, options: VerifyOptions & { readonly kernel?: string }, frontEnds: FrontEnds = BCU_ONLY): Promise<FileResult> {
  const checked = checkedKernels(path, text, options.kernel, undefined, frontEnds);
  if (!checked.ok) return { ok: false, path, diagnostics: checked.diagnostics };
  const kernels: KernelResult[] = [];
  for (const map of checked.kernels) kernels.push(await verifyKernel(map, options));
  kernels.push(...checked.rejected.map((r) => rejectedResult(checked.file, r)));
  const notices = checked.notices.length > 0 ? { notices: checked.notices } : {};
  return { ok: true, path, kernels: inFileOrder(kernels), ...notices };
}
