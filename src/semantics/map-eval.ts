/**
 * The executable semantics of memory access protocols: for one concrete
 * launch, the access values `thread : mode array[index]` of every barrier
 * phase of every block (the paper's u ↓ Λ). Theorem 1 of the paper says that
 * for a well-typed kernel these are exactly the accesses the interpreter
 * (interpret.ts) records; the property tests check that.
 *
 * Arithmetic and loop iteration come from values.ts and loops.ts, shared with
 * the interpreter, so that the two semantics cannot disagree on them.
 *
 * A data-dependent variable (bound by a read) has no value in a MAP. For a
 * well-typed kernel none is ever needed. For an ill-typed one, either the
 * values read are supplied (e.g. from an interpreter run, see
 * {@link interpreterReads}) or evaluation goes as far as it can: an index that
 * needs data is left unknown, and a condition or loop bound that needs data
 * stops that thread; the phases affected say they depend on data. The
 * values `havoc` bound are handled alike (option `unknowns`). A `defined`
 * step evaluates its expressions; an undefined operation anywhere stops the
 * evaluation as the interpreter stops the launch.
 */
import type { Access, KernelMap, Mode, Proto } from '../map/map.js';
import type { Span } from '../core/source.js';
import { assertNever } from '../util/assert.js';
import { threadAccesses, threadKey, type Finished } from './interpret.js';
import { loopValues, type LoopShape } from './loops.js';
import { EvalError, evalBExpr, evalExpr, type BuiltinValues, type ValueEnv, type Vec3 } from './values.js';
import { UndefinedOperation } from '../core/arith.js';

export interface MapLaunch {
  readonly params: Readonly<Record<string, bigint>>;
  readonly blockDim: Vec3;
  readonly gridDim: Vec3;
}

export interface MapEvalOptions {
  /** the values a thread reads, in program order; without it data-dependent variables are unknown */
  readonly reads?: (block: Vec3, thread: Vec3) => readonly bigint[] | undefined;
  /** the values a thread's `havoc`s bind, in program order (see {@link interpreterUnknowns}) */
  readonly unknowns?: (block: Vec3, thread: Vec3) => readonly bigint[] | undefined;
  /** iterations and accesses over all threads (default 1,000,000) */
  readonly maxSteps?: number;
}

/** One access value: a thread, a mode, an element (null where the index needs data), and the access of the MAP. */
export interface AccessValue {
  readonly thread: Vec3;
  readonly mode: Mode;
  readonly array: string;
  readonly index: readonly bigint[] | null;
  readonly access: number;
  readonly span: Span;
}

export interface MapPhase {
  readonly index: number;
  /** per thread, in program order; threads in linear order */
  readonly accesses: readonly AccessValue[];
  /** some thread's accesses of this phase could not be computed without the data it read */
  readonly dependsOnData: boolean;
}

export interface MapBlock {
  readonly block: Vec3;
  readonly phases: readonly MapPhase[];
  /** the threads do not meet the same barriers in the same order */
  readonly misaligned: boolean;
}

export type MapEvalResult =
  | { readonly kind: 'evaluated'; readonly blocks: readonly MapBlock[] }
  | { readonly kind: 'infeasible'; readonly span: Span; readonly block: Vec3; readonly thread: Vec3 }
  /** a thread evaluated an undefined machine-integer operation */
  | { readonly kind: 'undefined'; readonly message: string; readonly span: Span; readonly block: Vec3; readonly thread: Vec3 }
  | { readonly kind: 'limit'; readonly message: string };

export const DEFAULT_MAP_STEPS = 1_000_000;

/** Thrown when a value needs a data-dependent variable that has no value. */
class NeedsData extends Error {}

class Stop extends Error {
  constructor(readonly result: Exclude<MapEvalResult, { kind: 'evaluated' }>) {
    super(result.kind);
  }
}

/** What one thread does: its accesses tagged with their phase, the barriers it meets, and where it stopped for lack of data. */
interface ThreadEvents {
  readonly accesses: { phase: number; value: AccessValue }[];
  readonly syncs: number[];
  /** the phase in which evaluation stopped for lack of data, or null */
  stoppedAt: number | null;
  /** phases where an index needed data */
  readonly unknownIndex: Set<number>;
}

/** The accesses of every phase of every block of `map` under `launch`. */
export function evalMap(map: KernelMap, launch: MapLaunch, options: MapEvalOptions = {}): MapEvalResult {
  const budget = { steps: 0, max: options.maxSteps ?? DEFAULT_MAP_STEPS };
  try {
    return { kind: 'evaluated', blocks: vecRange(launch.gridDim).map((block) => blockOf(map, launch, block, options, budget)) };
  } catch (e) {
    if (e instanceof Stop) return e.result;
    if (e instanceof EvalError) return { kind: 'limit', message: e.message };
    throw e;
  }
}

/** The values each thread of an interpreter run bound with `havoc`: the `unknowns` option that replays that run. */
export function interpreterUnknowns(run: Finished): (block: Vec3, thread: Vec3) => readonly bigint[] | undefined {
  return (block, thread) => run.unknownValues.get(threadKey(block, thread)) ?? [];
}

