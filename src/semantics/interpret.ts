/**
 * The executable concrete semantics of BabyCUDA: runs one kernel for one
 * launch and records its access history, following Figure 5 of Liew,
 * Cogumbreiro and Lange, "Provable GPU Data-Races in Static Race Detection"
 * (PLACES 2022).
 *
 * - Each block runs on its own. Its threads run one barrier phase at a time:
 *   every thread runs up to its next `sync` (or its end); then the barrier is
 *   checked (all threads at the same `sync` in the same iteration of every
 *   loop around it, or all finished — otherwise barrier divergence) and the
 *   phase's writes are committed. Iterations are counted (0, 1, 2, … from
 *   the loop's start), not named by the loop variable's value: in
 *   `for i in tid..tid + 2 { sync }` every thread meets the barrier twice,
 *   in its iterations 0 and 1, whatever its values of i.
 * - Within a phase threads do not see each other's writes (paper's lastwrite):
 *   a read returns the thread's own last write to the element in the current
 *   phase, else the block's committed value from earlier phases, else the
 *   initial content. This holds for shared arrays (one copy per block) and
 *   for global arrays, where a block sees its own earlier phases' writes and
 *   never another block's. When several threads write one element in the same
 *   phase (a race), the thread with the highest linear id wins the commit.
 * - Races (paper Definition 1): two distinct threads of one block in the same
 *   phase access the same element, one writes. On global arrays, two threads
 *   of different blocks race whenever they access the same element and one
 *   writes, whatever the phases.
 * - Atomics run in one total order (the order the threads run in): an atomic
 *   reads the element's latest value (its own thread's write in the phase,
 *   else the block's memory, where every atomic writes at once, else for a
 *   global array what the blocks before left) and writes its result there. An
 *   atomic counts as a write for races, except that two atomics never race.
 *
 * - `syncwarp` is a barrier among the threads of one warp (linear ids
 *   i·N … i·N + N − 1, N the lockstep warp size, else CUDA's 32): every thread
 *   of the warp runs up to it, then they all must be at the same `syncwarp`
 *   in the same iterations (otherwise barrier divergence, which stops the
 *   block like a `sync`'s), and go on together; the block's phase goes
 *   through it. After it a thread sees the writes its warp made before it
 *   (CUDA: "guarantees memory ordering among threads participating"). Two
 *   threads of one warp race only within one warp phase (between two
 *   barriers of either kind), threads of different warps within one block
 *   phase, as without `syncwarp`.
 * - Lockstep warps (`warpSize`, src/map/lockstep.ts): the threads of each
 *   warp (linear ids i·N … i·N + N − 1) run together, one statement instance
 *   at a time, always the earliest in program order that one of them is at
 *   (a diverged warp runs the `then` side first, loops iteration by
 *   iteration, and reconverges after the statement); a read sees the latest
 *   write of its warp in the phase. Two threads of one warp race only at one
 *   statement instance (both writing) or on the two sides of one instance of
 *   an `if`; threads of different warps as above.
 *
 * Deterministic: blocks and threads (warps) run in linear order (x fastest,
 * then y, then z).
 */
import type { AtomicOp, IntType, Kernel, Launch as LaunchClause, Scope, Stmt } from '../core/ast.js';
import { inRange, typeMax, typeMin, UndefinedOperation } from '../core/arith.js';
import type { Span } from '../core/source.js';
import { atomicResult, EvalError, evalBExpr, evalExpr, type BuiltinValues, type ValueEnv, type Vec3 } from './values.js';
import { defaultStep, loopContinues, loopNext, type LoopShape } from './loops.js';
import { DEFAULT_WARP_SIZE, warpOf } from '../core/launch.js';
import { assertNever } from '../util/assert.js';

// ---------------------------------------------------------------------------
// Inputs

/** One launch: parameter values and dimensions. A dimension left out comes from the kernel's launch clause, else is 1 (grid) or required (block). */
export interface Launch {
  readonly params: Readonly<Record<string, bigint>>;
  readonly gridDim?: Vec3;
  readonly blockDim?: Vec3;
}

/** Initial contents of one array; elements not given are 0. */
export type InitContent =
  /** the first elements, in row-major order of the declared sizes (index [i] when the array declares no sizes) */
  | { readonly kind: 'list'; readonly values: readonly bigint[] }
  /** element key (see {@link elementKey}) → value */
  | { readonly kind: 'elements'; readonly values: ReadonlyMap<string, bigint> }
  /** every element pseudo-random in [0, bound), a function of seed, array and element only */
  | { readonly kind: 'random'; readonly seed: number; readonly bound?: bigint };

export interface RunOptions {
  /** array name → initial contents; absent arrays are all 0 */
  readonly init?: Readonly<Record<string, InitContent>>;
  /** statements and loop iterations executed, over all threads (default {@link DEFAULT_MAX_STEPS}) */
  readonly maxSteps?: number;
  /**
   * memory accesses executed, over all threads (default: no limit but the
   * steps'): the run keeps every one in its history, so this bounds its memory
   */
  readonly maxAccesses?: number;
  /** threads in the grid (default {@link DEFAULT_MAX_THREADS}) */
  readonly maxThreads?: number;
  /** races and uninitialised reads kept, each (default {@link DEFAULT_MAX_REPORTS}) */
  readonly maxReports?: number;
  /**
   * Only the races on this element are kept (what replay looks for): in a
   * large launch, races on other elements would fill the list first.
   */
  readonly racesOn?: { readonly array: string; readonly index: readonly bigint[] };
  /**
   * The seed of the unknown values `havoc` binds (default 0): each is a
   * function of the seed, the statement, the thread and how many the thread
   * bound before, within the variable's type.
   */
  readonly seed?: number;
  /**
   * What names a `havoc` statement in the key of its values (default: its
   * offset in the kernel's file, with the thread's count of values bound
   * before). When given, a value is keyed by this name, the thread, and how
   * many values the thread bound at statements of that name before: two
   * kernels whose havocs the caller names alike (the round trip through the
   * CUDA front end names them by the source line of the unknown value) draw
   * the same values, even where one has havocs the other has not.
   */
  readonly unknownSite?: (havoc: HavocStmt) => string;
  /** lockstep warps of this many threads (see the module comment); absent: independent threads */
  readonly warpSize?: number;
}

export const DEFAULT_MAX_STEPS = 1_000_000;
export const DEFAULT_MAX_THREADS = 4096;
export const DEFAULT_MAX_REPORTS = 1000;

// ---------------------------------------------------------------------------
// Results

export interface ResolvedLaunch {
  readonly params: Readonly<Record<string, bigint>>;
  readonly gridDim: Vec3;
  readonly blockDim: Vec3;
}

export interface ThreadRef {
  readonly block: Vec3;
  readonly thread: Vec3;
}

export type AccessKind = 'read' | 'write' | 'atomic';

/** One access of one thread: the value read, the value written, or an atomic's old value. */
export interface Access {
  readonly kind: AccessKind;
  readonly array: string;
  readonly index: readonly bigint[];
  readonly value: bigint;
  /** the `A[i]` of the statement */
  readonly span: Span;
  /** an atomic's operation */
  readonly op?: AtomicOp;
}

export interface ThreadPhase {
  readonly thread: Vec3;
  /** in program order */
  readonly accesses: readonly Access[];
}

