// expect: racy confirmed
//--blockDim=256 --gridDim=8
// expect with --arch sm_60 --warp-size 32: drf
// warp-xor-sum.cu without its __syncwarp() calls: correct only if each warp
// runs in lockstep. With independent threads lane 0 reads vals[16] while
// lane 16 may already be adding into it (and the first round may read what
// the load before it has not stored yet): a race. With --arch sm_60 --warp-size 32 each
// statement runs for the whole warp before the next: DRF.
__global__ void warp_sums(const float *in, float *out) {
  __shared__ float vals[256];
  unsigned tid = threadIdx.x;
  vals[tid] = in[blockIdx.x * 256 + tid];
  for (unsigned d = 16; d > 0; d /= 2) {
    float partner = vals[tid ^ d];
    vals[tid] += partner;
  }
  if (tid % warpSize == 0) out[blockIdx.x * 8 + tid / warpSize] = vals[tid];
}
