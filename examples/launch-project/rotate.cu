// expect: drf
// Each block rotates its chunk of BLOCK elements left by one through a shared
// tile. Written for blocks of BLOCK threads, and main.cu launches it so: in
// the project (`verify examples/launch-project`) it is verified at that
// launch. Alone, at every launch, thread BLOCK of a larger block writes the
// element of thread 0 of the next block. Racy twin: rotate-wide.cu.
#include "blocks.h"

__global__ void rotate(float *data) {
  __shared__ float tile[BLOCK];
  unsigned t = threadIdx.x;
  tile[t] = data[blockIdx.x * BLOCK + t];
  __syncthreads();
  data[blockIdx.x * BLOCK + t] = tile[(t + 1) % BLOCK];
}
