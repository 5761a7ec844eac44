// expect: drf
// grid-stride-saxpy.cu with 32-bit unsigned indices and no launch given: the
// same argument (distinct start offsets below the stride S, every thread steps
// by S) holds for every block and grid size. Unsigned on purpose: with
// `int stride`, a grid of more than 2^31 threads makes the stride negative and
// two threads do meet (e.g. S = 3 * 2^30: the thread starting at 2^30 steps
// back to 0). The unsigned stride blockDim.x * gridDim.x is below 2^32 under
// the stated grid assumption (fewer than 2^32 threads along x); at exactly
// 2^32 it would wrap to 0.
__global__ void saxpy_grid_stride_any(unsigned int n, float a, const float *x, float *y)
{
    unsigned int stride = blockDim.x * gridDim.x;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i] + y[i];
}