export type PhaseEnd =
  | { readonly kind: 'sync'; readonly span: Span }
  | { readonly kind: 'exit' }
  /** the block stopped here: its threads did not agree on the barrier */
  | { readonly kind: 'divergence' };

export interface PhaseTrace {
  readonly index: number;
  readonly end: PhaseEnd;
  /** threads with at least one access in this phase, in linear order */
  readonly threads: readonly ThreadPhase[];
}

export interface BlockTrace {
  readonly block: Vec3;
  readonly phases: readonly PhaseTrace[];
}

export interface RaceAccess {
  readonly block: Vec3;
  readonly thread: Vec3;
  readonly kind: AccessKind;
  readonly span: Span;
  /** the phase of its block in which the access happened */
  readonly phase: number;
  /** the value read or written (an atomic's: the value it read) */
  readonly value: bigint;
}

export interface Race {
  readonly array: string;
  readonly scope: Scope;
  readonly index: readonly bigint[];
  /** two threads of one block in one phase, or two threads of different blocks (global arrays) */
  readonly between: 'threads' | 'blocks';
  readonly first: RaceAccess;
  readonly second: RaceAccess;
}

export interface Divergence {
  readonly block: Vec3;
  /** the phase that ends at the disputed barrier */
  readonly phase: number;
  /** the barrier that `reached` waits at: a `sync` (the block's threads disagree) or a `syncwarp` (a warp's) */
  readonly barrier: 'sync' | 'syncwarp';
  readonly sync: Span;
  readonly reached: Vec3;
  /** a thread of the block (a `syncwarp`: of the warp) that is not there */
  readonly notReached: Vec3;
  /** where `notReached` is instead: at another barrier (or this one in other iterations), or finished */
  readonly notReachedAt: { readonly kind: 'sync' | 'syncwarp'; readonly span: Span } | { readonly kind: 'exit' };
}

/** A read of an element nobody wrote before and whose initial content was not given (so it read 0). */
export interface UninitializedRead {
  readonly array: string;
  readonly index: readonly bigint[];
  readonly block: Vec3;
  readonly thread: Vec3;
  readonly span: Span;
}

export interface Cell {
  readonly array: string;
  readonly index: readonly bigint[];
  readonly value: bigint;
}

/** Final contents of the elements written: one entry per global array, one per (shared array, block). */
export interface MemoryContents {
  readonly array: string;
  readonly scope: Scope;
  /** the block owning this copy (shared arrays); null for global arrays */
  readonly block: Vec3 | null;
  /** in element order (row-major over the indices) */
  readonly cells: readonly Cell[];
}

/** Cells in element order: the order in which threads happened to write them is not part of the contents. */
function inElementOrder(cells: readonly Cell[]): Cell[] {
  const before = (a: Cell, b: Cell): number => {
    for (let i = 0; i < Math.min(a.index.length, b.index.length); i++) if (a.index[i] !== b.index[i]) return a.index[i]! < b.index[i]! ? -1 : 1;
    return a.index.length - b.index.length;
  };
  return [...cells].sort(before);
}

export interface Finished {
  readonly kind: 'finished';
  readonly launch: ResolvedLaunch;
  /** the access history: for each block, its phases */
  readonly blocks: readonly BlockTrace[];
  readonly races: readonly Race[];
  readonly divergences: readonly Divergence[];
  readonly uninitializedReads: readonly UninitializedRead[];
  readonly memory: readonly MemoryContents[];
  /** some races or uninitialised reads were left out (options.maxReports) */
  readonly truncated: boolean;
  readonly steps: number;
  /** the values `havoc` bound, per thread (by `threadKey`) in program order */
  readonly unknownValues: ReadonlyMap<string, readonly bigint[]>;
}

/** The key of a thread of a run: its block's and its own index. */
export function threadKey(block: Vec3, thread: Vec3): string {
  return `${block.join(',')}|${thread.join(',')}`;
}

/** Each thread's accesses over all phases, in program order, by `threadKey`. */
export function threadAccesses(run: Finished): Map<string, Access[]> {
  const out = new Map<string, Access[]>();
  for (const b of run.blocks) {
    for (const p of b.phases) {
      for (const t of p.threads) {
        const key = threadKey(b.block, t.thread);
        const list = out.get(key) ?? [];
        list.push(...t.accesses);
        out.set(key, list);
      }
    }
  }
  return out;
}

export interface Infeasible {
  readonly kind: 'infeasible';
  readonly launch: ResolvedLaunch;
  readonly message: string;
  /** the `assume` that failed */
  readonly span: Span;
  readonly block: Vec3;
  readonly thread: Vec3;
}

/**
 * A thread evaluated an undefined machine-integer operation (overflow,
 * division by zero, shift out of range): the launch is outside the scope of
 * verification, as an infeasible one is.
 */
export interface UndefinedBehaviour {
  readonly kind: 'undefined';
  readonly launch: ResolvedLaunch | null;
  /** what was undefined */
  readonly message: string;
  /** the operation */
  readonly span: Span;
  /** the thread that evaluated it; null for the kernel's header */
  readonly at: ThreadRef | null;
}

export interface LimitReached {
  readonly kind: 'limit';
  readonly limit: 'steps' | 'accesses' | 'threads' | 'loop' | 'value';
  readonly message: string;
  readonly span: Span | null;
  readonly at: ThreadRef | null;
}

export interface RunError {
  readonly kind: 'error';
  readonly reason: 'params' | 'dims' | 'requires' | 'unbound' | 'array' | 'init';
  readonly message: string;
  readonly span: Span | null;
}

export type RunResult = Finished | Infeasible | UndefinedBehaviour | LimitReached | RunError;

// ---------------------------------------------------------------------------
// Helpers

/** The key of an element in maps: its indices joined by commas (`"2,0"`). */
export function elementKey(index: readonly bigint[]): string {
  return index.join(',');
}

export function vecText(v: Vec3): string {
  return `(${v[0]},${v[1]},${v[2]})`;
}

function vecProduct(v: Vec3): bigint {
  return v[0] * v[1] * v[2];
}

/** The vectors 0 ≤ v < dim in linear order, x fastest. */
function vecRange(dim: Vec3): Vec3[] {
  const out: Vec3[] = [];
  for (let z = 0n; z < dim[2]; z++) for (let y = 0n; y < dim[1]; y++) for (let x = 0n; x < dim[0]; x++) out.push([x, y, z]);
  return out;
}

function vecEqual(a: Vec3, b: Vec3): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

/** A deterministic hash of a string to 32 bits (FNV-1a followed by a murmur3 finaliser). */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export const DEFAULT_RANDOM_BOUND = 256n;

/** The value of element `index` of `array` under `random:seed` contents. */
export function randomElement(seed: number, array: string, index: readonly bigint[], bound: bigint = DEFAULT_RANDOM_BOUND): bigint {
  const hi = BigInt(hash32(`${seed}:${array}:${elementKey(index)}`));
  const lo = BigInt(hash32(`${elementKey(index)}:${array}:${seed}`));
  return bound <= 0n ? 0n : ((hi << 32n) | lo) % bound;
}

class Stop {
  constructor(readonly result: LimitReached | RunError | Omit<Infeasible, 'launch'> | Omit<UndefinedBehaviour, 'launch'>) {}
}

