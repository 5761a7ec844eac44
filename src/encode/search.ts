/**
 * Models found by evaluation, before any solver. Most satisfiable queries
 * (a race between threads 0 and 1, a launch in scope, a barrier some thread
 * misses) have a model of small values, and a solver round trip costs tens
 * of milliseconds: a bounded depth-first search over a few candidate values
 * per variable finds such a model in microseconds.
 *
 * The search is exact where it answers: a model it returns satisfies every
 * assertion and declaration range, each evaluated as the interpreter computes
 * (src/encode/evaluate.ts), as a solver's model is checked. It never answers
 * unsat: when its budget is spent the query goes to the solver. The budget
 * is counted in candidate values tried and formula nodes evaluated, not in
 * time, so the same query gets the same answer on every machine.
 *
 * Candidates for a variable, smallest magnitude first (so that witnesses come
 * out small): 0, 1, 2, 3; the roots of the comparisons it completes, each
 * ±1 (`x = t`, `x < n`: the values that make them tight), found by evaluating
 * the comparison's two sides at x = 0 and x = 1 and solving as if linear
 * (only a candidate: the value is checked like any other); and its declared
 * range's ends. Variables are assigned in an order that completes
 * assertions early, so that a wrong choice is refuted near the root; when a
 * variable has no value left, the search goes back to the latest variable
 * the failed facts read, not merely the previous one (a block of one thread
 * leaves no second thread, whatever the loop counter assigned in between).
 */
import { evalFormula, evalTerm, type Valuation } from './evaluate.js';
import { declaredRange, type Declaration } from './smtlib.js';
import { distinctNodes, formulaVars, termVars, type Formula, type Term } from './term.js';

/** Candidate values tried per query, at most: a few hundred evaluations of small formulas, well under a millisecond or two. */
export const SEARCH_BUDGET = 600;
/**
 * Formula and term nodes evaluated per query, at most: on a query with large
 * facts each candidate costs more, and this bounds the whole search to a few
 * milliseconds (a fact's nodes, each counted once, per evaluation of it).
 */
export const WORK_BUDGET = 50_000;

const SMALL: readonly bigint[] = [0n, 1n, 2n, 3n];
/** more candidates for a variable a bitwise operation reads (a mask, a size, a partner `t ^ j`): the next powers of two */
const POWERS: readonly bigint[] = [4n, 8n];
const BITWISE: ReadonlySet<string> = new Set(['&', '|', '^', '<<', '>>']);
/** comparisons of a fact whose roots are candidates, at most (a long disjunction gives its first ones) */
const MAX_ROOTED = 16;

/**
 * A model of the assertions (every declared variable given a value in its
 * range) found within `budget` candidate values, or null.
 */
