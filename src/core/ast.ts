/**
 * The core IR: what every front end lowers to and every later stage reads.
 * BabyCUDA maps onto it one to one (its parser builds it directly); CUDA C is
 * lowered to it (src/frontend/cuda). Every node keeps the offsets of the text
 * it came from; line and column are computed only when a diagnostic is
 * printed, through the file's origin map when it has one.
 *
 * Integers: BabyCUDA computes on unbounded naturals (`nat`, its operators have
 * no type). CUDA's machine integers are the typed forms (`int` literals,
 * typed `binary`, `cast`, typed variables), whose values are mathematical
 * integers within their type's range; docs/cuda.md gives their
 * one meaning (an operation that would wrap around, divide by zero or shift
 * out of range is outside the scope of a proof; conversions are modular).
 */
import type { Span, SourceFile } from './source.js';

export type Axis = 'x' | 'y' | 'z';
export const AXES: readonly Axis[] = ['x', 'y', 'z'];
export type BuiltinName = 'threadIdx' | 'blockIdx' | 'blockDim' | 'gridDim';
export type ArithOp = '+' | '-' | '*' | '/' | '%' | '<<' | '>>' | '&' | '|' | '^';
/** `=` is read as `==`. */
export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** CUDA's machine integers: `int`, `unsigned`, `long long`, `unsigned long long` / `size_t`. */
export type MachineType = 'i32' | 'u32' | 'i64' | 'u64';
/** `nat` is BabyCUDA's unbounded natural numbers. */
export type IntType = 'nat' | MachineType;

export interface Name {
  readonly text: string;
  readonly span: Span;
}

/** A kernel parameter; BabyCUDA's are naturals below 2^32 (no type), typed ones range over their whole type. */
export interface Param extends Name {
  readonly type?: MachineType;
  /** the C floating type whose bit pattern the parameter holds (a CUDA `float` or `double` parameter; `run -p x=1.5` converts) */
  readonly ieee?: 'float' | 'double';
}

/**
 * Where a `havoc`'d value comes from: a value the analysis cannot know (a
 * float, a texture fetch, a warp intrinsic, an atomic's old value, a call of
 * an unknown function…), or an approximation the front end made (a loop it
 * could not make exact, a local updated in it…), with the reason.
 */
export type UnknownOrigin =
  | { readonly kind: 'value'; readonly what: string; readonly span: Span }
  | { readonly kind: 'approximation'; readonly what: string; readonly why: string; readonly span: Span };

export type Expr =
  | { readonly kind: 'nat'; readonly value: bigint; readonly span: Span }
  /** a typed constant, within its type's range (CUDA) */
  | { readonly kind: 'int'; readonly value: bigint; readonly type: MachineType; readonly span: Span }
  /** `type` absent: a natural (BabyCUDA) */
  | { readonly kind: 'var'; readonly name: string; readonly type?: MachineType; readonly span: Span }
  | { readonly kind: 'builtin'; readonly name: BuiltinName; readonly axis: Axis; readonly span: Span }
  /**
   * `type` absent: BabyCUDA's operator on naturals; present: C's operator on
   * that machine type, both operands of that type (the front end makes C's
   * conversions explicit), but for the shift count, which may be of any type
   */
  | { readonly kind: 'binary'; readonly op: ArithOp; readonly left: Expr; readonly right: Expr; readonly type?: MachineType; readonly span: Span }
  /** C's conversion to a machine type: modular, as C++20 defines it */
  | { readonly kind: 'cast'; readonly type: MachineType; readonly operand: Expr; readonly span: Span }
  /** `c ? a : b`, both branches of one type */
  | { readonly kind: 'ite'; readonly cond: BExpr; readonly then: Expr; readonly else: Expr; readonly span: Span };

export type BExpr =
  | { readonly kind: 'bool'; readonly value: boolean; readonly span: Span }
  | { readonly kind: 'cmp'; readonly op: CmpOp; readonly left: Expr; readonly right: Expr; readonly span: Span }
  | { readonly kind: 'and' | 'or'; readonly left: BExpr; readonly right: BExpr; readonly span: Span }
  | { readonly kind: 'not'; readonly operand: BExpr; readonly span: Span };

const BEXPR_KINDS: ReadonlySet<string> = new Set<BExpr['kind']>(['bool', 'cmp', 'and', 'or', 'not']);

/** Whether a node of either kind of expression is a value (an Expr), not a condition. */
export const isExpr = (e: Expr | BExpr): e is Expr => !BEXPR_KINDS.has(e.kind);

export type UpStep = '+' | '*';
export type DownStep = '-' | '/';

/**
 * An atomic read-modify-write's operation (CUDA's atomicAdd, atomicSub,
 * atomicMax, atomicMin, atomicAnd, atomicOr, atomicXor, atomicExch,
 * atomicCAS, atomicInc, atomicDec).
 */
export type AtomicOp = 'add' | 'sub' | 'max' | 'min' | 'and' | 'or' | 'xor' | 'exch' | 'cas' | 'inc' | 'dec';
export const ATOMIC_OPS: readonly AtomicOp[] = ['add', 'sub', 'max', 'min', 'and', 'or', 'xor', 'exch', 'cas', 'inc', 'dec'];

