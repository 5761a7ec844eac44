// expect: drf
//--blockDim=256 --gridDim=120
// saxpy with a grid-stride loop over 64-bit indices: thread g of the grid
// visits g, g + S, g + 2S, ... with S = blockDim.x * gridDim.x the number of
// threads; distinct threads start at distinct offsets below S, so they never
// visit the same i.
__global__ void saxpy_grid_stride(size_t n, float a, const float *__restrict__ x, float *__restrict__ y)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
