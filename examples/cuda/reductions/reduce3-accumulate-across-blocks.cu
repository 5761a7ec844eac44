// expect: racy confirmed
// reduce3-first-add.cu where every block adds its partial sum into g_out[0]
// with a plain `+=` instead of writing g_out[blockIdx.x]: thread 0 of block 0
// and thread 0 of block 1 both read and write g_out[0], and barriers do not
// order blocks (needs gridDim.x >= 2). Fixed twin: reduce3-first-add.cu.
__global__ void reduce_accumulate(const float *g_in, float *g_out, unsigned int n)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = (i < n) ? g_in[i] : 0.0f;
    if (i + blockDim.x < n)
        v += g_in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[0] += sdata[0];
}
