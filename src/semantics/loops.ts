/**
 * The values a BabyCUDA loop visits (spec §3's table), shared by the
 * interpreter and by anyone who needs the exact iteration sequence.
 *
 * | loop                              | values                         |
 * |-----------------------------------|--------------------------------|
 * | `for x in n..m`                   | n, n+1, … while x < m          |
 * | `for x in n..m step + k`          | n, n+k, … while x < m          |
 * | `for x in n..m step * k`          | n, n·k, n·k², … while x < m    |
 * | `for x in n downto m`             | n, n−1, … while x ≥ m          |
 * | `for x in n downto m step - k`    | n, n−k, … while x ≥ m          |
 * | `for x in n downto m step / k`    | n, n/k, n/k², … while x ≥ m    |
 *
 * A natural downward `step - k` loop ends when x − k would be negative:
 * `n downto 0` visits n, …, 1, 0 and stops, as the table says (truncated
 * subtraction would stay at 0 forever). Otherwise a loop that does not
 * terminate always reaches a fixpoint: the next value equals the current one
 * while the condition still holds (step + 0, step * 1, step * 0 from 0,
 * step / 1, step / k down to 0, …).
 *
 * A loop whose variable has a machine type computes its steps in that type
 * (`for i: i32 in n downto 0` visits n, …, 0, and nothing when n < 0, as C's
 * `i >= 0; i--` does); a step that leaves the type (an `i32` below −2^31, a
 * `u32` below 0) is outside the scope (for `u32` a wrap-around of the loop
 * counter, which the loops' model leaves out), which stops the run.
 */
import type { DownStep, MachineType, UpStep } from '../core/ast.js';
import { loopStepApply } from '../core/arith.js';
import { applyArith } from './values.js';

export type LoopDirection = 'up' | 'down';
export type LoopOp = UpStep | DownStep;

/** The loop's iteration: direction, step operator and amount, bounds, all evaluated. */
export interface LoopShape {
  readonly direction: LoopDirection;
  readonly op: LoopOp;
  readonly amount: bigint;
  readonly from: bigint;
  readonly to: bigint;
  /** the loop variable's machine type: its steps are computed in it; absent: nat */
  readonly type?: MachineType;
}

/** The step operator of a loop written without `step`: +1 up, −1 down. */
export function defaultStep(direction: LoopDirection): { op: LoopOp; amount: bigint } {
  return direction === 'up' ? { op: '+', amount: 1n } : { op: '-', amount: 1n };
}

/** Whether the body runs for this value of the loop variable. */
export function loopContinues(shape: LoopShape, x: bigint): boolean {
  return shape.direction === 'up' ? x < shape.to : x >= shape.to;
}

/**
 * The value after x, or null when a natural downward step would go below 0,
 * which ends the loop; an undefined step of a machine-typed loop throws
 * UndefinedOperation (src/core/arith.ts).
 */
export function loopNext(shape: LoopShape, x: bigint): bigint | null {
  if (shape.type !== undefined) return loopStepApply(shape.op, shape.type, x, shape.amount);
  if (shape.op === '-' && x < shape.amount) return null;
  return applyArith(shape.op, x, shape.amount);
}

export type LoopValues =
  | { readonly kind: 'finite'; readonly values: readonly bigint[] }
  /** the loop visits `values` and then stays at the last one forever */
  | { readonly kind: 'nonterminating'; readonly values: readonly bigint[] }
  /** more than `limit` values; `values` holds the first `limit` */
  | { readonly kind: 'too-many'; readonly values: readonly bigint[] };

/** The sequence of values the loop visits, up to `limit` of them. */
export function loopValues(shape: LoopShape, limit: number): LoopValues {
  const values: bigint[] = [];
  let x = shape.from;
  while (loopContinues(shape, x)) {
    if (values.length >= limit) return { kind: 'too-many', values };
    values.push(x);
    const next = loopNext(shape, x);
    if (next === null) break;
    if (next === x) return { kind: 'nonterminating', values };
    x = next;
  }
  return { kind: 'finite', values };
}
