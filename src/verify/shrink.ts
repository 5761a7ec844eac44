/**
 * Small witnesses. Solvers often pick huge sizes (blockDim.x = 2^31) that no
 * interpreter can run and where some other thread of the launch overflows,
 * although the alarm needs only a few threads: the same query is asked again
 * with every size and parameter bounded, under a ladder of bounds, and then
 * for a smaller sum of them. `verify` does so when a witness's launch is not
 * proved in scope, and replay when a witness is too large to run.
 */
import type { Query } from '../encode/query.js';
import { declaredRange } from '../encode/smtlib.js';
import { cmp, ite, mop, num, op, tvar, type Formula, type Term } from '../encode/term.js';
import type { Witness } from './result.js';

/** A witness the interpreter runs as is: few threads, small parameters (loops bounded by them stay short). */
const MAX_SMALL_THREADS = 256n;
const MAX_SMALL_PARAM = 64n;
/** Bounds tried, in order, on every dimension and parameter of a witness being made small. */
const BOUND_LADDER: readonly bigint[] = [1n, 2n, 4n, 8n, 16n, 64n];
/** Rounds of "a smaller sum of sizes and parameters" after the first bounded witness. */
const TIGHTEN_ROUNDS = 4;

export function isSmallWitness(w: Witness): boolean {
  const threads = [...w.blockDim, ...w.gridDim].reduce((a, b) => a * b, 1n);
  return threads <= MAX_SMALL_THREADS && [...w.parameters.values()].every((v) => v <= MAX_SMALL_PARAM && v >= -MAX_SMALL_PARAM);
}

/** A model of the query with these assertions added (checked against the query), or null when there is none or no answer. */
export type ModelOf = (more: readonly Formula[]) => Promise<ReadonlyMap<string, bigint> | null>;

/** The launch variables of a query that a small witness keeps small: dimensions and parameters. */
function sizeTerms(q: Query): Term[] {
  return [...q.roles].filter(([, role]) => role.role === 'dim' || role.role === 'param').map(([name]) => tvar(name));
}

/**
 * A model of the query with small sizes: the first bound of the ladder under
 * which one exists, then a few rounds asking for a smaller sum of them.
 */
export async function smallModel(q: Query, modelOf: ModelOf): Promise<ReadonlyMap<string, bigint> | null> {
  const sizes = sizeTerms(q);
  // a parameter of a signed type is kept small on both sides of 0
  const signed = new Set(q.declarations.filter((d) => declaredRange(d).min < 0n).map((d) => d.name));
  const isSigned = (t: Term): boolean => t.k === 'var' && signed.has(t.name);
  const magnitude = (t: Term): Term => (isSigned(t) ? ite(cmp('<', t, num(0)), mop('-', 'i64', num(0), t), t) : t);
  for (const bound of BOUND_LADDER) {
    const bounds = sizes.flatMap((t) => [cmp('<=', t, num(bound)), ...(isSigned(t) ? [cmp('>=', t, num(-bound))] : [])]);
    let model = await modelOf(bounds);
    if (model === null) continue;
    const sum = sizes.reduce<Term>((acc, t) => op('+', acc, magnitude(t)), num(0));
    for (let round = 0; round < TIGHTEN_ROUNDS; round++) {
      const current = sizes.reduce((acc, t) => {
        const v = t.k === 'var' ? (model!.get(t.name) ?? 0n) : 0n;
        return acc + (v < 0n ? -v : v);
      }, 0n);
      const smaller = await modelOf([...bounds, cmp('<', sum, num(current))]);
      if (smaller === null) break;
      model = smaller;
    }
    return model;
  }
  return null;
}
