// The simplifier's rewrites are equivalences: checked by enumerating every
// small value of every variable, on the formulas each rewrite is for.
import { describe, expect, it } from 'vitest';
import { completeModel, simplify } from '../../src/encode/simplify.js';
import { evalFormula, evalTerm } from '../../src/encode/evaluate.js';
import { declaredRange, type Declaration } from '../../src/encode/smtlib.js';
import { and, cmp, eq, mop, not, num, op, or, tvar, type Formula, type Term } from '../../src/encode/term.js';

const v = tvar;
const plus = (a: Term, b: Term): Term => op('+', a, b);
const times = (a: Term, b: Term): Term => op('*', a, b);

/** Every assignment of the declared variables, each over min(its range, [lo, hi]). */
function* assignments(ds: readonly Declaration[], lo: bigint, hi: bigint): Generator<Map<string, bigint>> {
  if (ds.length === 0) {
    yield new Map();
    return;
  }
  const [d, ...rest] = ds;
  const r = declaredRange(d!);
  for (let x = r.min > lo ? r.min : lo; x <= (r.max < hi ? r.max : hi); x++) {
    for (const m of assignments(rest, lo, hi)) yield new Map([[d!.name, x], ...m]);
  }
}

/**
 * The simplified query has a model exactly when the original has, on small
 * values: every model of the original satisfies the simplified query and
 * gives the eliminated variables the values of their terms; every model of
 * the simplified query, completed, is a model of the original.
 */
function expectEquivalent(ds: readonly Declaration[], fs: readonly Formula[], lo = 0n, hi = 5n): { decided: boolean; count: number } {
  const s = simplify(ds, fs);
  const inRange = (m: Map<string, bigint>, d: Declaration): boolean => {
    const r = declaredRange(d);
    const x = m.get(d.name) ?? 0n;
    return x >= r.min && x <= r.max;
  };
  const holds = (m: Map<string, bigint>, qs: readonly Formula[]): boolean => qs.every((f) => evalFormula(f, (n) => m.get(n) ?? 0n));
  let count = 0;
  for (const m of assignments(ds, lo, hi)) {
    if (!holds(m, fs)) continue;
    count++;
    expect(holds(m, s.assertions), `simplified fails on a model of the original ${JSON.stringify([...m], (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x))}`).toBe(true);
    for (const d of s.declarations) expect(inRange(m, d)).toBe(true);
    for (const e of s.eliminated) expect(evalTerm(e.term, (n) => m.get(n) ?? 0n)).toBe(m.get(e.name));
  }
  for (const m of assignments(s.declarations, lo, hi)) {
    if (!holds(m, s.assertions)) continue;
    const full = completeModel(s.eliminated, m, evalTerm);
    expect(holds(full, fs), 'a completed model of the simplified query fails the original').toBe(true);
    for (const d of ds) expect(inRange(full, d)).toBe(true);
  }
  const decided = s.assertions.length === 1 && s.assertions[0]!.k === 'const';
  if (decided) expect(count).toBe(0);
  return { decided, count };
}

const nat = (name: string, bits = 3): Declaration => ({ name, bits });

