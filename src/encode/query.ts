/**
 * Query construction. A race query asks for two threads, each at one access of
 * the same array in the same phase, touching the same element, one writing.
 * A divergence query asks for two threads of a block, one reaching a barrier
 * and one not. Variables are named after what they are, so the SMT-LIB text
 * reads on its own:
 *   p.N            a kernel parameter         blockDim.x   a launch dimension
 *   t1.threadIdx.x thread 1's id              s.i          a shared loop variable
 *   blockIdx.x     the block of both threads of a block- or warp-level query
 *   t1.p3.y        thread 1's local y at point 3 (loop variable or value read)
 *
 * Machine integers: typed variables are declared over their type's range;
 * each operation a thread evaluates adds its definedness condition to that
 * thread's path where it is evaluated (an execution with an undefined
 * operation is outside the scope), exactly like an assumption of the thread:
 * conditions, loop ranges, indices, and the `defined` steps of values the
 * protocol drops. In thread 2 of a divergence query (a negated path) a step
 * counts as missed only where its operations are defined.
 */
import type { ArithOp, Axis, BExpr, BuiltinName, Expr, MachineType } from '../core/ast.js';
import { AXES, isExpr } from '../core/ast.js';
import { isSigned, loopStepUndefined, machineUndefined, typeMax, typeMin, WIDTH, wrapsAround } from '../core/arith.js';
import { machineType, mayBeUndefined, operationMayBeUndefined } from '../core/types.js';
import { isGridThreadsLimit } from '../core/scope.js';
import { bexprOperands, bexprVars, exprBuiltins, exprVars, operandsOf } from '../core/exprs.js';
import { evalFormula, evalTerm } from './evaluate.js';
import { DEFAULT_WARP_SIZE, type Launch } from '../core/launch.js';
import { lockstepRelations } from '../map/lockstep.js';
import { conflicting, hasSyncwarp, isDataDependent, type Access, type KernelMap, type Mode, type Proto, type Range, type SyncSite, type VarInfo } from '../map/map.js';
import { memoizedPerObject } from '../util/memo.js';
import { codeChildren, type Code, type Relation } from '../phases/code.js';
import { codeOf } from '../phases/split.js';
import { located, positionAt, type Span } from '../core/source.js';
import { assertNever } from '../util/assert.js';
import { pointsOf, sharedBinders, type Point, type Step } from './paths.js';
import { Interner, shareSubterms } from './share.js';
import { foldsToFalse, simplifyByCases, type Simplified } from './simplify.js';
import { chooseEncoding, declaredRange, termBits, type Declaration, type Encoding } from './smtlib.js';
import { FALSE, TRUE, and, castTerm, cmp, eq, isTrue, ite, mop, not, num, op, or, tvar, type Formula, type Term } from './term.js';

/** 1 and 2: the two threads of a query; 3, 4, …: particular threads the vacuity check asks about. */
export type Thread = number;

export type VarRole =
  | { readonly role: 'param'; readonly source: string }
  | { readonly role: 'dim'; readonly source: string }
  | { readonly role: 'thread'; readonly thread: Thread; readonly source: string }
  /** the block id of both threads of a block-level query: one constant, not two joined by `=` */
  | { readonly role: 'block'; readonly source: string }
  | { readonly role: 'shared'; readonly var: string }
  | { readonly role: 'local'; readonly thread: Thread; readonly point: number; readonly var: string; readonly info: VarInfo }
  | { readonly role: 'selector'; readonly thread: Thread }
  | { readonly role: 'index'; readonly thread: Thread; readonly dim: number }
  | { readonly role: 'aux' };

export interface QueryPoint {
  readonly index: number;
  readonly point: Point;
  /** per thread: the path condition, and the index terms of an access */
  readonly path: readonly [Formula, Formula];
  readonly element: readonly [readonly Term[], readonly Term[]];
  /** per thread: the pure lets in scope at an access, for the witness */
  readonly locals: readonly [readonly Local[], readonly Local[]];
}

export interface Local {
  readonly name: string;
  readonly term: Term;
}

/**
 * Where a race query's two threads are: in one block, in one phase (of
 * different warps when the kernel has `syncwarp` and threads are
 * independent); in one warp, in one warp phase (`syncwarp` splits too); or
 * in different blocks.
 */
export type RaceLevel = 'block' | 'warp' | 'grid';

export interface Query {
  readonly id: string;
  readonly kernel: string;
  /**
   * `assumptions`: whether some launch can be in scope (the vacuity check);
   * `scope`: whether a thread of a launch may leave the scope (see scopeQuery)
   */
  readonly kind: 'race' | 'divergence' | 'assumptions' | 'scope';
  readonly level: RaceLevel;
  readonly phase: number | null;
  readonly array: string | null;
  readonly sync: SyncSite | null;
  readonly points: readonly QueryPoint[];
  /** a race query's: the points each thread may be at (a selector `tN.point` picks one when there are several) */
  readonly choices?: readonly [readonly number[], readonly number[]];
  /** a race query's pair of accesses (ids), thread 1 at the first */
  readonly accesses?: readonly [number, number];
  /** what is printed and solved: the query as built, simplified */
  readonly declarations: readonly Declaration[];
  /** every variable of the query as built, the eliminated ones included */
  readonly roles: ReadonlyMap<string, VarRole>;
  readonly assertions: readonly Formula[];
  /** the variables the simplifier substituted (a model gets their values from completeModel) */
  readonly eliminated: Simplified['eliminated'];
  /** the query as built, before simplification: a model, completed, must satisfy it too */
  readonly built: { readonly declarations: readonly Declaration[]; readonly assertions: readonly Formula[] };
  readonly encoding: Encoding;
  /** the over-approximated shifts: a model that violates `exact` relies on one */
  readonly havocs: readonly { readonly name: string; readonly exact: Formula }[];
}

const INPUT_BITS = 32;
/** shifts left by a variable amount are exact below this many bits */
export const SHIFT_LIMIT = 32;

/**
 * A loop's range as terms: bounds, step, the next value after x, whether x
 * keeps the loop going, whether its step from x is defined (a machine type's
 * may not be), and whether, the step from x being defined, the loop runs
 * another iteration after x (a natural downward `step - k` ends when x − k
 * would be negative, so that is not `continues(succ(x))` with truncated
 * subtraction).
 */
interface LoopTerms {
  readonly from: Term;
  readonly to: Term;
  readonly step: Term;
  readonly bits: number;
  readonly type: MachineType | undefined;
  readonly succ: (x: Term) => Term;
  readonly continues: (x: Term) => Formula;
  readonly stepDefined: (x: Term) => Formula;
  readonly advances: (x: Term) => Formula;
}

/** One query under construction: its declarations and the roles of its variables. */
export class Builder {
  readonly declarations = new Map<string, number>();
  /** the machine types of typed variables; `int`: an integer that may be negative */
  readonly types = new Map<string, MachineType | 'int'>();
  readonly roles = new Map<string, VarRole>();
  /** facts that define helper variables, asserted once, never negated */
  readonly definitions: Formula[] = [];
  private readonly chains = new Map<string, Term[]>();
  /** results of large shifts left unconstrained, and when the encoding is exact */
  readonly havocs: { name: string; exact: Formula }[] = [];

  private readonly uniformity = new Map<string, boolean>();

  /**
   * @param shared the shared binders of the code, with their ranges
   * @param sameBlock threads 1 and 2 are of one block (a block-level query): they have one block id
   */
  constructor(
    readonly map: KernelMap,
    readonly vars: ReadonlyMap<string, VarInfo>,
    readonly shared: ReadonlyMap<string, Range>,
    readonly launch: Launch,
    readonly sameBlock = false,
  ) {}

  /**
   * Whether a shared binder has the same value in every thread of a block at
   * the same iteration: its range mentions no thread id, no value read and
   * no binder that is not uniform. Barriers are matched by iteration number
   * (spec: the k-th time round the loop), so a binder whose range depends on
   * the thread is shared as its iteration number, and each thread's value is
   * its own range's value at that iteration.
   */
  isUniform(name: string): boolean {
    const known = this.uniformity.get(name);
    if (known !== undefined) return known;
    const r = this.shared.get(name)!;
    const parts = [r.from, r.to, r.step.amount];
    const builtins = new Set<`${BuiltinName}.${Axis}`>();
    const vars = new Set<string>();
    for (const e of parts) {
      exprBuiltins(e, builtins);
      exprVars(e, vars);
    }
    const uniform =
      ![...builtins].some((b) => b.startsWith('threadIdx.')) &&
      [...vars].every((v) => this.vars.get(v)?.kind === 'param' || (this.shared.has(v) && this.isUniform(v)));
    this.uniformity.set(name, uniform);
    return uniform;
  }

  /**
   * A dimension is a variable when the kernel mentions it or the command line
   * fixes it; otherwise it is 1 (spec §5), and so is its thread coordinate 0.
   */
  private isVariable(kind: 'blockDim' | 'gridDim', axis: Axis): boolean {
    const given = kind === 'blockDim' ? this.launch.blockDim : this.launch.gridDim;
    return this.map.symbolicDims.has(`${kind}.${axis}`) || given !== null;
  }

  /** A variable, over [0, 2^bits), over a machine type's range, or (`int`) over (−2^bits, 2^bits). */
  declare(name: string, bits: number, role: VarRole, type?: MachineType | 'int'): Term {
    if (!this.declarations.has(name)) {
      this.declarations.set(name, type === undefined || type === 'int' ? bits : WIDTH[type]);
      if (type !== undefined) this.types.set(name, type);
      this.roles.set(name, role);
    }
    return tvar(name);
  }

  /** bounds of terms computed already: terms share subterms (a let's value at each use), each node is bounded once */
  private readonly bitsKnown = new Map<Term | Formula, number>();
  private readonly ranges = new Map<Term, { min: bigint; max: bigint } | null>();
  private readonly definedRanges = new Map<Term, { min: bigint; max: bigint } | null>();

  bits(t: Term): number {
    return termBits(t, (n) => this.declarations.get(n) ?? INPUT_BITS, this.bitsKnown);
  }

  /**
   * Bounds on the term's value that hold whatever the values of undefined
   * operations are (declared ranges, casts, natural arithmetic), or null.
   */
  range(t: Term): { min: bigint; max: bigint } | null {
    if (this.ranges.has(t)) return this.ranges.get(t)!;
    const r = this.rangeOf(t);
    this.ranges.set(t, r);
    return r;
  }

  private rangeOf(t: Term): { min: bigint; max: bigint } | null {
    switch (t.k) {
      case 'num':
        return { min: t.v, max: t.v };
      case 'var': {
        const bits = this.declarations.get(t.name);
        if (bits === undefined) return null;
        return declaredRange({ name: t.name, bits, ...(this.types.has(t.name) ? { type: this.types.get(t.name)! } : {}) });
      }
      case 'cast':
        return { min: typeMin(t.type), max: typeMax(t.type) };
      case 'op':
        // natural arithmetic: within the bits of its operands' bounds
        return { min: 0n, max: (1n << BigInt(this.bits(t))) - 1n };
      case 'ite': {
        const a = this.range(t.a);
        const b = this.range(t.b);
        return a === null || b === null ? null : hull([a.min, a.max, b.min, b.max]);
      }
      case 'mop': {
        if (this.isGlobalIndex(t)) {
          // implied by the facts every query asserts; stated, so that the simplifier bounds the index as definedness did
          this.definitions.push(cmp('<=', t, num(typeMax('u32'))));
          return { min: 0n, max: typeMax('u32') };
        }
        const a = this.range(t.a);
        const b = this.range(t.b);
        return a === null || b === null ? null : machineRange(t.op, t.type, a, b, t.b.k === 'num' ? t.b.v : null);
      }
    }
  }

  /**
   * Whether t is an unsigned `blockIdx.a * blockDim.a`, `blockIdx.a *
   * blockDim.a + threadIdx.a` or `blockDim.a * gridDim.a` (either way round)
   * of a kernel whose preconditions bound the grid's threads along a below
   * 2^32 (the CUDA front end's launch scope): the first two are below
   * (gridDim.a − 1) · blockDim.a + blockDim.a, the last is that count, all
   * < 2^32, u32s that never wrap around in any query (they all assert the
   * preconditions, blockIdx < gridDim and threadIdx < blockDim), and written
   * without a remainder. The last is a grid-stride loop's stride.
   */
  private isGlobalIndex(t: Extract<Term, { k: 'mop' }>): boolean {
    if (t.type !== 'u32' || (t.op !== '*' && t.op !== '+')) return false;
    const source = (u: Term): string | null => (u.k === 'var' ? ((r) => (r !== undefined && r.role !== 'aux' && 'source' in r ? r.source : null))(this.roles.get(u.name)) : null);
    const product = (u: Term, axis: string, other: 'blockIdx' | 'gridDim'): boolean => {
      if (u.k !== 'mop' || u.op !== '*' || u.type !== 'u32') return false;
      const names = [source(u.a), source(u.b)].sort();
      return names[0] === `blockDim.${axis}` && names[1] === `${other}.${axis}`;
    };
    return AXES.some((axis) => {
      if (!this.map.preconditions.some((c) => isGridThreadsLimit(c, axis))) return false;
      if (t.op === '*') return product(t, axis, 'blockIdx') || product(t, axis, 'gridDim');
      return (product(t.a, axis, 'blockIdx') && source(t.b) === `threadIdx.${axis}`) || (product(t.b, axis, 'blockIdx') && source(t.a) === `threadIdx.${axis}`);
    });
  }

