/**
 * Names and well-formedness: every name is declared before use and bound once,
 * arrays are used as arrays with a consistent number of indices, and the
 * kernel header (requires, launch, sizes) only mentions what is known before
 * the kernel runs.
 */
import type { BExpr, Expr, Kernel, Name, Program, Stmt } from '../core/ast.js';
import type { SourceFile, Span } from '../core/source.js';
import { typeErrors } from '../core/types.js';
import { error, type Diagnostic } from '../diagnostics/diagnostic.js';
import { assertNever } from '../util/assert.js';

type Binding =
  | { readonly kind: 'param'; readonly span: Span }
  | { readonly kind: 'array'; readonly span: Span }
  | { readonly kind: 'loop'; readonly span: Span }
  | { readonly kind: 'local'; readonly span: Span };

/** Where an expression appears decides which names it may use. */
type Place = 'header' | 'body';

export function wellFormednessErrors(program: Program): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const kernelNames = new Map<string, Span>();
  for (const kernel of program.kernels) {
    const previous = kernelNames.get(kernel.name.text);
    if (previous) {
      diagnostics.push(
        error('E0101', program.file, kernel.name.span, `kernel '${kernel.name.text}' is defined twice`, {
          related: [{ span: previous, message: 'first defined here' }],
        }),
      );
    }
    kernelNames.set(kernel.name.text, kernel.name.span);
    diagnostics.push(...kernelErrors(program.file, kernel));
  }
  return diagnostics;
}