describe('the simplifier keeps every query equivalent (enumerated on small values)', () => {
  it('substitutes equalities, keeping the eliminated variable range where it is not implied', () => {
    const ds = [nat('x'), nat('y', 2), nat('z')];
    // x = y + 1, x < z; y is below 4 but x's 3 bits still bound y + 1
    expectEquivalent(ds, [eq(v('x'), plus(v('y'), num(1))), cmp('<', v('x'), v('z'))]);
    // a narrower variable for a wider one: x := y needs no bound, y := x does
    expectEquivalent(ds, [eq(v('y'), v('x')), cmp('<', num(2), v('x'))]);
    expectEquivalent(ds, [eq(v('z'), plus(v('x'), v('x'))), not(eq(v('z'), num(4)))]);
  });

  it('a natural below 1 is 0', () => {
    const r = expectEquivalent([nat('x'), nat('y')], [cmp('<', v('x'), num(1)), not(eq(v('x'), v('y'))), cmp('<', v('y'), num(1))]);
    expect(r.decided).toBe(true);
  });

  it('decides equalities of sums and products: equal sides, a constant difference, the gcd test', () => {
    const ds = [nat('a'), nat('b'), nat('n')];
    // b·n + a = b·n + a + 1: never
    expect(expectEquivalent(ds, [eq(plus(times(v('b'), v('n')), v('a')), plus(plus(times(v('n'), v('b')), v('a')), num(1)))]).decided).toBe(true);
    // 2a = 2b + 1: never (parity)
    expect(expectEquivalent(ds, [eq(times(num(2), v('a')), plus(times(num(2), v('b')), num(1)))]).decided).toBe(true);
    // 4a = 2b + 2: sometimes, kept
    expect(expectEquivalent(ds, [eq(times(num(4), v('a')), plus(times(num(2), v('b')), num(2)))]).decided).toBe(false);
    // common monomials cancel: n·b + a = n·b + c is a = c
    const s = simplify([...ds, nat('c')], [eq(plus(times(v('n'), v('b')), v('a')), plus(times(v('b'), v('n')), v('c'))), not(eq(v('a'), v('c')))]);
    expect(s.assertions).toEqual([{ k: 'const', v: false }]);
    expectEquivalent([...ds, nat('c')], [eq(plus(times(v('n'), v('b')), v('a')), plus(times(v('b'), v('n')), v('c'))), cmp('<', v('a'), num(3))]);
    // machine-integer subtraction is exact: x - y = 0 is x = y
    const signed: Declaration[] = [
      { name: 'x', bits: 32, type: 'i32' },
      { name: 'y', bits: 32, type: 'i32' },
    ];
    expectEquivalent(signed, [eq(mop('-', 'i32', v('x'), v('y')), num(0)), cmp('<', v('x'), num(2))], -3n, 3n);
    expectEquivalent(signed, [eq(mop('-', 'i32', v('x'), v('y')), num(3))], -3n, 3n);
  });

  it('splits a·n + b = a′·n + b′ when the facts bound b and b′ below n, and only then', () => {
    const ds = [nat('a'), nat('a2'), nat('b'), nat('b2'), nat('n')];
    const lhs = plus(times(v('a'), v('n')), v('b'));
    const rhs = plus(times(v('a2'), v('n')), v('b2'));
    const bounded = [cmp('<', v('b'), v('n')), cmp('<', v('b2'), v('n'))];
    // with the bounds, different a and a′ cannot meet: decided
    expect(expectEquivalent(ds, [...bounded, eq(lhs, rhs), not(eq(v('a'), v('a2')))]).decided).toBe(true);
    expectEquivalent(ds, [...bounded, eq(lhs, rhs)]);
    // without them, 1·2 + 0 = 0·2 + 2: not decided, and still equivalent
    const loose = expectEquivalent(ds, [cmp('<', v('b'), v('n')), eq(lhs, rhs), not(eq(v('a'), v('a2')))]);
    expect(loose.decided).toBe(false);
    expect(loose.count).toBeGreaterThan(0);
    // with b ≤ n only (not below), not split either
    expect(expectEquivalent(ds, [cmp('<=', v('b'), v('n')), cmp('<=', v('b2'), v('n')), eq(lhs, rhs), not(eq(v('a'), v('a2')))]).decided).toBe(false);
  });

  it('splits the transpose index (16·bx + y)·16G + 16·by + x, with a constant radix inside a symbolic one', () => {
    const ds = ['bx', 'by', 'x', 'y', 'bx2', 'by2', 'x2', 'y2'].map((n) => nat(n, 2)).concat([nat('G', 2)]);
    const index = (bx: string, by: string, x: string, y: string): Term =>
      plus(times(plus(times(v(bx), num(4)), v(y)), times(num(4), v('G'))), plus(times(v(by), num(4)), v(x)));
    const facts = [
      ...['bx', 'by', 'bx2', 'by2'].map((b) => cmp('<', v(b), v('G'))),
      ...['x', 'y', 'x2', 'y2'].map((t) => cmp('<', v(t), num(4))),
      eq(index('bx', 'by', 'x', 'y'), index('bx2', 'by2', 'x2', 'y2')),
    ];
    // different blocks never write one element
    expect(expectEquivalent(ds, [...facts, or([not(eq(v('bx'), v('bx2'))), not(eq(v('by'), v('by2')))])], 0n, 2n).decided).toBe(true);
    // the same block and thread do
    expect(expectEquivalent(ds, facts, 0n, 2n).count).toBeGreaterThan(0);
  });

  it('leaves nested formulas equivalent: rewrites under or, not and ite conditions', () => {
    const ds = [nat('a'), nat('b'), nat('s', 1)];
    expectEquivalent(ds, [
      or([and([eq(v('s'), num(0)), eq(plus(v('a'), num(1)), plus(v('b'), num(1)))]), and([eq(v('s'), num(1)), not(eq(times(num(2), v('a')), v('b')))])]),
      cmp('<', { k: 'ite', c: eq(v('a'), v('b')), a: v('a'), b: num(7) }, num(4)),
    ]);
  });
});
