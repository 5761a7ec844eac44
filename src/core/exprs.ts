/** Generic traversals of expressions: free variables, substitution, builtins used. */
import type { BExpr, BuiltinName, Axis, Expr } from './ast.js';
import { assertNever } from '../util/assert.js';

/** What an expression or a condition evaluates directly, in order (a conditional's condition first). */
export function operandsOf(n: Expr | BExpr): (Expr | BExpr)[] {
  switch (n.kind) {
    case 'nat':
    case 'int':
    case 'var':
    case 'builtin':
    case 'bool':
      return [];
    case 'binary':
    case 'cmp':
    case 'and':
    case 'or':
      return [n.left, n.right];
    case 'cast':
    case 'not':
      return [n.operand];
    case 'ite':
      return [n.cond, n.then, n.else];
    default:
      return assertNever(n);
  }
}

/** The leaves of an expression: numbers, variables and builtins, those of a conditional's condition included. */
export function exprLeaves(e: Expr): Expr[] {
  switch (e.kind) {
    case 'nat':
    case 'int':
    case 'var':
    case 'builtin':
      return [e];
    case 'binary':
      return [...exprLeaves(e.left), ...exprLeaves(e.right)];
    case 'cast':
      return exprLeaves(e.operand);
    case 'ite':
      return [...bexprOperands(e.cond).flatMap(exprLeaves), ...exprLeaves(e.then), ...exprLeaves(e.else)];
    default:
      return assertNever(e);
  }
}

/** The arithmetic expressions a condition compares. */
export function bexprOperands(c: BExpr): Expr[] {
  switch (c.kind) {
    case 'bool':
      return [];
    case 'cmp':
      return [c.left, c.right];
    case 'and':
    case 'or':
      return [...bexprOperands(c.left), ...bexprOperands(c.right)];
    case 'not':
      return bexprOperands(c.operand);
    default:
      return assertNever(c);
  }
}

/**
 * Each distinct leaf object once: a pure let's value is inlined by reference
 * at every use (src/map/infer.ts), so an expression is a graph that may be
 * exponentially larger written out as a tree.
 */
function distinctLeaves(e: Expr, out: Expr[] = [], seen: Set<Expr | BExpr> = new Set()): Expr[] {
  if (seen.has(e)) return out;
  seen.add(e);
  switch (e.kind) {
    case 'nat':
    case 'int':
    case 'var':
    case 'builtin':
      out.push(e);
      return out;
    case 'binary':
      distinctLeaves(e.left, out, seen);
      return distinctLeaves(e.right, out, seen);
    case 'cast':
      return distinctLeaves(e.operand, out, seen);
    case 'ite':
      for (const x of bexprOperands(e.cond)) distinctLeaves(x, out, seen);
      distinctLeaves(e.then, out, seen);
      return distinctLeaves(e.else, out, seen);
    default:
      return assertNever(e);
  }
}

export function exprVars(e: Expr, out: Set<string> = new Set()): Set<string> {
  for (const leaf of distinctLeaves(e)) if (leaf.kind === 'var') out.add(leaf.name);
  return out;
}

export function bexprVars(c: BExpr, out: Set<string> = new Set()): Set<string> {
  for (const e of bexprOperands(c)) exprVars(e, out);
  return out;
}

export type Substitution = ReadonlyMap<string, Expr>;

export function substExpr(e: Expr, sub: Substitution): Expr {
  if (sub.size === 0) return e;
  switch (e.kind) {
    case 'nat':
    case 'int':
    case 'builtin':
      return e;
    case 'var': {
      const to = sub.get(e.name);
      // a renaming keeps the type the variable is used with
      return to === undefined ? e : to.kind === 'var' && to.type === undefined && e.type !== undefined ? { ...to, type: e.type } : to;
    }
    case 'binary':
      return { ...e, left: substExpr(e.left, sub), right: substExpr(e.right, sub) };
    case 'cast':
      return { ...e, operand: substExpr(e.operand, sub) };
    case 'ite':
      return { ...e, cond: substBExpr(e.cond, sub), then: substExpr(e.then, sub), else: substExpr(e.else, sub) };
    default:
      return assertNever(e);
  }
}

