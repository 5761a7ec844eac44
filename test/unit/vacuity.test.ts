/**
 * The vacuity check decides whether some launch has every thread in scope,
 * the thread that fails an assumption included when it depends on a
 * parameter or the block size (issue 30 §1): a kernel no launch satisfies is
 * vacuous, never DRF, in BabyCUDA and CUDA C alike; one that some launch
 * satisfies keeps its verdict.
 */
import { describe, expect, it } from 'vitest';
import { verifyText } from '../../src/api/verify.js';
import { frontEndsFor } from '../../src/cli/cuda.js';
import { NO_LAUNCH, type Launch } from '../../src/core/launch.js';
import { z3Wasm } from '../../src/solve/z3.js';
import type { KernelResult } from '../../src/verify/result.js';
import { threadsNamed } from '../../src/verify/vacuity.js';

async function verified(path: string, text: string, launch: Launch = NO_LAUNCH): Promise<KernelResult> {
  const r = await verifyText(path, text, { launch, timeoutMs: 20_000, maxRaces: 4, solver: z3Wasm }, await frontEndsFor(path, text, {}));
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r.kernels[0]!;
}

const block = (x: bigint): Launch => ({ params: new Map(), blockDim: [x, 1n, 1n], gridDim: null });

describe('vacuity', () => {
  it('thread p of every block fails `assume tid != p` with p < blockDim.x: vacuous, in BabyCUDA and CUDA C', async () => {
    const bcu = await verified('t.bcu', 'kernel k(p) requires p < blockDim.x { shared A; assume tid != p; A[tid] := 1 }');
    expect(bcu.status).toBe('vacuous');
    const cu = await verified(
      't.cu',
      '__global__ void k(int *A, unsigned p) {\n  __requires(p < blockDim.x);\n  __assume(threadIdx.x != p);\n  A[threadIdx.x] = 1;\n}\n',
    );
    expect(cu.status).toBe('vacuous');
  });

  it('thread blockDim.x − 2 fails `assume tid + 2 != blockDim.x` with blockDim.x > 2: vacuous, in BabyCUDA and CUDA C', async () => {
    const bcu = await verified('t.bcu', 'kernel k() requires blockDim.x > 2 { shared A; assume tid + 2 != blockDim.x; A[tid] := 1 }');
    expect(bcu.status).toBe('vacuous');
    const cu = await verified(
      't.cu',
      '__global__ void k(int *A) {\n  __requires(blockDim.x > 2);\n  __assume(threadIdx.x + 2 != blockDim.x);\n  A[threadIdx.x] = 1;\n}\n',
    );
    expect(cu.status).toBe('vacuous');
  });

  it('an increment of a value read, which may overflow for some contents, does not hide the thread that fails the assumption', async () => {
    const text = '__global__ void k(int *A) {\n  __assume(threadIdx.x != 1);\n  A[threadIdx.x] = A[threadIdx.x] + 1;\n}\n';
    expect((await verified('t.cu', text, block(4n))).status).toBe('vacuous');
    // a block of one thread has no thread 1: in scope, and race-free
    expect((await verified('t.cu', text)).status).toBe('drf');
    expect((await verified('t.cu', text, block(1n))).status).toBe('drf');
  });

  it('a parameter-dependent assumption that some launch satisfies keeps its verdict', async () => {
    const drf = await verified('t.bcu', 'kernel k(p) requires p < blockDim.x { shared A; assume tid != p || p = 0; A[tid] := 1 }');
    expect(drf.status).toBe('drf');
    expect(drf.unknowns).toEqual([]);
    const cu = await verified(
      't.cu',
      '__global__ void k(int *A, unsigned p) {\n  __requires(p < blockDim.x);\n  __assume(threadIdx.x != p || p == 0);\n  A[threadIdx.x] = 1;\n}\n',
    );
    expect(cu.status).toBe('drf');
    const racy = await verified('t.bcu', 'kernel k(p) requires p < blockDim.x { shared A; assume tid != p || p = 0; A[tid % 2] := tid }');
    expect(racy.status).toBe('racy');
    expect(racy.races.map((r) => r.confidence)).toEqual(['confirmed']);
  });

  it('names the thread found by the parameters and sizes it is near, its numbers first', () => {
    const named = threadsNamed({ threadIdx: [5n, 0n, 0n], blockIdx: [0n, 0n, 0n] }, { params: new Map([['p', 5n], ['q', 100n]]), blockDim: [7n, 1n, 1n], gridDim: [1n, 1n, 1n] });
    expect(named.map((t) => t.threadIdx[0])).toEqual([
      { kind: 'number', value: 5n },
      { kind: 'param', name: 'p', plus: 0n },
      { kind: 'dim', dim: 'blockDim', axis: 'x', plus: -2n },
    ]);
    expect(named.every((t) => t.blockIdx.every((c) => c.kind === 'number' && c.value === 0n))).toBe(true);
  });
});

describe('an operation on a value read from the input', () => {
  const reduction = (tail: string): string =>
    [
      '__global__ void reduce(float *out, int *B) {',
      '  __shared__ float s[64];',
      '  unsigned i = threadIdx.x;',
      '  s[i] = out[i];',
      '  __syncthreads();',
      '  for (unsigned k = 32; k > 0; k /= 2) {',
      '    if (i < k) s[i] = s[i] + s[i + k];',
      '  }',
      '  if (i == 0) out[blockIdx.x] = s[0];',
      tail,
      '}',
      '',
    ].join('\n');

  it('does not make a reduction missing its barrier only possible: its alarms stay confirmed', async () => {
    const r = await verified('t.cu', reduction('  B[i] = B[i] + 1;'), block(64n));
    expect(r.wellTyped).toBe(false);
    const onS = r.races.filter((x) => x.array === 's');
    expect(onS.length).toBeGreaterThan(0);
    expect(r.races.map((x) => x.confidence)).toEqual(r.races.map(() => 'confirmed'));
  });

  it('still makes the alarms possible when the value read was written before (it need not be the input) or the operation is undefined on zeros', async () => {
    const written = await verified('t.cu', reduction('  B[i] = 2147483647;\n  __syncthreads();\n  B[i] = B[i] + 1;'), block(64n));
    expect(written.races.find((x) => x.array === 's')!.confidence).toBe('possible');
    const division = await verified('t.cu', reduction('  B[i] = 7 / B[i];'), block(64n));
    expect(division.races.find((x) => x.array === 's')!.confidence).toBe('possible');
  });
});
