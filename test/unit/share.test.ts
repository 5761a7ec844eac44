/**
 * Shared subterms (src/encode/share.ts): a chain of lets that each use the
 * one before more than once is inlined by the protocol at every use, and
 * written out as a tree its query would grow exponentially with the chain.
 * Named once, the query as built and as printed grows linearly, and it asks
 * the same question (a model completes and satisfies the query as built).
 */
import { describe, expect, it } from 'vitest';
import * as b from '../support/core.js';
import type { Expr, Stmt } from '../../src/core/ast.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { raceQueries, undefinedOperationsQuery, type Query } from '../../src/encode/query.js';
import { shareSubterms } from '../../src/encode/share.js';
import { printScript } from '../../src/encode/smtlib.js';
import { cmp, eq, ite, mop, num, tvar, type Formula, type Term } from '../../src/encode/term.js';
import { evalFormula, evalTerm } from '../../src/encode/evaluate.js';
import { codeOf } from '../../src/phases/split.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { verifyKernel } from '../../src/verify/verify.js';

const tid = b.tidAs('i32');

/** a0 = tid; a(k) = a(k-1) > 0 ? a(k-1) - 1 : a(k-1) + 1 (each i32 step may overflow); then A[a(n)] := 1, A[tid + 1] := 2. */
function chain(n: number) {
  const a = (k: number): Expr => (k === 0 ? tid : b.v(`a${k}`, 'i32'));
  const body = (k: number): Stmt =>
    k > n
      ? b.if_(b.TRUE, [b.write('A', [a(n)], b.i32(1)), b.write('A', [b.add(tid, b.i32(1))], b.i32(2))])
      : b.let_(`a${k}`, b.ite(b.cmp('>', a(k - 1), b.i32(0)), b.sub(a(k - 1), b.i32(1)), b.add(a(k - 1), b.i32(1))), body(k + 1));
  return b.kernel(`chain${n}`, { arrays: [b.shared('A')] }, [body(1)]);
}

function queriesOf(n: number): Query[] {
  const map = b.mapOf(chain(n));
  return raceQueries({ map, vars: map.vars, launch: NO_LAUNCH, code: codeOf(map.body, 'erase'), array: 'A', level: 'block', phase: 0 });
}

/** Symbols and literals of the SMT-LIB text: the query's size, whatever the length of its numbers. */
const tokens = (script: string): number => script.split(/[\s()]+/).filter(Boolean).length;

const sizes = (n: number): { built: number; printed: number } => {
  const qs = queriesOf(n);
  return {
    built: qs.reduce((s, q) => s + tokens(printScript(q.built.declarations, q.built.assertions, q.encoding)), 0),
    printed: qs.reduce((s, q) => s + tokens(printScript(q.declarations, q.assertions, q.encoding)), 0),
  };
};

describe('shared subterms', () => {
  it('a query of a chain of n dependent lets is printed in size linear in n, and built far below exponential', () => {
    const [s8, s16, s32] = [8, 16, 32].map(sizes) as [ReturnType<typeof sizes>, ReturnType<typeof sizes>, ReturnType<typeof sizes>];
    // written out, each let would triple the text (a(k-1) three times in a(k)): 3^32 tokens
    for (const [small, large] of [
      [s8, s16],
      [s16, s32],
    ] as const) {
      expect(large.printed).toBeLessThan(2.3 * small.printed);
      // the definedness of each let is restated in the next one's conditions: at most quadratic
      expect(large.built).toBeLessThan(4 * small.built);
    }
    expect(s32.printed).toBeLessThan(30_000);
    expect(s32.built).toBeLessThan(100_000);
  });

  it('asks the same question: a chain of lets keeps its race, with a witness that completes', async () => {
    const k = chain(12);
    const result = await verifyKernel(b.mapOf(k), { launch: { params: new Map(), blockDim: [4n, 1n, 1n], gridDim: [1n, 1n, 1n] }, timeoutMs: 20_000, maxRaces: 4, solver: z3Wasm });
    expect(result.status).toBe('racy');
    expect(result.races.some((r) => r.confidence === 'confirmed')).toBe(true);
  });

  it('asks whether an operation of a chain of lets is undefined with a question linear in the chain (each let walked once, not at every use)', () => {
    const size = (n: number): number => {
      const found = undefinedOperationsQuery(b.mapOf(chain(n)), NO_LAUNCH, () => false);
      expect(found).not.toBeNull();
      const q = found!.query;
      return tokens(printScript(q.built.declarations, q.built.assertions, q.encoding));
    };
    const [s4, s8] = [size(4), size(8)];
    // walked as a tree, each let triples the walk (a(k-1) is used three times in a(k)): 3^4 times more
    expect(s8).toBeLessThan(3 * s4);
  });

  it('names a large term written twice, with its defining equation, and leaves small or single ones alone', () => {
    const x = tvar('x');
    let big: Term = x;
    for (let i = 0; i < 8; i++) big = mop('+', 'i32', mop('*', 'i32', big, num(3)), num(1));
    const facts: Formula[] = [cmp('<', big, num(10)), cmp('>', big, num(-10)), eq(mop('+', 'i32', x, num(1)), num(2)), cmp('<', mop('+', 'i32', x, num(1)), num(5))];
    const s = shareSubterms([{ name: 'x', bits: 32, type: 'i32' }], facts);
    expect(s.names).toEqual(['share.0']);
    expect(s.declarations).toEqual([expect.objectContaining({ name: 'share.0', type: 'int' })]);
    expect(s.assertions[0]).toEqual(eq(tvar('share.0'), big));
    expect(s.assertions.slice(1)).toEqual([cmp('<', tvar('share.0'), num(10)), cmp('>', tvar('share.0'), num(-10)), facts[2], facts[3]]);
    // the same truth value on every assignment of x, once share.0 is given its term's value
    for (const v of [-5n, -1n, 0n, 1n, 7n]) {
      const value = (n: string): bigint => (n === 'x' ? v : evalTerm(big, (m) => (m === 'x' ? v : 0n)));
      const original = facts.every((f) => evalFormula(f, (n) => (n === 'x' ? v : 0n)));
      expect(s.assertions.every((f) => evalFormula(f, value))).toBe(original);
    }
  });

  it('names a repeated formula as a 0/1 constant', () => {
    const x = tvar('x');
    let big: Term = x;
    for (let i = 0; i < 8; i++) big = mop('+', 'i32', mop('*', 'i32', big, num(3)), num(1));
    const f = cmp('<', big, x);
    const s = shareSubterms([{ name: 'x', bits: 32, type: 'i32' }], [f, { k: 'or', args: [f, eq(x, num(3))] }]);
    // the formula is written twice; named, its term is written once, inside its definition
    expect(s.assertions).toEqual([eq(tvar('share.0'), ite(f, num(1), num(0))), eq(tvar('share.0'), num(1)), { k: 'or', args: [eq(tvar('share.0'), num(1)), eq(x, num(3))] }]);
  });
});
