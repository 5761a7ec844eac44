// expect: divergent
// Interleaved block sum written with `continue` for the idle threads: the
// `continue` also skips the loop's __syncthreads(), so in the first round
// (s = 1) thread 0 reaches it and thread 1 does not (blockDim.x >= 2).
// Fixed twin: ../reductions/reduce0-interleaved.cu.
__global__ void reduce_continue(const int *g_in, int *g_out, unsigned int n)
{
    extern __shared__ int sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_in[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) != 0)
            continue;
        sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
