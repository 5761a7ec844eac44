/**
 * The threads the vacuity check adds to its question once the scope check
 * found a thread of the launch it asked about leaving the scope. The question
 * is whether some launch has every thread in scope; a thread named by
 * numbers only is one instance of "every thread", and a thread that fails
 * depends on the launch as often as not (thread `p` of a parameter p, thread
 * `blockDim.x − 2`), so the next launch found has it elsewhere. Each thread
 * found is named too by the parameters and sizes of the launch its
 * coordinates are close to: every such thread is still an instance of
 * "every thread of the launch", whatever the launch, so an unsat question
 * remains a proof that no launch is in scope.
 */
import { AXES, type Axis } from '../core/ast.js';
import type { Coordinate, ThreadAt, ThreadIds } from '../encode/query.js';
import type { Doubt } from './result.js';

/** How far from a parameter's or a size's value a coordinate is still named after it. */
const NEAR = 4n;
/** At most this many threads named for one thread found. */
const MAX_THREADS = 12;

export interface FixedLaunch {
  readonly params: ReadonlyMap<string, bigint>;
  readonly blockDim: readonly bigint[];
  readonly gridDim: readonly bigint[];
}

/** The thread found, by its numbers first, then by the parameters and sizes its coordinates are near. */
export function threadsNamed(thread: ThreadIds, launch: FixedLaunch): ThreadAt[] {
  const named = (value: bigint): Coordinate[] => {
    const out: Coordinate[] = [{ kind: 'number', value }];
    // 0 is a coordinate of every launch: as a number, it is the same thread in each
    if (value === 0n) return out;
    for (const [name, v] of launch.params) {
      const plus = value - v;
      if (plus >= -NEAR && plus <= NEAR) out.push({ kind: 'param', name, plus });
    }
    for (const [dim, sizes] of [['blockDim', launch.blockDim], ['gridDim', launch.gridDim]] as const) {
      AXES.forEach((axis: Axis, a) => {
        const plus = value - (sizes[a] ?? 1n);
        if (plus < 0n && plus >= -NEAR) out.push({ kind: 'dim', dim, axis, plus });
      });
    }
    return out;
  };
  const slots = [...AXES.map((_, a) => named(thread.threadIdx[a] ?? 0n)), ...AXES.map((_, a) => named(thread.blockIdx[a] ?? 0n))];
  let combinations: Coordinate[][] = [[]];
  for (const slot of slots) combinations = combinations.flatMap((c) => slot.map((s) => [...c, s])).slice(0, MAX_THREADS);
  return combinations.map((c) => ({ threadIdx: c.slice(0, AXES.length), blockIdx: c.slice(AXES.length) }));
}

/** Why the vacuity check decided nothing: the last launch it found was not proved in scope. */
export function vacuityUndecided(rounds: number, last: Doubt | undefined): string {
  const why =
    last?.kind === 'scope-unknown'
      ? `whether every thread of the last launch found is in scope was not decided (query ${last.query} unknown)`
      : `each launch found in ${rounds} rounds has a thread that may ${last?.kind === 'undefined-operation' ? 'evaluate an undefined operation' : 'fail an assumption'}`;
  return `not proved that some launch is in scope (the vacuity check): ${why}, so a proof could be vacuous`;
}