  /**
   * C's operation on a machine type, on terms: a shift by a variable is a
   * case split on the count (exact over the width; 0 beyond, where it is
   * undefined); a division or remainder of values that cannot be negative is
   * written as the naturals' one (the same values, and no case on signs).
   */
  machine(o: ArithOp, type: MachineType, a: Term, b: Term): Term {
    if (o === '/' || o === '%') {
      const [ra, rb] = [this.range(a), this.range(b)];
      if (ra !== null && rb !== null && ra.min >= 0n && rb.min >= 0n) return op(o, a, b);
    }
    return wrapsAround(o, type) ? this.wrapped(type, machineTerm(o, type, a, b)) : machineTerm(o, type, a, b);
  }

  /**
   * An unsigned `+ − * <<`'s value (C reduces it modulo 2^width) from its
   * exact value v: v where its bounds keep it in the type, one wrap
   * (`ite(v ≤ max, v, v − 2^w)`, or up from below 0) where they keep it
   * within one width of it (`threadIdx.x − 1`, `threadIdx.y + (unsigned) k`:
   * linear, and the simplifier's window rule sees through it), else the
   * cast (a remainder). Bounded by `range`, the true one: v's own
   * definedness says nothing, unsigned arithmetic is always defined.
   */
  private wrapped(type: MachineType, v: Term): Term {
    const r = this.range(v);
    const [min, max] = [typeMin(type), typeMax(type)];
    const modulus = 1n << BigInt(WIDTH[type]);
    if (r !== null && r.min >= min && r.max <= max) return v;
    let w: Term | null = null;
    if (r !== null && r.min >= min && r.max <= max + modulus) w = ite(cmp('<=', v, num(max)), v, mop('-', type, v, num(modulus)));
    else if (r !== null && r.min >= min - modulus && r.max <= max) w = ite(cmp('>=', v, num(min)), v, mop('+', type, v, num(modulus)));
    if (w === null) return castTerm(type, v);
    // the case split's value is in the type whichever branch is taken (its branches' own bounds are wider)
    if (w.k === 'ite') this.ranges.set(w, { min, max });
    return w;
  }

  /**
   * Bounds on the term's value where its operations are defined: a machine
   * operation's value is then in its type. Every use of a term is guarded by
   * the definedness of what it is computed from (an index, a condition, a
   * range, a `defined` step), so only these values decide anything; a term
   * built on them is still exact for the solver and the re-checker alike
   * (it is evaluated as written).
   */
  definedRange(t: Term): { min: bigint; max: bigint } | null {
    if (this.definedRanges.has(t)) return this.definedRanges.get(t)!;
    const r = this.definedRangeOf(t);
    this.definedRanges.set(t, r);
    return r;
  }

  private definedRangeOf(t: Term): { min: bigint; max: bigint } | null {
    if (t.k === 'mop') return { min: typeMin(t.type), max: typeMax(t.type) };
    if (t.k === 'ite') {
      const a = this.definedRange(t.a);
      const b = this.definedRange(t.b);
      return a === null || b === null ? null : hull([a.min, a.max, b.min, b.max]);
    }
    return this.range(t);
  }

  /**
   * `(T) a`, exact where a is defined: the identity when a is then in T's
   * range, one wrap (± 2^width) when it is within one width of it, else the
   * modular reduction. The first two keep the usual `(int) threadIdx.x` and
   * `(int) (blockIdx.x * blockDim.x + threadIdx.x)` linear and free of
   * remainders.
   */
  cast(type: MachineType, a: Term): Term {
    const r = this.definedRange(a);
    const [min, max] = [typeMin(type), typeMax(type)];
    const modulus = 1n << BigInt(WIDTH[type]);
    if (r !== null && r.min >= min && r.max <= max) return a;
    if (r !== null && r.min >= min && r.max <= max + modulus) return ite(cmp('<=', a, num(max)), a, mop('-', type, a, num(modulus)));
    if (r !== null && r.min >= min - modulus && r.max <= max) return ite(cmp('>=', a, num(min)), a, mop('+', type, a, num(modulus)));
    return castTerm(type, a);
  }

  /** Whether the term can be negative where it is defined (machine integers can). */
  mayBeNegative(t: Term): boolean {
    const r = this.definedRange(t);
    return r === null || r.min < 0n;
  }

  dim(kind: 'blockDim' | 'gridDim', axis: Axis): Term {
    const name = `${kind}.${axis}` as const;
    return this.isVariable(kind, axis) ? this.declare(name, INPUT_BITS, { role: 'dim', source: name }) : num(1);
  }

  threadId(kind: 'threadIdx' | 'blockIdx', axis: Axis, thread: Thread): Term {
    const dim = kind === 'threadIdx' ? 'blockDim' : 'gridDim';
    if (!this.isVariable(dim, axis)) return num(0);
    if (kind === 'blockIdx' && this.sameBlock && (thread === 1 || thread === 2)) return this.declare(`blockIdx.${axis}`, INPUT_BITS, { role: 'block', source: `blockIdx.${axis}` });
    return this.declare(`t${thread}.${kind}.${axis}`, INPUT_BITS, { role: 'thread', thread, source: `${kind}.${axis}` });
  }

  /**
   * The values a geometric loop (`step *` or `step /`) can take: v0 = from,
   * v(i+1) = v(i) * step (or / step) while v(i) is in range, frozen after.
   * With constant bounds they are numbers; otherwise helper variables, shared
   * by every point and thread that sees the same bounds.
   */
  chain(r: Range, l: LoopTerms): Term[] {
    const up = r.step.op === '*';
    const key = `${r.step.op} ${l.type ?? 'nat'} ${JSON.stringify([l.from, l.step, l.to], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`;
    const known = this.chains.get(key);
    if (known) return known;
    const chain = l.type === undefined ? this.natChain(l, up) : this.typedChain(l, l.type, r.step.op === '/');
    this.chains.set(key, chain);
    return chain;
  }

  private natChain(l: LoopTerms, up: boolean): Term[] {
    const count = (up ? l.bits : this.bits(l.from)) + 1;
    const chain: Term[] = [l.from];
    if (l.from.k === 'num' && l.step.k === 'num') {
      const limit = 1n << BigInt(up ? l.bits : this.bits(l.from));
      for (let v = l.succ(l.from); chain.length < count && v.k === 'num' && v.v < limit && !chain.some((c) => c.k === 'num' && v.k === 'num' && c.v === v.v); v = l.succ(v)) {
        chain.push(v);
      }
    } else if (!up && l.step.k === 'num' && l.step.v >= 2n) {
      // (from / c) / c = from / c², so the values are from / cⁱ: no helper
      // variables, and each a division by a number (a shift, for the bit
      // blaster). They agree with the frozen chain below wherever it matters:
      // up to the first value that stops the loop, and its fixpoint 0.
      for (let i = 1; i < count; i++) chain.push(op('/', chain[i - 1]!, l.step));
    } else {
      const width = up ? l.bits + this.bits(l.step) : this.bits(l.from);
      for (let i = 1; i < count; i++) {
        const v = this.declare(`chain${this.chains.size}.v${i}`, width, { role: 'aux' });
        const prev = chain[i - 1]!;
        this.definitions.push(or([and([l.continues(prev), eq(v, l.succ(prev))]), and([not(l.continues(prev)), eq(v, prev)])]));
        chain.push(v);
      }
    }
    return chain;
  }

  /**
   * A machine-typed geometric loop's chain: the values are computed in the
   * type and the chain stops (stays put) where the loop stops or its step is
   * undefined; within the width every value that can be visited is reached.
   */
  private typedChain(l: LoopTerms, type: MachineType, dividing: boolean): Term[] {
    const count = WIDTH[type] + 2;
    const chain: Term[] = [l.from];
    // a typed sequence need not be monotone (negative values and steps): numbers only when the loop is decided
    if (l.from.k === 'num' && l.step.k === 'num' && l.to.k === 'num') {
      const goesOn = (v: Term): boolean => isTrue(and([l.continues(v), l.stepDefined(v)]));
      for (let v: Term = l.from; chain.length < count && goesOn(v); ) {
        const next = l.succ(v);
        if (chain.some((c) => c.k === 'num' && next.k === 'num' && c.v === next.v)) break;
        chain.push(next);
        v = next;
      }
      return chain;
    }
    if (l.step.k === 'num' && l.step.v >= 2n && (dividing || l.from.k === 'num')) {
      // Moving by c ≥ 2 (from / cⁱ, towards 0, or from · cⁱ, away from it)
      // the values go one way, so `member` needs no frozen chain: the values
      // are terms, with no helper variables, up to a fixpoint or to the first
      // step that is not defined (a product past the type, a number here).
      for (let i = 1; i < count; i++) {
        const prev = chain[i - 1]!;
        if (!isTrue(l.stepDefined(prev))) break;
        const next = l.succ(prev);
        if (next.k === 'num' && prev.k === 'num' && next.v === prev.v) break;
        chain.push(next);
      }
      return chain;
    }
    for (let i = 1; i < count; i++) {
      const v = this.declare(`chain${this.chains.size}.v${i}`, WIDTH[type], { role: 'aux' }, type);
      const prev = chain[i - 1]!;
      const goesOn = and([l.continues(prev), l.stepDefined(prev)]);
      this.definitions.push(or([and([goesOn, eq(v, l.succ(prev))]), and([not(goesOn), eq(v, prev)])]));
      chain.push(v);
    }
    return chain;
  }

  param(name: string): Term {
    const info = this.vars.get(name) ?? this.map.vars.get(name);
    const type = info?.kind === 'param' ? info.type : undefined;
    return this.declare(`p.${name}`, INPUT_BITS, { role: 'param', source: name }, type);
  }
}

/** How the variables of one thread at one program point are named. */
class Scope {
  /**
   * @param negated the formulas built here will be negated (thread 2 of a
   * divergence query), so they may not introduce helper variables (an
   * existential under a negation is not one) and assumptions in them count
   * as true (they restrict executions, they do not steer the thread)
   */
  constructor(
    readonly b: Builder,
    readonly thread: Thread,
    readonly point: number,
    readonly negated = false,
  ) {}

  /** loop variables fixed to a term (the first iteration) while the thread's whole run is summarised */
  private readonly instantiated = new Map<string, Term>();

  /**
   * Each expression object's term and definedness, built once: the protocol
   * inlines a let's value by reference at every use, so the terms share it
   * too, and src/encode/share.ts names it once instead of writing it out at
   * each use. Emptied when `instantiated` changes what a variable stands for.
   */
  private readonly terms = new Map<Expr, Term>();
  private readonly definedness = new Map<Expr, Formula>();

  private instantiate(name: string, value: Term | null): void {
    if (value === null) this.instantiated.delete(name);
    else this.instantiated.set(name, value);
    this.terms.clear();
    this.definedness.clear();
  }

  local(name: string): string {
    if (this.point >= 0) return `t${this.thread}.p${this.point}.${name}`;
    return this.point === WHOLE_RUN ? `t${this.thread}.run.${name}` : `t${this.thread}.${name}`;
  }

  /** @param type the type the variable is used with (a value read has the type of its uses) */
  variable(name: string, type?: MachineType): Term {
    const fixed = this.instantiated.get(name);
    if (fixed !== undefined) return fixed;
    const info = this.b.vars.get(name);
    if (!info) throw new Error(`encoding: unknown variable ${name}`);
    if (info.kind === 'param') return this.b.param(name);
    if (this.b.shared.has(name)) {
      const t = this.b.isUniform(name) ? `s.${name}` : iterationName(name);
      if (!this.b.declarations.has(t)) throw new Error(`encoding: shared variable ${name} used outside its binder`);
      return this.b.isUniform(name) ? tvar(t) : this.valueAtIteration(name, info);
    }
    const local = this.local(name);
    if (isDataDependent(info)) {
      const own = info.kind === 'unknown' ? machineType(info.type) : type;
      return this.b.declare(local, INPUT_BITS, { role: 'local', thread: this.thread, point: this.point, var: name, info }, own);
    }
    if (!this.b.declarations.has(local)) throw new Error(`encoding: loop variable ${name} used outside its loop`);
    return tvar(local);
  }

  term(e: Expr): Term {
    const known = this.terms.get(e);
    if (known !== undefined) return known;
    const t = this.termOf(e);
    this.terms.set(e, t);
    return t;
  }

