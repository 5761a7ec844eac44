/**
 * The commands of the command line (main.ts defines their options and
 * loads this module when one runs): each reads its files, runs the stages
 * and writes its report through the IO object, returning the exit code.
 */
import { type Launch, NO_LAUNCH, launchFor } from '../core/launch.js';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { KernelMap } from '../map/map.js';
import { strictRaces, type FileResult } from '../verify/result.js';
import { z3Wasm } from '../solve/z3.js';
import type { KernelResult } from '../verify/result.js';
import { colorsOf, renderedDiagnostics } from '../diagnostics/render.js';
import { textReport, withoutKernel } from '../report/text.js';
import { runCommand } from './run.js';
import { checkedSafely, isCudaPath, programOf } from '../api/check.js';
import { archOf, launchOfOptions, lockstepOf, paramTextsOf, warpSizeOf } from '../api/options.js';
import { inferText, loweredProgram, phasesText, queryListing } from '../api/stages.js';
import { writtenQueryFiles } from './smt-out.js';
import { outputDirectory, outputFile } from './output.js';
import { verifiedFiles, type Progress } from './jobs.js';
import { solverOf } from '../solve/backends.js';
import { DEFAULT_TIMEOUT_MS, MEMBER_NAMES, binaryOf, boundOf, type MemberName, type SolverChoice, type SolverName } from '../solve/solver.js';
import { defaultMembers } from '../solve/members.js';
import { SolverUnavailable, installed } from '../solve/process.js';
import type { SolvingRun } from '../report/describe.js';
import { commandWords } from '../solve/command.js';
import { fixCommand } from './fix.js';
import { experimentCommand, mergeCommand } from './experiment.js';
import { shardOf, type Shard } from '../experiment/shard.js';
import { EXIT_BAD_INPUT, EXIT_DRF, verifyExitCode } from './exit.js';
import type { CliIO } from './main.js';
import { UsageError, dimOf, inputFiles, naturalOf } from './options.js';
import { version } from './version.js';
import { compileDatabase, frontEndsFor, type CudaFlags } from './cuda.js';
import { cudaFilesOf } from '../api/compile-commands.js';
import { projectDirsOf } from './includes.js';
import { fileLaunch } from '../api/verify.js';
import { escapedText } from './escape.js';

/** `--warp-size N` and its spelling `--warp-sync N`; `--arch sm_XX`, which decides whether warps can run in lockstep. */
export interface WarpFlags {
  warpSize?: string;
  warpSync?: string;
  arch?: string;
}

export interface LaunchFlags extends CudaFlags, WarpFlags {
  kernel?: string;
  param: string[];
  blockDim?: string;
  gridDim?: string;
}

/** The options of main.ts's withSolvingOptions. */
export interface SolvingFlags {
  timeout: string;
  rlimit: string;
  maxRaces: string;
  jobs: string;
  solver?: SolverName;
  solverCmd?: string;
  portfolio?: string;
}

export interface VerifyFlags extends LaunchFlags, SolvingFlags {
  json?: boolean;
  sarif?: boolean;
  sarifHelpUrl?: string;
  barriers?: boolean;
  replay?: boolean;
  strictRaces?: boolean;
}

export interface FixFlags extends LaunchFlags {
  output?: string;
  timeout: string;
  keepBarriers?: boolean;
}

export interface SmtFlags extends LaunchFlags {
  out?: string;
}

export interface InferFlags extends CudaFlags {
  kernel?: string;
  phases?: boolean;
}

export interface LowerFlags extends CudaFlags {
  kernel?: string;
  sexp?: boolean;
}

export interface ExperimentFlags extends CudaFlags, WarpFlags, SolvingFlags {
  out?: string;
  shard?: string;
}

export interface RunFlags extends LaunchFlags {
  init: string[];
  json?: boolean;
  seed?: string;
}

