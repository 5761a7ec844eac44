// expect: racy confirmed
// The dot product of "CUDA by Example" without the barrier inside its
// halving loop `while (i != 0) { …; i /= 2; }`: at i = 1 thread 0 reads
// cache[1] while thread 1, still at i = 2, writes it. Race-free twin:
// dot-while-halving.cu.
#include "cuda_runtime.h"
#define THREADS 256

__global__ void dot(const float *a, const float *b, float *c, int n) {
  __shared__ float cache[THREADS];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int ci = threadIdx.x;
  float temp = 0;
  while (tid < n) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }
  cache[ci] = temp;
  __syncthreads();
  int i = blockDim.x / 2;
  while (i != 0) {
    if (ci < i) cache[ci] += cache[ci + i];
    i /= 2;
  }
  if (ci == 0) c[blockIdx.x] = cache[0];
}

int main() {
  float *a, *b, *c;
  dot<<<32, THREADS>>>(a, b, c, 1 << 16);
  return 0;
}
