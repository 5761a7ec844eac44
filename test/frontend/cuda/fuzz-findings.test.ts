/**
 * Internal errors scripts/cuda-fuzz.js found in the CUDA front end, each
 * now a located rejection (the seed and mutant index in each test's name).
 */
import { describe, expect, it } from 'vitest';
import { rejection } from './lower-helpers.js';

describe('front-end fuzz findings', () => {
  it("GNU's a ?: b is rejected by name (seed 30, #1958: 'lo' dropped from 'ascending ? lo : hi')", async () => {
    const text = `__global__ void k(int *A, bool up) {\n  A[threadIdx.x] = up ?   : 2;\n}\n`;
    const shown = await rejection(text);
    expect(shown).toContain("E0602");
    expect(shown).toContain("unsupported: GNU's conditional without a middle operand (a ?: b)");
    expect(shown).toContain('k.cu:2:20');
  });

  it("50 unary minuses in a row are rejected for their size at once (seed 7, #1074: '-' repeated 50x; the size check walked the shared subterms as a tree and never answered)", async () => {
    const text = `__global__ void k(int *out, const int *in) {\n  unsigned t = threadIdx.x;\n  unsigned lane = t % 4;\n  out[t ${'- '.repeat(50)}lane] = in[t];\n}\n`;
    const shown = await rejection(text);
    expect(shown).toContain("error[E0005]: the lowered kernel's expressions have more than 1,000,000 operators and operands");
    expect(shown).toContain('k.cu:4:7');
  }, 20_000);

  it('a loop calling a function whose parameter list does not parse (seed 30, #679: `, ,` in the parameters)', async () => {
    const text = `__device__ void swap(float *s, unsigned int i, , , unsigned int j) { s[i] = s[j]; }
__global__ void k(float *s) {
  for (unsigned int j = 1; j < 8; j <<= 1) swap(s, threadIdx.x, j);
}
`;
    const shown = await rejection(text);
    expect(shown).not.toContain('internal error');
    expect(shown).toMatch(/error\[E06\d\d\]/);
    expect(shown).toMatch(/k\.cu:\d+:\d+/);
  });
});
