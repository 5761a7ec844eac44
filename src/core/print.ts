/**
 * The core program as text, in BabyCUDA's syntax with the machine-integer
 * forms written out: typed binders (`n: i32`, `let x: u32 = …`, `for i: i32
 * in …`), casts `(u32) e`, conditionals `c ? a : b`, `havoc x: i32 /* what *\/
 * in …`. A program built in code (tests, generators) is printed once and
 * re-spanned: the result's spans point into the printed text, so that
 * diagnostics, reports and code frames show the core program itself. The
 * listing `faial-ts lower` prints is the same text, each line followed by
 * the line of the user's file it comes from.
 */
import type { BExpr, Dim3, Expr, Kernel, Name, Program, Stmt, UnknownOrigin } from './ast.js';
import { showBExpr, showExpr } from './exprs.js';
import { located, positionAt, sourceFile, type SourceFile, type Span } from './source.js';
import { typeOf } from './types.js';
import { assertNever } from '../util/assert.js';

/** `bcu` writes threadIdx.x as BabyCUDA's `tid`; `cuda` spells it out, as a .cu file's listing does. */
export type PrintStyle = 'bcu' | 'cuda';

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
function respanExpr(e: Expr, text: string, at: number, style: PrintStyle): Expr {
  const shown = showExpr(e, 0, false, style);
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
      const left = respanExpr(e.left, text, from, style);
      return { ...e, left, right: respanExpr(e.right, text, left.span.end, style), span };
    }
    case 'cast':
      return { ...e, operand: respanExpr(e.operand, text, from, style), span };
    case 'ite': {
      const cond = respanBExpr(e.cond, text, from, style);
      const then = respanExpr(e.then, text, cond.span.end, style);
      return { ...e, cond, then, else: respanExpr(e.else, text, then.span.end, style), span };
    }
    default:
      return assertNever(e);
  }
}

function respanBExpr(c: BExpr, text: string, at: number, style: PrintStyle): BExpr {
  const shown = showBExpr(c, 0, style);
  const start = text.indexOf(shown, at);
  const from = start < 0 ? at : start;
  const span: Span = { start: from, end: from + shown.length };
  switch (c.kind) {
    case 'bool':
      return { ...c, span };
    case 'cmp': {
      const left = respanExpr(c.left, text, from, style);
      return { ...c, left, right: respanExpr(c.right, text, left.span.end, style), span };
    }
    case 'and':
    case 'or': {
      const left = respanBExpr(c.left, text, from, style);
      return { ...c, left, right: respanBExpr(c.right, text, left.span.end, style), span };
    }
    case 'not':
      return { ...c, operand: respanBExpr(c.operand, text, from, style), span };
    default:
      return assertNever(c);
  }
}

function originText(o: UnknownOrigin): string {
  return o.kind === 'value' ? o.what : `approximated: ${o.what}: ${o.why}`;
}

function printKernel(out: Emitter, k: Kernel, style: PrintStyle): Kernel {
  const expr = (e: Expr): Expr => {
    const at = out.text.length;
    out.emit(showExpr(e, 0, false, style));
    return respanExpr(e, out.text, at, style);
  };
  const cond = (c: BExpr): BExpr => {
    const at = out.text.length;
    out.emit(showBExpr(c, 0, style));
    return respanBExpr(c, out.text, at, style);
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
        case 'syncwarp':
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
        case 'atomic': {
          // `let old = atomic add(A[i], v) in …`, typed `atomic add.u32(…)` as PTX's atom.add.u32
          let local: Name | null = null;
          if (s.local !== null) {
            out.emit('let ');
            local = name(s.local);
            out.emit(' = ');
          }
          out.emit(`atomic ${s.op}${s.type === undefined ? '' : `.${s.type}`}(`);
          const [[array, index], target] = out.spanned(() => [name(s.array), indices(s.index)] as const);
          const operands = s.operands.map((e) => {
            out.emit(', ');
            return expr(e);
          });
          out.emit(')');
          return { ...s, local, array, index, target, operands, body: s.local === null ? s.body : body(s.body, depth) };
        }
        case 'let': {
          out.emit('let ');
          const local = name(s.local);
          const type = typeOf(s.value);
          out.emit(type === 'nat' ? ' = ' : `: ${type} = `);
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
export function printProgram(path: string, kernels: readonly Kernel[], style: PrintStyle = 'bcu'): Program {
  const out = new Emitter();
  const printed = kernels.map((k, i) => {
    if (i > 0) out.emit('\n');
    return printKernel(out, k, style);
  });
  return { file: sourceFile(path, out.text), kernels: printed };
}

/** `file:line` of a span in the file the user wrote, and the macro it was expanded from. */
export function sourceLine(file: SourceFile, span: Span): string {
  const at = located(file, span);
  const here = `${at.file.path}:${positionAt(at.file, at.span.start).line}`;
  return at.expansions.length === 0 ? here : `${here} (in expansion of ${at.expansions[at.expansions.length - 1]!.name})`;
}

/** A span a front end made up (a statement it added), which points nowhere in the user's file. */
const made = (span: Span): boolean => span.start === 0 && span.end === 0;

/**
 * The program as `faial-ts lower` shows it: its printed text, each line that
 * begins a kernel, a precondition, an array or a statement followed by
 * `// file:line` of where that came from in the file the user wrote.
 */
export function showListing(program: Program, style: PrintStyle = 'cuda'): string {
  const printed = printProgram(program.file.path, program.kernels, style);
  const origins = new Map<number, Span>();
  const note = (at: Span, from: Span): void => {
    const line = positionAt(printed.file, at.start).line;
    if (!made(from) && !origins.has(line)) origins.set(line, from);
  };
  // the printer keeps every statement's shape, so the printed and the given statements walk in step
  const walk = (given: readonly Stmt[], shown: readonly Stmt[]): void => given.forEach((s, i) => stmt(s, shown[i]!));
  const stmt = (s: Stmt, shown: Stmt): void => {
    switch (s.kind) {
      case 'skip':
      case 'sync':
      case 'syncwarp':
      case 'write':
      case 'assume':
        return note(shown.span, s.span);
      case 'read':
        note(shown.span, s.source);
        return stmt(s.body, (shown as typeof s).body);
      case 'atomic':
        note(shown.span, s.target);
        return s.local === null ? undefined : stmt(s.body, (shown as typeof s).body);
      case 'let':
      case 'havoc':
        note(shown.span, s.span);
        return stmt(s.body, (shown as typeof s).body);
      case 'if': {
        const t = shown as typeof s;
        note(t.span, s.span);
        walk(s.then, t.then);
        return walk(s.else ?? [], t.else ?? []);
      }
      case 'for':
        note(shown.span, s.span);
        return walk(s.body, (shown as typeof s).body);
      default:
        return assertNever(s);
    }
  };
  program.kernels.forEach((k, i) => {
    const shown = printed.kernels[i]!;
    note(shown.name.span, k.name.span);
    k.requires.forEach((r, j) => note(shown.requires[j]!.span, r.span));
    k.arrays.forEach((a, j) => note(shown.arrays[j]!.span, a.span));
    walk(k.body, shown.body);
  });
  const lines = printed.file.text.replace(/\n$/, '').split('\n');
  const width = Math.min(70, Math.max(...lines.map((l) => l.length)));
  return lines.map((l, i) => {
    const from = origins.get(i + 1);
    return from === undefined ? l : `${l.padEnd(width)}  // ${sourceLine(program.file, from)}`;
  }).join('\n');
}

/** The kernel as core-program text. */
export function showKernel(kernel: Kernel): string {
  return printProgram('kernel', [kernel]).file.text;
}
