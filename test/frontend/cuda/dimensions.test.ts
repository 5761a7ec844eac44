/**
 * The launch dimensions of a CUDA kernel (spec §5): a dimension the kernel
 * does not use is 1 in the analysis, so which dimensions it uses must be
 * read from what the kernel evaluates, not from what survives lowering, and
 * the dimensions taken to be 1 are an assumption every report states.
 */
import { describe, expect, it } from 'vitest';
import { verified } from './lower-helpers.js';
import { checkedKernels } from '../../../src/api/check.js';
import { queryListing } from '../../../src/api/stages.js';
import { frontEndsFor } from '../../../src/cli/cuda.js';
import type { BExpr, Expr } from '../../../src/core/ast.js';
import { NO_LAUNCH } from '../../../src/core/launch.js';
import { gridThreadsLimit, isGridThreadsLimit } from '../../../src/core/scope.js';
import type { Span } from '../../../src/core/source.js';
import { z3Wasm } from '../../../src/solve/z3.js';

async function only(text: string): Promise<{ status: string; assumed: readonly string[] }> {
  const { rejected, results } = await verified(text, 4);
  if (rejected.length > 0) throw new Error(rejected.join('; '));
  return { status: results[0]!.status, assumed: results[0]!.launchAssumptions ?? [] };
}

describe('the dimensions a kernel uses', () => {
  it('a builtin whose value is lost to an unknown still makes its dimension a variable', async () => {
    // threads (x, 0) and (x, 1) of a two-row block both write a[x]: this was DRF when only the lowered body was read
    for (const value of ['sqrtf((float)threadIdx.y)', '(float)threadIdx.y / 3.0f', 'expf(1.0f * threadIdx.z)']) {
      const v = await only(`__global__ void k(float *a) {\n  a[threadIdx.x] = ${value};\n}\n`);
      expect(v.status, value).toBe('racy');
    }
  });

  it('a cooperative-groups rank lost to an unknown uses every dimension it is computed from', async () => {
    const text =
      '#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float *a) {\n  cg::thread_block b = cg::this_thread_block();\n  a[threadIdx.x] = sqrtf((float)b.thread_rank());\n}\n';
    expect((await only(text)).status).toBe('racy');
  });
});

describe('the dimensions taken to be 1 are stated', () => {
  it('a kernel that uses only threadIdx.x is proved for one block and one-dimensional blocks, and says so', async () => {
    const v = await only('__global__ void k(int *a) {\n  a[threadIdx.x] += 1;\n}\n');
    expect(v.status).toBe('drf');
    expect(v.assumed).toContain('one block (gridDim = 1) and blockDim.y = blockDim.z = 1, dimensions the kernel does not use (--grid-dim and --block-dim verify other launches)');
  });

  it('only the dimensions not used are named, and none when the kernel uses them all', async () => {
    const grid = await only('__global__ void k(int *a) {\n  a[blockIdx.x * blockDim.x + threadIdx.x] += 1;\n}\n');
    expect(grid.assumed.filter((a) => a.includes('does not use'))).toEqual([
      'gridDim.y = gridDim.z = 1 and blockDim.y = blockDim.z = 1, dimensions the kernel does not use (--grid-dim and --block-dim verify other launches)',
    ]);
    const all = await only('__global__ void k(int *a) {\n  a[0] = threadIdx.y + threadIdx.z + blockIdx.x + blockIdx.y + blockIdx.z;\n}\n');
    expect(all.assumed.some((a) => a.includes('does not use'))).toBe(false);
  });
});

