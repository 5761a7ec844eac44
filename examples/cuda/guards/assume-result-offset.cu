// expect: drf
// One dynamic shared buffer holds the inputs at [0, blockDim.x) and the
// results at [res, res + blockDim.x). In the middle phase thread t reads input
// slot t and writes result slot res + t: they meet (t' = res + t) only if
// res < blockDim.x, or if res + t wraps around: C computes the unsigned
// res + t modulo 2^32, so with res = 4294967295 thread 1 writes slot 0, which
// thread 0 reads. The __assume says the regions are disjoint: the results
// start after the inputs and end below 2^32 (the host passes res =
// blockDim.x). Racy twin: assume-result-offset-missing.cu.
__global__ void square_staged(const float *in, float *out, unsigned int res)
{
    extern __shared__ float scratch[];
    __assume(res >= blockDim.x && res <= 0xffffffffu - blockDim.x);
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tid;
    scratch[tid] = in[i];
    __syncthreads();
    float v = scratch[tid];
    scratch[res + tid] = v * v;
    __syncthreads();
    out[i] = scratch[res + tid];
}
