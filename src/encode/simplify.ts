/**
 * The simplifier every query goes through before it is printed and solved.
 * Each step is an equivalence, never a weakening or a strengthening: the
 * simplified query has a model exactly when the original has, and a model of
 * it extends to one of the original (the eliminated variables' values are
 * computed from their terms, `completeModel`).
 *
 * * constants folded (the term constructors), identical sides compared;
 * * an equality `x = t` among the top-level facts substitutes t for x
 *   everywhere (x's declared range is then asserted of t where it is not
 *   implied);
 * * an equality of sums and products is put in normal form (polynomials with
 *   integer coefficients over opaque atoms, `+` and `*` being exact): equal
 *   sides are true, sides that differ by a nonzero constant, or by a linear
 *   form whose coefficients' gcd does not divide the constant, false, and
 *   common monomials cancel (`b·n + t1 = b·n + t2` is `t1 = t2`);
 * * the mixed-radix split: `a·n + b = a'·n + b'` where the facts prove
 *   `0 ≤ b, b' < n` is `a = a' ∧ b = b'`;
 * * the window: `W(x) = W(y)`, W one wrap-around into a machine type (C's
 *   cast, or the one-wrap case split `ite(x ≤ K, x, x − 2^w)` that
 *   Builder.cast writes), is `x = y` where the facts prove |x − y| < 2^w
 *   (both in one window of 2^w values, or their difference small): W(x)
 *   and x differ by a multiple of 2^w;
 * * two wrapped sums: `W(x) + P = W(y) + Q`, W a one-wrap case split, is
 *   `x + P = y + Q` with x and y on one side of the wrap, or `x + P = y + Q
 *   ± 2^w` with one on each, the cases the bounds exclude left out;
 * * two values of one variable compared: `v = A ∧ v = B` is
 *   `v = A ∧ A = B` where the rewrites decide or change `A = B` (a
 *   variable used too often to be substituted, e.g. an index both threads'
 *   wrapped values are equal to).
 *
 * * two variables defined by one term are equal: `x = A ∧ y = A` is
 *   `x = A ∧ y = x` (two threads' clamped index, each used too often to be
 *   substituted);
 * * the naturals' truncated `a − b` is the exact difference where that,
 *   in normal form, has non-negative coefficients over non-negative atoms;
 * * a formula named once (`1 = ite(F, 1, 0)`, src/encode/share.ts) is F,
 *   rewritten like any other.
 *
 * * a comparison the bounds decide is true or false, and so is an ite's
 *   condition (the ite is then its branch): `blockDim.x ≤ 2^31 − 1` where
 *   `blockDim.x ≤ 1024`. A range fact (an operation's value against a number,
 *   as definedness adds) is decided by the other bounds alone: `16·bx ≤
 *   2^32 − 1` where `bx < 4`. A signed atom the facts keep positive counts as
 *   non-negative in the mixed-radix split.
 *
 * A variable a top-level fact defines (`x = t`, x not in t) is within t's
 * interval in the other facts (a named index `s = 16·by + ty` used too often
 * to be substituted: its casts and wrap splits go); the conjuncts of a
 * conjunction inside another formula (a case of a disjunction) are
 * rewritten under its own bounds too.
 *
 * The bounds are the top-level `≤ < ≥ >` facts and what declarations and
 * operators prove (intervals). Those facts themselves are rewritten under
 * the declarations only, so each round's facts are equivalent to the last's.
 *
 * A query whose facts fold to false is decided unsat without a solver.
 */
import { memoizedPerObject } from '../util/memo.js';
import type { CmpOp, MachineType } from '../core/ast.js';
import type { Declaration } from './smtlib.js';
import { declaredRange } from './smtlib.js';
import { Interner, nonNegative } from './share.js';
import { typeMax, typeMin, WIDTH } from '../core/arith.js';
import { FALSE, and, castTerm, cmp, eq, ite, mop, not, num, op, or, tvar, type Formula, type Term } from './term.js';

export interface Simplified {
  readonly declarations: readonly Declaration[];
  readonly assertions: readonly Formula[];
  /** substituted variables, in the order eliminated: each term mentions only later ones and those still declared */
  readonly eliminated: readonly { readonly name: string; readonly term: Term }[];
}

const ROUNDS = 64;
/** a compound term is substituted for a variable only where that adds at most this many nodes (see substitution) */
const MAX_GROWTH = 64;
/** a product expanded into more monomials than this stays an atom */
const MAX_MONOMIALS = 64;
/** a fact is decided with the definitions' terms put in through this many levels of definitions, */
const DEFINITION_ROUNDS = 4;
/** and while it is at most this many nodes (decidedByDefinitions) */
const MAX_DECIDED_SIZE = 256;

export interface SimplifyOptions {
  /**
   * take the common conjuncts out of disjunctions (factored): a question of
   * one array in one phase needs it, and the other queries keep the forms
   * (and so the solvers' models) they had without it
   */
  readonly factor?: boolean;
  /** at the fixpoint, split the wrapped sums left into cases (unwrappedSums) and go on */
  readonly splitWraps?: boolean;
}

export function simplify(declarations: readonly Declaration[], assertions: readonly Formula[], options: SimplifyOptions = {}): Simplified {
  const splitWraps = options.splitWraps ?? false;
  factoring = options.factor ?? false;
  interner = new Interner();
  factorsOf = new Map();
  splittingWraps = false;
  // a polynomial's monomials name atoms by their number in the interner
  poly = memoizedPerObject(polyOf);
  boundOf = memoizedPerObject(boundOfFact);
  const declared = new Map(declarations.map((d) => [d.name, d]));
  const order = new Map(declarations.map((d, i) => [d.name, i]));
  const eliminated: { name: string; term: Term }[] = [];
  const initial = noBounds(declared);
  let facts = conjuncts(assertions.map((f) => rewrite(f, initial)));
  // each substitution takes a round: a query with many variables gets as many more
  for (let round = 0; round < ROUNDS + declarations.length; round++) {
    if (contradictory(facts)) return { declarations: [], assertions: [FALSE], eliminated };
    facts = unique(facts);
    const batch = substitutions(facts, declared, order);
    if (batch.length > 0) {
      const by = new Map(batch.map(({ name, term }) => [name, term]));
      const used = new Set(batch.map((s) => s.fact));
      const bounds: Formula[] = [];
      for (const { name, term } of batch) {
        eliminated.push({ name, term });
        const d = declared.get(name)!;
        declared.delete(name);
        bounds.push(...rangeFacts(d, term, declared));
      }
      // a fact without the variables stays the object it was (its variables' counts are kept)
      facts = conjuncts([...facts.filter((f) => !used.has(f)).map((f) => ([...variableUses(f).keys()].some((x) => by.has(x)) ? substitute(f, by) : f)), ...bounds]);
      continue;
    }
    const bounds = boundsOf(facts, declared);
    // the facts the bounds come from are rewritten under the declarations only: every fact rewritten under the bounds is
    // then equivalent to what it was, given facts that are (rewritten under themselves, `x ≤ 5` would prove itself)
    const declaredOnly = noBounds(declared);
    // a range fact (an operation's value against a number: what definedness and eliminated variables add) is decided by
    // the other bounds, which stay: `16·bx ≤ 2^32 − 1` where `bx < 4`
    const others = facts.some(isRangeFact) ? boundsOf(facts.filter((f) => !isRangeFact(f)), declared) : bounds;
    // a bound with an ite inside (a machine value's one-wrap split, `ite(d ≤ 2^31 − 1, d, d − 2^32) · j < n`), and a range
    // fact the other bounds leave open, are rewritten under the plain bounds: those of the facts that are neither, themselves
    // rewritten under the declarations only, so that no two facts settle each other
    const iteBounds = facts.map(isIteBound);
    // (without an ite anywhere in a bound they settle nothing the declarations do not)
    const plain = facts.some((f) => isBound(f) && mentionsIte(f)) ? boundsOf(facts.filter((f, i) => !iteBounds[i] && !isRangeFact(f)), declared) : declaredOnly;
    const { defined, sources: definitionSources } = smallDefinitions(facts);
    // the other facts are rewritten knowing each defined variable within its term's interval too (`s = 16·by + ty` with
    // by < 4, ty < 16: s in [0, 63]); a definition itself only under the bounds, so that none is decided with itself
    const { bounds: withDefinitions, sources: definingFacts } = definitionBounds(facts, bounds);
    const next = conjuncts(
      joinDefinitions(withQuotients(withXorDefinitions(withResidues(facts, declared), declared), bounds), bounds).map((f, i) => {
        if (isBound(f) && !isRangeFact(f)) return rewrite(f, iteBounds[i] === true ? plain : declaredOnly);
        if (!isRangeFact(f)) {
          const r = rewrite(f, definingFacts.has(facts[i]!) ? bounds : withDefinitions);
          // (a definition is never decided with itself: `x = A ∧ x = B` keeps x = A, and A = B is decided with it)
          return definitionSources.has(facts[i]!) ? r : decidedByDefinitions(r, defined, bounds);
        }
        const known = decided(f.op, f.a, f.b, others);
        return known === null ? rewrite(f, plain) : { k: 'const', v: known };
      }),
    );
    if (next.length === facts.length && next.every((f, i) => sameFormula(f, facts[i]!))) {
      if (splittingWraps || !splitWraps) break;
      // the rewrites have done what they can: now the wrapped sums they left are split into cases, and the rounds go on
      splittingWraps = true;
      continue;
    }
    facts = next;
  }
  if (contradictory(facts)) return { declarations: [], assertions: [FALSE], eliminated };
  return { declarations: declarations.filter((d) => declared.has(d.name)), assertions: unique(facts), eliminated };
}

/** Whether the simplified query is false (decided unsat): its one fact is `false`. */
export const foldsToFalse = (s: Pick<Simplified, 'assertions'>): boolean => s.assertions.length === 1 && s.assertions[0]!.k === 'const' && !s.assertions[0]!.v;

/** A disjunction of more cases than this is not split (a geometric loop over 32-bit values has 33). */
const MAX_CASES = 40;

