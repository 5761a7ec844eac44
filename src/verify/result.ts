/** What `verify` finds, per kernel: the data every output format is made from. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { AtomicOp, StatedAssumption, UnknownOrigin } from '../core/ast.js';
import type { Approximation, Mode, ReadOrigin, SyncSite, TypingViolation } from '../map/map.js';
import type { RaceLevel, SiteReached } from '../encode/query.js';
import type { SourceFile, Span } from '../core/source.js';

/** `benign`: racy, but only by write-write races of provably equal values (Race.benign); `vacuous`: no launch satisfies the kernel's assumptions */
export type Status = 'drf' | 'racy' | 'benign' | 'divergent' | 'vacuous' | 'unknown' | 'error';
export type Confidence = 'confirmed' | 'possible';
export type RaceKind = 'write-write' | 'read-write' | 'atomic-write' | 'atomic-read';

/** The kind of a race between accesses of these modes (never two reads, never two atomics). */
export function raceKind(a: Mode, b: Mode): RaceKind {
  if (a === 'atomic' || b === 'atomic') return a === 'write' || b === 'write' ? 'atomic-write' : 'atomic-read';
  return a === 'write' && b === 'write' ? 'write-write' : 'read-write';
}

export interface AccessSite {
  readonly id: number;
  readonly mode: Mode;
  /** an atomic's operation */
  readonly op?: AtomicOp;
  readonly span: Span;
}

export interface ThreadWitness {
  readonly threadIdx: readonly bigint[];
  readonly blockIdx: readonly bigint[];
  /** loop variables, pure lets and values read, by source name */
  readonly locals: ReadonlyMap<string, bigint>;
}

export interface Witness {
  readonly parameters: ReadonlyMap<string, bigint>;
  readonly blockDim: readonly bigint[];
  readonly gridDim: readonly bigint[];
  readonly threads: readonly [ThreadWitness, ThreadWitness];
}

/** Why an alarm is only possible. */
export type Doubt =
  | { readonly kind: 'data'; readonly variable: string; readonly origin: ReadOrigin }
  /** a value the front end could not know, or one of its approximations (a `havoc`) */
  | { readonly kind: 'unknown'; readonly variable: string; readonly origin: UnknownOrigin }
  | { readonly kind: 'approximated-loop'; readonly span: Span }
  | { readonly kind: 'large-shift' }
  /** the divergence query of this barrier got no answer: at the witness's launch the block may split at it, and the race never happen */
  | { readonly kind: 'divergence-unknown'; readonly sync: SyncSite; readonly query: string }
  /**
   * the witness's launch is not proved in scope: a thread of it (`thread`)
   * may fail the assumption at `span`, which would exclude the launch
   */
  | { readonly kind: 'assumption'; readonly span: Span; readonly thread: ThreadId; readonly query: string }
  /**
   * the witness's launch is not proved in scope: a thread of it (`thread`,
   * maybe one of the alarm's) may evaluate the undefined operation at
   * `span` (null: at a place not named), which would put the launch
   * outside the scope
   */
  | { readonly kind: 'undefined-operation'; readonly span: Span | null; readonly thread: ThreadId; readonly query: string }
  /** the check that the witness's launch is in scope got no answer */
  | { readonly kind: 'scope-unknown'; readonly query: string };

/** An operation outside the scope that some launch the kernel allows may reach undefined, with the launch and thread a model gave. */
export interface UndefinedReached extends SiteReached {
  readonly thread: ThreadId;
  readonly parameters: ReadonlyMap<string, bigint>;
  readonly blockDim: readonly bigint[];
  readonly gridDim: readonly bigint[];
  readonly query: string;
}

/** What the check of the operations outside the scope found (src/verify/undefined.ts). */
export interface UndefinedOperations {
  readonly reachable: readonly UndefinedReached[];
  /** the sites not found reachable were not all proved unreachable: the query left unanswered, and why */
  readonly undecided: { readonly query: string; readonly reason: string } | null;
}

export interface ThreadId {
  readonly threadIdx: readonly bigint[];
  readonly blockIdx: readonly bigint[];
}

/** What `verify --replay` found when the interpreter ran a confirmed alarm's witness. */
export interface ReplayRecord {
  /** the interpreter saw the alarm */
  readonly replayed: boolean;
  /** why not, when it did not */
  readonly note: string | null;
  /** the small witness replayed instead of the reported one (too large to run), with its element */
  readonly minimised: { readonly witness: Witness; readonly index: readonly bigint[] } | null;
}

export interface Race {
  readonly array: string;
  /** `atomic-write`, `atomic-read`: an atomic and a plain write, or a plain read */
  readonly kind: RaceKind;
  readonly level: RaceLevel;
  /** the phase of the block (level block) or of the warp-level split (level warp) */
  readonly phase: number | null;
  readonly confidence: Confidence;
  readonly doubts: readonly Doubt[];
  readonly accesses: readonly [AccessSite, AccessSite];
  readonly index: readonly bigint[];
  /** the struct field the index's last component picks (core/ast.ts ArrayDecl `fields`), absent for scalar elements */
  readonly field?: string;
  readonly witness: Witness;
  readonly replay?: ReplayRecord;
  /**
   * `run`: confirmed by running its witness's launch with every array
   * zero-filled (src/verify/witness-run.ts raceShownByRun), though the
   * verifier alone left it possible (values read from memory, a scope check
   * undecided); its doubts are what the run decided, and its witness's
   * locals are left out, as the solver's values read need not be the run's.
   * Absent: confirmed (or possible) by the verifier alone.
   */
  readonly confirmedBy?: 'run';
  /**
   * A write-write race whose two values are provably equal wherever the pair
   * races (never values read or unknown): still a race by the definition,
   * reported as a warning unless `--strict-races` (absent: not benign)
   */
  readonly benign?: true;
}

