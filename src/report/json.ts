/**
 * The JSON report of `faial-ts verify --json`, with its io-ts codec: the codec
 * is the documented shape, and tests decode real output with it.
 *
 * Locations are 1-based; endLine/endColumn point just past the span (as
 * editors' ranges do). Naturals are JSON numbers when they are safe integers,
 * else decimal strings, so that no value is rounded.
 */
import * as t from 'io-ts';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { userSpan, type SourceFile, type Span } from '../core/source.js';
import type { FileResult } from '../verify/result.js';
import type { AccessSite, KernelResult, ReplayRecord, Status, ThreadWitness, Witness } from '../verify/result.js';
import { conditionText, executionText, reasonText, scopeText, type SolvingRun } from './describe.js';
import { barrierReasonText } from './barriers.js';
import { undefinedDiagnostics } from './undefined.js';
import { statusCounts, withoutKernel } from './text.js';

interface DecimalBrand {
  readonly Decimal: unique symbol;
}
const Decimal = t.brand(t.string, (s): s is t.Branded<string, DecimalBrand> => /^-?\d+$/.test(s), 'Decimal');

/** A natural too large for a JSON number travels as its decimal digits. */
export const BigNat = t.union([t.Int, Decimal]);
export type BigNat = t.TypeOf<typeof BigNat>;

export function bigNatOf(v: bigint): BigNat {
  const n = Number(v);
  if (Number.isSafeInteger(n) && t.Int.is(n)) return n;
  const s = v.toString();
  if (Decimal.is(s)) return s;
  throw new Error(`not a decimal: ${s}`);
}

export function bigintOf(v: BigNat): bigint {
  return BigInt(v);
}

const Triple = t.tuple([BigNat, BigNat, BigNat]);

const Range = t.type({ line: t.number, column: t.number, endLine: t.number, endColumn: t.number });

const ThreadJson = t.type({ threadIdx: Triple, blockIdx: Triple, locals: t.record(t.string, BigNat) });

export const WitnessJson = t.type({
  parameters: t.record(t.string, BigNat),
  blockDim: Triple,
  gridDim: Triple,
  /** the element both threads access; empty for a divergence */
  index: t.array(BigNat),
  threads: t.tuple([ThreadJson, ThreadJson]),
});

const Confidence = t.keyof({ confirmed: null, possible: null });

/** Present on confirmed alarms when `--replay` asked: whether the interpreter reproduced the witness. */
const ReplayJson = t.partial({
  replayed: t.boolean,
  /** why it did not replay */
  replayNote: t.string,
  /** the small witness that was replayed, when the reported one was too large to run */
  minimisedWitness: WitnessJson,
});

/** `operation`: an atomic's (add, cas, …) */
const AccessJson = t.intersection([t.type({ mode: t.keyof({ read: null, write: null, atomic: null }), text: t.string }), t.partial({ operation: t.string }), Range]);

export const RaceJson = t.intersection([t.type({
  array: t.string,
  kind: t.keyof({ 'write-write': null, 'read-write': null, 'atomic-write': null, 'atomic-read': null }),
  confidence: Confidence,
  reason: t.string,
  level: t.keyof({ block: null, warp: null, grid: null }),
  phase: t.union([t.number, t.null]),
  accesses: t.tuple([AccessJson, AccessJson]),
  witness: WitnessJson,
}), t.partial({
  /** the struct field the witness's last index component picks (`keys[1]` of `s[0].keys[1]`) */
  field: t.string,
  benign: t.boolean,
  /** `run`: confirmed by running the witness's launch with every array zero-filled (the verifier alone left it possible) */
  confirmedBy: t.literal('run'),
}), ReplayJson]);

export const DivergenceJson = t.intersection([
  Range,
  t.type({
    confidence: Confidence,
    reason: t.string,
    /** threads[0] reaches the barrier, threads[1] does not */
    witness: WitnessJson,
  }),
  ReplayJson,
]);

