/**
 * `faial-ts experiment PATH... --out DIR`: verify every kernel as `verify`
 * does (with `--jobs N`, in worker processes), timing each stage, and write
 * DIR/results.csv, DIR/results.json and DIR/summary.md. Verdicts are data
 * here, not failures: the exit code is 0 once the files are written, and 2
 * for bad usage.
 */
import { NO_LAUNCH } from '../core/launch.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { experimentRows } from '../experiment/rows.js';
import { percent, resultsCsv, resultsJson, summaryMarkdown, totalsOf, type ExperimentResults, type StartUp } from '../experiment/results.js';
import { tenths } from '../experiment/rows.js';
import { parseProgram } from '../frontend/bcu/parse.js';
import { solverOf, type Solver, type SolverChoice } from '../solve/solver.js';
import type { CliIO } from './main.js';
import type { FileJob } from './batch.js';
import type { CudaFlags } from './cuda.js';
import { EXIT_DRF } from './exit.js';
import { verifiedFiles, verifiesInProcess, type Progress } from './jobs.js';
import { UsageError, inputFiles } from './options.js';

export interface ExperimentSettings {
  readonly out: string;
  readonly jobs: number;
  readonly timeoutMs: number;
  readonly maxRaces: number;
  readonly solver: SolverChoice;
  readonly version: string;
  readonly cuda: CudaFlags;
}

export const RESULT_FILES = ['results.csv', 'results.json', 'summary.md'] as const;

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

async function createDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw new UsageError(`--out ${dir}: cannot create the directory: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function experimentCommand(inputs: readonly string[], settings: ExperimentSettings, io: CliIO, progress: Progress): Promise<number> {
  const files = await inputFiles(inputs);
  await createDir(settings.out);
  const solver = solverOf(settings.solver);
  const startUpMs = verifiesInProcess(settings.jobs, files.length) ? await startUp(solver, settings.timeoutMs) : null;
  const jobs: FileJob[] = files.map((path) => ({
    path,
    kernel: null,
    launch: NO_LAUNCH,
    timeoutMs: settings.timeoutMs,
    maxRaces: settings.maxRaces,
    solver: settings.solver,
    barriers: false,
    replay: false,
    cuda: settings.cuda,
  }));
  const outcomes = await verifiedFiles(jobs, settings.jobs, progress);
  const results: ExperimentResults = {
    run: { version: settings.version, inputs, solver: solver.name, timeoutMs: settings.timeoutMs, maxRaces: settings.maxRaces, jobs: settings.jobs, startUpMs },
    rows: outcomes.flatMap((o) => experimentRows(o.file, o.checking)),
  };
  const texts = { 'results.csv': resultsCsv(results.rows), 'results.json': resultsJson(results), 'summary.md': summaryMarkdown(results) } satisfies Record<(typeof RESULT_FILES)[number], string>;
  for (const name of RESULT_FILES) {
    const path = join(settings.out, name);
    try {
      await writeFile(path, texts[name]);
    } catch (e) {
      throw new UsageError(`cannot write ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
    io.out(`${path}\n`);
  }
  const t = totalsOf(results.rows);
  const verdicts = Object.entries(t.byVerdict).filter(([, n]) => n > 0).map(([v, n]) => `${n} ${v}`);
  const errors = t.fileErrors === 0 ? '' : `, ${t.fileErrors} file(s) in error`;
  io.out(`${t.kernels} kernels${verdicts.length === 0 ? '' : ` (${verdicts.join(', ')})`}${errors}; ${(t.totalMs / 1000).toFixed(1)} s, ${percent(t.outsideSolver)} outside the solver\n`);
  return EXIT_DRF;
}
