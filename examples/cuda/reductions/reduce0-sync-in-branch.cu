// expect: divergent
// reduce0-interleaved.cu with the barrier moved inside the branch: in the first
// round (s = 1) thread 0 reaches that __syncthreads() and thread 1 does not
// (1 % 2 != 0), so the block splits at it (any blockDim.x >= 2).
// Fixed twin: reduce0-interleaved.cu.
__global__ void reduce_sync_in_branch(const int *g_in, int *g_out, unsigned int n)
{
    extern __shared__ int sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_in[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
            __syncthreads();
        }
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
