// expect: drf
// Block sum with interleaved addressing through a strided index (the second
// classic reduction): in round s the thread works on index = 2*s*tid. Written
// elements 2*s*tid are distinct; the other element read, 2*s*tid + s, is an
// odd multiple of s and never written in that round. Barrier after each round.
__global__ void reduce_strided_index(const float *g_in, float *g_out, unsigned int n)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
