// expect: racy confirmed
// The sixth classic reduction as usually written: template block size, steps
// down to 64 with barriers, then the last warp unrolled through a volatile
// pointer with no barrier, which relies on lock-step warps (not assumed: the
// model schedules threads independently). With blockSize >= 64, thread 16
// writes s[16] (s[16] += s[48]) while thread 0 reads s[0 + 16] in the next
// unrolled step, in one phase. blockSize is symbolic (no instantiation).
// Fixed twin: reduce5-unrolled-template.cu.
template <unsigned int blockSize>
__device__ void warp_reduce(volatile float *s, unsigned int tid)
{
    if (blockSize >= 64) s[tid] += s[tid + 32];
    if (blockSize >= 32) s[tid] += s[tid + 16];
    if (blockSize >= 16) s[tid] += s[tid + 8];
    if (blockSize >= 8)  s[tid] += s[tid + 4];
    if (blockSize >= 4)  s[tid] += s[tid + 2];
    if (blockSize >= 2)  s[tid] += s[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce_unrolled_warp(const float *g_in, float *g_out, unsigned int n)
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

    if (tid < 32)
        warp_reduce<blockSize>(sdata, tid);
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}