function replayJson(r: ReplayRecord | undefined): t.TypeOf<typeof ReplayJson> {
  if (r === undefined) return {};
  return {
    replayed: r.replayed,
    ...(r.note === null ? {} : { replayNote: r.note }),
    ...(r.minimised === null ? {} : { minimisedWitness: witnessJson(r.minimised.witness, r.minimised.index) }),
  };
}

export const ErrorJson = t.intersection([
  Range,
  t.type({ code: t.string, severity: t.string, message: t.string, hints: t.array(t.string) }),
]);

/** a value read from an array used where the typing needs V */
const ReadViolationJson = t.type({
  variable: t.string,
  use: t.string,
  line: t.number,
  column: t.number,
  readLine: t.number,
  readColumn: t.number,
  array: t.string,
});

/** an unknown value (`value`: a float, a texture fetch…) or an approximation of the front end, used where the typing needs V */
const UnknownViolationJson = t.type({
  variable: t.string,
  use: t.string,
  line: t.number,
  column: t.number,
  origin: t.keyof({ value: null, approximation: null }),
  what: t.string,
  /** why the front end approximated; null for an unknown value */
  why: t.union([t.string, t.null]),
  originLine: t.number,
  originColumn: t.number,
});

export const ViolationJson = t.union([ReadViolationJson, UnknownViolationJson]);

/** A front end's approximation: what, where, why. */
export const ApproximationJson = t.intersection([Range, t.type({ what: t.string, why: t.string })]);

/** Present for kernels that use machine integers (`scope`) or have approximations. */
const ScopeJson = t.partial({
  /** the execution model: `independent threads` or `warp size N (lockstep, …)` */
  execution: t.string,
  /** DRF only with lockstep warps: racy or divergent with independent threads (sm_70 and later) */
  lockstepOnly: t.boolean,
  /** what every verdict on the kernel assumes */
  scope: t.string,
  /** the user's requires (`__requires`) and assumes (`__assume`) the verdict holds under, as written */
  assumptions: t.array(t.intersection([Range, t.type({ kind: t.keyof({ requires: null, assume: null }), text: t.string })])),
  approximations: t.array(ApproximationJson),
});

/** Present when some launch may reach an operation outside the scope (W0801), or that was not decided (N0802). */
const WarningsJson = t.partial({ warnings: t.array(ErrorJson) });

export const StatusJson = t.keyof({ drf: null, racy: null, benign: null, divergent: null, vacuous: null, unknown: null, error: null });

/** `--barriers`: what removing each barrier alone does; null when the kernel is not DRF */
const BarriersJson = t.partial({
  barriers: t.union([t.array(t.intersection([Range, t.type({ verdict: t.keyof({ redundant: null, needed: null, 'not-proved': null }), reason: t.string })])), t.null]),
});

export const KernelJson = t.intersection([t.type({
  file: t.string,
  /** null when the file failed before its kernels were known */
  kernel: t.union([t.string, t.null]),
  status: StatusJson,
  wellTyped: t.boolean,
  races: t.array(RaceJson),
  divergences: t.array(DivergenceJson),
  unknowns: t.array(t.type({ query: t.string, reason: t.string })),
  errors: t.array(ErrorJson),
  violations: t.array(ViolationJson),
  stats: t.type({ phases: t.number, arrays: t.number, queries: t.number, withoutSolver: t.number, milliseconds: t.number }),
}), BarriersJson, ScopeJson, WarningsJson]);

/** What a front end read and chose not to model (a CUDA file's ignored annotations, fences…), with the file it is in. */
export const NoticeJson = t.intersection([ErrorJson, t.type({ file: t.string })]);

/** The solver and its budget per query: resource units (null for a solver bounded by time only), and the wall-clock safety net. */
export const SolvingJson = t.type({ name: t.string, rlimit: t.union([t.number, t.null]), timeoutMs: t.number });

