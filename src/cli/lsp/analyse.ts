/**
 * What a verifier worker (lsp-worker.ts) does for the language server: one
 * document verified from its text as the editor holds it (not the file on
 * disk), or one kernel of it repaired. The CUDA front end reads its includes
 * from the document's directory and the -I directories, as `verify` does,
 * taking the editor's text of an open header instead of the disk's. What is
 * sent back is plain data: diagnostics, hovers, the launch facts, the files
 * the includes read.
 *
 * A job that is no longer wanted (the document changed) is cancelled: its
 * solver starts no more checks and stops the one running (its abort signal),
 * and the job stops before its next kernel.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { checkedSafely, type Checked, type FrontEnds } from '../../api/check.js';
import { testHeader, TestHeaderError, type CudaFlags } from '../../api/cuda.js';
import { launchOfOptions, UsageError } from '../../api/options.js';
import { fileLaunch, inFileOrder, verifyFile, type KernelStarted, type VerifyFileOptions } from '../../api/verify.js';
import { launchFor, type Launch } from '../../core/launch.js';
import { sourceFile } from '../../core/source.js';
import { error, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { fixKernel } from '../../fix/fix.js';
import { DEFAULT_LIMITS } from '../../fix/search.js';
import { launchedName, unitLaunches } from '../../frontend/cuda/lower.js';
import { proposedRepair, type ProposedRepair } from '../../lsp/actions.js';
import { diagnosticsByPath } from '../../lsp/diagnostics.js';
import { hoverTable, type AnalysedKernel } from '../../lsp/hover.js';
import { modeSettings, settingsLaunchText, type LaunchFacts, type LaunchMode } from '../../lsp/launch.js';
import type { LspSettings } from '../../lsp/settings.js';
import { launchText } from '../../report/describe.js';
import { solverOf } from '../../solve/backends.js';
import { defaultMembers } from '../../solve/members.js';
import type { Solver, SolverChoice } from '../../solve/solver.js';
import type { FileResult, KernelResult } from '../../verify/result.js';
import { phasesOf } from '../../verify/verify.js';
import { frontEndsFor } from '../cuda.js';
import type { Analysis, IncludeRead, RepairJob, VerifyJob } from './protocol.js';

/** Set when the result is no longer wanted; `signal` aborts the solver's check in progress. */
export interface Cancellation {
  readonly cancelled: boolean;
  readonly signal: AbortSignal;
}

export class Cancelled extends Error {
  constructor() {
    super('the verification was cancelled: the document changed');
    this.name = 'Cancelled';
  }
}

/** Races a kernel may have before its repair: fix's own bound (src/cli/fix.ts). */
const FIX_MAX_RACES = 64;

/** The solver that starts no check once `token` is cancelled, and stops the one it runs then. */
export function cancellable(solver: Solver, token: Cancellation): Solver {
  return {
    name: solver.name,
    check: async (script, timeoutMs, options) => {
      await yielded();
      if (token.cancelled) throw new Cancelled();
      const signal = options?.signal === undefined ? token.signal : AbortSignal.any([options.signal, token.signal]);
      const verdict = await solver.check(script, timeoutMs, { ...options, signal });
      // a check the cancellation stopped says unknown, which is no verdict
      if (token.cancelled) throw new Cancelled();
      return verdict;
    },
  };
}

function solverChoiceOf(settings: LspSettings): SolverChoice {
  return settings.solver === 'portfolio' ? { kind: 'portfolio', members: defaultMembers() } : { kind: settings.solver };
}

/** The settings' preprocessor flags, paths resolved from the workspace root; every launch size, in mode `every`. */
function cudaFlagsOf(settings: LspSettings, mode: LaunchMode, root: string): CudaFlags {
  return {
    define: [...settings.define],
    undefine: [...settings.undefine],
    include: settings.include.map((d) => resolve(root, d)),
    ...(settings.compileCommands === null ? {} : { compileCommands: resolve(root, settings.compileCommands) }),
    ...(settings.blockDim === null ? {} : { blockDim: settings.blockDim }),
    ...(settings.gridDim === null ? {} : { gridDim: settings.gridDim }),
    ...(mode === 'every' ? { anyLaunch: true } : {}),
  };
}

/** A file result that says why the settings stop the file from being verified, at its first character. */
function settingsError(path: string, text: string, e: UsageError): FileResult {
  const message = `faial-ts settings: ${e.message}`;
  return { ok: false, path, diagnostics: [error('E0900', sourceFile(path, text), { start: 0, end: 0 }, message, { hints: [...e.hints] })] };
}

/** The front ends of a job's document and its launch, or the settings' error; the files its includes read are added to `reads`. */
async function prepared(job: VerifyJob | RepairJob, buffers: ReadonlyMap<string, string>, reads: IncludeRead[]): Promise<{ frontEnds: FrontEnds; checked: Checked; launch: Launch } | FileResult> {
  const settings = modeSettings(job.settings, job.mode);
  try {
    const frontEnds = recording(await frontEndsFor(job.path, job.text, cudaFlagsOf(settings, job.mode, job.root), buffers), buffers, reads);
    const checked = checkedSafely(job.path, job.text, null, undefined, frontEnds);
    const launch = launchOfOptions([], settings.blockDim ?? undefined, settings.gridDim ?? undefined, checked.ok ? checked.kernels : [], settings.warpSize ?? undefined);
    return { frontEnds, checked, launch };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return settingsError(job.path, job.text, e);
  }
}

