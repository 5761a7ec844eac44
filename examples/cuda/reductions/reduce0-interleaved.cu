// expect: drf
// Block sum with interleaved addressing and a divergent branch (the first
// classic reduction): in the round with stride s, threads whose tid is a
// multiple of 2*s add sdata[tid + s] into sdata[tid]. Writers sit at multiples
// of 2*s, the other element read is an odd multiple of s, and the barrier
// closing every round is outside the branch. Dynamic shared memory; block b
// writes only g_out[b].
__global__ void reduce_interleaved(const int *g_in, int *g_out, unsigned int n)
{
    extern __shared__ int sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_in[i] : 0;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
