// expect: drf
// CUDA-samples-era global index with __mul24: at the launch main makes (128
// blocks of 256 threads) both operands hold in 24 bits, so the index is
// blockIdx.x * 256 + threadIdx.x and each thread writes its own element.
// Racy twin: mul24-index-racy.cu.
#define BLOCK 256
__global__ void scale(float *out, const float *in, int n)
{
    int i = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}

int main()
{
    float *a, *b;
    scale<<<128, BLOCK>>>(b, a, 128 * BLOCK);
    return 0;
}
