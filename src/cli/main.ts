/**
 * The `faial-ts` command line: verify, infer, smt, fix, run, experiment, gen.
 *
 * Every command goes through runCli, which writes through an IO object and
 * returns the exit code, so tests run the real CLI in-process; `main` binds
 * it to the process. Nothing here calls process.exit: pending output (and Z3's
 * worker threads) must be allowed to finish.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { NO_LAUNCH, type Launch } from '../encode/query.js';
import { EncodingLimit, printScript } from '../encode/smtlib.js';
import type { KernelMap } from '../map/map.js';
import { showMap } from '../map/print.js';
import { showPhases } from '../phases/print.js';
import { parseProgram } from '../syntax/parse.js';
import type { FileResult } from '../verify/pipeline.js';
import { DEFAULT_TIMEOUT_MS, phasesOf } from '../verify/verify.js';
import { queryScripts } from '../verify/scripts.js';
import { z3Wasm } from '../solve/z3.js';
import type { KernelResult } from '../verify/result.js';
import type { Query } from '../encode/query.js';
import { colourWanted, colorsOf, renderedDiagnostics } from '../diagnostics/render.js';
import { textReport } from '../report/text.js';
import { reportJson } from '../report/json.js';
import { sarifLog } from '../report/sarif.js';
import { violationText } from '../report/describe.js';
import { runCommand } from './run.js';
import { checkedSafely } from './batch.js';
import { writtenQueryFiles } from './smt-out.js';
import { standaloneScript } from '../solve/script.js';
import { verifiedFiles, type Progress } from './jobs.js';
import { SOLVER_NAMES, solverOf, type SolverChoice, type SolverName } from '../solve/solver.js';
import { SolverUnavailable } from '../solve/process.js';
import { commandWords } from '../solve/command.js';
import { fixCommand } from './fix.js';
import { experimentCommand } from './experiment.js';
import { genCommand, type GenFlags } from './gen.js';
import { FAMILIES } from '../gen/families.js';
import { EXIT_BAD_INPUT, EXIT_DRF, verifyExitCode } from './exit.js';
import { UsageError, collect, dimOf, inputFiles, launchFor, naturalOf, paramsOf } from './options.js';

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** colour the text output (a terminal, NO_COLOR unset) */
  readonly colour: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** show how far a long run is on stderr (a terminal) */
  readonly progress?: boolean;
}

export interface CliResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

const DEFAULT_MAX_RACES = 20;

interface LaunchFlags {
  kernel?: string;
  param: string[];
  blockDim?: string;
  gridDim?: string;
}

interface VerifyFlags extends LaunchFlags {
  json?: boolean;
  sarif?: boolean;
  barriers?: boolean;
  replay?: boolean;
  timeout: string;
  maxRaces: string;
  jobs: string;
  solver?: SolverName;
  solverCmd?: string;
}

interface FixFlags extends LaunchFlags {
  output?: string;
  timeout: string;
  keepBarriers?: boolean;
}

interface SmtFlags extends LaunchFlags {
  out?: string;
}

interface InferFlags {
  kernel?: string;
  phases?: boolean;
}

interface ExperimentFlags {
  out: string;
  timeout: string;
  maxRaces: string;
  jobs: string;
  solver?: SolverName;
  solverCmd?: string;
}

interface RunFlags extends LaunchFlags {
  init: string[];
  json?: boolean;
  seed?: string;
}

/** The checked kernels of every input, with the files that failed before inference. */
interface Loaded {
  readonly failed: FileResult[];
  readonly kernels: KernelMap[];
  /** in input order, so reports list files as given */
  readonly order: { readonly path: string; readonly maps: KernelMap[] | null }[];
}

function version(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    if (typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string') return pkg.version;
  } catch {
    // a missing package.json must not break --version
  }
  return 'unknown';
}