  private termOf(e: Expr): Term {
    switch (e.kind) {
      case 'nat':
      case 'int':
        return num(e.value);
      case 'var':
        return this.variable(e.name, e.type);
      case 'builtin':
        return e.name === 'blockDim' || e.name === 'gridDim' ? this.b.dim(e.name, e.axis) : this.b.threadId(e.name, e.axis, this.thread);
      case 'binary': {
        const a = this.term(e.left);
        const b = this.term(e.right);
        if (e.type !== undefined) return this.b.machine(e.op, e.type, a, b);
        if (e.op === '<<' && b.k !== 'num') return this.shiftLeft(a, b);
        if (e.op === '>>' && b.k !== 'num') return this.shiftRight(a, b);
        return op(e.op, a, b);
      }
      case 'cast':
        return this.b.cast(e.type, this.term(e.operand));
      case 'ite':
        return ite(this.formula(e.cond), this.term(e.then), this.term(e.else));
      default:
        return assertNever(e);
    }
  }

  /**
   * When evaluating the expression is defined (C's rules on machine types;
   * BabyCUDA's operators always are): only the branch a conditional takes,
   * and only the right side of && and || that is evaluated, count.
   */
  defined(e: Expr): Formula {
    const known = this.definedness.get(e);
    if (known !== undefined) return known;
    const f = this.definedOf(e);
    this.definedness.set(e, f);
    return f;
  }

  private definedOf(e: Expr): Formula {
    if (!mayBeUndefined(e)) return TRUE;
    switch (e.kind) {
      case 'nat':
      case 'int':
      case 'var':
      case 'builtin':
        return TRUE;
      case 'binary': {
        const operands = and([this.defined(e.left), this.defined(e.right)]);
        return e.type === undefined ? operands : and([operands, operationDefined(e.op, e.type, this.term(e.left), this.term(e.right))]);
      }
      case 'cast':
        return this.defined(e.operand);
      case 'ite': {
        const c = this.formula(e.cond);
        return and([this.definedCond(e.cond), or([not(c), this.defined(e.then)]), or([c, this.defined(e.else)])]);
      }
      default:
        return assertNever(e);
    }
  }

  definedCond(c: BExpr): Formula {
    switch (c.kind) {
      case 'bool':
        return TRUE;
      case 'cmp':
        return and([this.defined(c.left), this.defined(c.right)]);
      case 'and':
        return and([this.definedCond(c.left), or([not(this.formula(c.left)), this.definedCond(c.right)])]);
      case 'or':
        return and([this.definedCond(c.left), or([this.formula(c.left), this.definedCond(c.right)])]);
      case 'not':
        return this.definedCond(c.operand);
      default:
        return assertNever(c);
    }
  }

  /**
   * Each operation of `e` whose undefinedness is outside the scope, with when
   * the thread, evaluating `e` where `guard` holds, evaluates it undefined
   * though its operands are defined (the first undefined operation of its
   * operands' evaluation, so that a report names the one that fails, not
   * every operation above it). Only the branch a conditional takes, and the
   * right side of && and || where it is evaluated, count, as in `defined`.
   *
   * A let's value is one object at each of its uses, so `e` is a DAG: a chain
   * of lets each using the one before twice is exponential as a tree. Each
   * node is visited once, under the disjunction of the guards it is reached
   * with (its parents' first: a topological order), and an operation is one
   * entry however many times it is reached.
   */
  undefinedOperations(e: Expr | BExpr, guard: Formula, ignored: (e: Expr) => boolean, out: OperationAt[]): void {
    const order: (Expr | BExpr)[] = [];
    const seen = new Set<Expr | BExpr>();
    const visit = (n: Expr | BExpr): void => {
      if (seen.has(n) || (isExpr(n) && !mayBeUndefined(n))) return;
      seen.add(n);
      for (const child of operandsOf(n)) visit(child);
      order.push(n);
    };
    visit(e);
    order.reverse();
    const reachedWith = new Map<Expr | BExpr, Formula[]>([[e, [guard]]]);
    const reach = new Map<Expr | BExpr, Formula>();
    for (const n of order) {
      const g = or([...new Set(reachedWith.get(n) ?? [])]);
      reach.set(n, g);
      for (const [child, edge] of this.evaluatedChildren(n, g)) {
        if (!seen.has(child)) continue;
        const guards = reachedWith.get(child);
        if (guards === undefined) reachedWith.set(child, [edge]);
        else guards.push(edge);
      }
    }
    // reported in the order of a left-to-right evaluation, operands first
    for (const n of [...order].reverse()) {
      if (!isExpr(n) || n.kind !== 'binary') continue;
      // an ignored operation's own operands may still hold one that is not (`A[i] + n * m`)
      if (n.type === undefined || !operationMayBeUndefined(n.op, n.type, n.right) || ignored(n)) continue;
      const [a, b] = [this.term(n.left), this.term(n.right)];
      const when = and([reach.get(n)!, this.defined(n.left), this.defined(n.right), not(operationDefined(n.op, n.type, a, b))]);
      out.push({ site: { kind: 'operation', op: n.op, type: n.type, span: n.span }, when, operands: [a, b] });
    }
  }

  /** What evaluating n evaluates, each with the guard under which it does when n is evaluated under `guard`. */
  private evaluatedChildren(n: Expr | BExpr, guard: Formula): [Expr | BExpr, Formula][] {
    if (isExpr(n)) {
      switch (n.kind) {
        case 'nat':
        case 'int':
        case 'var':
        case 'builtin':
          return [];
        case 'binary':
          return [
            [n.left, guard],
            [n.right, guard],
          ];
        case 'cast':
          return [[n.operand, guard]];
        case 'ite': {
          const c = and([guard, this.definedCond(n.cond)]);
          return [
            [n.cond, guard],
            [n.then, and([c, this.formula(n.cond)])],
            [n.else, and([c, not(this.formula(n.cond))])],
          ];
        }
        default:
          return assertNever(n);
      }
    }
    switch (n.kind) {
      case 'bool':
        return [];
      case 'cmp':
        return [
          [n.left, guard],
          [n.right, guard],
        ];
      case 'and':
      case 'or': {
        const left = this.formula(n.left);
        return [
          [n.left, guard],
          [n.right, and([guard, this.definedCond(n.left), n.kind === 'and' ? left : not(left)])],
        ];
      }
      case 'not':
        return [[n.operand, guard]];
      default:
        return assertNever(n);
    }
  }

  definedAll(es: readonly Expr[]): Formula {
    return and(es.map((e) => this.defined(e)));
  }

  rangeDefined(r: Range): Formula {
    return this.definedAll([r.from, r.to, r.step.amount]);
  }

  /**
   * f, at a place where the thread evaluates operations whose definedness is
   * d: in a path, both hold; in a negated path (a thread that misses a
   * barrier), f counts as failed only where d holds.
   */
  holds(d: Formula, f: Formula): Formula {
    return this.negated ? or([not(d), f]) : and([d, f]);
  }

  /** The condition, or its negation, where the thread evaluates it. */
  condition(c: BExpr, holds: boolean): Formula {
    const f = this.formula(c);
    return this.holds(this.definedCond(c), holds ? f : not(f));
  }

  /**
   * a << b for a variable b, as a case split on b: exact for b < SHIFT_LIMIT;
   * beyond, a nonzero a gives some value of at least 2^SHIFT_LIMIT, left
   * unconstrained otherwise (sound; a witness that needs it is only possible).
   */
  private shiftLeft(a: Term, b: Term): Term {
    const huge = 1n << BigInt(SHIFT_LIMIT);
    const havoc = this.b.declare(this.local(`shift${this.b.havocs.length}`), this.b.bits(a) + SHIFT_LIMIT + 1, { role: 'aux' });
    this.b.definitions.push(cmp('>=', havoc, num(huge)));
    this.b.havocs.push({ name: (havoc as { name: string }).name, exact: or([cmp('<', b, num(SHIFT_LIMIT)), eq(a, num(0))]) });
    let t: Term = { k: 'ite', c: eq(a, num(0)), a: num(0), b: havoc };
    for (let i = SHIFT_LIMIT - 1; i >= 0; i--) t = { k: 'ite', c: eq(b, num(i)), a: op('*', a, num(1n << BigInt(i))), b: t };
    return t;
  }

  /** a >> b for a variable b: every shift by bits(a) or more gives 0, so the case split is exact. */
  private shiftRight(a: Term, b: Term): Term {
    let t: Term = num(0);
    for (let i = this.b.bits(a) - 1; i >= 0; i--) t = { k: 'ite', c: eq(b, num(i)), a: op('/', a, num(1n << BigInt(i))), b: t };
    return t;
  }

  formula(c: BExpr): Formula {
    switch (c.kind) {
      case 'bool':
        return c.value ? TRUE : FALSE;
      case 'cmp':
        return cmp(c.op, this.term(c.left), this.term(c.right));
      case 'and':
        return and([this.formula(c.left), this.formula(c.right)]);
      case 'or':
        return or([this.formula(c.left), this.formula(c.right)]);
      case 'not':
        return not(this.formula(c.operand));
      default:
        return assertNever(c);
    }
  }

  /** The range's terms (see {@link LoopTerms}); a machine-typed range computes its steps in its type. */
  loop(r: Range): LoopTerms {
    const from = this.term(r.from);
    const to = this.term(r.to);
    const step = this.term(r.step.amount);
    const up = r.direction === 'up';
    const succOp = r.step.op === '+' ? '+' : r.step.op === '*' ? '*' : r.step.op === '-' ? '-' : '/';
    const type = r.type;
    const continues = (x: Term): Formula => (up ? cmp('<', x, to) : cmp('>=', x, to));
    const succ = (x: Term): Term => (type === undefined ? op(succOp, x, step) : mop(succOp, type, x, step));
    return {
      from,
      to,
      step,
      bits: type === undefined ? this.b.bits(up ? to : from) : WIDTH[type],
      type,
      succ,
      continues,
      stepDefined: (x) => (type === undefined ? TRUE : loopStepDefined(succOp, type, x, step)),
      // a machine type's step is exact where defined: x − k below the bound ends the loop as C's does
      advances: (x) => (type === undefined && r.step.op === '-' ? cmp('>=', x, op('+', to, step)) : continues(succ(x))),
    };
  }

  /**
   * x is one of the values the loop visits (spec §3), without existential
   * helpers, so that the condition can also be negated (divergence queries).
   * Geometric loops use a chain of values defined once for the whole query.
   */
  member(x: Term, r: Range, tag: string): Formula {
    const l = this.loop(r);
    if (l.type !== undefined && (r.step.op === '+' || r.step.op === '-')) return this.typedMember(x, r.step.op, l, l.type, tag);
    switch (r.step.op) {
      case '+': {
        if (!this.negated && l.step.k !== 'num') {
          // x = from + step * j reads better to the solver than a remainder by a variable
          const j = this.b.declare(this.local(`${tag}.j`), l.bits, { role: 'aux' });
          return and([eq(x, op('+', l.from, op('*', l.step, j))), l.continues(x)]);
        }
        // (x - from) % 0 = x - from, so a step of 0 visits `from` only
        return and([cmp('>=', x, l.from), l.continues(x), eq(op('%', op('-', x, l.from), l.step), num(0))]);
      }
      case '-':
        return !this.negated && l.step.k !== 'num'
          ? and([eq(op('+', x, op('*', l.step, this.b.declare(this.local(`${tag}.j`), this.b.bits(l.from), { role: 'aux' }))), l.from), l.continues(x)])
          : and([cmp('<=', x, l.from), l.continues(x), eq(op('%', op('-', l.from, x), l.step), num(0))]);
      case '*':
      case '/':
        // the values move one way (away from or towards 0), so a value in range after a first one in range had every value between in range
        return and([l.continues(l.from), or(this.b.chain(r, l).map((v) => and([l.continues(v), eq(x, v)])))]);
      default:
        return assertNever(r.step.op);
    }
  }

  /**
   * A machine-typed loop moving by a step k, up with `+` or down with `-`:
   * x is `from` moved by a multiple of k in the step's direction (backwards
   * when k < 0), while the loop goes on. Values of the type are in range, so
   * every step up to x was defined.
   */
  private typedMember(x: Term, stepOp: '+' | '-', l: LoopTerms, type: MachineType, tag: string): Formula {
    const sub = (a: Term, b: Term): Term => mop('-', type, a, b);
    const forwards = stepOp === '+' ? sub(x, l.from) : sub(l.from, x);
    const backwards = stepOp === '+' ? sub(l.from, x) : sub(x, l.from);
    const multiple = (d: Term, k: Term): Formula => and([cmp('>=', d, num(0)), eq(mop('%', type, d, k), num(0))]);
    const going = and([l.continues(l.from), l.continues(x)]);
    if (l.step.k === 'num') {
      const k = l.step.v;
      if (k === 0n) return and([l.continues(l.from), eq(x, l.from)]);
      // d ≥ 0 and k > 0: C's truncated remainder is the solver's own `mod`, without the sign split
      const stepped = (d: Term, by: bigint): Formula => and([cmp('>=', d, num(0)), eq(op('%', d, num(by)), num(0))]);
      return and([going, k > 0n ? stepped(forwards, k) : stepped(backwards, -k)]);
    }
    if (!this.negated) {
      // x = from ± step * j reads better to the solver than a remainder by a variable
      const j = this.b.declare(this.local(`${tag}.j`), WIDTH[type], { role: 'aux' });
      return and([going, eq(x, mop(stepOp, type, l.from, mop('*', type, l.step, j)))]);
    }
    return and([
      going,
      or([
        and([cmp('>', l.step, num(0)), multiple(forwards, l.step)]),
        and([eq(l.step, num(0)), eq(x, l.from)]),
        and([cmp('<', l.step, num(0)), multiple(backwards, mop('-', type, num(0), l.step))]),
      ]),
    ]);
  }

