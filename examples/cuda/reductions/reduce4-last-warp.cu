// expect: racy confirmed
// The fifth classic reduction: the last 64 partial sums are folded by the
// first 32 threads without barriers, through a volatile pointer, relying on
// the 32 threads of a warp running in lock-step. That is not the model (nor
// Volta and later): threads are scheduled independently, so warp-synchronous
// code races. Here thread 16 writes s[16] in the first step (s[16] += s[48])
// while thread 0 reads s[0 + 16] in the second step, with no barrier between
// (any blockDim.x >= 17). Fixed twin: reduce4-last-warp-guarded.cu.
__device__ void warp_reduce(volatile float *s, unsigned int tid)
{
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

__global__ void reduce_last_warp(const float *g_in, float *g_out, unsigned int n)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = (i < n) ? g_in[i] : 0.0f;
    if (i + blockDim.x < n)
        v += g_in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32)
        warp_reduce(sdata, tid);
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
