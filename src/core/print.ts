/**
 * The core program in BabyCUDA-like syntax (`faial-ts lower`): what was
 * verified, one statement per line, each with the line of the file the user
 * wrote that it comes from (through the file's origin map). Machine types are
 * written where a name is bound (`let i: i32 = …`), casts as `(u32) e`, and
 * unknown values as `havoc x: T` with their origin.
 */
import type { ArrayDecl, BExpr, Expr, Kernel, Program, Stmt, UnknownOrigin } from './ast.js';
import { showBExpr as showCond, showExpr as showValue } from './exprs.js';
import { located, positionAt, type SourceFile, type Span } from './source.js';
import { assertNever } from '../util/assert.js';

/** `file:line` of a span in the file the user wrote, and the macro it was expanded from. */
export function sourceLine(file: SourceFile, span: Span): string {
  const at = located(file, span);
  const here = `${at.file.path}:${positionAt(at.file, at.span.start).line}`;
  return at.expansions.length === 0 ? here : `${here} (in expansion of ${at.expansions[at.expansions.length - 1]!.name})`;
}

const showExpr = (e: Expr): string => showValue(e, 0, false, 'cuda');
const showBExpr = (c: BExpr): string => showCond(c, 0, 'cuda');

function typeOf(e: Expr): string {
  if (e.kind === 'int' || e.kind === 'cast') return e.type;
  if ((e.kind === 'var' || e.kind === 'binary') && e.type !== undefined) return e.type;
  if (e.kind === 'ite') return typeOf(e.then);
  return 'nat';
}

function origin(o: UnknownOrigin): string {
  return o.kind === 'value' ? o.what : `approximation: ${o.what} (${o.why})`;
}

interface Line {
  readonly text: string;
  readonly span: Span | null;
}

function declText(a: ArrayDecl): string {
  return `${a.scope} ${a.name.text}${a.sizes.map((s) => `[${showExpr(s)}]`).join('')}`;
}

function stmtLines(s: Stmt, depth: number, out: Line[]): void {
  const pad = '  '.repeat(depth);
  const push = (text: string, span: Span | null = s.span): void => void out.push({ text: `${pad}${text}`, span });
  const index = (ix: readonly Expr[]): string => ix.map((e) => `[${showExpr(e)}]`).join('');
  const block = (body: readonly Stmt[]): void => {
    for (const b of body) stmtLines(b, depth + 1, out);
  };
  switch (s.kind) {
    case 'skip':
      return push('skip');
    case 'write':
      return push(`${s.array.text}${index(s.index)} := ${showExpr(s.value)}`);
    case 'read':
      push(`let ${s.local.text} = ${s.array.text}${index(s.index)} in`, s.source);
      return stmtLines(s.body, depth, out);
    case 'let':
      push(`let ${s.local.text}: ${typeOf(s.value)} = ${showExpr(s.value)} in`);
      return stmtLines(s.body, depth, out);
    case 'havoc':
      push(`havoc ${s.local.text}: ${s.type} (${origin(s.origin)}) in`);
      return stmtLines(s.body, depth, out);
    case 'if':
      push(`if ${showBExpr(s.cond)} {`);
      block(s.then);
      if (s.else !== null) {
        push('} else {', null);
        block(s.else);
      }
      return push('}', null);
    case 'for': {
      const step = s.step === null ? '' : ` step ${s.step.op} ${showExpr(s.step.amount)}`;
      const range = s.direction === 'up' ? `${showExpr(s.from)}..${showExpr(s.to)}` : `${showExpr(s.from)} downto ${showExpr(s.to)}`;
      push(`for ${s.var.text}${s.type === undefined ? '' : `: ${s.type}`} in ${range}${step} {`);
      block(s.body);
      return push('}', null);
    }
    case 'sync':
      return push('sync');
    case 'assume':
      return push(`assume ${showBExpr(s.cond)}`);
    default:
      return assertNever(s);
  }
}

export function showKernel(file: SourceFile, k: Kernel): string {
  const params = k.params.map((p) => ('type' in p && p.type !== undefined ? `${p.text}: ${p.type}` : p.text)).join(', ');
  const lines: Line[] = [{ text: `kernel ${k.name.text}(${params})`, span: k.name.span }];
  for (const r of k.requires) lines.push({ text: `  requires ${showBExpr(r)}`, span: r.span });
  lines.push({ text: '{', span: null });
  for (const a of k.arrays) lines.push({ text: `  ${declText(a)};`, span: a.span });
  for (const s of k.body) stmtLines(s, 1, lines);
  lines.push({ text: '}', span: null });
  const width = Math.min(70, Math.max(...lines.map((l) => l.text.length)));
  return lines.map((l) => (l.span === null || (l.span.start === 0 && l.span.end === 0) ? l.text : `${l.text.padEnd(width)}  // ${sourceLine(file, l.span)}`)).join('\n');
}

export function showProgram(program: Program): string {
  return program.kernels.map((k) => showKernel(program.file, k)).join('\n\n');
}
