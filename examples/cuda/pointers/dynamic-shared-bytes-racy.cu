// expect: racy confirmed
// dynamic-shared-bytes.cu without its barrier: thread t reads the float slot
// blockDim.x - 1 - t of the byte-declared dynamic shared memory while that
// slot's thread writes it (the accesses count floats, as the only use of the
// bytes is the cast to float *). Race-free twin: dynamic-shared-bytes.cu.
#include "cuda_runtime.h"

extern __shared__ unsigned char smem[];

__global__ void reverse(float *data) {
  float *s = reinterpret_cast<float *>(smem);
  unsigned t = threadIdx.x;
  s[t] = data[blockIdx.x * blockDim.x + t];
  data[blockIdx.x * blockDim.x + t] = s[blockDim.x - 1 - t];
}

int main() {
  float *d;
  reverse<<<64, 256, 256 * sizeof(float)>>>(d);
  return 0;
}
