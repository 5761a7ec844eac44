/**
 * Long differential campaigns:
 *   npm run fuzz -- --runs N --seed S [--only P1,P2,P3,P4,P6] [--together] [--timeout MS]
 *                   [--warps some|every|none] [--syncwarp] [--cuda] [--chunk K [--jobs J] [--chunk-timeout SEC]]
 *
 * P6 (test/properties/oracle.ts) checks the semantics extracted from the Coq
 * mechanisation (`make -C proofs oracle`, built on first use; it needs coqc,
 * ocamlfind and Zarith) against the interpreter and the verifier, on kernels
 * of the model's fragment (no syncwarp, independent threads:
 * with --together, kernels outside it are counted and skipped by P6). It
 * runs only when named: the properties by default are P1–P4.
 *
 * By default each property gets its own N generated kernels, made with that
 * property's generator settings. With --together one stream of N kernels is
 * generated (values read flow into indices and conditions, assumptions
 * anywhere, non-uniform barriers) and every selected property is checked on
 * each kernel, sharing the interpreter's enumeration between P2 and P4: the
 * same number of kernels for a third of the time.
 *
 * With `--warps some` (the default) about half the kernels are checked with a
 * warp size (1, 2, 3, 4 or 32: generator.ts's warpSizeArbitrary), the
 * interpreter running those warps in lockstep and the verifier given
 * `--warp-size`; `--warps every` gives every kernel one, and `--warps none`
 * checks independent threads only, on the kernels campaigns made before
 * lockstep warps existed. The figures count the kernels of each size.
 * `--syncwarp` puts `syncwarp` among the generated statements (absent: the
 * kernels of a seed are those campaigns made before it existed).
 *
 * With `--cuda` each kernel is printed as CUDA C (test/properties/cuda-print.ts)
 * and the verifier is given what the CUDA front end lowers from that text
 * (preprocess, parse, lower), the interpreter running the generated kernel
 * as the reference (test/properties/cuda-path.ts); the kernels have no
 * atomics, whose printing is not exact yet (roundtrip.test.ts). P1 alone
 * prints constants the front end cannot fold; the properties that ask the
 * solver let it fold them.
 *
 * Prints, per property, the kernels checked, what the checks saw (launches
 * compared, verdicts, alarms replayed) and the time, or the first
 * counterexample, shrunk, as source. Exit code 1 on a counterexample.
 *
 * With --chunk the N kernels are checked by child processes of K kernels
 * each, chunk i with seed S+i, J at a time, and their figures are added up.
 * Z3's WebAssembly build can crash or stop answering after many thousands of
 * queries in one process (a run whose solver stops answering ends with exit
 * code 3, since its later checks would all be unknown); a chunk that breaks
 * so is run once more (the failure is timing dependent), and a chunk that
 * breaks twice is reported as not checked, with exit code 2, never counted
 * as passed.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { z3Wasm } from '../src/solve/z3.js';
import { cudaGrammar } from '../src/cli/cuda.js';
import type { CudaSetup } from '../src/frontend/cuda/lower.js';
import { loadCuda } from '../test/properties/cuda-path.js';
import { kernelArbitrary, type GenConfig, type Generated, type Warps } from '../test/properties/generator.js';
import { ORACLE_BINARY, builtOracle, checkOracle, oracleCounts, type OracleCounts } from '../test/properties/oracle.js';
import {
  SOLVER_TIMEOUT_MS,
  checkCompleteness,
  checkOutOfScope,
  checkReplay,
  checkSoundness,
  checkTheorem1,
  interestingLaunches,
  load,
  type Loaded,
  type Subject,
  type Theorem1Counts,
} from '../test/properties/harness.js';

type Property = 'P1' | 'P2' | 'P3' | 'P4' | 'P6';
const PROPERTIES: readonly Property[] = ['P1', 'P2', 'P3', 'P4', 'P6'];
/** What runs without --only: P6 needs Coq and OCaml, so it runs when named. */
const DEFAULT_PROPERTIES: readonly Property[] = ['P1', 'P2', 'P3', 'P4'];

