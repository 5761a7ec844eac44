// expect: racy confirmed
// block-sum.cu without the barrier inside the loop: the steps share one phase.
// With blockDim.x = 4, thread 1 writes buf[1] in the first step (k = 2) and
// thread 0 reads buf[1] in the second (k = 1), with no barrier between.
__global__ void block_sum(const float *in, float *out) {
  extern __shared__ float buf[];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) buf[t] += buf[t + k];
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}
