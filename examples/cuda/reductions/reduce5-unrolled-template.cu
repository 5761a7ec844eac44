// expect: drf
// Completely unrolled block sum with the block size as a template parameter
// (the shape of the sixth classic reduction), first add during the load.
// blockSize is not instantiated here, so it is symbolic: the
// verdict holds for every value. Every step is `if (blockSize >= 2w)` (the
// same for all threads, so its barrier is uniform) around `if (tid < w)`;
// writers tid < w and the other slots read, tid + w, are disjoint.
template <unsigned int blockSize>
__global__ void reduce_unrolled(const float *g_in, float *g_out, unsigned int n)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    float v = (i < n) ? g_in[i] : 0.0f;
    if (i + blockSize < n)
        v += g_in[i + blockSize];
    sdata[tid] = v;
    __syncthreads();

    if (blockSize >= 1024) { if (tid < 512) sdata[tid] += sdata[tid + 512]; __syncthreads(); }
    if (blockSize >= 512)  { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
    if (blockSize >= 256)  { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
    if (blockSize >= 128)  { if (tid < 64)  sdata[tid] += sdata[tid + 64];  __syncthreads(); }
    if (blockSize >= 64)   { if (tid < 32)  sdata[tid] += sdata[tid + 32];  __syncthreads(); }
    if (blockSize >= 32)   { if (tid < 16)  sdata[tid] += sdata[tid + 16];  __syncthreads(); }
    if (blockSize >= 16)   { if (tid < 8)   sdata[tid] += sdata[tid + 8];   __syncthreads(); }
    if (blockSize >= 8)    { if (tid < 4)   sdata[tid] += sdata[tid + 4];   __syncthreads(); }
    if (blockSize >= 4)    { if (tid < 2)   sdata[tid] += sdata[tid + 2];   __syncthreads(); }
    if (blockSize >= 2)    { if (tid < 1)   sdata[tid] += sdata[tid + 1];   __syncthreads(); }

    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
