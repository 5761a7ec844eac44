// expect: drf
//--blockDim=32 --gridDim=1
// warp-tag-racy.cu with one warp: the lanes tag >> 27 of threads 0 to 31 are
// distinct, so each slot has one writer.
__global__ void tag(unsigned *out) {
  __shared__ unsigned slots[32];
  unsigned tag = threadIdx.x << 27;
  slots[tag >> 27] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = slots[threadIdx.x];
}
