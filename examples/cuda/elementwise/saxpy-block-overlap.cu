// expect: racy confirmed
// saxpy.cu with an off-by-one in the block offset, blockIdx.x * (blockDim.x - 1):
// consecutive blocks overlap by one element. Thread blockDim.x-1 of block b and
// thread 0 of block b+1 both read and write y[(b+1)*(blockDim.x-1)] (e.g.
// blockDim.x = 2, n = 2: y[1] in blocks 0 and 1): a race between two blocks on
// global memory, which no barrier could order. Fixed twin: saxpy.cu.
__global__ void saxpy_overlap(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * (blockDim.x - 1) + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
