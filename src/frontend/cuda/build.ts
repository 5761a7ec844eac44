/**
 * Core expressions as the CUDA front end builds them: typed constants folded
 * where C defines the result (so `16 * 16` prints as 256, and a folded value
 * is never one the core would call undefined), casts only where the type
 * changes, conditions simplified when a side is constant.
 */
import type { ArithOp, BExpr, CmpOp, Expr, MachineType } from '../../core/ast.js';
import type { Span } from '../../core/source.js';
import { bexprOperands } from '../../core/exprs.js';
import { machineType, mayBeUndefined, typeOf } from '../../core/types.js';
import { inRange, isSigned, widthOf, wrapped } from './ctypes.js';
import { wrapsAround } from '../../core/arith.js';

export const constant = (value: bigint, type: MachineType, span: Span): Expr => ({ kind: 'int', value, type, span });

/** The machine type of a typed expression (core/types' typeOf); null for BabyCUDA's naturals. */
export function exprType(e: Expr): MachineType | null {
  return machineType(typeOf(e)) ?? null;
}

export function exprEqual(a: Expr, b: Expr): boolean {
  switch (a.kind) {
    case 'nat':
      return b.kind === 'nat' && a.value === b.value;
    case 'int':
      return b.kind === 'int' && a.value === b.value && a.type === b.type;
    case 'var':
      return b.kind === 'var' && a.name === b.name && a.type === b.type;
    case 'builtin':
      return b.kind === 'builtin' && a.name === b.name && a.axis === b.axis;
    case 'binary':
      return b.kind === 'binary' && a.op === b.op && a.type === b.type && exprEqual(a.left, b.left) && exprEqual(a.right, b.right);
    case 'cast':
      return b.kind === 'cast' && a.type === b.type && exprEqual(a.operand, b.operand);
    case 'ite':
      return b.kind === 'ite' && condEqual(a.cond, b.cond) && exprEqual(a.then, b.then) && exprEqual(a.else, b.else);
  }
}

export function condEqual(a: BExpr, b: BExpr): boolean {
  switch (a.kind) {
    case 'bool':
      return b.kind === 'bool' && a.value === b.value;
    case 'cmp':
      return b.kind === 'cmp' && a.op === b.op && exprEqual(a.left, b.left) && exprEqual(a.right, b.right);
    case 'and':
    case 'or':
      return b.kind === a.kind && condEqual(a.left, b.left) && condEqual(a.right, b.right);
    case 'not':
      return b.kind === 'not' && condEqual(a.operand, b.operand);
  }
}

const joinSpan = (a: { span: Span }, b: { span: Span }): Span => ({ start: Math.min(a.span.start, b.span.start), end: Math.max(a.span.end, b.span.end) });

export function not(c: BExpr): BExpr {
  if (c.kind === 'bool') return { ...c, value: !c.value };
  if (c.kind === 'not') return c.operand;
  return { kind: 'not', operand: c, span: c.span };
}

/** Whether evaluating the condition may be undefined behaviour, which puts the thread outside the scope: it must stay evaluated. */
export const condMayBeUndefined = (c: BExpr): boolean => bexprOperands(c).some(mayBeUndefined);

export function and(a: BExpr, b: BExpr): BExpr {
  if (a.kind === 'bool') return a.value ? b : a;
  // C evaluates the left side first: `a && false` is false only once a is evaluated
  if (b.kind === 'bool' && (b.value || !condMayBeUndefined(a))) return b.value ? a : b;
  return { kind: 'and', left: a, right: b, span: joinSpan(a, b) };
}

export function or(a: BExpr, b: BExpr): BExpr {
  if (a.kind === 'bool') return a.value ? a : b;
  if (b.kind === 'bool' && (!b.value || !condMayBeUndefined(a))) return b.value ? b : a;
  return { kind: 'or', left: a, right: b, span: joinSpan(a, b) };
}

export function ite(cond: BExpr, a: Expr, b: Expr, _type: MachineType, span: Span): Expr {
  if (cond.kind === 'bool') return cond.value ? a : b;
  if (exprEqual(a, b)) return a;
  return { kind: 'ite', cond, then: a, else: b, span };
}

/** C's conversion to `to`; constants are converted now, and a value already of that type is left alone. */
export function castTo(e: Expr, to: MachineType, span: Span): Expr {
  const from = exprType(e);
  if (from === to) return e;
  if (e.kind === 'int') return constant(wrapped(e.value, to), to, span);
  return { kind: 'cast', type: to, operand: e, span };
}

/** The value of `a op b` on machine type t when C defines it, else null. */
function folded(op: ArithOp, a: bigint, b: bigint, t: MachineType): bigint | null {
  let r: bigint;
  switch (op) {
    case '+':
      r = a + b;
      break;
    case '-':
      r = a - b;
      break;
    case '*':
      r = a * b;
      break;
    case '/':
    case '%': {
      if (b === 0n) return null;
      // BigInt division truncates toward zero, as C's does
      r = op === '/' ? a / b : a % b;
      break;
    }
    case '<<':
      if (b < 0n || b >= BigInt(widthOf(t))) return null;
      r = a * (1n << b);
      break;
    case '>>':
      if (b < 0n || b >= BigInt(widthOf(t))) return null;
      r = a >= 0n ? a >> b : -((-a - 1n) >> b) - 1n;
      break;
    case '&':
    case '|':
    case '^': {
      const m = (1n << BigInt(widthOf(t))) - 1n;
      const x = a & m;
      const y = b & m;
      r = wrapped(op === '&' ? x & y : op === '|' ? x | y : x ^ y, t);
      break;
    }
  }
  if (wrapsAround(op, t)) return wrapped(r, t);
  return inRange(r, t) ? r : null;
}

/** `left op right` on machine type t (operands already converted, but for a shift's count). */
export function arith(op: ArithOp, left: Expr, right: Expr, type: MachineType, span: Span): Expr {
  if (left.kind === 'int' && right.kind === 'int') {
    const r = folded(op, left.value, right.value, type);
    if (r !== null) return constant(r, type, span);
  }
  if (right.kind === 'int' && right.value === 0n && (op === '+' || op === '-' || op === '|' || op === '^' || op === '<<' || op === '>>')) return left;
  if (left.kind === 'int' && left.value === 0n && (op === '+' || op === '|' || op === '^')) return right;
  if (right.kind === 'int' && right.value === 1n && (op === '*' || op === '/')) return left;
  if (left.kind === 'int' && left.value === 1n && op === '*') return right;
  return { kind: 'binary', op, left, right, type, span };
}

export function compare(op: CmpOp, left: Expr, right: Expr, span: Span): BExpr {
  if (left.kind === 'int' && right.kind === 'int') {
    const a = left.value;
    const b = right.value;
    const value = op === '==' ? a === b : op === '!=' ? a !== b : op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    return { kind: 'bool', value, span };
  }
  return { kind: 'cmp', op, left, right, span };
}

/** The smallest and largest values of a type, as constants. */
export function bounds(t: MachineType, span: Span): { min: Expr; max: Expr } {
  const w = BigInt(widthOf(t));
  return isSigned(t)
    ? { min: constant(-(1n << (w - 1n)), t, span), max: constant((1n << (w - 1n)) - 1n, t, span) }
    : { min: constant(0n, t, span), max: constant((1n << w) - 1n, t, span) };
}
