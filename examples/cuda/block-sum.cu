// expect: drf
// Tree reduction of one block in shared memory: each step halves the number of
// active threads and ends with a barrier, so a step's reads of buf[t + k]
// never meet the writes of the next. Racy twin: block-sum-no-sync.cu.
__global__ void block_sum(const float *in, float *out) {
  extern __shared__ float buf[];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) buf[t] += buf[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}
