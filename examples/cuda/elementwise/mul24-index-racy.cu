// expect: racy confirmed
// The block offset is __mul24(blockIdx.x, 128) while blocks have 256 threads:
// thread 128 of block 0 and thread 0 of block 1 both write out[128], with
// different values (threadIdx.x is added to them).
// Race-free twin: mul24-index.cu.
#define BLOCK 256
__global__ void scale(float *out, const float *in, int n)
{
    int i = __mul24(blockIdx.x, 128) + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i] + (float)threadIdx.x;
}

int main()
{
    float *a, *b;
    scale<<<128, BLOCK>>>(b, a, 128 * BLOCK);
    return 0;
}
