/**
 * The integer types of core expressions: `typeOf` (structural), whether a
 * kernel uses machine integers at all (its reports then state the scope of
 * their proofs), whether an expression may be undefined, and the type rules a
 * front end's core program must follow (checked with names, so that a
 * lowering mistake is an error at its place rather than a wrong verdict).
 */
import { memoizedPerObject } from '../util/memo.js';
import type { ArithOp, BExpr, Expr, IntType, Kernel, MachineType, Stmt } from './ast.js';
import { inRange, WIDTH, wrapsAround } from './arith.js';
import { bexprOperands } from './exprs.js';
import type { Span } from './source.js';
import { assertNever } from '../util/assert.js';

/** The scope every proof about a kernel with machine integers has, as reports state it. */
export const MACHINE_SCOPE = 'assuming no signed overflow, no unsigned loop counter wrapping around, no division by zero, shifts in range';

/** nat literals, untyped operators and builtins are naturals; the rest carry their type. */
export function typeOf(e: Expr): IntType {
  switch (e.kind) {
    case 'nat':
    case 'builtin':
      return 'nat';
    case 'int':
    case 'cast':
      return e.type;
    case 'var':
    case 'binary':
      return e.type ?? 'nat';
    case 'ite':
      return typeOf(e.then);
    default:
      return assertNever(e);
  }
}

/** The machine type, or undefined for nat (the encoding of fields that say "absent = nat"). */
export function machineType(t: IntType): MachineType | undefined {
  return t === 'nat' ? undefined : t;
}

/**
 * Whether evaluating the expression may be undefined behaviour: it holds a typed + − * / % << or >>
 * that C does not define for every operand (not an unsigned + − *, nor a shift by a number in range
 * that cannot overflow: an unsigned `<<`, or any `>>`, nor a division by a number other than 0 and −1).
 * Remembered per expression object: a let's value is inlined by reference at every use, and asked about at each.
 */
export const mayBeUndefined: (e: Expr) => boolean = memoizedPerObject(mayBeUndefinedOf);

function mayBeUndefinedOf(e: Expr): boolean {
  switch (e.kind) {
    case 'nat':
    case 'int':
    case 'var':
    case 'builtin':
      return false;
    case 'binary':
      return (e.type !== undefined && operationMayBeUndefined(e.op, e.type, e.right)) || mayBeUndefined(e.left) || mayBeUndefined(e.right);
    case 'cast':
      return mayBeUndefined(e.operand);
    case 'ite':
      return bexprOperands(e.cond).some(mayBeUndefined) || mayBeUndefined(e.then) || mayBeUndefined(e.else);
    default:
      return assertNever(e);
  }
}

/** Whether `left op right` on `type` may itself be undefined (its operands aside): not when C defines it for every value of its operands. */
export function operationMayBeUndefined(op: ArithOp, type: MachineType, right: Expr): boolean {
  return !alwaysDefined(op, type, right);
}

function alwaysDefined(op: ArithOp, type: MachineType, right: Expr): boolean {
  if (op === '&' || op === '|' || op === '^') return true;
  const countInRange = right.kind === 'int' && right.value >= 0n && right.value < BigInt(WIDTH[type]);
  if (op === '<<' || op === '>>') return countInRange && (op === '>>' || wrapsAround(op, type));
  // by a number other than 0 (and −1, whose quotient of the minimum overflows)
  if (op === '/' || op === '%') return right.kind === 'int' && right.value !== 0n && right.value !== -1n;
  return wrapsAround(op, type);
}

function exprIsTyped(e: Expr): boolean {
  switch (e.kind) {
    case 'nat':
    case 'builtin':
      return false;
    case 'int':
    case 'cast':
    case 'ite':
      return true;
    case 'var':
      return e.type !== undefined;
    case 'binary':
      return e.type !== undefined || exprIsTyped(e.left) || exprIsTyped(e.right);
    default:
      return assertNever(e);
  }
}

function stmtExprs(s: Stmt): Expr[] {
  switch (s.kind) {
    case 'skip':
    case 'sync':
    case 'syncwarp':
      return [];
    case 'write':
      return [...s.index, s.value];
    case 'read':
      return [...s.index, ...stmtExprs(s.body)];
    case 'let':
      return [s.value, ...stmtExprs(s.body)];
    case 'atomic':
      return [...s.index, ...s.operands, ...stmtExprs(s.body)];
    case 'havoc':
      return stmtExprs(s.body);
    case 'if':
      return [...bexprOperands(s.cond), ...s.then.flatMap(stmtExprs), ...(s.else ?? []).flatMap(stmtExprs)];
    case 'for':
      return [s.from, s.to, ...(s.step ? [s.step.amount] : []), ...s.body.flatMap(stmtExprs)];
    case 'assume':
      return bexprOperands(s.cond);
    default:
      return assertNever(s);
  }
}

function stmtIsTyped(s: Stmt): boolean {
  if (s.kind === 'for' && s.type !== undefined) return true;
  if (s.kind === 'havoc' && s.type !== 'nat') return true;
  if (s.kind === 'atomic' && s.type !== undefined) return true;
  const children = s.kind === 'if' ? [...s.then, ...(s.else ?? [])] : s.kind === 'for' ? s.body : s.kind === 'read' || s.kind === 'let' || s.kind === 'havoc' || s.kind === 'atomic' ? [s.body] : [];
  return children.some(stmtIsTyped);
}

