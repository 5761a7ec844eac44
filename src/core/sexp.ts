/**
 * A kernel as an s-expression, the input of the Coq mechanisation's
 * extracted semantics (proofs/oracle/runner.ml, the third oracle of the
 * differential tests): `faial-ts lower --sexp` prints it.
 *
 * Only the fragment the Coq model covers is printed: BabyCUDA on naturals
 * (parameters, reads, writes, atomics, pure lets, conditionals, loops up and
 * down with their steps, `sync`, `assume`, `requires`, a launch clause,
 * shared and global arrays of any dimension, the builtins) and the core's
 * machine integers (typed parameters, constants, variables, operations,
 * casts, comparisons and loop counters: Syntax.v's `NInt`, `NOp`, `NCast`,
 * `BZCmp`, `StepT`). A kernel with anything else (`syncwarp`, unknown
 * values, conditional expressions, atomics on a machine type, a typed loop
 * whose bounds have another type, floating parameters) is refused with the
 * construct's span and why, never approximated.
 *
 * The form (what proofs/oracle/runner.ml reads):
 *
 *   (kernel NAME (params P…) (arrays (A shared|global)…) (requires C…)
 *     (launch (GRID…) (BLOCK…)) (body S))
 *   P := X | (X T)                     (a parameter of machine type T)
 *   S := skip | sync | (write A (I…) E) | (read X A (I…) S) | (let X E S)
 *      | (atomic OP A (I…) (E…) X S)  (X `_` when the old value is not bound)
 *      | (seq S…) | (if C S S) | (for X FROM TO (+|*|-|/ E) S) | (assume C)
 *      | (for X FROM TO (T +|*|-|/ E) S)   (a loop whose counter has type T)
 *   E := NAT | X | (threadIdx|blockIdx|blockDim|gridDim x|y|z) | (OP E E)
 *      | (T INT) | (T X) | (T OP E E) | (cast T E)   (T: i32|u32|i64|u64)
 *   C := true | false | (CMP E E) | (cmp CMP E E) | (and C C) | (or C C) | (not C)
 *
 * `(cmp CMP E E)` compares the operands' values as integers (a typed
 * operand's value, not its bits); it is printed where an operand is typed.
 *
 * A binder scopes over the rest of its block (BabyCUDA's `let … in`), so
 * the printer nests the rest of the block in the binder's body (the
 * innermost one's, for a chain of binders). A loop
 * `for x in a..b` is `(for x a b (+ 1) S)`, `for x in a downto b` is
 * `(for x a b (- 1) S)`: the start, then the bound.
 */
import type { BExpr, Dim3, Expr, Kernel, Stmt } from './ast.js';
import type { Span } from './source.js';
import { typeOf } from './types.js';
import { assertNever } from '../util/assert.js';

/** A construct outside the fragment, and why. */
export interface OutsideFragment {
  readonly span: Span;
  readonly what: string;
}

export type KernelSexp = { readonly kind: 'sexp'; readonly text: string } | { readonly kind: 'outside'; readonly reasons: readonly OutsideFragment[] };

