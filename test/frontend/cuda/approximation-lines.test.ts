/** An approximation's notice names the line the user wrote, not a line of the preprocessed text (where headers are inlined). */
import { describe, expect, it } from 'vitest';
import { core } from './lower-helpers.js';

describe('approximation notices name the file\'s lines', () => {
  it('through an include before the loop, a macro the loop comes from, and a loop written in the header', async () => {
    const header = '// a header of eight lines\n\n\n\n\n#define SPIN do { A[0] = 1; } while (A[1] > 0);\n__device__ void g(int *B) { int j = 0; do { j++; } while (B[j] > 0); B[j] = 1; }\n\n';
    const listing = await core(
      `#include "h.cuh"
__global__ void k(int *A, int n) {
  int i = threadIdx.x;
  do { i += 2; } while (i < A[n]);
  A[i] = 0;
  SPIN
  g(A);
}`,
      { files: { 'h.cuh': header } },
    );
    const loops = [...listing.matchAll(/the number of iterations of the loop at line ([^:]+):/g)].map((m) => m[1]);
    expect(loops).toEqual(['4', '6', '7 of h.cuh']);
    expect(listing).toContain('i after the loop at line 4:');
  });
});
