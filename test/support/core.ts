/**
 * Core kernels built in code, concisely, for tests and generators: the forms
 * the CUDA front end lowers to (machine integers, casts, conditionals,
 * `havoc`, typed loops) without a parser. `program(...)` prints the kernels
 * (src/core/print.ts) and re-spans them, so every diagnostic, report and code
 * frame shows the core program's own text; `mapOf` runs names and typing.
 *
 *   const k = kernel('k', { params: [param('n', 'i32')], arrays: [shared('A')] }, [
 *     forLoop('i', { type: 'i32', from: v('n', 'i32'), to: i32(0), down: true }, [write('A', [v('i', 'i32')], i32(1))]),
 *   ]);
 *   const map = mapOf(k);
 */
import type {
  ArithOp,
  ArrayDecl,
  AtomicOp,
  BExpr,
  CmpOp,
  Expr,
  IntType,
  Kernel,
  MachineType,
  Name,
  Param,
  Program,
  Stmt,
  UnknownOrigin,
} from '../../src/core/ast.js';
import { printProgram } from '../../src/core/print.js';
import type { Span } from '../../src/core/source.js';
import { machineType, typeOf } from '../../src/core/types.js';
import { inferMap } from '../../src/map/infer.js';
import type { KernelMap } from '../../src/map/map.js';
import { wellFormednessErrors } from '../../src/names/check.js';

/** Every node is re-spanned by `program`: until then, spans are empty. */
const NOWHERE: Span = { start: 0, end: 0 };
type Num = number | bigint;

const name = (text: string): Name => ({ text, span: NOWHERE });

// ---------------------------------------------------------------------------
// Expressions

export const nat = (value: Num): Expr => ({ kind: 'nat', value: BigInt(value), span: NOWHERE });
export const int = (value: Num, type: MachineType): Expr => ({ kind: 'int', value: BigInt(value), type, span: NOWHERE });
export const i32 = (value: Num): Expr => int(value, 'i32');
export const u32 = (value: Num): Expr => int(value, 'u32');
export const i64 = (value: Num): Expr => int(value, 'i64');
export const u64 = (value: Num): Expr => int(value, 'u64');
/** A variable; without a type, a natural. */
export const v = (n: string, type?: IntType): Expr => ({ kind: 'var', name: n, ...(type === undefined || type === 'nat' ? {} : { type }), span: NOWHERE });
export const tid: Expr = { kind: 'builtin', name: 'threadIdx', axis: 'x', span: NOWHERE };
export const builtin = (n: 'threadIdx' | 'blockIdx' | 'blockDim' | 'gridDim', axis: 'x' | 'y' | 'z' = 'x'): Expr => ({ kind: 'builtin', name: n, axis, span: NOWHERE });
/** `threadIdx.x` as CUDA reads it: `(u32) tid` … or `(i32) tid` for an `int tid = threadIdx.x`. */
export const tidAs = (type: MachineType): Expr => cast(type, tid);

/** `a op b`, on the left operand's type (a nat left operand: BabyCUDA's operator). */
export function bin(op: ArithOp, a: Expr, b: Expr): Expr {
  const type = machineType(typeOf(a));
  return { kind: 'binary', op, left: a, right: b, ...(type === undefined ? {} : { type }), span: NOWHERE };
}
export const add = (a: Expr, b: Expr): Expr => bin('+', a, b);
export const sub = (a: Expr, b: Expr): Expr => bin('-', a, b);
export const mul = (a: Expr, b: Expr): Expr => bin('*', a, b);
export const cast = (type: MachineType, operand: Expr): Expr => ({ kind: 'cast', type, operand, span: NOWHERE });
export const ite = (cond: BExpr, then: Expr, otherwise: Expr): Expr => ({ kind: 'ite', cond, then, else: otherwise, span: NOWHERE });

// ---------------------------------------------------------------------------
// Conditions

export const TRUE: BExpr = { kind: 'bool', value: true, span: NOWHERE };
export const cmp = (op: CmpOp, left: Expr, right: Expr): BExpr => ({ kind: 'cmp', op, left, right, span: NOWHERE });
export const and = (left: BExpr, right: BExpr): BExpr => ({ kind: 'and', left, right, span: NOWHERE });
export const or = (left: BExpr, right: BExpr): BExpr => ({ kind: 'or', left, right, span: NOWHERE });
export const not = (operand: BExpr): BExpr => ({ kind: 'not', operand, span: NOWHERE });

