/**
 * The `faial-ts` command line: verify, infer, lower, smt, fix, run, experiment, gen.
 *
 * Every command goes through runCli, which writes through an IO object and
 * returns the exit code, so tests run the real CLI in-process; `main` binds
 * it to the process. Nothing here calls process.exit: pending output (and Z3's
 * worker threads) must be allowed to finish.
 *
 * This module is what every run loads, so it holds only the options and the
 * help: the commands' code (commands.ts: parser, verifier, reports) is loaded
 * when a command runs, and `--version`, `--help` and usage errors never load
 * it (nor Z3, which only a check loads).
 */
import { Command, CommanderError, Option } from 'commander';
import { colourWanted, colorsOf } from '../diagnostics/colour.js';
import { DEFAULT_MEMBERS, DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, MEMBER_NAMES, SOLVER_NAMES } from '../solve/solver.js';
import { FAMILIES } from '../gen/families.js';
import type { GenFlags } from './gen.js';
import type { ExperimentFlags, FixFlags, InferFlags, LowerFlags, RunFlags, SmtFlags, VerifyFlags } from './commands.js';
import { EXIT_BAD_INPUT, EXIT_CODES_TEXT, EXIT_DRF } from './exit.js';
import { UsageError, collect } from './options.js';
import { version } from './version.js';
import { lazyWasmValidation } from './wasm-flags.js';

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

const commands = (): Promise<typeof import('./commands.js')> => import('./commands.js');

function withLaunchOptions(cmd: Command): Command {
  return withCudaOptions(
    withWarpOptions(
      cmd
        .option('--kernel <NAME>', 'only the kernel NAME')
        .option('-p, --param <NAME=VALUE>', 'fix a parameter (repeatable)', collect, [])
        .option('--block-dim <D>', 'fix blockDim: N, X,Y,Z or [X,Y,Z]')
        .option('--grid-dim <D>', 'fix gridDim: N, X,Y,Z or [X,Y,Z]')
        .option('--blockDim <D>', "GPUVerify's spelling of --block-dim (--blockDim=[16,16])")
        .option('--gridDim <D>', "GPUVerify's spelling of --grid-dim"),
    ),
  );
}

/** Lockstep warps, and GPUVerify's spelling of the option. */
function withWarpOptions(cmd: Command): Command {
  return cmd
    .option('--warp-size <N>', 'with --arch before sm_70: the threads of each warp of N run in lockstep (pre-Volta warp-synchronous code); default: independent threads')
    .option('--warp-sync <N>', "GPUVerify's spelling of --warp-size (--warp-sync=32)")
    .option('--arch <SM>', 'the GPU architecture (sm_60, sm_70, …; default sm_90): warps run in lockstep only before sm_70');
}

/** The C preprocessor's options for .cu files. */
function withCudaOptions(cmd: Command): Command {
  return cmd
    .option('-D, --define <NAME[=VALUE]>', 'define a macro for .cu files (repeatable): -DTILE=16', collect, [])
    .option('-U, --undefine <NAME>', 'undefine a macro for .cu files (repeatable)', collect, [])
    .option('-I, --include <DIR>', 'search DIR for #include "…" of .cu files (repeatable)', collect, [])
    .option('--compile-commands <FILE>', "read each .cu file's -I, -D, -U and -include from this compile_commands.json (before the command line's)")
    .option('--any-launch', "verify .cu kernels at every launch size, not at those the file's host code launches them with (k<<<grid, block>>>)")
    .option('--include-anywhere', 'let #include read outside the input\'s directory and the -I directories (only for code you trust)');
}

/** The options of commands that verify many files: solver, budget, races per kernel, worker processes. */
function withSolvingOptions(cmd: Command): Command {
  return cmd
    .option('--rlimit <N>', 'budget per query, in solver resource units (the same on every machine)', String(DEFAULT_RLIMIT))
    .option('--timeout <MS>', 'wall-clock safety net per query, in milliseconds', String(DEFAULT_TIMEOUT_MS))
    .option('--max-races <N>', 'stop after N races per kernel (benign races alone never stop the search)', String(DEFAULT_MAX_RACES))
    .option('--jobs <N>', 'verify N files at a time, each in a worker process', '1')
    .addOption(new Option('--solver <NAME>', 'the SMT solver: portfolio (several solvers racing: see --portfolio), z3-wasm (built in, alone), or the z3 or cvc5 binary').choices(SOLVER_NAMES))
    .option('--portfolio <MEMBERS>', `the members of the portfolio, in order, comma-separated: ${MEMBER_NAMES.join(', ')} (default: ${DEFAULT_MEMBERS.join(',')}, the binaries when installed)`)
    .addOption(new Option('--solver-cmd <COMMAND>', 'any SMT-LIB 2 solver: the script on stdin, or in a file where an argument is {file}; bounded by --timeout only').conflicts('solver'));
}

