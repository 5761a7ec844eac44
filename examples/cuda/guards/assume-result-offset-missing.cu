// expect: racy confirmed
// assume-result-offset.cu without the __assume: with res = 1 and blockDim.x =
// 2, thread 0 writes scratch[1] while thread 1 reads its input scratch[1] in
// the same phase. Fixed twin: assume-result-offset.cu.
__global__ void square_staged_unchecked(const float *in, float *out, unsigned int res)
{
    extern __shared__ float scratch[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tid;
    scratch[tid] = in[i];
    __syncthreads();
    float v = scratch[tid];
    scratch[res + tid] = v * v;
    __syncthreads();
    out[i] = scratch[res + tid];
}
