// expect: drf
// The launch's dynamic shared memory declared as bytes and used as floats,
// as generic code does: `extern __shared__ unsigned char smem[];` is only
// ever cast to `float *`, so it is an array of floats. A block reverses its
// slice through it: each thread writes its slot, the block synchronises,
// each reads the mirrored slot. Before, the cast from char to float was
// rejected (elements of different sizes). Racy twin:
// dynamic-shared-bytes-racy.cu.
#include "cuda_runtime.h"

extern __shared__ unsigned char smem[];

__global__ void reverse(float *data) {
  float *s = reinterpret_cast<float *>(smem);
  unsigned t = threadIdx.x;
  s[t] = data[blockIdx.x * blockDim.x + t];
  __syncthreads();
  data[blockIdx.x * blockDim.x + t] = s[blockDim.x - 1 - t];
}

int main() {
  float *d;
  reverse<<<64, 256, 256 * sizeof(float)>>>(d);
  return 0;
}
