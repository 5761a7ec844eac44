/**
 * Program points of unsynchronised code (accesses and barriers) and the path
 * that leads to each: the conditions taken, the loops entered, the shared
 * binders, and the statements that must complete before it.
 */
import type { BExpr, Expr } from '../core/ast.js';
import { bexprVars, exprVars } from '../core/exprs.js';
import type { Access, Range, SyncSite } from '../map/map.js';
import { codeChildren, type Code, type Relation } from '../phases/code.js';
import { assertNever } from '../util/assert.js';

export type Step =
  /** a statement before the point, in the same block, which must complete */
  | { readonly kind: 'prefix'; readonly code: Code }
  | { readonly kind: 'cond'; readonly cond: BExpr; readonly holds: boolean }
  /** a loop of the thread's own: the point is in some iteration */
  | { readonly kind: 'loop'; readonly var: string; readonly range: Range }
  /** a variable shared by the threads of the phase */
  | { readonly kind: 'bind'; readonly var: string; readonly relation: Relation; readonly range: Range };

export type Target =
  | { readonly kind: 'access'; readonly access: Access }
  | { readonly kind: 'mark'; readonly sync: SyncSite }
  | { readonly kind: 'assume'; readonly cond: BExpr };

export interface Point {
  readonly target: Target;
  readonly path: readonly Step[];
}

/**
 * The points of the code and their paths. With `rest`, a point's path also
 * requires the statements after it, up to the end of the code, to complete:
 * the phase is one execution of the block, so a point counts only if its
 * thread can run on to the barrier. This is what keeps the alternatives of a
 * `choice` apart (their guards may come after the point).
 */
export function pointsOf(code: Code, rest: 'with-rest' | 'without-rest'): Point[] {
  const out: Point[] = [];
  const walk = (c: Code, path: readonly Step[], after: readonly Step[]): void => {
    switch (c.kind) {
      case 'access':
      case 'mark':
      case 'assume':
        out.push({ target: c, path: [...path, ...after] });
        return;
      case 'seq': {
        const prefix: Step[] = [];
        c.items.forEach((item, k) => {
          const suffix: Step[] = rest === 'with-rest' ? c.items.slice(k + 1).map((code) => ({ kind: 'prefix', code })) : [];
          walk(item, [...path, ...prefix], [...suffix, ...after]);
          prefix.push({ kind: 'prefix', code: item });
        });
        return;
      }
      case 'if':
        walk(c.then, [...path, { kind: 'cond', cond: c.cond, holds: true }], after);
        walk(c.else, [...path, { kind: 'cond', cond: c.cond, holds: false }], after);
        return;
      case 'loop':
        // the thread's own later iterations are not required to complete
        walk(c.body, [...path, { kind: 'loop', var: c.var, range: c.range }], after);
        return;
      case 'bind':
        walk(c.body, [...path, { kind: 'bind', var: c.var, relation: c.relation, range: c.range }], after);
        return;
      case 'choice':
        c.options.forEach((o) => walk(o, path, after));
        return;
      case 'skip':
      case 'defined':
      case 'havoc':
      case 'empty':
      case 'erased':
        return;
      default:
        return assertNever(c);
    }
  };
  walk(code, [], []);
  return out;
}

/** The shared binders anywhere in the code, with their ranges. */
export function sharedBinders(code: Code, out: Map<string, Range> = new Map()): Map<string, Range> {
  if (code.kind === 'bind') out.set(code.var, code.range);
  for (const child of codeChildren(code)) sharedBinders(child, out);
  return out;
}

/** The loops whose barriers were erased, anywhere in the code. */
export function containsErased(code: Code): { span: { start: number; end: number } }[] {
  return code.kind === 'erased' ? [code] : codeChildren(code).flatMap(containsErased);
}

function rangeVars(r: Range, out: Set<string>): void {
  exprVars(r.from, out);
  exprVars(r.to, out);
  exprVars(r.step.amount, out);
}

/** Variables that decide whether code runs to its end (the indices it accesses do not). */
function codeVars(c: Code, out: Set<string>, decides: (exprs: readonly Expr[]) => boolean): void {
  if (c.kind === 'if' || c.kind === 'assume') bexprVars(c.cond, out);
  if (c.kind === 'defined' && decides(c.exprs)) c.exprs.forEach((e) => exprVars(e, out));
  if (c.kind === 'loop' || c.kind === 'bind' || c.kind === 'empty') rangeVars(c.range, out);
  for (const child of codeChildren(c)) codeVars(child, out, decides);
}

/**
 * Every source variable that decides whether, and where, the point's access
 * happens; `decides` tells whether the definedness of a `defined` step's
 * expressions counts (the caller may know some step defined for some
 * contents of memory whatever the launch).
 */
export function pointVars(p: Point, decides: (exprs: readonly Expr[]) => boolean = () => true): Set<string> {
  const out = new Set<string>();
  for (const s of p.path) {
    switch (s.kind) {
      case 'prefix':
        codeVars(s.code, out, decides);
        break;
      case 'cond':
        bexprVars(s.cond, out);
        break;
      case 'loop':
      case 'bind':
        rangeVars(s.range, out);
        break;
      default:
        assertNever(s);
    }
  }
  if (p.target.kind === 'access') p.target.access.index.forEach((ix) => exprVars(ix, out));
  return out;
}