  relation(x: Term, rel: Relation, r: Range, tag: string): Formula {
    switch (rel.kind) {
      case 'member':
        return this.member(x, r, tag);
      case 'first': {
        const l = this.loop(r);
        return and([eq(x, l.from), l.continues(l.from)]);
      }
      case 'last': {
        // the step after the last iteration is computed too (a machine type's may be undefined)
        const l = this.loop(r);
        return and([this.member(x, r, tag), l.stepDefined(x), not(l.advances(x))]);
      }
      case 'next': {
        const l = this.loop(r);
        const prev = this.variable(rel.prev);
        // a natural downward step from below the step size ends the loop (truncated, x would look like a value)
        const ends = l.type === undefined && r.step.op === '-' ? [cmp('>=', prev, l.step)] : [];
        return and([l.stepDefined(prev), eq(x, l.succ(prev)), l.continues(x), ...ends]);
      }
      default:
        return assertNever(rel);
    }
  }

  /**
   * A shared binder's relation for this thread. A uniform one is one value
   * for every thread; one whose range depends on the thread is one
   * iteration number k for every thread, and this thread's value is the k-th
   * of its own range, which must exist.
   */
  sharedRelation(name: string, rel: Relation, r: Range): Formula {
    if (this.b.isUniform(name)) return this.relation(this.b.declare(`s.${name}`, this.loop(r).bits, { role: 'shared', var: name }, r.type), rel, r, name);
    const l = this.loop(r);
    const k = this.b.declare(iterationName(name), Math.max(this.b.bits(l.from), this.b.bits(l.to), l.bits) + 1, { role: 'shared', var: name });
    const x = this.variable(name);
    const exists = this.iterationExists(r, l, k, x);
    switch (rel.kind) {
      case 'member':
        return exists;
      case 'first':
        return and([eq(k, num(0)), exists]);
      case 'last':
        return and([exists, l.stepDefined(x), not(l.advances(x))]);
      case 'next':
        return and([eq(k, op('+', this.iteration(rel.prev), num(1))), exists]);
      default:
        return assertNever(rel);
    }
  }

  private iteration(name: string): Term {
    const k = iterationName(name);
    if (!this.b.declarations.has(k)) throw new Error(`encoding: shared variable ${name} used outside its binder`);
    return tvar(k);
  }

  /** This thread's value of a thread-dependent shared binder: its range's value at the shared iteration number, defined once per point. */
  private valueAtIteration(name: string, info: VarInfo): Term {
    const local = this.local(name);
    if (this.b.declarations.has(local)) return tvar(local);
    const r = this.b.shared.get(name)!;
    const l = this.loop(r);
    const k = this.iteration(name);
    const type = l.type;
    // a machine type's k-th value is exact; the local is declared over the type, so every step up to it is defined
    const arith = (o: '+' | '-' | '*', a: Term, b: Term): Term => (type === undefined ? op(o, a, b) : mop(o, type, a, b));
    let value: Term;
    switch (r.step.op) {
      case '+':
        value = arith('+', l.from, arith('*', l.step, k));
        break;
      case '-':
        value = arith('-', l.from, arith('*', l.step, k));
        break;
      case '*':
      case '/': {
        const chain = this.b.chain(r, l);
        value = chain.slice(0, -1).reduceRight<Term>((rest, v, i) => ({ k: 'ite', c: eq(k, num(i)), a: v, b: rest }), chain.at(-1)!);
        break;
      }
      default:
        return assertNever(r.step.op);
    }
    const x = this.b.declare(local, this.b.bits(value), { role: 'local', thread: this.thread, point: this.point, var: name, info }, type);
    this.b.definitions.push(eq(x, value));
    return x;
  }

  /** Whether this thread's range has a k-th value (x): every value before it keeps the loop going. */
  private iterationExists(r: Range, l: LoopTerms, k: Term, x: Term): Formula {
    switch (r.step.op) {
      case '+':
        // a machine type's step may be negative: the values then move away from the bound
        return l.type === undefined ? l.continues(x) : and([l.continues(l.from), l.continues(x)]);
      case '-':
        return l.type === undefined ? and([cmp('>=', l.from, op('*', l.step, k)), l.continues(x)]) : and([l.continues(l.from), l.continues(x)]);
      case '*':
      case '/': {
        const chain = this.b.chain(r, l);
        const last = chain.at(-1)!;
        const upTo = (i: number): Formula => and(chain.slice(0, i + 1).map((v) => l.continues(v)));
        return or([
          ...chain.map((_, i) => and([eq(k, num(i)), upTo(i)])),
          // a chain that reached a fixpoint inside the range goes on forever
          and([cmp('>=', k, num(chain.length)), upTo(chain.length - 1), eq(l.succ(last), last)]),
        ]);
      }
      default:
        return assertNever(r.step.op);
    }
  }

  /**
   * The iteration number j of this thread's loop value x: x = from ± step·j
   * (`defined`, over a variable j that appears only where it is compared,
   * positively), or x's place in a geometric chain.
   */
  iterationNumber(name: string, x: Term, r: Range): { readonly j: Term; readonly defined: Formula } {
    const l = this.loop(r);
    switch (r.step.op) {
      case '+':
      case '-': {
        const j = this.b.declare(this.local(`${name}.iteration`), Math.max(l.bits, this.b.bits(l.from)) + 1, { role: 'aux' });
        if (l.type !== undefined) return { j, defined: eq(x, mop(r.step.op, l.type, l.from, mop('*', l.type, l.step, j))) };
        return { j, defined: r.step.op === '+' ? eq(x, op('+', l.from, op('*', l.step, j))) : eq(op('+', x, op('*', l.step, j)), l.from) };
      }
      case '*':
      case '/': {
        const chain = this.b.chain(r, l);
        return { j: chain.slice(0, -1).reduceRight<Term>((rest, v, i) => ite(eq(x, v), num(i), rest), num(chain.length - 1)), defined: TRUE };
      }
      default:
        return assertNever(r.step.op);
    }
  }

  bindLocal(name: string, r: Range): Term {
    const info = this.b.vars.get(name)!;
    const l = this.loop(r);
    return this.b.declare(this.local(name), l.bits, { role: 'local', thread: this.thread, point: this.point, var: name, info }, r.type);
  }

  /**
   * The condition under which a statement runs to its end. Loops of a thread
   * are assumed to (an over-approximation). A `member` binder is one
   * iteration (the completion query asks whether some iteration completes),
   * except for a statement before a point (`whole`): there it is a loop with
   * barriers of the divergence check's code, which runs whole, maybe zero
   * times, like a thread's loop (phase code has no `member` binder before a point).
   */
  completes(c: Code, member: 'iteration' | 'whole' = 'iteration'): Formula {
    const completes = (x: Code): Formula => this.completes(x, member);
    switch (c.kind) {
      case 'skip':
      case 'mark':
      case 'erased':
      case 'loop':
      case 'havoc':
        return TRUE;
      case 'access':
        return this.holds(this.definedAll(c.access.index), TRUE);
      case 'defined':
        return this.holds(this.definedAll(c.exprs), TRUE);
      case 'seq':
        return and(c.items.map(completes));
      case 'choice':
        return or(c.options.map(completes));
      case 'if': {
        const then = completes(c.then);
        const otherwise = completes(c.else);
        const defined = this.definedCond(c.cond);
        // c ∨ ¬c: left unsimplified, every `if` of a phase would restate its condition in the path of every other point
        if (isTrue(then) && isTrue(otherwise)) return this.holds(defined, TRUE);
        const cond = this.formula(c.cond);
        return this.holds(defined, or([and([cond, then]), and([not(cond), otherwise])]));
      }
      case 'bind': {
        if (member === 'whole' && c.relation.kind === 'member') return TRUE;
        return this.holds(this.rangeDefined(c.range), and([this.sharedRelation(c.var, c.relation, c.range), completes(c.body)]));
      }
      case 'assume':
        return this.negated ? TRUE : this.holds(this.definedCond(c.cond), this.formula(c.cond));
      case 'empty': {
        const l = this.loop(c.range);
        return this.holds(this.rangeDefined(c.range), not(l.continues(l.from)));
      }
      default:
        return assertNever(c);
    }
  }

  /**
   * What this thread satisfies in a feasible launch, where every thread
   * satisfies each `assume` it reaches (docs/language.md's meaning of `assume`):
   * the assumptions of `code` that the thread certainly reaches. Reaching is
   * under-approximated, so `holds` is implied by feasibility: a loop is
   * entered at its first iteration (its later ones are not summarised), and
   * a statement after a loop counts as reached only when the loop surely
   * ends; after a barrier, only when barriers `pass` (the race queries,
   * which presume no divergence), not when a barrier `may-stop` the block
   * (the divergence queries). `completes` is when the thread surely runs the
   * whole code. Executions with an undefined operation are outside the
   * scope, as infeasible ones are: in scope, every operation the thread
   * evaluates is defined, so an `assume`'s condition is too, and the thread
   * goes on past each one. With `facts` = `scope` (the vacuity check),
   * `holds` also says that the operations the thread surely evaluates are
   * defined: indices, conditions, loop bounds, the values the protocol
   * drops, and a typed loop's steps (from its first value, and from its last
   * one when the thread surely gets past the loop) — what every thread of a
   * launch in scope satisfies.
   */
  assumed(c: Code, barriers: 'pass' | 'may-stop', facts: ScopeFacts = 'assumes'): { holds: Formula; completes: Formula } {
    const implies = (a: Formula, b: Formula): Formula => or([not(a), b]);
    const defined = (f: () => Formula): Formula => (facts === 'scope' ? f() : TRUE);
    switch (c.kind) {
      case 'skip':
      case 'erased':
      case 'havoc':
        return { holds: TRUE, completes: TRUE };
      // an execution in which the thread evaluates an undefined operation is outside the scope: in scope, it goes on
      case 'access':
        return { holds: defined(() => this.definedAll(c.access.index)), completes: TRUE };
      case 'defined':
        return { holds: defined(() => this.definedAll(c.exprs)), completes: TRUE };
      case 'mark':
        return { holds: TRUE, completes: barriers === 'pass' ? TRUE : FALSE };
      case 'assume':
        // in scope, the condition is defined where the thread evaluates it
        return { holds: this.condition(c.cond, true), completes: TRUE };
      case 'seq': {
        const holds: Formula[] = [];
        let reached: Formula = TRUE;
        // what runs after the last fact need not be encoded (nor its variables declared)
        const last = c.items.reduce((at, item, i) => (hasFacts(item, facts) ? i : at), -1);
        for (const item of c.items.slice(0, last + 1)) {
          const r = this.assumed(item, barriers, facts);
          holds.push(implies(reached, r.holds));
          reached = and([reached, r.completes]);
        }
        return {
          holds: and(holds),
          completes: last === c.items.length - 1 ? reached : and([reached, ...c.items.slice(last + 1).map((i) => this.assumed(i, barriers, facts).completes)]),
        };
      }
      case 'if': {
        const t = this.assumed(c.then, barriers, facts);
        const e = this.assumed(c.else, barriers, facts);
        const cond = defined(() => this.definedCond(c.cond));
        if ([cond, t.holds, t.completes, e.holds, e.completes].every(isTrue)) return { holds: TRUE, completes: TRUE };
        const taken = this.formula(c.cond);
        return {
          holds: and([cond, implies(taken, t.holds), implies(not(taken), e.holds)]),
          completes: isTrue(t.completes) && isTrue(e.completes) ? TRUE : or([and([taken, t.completes]), and([not(taken), e.completes])]),
        };
      }
      case 'loop':
      case 'bind': {
        // phase code's other binders (first, last, next) are not in a whole kernel
        if (c.kind === 'bind' && c.relation.kind !== 'member') return { holds: TRUE, completes: FALSE };
        const l = this.loop(c.range);
        this.instantiate(c.var, l.from);
        const body = this.assumed(c.body, barriers, facts);
        this.instantiate(c.var, null);
        const entered = l.continues(l.from);
        const ends = isTrue(body.completes) ? terminates(c.range, l) : FALSE;
        const steps = defined(() => this.stepsDefined(c.range, l, entered, body.completes, ends));
        return { holds: and([defined(() => this.rangeDefined(c.range)), implies(entered, body.holds), steps]), completes: or([not(entered), ends]) };
      }
      case 'choice':
      case 'empty':
        return { holds: TRUE, completes: FALSE };
      default:
        return assertNever(c);
    }
  }

