/**
 * The state of lowering one kernel: what C values become in the core, the
 * statements emitted so far, the mutable locals' current SSA values, and the
 * joins of branches. Expressions (expr.ts) and statements (stmt.ts) share it.
 *
 * A mutable local is a slot whose current value is a core expression over
 * names in scope; an assignment binds a fresh `let` and moves the slot to it.
 * A branch is lowered on a copy of the slots' values; where the two branches
 * leave a slot with different values, the join binds `ite(c, then, else)`,
 * with the branches' own lets expanded to their definitions. A value that
 * rests on a read or an unknown bound inside a branch cannot be named after
 * it: the join makes it an unknown value (data-dependent, as the read was).
 */
import type { Observer } from './observe.js';
import type { ArrayDecl, Axis, BExpr, BuiltinName, Expr, MachineType, Param, StatedAssumption, Stmt, UnknownOrigin } from '../../core/ast.js';
import type { SourceFile, Span } from '../../core/source.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Node } from './parse.js';
import type { FieldArray, Part, Place } from './expr.js';
import type { Unit } from './unit.js';
import type { Group } from './groups.js';
import type { FloatConstant, FloatPattern } from './floats.js';
import type { Cells } from './locals.js';
import { cudaDiagnostic, KernelRejected, type CudaProblem } from './codes.js';
import { isInteger, leavesOf, machineOf, type CType, type StructCType } from './ctypes.js';
import { condMayBeUndefined, exprEqual, not, or, and, ite } from './build.js';
import { mayBeUndefined } from '../../core/types.js';
import { bexprVars, exprVars, substBExpr, substExpr } from '../../core/exprs.js';

/** An array in memory as the kernel sees it. */
export interface ArrayRef {
  /** its name in the core */
  readonly name: string;
  /** global, shared, or private to the thread (a local array: its accesses cannot race) */
  readonly space: 'global' | 'shared' | 'local';
  /** the element type; a struct's leaves are an extra, last index component */
  readonly elem: CType;
  /** declared dimensions (1 for a pointer or a scalar) */
  readonly dims: number;
  readonly readOnly: boolean;
  readonly span: Span;
  /** whether a pointer to it may be null: a kernel's pointer parameter (as the launch passes it), or memory reached through a pointer read from memory (unknown) */
  readonly mayBeNull?: 'launch' | 'unknown';
  /** a file-scope variable or table of function pointers, initialised with functions: what its elements hold */
  readonly functions?: FunctionTable;
  /** a local array's elements followed as slots (locals.ts); null when they are not followed */
  readonly cells?: Cells | null;
}

/**
 * A `__device__` (or `__constant__`) function pointer or table of them, by its
 * initialiser: `names[i]` is the function element i holds; `constant`: it is
 * declared `const`, so neither the host nor the device may change it.
 */
export interface FunctionTable {
  readonly names: readonly string[];
  readonly constant: boolean;
}

/** A pointer: an array, the fixed leading indices of a multi-dimensional one, an offset, and maybe a fixed struct leaf. */
export interface PointerValue {
  readonly kind: 'pointer';
  readonly target: ArrayRef;
  readonly prefix: readonly Expr[];
  /** null: 0 */
  readonly offset: Expr | null;
  /** the element type pointed to */
  readonly elem: CType;
  /** a pointer to one field of a struct element (`&a[i].x`): its first leaf */
  readonly leaf: number | null;
  /** a pointer to a nested struct of an element (`&o[i].in`, a reference returned to it): which one, so that its place is that struct again */
  readonly part?: Part;
  /** a pointer to an element of an array field at an index known only at run time (`&nodes[i].keys[j]`): added to `leaf` */
  readonly leafOffset?: Expr;
  /**
   * an array of scalars seen as vectors of `per` of them (`(float4 *)a` on a
   * `float *`): leaf k of element i is the target's element
   * `base + (offset + i) * per + k` (the offset counts vectors, `base` scalars)
   */
  readonly view?: { readonly base: Expr | null; readonly per: number };
}