export function searchedModel(declarations: readonly Declaration[], assertions: readonly Formula[], budget: number = SEARCH_BUDGET): Map<string, bigint> | null {
  const facts = conjuncts(assertions);
  if (facts.some((f) => f.k === 'const' && !f.v)) return null;
  const ranges = new Map(declarations.map((d) => [d.name, declaredRange(d)]));
  const varsOf = facts.map((f) => formulaVars(f));
  // a variable no declaration ranges is outside what this search can value
  if (varsOf.some((vs) => [...vs].some((v) => !ranges.has(v)))) return null;
  const order = assignmentOrder(declarations.map((d) => d.name), varsOf);
  const bitwise = bitwiseVariables(facts);
  // the facts each depth completes: checked as soon as their last variable is given a value
  const depthOf = new Map(order.map((v, i) => [v, i]));
  const completed: Formula[][] = order.map(() => []);
  const ground: Formula[] = [];
  facts.forEach((f, i) => {
    const depth = Math.max(-1, ...[...varsOf[i]!].map((v) => depthOf.get(v)!));
    (depth < 0 ? ground : completed[depth]!).push(f);
  });
  const model = new Map<string, bigint>();
  const value: Valuation = (name) => {
    const v = model.get(name);
    if (v === undefined) throw new Error(`search: ${name} has no value yet`);
    return v;
  };
  if (!ground.every((f) => holds(f, value))) return null;
  // per depth: what checking its facts costs, and what finding their roots does (four evaluations)
  const cost = completed.map((fs) => fs.reduce((n, f) => n + distinctNodes(f), 1));
  // per depth and fact: the earlier depths whose values the fact also reads
  const earlier = completed.map((fs, depth) => fs.map((f) => [...formulaVars(f)].map((v) => depthOf.get(v)!).filter((d) => d !== depth)));
  let spent = 0;
  let work = 0;
  /**
   * A model of the depths from `depth` on, or the earlier depths whose values
   * the failure depends on (conflict-directed backjumping): a depth the
   * failure does not name is not retried, as no other value of it can help,
   * and the search jumps back to the deepest depth named. `exhausted` when a
   * budget is spent.
   */
  const assign = (depth: number): true | Set<number> | 'exhausted' => {
    if (depth === order.length) return true;
    const x = order[depth]!;
    work += 4 * cost[depth]!;
    if (work > WORK_BUDGET) return 'exhausted';
    const conflict = new Set<number>();
    for (const v of candidates(x, ranges.get(x)!, completed[depth]!, model, bitwise.has(x))) {
      work += cost[depth]!;
      if (spent++ >= budget || work > WORK_BUDGET) return 'exhausted';
      model.set(x, v);
      const failed = completed[depth]!.findIndex((f) => !holds(f, value));
      if (failed >= 0) {
        for (const d of earlier[depth]![failed]!) conflict.add(d);
        continue;
      }
      const deeper = assign(depth + 1);
      if (deeper === true || deeper === 'exhausted') return deeper;
      if (!deeper.has(depth)) {
        model.delete(x);
        return deeper;
      }
      for (const d of deeper) if (d !== depth) conflict.add(d);
    }
    model.delete(x);
    return conflict;
  };
  return assign(0) === true ? model : null;
}

/** Whether the fact holds; a value too large to compute (a huge shift or product) refutes the candidate, as no model is made of it. */
function holds(f: Formula, value: Valuation): boolean {
  try {
    return evalFormula(f, value);
  } catch (e) {
    if (e instanceof RangeError) return false;
    throw e;
  }
}

function conjuncts(fs: readonly Formula[]): Formula[] {
  return fs.flatMap((f) => (f.k === 'and' ? conjuncts(f.args) : f.k === 'const' && f.v ? [] : [f]));
}

/**
 * Variables in the order they are given values: next, the one that
 * completes the most facts (ties: the one declared first), so that facts are
 * checked as early as they can be.
 */
function assignmentOrder(declared: readonly string[], varsOf: readonly Set<string>[]): string[] {
  const names = [...new Set(declared)];
  const order: string[] = [];
  const done = new Set<string>();
  const missing = varsOf.map((vs) => vs.size);
  // per variable, how many facts it alone still misses, kept as variables are placed, and the best found from a heap of
  // (count, declaration) entries, stale ones skipped: counting over every fact at each step made this cubic (100
  // nested loops spent a fifth of verify here)
  const position = new Map(names.map((n, i) => [n, i]));
  const completes = names.map(() => 0);
  const factsOf = names.map((): number[] => []);
  varsOf.forEach((vs, i) => {
    for (const v of vs) factsOf[position.get(v)!]!.push(i);
    if (vs.size === 1) for (const v of vs) completes[position.get(v)!]!++;
  });
  const heap = new MaxHeap();
  names.forEach((_, i) => heap.push(completes[i]!, i));
  while (order.length < names.length) {
    const [count, i] = heap.pop();
    const best = names[i]!;
    if (done.has(best) || count !== completes[i]) continue;
    order.push(best);
    done.add(best);
    for (const f of factsOf[i]!) {
      if (--missing[f]! !== 1) continue;
      for (const v of varsOf[f]!) {
        if (done.has(v)) continue;
        const j = position.get(v)!;
        heap.push(++completes[j]!, j);
      }
    }
  }
  return order;
}