type SyncStmt = Extract<Stmt, { kind: 'sync' }>;
type SyncwarpStmt = Extract<Stmt, { kind: 'syncwarp' }>;
type HavocStmt = Extract<Stmt, { kind: 'havoc' }>;
/** A thread stops at each barrier and, for the lockstep scheduler, before each access. */
type ThreadRun = Generator<SyncStmt | SyncwarpStmt | typeof BEFORE_ACCESS, void, undefined>;
/** A thread of a block with its run. */
type Running = { readonly t: ThreadState; readonly run: ThreadRun };
const BEFORE_ACCESS = { kind: 'access' } as const;

/**
 * Where a thread is in the kernel: the item of each block, the side of each
 * `if` (then first), the iteration of each loop, outermost first. Program
 * order is their lexicographic order (a prefix first: a statement before
 * what its `let` scopes over).
 */
type Place = { readonly k: 'item' | 'side' | 'iteration'; readonly n: number };

function comparePlaces(a: readonly Place[], b: readonly Place[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i]!.n !== b[i]!.n) return a[i]!.n - b[i]!.n;
  return a.length - b.length;
}

/** An access of a lockstep warp, numbered in the run's order. */
interface LockstepAccess {
  readonly ref: RaceAccess;
  readonly site: Site;
  readonly order: number;
}

/** Accesses at one place (or below one prefix of places), by element and site: the first two threads of each. */
interface LockstepGroup {
  readonly place: readonly Place[];
  readonly cells: Map<string, Map<string, LockstepAccess[]>>;
}

/**
 * A warp's accesses in a phase that a later access can be unordered with:
 * those at the latest place, and, by the depth of an `if` on its path, those
 * in that instance's then side.
 */
interface LockstepWarp {
  at: LockstepGroup;
  readonly thenSides: (LockstepGroup | undefined)[];
}

/** Whether `place` lies at or below `prefix` (the steps of one place's position are the same kinds: the numbers say it). */
function startsWith(place: readonly Place[], prefix: readonly Place[]): boolean {
  if (prefix.length > place.length) return false;
  for (let i = 0; i < prefix.length; i++) if (place[i]!.n !== prefix[i]!.n) return false;
  return true;
}

/**
 * Writes of a phase not yet committed, by cell key. An atomic makes the
 * writer's own earlier write to its element stale: the entry becomes null,
 * never deleted, because V8 keeps a deleted Map entry in its key's hash chain
 * until the table is rebuilt, so deleting and adding the same few keys of a
 * large map costs time in proportion to its size (a long phase went
 * quadratic).
 */
type Writes = Map<string, Cell | null>;

/** The writes that are not stale, set in `into` (a block's memory, or a warp's seen writes). */
function commitWrites(writes: Writes, into: { set(key: string, cell: Cell): unknown }): void {
  for (const [key, cell] of writes) if (cell !== null) into.set(key, cell);
}

interface ThreadState {
  readonly ref: ThreadRef;
  readonly vars: Map<string, bigint>;
  readonly env: ValueEnv;
  /** this phase's writes, by cell key */
  readonly phaseWrites: Writes;
  accesses: Access[];
  /** the values `havoc` bound, in program order */
  readonly unknowns: bigint[];
  /** how many values `havoc` bound, by the caller's name of the statement (options.unknownSite) */
  readonly unknownsAt: Map<string, number>;
  /** the iteration number (0, 1, …) of every loop around the point reached, outermost first */
  readonly iteration: number[];
  /** where the thread is (lockstep warps) */
  readonly place: Place[];
  /** its warp's writes of this phase, by cell key (lockstep warps; shared by the warp) */
  readonly warpWrites: Writes | null;
  /** its warp's writes of this phase before the last `syncwarp`, by cell key (independent threads; shared by the warp) */
  readonly warpSeen: Writes | null;
  /** at a barrier: which one, and in which iterations of the loops around it (`iteration` joined) */
  status: { kind: 'running' } | { kind: 'sync'; stmt: SyncStmt; instance: string } | { kind: 'syncwarp'; stmt: SyncwarpStmt; instance: string } | { kind: 'done' };
}

interface Site {
  readonly key: string;
  readonly kind: AccessKind;
  readonly span: Span;
}

interface SiteRefs {
  readonly site: Site;
  /** the witnesses kept (addSite): the first, then those of `apart` and `unlike`, at most five */
  readonly refs: RaceAccess[];
  /** at most two apart from the first (another thread, warp or block), of different values */
  readonly apart: RaceAccess[];
  /** at most two of a value other than the first's, apart from each other */
  readonly unlike: RaceAccess[];
}

interface ElementSites {
  readonly array: string;
  readonly index: readonly bigint[];
  readonly sites: Map<string, SiteRefs>;
}

function cellKey(array: string, index: readonly bigint[]): string {
  return `${array}[${elementKey(index)}]`;
}

/**
 * Runs `kernel` for one launch. Never throws for a problem of the program or
 * launch: the result says what happened.
 */
export function runKernel(kernel: Kernel, launch: Launch, options: RunOptions = {}): RunResult {
  return new KernelRun(kernel, launch, options).run();
}

function evalFailure(err: EvalError, at: ThreadRef | null): LimitReached | RunError | Omit<UndefinedBehaviour, 'launch'> {
  switch (err.reason) {
    case 'too-large':
      return { kind: 'limit', limit: 'value', message: err.message, span: err.span, at };
    case 'undefined':
      return { kind: 'undefined', message: err.message, span: err.span, at };
    case 'unbound':
      return { kind: 'error', reason: 'unbound', message: err.message, span: err.span };
  }
}

/** Resolves the launch dimensions: user-given ones must agree with the kernel's launch clause. */
function resolveDims(kernel: Kernel, launch: Launch): { gridDim: Vec3; blockDim: Vec3 } {
  const clause: LaunchClause | null = kernel.launch;
  const paramEnv: ValueEnv = { vars: new Map(Object.entries(launch.params)), builtins: {} };
  const fromClause = (which: 'grid' | 'block'): Vec3 | null => {
    if (clause === null) return null;
    const d = clause[which];
    const ev = (e: typeof d.x | null): bigint => (e === null ? 1n : evalExpr(e, paramEnv));
    return [ev(d.x), ev(d.y), ev(d.z)];
  };
  const pick = (which: 'grid' | 'block', given: Vec3 | undefined, fallback: Vec3 | null): Vec3 => {
    const declared = fromClause(which);
    const name = which === 'grid' ? 'gridDim' : 'blockDim';
    if (declared !== null && given !== undefined && !vecEqual(declared, given)) {
      throw new Stop({
        kind: 'error',
        reason: 'dims',
        message: `${name} ${vecText(given)} disagrees with the kernel's launch clause, which gives ${vecText(declared)}`,
        span: clause === null ? null : clause[which].span,
      });
    }
    const dim = given ?? declared ?? fallback;
    if (dim === null) {
      throw new Stop({
        kind: 'error',
        reason: 'dims',
        message: `the kernel has no launch clause: give ${name} (e.g. --block-dim 32)`,
        span: kernel.name.span,
      });
    }
    if (dim.some((c) => c < 1n)) {
      throw new Stop({ kind: 'error', reason: 'dims', message: `${name} ${vecText(dim)}: every dimension must be at least 1`, span: clause === null ? null : clause[which].span });
    }
    return dim;
  };
  return { gridDim: pick('grid', launch.gridDim, [1n, 1n, 1n]), blockDim: pick('block', launch.blockDim, null) };
}

