/**
 * Floating-point constants the front end computes exactly, as IEEE 754
 * does: a literal, an integer constant converted, a conversion between
 * `float` and `double`, a negation, and `+ - * /` of two constants. Such a
 * value is written to memory as its bit pattern (float: 32 bits, double: 64),
 * so that the benign-race check compares what the two writes store: `0.0f`
 * and `-0.0f` differ (their bit patterns do, and a reader can tell them
 * apart), `1.0f` and `(float)1.0` are one value. A result that is NaN is not
 * a constant (its payload is the hardware's choice), nor is anything this
 * module cannot round exactly once (a decimal literal halfway between two
 * floats once read as a double, a hexadecimal literal, an integer beyond
 * 2^53 converted to float): those stay unknown values. A float or double
 * kernel parameter is known by its pattern only (FloatPattern): one value for
 * every thread, written as is or negated.
 */
import type { ArithOp, Expr, MachineType } from '../../core/ast.js';

export type IeeeType = 'float' | 'double';

/** An exact IEEE value of a type: a JavaScript number (a double) that, for `float`, is a float too. */
export interface FloatConstant {
  readonly type: IeeeType;
  readonly value: number;
}

/** A float or double known by its bit pattern only (a kernel parameter's): a u32 or u64 expression. */
export interface FloatPattern {
  readonly type: IeeeType;
  readonly bits: Expr;
  /**
   * the integer the value was converted from exactly (|x| shown below 2^24,
   * 2^53 for a double): converting the value back to an integer type gives
   * it back (absent: the value is no such conversion)
   */
  readonly integer?: { readonly expr: Expr; readonly type: MachineType };
}

/** The IEEE type a C floating type names (`half`, `long double`: not followed). */
export function ieeeTypeOf(name: string): IeeeType | null {
  return name === 'float' ? 'float' : name === 'double' ? 'double' : null;
}

/** The machine integer that holds a type's bit pattern. */
export function patternType(t: IeeeType): MachineType {
  return t === 'float' ? 'u32' : 'u64';
}

/** A constant's bit pattern, as an unsigned integer of its width. */
export function bitPattern(c: FloatConstant): bigint {
  const view = new DataView(new ArrayBuffer(8));
  if (c.type === 'float') {
    view.setFloat32(0, c.value);
    return BigInt(view.getUint32(0));
  }
  view.setFloat64(0, c.value);
  return view.getBigUint64(0);
}

/** A value rounded to a type, or null when it is NaN or cannot be rounded exactly once. */
function rounded(value: number, to: IeeeType): FloatConstant | null {
  if (Number.isNaN(value)) return null;
  return { type: to, value: to === 'float' ? Math.fround(value) : value };
}

/**
 * A decimal floating literal (`1.0f`, `.5`, `1e-3`, `2.`): its value, or null
 * when it is not a `float` or `double` constant this module rounds exactly
 * (hexadecimal, `long double`, or a float literal whose nearest double is
 * halfway between two floats, where rounding twice may differ from once).
 */
export function floatLiteral(text: string): FloatConstant | null {
  const m = /^((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)([fFlL]?)$/.exec(text);
  if (m === null) return null;
  const suffix = m[2]!.toLowerCase();
  if (suffix === 'l') return null;
  // JavaScript reads a decimal as the nearest double, ties to even (ECMA-262 7.1.4.1.1)
  const d = Number(m[1]!);
  if (suffix === '') return rounded(d, 'double');
  return halfwayBetweenFloats(d) ? null : rounded(d, 'float');
}

/** Whether a double lies exactly halfway between two adjacent floats (not itself a float). */
function halfwayBetweenFloats(d: number): boolean {
  const f = Math.fround(d);
  if (f === d || !Number.isFinite(f)) return false;
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, f);
  const bits = view.getUint32(0);
  // the float next to f on d's side: one step of the pattern away from zero when |d| > |f|
  view.setUint32(0, Math.abs(d) > Math.abs(f) ? bits + 1 : bits - 1);
  const other = view.getFloat32(0);
  return (f + other) / 2 === d;
}

/** An integer constant converted to a floating type, or null when rounding it exactly once is not assured. */
export function fromInteger(value: bigint, to: IeeeType): FloatConstant | null {
  const limit = 1n << 53n;
  // beyond 2^53, Number() rounds to a double first, and fround() would round again
  if (to === 'float' && (value > limit || value < -limit)) return null;
  return rounded(Number(value), to);
}

/** A constant converted to another floating type: `float` → `double` is exact, `double` → `float` rounds once. */
export function toType(c: FloatConstant, to: IeeeType): FloatConstant | null {
  return rounded(c.value, to);
}

/** The sign bit of a type's pattern. */
export function signBit(t: IeeeType): bigint {
  return t === 'float' ? 1n << 31n : 1n << 63n;
}

/** -x: flips the sign (of zero too). */
export function negated(c: FloatConstant): FloatConstant {
  return { type: c.type, value: -c.value };
}

/**
 * `a op b` in the type of the two (the wider one, as C converts): a double
 * operation is JavaScript's; a float one is computed in double and rounded to
 * float, which for + - * / is the float operation's correctly rounded result
 * (a double holds more than twice a float's precision). Null for any other
 * operator and for a NaN result.
 */
export function arithmetic(op: ArithOp, a: FloatConstant, b: FloatConstant): FloatConstant | null {
  const type: IeeeType = a.type === 'double' || b.type === 'double' ? 'double' : 'float';
  const [x, y] = [a.value, b.value];
  switch (op) {
    case '+':
      return rounded(x + y, type);
    case '-':
      return rounded(x - y, type);
    case '*':
      return rounded(x * y, type);
    case '/':
      return rounded(x / y, type);
    case '%':
    case '<<':
    case '>>':
    case '&':
    case '|':
    case '^':
      return null;
  }
}