/**
 * A pointer that is one of two by a condition evaluated where it was made:
 * `c ? a : b`, a pointer assigned in an if/else, or one of the arrays a
 * pointer read from memory may point into. An access through it is an access
 * of `then` where `cond` holds, else of `else`.
 */
export interface EitherPointer {
  readonly kind: 'either';
  readonly cond: BExpr;
  readonly then: AnyPointer;
  readonly else: AnyPointer;
  readonly elem: CType;
}

/** `0`, `nullptr`, `NULL` as a pointer: it points nowhere, and a thread that dereferences it leaves the scope. */
export interface NullPointer {
  readonly kind: 'null';
  readonly elem: CType;
}

export type AnyPointer = PointerValue | EitherPointer | NullPointer;

export const isPointer = (v: Value): v is AnyPointer => v.kind === 'pointer' || v.kind === 'either' || v.kind === 'null';

/** The pointer with each array-and-offset it may be replaced by `f`'s. */
export function mapPointers(p: AnyPointer, f: (q: PointerValue) => AnyPointer): AnyPointer {
  switch (p.kind) {
    case 'pointer':
      return f(p);
    case 'null':
      return p;
    case 'either': {
      const then = mapPointers(p.then, f);
      const other = mapPointers(p.else, f);
      return { ...p, then, else: other, elem: then.kind === 'null' ? other.elem : then.elem };
    }
  }
}

export type Value =
  | { readonly kind: 'int'; readonly expr: Expr; readonly type: MachineType }
  | { readonly kind: 'bool'; readonly cond: BExpr }
  /**
   * a value the analysis does not follow (a float, an opaque type); `local`: the read that produced it; `exact`: a
   * floating-point constant computed exactly (floats.ts), `pattern`: the bit pattern of a float or double parameter,
   * both followed only where `ctype` is still their type; `function`:
   * a pointer to that function of the file (a call through it is inlined, expr.ts calleeOf)
   */
  | { readonly kind: 'unknown'; readonly ctype: CType; readonly what: string; readonly span: Span; readonly local?: Expr; readonly exact?: FloatConstant; readonly pattern?: FloatPattern; readonly function?: string }
  | PointerValue
  | EitherPointer
  | NullPointer
  /** a struct or vector value held in locals: one value per leaf (ctypes.ts leavesOf) */
  | { readonly kind: 'struct'; readonly ctype: StructCType; readonly fields: readonly Value[] }
  /** a cooperative group (groups.ts): which threads it holds */
  | { readonly kind: 'group'; readonly group: Group; readonly span: Span }
  | { readonly kind: 'void' };

/** A mutable local (or an exit flag): its current value lives in Ctx.values. */
export interface Slot {
  readonly name: string;
  readonly ctype: CType;
  readonly span: Span;
  /** how messages name it, when not by `name` (a temporary: "the value of `c ? A[i] : 0`") */
  readonly what?: string;
}

export type Binding =
  | { readonly kind: 'local'; readonly slot: Slot }
  /** an array, or a scalar in memory (a `__shared__ int x` is a one-element array) */
  | { readonly kind: 'array'; readonly array: ArrayRef; readonly scalar: boolean }
  | { readonly kind: 'value'; readonly value: Value }
  /** a reference: another name for a place (an element, whose index was evaluated where it was bound, or a local) */
  | { readonly kind: 'alias'; readonly place: Place }
  | { readonly kind: 'type'; readonly ctype: CType }
  /** a data member that is an array (`keys` in a member function of a struct with `int keys[4]`): only its elements are places */
  | { readonly kind: 'fieldArray'; readonly field: FieldArray }
  /** `this` in a member function: the object it was called on (members.ts); null in a static member function, which has none */
  | { readonly kind: 'object'; readonly place: Place | null; readonly ctype: StructCType };