function program(io: CliIO, setExit: (code: number) => void): Command {
  const root = new Command('faial-ts')
    .description('Static data-race verification for GPU kernels written in CUDA C (.cu) or BabyCUDA (.bcu)')
    .version(version(), '-V, --version')
    .exitOverride()
    // options after a command are that command's (so `experiment merge … --out` is merge's own)
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError('(run with --help for usage)');

  withSolvingOptions(
    withLaunchOptions(
      root
        .command('verify')
        .description('prove kernels data-race free, or report races and barrier divergences with witnesses')
        .argument('[FILE...]', '.bcu and .cu files or directories (every .bcu and .cu below, sorted); with --compile-commands and none, every .cu file of the database'),
    ),
  )
    .addOption(new Option('--json', 'print a JSON report instead of text').conflicts('sarif'))
    .option('--sarif', 'print a SARIF 2.1.0 log instead of text (for code-scanning services)')
    .option('--sarif-help-url <URL>', "with --sarif: the absolute URL of faial-ts's docs/ folder, for each rule's helpUri (docs/rules.md)")
    .option('--barriers', 'also prove, for each barrier of a DRF kernel, whether removing it keeps the kernel DRF (redundant barriers are warnings)')
    .option('--strict-races', 'report benign races (two writes of the same value) as errors, like any other race')
    .option('--replay', 'run the witness of every confirmed alarm with the interpreter (made small first if needed) and mark it replayed')
    .addHelpText('after', `\n${EXIT_CODES_TEXT}`)
    .action(async (files: string[], flags: VerifyFlags) => setExit(await (await commands()).verifyCommand(files, flags, io)));

  withCudaOptions(
    root
      .command('infer')
      .description('print the typing verdict and the memory access protocol (MAP) of each kernel')
      .argument('<FILE>', '.bcu or .cu file')
      .option('--kernel <NAME>', 'only the kernel NAME')
      .option('--phases', 'also print the barrier phases'),
  )
    .addHelpText('after', '\nExit codes: 0 printed, 2 bad input or usage.')
    .action(async (file: string, flags: InferFlags) => setExit(await (await commands()).inferCommand(file, flags, io)));

  withCudaOptions(
    root
      .command('lower')
      .description('print the core program each kernel was lowered to, each statement with its source line (what is verified)')
      .argument('<FILE>', '.cu or .bcu file')
      .option('--kernel <NAME>', 'only the kernel NAME')
      .option('--sexp', "print each kernel as the s-expression the Coq model's extracted semantics reads (proofs/oracle); a kernel outside the model's fragment is refused"),
  )
    .addHelpText('after', "\nExit codes: 0 every kernel lowered, 2 bad input or a kernel not analysed (an unsupported construct) or, with --sexp, outside the Coq model's fragment.")
    .action(async (file: string, flags: LowerFlags) => setExit(await (await commands()).lowerCommand(file, flags, io)));

  withLaunchOptions(
    root
      .command('smt')
      .description('print every solver query as a standalone SMT-LIB 2 script')
      .argument('<FILE>', '.bcu or .cu file'),
  )
    .option('--out <DIR>', 'write one .smt2 file per query into DIR (also the loop checks of the phase split) and list them')
    .addHelpText('after', '\nExit codes: 0 printed or written, 2 bad input or usage.')
    .action(async (file: string, flags: SmtFlags) => setExit(await (await commands()).smtCommand(file, flags, io)));

  withLaunchOptions(
    root
      .command('fix')
      .description('repair a racy or divergent kernel with the fewest barriers and remove redundant ones, proved by the verifier; print the change as a unified diff')
      .argument('<FILE>', '.bcu file'),
  )
    .option('-o, --output <OUT>', 'write the repaired file to OUT')
    .option('--keep-barriers', 'do not remove redundant barriers')
    .option('--timeout <MS>', 'wall-clock safety net per query, in milliseconds', String(DEFAULT_TIMEOUT_MS))
    .addHelpText('after', `\n${EXIT_CODES_TEXT.replace('Exit codes:', 'Exit codes (for the kernels as repaired):')}`)
    .action(async (file: string, flags: FixFlags) => setExit(await (await commands()).fixSubcommand(file, flags, io)));

  withLaunchOptions(
    root
      .command('run')
      .description('run kernels on one concrete launch with the reference interpreter and report what happened')
      .argument('<FILE...>', '.bcu and .cu files or directories'),
  )
    .addOption(new Option('--init <A=1,2,3|A=random:SEED>', 'initial contents of an array (repeatable)').default([]).argParser(collect))
    .option('--json', 'print a JSON report instead of text')
    .option('--seed <S>', 'seed of random contents and of the unknown values of havoc; arrays without --init get random contents too')
    .addHelpText('after', '\nExit codes: 0 no race or divergence in the run (also a launch outside the scope: an assumption failed or an undefined operation, where there is no execution to check), 1 a race or barrier divergence, 2 bad input or usage (also a launch its requires exclude) or a run past the interpreter\'s limits (steps, accesses, threads).')
    .action(async (files: string[], flags: RunFlags) => setExit(await (await commands()).runSubcommand(files, flags, io)));

  const experiment = withSolvingOptions(
    withWarpOptions(
      withCudaOptions(
        root
          .command('experiment')
          .description('verify every kernel and write a table of results (class, verdict, alarms, time per stage) and a summary')
          .argument('[PATH...]', '.bcu and .cu files or directories (every .bcu and .cu below, sorted); with --compile-commands and none, every .cu file of the database')
          // required, but checked by the command: commander would ask `experiment merge` for it too
          .option('--out <DIR>', 'write results.csv, results.json, summary.md and report.html into DIR (required)'),
      ),
    ),
  )
    .option('--shard <K/N>', 'verify only the K-th of N slices of the files (files K, K+N, K+2N, … in input order); join the shards with `experiment merge`')
    .enablePositionalOptions()
    .addHelpText('after', '\nExit code 0 once the files are written (verdicts are results, not failures), 2 for bad usage.')
    .action(async (inputs: string[], flags: ExperimentFlags) => setExit(await (await commands()).experimentSubcommand(inputs, flags, io)));

  experiment
    .command('merge')
    .description('join the results of the runs `experiment --shard 1/N` … `--shard N/N` into those of one run over all the files')
    .argument('<DIR...>', 'the --out directories of the shards, in any order')
    .requiredOption('--out <DIR>', 'write results.csv, results.json, summary.md and report.html into DIR')
    .addHelpText('after', '\nExit codes: 0 the merged files written, 2 bad usage or shards that do not belong together.')
    .action(async (dirs: string[], flags: { out: string }) => setExit(await (await commands()).experimentMergeSubcommand(dirs, flags, io)));

  root
    .command('lsp')
    .description('a language server over stdio: verifies .cu, .cuh and .bcu documents as they are edited (diagnostics, hover, repairs)')
    .option('--stdio', 'talk over stdin and stdout (the only transport; accepted because clients pass it)')
    .action(async () => setExit(await (await import('./lsp/server.js')).lspCommand()));

  root
    .command('gen')
    .description('print a kernel of a synthetic family of the scalability benchmark (DRF by construction, or with one race)')
    .argument('[FAMILY]', FAMILIES.join(', '))
    .option('--size <N>', 'number of accesses, barriers, conditionals or loops (at least 1)')
    .option('--racy', 'the variant with exactly one racing pair of accesses')
    .option('-o, --output <FILE>', 'write the kernel to FILE')
    .option('--list', 'list the families')
    .addHelpText('after', '\nExit codes: 0 printed or written, 2 bad usage.')
    .action(async (family: string | undefined, flags: GenFlags) => setExit(await (await import('./gen.js')).genCommand(family, flags, io)));

  return root;
}

