/**
 * Memory access protocols (MAPs): what each thread reads and writes, where and
 * under which control, with array contents dropped (paper, Fig. 6). Pure lets
 * are inlined; a variable bound by a read or a `havoc` stays a variable whose
 * value is unknown and may differ between threads (a data-dependent variable).
 * Where a thread evaluates machine-integer operations that may be undefined
 * and whose values the protocol drops (a let's value, a written value), a
 * `defined` step keeps them: an execution in which they are undefined is
 * outside the scope of verification.
 */
import type { AtomicOp, BExpr, DownStep, Expr, IntType, Kernel, MachineType, Scope, UnknownOrigin, UpStep } from '../core/ast.js';
import type { SourceFile, Span } from '../core/source.js';
import { assertNever } from '../util/assert.js';

/**
 * The third kind, `atomic`, is a read-modify-write: it conflicts with plain
 * reads and writes of its element (it writes), never with another atomic.
 */
export type Mode = 'read' | 'write' | 'atomic';

/** Whether two accesses of one element by two threads race: one writes, and they are not both atomic. */
export function conflicting(a: Mode, b: Mode): boolean {
  if (a === 'read' && b === 'read') return false;
  return !(a === 'atomic' && b === 'atomic');
}

export interface Range {
  readonly from: Expr;
  readonly to: Expr;
  readonly direction: 'up' | 'down';
  /** the default steps `+ 1` and `- 1` are explicit */
  readonly step: { readonly op: UpStep | DownStep; readonly amount: Expr };
  /** the loop variable's machine type, in whose arithmetic the values are computed; absent: nat */
  readonly type?: MachineType;
}

export interface Access {
  /** unique within the kernel; copies made by the phase split keep it */
  readonly id: number;
  readonly array: string;
  readonly mode: Mode;
  readonly index: readonly Expr[];
  /** the `A[i]` in the source */
  readonly span: Span;
  /** the variable a read or an atomic binds (`let y = A[i] in …`; an atomic whose old value is not used binds a fresh one), null for writes */
  readonly local: string | null;
  /** an atomic's operation */
  readonly op?: AtomicOp;
  /** a write's value, lets inlined: two writes of provably equal values race benignly */
  readonly value?: Expr;
  /** the loop variables around the access, outermost first, shown in witnesses */
  readonly loops: readonly string[];
  /** pure lets in scope, already inlined, shown in witnesses */
  readonly locals: readonly { readonly name: string; readonly value: Expr }[];
}

export interface SyncSite {
  /** unique within the kernel, over both kinds */
  readonly id: number;
  readonly span: Span;
  /** `block`: a `sync`, among the threads of a block; `warp`: a `syncwarp`, among the threads of a warp */
  readonly scope: 'block' | 'warp';
}

export type Proto =
  | { readonly kind: 'skip' }
  | { readonly kind: 'access'; readonly access: Access }
  | { readonly kind: 'seq'; readonly items: readonly Proto[] }
  | { readonly kind: 'if'; readonly cond: BExpr; readonly then: Proto; readonly else: Proto }
  | { readonly kind: 'loop'; readonly var: string; readonly range: Range; readonly body: Proto; readonly span: Span }
  | { readonly kind: 'sync'; readonly sync: SyncSite }
  /** a barrier among the threads of one warp; the block's phases go through it */
  | { readonly kind: 'syncwarp'; readonly sync: SyncSite }
  | { readonly kind: 'assume'; readonly cond: BExpr; readonly span: Span }
  /** the thread evaluates these expressions here, for their definedness only */
  | { readonly kind: 'defined'; readonly exprs: readonly Expr[]; readonly span: Span }
  /** the thread binds `var` (an 'unknown' variable) to an unknown value */
  | { readonly kind: 'havoc'; readonly var: string; readonly span: Span };

/** Where a data-dependent variable's value comes from. */
export interface ReadOrigin {
  readonly array: string;
  /** the `A[i]` that was read */
  readonly span: Span;
}

export type VarInfo =
  | { readonly kind: 'param'; readonly type?: MachineType }
  | { readonly kind: 'loop'; readonly source: string }
  | { readonly kind: 'data'; readonly source: string; readonly origin: ReadOrigin }
  /** bound by `havoc`: data-dependent like a value read */
  | { readonly kind: 'unknown'; readonly source: string; readonly origin: UnknownOrigin; readonly type: IntType };