export class Scope {
  private readonly names = new Map<string, Binding>();
  /** the locals declared in this scope, whose values are dropped when it ends */
  readonly slots: Slot[] = [];
  /**
   * Every name defined in any scope of this one's tree (shared with its
   * ancestors and descendants, never shrinking): a name not in it is in no
   * frame, so its lookup goes straight to the nearest scope with a resolver
   * instead of walking every frame. Names missing from scope (builtins,
   * functions, members) walked all N frames of a `for` nested N deep at each
   * use: lowering was cubic in the nesting (issue 30 §2).
   */
  private readonly everDefined: Set<string>;
  /** this scope or its nearest ancestor that has a resolver, or null */
  private readonly resolving: Scope | null;
  /** `resolve`: names this scope has without defining them, computed at each lookup (a class's members: classes.ts, members.ts) */
  constructor(
    readonly parent: Scope | null,
    private readonly resolve?: (name: string) => Binding | undefined,
  ) {
    this.everDefined = parent?.everDefined ?? new Set();
    this.resolving = resolve !== undefined ? this : (parent?.resolving ?? null);
  }
  lookup(name: string): Binding | undefined {
    if (this.everDefined.has(name)) return this.names.get(name) ?? this.resolve?.(name) ?? this.parent?.lookup(name);
    const r = this.resolving;
    return r === null ? undefined : (r.resolve?.(name) ?? r.parent?.lookup(name));
  }
  define(name: string, binding: Binding): void {
    this.names.set(name, binding);
    this.everDefined.add(name);
  }
  /** how many names this scope defines (what the silent-drop test watches) */
  get size(): number {
    return this.names.size;
  }
}

type Item = { readonly kind: 'binder'; readonly wrap: (body: Stmt) => Stmt; readonly span: Span } | { readonly kind: 'stmt'; readonly stmt: Stmt };

/** The statements of one block, binders nested over the statement that follows them. */
export class Builder {
  readonly items: Item[] = [];
  /** core names bound in this block, for expanding them at a join */
  readonly bound = new Set<string>();

  stmt(stmt: Stmt): void {
    this.items.push({ kind: 'stmt', stmt });
  }

  binder(name: string, span: Span, wrap: (body: Stmt) => Stmt): void {
    this.bound.add(name);
    this.items.push({ kind: 'binder', wrap, span });
  }

  /** The block: each run of binders wraps the statement after it (their scope runs to the block's end either way). */
  stmts(): Stmt[] {
    const out: Stmt[] = [];
    let pending: (Item & { kind: 'binder' })[] = [];
    const close = (s: Stmt): Stmt => pending.reduceRight((body, b) => b.wrap(body), s);
    for (const item of this.items) {
      if (item.kind === 'binder') {
        pending.push(item);
        continue;
      }
      out.push(close(item.stmt));
      pending = [];
    }
    if (pending.length > 0) out.push(close({ kind: 'skip', span: pending[pending.length - 1]!.span }));
    return out;
  }
}

export interface Approximation {
  readonly what: string;
  readonly why: string;
  readonly span: Span;
}

/** What a kernel's lowering gathers besides its body. */
export interface KernelState {
  readonly arrays: ArrayDecl[];
  readonly arrayRefs: Map<string, ArrayRef>;
  readonly params: Param[];
  readonly requires: BExpr[];
  /** the user's `__requires` and `__assume` conditions, once each, in the order met */
  readonly stated: StatedAssumption[];
  readonly used: Set<string>;
  /**
   * the builtins (`threadIdx.y`, `gridDim.x`) the kernel evaluated, also where
   * the value they gave was lost to an unknown (`sqrtf(threadIdx.y)`): a
   * dimension the lowered body no longer names is still one the kernel uses,
   * and must not be taken to be 1 (spec §5)
   */
  readonly builtins: Set<`${BuiltinName}.${Axis}`>;
  /** a let's definition (null: a read's or unknown's local), to expand lets bound inside a branch at its join */
  readonly defs: Map<string, Expr | null>;
  readonly notices: Diagnostic[];
  /** functions being inlined, innermost last, to refuse recursion */
  readonly calls: string[];
  /** the file's names as the kernel sees them: globals, constants; a called function's scope starts here */
  readonly root: Scope;
  /** told what came of each statement and call (the silent-drop test); absent in normal runs */
  readonly observer?: Observer;
}

