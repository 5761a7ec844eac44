/**
 * The BabyCUDA abstract syntax tree. Every node keeps the offsets of the text it
 * came from; line and column are computed only when a diagnostic is printed.
 */
import type { Span, SourceFile } from './source.js';

export type Axis = 'x' | 'y' | 'z';
export const AXES: readonly Axis[] = ['x', 'y', 'z'];
export type BuiltinName = 'threadIdx' | 'blockIdx' | 'blockDim' | 'gridDim';
export type ArithOp = '+' | '-' | '*' | '/' | '%' | '<<' | '>>' | '&' | '|' | '^';
/** `=` is read as `==`. */
export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

export interface Name {
  readonly text: string;
  readonly span: Span;
}

export type Expr =
  | { readonly kind: 'nat'; readonly value: bigint; readonly span: Span }
  | { readonly kind: 'var'; readonly name: string; readonly span: Span }
  | { readonly kind: 'builtin'; readonly name: BuiltinName; readonly axis: Axis; readonly span: Span }
  | { readonly kind: 'binary'; readonly op: ArithOp; readonly left: Expr; readonly right: Expr; readonly span: Span };

export type BExpr =
  | { readonly kind: 'bool'; readonly value: boolean; readonly span: Span }
  | { readonly kind: 'cmp'; readonly op: CmpOp; readonly left: Expr; readonly right: Expr; readonly span: Span }
  | { readonly kind: 'and' | 'or'; readonly left: BExpr; readonly right: BExpr; readonly span: Span }
  | { readonly kind: 'not'; readonly operand: BExpr; readonly span: Span };

export type UpStep = '+' | '*';
export type DownStep = '-' | '/';

export interface Step {
  readonly op: UpStep | DownStep;
  readonly amount: Expr;
}

export type Stmt =
  | { readonly kind: 'skip'; readonly span: Span }
  | {
      readonly kind: 'write';
      readonly array: Name;
      readonly index: readonly Expr[];
      readonly value: Expr;
      /** the `A[i]` being written */
      readonly target: Span;
      readonly span: Span;
    }
  | {
      readonly kind: 'read';
      readonly local: Name;
      readonly array: Name;
      readonly index: readonly Expr[];
      /** the `A[i]` being read */
      readonly source: Span;
      readonly body: Stmt;
      readonly span: Span;
    }
  | { readonly kind: 'let'; readonly local: Name; readonly value: Expr; readonly body: Stmt; readonly span: Span }
  | {
      readonly kind: 'if';
      readonly cond: BExpr;
      readonly then: readonly Stmt[];
      readonly else: readonly Stmt[] | null;
      readonly span: Span;
    }
  | {
      readonly kind: 'for';
      readonly var: Name;
      readonly from: Expr;
      readonly to: Expr;
      readonly direction: 'up' | 'down';
      readonly step: Step | null;
      readonly body: readonly Stmt[];
      readonly span: Span;
    }
  | { readonly kind: 'sync'; readonly span: Span }
  | { readonly kind: 'assume'; readonly cond: BExpr; readonly span: Span };

export interface Dim3 {
  readonly x: Expr;
  readonly y: Expr | null;
  readonly z: Expr | null;
  readonly span: Span;
}

export interface Launch {
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly span: Span;
}

export type Scope = 'shared' | 'global';

export interface ArrayDecl {
  readonly name: Name;
  readonly scope: Scope;
  /** one per declared dimension; empty when the sizes are not given */
  readonly sizes: readonly Expr[];
  readonly span: Span;
}

export interface Kernel {
  readonly name: Name;
  readonly params: readonly Name[];
  readonly launch: Launch | null;
  readonly requires: readonly BExpr[];
  readonly arrays: readonly ArrayDecl[];
  readonly body: readonly Stmt[];
  readonly span: Span;
}

export interface Program {
  readonly file: SourceFile;
  readonly kernels: readonly Kernel[];
}