class KernelRun {
  private readonly maxSteps: number;
  private readonly maxThreads: number;
  private readonly maxReports: number;
  /** the element whose races alone are kept (options.racesOn), by its cell key */
  private readonly racesOnly: string | undefined;
  private readonly scopes = new Map<string, Scope>();
  private readonly sizes = new Map<string, readonly bigint[]>();
  private launch!: ResolvedLaunch;
  /** whether threads of different blocks can race (on global arrays) */
  private manyBlocks = false;
  private steps = 0;
  private truncated = false;
  /** the phase being run, and its accesses by element, for races within the block */
  private phase = 0;
  private phaseSites = new Map<string, ElementSites>();
  /** lockstep warps: their size, and this phase's accesses by warp and element, with their places */
  private readonly warpSize: number | null;
  private warpSites = new Map<bigint, LockstepWarp>();
  /** accesses made so far in the run (lockstepRaces reports the earliest first) */
  private accessCount = 0;
  private readonly maxAccesses: number;
  /** the size of the warps a `syncwarp` synchronises (lockstep's, else CUDA's), when the kernel has one */
  private readonly syncwarpSize: number | null;
  /** independent threads and `syncwarp`: the accesses of the warp phase being run (one warp's), for races within the warp */
  private readonly warpPhases: boolean;
  private warpPhaseSites = new Map<string, ElementSites>();

  private readonly races: Race[] = [];
  /** each reported race's place in `races`, by its pair of sites on its element */
  private readonly raceKeys = new Map<string, number>();
  private readonly uninitialized: UninitializedRead[] = [];
  private readonly uninitializedKeys = new Set<string>();
  /** global arrays: every access of every block, for races between blocks */
  private readonly gridSites = new Map<string, ElementSites>();
  private readonly globalMemory = new Map<string, Cell>();
  private readonly unknownValues = new Map<string, bigint[]>();

  constructor(
    private readonly kernel: Kernel,
    private readonly given: Launch,
    private readonly options: RunOptions,
  ) {
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.maxAccesses = options.maxAccesses ?? Infinity;
    this.maxThreads = options.maxThreads ?? DEFAULT_MAX_THREADS;
    this.maxReports = options.maxReports ?? DEFAULT_MAX_REPORTS;
    this.racesOnly = options.racesOn === undefined ? undefined : cellKey(options.racesOn.array, options.racesOn.index);
    this.warpSize = options.warpSize ?? null;
    this.syncwarpSize = hasSyncwarp(kernel.body) ? (options.warpSize ?? DEFAULT_WARP_SIZE) : null;
    this.warpPhases = this.syncwarpSize !== null && this.warpSize === null;
    for (const a of kernel.arrays) this.scopes.set(a.name.text, a.scope);
  }

  run(): RunResult {
    try {
      return this.runLaunch();
    } catch (err) {
      const stop = err instanceof Stop ? err.result : err instanceof EvalError ? evalFailure(err, null) : null;
      if (stop === null) throw err;
      if (stop.kind === 'infeasible') return { ...stop, launch: this.launch };
      // the launch is resolved unless the header itself was undefined
      if (stop.kind === 'undefined') return { ...stop, launch: (this.launch as ResolvedLaunch | undefined) ?? null };
      return stop;
    }
  }

  private runLaunch(): RunResult {
    const given = new Map(Object.entries(this.given.params));
    const missing = this.kernel.params.filter((p) => !given.has(p.text));
    if (missing.length > 0) {
      return {
        kind: 'error',
        reason: 'params',
        message: `parameter${missing.length > 1 ? 's' : ''} ${missing.map((p) => `'${p.text}'`).join(', ')} need${missing.length > 1 ? '' : 's'} a value (-p ${missing[0]!.text}=…)`,
        span: missing[0]!.span,
      };
    }
    const negative = this.kernel.params.find((p) => p.type === undefined && given.get(p.text)! < 0n);
    if (negative !== undefined) {
      return { kind: 'error', reason: 'params', message: `parameter '${negative.text}' must be a natural number`, span: negative.span };
    }
    const outside = this.kernel.params.find((p) => p.type !== undefined && !inRange(p.type, given.get(p.text)!));
    if (outside?.type !== undefined) {
      return { kind: 'error', reason: 'params', message: `parameter '${outside.text}' is of type ${outside.type}: ${given.get(outside.text)} is outside its range [${typeMin(outside.type)}, ${typeMax(outside.type)}]`, span: outside.span };
    }
    const params: Record<string, bigint> = Object.fromEntries(this.kernel.params.map((p) => [p.text, given.get(p.text)!]));
    const dims = resolveDims(this.kernel, { ...this.given, params });
    this.launch = { params, ...dims };
    this.manyBlocks = vecProduct(dims.gridDim) > 1n;

    const launchEnv: ValueEnv = { vars: new Map(Object.entries(params)), builtins: { gridDim: dims.gridDim, blockDim: dims.blockDim } };
    for (const r of this.kernel.requires) {
      if (!evalBExpr(r, launchEnv)) {
        return { kind: 'error', reason: 'requires', message: 'the launch violates this requires clause', span: r.span };
      }
    }
    for (const a of this.kernel.arrays) this.sizes.set(a.name.text, a.sizes.map((s) => evalExpr(s, launchEnv)));
    this.checkInit();

    const threadCount = vecProduct(dims.gridDim) * vecProduct(dims.blockDim);
    if (threadCount > BigInt(this.maxThreads)) {
      return {
        kind: 'limit',
        limit: 'threads',
        message: `the launch has ${threadCount} threads (grid ${vecText(dims.gridDim)} × block ${vecText(dims.blockDim)}), more than the limit of ${this.maxThreads}`,
        span: null,
        at: null,
      };
    }

    const blocks: BlockTrace[] = [];
    const divergences: Divergence[] = [];
    const memory: MemoryContents[] = [];
    for (const block of vecRange(dims.gridDim)) {
      const b = this.runBlock(block);
      blocks.push(b.trace);
      if (b.divergence !== null) divergences.push(b.divergence);
      memory.push(...b.shared);
    }
    for (const el of this.gridSites.values()) this.racesOf(el, 'blocks', (a, b) => !vecEqual(a.block, b.block));

    const globals = new Map<string, Cell[]>();
    for (const cell of this.globalMemory.values()) {
      const list = globals.get(cell.array) ?? [];
      list.push(cell);
      globals.set(cell.array, list);
    }
    for (const a of this.kernel.arrays) {
      if (a.scope === 'global') memory.push({ array: a.name.text, scope: 'global', block: null, cells: inElementOrder(globals.get(a.name.text) ?? []) });
    }

    return {
      kind: 'finished',
      launch: this.launch,
      blocks,
      races: this.races,
      divergences,
      uninitializedReads: this.uninitialized,
      memory,
      truncated: this.truncated,
      steps: this.steps,
      unknownValues: this.unknownValues,
    };
  }

  private checkInit(): void {
    for (const name of Object.keys(this.options.init ?? {})) {
      if (!this.scopes.has(name)) {
        throw new Stop({ kind: 'error', reason: 'init', message: `initial contents given for '${name}', which kernel '${this.kernel.name.text}' does not declare`, span: null });
      }
    }
  }

