/**
 * The logic the queries are written in: terms over naturals with the source
 * language's operators (truncated `-`, C's `/` and `%` with x/0 = 0 and
 * x%0 = x), terms over integers with the machine types' operators and casts
 * (`mop`, `cast`: the total values of src/core/arith.ts, exact mathematical
 * results that never wrap; their definedness is asserted apart), and
 * formulas over them. smtlib.ts prints them as integer or bit-vector
 * SMT-LIB; evaluate.ts computes them on a model.
 */
import type { ArithOp, CmpOp, MachineType } from '../core/ast.js';
import { machineValue, typeMax, wrap } from '../core/arith.js';
import { applyArith, applyCmp } from '../semantics/values.js';

export type Term =
  | { readonly k: 'num'; readonly v: bigint }
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'op'; readonly op: ArithOp; readonly a: Term; readonly b: Term }
  /** C's operator on a machine type: machineValue (src/core/arith.ts); shift counts are numbers */
  | { readonly k: 'mop'; readonly op: ArithOp; readonly type: MachineType; readonly a: Term; readonly b: Term }
  /** C's conversion to a machine type: the value reduced modulo 2^width into its range */
  | { readonly k: 'cast'; readonly type: MachineType; readonly a: Term }
  | { readonly k: 'ite'; readonly c: Formula; readonly a: Term; readonly b: Term };

export type Formula =
  | { readonly k: 'const'; readonly v: boolean }
  | { readonly k: 'cmp'; readonly op: CmpOp; readonly a: Term; readonly b: Term }
  | { readonly k: 'and'; readonly args: readonly Formula[] }
  | { readonly k: 'or'; readonly args: readonly Formula[] }
  | { readonly k: 'not'; readonly arg: Formula };

export const TRUE: Formula = { k: 'const', v: true };
export const FALSE: Formula = { k: 'const', v: false };

export const num = (v: bigint | number): Term => ({ k: 'num', v: BigInt(v) });
export const tvar = (name: string): Term => ({ k: 'var', name });
/** An operation, computed when both sides are numbers and simplified when one is a unit. */
export function op(o: ArithOp, a: Term, b: Term): Term {
  if (a.k === 'num' && b.k === 'num') return num(applyArith(o, a.v, b.v));
  const isNum = (t: Term, v: bigint): boolean => t.k === 'num' && t.v === v;
  switch (o) {
    case '+':
    case '|':
      if (isNum(a, 0n)) return b;
      if (isNum(b, 0n)) return a;
      break;
    case '^': {
      if (isNum(a, 0n)) return b;
      if (isNum(b, 0n)) return a;
      if (sameShape(a, b)) return num(0);
      // xor is its own inverse: (x ^ y) ^ y = x
      const rest = xorPartner(a, b, 'op') ?? xorPartner(b, a, 'op');
      if (rest !== null) return rest;
      break;
    }
    case '-':
    case '<<':
    case '>>':
      if (isNum(b, 0n)) return a;
      break;
    case '*':
      if (isNum(a, 1n)) return b;
      if (isNum(b, 1n)) return a;
      if (isNum(a, 0n) || isNum(b, 0n)) return num(0);
      break;
    case '/':
      if (isNum(b, 1n)) return a;
      // (x / c) / d = x / (c·d) for positive c and d, truncated or floored alike
      if (b.k === 'num' && b.v > 0n && a.k === 'op' && a.op === '/' && a.b.k === 'num' && a.b.v > 0n) return op('/', a.a, num(a.b.v * b.v));
      break;
    case '%':
      if (isNum(b, 1n)) return num(0);
      break;
    case '&':
      if (isNum(a, 0n) || isNum(b, 0n)) return num(0);
      break;
  }
  return { k: 'op', op: o, a, b };
}

/** A machine operation, computed when both sides are numbers and simplified where the result is exactly an operand. */
export function mop(o: ArithOp, type: MachineType, a: Term, b: Term): Term {
  if (a.k === 'num' && b.k === 'num') return num(machineValue(o, type, a.v, b.v));
  const isNum = (t: Term, v: bigint): boolean => t.k === 'num' && t.v === v;
  if ((o === '+' && isNum(a, 0n)) || (o === '*' && isNum(a, 1n))) return b;
  if (((o === '+' || o === '-') && isNum(b, 0n)) || ((o === '*' || o === '/') && isNum(b, 1n))) return a;
  // exact values: x·0, x % ±1 (a loop of step 1's membership (i − lo) % 1 = 0), 0 / x and 0 % x are 0
  if ((o === '*' && (isNum(a, 0n) || isNum(b, 0n))) || (o === '%' && (isNum(b, 1n) || isNum(b, -1n))) || ((o === '/' || o === '%') && isNum(a, 0n))) return num(0);
  if (o === '^') {
    // wrap(T, x ^ x) = 0, and wrap(T, wrap(T, x ^ y) ^ y) = wrap(T, x): xor and the reduction modulo 2^w commute
    if (sameShape(a, b)) return num(0);
    const rest = xorPartner(a, b, type) ?? xorPartner(b, a, type);
    if (rest !== null) return castTerm(type, rest);
  }
  // C's division truncates, and truncating by c then by d is truncating by c·d (a number of the type)
  if (o === '/' && b.k === 'num' && b.v > 0n && a.k === 'mop' && a.op === '/' && a.type === type && a.b.k === 'num' && a.b.v > 0n && a.b.v * b.v <= typeMax(type)) {
    return mop('/', type, a.a, num(a.b.v * b.v));
  }
  return { k: 'mop', op: o, type, a, b };
}

