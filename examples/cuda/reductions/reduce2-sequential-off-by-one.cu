// expect: racy confirmed
// reduce2-sequential.cu with `tid <= s` for `tid < s`: thread s also adds,
// writing sdata[s] while thread 0 reads sdata[0 + s] in the same round (e.g.
// blockDim.x = 2, s = 1: threads 0 and 1 on sdata[1]).
// Fixed twin: reduce2-sequential.cu.
__global__ void reduce_sequential_off_by_one(const float *g_in, float *g_out, unsigned int n)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid <= s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
