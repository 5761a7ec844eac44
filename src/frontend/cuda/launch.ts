/**
 * Whether an expression is known before the kernel runs: it mentions only
 * parameters, blockDim and gridDim. Such a `__requires` constrains the launch,
 * and such an array size is the array's declared size.
 */
import type { BExpr, Expr } from '../../core/ast.js';
import type { Ctx } from './context.js';

export function launchOnlyExpr(ctx: Ctx, e: Expr): boolean {
  switch (e.kind) {
    case 'nat':
    case 'int':
      return true;
    case 'var':
      return ctx.k.params.some((p) => p.text === e.name);
    case 'builtin':
      return e.name === 'blockDim' || e.name === 'gridDim';
    case 'binary':
      return launchOnlyExpr(ctx, e.left) && launchOnlyExpr(ctx, e.right);
    case 'cast':
      return launchOnlyExpr(ctx, e.operand);
    case 'ite':
      return launchOnlyCond(ctx, e.cond) && launchOnlyExpr(ctx, e.then) && launchOnlyExpr(ctx, e.else);
  }
}

export function launchOnlyCond(ctx: Ctx, c: BExpr): boolean {
  switch (c.kind) {
    case 'bool':
      return true;
    case 'cmp':
      return launchOnlyExpr(ctx, c.left) && launchOnlyExpr(ctx, c.right);
    case 'and':
    case 'or':
      return launchOnlyCond(ctx, c.left) && launchOnlyCond(ctx, c.right);
    case 'not':
      return launchOnlyCond(ctx, c.operand);
  }
}