export interface Step {
  readonly op: UpStep | DownStep;
  readonly amount: Expr;
}

export type Stmt =
  | { readonly kind: 'skip'; readonly span: Span }
  | {
      readonly kind: 'write';
      readonly array: Name;
      readonly index: readonly Expr[];
      readonly value: Expr;
      /** the `A[i]` being written */
      readonly target: Span;
      readonly span: Span;
    }
  | {
      readonly kind: 'read';
      readonly local: Name;
      readonly array: Name;
      readonly index: readonly Expr[];
      /** the `A[i]` being read */
      readonly source: Span;
      readonly body: Stmt;
      readonly span: Span;
    }
  | { readonly kind: 'let'; readonly local: Name; readonly value: Expr; readonly body: Stmt; readonly span: Span }
  /**
   * An atomic read-modify-write of one element, binding its old value (an
   * unknown, data-dependent value) to `local` in `body`; `local` null: the
   * old value is not used, and `body` is `skip`. Two atomics never race with
   * each other; an atomic and a plain access of the same element do.
   */
  | {
      readonly kind: 'atomic';
      readonly op: AtomicOp;
      readonly local: Name | null;
      readonly array: Name;
      readonly index: readonly Expr[];
      /** the operand (`inc`/`dec`: the limit); `cas`: the compared value, then the new one */
      readonly operands: readonly Expr[];
      /** the element's machine type, in whose arithmetic the new value is computed; absent: nat */
      readonly type?: MachineType;
      /** the `A[i]` updated */
      readonly target: Span;
      readonly body: Stmt;
      readonly span: Span;
    }
  /** binds `local` to an unknown value of its type, scoped like `let` */
  | { readonly kind: 'havoc'; readonly local: Name; readonly type: IntType; readonly origin: UnknownOrigin; readonly body: Stmt; readonly span: Span }
  | {
      readonly kind: 'if';
      readonly cond: BExpr;
      readonly then: readonly Stmt[];
      readonly else: readonly Stmt[] | null;
      readonly span: Span;
    }
  | {
      readonly kind: 'for';
      readonly var: Name;
      readonly from: Expr;
      readonly to: Expr;
      readonly direction: 'up' | 'down';
      readonly step: Step | null;
      readonly body: readonly Stmt[];
      /** the loop variable's machine type, in whose arithmetic its values are computed; absent: nat */
      readonly type?: MachineType;
      readonly span: Span;
    }
  | { readonly kind: 'sync'; readonly span: Span }
  /**
   * CUDA's `__syncwarp()` (full mask): a barrier among the threads of one
   * warp (linear thread id in the block divided by the warp size), matched
   * by iteration as `sync` is
   */
  | { readonly kind: 'syncwarp'; readonly span: Span }
  | { readonly kind: 'assume'; readonly cond: BExpr; readonly span: Span }
  /** binds `local` to an unknown value of `type` (possibly different in every thread), scoped like `let` */
  | { readonly kind: 'havoc'; readonly local: Name; readonly type: IntType; readonly origin: UnknownOrigin; readonly body: Stmt; readonly span: Span };

export interface Dim3 {
  readonly x: Expr;
  readonly y: Expr | null;
  readonly z: Expr | null;
  readonly span: Span;
}

export interface Launch {
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly span: Span;
}

export type Scope = 'shared' | 'global';

export interface ArrayDecl {
  readonly name: Name;
  readonly scope: Scope;
  /** one per declared dimension; empty when the sizes are not given */
  readonly sizes: readonly Expr[];
  /**
   * A struct element's leaves in order (`count`, `keys[0]`, …): the last
   * index component picks one, so reports name an element `s[0].keys[1]`
   * rather than `s[0][2]`; absent for scalar elements
   */
  readonly fields?: readonly string[];
  readonly span: Span;
}

/**
 * A condition the user wrote that every verdict on the kernel rests on: a
 * `requires` (`__requires`) constrains the launch, an `assume` (`__assume`)
 * the threads that reach it. Reports state them beside the verdict.
 */
export interface StatedAssumption {
  readonly kind: 'requires' | 'assume';
  /** the condition as written */
  readonly span: Span;
}

export interface Kernel {
  readonly name: Name;
  readonly params: readonly Param[];
  readonly launch: Launch | null;
  readonly requires: readonly BExpr[];
  readonly arrays: readonly ArrayDecl[];
  readonly body: readonly Stmt[];
  readonly span: Span;
  /** the user's own requires and assumes in source order (absent: none); the front ends' own conditions (CUDA's limits, a launch's sizes) are not among them */
  readonly stated?: readonly StatedAssumption[];
  /**
   * set by a front end whose kernels the host launches at sizes of its own
   * choosing (CUDA): a dimension the kernel does not use is still 1 in the
   * analysis (spec §5), but as an assumption every report states, since a
   * launch may have more blocks or threads than the kernel looks at
   */
  readonly hostLaunched?: true;
}

export interface Program {
  readonly file: SourceFile;
  readonly kernels: readonly Kernel[];
}