/** Whether the variable's value is outside V: read from memory or unknown. */
export function isDataDependent(info: VarInfo | undefined): info is Extract<VarInfo, { kind: 'data' | 'unknown' }> {
  return info?.kind === 'data' || info?.kind === 'unknown';
}

/** `definedness`: an operation that may be undefined (its value dropped, or not), which decides whether the thread goes on */
export type Use = 'index' | 'condition' | 'loop bound' | 'loop step' | 'assumption' | 'definedness';

/** A data-dependent value used where the type system of the paper needs V. */
export interface TypingViolation {
  readonly variable: string;
  /** the read, or the unknown value, it comes from */
  readonly origin: ReadOrigin | UnknownOrigin;
  readonly use: Use;
  readonly span: Span;
}

export interface ArrayInfo {
  readonly name: string;
  readonly scope: Scope;
  readonly dims: number;
  readonly span: Span;
}

export type DimName = 'blockDim' | 'gridDim';

/** An approximation a front end made (a `havoc` of that origin): what, where, why. */
export interface Approximation {
  readonly what: string;
  readonly why: string;
  readonly span: Span;
}

/** The kernel as the later stages see it. */
export interface KernelMap {
  readonly file: SourceFile;
  /** the core kernel it was inferred from, which the interpreter runs for replay */
  readonly source: Kernel;
  readonly name: string;
  readonly span: Span;
  readonly params: readonly string[];
  readonly arrays: readonly ArrayInfo[];
  readonly vars: ReadonlyMap<string, VarInfo>;
  /** requires clauses, and the launch clause as equalities on the dimensions */
  readonly preconditions: readonly BExpr[];
  /** the dimensions that are symbolic (the others are 1 unless fixed) */
  readonly symbolicDims: ReadonlySet<`${DimName}.${'x' | 'y' | 'z'}`>;
  readonly body: Proto;
  readonly violations: readonly TypingViolation[];
  /** the barriers, `sync` and `syncwarp`, in program order */
  readonly syncs: readonly SyncSite[];
  readonly accesses: readonly Access[];
  /** the front end's approximations in the kernel */
  readonly approximations: readonly Approximation[];
  /** the kernel uses machine integers: its proofs assume no undefined operation */
  readonly machineIntegers: boolean;
}

export function seq(items: readonly Proto[]): Proto {
  const flat: Proto[] = [];
  for (const p of items) {
    if (p.kind === 'seq') flat.push(...p.items);
    else if (p.kind !== 'skip') flat.push(p);
  }
  if (flat.length === 0) return { kind: 'skip' };
  if (flat.length === 1) return flat[0]!;
  return { kind: 'seq', items: flat };
}

/** Whether some statement of the protocol, itself included, passes the test. */
export function protoSome(p: Proto, test: (p: Proto) => boolean): boolean {
  if (test(p)) return true;
  switch (p.kind) {
    case 'seq':
      return p.items.some((i) => protoSome(i, test));
    case 'if':
      return protoSome(p.then, test) || protoSome(p.else, test);
    case 'loop':
      return protoSome(p.body, test);
    case 'skip':
    case 'access':
    case 'sync':
    case 'syncwarp':
    case 'assume':
    case 'defined':
    case 'havoc':
      return false;
    default:
      return assertNever(p);
  }
}

/** A copy of the protocol with each barrier (`sync` or `syncwarp`) replaced by what `replace` gives for it. */
export function replaceBarriers(p: Proto, replace: (barrier: Extract<Proto, { kind: 'sync' | 'syncwarp' }>) => Proto): Proto {
  switch (p.kind) {
    case 'sync':
    case 'syncwarp':
      return replace(p);
    case 'seq':
      return seq(p.items.map((i) => replaceBarriers(i, replace)));
    case 'if':
      return { ...p, then: replaceBarriers(p.then, replace), else: replaceBarriers(p.else, replace) };
    case 'loop':
      return { ...p, body: replaceBarriers(p.body, replace) };
    case 'skip':
    case 'access':
    case 'assume':
    case 'defined':
    case 'havoc':
      return p;
    default:
      return assertNever(p);
  }
}

/** Whether the protocol has a `syncwarp`. */
export function hasSyncwarp(p: Proto): boolean {
  return protoSome(p, (q) => q.kind === 'syncwarp');
}
