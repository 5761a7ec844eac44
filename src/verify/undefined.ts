/**
 * Issue 28 §1: signed overflow, division by zero, shifts out of range and
 * unsigned loop counters that wrap stay outside the scope of a proof, but
 * where some launch the kernel allows may reach one, the report names the
 * operation and its place (a warning each), not only the generic scope
 * line. One question per round, a disjunction over the sites not yet
 * found (src/encode/query.ts, undefinedOperationsQuery); each model names
 * every site it reaches undefined, which leave the next round's question.
 * A kernel without such an operation asks nothing.
 */
import { AXES } from '../core/ast.js';
import type { Launch } from '../core/launch.js';
import type { Expr } from '../core/ast.js';
import { siteKey, undefinedOperationsQuery, type Query } from '../encode/query.js';
import type { KernelMap } from '../map/map.js';
import type { Verdict } from '../solve/solver.js';
import { assertNever } from '../util/assert.js';
import type { UndefinedOperations, UndefinedReached } from './result.js';
import { valuation, witnessOf } from './witness.js';

/** At most this many rounds (each finds at least one site): past them, the rest is said undecided. */
export const UNDEFINED_ROUNDS = 8;

export async function undefinedOperations(
  map: KernelMap,
  launch: Launch,
  ignored: (e: Expr) => boolean,
  ask: (q: Query) => Promise<Verdict>,
  encoding: <T>(build: () => T) => T,
): Promise<UndefinedOperations | null> {
  const reachable: UndefinedReached[] = [];
  const excluded = new Set<string>();
  for (let round = 0; round < UNDEFINED_ROUNDS; round++) {
    const u = encoding(() => undefinedOperationsQuery(map, launch, ignored, excluded));
    if (u === null) return round === 0 ? null : { reachable, undecided: null };
    const verdict = await ask(u.query);
    switch (verdict.status) {
      case 'unsat':
        return { reachable, undecided: null };
      case 'unknown':
        return { reachable, undecided: { query: u.query.id, reason: verdict.reason } };
      case 'sat': {
        const value = valuation(verdict.model);
        const w = witnessOf(u.query, verdict.model, [null, null]);
        const thread = { threadIdx: AXES.map((a) => value(`t1.threadIdx.${a}`)), blockIdx: AXES.map((a) => value(`t1.blockIdx.${a}`)) };
        const found = u.reached(value);
        // the model satisfies the disjunction, so it reaches some site: none would be an encoding bug, and a loop without end
        if (found.length === 0) throw new Error(`internal error: the model of ${u.query.id} reaches no undefined operation`);
        for (const f of found) {
          excluded.add(siteKey(f.site));
          reachable.push({ ...f, thread, parameters: w.parameters, blockDim: w.blockDim, gridDim: w.gridDim, query: u.query.id });
        }
        break;
      }
      default:
        return assertNever(verdict);
    }
  }
  const rest = encoding(() => undefinedOperationsQuery(map, launch, ignored, excluded));
  return { reachable, undecided: rest === null ? null : { query: rest.query.id, reason: `stopped after ${UNDEFINED_ROUNDS} rounds` } };
}