export interface FnFrame {
  readonly name: string;
  /** whether the thread has returned from this function */
  readonly returned: Slot;
  /** the value returned, for a non-void function; for one returning a reference, a pointer to the place it names */
  readonly result: Slot | null;
  /** the function returns a reference (`T &f(…)`): a return names a place, not a value */
  readonly reference?: true;
}

export interface LoopFrame {
  readonly broke: Slot;
  readonly continued: Slot;
}

export interface Ctx {
  readonly file: SourceFile;
  readonly unit: Unit;
  readonly k: KernelState;
  b: Builder;
  scope: Scope;
  values: Map<Slot, Value>;
  fn: FnFrame;
  loop: LoopFrame | null;
}

export const spanOf = (n: Node): Span => ({ start: n.startIndex, end: n.endIndex });

export function reject(ctx: { readonly file: SourceFile }, problem: CudaProblem, node: Node | Span, message: string, hints: readonly string[] = []): never {
  const span = 'startIndex' in node ? spanOf(node) : node;
  throw new KernelRejected(cudaDiagnostic(problem, ctx.file, span, message, { hints }));
}

export function unsupported(ctx: { readonly file: SourceFile }, node: Node | Span, construct: string, hints: readonly string[] = []): never {
  return reject(ctx, 'unsupported', node, `unsupported: ${construct}`, hints);
}

export function notice(ctx: Ctx, problem: CudaProblem, span: Span, message: string): void {
  ctx.k.notices.push(cudaDiagnostic(problem, ctx.file, span, message));
}

/** A core name not bound yet in this kernel: `base`, else `base_1`, `base_2`… */
export function fresh(ctx: Ctx, base: string): string {
  const clean = base.replace(/[^A-Za-z0-9_]/g, '_');
  let name = clean;
  for (let n = 1; ctx.k.used.has(name); n++) name = `${clean}_${n}`;
  ctx.k.used.add(name);
  return name;
}

export const FALSE: BExpr = { kind: 'bool', value: false, span: { start: 0, end: 0 } };
export const TRUE: BExpr = { kind: 'bool', value: true, span: { start: 0, end: 0 } };
export const isFalse = (c: BExpr): boolean => c.kind === 'bool' && !c.value;
export const isTrue = (c: BExpr): boolean => c.kind === 'bool' && c.value;

/** Binds `value` to a fresh name with `let` and gives the variable that names it. */
export function letBound(ctx: Ctx, base: string, value: Expr, type: MachineType, span: Span): Expr {
  if (value.kind === 'var' || value.kind === 'int' || value.kind === 'nat') return value;
  const name = fresh(ctx, base);
  ctx.k.defs.set(name, value);
  ctx.b.binder(name, span, (body) => ({ kind: 'let', local: { text: name, span }, value, body, span }));
  return { kind: 'var', name, type, span };
}

/** An unknown value of an integer type, bound with `havoc`. */
export function havocked(ctx: Ctx, base: string, type: MachineType, origin: UnknownOrigin, span: Span): Expr {
  const name = fresh(ctx, base);
  ctx.k.defs.set(name, null);
  ctx.b.binder(name, span, (body) => ({ kind: 'havoc', local: { text: name, span }, type, origin, body, span }));
  return { kind: 'var', name, type, span };
}

/** The machine type a slot of this C type holds its value in (narrow integers and bool in an `int`). */
export function slotMachine(t: CType): MachineType | null {
  if (t.kind === 'bool') return 'i32';
  return t.kind === 'int' ? machineOf(t) : null;
}

