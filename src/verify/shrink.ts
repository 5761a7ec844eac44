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
import { valuation } from './witness.js';
import type { Valuation } from '../encode/evaluate.js';
import { restateTerm } from '../encode/simplify.js';

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

/** A launch variable of a query that a small witness keeps small (a dimension or a parameter), restated over the simplified query's variables. */
interface Size {
  readonly name: string;
  readonly term: Term;
}

/**
 * The sizes of a query to keep small: those the kernel or the command line
 * fixes (the simplifier made them numbers) are what they are.
 */
function sizesOf(q: Query): Size[] {
  return [...q.roles]
    .filter(([, role]) => role.role === 'dim' || role.role === 'param')
    .map(([name]) => ({ name, term: restateTerm(q.eliminated, tvar(name)) }))
    .filter((s) => s.term.k !== 'num');
}

/**
 * A model of the query with small sizes: the first bound of the ladder under
 * which one exists, else (a size the query fixes beyond the ladder, as
 * `requires blockDim.x == 128` does) each size bounded by the ladder's top
 * where the others allow it; then a few rounds asking for a smaller sum.
 */
export async function smallModel(q: Query, modelOf: ModelOf, original: Valuation): Promise<ReadonlyMap<string, bigint> | null> {
  const sizes = sizesOf(q);
  // every size fixed: there is nothing to make smaller
  if (sizes.length === 0) return null;
  const total = (value: Valuation): bigint =>
    sizes.reduce((acc, s) => {
      const v = value(s.name);
      return acc + (v < 0n ? -v : v);
    }, 0n);
  // a parameter of a signed type is kept small on both sides of 0
  const signed = new Set(q.built.declarations.filter((d) => declaredRange(d).min < 0n).map((d) => d.name));
  const magnitude = (s: Size): Term => (signed.has(s.name) ? ite(cmp('<', s.term, num(0)), mop('-', 'i64', num(0), s.term), s.term) : s.term);
  const boundOf = (s: Size, bound: bigint): Formula[] => [cmp('<=', s.term, num(bound)), ...(signed.has(s.name) ? [cmp('>=', s.term, num(-bound))] : [])];
  const sum = sizes.reduce<Term>((acc, s) => op('+', acc, magnitude(s)), num(0));
  // bounding sizes one by one is worth it only if the launch gets smaller than the original
  const found = (await laddered(sizes, boundOf, modelOf)) ?? (await oneByOne(sizes, boundOf, (more) => modelOf([...more, cmp('<', sum, num(total(original)))])));
  if (found === null) return null;
  let model = found.model;
  for (let round = 0; round < TIGHTEN_ROUNDS; round++) {
    const smaller = await modelOf([...found.bounds, cmp('<', sum, num(total(valuation(model))))]);
    if (smaller === null) break;
    model = smaller;
  }
  return model;
}

interface Bounded {
  readonly model: ReadonlyMap<string, bigint>;
  readonly bounds: readonly Formula[];
}

/** A model with every size under the first bound of the ladder that allows one. */
async function laddered(sizes: readonly Size[], boundOf: (s: Size, bound: bigint) => Formula[], modelOf: ModelOf): Promise<Bounded | null> {
  for (const bound of BOUND_LADDER) {
    const bounds = sizes.flatMap((t) => boundOf(t, bound));
    const model = await modelOf(bounds);
    if (model !== null) return { model, bounds };
  }
  return null;
}

/** A model with each size under the ladder's top where the sizes bounded before it allow it. */
async function oneByOne(sizes: readonly Size[], boundOf: (s: Size, bound: bigint) => Formula[], modelOf: ModelOf): Promise<Bounded | null> {
  const top = BOUND_LADDER.at(-1)!;
  let found: Bounded | null = null;
  for (const t of sizes) {
    const bounds: Formula[] = [...(found?.bounds ?? []), ...boundOf(t, top)];
    const model = await modelOf(bounds);
    if (model !== null) found = { model, bounds };
  }
  return found;
}
