// expect: racy confirmed
// The extern "C" kernel of extern-c-scale.cu writing x[i + 1] from x[i]:
// thread i reads x[i] while thread i - 1 writes it (read-write race).
extern "C" __global__ void scale_shifted(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) x[i + 1] = a * x[i];
}