/** The definitions of the names of `names` bound in `bound`; null when one has none (a read's or an unknown's local). */
function definitions(ctx: Ctx, names: ReadonlySet<string>, bound: ReadonlySet<string>): Map<string, Expr> | null {
  const sub = new Map<string, Expr>();
  for (const n of names) {
    if (!bound.has(n)) continue;
    const def = ctx.k.defs.get(n);
    if (def === null || def === undefined) return null;
    sub.set(n, def);
  }
  return sub;
}

/** The expression with every name bound in `bound` replaced by its definition; null when one has none. */
export function expanded(ctx: Ctx, e: Expr, bound: ReadonlySet<string>): Expr | null {
  for (let x = e; ; ) {
    const sub = definitions(ctx, exprVars(x), bound);
    if (sub === null) return null;
    if (sub.size === 0) return x;
    x = substExpr(x, sub);
  }
}

export function expandedCond(ctx: Ctx, c: BExpr, bound: ReadonlySet<string>): BExpr | null {
  for (let x = c; ; ) {
    const sub = definitions(ctx, bexprVars(x), bound);
    if (sub === null) return null;
    if (sub.size === 0) return x;
    x = substBExpr(x, sub);
  }
}

export interface Branch {
  readonly stmts: Stmt[];
  readonly values: Map<Slot, Value>;
  readonly bound: ReadonlySet<string>;
}

/** Lowers `body` as a branch: on a copy of the slots' values, into a block of its own. */
export function branch(ctx: Ctx, body: () => void): Branch {
  const savedB = ctx.b;
  const savedValues = ctx.values;
  const savedScope = ctx.scope;
  ctx.b = new Builder();
  ctx.values = new Map(savedValues);
  try {
    body();
    return { stmts: ctx.b.stmts(), values: ctx.values, bound: ctx.b.bound };
  } finally {
    ctx.b = savedB;
    ctx.values = savedValues;
    ctx.scope = savedScope;
  }
}

/** Emits `if (cond) then else other` and moves every slot to its value after the join. */
export function emitIf(ctx: Ctx, cond: BExpr, then: Branch, other: Branch, span: Span): void {
  if (isTrue(cond) || isFalse(cond)) {
    // only one branch runs: its statements join this block, its lets stay in scope
    const taken = isTrue(cond) ? then : other;
    for (const s of taken.stmts) ctx.b.stmt(s);
    for (const name of taken.bound) ctx.b.bound.add(name);
    for (const slot of ctx.values.keys()) ctx.values.set(slot, taken.values.get(slot)!);
    return;
  }
  // a condition that may be undefined is evaluated even where its branches do nothing: it decides whether the thread is in the scope
  if (!inert(then.stmts) || !inert(other.stmts) || condMayBeUndefined(cond)) {
    ctx.b.stmt({ kind: 'if', cond, then: then.stmts.length > 0 ? then.stmts : [{ kind: 'skip', span }], else: other.stmts.length > 0 ? other.stmts : null, span });
  }
  joinInto(ctx, cond, then, other, span);
}

/** Statements that only bind pure values: a branch of nothing else needs no `if` (its values reach the join expanded). */
/** Statements with no effect: skips, and lets of values always defined (C evaluates `int u = x / 0;` even unused: undefined, outside the scope). */
function inert(stmts: readonly Stmt[]): boolean {
  return stmts.every((s) => s.kind === 'skip' || (s.kind === 'let' && !mayBeUndefined(s.value) && inert([s.body])));
}

function joinInto(ctx: Ctx, cond: BExpr, then: Branch, other: Branch, span: Span): void {
  for (const [slot, before] of ctx.values) {
    const t = then.values.get(slot) ?? before;
    const e = other.values.get(slot) ?? before;
    if (t === before && e === before) continue;
    ctx.values.set(slot, joined(ctx, slot, cond, t, then.bound, e, other.bound, span));
  }
}

