/** `lower --sexp`: a kernel of the Coq model's fragment as the s-expression the extracted semantics reads, and every other kernel refused at its constructs. */
import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { kernelSexp } from '../../src/core/sexp.js';
import { spanText } from '../../src/core/source.js';
import { cliResult } from '../cli/helpers.js';
import * as b from '../support/core.js';

const sexpOf = (source: string): ReturnType<typeof kernelSexp> => kernelSexp(parseProgram('k.bcu', source).kernels[0]!);

describe('kernelSexp', () => {
  it('prints every construct of the fragment, a binder scoping over the rest of its block', () => {
    const printed = sexpOf(`kernel k(n, m) <<<1, (n, 2)>>> requires n > 0 && m <= 4 {
  shared S[4][4];
  global G;
  let x = S[tid][blockIdx.x] in
  let y = x + n in
  G[y] := 1;
  for i in 0..n { if (i < m) { sync } };
  for j in n downto 1 step / 2 { assume !(j == 3) || false };
  for k in 1..m step * 3 { skip }
}`);
    expect(printed).toEqual({
      kind: 'sexp',
      text: `(kernel k
  (params n m)
  (arrays (S shared) (G global))
  (requires (and (> n 0) (<= m 4)))
  (launch (1) (n 2))
  (body (read x S ((threadIdx x) (blockIdx x)) (let y (+ x n) (seq (write G (y) 1) (seq (for i 0 n (+ 1) (if (< i m) sync skip)) (seq (for j n 1 (/ 2) (assume (or (not (== j 3)) false))) (for k 1 m (* 3) skip))))))))`,
    });
  });

  it('prints atomics, bound or not, the old value scoping over the rest of the block', () => {
    expect(sexpOf(`kernel k(n) {
  global G;
  atomic add(G[tid], 1);
  let o = atomic cas(G[0], n, 2) in
  G[o] := o
}`)).toEqual({
      kind: 'sexp',
      text: `(kernel k
  (params n)
  (arrays (G global))
  (requires)
  (body (seq (atomic add G ((threadIdx x)) (1) _ skip) (atomic cas G (0) (n 2) o (write G (o) o)))))`,
    });
  });

  it('prints machine integers: typed parameters, constants, variables, operations, casts, comparisons and loop counters', () => {
    const k = b.kernel(
      'k',
      { params: [b.param('n', 'i32')], arrays: [b.shared('A')] },
      [
        b.let_('x', b.bin('-', b.tidAs('u32'), b.u32(1)), b.write('A', [b.v('x', 'u32')], b.i32(-1))),
        b.forLoop('i', { type: 'i32', from: b.v('n', 'i32'), to: b.i32(0), down: true }, [b.if_(b.cmp('<', b.v('i', 'i32'), b.bin('<<', b.i32(1), b.u32(3))), [b.sync])]),
      ],
    );
    expect(kernelSexp(k)).toEqual({
      kind: 'sexp',
      text: `(kernel k
  (params (n i32))
  (arrays (A shared))
  (requires)
  (body (let x (u32 - (cast u32 (threadIdx x)) (u32 1)) (seq (write A ((u32 x)) (i32 -1)) (for i (i32 n) (i32 0) (i32 - (i32 1)) (if (cmp < (i32 i) (i32 << (i32 1) (u32 3))) sync skip))))))`,
    });
  });

  it('refuses a conditional expression, and a typed loop whose bounds have another type', () => {
    const k = b.kernel('k', { arrays: [b.shared('A')] }, [
      b.write('A', [b.i32(0)], b.ite(b.cmp('<', b.tidAs('i32'), b.i32(1)), b.i32(1), b.i32(2))),
      b.forLoop('i', { type: 'i32', from: b.u32(0), to: b.i32(2) }, [b.skip]),
    ]);
    const printed = kernelSexp(k);
    if (printed.kind !== 'outside') throw new Error('printed a conditional expression');
    expect(printed.reasons.map((r) => r.what)).toEqual([
      'a conditional expression (not in the model)',
      "a bound of type u32 for a loop counter of type i32 (the model reads the bounds in the counter's type)",
    ]);
  });

  it('refuses syncwarp at each one, printing nothing', () => {
    const source = `kernel k(n) {
  global G;
  syncwarp;
  G[0] := n;
  syncwarp
}`;
    const program = parseProgram('k.bcu', source);
    const printed = kernelSexp(program.kernels[0]!);
    if (printed.kind !== 'outside') throw new Error('printed a kernel with syncwarp');
    expect(printed.reasons.map((r) => [spanText(program.file, r.span), r.what])).toEqual([
      ['syncwarp', 'a syncwarp (the model has block barriers only)'],
      ['syncwarp', 'a syncwarp (the model has block barriers only)'],
    ]);
  });
});

describe('faial-ts lower --sexp', () => {
  it('prints the paper\'s Figure 3 and exits 0', async () => {
    const r = await cliResult(['lower', '--sexp', 'examples/paper/figure3.bcu']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('(body (for x 0 M (+ 1) (read y A (x) (write A (x) (+ y 1)))))');
  });

  it('refuses a kernel outside the fragment with E0701 at the construct, and exits 2', async () => {
    const r = await cliResult(['lower', '--sexp', 'examples/warps/warp-syncwarp-diverged.bcu']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^kernel \w+ is not printed:\nerror\[E0701\]: outside the Coq model's fragment: a syncwarp/m);
  });

  it('refuses a CUDA kernel with a float value at it', async () => {
    const r = await cliResult(['lower', '--sexp', 'examples/cuda/elementwise/adjacent-diff-in-place.cu']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[E0701]: outside the Coq model's fragment: an unknown value (a float value)");
  });

  it('prints a CUDA kernel on machine integers with its typed operations', async () => {
    const r = await cliResult(['lower', '--sexp', 'examples/cuda/benign/float-double-one.cu']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('(if (cmp == (cast u32 (threadIdx x)) (u32 0)) (write flag ((i32 0)) (u32 1065353216))');
  });
});