  /** The initial content of an element, and whether it was given. */
  private initial(array: string, index: readonly bigint[]): { value: bigint; given: boolean } {
    const inits = this.options.init ?? {};
    const init = Object.hasOwn(inits, array) ? inits[array] : undefined;
    if (init === undefined) return { value: 0n, given: false };
    switch (init.kind) {
      case 'random':
        return { value: randomElement(init.seed, array, index, init.bound), given: true };
      case 'elements': {
        const v = init.values.get(elementKey(index));
        return v === undefined ? { value: 0n, given: false } : { value: v, given: true };
      }
      case 'list': {
        const linear = this.rowMajor(array, index);
        if (linear === null || linear >= BigInt(init.values.length)) return { value: 0n, given: false };
        return { value: init.values[Number(linear)]!, given: true };
      }
    }
  }

  /** The row-major position of an element within the declared sizes, or null when it has none. */
  private rowMajor(array: string, index: readonly bigint[]): bigint | null {
    const sizes = this.sizes.get(array) ?? [];
    if (sizes.length === 0) return index.length === 1 ? index[0]! : null;
    if (sizes.length !== index.length) return null;
    let linear = 0n;
    for (let k = 0; k < index.length; k++) {
      if (k > 0 && index[k]! >= sizes[k]!) return null;
      linear = linear * sizes[k]! + index[k]!;
    }
    return linear;
  }

  private runBlock(block: Vec3): { trace: BlockTrace; divergence: Divergence | null; shared: MemoryContents[] } {
    const { gridDim, blockDim, params } = this.launch;
    const committed = new Map<string, Cell>();
    const warpWrites = new Map<bigint, Writes>();
    const warpSeen = new Map<bigint, Writes>();
    // threads are grouped in warps only where warps matter; in linear order either way
    const size = this.warpSize ?? this.syncwarpSize;
    const warps = new Map<bigint, Running[]>();
    const threads: ThreadState[] = vecRange(blockDim).map((thread, i) => {
      const vars = new Map(Object.entries(params));
      const builtins: BuiltinValues = { threadIdx: thread, blockIdx: block, blockDim, gridDim };
      const unknowns: bigint[] = [];
      this.unknownValues.set(threadKey(block, thread), unknowns);
      const warp = size === null ? BigInt(i) : warpOf(thread, blockDim, size);
      if (this.warpSize !== null && !warpWrites.has(warp)) warpWrites.set(warp, new Map());
      if (this.warpPhases && !warpSeen.has(warp)) warpSeen.set(warp, new Map());
      const status = { kind: 'running' } as const;
      return {
        ref: { block, thread },
        vars,
        env: { vars, builtins },
        phaseWrites: new Map(),
        accesses: [],
        unknowns,
        unknownsAt: new Map(),
        iteration: [],
        place: [],
        warpWrites: warpWrites.get(warp) ?? null,
        warpSeen: warpSeen.get(warp) ?? null,
        status,
      };
    });
    // generators start running only at their first next(): one per thread, run phase by phase
    threads.forEach((t, i) => {
      const warp = size === null ? BigInt(i) : warpOf(t.ref.thread, blockDim, size);
      warps.set(warp, [...(warps.get(warp) ?? []), { t, run: this.execBlock(this.kernel.body, t, committed) }]);
    });

    const phases: PhaseTrace[] = [];
    let divergence: Divergence | null = null;
    for (let phase = 0; ; phase++) {
      this.phase = phase;
      const phaseSites = new Map<string, ElementSites>();
      this.phaseSites = phaseSites;
      this.warpSites = new Map();
      let warpDivergence: Divergence | null = null;
      for (const warp of warps.values()) warpDivergence ??= this.runWarpPhase(warp, block, phase);
      for (const el of phaseSites.values()) this.racesOf(el, 'threads', (a, b) => !this.together(a, b));
      divergence = warpDivergence ?? barrierDivergence(block, phase, threads, 'sync');
      const allDone = threads.every((t) => t.status.kind === 'done');
      const first = threads[0]?.status ?? { kind: 'done' };
      const end: PhaseEnd =
        divergence !== null ? { kind: 'divergence' } : allDone || first.kind !== 'sync' ? { kind: 'exit' } : { kind: 'sync', span: first.stmt.span };
      phases.push({
        index: phase,
        end,
        threads: threads.filter((t) => t.accesses.length > 0).map((t) => ({ thread: t.ref.thread, accesses: t.accesses })),
      });
      // commit this phase's writes, in thread order (lockstep: each warp's latest, in warp order;
      // syncwarp: each warp's before its last syncwarp, then its threads' since)
      for (const t of threads) {
        if (t.warpSeen !== null) {
          commitWrites(t.warpSeen, committed);
          t.warpSeen.clear();
        }
        if (t.warpWrites === null) commitWrites(t.phaseWrites, committed);
        t.phaseWrites.clear();
        t.accesses = [];
      }
      for (const warp of warpWrites.values()) {
        commitWrites(warp, committed);
        warp.clear();
      }
      if (divergence !== null || allDone) break;
    }

    const shared = new Map<string, Cell[]>();
    for (const [key, cell] of committed) {
      if (this.scopes.get(cell.array) === 'global') {
        this.globalMemory.set(key, cell);
      } else {
        const list = shared.get(cell.array) ?? [];
        list.push(cell);
        shared.set(cell.array, list);
      }
    }
    const sharedContents: MemoryContents[] = this.kernel.arrays
      .filter((a) => a.scope === 'shared')
      .map((a) => ({ array: a.name.text, scope: 'shared', block, cells: inElementOrder(shared.get(a.name.text) ?? []) }));
    return { trace: { block, phases }, divergence, shared: sharedContents };
  }

  /** Runs the thread to its next stop: true when it stopped before an access, else it is at a barrier or done. */
  private advance(t: ThreadState, run: ThreadRun): boolean {
    if (t.status.kind === 'done') return false;
    const next = this.resume(t, run);
    if (next.done === true) t.status = { kind: 'done' };
    else if (next.value.kind === 'sync') t.status = { kind: 'sync', stmt: next.value, instance: t.iteration.join(',') };
    else if (next.value.kind === 'syncwarp') t.status = { kind: 'syncwarp', stmt: next.value, instance: t.iteration.join(',') };
    else return true;
    return false;
  }

  /**
   * One warp's part of a block phase (without `syncwarp` and lockstep, a
   * warp is one thread): its threads run to their next barrier or end
   * (independently, or in lockstep), and on through each `syncwarp` they all
   * meet, its writes then visible to the warp. Returns the divergence of a
   * `syncwarp` they do not all meet, which stops the warp.
   */
  private runWarpPhase(warp: readonly Running[], block: Vec3, phase: number): Divergence | null {
    for (;;) {
      this.warpPhaseSites = new Map();
      if (this.warpSize === null) for (const { t, run } of warp) while (t.status.kind !== 'done' && this.advance(t, run));
      else this.runWarp(warp);
      for (const el of this.warpPhaseSites.values()) this.racesOf(el, 'threads', (a, b) => !vecEqual(a.thread, b.thread));
      if (!warp.some(({ t }) => t.status.kind === 'syncwarp')) return null;
      const divergence = barrierDivergence(block, phase, warp.map(({ t }) => t), 'syncwarp');
      if (divergence !== null) return divergence;
      for (const { t } of warp) {
        if (t.warpSeen !== null) {
          commitWrites(t.phaseWrites, t.warpSeen);
          t.phaseWrites.clear();
        }
        t.status = { kind: 'running' };
      }
    }
  }

