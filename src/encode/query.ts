/**
 * Query construction. A race query asks for two threads, each at one access of
 * the same array in the same phase, touching the same element, one writing.
 * A divergence query asks for two threads of a block, one reaching a barrier
 * and one not. Variables are named after what they are, so the SMT-LIB text
 * reads on its own:
 *   p.N            a kernel parameter         blockDim.x   a launch dimension
 *   t1.threadIdx.x thread 1's id              s.i          a shared loop variable
 *   t1.p3.y        thread 1's local y at point 3 (loop variable or value read)
 */
import type { Axis, BExpr, BuiltinName, Expr } from '../syntax/ast.js';
import { AXES } from '../syntax/ast.js';
import type { KernelMap, Range, SyncSite, VarInfo } from '../map/map.js';
import { codeChildren, type Code, type Relation } from '../phases/code.js';
import { codeOf } from '../phases/split.js';
import { assertNever } from '../util/assert.js';
import { pointsOf, sharedBinders, type Point, type Step } from './paths.js';
import { exprBuiltins, exprVars } from '../syntax/exprs.js';
import { chooseEncoding, termBits, type Declaration, type Encoding } from './smtlib.js';
import { FALSE, TRUE, and, cmp, eq, isTrue, not, num, op, or, tvar, type Formula, type Term } from './term.js';

/** 1 and 2: the two threads of a query; 3, 4, …: particular threads the vacuity check asks about. */
export type Thread = number;

export type VarRole =
  | { readonly role: 'param'; readonly source: string }
  | { readonly role: 'dim'; readonly source: string }
  | { readonly role: 'thread'; readonly thread: Thread; readonly source: string }
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

export interface Query {
  readonly id: string;
  readonly kernel: string;
  readonly kind: 'race' | 'divergence' | 'assumptions' | 'feasibility';
  readonly level: 'block' | 'grid';
  readonly phase: number | null;
  readonly array: string | null;
  readonly sync: SyncSite | null;
  readonly points: readonly QueryPoint[];
  readonly declarations: readonly Declaration[];
  readonly roles: ReadonlyMap<string, VarRole>;
  readonly assertions: readonly Formula[];
  readonly encoding: Encoding;
  /** the over-approximated shifts: a model that violates `exact` relies on one */
  readonly havocs: readonly { readonly name: string; readonly exact: Formula }[];
}

export interface Launch {
  /** extra facts from the command line: parameter values and dimensions */
  readonly params: ReadonlyMap<string, bigint>;
  readonly blockDim: readonly bigint[] | null;
  readonly gridDim: readonly bigint[] | null;
}

/** No launch facts: every parameter and size is symbolic. */
export const NO_LAUNCH: Launch = { params: new Map(), blockDim: null, gridDim: null };

const INPUT_BITS = 32;
/** Parameters, sizes and values read are below this bound in every query, as in CUDA. */
export const INPUT_BOUND = 1n << BigInt(INPUT_BITS);
/** shifts left by a variable amount are exact below this many bits */
export const SHIFT_LIMIT = 32;

/** A range's terms for one thread, as {@link Scope.loop} computes them. */
interface LoopTerms {
  readonly from: Term;
  readonly to: Term;
  readonly step: Term;
  readonly bits: number;
  readonly succ: (x: Term) => Term;
  readonly continues: (x: Term) => Formula;
  readonly advances: (x: Term) => Formula;
}

/** One query under construction: its declarations and the roles of its variables. */
class Builder {
  readonly declarations = new Map<string, number>();
  readonly roles = new Map<string, VarRole>();
  /** facts that define helper variables, asserted once, never negated */
  readonly definitions: Formula[] = [];
  private readonly chains = new Map<string, Term[]>();
  /** results of large shifts left unconstrained, and when the encoding is exact */
  readonly havocs: { name: string; exact: Formula }[] = [];

  private readonly uniformity = new Map<string, boolean>();