interface Args {
  readonly runs: number;
  readonly seed: number;
  readonly only: ReadonlySet<Property>;
  readonly together: boolean;
  /** which kernels get a warp size (and the shapes lockstep decides); null: none */
  readonly warps: Warps | null;
  /** `syncwarp` among the generated statements */
  readonly syncwarp: boolean;
  /** each kernel printed as CUDA C and verified through the CUDA front end */
  readonly cuda: boolean;
  readonly timeoutMs: number;
  readonly chunk: number | null;
  readonly jobs: number;
  readonly chunkTimeoutSec: number | null;
  /** Set on a chunk's child process: print the results as one JSON line. */
  readonly json: boolean;
}

const USAGE = 'use --runs N --seed S --only P1,P2,P3,P4,P6 --together --timeout MS --warps some|every|none --syncwarp --cuda --chunk K --jobs J --chunk-timeout SEC';

/** A command line the script cannot run: said in one line, with the usage, and exit 2. */
class UsageError extends Error {}

/** The options that take a number, by flag; null where an absent option means "none". */
type Numbers = Record<'--runs' | '--seed' | '--timeout' | '--chunk' | '--jobs' | '--chunk-timeout', number | null>;

function argsOf(argv: readonly string[]): Args {
  const numbers: Numbers = {
    '--runs': 1000,
    '--seed': Date.now() % 2 ** 31,
    '--timeout': SOLVER_TIMEOUT_MS,
    '--chunk': null,
    '--jobs': 1,
    '--chunk-timeout': null,
  };
  let only = new Set<Property>(DEFAULT_PROPERTIES);
  let together = false;
  let warps: Warps | null = 'some';
  let syncwarp = false;
  let cuda = false;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag in numbers) {
      numbers[flag as keyof Numbers] = Number(argv[++i] ?? '');
    } else if (flag === '--only') {
      const names = (argv[++i] ?? '').split(',');
      const unknown = names.filter((n) => !(PROPERTIES as readonly string[]).includes(n));
      if (unknown.length > 0) throw new UsageError(`unknown property ${unknown.join(', ')} (${USAGE})`);
      only = new Set(names as Property[]);
    } else if (flag === '--together') {
      together = true;
    } else if (flag === '--warps') {
      const which = argv[++i] ?? '';
      if (which !== 'some' && which !== 'every' && which !== 'none') throw new UsageError(`--warps takes some, every or none, not '${which}' (${USAGE})`);
      warps = which === 'none' ? null : which;
    } else if (flag === '--syncwarp') {
      syncwarp = true;
    } else if (flag === '--cuda') {
      cuda = true;
    } else if (flag === '--json') {
      json = true;
    } else {
      throw new UsageError(`unknown argument ${flag} (${USAGE})`);
    }
  }
  const { '--seed': seed, ...positive } = numbers;
  if (!Number.isInteger(seed) || !Object.values(positive).every((n) => n === null || (Number.isInteger(n) && n >= 1))) {
    throw new UsageError(`--seed takes an integer; --runs, --timeout, --chunk, --jobs and --chunk-timeout positive integers (${USAGE})`);
  }
  return {
    runs: numbers['--runs']!,
    seed: seed!,
    only,
    together,
    warps,
    syncwarp,
    cuda,
    timeoutMs: numbers['--timeout']!,
    chunk: numbers['--chunk'],
    jobs: numbers['--jobs']!,
    chunkTimeoutSec: numbers['--chunk-timeout'],
    json,
  };
}

/**
 * The generator settings of each property: assumptions anywhere (one meaning
 * for the verifier, the interpreter and replay), and a warp size drawn for
 * some or all of the kernels, as `--warps` says (lockstep, one meaning too).
 */
