/**
 * The core program as text, in BabyCUDA's syntax with the machine-integer
 * forms written out: typed binders (`n: i32`, `for i: i32 in …`), casts
 * `(u32) e`, conditionals `c ? a : b`, `havoc x: i32 /* what *\/ in …`. A
 * program built in code (tests, generators) is printed once and re-spanned:
 * the result's spans point into the printed text, so that diagnostics,
 * reports and code frames show the core program itself.
 */
import type { BExpr, Dim3, Expr, Kernel, Name, Program, Stmt, UnknownOrigin } from './ast.js';
import { showBExpr, showExpr } from './exprs.js';
import { sourceFile, type Span } from './source.js';
import { assertNever } from '../util/assert.js';

class Emitter {
  text = '';

  emit(s: string): void {
    this.text += s;
  }

  /** Emits what `f` emits and returns the span it covers with f's result. */
  spanned<T>(f: () => T): [T, Span] {
    const start = this.text.length;
    const value = f();
    return [value, { start, end: this.text.length }];
  }
}

/**
 * An expression printed in C syntax, its nodes re-spanned: each node's span
 * is where its own text is in the output (a subexpression's text is found
 * inside its parent's, left to right, which is how showExpr prints it).
 */
function respanExpr(e: Expr, text: string, at: number): Expr {
  const shown = showExpr(e);
  const start = text.indexOf(shown, at);
  const from = start < 0 ? at : start;
  const span: Span = { start: from, end: from + shown.length };
  switch (e.kind) {
    case 'nat':
    case 'int':
    case 'var':
    case 'builtin':
      return { ...e, span };
    case 'binary': {
      const left = respanExpr(e.left, text, from);
      return { ...e, left, right: respanExpr(e.right, text, left.span.end), span };
    }
    case 'cast':
      return { ...e, operand: respanExpr(e.operand, text, from), span };
    case 'ite': {
      const cond = respanBExpr(e.cond, text, from);
      const then = respanExpr(e.then, text, cond.span.end);
      return { ...e, cond, then, else: respanExpr(e.else, text, then.span.end), span };
    }
    default:
      return assertNever(e);
  }
}

function respanBExpr(c: BExpr, text: string, at: number): BExpr {
  const shown = showBExpr(c);
  const start = text.indexOf(shown, at);
  const from = start < 0 ? at : start;
  const span: Span = { start: from, end: from + shown.length };
  switch (c.kind) {
    case 'bool':
      return { ...c, span };
    case 'cmp': {
      const left = respanExpr(c.left, text, from);
      return { ...c, left, right: respanExpr(c.right, text, left.span.end), span };
    }
    case 'and':
    case 'or': {
      const left = respanBExpr(c.left, text, from);
      return { ...c, left, right: respanBExpr(c.right, text, left.span.end), span };
    }
    case 'not':
      return { ...c, operand: respanBExpr(c.operand, text, from), span };
    default:
      return assertNever(c);
  }
}

function originText(o: UnknownOrigin): string {
  return o.kind === 'value' ? o.what : `approximated: ${o.what}: ${o.why}`;
}

