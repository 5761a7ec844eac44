// expect: racy confirmed
//--blockDim=256 --gridDim=8
// expect with --warp-size 32: drf
// warp-tree-syncwarp.cu without its __syncwarp() calls: the first warp's
// rounds rely on the warp running in lockstep. With independent threads
// thread 0 reads part[16] while thread 16 may not have written its partial
// sum there yet (or may already be writing the next round's): a race. With
// --warp-size 32 the warp's writes of a round come before its reads, and
// the reads before the next round's writes: DRF.
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
      part[tid] = mine;
      mine += part[tid + d];
    }
    if (tid == 0) out[blockIdx.x] = mine;
  }
}
