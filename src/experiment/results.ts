/**
 * The files `faial-ts experiment` writes from its rows: results.csv (one line
 * per row), results.json (the run and the same rows, typed) and summary.md
 * (the class table, verdicts, alarms and time per stage).
 */
import type { Status } from '../verify/result.js';
import { STATUSES, budgetText, executionText, statusName } from '../report/describe.js';
import { csvText, type CsvValue } from './csv.js';
import type { Shard } from './shard.js';
import { KERNEL_CLASSES, STAGES, type DataDependence, type ExperimentRow, type KernelClass, type KernelRow, type Stage, type StageTimes } from './rows.js';

/** How the experiment was run: what a reader needs to run it again. */
export interface RunInfo {
  readonly version: string;
  readonly inputs: readonly string[];
  readonly solver: string;
  /** resource units per query; null for a solver bounded by time only (`--solver-cmd`) */
  readonly rlimit: number | null;
  /** the wall-clock safety net per query */
  readonly timeoutMs: number;
  readonly maxRaces: number;
  /** `--warp-size N`: every kernel verified with warps of N threads in lockstep; null: independent threads, except where a .cu file's header asks for lockstep */
  readonly warpSize: number | null;
  readonly jobs: number;
  /** building the parser and starting the solver before the first file, counted in no row; null when workers or shards did it */
  readonly startUpMs: StartUp | null;
  /** the files verified, in order (a shard's: its slice of the input) */
  readonly files: readonly string[];
  /** the slice of the input files this run verified (`--shard K/N`); null for all of them */
  readonly shard: Shard | null;
  /** for results joined by `experiment merge`: how many shards they come from */
  readonly mergedShards: number | null;
}

export interface StartUp {
  readonly parserMs: number;
  readonly solverMs: number;
}

export interface ExperimentResults {
  readonly run: RunInfo;
  readonly rows: readonly ExperimentRow[];
}

export const CSV_HEADER = [
  'file',
  'kernel',
  'well_typed',
  'data_dependent',
  'class',
  'accesses',
  'phases',
  'queries',
  'solver_queries',
  'warp_size',
  'verdict',
  'confirmed_alarms',
  'possible_alarms',
  'unknown_queries',
  ...STAGES.map((s) => `${s}_ms`),
  'total_ms',
  'error',
] as const;

/** `j:index k:both`: each variable and what it reaches. */
export function dependenceText(deps: readonly DataDependence[]): string {
  return deps.map((d) => `${d.variable}:${d.reaches}`).join(' ');
}

function csvRecord(row: ExperimentRow): CsvValue[] {
  const times = [...STAGES.map((s) => row.times[s]), row.totalMs];
  if (row.kind === 'file-error') return [row.file, null, null, null, null, null, null, null, null, null, 'error', null, null, null, ...times, row.error];
  return [
    row.file,
    row.kernel,
    row.wellTyped,
    dependenceText(row.dataDependent),
    row.class,
    row.accesses,
    row.phases,
    row.queries,
    row.solverQueries,
    row.warpSize,
    row.verdict,
    row.confirmedAlarms,
    row.possibleAlarms,
    row.unknownQueries,
    ...times,
    row.error,
  ];
}

export function resultsCsv(rows: readonly ExperimentRow[]): string {
  return csvText(CSV_HEADER, rows.map(csvRecord));
}

export function resultsJson(results: ExperimentResults): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}

export interface Totals {
  readonly kernels: number;
  readonly fileErrors: number;
  readonly byClass: Readonly<Record<KernelClass, Readonly<Record<Status, number>>>>;
  readonly byVerdict: Readonly<Record<Status, number>>;
  readonly confirmedAlarms: number;
  readonly possibleAlarms: number;
  /** kernels with at least one alarm */
  readonly alarmed: number;
  /** kernels with alarms, all of them confirmed */
  readonly allConfirmed: number;
  readonly times: StageTimes;
  readonly totalMs: number;
  /** the share of the total spent outside the solver, in [0, 1] */
  readonly outsideSolver: number;
}

const noVerdicts = (): Record<Status, number> => ({ drf: 0, racy: 0, benign: 0, divergent: 0, vacuous: 0, unknown: 0, error: 0 });

export function totalsOf(rows: readonly ExperimentRow[]): Totals {
  const kernels = rows.filter((r): r is KernelRow => r.kind === 'kernel');
  const byClass = { 'CI/DI': noVerdicts(), 'CI/DD': noVerdicts(), 'CD/DI': noVerdicts(), 'CD/DD': noVerdicts() } satisfies Record<KernelClass, Record<Status, number>>;
  const byVerdict = noVerdicts();
  for (const k of kernels) {
    byClass[k.class][k.verdict]++;
    byVerdict[k.verdict]++;
  }
  const stageTotal = (s: Stage): number => rows.reduce((sum, r) => sum + r.times[s], 0);
  const times: StageTimes = {
    parse: stageTotal('parse'),
    typing: stageTotal('typing'),
    phases: stageTotal('phases'),
    encoding: stageTotal('encoding'),
    solving: stageTotal('solving'),
    witnesses: stageTotal('witnesses'),
  };
  const totalMs = STAGES.reduce((sum, s) => sum + times[s], 0);
  const alarmed = kernels.filter((k) => k.confirmedAlarms + k.possibleAlarms > 0);
  return {
    kernels: kernels.length,
    fileErrors: rows.length - kernels.length,
    byClass,
    byVerdict,
    confirmedAlarms: kernels.reduce((n, k) => n + k.confirmedAlarms, 0),
    possibleAlarms: kernels.reduce((n, k) => n + k.possibleAlarms, 0),
    alarmed: alarmed.length,
    allConfirmed: alarmed.filter((k) => k.possibleAlarms === 0).length,
    times,
    totalMs,
    outsideSolver: totalMs === 0 ? 0 : (totalMs - times.solving) / totalMs,
  };
}

