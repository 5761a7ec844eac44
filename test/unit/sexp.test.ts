/** `lower --sexp`: a kernel of the Coq model's fragment as the s-expression the extracted semantics reads, and every other kernel refused at its constructs. */
import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { kernelSexp } from '../../src/core/sexp.js';
import { spanText } from '../../src/core/source.js';
import { cliResult } from '../cli/helpers.js';

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

  it('refuses a CUDA kernel on machine integers', async () => {
    const r = await cliResult(['lower', '--sexp', 'examples/cuda/elementwise/adjacent-diff-in-place.cu']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error[E0701]: outside the Coq model\'s fragment: a parameter of type');
  });
});