function joined(ctx: Ctx, slot: Slot, cond: BExpr, t: Value, tBound: ReadonlySet<string>, e: Value, eBound: ReadonlySet<string>, span: Span): Value {
  // a value set on one side only (a function's result, set where it returns): the other side never reads it
  if (e.kind === 'void' && t.kind !== 'void') return outOfBranch(ctx, slot, t, tBound, span);
  if (t.kind === 'void' && e.kind !== 'void') return outOfBranch(ctx, slot, e, eBound, span);
  if (t.kind === 'int' && e.kind === 'int') {
    const te = expanded(ctx, t.expr, tBound);
    const ee = expanded(ctx, e.expr, eBound);
    if (te === null || ee === null) return unknownAfterBranch(ctx, slot, span);
    if (exprEqual(te, ee)) return { kind: 'int', expr: te, type: t.type };
    return { kind: 'int', expr: letBound(ctx, slot.name, ite(cond, te, ee, t.type, span), t.type, span), type: t.type };
  }
  if (t.kind === 'bool' && e.kind === 'bool') {
    const tc = expandedCond(ctx, t.cond, tBound);
    const ec = expandedCond(ctx, e.cond, eBound);
    if (tc === null || ec === null) return unknownAfterBranch(ctx, slot, span);
    return { kind: 'bool', cond: or(and(cond, tc), and(not(cond), ec)) };
  }
  if (t.kind === 'pointer' && e.kind === 'pointer' && t.target === e.target && t.leaf === e.leaf && t.part?.path === e.part?.path && t.leafOffset === undefined && e.leafOffset === undefined && t.prefix.length === e.prefix.length && t.view === undefined && e.view === undefined) {
    const a = pointerOutOfBranch(ctx, slot, t, tBound, span);
    const b = pointerOutOfBranch(ctx, slot, e, eBound, span);
    const zero = { kind: 'int', value: 0n, type: 'i64', span } as const;
    const pick = (x: Expr, y: Expr): Expr => (exprEqual(x, y) ? x : ite(cond, x, y, typeOfIndex(x), span));
    return { ...a, prefix: a.prefix.map((x, i) => pick(x, b.prefix[i]!)), offset: a.offset === null && b.offset === null ? null : pick(a.offset ?? zero, b.offset ?? zero) };
  }
  if (isPointer(t) && isPointer(e)) {
    // into different arrays (or null on one side): the join points where the branch's condition says
    const a = anyPointerOutOfBranch(ctx, slot, t, tBound, span);
    const b = anyPointerOutOfBranch(ctx, slot, e, eBound, span);
    return { kind: 'either', cond, then: a, else: b, elem: a.kind === 'null' ? b.elem : a.elem };
  }
  if (isPointer(t) || isPointer(e)) return unsupported(ctx, span, `a pointer set on one side of this branch and a number on the other (${slot.name})`);
  if (t.kind === 'struct' && e.kind === 'struct') {
    const leaves = leavesOf(t.ctype);
    return { ...t, fields: t.fields.map((f, i) => joined(ctx, { ...slot, name: `${slot.name}_${leaves[i]!.path}`, ctype: leaves[i]!.type }, cond, f, tBound, e.fields[i]!, eBound, span)) };
  }
  return { kind: 'unknown', ctype: slot.ctype, what: `${slot.what ?? slot.name} after a branch`, span };
}

/** A value of one branch, named after the join: its lets expanded (or unknown, if it rests on a read inside). */
function outOfBranch(ctx: Ctx, slot: Slot, v: Value, bound: ReadonlySet<string>, span: Span): Value {
  if (v.kind === 'int') {
    const x = expanded(ctx, v.expr, bound);
    return x === null ? unknownAfterBranch(ctx, slot, span) : { ...v, expr: x };
  }
  if (v.kind === 'bool') {
    const c = expandedCond(ctx, v.cond, bound);
    return c === null ? unknownAfterBranch(ctx, slot, span) : { kind: 'bool', cond: c };
  }
  if (isPointer(v)) return anyPointerOutOfBranch(ctx, slot, v, bound, span);
  return v;
}

