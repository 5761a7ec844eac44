/**
 * Phrases shared by the text and JSON reports, so that both say the same
 * thing about why an alarm is only possible or why a kernel is not well-typed.
 */
import type { UnknownOrigin } from '../core/ast.js';
import type { Launch } from '../core/launch.js';
import type { Approximation, TypingViolation } from '../map/map.js';
import { userSpan, type SourceFile, type Span } from '../core/source.js';
import type { AccessSite, Confidence, Doubt, KernelResult, Race, Status, Witness } from '../verify/result.js';
import { assertNever } from '../util/assert.js';
import { shownText } from '../diagnostics/shown.js';

import { isOutOfResources, isOutOfTime } from '../solve/budget.js';
import { MACHINE_SCOPE } from '../core/types.js';

/** `line:col`, or `path:line:col` when the span lies in another file than the kernel's (an included header). */
function at(file: SourceFile, span: Span): string {
  const u = userSpan(file, span);
  const where = `${u.start.line}:${u.start.column}`;
  return u.file.path === file.path ? where : `${u.file.path}:${where}`;
}

/** Source text quoted in a message, from the file the user wrote: comments inside it may hold control characters. */
const quoted = (file: SourceFile, span: Span): string => shownText(userSpan(file, span).text);

export function doubtText(file: SourceFile, d: Doubt): string {
  switch (d.kind) {
    case 'data':
      return `depends on ${d.variable}, read from ${quoted(file, d.origin.span)} at ${at(file, d.origin.span)}`;
    case 'unknown':
      return `depends on ${d.variable}, ${unknownText(file, d.origin)}`;
    case 'approximated-loop':
      return `the barriers of the loop at ${at(file, d.span)} were erased (over-approximation)`;
    case 'large-shift':
      return 'relies on a shift by a large amount, which is over-approximated';
    case 'divergence-unknown':
      return `barrier divergence at the sync at ${at(file, d.sync.span)} was not ruled out (query ${d.query} unknown)`;
    case 'assumption':
      return `at the witness's launch, thread ${compactId(d.thread.threadIdx)} of block ${compactId(d.thread.blockIdx)} may fail the assumption at ${at(file, d.span)}, which would exclude the launch`;
    case 'undefined-operation':
      return `at the witness's launch, thread ${compactId(d.thread.threadIdx)} of block ${compactId(d.thread.blockIdx)} may evaluate an undefined operation${d.span === null ? '' : ` at ${at(file, d.span)}`}, which would put the launch outside the scope`;
    case 'scope-unknown':
      return `the witness's launch was not proved to be in scope, every assumption satisfied and no undefined operation (query ${d.query} unknown)`;
    default:
      return assertNever(d);
  }
}

/** Why a race confirmed by a run (src/verify/witness-run.ts) is one. */
export const RUN_TEXT = "the witness's launch, run with every array zero-filled, makes both accesses to the element in one phase without leaving the scope, so it is a real execution";

/** Why an alarm is (or is not) a proof of a bug. */
export function reasonText(file: SourceFile, confidence: Confidence, doubts: readonly Doubt[], confirmedBy?: 'run'): string {
  if (confirmedBy === 'run') return RUN_TEXT;
  if (confidence === 'confirmed' || doubts.length === 0) {
    return 'the witness depends only on parameters, launch, thread ids and loop variables, so it is a real execution';
  }
  return doubts.map((d) => doubtText(file, d)).join('; ');
}

/** `a texture fetch at 3:5`, `approximated at 3:5: a loop with a data-dependent bound (…)` */
export function unknownText(file: SourceFile, o: UnknownOrigin): string {
  return o.kind === 'value' ? `unknown: ${o.what} at ${at(file, o.span)}` : `approximated at ${at(file, o.span)}: ${o.what} (${o.why})`;
}

/** `y (read from A[x] at 3:5) used in index at 4:9`, `h (unknown: a texture fetch at 3:5) used in index at 4:9` */
export function violationText(file: SourceFile, v: TypingViolation): string {
  const from = 'kind' in v.origin ? unknownText(file, v.origin) : `read from ${quoted(file, v.origin.span)} at ${at(file, v.origin.span)}`;
  const use = v.use === 'definedness' ? 'an operation that may be undefined' : v.use;
  return `${v.variable} (${from}) used in ${use} at ${at(file, v.span)}`;
}

/** `a loop with a data-dependent bound at 4:3: its trip count is unknown` */
export function approximationText(file: SourceFile, a: Approximation): string {
  return `${a.what} at ${at(file, a.span)}: ${a.why}`;
}

