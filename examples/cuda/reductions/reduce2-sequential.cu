// expect: drf
// Block sum with sequential addressing (the third classic reduction): the
// stride halves from blockDim.x / 2; threads tid < s write sdata[tid] (slots
// 0..s-1) and read sdata[tid + s] (slots s..2s-1), disjoint ranges. The sum is
// only right for a power-of-two block size, but the kernel is race free for
// every size.
__global__ void reduce_sequential(const float *g_in, float *g_out, unsigned int n)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