function blockOf(map: KernelMap, launch: MapLaunch, block: Vec3, options: MapEvalOptions, budget: { steps: number; max: number }): MapBlock {
  const threads = vecRange(launch.blockDim).map((thread) => ({ thread, events: threadEvents(map, launch, block, thread, options, budget) }));
  const first = threads[0]!.events.syncs;
  const misaligned = threads.some((t) => t.events.stoppedAt === null && !sameList(t.events.syncs, first));
  const count = Math.max(...threads.map((t) => t.events.syncs.length)) + 1;
  const phases: MapPhase[] = [];
  for (let p = 0; p < count; p++) {
    const accesses = threads.flatMap((t) => t.events.accesses.filter((a) => a.phase === p).map((a) => a.value));
    const dependsOnData = threads.some((t) => (t.events.stoppedAt !== null && t.events.stoppedAt <= p) || t.events.unknownIndex.has(p));
    phases.push({ index: p, accesses, dependsOnData });
  }
  return { block, phases, misaligned };
}

function threadEvents(map: KernelMap, launch: MapLaunch, block: Vec3, thread: Vec3, options: MapEvalOptions, budget: { steps: number; max: number }): ThreadEvents {
  const vars = new Map<string, bigint>(Object.entries(launch.params));
  const builtins: BuiltinValues = { threadIdx: thread, blockIdx: block, blockDim: launch.blockDim, gridDim: launch.gridDim };
  const env: ValueEnv = { vars, builtins };
  const reads = options.reads?.(block, thread);
  let readCount = 0;
  const unknowns = options.unknowns?.(block, thread);
  let unknownCount = 0;
  let phase = 0;
  const events: ThreadEvents = { accesses: [], syncs: [], stoppedAt: null, unknownIndex: new Set() };

  const tick = (): void => {
    if (++budget.steps > budget.max) throw new Stop({ kind: 'limit', message: `stopped after ${budget.max} steps of the MAP evaluator` });
  };
  const value = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      // an unbound name in a MAP is a data-dependent variable: parameters, builtins and loop variables are always bound
      if (e instanceof EvalError && e.reason === 'unbound') throw new NeedsData();
      if (e instanceof EvalError && e.reason === 'undefined') throw new Stop({ kind: 'undefined', message: e.message, span: e.span, block, thread });
      throw e;
    }
  };
  const access = (a: Access): void => {
    tick();
    let index: bigint[] | null;
    try {
      index = value(() => a.index.map((e) => evalExpr(e, env)));
    } catch (e) {
      if (!(e instanceof NeedsData)) throw e;
      index = null;
      events.unknownIndex.add(phase);
    }
    events.accesses.push({ phase, value: { thread, mode: a.mode, array: a.array, index, access: a.id, span: a.span } });
    if (a.local !== null) {
      const v = reads?.[readCount];
      readCount++;
      if (v === undefined) vars.delete(a.local);
      else vars.set(a.local, v);
    }
  };
  const run = (p: Proto): void => {
    switch (p.kind) {
      case 'skip':
        return;
      case 'access':
        return access(p.access);
      case 'seq':
        for (const item of p.items) run(item);
        return;
      case 'if':
        return run(value(() => evalBExpr(p.cond, env)) ? p.then : p.else);
      case 'loop': {
        const shape: LoopShape = value(() => ({
          direction: p.range.direction,
          op: p.range.step.op,
          amount: evalExpr(p.range.step.amount, env),
          from: evalExpr(p.range.from, env),
          to: evalExpr(p.range.to, env),
          ...(p.range.type === undefined ? {} : { type: p.range.type }),
        }));
        let iteration: ReturnType<typeof loopValues>;
        try {
          iteration = loopValues(shape, budget.max);
        } catch (e) {
          if (e instanceof UndefinedOperation) throw new Stop({ kind: 'undefined', message: `the loop's step: ${e.why}`, span: p.span, block, thread });
          throw e;
        }
        if (iteration.kind !== 'finite') throw new Stop({ kind: 'limit', message: `the loop over '${p.var}' does not terminate or runs too long` });
        for (const x of iteration.values) {
          tick();
          vars.set(p.var, x);
          run(p.body);
        }
        vars.delete(p.var);
        return;
      }
      case 'sync':
        events.syncs.push(p.sync.id);
        phase++;
        return;
      case 'syncwarp':
        // the block's phases go through it: the accesses of a phase are the same set
        return;
      case 'assume':
        if (!value(() => evalBExpr(p.cond, env))) throw new Stop({ kind: 'infeasible', span: p.span, block, thread });
        return;
      case 'defined':
        for (const e of p.exprs) value(() => evalExpr(e, env));
        return;
      case 'havoc': {
        const v = unknowns?.[unknownCount];
        unknownCount++;
        if (v === undefined) vars.delete(p.var);
        else vars.set(p.var, v);
        return;
      }
      default:
        return assertNever(p);
    }
  };
  try {
    run(map.body);
  } catch (e) {
    if (!(e instanceof NeedsData)) throw e;
    events.stoppedAt = phase;
  }
  return events;
}

/** The values each thread of an interpreter run read, in program order: the `reads` option that replays that run. */
export function interpreterReads(run: Finished): (block: Vec3, thread: Vec3) => readonly bigint[] | undefined {
  const table = new Map([...threadAccesses(run)].map(([key, accesses]) => [key, accesses.flatMap((a) => (a.kind === 'read' || a.kind === 'atomic' ? [a.value] : []))]));
  return (block, thread) => table.get(threadKey(block, thread)) ?? [];
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Every index of a grid or block of size `dim`, x fastest (the interpreter's linear order). */
function vecRange(dim: Vec3): Vec3[] {
  const out: Vec3[] = [];
  for (let z = 0n; z < dim[2]; z++) for (let y = 0n; y < dim[1]; y++) for (let x = 0n; x < dim[0]; x++) out.push([x, y, z]);
  return out;
}