/**
 * The user's requires and assumes a verdict holds under, as the verdict line
 * states them (`assuming offset >= blockDim.x (at 11:10) and tid != p (at
 * 12:10)`), or null when the kernel has none.
 */
export function statedText(r: Pick<KernelResult, 'file' | 'assumptions'>): string | null {
  const stated = r.assumptions ?? [];
  if (stated.length === 0) return null;
  const each = stated.map((a) => `${conditionText(r.file, a.span)} (at ${at(r.file, a.span)})`);
  return `assuming ${each.length === 1 ? each[0]! : `${each.slice(0, -1).join(', ')} and ${each.at(-1)!}`}`;
}

/** A condition as the user wrote it, on one line and at most 80 characters. */
export function conditionText(file: SourceFile, span: Span): string {
  const text = quoted(file, span).replace(/\s+/g, ' ').trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The scope line of a kernel with machine integers, or null. */
export function scopeText(r: Pick<KernelResult, 'machineIntegers' | 'launchAssumptions'>): string | null {
  const assumed = r.launchAssumptions ?? [];
  if (r.machineIntegers !== true && assumed.length === 0) return null;
  const machine = r.machineIntegers === true ? `${MACHINE_SCOPE} (undefined behaviour is outside the scope of verification)` : null;
  return `scope: ${[machine, ...assumed.map((a) => `assuming ${a}`)].filter((t) => t !== null).join('; ')}`;
}

/** Where a race's two threads are: `within a block, phase 2`, `within a warp, warp phase 3`, `between blocks`. */
export function raceScopeText(race: Pick<Race, 'level' | 'phase'>): string {
  switch (race.level) {
    case 'block':
      return `within a block, phase ${race.phase ?? '?'}`;
    case 'warp':
      return `within a warp, warp phase ${race.phase ?? '?'}`;
    case 'grid':
      return 'between blocks';
    default:
      return assertNever(race.level);
  }
}

/** The execution model a verdict holds for: the kernel's threads independent, or warps in lockstep. */
export function executionText(r: Pick<KernelResult, 'warpSize'>): string {
  return r.warpSize === undefined ? 'independent threads' : `warp size ${r.warpSize} (lockstep, ${LOCKSTEP_HOLDS})`;
}

/** When warps run in lockstep: NVIDIA's Volta (sm_70) brought independent thread scheduling. */
export const LOCKSTEP_HOLDS = 'which holds only before sm_70';

/** What a DRF verdict that needs lockstep warps means on current GPUs. */
export const LOCKSTEP_ONLY_TEXT = 'DRF only with lockstep warps: with independent threads (sm_70 and later) the kernel is racy; order the warp with __syncwarp()';

export function wellTypedText(r: Pick<KernelResult, 'file' | 'wellTyped' | 'violations' | 'races' | 'divergences'>): string {
  if (r.wellTyped) {
    // Theorem 1 covers the typing, not the tool's own approximations (erased barriers, large shifts, undecided barriers)
    const approximated = [...r.races, ...r.divergences].some((a) => a.confidence === 'possible');
    return approximated ? 'well-typed: yes — no alarm depends on data; the possible ones come from approximations of the tool' : 'well-typed: yes — every alarm is a proof of a bug';
  }
  return `well-typed: no — ${r.violations.map((v) => violationText(r.file, v)).join('; ')}`;
}

/** What a vacuous verdict means, in every report: no launch is in scope. */
export function vacuousText(r: Pick<KernelResult, 'machineIntegers'>): string {
  const scope = r.machineIntegers === true ? ' with no thread evaluating an undefined operation' : '';
  return `no launch satisfies the kernel's assumptions (requires, launch clause, command line, assume)${scope}: every query would hold vacuously, so nothing is proved`;
}

/** The first line of the kernel: an annotation on the whole body would cover the file. */
export function kernelHead(file: SourceFile, span: Span): Span {
  const newline = file.text.indexOf('\n', span.start);
  return { start: span.start, end: newline === -1 || newline > span.end ? span.end : newline };
}

/** `3`, or `(3,1,0)` when y or z is not 0. */
function compactId(v: readonly bigint[]): string {
  return idText(v, v.map((c, i) => (i > 0 && c !== 0n ? 2n : 1n)));
}

/** `(32,1,1)`, or `32` when only x is meaningful. */
export function dimText(v: readonly bigint[]): string {
  const [x = 1n, y = 1n, z = 1n] = v;
  return y === 1n && z === 1n ? String(x) : `(${x},${y},${z})`;
}

export function idText(v: readonly bigint[], dims: readonly bigint[]): string {
  const [x = 0n, y = 0n, z = 0n] = v;
  return (dims[1] ?? 1n) === 1n && (dims[2] ?? 1n) === 1n ? String(x) : `(${x},${y},${z})`;
}

/** The facts the command line added, or null when it added none. */
export function launchText(launch: Launch): string | null {
  const parts = [...launch.params].map(([n, v]) => `${n} = ${v}`);
  if (launch.blockDim) parts.push(`blockDim = ${dimText(launch.blockDim)}`);
  if (launch.gridDim) parts.push(`gridDim = ${dimText(launch.gridDim)}`);
  return parts.length === 0 ? null : parts.join(', ');
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** The element a race is on, a struct element's leaf by its field (`s[0].keys[1]`). */
export function elementText(race: Pick<Race, 'array' | 'index' | 'field'>): string {
  const indices = race.field === undefined ? race.index : race.index.slice(0, -1);
  return `${race.array}${indices.map((i) => `[${i}]`).join('')}${race.field === undefined ? '' : `.${race.field}`}`;
}

/** Every verdict, in the order reports list them. */
export const STATUSES = ['drf', 'racy', 'benign', 'divergent', 'vacuous', 'unknown', 'error'] as const satisfies readonly Status[];

export function statusName(s: Status): string {
  switch (s) {
    case 'drf':
      return 'DRF';
    case 'racy':
      return 'racy';
    case 'benign':
      return 'benign';
    case 'divergent':
      return 'divergent';
    case 'vacuous':
      return 'vacuous';
    case 'unknown':
      return 'unknown';
    case 'error':
      return 'error';
    default:
      return assertNever(s);
  }
}

/** How the queries were solved, as reports state it. */
export interface SolvingRun {
  /** as the command line names it (a portfolio lists its members) */
  readonly solver: string;
  /** resource units per query; null for a solver that takes no resource limit (`--solver-cmd`) */
  readonly rlimit: number | null;
  /** the wall-clock safety net per query */
  readonly timeoutMs: number;
}

/** `10000000 resource units per query (wall-clock safety net 120000 ms)`, or the time bound of a solver without resource limit. */
export function budgetText(run: Pick<SolvingRun, 'rlimit' | 'timeoutMs'>): string {
  if (run.rlimit === null) return `${run.timeoutMs} ms per query, bounded by time only (this solver takes no resource limit, so its verdicts may depend on the machine's load)`;
  return `${run.rlimit} resource units per query (wall-clock safety net ${run.timeoutMs} ms)`;
}

/** The option that may turn these unknowns into answers, when a budget stopped them. */
export function budgetHint(reasons: readonly string[]): string | null {
  if (reasons.some(isOutOfResources)) return 'a larger --rlimit may help';
  if (reasons.some((r) => isOutOfTime(r) || /timeout|canceled/i.test(r))) return 'a larger --timeout may help';
  return null;
}

/**
 * CUDA launches at most 65,535 blocks along y and z; along x more are
 * allowed but rare. A witness past that usually needs an index to wrap
 * around (`blockIdx.x * N + i` in unsigned arithmetic) at a grid the program
 * never launches: say how to state the launches it does make.
 */
const LARGE_GRID = 65_535n;

/** A hint for an alarm whose witness launches a grid larger than programs usually do, or null. */
export function largeGridHint(w: Witness): string | null {
  const axis = w.gridDim.findIndex((d) => d > LARGE_GRID);
  if (axis < 0) return null;
  const name = `gridDim.${'xyz'[axis]}`;
  return `this witness launches ${name} = ${w.gridDim[axis]} blocks; if the program never launches that many, state the launches it makes (\`__requires(${name} <= …)\` in the kernel, or --grid-dim) and verify again`;
}

/** Why a benign race is not an error. */
export const BENIGN_TEXT = 'both threads write the same value wherever these two writes race';

/** `read`, `write`, `atomic add` */
export function accessNoun(a: Pick<AccessSite, 'mode' | 'op'>): string {
  return a.mode === 'atomic' ? `atomic ${a.op ?? 'update'}` : a.mode;
}

/** `reads`, `writes`, `runs atomic add` */
export function accessVerb(a: Pick<AccessSite, 'mode' | 'op'>): string {
  return a.mode === 'atomic' ? `runs ${accessNoun(a)}` : `${a.mode}s`;
}