/** The front ends with the CUDA reader telling `reads` each file it read. */
function recording(frontEnds: FrontEnds, buffers: ReadonlyMap<string, string>, reads: IncludeRead[]): FrontEnds {
  const cuda = frontEnds.cuda;
  if (cuda === null) return frontEnds;
  const readFile: typeof cuda.readFile = (path) => {
    const got = cuda.readFile(path);
    if (typeof got === 'string') reads.push({ path: resolve(path), text: got, fromBuffer: buffers.get(resolve(path)) === got });
    return got;
  };
  return { cuda: { ...cuda, readFile } };
}

const uriOf = (path: string): string => pathToFileURL(path).href;

/** The document of a job verified with its settings and mode; null when cancelled before it finished. */
export async function analysed(job: VerifyJob, token: Cancellation, started: KernelStarted): Promise<Analysis | null> {
  const { path, text } = job;
  const settings = modeSettings(job.settings, job.mode);
  const reads: IncludeRead[] = [];
  const ready = await prepared(job, job.buffers, reads);
  const solver = cancellable(solverOf(solverChoiceOf(settings), settings.rlimit), token);
  const launches: LaunchFacts = { settings: settingsLaunchText(job.settings), own: [] };
  if ('ok' in ready) return { path, text, diagnostics: diagnosticsOf(ready), hovers: { accesses: [], syncs: [] }, launches, includes: firstReads(reads) };
  const { frontEnds, checked, launch } = ready;
  const headerSizes = job.mode !== 'every';
  const options: VerifyFileOptions = { kernel: null, launch, timeoutMs: settings.timeoutMs, maxRaces: settings.maxRaces, barriers: settings.barriers, replay: false, headerSizes };
  const file = await verifiedByKernel(path, text, checked, options, solver, frontEnds, token, started);
  if (file === null) return null;
  const own = fileLaunch(path, text, launch, headerSizes).launch;
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
  return { path, text, diagnostics: diagnosticsOf(file), hovers: hoverTable(kernels, path), launches: { ...launches, own: ownLaunches(text, checked, frontEnds) }, includes: firstReads(reads) };
}

/** Each file read once: every kernel's verification reads the includes again. */
function firstReads(reads: readonly IncludeRead[]): IncludeRead[] {
  const byPath = new Map<string, IncludeRead>();
  for (const r of reads) if (!byPath.has(r.path)) byPath.set(r.path, r);
  return [...byPath.values()];
}

/** The diagnostics of a file's result by document URI. */
function diagnosticsOf(file: FileResult): Analysis['diagnostics'] {
  const byPath = diagnosticsByPath(file, uriOf);
  // a header verified alone that defines no kernel says nothing
  if (/\.cuh$/i.test(file.path) && !file.ok && file.diagnostics.every((d) => d.code === 'E0606')) byPath.set(file.path, []);
  return [...byPath].map(([p, ds]) => [uriOf(p), ds] as const);
}

/** The launch sizes a CUDA file gives itself: its test header's, and those its kernels are launched with (here or, with a compilation database, in the project). */
function ownLaunches(text: string, checked: Checked, frontEnds: FrontEnds): string[] {
  if (frontEnds.cuda === null || !checked.ok) return [];
  const out: string[] = [];
  try {
    const header = testHeader(text);
    const sizes = header === null ? null : launchText({ params: new Map(), blockDim: header.blockDim, gridDim: header.gridDim });
    if (sizes !== null) out.push(`test header: ${sizes}`);
  } catch (e) {
    // a header that does not read is the verification's error, and gives no launch
    if (!(e instanceof TestHeaderError)) throw e;
  }
  const launches = unitLaunches(checked.file, frontEnds.cuda.launches?.elsewhere ?? []);
  for (const name of new Set(checked.kernels.map((k) => k.name))) {
    const launch = launches.get(launchedName(name));
    const sizes = launch === undefined ? null : launchText({ params: new Map(), blockDim: launch.block, gridDim: launch.grid });
    if (sizes !== null) out.push(`launch of ${name}: ${sizes}`);
  }
  return out;
}

/** A turn of the event loop, so that a cancellation is read. */
const yielded = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The file verified one kernel at a time, with a turn of the event loop
 * before each: most kernels need no solver, so their verification never
 * waits on anything that lets the worker read a cancellation. Null when
 * cancelled.
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

/** The repair `fix` proves for a kernel of a BabyCUDA document, at the launch it was verified at; null when there is none. */
export async function repaired(job: RepairJob, token: Cancellation): Promise<ProposedRepair | null> {
  const ready = await prepared(job, new Map(), []);
  if ('ok' in ready || !ready.checked.ok) return null;
  const map = ready.checked.kernels.find((k) => k.name === job.kernel);
  if (map === undefined) return null;
  const settings = modeSettings(job.settings, job.mode);
  const solver = cancellable(solverOf(solverChoiceOf(settings), settings.rlimit), token);
  const launch = launchFor(map.params, fileLaunch(job.path, job.text, ready.launch, job.mode !== 'every').launch);
  const fixed = await fixKernel(job.path, job.text, job.kernel, { launch, timeoutMs: settings.timeoutMs, maxRaces: FIX_MAX_RACES, solver, keepBarriers: !job.removeBarriers, limits: DEFAULT_LIMITS });
  return token.cancelled ? null : proposedRepair(job.text, fixed);
}
