// expect: racy confirmed
//--blockDim=64 --gridDim=1
// Each thread stores its value one slot to the left in a ring of 32:
// s[(threadIdx.x - 1) % 32]. At thread 0 the unsigned threadIdx.x - 1 wraps
// to 4294967295, whose remainder by 32 is 31, the slot thread 32 writes too:
// with 64 threads, threads 0 and 32 race on s[31]. Twin: rotate-left.cu.
__global__ void rotate_racy(unsigned *out) {
  __shared__ unsigned s[32];
  s[(threadIdx.x - 1) % 32] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 32];
}