const CONFIGS: Record<Property, GenConfig> = {
  P1: { dataFlow: true, assumes: 'any', nonUniformSync: true },
  P2: { dataFlow: true, assumes: 'any', nonUniformSync: true },
  P3: { dataFlow: true, assumes: 'any', nonUniformSync: true },
  P4: { dataFlow: false, assumes: 'any', nonUniformSync: true },
  // the Coq model's fragment: no syncwarp, nor warps (see outcomesOf)
  P6: { dataFlow: true, assumes: 'any', nonUniformSync: true },
};
const TOGETHER: GenConfig = { dataFlow: true, assumes: 'any', nonUniformSync: true };

/** What the checks saw, so that a campaign's figures say how much was actually compared. */
type Tally = Map<string, number>;

function count(t: Tally, key: string, by = 1): void {
  t.set(key, (t.get(key) ?? 0) + by);
}

/**
 * The selected properties on one kernel. P2 and P4 share the interpreter's
 * enumeration: the first launch with a race or divergence (P2, P4) and the
 * first without (P4).
 */
async function checkKernel(g: Generated, selected: ReadonlySet<Property>, timeoutMs: number, cuda: CudaSetup | null, oracle: string | null, tally: Tally): Promise<void> {
  const timed = async <T>(key: string, f: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await f();
    } finally {
      count(tally, `time ${key} (s)`, (performance.now() - started) / 1000);
    }
  };
  // on the CUDA path a failure shows the core kernel, its CUDA C text and the lowering
  const { loaded, subject }: { loaded: Loaded; subject: Subject } =
    cuda === null ? { loaded: load(g), subject: g } : loadCuda(cuda, load(g), g.source, selected.size === 1 && selected.has('P1'));
  count(tally, 'kernels');
  count(tally, loaded.warpSize === null ? 'independent threads' : `warp size ${loaded.warpSize}`);
  if (loaded.map.violations.length === 0) count(tally, 'well-typed');
  if (selected.has('P1')) {
    const p1: Theorem1Counts = { compared: 0, approximated: 0 };
    await timed('P1', () => checkTheorem1(subject, loaded, p1));
    count(tally, 'P1 launches compared', p1.compared);
    if (cuda !== null) count(tally, 'P1 launches not compared (a value of an approximation)', p1.approximated);
  }
  if (selected.has('P2') || selected.has('P4')) {
    const { bad, good, outOfScope } = await timed('enumeration', () => interestingLaunches(loaded));
    if (bad !== null) count(tally, 'interpreter alarm at some launch');
    if (outOfScope !== null) count(tally, 'interpreter launch out of scope');
    if (selected.has('P2') && bad !== null) count(tally, `P2 verify at the alarm's launch: ${await timed('P2', () => checkSoundness(subject, loaded, bad, timeoutMs))}`);
    if (selected.has('P4') && loaded.map.violations.length === 0) {
      for (const at of [bad, good]) if (at !== null) count(tally, 'P4 confirmed alarms compared', await timed('P4', () => checkCompleteness(subject, loaded, at, timeoutMs)));
      if (outOfScope !== null) count(tally, `P4 verify at a launch out of scope: ${await timed('P4', () => checkOutOfScope(subject, loaded, outOfScope, timeoutMs))}`);
    }
  }
  if (selected.has('P3')) count(tally, 'P3 confirmed alarms replayed', await timed('P3', () => checkReplay(subject, loaded, timeoutMs)));
  if (selected.has('P6') && oracle !== null) {
    // the model has independent threads: the kernel is checked without its warp size
    const counts = oracleCounts();
    await timed('P6', () => checkOracle(subject, { ...loaded, warpSize: null }, oracle, counts, true));
    tallyOracle(tally, counts);
  }
  const stuck = z3Wasm.stuck();
  if (stuck !== null) {
    // every later check would be unknown, so every later kernel checked vacuously: the run ends as a broken one (run again with --chunk)
    console.error(`${stuck}; stopping after ${tally.get('kernels')} kernels`);
    process.exit(3);
  }
  if (tally.get('kernels')! % 500 === 0) console.error(`  … ${tally.get('kernels')} kernels`);
}

