/**
 * Operations on the kernel's input alone. An operation whose only inputs are
 * values read (`B[i] + 1`) may be undefined for some contents of memory and
 * defined for others: whether it is defined is data-dependent behaviour of
 * the thread that evaluates it, not something the launch decides. When the
 * value comes from the input (no write of its array precedes the read) and
 * the operation is defined on an input of zeros (the interpreter's default
 * contents), a witness does not depend on it: its thread runs on past the
 * operation with those contents.
 */
import type { Expr } from '../core/ast.js';
import { exprBuiltins, exprVars } from '../core/exprs.js';
import { protoSome, type Access, type KernelMap } from '../map/map.js';
import { evalExpr, EvalError } from '../semantics/values.js';

/**
 * Whether `e` is an operation on the input alone, as above: it mentions values
 * read and nothing else (no thread id, size, parameter or loop variable),
 * each read from an array no write precedes, and it is defined when they are 0.
 */
export function inputOperation(map: KernelMap): (e: Expr) => boolean {
  // program order: a write's target is written after its value is read (`B[i] = B[i] + 1`), whatever the text's order
  const order: Access[] = [];
  protoSome(map.body, (p) => {
    if (p.kind === 'access') order.push(p.access);
    return false;
  });
  const writesBefore = (w: Access, read: Access): boolean =>
    w.array === read.array && w.mode !== 'read' && (order.indexOf(w) < order.indexOf(read) || w.loops.some((l) => read.loops.includes(l)));
  const fromInput = (v: string): boolean => {
    const info = map.vars.get(v);
    if (info?.kind !== 'data') return false;
    const read = order.find((a) => a.mode === 'read' && a.span.start === info.origin.span.start && a.span.end === info.origin.span.end);
    return read !== undefined && !order.some((w) => writesBefore(w, read));
  };
  return (e) => {
    const vars = [...exprVars(e)];
    if (vars.length === 0 || exprBuiltins(e).size > 0 || !vars.every(fromInput)) return false;
    try {
      evalExpr(e, { vars: new Map(vars.map((v) => [v, 0n])), builtins: {} });
      return true;
    } catch (err) {
      if (err instanceof EvalError) return false;
      throw err;
    }
  };
}
