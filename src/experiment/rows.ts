/**
 * One row per kernel of an experiment (and one per file that did not get as
 * far as kernels): what `experiment` writes to results.csv and results.json.
 *
 * A kernel's class is Faial's: control-independent (CI) or control-dependent
 * (CD: a value read from memory reaches a condition, a loop bound or step, or
 * an assumption), and data-independent (DI) or data-dependent (DD: a value
 * read from memory reaches an array index). CI/DI is exactly well-typed.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { locationOf } from '../diagnostics/render.js';
import type { TypingViolation, Use } from '../map/map.js';
import { assertNever } from '../util/assert.js';
import type { CheckStage } from '../api/check.js';
import type { FileResult } from '../verify/result.js';
import type { KernelResult, Status, VerifyStage } from '../verify/result.js';

export type Reach = 'index' | 'control' | 'both';

/** A variable bound by a read whose value reaches an index, control, or both. */
export interface DataDependence {
  readonly variable: string;
  readonly reaches: Reach;
}

export const KERNEL_CLASSES = ['CI/DI', 'CI/DD', 'CD/DI', 'CD/DD'] as const;
export type KernelClass = (typeof KERNEL_CLASSES)[number];

export const STAGES = ['parse', 'typing', 'phases', 'encoding', 'solving', 'witnesses'] as const satisfies readonly (CheckStage | VerifyStage)[];
export type Stage = (typeof STAGES)[number];
export type StageTimes = Readonly<Record<Stage, number>>;

interface RowBase {
  readonly file: string;
  /** milliseconds, to a tenth; a file's parsing and typing are shared evenly by its kernels */
  readonly times: StageTimes;
  /** the sum of the stages */
  readonly totalMs: number;
}

export interface KernelRow extends RowBase {
  readonly kind: 'kernel';
  readonly kernel: string;
  readonly wellTyped: boolean;
  readonly dataDependent: readonly DataDependence[];
  readonly class: KernelClass;
  readonly accesses: number;
  readonly phases: number;
  readonly queries: number;
  /** the queries that reached a solver: the others the simplifier or the search for a model by evaluation decided */
  readonly solverQueries: number;
  /** the warps of this many threads run in lockstep in the verdict (`--warp-size`, or a .cu file's header); null: independent threads */
  readonly warpSize: number | null;
  readonly verdict: Status;
  /** data races and barrier divergences */
  readonly confirmedAlarms: number;
  readonly possibleAlarms: number;
  readonly unknownQueries: number;
  /** why the verdict is `error` */
  readonly error: string | null;
}

/** A file that could not be read, parsed or name-checked. */
export interface FileErrorRow extends RowBase {
  readonly kind: 'file-error';
  readonly error: string;
}

export type ExperimentRow = KernelRow | FileErrorRow;

function reachOf(use: Use): 'index' | 'control' {
  switch (use) {
    case 'index':
      return 'index';
    case 'condition':
    case 'loop bound':
    case 'loop step':
    case 'assumption':
    case 'definedness':
      return 'control';
    default:
      return assertNever(use);
  }
}

/** The data-dependent variables that reach an index or control, in the order they are first used so. */
export function dataDependences(violations: readonly TypingViolation[]): DataDependence[] {
  const reaches = new Map<string, Set<'index' | 'control'>>();
  for (const v of violations) {
    const set = reaches.get(v.variable) ?? new Set();
    set.add(reachOf(v.use));
    reaches.set(v.variable, set);
  }
  return [...reaches].map(([variable, set]) => ({ variable, reaches: set.size === 2 ? 'both' : [...set][0]! }));
}

export function kernelClass(deps: readonly DataDependence[]): KernelClass {
  const control = deps.some((d) => d.reaches !== 'index') ? 'CD' : 'CI';
  const data = deps.some((d) => d.reaches !== 'control') ? 'DD' : 'DI';
  return `${control}/${data}`;
}

/** `path:line:column: error[CODE]: message`, one line per diagnostic. */
export function diagnosticLines(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${locationOf(d.file, d.span)}: ${d.severity}[${d.code}]: ${d.message}`).join('\n');
}

export const tenths = (ms: number): number => Math.round(ms * 10) / 10;

/** The times as a row shows them, and their total. */
function timed(times: StageTimes): Pick<RowBase, 'times' | 'totalMs'> {
  return {
    times: { parse: tenths(times.parse), typing: tenths(times.typing), phases: tenths(times.phases), encoding: tenths(times.encoding), solving: tenths(times.solving), witnesses: tenths(times.witnesses) },
    totalMs: tenths(STAGES.reduce((s, stage) => s + times[stage], 0)),
  };
}

function kernelRow(r: KernelResult, checking: Readonly<Record<CheckStage, number>>, share: number): KernelRow {
  const alarms = [...r.races, ...r.divergences];
  const dataDependent = dataDependences(r.violations);
  return {
    kind: 'kernel',
    file: r.file.path,
    kernel: r.kernel,
    wellTyped: r.wellTyped,
    dataDependent,
    class: kernelClass(dataDependent),
    accesses: r.stats.accesses,
    phases: r.stats.phases,
    queries: r.stats.queries,
    solverQueries: r.stats.queries - r.stats.withoutSolver,
    warpSize: r.warpSize ?? null,
    verdict: r.status,
    confirmedAlarms: alarms.filter((a) => a.confidence === 'confirmed').length,
    possibleAlarms: alarms.filter((a) => a.confidence === 'possible').length,
    unknownQueries: r.unknowns.length,
    error: r.errors.length === 0 ? null : diagnosticLines(r.errors),
    ...timed({ parse: checking.parse / share, typing: checking.typing / share, ...r.stats.stages }),
  };
}

/** The rows of one verified file: one per kernel, or one error row. */
export function experimentRows(file: FileResult, checking: Readonly<Record<CheckStage, number>>): ExperimentRow[] {
  if (!file.ok) {
    const times = timed({ parse: checking.parse, typing: checking.typing, phases: 0, encoding: 0, solving: 0, witnesses: 0 });
    return [{ kind: 'file-error', file: file.path, error: diagnosticLines(file.diagnostics), ...times }];
  }
  return file.kernels.map((k) => kernelRow(k, checking, file.kernels.length));
}
