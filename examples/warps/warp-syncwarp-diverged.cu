// expect: divergent
//--blockDim=64 --gridDim=1
// expect with --arch sm_60 --warp-size 32: divergent
// A warp-level exchange written with __syncwarp() inside the branch that
// selects the lanes doing the work: lanes 16..31 of each warp skip the
// branch and never reach the __syncwarp() that lanes 0..15 wait at. CUDA
// requires every lane named in the mask to reach it (the mask is the whole
// warp): barrier divergence, with independent threads and in lockstep.
__global__ void fold_half_warp(int *data) {
  __shared__ int s[64];
  unsigned lane = threadIdx.x % warpSize;
  s[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  if (lane < 16) {
    int upper = s[threadIdx.x + 16];
    __syncwarp();
    s[threadIdx.x] = upper;
  }
  __syncthreads();
  data[threadIdx.x] = s[threadIdx.x];
}
