// Models found by evaluation (src/encode/search.ts): every model it returns
// satisfies the query exactly, within the declared ranges; it finds the small
// models of the usual race and scope shapes; it never answers an unsat query.
import { describe, expect, it } from 'vitest';
import { SEARCH_BUDGET, WORK_BUDGET, searchedModel } from '../../src/encode/search.js';
import { evalFormula } from '../../src/encode/evaluate.js';
import { declaredRange, type Declaration } from '../../src/encode/smtlib.js';
import { and, cmp, eq, not, num, op, or, tvar, type Formula, type Term } from '../../src/encode/term.js';

const v = tvar;
const nat = (name: string, bits = 32): Declaration => ({ name, bits });

function expectModel(ds: readonly Declaration[], fs: readonly Formula[]): Map<string, bigint> {
  const m = searchedModel(ds, fs);
  expect(m).not.toBeNull();
  for (const d of ds) {
    const r = declaredRange(d);
    expect(m!.has(d.name)).toBe(true);
    expect(m!.get(d.name)! >= r.min && m!.get(d.name)! <= r.max).toBe(true);
  }
  for (const f of fs) expect(evalFormula(f, (n) => m!.get(n)!)).toBe(true);
  return m!;
}

/** Two distinct threads of a block at the point of a loop `for x in 0..M` (figure 3's race). */
const figure3: [Declaration[], Formula[]] = [
  ['blockDim.x', 't1.threadIdx.x', 't2.threadIdx.x', 'p.M', 't1.p0.x'].map((n) => nat(n)),
  [
    cmp('>=', v('blockDim.x'), num(1)),
    cmp('<', v('t1.threadIdx.x'), v('blockDim.x')),
    cmp('<', v('t2.threadIdx.x'), v('blockDim.x')),
    not(eq(v('t1.threadIdx.x'), v('t2.threadIdx.x'))),
    cmp('<', v('t1.p0.x'), v('p.M')),
  ],
];