/**
 * The query simplified, and when that leaves a top-level disjunction each of
 * whose cases fixes one variable to a number (`s = 1 ∨ (2 < n ∧ s = 2) ∨ …`,
 * a geometric loop's values), each case simplified on its own: the query is
 * unsat when every case is, and otherwise stays as simplified (a solver gets
 * one query, not its cases). With the variable a number, an index such as
 * `t mod 2s` becomes linear, and the rewrites decide what they could not.
 */
export function simplifyByCases(declarations: readonly Declaration[], assertions: readonly Formula[], factor = false): Simplified {
  const s = simplify(declarations, assertions, { factor });
  const split = s.assertions.find((f) => f.k === 'or' && f.args.length <= MAX_CASES && fixedInEveryCase(f.args) !== null);
  if (split === undefined || split.k !== 'or') return withWrapsSplit(s, factor);
  const rest = s.assertions.filter((f) => f !== split);
  for (const c of split.args) {
    if (!foldsToFalse(simplify(s.declarations, [...rest, c], { factor }))) return withWrapsSplit(s, factor);
  }
  return { declarations: [], assertions: [FALSE], eliminated: s.eliminated };
}

/** The simplified query with its wrapped sums split into cases (unwrappedSums), where an equality of it has an ite to split. */
function withWrapsSplit(s: Simplified, factor: boolean): Simplified {
  if (!s.assertions.some((f) => f.k === 'cmp' && (f.op === '==' || f.op === '!=') && mentionsIte(f))) return s;
  const t = simplify(s.declarations, s.assertions, { factor, splitWraps: true });
  // t's eliminated variables are among s's declared ones: after s's, each term still mentions only later ones
  return { declarations: t.declarations, assertions: t.assertions, eliminated: [...s.eliminated, ...t.eliminated] };
}

/** A variable every case sets to a number (`x = 4` among its conjuncts), or null. */
function fixedInEveryCase(cases: readonly Formula[]): string | null {
  const fixedIn = (c: Formula): Set<string> => {
    const fixed = new Set<string>();
    for (const f of c.k === 'and' ? c.args : [c]) {
      if (f.k !== 'cmp' || f.op !== '==') continue;
      if (f.a.k === 'var' && f.b.k === 'num') fixed.add(f.a.name);
      if (f.b.k === 'var' && f.a.k === 'num') fixed.add(f.b.name);
    }
    return fixed;
  };
  const [first, ...others] = cases.map(fixedIn);
  const common = [...(first ?? [])].filter((x) => others.every((o) => o.has(x)));
  return common[0] ?? null;
}

/** The original query's model from a model of the simplified one: each eliminated variable's value, last eliminated first. */
export function completeModel(eliminated: Simplified['eliminated'], model: ReadonlyMap<string, bigint>, evalTerm: (t: Term, value: (name: string) => bigint) => bigint): Map<string, bigint> {
  const out = new Map(model);
  for (const { name, term } of [...eliminated].reverse()) out.set(name, evalTerm(term, (n) => out.get(n) ?? 0n));
  return out;
}

/** A formula over the original query's variables, restated over the simplified one's. */
export function restate(eliminated: Simplified['eliminated'], f: Formula): Formula {
  return eliminated.reduce((g, { name, term }) => substitute(g, new Map([[name, term]])), f);
}

export function restateTerm(eliminated: Simplified['eliminated'], t: Term): Term {
  return eliminated.reduce((u, { name, term }) => substituteTerm(u, new Map([[name, term]])), t);
}

function conjuncts(fs: readonly Formula[]): Formula[] {
  const out: Formula[] = [];
  for (const f of fs) {
    if (f.k === 'and') out.push(...conjuncts(f.args));
    else if (!(f.k === 'const' && f.v)) out.push(f);
  }
  return out;
}

/**
 * Structural equality, by hash-consing (src/encode/share.ts): one table per
 * simplification, so that it does not outlive the query.
 */
let interner = new Interner();
/** whether this simplification takes common conjuncts out of disjunctions (simplify's `factor`) */
let factoring = false;
/**
 * Whether `W(x) + P = W(y) + Q` is split into cases (unwrappedSums): only
 * once the other rewrites have reached their fixpoint, and after the case
 * analysis of simplifyByCases, so that the split never takes the place of a
 * rewrite that would have decided the equality (a parity, a definition or a
 * loop's value put in), which its cases hide.
 */
let splittingWraps = false;
const sameFormula = (f: Formula, g: Formula): boolean => interner.formula(f) === interner.formula(g);
const sameTerm = (t: Term, u: Term): boolean => interner.term(t) === interner.term(u);

/** A term's key in the polynomials and the bounds' tables: its number in this simplification's interner (equal terms, equal keys). */
const key = (t: Term): string => String(interner.term(t));

/** The term of a key. */
const atomOf = (k: string): Term => interner.nodes[Number(k)]!.node as Term;

