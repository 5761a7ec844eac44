// expect: racy confirmed
// ref-swap.cu with the pairs overlapping: thread t swaps s[t] and s[t+1]
// through its `int &` parameters, so thread 0 writes s[1] through its y
// while thread 1 reads and writes the same element through its x.
__device__ void swap_ints(int &x, int &y) {
  int t = x;
  x = y;
  y = t;
}

__global__ void pair_swap(int *out, const int *in) {
  __shared__ int s[2048];
  int t = threadIdx.x;
  s[2 * t] = in[2 * t];
  s[2 * t + 1] = in[2 * t + 1];
  __syncthreads();
  swap_ints(s[t], s[t + 1]);
  __syncthreads();
  out[t] = s[t];
}