export const VerifyReport = t.intersection([
  t.type({
    kernels: t.array(KernelJson),
    summary: t.type({ kernels: t.number, drf: t.number, racy: t.number, benign: t.number, divergent: t.number, vacuous: t.number, unknown: t.number, error: t.number }),
  }),
  t.partial({ notices: t.array(NoticeJson), solver: SolvingJson }),
]);
export type VerifyReport = t.TypeOf<typeof VerifyReport>;
export type KernelJson = t.TypeOf<typeof KernelJson>;
export type WitnessJson = t.TypeOf<typeof WitnessJson>;

function rangeOf(file: SourceFile, span: Span): t.TypeOf<typeof Range> {
  const u = userSpan(file, span);
  return { line: u.start.line, column: u.start.column, endLine: u.end.line, endColumn: u.end.column };
}

function tripleOf(v: readonly bigint[], fill: bigint): t.TypeOf<typeof Triple> {
  return [bigNatOf(v[0] ?? fill), bigNatOf(v[1] ?? fill), bigNatOf(v[2] ?? fill)];
}

function recordOf(m: ReadonlyMap<string, bigint>): Record<string, BigNat> {
  return Object.fromEntries([...m].map(([k, v]) => [k, bigNatOf(v)]));
}

function threadJson(w: ThreadWitness): t.TypeOf<typeof ThreadJson> {
  return { threadIdx: tripleOf(w.threadIdx, 0n), blockIdx: tripleOf(w.blockIdx, 0n), locals: recordOf(w.locals) };
}

function witnessJson(w: Witness, index: readonly bigint[]): WitnessJson {
  return {
    parameters: recordOf(w.parameters),
    blockDim: tripleOf(w.blockDim, 1n),
    gridDim: tripleOf(w.gridDim, 1n),
    index: index.map(bigNatOf),
    threads: [threadJson(w.threads[0]), threadJson(w.threads[1])],
  };
}

function errorJson(d: Diagnostic): t.TypeOf<typeof ErrorJson> {
  return { code: d.code, severity: d.severity, message: d.message, ...rangeOf(d.file, d.span), hints: [...d.hints] };
}

function accessJson(file: SourceFile, a: AccessSite): t.TypeOf<typeof AccessJson> {
  return { mode: a.mode, ...(a.op === undefined ? {} : { operation: a.op }), text: userSpan(file, a.span).text, ...rangeOf(file, a.span) };
}

const NO_STATS = { phases: 0, arrays: 0, queries: 0, withoutSolver: 0, milliseconds: 0 };

export function kernelJson(r: KernelResult): KernelJson {
  return {
    file: r.file.path,
    kernel: r.kernel,
    status: r.status,
    wellTyped: r.wellTyped,
    races: r.races.map((race) => ({
      array: race.array,
      kind: race.kind,
      confidence: race.confidence,
      reason: reasonText(r.file, race.confidence, race.doubts, race.confirmedBy),
      level: race.level,
      phase: race.phase,
      accesses: [accessJson(r.file, race.accesses[0]), accessJson(r.file, race.accesses[1])],
      witness: witnessJson(race.witness, race.index),
      ...(race.field === undefined ? {} : { field: race.field }),
      ...(race.benign === true ? { benign: true } : {}),
      ...(race.confirmedBy === undefined ? {} : { confirmedBy: race.confirmedBy }),
      ...replayJson(race.replay),
    })),
    divergences: r.divergences.map((d) => ({
      ...rangeOf(r.file, d.sync.span),
      confidence: d.confidence,
      reason: reasonText(r.file, d.confidence, d.doubts),
      witness: witnessJson(d.witness, []),
      ...replayJson(d.replay),
    })),
    unknowns: r.unknowns.map((u) => ({ query: u.query, reason: u.reason })),
    errors: r.errors.map(errorJson),
    violations: r.violations.map((v): t.TypeOf<typeof ViolationJson> => {
      const use = userSpan(r.file, v.span).start;
      const from = userSpan(r.file, v.origin.span).start;
      if (!('kind' in v.origin)) return { variable: v.variable, use: v.use, line: use.line, column: use.column, readLine: from.line, readColumn: from.column, array: v.origin.array };
      const why = v.origin.kind === 'approximation' ? v.origin.why : null;
      return { variable: v.variable, use: v.use, line: use.line, column: use.column, origin: v.origin.kind, what: v.origin.what, why, originLine: from.line, originColumn: from.column };
    }),
    stats: { phases: r.stats.phases, arrays: r.stats.arrays, queries: r.stats.queries, withoutSolver: r.stats.withoutSolver, milliseconds: Math.round(r.stats.milliseconds) },
    ...scopeJson(r),
    ...warningsJson(r),
    ...(r.barriers === undefined ? {} : { barriers: r.barriers === null ? null : r.barriers.map((b) => ({ ...rangeOf(r.file, b.sync.span), verdict: b.verdict, reason: barrierReasonText(r, b) })) }),
  };
}

