// expect: divergent
// The threads past the end return before the barrier: in the last, partial
// block some threads reach __syncthreads() and others have returned, which is
// barrier divergence (e.g. n = 1 with two threads in the block).
__global__ void shift_left(const int *in, int *out, int n) {
  __shared__ int buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  buf[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = buf[(threadIdx.x + 1) % blockDim.x];
}
