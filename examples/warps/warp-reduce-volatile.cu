// expect: racy confirmed
//--blockDim=128 --gridDim=4
// expect with --arch sm_60 --warp-size 32: drf
// A block sum whose last six steps run in the first warp without barriers,
// through a volatile pointer to the shared array, unrolled by hand: the
// pre-Volta idiom that relies on the 32 threads of a warp running in
// lockstep. With independent threads (the default) thread 16 writes
// sums[16] in the step that adds sums[tid + 32] while thread 0 reads sums[16]
// in the next step: a race. With --arch sm_60 --warp-size 32 each step is one statement
// instance of the warp: all its reads happen before its write, and the steps
// run in order, so the kernel is DRF.
__global__ void warpReduce(const float *in, float *out) {
  __shared__ float sums[128];
  unsigned tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * 128 + tid];
  __syncthreads();
  if (tid < 64) sums[tid] += sums[tid + 64];
  __syncthreads();
  if (tid < 32) {
    volatile float *v = sums;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sums[0];
}