/** (count, index) pairs, the largest count first and of equal counts the smallest index. */
class MaxHeap {
  private readonly items: [number, number][] = [];

  private static before(a: [number, number], b: [number, number]): boolean {
    return a[0] > b[0] || (a[0] === b[0] && a[1] < b[1]);
  }

  push(count: number, index: number): void {
    const items = this.items;
    items.push([count, index]);
    for (let i = items.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (!MaxHeap.before(items[i]!, items[up]!)) break;
      [items[i], items[up]] = [items[up]!, items[i]!];
      i = up;
    }
  }

  pop(): [number, number] {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && MaxHeap.before(items[l]!, items[m]!)) m = l;
        if (r < items.length && MaxHeap.before(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** The variables in an operand of a bitwise operation. */
function bitwiseVariables(facts: readonly Formula[]): Set<string> {
  const out = new Set<string>();
  const seen = new Set<Term | Formula>();
  const visit = (x: Term | Formula): void => {
    if (seen.has(x)) return;
    seen.add(x);
    switch (x.k) {
      case 'num':
      case 'var':
      case 'const':
        return;
      case 'op':
      case 'mop':
        if (BITWISE.has(x.op)) {
          termVars(x.a, out);
          termVars(x.b, out);
        }
        visit(x.a);
        return visit(x.b);
      case 'cmp':
        visit(x.a);
        return visit(x.b);
      case 'cast':
        return visit(x.a);
      case 'ite':
        visit(x.c);
        visit(x.a);
        return visit(x.b);
      case 'and':
      case 'or':
        return x.args.forEach(visit);
      case 'not':
        return visit(x.arg);
    }
  };
  facts.forEach(visit);
  return out;
}

/** The values x may take, smallest magnitude first, within its range. */
function candidates(x: string, range: { min: bigint; max: bigint }, facts: readonly Formula[], model: Map<string, bigint>, bitwise: boolean): bigint[] {
  const found = new Set<bigint>(bitwise ? [...SMALL, ...POWERS] : SMALL);
  for (const f of facts) for (const r of roots(f, x, model)) for (const d of [-1n, 0n, 1n]) found.add(r + d);
  found.add(range.min);
  found.add(range.max);
  const magnitude = (v: bigint): bigint => (v < 0n ? -v : v);
  return [...found].filter((v) => v >= range.min && v <= range.max).sort((a, b) => (magnitude(a) === magnitude(b) ? (a < b ? 1 : -1) : magnitude(a) < magnitude(b) ? -1 : 1));
}

/** Where the comparisons of a fact, as functions of x alone (the others fixed by the model), would cross zero if they were linear. */
function roots(f: Formula, x: string, model: Map<string, bigint>): bigint[] {
  const comparisons: Extract<Formula, { k: 'cmp' }>[] = [];
  const collect = (g: Formula): void => {
    if (comparisons.length >= MAX_ROOTED) return;
    switch (g.k) {
      case 'const':
        return;
      case 'cmp':
        comparisons.push(g);
        return;
      case 'and':
      case 'or':
        return g.args.forEach(collect);
      case 'not':
        return collect(g.arg);
    }
  };
  collect(f);
  const at = (v: bigint): Valuation => (name) => (name === x ? v : (model.get(name) ?? 0n));
  return comparisons.flatMap((c) => {
    try {
      const d0 = evalTerm(c.a, at(0n)) - evalTerm(c.b, at(0n));
      const slope = evalTerm(c.a, at(1n)) - evalTerm(c.b, at(1n)) - d0;
      return slope !== 0n && d0 % slope === 0n ? [-d0 / slope] : [];
    } catch (e) {
      if (e instanceof RangeError) return [];
      throw e;
    }
  });
}
