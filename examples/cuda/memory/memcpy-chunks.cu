// expect: drf
// Each thread copies its own chunk of four ints into shared memory with
// memcpy (16 bytes: elements 4t .. 4t+3), the block synchronises, and each
// thread reads a chunk another thread copied. Twin: memcpy-chunks-racy.cu.
__global__ void chunks(int *out, const int *in) {
  __shared__ int s[4096];
  unsigned t = threadIdx.x;
  memcpy(&s[4 * t], &in[4 * t], 4 * sizeof(int));
  __syncthreads();
  out[t] = s[4 * ((t + 1) % blockDim.x)];
}
