// The simplifier's rewrites are equivalences: checked by enumerating every
// small value of every variable, on the formulas each rewrite is for.
import { describe, expect, it } from 'vitest';
import { completeModel, simplify, simplifyByCases, type Simplified } from '../../src/encode/simplify.js';
import { evalFormula, evalTerm } from '../../src/encode/evaluate.js';
import { declaredRange, type Declaration } from '../../src/encode/smtlib.js';
import type { ArithOp } from '../../src/core/ast.js';
import { FALSE, and, castTerm, cmp, eq, ite, mop, not, num, op, or, tvar, type Formula, type Term } from '../../src/encode/term.js';

const v = tvar;
const plus = (a: Term, b: Term): Term => op('+', a, b);
const times = (a: Term, b: Term): Term => op('*', a, b);

/** Every assignment of the declared variables, each over its range's values among `values`. */
function* assignments(ds: readonly Declaration[], values: readonly bigint[]): Generator<Map<string, bigint>> {
  if (ds.length === 0) {
    yield new Map();
    return;
  }
  const [d, ...rest] = ds;
  const r = declaredRange(d!);
  for (const x of values.filter((x) => x >= r.min && x <= r.max)) {
    for (const m of assignments(rest, values)) yield new Map([[d!.name, x], ...m]);
  }
}

/** simplify, taking common conjuncts out of disjunctions (a question of one array in one phase) */
const factored = (ds: readonly Declaration[], fs: readonly Formula[]): Simplified => simplify(ds, fs, { factor: true });

const between = (lo: bigint, hi: bigint): bigint[] => Array.from({ length: Number(hi - lo) + 1 }, (_, i) => lo + BigInt(i));

/**
 * The simplified query has a model exactly when the original has, on small
 * values: every model of the original satisfies the simplified query and
 * gives the eliminated variables the values of their terms; every model of
 * the simplified query, completed, is a model of the original.
 */
