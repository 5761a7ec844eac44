/** The tactic each way of running Z3 checks a query with (src/solve/z3-script.ts). */
import { describe, expect, it } from 'vitest';
import { NATIVE, PREPROCESSED, RESEEDED, STANDARD, z3Script } from '../../src/solve/z3-script.js';

const INT = '; fragment: QF_LIA\n(set-logic ALL)\n(declare-const x Int)\n(assert (< x 3))\n';
const BV = '; fragment: QF_BV, width 8\n(set-logic ALL)\n(declare-const a (_ BitVec 8))\n(assert (= (bvxor a #x0f) #xff))\n';
const tacticOf = (script: string): string | undefined => /\(check-sat-using (.*)\)$/m.exec(script)?.[1];

describe('z3Script', () => {
  it('runs the z3 binary and the first z3-wasm strategy with qfbv on a bit-vector query and smt on an integer one', () => {
    for (const strategy of [NATIVE, STANDARD]) {
      expect(tacticOf(z3Script(BV, strategy, 1000, null))).toBe('qfbv');
      expect(tacticOf(z3Script(INT, strategy, 1000, null))).toBe('smt');
    }
  });

  it("keeps the other z3-wasm strategies on their own tactic whatever the query (a portfolio's second member tries smt on bit-vectors)", () => {
    expect(tacticOf(z3Script(BV, PREPROCESSED, 1000, 5000))).toBe(PREPROCESSED.tactic);
    expect(tacticOf(z3Script(BV, RESEEDED, 1000, 5000))).toBe(RESEEDED.tactic);
  });

  it('sets the budget before the query, and asks for the values of every constant', () => {
    const script = z3Script(BV, NATIVE, 1234, null);
    expect(script.startsWith('(set-option :rlimit 1234)\n')).toBe(true);
    expect(script).toContain('(get-value (a))');
    expect(script).not.toContain(':timeout');
  });
});