describe('searchedModel', () => {
  it('finds the smallest race of figure 3: two threads of a block of 2, M = 1', () => {
    const m = expectModel(...figure3);
    expect(Object.fromEntries(m)).toEqual({ 'blockDim.x': 2n, 't1.threadIdx.x': 0n, 't2.threadIdx.x': 1n, 'p.M': 1n, 't1.p0.x': 0n });
  });

  it('is deterministic', () => {
    expect(searchedModel(...figure3)).toEqual(searchedModel(...figure3));
  });

  it('takes the values equalities and bounds name (roots of linear comparisons), beyond the small ones', () => {
    // thread 2 at tid1 + 32 (a warp apart), n large
    const t1 = v('t1'), t2 = v('t2');
    const m = expectModel([nat('n'), nat('t1'), nat('t2')], [cmp('>=', v('n'), num(1000)), cmp('<', t2, v('n')), eq(t2, op('+', t1, num(32))), cmp('<', t1, t2)]);
    expect(m.get('n')).toBe(1000n);
    expect(m.get('t2')! - m.get('t1')!).toBe(32n);
    // an index equation 2·t1 + 3 = t2 + 7
    expectModel([nat('t1'), nat('t2')], [eq(op('+', op('*', num(2), t1), num(3)), op('+', t2, num(7))), not(eq(t1, t2))]);
  });

  it('tries the next powers of two for a variable a bitwise operation reads (a size that must be a power of two), and only for such a one', () => {
    // a block of at least 5 threads whose size is a power of two: 8, which no comparison names
    const pow2 = (x: Term): Formula => eq(op('&', x, op('-', x, num(1))), num(0));
    const m = expectModel([nat('bd'), nat('t')], [pow2(v('bd')), cmp('>', v('bd'), num(5)), cmp('<', v('t'), v('bd')), cmp('>=', v('t'), num(5))]);
    expect(m.get('bd')).toBe(8n);
    // bitonic's partner: t ^ j > t with t ≥ 4 and j a power of two below 8
    const j = v('j');
    expectModel([nat('t'), nat('j')], [cmp('>', op('^', v('t'), j), v('t')), cmp('>=', v('t'), num(4)), pow2(j), cmp('>=', j, num(1)), cmp('<', j, num(8))]);
    // without a bitwise operation 8 is not a candidate: x·x = 64 is not linear, and no comparison names 8
    expect(searchedModel([nat('x')], [eq(op('*', v('x'), v('x')), num(64))])).toBeNull();
    expect(searchedModel([nat('x')], [eq(op('*', v('x'), v('x')), num(64)), eq(op('&', v('x'), num(7)), num(0))])?.get('x')).toBe(8n);
  });

  it('respects declared ranges, signed ones included', () => {
    const m = expectModel([{ name: 'x', bits: 32, type: 'i32' }], [cmp('<', v('x'), num(-5))]);
    expect(m.get('x')).toBe(-6n);
    // a 2-bit variable cannot be 4: its top value 3 is tried
    expect(searchedModel([nat('y', 2)], [cmp('>=', v('y'), num(4))])).toBeNull();
    expect(expectModel([nat('y', 2)], [cmp('>=', v('y'), num(3))]).get('y')).toBe(3n);
  });

  it('a query without variables is a model when its facts hold, none when one fails', () => {
    expect(searchedModel([], [])).toEqual(new Map());
    expect(searchedModel([], [{ k: 'const', v: false }])).toBeNull();
  });

  it('never answers an unsat query', () => {
    const t1 = v('t1'), t2 = v('t2');
    const unsat: [Declaration[], Formula[]][] = [
      [[nat('x')], [cmp('<', v('x'), num(3)), cmp('>', v('x'), num(5))]],
      // two distinct threads at one element tid: the race query of A[tid]
      [[nat('t1'), nat('t2')], [eq(t1, t2), not(eq(t1, t2))]],
      // A[2·tid] against A[2·tid + 1]
      [[nat('t1'), nat('t2')], [eq(op('*', num(2), t1), op('+', op('*', num(2), t2), num(1)))]],
    ];
    for (const [ds, fs] of unsat) expect(searchedModel(ds, fs)).toBeNull();
  });

  it('goes back to the variable a failure names, past those assigned in between (a block of one thread has no second thread, whatever the counters)', () => {
    // assigned in the order bd, s, u, w, t2, t1: with bd = 1 no t1 differs from t2, and going back only to the previous
    // variable would retry every value of w, u and s (thousands of candidates) before bd = 2
    const bd = v('bd');
    const counter = (c: string): Formula => and([cmp('>=', v(c), num(1)), cmp('<=', v(c), op('+', bd, num(64)))]);
    const fs: Formula[] = [
      cmp('>=', bd, num(1)),
      counter('s'),
      counter('u'),
      counter('w'),
      cmp('<', v('t1'), bd),
      cmp('<', v('t2'), bd),
      not(eq(v('t1'), v('t2'))),
      not(eq(v('t2'), op('+', op('+', v('s'), v('u')), op('+', v('w'), num(1000))))),
    ];
    const m = expectModel(['bd', 's', 'u', 'w', 't1', 't2'].map((n) => nat(n)), fs);
    expect([m.get('bd'), m.get('s'), m.get('u'), m.get('w')]).toEqual([2n, 1n, 1n, 1n]);
  });

  it('gives up within its budget when the model is not among its candidates', () => {
    // x·x = 1369 holds at 37 only: no small value, and the comparison is not linear
    const square: Formula = eq(op('*', v('x'), v('x')), num(1369));
    expect(searchedModel([nat('x')], [square])).toBeNull();
    // a model beyond the budget is not found: figure 3's takes more than 5 candidates
    expect(searchedModel(...figure3, 5)).toBeNull();
    expect(searchedModel(...figure3, SEARCH_BUDGET)).not.toBeNull();
    // nor one whose facts are too large to evaluate often: x = 1 satisfies this one, but a single evaluation of it exceeds the work budget
    const huge = or(Array.from({ length: WORK_BUDGET }, (_, i) => eq(v('x'), num(i + 1))));
    expect(searchedModel([nat('x')], [huge])).toBeNull();
    expect(searchedModel([nat('x')], [or(Array.from({ length: 100 }, (_, i) => eq(v('x'), num(i + 1))))])?.get('x')).toBe(1n);
  });

  it('every model it returns satisfies the query: exhaustive over small linear queries', () => {
    // every conjunction of two comparisons among {x, y, x + y, 2x} and {0, 1, y, 3}: checked exactly, and found whenever a model exists in [0, 3]²
    const lhs: Term[] = [v('x'), v('y'), op('+', v('x'), v('y')), op('*', num(2), v('x'))];
    const rhs: Term[] = [num(0), num(1), v('y'), num(3)];
    const ops = ['==', '!=', '<', '<=', '>', '>='] as const;
    const atoms = lhs.flatMap((a) => rhs.flatMap((b) => ops.map((o) => cmp(o, a, b))));
    const ds = [nat('x', 2), nat('y', 2)];
    let found = 0;
    for (const f of atoms) {
      for (const g of atoms) {
        const fs = [f, or([g, and([f, g])])];
        const m = searchedModel(ds, fs);
        let exists = false;
        for (let x = 0n; x <= 3n; x++) for (let y = 0n; y <= 3n; y++) exists ||= fs.every((h) => evalFormula(h, (n) => (n === 'x' ? x : y)));
        if (m !== null) {
          found++;
          expect(fs.every((h) => evalFormula(h, (n) => m.get(n)!))).toBe(true);
        }
        // every value of a 2-bit variable is a candidate: the search is complete here
        expect(m !== null).toBe(exists);
      }
    }
    expect(found).toBeGreaterThan(1000);
  });
});