/** P6's figures of one kernel, added to the campaign's. */
function tallyOracle(tally: Tally, c: OracleCounts): void {
  if (c.outside > 0) count(tally, 'P6 kernels outside the Coq model (not compared)', c.outside);
  if (c.kernels > 0) count(tally, 'P6 kernels compared', c.kernels);
  if (c.wellTyped > 0) count(tally, 'P6 kernels well-typed (extracted infer and inferMap agree)', c.wellTyped);
  if (c.atomics > 0) count(tally, 'P6 kernels with atomics (compared without values)', c.atomics);
  if (c.atomicsIllTyped > 0) count(tally, 'P6 kernels with atomics, ill-typed (not compared)', c.atomicsIllTyped);
  if (c.grids > 0) count(tally, 'P6 launches of two blocks compared', c.grids);
  for (const [k, n] of Object.entries(c.launches)) count(tally, `P6 launches compared, run ${k}`, n);
  for (const [k, n] of Object.entries(c.notCompared)) count(tally, `P6 launches not compared: ${k}`, n);
  count(tally, 'P6 launches with the extracted MAP run compared', c.mapCompared);
  if (c.typedButForDefinedness > 0) count(tally, 'P6 kernels the model types, ill-typed for inferMap only by definedness', c.typedButForDefinedness);
  if (c.highIndex > 0) count(tally, 'P6 launches compared with an index of 2^31 or more', c.highIndex);
  for (const [k, n] of Object.entries(c.verified)) count(tally, `P6 ${k}`, n);
}

/** One campaign's outcome: a property's (or, with --together, the selected properties') kernels and what the checks saw. */
interface Outcome {
  readonly name: string;
  readonly kernels: number;
  readonly seconds: number;
  readonly tally: Record<string, number>;
  /** The shrunk counterexample, when a property failed. */
  readonly failure: string | null;
}

async function campaign(name: string, config: GenConfig, selected: ReadonlySet<Property>, runs: number, seed: number, timeoutMs: number, cuda: CudaSetup | null, oracle: string | null): Promise<Outcome> {
  const tally: Tally = new Map();
  const started = performance.now();
  const details = await fc.check(
    fc.asyncProperty(kernelArbitrary(config), (g) => checkKernel(g, selected, timeoutMs, cuda, oracle, tally)),
    { seed, numRuns: runs },
  );
  const seconds = (performance.now() - started) / 1000;
  if (details.failed) {
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    return { name, kernels: details.numRuns, seconds, tally: {}, failure: `seed ${seed}, path ${details.counterexamplePath ?? ''}\n${error}` };
  }
  // fast-check also counts the shrinking runs of a failure; on success every run is one kernel
  return { name, kernels: details.numRuns, seconds, tally: Object.fromEntries(tally), failure: null };
}

async function outcomesOf(args: Args, runs: number, seed: number): Promise<Outcome[]> {
  const config = (c: GenConfig): GenConfig => ({
    ...c,
    ...(args.warps === null ? {} : { warps: args.warps }),
    ...(args.syncwarp ? { syncwarp: true } : {}),
    ...(args.cuda ? { atomics: false } : {}),
  });
  const cuda: CudaSetup | null = args.cuda ? { grammar: await cudaGrammar(), defines: new Map(), undefines: [], includeDirs: [], readFile: () => null } : null;
  // main() built the oracle before any chunk started (chunks running make at once would race)
  const oracle = args.only.has('P6') ? ORACLE_BINARY : null;
  if (args.together) return Promise.all([campaign([...args.only].join('+'), config(TOGETHER), args.only, runs, seed, args.timeoutMs, cuda, oracle)]);
  const selected = PROPERTIES.filter((p) => args.only.has(p));
  return selected.reduce<Promise<Outcome[]>>(
    // P6's kernels are of the Coq model's fragment: independent threads, without syncwarp
    async (done, p) => [...(await done), await campaign(p, p === 'P6' ? CONFIGS.P6 : config(CONFIGS[p]), new Set([p]), runs, seed, args.timeoutMs, cuda, oracle)],
    Promise.resolve([]),
  );
}

