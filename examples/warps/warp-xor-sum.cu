// expect: drf
//--blockDim=256 --gridDim=8
// expect with --arch sm_60 --warp-size 32: drf
// Per-warp sums for Volta and later: each warp of a block sums its 32
// values in shared memory with a butterfly, every lane reading its
// partner's value, then __syncwarp(), then adding it into its own, then
// __syncwarp() before the next round reads. Lane 0 of each warp stores the
// warp's sum. DRF with independent threads and in lockstep.
#define FULL_MASK 0xffffffffu

__global__ void warp_sums(const float *in, float *out) {
  __shared__ float vals[256];
  unsigned tid = threadIdx.x;
  vals[tid] = in[blockIdx.x * 256 + tid];
  __syncwarp(FULL_MASK);
  for (unsigned d = 16; d > 0; d /= 2) {
    float partner = vals[tid ^ d];
    __syncwarp(FULL_MASK);
    vals[tid] += partner;
    __syncwarp(FULL_MASK);
  }
  if (tid % warpSize == 0) out[blockIdx.x * 8 + tid / warpSize] = vals[tid];
}
