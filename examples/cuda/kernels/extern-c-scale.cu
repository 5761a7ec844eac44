// expect: drf
// Kernels as the driver API and runtime compilation load them: by C names,
// from an extern "C" declaration and an extern "C" block. Each thread scales
// its own element. Racy twin: extern-c-scale-shifted.cu.
extern "C" __global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}

extern "C" {
__global__ void offset(float *x, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] + b;
}
}
