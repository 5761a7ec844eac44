// expect: drf
// y = a*x + y with one element per thread and a bounds guard: thread i of the
// grid reads x[i] and y[i] and writes y[i], nothing else. The host code below
// (allocation, launch, check) is not analysed.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

static void check(cudaError_t err, const char *what)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}

int main(void)
{
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        hx[i] = 1.0f;
        hy[i] = (float)i;
    }
    float *dx, *dy;
    check(cudaMalloc(&dx, bytes), "cudaMalloc x");
    check(cudaMalloc(&dy, bytes), "cudaMalloc y");
    check(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice), "copy x");
    check(cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice), "copy y");
    const int threads = 256;
    saxpy<<<(n + threads - 1) / threads, threads>>>(n, 2.0f, dx, dy);
    check(cudaGetLastError(), "launch");
    check(cudaMemcpy(hy, dy, bytes, cudaMemcpyDeviceToHost), "copy back");
    int errors = 0;
    for (int i = 0; i < n; ++i)
        if (hy[i] != 2.0f + (float)i) ++errors;
    printf("%d errors\n", errors);
    cudaFree(dx);
    cudaFree(dy);
    free(hx);
    free(hy);
    return errors != 0;
}