// ---------------------------------------------------------------------------
// Statements

export const skip: Stmt = { kind: 'skip', span: NOWHERE };
export const sync: Stmt = { kind: 'sync', span: NOWHERE };
export const syncwarp: Stmt = { kind: 'syncwarp', span: NOWHERE };
export const assume = (cond: BExpr): Stmt => ({ kind: 'assume', cond, span: NOWHERE });
export const write = (array: string, index: readonly Expr[], value: Expr): Stmt => ({ kind: 'write', array: name(array), index, value, target: NOWHERE, span: NOWHERE });
/** `let local = array[index] in body` */
export const read = (local: string, array: string, index: readonly Expr[], body: Stmt = skip): Stmt => ({
  kind: 'read',
  local: name(local),
  array: name(array),
  index,
  source: NOWHERE,
  body,
  span: NOWHERE,
});
/** `let local = atomic op.type(array[index], operands…) in body` */
export const atomic = (op: AtomicOp, local: string, array: string, index: readonly Expr[], operands: readonly Expr[], type: MachineType | undefined, body: Stmt = skip): Stmt => ({
  kind: 'atomic',
  op,
  local: name(local),
  array: name(array),
  index,
  operands,
  ...(type === undefined ? {} : { type }),
  target: NOWHERE,
  body,
  span: NOWHERE,
});
export const let_ = (local: string, value: Expr, body: Stmt = skip): Stmt => ({ kind: 'let', local: name(local), value, body, span: NOWHERE });
/** An unknown value (`what`: a float, a texture fetch…). */
export const unknownValue = (what: string): UnknownOrigin => ({ kind: 'value', what, span: NOWHERE });
export const approximation = (what: string, why: string): UnknownOrigin => ({ kind: 'approximation', what, why, span: NOWHERE });
export const havoc = (local: string, type: IntType, origin: UnknownOrigin, body: Stmt = skip): Stmt => ({ kind: 'havoc', local: name(local), type, origin, body, span: NOWHERE });
export const if_ = (cond: BExpr, then: readonly Stmt[], otherwise: readonly Stmt[] | null = null): Stmt => ({ kind: 'if', cond, then, else: otherwise, span: NOWHERE });

export interface LoopSpec {
  readonly from: Expr;
  readonly to: Expr;
  /** `downto` (default: up) */
  readonly down?: boolean;
  readonly step?: { readonly op: '+' | '*' | '-' | '/'; readonly amount: Expr };
  readonly type?: MachineType;
}

export const forLoop = (variable: string, spec: LoopSpec, body: readonly Stmt[]): Stmt => ({
  kind: 'for',
  var: name(variable),
  from: spec.from,
  to: spec.to,
  direction: spec.down === true ? 'down' : 'up',
  step: spec.step ?? null,
  body,
  ...(spec.type === undefined ? {} : { type: spec.type }),
  span: NOWHERE,
});

// ---------------------------------------------------------------------------
// Kernels

export const param = (text: string, type?: MachineType): Param => ({ text, span: NOWHERE, ...(type === undefined ? {} : { type }) });
export const shared = (n: string, sizes: readonly Expr[] = []): ArrayDecl => ({ name: name(n), scope: 'shared', sizes, span: NOWHERE });
export const global = (n: string, sizes: readonly Expr[] = []): ArrayDecl => ({ name: name(n), scope: 'global', sizes, span: NOWHERE });

export interface KernelSpec {
  readonly params?: readonly Param[];
  readonly arrays?: readonly ArrayDecl[];
  readonly requires?: readonly BExpr[];
}

export function kernel(n: string, spec: KernelSpec, body: readonly Stmt[]): Kernel {
  return { name: name(n), params: spec.params ?? [], launch: null, requires: spec.requires ?? [], arrays: spec.arrays ?? [], body, span: NOWHERE };
}

/** The kernels as a program whose spans point into their printed text. */
export function program(...kernels: readonly Kernel[]): Program {
  return printProgram('core.cu', kernels);
}

/** The MAP of the (first) kernel of `program(k)`; the core program must be well formed and well typed. */
export function mapOf(k: Kernel): KernelMap {
  const p = program(k);
  const errors = wellFormednessErrors(p);
  if (errors.length > 0) throw new Error(`ill-formed core kernel: ${errors.map((e) => e.message).join('; ')}\n${p.file.text}`);
  return inferMap(p.file, p.kernels[0]!);
}