  /** a counter for the names of the last values of loops (see stepsDefined) */
  private lasts = 0;

  /**
   * A typed loop's steps that the thread surely evaluates are defined: the
   * one from the first value when the first iteration completes, and, when
   * the thread surely gets past the loop (every iteration completes, the
   * step moves towards the bound), the one from its last value x (the loop
   * visits x and x's step ends it): a `u32` loop down to 0 has none, as its
   * step from 0 wraps around. x is a fresh variable: `holds` is asserted,
   * never negated.
   */
  private stepsDefined(r: Range, l: LoopTerms, entered: Formula, completes: Formula, ends: Formula): Formula {
    if (l.type === undefined) return TRUE;
    const first = or([not(and([entered, completes])), l.stepDefined(l.from)]);
    if (isTrue(not(ends)) || (r.step.op !== '+' && r.step.op !== '-')) return first;
    const tag = `last.${this.lasts++}`;
    const x = this.b.declare(this.local(tag), WIDTH[l.type], { role: 'aux' }, l.type);
    return and([first, or([not(and([entered, ends])), and([this.member(x, r, tag), not(l.advances(x)), l.stepDefined(x)])])]);
  }

  step(s: Step): Formula {
    switch (s.kind) {
      case 'prefix':
        return this.completes(s.code, 'whole');
      case 'cond':
        return this.condition(s.cond, s.holds);
      case 'loop':
        return this.holds(this.rangeDefined(s.range), this.member(this.bindLocal(s.var, s.range), s.range, s.var));
      case 'bind':
        return this.holds(this.rangeDefined(s.range), this.sharedRelation(s.var, s.relation, s.range));
      default:
        return assertNever(s);
    }
  }
}

/** Whether a loop that is entered surely ends: its steps move the variable towards the bound. */
function terminates(r: Range, l: LoopTerms): Formula {
  switch (r.step.op) {
    case '+':
    case '-':
      return cmp('>=', l.step, num(1));
    case '*':
      return and([cmp('>=', l.from, num(1)), cmp('>=', l.step, num(2))]);
    case '/':
      return and([cmp('>=', l.to, num(1)), cmp('>=', l.step, num(2))]);
    default:
      return assertNever(r.step.op);
  }
}

/** The point number of the names a thread's whole-run summary introduces (values read in it): `t1.run.v`. */
const WHOLE_RUN = -2;

/**
 * What `Scope.assumed` states of a thread: the assumptions it surely reaches
 * (`assumes`), or those and the definedness of the operations it surely
 * evaluates (`scope`: what every thread of a launch in scope satisfies).
 */
export type ScopeFacts = 'assumes' | 'scope';

/**
 * For each of the two threads (or the ones named), what it satisfies in a
 * feasible launch (Scope.assumed): the assumptions of the kernel that it
 * certainly reaches, and with `scope` the definedness of what it certainly
 * evaluates.
 */
function assumptionFacts(b: Builder, code: Code, barriers: 'pass' | 'may-stop', threads: readonly Thread[] = [1, 2], facts: ScopeFacts = 'assumes'): Formula[] {
  if (!hasFacts(code, facts)) return [];
  const stated = threads.map((t) => new Scope(b, t, WHOLE_RUN).assumed(code, barriers, facts).holds);
  // assumptions over parameters and sizes only are the same fact for every thread
  const same = new Interner();
  const ids = stated.map((f) => same.formula(f));
  return stated.filter((_, i) => ids.indexOf(ids[i]!) === i);
}

/*
 * What every race query of a kernel reads of code that is the same for all
 * its pairs, computed once per code object (code is immutable): the
 * kernel's body with its barriers erased, the shared binders of a phase,
 * whether code evaluates an operation that may be undefined. Walking them
 * per pair made a phase's n² pairs walk the whole kernel each.
 */
const erasedBody = memoizedPerObject((body: Proto): Code => codeOf(body, 'erase'));
const bindersOf = memoizedPerObject((code: Code): ReadonlyMap<string, Range> => sharedBinders(code));
const hasEvaluations = memoizedPerObject((code: Code): boolean => evaluationsOf(code).length > 0);
// (asked of the whole code by each barrier's divergence query too)
const hasAssume: (c: Code) => boolean = memoizedPerObject((c: Code): boolean => c.kind === 'assume' || codeChildren(c).some(hasAssume));

/** Whether the code has something `Scope.assumed` states: an assumption, or with `scope` an operation that may be undefined. */
function hasFacts(c: Code, facts: ScopeFacts): boolean {
  return hasAssume(c) || (facts === 'scope' && hasEvaluations(c));
}

/** The shared iteration number of a binder whose range depends on the thread. */
function iterationName(binder: string): string {
  return `s.${binder}.k`;
}

/** The smallest interval holding the values. */
function hull(values: readonly bigint[]): { min: bigint; max: bigint } {
  return { min: values.reduce((x, y) => (y < x ? y : x)), max: values.reduce((x, y) => (y > x ? y : x)) };
}

/**
 * Bounds on machineValue(o, type, a, b) for a and b within their bounds,
 * whether or not the operation is defined (the total values of arith.ts).
 */
function machineRange(o: ArithOp, type: MachineType, a: { min: bigint; max: bigint }, b: { min: bigint; max: bigint }, count: bigint | null): { min: bigint; max: bigint } | null {
  const magnitude = (r: { min: bigint; max: bigint }): bigint => (-r.min > r.max ? -r.min : r.max);
  switch (o) {
    case '+':
      return { min: a.min + b.min, max: a.max + b.max };
    case '-':
      return { min: a.min - b.max, max: a.max - b.min };
    case '*':
      return hull([a.min * b.min, a.min * b.max, a.max * b.min, a.max * b.max]);
    case '/':
    case '%':
      // |a / b| and |a % b| are at most |a|, and 0 or a when b = 0
      return a.min >= 0n && b.min >= 0n ? { min: 0n, max: a.max } : { min: -magnitude(a), max: magnitude(a) };
    case '<<':
      if (count === null) return null;
      return count >= 0n && count < BigInt(WIDTH[type]) ? hull([0n, a.min << count, a.max << count]) : { min: 0n, max: 0n };
    case '>>':
      if (count === null) return null;
      return count >= 0n && count < BigInt(WIDTH[type]) ? hull([0n, a.min >> count, a.max >> count]) : { min: 0n, max: 0n };
    case '&':
    case '|':
    case '^':
      return { min: typeMin(type), max: typeMax(type) };
  }
}

/**
 * C's operation on a machine type, on terms: a shift by a variable is a case
 * split on the count (exact over the width; 0 beyond, where it is undefined).
 */
export function machineTerm(o: ArithOp, type: MachineType, a: Term, b: Term): Term {
  if ((o !== '<<' && o !== '>>') || b.k === 'num') return mop(o, type, a, b);
  let t: Term = num(0);
  for (let i = WIDTH[type] - 1; i >= 0; i--) t = ite(eq(b, num(i)), mop(o, type, a, num(i)), t);
  return t;
}

/** When `a op b` on a machine type is in scope (src/core/arith.ts's machineUndefined, as a formula): an unsigned `+ −` always is (they wrap around), an unsigned `<<` by a count in range, an unsigned `*` when its product fits (docs/machine-integers.md). */
export function operationDefined(o: ArithOp, type: MachineType, a: Term, b: Term): Formula {
  if (o === '<<' && wrapsAround(o, type)) return and([cmp('>=', b, num(0)), cmp('<', b, num(WIDTH[type]))]);
  if (wrapsAround(o, type)) return TRUE;
  return loopStepDefined(o, type, a, b);
}

/** When a loop counter's step `a op b` is in scope (src/core/arith.ts's loopStepUndefined, as a formula): also no unsigned wrap-around. */
export function loopStepDefined(o: ArithOp, type: MachineType, a: Term, b: Term): Formula {
  const inRange = (r: Term): Formula => and([cmp('>=', r, num(typeMin(type))), cmp('<=', r, num(typeMax(type)))]);
  const countInRange = and([cmp('>=', b, num(0)), cmp('<', b, num(WIDTH[type]))]);
  switch (o) {
    case '+':
    case '-':
    case '*':
      return inRange(mop(o, type, a, b));
    case '/':
    case '%':
      return and([not(eq(b, num(0))), isSigned(type) ? not(and([eq(a, num(typeMin(type))), eq(b, num(-1))])) : TRUE]);
    case '<<':
      return and([countInRange, inRange(machineTerm(o, type, a, b))]);
    case '>>':
      return countInRange;
    case '&':
    case '|':
    case '^':
      return TRUE;
  }
}

function launchFacts(b: Builder, launch: Launch): Formula[] {
  const scope = new Scope(b, 1, 0);
  const facts: Formula[] = b.map.preconditions.map((c) => scope.condition(c, true));
  for (const [name, value] of launch.params) facts.push(eq(b.param(name), num(value)));
  for (const [kind, given] of [['blockDim', launch.blockDim], ['gridDim', launch.gridDim]] as const) {
    AXES.forEach((axis, i) => {
      const d = b.dim(kind, axis);
      facts.push(cmp('>=', d, num(1)));
      if (given) facts.push(eq(d, num(given[i] ?? 1n)));
    });
  }
  return facts;
}

/** The launch's facts and thread 1's ids within it: the questions about one thread of some launch (scope, undefined operations). */
function oneThreadFacts(b: Builder, launch: Launch): Formula[] {
  const facts = launchFacts(b, launch);
  for (const axis of AXES) {
    facts.push(cmp('<', b.threadId('threadIdx', axis, 1), b.dim('blockDim', axis)), cmp('<', b.threadId('blockIdx', axis, 1), b.dim('gridDim', axis)));
  }
  return facts;
}

/** The two threads: in bounds, and distinct (same block, or different blocks; a warp-level query's are of one block). */
function threadFacts(b: Builder, level: RaceLevel): Formula[] {
  const facts: Formula[] = [];
  for (const t of [1, 2] as const) {
    for (const axis of AXES) {
      facts.push(cmp('<', b.threadId('threadIdx', axis, t), b.dim('blockDim', axis)));
      facts.push(cmp('<', b.threadId('blockIdx', axis, t), b.dim('gridDim', axis)));
    }
  }
  const differ = (kind: 'threadIdx' | 'blockIdx'): Formula =>
    or(AXES.map((a) => not(eq(b.threadId(kind, a, 1), b.threadId(kind, a, 2)))));
  if (level !== 'grid') {
    if (!b.sameBlock) throw new Error('encoding: a block-level query names one block for both threads');
    facts.push(differ('threadIdx'));
  } else {
    facts.push(differ('blockIdx'));
  }
  return facts;
}

function selector(b: Builder, thread: Thread, count: number): Term {
  return b.declare(`t${thread}.point`, Math.max(1, count.toString(2).length), { role: 'selector', thread });
}

export function pathOf(scope: Scope, p: Point): Formula {
  return and(p.path.map((s) => scope.step(s)));
}

export interface RaceQuerySpec {
  readonly map: KernelMap;
  readonly vars: ReadonlyMap<string, VarInfo>;
  readonly launch: Launch;
  readonly code: Code;
  readonly array: string;
  readonly level: RaceLevel;
  /** `level` warp: a phase of the warp-level split */
  readonly phase: number | null;
}

/** The accesses of one array in a piece of code, each with the points where it appears (the phase split may copy one). */
export interface AccessPoints {
  readonly access: Access;
  readonly points: readonly Point[];
}

/**
 * The race queries of one array in one phase (block level), in one warp
 * phase (warp level) or in the whole kernel (grid level): one per pair of accesses of which one writes (an
 * access paired with itself too), each answered on its own, so that a pair
 * the solver cannot decide hides no race of another pair. The two threads
 * are symmetric, so thread 1 is at the first access and thread 2 at the second.
 */
export function raceQueries(spec: RaceQuerySpec): Query[] {
  const accesses = accessPointsOf(spec);
  const labels = accessLabels(spec.map);
  const dims = spec.map.arrays.find((a) => a.name === spec.array)?.dims ?? 1;
  const out: Query[] = [];
  accesses.forEach((first, i) => {
    for (const second of accesses.slice(i)) {
      if (conflicting(first.access.mode, second.access.mode) && !constantlyApart(first.access, second.access, dims)) out.push(pairQuery(spec, first, second, labels, false));
    }
  });
  return out;
}

/**
 * Whether the two accesses' indices are different constants in some
 * dimension (`s[0][tid]` and `s[1][tid]`): no two threads meet on an
 * element there, whatever else holds, so the pair gets no query. A query per
 * such pair would be unsat all the same, but built and simplified for each
 * of the quadratically many pairs of a kernel that keeps its data in rows.
 */
