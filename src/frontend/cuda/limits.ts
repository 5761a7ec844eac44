/**
 * CUDA's launch limits as preconditions of every CUDA kernel, so that a
 * proof's scope is the launches CUDA can make (NVIDIA's documented limits for
 * every compute capability since 3.0): blockDim.x, .y ≤ 1024, blockDim.z ≤ 64,
 * blockDim.x·y·z ≤ 1024, gridDim.x ≤ 2^31 − 1, gridDim.y, .z ≤ 65535.
 *
 * They are stated on the dimensions the kernel uses, and only those: a
 * dimension the kernel does not mention is 1 in the analysis (as in
 * BabyCUDA), where its limit holds anyway, and a clause mentioning it would
 * make it a variable of every query. The dimensions are naturals, so the
 * product is the mathematical one (no wrap-around to hide a big block).
 *
 * One clause is not CUDA's but a stated assumption of every proof: a grid of
 * fewer than 2^32 threads along x (src/core/scope.ts, where the reason is);
 * along y and z the limits above imply it.
 */
import { AXES, type Axis, type BExpr, type BuiltinName, type Expr, type Stmt } from '../../core/ast.js';
import { bexprBuiltins, exprBuiltins } from '../../core/exprs.js';
import type { Span } from '../../core/source.js';
import { assertNever } from '../../util/assert.js';
import { typeMax } from '../../core/arith.js';
import { gridThreadsLimit } from '../../core/scope.js';

type Mentioned = Set<`${BuiltinName}.${Axis}`>;

const BLOCK_LIMIT: Record<Axis, bigint> = { x: 1024n, y: 1024n, z: 64n };
const GRID_LIMIT: Record<Axis, bigint> = { x: 2n ** 31n - 1n, y: 65535n, z: 65535n };
const THREADS_PER_BLOCK = 1024n;

/**
 * The largest value e takes at every launch within the limits above, or null
 * when it is not a constant or a launch builtin (converted to a type that
 * holds the limit): every kernel's preconditions state the limit
 * of each dimension it mentions, so a condition that holds below it holds at
 * every launch the verdict is about.
 */
export function launchMax(e: Expr): bigint | null {
  switch (e.kind) {
    case 'nat':
    case 'int':
      return e.value;
    case 'builtin': {
      // an index is below its dimension
      const limit = e.name === 'blockDim' || e.name === 'threadIdx' ? BLOCK_LIMIT[e.axis] : GRID_LIMIT[e.axis];
      return e.name === 'threadIdx' || e.name === 'blockIdx' ? limit - 1n : limit;
    }
    case 'cast': {
      const m = launchMax(e.operand);
      // the conversion is the identity on values 0 … m when the type holds m
      return m !== null && m >= 0n && m <= typeMax(e.type) ? m : null;
    }
    default:
      return null;
  }
}

function stmtBuiltins(s: Stmt, out: Mentioned): void {
  const all = (body: readonly Stmt[]): void => body.forEach((b) => stmtBuiltins(b, out));
  switch (s.kind) {
    case 'skip':
    case 'sync':
    case 'syncwarp':
      return;
    case 'write':
      s.index.forEach((e) => exprBuiltins(e, out));
      exprBuiltins(s.value, out);
      return;
    case 'read':
      s.index.forEach((e) => exprBuiltins(e, out));
      return stmtBuiltins(s.body, out);
    case 'let':
      exprBuiltins(s.value, out);
      return stmtBuiltins(s.body, out);
    case 'atomic':
      [...s.index, ...s.operands].forEach((e) => exprBuiltins(e, out));
      return stmtBuiltins(s.body, out);
    case 'havoc':
      return stmtBuiltins(s.body, out);
    case 'if':
      bexprBuiltins(s.cond, out);
      all(s.then);
      return all(s.else ?? []);
    case 'for':
      exprBuiltins(s.from, out);
      exprBuiltins(s.to, out);
      if (s.step !== null) exprBuiltins(s.step.amount, out);
      return all(s.body);
    case 'assume':
      bexprBuiltins(s.cond, out);
      return;
    default:
      return assertNever(s);
  }
}

/**
 * The limit clauses of a kernel with this body and these (user-written)
 * requires, placed at `span` (the kernel's name); `evaluated`: the builtins
 * its lowering evaluated, which the body may no longer name.
 */
export function launchLimits(body: readonly Stmt[], requires: readonly BExpr[], evaluated: ReadonlySet<`${BuiltinName}.${Axis}`>, span: Span): BExpr[] {
  const mentioned: Mentioned = new Set(evaluated);
  body.forEach((s) => stmtBuiltins(s, mentioned));
  requires.forEach((r) => bexprBuiltins(r, mentioned));
  const dim = (name: 'blockDim' | 'gridDim', axis: Axis): Expr => ({ kind: 'builtin', name, axis, span });
  const atMost = (e: Expr, limit: bigint): BExpr => ({ kind: 'cmp', op: '<=', left: e, right: { kind: 'nat', value: limit, span }, span });
  // blockDim.x is a variable of every kernel's queries
  const blockAxes = AXES.filter((a) => a === 'x' || mentioned.has(`threadIdx.${a}`) || mentioned.has(`blockDim.${a}`));
  const gridAxes = AXES.filter((a) => mentioned.has(`blockIdx.${a}`) || mentioned.has(`gridDim.${a}`));
  const limits = [...blockAxes.map((a) => atMost(dim('blockDim', a), BLOCK_LIMIT[a])), ...gridAxes.map((a) => atMost(dim('gridDim', a), GRID_LIMIT[a]))];
  if (blockAxes.length > 1) {
    const threads = blockAxes.map((a) => dim('blockDim', a)).reduce((p, d): Expr => ({ kind: 'binary', op: '*', left: p, right: d, span }));
    limits.splice(blockAxes.length, 0, atMost(threads, THREADS_PER_BLOCK));
  }
  // a stated assumption, not CUDA's limit (src/core/scope.ts)
  if (gridAxes.includes('x')) limits.push(gridThreadsLimit(span));
  return limits;
}
