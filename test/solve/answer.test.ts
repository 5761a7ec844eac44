import { describe, expect, it } from 'vitest';
import { spentOf, verdictOfAnswer, valueOf, sexprs } from '../../src/solve/answer.js';
import { commandWords } from '../../src/solve/command.js';
import { declaredSymbols, standaloneScript } from '../../src/solve/script.js';

describe('solver answers', () => {
  it('reads values: integers, negatives, and bit-vectors in every notation', () => {
    expect(valueOf('42')).toBe(42n);
    expect(valueOf(['-', '3'])).toBe(-3n);
    expect(valueOf('#b0101')).toBe(5n);
    expect(valueOf('#x1F')).toBe(31n);
    expect(valueOf(['_', 'bv300', '33'])).toBe(300n);
    expect(valueOf('true')).toBeNull();
    expect(valueOf(['/', '1', '2'])).toBeNull();
  });

  it("reads Z3's and cvc5's sat answers, with |quoted| names", () => {
    const z3 = 'sat\n((blockDim.x 2)\n (t1.threadIdx.x 0)\n (|odd name| #x0a))\n';
    expect(verdictOfAnswer(z3, true)).toEqual({ status: 'sat', model: new Map([['blockDim.x', 2n], ['t1.threadIdx.x', 0n], ['odd name', 10n]]) });
    const cvc5 = 'sat\n((x (_ bv7 8)) (y #b00000001))\n(error "Can\'t get-info :reason-unknown when the last result wasn\'t unknown!")\n';
    expect(verdictOfAnswer(cvc5, true)).toEqual({ status: 'sat', model: new Map([['x', 7n], ['y', 1n]]) });
  });

  it('ignores the complaint that follows unsat, and keeps the reason of unknown', () => {
    expect(verdictOfAnswer('unsat\n(error "line 9 column 10: model is not available")\n', true)).toEqual({ status: 'unsat' });
    expect(verdictOfAnswer('unknown\n((x 0))\n(:reason-unknown "timeout")\n', true)).toEqual({ status: 'unknown', reason: 'timeout' });
    expect(verdictOfAnswer('unknown\n(error "no model")\n(:reason-unknown incomplete)\n', true)).toEqual({ status: 'unknown', reason: 'incomplete' });
  });

  it('never turns a missing or unreadable answer into unsat', () => {
    expect(verdictOfAnswer('', true)).toMatchObject({ status: 'unknown', reason: 'no answer from the solver: no output' });
    expect(verdictOfAnswer('(error "unsupported logic")\n', true)).toMatchObject({ status: 'unknown', reason: expect.stringContaining('unsupported logic') });
    expect(verdictOfAnswer('sat\n(error "model generation not enabled")\n', true)).toMatchObject({ status: 'unknown', reason: expect.stringContaining('model generation') });
    expect(verdictOfAnswer('sat\n((x 1.5))\n', true).status).toBe('unknown');
    expect(verdictOfAnswer('sat\n', false)).toEqual({ status: 'sat', model: new Map() });
  });

  it('does not take a verdict on part of the query: an error before the verdict makes it unknown', () => {
    // Z3 goes on after a command it rejects, and would decide the rest
    expect(verdictOfAnswer('(error "line 3 column 9: unknown constant y")\nsat\n((x 0))\n', true)).toEqual({
      status: 'unknown',
      reason: 'the solver rejected the query: line 3 column 9: unknown constant y',
    });
    expect(verdictOfAnswer('(error "line 3: bad")\nunsat\n', true).status).toBe('unknown');
  });

  it('reads the resource units Z3 spent', () => {
    expect(spentOf('unknown\n(:reason-unknown "canceled")\n(:rlimit 325)\n')).toBe(325);
    expect(spentOf('sat\n((x 1))\n')).toBeNull();
  });

  it('parses S-expressions with strings, comments and an unfinished tail', () => {
    expect(sexprs('; note\n(a "b "" c" (|x y| 1)) (unfinished')).toEqual([['a', '"b "" c"', ['|x y|', '1']]]);
  });
});

describe('standalone scripts', () => {
  const script = '; fragment: QF_LIA\n(set-logic ALL)\n(declare-const x Int)\n(declare-const |a b| Int)\n(assert (< x |a b|))';

  it('switch models on before the logic and ask for the value of every constant', () => {
    expect(declaredSymbols(script)).toEqual(['x', '|a b|']);
    expect(standaloneScript(script)).toBe(
      '; fragment: QF_LIA\n(set-option :produce-models true)\n(set-logic ALL)\n(declare-const x Int)\n(declare-const |a b| Int)\n(assert (< x |a b|))\n(check-sat)\n(get-value (x |a b|))',
    );
    expect(standaloneScript('(assert false)')).toBe('(set-option :produce-models true)\n(assert false)\n(check-sat)');
  });

  it('split a --solver-cmd into words, quotes grouping', () => {
    expect(commandWords(`yices-smt2  --timeout=5 "a b" 'c d' {file}`)).toEqual(['yices-smt2', '--timeout=5', 'a b', 'c d', '{file}']);
    expect(commandWords('   ')).toEqual([]);
  });
});
