/**
 * Memory access protocols (MAPs): what each thread reads and writes, where and
 * under which control, with array contents dropped (paper, Fig. 6). Pure lets
 * are inlined; a variable bound by a read stays a variable whose value is
 * unknown and may differ between threads (a data-dependent variable).
 */
import type { BExpr, DownStep, Expr, Scope, UpStep } from '../syntax/ast.js';
import type { SourceFile, Span } from '../syntax/source.js';
import { assertNever } from '../util/assert.js';

export type Mode = 'read' | 'write';

export interface Range {
  readonly from: Expr;
  readonly to: Expr;
  readonly direction: 'up' | 'down';
  /** the default steps `+ 1` and `- 1` are explicit */
  readonly step: { readonly op: UpStep | DownStep; readonly amount: Expr };
}

export interface Access {
  /** unique within the kernel; copies made by the phase split keep it */
  readonly id: number;
  readonly array: string;
  readonly mode: Mode;
  readonly index: readonly Expr[];
  /** the `A[i]` in the source */
  readonly span: Span;
  /** the variable a read binds (`let y = A[i] in …`), null for writes */
  readonly local: string | null;
  /** the loop variables around the access, outermost first, shown in witnesses */
  readonly loops: readonly string[];
  /** pure lets in scope, already inlined, shown in witnesses */
  readonly locals: readonly { readonly name: string; readonly value: Expr }[];
}

export interface SyncSite {
  readonly id: number;
  readonly span: Span;
}

export type Proto =
  | { readonly kind: 'skip' }
  | { readonly kind: 'access'; readonly access: Access }
  | { readonly kind: 'seq'; readonly items: readonly Proto[] }
  | { readonly kind: 'if'; readonly cond: BExpr; readonly then: Proto; readonly else: Proto }
  | { readonly kind: 'loop'; readonly var: string; readonly range: Range; readonly body: Proto; readonly span: Span }
  | { readonly kind: 'sync'; readonly sync: SyncSite }
  | { readonly kind: 'assume'; readonly cond: BExpr; readonly span: Span };

/** Where a data-dependent variable's value comes from. */
export interface ReadOrigin {
  readonly array: string;
  /** the `A[i]` that was read */
  readonly span: Span;
}

export type VarInfo =
  | { readonly kind: 'param' }
  | { readonly kind: 'loop'; readonly source: string }
  | { readonly kind: 'data'; readonly source: string; readonly origin: ReadOrigin };

export type Use = 'index' | 'condition' | 'loop bound' | 'loop step' | 'assumption';

/** A data-dependent value used where the type system of the paper needs V. */
export interface TypingViolation {
  readonly variable: string;
  readonly origin: ReadOrigin;
  readonly use: Use;
  readonly span: Span;
}

export interface ArrayInfo {
  readonly name: string;
  readonly scope: Scope;
  readonly dims: number;
  readonly span: Span;
}

export type DimName = 'blockDim' | 'gridDim';

/** The kernel as the later stages see it. */
export interface KernelMap {
  readonly file: SourceFile;
  readonly name: string;
  readonly span: Span;
  readonly params: readonly string[];
  readonly arrays: readonly ArrayInfo[];
  readonly vars: ReadonlyMap<string, VarInfo>;
  /** requires clauses, and the launch clause as equalities on the dimensions */
  readonly preconditions: readonly BExpr[];
  /** the dimensions that are symbolic (the others are 1 unless fixed) */
  readonly symbolicDims: ReadonlySet<`${DimName}.${'x' | 'y' | 'z'}`>;
  readonly body: Proto;
  readonly violations: readonly TypingViolation[];
  readonly syncs: readonly SyncSite[];
  readonly accesses: readonly Access[];
}

export function seq(items: readonly Proto[]): Proto {
  const flat: Proto[] = [];
  for (const p of items) {
    if (p.kind === 'seq') flat.push(...p.items);
    else if (p.kind !== 'skip') flat.push(p);
  }
  if (flat.length === 0) return { kind: 'skip' };
  if (flat.length === 1) return flat[0]!;
  return { kind: 'seq', items: flat };
}

/** Whether some statement of the protocol, itself included, passes the test. */
export function protoSome(p: Proto, test: (p: Proto) => boolean): boolean {
  if (test(p)) return true;
  switch (p.kind) {
    case 'seq':
      return p.items.some((i) => protoSome(i, test));
    case 'if':
      return protoSome(p.then, test) || protoSome(p.else, test);
    case 'loop':
      return protoSome(p.body, test);
    case 'skip':
    case 'access':
    case 'sync':
    case 'assume':
      return false;
    default:
      return assertNever(p);
  }
}