export function substBExpr(c: BExpr, sub: Substitution): BExpr {
  if (sub.size === 0) return c;
  switch (c.kind) {
    case 'bool':
      return c;
    case 'cmp':
      return { ...c, left: substExpr(c.left, sub), right: substExpr(c.right, sub) };
    case 'and':
    case 'or':
      return { ...c, left: substBExpr(c.left, sub), right: substBExpr(c.right, sub) };
    case 'not':
      return { ...c, operand: substBExpr(c.operand, sub) };
    default:
      return assertNever(c);
  }
}

export function exprBuiltins(e: Expr, out: Set<`${BuiltinName}.${Axis}`> = new Set()): Set<`${BuiltinName}.${Axis}`> {
  for (const leaf of distinctLeaves(e)) if (leaf.kind === 'builtin') out.add(`${leaf.name}.${leaf.axis}`);
  return out;
}

export function bexprBuiltins(c: BExpr, out: Set<`${BuiltinName}.${Axis}`> = new Set()): Set<`${BuiltinName}.${Axis}`> {
  for (const e of bexprOperands(c)) exprBuiltins(e, out);
  return out;
}

const PRECEDENCE: Record<string, number> = { '|': 1, '^': 2, '&': 3, '<<': 4, '>>': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6 };
/** a cast binds tighter than every binary operator */
const CAST_PRECEDENCE = 7;

/** Prints an expression in source syntax with the fewest parentheses C precedence allows; CUDA's style spells threadIdx.x out. */
export function showExpr(e: Expr, parent = 0, rightOperand = false, style: 'bcu' | 'cuda' = 'bcu'): string {
  switch (e.kind) {
    case 'nat':
    case 'int':
      return e.value.toString();
    case 'var':
      return e.name;
    case 'builtin':
      return e.name === 'threadIdx' && e.axis === 'x' && style === 'bcu' ? 'tid' : `${e.name}.${e.axis}`;
    case 'binary': {
      const p = PRECEDENCE[e.op]!;
      const text = `${showExpr(e.left, p, false, style)} ${e.op} ${showExpr(e.right, p, true, style)}`;
      return p < parent || (rightOperand && p === parent) ? `(${text})` : text;
    }
    case 'cast':
      return `(${e.type}) ${showExpr(e.operand, CAST_PRECEDENCE, false, style)}`;
    case 'ite': {
      const text = `${showBExpr(e.cond, 3, style)} ? ${showExpr(e.then, 0, false, style)} : ${showExpr(e.else, 0, false, style)}`;
      return parent > 0 ? `(${text})` : text;
    }
    default:
      return assertNever(e);
  }
}

export function showBExpr(c: BExpr, parent = 0, style: 'bcu' | 'cuda' = 'bcu'): string {
  switch (c.kind) {
    case 'bool':
      return c.value ? 'true' : 'false';
    case 'cmp':
      return `${showExpr(c.left, 0, false, style)} ${c.op} ${showExpr(c.right, 0, false, style)}`;
    case 'and': {
      const text = `${showBExpr(c.left, 2, style)} && ${showBExpr(c.right, 2, style)}`;
      return parent > 2 ? `(${text})` : text;
    }
    case 'or': {
      const text = `${showBExpr(c.left, 1, style)} || ${showBExpr(c.right, 1, style)}`;
      return parent > 1 ? `(${text})` : text;
    }
    case 'not':
      return c.operand.kind === 'bool' ? `!${showBExpr(c.operand, 0, style)}` : `!(${showBExpr(c.operand, 0, style)})`;
    default:
      return assertNever(c);
  }
}