/** The checked kernels of every input, with the files that failed before inference. */
interface Loaded {
  readonly failed: FileResult[];
  readonly kernels: KernelMap[];
  /** in input order, so reports list files as given; `text` as read */
  readonly order: { readonly path: string; readonly text: string; readonly maps: KernelMap[] | null }[];
}

async function textOf(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read '${path}': ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function loaded(args: readonly string[], kernel: string | undefined, cuda: CudaFlags): Promise<Loaded> {
  const failed: FileResult[] = [];
  const kernels: KernelMap[] = [];
  const order: Loaded['order'][number][] = [];
  const names: string[] = [];
  for (const path of await inputFiles(args)) {
    const text = await textOf(path);
    const frontEnds = await frontEndsFor(path, text, cuda);
    const checked = checkedSafely(path, text, kernel ?? null, undefined, frontEnds);
    if (!checked.ok) {
      failed.push({ ok: false, path, diagnostics: checked.diagnostics });
      order.push({ path, text, maps: null });
      continue;
    }
    kernels.push(...checked.kernels);
    order.push({ path, text, maps: [...checked.kernels] });
    if (kernel !== undefined && checked.kernels.length === 0 && checked.rejected.length === 0) names.push(...programOf(path, text, frontEnds).program.kernels.map((k) => k.name.text));
  }
  if (kernel !== undefined && kernels.length === 0 && failed.length === 0) {
    throw new UsageError(`no kernel named '${escapedText(kernel)}'`, [`the kernels are: ${escapedText(names.join(', '))}`]);
  }
  return { failed, kernels, order };
}

/** The launch from the options; a -p that no selected kernel has is a usage error. */
function launchOf(flags: LaunchFlags, kernels: readonly KernelMap[], io: CliIO): Launch {
  return launchOfOptions(flags.param, flags.blockDim, flags.gridDim, kernels, lockstepWarps(flags, io));
}

/** The lockstep warp size the options ask for on their architecture; a note on stderr where the architecture has none. */
function lockstepWarps(flags: WarpFlags, io: CliIO): number | undefined {
  const { warpSize, note } = lockstepOf(warpSizeOf(flags.warpSize, flags.warpSync), archOf(flags.arch));
  if (note !== null) io.err(`note: ${note}\n`);
  return warpSize;
}

export async function verifyCommand(args: readonly string[], flags: VerifyFlags, io: CliIO): Promise<number> {
  const timeoutMs = naturalOf(flags.timeout, '--timeout', 1);
  const rlimit = rlimitOf(flags.rlimit);
  const maxRaces = naturalOf(flags.maxRaces, '--max-races', 1);
  const jobs = naturalOf(flags.jobs, '--jobs', 1);
  const solver = await solverChoiceOf(flags, rlimit);
  const helpUrl = helpUrlOf(flags.sarifHelpUrl);
  const inputs = filesToRead(args, flags);
  const cuda = cudaFlagsOf(flags, inputs);
  const input = await loaded(inputs, flags.kernel, cuda);
  const launch = launchOf(flags, input.kernels, io);
  const job = { kernel: flags.kernel ?? null, launch, timeoutMs, rlimit, maxRaces, solver, barriers: flags.barriers === true, replay: flags.replay === true, cuda };
  const toVerify = input.order.filter((entry) => entry.maps !== null);
  // Z3 starts at the first query that the simplifier and the search by evaluation leave: most kernels never need it
  const outcomes = await verifiedFiles(toVerify.map((entry) => ({ ...job, path: entry.path })), jobs, progressOf(io));
  let next = 0;
  // a file the user named is read as a kernel file; one found below a directory or in the database may be the project's host code
  const named = new Set(args);
  const verified = input.order.map((entry) => (entry.maps === null ? projectFile(input.failed.find((f) => f.path === entry.path)!, !named.has(entry.path)) : outcomes[next++]!.file));
  const files = flags.strictRaces === true ? verified.map((f) => (f.ok ? { ...f, kernels: f.kernels.map(strictRaces) } : f)) : verified;
  const replayFailures = outcomes.flatMap((o) => o.replayFailures);
  const launches = launchesOf(input.order, files, launch);
  // the JSON and SARIF reports (and io-ts, for the JSON codec) are loaded only when asked for
  const solving = solvingRunOf(solver, rlimit, timeoutMs);
  if (flags.json) io.out(`${JSON.stringify((await import('../report/json.js')).reportJson(files, solving), null, 2)}\n`);
  else if (flags.sarif) io.out(`${JSON.stringify((await import('../report/sarif.js')).sarifLog(files, { version: version(), launchOf: (r) => launches.get(r) ?? null, solving, ...(helpUrl === null ? {} : { helpUrl }) }), null, 2)}\n`);
  else io.out(textReport(files, { colour: io.colour, launchOf: (r) => launches.get(r) ?? null, solving }));
  // a confirmed alarm the interpreter does not reproduce is a verifier bug, not a verdict
  if (replayFailures.length > 0) {
    const c = colorsOf(io.colour);
    for (const f of replayFailures) io.err(`${c.bold(c.red('internal error'))}: ${f}\n`);
    io.err(`${c.bold(c.green('hint'))}: this is a bug in faial-ts; please report it with the input file\n`);
    return EXIT_BAD_INPUT;
  }
  return verifyExitCode(files);
}

/** `--sarif-help-url`: an absolute URL, as SARIF's helpUri must be. */
function helpUrlOf(text: string | undefined): string | null {
  if (text === undefined) return null;
  if (!URL.canParse(text)) throw new UsageError(`--sarif-help-url '${escapedText(text)}' is not an absolute URL`, ['give the URL of the docs/ folder, e.g. https://github.com/OWNER/REPO/blob/REF/docs/']);
  return text;
}

/**
 * A file of a project (below a directory given, or listed by the
 * compilation database) without a kernel is host code, read for the launches
 * it makes: a note, not an input error that fails the run. A file named alone
 * without a kernel stays an error (E0606).
 */
function projectFile(f: FileResult, ofProject: boolean): FileResult {
  if (f.ok || !ofProject || !withoutKernel(f)) return f;
  return { ok: true, path: f.path, kernels: [], notices: f.diagnostics.map((d) => ({ ...d, severity: 'note' as const, message: 'no kernel in this file', hints: ['a host file of the project: the kernels it launches are verified at its launches'] })) };
}

/** The launch facts that concern each kernel result, as the text report names them. */
function launchesOf(order: Loaded['order'], files: readonly FileResult[], launch: Launch): Map<KernelResult, Launch> {
  const launches = new Map<KernelResult, Launch>();
  order.forEach((entry, i) => {
    const file = files[i]!;
    if (!file.ok) return;
    const own = fileLaunch(entry.path, entry.text, launch).launch;
    for (const r of file.kernels) {
      const map = entry.maps?.find((m) => m.name === r.kernel);
      if (map !== undefined) launches.set(r, launchFor(map.params, own));
    }
  });
  return launches;
}

/** A line on stderr that says how far a run of many files is, rewritten in place; erased at the end. */
function progressOf(io: CliIO): Progress {
  if (io.progress !== true) return () => undefined;
  return (done, total, path) => {
    if (total > 1) io.err(done === total ? '\r\u001b[K' : `\r\u001b[K${done}/${total} files verified (last: ${path})`);
  };
}

/** How the report states the budget: a solver without a resource limit is bounded by time only. */
function solvingRunOf(choice: SolverChoice, rlimit: number, timeoutMs: number): SolvingRun {
  return { solver: solverOf(choice, rlimit).name, rlimit: boundOf(choice) === 'resources' ? rlimit : null, timeoutMs };
}

/** Z3 takes its resource limit as a 32-bit unsigned number. */
const MAX_RLIMIT = 2 ** 32 - 1;

function rlimitOf(text: string): number {
  const rlimit = naturalOf(text, '--rlimit', 1);
  if (rlimit > MAX_RLIMIT) throw new UsageError(`--rlimit ${text}: expected a number of at most ${MAX_RLIMIT}`);
  return rlimit;
}

/**
 * The members `--portfolio` names, in its order; without it the default
 * members, the binaries among them only when installed. A binary named but
 * not installed is a usage error.
 */
function membersOf(list: string | undefined): MemberName[] {
  if (list === undefined) return defaultMembers();
  const hints = [`the members are: ${MEMBER_NAMES.join(', ')}`];
  const members: MemberName[] = [];
  for (const name of list.split(',').map((n) => n.trim())) {
    const member = MEMBER_NAMES.find((m) => m === name);
    if (member === undefined) throw new UsageError(`--portfolio ${list}: '${name}' is not a member`, hints);
    if (members.includes(member)) throw new UsageError(`--portfolio ${list}: '${name}' is named twice`);
    const binary = binaryOf(member);
    if (binary !== null && !installed(binary)) throw new UsageError(`--portfolio ${list}: the ${binary} binary is not installed`, [`install it (apt-get install -y ${binary}), or leave it out`]);
    members.push(member);
  }
  return members;
}

function choiceOf(flags: Pick<SolvingFlags, 'solver' | 'solverCmd' | 'portfolio'>): SolverChoice {
  if (flags.solverCmd !== undefined) return { kind: 'command', command: flags.solverCmd };
  const solver = flags.solver ?? 'portfolio';
  return solver === 'portfolio' ? { kind: 'portfolio', members: membersOf(flags.portfolio) } : { kind: solver };
}

/** The solver the flags name; a solver binary that cannot be started is a usage error, found before any work. */
async function solverChoiceOf(flags: Pick<SolvingFlags, 'solver' | 'solverCmd' | 'portfolio'>, rlimit: number): Promise<SolverChoice> {
  if (flags.solverCmd !== undefined && commandWords(flags.solverCmd).length === 0) throw new UsageError('--solver-cmd: the command is empty');
  if (flags.portfolio !== undefined && (flags.solverCmd !== undefined || (flags.solver ?? 'portfolio') !== 'portfolio')) {
    throw new UsageError('--portfolio names the members of --solver portfolio, not of another solver');
  }
  const choice = choiceOf(flags);
  // the built-in solvers need no probe; the portfolio takes only the binaries that are installed
  if (choice.kind === 'z3-wasm' || choice.kind === 'portfolio') return choice;
  const probe = await solverOf(choice, rlimit)
    .check('(declare-const x Int)\n(assert (= x 1))', 10_000)
    .catch((e: unknown) => {
      if (e instanceof SolverUnavailable) throw new UsageError(e.message, [choice.kind === 'command' ? 'check the command of --solver-cmd' : `install it: apt-get install -y ${choice.kind}`]);
      throw e;
    });
  if (probe.status !== 'sat' || probe.model.get('x') !== 1n) {
    const said = probe.status === 'unknown' ? probe.reason : probe.status;
    throw new UsageError(`the solver ${solverOf(choice, rlimit).name} does not answer SMT-LIB as expected (${said})`, ['it must read an SMT-LIB 2 script and answer check-sat and get-value']);
  }
  return choice;
}

export async function inferCommand(file: string, flags: InferFlags, io: CliIO): Promise<number> {
  const input = await loaded([file], flags.kernel, flags);
  for (const f of input.failed) if (!f.ok) io.err(renderedDiagnostics(f.diagnostics, io.colour));
  if (input.failed.length > 0) return EXIT_BAD_INPUT;
  const blocks: string[] = [];
  for (const map of input.kernels) {
    const parts = [inferText(map, io.colour)];
    if (flags.phases) parts.push(await phasesText(map, NO_LAUNCH, DEFAULT_TIMEOUT_MS, z3Wasm));
    blocks.push(parts.join('\n'));
  }
  io.out(`${blocks.join('\n\n')}\n`);
  return EXIT_DRF;
}

export async function smtCommand(file: string, flags: SmtFlags, io: CliIO): Promise<number> {
  if (flags.out !== undefined) await outputDirectory(flags.out, '--out');
  const input = await loaded([file], flags.kernel, flags);
  for (const f of input.failed) if (!f.ok) io.err(renderedDiagnostics(f.diagnostics, io.colour));
  if (input.failed.length > 0) return EXIT_BAD_INPUT;
  // the launch verify solves with: a .cu file's test header completes the command line's (said in a note, as verify does)
  const entry = input.order[0]!;
  const { launch, notice } = fileLaunch(entry.path, entry.text, launchOf(flags, input.kernels, io));
  if (notice !== null) io.err(renderedDiagnostics([notice], io.colour));
  if (flags.out !== undefined) {
    const written = await writtenQueryFiles(input.kernels, launch, flags.out);
    for (const s of written.skipped) io.err(`warning: ${s}\n`);
    io.out(written.files.map((f) => `${f}\n`).join(''));
    return EXIT_DRF;
  }
  const scripts: string[] = [];
  for (const map of input.kernels) scripts.push(...(await queryListing(map, launchFor(map.params, launch), DEFAULT_TIMEOUT_MS, z3Wasm)));
  // (reset) between scripts keeps the whole output runnable as one file too.
  io.out(`${scripts.join('\n(reset)\n')}\n`);
  return EXIT_DRF;
}

export async function fixSubcommand(file: string, flags: FixFlags, io: CliIO): Promise<number> {
  const timeoutMs = naturalOf(flags.timeout, '--timeout', 1);
  if (isCudaPath(file)) throw new UsageError(`fix rewrites BabyCUDA (.bcu) files; ${file} is CUDA C`, ['verify it, and fix the kernel by hand']);
  if (flags.output !== undefined) await outputFile(flags.output, '-o');
  const launch = launchOf(flags, (await loaded([file], flags.kernel, flags)).kernels, io);
  return fixCommand(
    file,
    {
      ...(flags.kernel === undefined ? {} : { kernel: flags.kernel }),
      launch,
      timeoutMs,
      ...(flags.output === undefined ? {} : { output: flags.output }),
      keepBarriers: flags.keepBarriers === true,
    },
    io,
  );
}

export async function experimentSubcommand(inputs: readonly string[], flags: ExperimentFlags, io: CliIO): Promise<number> {
  if (flags.out === undefined) throw new UsageError("required option '--out <DIR>' not specified");
  const rlimit = rlimitOf(flags.rlimit);
  const settings = {
    out: flags.out,
    timeoutMs: naturalOf(flags.timeout, '--timeout', 1),
    rlimit,
    maxRaces: naturalOf(flags.maxRaces, '--max-races', 1),
    jobs: naturalOf(flags.jobs, '--jobs', 1),
    solver: await solverChoiceOf(flags, rlimit),
    version: version(),
    shard: flags.shard === undefined ? null : shardOption(flags.shard),
    cuda: cudaFlagsOf(flags, inputs),
    warpSize: lockstepWarps(flags, io) ?? null,
  };
  return experimentCommand(filesToRead(inputs, flags), settings, io, progressOf(io));
}

function shardOption(text: string): Shard {
  const shard = shardOf(text);
  if (typeof shard === 'string') throw new UsageError(`--shard ${text}: ${shard}`);
  return shard;
}

export async function experimentMergeSubcommand(dirs: readonly string[], flags: { out: string }, io: CliIO): Promise<number> {
  return mergeCommand(dirs, flags.out, io);
}

export async function runSubcommand(args: readonly string[], flags: RunFlags, io: CliIO): Promise<number> {
  const params = paramTextsOf(flags.param);
  const warpSize = lockstepWarps(flags, io);
  return runCommand(
    [...(await inputFiles(args))],
    {
      ...(flags.kernel === undefined ? {} : { kernel: flags.kernel }),
      params: Object.fromEntries(params),
      ...(flags.blockDim === undefined ? {} : { blockDim: dimOf(flags.blockDim, '--block-dim') }),
      ...(flags.gridDim === undefined ? {} : { gridDim: dimOf(flags.gridDim, '--grid-dim') }),
      init: flags.init,
      json: flags.json === true,
      cuda: cudaFlagsOf(flags, args),
      ...(flags.seed === undefined ? {} : { seed: naturalOf(flags.seed, '--seed') }),
      ...(warpSize === undefined ? {} : { warpSize }),
    },
    io,
  );
}

/** -D, -U, -I, the include roots and the launch options as a job carries them to a worker process. */
const cudaFlagsOf = (flags: CudaFlags, inputs: readonly string[]): CudaFlags => ({
  define: flags.define ?? [],
  undefine: flags.undefine ?? [],
  include: flags.include ?? [],
  projectDirs: projectDirsOf(inputs),
  includeAnywhere: flags.includeAnywhere === true,
  ...(flags.compileCommands === undefined ? {} : { compileCommands: flags.compileCommands }),
  ...(flags.anyLaunch === true ? { anyLaunch: true } : {}),
  ...(flags.blockDim === undefined ? {} : { blockDim: flags.blockDim }),
  ...(flags.gridDim === undefined ? {} : { gridDim: flags.gridDim }),
  ...(flags.param === undefined || flags.param.length === 0 ? {} : { param: flags.param }),
});

/** The files to read: those given, or without any, the `.cu` files of the compilation database. */
function filesToRead(args: readonly string[], flags: CudaFlags): readonly string[] {
  if (args.length > 0) return args;
  if (flags.compileCommands === undefined) throw new UsageError('no input file', ['name .bcu/.cu files or directories, or give --compile-commands build/compile_commands.json']);
  // named from the working directory, as the user would name them
  const files = cudaFilesOf(compileDatabase(flags.compileCommands)).map((f) => relative(process.cwd(), f));
  if (files.length === 0) throw new UsageError(`--compile-commands ${flags.compileCommands}: no .cu file in the database`);
  return files;
}

export async function lowerCommand(file: string, flags: LowerFlags, io: CliIO): Promise<number> {
  const text = await textOf(file);
  const lowered = loweredProgram(file, text, await frontEndsFor(file, text, flags), flags.sexp === true ? 'sexp' : 'listing');
  if (!lowered.ok) {
    io.err(renderedDiagnostics(lowered.diagnostics, io.colour));
    return EXIT_BAD_INPUT;
  }
  const kernels = lowered.kernels.filter((k) => flags.kernel === undefined || k.name === flags.kernel);
  const rejected = lowered.rejected.filter((r) => flags.kernel === undefined || r.name === flags.kernel);
  const outside = lowered.outsideModel.filter((r) => flags.kernel === undefined || r.name === flags.kernel);
  if (flags.kernel !== undefined && kernels.length === 0 && rejected.length === 0 && outside.length === 0) {
    throw new UsageError(`no kernel named '${escapedText(flags.kernel)}'`, [`the kernels are: ${escapedText([...lowered.kernels, ...lowered.rejected, ...lowered.outsideModel].map((k) => k.name).join(', '))}`]);
  }
  if (kernels.length > 0) io.out(`${kernels.map((k) => k.text).join('\n\n')}\n`);
  if (lowered.notices.length > 0) io.err(renderedDiagnostics(lowered.notices, io.colour));
  for (const r of rejected) io.err(`kernel ${r.name} is not analysed:\n${renderedDiagnostics([r.diagnostic], io.colour)}`);
  for (const r of outside) io.err(`kernel ${r.name} is not printed:\n${renderedDiagnostics([r.diagnostic], io.colour)}`);
  return rejected.length > 0 || outside.length > 0 ? EXIT_BAD_INPUT : EXIT_DRF;
}
