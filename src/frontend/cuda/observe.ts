/**
 * What the front end did with each statement, declaration and call it met:
 * lowered (it changed the kernel being built: a statement, a local, a name,
 * an array, a launch condition, or gave a value), approximated with a notice,
 * rejected with a located diagnostic, or nothing at all. Recorded only when
 * the caller asks (the silent-drop test, test/frontend/cuda/no-silent-drop);
 * a lowering without an observer pays one comparison per node.
 */
import type { Node } from './parse.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { KernelRejected } from './codes.js';
import type { Ctx, Value } from './context.js';
import type { Unit } from './unit.js';

/** Where the front end met the node: a statement of a function body, a call, or a declaration at file (or namespace) level. */
export type Site = 'statement' | 'call' | 'file';

export type Outcome = { readonly kind: 'lowered' } | { readonly kind: 'notice'; readonly notices: readonly Diagnostic[] } | { readonly kind: 'rejected'; readonly diagnostic: Diagnostic } | { readonly kind: 'none' };

export interface Visit {
  readonly site: Site;
  readonly node: Node;
  readonly outcome: Outcome;
}

export type Observer = (visit: Visit) => void;

interface KernelSnapshot {
  readonly builder: Ctx['b'];
  readonly items: number;
  readonly values: readonly (readonly [unknown, Value])[];
  readonly valueCount: number;
  readonly scope: Ctx['scope'];
  readonly names: number;
  readonly arrays: number;
  readonly arrayRefs: number;
  readonly requires: number;
  readonly params: number;
  readonly notices: number;
}

function snapshot(ctx: Ctx): KernelSnapshot {
  const k = ctx.k;
  return {
    builder: ctx.b,
    items: ctx.b.items.length,
    values: [...ctx.values],
    valueCount: ctx.values.size,
    scope: ctx.scope,
    names: ctx.scope.size,
    arrays: k.arrays.length,
    arrayRefs: k.arrayRefs.size,
    requires: k.requires.length,
    params: k.params.length,
    notices: k.notices.length,
  };
}

/** Whether the kernel being built differs from the snapshot: anything a lowering leaves behind. */
function changedSince(ctx: Ctx, s: KernelSnapshot): boolean {
  const k = ctx.k;
  if (ctx.b !== s.builder || ctx.b.items.length !== s.items || ctx.scope !== s.scope || ctx.scope.size !== s.names) return true;
  if (k.arrays.length !== s.arrays || k.arrayRefs.size !== s.arrayRefs || k.requires.length !== s.requires || k.params.length !== s.params) return true;
  if (ctx.values.size !== s.valueCount) return true;
  return s.values.some(([slot, v]) => ctx.values.get(slot as never) !== v);
}

/** Lowers `n` with `lower`, telling the kernel's observer (if any) what came of it. */
export function observed<T>(ctx: Ctx, site: Site, n: Node, lower: () => T): T {
  const observe = ctx.k.observer;
  if (observe === undefined) return lower();
  const before = snapshot(ctx);
  let result: T;
  try {
    result = lower();
  } catch (e) {
    if (e instanceof KernelRejected) observe({ site, node: n, outcome: { kind: 'rejected', diagnostic: e.diagnostic } });
    throw e;
  }
  const notices = ctx.k.notices.slice(before.notices);
  const gaveValue = site === 'call' && (result as Value | undefined)?.kind !== 'void';
  const outcome: Outcome = notices.length > 0 ? { kind: 'notice', notices } : gaveValue || changedSince(ctx, before) ? { kind: 'lowered' } : { kind: 'none' };
  observe({ site, node: n, outcome });
  return result;
}

/** How much the file's declarations have recorded: a declaration that records nothing leaves it unchanged. */
function unitSize(unit: Unit, notices: readonly Diagnostic[]): number {
  let n = unit.globals.length + unit.broken.length + notices.length;
  for (const m of [unit.functions, unit.types, unit.classDefs, unit.outOfClass, unit.constants, unit.instantiations]) {
    n += m.size;
    for (const v of m.values()) if (Array.isArray(v)) n += v.length;
  }
  return n;
}

/** Collects one declaration of the file with `collect`, telling the observer (if any) whether it recorded anything. */
export function observedDeclaration(unit: Unit, notices: readonly Diagnostic[], observe: Observer | undefined, n: Node, collect: () => void): void {
  if (observe === undefined) return collect();
  const before = unitSize(unit, notices);
  collect();
  observe({ site: 'file', node: n, outcome: unitSize(unit, notices) !== before ? { kind: 'lowered' } : { kind: 'none' } });
}
