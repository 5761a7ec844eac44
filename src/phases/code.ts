/**
 * Unsynchronised code: what the threads of one block run between two barriers.
 * Loops come in two kinds: `loop` is a thread's own loop (each thread may be in
 * a different iteration), `bind` fixes a variable that every thread of the
 * phase shares (the iteration of a loop with barriers, which barriers force
 * all threads to agree on).
 */
import type { BExpr, Expr } from '../core/ast.js';
import type { Span } from '../core/source.js';
import type { Access, Range, SyncSite } from '../map/map.js';
import { assertNever } from '../util/assert.js';

export type Relation =
  | { readonly kind: 'member' }
  | { readonly kind: 'first' }
  | { readonly kind: 'last' }
  | { readonly kind: 'next'; readonly prev: string };

export type Code =
  | { readonly kind: 'skip' }
  | { readonly kind: 'access'; readonly access: Access }
  | { readonly kind: 'seq'; readonly items: readonly Code[] }
  | { readonly kind: 'if'; readonly cond: BExpr; readonly then: Code; readonly else: Code }
  | { readonly kind: 'loop'; readonly var: string; readonly range: Range; readonly body: Code }
  | { readonly kind: 'bind'; readonly var: string; readonly relation: Relation; readonly range: Range; readonly body: Code }
  | { readonly kind: 'assume'; readonly cond: BExpr }
  /** the thread evaluates these (machine-integer) expressions: the code runs on only where they are defined */
  | { readonly kind: 'defined'; readonly exprs: readonly Expr[] }
  /** the thread binds an unknown value to `var` */
  | { readonly kind: 'havoc'; readonly var: string }
  | { readonly kind: 'empty'; readonly range: Range }
  | { readonly kind: 'choice'; readonly options: readonly Code[] }
  /** a barrier, kept as a program point for the divergence check */
  | { readonly kind: 'mark'; readonly sync: SyncSite }
  /** a loop whose barriers were erased (see split.ts): alarms near it are only possible */
  | { readonly kind: 'erased'; readonly span: Span };

export const SKIP: Code = { kind: 'skip' };
export const UNREACHABLE: Code = { kind: 'assume', cond: { kind: 'bool', value: false, span: { start: 0, end: 0 } } };

export function seqCode(items: readonly Code[]): Code {
  const flat: Code[] = [];
  for (const c of items) {
    if (c.kind === 'seq') flat.push(...c.items);
    else if (c.kind !== 'skip') flat.push(c);
  }
  if (flat.length === 0) return SKIP;
  if (flat.length === 1) return flat[0]!;
  return { kind: 'seq', items: flat };
}

export function isUnreachable(c: Code): boolean {
  return c.kind === 'assume' && c.cond.kind === 'bool' && !c.cond.value;
}

/** Where a piece of code is in the source: its accesses, the barriers it keeps as program points, the loops whose barriers were erased. */
export function codeSpans(c: Code): Span[] {
  if (c.kind === 'access') return [c.access.span];
  if (c.kind === 'mark') return [c.sync.span];
  if (c.kind === 'erased') return [c.span];
  return codeChildren(c).flatMap(codeSpans);
}

/** The code directly inside a piece of code. */
export function codeChildren(c: Code): readonly Code[] {
  switch (c.kind) {
    case 'seq':
      return c.items;
    case 'choice':
      return c.options;
    case 'if':
      return [c.then, c.else];
    case 'loop':
    case 'bind':
      return [c.body];
    case 'skip':
    case 'access':
    case 'assume':
    case 'defined':
    case 'havoc':
    case 'empty':
    case 'mark':
    case 'erased':
      return [];
    default:
      return assertNever(c);
  }
}
