/**
 * SMT-LIB 2 printing. A query is written over the integers when its operators
 * allow it: + - * / % , shifts by a constant (a multiplication or division by
 * a power of two) and `&` with a constant 2^k - 1 (a remainder). Any other
 * bitwise operator or shift makes the query a bit-vector query, whose width is
 * computed from the inputs' bounds (every input below 2^32) so that no value
 * of the language's natural-number semantics can overflow it: both logics
 * then decide the same question. Only standard SMT-LIB is printed.
 */
import type { ArithOp, CmpOp } from '../core/ast.js';
import type { Formula, Term } from './term.js';

export type Logic = 'QF_LIA' | 'QF_NIA' | 'QF_BV';

export interface Declaration {
  readonly name: string;
  /**
   * An upper bound on the variable's bit length that the semantics implies
   * (inputs are below 2^32; loop variables below their bounds), asserted as
   * v < 2^bits so that bit-vector arithmetic cannot wrap around.
   */
  readonly bits: number;
}

export interface Encoding {
  readonly logic: Logic;
  /** bit-vector width, when logic is QF_BV */
  readonly width: number | null;
}

/** The widest bit-vector query we build; wider ones are reported as unsupported. */
export const MAX_WIDTH = 512;

export class EncodingLimit extends Error {}

const isPowerOfTwoMinusOne = (v: bigint): boolean => v >= 0n && ((v + 1n) & v) === 0n;

function needsBitVectors(t: Term): boolean {
  switch (t.k) {
    case 'num':
    case 'var':
      return false;
    case 'ite':
      return formulaNeedsBitVectors(t.c) || needsBitVectors(t.a) || needsBitVectors(t.b);
    case 'op': {
      const sub = needsBitVectors(t.a) || needsBitVectors(t.b);
      switch (t.op) {
        case '<<':
        case '>>':
          return sub || t.b.k !== 'num' || t.b.v > 4096n;
        case '&':
          return sub || !((t.b.k === 'num' && isPowerOfTwoMinusOne(t.b.v)) || (t.a.k === 'num' && isPowerOfTwoMinusOne(t.a.v)));
        case '|':
        case '^':
          return true;
        default:
          return sub;
      }
    }
  }
}

function formulaNeedsBitVectors(f: Formula): boolean {
  switch (f.k) {
    case 'const':
      return false;
    case 'cmp':
      return needsBitVectors(f.a) || needsBitVectors(f.b);
    case 'and':
    case 'or':
      return f.args.some(formulaNeedsBitVectors);
    case 'not':
      return formulaNeedsBitVectors(f.arg);
  }
}

function isNonlinear(t: Term): boolean {
  switch (t.k) {
    case 'num':
    case 'var':
      return false;
    case 'ite':
      return formulaIsNonlinear(t.c) || isNonlinear(t.a) || isNonlinear(t.b);
    case 'op': {
      const sub = isNonlinear(t.a) || isNonlinear(t.b);
      if (t.op === '*') return sub || (t.a.k !== 'num' && t.b.k !== 'num');
      if (t.op === '/' || t.op === '%') return sub || t.b.k !== 'num';
      return sub;
    }
  }
}

function formulaIsNonlinear(f: Formula): boolean {
  switch (f.k) {
    case 'const':
      return false;
    case 'cmp':
      return isNonlinear(f.a) || isNonlinear(f.b);
    case 'and':
    case 'or':
      return f.args.some(formulaIsNonlinear);
    case 'not':
      return formulaIsNonlinear(f.arg);
  }
}

const bitLength = (v: bigint): number => (v === 0n ? 1 : v.toString(2).length);