export function constantlyApart(a: Access, b: Access, dims: number): boolean {
  // the query compares the array's dimensions, a dimension an access does not name being index 0
  const constantAt = (x: Access, d: number): bigint | null => {
    const e = x.index[d];
    if (e === undefined) return 0n;
    return e.kind === 'nat' || e.kind === 'int' ? e.value : null;
  };
  return Array.from({ length: dims }, (_, d) => d).some((d) => {
    const [x, y] = [constantAt(a, d), constantAt(b, d)];
    return x !== null && y !== null && x !== y;
  });
}

/**
 * The query of a pair of writes (access ids, as a race query's `accesses`)
 * for a race whose two written values differ: unsat proves every race of
 * the pair benign. Null when a written value is data-dependent (never
 * assumed equal).
 */
export function valuesDifferQuery(spec: RaceQuerySpec, [a, b]: readonly [number, number]): Query | null {
  const accesses = accessPointsOf(spec);
  const [first, second] = [accesses.find((x) => x.access.id === a), accesses.find((x) => x.access.id === b)];
  if (first === undefined || second === undefined) return null;
  if (![first, second].every((x) => x.access.mode === 'write' && knownValue(x.access.value, spec.vars))) return null;
  return pairQuery(spec, first, second, accessLabels(spec.map), true);
}

/** The accesses of the spec's array in its code, by id, each with its points. */
export function accessPointsOf(spec: RaceQuerySpec): AccessPoints[] {
  const byAccess = new Map<number, { access: Access; points: Point[] }>();
  for (const p of pointsOf(spec.code, 'with-rest')) {
    if (p.target.kind !== 'access' || p.target.access.array !== spec.array) continue;
    const a = p.target.access;
    const known = byAccess.get(a.id);
    if (known) known.points.push(p);
    else byAccess.set(a.id, { access: a, points: [p] });
  }
  return [...byAccess.values()].sort((x, y) => x.access.id - y.access.id);
}

/**
 * Each access's place in query ids, `line.column` of its source (the GNU
 * convention, and a file name's character): stable, and read without a
 * table. Accesses at one place (a macro's expansion) get `#id` added.
 */
export function accessLabels(map: KernelMap): ReadonlyMap<number, string> {
  const place = new Map(
    map.accesses.map((a) => {
      const at = located(map.file, a.span);
      const { line, column } = positionAt(at.file, at.span.start);
      return [a.id, `${line}.${column}`] as const;
    }),
  );
  const count = new Map<string, number>();
  for (const l of place.values()) count.set(l, (count.get(l) ?? 0) + 1);
  return new Map([...place].map(([id, l]) => [id, count.get(l)! > 1 ? `${l}#${id}` : l]));
}

/**
 * A pair's query: thread 1 at one of the first access's points, thread 2 at
 * one of the second's, on the same element (and, with `valuesDiffer`,
 * writing different values).
 */
export function pairQuery(spec: RaceQuerySpec, first: AccessPoints, second: AccessPoints, labels: ReadonlyMap<number, string>, valuesDiffer: boolean): Query {
  // a warp-level query's threads are of one block too: one block id
  const b = new Builder(spec.map, spec.vars, bindersOf(spec.code), spec.launch, spec.level !== 'grid');
  const assertions = raceContext(b, spec);
  const dims = arrayDims(spec);
  const same = first.access.id === second.access.id;
  const sides: readonly (readonly Thread[])[] = same ? first.points.map(() => [1, 2]) : [...first.points.map(() => [1]), ...second.points.map(() => [2])];
  const points = same ? first.points : [...first.points, ...second.points];
  const qpoints = points.map((point, index) => encodedPoint(b, point, index, sides[index]!));
  const choices = ([1, 2] as const).map((t) => qpoints.filter((_, i) => sides[i]!.includes(t)).map((q) => q.index));
  choices.forEach((indices, i) => assertions.push(threadAt(b, (i + 1) as Thread, indices.map((k) => qpoints[k]!), qpoints.length, dims)));
  for (let d = 0; d < dims; d++) assertions.push(eq(tvar(`t1.index.${d}`), tvar(`t2.index.${d}`)));
  const [choices1, choices2] = [choices[0]!, choices[1]!];
  if (spec.launch.warpSize !== undefined && spec.level === 'block') assertions.push(lockstepRace(b, spec.map, qpoints, [choices1, choices2], spec.launch.warpSize));
  if (valuesDiffer) {
    const written = (t: Thread, indices: readonly number[]): Term =>
      indices.reduceRight<Term>((rest, k, i) => {
        const q = qpoints[k]!;
        const value = q.point.target.kind === 'access' ? q.point.target.access.value : undefined;
        if (value === undefined) throw new Error('encoding: a write without a value');
        const v = new Scope(b, t, q.index).term(value);
        return i === indices.length - 1 ? v : ite(eq(tvar(`t${t}.point`), num(q.index)), v, rest);
      }, num(0));
    assertions.push(not(eq(written(1, choices1), written(2, choices2))));
  }
  return finishRace(b, spec, `${raceScope(spec)}/${labels.get(first.access.id)}-${labels.get(second.access.id)}`, qpoints, [choices1, choices2], assertions, [first.access.id, second.access.id]);
}

/**
 * The question of one array in one phase (issue 29): thread 1 at some point
 * of some access of the array, thread 2 at some point of some access, the
 * two accesses conflicting (one writes, not both atomic), on the same
 * element. Each pair query is this question with the two threads' points
 * fixed (and its accesses' other points the only choices), so where this
 * is unsat every pair query is: none need be built. Its size is linear in
 * the points (each encoded once per thread, one selector per thread), where
 * the pairs are quadratic.
 *
 * Null where the over-approximation would not hold or not pay: in lockstep
 * warps a pair's race also depends on where its two accesses are in the
 * code (lockstepRace, quadratic in the points); and a shared binder whose
 * range depends on the thread defines each point's value of it
 * unconditionally (valueAtIteration, over the binder's type), so the points
 * of other pairs would constrain the shared iteration a pair query leaves
 * free.
 */
export function arrayQuery(spec: RaceQuerySpec, accesses: readonly AccessPoints[]): Query | null {
  if (spec.launch.warpSize !== undefined && spec.level === 'block') return null;
  const b = new Builder(spec.map, spec.vars, bindersOf(spec.code), spec.launch, spec.level !== 'grid');
  if ([...b.shared.keys()].some((name) => !b.isUniform(name))) return null;
  const assertions = raceContext(b, spec);
  const dims = arrayDims(spec);
  const qpoints = accesses.flatMap((a) => a.points).map((point, index) => encodedPoint(b, point, index, [1, 2]));
  for (const t of [1, 2] as const) assertions.push(threadAt(b, t, qpoints, qpoints.length, dims));
  for (let d = 0; d < dims; d++) assertions.push(eq(tvar(`t1.index.${d}`), tvar(`t2.index.${d}`)));
  // thread t at an access of the mode (a thread with one point to be at has no selector, and that point's mode)
  const atMode = (t: Thread, mode: Mode): Formula =>
    or(qpoints.filter((q) => q.point.target.kind === 'access' && q.point.target.access.mode === mode).map((q) => (qpoints.length === 1 ? TRUE : eq(selector(b, t, qpoints.length), num(q.index)))));
  // conflicting(m1, m2): not both reads, not both atomics
  assertions.push(or([atMode(1, 'write'), atMode(2, 'write'), and([atMode(1, 'atomic'), atMode(2, 'read')]), and([atMode(1, 'read'), atMode(2, 'atomic')])]));
  const all = qpoints.map((q) => q.index);
  return finishRace(b, spec, raceScope(spec), qpoints, [all, all], assertions);
}

/** A race query of the spec, finished; `accesses`: a pair query's two accesses. */
function finishRace(
  b: Builder,
  spec: RaceQuerySpec,
  id: string,
  points: readonly QueryPoint[],
  choices: readonly [readonly number[], readonly number[]],
  assertions: readonly Formula[],
  accesses?: readonly [number, number],
): Query {
  // a question of the whole array has one disjunction of points per thread, each case with that point's index: factored (simplify.ts)
  return finish(b, { id, kernel: spec.map.name, kind: 'race', level: spec.level, phase: spec.phase, array: spec.array, sync: null, points, choices, ...(accesses === undefined ? {} : { accesses }), assertions }, accesses === undefined);
}

/**
 * What every race query of the spec asserts of its two threads, whichever
 * accesses they are at: the launch, the threads in it and distinct, both in
 * scope (an execution in which one evaluates an undefined operation is no
 * race the proof speaks of), and their warps where warps matter.
 */
function raceContext(b: Builder, spec: RaceQuerySpec): Formula[] {
  const assertions = [...launchFacts(b, spec.launch), ...threadFacts(b, spec.level), ...assumptionFacts(b, erasedBody(spec.map.body), 'pass', [1, 2], 'scope')];
  const warps = warpsRelated(b, spec);
  if (warps !== null) assertions.push(warps);
  return assertions;
}

function arrayDims(spec: RaceQuerySpec): number {
  return spec.map.arrays.find((a) => a.name === spec.array)?.dims ?? 1;
}

/** A race query's id up to its pair: kernel, phase (or grid) and array. */
function raceScope(spec: RaceQuerySpec): string {
  const scope = spec.level === 'grid' ? 'grid' : `${spec.level === 'warp' ? 'warpphase' : 'phase'}${spec.phase}`;
  return `${spec.map.name}/${scope}/${spec.array}`;
}

/**
 * Thread t at one of the candidate points, its index `tN.index.d` that
 * point's: a selector `tN.point` (over `count` points) only when the thread
 * has a choice.
 */
function threadAt(b: Builder, t: Thread, candidates: readonly QueryPoint[], count: number, dims: number): Formula {
  const indexVars = Array.from({ length: dims }, (_, d) => {
    const terms = candidates.map((q) => q.element[t - 1]![d] ?? num(0));
    // machine-integer indices may be negative
    const signed = terms.some((x) => b.mayBeNegative(x)) ? 'int' : undefined;
    return b.declare(`t${t}.index.${d}`, Math.max(...terms.map((x) => b.bits(x))), { role: 'index', thread: t, dim: d }, signed);
  });
  const at = (q: QueryPoint): Formula => and([q.path[t - 1]!, ...indexVars.map((v, d) => eq(v, q.element[t - 1]![d] ?? num(0)))]);
  if (candidates.length === 1) return at(candidates[0]!);
  return or(candidates.map((q) => and([eq(selector(b, t, count), num(q.index)), at(q)])));
}

/** A written value that mentions no data-dependent variable (values read, atomics' old values, unknowns). */
function knownValue(value: Expr | undefined, vars: ReadonlyMap<string, VarInfo>): boolean {
  return value !== undefined && [...exprVars(value)].every((v) => !isDataDependent(vars.get(v)));
}

/** A thread's warp in its block: its linear id (x + (y + z·by)·bx) divided by the warp size. */
function warpTerm(b: Builder, t: Thread, warpSize: number): Term {
  const [x, y, z] = AXES.map((a) => b.threadId('threadIdx', a, t));
  const linear = op('+', x!, op('*', op('+', y!, op('*', z!, b.dim('blockDim', 'y'))), b.dim('blockDim', 'x')));
  return op('/', linear, num(warpSize));
}

/**
 * `syncwarp` with independent threads: the warp phases are for two threads
 * of one warp (warp level), the block's phases for two of different warps
 * (block level), so each pair is asked where its races are. Null where
 * warps do not matter: no `syncwarp`, lockstep (lockstepRace orders a warp),
 * or threads of different blocks.
 */
function warpsRelated(b: Builder, spec: RaceQuerySpec): Formula | null {
  if (spec.level === 'grid' || spec.launch.warpSize !== undefined || !hasSyncwarp(spec.map.body)) return null;
  const same = eq(warpTerm(b, 1, DEFAULT_WARP_SIZE), warpTerm(b, 2, DEFAULT_WARP_SIZE));
  return spec.level === 'warp' ? same : not(same);
}

/**
 * Lockstep execution (src/map/lockstep.ts): the two threads are in different
 * warps, or their accesses are one statement instance (both writing), or on
 * the two sides of one instance of an `if`: the same iteration of every loop
 * around it.
 */