export interface Divergence {
  readonly sync: SyncSite;
  readonly confidence: Confidence;
  readonly doubts: readonly Doubt[];
  /** thread 1 reaches the barrier, thread 2 does not */
  readonly witness: Witness;
  readonly replay?: ReplayRecord;
}

export interface Unknown {
  readonly query: string;
  readonly reason: string;
}

/**
 * Where verifying a kernel spends its time: the phase split (its solver
 * checks excepted), encoding (building queries and printing them as
 * SMT-LIB), solving (every solver check), and witnesses (re-checking models,
 * building witnesses, classifying alarms).
 */
export const VERIFY_STAGES = ['phases', 'encoding', 'solving', 'witnesses'] as const;
export type VerifyStage = (typeof VERIFY_STAGES)[number];

export interface Stats {
  readonly accesses: number;
  readonly phases: number;
  readonly arrays: number;
  readonly queries: number;
  /** the queries decided without a solver: unsat by the simplifier, or sat by a model found by evaluation */
  readonly withoutSolver: number;
  readonly milliseconds: number;
  /** milliseconds per stage; they add up to `milliseconds` */
  readonly stages: Readonly<Record<VerifyStage, number>>;
}

/**
 * What removing one barrier, and only that one, does to a DRF kernel:
 * `redundant` when the kernel without it is proved DRF and divergence-free,
 * `needed` when it then has a confirmed race or divergence, `not-proved`
 * when it has only possible alarms or unanswered queries.
 */
export type BarrierVerdict = 'redundant' | 'needed' | 'not-proved';

export interface BarrierCheck {
  readonly sync: SyncSite;
  readonly verdict: BarrierVerdict;
  /** the kernel without this barrier, as verified: the proof, or why there is none */
  readonly without: KernelResult;
}

export interface KernelResult {
  readonly file: SourceFile;
  readonly kernel: string;
  readonly span: Span;
  readonly status: Status;
  readonly wellTyped: boolean;
  readonly violations: readonly TypingViolation[];
  readonly races: readonly Race[];
  readonly divergences: readonly Divergence[];
  readonly unknowns: readonly Unknown[];
  readonly errors: readonly Diagnostic[];
  /**
   * no launch is in scope: none satisfies the kernel's assumptions
   * (requires, launch clause, command line, the assumptions its threads
   * surely reach) with its threads free of undefined operations where they
   * surely evaluate them: nothing was proved, and no race was looked for
   */
  readonly vacuous: boolean;
  readonly stats: Stats;
  /** the kernel uses machine integers: its verdict holds within the scope of no undefined operation (absent: it does not) */
  readonly machineIntegers?: boolean;
  /** the operations outside the scope some launch may reach undefined (absent: the kernel has none that may be undefined) */
  readonly undefinedOperations?: UndefinedOperations;
  /** assumptions about the launch beyond CUDA's rules that the verdict rests on, stated in every report (src/core/scope.ts; absent: none) */
  readonly launchAssumptions?: readonly string[];
  /** the user's own requires and assumes, which the verdict holds under and every report states (absent: none) */
  readonly assumptions?: readonly StatedAssumption[];
  /** the threads of each warp of this many ran in lockstep (`--warp-size`; absent: independent threads) */
  readonly warpSize?: number;
  /**
   * DRF only because warps ran in lockstep: the same kernel with independent
   * threads is racy or divergent, so it is on sm_70 and later (absent: not
   * found so, or not in lockstep)
   */
  readonly lockstepOnly?: boolean;
  /** the front end's approximations in the kernel (absent: none) */
  readonly approximations?: readonly Approximation[];
  /**
   * When `--barriers` asked: one check per barrier, in source order; null
   * when the kernel is not DRF, as then no barrier can be judged by it
   */
  readonly barriers?: readonly BarrierCheck[] | null;
}

export function statusOf(r: Pick<KernelResult, 'errors' | 'divergences' | 'races' | 'unknowns' | 'vacuous'>): Status {
  if (r.errors.length > 0) return 'error';
  if (r.divergences.length > 0) return 'divergent';
  if (r.vacuous) return 'vacuous';
  if (r.races.some((race) => race.benign !== true)) return 'racy';
  if (r.unknowns.length > 0) return 'unknown';
  return r.races.length > 0 ? 'benign' : 'drf';
}

/** `--strict-races`: benign races are races like any other. */
export function strictRaces(r: KernelResult): KernelResult {
  if (!r.races.some((race) => race.benign === true)) return r;
  const base = { ...r, races: r.races.map(({ benign: _benign, ...race }) => race) };
  return { ...base, status: statusOf(base) };
}

/** A file's kernels as verified, or the diagnostics that stopped it before verification. */
export type FileResult =
  | {
      readonly ok: true;
      readonly path: string;
      readonly kernels: readonly KernelResult[];
      /** what the front end read and chose not to model (CUDA: ignored annotations, fences…), said once per file */
      readonly notices?: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly path: string; readonly diagnostics: readonly Diagnostic[] };
