// expect: drf
//--blockDim=[16,16] --gridDim=[4,4] -DTILE=16
// C = A * B for n x n matrices with TILE x TILE shared tiles. Every iteration
// has two barriers: the first between filling As/Bs (one writer per element)
// and reading them, the second before the next iteration overwrites them. The
// loop bound is the same for every thread. __requires: the grid covers the
// matrix exactly (keeps the product indices linear for the solver; the kernel
// is race free for any n). The host code is not analysed.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#ifndef TILE
#define TILE 16
#endif

__host__ __device__ inline int ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __requires(n == gridDim.x * TILE);
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < ceil_div(n, TILE); ++t) {
        int a_col = t * TILE + tx;
        int b_row = t * TILE + ty;
        As[ty][tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}

int main()
{
    const int n = 64;
    std::vector<float> a(n * n, 1.0f), b(n * n, 2.0f), c(n * n);
    float *da, *db, *dc;
    cudaMalloc(&da, n * n * sizeof(float));
    cudaMalloc(&db, n * n * sizeof(float));
    cudaMalloc(&dc, n * n * sizeof(float));
    cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE);
    dim3 grid(ceil_div(n, TILE), ceil_div(n, TILE));
    matmul_tiled<<<grid, block>>>(da, db, dc, n);
    cudaMemcpy(c.data(), dc, n * n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("c[0] = %f (expected %f)\n", c[0], 2.0f * n);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return 0;
}
