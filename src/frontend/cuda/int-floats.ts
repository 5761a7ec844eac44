/**
 * An integer converted to `float` or `double` (`(float)threadIdx.x`, `float
 * f = i;`), as its IEEE bit pattern, where the conversion is exact: an
 * integer of magnitude below 2^24 (float) or 2^53 (double) has one IEEE
 * value, so the pattern is a function of the integer, piecewise linear in
 * it: for 2^k ≤ x < 2^(k+1) the exponent is bias + k and the mantissa
 * (x − 2^k) · 2^(m − k) (m: 23 or 52 mantissa bits), and a negative x has
 * the sign bit and the pattern of −x. Two writes of such values are then
 * compared exactly by the benign check (`(float)blockDim.x` in every thread
 * is one value; `(float)threadIdx.x` differs between threads), and against
 * a float constant's pattern too.
 *
 * Where bounds on the integer (CUDA's launch limits on its thread ids and
 * sizes, its type, constants; a local or a parameter is bounded by its type
 * only) do not show it below the limit, the value is unknown, named (an
 * alarm it decides is possible and says so): rounding is not followed.
 */
import type { BExpr, Expr, MachineType } from '../../core/ast.js';
import { isSigned, typeMax, typeMin } from '../../core/arith.js';
import type { Span } from '../../core/source.js';
import { arith, castTo, constant, ite } from './build.js';
import { patternType, type IeeeType } from './floats.js';

const MANTISSA: Readonly<Record<IeeeType, number>> = { float: 23, double: 52 };
const BIAS: Readonly<Record<IeeeType, bigint>> = { float: 127n, double: 1023n };

/** The magnitude below which every integer converts exactly: 2^24 (float) or 2^53 (double). */
function exactLimit(to: IeeeType): bigint {
  return 1n << BigInt(MANTISSA[to] + 1);
}

interface Interval {
  readonly min: bigint;
  readonly max: bigint;
}

/** CUDA's launch limits (src/frontend/cuda/limits.ts, preconditions of every CUDA kernel): the largest size and coordinate along each axis. */
const DIM_MAX = { blockDim: { x: 1024n, y: 1024n, z: 64n }, gridDim: { x: 2n ** 31n - 1n, y: 65535n, z: 65535n } } as const;

/** Bounds on an integer expression's value from its type, its constants and the launch limits; null where unknown. */
export function intervalOf(e: Expr, type: MachineType | undefined): Interval | null {
  const whole: Interval | null = type === undefined ? null : { min: typeMin(type), max: typeMax(type) };
  const within = (r: Interval | null): Interval | null => (r === null ? whole : whole === null || (r.min >= whole.min && r.max <= whole.max) ? r : whole);
  switch (e.kind) {
    case 'nat':
    case 'int':
      return { min: e.value, max: e.value };
    case 'builtin': {
      const dim = e.name === 'threadIdx' ? 'blockDim' : e.name === 'blockIdx' ? 'gridDim' : e.name;
      const max = DIM_MAX[dim][e.axis];
      return dim === e.name ? { min: 1n, max } : { min: 0n, max: max - 1n };
    }
    case 'cast':
      return within(intervalOf(e.operand, exprTypeOf(e.operand)));
    case 'binary': {
      const [a, b] = [intervalOf(e.left, e.type), intervalOf(e.right, e.type)];
      if (a === null || b === null) return whole;
      switch (e.op) {
        case '+':
          return within({ min: a.min + b.min, max: a.max + b.max });
        case '-':
          return within({ min: a.min - b.max, max: a.max - b.min });
        case '*': {
          const ps = [a.min * b.min, a.min * b.max, a.max * b.min, a.max * b.max];
          return within({ min: ps.reduce((x, y) => (x < y ? x : y)), max: ps.reduce((x, y) => (x > y ? x : y)) });
        }
        case '/':
        case '%':
          return a.min >= 0n && b.min > 0n ? { min: 0n, max: a.max } : whole;
        default:
          return whole;
      }
    }
    case 'var':
    case 'ite':
      return whole;
  }
}

function exprTypeOf(e: Expr): MachineType | undefined {
  switch (e.kind) {
    case 'int':
    case 'cast':
      return e.type;
    case 'var':
    case 'binary':
      return e.type;
    case 'ite':
      return exprTypeOf(e.then);
    case 'nat':
    case 'builtin':
      return undefined;
  }
}

/** The pattern of `(to) x`, x of machine type `type`, when bounds show |x| below the exact limit; else null. */
export function intToFloatPattern(x: Expr, type: MachineType, to: IeeeType, span: Span): Expr | null {
  const p = patternType(to);
  const limit = exactLimit(to);
  const r = intervalOf(x, type);
  const bound = r === null ? limit - 1n : [r.max, -r.min, 0n].reduce((a, b) => (a > b ? a : b));
  const provable = r !== null && r.min > -limit && r.max < limit;
  const top = Math.min(MANTISSA[to], (bound < limit ? bound : limit - 1n).toString(2).length - 1);
  // computed in an unsigned type wide enough for the integer and the pattern (−x modulo 2^width: always defined)
  const w: MachineType = p === 'u64' || type === 'i64' || type === 'u64' ? 'u64' : 'u32';
  const cmp = (op: '<' | '==', a: Expr, v: bigint): BExpr => ({ kind: 'cmp', op, left: a, right: constant(v, w, span), span });
  const wide = castTo(x, w, span);
  const negative: BExpr | null = isSigned(type) && (r === null || r.min < 0n) ? { kind: 'cmp', op: '<', left: x, right: constant(0n, type, span), span } : null;
  const magnitude = negative === null ? wide : ite(negative, arith('-', constant(0n, w, span), wide, w, span), wide, w, span);
  const piece = (k: number): Expr => {
    const exponent = (BIAS[to] + BigInt(k)) << BigInt(MANTISSA[to]);
    const mantissa = arith('*', arith('-', magnitude, constant(1n << BigInt(k), w, span), w, span), constant(1n << BigInt(MANTISSA[to] - k), w, span), w, span);
    return arith('+', constant(exponent, w, span), mantissa, w, span);
  };
  let positive = piece(top);
  for (let k = top - 1; k >= 0; k--) positive = ite(cmp('<', magnitude, 1n << BigInt(k + 1)), piece(k), positive, w, span);
  positive = ite(cmp('==', magnitude, 0n), constant(0n, w, span), positive, w, span);
  const signBit = 1n << BigInt(p === 'u32' ? 31 : 63);
  // the pattern is below 2^32 for a float: the cast to u32 keeps it
  const signed = castTo(negative === null ? positive : ite(negative, arith('+', constant(signBit, w, span), positive, w, span), positive, w, span), p, span);
  return provable ? signed : null;
}
