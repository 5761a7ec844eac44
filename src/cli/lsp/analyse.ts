/**
 * One document verified for the language server, from its text as the
 * editor holds it (not the file on disk): the CUDA front end reads its
 * includes from the document's directory and the -I directories, as
 * `verify` does. A verification that is no longer wanted (the document
 * changed) stops at its next solver check: the cancellable solver refuses
 * to start one, and the caller drops what was computed.
 */
import { checkedSafely, type Checked, type FrontEnds } from '../../api/check.js';
import type { CudaFlags } from '../../api/cuda.js';
import { launchOfOptions, UsageError } from '../../api/options.js';
import { fileLaunch, inFileOrder, verifyFile, type KernelStarted, type VerifyFileOptions } from '../../api/verify.js';
import { launchFor, type Launch } from '../../core/launch.js';
import { sourceFile } from '../../core/source.js';
import { error, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { AnalysedKernel } from '../../lsp/hover.js';
import type { LspSettings } from '../../lsp/settings.js';
import { solverOf } from '../../solve/backends.js';
import { defaultMembers } from '../../solve/members.js';
import type { Solver, SolverChoice } from '../../solve/solver.js';
import type { FileResult, KernelResult } from '../../verify/result.js';
import { phasesOf } from '../../verify/verify.js';
import { frontEndsFor } from '../cuda.js';
import { resolve } from 'node:path';

/** Set when the result is no longer wanted. */
export interface Cancellation {
  readonly cancelled: boolean;
}

export class Cancelled extends Error {
  constructor() {
    super('the verification was cancelled: the document changed');
    this.name = 'Cancelled';
  }
}

/** A document as verified: its result, and its kernels for hover and repairs. */
export interface Analysis {
  readonly path: string;
  readonly text: string;
  readonly file: FileResult;
  readonly kernels: readonly AnalysedKernel[];
  /** the launch the file was verified with (the settings', completed by a test header) */
  readonly launch: Launch;
}

/** The solver that starts no check once `token` is cancelled. */
export function cancellable(solver: Solver, token: Cancellation): Solver {
  return {
    name: solver.name,
    check: async (script, timeoutMs, options) => {
      await yielded();
      if (token.cancelled) throw new Cancelled();
      return solver.check(script, timeoutMs, options);
    },
  };
}

export function solverChoiceOf(settings: LspSettings): SolverChoice {
  return settings.solver === 'portfolio' ? { kind: 'portfolio', members: defaultMembers() } : { kind: settings.solver };
}

/** The settings' preprocessor flags, paths resolved from the workspace root. */
export function cudaFlagsOf(settings: LspSettings, root: string): CudaFlags {
  return {
    define: [...settings.define],
    undefine: [...settings.undefine],
    include: settings.include.map((d) => resolve(root, d)),
    ...(settings.compileCommands === null ? {} : { compileCommands: resolve(root, settings.compileCommands) }),
    ...(settings.blockDim === null ? {} : { blockDim: settings.blockDim }),
    ...(settings.gridDim === null ? {} : { gridDim: settings.gridDim }),
  };
}

/** A file result that says why the settings stop the file from being verified, at its first character. */
function settingsError(path: string, text: string, e: UsageError): FileResult {
  const message = `faial-ts settings: ${e.message}`;
  return { ok: false, path, diagnostics: [error('E0900', sourceFile(path, text), { start: 0, end: 0 }, message, { hints: [...e.hints] })] };
}

/** The document verified with the settings; null when cancelled before it finished. */
export async function analysed(path: string, text: string, settings: LspSettings, root: string, token: Cancellation, started: KernelStarted): Promise<Analysis | null> {
  const solver = cancellable(solverOf(solverChoiceOf(settings), settings.rlimit), token);
  let frontEnds;
  let launch: Launch;
  let checked;
  try {
    frontEnds = await frontEndsFor(path, text, cudaFlagsOf(settings, root));
    checked = checkedSafely(path, text, null, undefined, frontEnds);
    launch = launchOfOptions([], settings.blockDim ?? undefined, settings.gridDim ?? undefined, checked.ok ? checked.kernels : [], settings.warpSize ?? undefined);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return { path, text, file: settingsError(path, text, e), kernels: [], launch: { params: new Map(), blockDim: null, gridDim: null } };
  }
  const options = { kernel: null, launch, timeoutMs: settings.timeoutMs, maxRaces: settings.maxRaces, barriers: false, replay: false };
  const file = await verifiedByKernel(path, text, checked, options, solver, frontEnds, token, started);
  if (file === null) return null;
  const own = fileLaunch(path, text, launch).launch;
  const kernels: AnalysedKernel[] = [];
  const results = file.ok ? file.kernels : [];
  for (const map of checked.ok ? checked.kernels : []) {
    const result = results.find((r) => r.kernel === map.name);
    if (result === undefined) continue;
    // the split the verification made, made again for hover: its loop checks are few and answered by the simplifier mostly
    const split = result.status === 'error' ? null : await phasesOf(map, launchFor(map.params, own), settings.timeoutMs, solver).catch(() => null);
    if (token.cancelled) return null;
    kernels.push({ map, split, result });
  }
  return { path, text, file, kernels, launch: own };
}

/** A turn of the event loop, so that a change that cancels this verification is read. */
const yielded = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The file verified one kernel at a time, with a turn of the event loop
 * before each: most kernels need no solver, so their verification never
 * waits on anything that lets the server read the client's messages. Null
 * when cancelled.
 */
async function verifiedByKernel(path: string, text: string, checked: Checked, options: VerifyFileOptions, solver: Solver, frontEnds: FrontEnds, token: Cancellation, started: KernelStarted): Promise<FileResult | null> {
  const names = checked.ok ? [...new Set([...checked.kernels.map((k) => k.name), ...checked.rejected.map((r) => r.name)])] : [];
  if (names.length === 0) return (await verifyFile(path, text, options, solver, frontEnds)).file;
  const kernels: KernelResult[] = [];
  let notices: readonly Diagnostic[] = [];
  for (const [i, name] of names.entries()) {
    await yielded();
    if (token.cancelled) return null;
    started(name, i, names.length);
    const outcome = await verifyFile(path, text, { ...options, kernel: name }, solver, frontEnds);
    if (!outcome.file.ok) return outcome.file;
    kernels.push(...outcome.file.kernels);
    // the file's notices (its test header's launch, what the front end left out) come with every kernel: said once
    if (i === 0) notices = outcome.file.notices ?? [];
  }
  return { ok: true, path, kernels: inFileOrder(kernels), ...(notices.length === 0 ? {} : { notices }) };
}