  /** @param shared the shared binders of the code, with their ranges */
  constructor(
    readonly map: KernelMap,
    readonly vars: ReadonlyMap<string, VarInfo>,
    readonly shared: ReadonlyMap<string, Range>,
    readonly launch: Launch,
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

  declare(name: string, bits: number, role: VarRole): Term {
    if (!this.declarations.has(name)) {
      this.declarations.set(name, bits);
      this.roles.set(name, role);
    }
    return tvar(name);
  }

  bits(t: Term): number {
    return termBits(t, (n) => this.declarations.get(n) ?? INPUT_BITS);
  }

  dim(kind: 'blockDim' | 'gridDim', axis: Axis): Term {
    const name = `${kind}.${axis}` as const;
    return this.isVariable(kind, axis) ? this.declare(name, INPUT_BITS, { role: 'dim', source: name }) : num(1);
  }

  threadId(kind: 'threadIdx' | 'blockIdx', axis: Axis, thread: Thread): Term {
    const dim = kind === 'threadIdx' ? 'blockDim' : 'gridDim';
    if (!this.isVariable(dim, axis)) return num(0);
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
    const count = (up ? l.bits : this.bits(l.from)) + 1;
    const key = `${r.step.op} ${JSON.stringify([l.from, l.step, l.to], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`;
    const known = this.chains.get(key);
    if (known) return known;
    const chain: Term[] = [l.from];
    if (l.from.k === 'num' && l.step.k === 'num') {
      const limit = 1n << BigInt(up ? l.bits : this.bits(l.from));
      for (let v = l.succ(l.from); chain.length < count && v.k === 'num' && v.v < limit && !chain.some((c) => c.k === 'num' && v.k === 'num' && c.v === v.v); v = l.succ(v)) {
        chain.push(v);
      }
    } else {
      const width = up ? l.bits + this.bits(l.step) : this.bits(l.from);
      for (let i = 1; i < count; i++) {
        const v = this.declare(`chain${this.chains.size}.v${i}`, width, { role: 'aux' });
        const prev = chain[i - 1]!;
        this.definitions.push(or([and([l.continues(prev), eq(v, l.succ(prev))]), and([not(l.continues(prev)), eq(v, prev)])]));
        chain.push(v);
      }
    }
    this.chains.set(key, chain);
    return chain;
  }

  param(name: string): Term {
    return this.declare(`p.${name}`, INPUT_BITS, { role: 'param', source: name });
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

  local(name: string): string {
    if (this.point >= 0) return `t${this.thread}.p${this.point}.${name}`;
    return this.point === WHOLE_RUN ? `t${this.thread}.run.${name}` : `t${this.thread}.${name}`;
  }

  variable(name: string): Term {
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
    if (info.kind === 'data') return this.b.declare(local, INPUT_BITS, { role: 'local', thread: this.thread, point: this.point, var: name, info });
    if (!this.b.declarations.has(local)) throw new Error(`encoding: loop variable ${name} used outside its loop`);
    return tvar(local);
  }

  term(e: Expr): Term {
    switch (e.kind) {
      case 'nat':
        return num(e.value);
      case 'var':
        return this.variable(e.name);
      case 'builtin':
        return e.name === 'blockDim' || e.name === 'gridDim' ? this.b.dim(e.name, e.axis) : this.b.threadId(e.name, e.axis, this.thread);
      case 'binary': {
        const a = this.term(e.left);
        const b = this.term(e.right);
        if (e.op === '<<' && b.k !== 'num') return this.shiftLeft(a, b);
        if (e.op === '>>' && b.k !== 'num') return this.shiftRight(a, b);
        return op(e.op, a, b);
      }
      default:
        return assertNever(e);
    }
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

  /**
   * The range's bounds, its next value after x, whether a value keeps the loop
   * going, and whether the loop runs another iteration after x (a downward
   * `step - k` ends when x − k would be negative, so that is not
   * `continues(succ(x))` with truncated subtraction).
   */
  loop(r: Range): LoopTerms {
    const from = this.term(r.from);
    const to = this.term(r.to);
    const step = this.term(r.step.amount);
    const up = r.direction === 'up';
    const succOp = r.step.op === '+' ? '+' : r.step.op === '*' ? '*' : r.step.op === '-' ? '-' : '/';
    const continues = (x: Term): Formula => (up ? cmp('<', x, to) : cmp('>=', x, to));
    const succ = (x: Term): Term => op(succOp, x, step);
    return {
      from,
      to,
      step,
      bits: this.b.bits(up ? to : from),
      succ,
      continues,
      advances: (x) => (r.step.op === '-' ? cmp('>=', x, op('+', to, step)) : continues(succ(x))),
    };
  }

  /**
   * x is one of the values the loop visits (spec §3), without existential
   * helpers, so that the condition can also be negated (divergence queries).
   * Geometric loops use a chain of values defined once for the whole query.
   */
  member(x: Term, r: Range, tag: string): Formula {
    const l = this.loop(r);
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
        return or(this.b.chain(r, l).map((v) => and([l.continues(v), eq(x, v)])));
      default:
        return assertNever(r.step.op);
    }
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
        const l = this.loop(r);
        return and([this.member(x, r, tag), not(l.advances(x))]);
      }
      case 'next': {
        const l = this.loop(r);
        const prev = this.variable(rel.prev);
        // a downward step from below the step size ends the loop (truncated, x would look like a value)
        return and([eq(x, l.succ(prev)), l.continues(x), ...(r.step.op === '-' ? [cmp('>=', prev, l.step)] : [])]);
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
    if (this.b.isUniform(name)) return this.relation(this.b.declare(`s.${name}`, this.loop(r).bits, { role: 'shared', var: name }), rel, r, name);
    const l = this.loop(r);
    const k = this.b.declare(iterationName(name), Math.max(this.b.bits(l.from), this.b.bits(l.to)) + 1, { role: 'shared', var: name });
    const x = this.variable(name);
    const exists = this.iterationExists(r, l, k, x);
    switch (rel.kind) {
      case 'member':
        return exists;
      case 'first':
        return and([eq(k, num(0)), exists]);
      case 'last':
        return and([exists, not(l.advances(x))]);
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
    let value: Term;
    switch (r.step.op) {
      case '+':
        value = op('+', l.from, op('*', l.step, k));
        break;
      case '-':
        value = op('-', l.from, op('*', l.step, k));
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
    const x = this.b.declare(local, this.b.bits(value), { role: 'local', thread: this.thread, point: this.point, var: name, info });
    this.b.definitions.push(eq(x, value));
    return x;
  }

  /** Whether this thread's range has a k-th value (x): every value before it keeps the loop going. */
  private iterationExists(r: Range, l: LoopTerms, k: Term, x: Term): Formula {
    switch (r.step.op) {
      case '+':
        return l.continues(x);
      case '-':
        return and([cmp('>=', l.from, op('*', l.step, k)), l.continues(x)]);
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

  bindLocal(name: string, r: Range): Term {
    const info = this.b.vars.get(name)!;
    const l = this.loop(r);
    return this.b.declare(this.local(name), l.bits, { role: 'local', thread: this.thread, point: this.point, var: name, info });
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
      case 'access':
      case 'mark':
      case 'erased':
      case 'loop':
        return TRUE;
      case 'seq':
        return and(c.items.map(completes));
      case 'choice':
        return or(c.options.map(completes));
      case 'if': {
        const then = completes(c.then);
        const otherwise = completes(c.else);
        // c ∨ ¬c: left unsimplified, every `if` of a phase would restate its condition in the path of every other point
        if (isTrue(then) && isTrue(otherwise)) return TRUE;
        const cond = this.formula(c.cond);
        return or([and([cond, then]), and([not(cond), otherwise])]);
      }
      case 'bind': {
        if (member === 'whole' && c.relation.kind === 'member') return TRUE;
        return and([this.sharedRelation(c.var, c.relation, c.range), completes(c.body)]);
      }
      case 'assume':
        return this.negated ? TRUE : this.formula(c.cond);
      case 'empty': {
        const l = this.loop(c.range);
        return not(l.continues(l.from));
      }
      default:
        return assertNever(c);
    }
  }

  /**
   * What this thread satisfies in a feasible launch, where every thread
   * satisfies each `assume` it reaches (the README's meaning of `assume`):
   * the assumptions of `code` that the thread certainly reaches. Reaching is
   * under-approximated, so `holds` is implied by feasibility: a loop is
   * entered at its first iteration (its later ones are not summarised), and
   * a statement after a loop counts as reached only when the loop surely
   * ends; after a barrier, only when barriers `pass` (the race queries,
   * which presume no divergence), not when a barrier `may-stop` the block
   * (the divergence queries). `completes` is when the thread surely runs the
   * whole code.
   */
  assumed(c: Code, barriers: 'pass' | 'may-stop'): { holds: Formula; completes: Formula } {
    const implies = (a: Formula, b: Formula): Formula => or([not(a), b]);
    switch (c.kind) {
      case 'skip':
      case 'access':
      case 'erased':
        return { holds: TRUE, completes: TRUE };
      case 'mark':
        return { holds: TRUE, completes: barriers === 'pass' ? TRUE : FALSE };
      case 'assume':
        return { holds: this.formula(c.cond), completes: TRUE };
      case 'seq': {
        const holds: Formula[] = [];
        let reached: Formula = TRUE;
        // what runs after the last assumption need not be encoded (nor its variables declared)
        const last = c.items.reduce((at, item, i) => (hasAssume(item) ? i : at), -1);
        for (const item of c.items.slice(0, last + 1)) {
          const r = this.assumed(item, barriers);
          holds.push(implies(reached, r.holds));
          reached = and([reached, r.completes]);
        }
        return { holds: and(holds), completes: last === c.items.length - 1 ? reached : and([reached, ...c.items.slice(last + 1).map((i) => this.assumed(i, barriers).completes)]) };
      }
      case 'if': {
        const t = this.assumed(c.then, barriers);
        const e = this.assumed(c.else, barriers);
        if ([t.holds, t.completes, e.holds, e.completes].every(isTrue)) return { holds: TRUE, completes: TRUE };
        const cond = this.formula(c.cond);
        return {
          holds: and([implies(cond, t.holds), implies(not(cond), e.holds)]),
          completes: isTrue(t.completes) && isTrue(e.completes) ? TRUE : or([and([cond, t.completes]), and([not(cond), e.completes])]),
        };
      }
      case 'loop':
      case 'bind': {
        // phase code's other binders (first, last, next) are not in a whole kernel
        if (c.kind === 'bind' && c.relation.kind !== 'member') return { holds: TRUE, completes: FALSE };
        const l = this.loop(c.range);
        this.instantiated.set(c.var, l.from);
        const body = this.assumed(c.body, barriers);
        this.instantiated.delete(c.var);
        const entered = l.continues(l.from);
        return { holds: implies(entered, body.holds), completes: or([not(entered), isTrue(body.completes) ? terminates(c.range, l) : FALSE]) };
      }
      case 'choice':
      case 'empty':
        return { holds: TRUE, completes: FALSE };
      default:
        return assertNever(c);
    }
  }

  step(s: Step): Formula {
    switch (s.kind) {
      case 'prefix':
        return this.completes(s.code, 'whole');
      case 'cond': {
        const f = this.formula(s.cond);
        return s.holds ? f : not(f);
      }
      case 'loop':
        return this.member(this.bindLocal(s.var, s.range), s.range, s.var);
      case 'bind':
        return this.sharedRelation(s.var, s.relation, s.range);
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
 * For each of the two threads, what it satisfies in a feasible launch: the
 * assumptions of the kernel that it certainly reaches (Scope.assumed).
 */
function assumptionFacts(b: Builder, code: Code, barriers: 'pass' | 'may-stop', threads: readonly Thread[] = [1, 2]): Formula[] {
  if (!hasAssume(code)) return [];
  const facts = threads.map((t) => new Scope(b, t, WHOLE_RUN).assumed(code, barriers).holds);
  // assumptions over parameters and sizes only are the same fact for every thread
  const key = (f: Formula): string => JSON.stringify(f, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return facts.filter((f, i) => facts.findIndex((g) => key(g) === key(f)) === i);
}

function hasAssume(c: Code): boolean {
  return c.kind === 'assume' || codeChildren(c).some(hasAssume);
}

/** The shared iteration number of a binder whose range depends on the thread. */
function iterationName(binder: string): string {
  return `s.${binder}.k`;
}

function launchFacts(b: Builder, launch: Launch): Formula[] {
  const scope = new Scope(b, 1, 0);
  const facts: Formula[] = b.map.preconditions.map((c) => scope.formula(c));
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

/** The two threads: in bounds, and distinct (same block, or different blocks). */
function threadFacts(b: Builder, level: 'block' | 'grid'): Formula[] {
  const facts: Formula[] = [];
  for (const t of [1, 2] as const) {
    for (const axis of AXES) {
      facts.push(cmp('<', b.threadId('threadIdx', axis, t), b.dim('blockDim', axis)));
      facts.push(cmp('<', b.threadId('blockIdx', axis, t), b.dim('gridDim', axis)));
    }
  }
  const differ = (kind: 'threadIdx' | 'blockIdx'): Formula =>
    or(AXES.map((a) => not(eq(b.threadId(kind, a, 1), b.threadId(kind, a, 2)))));
  if (level === 'block') {
    facts.push(...AXES.map((a) => eq(b.threadId('blockIdx', a, 1), b.threadId('blockIdx', a, 2))), differ('threadIdx'));
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
  readonly level: 'block' | 'grid';
  readonly phase: number | null;
}

/** The race query of one array in one phase (block level) or in the whole kernel (grid level); null when no thread writes it. */
export function raceQuery(spec: RaceQuerySpec): Query | null {
  const points = pointsOf(spec.code, 'with-rest').filter((p) => p.target.kind === 'access' && p.target.access.array === spec.array);
  if (!points.some((p) => p.target.kind === 'access' && p.target.access.mode === 'write')) return null;
  const b = new Builder(spec.map, spec.vars, sharedBinders(spec.code), spec.launch);
  const assertions = [...launchFacts(b, spec.launch), ...threadFacts(b, spec.level), ...assumptionFacts(b, codeOf(spec.map.body, 'erase'), 'pass')];
  const dims = spec.map.arrays.find((a) => a.name === spec.array)?.dims ?? 1;
  const qpoints: QueryPoint[] = points.map((point, index) => {
    const path: Formula[] = [];
    const element: Term[][] = [];
    const locals: Local[][] = [];
    for (const t of [1, 2] as const) {
      const scope = new Scope(b, t, index);
      path.push(pathOf(scope, point));
      const access = point.target.kind === 'access' ? point.target.access : null;
      element.push(access ? access.index.map((ix) => scope.term(ix)) : []);
      locals.push(access ? access.locals.map((l) => ({ name: l.name, term: scope.term(l.value) })) : []);
    }
    return { index, point, path: [path[0]!, path[1]!], element: [element[0]!, element[1]!], locals: [locals[0]!, locals[1]!] };
  });
  for (const t of [1, 2] as const) {
    const sel = selector(b, t, qpoints.length);
    const indexVars = Array.from({ length: dims }, (_, d) =>
      b.declare(`t${t}.index.${d}`, Math.max(...qpoints.map((q) => b.bits(q.element[t - 1]![d] ?? num(0)))), { role: 'index', thread: t, dim: d }),
    );
    assertions.push(
      or(qpoints.map((q) => and([eq(sel, num(q.index)), q.path[t - 1]!, ...indexVars.map((v, d) => eq(v, q.element[t - 1]![d] ?? num(0)))]))),
    );
  }
  for (let d = 0; d < dims; d++) assertions.push(eq(tvar(`t1.index.${d}`), tvar(`t2.index.${d}`)));
  const writes = qpoints.filter((q) => q.point.target.kind === 'access' && q.point.target.access.mode === 'write');
  assertions.push(or([1, 2].flatMap((t) => writes.map((q) => eq(tvar(`t${t}.point`), num(q.index))))));
  return finish(b, {
    id: `${spec.map.name}/${spec.level === 'block' ? `phase${spec.phase}` : 'grid'}/${spec.array}`,
    kernel: spec.map.name,
    kind: 'race',
    level: spec.level,
    phase: spec.phase,
    array: spec.array,
    sync: null,
    points: qpoints,
    assertions,
  });
}

/** Both threads at points whose accesses are `a` and `b` (either way round): what a reported pair blocks. */
export function pairSelected(q: Query, a: number, b: number): Formula {
  const at = (t: Thread, access: number): Formula =>
    or(q.points.filter((p) => p.point.target.kind === 'access' && p.point.target.access.id === access).map((p) => eq(tvar(`t${t}.point`), num(p.index))));
  return or([and([at(1, a), at(2, b)]), and([at(1, b), at(2, a)])]);
}

export interface DivergenceQuerySpec {
  readonly map: KernelMap;
  readonly launch: Launch;
  readonly code: Code;
  readonly sync: SyncSite;
}

/**
 * Thread 1 reaches the barrier and thread 2, of the same block, does not, in the
 * same iteration of every loop around it. Only control can keep thread 2 away:
 * an assumption restricts the executions, it does not steer threads, so in
 * thread 2's (negated) path assumptions count as true. Both threads satisfy
 * the assumptions they surely reach before any barrier could stop the block
 * (an assumption after a diverging barrier is never reached).
 */
export function divergenceQuery(spec: DivergenceQuerySpec): Query | null {
  const points = pointsOf(spec.code, 'without-rest').filter((p) => p.target.kind === 'mark' && p.target.sync.id === spec.sync.id);
  if (points.length === 0) return null;
  const b = new Builder(spec.map, spec.map.vars, sharedBinders(spec.code), spec.launch);
  const assertions = [...launchFacts(b, spec.launch), ...threadFacts(b, 'block'), ...assumptionFacts(b, spec.code, 'may-stop')];
  const qpoints: QueryPoint[] = points.map((point, index) => {
    const reach = pathOf(new Scope(b, 1, index), point);
    const missed = not(pathOf(new Scope(b, 2, index, true), point));
    return { index, point, path: [reach, missed], element: [[], []], locals: [[], []] };
  });
  assertions.push(or(qpoints.map((q) => and([q.path[0], q.path[1]]))));
  return finish(b, {
    id: `${spec.map.name}/sync${spec.sync.id}`,
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

function finish(b: Builder, q: Omit<Query, 'declarations' | 'roles' | 'encoding' | 'havocs'>): Query {
  const declarations = [...b.declarations].map(([name, bits]) => ({ name, bits }));
  const assertions = [...b.definitions, ...q.assertions].filter((f) => !(f.k === 'const' && f.v));
  return { ...q, assertions, declarations, roles: b.roles, havocs: b.havocs, encoding: chooseEncoding(declarations, assertions) };
}

/**
 * Can some thread run `code` to its end? Used to prove that every iteration of
 * a loop meets a barrier (the code is the loop's barrier-free paths, bound to
 * a shared iteration). Conditions deciding barriers are uniform, so one
 * thread speaks for the block.
 */
export function completionQuery(map: KernelMap, vars: ReadonlyMap<string, VarInfo>, launch: Launch, code: Code): Query {
  const b = new Builder(map, vars, sharedBinders(code), launch);
  const assertions = [...launchFacts(b, launch), ...threadFacts(b, 'block'), ...assumptionFacts(b, codeOf(map.body, 'erase'), 'pass', [1])];
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
 * Can the kernel's assumptions hold at all? The requires clauses, the launch
 * clause, the command line, and what the first thread of the first block and
 * the last thread of the last block satisfy in a feasible launch (both exist
 * in every launch). Unsat: no launch is feasible, every other query would be
 * vacuously unsat. `barriers` says whether threads surely pass the barriers
 * (every divergence query was unsat) or a barrier may stop the block.
 */
export function assumptionsQuery(map: KernelMap, launch: Launch, barriers: 'pass' | 'may-stop', others: readonly ThreadIds[] = []): Query {
  const code = codeOf(map.body, barriers === 'pass' ? 'erase' : 'mark');
  const b = new Builder(map, map.vars, sharedBinders(code), launch);
  const assertions = launchFacts(b, launch);
  for (const axis of AXES) {
    for (const [kind, dim] of [['threadIdx', 'blockDim'], ['blockIdx', 'gridDim']] as const) {
      assertions.push(eq(b.threadId(kind, axis, 1), num(0)), eq(b.threadId(kind, axis, 2), op('-', b.dim(dim, axis), num(1))));
    }
  }
  assertions.push(...assumptionFacts(b, code, barriers));
  // a thread the earlier rounds found failing an assumption: if the launch has it, it satisfies them too
  others.forEach((ids, i) => {
    const t = 3 + i;
    const at = AXES.flatMap((axis, a) => [
      eq(b.threadId('threadIdx', axis, t), num(ids.threadIdx[a] ?? 0n)),
      eq(b.threadId('blockIdx', axis, t), num(ids.blockIdx[a] ?? 0n)),
    ]);
    const exists = and(
      AXES.flatMap((axis, a) => [cmp('<', num(ids.threadIdx[a] ?? 0n), b.dim('blockDim', axis)), cmp('<', num(ids.blockIdx[a] ?? 0n), b.dim('gridDim', axis))]),
    );
    assertions.push(or([not(exists), and([...at, ...assumptionFacts(b, code, barriers, [t])])]));
  });
  return finish(b, { id: `${map.name}/assumptions`, kernel: map.name, kind: 'assumptions', level: 'block', phase: null, array: null, sync: null, points: [], assertions });
}

/** A thread's coordinates, as the vacuity check names a particular thread. */
export interface ThreadIds {
  readonly threadIdx: readonly bigint[];
  readonly blockIdx: readonly bigint[];
}

/**
 * At one launch (every parameter and size fixed), can some thread of some
 * block reach an `assume` and fail it? Unsat: the launch is feasible, which
 * is what makes an alarm at that launch real. Reaching is over-approximated
 * (a loop is taken to end, values read are unknown), so sat only means that
 * feasibility is not proved. Null when the kernel has no assumption.
 */
export function violationQuery(map: KernelMap, launch: Launch): Query | null {
  const code = codeOf(map.body, 'erase');
  const points = pointsOf(code, 'without-rest').filter((p) => p.target.kind === 'assume');
  if (points.length === 0) return null;
  const b = new Builder(map, map.vars, sharedBinders(code), launch);
  const assertions = launchFacts(b, launch);
  for (const axis of AXES) {
    assertions.push(cmp('<', b.threadId('threadIdx', axis, 1), b.dim('blockDim', axis)), cmp('<', b.threadId('blockIdx', axis, 1), b.dim('gridDim', axis)));
  }
  const qpoints: QueryPoint[] = points.map((point, index) => {
    const scope = new Scope(b, 1, index);
    // the path binds the loop variables the condition may mention
    const reached = pathOf(scope, point);
    const failed = point.target.kind === 'assume' ? not(scope.formula(point.target.cond)) : FALSE;
    return { index, point, path: [and([reached, failed]), FALSE], element: [[], []], locals: [[], []] };
  });
  assertions.push(or(qpoints.map((q) => q.path[0])));
  return finish(b, { id: `${map.name}/feasible`, kernel: map.name, kind: 'feasibility', level: 'block', phase: null, array: null, sync: null, points: qpoints, assertions });
}
