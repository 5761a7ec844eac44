/**
 * Terms and formulas computed on natural numbers, the language's semantics:
 * used to read a solver's model back into source values and to check that a
 * witness really satisfies its query.
 */
import type { ArithOp, CmpOp } from '../syntax/ast.js';
import type { Formula, Term } from './term.js';

export function applyArith(op: ArithOp, a: bigint, b: bigint): bigint {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a >= b ? a - b : 0n;
    case '*':
      return a * b;
    case '/':
      return b === 0n ? 0n : a / b;
    case '%':
      return b === 0n ? a : a % b;
    case '<<':
      return a << b;
    case '>>':
      return a >> b;
    case '&':
      return a & b;
    case '|':
      return a | b;
    case '^':
      return a ^ b;
  }
}

export function applyCmp(op: CmpOp, a: bigint, b: bigint): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

export type Valuation = (name: string) => bigint;

export function evalTerm(t: Term, value: Valuation): bigint {
  switch (t.k) {
    case 'num':
      return t.v;
    case 'var':
      return value(t.name);
    case 'op':
      return applyArith(t.op, evalTerm(t.a, value), evalTerm(t.b, value));
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
