// expect: racy confirmed
// grid-stride-saxpy.cu stepping by blockDim.x instead of the whole grid:
// block 0 visits block 1's elements in its second iteration. Thread 0 of
// block 0 (i = blockDim.x after one step) and thread 0 of block 1 (i =
// blockDim.x at first) both read and write y[blockDim.x] (n > blockDim.x,
// gridDim.x >= 2). Fixed twin: grid-stride-saxpy.cu.
__global__ void saxpy_block_stride(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
        y[i] = a * x[i] + y[i];
}