  /**
   * One warp's phase in lockstep: each step, the threads at the earliest
   * place run its access together (in linear order) and on to their next
   * stop, until all are at a barrier or done.
   */
  private runWarp(warp: readonly Running[]): void {
    let ready = warp.filter(({ t, run }) => this.advance(t, run));
    while (ready.length > 0) {
      const first = ready.reduce((min, r) => (comparePlaces(r.t.place, min.t.place) < 0 ? r : min)).t.place.slice();
      const [now, later] = [ready.filter((r) => comparePlaces(r.t.place, first) === 0), ready.filter((r) => comparePlaces(r.t.place, first) !== 0)];
      ready = [...later, ...now.filter(({ t, run }) => this.advance(t, run))];
    }
  }

  private resume(t: ThreadState, run: ThreadRun): IteratorResult<SyncStmt | SyncwarpStmt | typeof BEFORE_ACCESS, void> {
    try {
      return run.next();
    } catch (err) {
      if (err instanceof EvalError) throw new Stop(evalFailure(err, t.ref));
      throw err;
    }
  }

  private tick(t: ThreadState, span: Span): void {
    this.steps++;
    if (this.steps > this.maxSteps) {
      throw new Stop({
        kind: 'limit',
        limit: 'steps',
        message: `stopped after ${this.maxSteps} steps (statements and loop iterations over all threads); raise the step limit or use a smaller launch`,
        span,
        at: t.ref,
      });
    }
  }

  private *execBlock(stmts: readonly Stmt[], t: ThreadState, committed: Map<string, Cell>): ThreadRun {
    const bound: string[] = [];
    for (const [n, s] of stmts.entries()) {
      t.place.push({ k: 'item', n });
      yield* this.execStmt(s, t, committed, bound);
      t.place.pop();
    }
    for (const name of bound) t.vars.delete(name);
  }

  /** What a statement scopes over (`let … in body`) is one item further in. */
  private *execBody(s: Stmt, t: ThreadState, committed: Map<string, Cell>, bound: string[]): ThreadRun {
    t.place.push({ k: 'item', n: 0 });
    yield* this.execStmt(s, t, committed, bound);
    t.place.pop();
  }

  /**
   * The latest value of an element a thread sees: its own (lockstep: its
   * warp's) write in the phase, else its warp's before the last `syncwarp`,
   * else the block's.
   */
  private latest(t: ThreadState, key: string, committed: Map<string, Cell>): Cell | undefined {
    return (t.warpWrites ?? t.phaseWrites).get(key) ?? t.warpSeen?.get(key) ?? committed.get(key);
  }

  /** Runs one statement; `let` binders are added to `bound`, the enclosing block's, which removes them at its end. */
  private *execStmt(s: Stmt, t: ThreadState, committed: Map<string, Cell>, bound: string[]): ThreadRun {
    this.tick(t, s.span);
    switch (s.kind) {
      case 'skip':
        return;
      case 'write': {
        yield BEFORE_ACCESS;
        const index = s.index.map((e) => evalExpr(e, t.env));
        const value = evalExpr(s.value, t.env);
        this.arrayScope(s.array.text, s.array.span);
        const key = cellKey(s.array.text, index);
        t.phaseWrites.set(key, { array: s.array.text, index, value });
        t.warpWrites?.set(key, { array: s.array.text, index, value });
        this.record(t, { kind: 'write', array: s.array.text, index, value, span: s.target });
        return;
      }
      case 'read': {
        yield BEFORE_ACCESS;
        const index = s.index.map((e) => evalExpr(e, t.env));
        this.arrayScope(s.array.text, s.array.span);
        const key = cellKey(s.array.text, index);
        const own = this.latest(t, key, committed);
        let value: bigint;
        if (own !== undefined) {
          value = own.value;
        } else {
          const init = this.initial(s.array.text, index);
          value = init.value;
          if (!init.given) this.noteUninitialized(t, s.array.text, index, s.source);
        }
        this.record(t, { kind: 'read', array: s.array.text, index, value, span: s.source });
        t.vars.set(s.local.text, value);
        bound.push(s.local.text);
        yield* this.execBody(s.body, t, committed, bound);
        return;
      }
      case 'atomic': {
        yield BEFORE_ACCESS;
        const index = s.index.map((e) => evalExpr(e, t.env));
        const operands = s.operands.map((e) => evalExpr(e, t.env));
        const scope = this.arrayScope(s.array.text, s.array.span);
        const key = cellKey(s.array.text, index);
        const latest = this.latest(t, key, committed) ?? (scope === 'global' ? this.globalMemory.get(key) : undefined);
        let old: bigint;
        if (latest !== undefined) {
          old = latest.value;
        } else {
          const init = this.initial(s.array.text, index);
          old = init.value;
          if (!init.given) this.noteUninitialized(t, s.array.text, index, s.target);
        }
        // visible to every later atomic at once, and committed with the block's memory
        if (t.phaseWrites.has(key)) t.phaseWrites.set(key, null);
        if (t.warpWrites?.has(key) === true) t.warpWrites.set(key, null);
        if (t.warpSeen?.has(key) === true) t.warpSeen.set(key, null);
        committed.set(key, { array: s.array.text, index, value: atomicResult(s.op, s.type, old, operands) });
        this.record(t, { kind: 'atomic', array: s.array.text, index, value: old, span: s.target, op: s.op });
        if (s.local !== null) {
          t.vars.set(s.local.text, old);
          bound.push(s.local.text);
        }
        yield* this.execBody(s.body, t, committed, bound);
        return;
      }
      case 'let':
        t.vars.set(s.local.text, evalExpr(s.value, t.env));
        bound.push(s.local.text);
        yield* this.execBody(s.body, t, committed, bound);
        return;
      case 'if': {
        const taken = evalBExpr(s.cond, t.env);
        t.place.push({ k: 'side', n: taken ? 0 : 1 });
        if (taken) yield* this.execBlock(s.then, t, committed);
        else if (s.else !== null) yield* this.execBlock(s.else, t, committed);
        t.place.pop();
        return;
      }
      case 'for': {
        const step = s.step === null ? defaultStep(s.direction) : { op: s.step.op, amount: evalExpr(s.step.amount, t.env) };
        const shape: LoopShape = { direction: s.direction, op: step.op, amount: step.amount, from: evalExpr(s.from, t.env), to: evalExpr(s.to, t.env), ...(s.type === undefined ? {} : { type: s.type }) };
        const name = s.var.text;
        const depth = t.iteration.length;
        t.iteration[depth] = 0;
        for (let x = shape.from; loopContinues(shape, x); t.iteration[depth]!++) {
          t.vars.set(name, x);
          t.place.push({ k: 'iteration', n: t.iteration[depth]! });
          yield* this.execBlock(s.body, t, committed);
          t.place.pop();
          const next = nextLoopValue(shape, x, s.span);
          if (next === null) break;
          if (next === x) {
            throw new Stop({
              kind: 'limit',
              limit: 'loop',
              message: `this loop does not terminate: '${name}' stays at ${x} (step ${shape.op} ${shape.amount}, bound ${shape.to})`,
              span: s.span,
              at: t.ref,
            });
          }
          x = next;
          this.tick(t, s.span);
        }
        t.iteration.length = depth;
        t.vars.delete(name);
        return;
      }
      case 'havoc': {
        const value = unknownValue(s.type, this.options.seed ?? 0, this.unknownKey(s, t));
        t.unknowns.push(value);
        t.vars.set(s.local.text, value);
        bound.push(s.local.text);
        yield* this.execBody(s.body, t, committed, bound);
        return;
      }
      case 'sync':
      case 'syncwarp':
        yield s;
        return;
      case 'assume':
        if (!evalBExpr(s.cond, t.env)) {
          throw new Stop({
            kind: 'infeasible',
            message: `thread ${vecText(t.ref.thread)} of block ${vecText(t.ref.block)} fails this assumption`,
            span: s.span,
            block: t.ref.block,
            thread: t.ref.thread,
          });
        }
        return;
    }
  }

