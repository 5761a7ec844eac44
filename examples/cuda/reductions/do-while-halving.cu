// expect: drf
// Tree reduction written as a do-while: the body runs for stride 128, 64,
// ..., 1, each step ending with a barrier, so a step's reads of
// s[tid + stride] come after the previous step's writes. The do-while is its
// body once, then the exact loop `while (stride > 0)`, so the barrier is no
// possible divergence.
// Racy twin: do-while-halving-no-sync.cu.
__global__ void halve_sum(float *out, const float *in)
{
    __requires(blockDim.x == 256);
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    unsigned int stride = 128;
    do {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
        stride >>= 1;
    } while (stride > 0);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}