function lockstepRace(b: Builder, map: KernelMap, qpoints: readonly QueryPoint[], choices: readonly [readonly number[], readonly number[]], warpSize: number): Formula {
  const relation = lockstepRelations(map.body);
  const warp = (t: Thread): Term => warpTerm(b, t, warpSize);
  const unordered: Formula[] = [];
  // a thread with one point to be at has no selector
  const at = (t: Thread, q: QueryPoint): Formula => (choices[t - 1]!.length === 1 ? TRUE : eq(tvar(`t${t}.point`), num(q.index)));
  for (const q1 of choices[0].map((k) => qpoints[k]!)) {
    for (const q2 of choices[1].map((k) => qpoints[k]!)) {
      if (q1.point.target.kind !== 'access' || q2.point.target.kind !== 'access') continue;
      const [a1, a2] = [q1.point.target.access, q2.point.target.access];
      const r = relation(a1.id, a2.id);
      if (r.kind === 'ordered' || !conflicting(a1.mode, a2.mode) || (r.kind === 'same' && a1.mode !== 'write')) continue;
      const s1 = new Scope(b, 1, q1.index);
      const s2 = new Scope(b, 2, q2.index);
      const iterations = a1.loops.slice(0, r.depth).map((v1, d) => sameIteration(s1, q1.point, v1, s2, q2.point, a2.loops[d]!));
      unordered.push(and([at(1, q1), at(2, q2), ...iterations]));
    }
  }
  return or([not(eq(warp(1), warp(2))), ...unordered]);
}

/**
 * Thread 1 at its point in the same iteration of a loop as thread 2 at its
 * point (v1, v2: the loop's variable at each point). A shared binder is one
 * iteration for both, or two binders of the loop (end of one iteration, start
 * of the next) compare their iterations; a thread's own loop compares the
 * values when the range is the same in both threads, else the iteration
 * numbers j with x = from ± step·j (a geometric range: x's place in its chain).
 */
function sameIteration(s1: Scope, p1: Point, v1: string, s2: Scope, p2: Point, v2: string): Formula {
  const binder = (p: Point, v: string): Step | undefined => p.path.find((s) => (s.kind === 'loop' || s.kind === 'bind') && s.var === v);
  const [st1, st2] = [binder(p1, v1), binder(p2, v2)];
  if (st1?.kind === 'bind' && st2?.kind === 'bind') {
    if (v1 === v2) return TRUE;
    return s1.b.isUniform(v1) && s1.b.isUniform(v2) ? eq(s1.variable(v1), s2.variable(v2)) : eq(tvar(iterationName(v1)), tvar(iterationName(v2)));
  }
  // a loop aligned at one point and not at the other: not two places of one loop that the phase split makes
  if (st1?.kind !== 'loop' || st2?.kind !== 'loop') return TRUE;
  const [x1, x2] = [s1.variable(v1), s2.variable(v2)];
  const same = (t1: Term, t2: Term): boolean => JSON.stringify(t1, bigintText) === JSON.stringify(t2, bigintText);
  if (same(s1.term(st1.range.from), s2.term(st2.range.from)) && same(s1.term(st1.range.step.amount), s2.term(st2.range.step.amount))) return eq(x1, x2);
  const [i1, i2] = [s1.iterationNumber(v1, x1, st1.range), s2.iterationNumber(v2, x2, st2.range)];
  return and([i1.defined, i2.defined, eq(i1.j, i2.j)]);
}