function unique(fs: readonly Formula[]): Formula[] {
  const seen = new Set<number>();
  return fs.filter((f) => {
    const k = interner.formula(f);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

interface Substitution {
  readonly fact: Formula;
  readonly name: string;
  readonly term: Term;
}

/**
 * The substitutions of one round: every `x = number` and `x = y` with y
 * declared before x that can be made at once (no variable substituted
 * occurs in another's term), else the single best one (substitution). A
 * query with many variables copied from one another (the loop variables of
 * aligned phases) then takes a few rounds, not one per variable.
 */
function substitutions(facts: readonly Formula[], declared: ReadonlyMap<string, Declaration>, order: ReadonlyMap<string, number>): Substitution[] {
  const batch: Substitution[] = [];
  const named = new Set<string>();
  const mentioned = new Set<string>();
  const admit = (s: Substitution): void => {
    const inTerm = s.term.k === 'var' ? [s.term.name] : [];
    if (named.has(s.name) || mentioned.has(s.name) || inTerm.some((v) => named.has(v))) return;
    batch.push(s);
    named.add(s.name);
    inTerm.forEach((v) => mentioned.add(v));
  };
  for (const f of facts) {
    if (f.k !== 'cmp') continue;
    const zero = atMostZero(f, declared);
    if (zero !== null) {
      admit({ fact: f, name: zero, term: num(0) });
      continue;
    }
    if (f.op !== '==') continue;
    for (const [x, t] of [
      [f.a, f.b],
      [f.b, f.a],
    ] as const) {
      if (x.k !== 'var' || !declared.has(x.name)) continue;
      if (t.k === 'num' || (t.k === 'var' && t.name !== x.name && declared.has(t.name) && order.get(t.name)! < order.get(x.name)!)) {
        admit({ fact: f, name: x.name, term: t });
        break;
      }
    }
  }
  if (batch.length > 0) return batch;
  const best = substitution(facts, declared, order);
  return best === null ? [] : [best];
}

/**
 * A top-level `x = t` to substitute: a declared x not in t. Between two
 * variables the later declared goes (thread 2's before thread 1's, an index
 * before what it is equal to); a number is preferred to any other term.
 */
function substitution(facts: readonly Formula[], declared: ReadonlyMap<string, Declaration>, order: ReadonlyMap<string, number>): Substitution | null {
  let best: { fact: Formula; name: string; term: Term; rank: number } | null = null;
  // per variable: the facts it occurs in, and its occurrences in all of them
  const total = new Map<string, { facts: number; uses: number }>();
  for (const f of facts) {
    for (const [name, n] of variableUses(f)) {
      const t = total.get(name) ?? { facts: 0, uses: 0 };
      total.set(name, { facts: t.facts + 1, uses: t.uses + n });
    }
  }
  for (const f of facts) {
    // a natural below 1 is 0
    const zero = f.k === 'cmp' ? atMostZero(f, declared) : null;
    if (zero !== null) return { fact: f, name: zero, term: num(0) };
    if (f.k !== 'cmp' || f.op !== '==') continue;
    const own = variableUses(f);
    for (const [x, t] of [
      [f.a, f.b],
      [f.b, f.a],
    ] as const) {
      // x = t with x in t: x occurs in the fact more than once
      if (x.k !== 'var' || !declared.has(x.name) || own.get(x.name)! > 1) continue;
      if (t.k !== 'num' && t.k !== 'var') {
        // a compound term replaces a variable used in few places only: the query must not grow (src/encode/share.ts named it once)
        const elsewhere = total.get(x.name)!;
        const uses = elsewhere.uses - 1;
        if (elsewhere.facts - 1 > 2 || Math.max(0, uses - 1) * (termSize(t) - 1) > MAX_GROWTH) continue;
      }
      const rank = t.k === 'num' ? 0 : t.k === 'var' ? (order.get(t.name)! < order.get(x.name)! ? 1 : 3) : 2;
      if (best === null || rank < best.rank) best = { fact: f, name: x.name, term: t, rank };
    }
    if (best?.rank === 0) break;
  }
  return best;
}

/** The variable and term of a top-level `v = t` with v not in t, else null. */
function definition(f: Formula): { name: string; term: Term } | null {
  if (f.k !== 'cmp' || f.op !== '==') return null;
  for (const [x, t] of [
    [f.a, f.b],
    [f.b, f.a],
  ] as const) {
    if (x.k === 'var' && variableUses(f).get(x.name) === 1) return { name: x.name, term: t };
  }
  return null;
}

/**
 * `v = A ∧ v = B` as `v = A ∧ A = B` where the rewrites decide or change
 * `A = B` (a variable the substitution keeps, for it is used in many places,
 * with two values to compare: two threads' wrapped index, one named once).
 */
function joinDefinitions(facts: readonly Formula[], bounds: Bounds): Formula[] {
  const first = new Map<string, Term>();
  // per defining term: the first variable it defines (`x = A ∧ y = A` is `x = A ∧ y = x`, which substitutes)
  const definedBy = new Map<number, string>();
  return facts.map((f) => {
    const d = definition(f);
    if (d === null) return f;
    const termId = interner.term(d.term);
    const byTerm = definedBy.get(termId);
    if (byTerm === undefined) definedBy.set(termId, d.name);
    else if (byTerm !== d.name && !isAtomic(d.term)) return eq(tvar(d.name), tvar(byTerm));
    const a = first.get(d.name);
    if (a === undefined) {
      first.set(d.name, d.term);
      return f;
    }
    const joined = compare('==', a, d.term);
    const r = rewrite(joined, bounds);
    return r.k === 'cmp' && r.op === '==' && sameTerm(r.a, a) && sameTerm(r.b, d.term) ? f : joined;
  });
}

/**
 * The facts `x = t` (x not in t) whose t is small (at most MAX_GROWTH nodes),
 * the first of each x: x's value, for the other facts to be decided with;
 * and those facts.
 */
function smallDefinitions(facts: readonly Formula[]): { defined: Map<string, Term>; sources: Set<Formula> } {
  const defined = new Map<string, Term>();
  const sources = new Set<Formula>();
  for (const f of facts) {
    const d = definition(f);
    if (d === null || defined.has(d.name) || termSize(d.term) > MAX_GROWTH) continue;
    defined.set(d.name, d.term);
    sources.add(f);
  }
  return { defined, sources };
}

/**
 * An equality or disequality (rewritten) of a fact that is no source of a
 * definition, decided where its defined variables' terms put in decide it
 * (`W(s2) = W(s3) + 1` with s2 = 2·t1 + r and s3 = 2·t2 + r is false: the
 * parity), else as it is. The definitions are facts, so this is an
 * equivalence; and such a fact is never read by the bounds or the
 * definitions, so none of them is decided with it.
 */
function decidedByDefinitions(f: Formula, defined: ReadonlyMap<string, Term>, bounds: Bounds): Formula {
  if (defined.size === 0 || f.k !== 'cmp' || isBound(f)) return f;
  const mentions = (g: Formula): boolean => [...variableUses(g).keys()].some((x) => defined.has(x));
  if (!mentions(f)) return f;
  // a definition's term may name other defined variables (x = W(s2) + 1, s2 = 2·t1 + r): a few rounds, while it stays small
  let g: Formula = f;
  for (let round = 0; round < DEFINITION_ROUNDS && mentions(g); round++) {
    g = substitute(g, defined);
    if (formulaSize(g) > MAX_DECIDED_SIZE) return f;
  }
  const r = rewrite(g, bounds);
  return r.k === 'const' ? r : f;
}

/** What `x % m = r` says of x. */
interface Residue {
  readonly name: string;
  readonly modulus: bigint;
  readonly residue: bigint;
}

/** `x % m = r` for a natural variable x and numbers m > 0, r: x's residue modulo m. */
function residueOf(f: Formula, declared: ReadonlyMap<string, Declaration>): Residue | null {
  if (f.k !== 'cmp' || f.op !== '==') return null;
  const [mod, r] = f.a.k === 'op' ? [f.a, f.b] : [f.b, f.a];
  if (mod.k !== 'op' || mod.op !== '%' || mod.a.k !== 'var' || mod.b.k !== 'num' || mod.b.v <= 0n || r.k !== 'num') return null;
  const d = declared.get(mod.a.name);
  if (d === undefined || declaredRange(d).min < 0n) return null;
  return { name: mod.a.name, modulus: mod.b.v, residue: r.v };
}

/**
 * With `x % m = r` among the facts, `(x + c) % k` (c ≥ 0 a number, k a
 * divisor of m) is the number (r + c) % k in the other facts: for natural x
 * and c, x + c and r + c differ by a multiple of m, so of k. So is `y % k`
 * with `y = x + c` among the facts. A reduction's `t % 2s = 0 ∧ (t + s) % 2s
 * = 0` is then false once s is a number.
 */
function withResidues(facts: readonly Formula[], declared: ReadonlyMap<string, Declaration>): Formula[] {
  const known = new Map<Formula, Residue>();
  for (const f of facts) {
    const r = residueOf(f, declared);
    if (r !== null) known.set(f, r);
  }
  if (known.size === 0) return [...facts];
  // each residue with the facts it comes from
  const residues = [...known].map(([f, r]) => ({ ...r, from: [f] }));
  // y = x + c (a natural y, c ≥ 0) gives y the residue (r + c) % m of each of x's
  const sources = new Set<Formula>(known.keys());
  for (const f of facts) {
    const d = definition(f);
    const y = d === null ? undefined : declared.get(d.name);
    if (d === null || y === undefined || declaredRange(y).min < 0n) continue;
    const [x, c] = shiftedVariable(d.term);
    for (const [g, r] of [...known].filter(([, k]) => x !== null && k.name === x)) {
      residues.push({ name: d.name, modulus: r.modulus, residue: (r.residue + c) % r.modulus, from: [g, f] });
      sources.add(f);
    }
  }
  // a residue fact that another residue of its variable contradicts makes the facts false
  const contradicted = (f: Formula): boolean => {
    const own = known.get(f)!;
    return residues.some((r) => !r.from.includes(f) && r.name === own.name && r.modulus % own.modulus === 0n && r.residue % own.modulus !== own.residue);
  };
  // (x + c) % k, its parts rewritten already, is a number when x has a residue modulo a multiple of k
  const reduced = (t: Term): Term => {
    if (t.k !== 'op' || t.op !== '%' || t.b.k !== 'num' || t.b.v <= 0n) return t;
    const k = t.b.v;
    const [x, c] = shiftedVariable(t.a);
    const r = x === null ? undefined : residues.find((e) => e.name === x && e.modulus % k === 0n);
    return r === undefined ? t : num((r.residue + c) % k);
  };
  // a fact a residue comes from keeps its own form (a residue fact rewritten by itself would read `r = r`); so does a
  // bound, from which the round's bounds come, which rewrite the equalities the residues come from
  return facts.map((f) => (known.has(f) && contradicted(f) ? FALSE : sources.has(f) || isBound(f) ? f : rebuilt(f, reduced)));
}

/** `x / m` or `x % m` (of the naturals or of a machine type) by a number m > 0: x and m, else null. */
function byNumber(t: Term, o: '/' | '%'): { x: Term; m: bigint } | null {
  return (t.k === 'op' || t.k === 'mop') && t.op === o && t.b.k === 'num' && t.b.v > 0n ? { x: t.a, m: t.b.v } : null;
}

/**
 * `x / m = y / m` as `x = y` (and `≠` as `≠`) where `x % m = r` and
 * `y % m = r` are among the facts (or `x % 2 ≠ 1 − r`), m > 0 a number and
 * the bounds keep x and y non-negative: such a value is m times its quotient plus its remainder
 * (truncated or floored alike). Two threads' `i % 2 = 0 ∧ out[i / 2]`: i1 / 2
 * = i2 / 2 is i1 = i2. The residue facts keep their form.
 */
function withQuotients(facts: readonly Formula[], bounds: Bounds): Formula[] {
  const residueKey = ({ x, m }: { x: Term; m: bigint }): string => `${key(x)} ${m}`;
  const residues = new Map<string, bigint>();
  for (const f of facts) {
    const c = f.k === 'not' ? f.arg : f;
    if (c.k !== 'cmp' || (c.op !== '==' && c.op !== '!=')) continue;
    // `x % 2 ≠ r` (r 0 or 1) is `x % 2 = 1 − r` for the non-negative x the rewrite below requires
    const differs = (c.op === '!=') !== (f.k === 'not');
    for (const [t, r] of [
      [c.a, c.b],
      [c.b, c.a],
    ] as const) {
      const mod = byNumber(t, '%');
      if (mod === null || r.k !== 'num') continue;
      if (!differs) residues.set(residueKey(mod), r.v);
      else if (mod.m === 2n && (r.v === 0n || r.v === 1n)) residues.set(residueKey(mod), 1n - r.v);
    }
  }
  if (residues.size === 0) return [...facts];
  return facts.map((f) => {
    if (f.k !== 'cmp' || (f.op !== '==' && f.op !== '!=')) return f;
    const [p, q] = [byNumber(f.a, '/'), byNumber(f.b, '/')];
    if (p === null || q === null || p.m !== q.m) return f;
    const [rp, rq] = [residues.get(residueKey(p)), residues.get(residueKey(q))];
    if (rp === undefined || rp !== rq) return f;
    if (!nonNegativeInterval(interval(p.x, bounds)) || !nonNegativeInterval(interval(q.x, bounds))) return f;
    return cmp(f.op, p.x, q.x);
  });
}

/**
 * With `x = y ^ z` among the facts (x a variable, `^` of the naturals or of
 * a machine type T), `y ^ z` is x, `x ^ z` is y and `x ^ y` is z in the
 * other facts (T's value of them, modulo 2^w): xor by z is its own inverse.
 * Bitonic sort's partner `ixj = tid ^ j`: `t1 = t2 ^ j ∧ t1 ^ j > t1 ∧
 * t2 ^ j > t2` is `t1 = t2 ^ j ∧ t2 > t1 ∧ t1 > t2`. The definitions keep their form (each would
 * rewrite the other to `x = x`).
 */
function withXorDefinitions(facts: readonly Formula[], declared: ReadonlyMap<string, Declaration>): Formula[] {
  const inverse = new Map<number, Term>();
  const sources = new Set<Formula>();
  for (const f of facts) {
    const d = definition(f);
    const t = d?.term;
    if (d === null || t === undefined || (t.k !== 'op' && t.k !== 'mop') || t.op !== '^') continue;
    const xor = (a: Term, b: Term): Term => (t.k === 'op' ? op('^', a, b) : mop('^', t.type, a, b));
    const value = (u: Term): Term => xorValue(t, u, declared);
    const x = tvar(d.name);
    inverse.set(interner.term(t), x);
    inverse.set(interner.term(xor(t.b, t.a)), x);
    for (const [other, result] of [
      [t.b, t.a],
      [t.a, t.b],
    ] as const) {
      inverse.set(interner.term(xor(x, other)), value(result));
      inverse.set(interner.term(xor(other, x)), value(result));
    }
    sources.add(f);
  }
  if (inverse.size === 0) return [...facts];
  return facts.map((f) => (sources.has(f) ? f : rebuilt(f, (u) => ((u.k === 'op' || u.k === 'mop') && u.op === '^' ? (inverse.get(interner.term(u)) ?? u) : u))));
}

/** What u stands for beside the xor `x`: u itself for the naturals' `^`; for a machine type's, T's value of u (u where its declarations keep it in T's range, else its cast). */
function xorValue(x: Extract<Term, { k: 'op' | 'mop' }>, u: Term, declared: ReadonlyMap<string, Declaration>): Term {
  if (x.k === 'op') return u;
  return withinType(interval(u, noBounds(declared)), x.type) ? u : castTerm(x.type, u);
}

/**
 * `a ^ c = b ^ c` (either way round, of the naturals or of one machine type T) as `a = b`, or T's values of a and b
 * equal: xor by c is one-to-one. Else null.
 */
function xorCancelled(a: Term, b: Term, declared: ReadonlyMap<string, Declaration>): Formula | null {
  if ((a.k !== 'op' && a.k !== 'mop') || (b.k !== 'op' && b.k !== 'mop') || a.op !== '^' || b.op !== '^' || a.k !== b.k) return null;
  if (a.k === 'mop' && b.k === 'mop' && a.type !== b.type) return null;
  const value = (u: Term): Term => xorValue(a, u, declared);
  for (const [c, x] of [
    [a.a, a.b],
    [a.b, a.a],
  ] as const) {
    if (sameTerm(c, b.a)) return eq(value(x), value(b.b));
    if (sameTerm(c, b.b)) return eq(value(x), value(b.a));
  }
  return null;
}

/** Whether the facts are false: one of them is, or two bounds of one linear form contradict each other (`x < y ∧ y < x`). */
function contradictory(facts: readonly Formula[]): boolean {
  return facts.some((f) => f.k === 'const' && !f.v) || formBounds(facts) === null;
}

/**
 * What the top-level bounds say of each linear form F (coefficients without
 * a common divisor, the first positive; keyed by its text): `small < big` is
 * big − small = sign·g·F + c ≥ 1, so F ≥ ⌈(1 − c) / g⌉ (sign 1) or
 * F ≤ ⌊(c − 1) / g⌋ (sign −1), F being an integer. Null when some form's
 * lower bound is above its upper one: the facts are contradictory.
 */
function formBounds(facts: readonly Formula[]): Map<string, Interval> | null {
  const forms = new Map<string, Interval>();
  for (const f of facts) {
    const b = f.k === 'cmp' ? boundOf(f) : null;
    if (b === null) continue;
    const known = forms.get(b.text) ?? ANY;
    const next = { lo: tighter(known.lo, b.lo, true), hi: tighter(known.hi, b.hi, false) };
    if (next.lo !== null && next.hi !== null && next.lo > next.hi) return null;
    forms.set(b.text, next);
  }
  return forms;
}

/** What one bound says of its linear form (formBounds): computed once per fact, which most rounds keep. */
let boundOf = memoizedPerObject(boundOfFact);

function boundOfFact(f: Extract<Formula, { k: 'cmp' }>): { text: string; lo: bigint | null; hi: bigint | null } | null {
  const sides = boundSides(f);
  if (sides === null) return null;
  const { small, big, strict } = sides;
  const d = linearForm(add(poly(big), poly(small), -1n));
  if (d === null) return null;
  const least = strict ? 1n : 0n;
  return d.sign > 0n ? { text: d.text, lo: ceilDiv(least - d.c, d.g), hi: null } : { text: d.text, lo: null, hi: floorDiv(d.c - least, d.g) };
}

/** A polynomial d as sign·g·F + c: F without a constant, its coefficients' gcd g taken out and its first (by text) positive; null for a number. */
function linearForm(d: Poly): { text: string; sign: bigint; g: bigint; c: bigint } | null {
  const c = d.terms.get(ONE) ?? 0n;
  const form = [...d.terms].filter(([m]) => m !== ONE).sort(([m], [n]) => (m < n ? -1 : m > n ? 1 : 0));
  if (form.length === 0) return null;
  const sign = form[0]![1] > 0n ? 1n : -1n;
  const g = form.reduce((x, [, v]) => gcd(x, v), 0n);
  return { text: form.map(([m, v]) => `${m}\u0001${(v * sign) / g}`).join('\u0002'), sign, g, c };
}

const ceilDiv = (n: bigint, d: bigint): bigint => (n >= 0n ? (n + d - 1n) / d : -(-n / d));
const floorDiv = (n: bigint, d: bigint): bigint => (n >= 0n ? n / d : -((-n + d - 1n) / d));

/** x + c (or c + x, or x) as the variable x and the number c ≥ 0; else [null, 0]. A machine `+` is exact where defined, as `+`. */
function shiftedVariable(t: Term): [string | null, bigint] {
  if (t.k === 'var') return [t.name, 0n];
  if ((t.k !== 'op' && t.k !== 'mop') || t.op !== '+') return [null, 0n];
  if (t.a.k === 'var' && t.b.k === 'num' && t.b.v >= 0n) return [t.a.name, t.b.v];
  if (t.b.k === 'var' && t.a.k === 'num' && t.a.v >= 0n) return [t.b.name, t.a.v];
  return [null, 0n];
}

function termSize(t: Term): number {
  switch (t.k) {
    case 'num':
    case 'var':
      return 1;
    case 'op':
    case 'mop':
      return 1 + termSize(t.a) + termSize(t.b);
    case 'cast':
      return 1 + termSize(t.a);
    case 'ite':
      return 1 + formulaSize(t.c) + termSize(t.a) + termSize(t.b);
  }
}

function formulaSize(f: Formula): number {
  switch (f.k) {
    case 'const':
      return 1;
    case 'cmp':
      return 1 + termSize(f.a) + termSize(f.b);
    case 'and':
    case 'or':
      return f.args.reduce((n, g) => n + formulaSize(g), 1);
    case 'not':
      return 1 + formulaSize(f.arg);
  }
}

/** How many times each variable occurs in the fact (computed once per fact object). */
const variableUses = memoizedPerObject(usesOf);

function usesOf(f: Formula): ReadonlyMap<string, number> {
  const out = new Map<string, number>();
  const term = (t: Term): void => {
    switch (t.k) {
      case 'num':
        return;
      case 'var':
        out.set(t.name, (out.get(t.name) ?? 0) + 1);
        return;
      case 'op':
      case 'mop':
        term(t.a);
        return term(t.b);
      case 'cast':
        return term(t.a);
      case 'ite':
        formula(t.c);
        term(t.a);
        return term(t.b);
    }
  };
  const formula = (g: Formula): void => {
    switch (g.k) {
      case 'const':
        return;
      case 'cmp':
        term(g.a);
        return term(g.b);
      case 'and':
      case 'or':
        return g.args.forEach(formula);
      case 'not':
        return formula(g.arg);
    }
  };
  formula(f);
  return out;
}

/** The variable of `x < 1` or `x ≤ 0` (either way round), for a variable that cannot be negative. */
function atMostZero(f: Extract<Formula, { k: 'cmp' }>, declared: ReadonlyMap<string, Declaration>): string | null {
  const sides = boundSides(f);
  if (sides === null) return null;
  const { small: x, big: bound, strict } = sides;
  if (x.k !== 'var' || bound.k !== 'num' || !declared.has(x.name) || declaredRange(declared.get(x.name)!).min < 0n) return null;
  return bound.v === (strict ? 1n : 0n) ? x.name : null;
}

/** What x's declaration said of its value, now said of t (nothing when t's declaration implies it). */
function rangeFacts(d: Declaration, t: Term, declared: ReadonlyMap<string, Declaration>): Formula[] {
  const { min, max } = declaredRange(d);
  const inner = t.k === 'var' ? declared.get(t.name) : undefined;
  if (inner !== undefined) {
    const r = declaredRange(inner);
    if (r.min >= min && r.max <= max) return [];
  }
  return [nonNegative(t, declared) && min <= 0n ? null : cmp('>=', t, num(min)), cmp('<=', t, num(max))].filter((f): f is Formula => f !== null);
}

/** The term rebuilt bottom-up, each node (its parts already rebuilt) passed through `at`, which returns it or its replacement. */
function rebuiltTerm(t: Term, at: (t: Term) => Term): Term {
  switch (t.k) {
    case 'num':
    case 'var':
      return at(t);
    case 'op':
      return at(op(t.op, rebuiltTerm(t.a, at), rebuiltTerm(t.b, at)));
    case 'mop':
      return at(mop(t.op, t.type, rebuiltTerm(t.a, at), rebuiltTerm(t.b, at)));
    case 'cast':
      return at(castTerm(t.type, rebuiltTerm(t.a, at)));
    case 'ite':
      return at(ite(rebuilt(t.c, at), rebuiltTerm(t.a, at), rebuiltTerm(t.b, at)));
  }
}

/** The formula with every term rebuilt by {@link rebuiltTerm}. */
function rebuilt(f: Formula, at: (t: Term) => Term): Formula {
  switch (f.k) {
    case 'const':
      return f;
    case 'cmp':
      return compare(f.op, rebuiltTerm(f.a, at), rebuiltTerm(f.b, at));
    case 'and':
      return and(f.args.map((g) => rebuilt(g, at)));
    case 'or':
      return or(f.args.map((g) => rebuilt(g, at)));
    case 'not':
      return not(rebuilt(f.arg, at));
  }
}

const substituteTerm = (t: Term, by: ReadonlyMap<string, Term>): Term => rebuiltTerm(t, (u) => (u.k === 'var' ? (by.get(u.name) ?? u) : u));

const substitute = (f: Formula, by: ReadonlyMap<string, Term>): Formula => rebuilt(f, (u) => (u.k === 'var' ? (by.get(u.name) ?? u) : u));

/** A comparison, decided when its sides are the same term (every term is a total function of the variables). */
function compare(o: Extract<Formula, { k: 'cmp' }>['op'], a: Term, b: Term): Formula {
  if (sameTerm(a, b)) return { k: 'const', v: o === '==' || o === '<=' || o === '>=' };
  if (o === '==' || o === '!=') {
    const cancelled = withoutCommonSummand(a, b);
    if (cancelled !== null) return compare(o, cancelled[0], cancelled[1]);
  }
  return cmp(o, a, b);
}

/**
 * `(s + x) mod 2^w` and `(s + y) mod 2^w` (two casts to one machine type of
 * exact sums sharing the summand s, as C's unsigned `+` is encoded) are equal
 * exactly when `x mod 2^w` and `y mod 2^w` are: the two casts without s, or
 * null. Without it, the equal indices `base + i` and `base + j` of a wrapping
 * base keep a remainder the solver struggles with, where `i = j` is linear.
 */
function withoutCommonSummand(a: Term, b: Term): [Term, Term] | null {
  if (a.k !== 'cast' || b.k !== 'cast' || a.type !== b.type) return null;
  const summands = (t: Term): readonly [Term, Term] | null => ((t.k === 'op' || t.k === 'mop') && t.op === '+' ? [t.a, t.b] : null);
  const x = summands(a.a);
  const y = summands(b.a);
  if (x === null || y === null) return null;
  for (const [i, j] of [[0, 0], [0, 1], [1, 0], [1, 1]] as const) {
    if (sameTerm(x[i], y[j])) return [castTerm(a.type, x[1 - i]!), castTerm(a.type, y[1 - j]!)];
  }
  return null;
}

// ---------------------------------------------------------------------------
// Polynomials: a map from monomial (sorted atom keys) to coefficient.

interface Poly {
  readonly terms: Map<string, bigint>;
}

const ONE = '';

function constant(v: bigint): Poly {
  return { terms: v === 0n ? new Map() : new Map([[ONE, v]]) };
}

function atom(t: Term): Poly {
  const k = key(t);
  return { terms: new Map([[k, 1n]]) };
}

function add(p: Poly, q: Poly, sign: bigint): Poly {
  const terms = new Map(p.terms);
  for (const [m, c] of q.terms) {
    const v = (terms.get(m) ?? 0n) + sign * c;
    if (v === 0n) terms.delete(m);
    else terms.set(m, v);
  }
  return { terms };
}

/** A monomial's factors: split once per monomial text, since the same monomials come back in every round; one table per simplification, like the interner's. */
let factorsOf = new Map<string, readonly string[]>();
const factors = (m: string): readonly string[] => {
  const known = factorsOf.get(m);
  if (known !== undefined) return known;
  const fs = m === ONE ? [] : m.split('\u0000');
  factorsOf.set(m, fs);
  return fs;
};
const monomial = (fs: readonly string[]): string => [...fs].sort().join('\u0000');

function multiply(p: Poly, q: Poly): Poly | null {
  if (p.terms.size * q.terms.size > MAX_MONOMIALS) return null;
  let out = constant(0n);
  for (const [m, c] of p.terms) {
    for (const [n, d] of q.terms) out = add(out, { terms: new Map([[monomial([...factors(m), ...factors(n)]), c * d]]) }, 1n);
  }
  return out;
}

/**
 * The term as a polynomial: `+`, `*` (and a machine type's `+ - *`, exact values) expanded, anything else an atom.
 * Each node's computed once (nodes are immutable, and so are the polynomials: add and multiply copy).
 */
let poly = memoizedPerObject(polyOf);

function polyOf(t: Term): Poly {
  if (t.k === 'num') return constant(t.v);
  if ((t.k === 'op' || t.k === 'mop') && (t.op === '+' || t.op === '*' || (t.k === 'mop' && t.op === '-'))) {
    const a = poly(t.a);
    const b = poly(t.b);
    if (t.op === '*') return multiply(a, b) ?? atom(t);
    return add(a, b, t.op === '+' ? 1n : -1n);
  }
  return atom(t);
}

/** The polynomial as a term of natural `+` and `*` (exact); its coefficients must be positive. */
function termOf(p: Poly): Term {
  const monomials = [...p.terms].sort(([m], [n]) => (m === ONE ? 1 : n === ONE ? -1 : m < n ? -1 : m > n ? 1 : 0));
  const product = (m: string, c: bigint): Term => factors(m).reduce<Term>((acc, f) => op('*', acc, atomOf(f)), num(c));
  return monomials.reduce<Term>((acc, [m, c]) => op('+', acc, product(m, c)), num(0));
}

const positivePart = (p: Poly, sign: bigint): Poly => ({ terms: new Map([...p.terms].filter(([, c]) => c * sign > 0n).map(([m, c]) => [m, c * sign])) });

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

// ---------------------------------------------------------------------------
// What the facts say of bounds: atom ≤ polynomial, atom ≥ polynomial.

interface Bounds {
  readonly declared: ReadonlyMap<string, Declaration>;
  /** per atom key: polynomials it is at most */
  readonly upper: ReadonlyMap<string, readonly Poly[]>;
  /** per atom key: polynomials it is at least */
  readonly lower: ReadonlyMap<string, readonly Poly[]>;
  /** per linear form: the interval the facts keep it in (formBounds), so that a fact `i < n` decides `i < n` inside another */
  readonly forms: ReadonlyMap<string, Interval>;
  /** intervals computed from these bounds, per term key */
  readonly intervals: Map<string, Interval>;
  /** terms settled under these bounds */
  readonly settled: Map<Term, Term>;
  /** per variable: the terms top-level facts define it as (`x = t`, x not in t), whose intervals x's is within */
  readonly definitions: ReadonlyMap<string, readonly Term[]>;
}

const noBounds = (declared: ReadonlyMap<string, Declaration>): Bounds => ({ declared, upper: new Map(), lower: new Map(), forms: new Map(), intervals: new Map(), settled: new Map(), definitions: new Map() });

/** Whether the top-level fact is one boundsOf reads. */
const isBound = (f: Formula): boolean => f.k === 'cmp' && f.op !== '==' && f.op !== '!=';

/** A bound as `small < big` (strict) or `small ≤ big`, whichever way round it is written; null for `=` and `≠`. */
function boundSides(f: Extract<Formula, { k: 'cmp' }>): { readonly small: Term; readonly big: Term; readonly strict: boolean } | null {
  switch (f.op) {
    case '<':
    case '<=':
      return { small: f.a, big: f.b, strict: f.op === '<' };
    case '>':
    case '>=':
      return { small: f.b, big: f.a, strict: f.op === '>' };
    case '==':
    case '!=':
      return null;
  }
}

/** A comparison with an ite in a side. */
const mentionsIte = (f: Formula): boolean => f.k === 'cmp' && (hasIte(f.a) || hasIte(f.b));

/** A bound (not a range fact) with an ite in it. */
const isIteBound = (f: Formula): boolean => isBound(f) && mentionsIte(f) && !isRangeFact(f);

function hasIte(t: Term): boolean {
  switch (t.k) {
    case 'num':
    case 'var':
      return false;
    case 'ite':
      return true;
    case 'op':
    case 'mop':
      return hasIte(t.a) || hasIte(t.b);
    case 'cast':
      return hasIte(t.a);
  }
}

/** A variable or a number: no operation inside. */
const isAtomic = (t: Term): boolean => t.k === 'var' || t.k === 'num';

/** A bound of an operation's value by a number. */
const isRangeFact = (f: Formula): f is Extract<Formula, { k: 'cmp' }> =>
  isBound(f) && f.k === 'cmp' && ((!isAtomic(f.a) && f.b.k === 'num') || (!isAtomic(f.b) && f.a.k === 'num'));

function boundsOf(facts: readonly Formula[], declared: ReadonlyMap<string, Declaration>): Bounds {
  const upper = new Map<string, Poly[]>();
  const lower = new Map<string, Poly[]>();
  const note = (table: Map<string, Poly[]>, x: Term, bound: Poly): void => {
    const k = key(x);
    table.set(k, [...(table.get(k) ?? []), bound]);
  };
  for (const f of facts) {
    const sides = f.k === 'cmp' ? boundSides(f) : null;
    if (sides === null) continue;
    const { small, big, strict } = sides;
    note(upper, small, strict ? add(poly(big), constant(1n), -1n) : poly(big));
    note(lower, big, strict ? add(poly(small), constant(1n), 1n) : poly(small));
  }
  // (contradictory facts decide nothing here: the round's first step returns false for them)
  return { declared, upper, lower, forms: formBounds(facts) ?? new Map(), intervals: new Map(), settled: new Map(), definitions: new Map() };
}

/** `¬R` or `¬(R1 ∧ R2 ∧ …)` of range facts: an operation's value out of range (what definedness questions ask). */
const outOfRange = (f: Formula): boolean => f.k === 'not' && (isRangeFact(f.arg) || (f.arg.k === 'and' && f.arg.args.every(isRangeFact)));

/** The bounds with more facts' bounds: those of both, each linear form within both intervals. */
function withBounds(outer: Bounds, facts: readonly Formula[]): Bounds {
  const local = boundsOf(facts, outer.declared);
  const merged = <V>(a: ReadonlyMap<string, readonly V[]>, b: ReadonlyMap<string, readonly V[]>): Map<string, readonly V[]> => {
    const out = new Map(a);
    for (const [k, vs] of b) out.set(k, [...(out.get(k) ?? []), ...vs]);
    return out;
  };
  const forms = new Map(outer.forms);
  for (const [text, i] of local.forms) {
    const known = forms.get(text) ?? ANY;
    forms.set(text, { lo: tighter(known.lo, i.lo, true), hi: tighter(known.hi, i.hi, false) });
  }
  return { ...outer, upper: merged(outer.upper, local.upper), lower: merged(outer.lower, local.lower), forms, intervals: new Map(), settled: new Map() };
}

/**
 * The bounds with the facts' definitions `x = t` (x a variable not in t, t
 * compound: an atomic t is substituted) added, and those facts: x's
 * interval is then within t's (a variable the substitution keeps, for it is
 * used too often, such as a named index `share.0 = 16·by + ty`). The same
 * bounds when there is none.
 */
function definitionBounds(facts: readonly Formula[], bounds: Bounds): { bounds: Bounds; sources: ReadonlySet<Formula> } {
  const definitions = new Map<string, Term[]>();
  const sources = new Set<Formula>();
  for (const f of facts) {
    const d = definition(f);
    if (d === null || isAtomic(d.term)) continue;
    definitions.set(d.name, [...(definitions.get(d.name) ?? []), d.term]);
    sources.add(f);
  }
  if (sources.size === 0) return { bounds, sources };
  return { bounds: { ...bounds, intervals: new Map(), settled: new Map(), definitions }, sources };
}

/** Whether p ≥ 0 for every value of its atoms, which are never negative: every coefficient is. */
const provablyNonNegative = (p: Poly, bounds: Bounds): boolean => [...p.terms].every(([m, c]) => c >= 0n && factors(m).every((f) => atomNonNegative(atomOf(f), bounds)));

/** Whether the atom is never negative: by its declaration and operators, or by the facts' bounds (a signed value the facts keep positive). */
const atomNonNegative = (t: Term, bounds: Bounds): boolean => nonNegative(t, bounds.declared) || nonNegativeInterval(interval(t, bounds));

/** Whether the facts prove b ≤ n − 1: each atom of b (linear, non-negative) replaced by an upper bound, n − 1 − b has no negative coefficient. */
function provablyBelow(b: Poly, n: Poly, bounds: Bounds): boolean {
  let rest = add(n, constant(1n), -1n);
  for (const [m, c] of b.terms) {
    if (m === ONE) {
      rest = add(rest, constant(c), -1n);
      continue;
    }
    const fs = factors(m);
    if (fs.length !== 1 || c < 0n) return false;
    const x = atomOf(fs[0]!);
    if (!atomNonNegative(x, bounds)) return false;
    const candidates = [...(bounds.upper.get(fs[0]!) ?? [])];
    if (x.k === 'var') {
      candidates.push(constant(declaredRange(bounds.declared.get(x.name)!).max));
      // what the bounds prove of x (a defined variable: its term's interval)
      const hi = interval(x, bounds).hi;
      if (hi !== null) candidates.push(constant(hi));
    }
    const fit = candidates.map((u) => add(rest, multiplyBy(u, c), -1n)).find((r) => [...r.terms.values()].every((v) => v >= 0n));
    if (fit === undefined) return false;
    rest = fit;
  }
  return [...rest.terms.values()].every((v) => v >= 0n);
}

const multiplyBy = (p: Poly, c: bigint): Poly => ({ terms: new Map([...p.terms].map(([m, v]) => [m, v * c])) });

/**
 * `a·n + b = a'·n + b'` as `a = a' ∧ b = b'`, where the facts prove
 * 0 ≤ b, b' < n. Moduli tried: each coefficient above 1 (n = c), and each
 * atom g with the gcd c of the coefficients of the monomials holding it (n = c·g).
 */
function radixSplit(p: Poly, q: Poly, bounds: Bounds): Formula | null {
  const moduli: { n: Poly; divides: (m: string, c: bigint) => bigint | null; divide: (m: string) => string }[] = [];
  const all = [...p.terms, ...q.terms];
  for (const c of new Set(all.filter(([m, c]) => m !== ONE && c > 1n).map(([, c]) => c))) {
    moduli.push({ n: constant(c), divides: (_m, v) => (v % c === 0n ? v / c : null), divide: (m) => m });
  }
  for (const g of new Set(all.flatMap(([m]) => factors(m)))) {
    const t = atomOf(g);
    const holding = all.filter(([m]) => factors(m).includes(g));
    if (holding.length === 0) continue;
    const c = holding.reduce((acc, [, v]) => gcd(acc, v), 0n);
    if (c <= 0n) continue;
    moduli.push({
      n: multiplyBy(atom(t), c),
      divides: (m, v) => (factors(m).includes(g) && v % c === 0n ? v / c : null),
      divide: (m) => {
        const fs = [...factors(m)];
        fs.splice(fs.indexOf(g), 1);
        return monomial(fs);
      },
    });
  }
  for (const { n, divides, divide } of moduli) {
    const split = (x: Poly): [Poly, Poly] => {
      const high = new Map<string, bigint>();
      const low = new Map<string, bigint>();
      for (const [m, c] of x.terms) {
        const d = divides(m, c);
        if (d === null) low.set(m, c);
        else high.set(divide(m), (high.get(divide(m)) ?? 0n) + d);
      }
      return [
        { terms: high },
        { terms: low },
      ];
    };
    const [a, b] = split(p);
    const [a2, b2] = split(q);
    if (a.terms.size === 0 && a2.terms.size === 0) continue;
    if (b.terms.size === 0 && b2.terms.size === 0) continue;
    if (!provablyNonNegative(b, bounds) || !provablyNonNegative(b2, bounds)) continue;
    if (!provablyBelow(b, n, bounds) || !provablyBelow(b2, n, bounds)) continue;
    return and([equation(a, a2, bounds), equation(b, b2, bounds)]);
  }
  return null;
}

/** p = q in normal form: decided when the difference is a constant or fails the gcd test, else its two sides with the common part cancelled and divided by their gcd. */
function equation(p: Poly, q: Poly, bounds: Bounds): Formula {
  const diff = add(p, q, -1n);
  const k = diff.terms.get(ONE) ?? 0n;
  const variable = [...diff.terms].filter(([m]) => m !== ONE);
  if (variable.length === 0) return { k: 'const', v: k === 0n };
  const g = variable.reduce((acc, [, c]) => gcd(acc, c), 0n);
  if (k % g !== 0n) return FALSE;
  const split = radixSplit(p, q, bounds);
  if (split !== null) return split;
  // divided by the gcd of its coefficients, which divides the constant too: 2·t1 = 2·t2 is t1 = t2
  const reduced = g > 1n ? { terms: new Map([...diff.terms].map(([m, c]) => [m, c / g])) } : diff;
  return compare('==', termOf(positivePart(reduced, 1n)), termOf(positivePart(reduced, -1n)));
}

// ---------------------------------------------------------------------------
// Intervals: what the declarations, the operators and the facts' bounds
// prove of a term's values (null: unbounded on that side). Every interval
// computed holds under the facts; a cycle through the facts' bounds is cut
// (the term in progress is unbounded there), which only loses precision.

interface Interval {
  readonly lo: bigint | null;
  readonly hi: bigint | null;
}

const ANY: Interval = { lo: null, hi: null };
const point = (v: bigint): Interval => ({ lo: v, hi: v });
const plusOrNull = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a + b);
const sumOf = (a: Interval, b: Interval): Interval => ({ lo: plusOrNull(a.lo, b.lo), hi: plusOrNull(a.hi, b.hi) });
const negated = (a: Interval): Interval => ({ lo: a.hi === null ? null : -a.hi, hi: a.lo === null ? null : -a.lo });
const hullOf = (a: Interval, b: Interval): Interval => ({ lo: a.lo === null || b.lo === null ? null : a.lo < b.lo ? a.lo : b.lo, hi: a.hi === null || b.hi === null ? null : a.hi > b.hi ? a.hi : b.hi });
const tighter = (a: bigint | null, b: bigint | null, higher: boolean): bigint | null => (a === null ? b : b === null ? a : higher === a > b ? a : b);

/** k·i for a number k ≠ 0, open ends kept open. */
const scaled = (i: Interval, k: bigint): Interval => {
  const [lo, hi] = [i.lo === null ? null : i.lo * k, i.hi === null ? null : i.hi * k];
  return k > 0n ? { lo, hi } : { lo: hi, hi: lo };
};

function productOf(a: Interval, b: Interval): Interval {
  if (a.lo !== null && a.hi !== null && b.lo !== null && b.hi !== null) {
    const corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
    return { lo: corners.reduce((x, y) => (x < y ? x : y)), hi: corners.reduce((x, y) => (x > y ? x : y)) };
  }
  if (a.lo !== null && b.lo !== null && a.lo >= 0n && b.lo >= 0n) return { lo: a.lo * b.lo, hi: null };
  return ANY;
}

const nonNegativeInterval = (i: Interval): boolean => i.lo !== null && i.lo >= 0n;

/** Whether every value of the interval is one of the type's: a cast of them is the identity. */
const withinType = (i: Interval, type: MachineType): boolean => i.lo !== null && i.hi !== null && i.lo >= typeMin(type) && i.hi <= typeMax(type);

/**
 * The interval of t under the bounds. Bounds go round (`t1 < b`, `t2 < b`:
 * b's lower bounds read t1, whose upper bound reads b), so while t's
 * interval is computed, t counts as within what its declaration and its
 * bounds by numbers alone say (`b ≤ 1024`): unbounded, t1 would be kept
 * unbounded for good where b was asked first, and the cast of `t1 + t2·b`
 * stayed.
 */
function interval(t: Term, bounds: Bounds): Interval {
  const k = key(t);
  const known = bounds.intervals.get(k);
  if (known !== undefined) return known;
  const constantBound = (ps: readonly Poly[] | undefined, higher: boolean, start: bigint | null): bigint | null =>
    (ps ?? []).reduce((b, p) => (p.terms.size === 0 || (p.terms.size === 1 && p.terms.has(ONE)) ? tighter(b, p.terms.get(ONE) ?? 0n, higher) : b), start);
  const own = structuralOwn(t, bounds);
  bounds.intervals.set(k, { lo: constantBound(bounds.lower.get(k), true, own.lo), hi: constantBound(bounds.upper.get(k), false, own.hi) });
  let r = structuralInterval(t, bounds);
  for (const u of bounds.upper.get(k) ?? []) r = { lo: r.lo, hi: tighter(r.hi, polyInterval(u, bounds).hi, false) };
  for (const l of bounds.lower.get(k) ?? []) r = { lo: tighter(r.lo, polyInterval(l, bounds).lo, true), hi: r.hi };
  for (const d of t.k === 'var' ? (bounds.definitions.get(t.name) ?? []) : []) {
    const i = interval(d, bounds);
    r = { lo: tighter(r.lo, i.lo, true), hi: tighter(r.hi, i.hi, false) };
  }
  bounds.intervals.set(k, r);
  return r;
}

/** A variable's declared range and a number's value; any other term: unbounded (what is known of t before reading anything else). */
function structuralOwn(t: Term, bounds: Bounds): Interval {
  if (t.k === 'num') return point(t.v);
  if (t.k !== 'var') return ANY;
  const d = bounds.declared.get(t.name);
  if (d === undefined) return ANY;
  const { min, max } = declaredRange(d);
  return { lo: min, hi: max };
}

function structuralInterval(t: Term, bounds: Bounds): Interval {
  switch (t.k) {
    case 'num':
      return point(t.v);
    case 'var': {
      const d = bounds.declared.get(t.name);
      if (d === undefined) return ANY;
      const { min, max } = declaredRange(d);
      return { lo: min, hi: max };
    }
    case 'op':
    case 'mop': {
      const [a, b] = [interval(t.a, bounds), interval(t.b, bounds)];
      switch (t.op) {
        case '+':
          return sumOf(a, b);
        case '*':
          return productOf(a, b);
        case '-': {
          const exact = sumOf(a, negated(b));
          // the naturals' `-` is truncated at 0
          if (t.k === 'mop') return exact;
          return { lo: exact.lo === null || exact.lo < 0n ? 0n : exact.lo, hi: exact.hi === null ? null : exact.hi < 0n ? 0n : exact.hi };
        }
        default: {
          const known = boundedByConstant(t, a);
          if (known !== null) return known;
          if (t.k === 'mop') return ['&', '|', '^'].includes(t.op) ? { lo: typeMin(t.type), hi: typeMax(t.type) } : ANY;
          // x / y, x % y (x / 0 = 0, x % 0 = x), x >> y and x & y of naturals are at most x
          if (nonNegativeInterval(a) && nonNegativeInterval(b) && ['/', '%', '>>', '&'].includes(t.op)) return { lo: 0n, hi: a.hi };
          return nonNegativeInterval(a) && nonNegativeInterval(b) ? { lo: 0n, hi: null } : ANY;
        }
      }
    }
    case 'cast': {
      const a = interval(t.a, bounds);
      return withinType(a, t.type) ? a : { lo: typeMin(t.type), hi: typeMax(t.type) };
    }
    case 'ite':
      return hullOf(interval(t.a, bounds), interval(t.b, bounds));
  }
}

/**
 * `x & c` with a number c ≥ 0 is in [0, c] (the bits of c, on a machine type
 * too where c is of the type: the value wraps to itself); C's `x % c` with a
 * number c ≠ 0 has the sign of x and a magnitude below |c|. `a` is x's
 * interval. Else null.
 */
function boundedByConstant(t: Extract<Term, { k: 'op' | 'mop' }>, a: Interval): Interval | null {
  if (t.op === '&') {
    const c = t.b.k === 'num' ? t.b.v : t.a.k === 'num' ? t.a.v : null;
    if (c === null || c < 0n || (t.k === 'mop' && c > typeMax(t.type))) return null;
    return { lo: 0n, hi: c };
  }
  if (t.op === '%' && t.b.k === 'num' && t.b.v !== 0n) {
    const most = (t.b.v < 0n ? -t.b.v : t.b.v) - 1n;
    if (nonNegativeInterval(a)) return { lo: 0n, hi: a.hi !== null && a.hi < most ? a.hi : most };
    return { lo: -most, hi: a.hi !== null && a.hi <= 0n ? 0n : most };
  }
  return null;
}

function polyInterval(p: Poly, bounds: Bounds): Interval {
  let out = point(0n);
  for (const [m, c] of p.terms) {
    const value = factors(m).reduce<Interval>((acc, f) => productOf(acc, interval(atomOf(f), bounds)), point(c));
    out = sumOf(out, value);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Wrap-around: a machine integer's value is its exact value reduced into a
// window of width 2^width, by C's cast or by the one-wrap case split that
// Builder.cast (src/encode/query.ts) writes for it.

/** A term W(x) computed from x alone whose value differs from x by a multiple of the modulus. */
interface Wrapped {
  readonly x: Term;
  readonly modulus: bigint;
  /** W itself: two wrapped terms of one shape are one function of their x */
  readonly shape: string;
}

/** `cast(T, x)`, or `ite(x ⋈ K, x, x ± M)` (one wrap by M > 0): x, the modulus and the shape, else null. */
function wrapped(t: Term): Wrapped | null {
  if (t.k === 'cast') return { x: t.a, modulus: 1n << BigInt(WIDTH[t.type]), shape: `cast ${t.type}` };
  if (t.k !== 'ite' || t.c.k !== 'cmp' || t.c.b.k !== 'num' || !sameTerm(t.c.a, t.a)) return null;
  const e = t.b;
  if ((e.k !== 'op' && e.k !== 'mop') || e.b.k !== 'num' || e.b.v <= 0n || !sameTerm(e.a, t.a)) return null;
  // the naturals' `-` is truncated: only the machine one is exact
  if (e.op !== '+' && !(e.op === '-' && e.k === 'mop')) return null;
  return { x: t.a, modulus: e.b.v, shape: `ite ${t.c.op} ${t.c.b.v} ${e.op} ${e.b.v}` };
}

/**
 * `W(x) = W(y)` as `x = y` where the bounds prove |x − y| < M: W(x) − W(y)
 * differs from x − y by a multiple of M, which is then 0; and the same
 * function of equal values is equal. Null when not of that shape or not proved.
 */
function unwrapped(a: Term, b: Term, bounds: Bounds): Formula | null {
  const [u, v] = [wrapped(a), wrapped(b)];
  if (u === null || v === null || u.shape !== v.shape) return null;
  return withinOneWindow(u.x, v.x, u.modulus, bounds) ? eq(u.x, v.x) : null;
}

/**
 * `W(x) + P = W(y) + Q`, W one one-wrap case split `ite(t ⋈ K, t, t ∓ M)`
 * (the same K and M for both: `(int) g1 + m1 = (int) g2 + m2`, two threads'
 * wrapped global index plus a small offset, as Builder.cast writes them),
 * as a disjunction of linear cases on whether x and y wrap: W(t) is
 * t ∓ M·[¬(t ⋈ K)], so with D = x + P − (y + Q) the equality is
 * `D = 0 ∧ (x ⋈ K ⇔ y ⋈ K)`, or `D = ±M` with x wrapped and y not, or
 * `D = ∓M` the other way round; a case whose D the bounds exclude is left
 * out (where they prove |D| < M, only the first is left). The sides are
 * polynomials over their atoms: W(x) and W(y) must be two of them, with
 * coefficients 1 and −1. What is left has no case split inside a term and
 * is linear in the atoms, where z3 (the WebAssembly build, alone) spent
 * minutes on some of these equalities with nonlinear x and y
 * (`blockIdx.x * blockDim.x + threadIdx.x` in two blocks, issue 29). Null
 * when not of that shape.
 */
function unwrappedSums(a: Term, b: Term, bounds: Bounds): Formula | null {
  const d = add(poly(a), poly(b), -1n);
  const found = new Map<bigint, { t: Extract<Term, { k: 'ite' }>; w: Wrapped }>();
  for (const [m, c] of d.terms) {
    const fs = factors(m);
    if (fs.length !== 1) continue;
    const t = atomOf(fs[0]!);
    const w = t.k === 'ite' ? wrapped(t) : null;
    if (t.k !== 'ite' || w === null) continue;
    // a third wrapped atom, or one with another coefficient: not this shape
    if ((c !== 1n && c !== -1n) || found.has(c)) return null;
    found.set(c, { t, w });
  }
  const [u, v] = [found.get(1n), found.get(-1n)];
  if (u === undefined || v === undefined || u.w.shape !== v.w.shape) return null;
  const rest = add(add(d, atom(u.t), -1n), atom(v.t), 1n);
  const difference = add(add(rest, poly(u.w.x), 1n), poly(v.w.x), -1n);
  // D's interval from its polynomial (common parts cancel) and from x's and y's own intervals (their bounds as terms)
  const [i, j] = [polyInterval(difference, bounds), sumOf(polyInterval(rest, bounds), sumOf(interval(u.w.x, bounds), negated(interval(v.w.x, bounds))))];
  const lo = tighter(i.lo, j.lo, true);
  const hi = tighter(i.hi, j.hi, false);
  const possible = (value: bigint): boolean => (lo === null || lo <= value) && (hi === null || value <= hi);
  const is = (value: bigint): Formula => {
    const e = add(difference, constant(value), -1n);
    return compare('==', termOf(positivePart(e, 1n)), termOf(positivePart(e, -1n)));
  };
  // W(t) = t + s·M·[¬(t ⋈ K)]: s is −1 for `t − M`, 1 for `t + M`; A − B = D + s·M·([¬(x ⋈ K)] − [¬(y ⋈ K)])
  const e = u.t.b;
  const sM = (e.k === 'op' || e.k === 'mop') && e.op === '-' ? -u.w.modulus : u.w.modulus;
  const [cx, cy] = [u.t.c, v.t.c];
  const cases: Formula[] = [];
  if (possible(0n)) cases.push(and([is(0n), or([and([cx, cy]), and([not(cx), not(cy)])])]));
  if (possible(-sM)) cases.push(and([is(-sM), not(cx), cy]));
  if (possible(sM)) cases.push(and([is(sM), cx, not(cy)]));
  return or(cases);
}

/**
 * `W(x) = c` for a number c: W(x) differs from x by a multiple of the
 * modulus M, so x is one of c + k·M. Where the bounds leave x one such value
 * v, it is `x = v` if W(v) = c and false otherwise; where they leave none,
 * false (`(u32) n = 64` for an int n is n = 64). Null otherwise.
 */
function unwrappedNumber(a: Term, b: Term, bounds: Bounds): Formula | null {
  const [t, c] = b.k === 'num' ? [a, b.v] : a.k === 'num' ? [b, a.v] : [null, 0n];
  const w = t === null ? null : wrapped(t);
  if (t === null || w === null) return null;
  const i = interval(w.x, bounds);
  if (i.lo === null || i.hi === null) return null;
  // the k with lo ≤ c + k·M ≤ hi
  const [first, last] = [ceilDiv(i.lo - c, w.modulus), floorDiv(i.hi - c, w.modulus)];
  if (first > last) return FALSE;
  if (first !== last) return null;
  const v = c + first * w.modulus;
  return atValue(t, v) === c ? eq(w.x, num(v)) : FALSE;
}

/** The number W(v): the wrapped term with its x a number v. */
function atValue(t: Term, v: bigint): bigint | null {
  const x = num(v);
  if (t.k === 'cast') {
    const r = castTerm(t.type, x);
    return r.k === 'num' ? r.v : null;
  }
  if (t.k !== 'ite' || t.c.k !== 'cmp' || (t.b.k !== 'op' && t.b.k !== 'mop')) return null;
  const e = t.b;
  const r = ite(cmp(t.c.op, x, t.c.b), x, e.k === 'op' ? op(e.op, x, e.b) : mop(e.op, e.type, x, e.b));
  return r.k === 'num' ? r.v : null;
}

/** Whether the bounds prove −m < x − y < m: from the difference's polynomial (common parts cancel), or from x's and y's own intervals. */
function withinOneWindow(x: Term, y: Term, m: bigint, bounds: Bounds): boolean {
  const below = (i: Interval): boolean => i.lo !== null && i.hi !== null && i.lo > -m && i.hi < m;
  if (below(polyInterval(add(poly(x), poly(y), -1n), bounds))) return true;
  const [i, j] = [interval(x, bounds), interval(y, bounds)];
  return i.lo !== null && i.hi !== null && j.lo !== null && j.hi !== null && below({ lo: i.lo - j.hi, hi: i.hi - j.lo });
}

/** The formula with its equalities of sums and products normalised, where that decides or shortens them. */
function rewrite(f: Formula, bounds: Bounds): Formula {
  switch (f.k) {
    case 'const':
      return f;
    case 'cmp': {
      const [a, b] = [settled(f.a, bounds), settled(f.b, bounds)];
      const known = decided(f.op, a, b, bounds);
      if (known !== null) return { k: 'const', v: known };
      if (f.op !== '==' && f.op !== '!=') return compare(f.op, a, b);
      const selected = selection(a, b) ?? selection(b, a);
      if (selected !== null) {
        const same = rewrite(selected, bounds);
        return f.op === '==' ? same : not(same);
      }
      const cancelled = xorCancelled(a, b, bounds.declared);
      if (cancelled !== null) {
        const same = rewrite(cancelled, bounds);
        return f.op === '==' ? same : not(same);
      }
      const unwrap = unwrapped(a, b, bounds) ?? unwrappedNumber(a, b, bounds) ?? (splittingWraps ? unwrappedSums(a, b, bounds) : null);
      if (unwrap !== null) {
        const same = rewrite(unwrap, bounds);
        return f.op === '==' ? same : not(same);
      }
      const p = poly(a);
      const q = poly(b);
      const size = p.terms.size + q.terms.size;
      const e = equation(p, q, bounds);
      // an equality the normal form neither decides, splits nor shortens is left as written; shorter is fewer monomials,
      // or as many written smaller (`(t1 + 3) − 3 = (t2 + 3) − 3` is `t1 = t2`, which the substitution then reads)
      const shorter = e.k !== 'cmp' || size > poly(e.a).terms.size + poly(e.b).terms.size || termSize(e.a) + termSize(e.b) < termSize(a) + termSize(b);
      const same = shorter ? e : compare('==', a, b);
      return f.op === '==' ? same : not(same);
    }
    case 'and': {
      // a conjunction inside another formula (a case of a disjunction) that says some operation is out of range: that
      // is rewritten under its bounds too (`k < 4 ∧ ¬(k + 1 ≤ 2^31 − 1)` is false), its bounds under the outer ones only
      // (only there: new bounds for every case of a race question's disjunction would cost more than they decide)
      const inner = f.args.some(isBound) && f.args.some(outOfRange) ? withBounds(bounds, f.args.filter(isBound)) : bounds;
      return and(f.args.map((g) => rewrite(g, isBound(g) ? bounds : inner)));
    }
    case 'or':
      return factoring ? factored(or(f.args.map((g) => rewrite(g, bounds)))) : or(f.args.map((g) => rewrite(g, bounds)));
    case 'not':
      return not(rewrite(f.arg, bounds));
  }
}

/**
 * A disjunction with the conjuncts common to all its cases taken out:
 * `(x ∧ A) ∨ (x ∧ B)` is `x ∧ (A ∨ B)`. A race query's thread at one of
 * several points has its index equal to that point's in each case
 * (`t1.point = k ∧ path_k ∧ t1.index = e_k`); where every e_k is the same
 * (`s[tid]` written and read back), the equality comes out, and the
 * substitution then reads it (src/encode/query.ts, arrayQuery).
 */
function factored(f: Formula): Formula {
  if (f.k !== 'or') return f;
  const cases = f.args.map((c) => (c.k === 'and' ? c.args : [c]));
  const ids = cases.map((c) => new Set(c.map((g) => interner.formula(g))));
  const common = cases[0]!.filter((g, i) => ids.every((set) => set.has(interner.formula(g))) && cases[0]!.findIndex((h) => sameFormula(h, g)) === i);
  if (common.length === 0) return f;
  const taken = new Set(common.map((g) => interner.formula(g)));
  return and([...common, or(cases.map((c) => and(c.filter((g) => !taken.has(interner.formula(g))))))]);
}

/**
 * `k = ite(c, x, y)` of numbers k, x, y as a formula of c (how a formula
 * named once, src/encode/share.ts, is asserted: `1 = ite(F, 1, 0)` is F), so
 * that the rewrites reach inside it; else null.
 */
function selection(k: Term, t: Term): Formula | null {
  if (k.k !== 'num' || t.k !== 'ite' || t.a.k !== 'num' || t.b.k !== 'num') return null;
  return or([and([{ k: 'const', v: t.a.v === k.v }, t.c]), and([{ k: 'const', v: t.b.v === k.v }, not(t.c)])]);
}

/** `a ⋈ b` where the bounds decide it: from the interval of a − b (common parts cancel) or of a and b themselves; else null. */
function decided(o: CmpOp, a: Term, b: Term, bounds: Bounds): boolean | null {
  const [i, j] = [interval(a, bounds), interval(b, bounds)];
  const sides = sumOf(i, negated(j));
  // of two different variables or numbers, the difference's interval is the sides' (nothing cancels)
  const apart = isAtomic(a) && isAtomic(b) && !sameTerm(a, b);
  const difference = apart && bounds.forms.size === 0 ? null : add(poly(a), poly(b), -1n);
  const differences = apart || difference === null ? [sides] : [polyInterval(difference, bounds), sides];
  if (difference !== null && bounds.forms.size > 0) {
    // a − b = sign·g·F + c for a form F the facts bound (`s.i < p.m` among the facts decides `s.i < p.m` in a path)
    const d = linearForm(difference);
    const known = d === null ? undefined : bounds.forms.get(d.text);
    if (d !== null && known !== undefined) differences.push(sumOf(scaled(known, d.sign * d.g), point(d.c)));
  }
  for (const d of differences) {
    const below = (v: bigint): boolean => d.hi !== null && d.hi < v;
    const above = (v: bigint): boolean => d.lo !== null && d.lo > v;
    const known = ((): boolean | null => {
      switch (o) {
        case '<':
          return below(0n) ? true : above(-1n) ? false : null;
        case '<=':
          return below(1n) ? true : above(0n) ? false : null;
        case '>':
          return above(0n) ? true : below(1n) ? false : null;
        case '>=':
          return above(-1n) ? true : below(0n) ? false : null;
        case '==':
          return above(0n) || below(0n) ? false : d.lo === 0n && d.hi === 0n ? true : null;
        case '!=':
          return above(0n) || below(0n) ? true : d.lo === 0n && d.hi === 0n ? false : null;
      }
    })();
    if (known !== null) return known;
  }
  return null;
}

/**
 * The naturals' truncated `a − b` as a sum of products where a − b, in
 * normal form, is one whose coefficients are positive over non-negative
 * atoms: the difference is then never below 0, so nothing is truncated, and
 * the polynomial normal form reads it (`(2·t + 1) − 1` is `2·t`). Else null.
 */
function exactDifference(a: Term, b: Term, bounds: Bounds): Term | null {
  const difference = add(poly(a), poly(b), -1n);
  return difference.terms.size <= MAX_MONOMIALS && provablyNonNegative(difference, bounds) ? termOf(difference) : null;
}

/** The term with each ite whose condition the bounds decide replaced by that branch (each shared node settled once). */
function settled(t: Term, bounds: Bounds): Term {
  const known = bounds.settled.get(t);
  if (known !== undefined) return known;
  const out = settledOf(t, bounds);
  bounds.settled.set(t, out);
  return out;
}

function settledOf(t: Term, bounds: Bounds): Term {
  switch (t.k) {
    case 'num':
    case 'var':
      return t;
    case 'op':
    case 'mop': {
      const [a, b] = [settled(t.a, bounds), settled(t.b, bounds)];
      if (t.k === 'op' && t.op === '-') {
        const exact = exactDifference(a, b, bounds);
        if (exact !== null) return exact;
      }
      if (a === t.a && b === t.b) return t;
      return t.k === 'op' ? op(t.op, a, b) : mop(t.op, t.type, a, b);
    }
    case 'cast': {
      const a = settled(t.a, bounds);
      if (withinType(interval(a, bounds), t.type)) return a;
      return a === t.a ? t : castTerm(t.type, a);
    }
    case 'ite': {
      if (t.c.k === 'cmp') {
        const [x, y] = [settled(t.c.a, bounds), settled(t.c.b, bounds)];
        const known = decided(t.c.op, x, y, bounds);
        if (known !== null) return settled(known ? t.a : t.b, bounds);
        const [a, b] = [settled(t.a, bounds), settled(t.b, bounds)];
        return x === t.c.a && y === t.c.b && a === t.a && b === t.b ? t : ite(cmp(t.c.op, x, y), a, b);
      }
      // any other condition is rewritten under the bounds, which may decide it
      const c = rewrite(t.c, bounds);
      if (c.k === 'const') return settled(c.v ? t.a : t.b, bounds);
      const [a, b] = [settled(t.a, bounds), settled(t.b, bounds)];
      return sameFormula(c, t.c) && a === t.a && b === t.b ? t : ite(c, a, b);
    }
  }
}
