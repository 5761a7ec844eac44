/**
 * SMT-LIB 2 printing. A query is written over the integers when its operators
 * allow it: + - * / % , shifts by a constant (a multiplication or division by
 * a power of two) and `&` with a constant 2^k - 1 (a remainder). Any other
 * bitwise operator or shift makes the query a bit-vector query, whose width is
 * computed from the inputs' bounds (every input below 2^32) so that no value
 * of the language's natural-number semantics can overflow it: both logics
 * then decide the same question. Only standard SMT-LIB is printed.
 *
 * Machine integers (`mop`, `cast`, typed declarations) may be negative: in the
 * integer logic they are plain integers (C's truncating division through
 * `div` of the magnitudes, casts as remainders by 2^width, `&` with 2^k − 1 as
 * a remainder); a bit-vector query that holds them is *signed*: its width
 * leaves a sign bit spare on top of every value's magnitude, comparisons are
 * signed, and `& | ^` and casts work on exactly the type's width (extract,
 * then sign- or zero-extend), so every operation is exact.
 */
import type { ArithOp, CmpOp, MachineType } from '../core/ast.js';
import { isSigned, typeMax, typeMin, WIDTH } from '../core/arith.js';
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
  /**
   * A machine-typed variable ranges over its type; `int`, an integer that may
   * be negative, over (−2^bits, 2^bits); `bits` bounds the magnitude.
   * Absent: a natural below 2^bits.
   */
  readonly type?: MachineType | 'int';
}

/** The values a declared variable ranges over (asserted with the query, checked on models). */
export function declaredRange(d: Declaration): { readonly min: bigint; readonly max: bigint } {
  const bound = 1n << BigInt(d.bits);
  if (d.type === undefined) return { min: 0n, max: bound - 1n };
  if (d.type === 'int') return { min: 1n - bound, max: bound - 1n };
  return { min: typeMin(d.type), max: typeMax(d.type) };
}

export interface Encoding {
  readonly logic: Logic;
  /** bit-vector width, when logic is QF_BV */
  readonly width: number | null;
  /** bit-vectors are read as two's complement (the query holds machine integers) */
  readonly signed?: boolean;
}

/** The widest bit-vector query we build; wider ones are reported as unsupported. */
export const MAX_WIDTH = 512;

export class EncodingLimit extends Error {}

const isPowerOfTwoMinusOne = (v: bigint): boolean => v >= 0n && ((v + 1n) & v) === 0n;

/** `a & m` or `m & a` on a machine type with a constant m = 2^k − 1 (k ≤ the width): the mask and the other operand. */
function maskOf(t: Extract<Term, { k: 'mop' }>): { x: Term; mask: bigint } | null {
  const fits = (v: Term): v is { k: 'num'; v: bigint } => v.k === 'num' && isPowerOfTwoMinusOne(v.v) && v.v < 1n << BigInt(WIDTH[t.type]);
  if (t.op !== '&') return null;
  if (fits(t.b)) return { x: t.a, mask: t.b.v };
  if (fits(t.a)) return { x: t.b, mask: t.a.v };
  return null;
}

