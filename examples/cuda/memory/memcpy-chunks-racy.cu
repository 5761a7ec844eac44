// expect: racy confirmed
// memcpy-chunks.cu copying 20 bytes (five ints) per thread: thread 0 writes
// s[4] (its fifth element) and thread 1 writes s[4] (its first), both in
// the memcpy at line 8.
__global__ void chunks(int *out, const int *in) {
  __shared__ int s[4096];
  unsigned t = threadIdx.x;
  memcpy(&s[4 * t], &in[4 * t], 5 * sizeof(int));
  __syncthreads();
  out[t] = s[4 * ((t + 1) % blockDim.x)];
}
