/**
 * Terms and formulas computed with the interpreter's arithmetic (naturals,
 * and machine integers from src/core/arith.ts): used to read a solver's model back into source values and to
 * check that a witness really satisfies its query.
 */
import { machineValue, wrap } from '../core/arith.js';
import { applyArith, applyCmp } from '../semantics/values.js';
import type { Formula, Term } from './term.js';

export type Valuation = (name: string) => bigint;

export function evalTerm(t: Term, value: Valuation): bigint {
  switch (t.k) {
    case 'num':
      return t.v;
    case 'var':
      return value(t.name);
    case 'op':
      return applyArith(t.op, evalTerm(t.a, value), evalTerm(t.b, value));
    case 'mop':
      return machineValue(t.op, t.type, evalTerm(t.a, value), evalTerm(t.b, value));
    case 'cast':
      return wrap(t.type, evalTerm(t.a, value));
    case 'ite':
      return evalFormula(t.c, value) ? evalTerm(t.a, value) : evalTerm(t.b, value);
  }
}

export function evalFormula(f: Formula, value: Valuation): boolean {
  switch (f.k) {
    case 'const':
      return f.v;
    case 'cmp':
      return applyCmp(f.op, evalTerm(f.a, value), evalTerm(f.b, value));
    case 'and':
      return f.args.every((a) => evalFormula(a, value));
    case 'or':
      return f.args.some((a) => evalFormula(a, value));
    case 'not':
      return !evalFormula(f.arg, value);
  }
}
