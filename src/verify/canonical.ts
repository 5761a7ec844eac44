/**
 * Canonical models (issue 29). A portfolio takes the first sat from any of
 * its members (src/solve/portfolio.ts), so a solver's model depends on which
 * member was fastest: on the machine, its load, the moment. Whether a
 * question is sat does not, nor which model is the least: so the model a
 * witness is read from is the least model of the question, found by asking
 * it again with bounds, the same whichever member answers any of them.
 *
 * Least in a fixed order of the question's variables (the simplified ones;
 * the eliminated follow from them): sizes, parameters, block and thread ids
 * (thread 1's before thread 2's), the threads' points, the element, then the
 * rest, each by name. Each is made least in turn with those before it
 * pinned to their values: a natural its value, a signed one its magnitude
 * and then the non-negative sign. The value of the last model found is
 * often the least already (the variables pinned before it determine it),
 * which one question shows; otherwise the least is searched upwards from
 * the bottom of its range, doubling the step (`v ≤ 0`, `v ≤ 2`, `v ≤ 6`,
 * …), then by halving between the last bound without a model and the value
 * of the last model found; a bound the last model meets already is not
 * asked. Each
 * bounded question is simplified first (src/encode/simplify.ts: the pins
 * make most variables numbers, and much of what is left is decided there),
 * then asked as any question is (src/verify/ask.ts: the search, then the
 * solver).
 *
 * Sat and unsat answers are the same from every member, so the least model
 * is found whichever answers. An unknown answer is taken as no smaller model
 * (the value stays that of the last model found): members decide within a
 * resource limit, not a time, so an unknown is the same everywhere too, but
 * the last model found may differ, and so then may the witness. Models found
 * by the search (src/encode/search.ts) are the same everywhere already and
 * are not made canonical.
 */
import type { Query, VarRole } from '../encode/query.js';
import { chooseEncoding, declaredRange } from '../encode/smtlib.js';
import { simplify } from '../encode/simplify.js';
import { and, cmp, eq, num, tvar, type Formula } from '../encode/term.js';
import { valuation } from './witness.js';

/** A model of the query with these assertions added (completed and checked against the query), or null when none was found. */
export type ModelWith = (q: Query, more: readonly Formula[]) => Promise<ReadonlyMap<string, bigint> | null>;

const ROLE_ORDER: readonly VarRole['role'][] = ['dim', 'param', 'block', 'thread', 'selector', 'index', 'shared', 'local', 'aux'];

/** The query's variables in the order they are made least: by role (ROLE_ORDER), then by name. */
export function canonicalOrder(q: Pick<Query, 'declarations' | 'roles'>): string[] {
  const rank = (name: string): number => {
    const role = q.roles.get(name)?.role;
    return role === undefined ? ROLE_ORDER.length : ROLE_ORDER.indexOf(role);
  };
  return q.declarations
    .map((d) => d.name)
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The query with more assertions, simplified again: its eliminated
 * variables are the query's and then the new ones (each term mentions only
 * later ones and those still declared, as completeModel reads them).
 */
export function narrowed(q: Query, more: readonly Formula[]): Query {
  const s = simplify(q.declarations, [...q.assertions, ...more]);
  return { ...q, declarations: s.declarations, assertions: s.assertions, eliminated: [...q.eliminated, ...s.eliminated], encoding: chooseEncoding(s.declarations, s.assertions) };
}

/**
 * The least model of the query with `extra` asserted (`model` is one), in
 * the canonical order over `names` (default: every variable of the query;
 * the others keep some model's values), and the questions it took.
 */
export async function canonicalModel(
  q: Query,
  extra: readonly Formula[],
  model: ReadonlyMap<string, bigint>,
  modelWith: ModelWith,
  names?: readonly string[],
): Promise<ReadonlyMap<string, bigint>> {
  const chosen = names === undefined ? null : new Set(names);
  const order = canonicalOrder(q).filter((n) => chosen === null || chosen.has(n));
  const ranges = new Map(q.declarations.map((d) => [d.name, declaredRange(d)]));
  const pins: Formula[] = [...extra];
  let best = model;
  const tried = async (bound: Formula): Promise<boolean> => {
    const found = await modelWith(q, [...pins, bound]);
    if (found !== null) best = found;
    return found !== null;
  };
  for (const name of order) {
    const v = tvar(name);
    const { min } = ranges.get(name)!;
    if (min >= 0n) {
      // v ≤ b
      await least(() => valuation(best)(name) - min, (k) => tried(cmp('<=', v, num(min + k))));
      pins.push(eq(v, num(valuation(best)(name))));
      continue;
    }
    // |v| ≤ b, then v ≥ 0 if it can be
    const magnitude = (): bigint => {
      const x = valuation(best)(name);
      return x < 0n ? -x : x;
    };
    await least(magnitude, (k) => tried(and([cmp('<=', v, num(k)), cmp('>=', v, num(-k))])));
    const m = magnitude();
    if (valuation(best)(name) < 0n) await tried(eq(v, num(m)));
    pins.push(eq(v, num(valuation(best)(name))));
  }
  return best;
}

/**
 * Makes `current()` (a non-negative offset, the last model's) least: asks
 * `below(k)` (is there a model with offset ≤ k? it updates the last model
 * when there is) for one less than the current offset, and when there is
 * one, for k = 0, 2, 6, 14, … until one is found or the last model
 * meets the bound already. The least is then between the greatest bound
 * without a model and the current offset, and most often next to one of
 * them: a solver's model sits on the bound it was given, and the
 * simplifier decides the bounds without a model up to where its intervals
 * reach (an overflow's threshold, 2^24 or 2^30 − 31, is found beside one
 * end of a gap of 2^24 or 2^29). So the gap is narrowed from both ends,
 * doubling the step on each (one above the greatest bound without a model,
 * one below the current offset, then 3 and 3, 7 and 7, …), until a
 * question of one end finds the least beyond it; then halved.
 */
export async function least(current: () => bigint, below: (k: bigint) => Promise<boolean>): Promise<void> {
  // the last model's value is often the least (the variables pinned before determine it): one question shows it
  if (current() > 0n && !(await below(current() - 1n))) return;
  // offsets ≤ none are known to have no model (−1: the bottom of the range)
  let none = -1n;
  for (let step = 1n; current() > none + step; step *= 2n) {
    const k = none + step;
    if (await below(k)) break;
    none = k;
  }
  for (let step = 1n; current() - none > 1n; step *= 2n) {
    const up = none + step;
    // a model at most `up`: the least is at most up, and above the last bound without one
    if (up >= current() || (await below(up))) break;
    none = up;
    const down = current() - step;
    if (down <= none) break;
    if (!(await below(down))) {
      none = down;
      break;
    }
  }
  while (current() - none > 1n) {
    const k = none + (current() - none) / 2n;
    if (!(await below(k))) none = k;
  }
}
