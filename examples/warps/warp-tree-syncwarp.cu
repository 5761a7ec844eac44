// expect: drf
//--blockDim=256 --gridDim=8
// expect with --warp-size 32: drf
// A block sum in CUDA for Volta and later: after the block-wide rounds, the
// first warp finishes the sum alone, with __syncwarp() between each round's
// reads and writes, instead of relying on lockstep execution (compare
// warp-reduce-volatile.cu). The branch `tid < 32` is uniform per warp, so
// every thread of the first warp meets every __syncwarp(): DRF with
// independent threads and in lockstep.
#define FULL_MASK 0xffffffffu

__global__ void block_sum(const float *in, float *out) {
  __shared__ float part[256];
  unsigned tid = threadIdx.x;
  part[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned s = 128; s >= 64; s /= 2) {
    if (tid < s) part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float mine = part[tid] + part[tid + 32];
    for (unsigned d = 16; d > 0; d /= 2) {
      __syncwarp(FULL_MASK);
      part[tid] = mine;
      __syncwarp(FULL_MASK);
      mine += part[tid + d];
    }
    if (tid == 0) out[blockIdx.x] = mine;
  }
}
