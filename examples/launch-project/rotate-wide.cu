// expect: racy confirmed
// rotate.cu's kernel, launched by main.cu with 2 * BLOCK threads a block:
// thread BLOCK of block 0 and thread 0 of block 1 both write
// data[BLOCK] (and threads t and t + BLOCK share tile[t]). Fixed twin: rotate.cu.
#include "blocks.h"

__global__ void rotate_wide(float *data) {
  __shared__ float tile[BLOCK];
  unsigned t = threadIdx.x;
  tile[t % BLOCK] = data[blockIdx.x * BLOCK + t];
  __syncthreads();
  data[blockIdx.x * BLOCK + t] = tile[(t + 1) % BLOCK];
}
