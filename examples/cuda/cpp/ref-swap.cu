// expect: drf
// Each thread swaps the two elements of its pair in shared memory through a
// __device__ function taking two `int &` parameters. The references alias
// s[2t] and s[2t+1], so the swap's reads and writes are accesses of those
// two elements, which no other thread touches. Twin: ref-swap-racy.cu.
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
  swap_ints(s[2 * t], s[2 * t + 1]);
  __syncthreads();
  out[t] = s[t];
}
