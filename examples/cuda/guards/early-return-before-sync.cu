// expect: divergent
// Rotates each block's values by one slot through shared memory, but threads
// past the end of the input return before the __syncthreads(): in a partial
// last block (e.g. blockDim.x = 2, n = 1) thread 0 reaches the barrier and
// thread 1 has returned. Fixed twin: early-return-after-sync.cu.
__global__ void rotate_block(const float *in, float *out, int n)
{
    extern __shared__ float buf[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    buf[tid] = in[i];
    __syncthreads();
    out[i] = buf[(tid + 1) % blockDim.x];
}