describe('the grid of fewer than 2^32 threads along x', () => {
  const gridStride = '__global__ void k(unsigned n, float *y) {\n  unsigned stride = blockDim.x * gridDim.x;\n  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = 2.0f * y[i];\n}\n';

  it("makes a grid-stride loop's unsigned stride blockDim.x * gridDim.x a u32 that never wraps: written without a remainder, and DRF", async () => {
    // at exactly 2^32 threads the stride would be 0: the assumption is strict so that it is not
    const checked = checkedKernels('k.cu', gridStride, undefined, undefined, await frontEndsFor('k.cu', gridStride, {}));
    if (!checked.ok) throw new Error(checked.diagnostics.map((d) => d.message).join('; '));
    const scripts = await queryListing(checked.kernels[0]!, NO_LAUNCH, 60_000, z3Wasm);
    expect(scripts.length).toBeGreaterThan(1);
    expect(scripts.join('\n')).toContain('(< (* gridDim.x blockDim.x) 4294967296)');
    expect(scripts.join('\n')).not.toContain('(mod ');
    const v = await only(gridStride);
    expect(v.status).toBe('drf');
    expect(v.assumed[0]).toBe(
      'a grid of fewer than 2^32 threads along x (gridDim.x * blockDim.x < 4294967296, not a CUDA limit: so that neither blockIdx.x * blockDim.x + threadIdx.x nor blockDim.x * gridDim.x wraps around)',
    );
  });

  it("takes two blocks' (int) of the global index plus 0 or 1 compared apart: linear cases on which of them wraps, no case split inside a term", async () => {
    // the struct-operator kernel of issue 29: z3-wasm alone took minutes on the grid query's (int) g1 + m1 = (int) g2 + m2
    const text = `__device__ int2 operator+(int2 a, int2 b) { return make_int2(a.x + b.x, a.y + b.y); }
__global__ void k(int2 *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int2 u = make_int2(i, 0);
  int2 one = make_int2(threadIdx.x % 2, 0);
  r[(u + one).x] = u;
}
`;
    const checked = checkedKernels('k.cu', text, undefined, undefined, await frontEndsFor('k.cu', text, {}));
    if (!checked.ok) throw new Error(checked.diagnostics.map((d) => d.message).join('; '));
    const grid = (await queryListing(checked.kernels[0]!, NO_LAUNCH, 60_000, z3Wasm)).filter((s) => s.startsWith('; query k/grid/'));
    expect(grid.length).toBeGreaterThan(0);
    for (const script of grid) {
      const lines = script.split('\n');
      // the two indices compared as g1 + m1 = g2 + m2 (+ 2^32 on the side that wraps), never as the wrapped values
      const cases = lines.filter((l) => l.startsWith('(assert (or (and (= ') && l.includes('(mod t1.threadIdx.x 2)') && l.includes('(mod t2.threadIdx.x 2)'));
      expect(cases).toHaveLength(1);
      expect(cases[0]).toContain('4294967296)');
      expect(cases[0]).not.toContain('(ite ');
      expect(lines.filter((l) => /\(= [^\n]*\(ite /.test(l))).toEqual([]);
    }
  });

  it('is what bounds the grid: a non-strict bound at 2^32 does not', async () => {
    const span: Span = { start: 0, end: 0 };
    const limit = (op: '<' | '<=', value: bigint): BExpr => {
      const dim = (name: 'gridDim' | 'blockDim'): Expr => ({ kind: 'builtin', name, axis: 'x', span });
      return { kind: 'cmp', op, left: { kind: 'binary', op: '*', left: dim('gridDim'), right: dim('blockDim'), span }, right: { kind: 'nat', value, span }, span };
    };
    expect(isGridThreadsLimit(gridThreadsLimit(span), 'x')).toBe(true);
    expect(isGridThreadsLimit(limit('<', 2n ** 32n), 'x')).toBe(true);
    expect(isGridThreadsLimit(limit('<=', 2n ** 32n - 1n), 'x')).toBe(true);
    expect(isGridThreadsLimit(limit('<=', 2n ** 32n), 'x')).toBe(false);
    expect(isGridThreadsLimit(limit('<', 2n ** 32n + 1n), 'x')).toBe(false);
    expect(isGridThreadsLimit(limit('<', 2n ** 32n), 'y')).toBe(false);
  });
});
