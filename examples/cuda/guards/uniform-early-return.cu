// expect: drf
// Per-tile sums on a grid that may have more blocks than tiles: blocks past
// the last tile return before the barriers. The test reads only blockIdx.x and
// a parameter, so all threads of a block leave together: not divergent. The
// rest is a sequential-addressing reduction per block.
__global__ void tile_sums(const float *in, float *sums, unsigned int ntiles)
{
    extern __shared__ float s[];
    if (blockIdx.x >= ntiles)
        return;
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int w = blockDim.x / 2; w > 0; w >>= 1) {
        if (tid < w)
            s[tid] += s[tid + w];
        __syncthreads();
    }
    if (tid == 0)
        sums[blockIdx.x] = s[0];
}