/** An upper bound on the bit length of every value the term (and its subterms) can take. */
export function termBits(t: Term, varBits: (name: string) => number): number {
  switch (t.k) {
    case 'num':
      return bitLength(t.v);
    case 'var':
      return varBits(t.name);
    case 'ite':
      return Math.max(formulaBits(t.c, varBits), termBits(t.a, varBits), termBits(t.b, varBits));
    case 'op': {
      const a = termBits(t.a, varBits);
      const b = termBits(t.b, varBits);
      const widest = Math.max(a, b);
      switch (t.op) {
        case '+':
          return widest + 1;
        case '*':
          return Math.max(widest, a + b);
        case '<<': {
          const maxShift = t.b.k === 'num' ? Number(t.b.v) : b > 20 ? Infinity : 2 ** b - 1;
          return Math.max(widest, a + maxShift);
        }
        default:
          return widest;
      }
    }
  }
}

function formulaBits(f: Formula, varBits: (name: string) => number): number {
  switch (f.k) {
    case 'const':
      return 1;
    case 'cmp':
      return Math.max(termBits(f.a, varBits), termBits(f.b, varBits));
    case 'and':
    case 'or':
      return Math.max(1, ...f.args.map((a) => formulaBits(a, varBits)));
    case 'not':
      return formulaBits(f.arg, varBits);
  }
}

export function chooseEncoding(declarations: readonly Declaration[], assertions: readonly Formula[]): Encoding {
  if (!assertions.some(formulaNeedsBitVectors)) {
    return { logic: assertions.some(formulaIsNonlinear) ? 'QF_NIA' : 'QF_LIA', width: null };
  }
  return bitVectorEncoding(declarations, assertions);
}

/**
 * The bit-vector encoding, wide enough for every value: a query's own when
 * it needs bit-vectors, and an equivalent second encoding of an integer query
 * (a portfolio races the two).
 */
export function bitVectorEncoding(declarations: readonly Declaration[], assertions: readonly Formula[]): Encoding {
  const bits = new Map(declarations.map((d) => [d.name, d.bits]));
  const varBits = (name: string): number => bits.get(name) ?? 32;
  // one spare bit keeps the largest value clear of the sign-free wrap point
  const width = Math.max(...assertions.map((f) => formulaBits(f, varBits)), ...declarations.map((d) => d.bits)) + 1;
  if (!Number.isFinite(width) || width > MAX_WIDTH) {
    throw new EncodingLimit(`the query needs bit-vectors wider than ${MAX_WIDTH} bits (a shift by a large amount?)`);
  }
  return { logic: 'QF_BV', width };
}

export function symbol(name: string): string {
  return /^[A-Za-z~!@$%^&*_+=<>.?/-][A-Za-z0-9~!@$%^&*_+=<>.?/-]*$/.test(name) ? name : `|${name}|`;
}

export function printTerm(t: Term, enc: Encoding): string {
  const w = enc.width;
  if (w === null) return intTerm(t);
  const lit = (v: bigint): string => `(_ bv${v} ${w})`;
  const go = (x: Term): string => {
    switch (x.k) {
      case 'num':
        return lit(x.v);
      case 'var':
        return symbol(x.name);
      case 'ite':
        return `(ite ${printFormula(x.c, enc)} ${go(x.a)} ${go(x.b)})`;
      case 'op': {
        const a = go(x.a);
        const b = go(x.b);
        const bvop: Record<ArithOp, string> = {
          '+': 'bvadd',
          '-': '',
          '*': 'bvmul',
          '/': '',
          '%': 'bvurem',
          '<<': 'bvshl',
          '>>': 'bvlshr',
          '&': 'bvand',
          '|': 'bvor',
          '^': 'bvxor',
        };
        if (x.op === '-') return `(ite (bvule ${b} ${a}) (bvsub ${a} ${b}) ${lit(0n)})`;
        if (x.op === '/') return `(ite (= ${b} ${lit(0n)}) ${lit(0n)} (bvudiv ${a} ${b}))`;
        return `(${bvop[x.op]} ${a} ${b})`;
      }
    }
  };
  return go(t);
}