/** x where `t` is `x ^ y` (either way round) of the naturals ('op') or of the machine type, else null. */
function xorPartner(t: Term, y: Term, kind: 'op' | MachineType): Term | null {
  if ((t.k !== 'op' && t.k !== 'mop') || t.op !== '^' || (t.k === 'op' ? kind !== 'op' : t.type !== kind)) return null;
  if (sameShape(t.b, y)) return t.a;
  if (sameShape(t.a, y)) return t.b;
  return null;
}

/** Whether two terms are written alike (an ite only as the same object: its condition is a formula). */
export function sameShape(t: Term, u: Term): boolean {
  if (t === u) return true;
  switch (t.k) {
    case 'num':
      return u.k === 'num' && u.v === t.v;
    case 'var':
      return u.k === 'var' && u.name === t.name;
    case 'op':
      return u.k === 'op' && u.op === t.op && sameShape(t.a, u.a) && sameShape(t.b, u.b);
    case 'mop':
      return u.k === 'mop' && u.op === t.op && u.type === t.type && sameShape(t.a, u.a) && sameShape(t.b, u.b);
    case 'cast':
      return u.k === 'cast' && u.type === t.type && sameShape(t.a, u.a);
    case 'ite':
      return false;
  }
}

export function castTerm(type: MachineType, a: Term): Term {
  if (a.k === 'num') return num(wrap(type, a.v));
  // a value already of the type is left as it is
  if ((a.k === 'cast' || a.k === 'mop') && a.type === type && (a.k === 'cast' || ['&', '|', '^'].includes(a.op))) return a;
  return { k: 'cast', type, a };
}

export function ite(c: Formula, a: Term, b: Term): Term {
  if (c.k === 'const') return c.v ? a : b;
  return { k: 'ite', c, a, b };
}

export function cmp(o: CmpOp, a: Term, b: Term): Formula {
  if (a.k === 'num' && b.k === 'num') return { k: 'const', v: applyCmp(o, a.v, b.v) };
  if (a.k === 'var' && b.k === 'var' && a.name === b.name) return { k: 'const', v: o === '==' || o === '<=' || o === '>=' };
  return { k: 'cmp', op: o, a, b };
}
export const eq = (a: Term, b: Term): Formula => cmp('==', a, b);

export function and(args: readonly Formula[]): Formula {
  const flat: Formula[] = [];
  for (const f of args) {
    if (f.k === 'const') {
      if (!f.v) return FALSE;
      continue;
    }
    if (f.k === 'and') flat.push(...f.args);
    else flat.push(f);
  }
  if (flat.length === 0) return TRUE;
  return flat.length === 1 ? flat[0]! : { k: 'and', args: flat };
}

export function or(args: readonly Formula[]): Formula {
  const flat: Formula[] = [];
  for (const f of args) {
    if (f.k === 'const') {
      if (f.v) return TRUE;
      continue;
    }
    if (f.k === 'or') flat.push(...f.args);
    else flat.push(f);
  }
  if (flat.length === 0) return FALSE;
  return flat.length === 1 ? flat[0]! : { k: 'or', args: flat };
}

export const isTrue = (f: Formula): boolean => f.k === 'const' && f.v;

export function not(f: Formula): Formula {
  if (f.k === 'const') return { k: 'const', v: !f.v };
  if (f.k === 'not') return f.arg;
  return { k: 'not', arg: f };
}

/** The variables of a term, each shared node visited once (terms share subterms). */
export function termVars(t: Term, out: Set<string> = new Set()): Set<string> {
  varsOf(t, out, new Set());
  return out;
}

export function formulaVars(f: Formula, out: Set<string> = new Set()): Set<string> {
  varsOf(f, out, new Set());
  return out;
}

/** How many distinct nodes the formula has (terms share subterms: each is evaluated once per evaluation of it). */
export function distinctNodes(f: Formula): number {
  const seen = new Set<Term | Formula>();
  varsOf(f, new Set(), seen);
  return seen.size;
}

function varsOf(x: Term | Formula, out: Set<string>, seen: Set<Term | Formula>): void {
  if (seen.has(x)) return;
  seen.add(x);
  switch (x.k) {
    case 'num':
    case 'const':
      return;
    case 'var':
      out.add(x.name);
      return;
    case 'op':
    case 'mop':
    case 'cmp':
      varsOf(x.a, out, seen);
      return varsOf(x.b, out, seen);
    case 'cast':
      return varsOf(x.a, out, seen);
    case 'ite':
      varsOf(x.c, out, seen);
      varsOf(x.a, out, seen);
      return varsOf(x.b, out, seen);
    case 'and':
    case 'or':
      return x.args.forEach((a) => varsOf(a, out, seen));
    case 'not':
      return varsOf(x.arg, out, seen);
  }
}
