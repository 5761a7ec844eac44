// expect: drf
// early-return-before-sync.cu fixed: every thread stages a value (0 past the
// end), all reach the barrier, and the bounds check returns only after it.
// Phase 1 writes buf[tid]; phase 2 reads buf and writes the thread's out[i].
__global__ void rotate_block_fixed(const float *in, float *out, int n)
{
    extern __shared__ float buf[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (i >= n)
        return;
    out[i] = buf[(tid + 1) % blockDim.x];
}
