// expect: drf
//--blockDim=32 --gridDim=1
// rotate-left-racy.cu with one warp: thread 0's slot (threadIdx.x - 1
// wraps to 4294967295, and 4294967295 % 32 = 31) is the only one no other
// thread writes, so every slot has one writer.
__global__ void rotate(unsigned *out) {
  __shared__ unsigned s[32];
  s[(threadIdx.x - 1) % 32] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