/** Builds the oracle for P6 if needed; a machine without Coq or OCaml cannot run P6 (said as a usage error). */
function buildOracle(): void {
  const built = builtOracle();
  if ('missing' in built) throw new UsageError(`P6 needs the extracted oracle (make -C proofs oracle): ${built.missing}`);
}

function printOutcome(o: Outcome, seedNote: string): void {
  if (o.failure !== null) {
    console.log(`${o.name}: FAILED after ${o.kernels} kernels (${o.seconds.toFixed(1)} s), ${o.failure}`);
    return;
  }
  console.log(`${o.name}: ${o.kernels} kernels passed in ${o.seconds.toFixed(1)} s${seedNote}`);
  for (const [key, n] of Object.entries(o.tally).sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${key}: ${Number.isInteger(n) ? n : n.toFixed(1)}`);
}

/** The process groups of the chunks still running. */
const liveGroups = new Set<number>();

function killGroup(group: number | undefined): void {
  if (group === undefined) return;
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // The group has already gone.
  }
}

/** What became of one chunk's child process. */
type ChunkRun = { readonly kind: 'done'; readonly outcomes: Outcome[] } | { readonly kind: 'broken'; readonly why: string };

function runChunk(args: Args, runs: number, seed: number): Promise<ChunkRun> {
  const childArgs = ['--runs', String(runs), '--seed', String(seed), '--only', [...args.only].join(','), '--timeout', String(args.timeoutMs), '--json'];
  if (args.together) childArgs.push('--together');
  childArgs.push('--warps', args.warps ?? 'none');
  if (args.syncwarp) childArgs.push('--syncwarp');
  if (args.cuda) childArgs.push('--cuda');
  return new Promise((resolve) => {
    // Its own process group, so that a kill reaches the solver binaries its portfolio started too.
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...childArgs], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const group = child.pid;
    if (group !== undefined) liveGroups.add(group);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = args.chunkTimeoutSec === null ? null : setTimeout(() => killGroup(group), args.chunkTimeoutSec * 1000);
    child.on('close', (code, signal) => {
      if (timer !== null) clearTimeout(timer);
      if (group !== undefined) liveGroups.delete(group);
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if ((code === 0 || code === 1) && last.startsWith('[')) {
        resolve({ kind: 'done', outcomes: JSON.parse(last) as Outcome[] });
        return;
      }
      const how = signal === 'SIGKILL' && timer !== null ? `no answer within ${args.chunkTimeoutSec} s` : `exit ${code ?? signal}`;
      const said = errorLineOf(stderr);
      const kept = stderr.trim() === '' ? '' : `, its stderr in ${keptStderr(seed, stderr)}`;
      resolve({ kind: 'broken', why: `${how}${said === null ? '' : `: ${said}`}${kept}` });
    });
  });
}

/**
 * The line of a crashed process's stderr that says what went wrong: Node
 * prints an uncaught error's message after the source line, above the stack,
 * and ends with its own version, which says nothing.
 */
function errorLineOf(stderr: string): string | null {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.find((l) => /^[A-Za-z.]*(Error|Exception)\b/.test(l)) ?? lines.filter((l) => !/^Node\.js v/.test(l)).at(-1) ?? null;
}

/** A broken chunk's whole stderr, kept for the post-mortem: the file's path. */
function keptStderr(seed: number, stderr: string): string {
  const path = join(tmpdir(), `faial-ts-fuzz-chunk-${seed}-${process.pid}.stderr`);
  writeFileSync(path, stderr);
  return path;
}

/** The chunks of a campaign: chunk i has seed S+i and K kernels, the last one what is left. */
function chunksOf(args: Args, chunk: number): { readonly seed: number; readonly runs: number }[] {
  return Array.from({ length: Math.ceil(args.runs / chunk) }, (_, i) => ({ seed: args.seed + i, runs: Math.min(chunk, args.runs - i * chunk) }));
}

/** The chunks, J at a time, each retried once if its process breaks; their outcomes added up per campaign name. */
async function chunkedMain(args: Args, chunks: readonly { readonly seed: number; readonly runs: number }[]): Promise<number> {
  // The chunks' groups are not the terminal's, so Ctrl-C reaches only this process: pass it on.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      for (const group of liveGroups) killGroup(group);
      process.exit(130);
    });
  }
  const outcomes: Outcome[][] = [];
  const lost: string[] = [];
  let retried = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < chunks.length) {
      const c = chunks[next++]!;
      let run = await runChunk(args, c.runs, c.seed);
      if (run.kind === 'broken') {
        retried++;
        console.error(`  chunk seed ${c.seed} broke (${run.why}); running it again`);
        run = await runChunk(args, c.runs, c.seed);
      }
      if (run.kind === 'broken') lost.push(`seed ${c.seed} (${c.runs} kernels): ${run.why}`);
      else outcomes.push(run.outcomes);
      // each chunk's result as it comes, so that a campaign stopped early still says what it checked and found
      const said = run.kind === 'broken' ? 'not checked' : run.outcomes.some((o) => o.failure !== null) ? 'FAILED' : `${c.runs} kernels passed`;
      console.error(`  … ${outcomes.length + lost.length} of ${chunks.length} chunks (seed ${c.seed}: ${said})`);
      if (run.kind !== 'broken') for (const f of run.outcomes.filter((o) => o.failure !== null)) printOutcome(f, '');
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.jobs, chunks.length) }, worker));
  const byName = new Map<string, Outcome[]>();
  for (const o of outcomes.flat()) byName.set(o.name, [...(byName.get(o.name) ?? []), o]);
  let failed = false;
  for (const [name, os] of byName) {
    const failures = os.filter((o) => o.failure !== null);
    if (failures.length > 0) {
      failed = true;
      console.log(`${name}: FAILED in ${failures.length} of ${os.length} chunks (each shown above as it ended)`);
      continue;
    }
    const tally: Record<string, number> = {};
    for (const o of os) for (const [k, n] of Object.entries(o.tally)) tally[k] = (tally[k] ?? 0) + n;
    const seconds = os.reduce((t, o) => t + o.seconds, 0);
    printOutcome({ name, kernels: os.reduce((t, o) => t + o.kernels, 0), seconds, tally, failure: null }, ` (process time, ${os.length} chunk${os.length === 1 ? '' : 's'})`);
  }
  console.log(`chunks: ${chunks.length}, run again after a crash or hang: ${retried}, not checked: ${lost.length}`);
  for (const l of lost) console.log(`  not checked: ${l}`);
  return failed ? 1 : lost.length > 0 ? 2 : 0;
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = argsOf(process.argv.slice(2));
    if (args.only.has('P6') && !args.json) buildOracle();
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`fuzz: ${e.message}`);
    process.exitCode = 2;
    return;
  }
  if (args.json) {
    const outcomes = await outcomesOf(args, args.runs, args.seed);
    console.log(JSON.stringify(outcomes));
    process.exitCode = outcomes.some((o) => o.failure !== null) ? 1 : 0;
    return;
  }
  const chunks = args.chunk === null ? null : chunksOf(args, args.chunk);
  const chunking = chunks === null ? '' : `, in chunks of ${args.chunk} (seeds ${chunks[0]!.seed}–${chunks.at(-1)!.seed}), ${args.jobs} at a time`;
  console.log(`seed ${args.seed}, ${args.runs} kernels ${args.together ? 'checked by every property' : 'per property'}, ${args.timeoutMs} ms per query, ${args.warps === null ? 'independent threads only' : `${args.warps === 'every' ? 'each' : 'some'} with lockstep warps`}${args.syncwarp ? ', syncwarp among the statements' : ''}${args.cuda ? ', each printed as CUDA C and verified through the CUDA front end (no atomics)' : ''}${chunking}`);
  if (chunks !== null) {
    process.exitCode = await chunkedMain(args, chunks);
    return;
  }
  const outcomes = await outcomesOf(args, args.runs, args.seed);
  for (const o of outcomes) printOutcome(o, '');
  process.exitCode = outcomes.some((o) => o.failure !== null) ? 1 : 0;
}

await main();
