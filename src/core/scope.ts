/**
 * The one assumption about a CUDA launch that is no rule of CUDA: a grid of
 * fewer than 2^32 threads along x (`gridDim.x * blockDim.x < 2^32`; CUDA
 * allows up to (2^31 − 1) · 1024). C computes the global index `blockIdx.x *
 * blockDim.x + threadIdx.x` modulo 2^32, so in a larger grid two threads of
 * nearly every grid-indexed kernel share an index: a real race at launches no
 * program makes. Strict, so that the grid's thread count `blockDim.x *
 * gridDim.x` (a grid-stride loop's stride) is a u32 too: at exactly 2^32 it
 * would be 0. The CUDA front end adds the clause to every kernel that uses
 * the grid along x (src/frontend/cuda/limits.ts), the encoder relies on it to
 * write that index and that stride without a remainder (src/encode/query.ts),
 * and every report states it beside the scope of machine integers, so that
 * no verdict depends on it silently.
 */
import { AXES, type Axis, type BExpr, type Expr } from './ast.js';
import type { Launch } from './launch.js';
import type { Span } from './source.js';

/** A grid's threads along x are fewer than this. */
export const GRID_THREADS = 2n ** 32n;

/** The assumption as reports state it. */
export const GRID_THREADS_ASSUMPTION = `a grid of fewer than 2^32 threads along x (gridDim.x * blockDim.x < ${GRID_THREADS}, not a CUDA limit: so that neither blockIdx.x * blockDim.x + threadIdx.x nor blockDim.x * gridDim.x wraps around)`;

/** `gridDim.x * blockDim.x < 2^32`, placed at span. */
export function gridThreadsLimit(span: Span): BExpr {
  const dim = (name: 'gridDim' | 'blockDim'): Expr => ({ kind: 'builtin', name, axis: 'x', span });
  return { kind: 'cmp', op: '<', left: { kind: 'binary', op: '*', left: dim('gridDim'), right: dim('blockDim'), span }, right: { kind: 'nat', value: GRID_THREADS, span }, span };
}

/** Whether c bounds the grid's threads along the axis below 2^32: `gridDim.a * blockDim.a < N` with N ≤ 2^32, or `<= N` with N < 2^32. */
export function isGridThreadsLimit(c: BExpr, axis: Axis): boolean {
  if (c.kind !== 'cmp' || c.right.kind !== 'nat') return false;
  if (!(c.op === '<' ? c.right.value <= GRID_THREADS : c.op === '<=' && c.right.value < GRID_THREADS)) return false;
  const l = c.left;
  const isDim = (e: Expr, name: 'gridDim' | 'blockDim'): boolean => e.kind === 'builtin' && e.name === name && e.axis === axis;
  return l.kind === 'binary' && l.op === '*' && l.type === undefined && isDim(l.left, 'gridDim') && isDim(l.right, 'blockDim');
}

/** The assumptions about the launch, beyond CUDA's rules, that a kernel with these preconditions is verified under, as reports state them. */
export function launchAssumptions(preconditions: readonly BExpr[]): string[] {
  return preconditions.some((c) => isGridThreadsLimit(c, 'x')) ? [GRID_THREADS_ASSUMPTION] : [];
}

/**
 * The dimensions a host-launched kernel is verified at 1 because it does not
 * use them (spec §5), as reports state them, or null when there are none:
 * `a[threadIdx.x] += 1` is race-free in one block and racy in two, so a
 * proof "for all launches" must say which launches it left out.
 */
export function unusedDimensionsAssumption(symbolic: ReadonlySet<`${'blockDim' | 'gridDim'}.${Axis}`>, launch: Pick<Launch, 'blockDim' | 'gridDim'>): string | null {
  const unused = (dim: 'blockDim' | 'gridDim', given: readonly bigint[] | null): Axis[] => (given !== null ? [] : AXES.filter((a) => !symbolic.has(`${dim}.${a}`)));
  const grid = unused('gridDim', launch.gridDim);
  const block = unused('blockDim', launch.blockDim);
  const parts = [
    grid.length === AXES.length ? 'one block (gridDim = 1)' : grid.length > 0 ? `${grid.map((a) => `gridDim.${a}`).join(' = ')} = 1` : null,
    block.length > 0 ? `${block.map((a) => `blockDim.${a}`).join(' = ')} = 1` : null,
  ].filter((p) => p !== null);
  if (parts.length === 0) return null;
  return `${parts.join(' and ')}, dimensions the kernel does not use (--grid-dim and --block-dim verify other launches)`;
}
