/**
 * Concrete values of BabyCUDA: unbounded naturals (bigint ≥ 0) and booleans.
 *
 * These are the project-wide arithmetic decisions; the verifier's encoding and
 * its witness printing must agree with them:
 * - `a - b` is truncated: 0 when b > a;
 * - `a / 0` is 0 and `a % 0` is a; otherwise C's `/` and `%` on naturals;
 * - `a << b` is a·2^b, `a >> b` is ⌊a / 2^b⌋; `& | ^` work on the binary
 *   representation; nothing overflows.
 *
 * Machine integers (typed operators, casts) compute with src/core/arith.ts:
 * an undefined operation is an EvalError of reason `undefined`. `&&` and `||`
 * evaluate their right side only when needed, as C's do, and a conditional
 * only its branch taken.
 *
 * Everything here is pure: an expression's value depends only on the
 * environment given.
 */
import type { ArithOp, AtomicOp, Axis, BExpr, BuiltinName, CmpOp, Expr, MachineType } from '../core/ast.js';
import { machineApply, machineValue, UndefinedOperation, wrap } from '../core/arith.js';
import { assertNever } from '../util/assert.js';
import type { Span } from '../core/source.js';

/** A value of each axis, in the order x, y, z. */
export type Vec3 = readonly [bigint, bigint, bigint];

/** A launch's dimension (1 to 3 components, as the core's Launch and a witness keep it) as the interpreter's three: missing ones are 1. */
export const vec3 = (dims: readonly bigint[]): Vec3 => [dims[0] ?? 1n, dims[1] ?? 1n, dims[2] ?? 1n];

/** The values of the CUDA builtins that are known; a missing one is unbound. */
export interface BuiltinValues {
  readonly threadIdx?: Vec3;
  readonly blockIdx?: Vec3;
  readonly blockDim?: Vec3;
  readonly gridDim?: Vec3;
}

/** What an expression may refer to: local variables / parameters, and builtins. */
export interface ValueEnv {
  readonly vars: ReadonlyMap<string, bigint>;
  readonly builtins: BuiltinValues;
}

/**
 * Bigints past this many bits are refused rather than computed: V8 cannot hold
 * numbers much larger (about 2^30 bits), and long before that a computation
 * would take minutes.
 */
export const MAX_VALUE_BITS = 1n << 24n;

/** `undefined`: a machine-integer operation whose result C leaves undefined (overflow, division by zero, shift out of range). */
export type EvalFailure = 'unbound' | 'too-large' | 'undefined';

/** An expression that cannot be evaluated: an unbound name, a value too large to hold, or undefined behaviour. */
export class EvalError extends Error {
  constructor(
    readonly reason: EvalFailure,
    readonly span: Span,
    message: string,
  ) {
    super(message);
    this.name = 'EvalError';
  }
}

const AXIS_INDEX: Record<Axis, 0 | 1 | 2> = { x: 0, y: 1, z: 2 };

export function axisValue(v: Vec3, axis: Axis): bigint {
  return v[AXIS_INDEX[axis]];
}

/** The builtin's surface name: `threadIdx.x`. */
export function builtinText(name: BuiltinName, axis: Axis): string {
  return `${name}.${axis}`;
}

/**
 * One arithmetic operator on naturals. Throws a RangeError when the result
 * would exceed {@link MAX_VALUE_BITS} bits (only `<<` and `*` can get there).
 */
export function applyArith(op: ArithOp, a: bigint, b: bigint): bigint {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a >= b ? a - b : 0n;
    case '*':
      if (a !== 0n && b !== 0n && bitLength(a) + bitLength(b) > MAX_VALUE_BITS) throw new RangeError('product too large');
      return a * b;
    case '/':
      return b === 0n ? 0n : a / b;
    case '%':
      return b === 0n ? a : a % b;
    case '<<':
      if (a === 0n) return 0n;
      if (b + bitLength(a) > MAX_VALUE_BITS) throw new RangeError('shift too large');
      return a << b;
    case '>>':
      return b >= bitLength(a) ? 0n : a >> b;
    case '&':
      return a & b;
    case '|':
      return a | b;
    case '^':
      return a ^ b;
  }
}

