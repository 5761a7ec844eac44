/**
 * C's integer operations on the core's machine types, on bigints: each
 * operation's result and whether it is defined (docs/machine-integers.md).
 * The interpreter computes with these, and the model re-checker
 * (src/encode/evaluate.ts) evaluates the encoder's machine terms with them, so
 * the two cannot disagree; the encoder's SMT-LIB for each operation is tested
 * against them value by value.
 *
 * `machineValue` is total: on an undefined operation it still gives the value
 * the encoding gives (the mathematical result for + − * and for << by an
 * in-range count, 0 for a division by zero or a shift count out of range, a
 * for a remainder by zero), so that a model can be re-checked whatever it
 * assigns; only the definedness condition keeps such values out of the scope.
 * It is the value before C's reduction: unsigned `+ − * <<` are defined and
 * wrap modulo 2^width (`machineApply` reduces them, the encoder writes the
 * reduction as a cast of the term, see {@link wrapsAround}); signed ones that
 * leave the type are undefined.
 *
 * A loop's counter is the one place where an unsigned wrap-around stays
 * outside the scope (`loopStepUndefined`): the loops are modelled as
 * arithmetic progressions, and a counter that wraps (`i += k` past
 * 2^32 − 1) would start over.
 */
import type { ArithOp, MachineType } from './ast.js';

export const WIDTH: Readonly<Record<MachineType, number>> = { i32: 32, u32: 32, i64: 64, u64: 64 };

export function isSigned(t: MachineType): boolean {
  return t === 'i32' || t === 'i64';
}

export function typeMin(t: MachineType): bigint {
  return isSigned(t) ? -(1n << BigInt(WIDTH[t] - 1)) : 0n;
}

export function typeMax(t: MachineType): bigint {
  return isSigned(t) ? (1n << BigInt(WIDTH[t] - 1)) - 1n : (1n << BigInt(WIDTH[t])) - 1n;
}

export function inRange(t: MachineType, v: bigint): boolean {
  return v >= typeMin(t) && v <= typeMax(t);
}

/** `(T) v`: v reduced modulo 2^width(T) into T's range (C++20's conversions); the identity on T's range. */
export function wrap(t: MachineType, v: bigint): bigint {
  const modulus = 1n << BigInt(WIDTH[t]);
  const low = (((v - typeMin(t)) % modulus) + modulus) % modulus;
  return low + typeMin(t);
}

/** 2^b for a shift count 0 ≤ b < width(T), else null (the shift is out of range). */
function shiftFactor(t: MachineType, b: bigint): bigint | null {
  return b >= 0n && b < BigInt(WIDTH[t]) ? 1n << b : null;
}

/** The value of `a op b` on T, total (see the module comment). */
export function machineValue(op: ArithOp, t: MachineType, a: bigint, b: bigint): bigint {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      // bigint division truncates toward zero, as C's does
      return b === 0n ? 0n : a / b;
    case '%':
      // and its remainder has the dividend's sign, as C's does
      return b === 0n ? a : a % b;
    case '<<': {
      const f = shiftFactor(t, b);
      return f === null ? 0n : a * f;
    }
    case '>>':
      // bigint >> is the arithmetic shift, ⌊a / 2^b⌋
      return shiftFactor(t, b) === null ? 0n : a >> b;
    case '&':
      return wrap(t, a & b);
    case '|':
      return wrap(t, a | b);
    case '^':
      return wrap(t, a ^ b);
  }
}

/**
 * Whether `a op b` on T is computed as C does, reduced modulo 2^width:
 * unsigned `+ − * <<`, all defined by C. A product may wrap many times
 * (`tid * 2654435761u`), so the encoder reduces it with one case split only
 * where its bounds prove at most one wrap, and otherwise with the exact
 * remainder (query.ts `wrapped`), left to the solver.
 */
export function wrapsAround(op: ArithOp, t: MachineType): boolean {
  return !isSigned(t) && (op === '+' || op === '-' || op === '*' || op === '<<');
}

/** Why `a op b` on T is undefined behaviour, or null when it is defined. */
export function machineUndefined(op: ArithOp, t: MachineType, a: bigint, b: bigint): string | null {
  if (op === '<<' && wrapsAround(op, t)) return shiftFactor(t, b) === null ? `shift count ${b} out of range for ${t} (0 to ${WIDTH[t] - 1})` : null;
  if (wrapsAround(op, t)) return null;
  return loopStepUndefined(op, t, a, b);
}

/**
 * Why the step `a op b` of a loop counter of type T is outside the scope, or
 * null: as {@link machineUndefined}, and also when an unsigned step wraps
 * around (see the module comment).
 */
export function loopStepUndefined(op: ArithOp, t: MachineType, a: bigint, b: bigint): string | null {
  const outOfRange = (r: bigint, what: string): string | null =>
    inRange(t, r) ? null : `${isSigned(t) ? 'overflow' : 'wrap-around of a loop counter'}: ${what} = ${r} is outside ${t}'s range [${typeMin(t)}, ${typeMax(t)}]`;
  switch (op) {
    case '+':
    case '-':
    case '*':
      return outOfRange(machineValue(op, t, a, b), `${a} ${op} ${b}`);
    case '/':
    case '%':
      if (b === 0n) return `division by zero: ${a} ${op} 0`;
      if (isSigned(t) && a === typeMin(t) && b === -1n) return `overflow: ${a} ${op} -1 (${t})`;
      return null;
    case '<<':
      if (shiftFactor(t, b) === null) return `shift count ${b} out of range for ${t} (0 to ${WIDTH[t] - 1})`;
      return outOfRange(machineValue(op, t, a, b), `${a} << ${b}`);
    case '>>':
      return shiftFactor(t, b) === null ? `shift count ${b} out of range for ${t} (0 to ${WIDTH[t] - 1})` : null;
    case '&':
    case '|':
    case '^':
      return null;
  }
}

/** An undefined operation met while computing (the interpreter turns it into a located stop). */
export class UndefinedOperation extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'UndefinedOperation';
  }
}

/** `a op b` on T, as C computes it; throws {@link UndefinedOperation} when it is undefined. */
export function machineApply(op: ArithOp, t: MachineType, a: bigint, b: bigint): bigint {
  const why = machineUndefined(op, t, a, b);
  if (why !== null) throw new UndefinedOperation(why);
  const v = machineValue(op, t, a, b);
  return wrapsAround(op, t) ? wrap(t, v) : v;
}

/** A loop counter's step `a op b` on T; throws {@link UndefinedOperation} when it is outside the scope ({@link loopStepUndefined}). */
export function loopStepApply(op: ArithOp, t: MachineType, a: bigint, b: bigint): bigint {
  const why = loopStepUndefined(op, t, a, b);
  if (why !== null) throw new UndefinedOperation(why);
  return machineValue(op, t, a, b);
}