  private unknownKey(havoc: HavocStmt, t: ThreadState): string {
    const thread = threadKey(t.ref.block, t.ref.thread);
    if (this.options.unknownSite === undefined) return `${havoc.span.start}|${thread}|${t.unknowns.length}`;
    const site = this.options.unknownSite(havoc);
    const before = t.unknownsAt.get(site) ?? 0;
    t.unknownsAt.set(site, before + 1);
    return `${site}|${thread}|${before}`;
  }

  private arrayScope(array: string, span: Span): Scope {
    const scope = this.scopes.get(array);
    if (scope === undefined) throw new Stop({ kind: 'error', reason: 'array', message: `unknown array '${array}'`, span });
    return scope;
  }

  private record(t: ThreadState, access: Access): void {
    if (++this.accessCount > this.maxAccesses) {
      throw new Stop({
        kind: 'limit',
        limit: 'accesses',
        message: `stopped after ${this.maxAccesses} memory accesses (over all threads, each kept in the run's history); use a smaller launch`,
        span: access.span,
        at: t.ref,
      });
    }
    t.accesses.push(access);
    const site: Site = { key: `${access.kind}@${access.span.start}-${access.span.end}`, kind: access.kind, span: access.span };
    const ref: RaceAccess = { block: t.ref.block, thread: t.ref.thread, kind: access.kind, span: access.span, phase: this.phase, value: access.value };
    addSite(this.phaseSites, access, site, ref, (a, b) => this.together(a, b));
    if (this.warpPhases) addSite(this.warpPhaseSites, access, site, ref, (a, b) => vecEqual(a.thread, b.thread));
    if (t.warpWrites !== null) this.lockstepRaces(t, access, site, ref);
    if (this.manyBlocks && this.scopes.get(access.array) === 'global') {
      addSite(this.gridSites, access, site, ref, (a, b) => vecEqual(a.block, b.block));
    }
  }

  /**
   * Two threads of one block whose races within a block phase are found
   * elsewhere, or that cannot race: the same thread; the same warp in
   * lockstep (lockstepRaces) or where `syncwarp` orders warps (their warp
   * phases).
   */
  private together(a: RaceAccess, b: RaceAccess): boolean {
    const size = this.warpSize ?? this.syncwarpSize;
    if (size === null) return vecEqual(a.thread, b.thread);
    return warpOf(a.thread, this.launch.blockDim, size) === warpOf(b.thread, this.launch.blockDim, size);
  }

  /**
   * Races of an access with the earlier ones of its warp in the phase: one
   * statement instance, both writing, or the two sides of one `if`. A warp
   * accesses in program order (runWarp runs the earliest place first), so
   * only the accesses at the latest place, and those in the then sides of
   * the `if` instances on its path, can be unordered with a later one: the
   * rest are dropped, and each group keeps per element and site the first
   * two threads, enough for the first one that is not the accessing thread.
   * Time per access is bounded by the kernel's nesting, not by the length of
   * the phase (a loop rewriting one element was quadratic), and memory by
   * what the then sides on the warp's path accessed.
   */
  private lockstepRaces(t: ThreadState, access: Access, site: Site, ref: RaceAccess): void {
    const cell = cellKey(access.array, access.index);
    const place = t.place;
    const warpId = warpOf(t.ref.thread, this.launch.blockDim, this.warpSize!);
    let warp = this.warpSites.get(warpId);
    if (warp === undefined) {
      warp = { at: { place: place.slice(), cells: new Map() }, thenSides: [] };
      this.warpSites.set(warpId, warp);
    }
    if (warp.at.place.length !== place.length || !startsWith(place, warp.at.place)) warp.at = { place: place.slice(), cells: new Map() };
    warp.thenSides.length = Math.min(warp.thenSides.length, place.length);
    for (let depth = 0; depth < warp.thenSides.length; depth++) {
      const side = warp.thenSides[depth];
      if (side !== undefined && !startsWith(place, side.place)) warp.thenSides[depth] = undefined;
    }
    // one statement instance, or the else side of an `if` whose then side the warp ran: the earliest access of each site
    let earliest: Map<string, LockstepAccess> | null = null;
    for (let depth = -1; depth < place.length; depth++) {
      const group = depth < 0 ? warp.at : place[depth]!.k === 'side' && place[depth]!.n === 1 ? warp.thenSides[depth] : undefined;
      for (const refs of group?.cells.get(cell)?.values() ?? []) {
        const e = refs.find((r) => !vecEqual(r.ref.thread, ref.thread));
        if (e === undefined || (e.site.kind === site.kind && site.kind !== 'write')) continue;
        earliest ??= new Map();
        const seen = earliest.get(e.site.key);
        if (seen === undefined || e.order < seen.order) earliest.set(e.site.key, e);
      }
    }
    for (const e of [...(earliest?.values() ?? [])].sort((a, b) => a.order - b.order)) {
      this.addRace(`threads|${cell}|${e.site.key}|${site.key}`, { array: access.array, scope: this.scopes.get(access.array)!, index: access.index, between: 'threads', first: e.ref, second: ref });
    }
    const entry: LockstepAccess = { ref, site, order: this.accessCount };
    for (let depth = -1; depth < place.length; depth++) {
      let group = depth < 0 ? warp.at : undefined;
      if (depth >= 0 && place[depth]!.k === 'side' && place[depth]!.n === 0) {
        group = warp.thenSides[depth] ??= { place: place.slice(0, depth), cells: new Map() };
      }
      if (group === undefined) continue;
      const sites = group.cells.get(cell) ?? new Map<string, LockstepAccess[]>();
      group.cells.set(cell, sites);
      const refs = sites.get(site.key);
      if (refs === undefined) sites.set(site.key, [entry]);
      else if (refs.length < 2 && !refs.some((r) => vecEqual(r.ref.thread, ref.thread))) refs.push(entry);
    }
  }

  /**
   * Keeps a race unless its pair of sites (either way round) was reported on
   * that element; a race of two equal writes reported in an earlier phase
   * gives way to one that is not (another iteration of a loop with
   * barriers), so that a pair is never shown benign where it is not.
   */
  private addRace(key: string, race: Race): boolean {
    const [between, cell, a, b] = key.split('|');
    if (this.racesOnly !== undefined && cell !== this.racesOnly) return true;
    const at = this.raceKeys.get(key) ?? this.raceKeys.get(`${between}|${cell}|${b}|${a}`);
    if (at !== undefined) {
      if (isEqualWrites(this.races[at]!) && !isEqualWrites(race)) this.races[at] = race;
      return true;
    }
    if (this.races.length >= this.maxReports) {
      this.truncated = true;
      return false;
    }
    this.raceKeys.set(key, this.races.length);
    this.races.push(race);
    return true;
  }