/**
 * A pointer of any form out of a branch: offsets expanded, and each choice's
 * condition too; a condition that rests on memory read inside the branch
 * becomes an unknown choice (either array may be the one), never a guess.
 */
function anyPointerOutOfBranch(ctx: Ctx, slot: Slot, v: AnyPointer, bound: ReadonlySet<string>, span: Span): AnyPointer {
  switch (v.kind) {
    case 'pointer':
      return pointerOutOfBranch(ctx, slot, v, bound, span);
    case 'null':
      return v;
    case 'either': {
      const then = anyPointerOutOfBranch(ctx, slot, v.then, bound, span);
      const other = anyPointerOutOfBranch(ctx, slot, v.else, bound, span);
      const cond = expandedCond(ctx, v.cond, bound);
      if (cond !== null) return { ...v, cond, then, else: other };
      const origin: UnknownOrigin = { kind: 'value', what: `which array ${slot.what ?? slot.name} points into after a branch that read memory`, span };
      const x = havocked(ctx, `${slot.name}_which`, 'i32', origin, span);
      return { ...v, cond: { kind: 'cmp', op: '!=', left: x, right: { kind: 'int', value: 0n, type: 'i32', span }, span }, then, else: other };
    }
  }
}

/** A pointer out of a branch, its offsets expanded; one that rests on memory read inside the branch cannot be followed. */
function pointerOutOfBranch(ctx: Ctx, slot: Slot, v: PointerValue, bound: ReadonlySet<string>, span: Span): PointerValue {
  const parts = [...v.prefix, ...(v.offset === null ? [] : [v.offset])].map((x) => expanded(ctx, x, bound));
  const base = v.view?.base ?? null;
  const baseOut = base === null ? null : expanded(ctx, base, bound);
  const leafOffset = v.leafOffset === undefined ? undefined : expanded(ctx, v.leafOffset, bound);
  if (parts.some((p) => p === null) || (base !== null && baseOut === null) || leafOffset === null) return unsupported(ctx, span, `a pointer whose offset after this branch depends on memory read inside it (${slot.what ?? slot.name})`);
  const all = parts as Expr[];
  const moved: PointerValue = { ...v, prefix: all.slice(0, v.prefix.length), offset: v.offset === null ? null : all[all.length - 1]!, ...(leafOffset === undefined ? {} : { leafOffset }) };
  return v.view === undefined ? moved : { ...moved, view: { ...v.view, base: baseOut } };
}

function typeOfIndex(e: Expr): MachineType {
  if (e.kind === 'int' || e.kind === 'cast') return e.type;
  if ((e.kind === 'var' || e.kind === 'binary') && e.type !== undefined) return e.type;
  if (e.kind === 'ite') return typeOfIndex(e.then);
  return 'i64';
}

/** A slot whose value after a branch rests on memory read inside it: unknown, as the read was. */
function unknownAfterBranch(ctx: Ctx, slot: Slot, span: Span): Value {
  const origin: UnknownOrigin = { kind: 'value', what: `${slot.what ?? slot.name} after a branch that read memory`, span };
  if (isInteger(slot.ctype)) {
    const type = slotMachine(slot.ctype)!;
    const v = havocked(ctx, slot.name, type, origin, span);
    return slot.ctype.kind === 'bool' ? { kind: 'bool', cond: { kind: 'cmp', op: '!=', left: v, right: { kind: 'int', value: 0n, type, span }, span } } : { kind: 'int', expr: v, type };
  }
  return { kind: 'unknown', ctype: slot.ctype, what: origin.what, span };
}