function printKernel(out: Emitter, k: Kernel): Kernel {
  const expr = (e: Expr): Expr => {
    const at = out.text.length;
    out.emit(showExpr(e));
    return respanExpr(e, out.text, at);
  };
  const cond = (c: BExpr): BExpr => {
    const at = out.text.length;
    out.emit(showBExpr(c));
    return respanBExpr(c, out.text, at);
  };
  const name = (n: Name): Name => {
    const [, span] = out.spanned(() => out.emit(n.text));
    return { text: n.text, span };
  };
  const pad = (depth: number): string => '  '.repeat(depth);

  const block = (stmts: readonly Stmt[], depth: number): Stmt[] =>
    stmts.map((s, i) => {
      out.emit(pad(depth));
      const printed = stmt(s, depth);
      out.emit(i < stmts.length - 1 ? ';\n' : '\n');
      return printed;
    });
  const braced = (stmts: readonly Stmt[], depth: number): Stmt[] => {
    out.emit('{\n');
    const printed = block(stmts, depth + 1);
    out.emit(`${pad(depth)}}`);
    return printed;
  };
  const body = (s: Stmt, depth: number): Stmt => {
    out.emit(` in\n${pad(depth)}`);
    return stmt(s, depth);
  };
  const stmt = (s: Stmt, depth: number): Stmt => {
    const [printed, span] = out.spanned((): Stmt => {
      switch (s.kind) {
        case 'skip':
        case 'sync':
          out.emit(s.kind);
          return s;
        case 'write': {
          const [[array, index], target] = out.spanned(() => [name(s.array), indices(s.index)] as const);
          out.emit(' := ');
          return { ...s, array, index, target, value: expr(s.value) };
        }
        case 'read': {
          out.emit('let ');
          const local = name(s.local);
          out.emit(' = ');
          const [[array, index], source] = out.spanned(() => [name(s.array), indices(s.index)] as const);
          return { ...s, local, array, index, source, body: body(s.body, depth) };
        }
        case 'let': {
          out.emit('let ');
          const local = name(s.local);
          out.emit(' = ');
          const value = expr(s.value);
          return { ...s, local, value, body: body(s.body, depth) };
        }
        case 'havoc': {
          out.emit('havoc ');
          const local = name(s.local);
          out.emit(`: ${s.type} `);
          const [, originSpan] = out.spanned(() => out.emit(`/* ${originText(s.origin)} */`));
          return { ...s, local, origin: { ...s.origin, span: originSpan }, body: body(s.body, depth) };
        }
        case 'if': {
          out.emit('if (');
          const c = cond(s.cond);
          out.emit(') ');
          const then = braced(s.then, depth);
          let otherwise: Stmt[] | null = null;
          if (s.else !== null) {
            out.emit(' else ');
            otherwise = braced(s.else, depth);
          }
          return { ...s, cond: c, then, else: otherwise };
        }
        case 'for': {
          out.emit('for ');
          const v = name(s.var);
          out.emit(s.type === undefined ? ' in ' : `: ${s.type} in `);
          const from = expr(s.from);
          out.emit(s.direction === 'up' ? '..' : ' downto ');
          const to = expr(s.to);
          let step = s.step;
          if (s.step !== null) {
            out.emit(` step ${s.step.op} `);
            step = { op: s.step.op, amount: expr(s.step.amount) };
          }
          out.emit(' ');
          return { ...s, var: v, from, to, step, body: braced(s.body, depth) };
        }
        case 'assume':
          out.emit('assume ');
          return { ...s, cond: cond(s.cond) };
        default:
          return assertNever(s);
      }
    });
    return { ...printed, span } as Stmt;
  };
  const indices = (index: readonly Expr[]): Expr[] =>
    index.map((ix) => {
      out.emit('[');
      const e = expr(ix);
      out.emit(']');
      return e;
    });
  const dim = (d: Dim3): Dim3 => {
    const [printed, span] = out.spanned((): Omit<Dim3, 'span'> => {
      if (d.y === null && d.z === null) return { x: expr(d.x), y: null, z: null };
      out.emit('(');
      const x = expr(d.x);
      out.emit(', ');
      const y = d.y === null ? null : expr(d.y);
      let z: Expr | null = null;
      if (d.z !== null) {
        out.emit(', ');
        z = expr(d.z);
      }
      out.emit(')');
      return { x, y, z };
    });
    return { ...printed, span };
  };

  const [kernel, span] = out.spanned((): Omit<Kernel, 'span'> => {
    out.emit('kernel ');
    const kname = name(k.name);
    out.emit('(');
    const params = k.params.map((p, i) => {
      if (i > 0) out.emit(', ');
      const n = name(p);
      if (p.type !== undefined) out.emit(`: ${p.type}`);
      return { ...p, span: n.span };
    });
    out.emit(')');
    let launch = k.launch;
    if (k.launch !== null) {
      const [[grid, blockDim], lspan] = out.spanned(() => {
        out.emit(' <<<');
        const g = dim(k.launch!.grid);
        out.emit(', ');
        const b = dim(k.launch!.block);
        out.emit('>>>');
        return [g, b] as const;
      });
      launch = { grid, block: blockDim, span: lspan };
    }
    out.emit('\n');
    const requires = k.requires.map((r) => {
      out.emit('  requires ');
      const c = cond(r);
      out.emit('\n');
      return c;
    });
    out.emit('{\n');
    const arrays = k.arrays.map((a) => {
      out.emit(`  ${a.scope} `);
      const [[n, sizes], aspan] = out.spanned(() => [name(a.name), indices(a.sizes)] as const);
      out.emit(';\n');
      return { ...a, name: n, sizes, span: aspan };
    });
    const stmts = block(k.body.length === 0 ? [{ kind: 'skip', span: k.span }] : k.body, 1);
    out.emit('}');
    return { name: kname, params, launch, requires, arrays, body: stmts };
  });
  out.emit('\n');
  return { ...kernel, span };
}

/** The kernels printed as one file named `path`, with their spans in that file's text. */
export function printProgram(path: string, kernels: readonly Kernel[]): Program {
  const out = new Emitter();
  const printed = kernels.map((k, i) => {
    if (i > 0) out.emit('\n');
    return printKernel(out, k);
  });
  return { file: sourceFile(path, out.text), kernels: printed };
}

/** The kernel as core-program text. */
export function showKernel(kernel: Kernel): string {
  return printProgram('kernel', [kernel]).file.text;
}