/**
 * Whether the kernel uses machine integers (typed parameters, constants,
 * operators, casts, conditionals or loops): its proofs then assume that no
 * operation is undefined, and its reports say so.
 */
export function usesMachineIntegers(kernel: Kernel): boolean {
  if (kernel.params.some((p) => p.type !== undefined)) return true;
  const header = [...kernel.requires.flatMap(bexprOperands), ...kernel.arrays.flatMap((a) => a.sizes)];
  return [...header, ...kernel.body.flatMap(stmtExprs)].some(exprIsTyped) || kernel.body.some(stmtIsTyped);
}

export interface TypeError {
  readonly span: Span;
  readonly message: string;
}

/**
 * Violations of the core's type rules: a typed operator's operands are of its
 * type (but a shift count), an untyped one's are naturals, compared values
 * and a conditional's branches have one type, a loop's bounds and step have
 * its variable's type, a variable is used with its binder's type (a value
 * read from memory with one type throughout), typed constants are in range.
 * BabyCUDA programs never violate them; a CUDA lowering that does is a bug of
 * the front end, reported at the place.
 */
export function typeErrors(kernel: Kernel): TypeError[] {
  const out: TypeError[] = [];
  const types = new Map<string, IntType | 'read'>();
  const readTypes = new Map<string, IntType>();
  const expect = (e: Expr, want: IntType, what: string): void => {
    const got = check(e);
    if (got !== want) out.push({ span: e.span, message: `${what} is of type ${got}, expected ${want}` });
  };
  const check = (e: Expr): IntType => {
    switch (e.kind) {
      case 'nat':
      case 'builtin':
        return 'nat';
      case 'int':
        if (!inRange(e.type, e.value)) out.push({ span: e.span, message: `the constant ${e.value} is outside ${e.type}'s range` });
        return e.type;
      case 'var': {
        const t = e.type ?? 'nat';
        const bound = types.get(e.name);
        if (bound === 'read') {
          const first = readTypes.get(e.name);
          if (first === undefined) readTypes.set(e.name, t);
          else if (first !== t) out.push({ span: e.span, message: `'${e.name}' is used as ${t} here and as ${first} elsewhere` });
        } else if (bound !== undefined && bound !== t) {
          out.push({ span: e.span, message: `'${e.name}' is of type ${bound}, used as ${t}` });
        }
        return t;
      }
      case 'binary': {
        const t = e.type ?? 'nat';
        expect(e.left, t, `the left operand of '${e.op}'`);
        if (e.type !== undefined && (e.op === '<<' || e.op === '>>')) check(e.right);
        else expect(e.right, t, `the right operand of '${e.op}'`);
        return t;
      }
      case 'cast':
        check(e.operand);
        return e.type;
      case 'ite': {
        checkCond(e.cond);
        const t = check(e.then);
        expect(e.else, t, 'the second branch of the conditional');
        return t;
      }
      default:
        return assertNever(e);
    }
  };
  const checkCond = (c: BExpr): void => {
    switch (c.kind) {
      case 'bool':
        return;
      case 'cmp':
        expect(c.right, check(c.left), `the right side of '${c.op}'`);
        return;
      case 'and':
      case 'or':
        checkCond(c.left);
        checkCond(c.right);
        return;
      case 'not':
        checkCond(c.operand);
        return;
      default:
        return assertNever(c);
    }
  };
  const block = (stmts: readonly Stmt[]): void => stmts.forEach(stmt);
  const stmt = (s: Stmt): void => {
    switch (s.kind) {
      case 'skip':
      case 'sync':
      case 'syncwarp':
        return;
      case 'write':
        s.index.forEach(check);
        check(s.value);
        return;
      case 'read':
        s.index.forEach(check);
        types.set(s.local.text, 'read');
        readTypes.delete(s.local.text);
        return stmt(s.body);
      case 'let':
        types.set(s.local.text, check(s.value));
        return stmt(s.body);
      case 'atomic':
        s.index.forEach(check);
        s.operands.forEach((e, i) => expect(e, s.type ?? 'nat', `the atomic ${s.op}'s operand ${i + 1}`));
        if (s.local !== null) types.set(s.local.text, s.type ?? 'nat');
        return stmt(s.body);
      case 'havoc':
        types.set(s.local.text, s.type);
        return stmt(s.body);
      case 'if':
        checkCond(s.cond);
        block(s.then);
        if (s.else) block(s.else);
        return;
      case 'for': {
        const t = s.type ?? 'nat';
        expect(s.from, t, 'the loop\'s first bound');
        expect(s.to, t, 'the loop\'s second bound');
        if (s.step) expect(s.step.amount, t, 'the loop\'s step');
        types.set(s.var.text, t);
        return block(s.body);
      }
      case 'assume':
        return checkCond(s.cond);
      default:
        return assertNever(s);
    }
  };
  for (const p of kernel.params) types.set(p.text, p.type ?? 'nat');
  kernel.requires.forEach(checkCond);
  kernel.arrays.forEach((a) => a.sizes.forEach(check));
  block(kernel.body);
  return out;
}