export function applyCmp(op: CmpOp, a: bigint, b: bigint): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

/** Number of binary digits of a natural (0 for 0). */
export function bitLength(a: bigint): bigint {
  return a === 0n ? 0n : BigInt(a.toString(2).length);
}

export function evalExpr(e: Expr, env: ValueEnv): bigint {
  switch (e.kind) {
    case 'nat':
      return e.value;
    case 'var': {
      const v = env.vars.get(e.name);
      if (v === undefined) throw new EvalError('unbound', e.span, `'${e.name}' has no value here`);
      return v;
    }
    case 'builtin': {
      const vec = env.builtins[e.name];
      if (vec === undefined) {
        throw new EvalError('unbound', e.span, `'${builtinText(e.name, e.axis)}' has no value here`);
      }
      return axisValue(vec, e.axis);
    }
    case 'binary': {
      const a = evalExpr(e.left, env);
      const b = evalExpr(e.right, env);
      if (e.type !== undefined) return machineAt(e.op, e.type, a, b, e.span);
      try {
        return applyArith(e.op, a, b);
      } catch (err) {
        if (err instanceof RangeError) {
          throw new EvalError('too-large', e.span, `the value of this '${e.op}' exceeds ${MAX_VALUE_BITS} bits, more than the interpreter holds`);
        }
        throw err;
      }
    }
    case 'int':
      return e.value;
    case 'cast':
      return wrap(e.type, evalExpr(e.operand, env));
    case 'ite':
      // only the branch taken is evaluated
      return evalBExpr(e.cond, env) ? evalExpr(e.then, env) : evalExpr(e.else, env);
  }
}

/** `a op b` on a machine type; an undefined operation is an {@link EvalError} at the operator's span. */
export function machineAt(op: ArithOp, type: MachineType, a: bigint, b: bigint, span: Span): bigint {
  try {
    return machineApply(op, type, a, b);
  } catch (err) {
    if (err instanceof UndefinedOperation) throw new EvalError('undefined', span, err.why);
    throw err;
  }
}

export function evalBExpr(b: BExpr, env: ValueEnv): boolean {
  switch (b.kind) {
    case 'bool':
      return b.value;
    case 'cmp':
      return applyCmp(b.op, evalExpr(b.left, env), evalExpr(b.right, env));
    case 'and':
      return evalBExpr(b.left, env) && evalBExpr(b.right, env);
    case 'or':
      return evalBExpr(b.left, env) || evalBExpr(b.right, env);
    case 'not':
      return !evalBExpr(b.operand, env);
  }
}

/**
 * The value an atomic writes, from the element's old value and its operands:
 * CUDA's atomic functions. On a machine type the arithmetic wraps around (the
 * hardware's, never undefined); on naturals subtraction stops at 0.
 */
export function atomicResult(op: AtomicOp, type: MachineType | undefined, old: bigint, operands: readonly bigint[]): bigint {
  const [v = 0n, w = 0n] = operands;
  const inType = (x: bigint): bigint => (type === undefined ? x : wrap(type, x));
  switch (op) {
    case 'add':
      return inType(old + v);
    case 'sub':
      return type === undefined ? applyArith('-', old, v) : wrap(type, old - v);
    case 'max':
      return old > v ? old : v;
    case 'min':
      return old < v ? old : v;
    case 'and':
      return type === undefined ? old & v : machineValue('&', type, old, v);
    case 'or':
      return type === undefined ? old | v : machineValue('|', type, old, v);
    case 'xor':
      return type === undefined ? old ^ v : machineValue('^', type, old, v);
    case 'exch':
      return v;
    case 'cas':
      return old === v ? w : old;
    case 'inc':
      return old >= v ? 0n : inType(old + 1n);
    case 'dec':
      return old === 0n || old > v ? v : old - 1n;
    default:
      return assertNever(op);
  }
}