function expectEquivalent(
  ds: readonly Declaration[],
  fs: readonly Formula[],
  lo = 0n,
  hi = 5n,
  values = between(lo, hi),
  simplified: (ds: readonly Declaration[], fs: readonly Formula[]) => Simplified = (d, f) => simplify(d, f),
): { decided: boolean; count: number } {
  const s = simplified(ds, fs);
  const inRange = (m: Map<string, bigint>, d: Declaration): boolean => {
    const r = declaredRange(d);
    const x = m.get(d.name) ?? 0n;
    return x >= r.min && x <= r.max;
  };
  const holds = (m: Map<string, bigint>, qs: readonly Formula[]): boolean => qs.every((f) => evalFormula(f, (n) => m.get(n) ?? 0n));
  let count = 0;
  for (const m of assignments(ds, values)) {
    if (!holds(m, fs)) continue;
    count++;
    expect(holds(m, s.assertions), `simplified fails on a model of the original ${JSON.stringify([...m], (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x))}`).toBe(true);
    for (const d of s.declarations) expect(inRange(m, d)).toBe(true);
    for (const e of s.eliminated) expect(evalTerm(e.term, (n) => m.get(n) ?? 0n)).toBe(m.get(e.name));
  }
  for (const m of assignments(s.declarations, values)) {
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

  it('substitutes many copies in one round: chains, numbers, and a variable both named and substituted for', () => {
    // x2 = x1, x3 = x2, x4 = x3 (a chain of copies, later declared first), y = 2, y < 1 + x4, x1 ≠ z
    const ds = [nat('x1'), nat('x2'), nat('x3'), nat('x4'), nat('y', 2), nat('z', 2)];
    const chain = [eq(v('x2'), v('x1')), eq(v('x3'), v('x2')), eq(v('x4'), v('x3')), eq(v('y'), num(2)), cmp('<', v('y'), plus(num(1), v('x4'))), not(eq(v('x1'), v('z')))];
    const r = expectEquivalent(ds, chain, 0n, 7n);
    expect(r.count).toBeGreaterThan(0);
    const s = simplify(ds, chain);
    expect(s.declarations.map((d) => d.name)).toEqual(['x1', 'z']);
    expect(s.eliminated.map((e) => e.name).sort()).toEqual(['x2', 'x3', 'x4', 'y']);
    // x = y, y = x + 0 is no definition of y by x alone; both orders of one pair of copies
    expectEquivalent([nat('x'), nat('y')], [eq(v('y'), v('x')), eq(v('x'), v('y')), cmp('<', v('x'), num(3))]);
    // a copy whose source is itself set to a number in the same round: x2 := x1 waits for x1 := 3
    const decided = expectEquivalent([nat('x1'), nat('x2')], [eq(v('x2'), v('x1')), eq(v('x1'), num(3)), not(eq(v('x2'), num(3)))]);
    expect(decided.decided).toBe(true);
  });

  it('two variables defined by one term are equal: x = a + 1 ∧ y = a + 1 is x = a + 1 ∧ y = x', () => {
    const ds = [nat('x'), nat('y'), nat('a'), nat('b')];
    // used in other facts too, so neither definition is substituted: the shared term still ties them
    const often = [cmp('<', v('x'), v('b')), cmp('<', v('a'), v('x')), cmp('<', v('y'), plus(v('b'), v('x'))), cmp('<', v('a'), v('y'))];
    const facts = [eq(v('x'), plus(v('a'), num(1))), eq(v('y'), plus(v('a'), num(1))), ...often];
    expectEquivalent(ds, facts, 0n, 7n);
    expect(expectEquivalent(ds, [...facts, not(eq(v('x'), v('y')))], 0n, 7n).decided).toBe(true);
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

  it('cancels a summand shared by two wrapped sums: (b·256 + t1) mod 2^32 = (b·256 + t2) mod 2^32 is t1 = t2 for t1, t2 below 2^32', () => {
    const ds: Declaration[] = [
      { name: 't1', bits: 32, type: 'u32' },
      { name: 't2', bits: 32, type: 'u32' },
      { name: 'b', bits: 32, type: 'u32' },
    ];
    const at = (t: string): Term => castTerm('u32', op('+', castTerm('u32', times(v('b'), num(256))), v(t)));
    // a block's slot base + tid of an unsigned base that may wrap: distinct threads of one block never meet
    expect(simplify(ds, [eq(at('t1'), at('t2')), not(eq(v('t1'), v('t2')))]).assertions).toEqual([FALSE]);
    // a grid-stride slot i = t + d·j below 256 of two threads of a block: decided without the solver
    const loop: Declaration[] = [...ds, { name: 'd', bits: 32, type: 'u32' }, { name: 'j1', bits: 32, type: 'u32' }, { name: 'j2', bits: 32, type: 'u32' }];
    const slot = (t: string, j: string): Term => op('+', v(t), op('*', v('d'), v(j)));
    const base = castTerm('u32', times(v('b'), num(256)));
    const facts = [cmp('<', slot('t1', 'j1'), num(256)), cmp('<', slot('t2', 'j2'), num(256)), cmp('<', v('t1'), v('d')), cmp('<', v('t2'), v('d')), not(eq(v('t1'), v('t2')))];
    expect(simplify(loop, [...facts, eq(castTerm('u32', op('+', base, slot('t1', 'j1'))), castTerm('u32', op('+', base, slot('t2', 'j2'))))]).assertions).toEqual([FALSE]);
    // the summand may sit on either side of either sum, and what is left still wraps
    const small: Declaration[] = [nat('x'), nat('y'), nat('s')];
    const wrapped = (a: Term, b: Term): Term => castTerm('u32', op('+', a, b));
    const f = eq(wrapped(v('s'), v('x')), wrapped(times(v('y'), num(1n << 31n)), v('s')));
    expect(expectEquivalent(small, [f], 0n, 4n).count).toBeGreaterThan(0);
    expect(expectEquivalent(small, [f, cmp('<', v('x'), num(1)), cmp('>', v('y'), num(1))], 0n, 4n).count).toBeGreaterThan(0);
  });

  it('writes an equality in normal form where that is smaller: (t1 + 3) − 3 = (t2 + 3) − 3 and 2·t1 = 2·t2 are t1 = t2, which then substitutes', () => {
    const ds: Declaration[] = [
      { name: 't1', bits: 32, type: 'i32' },
      { name: 't2', bits: 32, type: 'i32' },
    ];
    const shifted = (t: string): Term => mop('-', 'i32', mop('+', 'i32', v(t), num(3)), num(3));
    // a stencil's two threads at one interior slot l − 3 = (t + 3) − 3: distinct threads never meet
    const s = simplify(ds, [eq(shifted('t1'), shifted('t2')), not(eq(v('t1'), v('t2')))]);
    expect(s.assertions).toEqual([FALSE]);
    expect(expectEquivalent(ds, [eq(shifted('t1'), shifted('t2')), not(eq(v('t1'), v('t2')))], -3n, 3n).decided).toBe(true);
    expect(expectEquivalent(ds, [eq(shifted('t1'), shifted('t2')), cmp('<', v('t2'), num(2))], -3n, 3n).count).toBe(5);
    // divided by the gcd of its coefficients: odd-even sort's pairs 2·t1 + p = 2·t2 + p of distinct threads never meet
    const pair = (t: string): Term => plus(times(num(2), v(t)), v('p'));
    const nats = [nat('t1'), nat('t2'), nat('p')];
    expect(simplify(nats, [eq(pair('t1'), pair('t2')), not(eq(v('t1'), v('t2')))]).assertions).toEqual([FALSE]);
    expect(expectEquivalent(nats, [eq(pair('t1'), pair('t2')), not(eq(v('t1'), v('t2')))]).decided).toBe(true);
    // 6a + 3 = 3b + 9 is 2a = b + 2 (the constant divides too), kept and equivalent
    expect(expectEquivalent([nat('a'), nat('b')], [eq(plus(times(num(6), v('a')), num(3)), plus(times(num(3), v('b')), num(9)))], 0n, 7n).count).toBe(4);
  });

  it("the naturals' truncated a − b is exact where a − b in normal form has non-negative coefficients over non-negative atoms: (2·t + 1) − 1 is 2·t (enumerated)", () => {
    const minus = (a: Term, b: Term): Term => op('-', a, b);
    // a work-efficient scan at a fixed step: ai = (2·t + 1) − 1 and bi = (2·t + 2) − 1 of two threads never meet
    const nats = [nat('t1'), nat('t2')];
    const ai = minus(plus(times(num(2), v('t1')), num(1)), num(1));
    const bi = minus(plus(times(num(2), v('t2')), num(2)), num(1));
    expect(simplify(nats, [eq(ai, bi)]).assertions).toEqual([FALSE]);
    expect(expectEquivalent(nats, [eq(ai, bi)]).decided).toBe(true);
    // (x + y) − y is x
    const xyz = [nat('x'), nat('y'), nat('z')];
    expect(expectEquivalent(xyz, [eq(minus(plus(v('x'), v('y')), v('y')), v('z'))]).count).toBe(6 * 6);
    // (x + 1) − y may truncate (x = 0, y = 3 gives 0): kept, and equivalent
    expect(expectEquivalent(xyz, [eq(minus(plus(v('x'), num(1)), v('y')), v('z'))]).count).toBe(6 * 6 - 1);
    // an atom that may be negative: (s + 2) − 1 is 0, not s + 1, at s = −3
    const signed: Declaration[] = [
      { name: 's', bits: 32, type: 'i32' },
      { name: 'z', bits: 32, type: 'i32' },
    ];
    expect(expectEquivalent(signed, [eq(minus(plus(v('s'), num(2)), num(1)), v('z'))], -3n, 3n).count).toBe(6);
  });

  it("bounds x & c by [0, c] and C's x % c by x's sign and |c| − 1, on naturals and machine types (enumerated)", () => {
    const x = v('x');
    const i32: Declaration[] = [{ name: 'x', bits: 32, type: 'i32' }];
    const around = [...between(-9n, 9n), 2n ** 31n - 1n, -(2n ** 31n)];
    // decided by the interval alone
    for (const never of [cmp('>', mop('&', 'i32', x, num(6)), num(6)), cmp('<', mop('&', 'i32', num(6), x), num(0)), cmp('>=', mop('%', 'i32', x, num(4)), num(4)), cmp('<=', mop('%', 'i32', x, num(-4)), num(-4))]) {
      expect(simplify(i32, [never]).assertions).toEqual([FALSE]);
      expect(expectEquivalent(i32, [never], 0n, 0n, around).decided).toBe(true);
    }
    // what the interval leaves open is kept: x % 4 takes -3 … 3, x & 6 takes 0, 2, 4, 6
    expect(expectEquivalent(i32, [cmp('<', mop('%', 'i32', x, num(4)), num(-2))], 0n, 0n, around).count).toBeGreaterThan(0);
    expect(expectEquivalent(i32, [cmp('>', mop('&', 'i32', x, num(6)), num(5))], 0n, 0n, around).count).toBeGreaterThan(0);
    // a non-negative x keeps x % c non-negative and at most x
    const n = [nat('y', 3)];
    expect(simplify(n, [cmp('>', op('%', v('y'), num(5)), num(4))]).assertions).toEqual([FALSE]);
    expect(expectEquivalent(n, [cmp('>', op('%', v('y'), num(5)), num(3))], 0n, 7n).count).toBe(1);
  });

  it('x / m = y / m is x = y where x and y have one residue modulo m and are never negative (enumerated)', () => {
    const [x, y] = [v('x'), v('y')];
    const nats = [nat('x', 4), nat('y', 4)];
    const half = (t: Term): Term => op('/', t, num(2));
    const parity = (t: Term, r: number): Formula => eq(op('%', t, num(2)), num(r));
    // pack-pairs: even i of two threads write out[i / 2].x, odd ones out[i / 2].y
    for (const facts of [
      [parity(x, 0), parity(y, 0), eq(half(x), half(y)), not(eq(x, y))],
      [not(parity(x, 0)), not(parity(y, 0)), eq(half(x), half(y)), not(eq(x, y))],
      [eq(op('%', x, num(3)), num(2)), eq(op('%', y, num(3)), num(2)), eq(op('/', x, num(3)), op('/', y, num(3))), not(eq(x, y))],
    ]) {
      expect(simplify(nats, facts).assertions).toEqual([FALSE]);
      expect(expectEquivalent(nats, facts, 0n, 15n).decided).toBe(true);
    }
    // different residues, or none: kept (2 / 2 = 3 / 2)
    expect(expectEquivalent(nats, [parity(x, 0), parity(y, 1), eq(half(x), half(y))], 0n, 15n).count).toBe(8);
    expect(expectEquivalent(nats, [eq(half(x), half(y)), not(eq(x, y))], 0n, 15n).count).toBe(16);
    // C's remainder of a negative value: −1 % 2 = −1 ≠ 0 and 1 % 2 ≠ 0, −1 / 2 = 0 = 1 / 2, yet −1 ≠ 1
    const ints: Declaration[] = [
      { name: 'x', bits: 32, type: 'i32' },
      { name: 'y', bits: 32, type: 'i32' },
    ];
    const odd = (t: Term): Formula => not(eq(mop('%', 'i32', t, num(2)), num(0)));
    const mhalf = (t: Term): Term => mop('/', 'i32', t, num(2));
    expect(expectEquivalent(ints, [odd(x), odd(y), eq(mhalf(x), mhalf(y)), not(eq(x, y))], -5n, 5n).count).toBe(2);
    expect(expectEquivalent(ints, [odd(x), odd(y), eq(mhalf(x), mhalf(y)), not(eq(x, y)), cmp('>=', x, num(0)), cmp('>=', y, num(0))], -5n, 5n).decided).toBe(true);
  });

  it("decides an equality with the definitions' terms put in, never a definition with itself (enumerated)", () => {
    // odd-even sort: s2 = 2·t1 + r, s3 = 2·t2 + r, each used too often to be substituted; s2 = s3 + 1 is false (parity)
    const ds = [nat('t1', 2), nat('t2', 2), nat('r', 1), nat('s2', 4), nat('s3', 4)];
    const defs = [eq(v('s2'), plus(times(num(2), v('t1')), v('r'))), eq(v('s3'), plus(times(num(2), v('t2')), v('r')))];
    const uses = ['s2', 's3'].flatMap((x) => [not(eq(v(x), num(13))), not(eq(v(x), num(14))), cmp('<', plus(v(x), v('t1')), num(15))]);
    const racing = [...defs, ...uses, eq(v('s2'), plus(v('s3'), num(1)))];
    expect(simplify(ds, racing).assertions).toEqual([FALSE]);
    expect(expectEquivalent(ds, racing, 0n, 15n).decided).toBe(true);
    // through two levels (x = s2 + 1, s2 = 2·t1 + r) and true: dropped, the rest equivalent
    const ds2 = [...ds, nat('x', 4)];
    const twoLevels = [...defs, ...uses, eq(v('x'), plus(v('s2'), num(1))), not(eq(v('x'), num(12))), not(eq(v('x'), num(11))), cmp('<', plus(v('x'), v('t2')), num(15)), not(eq(v('x'), plus(v('s3'), num(0))))];
    expect(expectEquivalent(ds2, twoLevels, 0n, 15n).count).toBeGreaterThan(0);
    // x = s2 + 1 ∧ x = s3: the first definition stays, the second is decided with it (false)
    const twice = [...defs, ...uses, eq(v('x'), plus(v('s2'), num(1))), eq(v('x'), v('s3')), not(eq(v('x'), num(12))), cmp('<', plus(v('x'), v('t2')), num(15))];
    expect(expectEquivalent(ds2, twice, 0n, 15n).decided).toBe(true);
    // a definition decided with itself would drop it: x = s2 + 1 alone with its uses keeps x's value
    const alone = [...defs, ...uses, eq(v('x'), plus(v('s2'), num(1))), not(eq(v('x'), num(12))), cmp('<', plus(v('x'), v('t2')), num(15)), not(eq(v('x'), num(2)))];
    expect(expectEquivalent(ds2, alone, 0n, 15n).count).toBeGreaterThan(0);
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

describe('wrap-around: W(x) = W(y) is x = y where the facts prove |x − y| below the modulus (enumerated)', () => {
  // Builder.cast's one-wrap case split on a window of width 4: values above 1 are taken minus 4
  const wrap4 = (x: Term): Term => ite(cmp('<=', x, num(1)), x, mop('-', 'i32', x, num(4)));
  const index = (b: string, t: string): Term => plus(times(v(b), v('d')), v(t));
  const int = (name: string, bits: number): Declaration => ({ name, bits, type: 'int' });
  // i is used in three more facts, as a kernel's index is: the substitution keeps it
  const uses = [cmp('<=', v('i'), num(5)), cmp('>=', v('i'), num(-6)), cmp('<=', mop('+', 'i32', v('i'), num(1)), num(6))];
  const values = between(-8n, 8n);

  it('one block, two threads: i = W(b·d + t1) = W(b·d + t2) with both below 4 is t1 = t2', () => {
    const ds = [nat('b', 2), nat('d', 2), nat('t1'), nat('t2'), int('i', 4)];
    const defined = [eq(v('i'), wrap4(index('b', 't1'))), eq(v('i'), wrap4(index('b', 't2'))), ...uses];
    const window = [cmp('<=', index('b', 't1'), num(3)), cmp('<=', index('b', 't2'), num(3))];
    const distinct = not(eq(v('t1'), v('t2')));
    expect(expectEquivalent(ds, [...defined, ...window, distinct], -8n, 8n, values).decided).toBe(true);
    expect(expectEquivalent(ds, [...defined, ...window], -8n, 8n, values).count).toBeGreaterThan(0);
    // without the window, W(1) = W(5) = 1: not rewritten, and still equivalent
    const open = expectEquivalent(ds, [...defined, distinct], -8n, 8n, values);
    expect(open.decided).toBe(false);
    expect(open.count).toBeGreaterThan(0);
  });

  it('two blocks: the window, then the mixed-radix split on t < d, decides b1 ≠ b2', () => {
    const ds = [nat('b1', 2), nat('b2', 2), nat('d', 2), nat('t1', 2), nat('t2', 2)];
    const same = eq(wrap4(index('b1', 't1')), wrap4(index('b2', 't2')));
    const window = [cmp('<=', index('b1', 't1'), num(3)), cmp('<=', index('b2', 't2'), num(3))];
    const threads = [cmp('<', v('t1'), v('d')), cmp('<', v('t2'), v('d'))];
    const blocks = not(eq(v('b1'), v('b2')));
    expect(expectEquivalent(ds, [same, ...window, ...threads, blocks]).decided).toBe(true);
    // without t < d, 0·2 + 2 = 1·2 + 0
    const loose = expectEquivalent(ds, [same, ...window, blocks]);
    expect(loose.decided).toBe(false);
    expect(loose.count).toBeGreaterThan(0);
  });

  // values around the 32-bit window's edges
  const edges = [-(1n << 32n) - 1n, -(1n << 32n), -1n, 0n, 1n, 1n << 31n, (1n << 32n) - 1n, 1n << 32n, (1n << 32n) + 1n, 1n << 33n];
  const x = v('x');
  const y = v('y');
  const xy = [int('x', 34), int('y', 34)];
  const inWindow = (t: Term): Formula[] => [cmp('>=', t, num(0)), cmp('<=', t, num((1n << 32n) - 1n))];

  it("C's cast: (u32) x = (u32) y is x = y on one window of 2^32, and only there", () => {
    const differ = not(eq(x, y));
    expect(expectEquivalent(xy, [eq(castTerm('u32', x), castTerm('u32', y)), ...inWindow(x), ...inWindow(y), differ], 0n, 0n, edges).decided).toBe(true);
    // the window may sit anywhere: x, y in [2^31, 2^32 + 2^31)
    const shifted = [cmp('>=', x, num(1n << 31n)), cmp('<', x, num(3n << 31n)), cmp('>=', y, num(1n << 31n)), cmp('<', y, num(3n << 31n))];
    expect(expectEquivalent(xy, [eq(castTerm('i32', x), castTerm('i32', y)), ...shifted, differ], 0n, 0n, edges).decided).toBe(true);
    // (u32) 0 = (u32) 2^32
    const open = expectEquivalent(xy, [eq(castTerm('u32', x), castTerm('u32', y)), cmp('>=', x, num(0)), cmp('>=', y, num(0)), differ], 0n, 0n, edges);
    expect(open.decided).toBe(false);
    expect(open.count).toBeGreaterThan(0);
  });

  it("a wrapped value equal to a number: (u32) n = 64 for an int n is n = 64, false where no x fits, kept where two do (enumerated)", () => {
    const n: Declaration[] = [{ name: 'n', bits: 32, type: 'i32' }];
    const ints = [-(1n << 31n), -64n, -1n, 0n, 63n, 64n, 65n, (1n << 31n) - 1n];
    // C's int == unsigned: the int converted, one value of the int's range
    const s = simplify(n, [eq(castTerm('u32', v('n')), num(64)), cmp('<', v('n'), num(100))]);
    expect(s.eliminated).toEqual([{ name: 'n', term: num(64) }]);
    expect(expectEquivalent(n, [eq(castTerm('u32', v('n')), num(64))], 0n, 0n, ints).count).toBe(1);
    // (u32) n = 2^32 − 1 is n = −1; (i32) y = 5 where 0 ≤ y < 2^32 is y = 5
    expect(expectEquivalent(n, [eq(castTerm('u32', v('n')), num((1n << 32n) - 1n))], 0n, 0n, ints).count).toBe(1);
    expect(expectEquivalent([xy[1]!], [eq(castTerm('i32', y), num(5)), ...inWindow(y)], 0n, 0n, [...edges, 5n, (1n << 32n) + 5n]).count).toBe(1);
    // no value of the window: false; a number outside the type: false
    expect(simplify([xy[0]!], [eq(castTerm('u32', x), num(7)), cmp('>=', x, num(8)), cmp('<=', x, num(100))]).assertions).toEqual([FALSE]);
    expect(simplify(n, [eq(castTerm('u32', v('n')), num(-1))]).assertions).toEqual([FALSE]);
    // the one-wrap split: ite(x ≤ 3, x, x − 8) = −2 is x = 6 where 0 ≤ x < 8
    const split = ite(cmp('<=', x, num(3)), x, mop('-', 'i64', x, num(8)));
    expect(expectEquivalent([xy[0]!], [eq(split, num(-2)), cmp('>=', x, num(0)), cmp('<', x, num(8))], -9n, 9n).count).toBe(1);
    expect(expectEquivalent([xy[0]!], [eq(split, num(5)), cmp('>=', x, num(0)), cmp('<', x, num(8))], -9n, 9n).decided).toBe(true);
    // two windows' worth of x: kept, equivalent
    const open = expectEquivalent([xy[0]!], [eq(castTerm('u32', x), num(1))], 0n, 0n, edges);
    expect(open.decided).toBe(false);
    expect(open.count).toBe(2);
  });

  it("C's cast is the identity where the bounds keep its operand in the type, and only there", () => {
    const text = (s: Simplified): string => JSON.stringify(s, (_k, t: unknown) => (typeof t === 'bigint' ? Number(t) : t));
    const sum = eq(plus(castTerm('u32', x), y), num((1n << 32n) + 1n));
    const facts = [sum, ...inWindow(x)];
    expect(text(simplify(xy, facts))).not.toContain('cast');
    // among the edges: (0, 2^32 + 1) and (1, 2^32)
    expect(expectEquivalent(xy, facts, 0n, 0n, edges).count).toBe(2);
    // x = 2^32, one past the type, wraps to 0: the cast stays, and (2^32, 2^32 + 1) is a model too
    const open = [sum, cmp('>=', x, num(0)), cmp('<=', x, num(1n << 32n))];
    expect(text(simplify(xy, open))).toContain('cast');
    expect(expectEquivalent(xy, open, 0n, 0n, edges).count).toBe(3);
  });

  it('two different wraps are not one function: (u32) x = (i32) y keeps its (i32) cast (the (u32) one is the identity on the window)', () => {
    const s = simplify(xy, [eq(castTerm('u32', x), castTerm('i32', y)), ...inWindow(x), ...inWindow(y)]);
    // x is substituted by (i32) y, whose cast stays: x = y would be wrong at 2^31
    expect(s.eliminated).toEqual([{ name: 'x', term: castTerm('i32', y) }]);
    expect(JSON.stringify(s.assertions, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x))).not.toContain('"u32"');
    // x = y = 2^31: 2^31 as u32, −2^31 as i32
    expectEquivalent(xy, [eq(castTerm('u32', x), castTerm('i32', y)), ...inWindow(x), ...inWindow(y), eq(x, y)], 0n, 0n, edges);
    const other = (t: Term): Term => ite(cmp('<=', t, num(2)), t, mop('-', 'i32', t, num(4)));
    expectEquivalent([nat('a'), nat('c')], [eq(wrap4(v('a')), other(v('c'))), cmp('<=', v('a'), num(3)), cmp('<=', v('c'), num(3))]);
  });

  it('a variable with two values compares them: v = a + 1 ∧ v = c + 1 is v = a + 1 ∧ a = c', () => {
    const ds = [nat('a'), nat('c'), nat('v'), nat('w')];
    const facts = [eq(v('v'), plus(v('a'), num(1))), eq(v('v'), plus(v('c'), num(1))), cmp('<', v('v'), v('w')), cmp('<', v('w'), times(v('v'), num(2))), not(eq(v('v'), num(3)))];
    expectEquivalent(ds, facts);
    expect(expectEquivalent(ds, [...facts, not(eq(v('a'), v('c')))]).decided).toBe(true);
  });

  // an equality with an ite in a side (a wrapped value compared), at any depth of the facts
  const iteInEquality = (s: Simplified): boolean => {
    const within = (f: Formula): boolean => {
      switch (f.k) {
        case 'cmp':
          return f.op === '==' && JSON.stringify(f, (_k, t: unknown) => (typeof t === 'bigint' ? Number(t) : t)).includes('"ite"');
        case 'and':
        case 'or':
          return f.args.some(within);
        case 'not':
          return within(f.arg);
        case 'const':
          return false;
      }
    };
    return s.assertions.some(within);
  };

  it('two wrapped sums: W(g1) + m1 = W(g2) + m2 is g1 + m1 = g2 + m2 with g1, g2 on one side of the wrap, or ±8 apart across it', () => {
    // the split is made once the other rewrites are done (simplifyByCases asks for it)
    const split = (d: readonly Declaration[], f: readonly Formula[]): Simplified => simplify(d, f, { splitWraps: true });
    // two blocks' global index g = b·d + t, wrapped into a window of 8 (values above 3 taken minus 8), plus t mod 2 (an int2
    // operator's `u + one`)
    const wrap8 = (x: Term): Term => ite(cmp('<=', x, num(3)), x, mop('-', 'i32', x, num(8)));
    const ds = [nat('b1', 2), nat('b2', 2), nat('d', 2), nat('t1', 2), nat('t2', 2), int('i', 4)];
    const sum = (b: string, t: string): Term => mop('+', 'i32', wrap8(index(b, t)), op('%', v(t), num(2)));
    const defined = [eq(v('i'), sum('b1', 't1')), eq(v('i'), sum('b2', 't2')), cmp('<=', v('i'), num(5)), cmp('>=', v('i'), num(-6))];
    const rest = [cmp('<', v('t1'), v('d')), cmp('<', v('t2'), v('d')), not(eq(v('b1'), v('b2')))];
    // g ≤ 6 and the offsets in [0, 1]: the sums differ by less than 8, one case is left
    const tight = [cmp('<=', index('b1', 't1'), num(6)), cmp('<=', index('b2', 't2'), num(6))];
    expect(iteInEquality(split(ds, [...defined, ...tight, ...rest]))).toBe(false);
    // without the split the equality keeps its ites
    expect(iteInEquality(simplify(ds, [...defined, ...tight, ...rest]))).toBe(true);
    // d = 2: block 0's thread 1 and block 1's thread 0 both give 2
    expect(expectEquivalent(ds, [...defined, ...tight, ...rest], -8n, 8n, values, split).count).toBeGreaterThan(0);
    // 3 + 1 and 4 + 0 are equal sums on the two sides of the wrap (W(4) = −4): not a model, as in the original
    expect(expectEquivalent(ds, [...defined, ...tight, ...rest, eq(index('b1', 't1'), num(3)), eq(index('b2', 't2'), num(4))], -8n, 8n, values, split).count).toBe(0);
    // g ≤ 7: W(7) + 1 = 0 = W(0) + 0, sums 8 apart across the wrap (either way round): a case of its own
    const loose = [cmp('<=', index('b1', 't1'), num(7)), cmp('<=', index('b2', 't2'), num(7))];
    expect(iteInEquality(split(ds, [...defined, ...loose, ...rest]))).toBe(false);
    for (const [g1, g2] of [
      [7, 0],
      [0, 7],
    ]) {
      const across = [...defined, ...loose, ...rest, eq(index('b1', 't1'), num(g1!)), eq(index('b2', 't2'), num(g2!))];
      expect(expectEquivalent(ds, across, -8n, 8n, values, split).count).toBeGreaterThan(0);
    }
    // and without any bound on g, still equivalent
    expect(iteInEquality(split(ds, [...defined, ...rest]))).toBe(false);
    expectEquivalent(ds, [...defined, ...rest], -8n, 8n, values, split);
  });
});

describe('comparisons and ite conditions the bounds decide (enumerated)', () => {
  it('an ite whose condition the facts decide is its branch: W(d) is d where d ≤ 5', () => {
    const ds = [nat('d'), nat('j'), nat('k')];
    const w = (t: Term): Term => ite(cmp('<=', t, num(5)), t, mop('-', 'i32', t, num(8)));
    const facts = [cmp('<=', v('d'), num(5)), cmp('>=', v('d'), num(1)), eq(times(w(v('d')), v('j')), times(w(v('d')), v('k'))), not(eq(v('j'), v('k')))];
    const s = simplify(ds, facts.slice(0, 3));
    expect(JSON.stringify(s.assertions, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x))).not.toContain('ite');
    expectEquivalent(ds, facts.slice(0, 3), 0n, 7n);
    expectEquivalent(ds, facts, 0n, 7n);
    // without d ≤ 5 the case split stays
    const open = simplify(ds, [cmp('>=', v('d'), num(1)), eq(times(w(v('d')), v('j')), times(w(v('d')), v('k')))]);
    expect(JSON.stringify(open.assertions, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x))).toContain('ite');
    expectEquivalent(ds, [cmp('>=', v('d'), num(1)), eq(times(w(v('d')), v('j')), times(w(v('d')), v('k')))], 0n, 7n);
  });

  it('decides nested comparisons from the bounds: x < 6 where x < n ≤ 5', () => {
    const ds = [nat('x'), nat('n'), nat('y')];
    const guarded = (limit: number): Formula[] => [cmp('<', v('x'), v('n')), cmp('<=', v('n'), num(5)), or([not(cmp('<', v('x'), num(limit))), eq(v('y'), num(3))]), not(eq(v('y'), num(3)))];
    expect(expectEquivalent(ds, guarded(6), 0n, 7n).decided).toBe(true);
    // x < 4 is not decided: x = 4, n = 5
    const open = expectEquivalent(ds, guarded(4), 0n, 7n);
    expect(open.decided).toBe(false);
    expect(open.count).toBeGreaterThan(0);
  });

  it("drops a bound of an operation's value by a number where the other bounds prove it, never two that prove each other", () => {
    const ds = [nat('x'), nat('y')];
    // 2x ≤ 6 where x < 3: dropped; without x < 3 it stays
    const kept = (fs: Formula[]): number => simplify(ds, fs).assertions.length;
    expect(kept([cmp('<', v('x'), num(3)), cmp('<=', times(num(2), v('x')), num(6))])).toBe(1);
    expect(kept([cmp('<=', times(num(2), v('x')), num(6))])).toBe(1);
    expectEquivalent(ds, [cmp('<', v('x'), num(3)), cmp('<=', times(num(2), v('x')), num(6)), cmp('<', v('y'), plus(v('x'), num(1)))], 0n, 7n);
    // x + 1 ≤ 4 and x + 2 ≤ 5 say the same: neither may take the other away
    const same = [cmp('<=', plus(v('x'), num(1)), num(4)), cmp('<=', plus(v('x'), num(2)), num(5))];
    expect(expectEquivalent(ds, same, 0n, 7n).count).toBe(4 * 8);
    // a bound the others contradict decides the query
    expect(expectEquivalent(ds, [cmp('>', v('x'), num(4)), cmp('<=', times(num(2), v('x')), num(6))], 0n, 7n).decided).toBe(true);
  });

  it('a formula asserted as 1 = ite(F, 1, 0) is F, and is rewritten: its comparisons the bounds decide are decided', () => {
    const ds = [nat('x'), nat('y')];
    const named = (f: Formula): Formula => eq(num(1), ite(f, num(1), num(0)));
    // x < 3 ⇒ 2x ≤ 6: the named formula is true
    const facts = [cmp('<', v('x'), num(3)), named(or([cmp('>', v('y'), num(5)), cmp('<=', times(num(2), v('x')), num(6))]))];
    expect(simplify(ds, facts).assertions.length).toBe(1);
    expectEquivalent(ds, facts, 0n, 7n);
    // F's own facts reach the top level: x = 3 named once is a definition of x, which is substituted
    const defining = [named(eq(v('x'), num(3))), cmp('<', v('y'), v('x'))];
    expect(simplify(ds, defining).eliminated.map((e) => e.name)).toContain('x');
    expectEquivalent(ds, defining, 0n, 7n);
    // 0 = ite(F, 1, 0) is ¬F, and 2 = ite(F, 1, 0) is false
    expect(expectEquivalent(ds, [eq(num(0), ite(cmp('<', v('x'), v('y')), num(1), num(0)))], 0n, 7n).count).toBe(36);
    expect(expectEquivalent(ds, [eq(num(2), ite(cmp('<', v('x'), v('y')), num(1), num(0)))], 0n, 7n).decided).toBe(true);
    // an ite of terms whose condition is no comparison: decided by the bounds when it can be, kept otherwise
    const choose = (c: Formula): Formula => eq(v('y'), ite(c, v('x'), num(7)));
    const settledChoice = [cmp('<', v('x'), num(3)), not(choose(and([cmp('<', v('x'), num(4)), cmp('>=', v('x'), num(0))])))];
    expect(JSON.stringify(simplify(ds, settledChoice).assertions, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x))).not.toContain('ite');
    expectEquivalent(ds, settledChoice, 0n, 7n);
    expectEquivalent(ds, [choose(or([cmp('<', v('x'), num(2)), cmp('>', v('x'), num(5))]))], 0n, 7n);
  });

  it('the mixed-radix split on signed values the facts keep in range: a·n + b = a′·n + b′ with 0 < b, b′ < n', () => {
    const int = (name: string): Declaration => ({ name, bits: 3, type: 'int' });
    const ds = [int('a'), int('b'), int('c'), int('d'), nat('n')];
    const facts = [cmp('>', v('b'), num(0)), cmp('<', v('b'), v('n')), cmp('>', v('d'), num(0)), cmp('<', v('d'), v('n')), eq(plus(times(v('a'), v('n')), v('b')), plus(times(v('c'), v('n')), v('d'))), not(eq(v('b'), v('d')))];
    expect(expectEquivalent(ds, facts, -3n, 5n).decided).toBe(true);
    // without b > 0 the split does not apply (b may be negative): a model exists
    expect(expectEquivalent(ds, facts.slice(1), -3n, 5n).count).toBeGreaterThan(0);
  });

  it("a known residue: with x % m = r, (x + c) % k is (r + c) % k for k dividing m, and a reduction's t % 2s = 0 ∧ (t + s) % 2s = 0 is false", () => {
    const ds = [nat('x', 5), nat('y', 5)];
    let decided = 0;
    for (const m of [2n, 4n, 6n]) {
      for (let r = 0n; r < m; r++) {
        for (const k of [1n, 2n, 3n, 4n, 6n].filter((k) => m % k === 0n)) {
          for (let c = 0n; c <= 3n; c++) {
            for (let w = 0n; w < k; w++) {
              const facts = [eq(op('%', v('x'), num(m)), num(r)), eq(op('%', plus(v('x'), num(c)), num(k)), num(w)), cmp('<', v('y'), v('x'))];
              if (expectEquivalent(ds, facts, 0n, 13n).decided) decided++;
            }
          }
        }
      }
    }
    // every (r + c) % k ≠ w is decided false
    expect(decided).toBeGreaterThan(100);
    const reduction = [eq(op('%', v('x'), num(8)), num(0)), eq(v('y'), plus(v('x'), num(4))), eq(op('%', v('y'), num(8)), num(0))];
    expect(expectEquivalent(ds, reduction, 0n, 20n).decided).toBe(true);
    // through a definition y = x + c, which the substitution leaves when y is used in many facts
    for (const m of [2n, 4n, 6n]) {
      for (let r = 0n; r < m; r++) {
        for (let c = 0n; c <= 3n; c++) {
          for (let w = 0n; w < m; w++) {
            // the definition by a machine `+` (CUDA's `tid + s`), which is exact where defined
            for (const sum of [plus(v('x'), num(c)), mop('+', 'u32', v('x'), num(c))]) {
              const facts = [eq(op('%', v('x'), num(m)), num(r)), eq(v('y'), sum), eq(op('%', v('y'), num(m)), num(w)), cmp('<', v('y'), num(30)), not(eq(v('x'), v('y')))];
              const { decided } = expectEquivalent(ds, facts, 0n, 31n);
              if ((r + c) % m !== w) expect(decided).toBe(true);
            }
          }
        }
      }
    }
    // a residue modulo 4 says nothing of x % 8
    expect(expectEquivalent(ds, [eq(op('%', v('x'), num(4)), num(1)), eq(op('%', v('x'), num(8)), num(5))], 0n, 20n).count).toBeGreaterThan(0);
  });

  it('splits a disjunction that fixes one variable in each case (a geometric loop): unsat when every case is, as it was otherwise', () => {
    const ds = [nat('s', 5), nat('x', 5), nat('y', 5)];
    const steps = or([eq(v('s'), num(1)), and([cmp('<', num(2), v('x')), eq(v('s'), num(2))]), eq(v('s'), num(4))]);
    const twice = times(num(2), v('s'));
    const reduction = [steps, eq(op('%', v('x'), twice), num(0)), eq(v('y'), plus(v('x'), v('s'))), eq(op('%', v('y'), twice), num(0))];
    // no model, yet the remainder by a variable leaves it open to the rewrites alone
    expect(expectEquivalent(ds, reduction, 0n, 31n).count).toBe(0);
    expect(simplify(ds, reduction).assertions).not.toEqual([FALSE]);
    expect(simplifyByCases(ds, reduction).assertions).toEqual([FALSE]);
    // with one case open (y = x + 2s: x = 0, s = 1 is a model), the query stays as simplified
    const open = [steps, eq(op('%', v('x'), twice), num(0)), eq(v('y'), plus(v('x'), twice)), eq(op('%', v('y'), twice), num(0))];
    expect(expectEquivalent(ds, open, 0n, 31n).count).toBeGreaterThan(0);
    expect(simplifyByCases(ds, open)).toEqual(simplify(ds, open));
  });

  it("settles the ites of a bound by the other facts' plain bounds: ite(d ≤ 3, d, d − 8)·j < n where d ≤ 2, never two such bounds by each other", () => {
    const ds = [nat('d'), nat('j'), nat('n'), nat('x'), nat('y')];
    const wrap = ite(cmp('<=', v('d'), num(3)), v('d'), op('-', v('d'), num(8)));
    const settledBound = [cmp('<=', v('d'), num(2)), cmp('<', times(wrap, v('j')), v('n'))];
    const text = (fs: readonly Formula[]): string => JSON.stringify(fs, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x));
    expect(text(simplify(ds, settledBound).assertions)).not.toContain('ite');
    expectEquivalent(ds, settledBound, 0n, 7n);
    // a range fact (a value against a number) that the bounds leave open is settled the same way
    const rangeFact = [cmp('<=', v('d'), num(2)), cmp('>=', plus(v('x'), times(wrap, v('j'))), num(3))];
    expect(text(simplify(ds, rangeFact).assertions)).not.toContain('ite');
    expectEquivalent(ds, rangeFact, 0n, 5n);
    // without the plain bound the ite stays
    expect(text(simplify(ds, settledBound.slice(1)).assertions)).toContain('ite');
    // two bounds with ites whose conditions the other one's bound would decide: both kept as they were
    const mutual = [cmp('<', ite(cmp('<', v('y'), num(3)), v('x'), num(9)), num(2)), cmp('<', ite(cmp('<', v('x'), num(2)), v('y'), num(9)), num(3))];
    expectEquivalent(ds.slice(3), mutual, 0n, 7n);
    expectEquivalent(ds, [cmp('<', v('x'), v('y')), cmp('<', ite(cmp('<', v('x'), v('y')), v('x'), v('n')), v('j'))], 0n, 5n);
  });

  it('a machine operation whose value is 0 whatever its operand is 0: x·0, 0·x, x % 1, x % −1, 0 / x, 0 % x (enumerated)', () => {
    const x = v('x');
    const values = [...between(-4n, 4n), 2n ** 31n - 1n, -(2n ** 31n), 2n ** 32n - 1n];
    for (const type of ['i32', 'u32', 'i64'] as const) {
      const folded: [ArithOp, Term, Term][] = [
        ['*', x, num(0)],
        ['*', num(0), x],
        ['%', x, num(1)],
        ['%', x, num(-1)],
        ['/', num(0), x],
        ['%', num(0), x],
      ];
      for (const [o, a, b] of folded) {
        expect(mop(o, type, a, b)).toEqual(num(0));
        const unfolded: Term = { k: 'mop', op: o, type, a, b };
        for (const xv of values) expect(evalTerm(unfolded, () => xv)).toBe(0n);
      }
      // not the others: x % 2, x / x
      expect(mop('%', type, x, num(2)).k).toBe('mop');
      expect(mop('/', type, x, x).k).toBe('mop');
    }
  });

  it('xor is its own inverse: (x ^ y) ^ y is x, x ^ x is 0, and modulo 2^32 on u32 (enumerated)', () => {
    const [x, y] = [v('x'), v('y')];
    const values = [...between(0n, 9n), 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 3n];
    for (const [xv, yv] of values.flatMap((a) => values.map((b) => [a, b] as const))) {
      const at = (n: string): bigint => (n === 'x' ? xv : yv);
      for (const t of [op('^', op('^', x, y), y), op('^', op('^', y, x), y), op('^', y, op('^', x, y)), op('^', y, op('^', y, x))]) {
        expect(t).toEqual(x);
        expect(evalTerm(op('^', op('^', x, y), y), at)).toBe(xv);
      }
      const machine = mop('^', 'u32', mop('^', 'u32', x, y), y);
      expect(machine).toEqual(castTerm('u32', x));
      // the term built without the rewrite computes the same value
      const unfolded: Term = { k: 'mop', op: '^', type: 'u32', a: { k: 'mop', op: '^', type: 'u32', a: x, b: y }, b: y };
      expect(evalTerm(machine, at)).toBe(evalTerm(unfolded, at));
    }
    expect(op('^', x, x)).toEqual(num(0));
    expect(mop('^', 'i32', x, x)).toEqual(num(0));
  });

  it("xor definitions: with x = y ^ z, y ^ z is x, x ^ z is y and x ^ y is z in the other facts; bitonic's t1 = t2 ^ j ∧ t1 ^ j > t1 ∧ t2 ^ j > t2 is false", () => {
    const ds = [nat('t1'), nat('t2'), nat('j'), nat('k')];
    const [t1, t2, j, k] = [v('t1'), v('t2'), v('j'), v('k')];
    const lower = (t: Term): Formula => cmp('>', op('^', t, j), t);
    // the partner written either way round, and the definition on either side
    for (const partner of [op('^', t2, j), op('^', j, t2)]) {
      for (const definition of [eq(t1, partner), eq(partner, t1)]) {
        const facts = [definition, lower(t1), lower(t2), cmp('<', t1, k), not(eq(t1, t2))];
        expect(expectEquivalent(ds, facts, 0n, 7n).decided).toBe(true);
      }
    }
    // a fact the definitions rewrite but do not decide stays equivalent, and keeps its models
    expect(expectEquivalent(ds, [eq(t1, op('^', t2, j)), cmp('<', op('^', t1, j), k), cmp('<', op('^', t2, j), k), not(eq(t1, t2))], 0n, 7n).count).toBeGreaterThan(0);
    // two definitions of each other (t1 = t2 ^ j ∧ t2 = t1 ^ j) keep each other: neither is rewritten to true
    expect(expectEquivalent(ds, [eq(t1, op('^', t2, j)), eq(t2, op('^', t1, j)), cmp('>', j, num(0))], 0n, 7n).count).toBeGreaterThan(0);
    // on u32, x ^ z is y modulo 2^32 only: y beyond the type is cast (t1 ^ j ≥ t2 fails for t2 = 2^32 + 1, holds for t2 < 2^32)
    const wide = [nat('t1', 34), nat('t2', 34), nat('j', 34)];
    const big = [0n, 1n, 2n, 3n, 2n ** 32n, 2n ** 32n + 1n, 2n ** 32n + 3n];
    // (t1 and t2 are used in four more facts each, so that neither is substituted: the definition rewrites the other facts)
    const uses = [t1, t2].flatMap((t) => [cmp('<', t, num(1n << 33n)), not(eq(t, num(5))), not(eq(t, num(6))), cmp('>=', plus(t, j), num(0))]);
    const back = [eq(t1, mop('^', 'u32', t2, j)), cmp('>=', mop('^', 'u32', t1, j), t2), ...uses];
    expect(simplify(wide, back).eliminated).toEqual([]);
    // a model for each t2 below 2^32 and each j (t1 is their xor), none for t2 beyond
    expect(expectEquivalent(wide, back, 0n, 0n, big).count).toBe(4 * big.length);
    const typed = wide.map((d) => ({ ...d, type: 'u32' as const }));
    expect(expectEquivalent(typed, [back[0]!, cmp('>', mop('^', 'u32', t1, j), t1), cmp('>', mop('^', 'u32', t2, j), t2), ...uses], 0n, 0n, big).decided).toBe(true);
  });

  it('xor by a common operand cancels: a ^ c = b ^ c is a = b, and on u32 their values modulo 2^32 (enumerated)', () => {
    const ds = [nat('a'), nat('b'), nat('c')];
    const [a, b, c] = [v('a'), v('b'), v('c')];
    for (const [x, y] of [
      [op('^', a, c), op('^', b, c)],
      [op('^', c, a), op('^', b, c)],
      [op('^', a, c), op('^', c, b)],
    ] as const) {
      expect(expectEquivalent(ds, [eq(x, y), not(eq(a, b))], 0n, 7n).decided).toBe(true);
      expect(expectEquivalent(ds, [not(eq(x, y)), cmp('<', a, b)], 0n, 7n).count).toBeGreaterThan(0);
    }
    // u32: a = 2^32 + 1 and b = 1 have one value of the type, so a ^ c = b ^ c holds with a ≠ b
    const wide = [nat('a', 34), nat('b', 34), nat('c', 34)];
    const big = [0n, 1n, 2n, 2n ** 32n, 2n ** 32n + 1n];
    const machine = [eq(mop('^', 'u32', a, c), mop('^', 'u32', b, c)), not(eq(a, b))];
    expect(expectEquivalent(wide, machine, 0n, 0n, big).count).toBeGreaterThan(0);
    expect(expectEquivalent(wide.map((d) => ({ ...d, type: 'u32' as const })), machine, 0n, 0n, big).decided).toBe(true);
  });

  it('two bounds of one linear form that contradict each other are false: x < y ∧ y < x, 2x < y + 3 ∧ y ≤ 2x − 3; x ≤ y ∧ y ≤ x is not', () => {
    const ds = [nat('x'), nat('y'), nat('z')];
    const [x, y, z] = [v('x'), v('y'), v('z')];
    const contradictions: Formula[][] = [
      [cmp('<', x, y), cmp('<', y, x)],
      [cmp('<', x, y), cmp('>', x, y)],
      [cmp('<=', plus(x, num(1)), y), cmp('<=', y, x)],
      [cmp('<', times(num(2), x), plus(y, num(3))), cmp('<=', y, op('+', times(num(2), x), num(-3)))],
      [cmp('<=', plus(y, num(2)), plus(x, z)), cmp('<=', plus(z, x), plus(y, num(1))), cmp('<', z, num(7))],
      [cmp('<', plus(x, z), y), cmp('<=', y, plus(z, x))],
    ];
    for (const facts of contradictions) expect(expectEquivalent(ds, facts, 0n, 7n).decided).toBe(true);
    const consistent: Formula[][] = [
      [cmp('<=', x, y), cmp('<=', y, x)],
      [cmp('<', x, plus(y, num(1))), cmp('<=', y, x)],
      [cmp('<', times(num(2), x), plus(y, num(3))), cmp('<=', y, op('+', times(num(2), x), num(-2)))],
    ];
    for (const facts of consistent) expect(expectEquivalent(ds, facts, 0n, 7n).count).toBeGreaterThan(0);
  });

  it("a bound among the facts decides its linear form inside another fact: a loop's i < n in both threads' paths, i < n ∧ ¬(i < n) and i < n ∧ ¬(j < n ∧ n > i) are false", () => {
    const ds = [nat('i'), nat('j'), nat('n')];
    const [i, j, n] = [v('i'), v('j'), v('n')];
    // a divergence query of uniform loops: thread 1 reaches the barrier (i < n ∧ j < n), thread 2 does not
    expect(expectEquivalent(ds, [cmp('<', i, n), not(cmp('<', i, n))], 0n, 5n).decided).toBe(true);
    expect(expectEquivalent(ds, [cmp('<', i, n), cmp('<', j, n), not(and([cmp('<', j, n), cmp('>', n, i)]))], 0n, 5n).decided).toBe(true);
    // 2·i + 1 ≤ 2·n − 1 is i < n too, written otherwise
    expect(expectEquivalent(ds, [cmp('<', i, n), not(cmp('<=', plus(times(num(2), i), num(1)), op('+', times(num(2), n), num(-1))))], 0n, 5n).decided).toBe(true);
    // a weaker fact decides nothing it does not imply: i ≤ n leaves i < n open
    const open = expectEquivalent(ds, [cmp('<=', i, n), or([not(cmp('<', i, n)), eq(j, num(2))]), not(eq(j, num(2)))], 0n, 5n);
    expect(open.decided).toBe(false);
    expect(open.count).toBeGreaterThan(0);
  });

  it("bounds that go round do not loosen a term's interval by the order they are read in: the casts of a cooperative group's thread_rank go, and two threads' ranks are one only where their ids are", () => {
    // t.x + t.y·bx + t.z·bx·by, u32 (CUDA's thread_block::thread_rank()), for two threads of one block of at most 1024
    const ds = ['bx', 'by', 'bz', 'x1', 'y1', 'z1', 'x2', 'y2', 'z2'].map((name) => ({ name, bits: 32 }));
    const [bx, by, bz] = [v('bx'), v('by'), v('bz')];
    const rank = (t: string, wrap: (x: Term) => Term): Term => wrap(plus(wrap(plus(v(`x${t}`), times(v(`y${t}`), bx))), times(v(`z${t}`), times(bx, by))));
    const u32 = (x: Term): Term => castTerm('u32', x);
    const launch = [cmp('<=', bx, num(1024)), cmp('<=', by, num(1024)), cmp('<=', bz, num(64)), cmp('<=', times(times(bx, by), bz), num(1024)), cmp('>=', bx, num(1)), cmp('>=', by, num(1)), cmp('>=', bz, num(1))];
    const inBlock = ['1', '2'].flatMap((t) => [cmp('<', v(`x${t}`), bx), cmp('<', v(`y${t}`), by), cmp('<', v(`z${t}`), bz)]);
    const distinct = or(['x', 'y', 'z'].map((a) => not(eq(v(`${a}1`), v(`${a}2`)))));
    const s = simplify(ds, [...launch, ...inBlock, distinct, eq(rank('1', (x) => x), rank('2', u32))]);
    expect(s.assertions).toEqual([FALSE]);
    // a small launch, enumerated: the same facts with the casts, and without the distinct ids (then a model)
    const small = [cmp('<=', bx, num(2)), cmp('<=', by, num(2)), cmp('<=', bz, num(1)), cmp('>=', bx, num(1)), cmp('>=', by, num(1)), cmp('>=', bz, num(1))];
    expect(expectEquivalent(ds, [...small, ...inBlock, eq(rank('1', (x) => x), rank('2', u32))], 0n, 2n).count).toBeGreaterThan(0);
  });

  it('a fact never proves itself: x ≤ 3 and x < 4 are kept, though each implies the other', () => {
    const ds = [nat('x')];
    const r = expectEquivalent(ds, [cmp('<=', v('x'), num(3)), cmp('<', v('x'), num(4))], 0n, 7n);
    expect(r.count).toBe(4);
    expect(simplify(ds, [cmp('<=', v('x'), num(3)), cmp('<', v('x'), num(4))]).assertions.length).toBeGreaterThan(0);
  });
  it("with `factor`, a disjunction's common conjuncts come out: a thread at one of several points whose index is its id, and two such threads with distinct ids, never meet", () => {
    // t·.point = k ∧ (path) ∧ t·.index = t·.id for k = 0, 1, 2 (the question of one array in one phase), and t1.id ≠ t2.id
    const ds = [nat('p1', 2), nat('p2', 2), nat('i'), nat('t1'), nat('t2'), nat('c')];
    const at = (t: string, index: Term): Formula => or([0, 1, 2].map((k) => and([eq(v(`p${t}`), num(k)), ...(k === 2 ? [cmp('<', v(t === '1' ? 't1' : 't2'), v('c'))] : []), eq(v('i'), index)])));
    const drf = [at('1', v('t1')), at('2', v('t2')), not(eq(v('t1'), v('t2')))];
    const small = between(0n, 3n);
    expect(expectEquivalent(ds, drf, 0n, 3n, small, factored).decided).toBe(true);
    // without it (every other query), the disjunctions stay as written
    expect(expectEquivalent(ds, drf, 0n, 3n, small).decided).toBe(false);
    // one point reads the neighbour's element: the equality is not common, a model is kept
    const neighbour = (t: string): Formula => or([and([eq(v(`p${t}`), num(0)), eq(v('i'), v(`t${t}`))]), and([eq(v(`p${t}`), num(1)), eq(v('i'), plus(v(`t${t}`), num(1)))])]);
    const racy = expectEquivalent(ds, [neighbour('1'), neighbour('2'), not(eq(v('t1'), v('t2')))], 0n, 3n, small, factored);
    expect(racy.decided).toBe(false);
    expect(racy.count).toBeGreaterThan(0);
    // a case that is the common part alone makes the rest true: x ∨ (x ∧ A) is x
    expect(simplify([nat('x'), nat('y')], [or([cmp('<', v('x'), num(2)), and([cmp('<', v('x'), num(2)), eq(v('y'), num(1))])])], { factor: true }).assertions).toEqual([cmp('<', v('x'), num(2))]);
  });
  it("a variable defined by a term is within the term's interval in the other facts: s = 4·b + t (b < 2, t < 4, s used too often to be substituted) settles ite(s ≤ 7, s, s − 8)", () => {
    const ds = [nat('b', 1), nat('t', 2), nat('s', 5), nat('y', 5)];
    const w = ite(cmp('<=', v('s'), num(7)), v('s'), op('-', v('s'), num(8)));
    const defined = eq(v('s'), plus(times(num(4), v('b')), v('t')));
    const uses = [not(eq(w, num(1))), not(eq(w, num(2))), not(eq(w, v('y')))];
    // s is 9 only where the ite takes its second branch, which the definition leaves out
    const r = expectEquivalent(ds, [defined, ...uses, eq(w, num(9))], 0n, 12n);
    expect(r.decided).toBe(true);
    // without the definition, w is 9 at s = 17: kept
    expect(simplify(ds, [...uses, eq(w, num(9)), cmp('<', num(7), v('s'))]).assertions).not.toEqual([FALSE]);
    // a model is kept where there is one, and the ite is gone from the facts that are not decided (`w = y` is `s = y`)
    expect(expectEquivalent(ds, [defined, ...uses, eq(w, num(5))], 0n, 12n).count).toBeGreaterThan(0);
    expect(JSON.stringify(simplify(ds, [defined, ...uses], { factor: false }).assertions, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x))).not.toContain('"ite"');
  });

  it("a conjunction inside a disjunction has its other conjuncts rewritten under its own bounds: k < 4 ∧ ¬(k + 1 ≤ 20) is false, k < 4 ∧ ¬(k + 1 ≤ 3) is kept", () => {
    const ds = [nat('k', 5), nat('j', 5)];
    const overflow = (c: number): Formula => and([cmp('<', v('k'), num(4)), not(cmp('<=', plus(v('k'), num(1)), num(c)))]);
    expect(expectEquivalent(ds, [or([overflow(20), and([cmp('<', v('j'), num(2)), not(cmp('<=', plus(v('j'), num(3)), num(20)))])])], 0n, 31n).decided).toBe(true);
    expect(expectEquivalent(ds, [or([overflow(3), eq(v('j'), num(40))])], 0n, 31n).count).toBeGreaterThan(0);
  });
});
