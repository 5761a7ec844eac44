/**
 * Warp-synchronous (lockstep) execution, `--warp-size N`: the threads of one
 * warp run the kernel's statements together, one statement instance at a
 * time (a statement in given iterations of the loops around it), the threads
 * whose path does not reach it idling. So two accesses by threads of one warp
 * are ordered unless they are
 *   - the same statement instance: the same access, in the same iteration of
 *     every loop around it (two threads writing in one step), or
 *   - on the two sides of one instance of an `if` the warp diverged at: the
 *     hardware runs one side, then the other, in an order it does not
 *     document, so neither side may count on it.
 * Which of the two, and how many loops must agree, is a matter of the
 * statements' places in the kernel; the iterations are the solver's (query.ts)
 * or the interpreter's business.
 */
import { assertNever } from '../util/assert.js';
import type { Proto } from './map.js';

export type LockstepRelation =
  /** ordered by the warp's steps: never a race between threads of one warp */
  | { readonly kind: 'ordered' }
  /**
   * unordered when the two threads are in the same iteration of the `depth`
   * outermost loops around both (the loops around the access, or the `if`)
   */
  | { readonly kind: 'same' | 'divergent'; readonly depth: number };

/** One step down from the kernel's body to an access: an item of a sequence, a side of an `if`, a loop's body. */
type Frame = { readonly k: 'item'; readonly n: number } | { readonly k: 'side'; readonly then: boolean } | { readonly k: 'loop' };

/** Every access's place in the protocol, by access id. */
function placesOf(body: Proto): Map<number, readonly Frame[]> {
  const out = new Map<number, readonly Frame[]>();
  const walk = (p: Proto, at: readonly Frame[]): void => {
    switch (p.kind) {
      case 'access':
        out.set(p.access.id, at);
        return;
      case 'seq':
        p.items.forEach((item, n) => walk(item, [...at, { k: 'item', n }]));
        return;
      case 'if':
        walk(p.then, [...at, { k: 'side', then: true }]);
        walk(p.else, [...at, { k: 'side', then: false }]);
        return;
      case 'loop':
        walk(p.body, [...at, { k: 'loop' }]);
        return;
      case 'skip':
      case 'sync':
      case 'syncwarp':
      case 'assume':
      case 'defined':
      case 'havoc':
        return;
      default:
        return assertNever(p);
    }
  };
  walk(body, []);
  return out;
}

/** The relation of two accesses (by id) of the kernel whose protocol is `body`, for two threads of one warp. */
export function lockstepRelations(body: Proto): (a: number, b: number) => LockstepRelation {
  const places = placesOf(body);
  return (a, b) => {
    const pa = places.get(a);
    const pb = places.get(b);
    if (pa === undefined || pb === undefined) throw new Error(`lockstep: access ${pa === undefined ? a : b} is not in the protocol`);
    let depth = 0;
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
      const [fa, fb] = [pa[i]!, pb[i]!];
      if (fa.k === 'item' && fb.k === 'item' && fa.n !== fb.n) return { kind: 'ordered' };
      if (fa.k === 'side' && fb.k === 'side' && fa.then !== fb.then) return { kind: 'divergent', depth };
      if (fa.k === 'loop') depth++;
    }
    return a === b ? { kind: 'same', depth } : { kind: 'ordered' };
  };
}