function intTerm(t: Term): string {
  switch (t.k) {
    case 'num':
      return t.v.toString();
    case 'var':
      return symbol(t.name);
    case 'ite':
      return `(ite ${printFormula(t.c, { logic: 'QF_NIA', width: null })} ${intTerm(t.a)} ${intTerm(t.b)})`;
    case 'op': {
      const a = intTerm(t.a);
      const b = intTerm(t.b);
      switch (t.op) {
        case '+':
          return `(+ ${a} ${b})`;
        case '-':
          return `(ite (<= ${b} ${a}) (- ${a} ${b}) 0)`;
        case '*':
          return `(* ${a} ${b})`;
        case '/':
          if (t.b.k === 'num') return t.b.v === 0n ? '0' : `(div ${a} ${b})`;
          return `(ite (= ${b} 0) 0 (div ${a} ${b}))`;
        case '%':
          if (t.b.k === 'num') return t.b.v === 0n ? a : `(mod ${a} ${b})`;
          return `(ite (= ${b} 0) ${a} (mod ${a} ${b}))`;
        case '<<':
          return `(* ${a} ${(1n << (t.b as { v: bigint }).v).toString()})`;
        case '>>':
          return `(div ${a} ${(1n << (t.b as { v: bigint }).v).toString()})`;
        case '&': {
          const [x, mask] = t.b.k === 'num' ? [a, t.b.v] : [b, (t.a as { v: bigint }).v];
          return `(mod ${x} ${(mask + 1n).toString()})`;
        }
        case '|':
        case '^':
          throw new Error(`operator ${t.op} has no integer encoding`);
      }
    }
  }
}

const INT_CMP: Record<CmpOp, string> = { '==': '=', '!=': 'distinct', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
const BV_CMP: Record<CmpOp, string> = { '==': '=', '!=': 'distinct', '<': 'bvult', '<=': 'bvule', '>': 'bvugt', '>=': 'bvuge' };

export function printFormula(f: Formula, enc: Encoding): string {
  switch (f.k) {
    case 'const':
      return f.v ? 'true' : 'false';
    case 'cmp':
      return `(${(enc.width === null ? INT_CMP : BV_CMP)[f.op]} ${printTerm(f.a, enc)} ${printTerm(f.b, enc)})`;
    case 'and':
      return `(and ${f.args.map((a) => printFormula(a, enc)).join(' ')})`;
    case 'or':
      return `(or ${f.args.map((a) => printFormula(a, enc)).join(' ')})`;
    case 'not':
      return `(not ${printFormula(f.arg, enc)})`;
  }
}

export function sortOf(enc: Encoding): string {
  return enc.width === null ? 'Int' : `(_ BitVec ${enc.width})`;
}

/** Declarations and the natural-number bounds of every variable, then the assertions. */
export function printScript(
  declarations: readonly Declaration[],
  assertions: readonly Formula[],
  enc: Encoding,
): string {
  // The fragment is named in a comment; the script declares ALL because Z3
  // picks a far slower strategy for QF_NIA and QF_BV on these queries (see
  // the README), and every SMT-LIB solver accepts ALL.
  const lines: string[] = [`; fragment: ${enc.logic}${enc.width === null ? '' : `, width ${enc.width}`}`, '(set-logic ALL)'];
  for (const d of declarations) lines.push(`(declare-const ${symbol(d.name)} ${sortOf(enc)})`);
  for (const d of declarations) {
    const bound = (1n << BigInt(d.bits)).toString();
    if (enc.width === null) {
      lines.push(`(assert (and (<= 0 ${symbol(d.name)}) (< ${symbol(d.name)} ${bound})))`);
    } else if (d.bits < enc.width) {
      lines.push(`(assert (bvult ${symbol(d.name)} (_ bv${bound} ${enc.width})))`);
    }
  }
  for (const a of assertions) lines.push(`(assert ${printFormula(a, enc)})`);
  return lines.join('\n');
}