function kernelErrors(file: SourceFile, kernel: Kernel): Diagnostic[] {
  const out: Diagnostic[] = [];
  const scope = new Map<string, Binding>();
  const arity = new Map<string, { count: number; span: Span; declared: boolean }>();

  const bind = (n: Name, binding: Binding): void => {
    const previous = scope.get(n.text);
    if (previous) {
      out.push(
        error('E0102', file, n.span, `'${n.text}' is already bound: binders must be distinct`, {
          label: 'shadows an earlier binding',
          related: [{ span: previous.span, message: `'${n.text}' first bound here` }],
          hints: ['rename one of the two'],
        }),
      );
      return;
    }
    scope.set(n.text, binding);
  };

  const unknown = (text: string, at: Span, what: string): void => {
    const suggestion = closestName(text, [...scope.keys()]);
    out.push(
      error('E0103', file, at, `unknown ${what} '${text}'`, {
        label: 'not declared',
        hints: suggestion ? [`did you mean '${suggestion}'?`] : [`declare it (parameter, array, loop variable or let) before use`],
      }),
    );
  };

  const checkExpr = (e: Expr, place: Place): void => {
    switch (e.kind) {
      case 'nat':
        return;
      case 'builtin':
        if (place === 'header' && (e.name === 'threadIdx' || e.name === 'blockIdx')) {
          out.push(
            error('E0104', file, e.span, `${e.name}.${e.axis} cannot appear in a kernel header`, {
              hints: ['`requires`, the launch clause and array sizes may only use parameters, blockDim and gridDim'],
            }),
          );
        }
        return;
      case 'var': {
        const b = scope.get(e.name);
        if (!b) return unknown(e.name, e.span, 'variable');
        if (b.kind === 'array') {
          out.push(
            error('E0105', file, e.span, `'${e.name}' is an array, not a value`, {
              hints: [`read an element first: let v = ${e.name}[i] in …`],
            }),
          );
        } else if (place === 'header' && b.kind !== 'param') {
          out.push(error('E0104', file, e.span, `'${e.name}' cannot appear in a kernel header`));
        }
        return;
      }
      case 'int':
        return;
      case 'binary':
        checkExpr(e.left, place);
        checkExpr(e.right, place);
        return;
      case 'cast':
        checkExpr(e.operand, place);
        return;
      case 'ite':
        checkBExpr(e.cond, place);
        checkExpr(e.then, place);
        checkExpr(e.else, place);
        return;
      default:
        return assertNever(e);
    }
  };

  const checkBExpr = (c: BExpr, place: Place): void => {
    switch (c.kind) {
      case 'bool':
        return;
      case 'cmp':
        checkExpr(c.left, place);
        checkExpr(c.right, place);
        return;
      case 'and':
      case 'or':
        checkBExpr(c.left, place);
        checkBExpr(c.right, place);
        return;
      case 'not':
        checkBExpr(c.operand, place);
        return;
      default:
        return assertNever(c);
    }
  };

  const checkAccess = (array: Name, index: readonly Expr[], at: Span, verb: string): void => {
    const b = scope.get(array.text);
    if (!b) {
      unknown(array.text, array.span, 'array');
    } else if (b.kind !== 'array') {
      out.push(
        error('E0106', file, array.span, `cannot ${verb} '${array.text}': it is a ${describe(b)}, not an array`, {
          related: [{ span: b.span, message: `'${array.text}' bound here` }],
          hints: ['declare arrays with `shared A;` or `global A;` at the top of the kernel'],
        }),
      );
    } else {
      const known = arity.get(array.text);
      if (!known) {
        arity.set(array.text, { count: index.length, span: at, declared: false });
      } else if (known.count !== index.length) {
        out.push(
          error('E0107', file, at, `'${array.text}' has ${plural(known.count, 'dimension')}, but is used with ${plural(index.length, 'index', 'indices')}`, {
            related: [{ span: known.span, message: known.declared ? 'declared here' : `first used with ${plural(known.count, 'index', 'indices')} here` }],
          }),
        );
      }
    }
    for (const ix of index) checkExpr(ix, 'body');
  };

  const checkBlock = (stmts: readonly Stmt[]): void => {
    const bound: string[] = [];
    for (const s of stmts) bound.push(...checkStmt(s));
    // binders stay visible to the end of their block, then go out of scope
    for (const n of bound) scope.delete(n);
  };

  /** Checks a statement and returns the names it binds for the rest of the block. */
  const checkStmt = (s: Stmt): string[] => {
    switch (s.kind) {
      case 'skip':
      case 'sync':
      case 'syncwarp':
        return [];
      case 'write':
        checkAccess(s.array, s.index, s.target, 'write to');
        checkExpr(s.value, 'body');
        return [];
      case 'read': {
        checkAccess(s.array, s.index, s.source, 'read from');
        const fresh = !scope.has(s.local.text);
        bind(s.local, { kind: 'local', span: s.local.span });
        return [...(fresh ? [s.local.text] : []), ...checkStmt(s.body)];
      }
      case 'havoc': {
        const fresh = !scope.has(s.local.text);
        bind(s.local, { kind: 'local', span: s.local.span });
        return [...(fresh ? [s.local.text] : []), ...checkStmt(s.body)];
      }
      case 'atomic': {
        checkAccess(s.array, s.index, s.target, 'atomically update');
        for (const e of s.operands) checkExpr(e, 'body');
        if (s.local === null) return checkStmt(s.body);
        const fresh = !scope.has(s.local.text);
        bind(s.local, { kind: 'local', span: s.local.span });
        return [...(fresh ? [s.local.text] : []), ...checkStmt(s.body)];
      }
      case 'let': {
        checkExpr(s.value, 'body');
        const fresh = !scope.has(s.local.text);
        bind(s.local, { kind: 'local', span: s.local.span });
        return [...(fresh ? [s.local.text] : []), ...checkStmt(s.body)];
      }
      case 'if':
        checkBExpr(s.cond, 'body');
        checkBlock(s.then);
        if (s.else) checkBlock(s.else);
        return [];
      case 'for': {
        checkExpr(s.from, 'body');
        checkExpr(s.to, 'body');
        if (s.step) {
          checkExpr(s.step.amount, 'body');
          const bad = nonTerminatingStep(s.step.op, s.step.amount);
          if (bad) out.push(error('E0108', file, s.step.amount.span, bad, { hints: ['the spec requires step + k / - k with k ≥ 1, and step * k / / k with k ≥ 2'] }));
        }
        const fresh = !scope.has(s.var.text);
        bind(s.var, { kind: 'loop', span: s.var.span });
        checkBlock(s.body);
        if (fresh) scope.delete(s.var.text);
        return [];
      }
      case 'assume':
        checkBExpr(s.cond, 'body');
        return [];
      default:
        return assertNever(s);
    }
  };

  for (const p of kernel.params) bind(p, { kind: 'param', span: p.span });
  if (kernel.launch) {
    for (const d of [kernel.launch.grid, kernel.launch.block]) {
      for (const e of [d.x, d.y, d.z]) if (e) checkExpr(e, 'header');
    }
  }
  for (const r of kernel.requires) checkBExpr(r, 'header');
  for (const a of kernel.arrays) {
    for (const size of a.sizes) checkExpr(size, 'header');
    bind(a.name, { kind: 'array', span: a.name.span });
    if (a.sizes.length > 0) arity.set(a.name.text, { count: a.sizes.length, span: a.span, declared: true });
  }
  checkBlock(kernel.body);
  // only a front end's lowering can break the type rules (BabyCUDA has one type): say where
  if (out.length === 0) {
    for (const t of typeErrors(kernel)) {
      out.push(error('E0109', file, t.span, `type error in the core program: ${t.message}`, { hints: ['the front end lowered this construct wrongly; this is a bug in faial-ts, please report it with the input file'] }));
    }
  }
  return out;
}

function nonTerminatingStep(op: string, amount: Expr): string | null {
  if (amount.kind !== 'nat') return null;
  const k = amount.value;
  if ((op === '+' || op === '-') && k < 1n) return `a loop with step ${op} ${k} never advances`;
  if ((op === '*' || op === '/') && k < 2n) return `a loop with step ${op} ${k} never advances`;
  return null;
}

function describe(b: Binding): string {
  switch (b.kind) {
    case 'param':
      return 'parameter';
    case 'array':
      return 'array';
    case 'loop':
      return 'loop variable';
    case 'local':
      return 'local variable';
    default:
      return assertNever(b);
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function closestName(target: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  // a one-letter name is close to every other one: suggest only a change of case
  let bestDistance = (target.length <= 1 ? 0 : target.length <= 4 ? 1 : 2) + 1;
  for (const c of candidates) {
    const d = editDistance(target.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
