// expect: drf
// reduce4-last-warp.cu made safe without lock-step warps: each of the last six
// steps is a helper call that guards the add with `tid < w` and then reaches a
// block-wide barrier (called by every thread, so the barrier is uniform). In a
// step, writers tid < w and the other slots read, tid + w >= w, are disjoint.
__device__ void fold_step(volatile float *s, unsigned int tid, unsigned int w)
{
    if (tid < w)
        s[tid] += s[tid + w];
    __syncthreads();
}

__global__ void reduce_last_warp_guarded(const float *g_in, float *g_out, unsigned int n)
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
    fold_step(sdata, tid, 32);
    fold_step(sdata, tid, 16);
    fold_step(sdata, tid, 8);
    fold_step(sdata, tid, 4);
    fold_step(sdata, tid, 2);
    fold_step(sdata, tid, 1);
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