function bigintText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** A point of a race query, encoded for the threads that may be at it (the other's path is false). */
export function encodedPoint(b: Builder, point: Point, index: number, threads: readonly Thread[]): QueryPoint {
  const path: Formula[] = [];
  const element: Term[][] = [];
  const locals: Local[][] = [];
  for (const t of [1, 2] as const) {
    if (!threads.includes(t)) {
      path.push(FALSE);
      element.push([]);
      locals.push([]);
      continue;
    }
    const scope = new Scope(b, t, index);
    const access = point.target.kind === 'access' ? point.target.access : null;
    path.push(and([pathOf(scope, point), access ? scope.definedAll(access.index) : TRUE]));
    element.push(access ? access.index.map((ix) => scope.term(ix)) : []);
    locals.push(access ? access.locals.map((l) => ({ name: l.name, term: scope.term(l.value) })) : []);
  }
  return { index, point, path: [path[0]!, path[1]!], element: [element[0]!, element[1]!], locals: [locals[0]!, locals[1]!] };
}

export interface DivergenceQuerySpec {
  readonly map: KernelMap;
  readonly launch: Launch;
  readonly code: Code;
  readonly sync: SyncSite;
}

/**
 * The divergence queries of the barriers `syncs` of `code`, in their order
 * (those the code does not reach have none): the code's points and shared
 * binders found once for all, where a walk of the whole code per barrier
 * made the queries' building quadratic in the barriers (issue 29).
 */
export function divergenceQueriesOf(map: KernelMap, launch: Launch, code: Code, syncs: readonly SyncSite[]): Query[] {
  const marks = new Map<number, Point[]>();
  for (const p of pointsOf(code, 'without-rest')) {
    if (p.target.kind !== 'mark') continue;
    const id = p.target.sync.id;
    const list = marks.get(id);
    if (list === undefined) marks.set(id, [p]);
    else list.push(p);
  }
  const binders = sharedBinders(code);
  return syncs.flatMap((sync) => {
    const points = marks.get(sync.id);
    return points === undefined ? [] : [divergenceQuery({ map, launch, code, sync }, points, binders)];
  });
}

/**
 * Thread 1 reaches the barrier and thread 2, of the same block (a `syncwarp`:
 * of the same warp), does not, in the same iteration of every loop around it. Only control can keep thread 2 away:
 * an assumption restricts the executions, it does not steer threads, so in
 * thread 2's (negated) path assumptions count as true. Both threads satisfy
 * the assumptions they surely reach before any barrier could stop the block
 * (an assumption after a diverging barrier is never reached).
 */
function divergenceQuery(spec: DivergenceQuerySpec, points: readonly Point[], binders: ReadonlyMap<string, Range>): Query {
  const b = new Builder(spec.map, spec.map.vars, binders, spec.launch, true);
  const assertions = [...launchFacts(b, spec.launch), ...threadFacts(b, 'block'), ...assumptionFacts(b, spec.code, 'may-stop')];
  if (spec.sync.scope === 'warp') {
    const size = spec.launch.warpSize ?? DEFAULT_WARP_SIZE;
    assertions.push(eq(warpTerm(b, 1, size), warpTerm(b, 2, size)));
  }
  // where the two threads' paths are one formula (the barrier's conditions and loops are uniform, and no assumption
  // on the way), thread 1 reaching it and thread 2 not is `P ∧ ¬P`: false without the simplifier's rounds over the
  // whole query, which made every barrier of the loop families cost as much as a race question (issue 29)
  const interner = new Interner();
  const cases: Formula[] = [];
  const qpoints: QueryPoint[] = points.map((point, index) => {
    const reach = pathOf(new Scope(b, 1, index), point);
    const other = pathOf(new Scope(b, 2, index, true), point);
    const missed = not(other);
    cases.push(interner.formula(reach) === interner.formula(other) ? FALSE : and([reach, missed]));
    return { index, point, path: [reach, missed], element: [[], []], locals: [[], []] };
  });
  assertions.push(or(cases));
  return finish(b, {
    id: `${spec.map.name}/${spec.sync.scope === 'warp' ? 'syncwarp' : 'sync'}${spec.sync.id}`,
    kernel: spec.map.name,
    kind: 'divergence',
    level: 'block',
    phase: null,
    array: null,
    sync: spec.sync,
    points: qpoints,
    assertions,
  });
}

/** The query as built, then simplified (src/encode/simplify.ts): what is printed and solved. */
function finish(b: Builder, q: Omit<Query, 'declarations' | 'roles' | 'encoding' | 'havocs' | 'eliminated' | 'built'>, factor = false): Query {
  const declarations = [...b.declarations].map(([name, bits]) => {
    const type = b.types.get(name);
    return type === undefined ? { name, bits } : { name, bits, type };
  });
  const facts = [...b.definitions, ...q.assertions].filter((f) => !(f.k === 'const' && f.v));
  if (facts.some((f) => f.k === 'const' && !f.v)) {
    // false as built (a divergence query's barrier both threads reach alike): what the simplifier would make of it at its
    // first round, without naming subterms or rewriting the other facts; no model ever has to satisfy it
    return { ...q, assertions: [FALSE], declarations: [], eliminated: [], built: { declarations, assertions: [FALSE] }, roles: b.roles, havocs: b.havocs, encoding: chooseEncoding([], [FALSE]) };
  }
  // the query as built is its large repeated subterms named once (src/encode/share.ts): it is what a model must satisfy
  const shared = shareSubterms(declarations, facts);
  for (const name of shared.names) b.roles.set(name, { role: 'aux' });
  declarations.push(...shared.declarations);
  const assertions = shared.assertions;
  const s = simplifyByCases(declarations, assertions, factor);
  return {
    ...q,
    assertions: s.assertions,
    declarations: s.declarations,
    eliminated: s.eliminated,
    built: { declarations, assertions },
    roles: b.roles,
    havocs: b.havocs,
    encoding: chooseEncoding(s.declarations, s.assertions),
  };
}

/**
 * The query's encoding once `extra` is asserted too (a witness's bounds): a
 * bit-vector width must hold the extra facts' values as well, or they wrap
 * around where the integers do not (a bound on the sum of five sizes below
 * 2^32 needs 35 bits, the sizes alone 33).
 */
export function encodingWith(q: Pick<Query, 'declarations' | 'assertions' | 'encoding'>, extra: readonly Formula[]): Encoding {
  return extra.length === 0 ? q.encoding : chooseEncoding(q.declarations, [...q.assertions, ...extra]);
}

/** Whether the simplifier decided the query unsat: it is not given to a solver. */
export const decidedUnsat = (q: Query): boolean => foldsToFalse(q);

/**
 * Can some thread run `code` to its end? Used to prove that every iteration of
 * a loop meets a barrier (the code is the loop's barrier-free paths, bound to
 * a shared iteration). Conditions deciding barriers are uniform, so one
 * thread speaks for the block.
 */
export function completionQuery(map: KernelMap, vars: ReadonlyMap<string, VarInfo>, launch: Launch, code: Code): Query {
  const b = new Builder(map, vars, sharedBinders(code), launch, true);
  const assertions = [...launchFacts(b, launch), ...threadFacts(b, 'block'), ...assumptionFacts(b, erasedBody(map.body), 'pass', [1])];
  assertions.push(new Scope(b, 1, 0).completes(code));
  return finish(b, {
    id: `${map.name}/completes`,
    kernel: map.name,
    kind: 'divergence',
    level: 'block',
    phase: null,
    array: null,
    sync: null,
    points: [],
    assertions,
  });
}

/**
 * Can some launch be in scope at all? The requires clauses, the launch
 * clause, the command line, and what the first thread of the first block and
 * the last thread of the last block satisfy in a launch in scope (both exist
 * in every launch): the assumptions they surely reach, and the definedness
 * of the operations they surely evaluate. Unsat: no launch is in scope, every
 * other query would be vacuously unsat. `barriers` says whether threads surely pass the barriers
 * (every divergence query was unsat) or a barrier may stop the block.
 * `others`: threads the earlier rounds of the vacuity check found leaving the
 * scope, each at coordinates that are functions of the launch (the thread
 * `p` of a parameter p, the thread `blockDim.x − 2`): each is an instance of
 * "every thread of the launch is in scope", so unsat is still a proof.
 */
export function assumptionsQuery(map: KernelMap, launch: Launch, barriers: 'pass' | 'may-stop', others: readonly ThreadAt[] = []): Query {
  const code = codeOf(map.body, barriers === 'pass' ? 'erase' : 'mark');
  const b = new Builder(map, map.vars, sharedBinders(code), launch);
  const assertions = launchFacts(b, launch);
  for (const axis of AXES) {
    for (const [kind, dim] of [['threadIdx', 'blockDim'], ['blockIdx', 'gridDim']] as const) {
      assertions.push(eq(b.threadId(kind, axis, 1), num(0)), eq(b.threadId(kind, axis, 2), op('-', b.dim(dim, axis), num(1))));
    }
  }
  assertions.push(...assumptionFacts(b, code, barriers, [1, 2], 'scope'));
  // a thread the earlier rounds found leaving the scope: if the launch has it, it stays in scope too
  others.forEach((ids, i) => {
    const t = 3 + i;
    const coordinates = AXES.flatMap((axis, a) => [
      coordinateAt(b, b.threadId('threadIdx', axis, t), ids.threadIdx[a] ?? NUMBER_0, b.dim('blockDim', axis)),
      coordinateAt(b, b.threadId('blockIdx', axis, t), ids.blockIdx[a] ?? NUMBER_0, b.dim('gridDim', axis)),
    ]);
    const exists = and(coordinates.map((c) => c.exists));
    assertions.push(or([not(exists), and([...coordinates.map((c) => c.at), ...assumptionFacts(b, code, barriers, [t], 'scope')])]));
  });
  return finish(b, { id: `${map.name}/assumptions`, kernel: map.name, kind: 'assumptions', level: 'block', phase: null, array: null, sync: null, points: [], assertions });
}

/** A thread coordinate as a function of the launch: a number, or a parameter or a size plus a constant (which may be negative). */
export type Coordinate =
  | { readonly kind: 'number'; readonly value: bigint }
  | { readonly kind: 'param'; readonly name: string; readonly plus: bigint }
  | { readonly kind: 'dim'; readonly dim: 'blockDim' | 'gridDim'; readonly axis: Axis; readonly plus: bigint };

const NUMBER_0: Coordinate = { kind: 'number', value: 0n };

/** A thread named by its coordinates as functions of the launch: in every launch, it is that launch's thread there, if it has one. */
export interface ThreadAt {
  readonly threadIdx: readonly Coordinate[];
  readonly blockIdx: readonly Coordinate[];
}

/**
 * The thread's coordinate `id` being `c` (`at`), and some coordinate below
 * `dim` being it (`exists`). Written with additions only (id + k = base + j),
 * so that a negative constant, or a negative value of a signed parameter,
 * needs no subtraction: where base + plus is not a coordinate of the launch,
 * `exists` is false.
 */
function coordinateAt(b: Builder, id: Term, c: Coordinate, dim: Term): { at: Formula; exists: Formula } {
  if (c.kind === 'number') return { at: eq(id, num(c.value)), exists: cmp('<', num(c.value), dim) };
  const base = c.kind === 'param' ? b.param(c.name) : b.dim(c.dim, c.axis);
  const [k, j] = c.plus < 0n ? [num(-c.plus), num(0)] : [num(0), num(c.plus)];
  const value = op('+', base, j);
  return { at: eq(op('+', id, k), value), exists: and([cmp('>=', value, k), cmp('<', value, op('+', dim, k))]) };
}

/** A thread's coordinates, as the vacuity check names a particular thread. */
export interface ThreadIds {
  readonly threadIdx: readonly bigint[];
  readonly blockIdx: readonly bigint[];
}

/** Why a launch may be outside the scope: a thread fails an `assume`, or evaluates an undefined operation. */
export interface ScopeExit {
  readonly kind: 'assumption' | 'undefined';
  readonly span: Span;
}

/**
 * At one launch (every parameter and size fixed), can some thread of some
 * block leave the scope: reach an `assume` and fail it (its condition false
 * where defined), or evaluate an undefined operation? Unsat: the launch is in
 * scope (docs/machine-integers.md, "The scope of a proof"), which is what makes an alarm at
 * that launch real. Reaching is over-approximated (every barrier passed, a
 * loop taken to end, values read unknown, each operation's place by its own
 * path), so sat only means that the launch is not proved in scope; `exitOf`
 * names the assumption or operation a model makes thread 1 leave the scope
 * at. Null when the kernel has neither an assumption nor an operation that
 * may be undefined.
 *
 * `ignored`: operations that are data-dependent behaviour of the thread,
 * defined for some contents of memory whatever the launch, not asked about
 * (an operation on the input alone, `A[i] + 1` with A not written before,
 * src/verify/inputs.ts; for the vacuity check, every operation on a value
 * read). With `assumptionsOnData` = `hold` (the vacuity check), an `assume`
 * over a value read is taken to hold for some contents.
 */
export function scopeQuery(
  map: KernelMap,
  launch: Launch,
  assumptionsOnData: 'may-fail' | 'hold' = 'may-fail',
  ignored: (e: Expr) => boolean = () => false,
): { query: Query; exitOf: (value: (name: string) => bigint) => ScopeExit | null } | null {
  const code = erasedBody(map.body);
  const isData = (v: string): boolean => isDataDependent(map.vars.get(v));
  const onData = (c: BExpr): boolean => [...bexprVars(c)].some(isData);
  const points = pointsOf(code, 'without-rest').filter((p) => p.target.kind === 'assume' && !(assumptionsOnData === 'hold' && onData(p.target.cond)));
  const sites = evaluationsOf(code).flatMap((s) => withoutIgnored(s, ignored));
  if (points.length === 0 && sites.length === 0) return null;
  const b = new Builder(map, map.vars, bindersOf(code), launch);
  const assertions = oneThreadFacts(b, launch);
  const qpoints: QueryPoint[] = points.map((point, index) => {
    const scope = new Scope(b, 1, index);
    // the path binds the loop variables the condition may mention
    const reached = pathOf(scope, point);
    // failing is the condition's being false where it is defined (an undefined one is a site below)
    const failed = point.target.kind === 'assume' ? and([scope.definedCond(point.target.cond), not(scope.formula(point.target.cond))]) : FALSE;
    return { index, point, path: [and([reached, failed]), FALSE], element: [[], []], locals: [[], []] };
  });
  const undefinedAt = sites.map((s, i) => undefinedAtSite(new Scope(b, 1, points.length + i), s));
  assertions.push(or([...qpoints.map((q) => q.path[0]), ...undefinedAt]));
  const query = finish(b, { id: `${map.name}/in-scope`, kernel: map.name, kind: 'scope', level: 'block', phase: null, array: null, sync: null, points: qpoints, assertions });
  const exitOf = (value: (name: string) => bigint): ScopeExit | null => {
    const failed = qpoints.find((q) => evalFormula(q.path[0], value))?.point.target;
    if (failed?.kind === 'assume') return { kind: 'assumption', span: failed.cond.span };
    const site = sites.find((_, i) => evalFormula(undefinedAt[i]!, value));
    return site === undefined ? null : { kind: 'undefined', span: site.span };
  };
  return { query, exitOf };
}

/** An operation whose undefinedness is outside the scope, or a typed loop counter's step, as a report names it. */
export interface UndefinedSite {
  readonly kind: 'operation' | 'step';
  readonly op: ArithOp;
  readonly type: MachineType;
  readonly span: Span;
}

/** An operation, when the thread evaluates it undefined, and its operands' terms (for the reason a model gives). */
interface OperationAt {
  readonly site: UndefinedSite;
  readonly when: Formula;
  readonly operands: readonly [Term, Term];
}

/** One site the same everywhere the code evaluates it (a let's value is inlined at each use). */
export function siteKey(s: UndefinedSite): string {
  return `${s.kind}:${s.op}:${s.type}:${s.span.start}:${s.span.end}`;
}

/** A site a model reaches undefined, and why (the operands' values: `overflow: 2 * 1073741824 = …`). */
export interface SiteReached {
  readonly site: UndefinedSite;
  readonly why: string;
}

/**
 * Does some thread of some launch that the kernel's requires and the
 * command line allow, satisfying the assumptions it surely reaches, reach
 * one of the kernel's operations whose undefinedness is outside the scope
 * (signed overflow, division by zero, a shift out of range, an unsigned
 * loop counter that wraps) with it undefined? One disjunction
 * over every site but the `excluded` ones (by siteKey), so that the sites
 * reachable are enumerated a model at a time; `reached` names every site a
 * model reaches undefined. Reaching is over-approximated as in scopeQuery
 * (every barrier passed, values read unknown): sat means "may", never
 * "does". Null when no site is left (no question to ask). `ignored`:
 * operations not asked about (the verifier's: those on values read, whose
 * definedness the contents of memory decide, not the launch).
 */
export function undefinedOperationsQuery(
  map: KernelMap,
  launch: Launch,
  ignored: (e: Expr) => boolean,
  excluded: ReadonlySet<string> = new Set(),
): { query: Query; reached: (value: (name: string) => bigint) => SiteReached[] } | null {
  const code = erasedBody(map.body);
  const evaluations = evaluationsOf(code);
  if (evaluations.length === 0) return null;
  const b = new Builder(map, map.vars, bindersOf(code), launch);
  const found = new Map<string, OperationAt[]>();
  evaluations.forEach((s, i) => {
    const scope = new Scope(b, 1, i);
    // the path first: it binds the loop variables the operations use
    const path = and(s.path.map((step) => scope.step(step)));
    const ops: OperationAt[] = [];
    for (const e of s.exprs) scope.undefinedOperations(e, TRUE, ignored, ops);
    for (const c of s.conds) scope.undefinedOperations(c, TRUE, ignored, ops);
    if (s.step !== undefined && s.step.range.type !== undefined) {
      const l = scope.loop(s.step.range);
      const x = scope.variable(s.step.var);
      ops.push({ site: { kind: 'step', op: s.step.range.step.op, type: s.step.range.type, span: s.span }, when: not(l.stepDefined(x)), operands: [x, l.step] });
    }
    for (const o of ops) {
      const key = siteKey(o.site);
      if (!excluded.has(key)) found.set(key, [...(found.get(key) ?? []), { ...o, when: and([path, o.when]) }]);
    }
  });
  if (found.size === 0) return null;
  const assertions = oneThreadFacts(b, launch);
  // a launch in the kernel's assumptions: the thread satisfies those it surely reaches
  assertions.push(...assumptionFacts(b, code, 'pass', [1]));
  const sites = [...found.values()];
  assertions.push(or(sites.flatMap((at) => at.map((o) => o.when))));
  const query = finish(b, { id: `${map.name}/undefined`, kernel: map.name, kind: 'scope', level: 'block', phase: null, array: null, sync: null, points: [], assertions });
  const reached = (value: (name: string) => bigint): SiteReached[] =>
    sites.flatMap((at) => {
      const o = at.find((x) => evalFormula(x.when, value));
      if (o === undefined) return [];
      const [a, c] = o.operands.map((t) => evalTerm(t, value)) as [bigint, bigint];
      const why = (o.site.kind === 'step' ? loopStepUndefined : machineUndefined)(o.site.op, o.site.type, a, c);
      return [{ site: o.site, why: why ?? 'undefined' }];
    });
  return { query, reached };
}

/** The thread reaches the evaluation (its path first: it binds the loop variables the operations use) and an operation there is undefined. */
function undefinedAtSite(scope: Scope, s: Evaluation): Formula {
  const path = s.path.map((step) => scope.step(step));
  const step = s.step === undefined ? TRUE : scope.loop(s.step.range).stepDefined(scope.variable(s.step.var));
  const defined = and([scope.definedAll(s.exprs), ...s.conds.map((c) => scope.definedCond(c)), step]);
  return and([...path, not(defined)]);
}

/** The site without the operations ignored (none when nothing is left). */
function withoutIgnored(s: Evaluation, ignored: (e: Expr) => boolean): Evaluation[] {
  const exprs = s.exprs.filter((e) => !ignored(e));
  const conds = s.conds.filter((c) => !bexprOperands(c).every((e) => !mayBeUndefined(e) || ignored(e)));
  return exprs.length === 0 && conds.length === 0 && s.step === undefined ? [] : [{ ...s, exprs, conds }];
}

/** A place where a thread evaluates operations that may be undefined: the path to it, and what it evaluates. */
export interface Evaluation {
  readonly path: readonly Step[];
  readonly exprs: readonly Expr[];
  readonly conds: readonly BExpr[];
  /** a machine-typed loop's step from the value of `var` (the last step of a loop may overflow) */
  readonly step?: { readonly var: string; readonly range: Range };
  /** where, for a report */
  readonly span: Span;
}

/** Every place in the code where a thread evaluates an operation that may be undefined, with its path. */
export function evaluationsOf(code: Code): Evaluation[] {
  const out: Evaluation[] = [];
  const site = (path: readonly Step[], exprs: readonly Expr[], conds: readonly BExpr[]): void => {
    const risky = exprs.filter(mayBeUndefined);
    const riskyConds = conds.filter((c) => bexprOperands(c).some(mayBeUndefined));
    const first = risky[0]?.span ?? riskyConds[0]?.span;
    if (first !== undefined) out.push({ path, exprs: risky, conds: riskyConds, span: first });
  };
  const walk = (c: Code, path: readonly Step[]): void => {
    switch (c.kind) {
      case 'access':
        return site(path, c.access.index, []);
      case 'defined':
        return site(path, c.exprs, []);
      case 'assume':
        return site(path, [], [c.cond]);
      case 'if':
        site(path, [], [c.cond]);
        walk(c.then, [...path, { kind: 'cond', cond: c.cond, holds: true }]);
        walk(c.else, [...path, { kind: 'cond', cond: c.cond, holds: false }]);
        return;
      case 'loop': {
        site(path, [c.range.from, c.range.to, c.range.step.amount], []);
        const inside: Step[] = [...path, { kind: 'loop', var: c.var, range: c.range }];
        if (c.range.type !== undefined) out.push({ path: inside, exprs: [], conds: [], step: { var: c.var, range: c.range }, span: c.range.step.amount.span });
        walk(c.body, inside);
        return;
      }
      case 'bind':
        site(path, [c.range.from, c.range.to, c.range.step.amount], []);
        walk(c.body, [...path, { kind: 'bind', var: c.var, relation: c.relation, range: c.range }]);
        return;
      case 'empty':
        return site(path, [c.range.from, c.range.to, c.range.step.amount], []);
      case 'seq':
        return c.items.forEach((i) => walk(i, path));
      case 'choice':
        return c.options.forEach((o) => walk(o, path));
      case 'skip':
      case 'havoc':
      case 'mark':
      case 'erased':
        return;
      default:
        return assertNever(c);
    }
  };
  walk(code, []);
  return out;
}
