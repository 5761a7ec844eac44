// expect: drf
// Block sum with warp shuffles: each warp folds its values in registers
// (__shfl_down_sync returns a value the verifier does not know, which is fine:
// no index depends on it), lane 0 of warp w stores warp_sums[w], and after the
// barrier warp 0 folds the per-warp sums. Only threads with tid % 32 == 0
// write, each its own warp_sums[tid / 32]; out[blockIdx.x] is written by
// thread 0 of each block.
__inline__ __device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void reduce_shuffle(const float *in, float *out, int n)
{
    __shared__ float warp_sums[32];
    int tid = threadIdx.x;
    int lane = tid % 32;
    int warp = tid / 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    v = warp_sum(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int nwarps = (blockDim.x + 31) / 32;
        v = (lane < nwarps) ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}