function warningsJson(r: KernelResult): t.TypeOf<typeof WarningsJson> {
  const warnings = undefinedDiagnostics(r);
  return warnings.length === 0 ? {} : { warnings: warnings.map(errorJson) };
}

function scopeJson(r: KernelResult): t.TypeOf<typeof ScopeJson> {
  const scope = scopeText(r);
  const approximations = r.approximations ?? [];
  return {
    execution: executionText(r),
    ...(r.lockstepOnly === true ? { lockstepOnly: true } : {}),
    ...(scope === null ? {} : { scope: scope.replace(/^scope: /, '') }),
    ...((r.assumptions ?? []).length === 0 ? {} : { assumptions: (r.assumptions ?? []).map((a) => ({ kind: a.kind, text: conditionText(r.file, a.span), ...rangeOf(r.file, a.span) })) }),
    ...(approximations.length === 0 ? {} : { approximations: approximations.map((a) => ({ what: a.what, why: a.why, ...rangeOf(r.file, a.span) })) }),
  };
}

export function reportJson(files: readonly FileResult[], solving?: SolvingRun): VerifyReport {
  // a file with no kernel (a host file of a project) counts no kernel: it is a notice, not a kernel in error
  const withKernels = files.filter((f) => !withoutKernel(f));
  const kernels = withKernels.flatMap((f): KernelJson[] =>
    f.ok
      ? f.kernels.map(kernelJson)
      : [
          {
            file: f.path,
            kernel: null,
            status: 'error',
            wellTyped: false,
            races: [],
            divergences: [],
            unknowns: [],
            errors: f.diagnostics.map(errorJson),
            violations: [],
            stats: NO_STATS,
          },
        ],
  );
  const { total, byStatus } = statusCounts(withKernels);
  const count = (s: Status): number => byStatus.get(s) ?? 0;
  const noKernel = files.flatMap((f) => (!f.ok && withoutKernel(f) ? [{ ...errorJson(f.diagnostics[0]!), severity: 'note' as const, message: 'no kernel in this file', hints: [], file: f.path }] : []));
  const notices = [...files.flatMap((f) => (f.ok ? (f.notices ?? []) : [])).map((d) => ({ ...errorJson(d), file: userSpan(d.file, d.span).file.path })), ...noKernel];
  return {
    kernels,
    summary: {
      kernels: total,
      drf: count('drf'),
      racy: count('racy'),
      benign: count('benign'),
      divergent: count('divergent'),
      vacuous: count('vacuous'),
      unknown: count('unknown'),
      error: count('error'),
    },
    ...(notices.length === 0 ? {} : { notices }),
    ...(solving === undefined ? {} : { solver: { name: solving.solver, rlimit: solving.rlimit, timeoutMs: solving.timeoutMs } }),
  };
}
