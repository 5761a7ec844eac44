/**
 * Terms and formulas computed with the interpreter's arithmetic (naturals,
 * and machine integers from src/core/arith.ts): used to read a solver's model back into source values and to
 * check that a witness really satisfies its query.
 */
import { machineValue, wrap } from '../core/arith.js';
import { applyArith, applyCmp } from '../semantics/values.js';
import type { Formula, Term } from './term.js';

export type Valuation = (name: string) => bigint;

/**
 * Terms share subterms (a let's value at each use, src/encode/share.ts): each
 * node object is computed once per call, so a term costs what its graph does,
 * not what it would cost written out.
 */
export function evalTerm(t: Term, value: Valuation): bigint {
  return evaluator(value).term(t);
}

export function evalFormula(f: Formula, value: Valuation): boolean {
  return evaluator(value).formula(f);
}

function evaluator(value: Valuation): { term: (t: Term) => bigint; formula: (f: Formula) => boolean } {
  const terms = new Map<Term, bigint>();
  const formulas = new Map<Formula, boolean>();
  const term = (t: Term): bigint => {
    const known = terms.get(t);
    if (known !== undefined) return known;
    const v = termValue(t);
    terms.set(t, v);
    return v;
  };
  const termValue = (t: Term): bigint => {
    switch (t.k) {
      case 'num':
        return t.v;
      case 'var':
        return value(t.name);
      case 'op':
        return applyArith(t.op, term(t.a), term(t.b));
      case 'mop':
        return machineValue(t.op, t.type, term(t.a), term(t.b));
      case 'cast':
        return wrap(t.type, term(t.a));
      case 'ite':
        return formula(t.c) ? term(t.a) : term(t.b);
    }
  };
  const formula = (f: Formula): boolean => {
    const known = formulas.get(f);
    if (known !== undefined) return known;
    const v = formulaValue(f);
    formulas.set(f, v);
    return v;
  };
  const formulaValue = (f: Formula): boolean => {
    switch (f.k) {
      case 'const':
        return f.v;
      case 'cmp':
        return applyCmp(f.op, term(f.a), term(f.b));
      case 'and':
        return f.args.every(formula);
      case 'or':
        return f.args.some(formula);
      case 'not':
        return !formula(f.arg);
    }
  };
  return { term, formula };
}
