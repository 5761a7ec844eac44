// expect: drf
// The dot product of "CUDA by Example": each thread sums a grid-stride slice
// into shared memory, then the block halves its partial sums with
// `while (i != 0) { …; __syncthreads(); i /= 2; }`, a while loop whose last
// statement is its step. For a signed `i` below 0 the loop would never stop
// at 0, so that case is approximated (its notices are in the report) and the
// launches reach the exact loop. Racy twin: dot-while-halving-racy.cu.
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
    __syncthreads();
    i /= 2;
  }
  if (ci == 0) c[blockIdx.x] = cache[0];
}

int main() {
  float *a, *b, *c;
  dot<<<32, THREADS>>>(a, b, c, 1 << 16);
  return 0;
}