const STAGE_MEANINGS: Record<Stage, string> = {
  parse: 'parsing',
  typing: 'names, well-formedness and MAP inference',
  phases: 'the phase split, its solver checks excepted',
  encoding: 'building the queries and printing them as SMT-LIB',
  solving: 'every solver check',
  witnesses: 're-checking models, building witnesses, classifying alarms',
};

export const percent = (share: number): string => `${(100 * share).toFixed(1)}%`;
const ms = (x: number): string => x.toFixed(1);

function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** The run's execution model, and how many kernels a .cu file's header put in lockstep instead. */
function executionOf(run: RunInfo, rows: readonly ExperimentRow[]): string {
  const others = rows.filter((r) => r.kind === 'kernel' && r.warpSize !== run.warpSize).length;
  const headers = others === 0 ? '' : ` (${others} kernel${others === 1 ? '' : 's'} with lockstep warps, as ${others === 1 ? 'its file asks' : 'their files ask'})`;
  return `${executionText(run.warpSize === null ? {} : { warpSize: run.warpSize })}${headers}`;
}

/** The command line of the run: inputs, and the options that change verdicts. */
function commandText(run: RunInfo): string {
  return `faial-ts experiment ${run.inputs.join(' ')}${run.warpSize === null ? '' : ` --arch sm_60 --warp-size ${run.warpSize}`}`;
}

/** `, shard 2 of 4 (…)`, `, merged from 4 shards`, or nothing for a run over every file. */
function sliceText(run: RunInfo): string {
  if (run.mergedShards !== null) return ` (per shard), merged from ${run.mergedShards} shards`;
  if (run.shard === null) return '';
  const { index: k, count: n } = run.shard;
  return n === 1 ? '; shard 1 of 1: every input file' : `; shard ${k} of ${n}: input files ${k}, ${k + n}, ${k + 2 * n}, … (counted from 1)`;
}

export function summaryMarkdown(results: ExperimentResults): string {
  const { run, rows } = results;
  const t = totalsOf(rows);
  const files = new Set(rows.map((r) => r.file)).size;
  const classTable = table(
    ['class', 'kernels', ...STATUSES.map(statusName)],
    [
      ...KERNEL_CLASSES.map((c) => [c, STATUSES.reduce((n, v) => n + t.byClass[c][v], 0), ...STATUSES.map((v) => t.byClass[c][v])]),
      ['total', t.kernels, ...STATUSES.map((v) => t.byVerdict[v])],
    ],
  );
  const timeTable = table(
    ['stage', 'ms', 'share'],
    [...STAGES.map((s) => [s, ms(t.times[s]), percent(t.totalMs === 0 ? 0 : t.times[s] / t.totalMs)]), ['total', ms(t.totalMs), '100.0%']],
  );
  const errors = rows.filter((r) => r.kind === 'file-error');
  const lines = [
    `# Experiment: ${t.kernels} kernels in ${files} files`,
    '',
    `faial-ts ${run.version}, \`${commandText(run)}\`: solver ${run.solver}, ${budgetText(run)}, at most ${run.maxRaces} races per kernel, ${executionOf(run, rows)}, ${run.jobs === 1 ? 'one process' : `${run.jobs} worker processes`}${sliceText(run)}.`,
    '',
    '## Kernels by class',
    '',
    'CI: no value read from memory reaches a condition, a loop bound or step, or an assumption; CD: one does.',
    'DI: no value read from memory reaches an array index; DD: one does. CI/DI kernels are the well-typed ones.',
    '',
    ...classTable,
    '',
    ...(errors.length === 0 ? [] : [`${errors.length} file(s) did not get as far as kernels (a row each in results.csv, verdict \`error\`):`, '', ...errors.map((e) => `* \`${e.error.split('\n')[0]}\``), '']),
    '## Alarms',
    '',
    `${t.confirmedAlarms + t.possibleAlarms} alarms (data races and barrier divergences): ${t.confirmedAlarms} confirmed, ${t.possibleAlarms} possible.`,
    `${t.alarmed} kernels have alarms; ${t.allConfirmed} of them (${percent(t.alarmed === 0 ? 0 : t.allConfirmed / t.alarmed)}) have only confirmed alarms.`,
    '',
    '## Time',
    '',
    ...timeTable,
    '',
    ...STAGES.map((s) => `* ${s}: ${STAGE_MEANINGS[s]}`),
    '',
    "A file's parse and typing times are shared evenly by its kernels.",
    '',
    `Outside the solver: ${ms(t.totalMs - t.times.solving)} ms, ${percent(t.outsideSolver)} of the total.`,
    run.mergedShards !== null
      ? 'Each shard built its parser and started its solver apart; where that is counted is said in its own summary.'
      : run.startUpMs === null
      ? "Each worker built its parser and started its solver on its first file, whose parse and solving times include them."
      : `Before the first file, building the parser took ${ms(run.startUpMs.parserMs)} ms and starting the solver ${ms(run.startUpMs.solverMs)} ms; neither is counted above.`,
    '',
  ];
  return lines.join('\n');
}