/** What the s-expression form can spell as a name (and the runner reads as one). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

class Printer {
  readonly reasons: OutsideFragment[] = [];

  outside(span: Span, what: string): string {
    this.reasons.push({ span, what });
    return '?';
  }

  name(text: string, span: Span): string {
    return NAME.test(text) ? text : this.outside(span, `the name '${text}', which the s-expression form cannot spell`);
  }

  expr(e: Expr): string {
    switch (e.kind) {
      case 'nat':
        return `${e.value}`;
      case 'var':
        return e.type === undefined ? this.name(e.name, e.span) : `(${e.type} ${this.name(e.name, e.span)})`;
      case 'builtin':
        return `(${e.name} ${e.axis})`;
      case 'binary':
        return e.type === undefined ? `(${e.op} ${this.expr(e.left)} ${this.expr(e.right)})` : `(${e.type} ${e.op} ${this.expr(e.left)} ${this.expr(e.right)})`;
      case 'int':
        return `(${e.type} ${e.value})`;
      case 'cast':
        return `(cast ${e.type} ${this.expr(e.operand)})`;
      case 'ite':
        return this.outside(e.span, 'a conditional expression (not in the model)');
      default:
        return assertNever(e);
    }
  }

  cond(c: BExpr): string {
    switch (c.kind) {
      case 'bool':
        return c.value ? 'true' : 'false';
      case 'cmp': {
        // naturals compare as before; a typed operand's value is decoded from its bits
        const typed = typeOf(c.left) !== 'nat' || typeOf(c.right) !== 'nat';
        return `(${typed ? 'cmp ' : ''}${c.op} ${this.expr(c.left)} ${this.expr(c.right)})`;
      }
      case 'and':
      case 'or':
        return `(${c.kind} ${this.cond(c.left)} ${this.cond(c.right)})`;
      case 'not':
        return `(not ${this.cond(c.operand)})`;
      default:
        return assertNever(c);
    }
  }

  index(ix: readonly Expr[]): string {
    return `(${ix.map((e) => this.expr(e)).join(' ')})`;
  }

  /** A block's statements. */
  block(ss: readonly Stmt[]): string {
    const [s, ...rest] = ss;
    return s === undefined ? 'skip' : this.scoped(s, rest);
  }

  /**
   * A statement followed by the rest of its block. A binder scopes over the
   * rest of the enclosing block, and so does a binder that is its body (the
   * parser gives `let x = … in let y = … in s` as a chain): the rest is
   * printed inside the last binder of the chain.
   */
  scoped(s: Stmt, rest: readonly Stmt[]): string {
    switch (s.kind) {
      case 'read':
        return `(read ${this.name(s.local.text, s.local.span)} ${this.name(s.array.text, s.array.span)} ${this.index(s.index)} ${this.scoped(s.body, rest)})`;
      case 'let':
        return `(let ${this.name(s.local.text, s.local.span)} ${this.expr(s.value)} ${this.scoped(s.body, rest)})`;
      case 'atomic':
        // an atomic whose old value is not bound is a statement; one that binds it scopes over the rest
        return s.local === null && rest.length > 0 ? `(seq ${this.stmt(s)} ${this.block(rest)})` : this.atomic(s, this.scoped(s.body, rest));
      default:
        return rest.length === 0 ? this.stmt(s) : `(seq ${this.stmt(s)} ${this.block(rest)})`;
    }
  }

  atomic(s: Extract<Stmt, { kind: 'atomic' }>, body: string): string {
    if (s.type !== undefined) return this.outside(s.span, `an atomic on machine type ${s.type} (the model computes on naturals)`);
    const local = s.local === null ? '_' : this.name(s.local.text, s.local.span);
    return `(atomic ${s.op} ${this.name(s.array.text, s.array.span)} ${this.index(s.index)} (${s.operands.map((e) => this.expr(e)).join(' ')}) ${local} ${body})`;
  }

  stmt(s: Stmt): string {
    switch (s.kind) {
      case 'skip':
        return 'skip';
      case 'sync':
        return 'sync';
      case 'write':
        return `(write ${this.name(s.array.text, s.array.span)} ${this.index(s.index)} ${this.expr(s.value)})`;
      case 'read':
      case 'let':
        return this.scoped(s, []);
      case 'atomic':
        return this.atomic(s, this.scoped(s.body, []));
      case 'if':
        return `(if ${this.cond(s.cond)} ${this.block(s.then)} ${s.else === null ? 'skip' : this.block(s.else)})`;
      case 'for': {
        const type = s.type;
        if (type === undefined) {
          const step = s.step ?? { op: s.direction === 'up' ? '+' : '-', amount: { kind: 'nat', value: 1n, span: s.span } };
          return `(for ${this.name(s.var.text, s.var.span)} ${this.expr(s.from)} ${this.expr(s.to)} (${step.op} ${this.expr(step.amount)}) ${this.block(s.body)})`;
        }
        // StepT decodes the bounds' bits in the counter's type
        for (const bound of [s.from, s.to]) {
          if (typeOf(bound) !== type) this.outside(bound.span, `a bound of type ${typeOf(bound)} for a loop counter of type ${type} (the model reads the bounds in the counter's type)`);
        }
        const step = s.step ?? { op: s.direction === 'up' ? '+' : '-', amount: { kind: 'int', value: 1n, type, span: s.span } };
        return `(for ${this.name(s.var.text, s.var.span)} ${this.expr(s.from)} ${this.expr(s.to)} (${type} ${step.op} ${this.expr(step.amount)}) ${this.block(s.body)})`;
      }
      case 'assume':
        return `(assume ${this.cond(s.cond)})`;
      case 'syncwarp':
        return this.outside(s.span, 'a syncwarp (the model has block barriers only)');
      case 'havoc':
        return this.outside(s.span, `an unknown value (${s.origin.what}), not in the model`);
      default:
        return assertNever(s);
    }
  }

  dim(d: Dim3): string {
    return `(${[d.x, d.y, d.z].flatMap((e) => (e === null ? [] : [this.expr(e)])).join(' ')})`;
  }
}

/** The kernel as an s-expression, or every construct of it outside the Coq model's fragment. */
export function kernelSexp(kernel: Kernel): KernelSexp {
  const p = new Printer();
  const name = p.name(kernel.name.text, kernel.name.span);
  const params = kernel.params.map((q) =>
    q.ieee !== undefined
      ? p.outside(q.span, `a parameter of type ${q.ieee} (the model's parameters are integers)`)
      : q.type === undefined
        ? p.name(q.text, q.span)
        : `(${p.name(q.text, q.span)} ${q.type})`,
  );
  const arrays = kernel.arrays.map((a) => `(${p.name(a.name.text, a.name.span)} ${a.scope})`);
  const requires = kernel.requires.map((c) => p.cond(c));
  const launch = kernel.launch === null ? [] : [`  (launch ${p.dim(kernel.launch.grid)} ${p.dim(kernel.launch.block)})`];
  const body = p.block(kernel.body);
  if (p.reasons.length > 0) return { kind: 'outside', reasons: p.reasons };
  const text = [
    `(kernel ${name}`,
    `  (params${params.map((x) => ` ${x}`).join('')})`,
    `  (arrays${arrays.map((x) => ` ${x}`).join('')})`,
    `  (requires${requires.map((x) => ` ${x}`).join('')})`,
    ...launch,
    `  (body ${body}))`,
  ].join('\n');
  return { kind: 'sexp', text };
}
