// expect: racy confirmed
// The do-while reduction with its barrier moved after the loop: thread 1
// writes s[1] (in the first iteration, stride 128) while thread 0 reads
// s[0 + 1] at stride 1, all in one phase.
// Race-free twin: do-while-halving.cu.
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
        stride >>= 1;
    } while (stride > 0);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}