function needsBitVectors(t: Term): boolean {
  switch (t.k) {
    case 'num':
    case 'var':
      return false;
    case 'cast':
      return needsBitVectors(t.a);
    case 'mop': {
      const sub = needsBitVectors(t.a) || needsBitVectors(t.b);
      switch (t.op) {
        case '<<':
        case '>>':
          return sub || t.b.k !== 'num';
        case '&':
          return sub || maskOf(t) === null;
        case '|':
        case '^':
          return true;
        default:
          return sub;
      }
    }
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
    case 'cast':
      return isNonlinear(t.a);
    case 'mop':
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

const bitLength = (v: bigint): number => (v === 0n ? 1 : (v < 0n ? -v : v).toString(2).length);

/** An upper bound on the bit length of the magnitude of every value the term (and its subterms) can take. */
export function termBits(t: Term, varBits: (name: string) => number, memo: Map<Term | Formula, number> = new Map()): number {
  const known = memo.get(t);
  if (known !== undefined) return known;
  const bits = termBitsOf(t, (x) => termBits(x, varBits, memo), (f) => formulaBits(f, varBits, memo), varBits);
  memo.set(t, bits);
  return bits;
}

function termBitsOf(t: Term, termBits: (t: Term) => number, formulaBits: (f: Formula) => number, varBits: (name: string) => number): number {
  switch (t.k) {
    case 'num':
      return bitLength(t.v);
    case 'var':
      return varBits(t.name);
    case 'ite':
      return Math.max(formulaBits(t.c), termBits(t.a), termBits(t.b));
    case 'cast':
      return Math.max(termBits(t.a), WIDTH[t.type]);
    case 'mop': {
      const a = termBits(t.a);
      const b = termBits(t.b);
      const widest = Math.max(a, b);
      switch (t.op) {
        case '+':
        case '-':
          return widest + 1;
        case '*':
          return Math.max(widest, a + b);
        case '<<':
          // only counts below the width shift; a count of a variable is a case split before it gets here
          return t.b.k === 'num' && t.b.v >= 0n && t.b.v < BigInt(WIDTH[t.type]) ? Math.max(widest, a + Number(t.b.v)) : widest + WIDTH[t.type];
        case '&':
        case '|':
        case '^':
          return Math.max(widest, WIDTH[t.type]);
        default:
          return widest;
      }
    }
    case 'op': {
      const a = termBits(t.a);
      const b = termBits(t.b);
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

function formulaBits(f: Formula, varBits: (name: string) => number, memo: Map<Term | Formula, number> = new Map()): number {
  const known = memo.get(f);
  if (known !== undefined) return known;
  let bits: number;
  switch (f.k) {
    case 'const':
      bits = 1;
      break;
    case 'cmp':
      bits = Math.max(termBits(f.a, varBits, memo), termBits(f.b, varBits, memo));
      break;
    case 'and':
    case 'or':
      bits = Math.max(1, ...f.args.map((a) => formulaBits(a, varBits, memo)));
      break;
    case 'not':
      bits = formulaBits(f.arg, varBits, memo);
      break;
  }
  memo.set(f, bits);
  return bits;
}

function termIsMachine(t: Term): boolean {
  switch (t.k) {
    case 'num':
      return t.v < 0n;
    case 'var':
      return false;
    case 'mop':
    case 'cast':
      return true;
    case 'op':
      return termIsMachine(t.a) || termIsMachine(t.b);
    case 'ite':
      return formulaIsMachine(t.c) || termIsMachine(t.a) || termIsMachine(t.b);
  }
}

function formulaIsMachine(f: Formula): boolean {
  switch (f.k) {
    case 'const':
      return false;
    case 'cmp':
      return termIsMachine(f.a) || termIsMachine(f.b);
    case 'and':
    case 'or':
      return f.args.some(formulaIsMachine);
    case 'not':
      return formulaIsMachine(f.arg);
  }
}

export function chooseEncoding(declarations: readonly Declaration[], assertions: readonly Formula[]): Encoding {
  if (!assertions.some(formulaNeedsBitVectors)) {
    return { logic: assertions.some(formulaIsNonlinear) ? 'QF_NIA' : 'QF_LIA', width: null };
  }
  return bitVectorEncoding(declarations, assertions);
}

/**
 * The bit-vector encoding of a query, wide enough that no value of it wraps
 * around: a query's own when it needs bit-vectors, and an equivalent second
 * encoding of an integer query (a portfolio races the two).
 */
export function bitVectorEncoding(declarations: readonly Declaration[], assertions: readonly Formula[]): Encoding {
  const bits = new Map(declarations.map((d) => [d.name, d.bits]));
  const varBits = (name: string): number => bits.get(name) ?? 32;
  const signed = declarations.some((d) => d.type !== undefined) || assertions.some(formulaIsMachine);
  // one spare bit keeps the largest value clear of the sign-free wrap point; a signed query needs one more for the sign
  const width = Math.max(...assertions.map((f) => formulaBits(f, varBits)), ...declarations.map((d) => d.bits)) + (signed ? 2 : 1);
  if (!Number.isFinite(width) || width > MAX_WIDTH) {
    throw new EncodingLimit(`the query needs bit-vectors wider than ${MAX_WIDTH} bits (a shift by a large amount?)`);
  }
  return signed ? { logic: 'QF_BV', width, signed } : { logic: 'QF_BV', width };
}

/** The solver's values read back: a signed bit-vector query's as two's complement. */
export function decodeModel(enc: Encoding, model: ReadonlyMap<string, bigint>): ReadonlyMap<string, bigint> {
  const w = enc.width;
  if (w === null || enc.signed !== true) return model;
  const half = 1n << BigInt(w - 1);
  return new Map([...model].map(([name, v]) => [name, v >= half ? v - (1n << BigInt(w)) : v]));
}

/** An integer literal: SMT-LIB has no negative numerals. */
function intLiteral(v: bigint): string {
  return v < 0n ? `(- ${-v})` : v.toString();
}

/** C's operations on a machine type over the integers (a shift count and a mask are numbers here). */
function intMachineTerm(t: Extract<Term, { k: 'mop' }>, a: string, b: string): string {
  const w = WIDTH[t.type];
  const count = t.b.k === 'num' && t.b.v >= 0n && t.b.v < BigInt(w) ? t.b.v : null;
  // truncating division and remainder from the Euclidean ones: by the magnitude of a negative dividend
  const truncated = (f: 'div' | 'mod'): string => `(ite (>= ${a} 0) (${f} ${a} ${b}) (- (${f} (- ${a}) ${b})))`;
  switch (t.op) {
    case '+':
      return `(+ ${a} ${b})`;
    case '-':
      return `(- ${a} ${b})`;
    case '*':
      return `(* ${a} ${b})`;
    case '/':
      if (t.b.k === 'num') return t.b.v === 0n ? '0' : truncated('div');
      return `(ite (= ${b} 0) 0 ${truncated('div')})`;
    case '%':
      if (t.b.k === 'num') return t.b.v === 0n ? a : truncated('mod');
      return `(ite (= ${b} 0) ${a} ${truncated('mod')})`;
    case '<<':
      if (t.b.k !== 'num') throw new Error('a machine shift by a variable has no integer encoding');
      return count === null ? '0' : `(* ${a} ${(1n << count).toString()})`;
    case '>>':
      if (t.b.k !== 'num') throw new Error('a machine shift by a variable has no integer encoding');
      return count === null ? '0' : `(div ${a} ${(1n << count).toString()})`;
    case '&': {
      const m = maskOf(t);
      if (m === null) throw new Error('operator & has no integer encoding but with a mask 2^k - 1');
      return `(mod ${intTerm(m.x)} ${(m.mask + 1n).toString()})`;
    }
    case '|':
    case '^':
      throw new Error(`operator ${t.op} has no integer encoding`);
  }
}

/** `(T) a` over the integers: the remainder by 2^width, shifted into a signed type's range. */
function intCast(type: MachineType, a: string): string {
  const modulus = (1n << BigInt(WIDTH[type])).toString();
  if (!isSigned(type)) return `(mod ${a} ${modulus})`;
  const half = (1n << BigInt(WIDTH[type] - 1)).toString();
  return `(- (mod (+ ${a} ${half}) ${modulus}) ${half})`;
}

export function symbol(name: string): string {
  return /^[A-Za-z~!@$%^&*_+=<>.?/-][A-Za-z0-9~!@$%^&*_+=<>.?/-]*$/.test(name) ? name : `|${name}|`;
}

export function printTerm(t: Term, enc: Encoding): string {
  const w = enc.width;
  if (w === null) return intTerm(t);
  const lit = (v: bigint): string => bvLiteral(v, w);
  /** the type's own bits of a value, then back to the query's width: exactly the modular reduction */
  const onType = (type: MachineType, x: string): string => `((_ ${isSigned(type) ? 'sign_extend' : 'zero_extend'} ${w - WIDTH[type]}) ${x})`;
  const low = (type: MachineType, x: string): string => `((_ extract ${WIDTH[type] - 1} 0) ${x})`;
  const go = (x: Term): string => {
    switch (x.k) {
      case 'num':
        return lit(x.v);
      case 'var':
        return symbol(x.name);
      case 'ite':
        return `(ite ${printFormula(x.c, enc)} ${go(x.a)} ${go(x.b)})`;
      case 'cast':
        return onType(x.type, low(x.type, go(x.a)));
      case 'mop': {
        const a = go(x.a);
        const b = go(x.b);
        const width = BigInt(WIDTH[x.type]);
        switch (x.op) {
          case '+':
            return `(bvadd ${a} ${b})`;
          case '-':
            return `(bvsub ${a} ${b})`;
          case '*':
            return `(bvmul ${a} ${b})`;
          case '/':
            if (x.b.k === 'num') return x.b.v === 0n ? lit(0n) : `(bvsdiv ${a} ${b})`;
            return `(ite (= ${b} ${lit(0n)}) ${lit(0n)} (bvsdiv ${a} ${b}))`;
          case '%':
            return `(ite (= ${b} ${lit(0n)}) ${a} (bvsrem ${a} ${b}))`;
          case '<<':
          case '>>': {
            const shifted = `(${x.op === '<<' ? 'bvshl' : 'bvashr'} ${a} ${b})`;
            if (x.b.k === 'num') return x.b.v >= 0n && x.b.v < width ? shifted : lit(0n);
            return `(ite (and (bvsle ${lit(0n)} ${b}) (bvslt ${b} ${lit(width)})) ${shifted} ${lit(0n)})`;
          }
          case '&':
          case '|':
          case '^':
            return onType(x.type, `(${x.op === '&' ? 'bvand' : x.op === '|' ? 'bvor' : 'bvxor'} ${low(x.type, a)} ${low(x.type, b)})`);
        }
      }
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
        if (x.op === '/') return x.b.k === 'num' ? (x.b.v === 0n ? lit(0n) : `(bvudiv ${a} ${b})`) : `(ite (= ${b} ${lit(0n)}) ${lit(0n)} (bvudiv ${a} ${b}))`;
        return `(${bvop[x.op]} ${a} ${b})`;
      }
    }
  };
  return go(t);
}

/** A bit-vector literal of the width; a negative value in two's complement. */
function bvLiteral(v: bigint, width: number): string {
  return `(_ bv${v < 0n ? (1n << BigInt(width)) + v : v} ${width})`;
}

function intTerm(t: Term): string {
  switch (t.k) {
    case 'num':
      return intLiteral(t.v);
    case 'var':
      return symbol(t.name);
    case 'ite':
      return `(ite ${printFormula(t.c, { logic: 'QF_NIA', width: null })} ${intTerm(t.a)} ${intTerm(t.b)})`;
    case 'mop':
      return intMachineTerm(t, intTerm(t.a), intTerm(t.b));
    case 'cast':
      return intCast(t.type, intTerm(t.a));
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
const BV_SIGNED_CMP: Record<CmpOp, string> = { '==': '=', '!=': 'distinct', '<': 'bvslt', '<=': 'bvsle', '>': 'bvsgt', '>=': 'bvsge' };

export function printFormula(f: Formula, enc: Encoding): string {
  switch (f.k) {
    case 'const':
      return f.v ? 'true' : 'false';
    case 'cmp': {
      const table = enc.width === null ? INT_CMP : enc.signed === true ? BV_SIGNED_CMP : BV_CMP;
      return `(${table[f.op]} ${printTerm(f.a, enc)} ${printTerm(f.b, enc)})`;
    }
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
  // docs/research.md), and every SMT-LIB solver accepts ALL.
  const lines: string[] = [`; fragment: ${enc.logic}${enc.width === null ? '' : `, width ${enc.width}`}`, '(set-logic ALL)'];
  for (const d of declarations) lines.push(`(declare-const ${symbol(d.name)} ${sortOf(enc)})`);
  for (const d of declarations) {
    const bound = (1n << BigInt(d.bits)).toString();
    if (d.type !== undefined) {
      const { min: lo, max: hi } = declaredRange(d);
      const v = symbol(d.name);
      lines.push(
        enc.width === null
          ? `(assert (and (<= ${intLiteral(lo)} ${v}) (<= ${v} ${intLiteral(hi)})))`
          : `(assert (and (bvsle ${bvLiteral(lo, enc.width)} ${v}) (bvsle ${v} ${bvLiteral(hi, enc.width)})))`,
      );
    } else if (enc.width === null) {
      lines.push(`(assert (and (<= 0 ${symbol(d.name)}) (< ${symbol(d.name)} ${bound})))`);
    } else if (d.bits < enc.width) {
      lines.push(`(assert (bvult ${symbol(d.name)} (_ bv${bound} ${enc.width})))`);
    }
  }
  for (const a of assertions) lines.push(`(assert ${printFormula(a, enc)})`);
  return lines.join('\n');
}