/** The command definitions alone (nothing runs): what docs/cli.md is generated from (scripts/docs/cli.ts). */
export function cliDefinition(): Command {
  return program({ out: () => undefined, err: () => undefined, colour: false, env: {} }, () => undefined);
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
  lazyWasmValidation();
  // A reader that stops early (`faial-ts verify … | head`) closes the pipe:
  // the rest of the output has nowhere to go, but the run still ends with its
  // own exit code, which a CI job reads from the pipeline's status.
  // A report that cannot be written (a full disk, /dev/full) is lost: that is
  // said on stderr and the run ends with exit code 2, not as a crash.
  let unwritten = false;
  const writerTo = (stream: NodeJS.WriteStream, name: string): ((t: string) => void) => {
    let closed = false;
    stream.on('error', (e: NodeJS.ErrnoException) => {
      closed = true;
      if (e.code === 'EPIPE') return;
      if (!unwritten && stream !== process.stderr) process.stderr.write(`error: could not write the report to ${name}: ${e.message}\n`);
      unwritten = true;
      process.exitCode = EXIT_BAD_INPUT;
    });
    return (t) => void (closed || stream.write(t));
  };
  const io: CliIO = {
    out: writerTo(process.stdout, 'stdout'),
    err: writerTo(process.stderr, 'stderr'),
    colour: colourWanted(process.stdout, process.env),
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
      process.exitCode = unwritten ? EXIT_BAD_INPUT : code;
    },
    (e: unknown) => {
      settled = true;
      process.exitCode = failureExitCode(e, io);
    },
  );
}