  private noteUninitialized(t: ThreadState, array: string, index: readonly bigint[], span: Span): void {
    const key = `${cellKey(array, index)}@${span.start}`;
    if (this.uninitializedKeys.has(key)) return;
    if (this.uninitialized.length >= this.maxReports) {
      this.truncated = true;
      return;
    }
    this.uninitializedKeys.add(key);
    this.uninitialized.push({ array, index, block: t.ref.block, thread: t.ref.thread, span });
  }

  /**
   * Adds the races among the accesses to one element: for each pair of
   * sites (one a write), one witness pair of accesses that are `apart`.
   */
  private racesOf(el: ElementSites, between: 'threads' | 'blocks', apart: (a: RaceAccess, b: RaceAccess) => boolean): void {
    const sites = [...el.sites.values()];
    for (let i = 0; i < sites.length; i++) {
      for (let j = i; j < sites.length; j++) {
        const a = sites[i]!;
        const b = sites[j]!;
        // two reads, or two atomics, never race
        if (a.site.kind === b.site.kind && a.site.kind !== 'write') continue;
        const key = `${between}|${cellKey(el.array, el.index)}|${a.site.key}|${b.site.key}`;
        const known = this.raceKeys.get(key);
        if (known !== undefined && !isEqualWrites(this.races[known]!)) continue;
        const pair = witnessPair(a.refs, b.refs, apart);
        if (pair === null) continue;
        if (!this.addRace(key, { array: el.array, scope: this.scopes.get(el.array)!, index: el.index, between, first: pair[0], second: pair[1] })) return;
      }
    }
  }
}

/** A race of two writes of one value: benign, as `verify` calls it. */
function isEqualWrites(r: Race): boolean {
  return r.first.kind === 'write' && r.second.kind === 'write' && r.first.value === r.second.value;
}

/**
 * Records that `ref` accessed an element at `site`, keeping at most five
 * witnesses: the first, up to two apart from it (of different values), and
 * up to two of a value other than its own (apart from each other). For any
 * access b of another site (or this one), if some access of the site is
 * apart from b, one kept is; and if some is apart from b with another value,
 * one kept is (`same` is an equivalence: one thread, warp or block). Where
 * b is not with the first, the first serves unless b has its value, and
 * then `unlike` does: of two apart witnesses of other values, one is not
 * with b. Where b is with the first, `apart` does: of two of different
 * values, one differs from b's. So witnessPair finds a race, and one of two
 * different values wherever there is one (the benign check's counterpart).
 */
function addSite(table: Map<string, ElementSites>, access: Access, site: Site, ref: RaceAccess, same: (a: RaceAccess, b: RaceAccess) => boolean): void {
  const key = cellKey(access.array, access.index);
  let el = table.get(key);
  if (el === undefined) {
    el = { array: access.array, index: access.index, sites: new Map() };
    table.set(key, el);
  }
  const kept = el.sites.get(site.key);
  if (kept === undefined) {
    el.sites.set(site.key, { site, refs: [ref], apart: [], unlike: [] });
    return;
  }
  const first = kept.refs[0]!;
  let keep = false;
  if (!same(first, ref) && kept.apart.length < 2 && !kept.apart.some((r) => r.value === ref.value)) {
    kept.apart.push(ref);
    keep = true;
  }
  if (ref.value !== first.value && kept.unlike.length < 2 && !kept.unlike.some((r) => same(r, ref))) {
    kept.unlike.push(ref);
    keep = true;
  }
  if (keep) kept.refs.push(ref);
}

/** Two apart accesses, one from each list (addSite's witnesses), of different values where there are such. */
function witnessPair(as: readonly RaceAccess[], bs: readonly RaceAccess[], apart: (a: RaceAccess, b: RaceAccess) => boolean): [RaceAccess, RaceAccess] | null {
  let found: [RaceAccess, RaceAccess] | null = null;
  for (const a of as) {
    for (const b of bs) {
      if (!apart(a, b)) continue;
      if (a.value !== b.value) return [a, b];
      found ??= [a, b];
    }
  }
  return found;
}

/**
 * Barrier divergence where the threads (of a block, or of a warp) stopped:
 * some at a barrier of the kind, and not all at the same one in the same
 * loop iterations (nor all finished).
 */
function barrierDivergence(block: Vec3, phase: number, threads: readonly ThreadState[], barrier: 'sync' | 'syncwarp'): Divergence | null {
  const waiting = threads.find((t) => t.status.kind === barrier);
  if (waiting === undefined || (waiting.status.kind !== 'sync' && waiting.status.kind !== 'syncwarp')) return null;
  const { stmt, instance } = waiting.status;
  // one barrier in different iterations of a loop around it is two barriers: the threads do not meet
  const other = threads.find((t) => t.status.kind === 'running' || t.status.kind === 'done' || t.status.stmt !== stmt || t.status.instance !== instance);
  if (other === undefined) return null;
  return {
    block,
    phase,
    barrier,
    sync: stmt.span,
    reached: waiting.ref.thread,
    notReached: other.ref.thread,
    notReachedAt: other.status.kind === 'sync' || other.status.kind === 'syncwarp' ? { kind: other.status.kind, span: other.status.stmt.span } : { kind: 'exit' },
  };
}

/** Whether a `syncwarp` is among the statements, at any depth. */
function hasSyncwarp(stmts: readonly Stmt[]): boolean {
  return stmts.some((s) => {
    switch (s.kind) {
      case 'syncwarp':
        return true;
      case 'read':
      case 'let':
      case 'atomic':
      case 'havoc':
        return hasSyncwarp([s.body]);
      case 'if':
        return hasSyncwarp(s.then) || hasSyncwarp(s.else ?? []);
      case 'for':
        return hasSyncwarp(s.body);
      case 'skip':
      case 'write':
      case 'sync':
      case 'assume':
        return false;
      default:
        return assertNever(s);
    }
  });
}

/** The loop variable's next value (null: the loop ends); a value too large to hold, or an undefined step, is an {@link EvalError}. */
function nextLoopValue(shape: LoopShape, x: bigint, span: Span): bigint | null {
  try {
    return loopNext(shape, x);
  } catch (err) {
    if (err instanceof RangeError) throw new EvalError('too-large', span, `the loop variable grows past what the interpreter holds (step ${shape.op} ${shape.amount} from ${x})`);
    if (err instanceof UndefinedOperation) throw new EvalError('undefined', span, `the loop's step: ${err.why}`);
    throw err;
  }
}

/**
 * The value a `havoc` binds: a function of the run's seed and `key` (the
 * statement, the thread, how many it bound before), within the type. Mostly
 * small values around 0, where races between a few threads are, and now and
 * then the type's extremes or any value of it.
 */
export function unknownValue(type: IntType, seed: number, key: string): bigint {
  const h = hash32(`${seed}:${key}`);
  const wide = (BigInt(hash32(`${key}:${seed}`)) << 32n) | BigInt(h);
  const min = type === 'nat' ? 0n : typeMin(type);
  const max = type === 'nat' ? (1n << 32n) - 1n : typeMax(type);
  const pick = h % 16;
  if (pick < 12) {
    const small = BigInt(h % 8) - (min < 0n ? 3n : 0n);
    return small < min ? min : small > max ? max : small;
  }
  if (pick === 12) return min;
  if (pick === 13) return max;
  return min + (wide % (max - min + 1n));
}