async function textOf(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read '${path}': ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function loaded(args: readonly string[], kernel: string | undefined): Promise<Loaded> {
  const failed: FileResult[] = [];
  const kernels: KernelMap[] = [];
  const order: Loaded['order'][number][] = [];
  const names: string[] = [];
  for (const path of await inputFiles(args)) {
    const text = await textOf(path);
    const checked = checkedSafely(path, text, kernel ?? null);
    if (!checked.ok) {
      failed.push({ ok: false, path, diagnostics: checked.diagnostics });
      order.push({ path, maps: null });
      continue;
    }
    kernels.push(...checked.kernels);
    order.push({ path, maps: [...checked.kernels] });
    if (kernel !== undefined && checked.kernels.length === 0) names.push(...parseProgram(path, text).kernels.map((k) => k.name.text));
  }
  if (kernel !== undefined && kernels.length === 0 && failed.length === 0) {
    throw new UsageError(`no kernel named '${kernel}'`, [`the kernels are: ${names.join(', ')}`]);
  }
  return { failed, kernels, order };
}

function signature(map: KernelMap): string {
  return `${map.name}(${map.params.join(', ')})`;
}

/** The launch from the options; a -p that no selected kernel has is a usage error. */
function launchOf(flags: LaunchFlags, kernels: readonly KernelMap[]): Launch {
  const params = paramsOf(flags.param, 'bounded');
  for (const name of params.keys()) {
    if (kernels.length > 0 && !kernels.some((k) => k.params.includes(name))) {
      const which = kernels.length === 1 ? `kernel ${kernels[0]!.name} has` : 'no kernel has';
      throw new UsageError(`-p ${name}: ${which} no parameter '${name}'`, [
        `parameters: ${kernels.map((k) => (k.params.length === 0 ? `${k.name} has none` : signature(k))).join('; ')}`,
      ]);
    }
  }
  return {
    params,
    blockDim: flags.blockDim === undefined ? null : dimOf(flags.blockDim, '--block-dim', 'bounded'),
    gridDim: flags.gridDim === undefined ? null : dimOf(flags.gridDim, '--grid-dim', 'bounded'),
  };
}

async function verifyCommand(args: readonly string[], flags: VerifyFlags, io: CliIO): Promise<number> {
  const timeoutMs = naturalOf(flags.timeout, '--timeout', 1);
  const maxRaces = naturalOf(flags.maxRaces, '--max-races', 1);
  const jobs = naturalOf(flags.jobs, '--jobs', 1);
  const solver = await solverChoiceOf(flags);
  const input = await loaded(args, flags.kernel);
  const launch = launchOf(flags, input.kernels);
  const job = { kernel: flags.kernel ?? null, launch, timeoutMs, maxRaces, solver, barriers: flags.barriers === true, replay: flags.replay === true };
  const toVerify = input.order.filter((entry) => entry.maps !== null);
  const outcomes = await verifiedFiles(toVerify.map((entry) => ({ ...job, path: entry.path })), jobs, progressOf(io));
  let next = 0;
  const files = input.order.map((entry) => (entry.maps === null ? input.failed.find((f) => f.path === entry.path)! : outcomes[next++]!.file));
  const replayFailures = outcomes.flatMap((o) => o.replayFailures);
  const launches = launchesOf(input.order, files, launch);
  if (flags.json) io.out(`${JSON.stringify(reportJson(files), null, 2)}\n`);
  else if (flags.sarif) io.out(`${JSON.stringify(sarifLog(files, { version: version(), launchOf: (r) => launches.get(r) ?? null }), null, 2)}\n`);
  else io.out(textReport(files, { colour: io.colour, launchOf: (r) => launches.get(r) ?? null }));
  // a confirmed alarm the interpreter does not reproduce is a verifier bug, not a verdict
  if (replayFailures.length > 0) {
    const c = colorsOf(io.colour);
    for (const f of replayFailures) io.err(`${c.bold(c.red('internal error'))}: ${f}\n`);
    io.err(`${c.bold(c.green('hint'))}: this is a bug in faial-ts; please report it with the input file\n`);
    return EXIT_BAD_INPUT;
  }
  return verifyExitCode(files);
}

/** The launch facts that concern each kernel result, as the text report names them. */
function launchesOf(order: Loaded['order'], files: readonly FileResult[], launch: Launch): Map<KernelResult, Launch> {
  const launches = new Map<KernelResult, Launch>();
  order.forEach((entry, i) => {
    const file = files[i]!;
    if (!file.ok) return;
    for (const r of file.kernels) {
      const map = entry.maps?.find((m) => m.name === r.kernel);
      if (map !== undefined) launches.set(r, launchFor(map.params, launch));
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

/** The solver the flags name; a solver binary that cannot be started is a usage error, found before any work. */
async function solverChoiceOf(flags: Pick<VerifyFlags, 'solver' | 'solverCmd'>): Promise<SolverChoice> {
  if (flags.solverCmd !== undefined && commandWords(flags.solverCmd).length === 0) throw new UsageError('--solver-cmd: the command is empty');
  const choice: SolverChoice = flags.solverCmd !== undefined ? { kind: 'command', command: flags.solverCmd } : { kind: flags.solver ?? 'z3-wasm' };
  if (choice.kind === 'z3-wasm') return choice;
  const probe = await solverOf(choice)
    .check('(declare-const x Int)\n(assert (= x 1))', 10_000)
    .catch((e: unknown) => {
      if (e instanceof SolverUnavailable) throw new UsageError(e.message, [choice.kind === 'command' ? 'check the command of --solver-cmd' : `install it: apt-get install -y ${choice.kind}`]);
      throw e;
    });
  if (probe.status !== 'sat' || probe.model.get('x') !== 1n) {
    const said = probe.status === 'unknown' ? probe.reason : probe.status;
    throw new UsageError(`the solver ${solverOf(choice).name} does not answer SMT-LIB as expected (${said})`, ['it must read an SMT-LIB 2 script and answer check-sat and get-value']);
  }
  return choice;
}

async function inferCommand(file: string, flags: InferFlags, io: CliIO): Promise<number> {
  const input = await loaded([file], flags.kernel);
  for (const f of input.failed) if (!f.ok) io.err(renderedDiagnostics(f.diagnostics, io.colour));
  if (input.failed.length > 0) return EXIT_BAD_INPUT;
  const c = colorsOf(io.colour);
  const blocks: string[] = [];
  for (const map of input.kernels) {
    const typing =
      map.violations.length === 0
        ? [`${c.green('well-typed')}: yes — indices, conditions and loop bounds use only parameters, thread ids and loop variables`]
        : [`${c.yellow('well-typed')}: no — data-dependent values are used where the type system needs V:`, ...map.violations.map((v) => `  ${violationText(map.file, v)}`)];
    const parts = [`${c.bold(`kernel ${map.name}`)} (${map.file.path})`, ...typing, showMap(map)];
    if (flags.phases) parts.push(showPhases(map, await phasesOf(map, NO_LAUNCH, DEFAULT_TIMEOUT_MS)));
    blocks.push(parts.join('\n'));
  }
  io.out(`${blocks.join('\n\n')}\n`);
  return EXIT_DRF;
}

/** One query as a standalone SMT-LIB 2 script that asks for its model. */
export function queryScript(q: Query): string {
  return `; query ${q.id}\n${standaloneScript(printScript(q.declarations, q.assertions, q.encoding))}`;
}

async function smtCommand(file: string, flags: SmtFlags, io: CliIO): Promise<number> {
  const input = await loaded([file], flags.kernel);
  for (const f of input.failed) if (!f.ok) io.err(renderedDiagnostics(f.diagnostics, io.colour));
  if (input.failed.length > 0) return EXIT_BAD_INPUT;
  const launch = launchOf(flags, input.kernels);
  if (flags.out !== undefined) {
    const written = await writtenQueryFiles(input.kernels, launch, flags.out);
    for (const s of written.skipped) io.err(`warning: ${s}\n`);
    io.out(written.files.map((f) => `${f}\n`).join(''));
    return EXIT_DRF;
  }
  const scripts: string[] = [];
  for (const map of input.kernels) {
    const own = launchFor(map.params, launch);
    try {
      // the phase split's completion checks have no query id; `--out` writes them, this listing does not
      const queries = (await queryScripts(map, own, DEFAULT_TIMEOUT_MS, z3Wasm)).flatMap((s) => (s.query === null ? [] : [s.query]));
      if (queries.length === 0) scripts.push(`; kernel ${map.name}: no query (nothing can race or diverge)`);
      for (const q of queries) scripts.push(queryScript(q));
    } catch (e) {
      // An encoding limit stops this kernel's queries, not the other kernels'.
      if (!(e instanceof EncodingLimit)) throw e;
      scripts.push(`; kernel ${map.name}: queries not printed: ${e.message}`);
    }
  }
  // (reset) between scripts keeps the whole output runnable as one file too.
  io.out(`${scripts.join('\n(reset)\n')}\n`);
  return EXIT_DRF;
}

async function fixSubcommand(file: string, flags: FixFlags, io: CliIO): Promise<number> {
  const timeoutMs = naturalOf(flags.timeout, '--timeout', 1);
  const launch = launchOf(flags, (await loaded([file], flags.kernel)).kernels);
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

async function experimentSubcommand(inputs: readonly string[], flags: ExperimentFlags, io: CliIO): Promise<number> {
  const settings = {
    out: flags.out,
    timeoutMs: naturalOf(flags.timeout, '--timeout', 1),
    maxRaces: naturalOf(flags.maxRaces, '--max-races', 1),
    jobs: naturalOf(flags.jobs, '--jobs', 1),
    solver: await solverChoiceOf(flags),
    version: version(),
  };
  return experimentCommand(inputs, settings, io, progressOf(io));
}

async function runSubcommand(args: readonly string[], flags: RunFlags, io: CliIO): Promise<number> {
  const params = paramsOf(flags.param);
  return runCommand(
    [...(await inputFiles(args))],
    {
      ...(flags.kernel === undefined ? {} : { kernel: flags.kernel }),
      params: Object.fromEntries(params),
      ...(flags.blockDim === undefined ? {} : { blockDim: dimOf(flags.blockDim, '--block-dim') }),
      ...(flags.gridDim === undefined ? {} : { gridDim: dimOf(flags.gridDim, '--grid-dim') }),
      init: flags.init,
      json: flags.json === true,
      ...(flags.seed === undefined ? {} : { seed: naturalOf(flags.seed, '--seed') }),
    },
    io,
  );
}

function withLaunchOptions(cmd: Command): Command {
  return cmd
    .option('--kernel <NAME>', 'only the kernel NAME')
    .option('-p, --param <NAME=VALUE>', 'fix a parameter (repeatable)', collect, [])
    .option('--block-dim <D>', 'fix blockDim: N, X,Y,Z or [X,Y,Z]')
    .option('--grid-dim <D>', 'fix gridDim: N, X,Y,Z or [X,Y,Z]');
}

/** The options of commands that verify many files: solver, timeout, races per kernel, worker processes. */
function withSolvingOptions(cmd: Command): Command {
  return cmd
    .option('--timeout <MS>', 'solver timeout per query, in milliseconds', String(DEFAULT_TIMEOUT_MS))
    .option('--max-races <N>', 'stop after N races per kernel', String(DEFAULT_MAX_RACES))
    .option('--jobs <N>', 'verify N files at a time, each in a worker process', '1')
    .addOption(new Option('--solver <NAME>', 'the SMT solver: z3-wasm (built in), or the z3 or cvc5 binary').choices(SOLVER_NAMES))
    .addOption(new Option('--solver-cmd <COMMAND>', 'any SMT-LIB 2 solver: the script on stdin, or in a file where an argument is {file}').conflicts('solver'));
}

function program(io: CliIO, setExit: (code: number) => void): Command {
  const root = new Command('faial-ts')
    .description('Static data-race verification for GPU kernels written in BabyCUDA (.bcu)')
    .version(version(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError('(run with --help for usage)');

  withSolvingOptions(
    withLaunchOptions(
      root
        .command('verify')
        .description('prove kernels data-race free, or report races and barrier divergences with witnesses')
        .argument('<FILE...>', '.bcu files or directories (every .bcu below, sorted)'),
    ),
  )
    .addOption(new Option('--json', 'print a JSON report instead of text').conflicts('sarif'))
    .option('--sarif', 'print a SARIF 2.1.0 log instead of text (for code-scanning services)')
    .option('--barriers', 'also prove, for each barrier of a DRF kernel, whether removing it keeps the kernel DRF (redundant barriers are warnings)')
    .option('--replay', 'run the witness of every confirmed alarm with the interpreter (made small first if needed) and mark it replayed')
    .addHelpText('after', '\nExit codes: 0 every kernel DRF, 1 a race or divergence, 2 bad input or usage, 3 no alarm but something not proved.')
    .action(async (files: string[], flags: VerifyFlags) => setExit(await verifyCommand(files, flags, io)));

  root
    .command('infer')
    .description('print the typing verdict and the memory access protocol (MAP) of each kernel')
    .argument('<FILE>', '.bcu file')
    .option('--kernel <NAME>', 'only the kernel NAME')
    .option('--phases', 'also print the barrier phases')
    .action(async (file: string, flags: InferFlags) => setExit(await inferCommand(file, flags, io)));

  withLaunchOptions(
    root
      .command('smt')
      .description('print every solver query as a standalone SMT-LIB 2 script')
      .argument('<FILE>', '.bcu file'),
  )
    .option('--out <DIR>', 'write one .smt2 file per query into DIR (also the loop checks of the phase split) and list them')
    .action(async (file: string, flags: SmtFlags) => setExit(await smtCommand(file, flags, io)));

  withLaunchOptions(
    root
      .command('fix')
      .description('repair a racy or divergent kernel with the fewest barriers and remove redundant ones, proved by the verifier; print the change as a unified diff')
      .argument('<FILE>', '.bcu file'),
  )
    .option('-o, --output <OUT>', 'write the repaired file to OUT')
    .option('--keep-barriers', 'do not remove redundant barriers')
    .option('--timeout <MS>', 'solver timeout per query, in milliseconds', String(DEFAULT_TIMEOUT_MS))
    .addHelpText('after', '\nExit codes (for the kernels as repaired): 0 every kernel DRF, 1 a race or divergence left, 2 bad input or usage, 3 something not proved.')
    .action(async (file: string, flags: FixFlags) => setExit(await fixSubcommand(file, flags, io)));

  withLaunchOptions(
    root
      .command('run')
      .description('run kernels on one concrete launch with the reference interpreter and report what happened')
      .argument('<FILE...>', '.bcu files or directories'),
  )
    .addOption(new Option('--init <A=1,2,3|A=random:SEED>', 'initial contents of an array (repeatable)').default([]).argParser(collect))
    .option('--json', 'print a JSON report instead of text')
    .option('--seed <S>', 'seed of random contents; arrays without --init get random contents too')
    .action(async (files: string[], flags: RunFlags) => setExit(await runSubcommand(files, flags, io)));

  withSolvingOptions(
    root
      .command('experiment')
      .description('verify every kernel and write a table of results (class, verdict, alarms, time per stage) and a summary')
      .argument('<PATH...>', '.bcu files or directories (every .bcu below, sorted)')
      .requiredOption('--out <DIR>', 'write results.csv, results.json and summary.md into DIR'),
  )
    .addHelpText('after', '\nExit code 0 once the files are written (verdicts are results, not failures), 2 for bad usage.')
    .action(async (inputs: string[], flags: ExperimentFlags) => setExit(await experimentSubcommand(inputs, flags, io)));

  root
    .command('gen')
    .description('print a kernel of a synthetic family of the scalability benchmark (DRF by construction, or with one race)')
    .argument('[FAMILY]', FAMILIES.join(', '))
    .option('--size <N>', 'number of accesses, barriers, conditionals or nested loops (at least 1)')
    .option('--racy', 'the variant with exactly one racing pair of accesses')
    .option('-o, --output <FILE>', 'write the kernel to FILE')
    .option('--list', 'list the families')
    .action(async (family: string | undefined, flags: GenFlags) => setExit(await genCommand(family, flags, io)));

  return root;
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  let exit = EXIT_DRF;
  try {
    const root = program(io, (code) => void (exit = code));
    if (argv.length === 0) {
      io.out(root.helpInformation());
      return EXIT_BAD_INPUT;
    }
    await root.parseAsync([...argv], { from: 'user' });
    return exit;
  } catch (e) {
    return failureExitCode(e, io);
  }
}

function failureExitCode(e: unknown, io: CliIO): number {
  const c = colorsOf(io.colour);
  if (e instanceof CommanderError) {
    // commander has already printed its message (or the help / version)
    return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help' ? EXIT_DRF : EXIT_BAD_INPUT;
  }
  if (e instanceof UsageError) {
    io.err(`${c.bold(c.red('error'))}: ${e.message}\n`);
    for (const h of e.hints) io.err(`${c.bold(c.green('hint'))}: ${h}\n`);
    return EXIT_BAD_INPUT;
  }
  const message = e instanceof Error ? e.message : String(e);
  io.err(`${c.bold(c.red('internal error'))}: ${message.replace(/^internal error: /, '')}\n`);
  io.err(`${c.bold(c.green('hint'))}: this is a bug in faial-ts; please report it with the input file (set FAIAL_DEBUG=1 for the stack trace)\n`);
  if (io.env['FAIAL_DEBUG'] && e instanceof Error && e.stack) io.err(`${e.stack}\n`);
  return EXIT_BAD_INPUT;
}

/** For tests: the CLI with captured output and no colour. */
export async function cliResult(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const exitCode = await runCli(argv, {
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
    colour: false,
    env,
  });
  return { exitCode, stdout, stderr };
}

/** `run` is runCli; a test passes a stand-in to see how the process ends when a run never does. */
export function main(argv: string[], run: (argv: string[], io: CliIO) => Promise<number> = runCli): void {
  const io: CliIO = {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    colour: colourWanted(process.stdout),
    env: process.env,
    progress: process.stderr.isTTY === true,
  };
  // Z3's WebAssembly threads report a crash of theirs (seen: an out-of-bounds
  // access deep in Z3 during a long fuzz campaign) as an uncaught exception,
  // outside every promise of ours; the checks waiting on Z3 would never end,
  // so the process ends here, with an internal error and exit code 2.
  process.on('uncaughtException', (e) => {
    process.exit(failureExitCode(new Error(`the solver crashed: ${e.message}`), io));
  });
  // A Z3 thread can also end without a word (seen in fuzz campaigns): the
  // check waiting on it never settles, the event loop empties, and Node would
  // exit with code 0, which a CI job reads as "race free".
  let settled = false;
  process.on('beforeExit', () => {
    if (settled) return;
    settled = true;
    process.exitCode = failureExitCode(new Error('the solver stopped answering: a check ended without a result'), io);
  });
  run(argv, io).then(
    (code) => {
      settled = true;
      process.exitCode = code;
    },
    (e: unknown) => {
      settled = true;
      process.exitCode = failureExitCode(e, io);
    },
  );
}
