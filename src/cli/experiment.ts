/**
 * `faial-ts experiment PATH... --out DIR`: verify every kernel as `verify`
 * does (with `--jobs N`, in worker processes), timing each stage, and write
 * DIR/results.csv, DIR/results.json, DIR/summary.md and DIR/report.html
 * (the summary as a page, with charts). Verdicts are data
 * here, not failures: the exit code is 0 once the files are written, and 2
 * for bad usage. With `--shard K/N` only the K-th of N slices of the files
 * is verified; `faial-ts experiment merge DIR... --out DIR` joins the
 * shards' results into those of the whole run (src/experiment/shard.ts).
 */
import { NO_LAUNCH } from '../core/launch.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { experimentRows } from '../experiment/rows.js';
import { percent, resultsCsv, resultsJson, summaryMarkdown, totalsOf, type ExperimentResults, type StartUp } from '../experiment/results.js';
import { mergedResults, shardFiles, type Shard } from '../experiment/shard.js';
import { tenths } from '../experiment/rows.js';
import { experimentHtml } from '../experiment/report-html.js';
import { parseProgram } from '../frontend/bcu/parse.js';
import { solverOf } from '../solve/backends.js';
import { boundOf, type Solver, type SolverChoice } from '../solve/solver.js';
import type { CliIO } from './main.js';
import type { FileJob } from './batch.js';
import type { CudaFlags } from './cuda.js';
import { EXIT_DRF } from './exit.js';
import { verifiedFiles, verifiesInProcess, type Progress } from './jobs.js';
import { UsageError, inputFiles } from './options.js';
import { outputDirectory, writtenWhole } from './output.js';

export interface ExperimentSettings {
  readonly out: string;
  readonly jobs: number;
  readonly timeoutMs: number;
  readonly rlimit: number;
  readonly maxRaces: number;
  readonly solver: SolverChoice;
  readonly version: string;
  readonly cuda: CudaFlags;
  /** only this slice of the input files; null for all */
  readonly shard: Shard | null;
  /** `--warp-size N`: every kernel verified with warps of N threads in lockstep; null: as each file says (independent threads unless a .cu header asks for lockstep) */
  readonly warpSize: number | null;
}

export const RESULT_FILES = ['results.csv', 'results.json', 'summary.md', 'report.html'] as const;

/**
 * Milliseconds to build the parser and to start the solver, each on a trivial
 * input, so that the first kernel's times do not include them.
 */
async function startUp(solver: Solver, timeoutMs: number): Promise<StartUp> {
  const t0 = performance.now();
  parseProgram('start-up.bcu', 'kernel k() { skip }');
  const t1 = performance.now();
  await solver.check('(declare-const x Int)\n(assert (= x 1))', timeoutMs);
  return { parserMs: tenths(t1 - t0), solverMs: tenths(performance.now() - t1) };
}

export async function experimentCommand(inputs: readonly string[], settings: ExperimentSettings, io: CliIO, progress: Progress): Promise<number> {
  const all = await inputFiles(inputs);
  const files = settings.shard === null ? all : shardFiles(all, settings.shard);
  await outputDirectory(settings.out, '--out');
  const solver = solverOf(settings.solver, settings.rlimit);
  const startUpMs = files.length > 0 && verifiesInProcess(settings.jobs, files.length) ? await startUp(solver, settings.timeoutMs) : null;
  const jobs: FileJob[] = files.map((path) => ({
    path,
    kernel: null,
    launch: settings.warpSize === null ? NO_LAUNCH : { ...NO_LAUNCH, warpSize: settings.warpSize },
    timeoutMs: settings.timeoutMs,
    rlimit: settings.rlimit,
    maxRaces: settings.maxRaces,
    solver: settings.solver,
    barriers: false,
    replay: false,
    cuda: settings.cuda,
  }));
  const outcomes = await verifiedFiles(jobs, settings.jobs, progress);
  const run = { version: settings.version, inputs, solver: solver.name, rlimit: boundOf(settings.solver) === 'resources' ? settings.rlimit : null, timeoutMs: settings.timeoutMs, maxRaces: settings.maxRaces, warpSize: settings.warpSize, jobs: settings.jobs, startUpMs, files, shard: settings.shard, mergedShards: null };
  return writtenResults(settings.out, { run, rows: outcomes.flatMap((o) => experimentRows(o.file, o.checking)) }, io);
}

/** Writes results.csv, results.json, summary.md and report.html into `out`, lists them and prints the totals. */
async function writtenResults(out: string, results: ExperimentResults, io: CliIO): Promise<number> {
  const texts = { 'results.csv': resultsCsv(results.rows), 'results.json': resultsJson(results), 'summary.md': summaryMarkdown(results), 'report.html': experimentHtml(results) } satisfies Record<(typeof RESULT_FILES)[number], string>;
  for (const name of RESULT_FILES) {
    const path = join(out, name);
    await writtenWhole(path, texts[name]);
    io.out(`${path}\n`);
  }
  const t = totalsOf(results.rows);
  const verdicts = Object.entries(t.byVerdict).filter(([, n]) => n > 0).map(([v, n]) => `${n} ${v}`);
  const errors = t.fileErrors === 0 ? '' : `, ${t.fileErrors} file(s) in error`;
  io.out(`${t.kernels} kernels${verdicts.length === 0 ? '' : ` (${verdicts.join(', ')})`}${errors}; ${(t.totalMs / 1000).toFixed(1)} s, ${percent(t.outsideSolver)} outside the solver\n`);
  return EXIT_DRF;
}

/** A shard's results.json, checked as far as merging relies on it. */
async function shardResults(dir: string): Promise<ExperimentResults> {
  const path = join(dir, 'results.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`, ['give the --out directories of `faial-ts experiment --shard K/N` runs']);
  }
  let results: unknown;
  try {
    results = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${path} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isExperimentResults(results)) throw new UsageError(`${path} is not the results.json of an experiment run by this version of faial-ts`);
  return results;
}

function isExperimentResults(x: unknown): x is ExperimentResults {
  if (typeof x !== 'object' || x === null || !('run' in x) || !('rows' in x) || !Array.isArray(x.rows)) return false;
  const run: unknown = x.run;
  const shard = typeof run === 'object' && run !== null && 'shard' in run ? run.shard : undefined;
  return (
    typeof run === 'object' &&
    run !== null &&
    'files' in run &&
    Array.isArray(run.files) &&
    run.files.every((f: unknown) => typeof f === 'string') &&
    'inputs' in run &&
    Array.isArray(run.inputs) &&
    (shard === null || (typeof shard === 'object' && shard !== null && 'index' in shard && 'count' in shard && typeof shard.index === 'number' && typeof shard.count === 'number')) &&
    x.rows.every((r: unknown) => typeof r === 'object' && r !== null && 'file' in r && typeof r.file === 'string' && 'kind' in r && (r.kind === 'kernel' || r.kind === 'file-error'))
  );
}

/** `faial-ts experiment merge DIR... --out DIR`. */
export async function mergeCommand(dirs: readonly string[], out: string, io: CliIO): Promise<number> {
  const parts = [];
  for (const dir of dirs) parts.push({ from: dir, results: await shardResults(dir) });
  const merged = mergedResults(parts);
  if (typeof merged === 'string') throw new UsageError(`cannot merge: ${merged}`);
  await outputDirectory(out, '--out');
  return writtenResults(out, merged, io);
}
